(** * Finite sub-distributions as weighted lists

    A distribution is a list of outcomes with exact rational weights; an
    outcome may be listed several times.  Lists are not canonical, so the laws
    are stated on expectations ([dexpect]) and on probabilities of events
    ([dprob]), up to [Qeq]: [dequiv d1 d2] says every expectation agrees. *)
From Coq Require Import List QArith Qreals Reals Lra Bool.
From Obligations.Core Require Import RealFacts Sums SubDistr.
Import ListNotations.

Definition dist (A : Type) := list (A * Q).

Definition ret {A} (a : A) : dist A := [(a, 1%Q)].

(* Products are reduced so that denominators stay small along a program. *)
Definition bind {A B} (d : dist A) (f : A -> dist B) : dist B :=
  flat_map (fun '(a, w) => map (fun '(b, v) => (b, Qred (w * v))) (f a)) d.

Definition dmap {A B} (g : A -> B) (d : dist A) : dist B :=
  map (fun '(a, w) => (g a, w)) d.

(** Pr[d ∈ P], computed with [qsum] (sums over the lcm of denominators). *)
Definition dprob {A} (P : A -> bool) (d : dist A) : Q :=
  qsum (map (fun '(a, w) => if P a then w else 0%Q) d).

Definition mass {A} (d : dist A) : Q := dprob (fun _ => true) d.

Definition rprob {A} (P : A -> bool) (d : dist A) : R := Q2R (dprob P d).

(** A weighted list is the core notion (Core/SubDistr.v) on its own entries, each
    with its weight: [rprob] is [pr_on], [dnonneg] and a mass at most 1 are
    [subdistr_on] ([dist_subdistr_on], below [dnonneg]). *)
Definition weight {A} (aw : A * Q) : R := Q2R (snd aw).

Lemma rprob_is_pr_on {A} (P : A -> bool) (d : dist A) : rprob P d = pr_on d weight (fun aw => P (fst aw)).
Proof.
  unfold rprob, dprob, pr_on. rewrite qsum_correct, map_map. f_equal. apply map_ext.
  intros [a w]. cbn [fst snd]. unfold weight. destruct (P a); [reflexivity|apply q2r_0].
Qed.

(** The expectation of [g]: the reference the laws are stated with. *)
Fixpoint dexpect {A} (d : dist A) (g : A -> Q) : Q :=
  match d with
  | [] => 0
  | (a, w) :: d' => w * g a + dexpect d' g
  end.

Definition dequiv {A} (d1 d2 : dist A) : Prop := forall g, dexpect d1 g == dexpect d2 g.

Definition ind (b : bool) : Q := if b then 1 else 0.

Definition dnonneg {A} (d : dist A) : Prop := forall a w, In (a, w) d -> 0 <= w.

Definition dnonneg_b {A} (d : dist A) : bool := forallb (fun '(_, w) => Qle_bool 0 w) d.

Lemma dist_subdistr_on {A} (d : dist A) : dnonneg d /\ mass d <= 1 <-> subdistr_on d weight.
Proof.
  unfold subdistr_on. rewrite <- (rprob_is_pr_on (fun _ => true)). unfold rprob. fold (mass d).
  rewrite <- q2r_1. split.
  - intros [Hnn H1]. split; [|apply Qle_Rle, H1].
    intros [a w] Ha. unfold weight. cbn [snd]. rewrite <- q2r_0. apply Qle_Rle, (Hnn a w Ha).
  - intros [Hnn H1]. split; [|apply Rle_Qle, H1].
    intros a w Ha. apply Rle_Qle. rewrite q2r_0. exact (Hnn (a, w) Ha).
Qed.

(** ** Expectations *)

Lemma dexpect_app {A} (d1 d2 : dist A) g :
  dexpect (d1 ++ d2) g == dexpect d1 g + dexpect d2 g.
Proof.
  induction d1 as [|[a w] d1 IH]; cbn [app dexpect]; [ring|].
  rewrite IH. ring.
Qed.

Lemma dexpect_ext {A} (d : dist A) g h :
  (forall a w, In (a, w) d -> g a == h a) -> dexpect d g == dexpect d h.
Proof.
  induction d as [|[a w] d IH]; intros H; cbn [dexpect]; [reflexivity|].
  rewrite (H a w (or_introl eq_refl)), IH; [reflexivity|].
  intros b v Hin. apply (H b v). now right.
Qed.

Lemma dexpect_plus {A} (d : dist A) g h :
  dexpect d (fun a => g a + h a) == dexpect d g + dexpect d h.
Proof.
  induction d as [|[a w] d IH]; cbn [dexpect]; [ring|]. rewrite IH. ring.
Qed.

Lemma dexpect_scal {A} (d : dist A) c g :
  dexpect d (fun a => c * g a) == c * dexpect d g.
Proof.
  induction d as [|[a w] d IH]; cbn [dexpect]; [ring|]. rewrite IH. ring.
Qed.

Lemma dexpect_zero {A} (d : dist A) : dexpect d (fun _ => 0) == 0.
Proof. induction d as [|[a w] d IH]; cbn [dexpect]; [reflexivity|]. rewrite IH. ring. Qed.

Lemma dexpect_nonneg {A} (d : dist A) g :
  dnonneg d -> (forall a, 0 <= g a) -> 0 <= dexpect d g.
Proof.
  induction d as [|[a w] d IH]; intros Hd Hg; cbn [dexpect]; [apply Qle_refl|].
  apply (Qplus_le_compat 0 _ 0); [|apply IH; [|exact Hg]].
  - apply Qmult_le_0_compat; [apply (Hd a w); now left|apply Hg].
  - intros b v Hin. apply (Hd b v). now right.
Qed.

Lemma dexpect_mono {A} (d : dist A) g h :
  dnonneg d -> (forall a, g a <= h a) -> dexpect d g <= dexpect d h.
Proof.
  intros Hd Hgh. apply Qle_minus_iff.
  assert (Hdiff : dexpect d (fun a => h a + (-1) * g a) == dexpect d h + - dexpect d g).
  { rewrite dexpect_plus, dexpect_scal. ring. }
  rewrite <- Hdiff. apply dexpect_nonneg; [exact Hd|].
  intros a. specialize (Hgh a). apply Qle_minus_iff in Hgh.
  setoid_replace (h a + -1 * g a) with (h a + - g a) by ring. exact Hgh.
Qed.

(** A finite sum of expectations is the expectation of the sum. *)
Lemma qsumf_dexpect {A B} (l : list B) (c : B -> Q) (d : dist A) (g : B -> A -> Q) :
  qsumf l (fun o => c o * dexpect d (g o)) == dexpect d (fun a => qsumf l (fun o => c o * g o a)).
Proof.
  induction l as [|o l IH]; cbn [qsumf fold_right].
  - symmetry. apply dexpect_zero.
  - fold (qsumf l (fun o => c o * dexpect d (g o))). rewrite IH.
    rewrite <- dexpect_scal, <- dexpect_plus. reflexivity.
Qed.

(** ** Probabilities of events are expectations of indicators *)

Lemma dprob_dexpect {A} (P : A -> bool) (d : dist A) :
  dprob P d == dexpect d (fun a => ind (P a)).
Proof.
  unfold dprob. induction d as [|[a w] d IH]; [reflexivity|].
  cbn [map dexpect]. rewrite qsum_cons, qplus_lcm_correct, IH.
  unfold ind. destruct (P a); ring.
Qed.

Lemma mass_dexpect {A} (d : dist A) : mass d == dexpect d (fun _ => 1).
Proof. unfold mass. rewrite dprob_dexpect. reflexivity. Qed.

Lemma dprob_of_dequiv {A} (P : A -> bool) (d1 d2 : dist A) :
  dequiv d1 d2 -> dprob P d1 == dprob P d2.
Proof. intros H. rewrite !dprob_dexpect. apply H. Qed.

Lemma rprob_of_dequiv {A} (P : A -> bool) (d1 d2 : dist A) :
  dequiv d1 d2 -> rprob P d1 = rprob P d2.
Proof. intros H. apply Qeq_eqR, dprob_of_dequiv, H. Qed.

Lemma dprob_nonneg {A} (P : A -> bool) (d : dist A) : dnonneg d -> 0 <= dprob P d.
Proof.
  intros H. rewrite dprob_dexpect. apply dexpect_nonneg; [exact H|].
  intros a. unfold ind. destruct (P a); discriminate.
Qed.

(** ** [dequiv] is an equivalence *)

Lemma dequiv_refl {A} (d : dist A) : dequiv d d.
Proof. intros g. reflexivity. Qed.

Lemma dequiv_sym {A} (d1 d2 : dist A) : dequiv d1 d2 -> dequiv d2 d1.
Proof. intros H g. symmetry. apply H. Qed.

Lemma dequiv_trans {A} (d1 d2 d3 : dist A) :
  dequiv d1 d2 -> dequiv d2 d3 -> dequiv d1 d3.
Proof. intros H1 H2 g. rewrite (H1 g). apply H2. Qed.

(** ** The monad laws *)

Lemma dexpect_ret {A} (a : A) g : dexpect (ret a) g == g a.
Proof. cbn. ring. Qed.

Lemma dexpect_scale_map {B} (w : Q) (l : dist B) g :
  dexpect (map (fun '(b, v) => (b, Qred (w * v))) l) g == w * dexpect l g.
Proof.
  induction l as [|[b v] l IH]; cbn [map dexpect]; [ring|].
  rewrite IH, Qred_correct. ring.
Qed.

Lemma dexpect_bind {A B} (d : dist A) (f : A -> dist B) g :
  dexpect (bind d f) g == dexpect d (fun a => dexpect (f a) g).
Proof.
  unfold bind. induction d as [|[a w] d IH]; cbn [flat_map dexpect]; [reflexivity|].
  rewrite dexpect_app, dexpect_scale_map, IH. reflexivity.
Qed.

Lemma dexpect_dmap {A B} (h : A -> B) (d : dist A) g :
  dexpect (dmap h d) g == dexpect d (fun a => g (h a)).
Proof.
  induction d as [|[a w] d IH]; cbn [dmap map dexpect]; [reflexivity|].
  fold (dmap h d). rewrite IH. reflexivity.
Qed.

Lemma dprob_ret {A} (P : A -> bool) (a : A) : dprob P (ret a) == ind (P a).
Proof. rewrite dprob_dexpect, dexpect_ret. reflexivity. Qed.

(** Pr[bind d f ∈ P] = Σ_a w_a · Pr[f a ∈ P]. *)
Lemma dprob_bind {A B} (P : B -> bool) (d : dist A) (f : A -> dist B) :
  dprob P (bind d f) == dexpect d (fun a => dprob P (f a)).
Proof.
  rewrite dprob_dexpect, dexpect_bind. apply dexpect_ext.
  intros a _ _. symmetry. apply dprob_dexpect.
Qed.

Lemma dprob_dmap {A B} (P : B -> bool) (h : A -> B) (d : dist A) :
  dprob P (dmap h d) == dprob (fun a => P (h a)) d.
Proof. rewrite !dprob_dexpect, dexpect_dmap. reflexivity. Qed.

Lemma bind_ret_l {A B} (a : A) (f : A -> dist B) : dequiv (bind (ret a) f) (f a).
Proof. intros g. rewrite dexpect_bind, dexpect_ret. reflexivity. Qed.

Lemma bind_ret_r {A} (d : dist A) : dequiv (bind d ret) d.
Proof.
  intros g. rewrite dexpect_bind. apply dexpect_ext. intros a _ _. apply dexpect_ret.
Qed.

Lemma bind_assoc {A B C} (d : dist A) (f : A -> dist B) (h : B -> dist C) :
  dequiv (bind (bind d f) h) (bind d (fun a => bind (f a) h)).
Proof.
  intros g. rewrite !dexpect_bind. apply dexpect_ext. intros a _ _.
  rewrite dexpect_bind. reflexivity.
Qed.

Lemma bind_ext_l {A B} (d1 d2 : dist A) (f : A -> dist B) :
  dequiv d1 d2 -> dequiv (bind d1 f) (bind d2 f).
Proof. intros H g. rewrite !dexpect_bind. apply H. Qed.

Lemma bind_ext_r {A B} (d : dist A) (f1 f2 : A -> dist B) :
  (forall a, dequiv (f1 a) (f2 a)) -> dequiv (bind d f1) (bind d f2).
Proof.
  intros H g. rewrite !dexpect_bind. apply dexpect_ext. intros a _ _. apply H.
Qed.

Lemma dprob_bind_ret_l {A B} (P : B -> bool) (a : A) (f : A -> dist B) :
  dprob P (bind (ret a) f) == dprob P (f a).
Proof. apply dprob_of_dequiv, bind_ret_l. Qed.

Lemma dprob_bind_ret_r {A} (P : A -> bool) (d : dist A) : dprob P (bind d ret) == dprob P d.
Proof. apply dprob_of_dequiv, bind_ret_r. Qed.

Lemma dprob_bind_assoc {A B C} (P : C -> bool) (d : dist A) (f : A -> dist B) (h : B -> dist C) :
  dprob P (bind (bind d f) h) == dprob P (bind d (fun a => bind (f a) h)).
Proof. apply dprob_of_dequiv, bind_assoc. Qed.

(** ** Non-negative weights and total mass *)

Lemma dnonneg_b_spec {A} (d : dist A) : dnonneg_b d = true -> dnonneg d.
Proof.
  unfold dnonneg_b. rewrite forallb_forall. intros H a w Hin.
  apply Qle_bool_imp_le, (H (a, w) Hin).
Qed.

Lemma dnonneg_ret {A} (a : A) : dnonneg (ret a).
Proof. intros b w [H|[]]. injection H as _ <-. discriminate. Qed.

Lemma dnonneg_bind {A B} (d : dist A) (f : A -> dist B) :
  dnonneg d -> (forall a, dnonneg (f a)) -> dnonneg (bind d f).
Proof.
  intros Hd Hf b v Hin. unfold bind in Hin.
  apply in_flat_map in Hin as [[a w] [Hin Hb]].
  apply in_map_iff in Hb as [[b' v'] [Heq Hin']]. change v with (snd (b, v)). rewrite <- Heq. cbn [snd].
  rewrite Qred_correct. apply Qmult_le_0_compat; [exact (Hd a w Hin)|exact (Hf a b' v' Hin')].
Qed.

Lemma dnonneg_dmap {A B} (h : A -> B) (d : dist A) : dnonneg d -> dnonneg (dmap h d).
Proof.
  intros Hd b w Hin. apply in_map_iff in Hin as [[a v] [Heq Hin]].
  injection Heq as _ <-. exact (Hd a v Hin).
Qed.

Lemma mass_ret {A} (a : A) : mass (ret a) == 1.
Proof. reflexivity. Qed.

(** The mass of [bind d f] is that of [d] when every continuation has mass 1. *)
Lemma mass_bind {A B} (d : dist A) (f : A -> dist B) :
  (forall a w, In (a, w) d -> mass (f a) == 1) -> mass (bind d f) == mass d.
Proof.
  intros H. rewrite !mass_dexpect, dexpect_bind. apply dexpect_ext.
  intros a w Hin. rewrite <- mass_dexpect. exact (H a w Hin).
Qed.

Lemma mass_dmap {A B} (h : A -> B) (d : dist A) : mass (dmap h d) == mass d.
Proof. unfold mass. rewrite dprob_dmap. reflexivity. Qed.

(** With mass 1 on the listed outputs, an event and its listed part have the same probability. *)
Lemma dprob_listed {A} (d : dist A) (L E : A -> bool) :
  dnonneg d -> mass d == 1 -> dprob L d == 1 -> dprob (fun a => E a && L a) d == dprob E d.
Proof.
  intros Hnn Hm HL. rewrite mass_dexpect in Hm. rewrite dprob_dexpect in HL |- *.
  rewrite dprob_dexpect.
  set (r := dexpect d (fun a => ind (E a && negb (L a)))).
  assert (Hsplit : dexpect d (fun a => ind (E a)) ==
                   dexpect d (fun a => ind (E a && L a)) + r).
  { unfold r. rewrite <- dexpect_plus. apply dexpect_ext. intros a _ _.
    unfold ind. destruct (E a), (L a); cbn; ring. }
  assert (Hr0 : 0 <= r).
  { apply dexpect_nonneg; [exact Hnn|]. intros a. unfold ind. destruct (_ && _); discriminate. }
  assert (Hr1 : r <= 0).
  { apply (Qle_trans _ (dexpect d (fun a => 1 + (-1) * ind (L a)))).
    - apply dexpect_mono; [exact Hnn|]. intros a.
      unfold ind. destruct (E a), (L a); cbn; discriminate.
    - rewrite dexpect_plus, dexpect_scal, Hm, HL. discriminate. }
  assert (Hr : r == 0) by (apply Qle_antisym; assumption).
  rewrite Hsplit, Hr. ring.
Qed.

(** ** Merging equal outcomes *)

(** [dinsert eqb a w d] adds weight [w] to outcome [a]; only the soundness of
    [eqb] ([true] means equal) is ever needed. *)
Fixpoint dinsert {A} (eqb : A -> A -> bool) (a : A) (w : Q) (d : dist A) : dist A :=
  match d with
  | [] => [(a, w)]
  | (b, v) :: d' => if eqb a b then (b, qplus_lcm w v) :: d' else (b, v) :: dinsert eqb a w d'
  end.

Definition compact {A} (eqb : A -> A -> bool) (d : dist A) : dist A :=
  fold_right (fun '(a, w) acc => dinsert eqb a w acc) [] d.

Section Compact.
Context {A : Type} (eqb : A -> A -> bool) (eqb_sound : forall a b, eqb a b = true -> a = b).

Lemma dexpect_dinsert (a : A) (w : Q) (d : dist A) g :
  dexpect (dinsert eqb a w d) g == w * g a + dexpect d g.
Proof.
  induction d as [|[b v] d IH]; cbn [dinsert dexpect]; [ring|].
  destruct (eqb a b) eqn:E.
  - apply eqb_sound in E. subst b. cbn [dexpect]. rewrite qplus_lcm_correct. ring.
  - cbn [dexpect]. rewrite IH. ring.
Qed.

Lemma compact_dequiv (d : dist A) : dequiv (compact eqb d) d.
Proof.
  intros g. induction d as [|[a w] d IH]; [reflexivity|].
  cbn [compact fold_right dexpect]. fold (compact eqb d).
  rewrite dexpect_dinsert, IH. reflexivity.
Qed.

Lemma dprob_compact (P : A -> bool) (d : dist A) : dprob P (compact eqb d) == dprob P d.
Proof. apply dprob_of_dequiv, compact_dequiv. Qed.

Lemma dnonneg_dinsert (a : A) (w : Q) (d : dist A) :
  0 <= w -> dnonneg d -> dnonneg (dinsert eqb a w d).
Proof.
  intros Hw. induction d as [|[b v] d IH]; intros Hd; cbn [dinsert].
  - intros c u [H|[]]. injection H as _ <-. exact Hw.
  - assert (Hv : 0 <= v) by (apply (Hd b v); now left).
    assert (Hd' : dnonneg d) by (intros c u Hin; apply (Hd c u); now right).
    destruct (eqb a b).
    + intros c u [H|Hin].
      * injection H as _ <-. rewrite qplus_lcm_correct.
        apply (Qplus_le_compat 0 _ 0); assumption.
      * exact (Hd' c u Hin).
    + intros c u [H|Hin].
      * injection H as _ <-. exact Hv.
      * exact (IH Hd' c u Hin).
Qed.

Lemma dnonneg_compact (d : dist A) : dnonneg d -> dnonneg (compact eqb d).
Proof.
  induction d as [|[a w] d IH]; intros Hd; cbn [compact fold_right].
  - intros c u [].
  - fold (compact eqb d). apply dnonneg_dinsert.
    + apply (Hd a w). now left.
    + apply IH. intros c u Hin. apply (Hd c u). now right.
Qed.

Lemma mass_compact (d : dist A) : mass (compact eqb d) == mass d.
Proof. apply dprob_compact. Qed.

End Compact.
