(** * Sample of a generated file: the unclamped snapping mechanism *)
From Obligations Require Import PreludeSnap.

Section snapping_unclamped.
Variables (eps lam delta : R).
Hypothesis eps_pos : 0 < eps.
Hypothesis lam_pos : 0 < lam.
Hypothesis delta_nonneg : 0 <= delta.

Definition snapping_unclamped (fa u : R) (s : sign) : R :=
  lam * IZR (round_grid TiesUp lam (fa + sgn s * (/ eps * ln u))).

Lemma snapping_unclamped_pre_plus fa k u : 0 < u <= 1 ->
  (snapping_unclamped fa u SPlus = lam * IZR k <->
   exp (eps * ((IZR k - / 2) * lam - fa)) <= u < exp (eps * ((IZR k + / 2) * lam - fa))).
Proof. snap_preimage snap_pre_up_plus. Qed.

Lemma snapping_unclamped_pre_minus fa k u : 0 < u <= 1 ->
  (snapping_unclamped fa u SMinus = lam * IZR k <->
   exp (eps * (fa - (IZR k + / 2) * lam)) < u <= exp (eps * (fa - (IZR k - / 2) * lam))).
Proof. snap_preimage snap_pre_up_minus. Qed.

Lemma snapping_unclamped_grid fa u s y : 0 < u <= 1 ->
  snapping_unclamped fa u s = y -> exists k, y = lam * IZR k.
Proof. snap_grid. Qed.

Lemma snapping_unclamped_case_below fa k : (IZR k + / 2) * lam <= fa ->
  snap_prob (snapping_unclamped fa) (lam * IZR k)
    (/ 2 * (exp (eps * ((IZR k + / 2) * lam - fa)) - exp (eps * ((IZR k - / 2) * lam - fa)))).
Proof. snap_case snap_case_below snapping_unclamped_pre_plus snapping_unclamped_pre_minus. Qed.

Lemma snapping_unclamped_case_bucket fa k : (IZR k - / 2) * lam < fa < (IZR k + / 2) * lam ->
  snap_prob (snapping_unclamped fa) (lam * IZR k)
    (/ 2 * (2 - exp (eps * ((IZR k - / 2) * lam - fa)) - exp (eps * (fa - (IZR k + / 2) * lam)))).
Proof. snap_case snap_case_bucket snapping_unclamped_pre_plus snapping_unclamped_pre_minus. Qed.

Lemma snapping_unclamped_case_above fa k : fa <= (IZR k - / 2) * lam ->
  snap_prob (snapping_unclamped fa) (lam * IZR k)
    (/ 2 * (exp (eps * (fa - (IZR k - / 2) * lam)) - exp (eps * (fa - (IZR k + / 2) * lam)))).
Proof. snap_case snap_case_above snapping_unclamped_pre_plus snapping_unclamped_pre_minus. Qed.

Theorem snapping_unclamped_dp : forall fa fa', Rabs (fa - fa') <= delta ->
  forall y p p', snap_prob (snapping_unclamped fa) y p -> snap_prob (snapping_unclamped fa') y p' ->
  p <= exp (eps * delta) * p'.
Proof.
  snap_dp_unclamped_tac snapping_unclamped_pre_plus snapping_unclamped_pre_minus
    snapping_unclamped_grid.
Qed.

Theorem snapping_unclamped_dp_events : forall fa fa', Rabs (fa - fa') <= delta ->
  forall ys ps ps', Forall2 (snap_prob (snapping_unclamped fa)) ys ps ->
  Forall2 (snap_prob (snapping_unclamped fa')) ys ps' ->
  rsum ps <= exp (eps * delta) * rsum ps'.
Proof. intros fa fa' Hd. apply snap_dp_events. exact (snapping_unclamped_dp fa fa' Hd). Qed.

Theorem snapping_unclamped_lifting : forall fa fa', Rabs (fa - fa') <= delta ->
  forall ys mu1 mu2, NoDup ys ->
  (forall y, In y ys -> snap_prob (snapping_unclamped fa) y (mu1 y)) ->
  (forall y, In y ys -> snap_prob (snapping_unclamped fa') y (mu2 y)) ->
  lifting eq (eps * delta) 0 ys mu1 mu2.
Proof.
  intros fa fa' Hd ys mu1 mu2 Hnd H1 H2.
  exact (snap_lifting _ _ _ ys mu1 mu2 Hnd H1 H2 (snapping_unclamped_dp fa fa' Hd)).
Qed.

End snapping_unclamped.

(** A refutation at a numeric instance: eps = 1, lam = 1, delta = 1, claim
    eps * delta / 2.  Output [1 * IZR (-3)] lies below both buckets, and
    there [p = e * p'] exactly. *)
Theorem snapping_unclamped_half_refuted :
  ~ (forall fa fa', Rabs (fa - fa') <= 1 ->
     forall y p p', snap_prob (snapping_unclamped 1 1 fa) y p ->
     snap_prob (snapping_unclamped 1 1 fa') y p' -> p <= exp (1 * 1 / 2) * p').
Proof.
  eapply (snap_not_dp (snapping_unclamped 1 1) 1 (1 * 1 / 2) 0 1 (1 * IZR (-3))).
  - apply snapping_unclamped_case_below; lra.
  - apply snapping_unclamped_case_below; lra.
  - rewrite Rabs_left; lra.
  - apply exp_scaled_gt with (d := 1); [lra| |].
    + apply Rmult_lt_0_compat; [lra|]. apply Rlt_Rminus, exp_lt_of. lra.
    + rewrite (exp_shift (1 * ((IZR (-3) + / 2) * 1 - 0)) (1 * ((IZR (-3) + / 2) * 1 - 1)) 1) by lra.
      rewrite (exp_shift (1 * ((IZR (-3) - / 2) * 1 - 0)) (1 * ((IZR (-3) - / 2) * 1 - 1)) 1) by lra.
      ring.
Qed.
