(** * Generic facts about real numbers

    [Q2R] of constants; bounds on a quotient; [exp] and [ln] as monotone
    bijections; functions on (0, ∞) that are monotone piece by piece, and the
    ratio bound that two monotonicity facts give.  Nothing here is about a
    mechanism: every other file takes its real-number facts from here. *)
From Coq Require Import Reals Lra QArith Qreals ZArith.
Local Open Scope R_scope.

(** ** Rationals as reals *)

Lemma q2r_0 : Q2R 0 = 0%R.
Proof. unfold Q2R; cbn. lra. Qed.

Lemma q2r_1 : Q2R 1 = 1%R.
Proof. unfold Q2R; cbn. lra. Qed.

Lemma q2r_qred (q : Q) : Q2R (Qred q) = Q2R q.
Proof. apply Qeq_eqR, Qred_correct. Qed.

(** ** Division by a positive number *)

(** Bounds on [x / lam] are bounds on [x]. *)
Lemma div_le_iff a x lam : 0 < lam -> (a <= x / lam <-> a * lam <= x).
Proof.
  intros Hl. split; intros H.
  - apply Rmult_le_compat_r with (r := lam) in H; [|lra].
    unfold Rdiv in H. rewrite Rmult_assoc, Rinv_l, Rmult_1_r in H by lra. exact H.
  - apply Rmult_le_reg_r with lam; [exact Hl|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H.
Qed.

Lemma div_lt_iff a x lam : 0 < lam -> (a < x / lam <-> a * lam < x).
Proof.
  intros Hl. split; intros H.
  - apply Rmult_lt_compat_r with (r := lam) in H; [|lra].
    unfold Rdiv in H. rewrite Rmult_assoc, Rinv_l, Rmult_1_r in H by lra. exact H.
  - apply Rmult_lt_reg_r with lam; [exact Hl|]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. exact H.
Qed.

Lemma div_le_iff_r a x lam : 0 < lam -> (x / lam <= a <-> x <= a * lam).
Proof.
  intros Hl. split; intros H.
  - destruct (Rle_or_lt x (a * lam)) as [|H']; [assumption|].
    apply (div_lt_iff a x lam Hl) in H'. lra.
  - destruct (Rle_or_lt (x / lam) a) as [|H']; [assumption|].
    apply (div_lt_iff a x lam Hl) in H'. lra.
Qed.

Lemma div_lt_iff_r a x lam : 0 < lam -> (x / lam < a <-> x < a * lam).
Proof.
  intros Hl. split; intros H.
  - destruct (Rlt_or_le x (a * lam)) as [|H']; [assumption|].
    apply (div_le_iff a x lam Hl) in H'. lra.
  - destruct (Rlt_or_le (x / lam) a) as [|H']; [assumption|].
    apply (div_le_iff a x lam Hl) in H'. lra.
Qed.

(** Where [x / t] lies with respect to 1, and how it moves with [x] and [t]. *)
Lemma div_ge1 x t : 0 < t -> t <= x -> 1 <= x / t.
Proof. intros Ht H. apply div_le_iff; lra. Qed.

Lemma div_le1 x t : 0 < t -> x <= t -> x / t <= 1.
Proof. intros Ht H. apply div_le_iff_r; lra. Qed.

Lemma div_mono x y t : 0 < t -> x <= y -> x / t <= y / t.
Proof. intros. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra. Qed.

Lemma div_anti x s t : 0 < s <= t -> 0 <= x -> x / t <= x / s.
Proof.
  intros Hst Hx. unfold Rdiv. apply Rmult_le_compat_l; [exact Hx|].
  apply Rinv_le_contravar; lra.
Qed.

(** ** exp and ln *)

Lemma exp_le_iff a b : exp a <= exp b <-> a <= b.
Proof.
  split; intros H.
  - destruct (Rle_or_lt a b) as [|H']; [assumption|].
    apply exp_increasing in H'. lra.
  - destruct H as [H| ->]; [apply Rlt_le, exp_increasing, H|apply Rle_refl].
Qed.

Lemma exp_lt_iff a b : exp a < exp b <-> a < b.
Proof. split; [apply exp_lt_inv|apply exp_increasing]. Qed.

(** The name generated files use for the standard library's [exp_increasing]
    ([a < b -> exp a < exp b]): an abbreviation, not a second lemma. *)
Notation exp_lt_of := exp_increasing (only parsing).

Lemma exp_le_1 a : a <= 0 -> exp a <= 1.
Proof. intros H. rewrite <- exp_0. apply exp_le_iff, H. Qed.

Lemma exp_ge_1 a : 0 <= a -> 1 <= exp a.
Proof. intros H. rewrite <- exp_0. apply exp_le_iff, H. Qed.

Lemma exp_nonneg a : 0 <= exp a.
Proof. apply Rlt_le, exp_pos. Qed.

Lemma ln_ge_iff a u : 0 < u -> (a <= ln u <-> exp a <= u).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_le_iff. Qed.

Lemma ln_gt_iff a u : 0 < u -> (a < ln u <-> exp a < u).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_lt_iff. Qed.

Lemma ln_le_iff b u : 0 < u -> (ln u <= b <-> u <= exp b).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_le_iff. Qed.

Lemma ln_lt_iff b u : 0 < u -> (ln u < b <-> u < exp b).
Proof. intros Hu. rewrite <- (exp_ln u) at 2 by exact Hu. symmetry. apply exp_lt_iff. Qed.

Lemma ln_bounds_iff a b u : 0 < u -> (a <= ln u < b <-> exp a <= u < exp b).
Proof. intros Hu. rewrite ln_ge_iff, ln_lt_iff by exact Hu. tauto. Qed.

Lemma ln_bounds_oc_iff a b u : 0 < u -> (a < ln u <= b <-> exp a < u <= exp b).
Proof. intros Hu. rewrite ln_gt_iff, ln_le_iff by exact Hu. tauto. Qed.

(** [exp] of integer multiples of a logarithm. *)
Lemma exp_pos_mult_ln (p : positive) (x : R) :
  (0 < x)%R -> exp (IZR (Zpos p) * ln x) = (x ^ Pos.to_nat p)%R.
Proof.
  intros Hx.
  replace (IZR (Zpos p)) with (INR (Pos.to_nat p))
    by (rewrite INR_IZR_INZ, positive_nat_Z; reflexivity).
  apply Rpower_pow, Hx.
Qed.

Lemma exp_Zmult_ln (k : Z) (x : R) : (0 < x)%R -> exp (IZR k * ln x) = powerRZ x k.
Proof.
  intros Hx. destruct k as [|p|p]; simpl powerRZ.
  - rewrite Rmult_0_l. apply exp_0.
  - apply exp_pos_mult_ln, Hx.
  - rewrite <- Pos2Z.opp_pos, opp_IZR, Ropp_mult_distr_l_reverse, exp_Ropp.
    rewrite exp_pos_mult_ln by exact Hx. reflexivity.
Qed.

Lemma exp_ln_Zmult (k : Z) (x : R) : (0 < x)%R -> exp (ln x * IZR k) = powerRZ x k.
Proof. intros Hx. rewrite Rmult_comm. apply exp_Zmult_ln, Hx. Qed.

(** Ratios of exponentials. *)
Lemma exp_sub_div r a c : exp (r * (a - c)) = exp (r * a) / exp (r * c).
Proof.
  replace (r * (a - c)) with (r * a + - (r * c)) by ring.
  rewrite exp_plus, exp_Ropp. reflexivity.
Qed.

Lemma exp_ratio_max r c c' : 0 <= r ->
  Rmax (exp (r * c') / exp (r * c)) (exp (r * c) / exp (r * c')) = exp (r * Rabs (c - c')).
Proof.
  intros Hr. rewrite <- !exp_sub_div.
  unfold Rabs. destruct (Rcase_abs (c - c')).
  - rewrite Rmax_left; [f_equal; ring|]. apply exp_le_iff. nra.
  - rewrite Rmax_right; [reflexivity|]. apply exp_le_iff. nra.
Qed.

Lemma exp_ratio_le r c c' Delta : 0 <= r -> Rabs (c - c') <= Delta ->
  Rmax (exp (r * c') / exp (r * c)) (exp (r * c) / exp (r * c')) <= exp (r * Delta).
Proof.
  intros Hr Hd. rewrite exp_ratio_max by exact Hr. apply exp_le_iff.
  apply Rmult_le_compat_l; assumption.
Qed.

(** [p = e^d p'] with [e < d] and [p' > 0] exceeds [e^e p']. *)
Lemma exp_scaled_gt (e d p p' : R) : e < d -> 0 < p' -> p = exp d * p' -> p > exp e * p'.
Proof.
  intros Hed Hp' ->. apply Rmult_lt_compat_r; [exact Hp'|apply exp_increasing, Hed].
Qed.

Lemma exp_shift (x y d : R) : x = y + d -> exp x = exp d * exp y.
Proof. intros ->. rewrite exp_plus. ring. Qed.

(** ** Monotone functions on (0, ∞), piece by piece *)

(** A function nondecreasing on (0, a], [a, b] and [b, ∞) is nondecreasing on (0, ∞). *)
Lemma mono_pieces3 (f : R -> R) a b : 0 < a <= b ->
  (forall x y, 0 < x <= y -> y <= a -> f x <= f y) ->
  (forall x y, a <= x <= y -> y <= b -> f x <= f y) ->
  (forall x y, b <= x <= y -> f x <= f y) ->
  forall x y, 0 < x <= y -> f x <= f y.
Proof.
  intros Hab H1 H2 H3 x y Hxy.
  destruct (Rle_or_lt y a); [apply H1; lra|].
  destruct (Rle_or_lt x a).
  - apply Rle_trans with (f a); [apply H1; lra|].
    destruct (Rle_or_lt y b); [apply H2; lra|].
    apply Rle_trans with (f b); [apply H2; lra|apply H3; lra].
  - destruct (Rle_or_lt y b); [apply H2; lra|].
    destruct (Rle_or_lt x b).
    + apply Rle_trans with (f b); [apply H2; lra|apply H3; lra].
    + apply H3; lra.
Qed.

Lemma mono_pieces2 (f : R -> R) a : 0 < a ->
  (forall x y, 0 < x <= y -> y <= a -> f x <= f y) ->
  (forall x y, a <= x <= y -> f x <= f y) ->
  forall x y, 0 < x <= y -> f x <= f y.
Proof.
  intros Ha H1 H2. apply (mono_pieces3 f a a); [lra|exact H1| |exact H2].
  intros x y Hxy Hy. apply H2; lra.
Qed.

(** [2 x - x^2 / b] is nondecreasing for [x <= b]. *)
Lemma parabola_mono x y b : 0 < x <= y -> y <= b -> 2 * x - x * x / b <= 2 * y - y * y / b.
Proof.
  intros Hxy Hy.
  assert (Hb : 0 < b) by lra.
  assert (Hx : x / b <= 1) by (apply div_le1; lra).
  assert (Hy' : y / b <= 1) by (apply div_le1; lra).
  replace (x * x / b) with (x * (x / b)) by (field; lra).
  replace (y * y / b) with (y * (y / b)) by (field; lra).
  assert (Hd : x / b <= y / b) by (apply div_mono; lra).
  nra.
Qed.

(** [t M(t)] nondecreasing and [M(t) / t] nonincreasing give
    [M(t') <= max(t'/t, t/t') M(t)]. *)
Lemma ratio_of_mono (M : R -> R) :
  (forall t, 0 <= M t) ->
  (forall t t', 0 < t <= t' -> t * M t <= t' * M t') ->
  (forall t t', 0 < t <= t' -> M t' / t' <= M t / t) ->
  forall t t', 0 < t -> 0 < t' -> M t' <= Rmax (t' / t) (t / t') * M t.
Proof.
  intros Hnn Hmul Hdiv t t' Ht Ht'.
  pose proof (Hnn t) as H0.
  destruct (Rle_or_lt t t') as [Hle|Hlt].
  - (* t <= t': M t' = t' (M t'/t') <= t' (M t / t) *)
    apply Rle_trans with (t' / t * M t); [|apply Rmult_le_compat_r; [exact H0|apply Rmax_l]].
    pose proof (Hdiv t t' ltac:(lra)) as H.
    apply Rmult_le_compat_l with (r := t') in H; [|lra].
    replace (t' * (M t' / t')) with (M t') in H by (field; lra).
    replace (t' * (M t / t)) with (t' / t * M t) in H by (field; lra). exact H.
  - (* t' < t: M t' = (t' M t') / t' <= (t M t) / t' *)
    apply Rle_trans with (t / t' * M t); [|apply Rmult_le_compat_r; [exact H0|apply Rmax_r]].
    pose proof (Hmul t' t ltac:(lra)) as H.
    apply Rmult_le_compat_l with (r := / t') in H; [|apply Rlt_le, Rinv_0_lt_compat; lra].
    replace (/ t' * (t' * M t')) with (M t') in H by (field; lra).
    replace (/ t' * (t * M t)) with (t / t' * M t) in H by (field; lra). exact H.
Qed.
