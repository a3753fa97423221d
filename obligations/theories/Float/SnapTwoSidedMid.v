(** * The two-sided comparison inside a bucket, piece by piece
    [two_mass_widen] (SnapTwoSided.v) bounds the ratio of a widened pair of
    intervals to a narrowed one for every t at once, from four conditions at
    the displacements of the worst input.  An input x′ inside a bucket has its
    own displacement of each end, μ·|e − x′|, small at the end it is near;
    [float_snap_dp_two] charges both ends the whole μ·Λ.  Here the narrowed
    centre [a2, d2] is cut at points s1 ≤ s2: on [s1, s2] the difference of
    the two masses, times t, is a convex quadratic ([two_mass_widen_centre]),
    so two conditions at s1 and s2 ([cond_centre], in the normalised units of
    SnapTwoSidedCond.v) bound it there, each monotone in the displacements and
    the width ([cond_mid_mono], at s = R^f).  The conditions at the narrowed
    ends s = 1/q and s = R·q are [cond_point_lower] and [cond_point_upper]
    ([cond_centre_lower], [cond_centre_upper]).  [piece_exists] finds the
    piece of [1, n] that holds a real number. *)
From Coq Require Import Reals Lra Lia.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.
From Obligations.Float Require Import SnapRatio SnapTwoSided SnapTwoSidedCond.

Local Open Scope R_scope.

Lemma div_nonpos : forall v t, 0 < t -> v <= 0 -> v / t <= 0.
Proof.
  intros v t Ht Hv. unfold Rdiv. rewrite <- (Rmult_0_l (/ t)).
  apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra.
Qed.

Lemma nonpos_of_div : forall v t, 0 < t -> v / t <= 0 -> v <= 0.
Proof.
  intros v t Ht Hv. replace v with (v / t * t) by (field; lra).
  rewrite <- (Rmult_0_l t). apply Rmult_le_compat_r; lra.
Qed.

(** ** The centre of a widened pair against a narrowed one *)
Section Centre.

Variables a1 b1 c1 d1 a2 b2 c2 d2 K : R.
Hypothesis Hc1 : 0 < c1.
Hypothesis Hca1 : c1 <= a1.
Hypothesis Hac : a1 <= c2.
Hypothesis Hca2 : c2 <= a2.
Hypothesis Had : a2 < d2.
Hypothesis Hdb2 : d2 <= b2.
Hypothesis Hbd : b2 <= d1.
Hypothesis Hdb1 : d1 <= b1.
Hypothesis HK : 1 <= K.

Let centre_form : forall t, a2 <= t <= d2 ->
  two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t =
    ((K * a2 - a1) + (2 - 2 * K) * t + (K / d2 - / d1) * (t * t)) / t.
Proof.
  intros t Ht. unfold two_mass.
  rewrite (plus_mid a2 b2 t) by lra. rewrite (minus_mid c2 d2 t) by lra.
  rewrite (plus_mid a1 b1 t) by lra. rewrite (minus_mid c1 d1 t) by lra.
  field. lra.
Qed.

Let centre_coef : 0 <= K / d2 - / d1.
Proof.
  assert (/ d1 <= / d2) by (apply Rinv_le_contravar; lra).
  assert (/ d2 <= K / d2).
  { unfold Rdiv. rewrite <- (Rmult_1_l (/ d2)) at 1. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra. }
  lra.
Qed.

Let centre_at : forall s, a2 <= s <= d2 -> 2 - a1 / s - s / d1 <= K * (2 - a2 / s - s / d2) ->
  (K * a2 - a1) + (2 - 2 * K) * s + (K / d2 - / d1) * (s * s) <= 0.
Proof.
  intros s Hs H. apply (nonpos_of_div _ s); [lra|].
  replace (((K * a2 - a1) + (2 - 2 * K) * s + (K / d2 - / d1) * (s * s)) / s)
    with ((2 - a1 / s - s / d1) - K * (2 - a2 / s - s / d2)) by (field; lra).
  lra.
Qed.

(** Between two points s1 ≤ s2 of the narrowed centre, the conditions at s1 and s2. *)
Theorem two_mass_widen_centre : forall s1 s2 t, a2 <= s1 -> s1 <= t <= s2 -> s2 <= d2 ->
  2 - a1 / s1 - s1 / d1 <= K * (2 - a2 / s1 - s1 / d2) ->
  2 - a1 / s2 - s2 / d1 <= K * (2 - a2 / s2 - s2 / d2) ->
  two_mass a1 b1 c1 d1 t <= K * two_mass a2 b2 c2 d2 t.
Proof.
  intros s1 s2 t H1 Ht H2 K1 K2. apply Rminus_le.
  rewrite (centre_form t) by lra. apply div_nonpos; [lra|].
  apply (quad_le0 _ _ _ s1 s2); [exact centre_coef|lra|apply centre_at; lra|apply centre_at; lra].
Qed.

End Centre.

(** ** The condition at a point s of the centre, normalised *)
Definition cond_centre (q p Q R K s : R) : Prop :=
  2 - / (p * s) - s / (Q * R) <= K * (2 - / (q * s) - s / (q * R)).

(** The point s = R^f. *)
Definition cond_mid (q p Q R K f : R) : Prop := cond_centre q p Q R K (exp (f * ln R)).

Lemma cond_centre_lower : forall q p Q R K, 0 < q -> 0 < p -> 0 < Q -> 0 < R ->
  cond_point_lower q p Q R K <-> cond_centre q p Q R K (/ q).
Proof.
  intros q p Q R K Hq Hp HQ HR. unfold cond_point_lower, cond_centre.
  replace (/ (p * / q)) with (q / p) by (field; lra).
  replace (/ q / (Q * R)) with (/ (q * Q * R)) by (field; lra).
  replace (/ (q * / q)) with 1 by (field; lra).
  replace (/ q / (q * R)) with (/ (q * q * R)) by (field; lra).
  replace (2 - 1 - / (q * q * R)) with (1 - / (q * q * R)) by ring. tauto.
Qed.

Lemma cond_centre_upper : forall q p Q R K, 0 < q -> 0 < p -> 0 < Q -> 0 < R ->
  cond_point_upper q p Q R K <-> cond_centre q p Q R K (R * q).
Proof.
  intros q p Q R K Hq Hp HQ HR. unfold cond_point_upper, cond_centre.
  replace (/ (p * (R * q))) with (/ (p * R * q)) by (field; lra).
  replace (R * q / (Q * R)) with (q / Q) by (field; lra).
  replace (/ (q * (R * q))) with (/ (q * q * R)) by (field; lra).
  replace (R * q / (q * R)) with 1 by (field; lra).
  replace (2 - / (q * q * R) - 1) with (1 - / (q * q * R)) by ring. tauto.
Qed.

(** A larger p or Q and a smaller R make the condition at R^f harder, 0 ≤ f ≤ 1. *)
Lemma cond_mid_mono : forall q p Q R P Q' R0 K f, 0 < q <= 1 -> 1 <= p <= P -> 1 <= Q <= Q' ->
  0 < R0 <= R -> 1 <= K -> 0 <= f <= 1 -> cond_mid q P Q' R0 K f -> cond_mid q p Q R K f.
Proof.
  intros q p Q R P Q' R0 K f Hq Hp HQ HR HK Hf. unfold cond_mid, cond_centre.
  set (s := exp (f * ln R)). set (s0 := exp (f * ln R0)).
  assert (Hs : 0 < s) by apply exp_pos. assert (Hs0 : 0 < s0) by apply exp_pos.
  assert (Hln : ln R0 <= ln R) by (apply exp_le_iff; rewrite !exp_ln; lra).
  assert (Is : / s <= / s0).
  { apply Rinv_le_contravar; [exact Hs0|]. unfold s, s0. apply exp_le_iff.
    apply Rmult_le_compat_l; lra. }
  assert (Ir : s / R <= s0 / R0).
  { unfold s, s0. rewrite <- (exp_ln R) at 2 by lra. rewrite <- (exp_ln R0) at 2 by lra.
    unfold Rdiv. rewrite <- !exp_Ropp, <- !exp_plus. apply exp_le_iff.
    replace (f * ln R + - ln R) with ((1 - f) * - ln R) by ring.
    replace (f * ln R0 + - ln R0) with ((1 - f) * - ln R0) by ring.
    apply Rmult_le_compat_l; lra. }
  assert (Hiq : 1 <= / q) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
  assert (HKq : 1 <= K / q).
  { unfold Rdiv. replace 1 with (1 * 1) by ring. apply Rmult_le_compat; lra. }
  assert (Ip : / P <= / p /\ / p <= 1).
  { split; [apply Rinv_le_contravar; lra|rewrite <- Rinv_1; apply Rinv_le_contravar; lra]. }
  assert (IQ : / Q' <= / Q /\ / Q <= 1).
  { split; [apply Rinv_le_contravar; lra|rewrite <- Rinv_1; apply Rinv_le_contravar; lra]. }
  assert (E : forall p Q R s, 0 < p -> 0 < Q -> 0 < R -> 0 < s ->
    2 - / (p * s) - s / (Q * R) - K * (2 - / (q * s) - s / (q * R)) =
      2 - 2 * K + (K / q - / p) * / s + (K / q - / Q) * (s / R)).
  { intros p1 Q1 R1 s1 H1 H2 H3 H4. field. lra. }
  intros H.
  assert (E1 := E p Q R s ltac:(lra) ltac:(lra) ltac:(lra) Hs).
  assert (E2 := E P Q' R0 s0 ltac:(lra) ltac:(lra) ltac:(lra) Hs0).
  assert (T1 : (K / q - / p) * / s <= (K / q - / P) * / s0).
  { apply Rmult_le_compat; [lra|apply Rlt_le, Rinv_0_lt_compat; lra|lra|exact Is]. }
  assert (T2 : (K / q - / Q) * (s / R) <= (K / q - / Q') * (s0 / R0)).
  { apply Rmult_le_compat; [lra|apply Rlt_le, Rdiv_lt_0_compat; lra|lra|exact Ir]. }
  lra.
Qed.

(** ** The pair of [two_ratio_of_mass] on a piece of the centre *)
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

Let at_point : forall s, 0 < s -> cond_centre q p Q R K s ->
  2 - al / p / (al * s) - al * s / (al * Q * R) <= K * (2 - al / q / (al * s) - al * s / (al * R * q)).
Proof.
  intros s Hs H. unfold cond_centre in H.
  replace (al / p / (al * s)) with (/ (p * s)) by (field; lra).
  replace (al * s / (al * Q * R)) with (s / (Q * R)) by (field; lra).
  replace (al / q / (al * s)) with (/ (q * s)) by (field; lra).
  replace (al * s / (al * R * q)) with (s / (q * R)) by (field; lra). exact H.
Qed.

(** t between al·s1 and al·s2, 1/q ≤ s1 ≤ s2 ≤ R·q. *)
Theorem two_cond_centre : forall s1 s2 t, / q <= s1 -> s1 <= s2 -> s2 <= R * q -> al * s1 <= t <= al * s2 ->
  cond_centre q p Q R K s1 -> cond_centre q p Q R K s2 ->
  two_mass (al / p) (al * Q * R / q) (al * q / p) (al * Q * R) t <=
    K * two_mass (al / q) (al * R) al (al * R * q) t.
Proof.
  intros s1 s2 t H1 H12 H2 Ht C1 C2.
  assert (Hs1 : 0 < s1) by (assert (0 < / q) by (apply Rinv_0_lt_compat; lra); lra).
  assert (Hs2 : 0 < s2) by lra.
  apply (two_mass_widen_centre _ _ _ _ _ _ _ _ K Hc1 Hca1 Hac Hca2 Had Hdb2 Hbd Hdb1 HK (al * s1) (al * s2) t).
  - replace (al / q) with (al * / q) by (unfold Rdiv; ring). apply Rmult_le_compat_l; lra.
  - exact Ht.
  - replace (al * R * q) with (al * (R * q)) by ring. apply Rmult_le_compat_l; lra.
  - exact (at_point s1 Hs1 C1).
  - exact (at_point s2 Hs2 C2).
Qed.

End Link.

(** ** The piece of [1, n] that holds y *)
Lemma piece_exists : forall n y, (1 <= n)%nat -> exists j, (1 <= j <= n)%nat /\
  (j = 1%nat \/ INR j - 1 <= y) /\ (j = n \/ y <= INR j).
Proof.
  intros n y Hn. induction n as [|n IH]; [lia|].
  destruct (Nat.eq_dec n 0) as [->|Hn0].
  { exists 1%nat. split; [lia|]. split; left; reflexivity. }
  destruct IH as (j & Hj & Hlo & Hhi); [lia|].
  destruct Hhi as [->|Hhi].
  - destruct (Rle_lt_dec y (INR n)) as [Hy|Hy].
    + exists n. split; [lia|]. split; [exact Hlo|right; exact Hy].
    + exists (S n). split; [lia|]. split; [right; rewrite S_INR; lra|left; reflexivity].
  - exists j. split; [lia|]. split; [exact Hlo|right; exact Hhi].
Qed.

(** ** The conditions of the piece j of n
    The piece j covers the narrowed centre from R^((j−1)/n) to R^(j/n); the
    first piece also the low tail and the point 1/q, the last one the high
    tail and the point R·q. *)
Definition two_piece (q p Q R K : R) (n j : nat) : Prop :=
  ((j = 1)%nat -> cond_tail_low q p Q R K /\ cond_point_lower q p Q R K) /\
  ((1 < j)%nat -> cond_mid q p Q R K ((INR j - 1) / INR n)) /\
  ((j < n)%nat -> cond_mid q p Q R K (INR j / INR n)) /\
  ((j = n)%nat -> cond_point_upper q p Q R K /\ cond_tail_high q p Q R K).

(** The piece's bound on an input's displacement: t ≤ al·R^f says
    u − μu − sl ≤ f·(W − μW − 2sl) for the input's distance u to the lower end,
    and then μu ≤ μfW + sl when μ ≤ 1/2. *)
Lemma piece_disp : forall m u W f sl, 0 <= m <= / 2 -> 0 <= sl -> 0 <= f <= 1 ->
  u - m * u - sl <= f * (W - m * W - 2 * sl) -> m * u <= m * (f * W) + sl.
Proof.
  intros m u W f sl Hm Hsl Hf H.
  destruct (Rle_or_lt u (f * W)) as [Hu|Hu].
  - assert (m * u <= m * (f * W)) by (apply Rmult_le_compat_l; lra). lra.
  - assert (0 <= f * sl) by (apply Rmult_le_pos; lra).
    assert (H1 : (1 - m) * (u - f * W) <= sl) by lra.
    assert (m * (u - f * W) <= (1 - m) * (u - f * W)) by (apply Rmult_le_compat_r; lra). lra.
Qed.

(** ** Toward a closed form
    The condition at s with the ends exchanged is the condition at R/s
    ([cond_centre_swap]; at s = R^f, the one at R^(1 − f): [cond_mid_swap]); to
    first order, with 1/s ≤ a, s/R ≤ b, 1/p ≥ 1 − u, 1/Q ≥ 1 − v, 1/q ≤ 1 + c
    and K ≥ 1 + X, it holds when u·a + v·b + c·(a + b) ≤ X·(2 − (1 + c)(a + b))
    ([cond_centre_first_order]). *)
Lemma cond_centre_swap : forall q p Q R K s, 0 < q -> 0 < p -> 0 < Q -> 0 < R -> 0 < s ->
  cond_centre q p Q R K s <-> cond_centre q Q p R K (R / s).
Proof.
  intros q p Q R K s Hq Hp HQ HR Hs. unfold cond_centre.
  replace (/ (Q * (R / s))) with (s / (Q * R)) by (field; lra).
  replace (R / s / (p * R)) with (/ (p * s)) by (field; lra).
  replace (/ (q * (R / s))) with (s / (q * R)) by (field; lra).
  replace (R / s / (q * R)) with (/ (q * s)) by (field; lra).
  split; intros H; lra.
Qed.

Lemma cond_mid_swap : forall q p Q R K f, 0 < q -> 0 < p -> 0 < Q -> 0 < R ->
  cond_mid q p Q R K f <-> cond_mid q Q p R K (1 - f).
Proof.
  intros q p Q R K f Hq Hp HQ HR. unfold cond_mid.
  replace (exp ((1 - f) * ln R)) with (R / exp (f * ln R)).
  - apply cond_centre_swap; [lra|lra|lra|lra|apply exp_pos].
  - replace ((1 - f) * ln R) with (ln R + - (f * ln R)) by ring.
    rewrite exp_plus, exp_Ropp, exp_ln by lra. reflexivity.
Qed.

Lemma cond_centre_first_order : forall q p Q R K s a b u v c X,
  0 < q -> 0 < p -> 0 < Q -> 0 < R -> 0 < s -> / s <= a -> s / R <= b ->
  1 - u <= / p -> 1 - v <= / Q -> / q <= 1 + c -> 0 <= u -> 0 <= v -> 0 <= c -> 0 <= X ->
  (1 + c) * (a + b) <= 2 -> 1 + X <= K ->
  u * a + v * b + c * (a + b) <= X * (2 - (1 + c) * (a + b)) -> cond_centre q p Q R K s.
Proof.
  intros q p Q R K s a b u v c X Hq Hp HQ HR Hs Ha Hb Hu Hv Hc Hu0 Hv0 Hc0 HX0 Hab HK H.
  unfold cond_centre.
  set (al := / s). set (be := s / R).
  assert (Hal : 0 < al) by (apply Rinv_0_lt_compat; lra).
  assert (Hbe : 0 < be) by (apply Rdiv_lt_0_compat; lra).
  assert (Ha' : al <= a) by (unfold al; exact Ha). assert (Hb' : be <= b) by (unfold be; exact Hb).
  replace (/ (p * s)) with (/ p * al) by (unfold al; field; lra).
  replace (s / (Q * R)) with (/ Q * be) by (unfold be; field; lra).
  replace (/ (q * s)) with (/ q * al) by (unfold al; field; lra).
  replace (s / (q * R)) with (/ q * be) by (unfold be; field; lra).
  assert (T1 : (1 - u) * al <= / p * al) by (apply Rmult_le_compat_r; lra).
  assert (T2 : (1 - v) * be <= / Q * be) by (apply Rmult_le_compat_r; lra).
  assert (T3 : / q * al <= (1 + c) * al) by (apply Rmult_le_compat_r; lra).
  assert (T4 : / q * be <= (1 + c) * be) by (apply Rmult_le_compat_r; lra).
  assert (Hs2 : (1 + c) * (al + be) <= (1 + c) * (a + b)) by (apply Rmult_le_compat_l; lra).
  assert (T5 : (1 + X) * (2 - (1 + c) * (al + be)) <= K * (2 - (1 + c) * (al + be)))
    by (apply Rmult_le_compat_r; lra).
  assert (T6 : K * (2 - (1 + c) * (al + be)) <= K * (2 - / q * al - / q * be))
    by (apply Rmult_le_compat_l; lra).
  assert (U1 : u * al <= u * a) by (apply Rmult_le_compat_l; lra).
  assert (U2 : v * be <= v * b) by (apply Rmult_le_compat_l; lra).
  assert (U3 : c * (al + be) <= c * (a + b)) by (apply Rmult_le_compat_l; lra).
  assert (U4 : X * (2 - (1 + c) * (a + b)) <= X * (2 - (1 + c) * (al + be))) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

Lemma exp_nat_mul : forall j y, exp (INR j * y) = exp y ^ j.
Proof.
  intros j y. induction j as [|j IH].
  - cbn [INR pow]. replace (0 * y) with 0 by ring. apply exp_0.
  - rewrite S_INR. replace ((INR j + 1) * y) with (INR j * y + y) by ring.
    rewrite exp_plus, IH. cbn [pow]. ring.
Qed.
