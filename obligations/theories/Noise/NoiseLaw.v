(** * The law of the snapping noise (u, S) on every set

    The noise of the snapping mechanism is a pair [w = (u, S)]: [u] uniform on
    (0,1] and [S] a fair sign.  [noise_pr A] is the probability of any set [A]
    of pairs: half the outer measure of each sign's section
    (UniformOuter.v).  It is a sub-probability outer measure
    ([set_subdistr], monotone and subadditive, [noise_pr_subdistr]) of total
    mass 1 ([noise_pr_all]), and for the output of a mechanism it is the
    probability [snap_prob] of Snapping.v ([snap_pr_prob]).

    [lap r w = S (1/r) ln u] is the Laplace sample the noise stands for (rate
    [r]); [enc r z] is the noise that stands for the value [z]
    ([lap_enc]): [(e^(r z), +1)] for [z <= 0], [(e^(-r z), -1)] for [z > 0]. *)
From Coq Require Import Reals Lra.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure UniformOuter Snapping.
Local Open Scope R_scope.

(** ** Sub-probability outer measures *)

(** A set function that is non-negative, monotone, subadditive and of total
    mass at most 1. *)
Definition set_subdistr {X : Type} (mu : (X -> Prop) -> R) : Prop :=
  (forall E, 0 <= mu E) /\
  (forall E F : X -> Prop, (forall x, E x -> F x) -> mu E <= mu F) /\
  (forall E F G : X -> Prop, (forall x, E x -> F x \/ G x) -> mu E <= mu F + mu G) /\
  mu (fun _ => True) <= 1.

(** The image of a sub-probability outer measure along a map. *)
Lemma set_subdistr_map {X Y : Type} (mu : (X -> Prop) -> R) (f : X -> Y) :
  set_subdistr mu -> set_subdistr (fun E => mu (fun x => E (f x))).
Proof.
  intros (Hn & Hm & Hs & H1). split; [|split; [|split]].
  - intros E. apply Hn.
  - intros E F H. apply Hm. intros x. apply H.
  - intros E F G H. apply Hs. intros x. apply H.
  - exact H1.
Qed.

(** ** Signs *)

Definition sign_opp (s : sign) : sign := match s with SPlus => SMinus | SMinus => SPlus end.

Lemma sgn_opp s : sgn (sign_opp s) = - sgn s.
Proof. destruct s; cbn [sgn sign_opp]; ring. Qed.

(** ** The law of the noise *)

Definition noise_pr (A : R * sign -> Prop) : R :=
  / 2 * (uouter (fun u => A (u, SPlus)) + uouter (fun u => A (u, SMinus))).

(** The same, the signs in any order. *)
Lemma noise_pr_sign (A : R * sign -> Prop) s :
  noise_pr A = / 2 * (uouter (fun u => A (u, s)) + uouter (fun u => A (u, sign_opp s))).
Proof. unfold noise_pr. destruct s; cbn [sign_opp]; ring. Qed.

Lemma noise_pr_nonneg A : 0 <= noise_pr A.
Proof.
  unfold noise_pr. pose proof (uouter_nonneg (fun u => A (u, SPlus))).
  pose proof (uouter_nonneg (fun u => A (u, SMinus))). lra.
Qed.

Lemma noise_pr_mono (A B : R * sign -> Prop) :
  (forall u s, 0 < u <= 1 -> A (u, s) -> B (u, s)) -> noise_pr A <= noise_pr B.
Proof.
  intros H. unfold noise_pr.
  pose proof (uouter_mono (fun u => A (u, SPlus)) (fun u => B (u, SPlus)) (fun u Hu => H u SPlus Hu)).
  pose proof (uouter_mono (fun u => A (u, SMinus)) (fun u => B (u, SMinus)) (fun u Hu => H u SMinus Hu)).
  lra.
Qed.

Lemma noise_pr_ext (A B : R * sign -> Prop) :
  (forall u s, 0 < u <= 1 -> (A (u, s) <-> B (u, s))) -> noise_pr A = noise_pr B.
Proof. intros H. apply Rle_antisym; apply noise_pr_mono; intros u s Hu; apply H, Hu. Qed.

Lemma noise_pr_union (A B C : R * sign -> Prop) :
  (forall u s, 0 < u <= 1 -> A (u, s) -> B (u, s) \/ C (u, s)) -> noise_pr A <= noise_pr B + noise_pr C.
Proof.
  intros H. unfold noise_pr.
  pose proof (uouter_union (fun u => A (u, SPlus)) (fun u => B (u, SPlus)) (fun u => C (u, SPlus))
                (fun u Hu => H u SPlus Hu)).
  pose proof (uouter_union (fun u => A (u, SMinus)) (fun u => B (u, SMinus)) (fun u => C (u, SMinus))
                (fun u Hu => H u SMinus Hu)).
  lra.
Qed.

Lemma noise_pr_null (A : R * sign -> Prop) :
  (forall u s, 0 < u <= 1 -> ~ A (u, s)) -> noise_pr A = 0.
Proof.
  intros H. unfold noise_pr.
  rewrite (uouter_null _ (fun u Hu => H u SPlus Hu)), (uouter_null _ (fun u Hu => H u SMinus Hu)). ring.
Qed.

Lemma noise_pr_all : noise_pr (fun _ => True) = 1.
Proof. unfold noise_pr. rewrite uouter_all. field. Qed.

Lemma noise_pr_subdistr : set_subdistr noise_pr.
Proof.
  split; [|split; [|split]].
  - apply noise_pr_nonneg.
  - intros E F H. apply noise_pr_mono. intros u s _. apply H.
  - intros E F G H. apply noise_pr_union. intros u s _. apply H.
  - rewrite noise_pr_all. lra.
Qed.

(** ** Outputs of a mechanism *)

(** Pr[mech u S ∈ F], for every set [F] of outputs. *)
Definition snap_pr (mech : R -> sign -> R) (F : R -> Prop) : R :=
  noise_pr (fun w => F (mech (fst w) (snd w))).

(** For one output it is the probability of Snapping.v. *)
Lemma snap_pr_prob (mech : R -> sign -> R) y p :
  snap_prob mech y p -> snap_pr mech (fun y' => y' = y) = p.
Proof.
  intros (m1 & m2 & H1 & H2 & ->). unfold snap_pr, noise_pr. cbn [fst snd].
  rewrite (uouter_umeasure _ _ H1), (uouter_umeasure _ _ H2). reflexivity.
Qed.

Lemma snap_pr_ext (mech mech' : R -> sign -> R) (F : R -> Prop) :
  (forall u s, 0 < u <= 1 -> mech u s = mech' u s) -> snap_pr mech F = snap_pr mech' F.
Proof.
  intros H. unfold snap_pr. apply noise_pr_ext. intros u s Hu. cbn [fst snd]. rewrite (H u s Hu). tauto.
Qed.

(** ** The Laplace value of the noise, and back *)

Definition lap (r : R) (w : R * sign) : R := sgn (snd w) * (/ r * ln (fst w)).

Definition enc (r z : R) : R * sign :=
  if Rle_dec z 0 then (exp (r * z), SPlus) else (exp (- (r * z)), SMinus).

Lemma lap_enc r z : 0 < r -> lap r (enc r z) = z.
Proof.
  intros Hr. unfold lap, enc. destruct (Rle_dec z 0); cbn [fst snd sgn]; rewrite ln_exp; field; lra.
Qed.

Lemma enc_in r z : 0 < r -> 0 < fst (enc r z) <= 1.
Proof.
  intros Hr. unfold enc. destruct (Rle_dec z 0) as [H|H]; cbn [fst]; split;
    try apply exp_pos; apply exp_le_1; nra.
Qed.

(** [enc] of a value of sign [-sgn s] (resp. [sgn s]) is on the sign [s] (resp. the other one). *)
Lemma enc_sgn_neg r s t : t < 0 -> enc r (sgn s * t) = (exp (r * t), s).
Proof.
  intros Ht. unfold enc. destruct s; cbn [sgn].
  - destruct (Rle_dec (1 * t) 0) as [_|H]; [|lra]. rewrite Rmult_1_l. reflexivity.
  - destruct (Rle_dec (-1 * t) 0) as [H|_]; [lra|]. f_equal. f_equal. ring.
Qed.

Lemma enc_sgn_pos r s t : 0 < t -> enc r (sgn s * t) = (exp (- (r * t)), sign_opp s).
Proof.
  intros Ht. unfold enc. destruct s; cbn [sgn sign_opp].
  - destruct (Rle_dec (1 * t) 0) as [H|_]; [lra|]. rewrite Rmult_1_l. reflexivity.
  - destruct (Rle_dec (-1 * t) 0) as [_|H]; [|lra]. f_equal. f_equal. ring.
Qed.

(** The noise [(u, s)] with [u < 1] is the [enc] of its Laplace value. *)
Lemma enc_lap r u s : 0 < r -> 0 < u < 1 -> enc r (lap r (u, s)) = (u, s).
Proof.
  intros Hr Hu. unfold lap. cbn [fst snd]. rewrite enc_sgn_neg.
  - f_equal. replace (r * (/ r * ln u)) with (ln u) by (field; lra). apply exp_ln. lra.
  - assert (ln u < 0) by (rewrite <- ln_1; apply ln_increasing; lra).
    assert (0 < / r) by (apply Rinv_0_lt_compat; lra). nra.
Qed.
