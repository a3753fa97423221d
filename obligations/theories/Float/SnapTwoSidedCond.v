(** * The two-sided comparison's four conditions, normalised
    [two_mass_widen] (SnapTwoSided.v) needs four inequalities between the ends
    of the widened pair and the narrowed one.  For a bucket whose narrowed
    lower end is al = e^((A + nA)/λ), the pair of [two_ratio_of_mass]
    (SnapTwoSidedRatio.v) is al times a pair that depends on three numbers only:
    p = e^((dA + nA)/λ) (the lower end's displacements, both inputs),
    Q = e^((dB + nB)/λ) (the upper end's) and R = e^((B′ − nB − A − nA)/λ) (the
    narrowed bucket's width), and q = 1 − 2η (U*'s factor).  The four
    conditions in these terms are [cond_tail_low] (t below the bucket),
    [cond_point_lower] (t at its lower end), [cond_point_upper],
    [cond_tail_high]; each is monotone: a larger p or Q and a smaller R make it
    harder ([cond_tail_low_mono], ...), so bounds on the displacements and on
    the width give one K for every bucket and input ([two_cond_low],
    [two_cond_high], [two_cond_all] turn them into [two_mass_widen]'s
    premises). *)
From Coq Require Import Reals Lra.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.
From Obligations.Float Require Import SnapRatio SnapTwoSided.

Local Open Scope R_scope.

Definition cond_tail_low (q p Q R K : R) : Prop := p / q - / (Q * R) <= K * (1 - / (R * q)).
Definition cond_point_lower (q p Q R K : R) : Prop := 2 - q / p - / (q * Q * R) <= K * (1 - / (q * q * R)).
Definition cond_point_upper (q p Q R K : R) : Prop := 2 - / (p * R * q) - q / Q <= K * (1 - / (q * q * R)).
Definition cond_tail_high (q p Q R K : R) : Prop := Q * R / q - / p <= K * (R - / q).

Section Mono.

Variables q p Q R P Q' R0 K : R.
Hypothesis Hq : 0 < q <= 1.
Hypothesis Hp : 1 <= p <= P.
Hypothesis HQ : 1 <= Q <= Q'.
Hypothesis HR : 0 < R0 <= R.
Hypothesis HK : 1 <= K.

Let Hinv : 0 < / R <= / R0.
Proof. split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra]. Qed.

Let HKq : K <= K / q.
Proof. apply div_k_le'; lra. Qed.

Let HiQ : 0 < / Q' <= / Q /\ / Q <= 1.
Proof.
  split; [split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra]|].
  rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
Qed.

Let HiP : 0 < / P <= / p /\ / p <= 1.
Proof.
  split; [split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra]|].
  rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
Qed.

Let Hiq : 1 <= / q.
Proof. rewrite <- Rinv_1. apply Rinv_le_contravar; lra. Qed.

(** c·(1/R) ≤ c′·(1/R0) for 0 ≤ c ≤ c′. *)
Let step_R : forall c c', 0 <= c <= c' -> c * / R <= c' * / R0.
Proof.
  intros c c' Hc. apply Rle_trans with (c * / R0); [apply Rmult_le_compat_l; lra|].
  apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra.
Qed.

Lemma cond_tail_low_mono : cond_tail_low q P Q' R0 K -> cond_tail_low q p Q R K.
Proof.
  unfold cond_tail_low. intros H.
  assert (I1 : p / q - / (Q * R) - K * (1 - / (R * q)) = p / q + (K / q - / Q) * / R - K) by (field; lra).
  assert (I2 : P / q - / (Q' * R0) - K * (1 - / (R0 * q)) = P / q + (K / q - / Q') * / R0 - K) by (field; lra).
  assert (Hpq : p / q <= P / q) by (apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra).
  assert (S := step_R (K / q - / Q) (K / q - / Q') ltac:(lra)). lra.
Qed.

Lemma cond_point_lower_mono : cond_point_lower q P Q' R0 K -> cond_point_lower q p Q R K.
Proof.
  unfold cond_point_lower. intros H.
  assert (I1 : 2 - q / p - / (q * Q * R) - K * (1 - / (q * q * R)) =
    2 - q * / p + (K / (q * q) - / q * / Q) * / R - K) by (field; lra).
  assert (I2 : 2 - q / P - / (q * Q' * R0) - K * (1 - / (q * q * R0)) =
    2 - q * / P + (K / (q * q) - / q * / Q') * / R0 - K) by (field; lra).
  assert (Hqp : q * / P <= q * / p) by (apply Rmult_le_compat_l; lra).
  assert (Hc : / q * / Q' <= / q * / Q) by (apply Rmult_le_compat_l; lra).
  assert (Hc2 : / q * / Q <= K / (q * q)).
  { replace (K / (q * q)) with (/ q * (K / q)) by (field; lra). apply Rmult_le_compat_l; lra. }
  assert (S := step_R (K / (q * q) - / q * / Q) (K / (q * q) - / q * / Q') ltac:(lra)). lra.
Qed.

Lemma cond_point_upper_mono : cond_point_upper q P Q' R0 K -> cond_point_upper q p Q R K.
Proof.
  unfold cond_point_upper. intros H.
  assert (I1 : 2 - / (p * R * q) - q / Q - K * (1 - / (q * q * R)) =
    2 - q * / Q + (K / (q * q) - / q * / p) * / R - K) by (field; lra).
  assert (I2 : 2 - / (P * R0 * q) - q / Q' - K * (1 - / (q * q * R0)) =
    2 - q * / Q' + (K / (q * q) - / q * / P) * / R0 - K) by (field; lra).
  assert (Hqp : q * / Q' <= q * / Q) by (apply Rmult_le_compat_l; lra).
  assert (Hc : / q * / P <= / q * / p) by (apply Rmult_le_compat_l; lra).
  assert (Hc2 : / q * / p <= K / (q * q)).
  { replace (K / (q * q)) with (/ q * (K / q)) by (field; lra). apply Rmult_le_compat_l; lra. }
  assert (S := step_R (K / (q * q) - / q * / p) (K / (q * q) - / q * / P) ltac:(lra)). lra.
Qed.

Lemma cond_tail_high_mono : cond_tail_high q P Q' R0 K -> cond_tail_high q p Q R K.
Proof.
  unfold cond_tail_high. intros H.
  assert (I1 : Q * R / q - / p - K * (R - / q) = R * (Q / q - K) + (K / q - / p)) by (field; lra).
  assert (I2 : Q' * R0 / q - / P - K * (R0 - / q) = R0 * (Q' / q - K) + (K / q - / P)) by (field; lra).
  (* the condition at R0 forces K ≥ Q′/q *)
  assert (HQK : Q' / q - K <= 0).
  { destruct (Rle_or_lt (Q' / q - K) 0) as [|Hn]; [assumption|exfalso].
    assert (0 < R0 * (Q' / q - K)) by (apply Rmult_lt_0_compat; lra). lra. }
  assert (HQq : Q / q <= Q' / q) by (apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra).
  assert (R * (Q / q - K) <= R0 * (Q / q - K)).
  { replace (R * (Q / q - K)) with (- (R * (K - Q / q))) by ring.
    replace (R0 * (Q / q - K)) with (- (R0 * (K - Q / q))) by ring.
    apply Ropp_le_contravar. apply Rmult_le_compat_r; lra. }
  assert (R0 * (Q / q - K) <= R0 * (Q' / q - K)) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

End Mono.

(** ** The pair of [two_ratio_of_mass], normalised by al *)
Section Link.

Variables q p Q R K al : R.
Hypothesis Hq : 0 < q <= 1.
Hypothesis Hp : 1 <= p.
Hypothesis HQ : 1 <= Q.
Hypothesis HR : / (q * q) < R.
Hypothesis HK : 1 <= K.
Hypothesis Hal : 0 < al.

Let HR0 : 0 < R.
Proof. assert (0 < / (q * q)) by (apply Rinv_0_lt_compat, Rmult_lt_0_compat; lra). lra. Qed.

Let Hc1 : 0 < al * q / p.
Proof. apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat|]; lra. Qed.

Let Hca1 : al * q / p <= al / p.
Proof. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|]. rewrite <- (Rmult_1_r al) at 2. apply Rmult_le_compat_l; lra. Qed.

Let Hac : al / p <= al.
Proof. apply div_k_le; lra. Qed.

Let Hca2 : al <= al / q.
Proof. apply div_k_le'; lra. Qed.

Let Had : al / q < al * R * q.
Proof.
  apply (Rmult_lt_reg_r q); [lra|]. replace (al / q * q) with (al * 1) by (field; lra).
  replace (al * R * q * q) with (al * (R * (q * q))) by ring. apply Rmult_lt_compat_l; [lra|].
  assert (Hqq : 0 < q * q) by (apply Rmult_lt_0_compat; lra).
  apply (Rmult_lt_compat_r (q * q)) in HR; [|exact Hqq]. rewrite Rinv_l in HR by lra. exact HR.
Qed.

Let Hdb2 : al * R * q <= al * R.
Proof. rewrite <- (Rmult_1_r (al * R)) at 2. apply Rmult_le_compat_l; [apply Rmult_le_pos|]; lra. Qed.

Let Hbd : al * R <= al * Q * R.
Proof. replace (al * Q * R) with (Q * (al * R)) by ring. rewrite <- (Rmult_1_l (al * R)) at 1. apply Rmult_le_compat_r; [apply Rmult_le_pos|]; lra. Qed.

Let Hdb1 : al * Q * R <= al * Q * R / q.
Proof. apply div_k_le'; [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]|]; lra. Qed.

Let Khigh : cond_tail_high q p Q R K -> al * Q * R / q - al / p <= K * (al * R - al / q).
Proof.
  unfold cond_tail_high. intros H.
  replace (al * Q * R / q - al / p) with (al * (Q * R / q - / p)) by (field; lra).
  replace (K * (al * R - al / q)) with (al * (K * (R - / q))) by (field; lra).
  apply Rmult_le_compat_l; lra.
Qed.

Let Klow : cond_tail_low q p Q R K -> / (al * q / p) - / (al * Q * R) <= K * (/ al - / (al * R * q)).
Proof.
  unfold cond_tail_low. intros H.
  replace (/ (al * q / p) - / (al * Q * R)) with (/ al * (p / q - / (Q * R))) by (field; lra).
  replace (K * (/ al - / (al * R * q))) with (/ al * (K * (1 - / (R * q)))) by (field; lra).
  apply Rmult_le_compat_l; [apply Rlt_le, Rinv_0_lt_compat|]; lra.
Qed.

Let Ka : cond_point_lower q p Q R K ->
  2 - al / p / (al / q) - al / q / (al * Q * R) <= K * (1 - al / q / (al * R * q)).
Proof.
  unfold cond_point_lower. intros H.
  replace (al / p / (al / q)) with (q / p) by (field; lra).
  replace (al / q / (al * Q * R)) with (/ (q * Q * R)) by (field; lra).
  replace (al / q / (al * R * q)) with (/ (q * q * R)) by (field; lra). exact H.
Qed.

Let Kd : cond_point_upper q p Q R K ->
  2 - al / p / (al * R * q) - al * R * q / (al * Q * R) <= K * (1 - al / q / (al * R * q)).
Proof.
  unfold cond_point_upper. intros H.
  replace (al / p / (al * R * q)) with (/ (p * R * q)) by (field; lra).
  replace (al * R * q / (al * Q * R)) with (q / Q) by (field; lra).
  replace (al / q / (al * R * q)) with (/ (q * q * R)) by (field; lra). exact H.
Qed.

(** The widened pair (al/p, al·Q·R/q, al·q/p, al·Q·R) against the narrowed one
    (al/q, al·R, al, al·R·q). *)
Theorem two_cond_low : forall t, 0 < t <= al / q ->
  cond_tail_low q p Q R K -> cond_point_lower q p Q R K ->
  two_mass (al / p) (al * Q * R / q) (al * q / p) (al * Q * R) t <=
    K * two_mass (al / q) (al * R) al (al * R * q) t.
Proof.
  intros t Ht H1 H2.
  exact (two_mass_widen_low _ _ _ _ _ _ _ _ K Hc1 Hca1 Hac Hca2 Had Hdb2 Hbd Hdb1 HK (Klow H1) (Ka H2) t Ht).
Qed.

Theorem two_cond_high : forall t, al * R * q <= t ->
  cond_tail_high q p Q R K -> cond_point_upper q p Q R K ->
  two_mass (al / p) (al * Q * R / q) (al * q / p) (al * Q * R) t <=
    K * two_mass (al / q) (al * R) al (al * R * q) t.
Proof.
  intros t Ht H1 H2.
  exact (two_mass_widen_high _ _ _ _ _ _ _ _ K Hc1 Hca1 Hac Hca2 Had Hdb2 Hbd Hdb1 HK (Khigh H1) (Kd H2) t Ht).
Qed.

Theorem two_cond_all : forall t, 0 < t ->
  cond_tail_low q p Q R K -> cond_point_lower q p Q R K ->
  cond_point_upper q p Q R K -> cond_tail_high q p Q R K ->
  two_mass (al / p) (al * Q * R / q) (al * q / p) (al * Q * R) t <=
    K * two_mass (al / q) (al * R) al (al * R * q) t.
Proof.
  intros t Ht H1 H2 H3 H4.
  exact (two_mass_widen _ _ _ _ _ _ _ _ K Hc1 Hca1 Hac Hca2 Had Hdb2 Hbd Hdb1 HK
           (Khigh H4) (Klow H1) (Ka H2) (Kd H3) t Ht).
Qed.

End Link.

(** ** Toward a closed form
    The conditions of an input above a bucket are those of an input below it with the two ends
    exchanged ([cond_tail_high_swap], [cond_point_upper_swap]), and the two conditions of one side
    follow from one first-order inequality: with p/q ≤ 1 + a, q/p ≥ 1 − a, 1/Q ≥ 1 − b,
    1/q and 1/q² ≤ 1 + c, K ≥ 1 + (a·R + b + c)/(R − 1 − c) ([cond_pair_first_order]), which
    decreases in R ([first_order_anti]). *)
Lemma cond_tail_high_swap : forall q p Q R K, 0 < q -> 0 < p -> 0 < Q -> 0 < R ->
  cond_tail_high q p Q R K <-> cond_tail_low q Q p R K.
Proof.
  intros q p Q R K Hq Hp HQ HR. unfold cond_tail_high, cond_tail_low.
  replace (Q * R / q - / p) with (R * (Q / q - / (p * R))) by (field; lra).
  replace (K * (R - / q)) with (R * (K * (1 - / (R * q)))) by (field; lra).
  split; intros H.
  - apply (Rmult_le_reg_l R); lra.
  - apply Rmult_le_compat_l; lra.
Qed.

Lemma cond_point_upper_swap : forall q p Q R K, 0 < q -> 0 < p -> 0 < Q -> 0 < R ->
  cond_point_upper q p Q R K <-> cond_point_lower q Q p R K.
Proof.
  intros q p Q R K Hq Hp HQ HR. unfold cond_point_upper, cond_point_lower.
  replace (/ (p * R * q)) with (/ (q * p * R)) by (field; lra). split; intros H; lra.
Qed.

Lemma cond_pair_first_order : forall q p Q R K a b c, 0 < q <= 1 -> 0 < p -> 0 < Q -> 0 <= c ->
  p / q <= 1 + a -> 1 - a <= q / p -> 1 - b <= / Q -> / q <= 1 + c -> / (q * q) <= 1 + c ->
  1 + c < R -> 0 <= K -> 1 + (a * R + b + c) / (R - 1 - c) <= K ->
  cond_tail_low q p Q R K /\ cond_point_lower q p Q R K.
Proof.
  intros q p Q R K a b c Hq Hp HQ Hc Ha1 Ha2 Hb Hc1 Hc2 HR HK0 HK.
  assert (HR0 : 0 < R) by lra.
  assert (Hden : 0 < R - 1 - c) by lra.
  (* K·(1 − (1 + c)/R) ≥ 1 + a − (1 − b)/R, multiplied by R *)
  assert (Key : (1 + a) - (1 - b) / R <= K * (1 - (1 + c) / R)).
  { apply (Rmult_le_reg_r R); [exact HR0|].
    replace (((1 + a) - (1 - b) / R) * R) with (R - 1 + a * R + b) by (field; lra).
    replace (K * (1 - (1 + c) / R) * R) with (K * (R - 1 - c)) by (field; lra).
    apply (Rmult_le_compat_r (R - 1 - c)) in HK; [|lra].
    replace ((1 + (a * R + b + c) / (R - 1 - c)) * (R - 1 - c)) with (R - 1 + a * R + b) in HK by (field; lra).
    lra. }
  assert (Hinv : / R * (1 - b) <= / R * / Q) by (apply Rmult_le_compat_l; [apply Rlt_le, Rinv_0_lt_compat|]; lra).
  assert (HqQ : / Q <= / (q * Q)).
  { rewrite Rinv_mult. rewrite <- (Rmult_1_l (/ Q)) at 1. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|].
    rewrite <- Rinv_1. apply Rinv_le_contravar; lra. }
  assert (Hinv2 : / R * / Q <= / R * / (q * Q)) by (apply Rmult_le_compat_l; [apply Rlt_le, Rinv_0_lt_compat|]; lra).
  assert (Hk1 : K * (1 - (1 + c) / R) <= K * (1 - / (R * q))).
  { apply Rmult_le_compat_l; [exact HK0|].
    replace (/ (R * q)) with (/ R * / q) by (field; lra).
    assert (/ R * / q <= / R * (1 + c)) by (apply Rmult_le_compat_l; [apply Rlt_le, Rinv_0_lt_compat|]; lra).
    unfold Rdiv. lra. }
  assert (Hk2 : K * (1 - (1 + c) / R) <= K * (1 - / (q * q * R))).
  { apply Rmult_le_compat_l; [exact HK0|].
    replace (/ (q * q * R)) with (/ R * / (q * q)) by (field; lra).
    assert (/ R * / (q * q) <= / R * (1 + c)) by (apply Rmult_le_compat_l; [apply Rlt_le, Rinv_0_lt_compat|]; lra).
    unfold Rdiv. lra. }
  split.
  - unfold cond_tail_low. replace (/ (Q * R)) with (/ R * / Q) by (field; lra). unfold Rdiv in *. lra.
  - unfold cond_point_lower. replace (/ (q * Q * R)) with (/ R * / (q * Q)) by (field; lra). unfold Rdiv in *. lra.
Qed.

Lemma first_order_anti : forall a b c r0 R, 0 <= a -> 0 <= b -> 0 <= c -> 1 + c < r0 <= R ->
  (a * R + b + c) / (R - 1 - c) <= (a * r0 + b + c) / (r0 - 1 - c).
Proof.
  intros a b c r0 R Ha Hb Hc Hr.
  apply (Rmult_le_reg_r ((R - 1 - c) * (r0 - 1 - c))); [apply Rmult_lt_0_compat; lra|].
  replace ((a * R + b + c) / (R - 1 - c) * ((R - 1 - c) * (r0 - 1 - c))) with ((a * R + b + c) * (r0 - 1 - c))
    by (field; lra).
  replace ((a * r0 + b + c) / (r0 - 1 - c) * ((R - 1 - c) * (r0 - 1 - c))) with ((a * r0 + b + c) * (R - 1 - c))
    by (field; lra).
  (* the difference is (R − r0)·(a·(1 + c) + b + c) ≥ 0 *)
  assert (0 <= (R - r0) * (a * (1 + c) + b + c)).
  { apply Rmult_le_pos; [lra|]. assert (0 <= a * (1 + c)) by (apply Rmult_le_pos; lra). lra. }
  assert (E : (a * r0 + b + c) * (R - 1 - c) - (a * R + b + c) * (r0 - 1 - c) = (R - r0) * (a * (1 + c) + b + c)) by ring.
  lra.
Qed.
