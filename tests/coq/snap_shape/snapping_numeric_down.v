(** * Sample of a generated file: numeric instance, ties toward -∞, clamped *)
From Obligations Require Import PreludeSnap.

Definition eps : R := 1.
Definition lam : R := 1 / 2.
Definition B : R := 3.
Definition delta : R := 1.

Lemma eps_pos : 0 < eps. Proof. unfold eps; lra. Qed.
Lemma lam_pos : 0 < lam. Proof. unfold lam; lra. Qed.
Lemma B_pos : 0 < B. Proof. unfold B; lra. Qed.
Lemma delta_nonneg : 0 <= delta. Proof. unfold delta; lra. Qed.

Definition snapping_down (fa u : R) (s : sign) : R :=
  clamp B (lam * IZR (round_grid TiesDown lam (clamp B fa + sgn s * (/ eps * ln u)))).

Lemma snapping_down_pre_plus fa k u : - B < lam * IZR k < B -> 0 < u <= 1 ->
  (snapping_down fa u SPlus = lam * IZR k <->
   exp (eps * ((IZR k - / 2) * lam - clamp B fa)) < u <= exp (eps * ((IZR k + / 2) * lam - clamp B fa))).
Proof. snap_preimage snap_pre_clamp_down_plus. Qed.

Lemma snapping_down_pre_minus fa k u : - B < lam * IZR k < B -> 0 < u <= 1 ->
  (snapping_down fa u SMinus = lam * IZR k <->
   exp (eps * (clamp B fa - (IZR k + / 2) * lam)) <= u < exp (eps * (clamp B fa - (IZR k - / 2) * lam))).
Proof. snap_preimage snap_pre_clamp_down_minus. Qed.

Lemma snapping_down_pre_top_plus fa u : 0 < u <= 1 ->
  (snapping_down fa u SPlus = B <->
   exp (eps * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B fa)) < u).
Proof. snap_preimage snap_pre_top_down_plus. Qed.

Lemma snapping_down_pre_top_minus fa u : 0 < u <= 1 ->
  (snapping_down fa u SMinus = B <->
   u < exp (eps * (clamp B fa - (IZR (Zceil (B / lam)) - / 2) * lam))).
Proof. snap_preimage snap_pre_top_down_minus. Qed.

Lemma snapping_down_pre_bot_plus fa u : 0 < u <= 1 ->
  (snapping_down fa u SPlus = - B <->
   u <= exp (eps * ((IZR (Zfloor (- B / lam)) + / 2) * lam - clamp B fa))).
Proof. snap_preimage snap_pre_bot_down_plus. Qed.

Lemma snapping_down_pre_bot_minus fa u : 0 < u <= 1 ->
  (snapping_down fa u SMinus = - B <->
   exp (eps * (clamp B fa - (IZR (Zfloor (- B / lam)) + / 2) * lam)) <= u).
Proof. snap_preimage snap_pre_bot_down_minus. Qed.

Lemma snapping_down_grid fa u s y : 0 < u <= 1 -> snapping_down fa u s = y ->
  y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B.
Proof. snap_grid. Qed.

Lemma snapping_down_case_bucket fa k : - B < lam * IZR k < B ->
  (IZR k - / 2) * lam < clamp B fa < (IZR k + / 2) * lam ->
  snap_prob (snapping_down fa) (lam * IZR k)
    (/ 2 * (2 - exp (eps * ((IZR k - / 2) * lam - clamp B fa)) - exp (eps * (clamp B fa - (IZR k + / 2) * lam)))).
Proof. snap_case snap_case_bucket snapping_down_pre_plus snapping_down_pre_minus. Qed.

Lemma snapping_down_case_top_far fa :
  clamp B fa <= (IZR (Zceil (B / lam)) - / 2) * lam ->
  snap_prob (snapping_down fa) B
    (/ 2 * exp (eps * (clamp B fa - (IZR (Zceil (B / lam)) - / 2) * lam))).
Proof. snap_case snap_case_top_far snapping_down_pre_top_plus snapping_down_pre_top_minus. Qed.

Lemma snapping_down_case_bottom_near fa :
  clamp B fa <= (IZR (Zfloor (- B / lam)) + / 2) * lam ->
  snap_prob (snapping_down fa) (- B)
    (/ 2 * (2 - exp (eps * (clamp B fa - (IZR (Zfloor (- B / lam)) + / 2) * lam)))).
Proof. snap_case snap_case_bot_near snapping_down_pre_bot_plus snapping_down_pre_bot_minus. Qed.

Theorem snapping_down_dp : forall fa fa', Rabs (fa - fa') <= delta ->
  forall y p p', snap_prob (snapping_down fa) y p -> snap_prob (snapping_down fa') y p' ->
  p <= exp (eps * delta) * p'.
Proof.
  snap_dp_clamped_tac snapping_down_pre_plus snapping_down_pre_minus
    snapping_down_pre_top_plus snapping_down_pre_top_minus
    snapping_down_pre_bot_plus snapping_down_pre_bot_minus
    snapping_down_grid.
Qed.

(** The unclamped mechanism with ties toward -∞. *)
Definition snapping_down_u (fa u : R) (s : sign) : R :=
  lam * IZR (round_grid TiesDown lam (fa + sgn s * (/ eps * ln u))).

Lemma snapping_down_u_pre_plus fa k u : 0 < u <= 1 ->
  (snapping_down_u fa u SPlus = lam * IZR k <->
   exp (eps * ((IZR k - / 2) * lam - fa)) < u <= exp (eps * ((IZR k + / 2) * lam - fa))).
Proof. snap_preimage snap_pre_down_plus. Qed.

Lemma snapping_down_u_pre_minus fa k u : 0 < u <= 1 ->
  (snapping_down_u fa u SMinus = lam * IZR k <->
   exp (eps * (fa - (IZR k + / 2) * lam)) <= u < exp (eps * (fa - (IZR k - / 2) * lam))).
Proof. snap_preimage snap_pre_down_minus. Qed.

Lemma snapping_down_u_grid fa u s y : 0 < u <= 1 ->
  snapping_down_u fa u s = y -> exists k, y = lam * IZR k.
Proof. snap_grid. Qed.

Lemma snapping_down_u_case_above fa k : fa <= (IZR k - / 2) * lam ->
  snap_prob (snapping_down_u fa) (lam * IZR k)
    (/ 2 * (exp (eps * (fa - (IZR k - / 2) * lam)) - exp (eps * (fa - (IZR k + / 2) * lam)))).
Proof. snap_case snap_case_above snapping_down_u_pre_plus snapping_down_u_pre_minus. Qed.

Theorem snapping_down_u_dp : forall fa fa', Rabs (fa - fa') <= delta ->
  forall y p p', snap_prob (snapping_down_u fa) y p -> snap_prob (snapping_down_u fa') y p' ->
  p <= exp (eps * delta) * p'.
Proof.
  snap_dp_unclamped_tac snapping_down_u_pre_plus snapping_down_u_pre_minus snapping_down_u_grid.
Qed.
