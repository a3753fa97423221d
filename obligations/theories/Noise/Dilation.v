(** * ε-dilation and dilation lifting (seed 000, Definitions 2/3 and 5/6)

    Discrete sub-distributions over a finite support ([pr_on], SubDistr.v):
    [mu : A -> R] read on a duplicate-free list [univ] that covers the
    support; events are boolean predicates.  Pairs live on
    [list_prod univ univ].

    Seed 000 writes the event of the second distribution as [exp(-ε) · E]:
    that scaling belongs to the space of the sample [u], not to the outputs,
    so for distributions over outputs the event is [E] itself.
    Definition 2 weighs the second distribution by [e^ε], Definition 5 (the
    clamped section) by [e^(-ε)]; the two are different.  Both are instances
    of [dilation_with w] ([w = exp eps] and [w = exp (- eps)]); the DP
    statement is the first one ([dilation_le]).

    The note states without proof that [μ1 =^(ε,δ) μ2] iff
    [D_ε(μ1, μ2) <= δ]; this is [lifting_eq_iff] below (with the identity
    coupling as witnesses).  [snap_lifting] applies it to the outputs of
    the snapping mechanism, with [δ = 0]. *)
From Coq Require Import Reals Lra List.
From Obligations.Core Require Import Sums SubDistr.
From Obligations.Noise Require Import Snapping.
Import ListNotations.
Local Open Scope R_scope.

Section Dilation.
Context {A : Type} (eqA : forall x y : A, {x = y} + {x <> y}).

(** [sup_E (Pr_mu1[E] - w Pr_mu2[E]) <= delta]. *)
Definition dilation_with {B} (w delta : R) (univ : list B) (mu1 mu2 : B -> R) : Prop :=
  forall E : B -> bool, pr_on univ mu1 E - w * pr_on univ mu2 E <= delta.

(** Definition 2: [D_eps(mu1, mu2) <= delta]. *)
Definition dilation_le {B} (eps delta : R) (univ : list B) (mu1 mu2 : B -> R) : Prop :=
  dilation_with (exp eps) delta univ mu1 mu2.

(** Definition 5 (weight [e^(-eps)]), kept apart: it is not Definition 2. *)
Definition dilation_le_neg {B} (eps delta : R) (univ : list B) (mu1 mu2 : B -> R) : Prop :=
  dilation_with (exp (- eps)) delta univ mu1 mu2.

(** Definitions 3/6: witnesses [muL], [muR] on pairs, non-negative, with
    [pi1 muL = mu1], [pi2 muR = mu2], supports in [Psi], and dilation
    between them.  (Their total masses are those of [mu1] and [mu2], so they
    are sub-distributions when [mu1] and [mu2] are: [lifting_witness_mass].) *)
Definition lifting_with (Psi : A -> A -> Prop) (w delta : R) (univ : list A) (mu1 mu2 : A -> R) : Prop :=
  exists muL muR : A * A -> R,
    (forall ab, In ab (list_prod univ univ) -> 0 <= muL ab /\ 0 <= muR ab) /\
    (forall a, In a univ -> rsum (map (fun b => muL (a, b)) univ) = mu1 a) /\
    (forall b, In b univ -> rsum (map (fun a => muR (a, b)) univ) = mu2 b) /\
    (forall a b, muL (a, b) <> 0 -> Psi a b) /\
    (forall a b, muR (a, b) <> 0 -> Psi a b) /\
    dilation_with w delta (list_prod univ univ) muL muR.

Definition lifting (Psi : A -> A -> Prop) (eps delta : R) (univ : list A) (mu1 mu2 : A -> R) : Prop :=
  lifting_with Psi (exp eps) delta univ mu1 mu2.

(** ** The lifting of equality is the dilation bound *)

Lemma lifting_eq_iff (w delta : R) (univ : list A) (mu1 mu2 : A -> R) :
  NoDup univ -> (forall a, In a univ -> 0 <= mu1 a) -> (forall a, In a univ -> 0 <= mu2 a) ->
  (lifting_with eq w delta univ mu1 mu2 <-> dilation_with w delta univ mu1 mu2).
Proof.
  intros Hnd Hn1 Hn2. split.
  - (* the event [E] on outputs is the event [E (fst ab)] on pairs *)
    intros (muL & muR & _ & HL & HR & SL & SR & Hdil) E.
    specialize (Hdil (fun ab => E (fst ab))). rewrite !pr_on_prod in Hdil. cbn in Hdil.
    replace (pr_on univ mu1 E)
      with (rsum (map (fun a => rsum (map (fun b => if E a then muL (a, b) else 0) univ)) univ)).
    2:{ unfold pr_on. apply rsum_ext_in. intros a Ha. destruct (E a).
        - apply HL, Ha.
        - apply rsum_zero. reflexivity. }
    replace (pr_on univ mu2 E)
      with (rsum (map (fun a => rsum (map (fun b => if E a then muR (a, b) else 0) univ)) univ)).
    2:{ (* muR lives on the diagonal, so [E a] and [E b] agree where it is non-zero *)
        rewrite (rsum_ext_in _ (fun a => rsum (map (fun b => if E b then muR (a, b) else 0) univ))).
        - rewrite (rsum_swap (fun a b => if E b then muR (a, b) else 0)).
          unfold pr_on. apply rsum_ext_in. intros b Hb. destruct (E b).
          + apply HR, Hb.
          + apply rsum_zero. reflexivity.
        - intros a Ha. apply rsum_ext_in. intros b Hb.
          destruct (Req_dec (muR (a, b)) 0) as [->|Hne].
          + destruct (E a), (E b); reflexivity.
          + rewrite (SR a b Hne). reflexivity. }
    exact Hdil.
  - (* the identity coupling *)
    intros Hdil.
    exists (fun ab => if eqA (fst ab) (snd ab) then mu1 (fst ab) else 0).
    exists (fun ab => if eqA (fst ab) (snd ab) then mu2 (snd ab) else 0).
    cbn. split; [|split; [|split; [|split; [|split]]]].
    + intros [a b] Hab. apply in_prod_iff in Hab as [Ha Hb]. cbn.
      destruct (eqA a b); split; auto; lra.
    + intros a Ha. rewrite (rsum_single eqA _ univ a Hnd Ha).
      * destruct (eqA a a); [reflexivity|contradiction].
      * intros b Hb. destruct (eqA a b); [congruence|reflexivity].
    + intros b Hb. rewrite (rsum_single eqA _ univ b Hnd Hb).
      * destruct (eqA b b); [reflexivity|contradiction].
      * intros a Ha. destruct (eqA a b); [congruence|reflexivity].
    + intros a b H. destruct (eqA a b); [assumption|contradiction].
    + intros a b H. destruct (eqA a b); [assumption|contradiction].
    + intros E. rewrite !pr_on_prod. cbn.
      specialize (Hdil (fun a => E (a, a))). unfold pr_on in Hdil.
      rewrite (rsum_ext_in _ (fun a => if E (a, a) then mu1 a else 0)).
      rewrite (rsum_ext_in (fun a => rsum (map _ univ)) (fun a => if E (a, a) then mu2 a else 0)).
      * exact Hdil.
      * intros a Ha. rewrite (rsum_single eqA _ univ a Hnd Ha).
        -- destruct (eqA a a); [reflexivity|contradiction].
        -- intros b Hb. destruct (eqA a b); [congruence|]. destruct (E (a, b)); reflexivity.
      * intros a Ha. rewrite (rsum_single eqA _ univ a Hnd Ha).
        -- destruct (eqA a a); [reflexivity|contradiction].
        -- intros b Hb. destruct (eqA a b); [congruence|]. destruct (E (a, b)); reflexivity.
Qed.

(** The witnesses carry the masses of [mu1] and [mu2]. *)
Lemma lifting_witness_mass (muL : A * A -> R) (mu1 : A -> R) (univ : list A) :
  (forall a, In a univ -> rsum (map (fun b => muL (a, b)) univ) = mu1 a) ->
  pr_on (list_prod univ univ) muL (fun _ => true) = pr_on univ mu1 (fun _ => true).
Proof.
  intros HL. rewrite pr_on_prod. unfold pr_on. apply rsum_ext_in. intros a Ha. apply HL, Ha.
Qed.

End Dilation.

(** ** The outputs of the snapping mechanism *)

(** Given distinct outputs [ys] and their probabilities [mu1 y] under [c]
    and [mu2 y] under [c'], the pointwise bound makes the two restricted
    sub-distributions related by the [(r * Delta, 0)]-dilation lifting of
    equality (through the identity coupling: the pairing of the two signs is
    already inside the pointwise bound, see SnapBound.v). *)
Lemma snap_lifting (mech mech' : R -> sign -> R) (eps : R) (ys : list R) (mu1 mu2 : R -> R) :
  NoDup ys ->
  (forall y, In y ys -> snap_prob mech y (mu1 y)) ->
  (forall y, In y ys -> snap_prob mech' y (mu2 y)) ->
  (forall y p p', snap_prob mech y p -> snap_prob mech' y p' -> p <= exp eps * p') ->
  lifting eq eps 0 ys mu1 mu2.
Proof.
  intros Hnd H1 H2 Hpt. unfold lifting. apply (lifting_eq_iff Req_EM_T); [exact Hnd| | |].
  - intros y Hy. exact (snap_prob_nonneg _ _ _ (H1 y Hy)).
  - intros y Hy. exact (snap_prob_nonneg _ _ _ (H2 y Hy)).
  - intros E. unfold pr_on. rewrite <- rsum_scal.
    assert (rsum (map (fun a => if E a then mu1 a else 0) ys) <=
            rsum (map (fun a => exp eps * (if E a then mu2 a else 0)) ys)); [|lra].
    apply rsum_le. intros y Hy. destruct (E y); [|lra].
    exact (Hpt y _ _ (H1 y Hy) (H2 y Hy)).
Qed.
