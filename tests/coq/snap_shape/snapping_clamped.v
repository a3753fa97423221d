(** * Sample of a generated file: the clamped snapping mechanism *)
From Obligations Require Import PreludeSnap.

Section snapping_clamped.
Variables (eps lam B delta : R).
Hypothesis eps_pos : 0 < eps.
Hypothesis lam_pos : 0 < lam.
Hypothesis B_pos : 0 < B.
Hypothesis delta_nonneg : 0 <= delta.

Definition snapping_clamped (fa u : R) (s : sign) : R :=
  clamp B (lam * IZR (round_grid TiesUp lam (clamp B fa + sgn s * (/ eps * ln u)))).

Lemma snapping_clamped_pre_plus fa k u : - B < lam * IZR k < B -> 0 < u <= 1 ->
  (snapping_clamped fa u SPlus = lam * IZR k <->
   exp (eps * ((IZR k - / 2) * lam - clamp B fa)) <= u < exp (eps * ((IZR k + / 2) * lam - clamp B fa))).
Proof. snap_preimage snap_pre_clamp_up_plus. Qed.

Lemma snapping_clamped_pre_minus fa k u : - B < lam * IZR k < B -> 0 < u <= 1 ->
  (snapping_clamped fa u SMinus = lam * IZR k <->
   exp (eps * (clamp B fa - (IZR k + / 2) * lam)) < u <= exp (eps * (clamp B fa - (IZR k - / 2) * lam))).
Proof. snap_preimage snap_pre_clamp_up_minus. Qed.

Lemma snapping_clamped_pre_top_plus fa u : 0 < u <= 1 ->
  (snapping_clamped fa u SPlus = B <->
   exp (eps * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B fa)) <= u).
Proof. snap_preimage snap_pre_top_up_plus. Qed.

Lemma snapping_clamped_pre_top_minus fa u : 0 < u <= 1 ->
  (snapping_clamped fa u SMinus = B <->
   u <= exp (eps * (clamp B fa - (IZR (Zceil (B / lam)) - / 2) * lam))).
Proof. snap_preimage snap_pre_top_up_minus. Qed.

Lemma snapping_clamped_pre_bot_plus fa u : 0 < u <= 1 ->
  (snapping_clamped fa u SPlus = - B <->
   u < exp (eps * ((IZR (Zfloor (- B / lam)) + / 2) * lam - clamp B fa))).
Proof. snap_preimage snap_pre_bot_up_plus. Qed.

Lemma snapping_clamped_pre_bot_minus fa u : 0 < u <= 1 ->
  (snapping_clamped fa u SMinus = - B <->
   exp (eps * (clamp B fa - (IZR (Zfloor (- B / lam)) + / 2) * lam)) < u).
Proof. snap_preimage snap_pre_bot_up_minus. Qed.

Lemma snapping_clamped_grid fa u s y : 0 < u <= 1 -> snapping_clamped fa u s = y ->
  y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B.
Proof. snap_grid. Qed.

Lemma snapping_clamped_case_bottom_far fa :
  (IZR (Zfloor (- B / lam)) + / 2) * lam <= clamp B fa ->
  snap_prob (snapping_clamped fa) (- B)
    (/ 2 * exp (eps * ((IZR (Zfloor (- B / lam)) + / 2) * lam - clamp B fa))).
Proof. snap_case snap_case_bot_far snapping_clamped_pre_bot_plus snapping_clamped_pre_bot_minus. Qed.

Lemma snapping_clamped_case_bottom_near fa :
  clamp B fa <= (IZR (Zfloor (- B / lam)) + / 2) * lam ->
  snap_prob (snapping_clamped fa) (- B)
    (/ 2 * (2 - exp (eps * (clamp B fa - (IZR (Zfloor (- B / lam)) + / 2) * lam)))).
Proof. snap_case snap_case_bot_near snapping_clamped_pre_bot_plus snapping_clamped_pre_bot_minus. Qed.

Lemma snapping_clamped_case_below fa k : - B < lam * IZR k < B ->
  (IZR k + / 2) * lam <= clamp B fa ->
  snap_prob (snapping_clamped fa) (lam * IZR k)
    (/ 2 * (exp (eps * ((IZR k + / 2) * lam - clamp B fa)) - exp (eps * ((IZR k - / 2) * lam - clamp B fa)))).
Proof. snap_case snap_case_below snapping_clamped_pre_plus snapping_clamped_pre_minus. Qed.

Lemma snapping_clamped_case_bucket fa k : - B < lam * IZR k < B ->
  (IZR k - / 2) * lam < clamp B fa < (IZR k + / 2) * lam ->
  snap_prob (snapping_clamped fa) (lam * IZR k)
    (/ 2 * (2 - exp (eps * ((IZR k - / 2) * lam - clamp B fa)) - exp (eps * (clamp B fa - (IZR k + / 2) * lam)))).
Proof. snap_case snap_case_bucket snapping_clamped_pre_plus snapping_clamped_pre_minus. Qed.

Lemma snapping_clamped_case_above fa k : - B < lam * IZR k < B ->
  clamp B fa <= (IZR k - / 2) * lam ->
  snap_prob (snapping_clamped fa) (lam * IZR k)
    (/ 2 * (exp (eps * (clamp B fa - (IZR k - / 2) * lam)) - exp (eps * (clamp B fa - (IZR k + / 2) * lam)))).
Proof. snap_case snap_case_above snapping_clamped_pre_plus snapping_clamped_pre_minus. Qed.

Lemma snapping_clamped_case_top_near fa :
  (IZR (Zceil (B / lam)) - / 2) * lam <= clamp B fa ->
  snap_prob (snapping_clamped fa) B
    (/ 2 * (2 - exp (eps * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B fa)))).
Proof. snap_case snap_case_top_near snapping_clamped_pre_top_plus snapping_clamped_pre_top_minus. Qed.

Lemma snapping_clamped_case_top_far fa :
  clamp B fa <= (IZR (Zceil (B / lam)) - / 2) * lam ->
  snap_prob (snapping_clamped fa) B
    (/ 2 * exp (eps * (clamp B fa - (IZR (Zceil (B / lam)) - / 2) * lam))).
Proof. snap_case snap_case_top_far snapping_clamped_pre_top_plus snapping_clamped_pre_top_minus. Qed.

(** The endpoint outputs without a case split (clipped lengths). *)
Lemma snapping_clamped_case_top fa :
  snap_prob (snapping_clamped fa) B
    (/ 2 * (ulen_from (exp (eps * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B fa)))
            + ulen_to (exp (eps * (clamp B fa - (IZR (Zceil (B / lam)) - / 2) * lam))))).
Proof. snap_case snap_case_top snapping_clamped_pre_top_plus snapping_clamped_pre_top_minus. Qed.

Theorem snapping_clamped_dp : forall fa fa', Rabs (fa - fa') <= delta ->
  forall y p p', snap_prob (snapping_clamped fa) y p -> snap_prob (snapping_clamped fa') y p' ->
  p <= exp (eps * delta) * p'.
Proof.
  snap_dp_clamped_tac snapping_clamped_pre_plus snapping_clamped_pre_minus
    snapping_clamped_pre_top_plus snapping_clamped_pre_top_minus
    snapping_clamped_pre_bot_plus snapping_clamped_pre_bot_minus
    snapping_clamped_grid.
Qed.

Theorem snapping_clamped_dp_events : forall fa fa', Rabs (fa - fa') <= delta ->
  forall ys ps ps', Forall2 (snap_prob (snapping_clamped fa)) ys ps ->
  Forall2 (snap_prob (snapping_clamped fa')) ys ps' ->
  rsum ps <= exp (eps * delta) * rsum ps'.
Proof. intros fa fa' Hd. apply snap_dp_events. exact (snapping_clamped_dp fa fa' Hd). Qed.

Theorem snapping_clamped_lifting : forall fa fa', Rabs (fa - fa') <= delta ->
  forall ys mu1 mu2, NoDup ys ->
  (forall y, In y ys -> snap_prob (snapping_clamped fa) y (mu1 y)) ->
  (forall y, In y ys -> snap_prob (snapping_clamped fa') y (mu2 y)) ->
  lifting eq (eps * delta) 0 ys mu1 mu2.
Proof.
  intros fa fa' Hd ys mu1 mu2 Hnd H1 H2.
  exact (snap_lifting _ _ _ ys mu1 mu2 Hnd H1 H2 (snapping_clamped_dp fa fa' Hd)).
Qed.

End snapping_clamped.
