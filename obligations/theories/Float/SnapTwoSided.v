(** * The ideal mass of a bucket with different ends per sign
    [snap_mass α β t] (Noise/SnapBound.v) is the ideal probability of one
    interval of the sum, the same for both signs of the noise.  The rounding
    errors of the pipeline are not: U*'s rounding down divides only the upper
    end of u by 1 − 2η, which is the upper end of the sum's interval for the
    sign +1 and its lower end for the sign −1; and each end of a bucket moves by
    its own displacement.  [two_mass a b c d t] is the mass of the interval
    [a, b] (in exponential units, t = e^(x/λ)) for the sign +1 and [c, d] for
    the sign −1.

    [two_mass_widen] compares a widened pair of intervals with a narrowed one,
    c1 ≤ a1 ≤ c2 ≤ a2 < d2 ≤ b2 ≤ d1 ≤ b1 (the order the widenings and U*'s
    factor put them in): the ratio of the masses is at most K wherever it is at
    most K in both tails (t below every end, t above every end) and at the two
    points t = a2 and t = d2.  Between those points the difference, times t
    (or divided by t), is a convex quadratic, and outside them it is bounded by
    the tails' identities.  With c = a and d = b it is [snap_mass_widen]'s
    situation without its two exact identities.

    [two_mass_move] moves t as [snap_mass_ratio] does, for pairs with
    c ≤ a, d ≤ b and 2a ≤ d (a bucket at least ln 2 wide in units of λ). *)
From Coq Require Import Reals Lra.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.

Local Open Scope R_scope.

(** The sign +1 sees [a, b], the sign −1 sees [c, d]. *)
Definition two_mass (a b c d t : R) : R := ulen (a / t) (b / t) + ulen (t / d) (t / c).

Lemma two_mass_snap : forall a b t, two_mass a b a b t = snap_mass a b t.
Proof. intros a b t. reflexivity. Qed.

Lemma two_mass_nonneg : forall a b c d t, 0 <= two_mass a b c d t.
Proof.
  intros a b c d t. unfold two_mass.
  pose proof (ulen_nonneg (a / t) (b / t)). pose proof (ulen_nonneg (t / d) (t / c)). lra.
Qed.

(** ** The pieces *)

Lemma plus_low : forall a b t, 0 < t <= a -> ulen (a / t) (b / t) = 0.
Proof. intros a b t H. apply ulen_above. apply div_ge1; lra. Qed.

Lemma plus_mid : forall a b t, 0 < a -> a <= t <= b -> ulen (a / t) (b / t) = 1 - a / t.
Proof.
  intros a b t Ha H. apply ulen_straddle.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra].
  - apply div_ge1; lra.
Qed.

Lemma plus_high : forall a b t, 0 < a <= b -> b <= t -> ulen (a / t) (b / t) = b / t - a / t.
Proof.
  intros a b t Ha H. apply ulen_inside.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_mono; lra].
  - apply div_le1; lra.
Qed.

Lemma minus_low : forall c d t, 0 < t <= c -> c <= d -> ulen (t / d) (t / c) = t / c - t / d.
Proof.
  intros c d t H Hcd. apply ulen_inside.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_anti; lra].
  - apply div_le1; lra.
Qed.

Lemma minus_mid : forall c d t, 0 < c -> c <= t <= d -> ulen (t / d) (t / c) = 1 - t / d.
Proof.
  intros c d t Hc H. apply ulen_straddle.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra].
  - apply div_ge1; lra.
Qed.

Lemma minus_high : forall c d t, 0 < d -> d <= t -> ulen (t / d) (t / c) = 0.
Proof. intros c d t Hd H. apply ulen_above. apply div_ge1; lra. Qed.

(** A quadratic with a nonnegative leading coefficient, nonpositive at both
    ends of an interval, is nonpositive inside it. *)
Lemma quad_le0 : forall A B C p q s, 0 <= C -> p <= s <= q ->
  A + B * p + C * (p * p) <= 0 -> A + B * q + C * (q * q) <= 0 -> A + B * s + C * (s * s) <= 0.
Proof.
  intros A B C p q s HC Hs Hp Hq.
  destruct (Req_dec p q) as [<-|Hpq].
  { replace s with p by lra. exact Hp. }
  assert (Hl : (A + B * s + C * (s * s)) * (q - p) =
    (q - s) * (A + B * p + C * (p * p)) + (s - p) * (A + B * q + C * (q * q)) - C * ((s - p) * (q - s)) * (q - p))
    by ring.
  assert (T1 : (q - s) * (A + B * p + C * (p * p)) <= 0).
  { rewrite <- (Rmult_0_r (q - s)). apply Rmult_le_compat_l; lra. }
  assert (T2 : (s - p) * (A + B * q + C * (q * q)) <= 0).
  { rewrite <- (Rmult_0_r (s - p)). apply Rmult_le_compat_l; lra. }
  assert (T3 : 0 <= C * ((s - p) * (q - s)) * (q - p)).
  { apply Rmult_le_pos; [apply Rmult_le_pos; [exact HC|apply Rmult_le_pos; lra]|lra]. }
  destruct (Rle_or_lt (A + B * s + C * (s * s)) 0) as [|Hn]; [assumption|].
  assert (0 < (A + B * s + C * (s * s)) * (q - p)) by (apply Rmult_lt_0_compat; lra). lra.
Qed.

(** 2 − u/t − t/v ≤ 0 when u ≥ v (the arithmetic-geometric mean). *)
Lemma am_gm_le0 : forall u v t, 0 < v <= u -> 0 < t -> 2 - u / t - t / v <= 0.
Proof.
  intros u v t Hv Ht.
  assert (Hi : 2 - u / t - t / v = - ((t - v) * (t - v) / (v * t)) - (u - v) / t) by (field; lra).
  assert (0 <= (t - v) * (t - v) / (v * t)).
  { apply Rmult_le_pos; [apply Rle_0_sqr|apply Rlt_le, Rinv_0_lt_compat, Rmult_lt_0_compat; lra]. }
  assert (0 <= (u - v) / t) by (apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]).
  lra.
Qed.

(** ** The comparison of a widened pair of intervals with a narrowed one *)
Section Widen.

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
(** t above every end: the sign +1 alone. *)
Hypothesis Khigh : b1 - a1 <= K * (b2 - a2).
(** t below every end: the sign −1 alone. *)
Hypothesis Klow : / c1 - / d1 <= K * (/ c2 - / d2).
(** t = a2 and t = d2. *)
Hypothesis Ka : 2 - a1 / a2 - a2 / d1 <= K * (1 - a2 / d2).
Hypothesis Kd : 2 - a1 / d2 - d2 / d1 <= K * (1 - a2 / d2).

Let Ha1 : 0 < a1. Proof. lra. Qed.
Let Ha2 : 0 < a2. Proof. lra. Qed.
Let Hc2 : 0 < c2. Proof. lra. Qed.
Let Hd2 : 0 < d2. Proof. lra. Qed.
Let Hd1 : 0 < d1. Proof. lra. Qed.


(** The low tail bound, multiplied by t. *)
Let low_times : forall t, 0 < t -> t / c1 - t / d1 <= K * (t / c2 - t / d2).
Proof.
  intros t Ht.
  replace (t / c1 - t / d1) with (t * (/ c1 - / d1)) by (unfold Rdiv; ring).
  replace (K * (t / c2 - t / d2)) with (t * (K * (/ c2 - / d2))) by (unfold Rdiv; ring).
  apply Rmult_le_compat_l; lra.
Qed.

(** t ≤ c2: the narrowed mass is the sign −1's low piece. *)
Let below_c2 : forall t, 0 < t <= c2 ->
  two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t <= 0.
Proof.
  intros t Ht. unfold two_mass.
  rewrite (plus_low a2 b2 t) by lra. rewrite (minus_low c2 d2 t) by lra.
  assert (L := low_times t (proj1 Ht)).
  destruct (Rle_or_lt t c1) as [T1|T1].
  { rewrite (plus_low a1 b1 t) by lra. rewrite (minus_low c1 d1 t) by lra. lra. }
  rewrite (minus_mid c1 d1 t) by lra.
  destruct (Rle_or_lt t a1) as [T2|T2].
  { rewrite (plus_low a1 b1 t) by lra.
    assert (1 - t / c1 <= 0) by (assert (1 <= t / c1) by (apply div_ge1; lra); lra). lra. }
  rewrite (plus_mid a1 b1 t) by lra.
  assert (M := am_gm_le0 a1 c1 t (conj Hc1 Hca1) (proj1 Ht)). lra.
Qed.

(** b2 ≤ t: the narrowed mass is the sign +1's high piece. *)
Let above_b2 : forall t, b2 <= t ->
  two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t <= 0.
Proof.
  intros t Ht. assert (Ht0 : 0 < t) by lra. unfold two_mass.
  rewrite (plus_high a2 b2 t) by lra. rewrite (minus_high c2 d2 t) by lra.
  assert (H : b1 / t - a1 / t <= K * (b2 / t - a2 / t)).
  { replace (b1 / t - a1 / t) with ((b1 - a1) * / t) by (unfold Rdiv; ring).
    replace (K * (b2 / t - a2 / t)) with ((K * (b2 - a2)) * / t) by (unfold Rdiv; ring).
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|exact Khigh]. }
  destruct (Rle_or_lt b1 t) as [T1|T1].
  { rewrite (plus_high a1 b1 t) by lra. rewrite (minus_high c1 d1 t) by lra. lra. }
  rewrite (plus_mid a1 b1 t) by lra.
  destruct (Rle_or_lt d1 t) as [T2|T2].
  { rewrite (minus_high c1 d1 t) by lra.
    assert (1 - b1 / t <= 0) by (assert (b1 / t >= 1) by (apply Rle_ge, div_ge1; lra); lra). lra. }
  rewrite (minus_mid c1 d1 t) by lra.
  assert (M := am_gm_le0 b1 d1 t (conj Hd1 Hdb1) Ht0). lra.
Qed.

(** c2 ≤ t ≤ d2, in the form t·(difference) = A + B t + C t², C ≥ 0. *)
Let mid_left : forall t, c2 <= t <= a2 ->
  two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t =
    (- a1 + (2 - K) * t + (K / d2 - / d1) * (t * t)) / t.
Proof.
  intros t Ht. unfold two_mass.
  rewrite (plus_low a2 b2 t) by lra. rewrite (minus_mid c2 d2 t) by lra.
  rewrite (plus_mid a1 b1 t) by lra. rewrite (minus_mid c1 d1 t) by lra.
  field. lra.
Qed.

Let mid_center : forall t, a2 <= t <= d2 ->
  two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t =
    ((K * a2 - a1) + (2 - 2 * K) * t + (K / d2 - / d1) * (t * t)) / t.
Proof.
  intros t Ht. unfold two_mass.
  rewrite (plus_mid a2 b2 t) by lra. rewrite (minus_mid c2 d2 t) by lra.
  rewrite (plus_mid a1 b1 t) by lra. rewrite (minus_mid c1 d1 t) by lra.
  field. lra.
Qed.

(** d2 ≤ t ≤ b2, in s = 1/t: s·(difference) = −1/d1 + (2 − K) s + (K a2 − a1) s². *)
Let mid_right : forall t, d2 <= t <= b2 ->
  two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t =
    (- / d1 + (2 - K) * / t + (K * a2 - a1) * (/ t * / t)) * t.
Proof.
  intros t Ht. unfold two_mass.
  rewrite (plus_mid a2 b2 t) by lra. rewrite (minus_high c2 d2 t) by lra.
  rewrite (plus_mid a1 b1 t) by lra. rewrite (minus_mid c1 d1 t) by lra.
  field. lra.
Qed.

Let div_le0 : forall v t, 0 < t -> v <= 0 -> v / t <= 0.
Proof.
  intros v t Ht Hv. unfold Rdiv. rewrite <- (Rmult_0_l (/ t)).
  apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra.
Qed.

Let le0_of_div : forall v t, 0 < t -> v / t <= 0 -> v <= 0.
Proof.
  intros v t Ht Hv. replace v with (v / t * t) by (field; lra).
  rewrite <- (Rmult_0_l t). apply Rmult_le_compat_r; lra.
Qed.

Let le0_of_mul : forall v t, 0 < t -> v * t <= 0 -> v <= 0.
Proof.
  intros v t Ht Hv. replace v with (v * t / t) by (field; lra). apply div_le0; lra.
Qed.

Let mul_le0 : forall v t, 0 < t -> v <= 0 -> v * t <= 0.
Proof. intros v t Ht Hv. rewrite <- (Rmult_0_l t). apply Rmult_le_compat_r; lra. Qed.

Let Cpos : 0 <= K / d2 - / d1.
Proof.
  assert (/ d1 <= / d2) by (apply Rinv_le_contravar; lra).
  assert (/ d2 <= K / d2).
  { unfold Rdiv. rewrite <- (Rmult_1_l (/ d2)) at 1. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra. }
  lra.
Qed.

Let Cpos' : 0 <= K * a2 - a1.
Proof. assert (a2 <= K * a2) by (rewrite <- (Rmult_1_l a2) at 1; apply Rmult_le_compat_r; lra). lra. Qed.

(** The difference at the two points of the hypotheses [Ka], [Kd]. *)
Let at_a2 : two_mass a1 b1 c1 d1 a2 - K * two_mass a2 b2 c2 d2 a2 <= 0.
Proof.
  rewrite (mid_center a2) by lra.
  apply div_le0; [lra|].
  apply (le0_of_div _ a2); [lra|].
  replace ((K * a2 - a1 + (2 - 2 * K) * a2 + (K / d2 - / d1) * (a2 * a2)) / a2)
    with ((2 - a1 / a2 - a2 / d1) - K * (1 - a2 / d2)) by (field; lra).
  lra.
Qed.

Let at_d2 : two_mass a1 b1 c1 d1 d2 - K * two_mass a2 b2 c2 d2 d2 <= 0.
Proof.
  rewrite (mid_center d2) by lra.
  apply div_le0; [lra|].
  apply (le0_of_div _ d2); [lra|].
  replace ((K * a2 - a1 + (2 - 2 * K) * d2 + (K / d2 - / d1) * (d2 * d2)) / d2)
    with ((2 - a1 / d2 - d2 / d1) - K * (1 - a2 / d2)) by (field; lra).
  lra.
Qed.

(** c2 ≤ t ≤ a2 *)
Let left_part : forall t, c2 <= t <= a2 -> two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t <= 0.
Proof.
  intros t Ht.
  rewrite (mid_left t) by lra. apply div_le0; [lra|].
  apply (quad_le0 _ _ _ c2 a2); [exact Cpos|lra| |].
  - assert (H := below_c2 c2 (conj Hc2 (Rle_refl _))). rewrite (mid_left c2) in H by lra.
    apply (le0_of_div _ c2); lra.
  - assert (H := at_a2). rewrite (mid_left a2) in H by lra. apply (le0_of_div _ a2); lra.
Qed.

(** a2 ≤ t ≤ d2 *)
Let center_part : forall t, a2 <= t <= d2 -> two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t <= 0.
Proof.
  intros t Ht.
  rewrite (mid_center t) by lra. apply div_le0; [lra|].
  apply (quad_le0 _ _ _ a2 d2); [exact Cpos|lra| |].
  - assert (H := at_a2). rewrite (mid_center a2) in H by lra. apply (le0_of_div _ a2); lra.
  - assert (H := at_d2). rewrite (mid_center d2) in H by lra. apply (le0_of_div _ d2); lra.
Qed.

(** d2 ≤ t ≤ b2, in s = 1/t ∈ [1/b2, 1/d2] *)
Let right_part : forall t, d2 <= t <= b2 -> two_mass a1 b1 c1 d1 t - K * two_mass a2 b2 c2 d2 t <= 0.
Proof.
  intros t Ht.
  rewrite (mid_right t) by lra. apply mul_le0; [lra|].
  apply (quad_le0 _ _ _ (/ b2) (/ d2)); [exact Cpos'| | |].
  - split; apply Rinv_le_contravar; lra.
  - assert (H := above_b2 b2 (Rle_refl _)). rewrite (mid_right b2) in H by lra.
    apply (le0_of_mul _ b2); lra.
  - assert (H := at_d2). rewrite (mid_right d2) in H by lra. apply (le0_of_mul _ d2); lra.
Qed.

(** t at or below the narrowed lower end a2 (an input below the bucket):
    the low tail and the point a2 only. *)
Theorem two_mass_widen_low : forall t, 0 < t <= a2 -> two_mass a1 b1 c1 d1 t <= K * two_mass a2 b2 c2 d2 t.
Proof.
  intros t Ht. apply Rminus_le.
  destruct (Rle_or_lt t c2) as [T1|T1]; [apply below_c2; lra|apply left_part; lra].
Qed.

(** t at or above the narrowed upper end d2 (an input above the bucket):
    the high tail and the point d2 only. *)
Theorem two_mass_widen_high : forall t, d2 <= t -> two_mass a1 b1 c1 d1 t <= K * two_mass a2 b2 c2 d2 t.
Proof.
  intros t Ht. apply Rminus_le.
  destruct (Rle_or_lt b2 t) as [T5|T5]; [apply above_b2; lra|apply right_part; lra].
Qed.

Theorem two_mass_widen : forall t, 0 < t -> two_mass a1 b1 c1 d1 t <= K * two_mass a2 b2 c2 d2 t.
Proof.
  intros t Ht.
  destruct (Rle_or_lt t a2) as [T2|T2]; [apply two_mass_widen_low; lra|].
  destruct (Rle_or_lt d2 t) as [T3|T3]; [apply two_mass_widen_high; lra|].
  apply Rminus_le, center_part; lra.
Qed.

End Widen.

(** ** Moving t: [t·two_mass] nondecreasing, [two_mass/t] nonincreasing *)

Lemma mono_glue : forall (f : R -> R) p q, p <= q ->
  (forall x y, p <= x <= y -> y <= q -> f x <= f y) -> (forall x y, q <= x <= y -> f x <= f y) ->
  forall x y, p <= x <= y -> f x <= f y.
Proof.
  intros f p q Hpq H1 H2 x y Hxy.
  destruct (Rle_or_lt y q); [apply H1; lra|].
  destruct (Rle_or_lt x q); [|apply H2; lra].
  apply Rle_trans with (f q); [apply H1; lra|apply H2; lra].
Qed.

Lemma mono_glue0 : forall (f : R -> R) q, 0 < q ->
  (forall x y, 0 < x <= y -> y <= q -> f x <= f y) -> (forall x y, q <= x <= y -> f x <= f y) ->
  forall x y, 0 < x <= y -> f x <= f y.
Proof.
  intros f q Hq H1 H2 x y Hxy.
  destruct (Rle_or_lt y q); [apply H1; lra|].
  destruct (Rle_or_lt x q); [|apply H2; lra].
  apply Rle_trans with (f q); [apply H1; lra|apply H2; lra].
Qed.

(** u − u²/v is nondecreasing for u + u′ ≤ v. *)
Lemma hump_mono : forall x y v, 0 < v -> 0 <= x <= y -> x + y <= v -> x - x * x / v <= y - y * y / v.
Proof.
  intros x y v Hv Hxy Hs.
  assert (H : (y - y * y / v) - (x - x * x / v) = (y - x) * (v - (x + y)) / v) by (field; lra).
  assert (0 <= (y - x) * (v - (x + y)) / v).
  { apply Rmult_le_pos; [apply Rmult_le_pos; lra|apply Rlt_le, Rinv_0_lt_compat; lra]. }
  lra.
Qed.

Section Move.

Variables a b c d : R.
Hypothesis Hc : 0 < c.
Hypothesis Hca : c <= a.
Hypothesis Had : 2 * a <= d.
Hypothesis Hdb : d <= b.

Let Ha : 0 < a. Proof. lra. Qed.
Let Hd : 0 < d. Proof. lra. Qed.

Let piece1 : forall t, 0 < t <= c -> two_mass a b c d t = t / c - t / d.
Proof.
  intros t Ht. unfold two_mass. rewrite (plus_low a b t) by lra. rewrite (minus_low c d t) by lra. ring.
Qed.

Let piece2 : forall t, c <= t <= a -> two_mass a b c d t = 1 - t / d.
Proof.
  intros t Ht. unfold two_mass. rewrite (plus_low a b t) by lra. rewrite (minus_mid c d t) by lra. ring.
Qed.

Let piece3 : forall t, a <= t <= d -> two_mass a b c d t = 2 - a / t - t / d.
Proof.
  intros t Ht. unfold two_mass. rewrite (plus_mid a b t) by lra. rewrite (minus_mid c d t) by lra. ring.
Qed.

Let piece4 : forall t, d <= t <= b -> two_mass a b c d t = 1 - a / t.
Proof.
  intros t Ht. unfold two_mass. rewrite (plus_mid a b t) by lra. rewrite (minus_high c d t) by lra. ring.
Qed.

Let piece5 : forall t, b <= t -> two_mass a b c d t = b / t - a / t.
Proof.
  intros t Ht. unfold two_mass. rewrite (plus_high a b t) by lra. rewrite (minus_high c d t) by lra. ring.
Qed.

Lemma two_mass_mul_mono : forall t t', 0 < t <= t' -> t * two_mass a b c d t <= t' * two_mass a b c d t'.
Proof.
  apply (mono_glue0 _ c Hc).
  { intros x y Hxy Hy. rewrite (piece1 x), (piece1 y) by lra.
    assert (0 <= / c - / d) by (assert (/ d <= / c) by (apply Rinv_le_contravar; lra); lra).
    replace (x * (x / c - x / d)) with (x * x * (/ c - / d)) by (unfold Rdiv; ring).
    replace (y * (y / c - y / d)) with (y * y * (/ c - / d)) by (unfold Rdiv; ring).
    apply Rmult_le_compat_r; [lra|]. apply Rmult_le_compat; lra. }
  apply (mono_glue _ c a Hca).
  { intros x y Hxy Hy. rewrite (piece2 x), (piece2 y) by lra.
    replace (x * (1 - x / d)) with (x - x * x / d) by (field; lra).
    replace (y * (1 - y / d)) with (y - y * y / d) by (field; lra).
    apply hump_mono; lra. }
  apply (mono_glue _ a d ltac:(lra)).
  { intros x y Hxy Hy. rewrite (piece3 x), (piece3 y) by lra.
    replace (x * (2 - a / x - x / d)) with (2 * x - x * x / d - a) by (field; lra).
    replace (y * (2 - a / y - y / d)) with (2 * y - y * y / d - a) by (field; lra).
    pose proof (parabola_mono x y d ltac:(lra) Hy). lra. }
  apply (mono_glue _ d b Hdb).
  { intros x y Hxy Hy. rewrite (piece4 x), (piece4 y) by lra.
    replace (x * (1 - a / x)) with (x - a) by (field; lra).
    replace (y * (1 - a / y)) with (y - a) by (field; lra). lra. }
  intros x y Hxy. rewrite (piece5 x), (piece5 y) by lra.
  replace (x * (b / x - a / x)) with (b - a) by (field; lra).
  replace (y * (b / y - a / y)) with (b - a) by (field; lra). lra.
Qed.

Lemma two_mass_div_anti : forall t t', 0 < t <= t' -> two_mass a b c d t' / t' <= two_mass a b c d t / t.
Proof.
  assert (G : forall t t', 0 < t <= t' -> - (two_mass a b c d t / t) <= - (two_mass a b c d t' / t')).
  2: { intros t t' Ht. assert (H := G t t' Ht). lra. }
  apply (mono_glue0 (fun t => - (two_mass a b c d t / t)) c Hc).
  { intros x y Hxy Hy. rewrite (piece1 x), (piece1 y) by lra.
    replace ((x / c - x / d) / x) with (/ c - / d) by (field; lra).
    replace ((y / c - y / d) / y) with (/ c - / d) by (field; lra). lra. }
  apply (mono_glue _ c a Hca).
  { intros x y Hxy Hy. rewrite (piece2 x), (piece2 y) by lra.
    replace ((1 - x / d) / x) with (/ x - / d) by (field; lra).
    replace ((1 - y / d) / y) with (/ y - / d) by (field; lra).
    assert (/ y <= / x) by (apply Rinv_le_contravar; lra). lra. }
  apply (mono_glue _ a d ltac:(lra)).
  { (* 2p − a p² is nondecreasing for p ≤ 1/a, p = 1/t *)
    intros x y Hxy Hy. rewrite (piece3 x), (piece3 y) by lra.
    replace ((2 - a / x - x / d) / x) with (2 * / x - a * (/ x * / x) - / d) by (field; lra).
    replace ((2 - a / y - y / d) / y) with (2 * / y - a * (/ y * / y) - / d) by (field; lra).
    assert (P1 : / y <= / x) by (apply Rinv_le_contravar; lra).
    assert (P2 : / x <= / a) by (apply Rinv_le_contravar; lra).
    assert (P3 : 0 < / y) by (apply Rinv_0_lt_compat; lra).
    assert (H : (2 * / x - a * (/ x * / x)) - (2 * / y - a * (/ y * / y)) = (/ x - / y) * (2 - a * (/ x + / y)))
      by ring.
    assert (a * (/ x + / y) <= 2).
    { replace 2 with (a * (2 * / a)) by (field; lra). apply Rmult_le_compat_l; lra. }
    assert (0 <= (/ x - / y) * (2 - a * (/ x + / y))) by (apply Rmult_le_pos; lra). lra. }
  apply (mono_glue _ d b Hdb).
  { (* p − a p² is nondecreasing for p ≤ 1/(2a), p = 1/t ≤ 1/d *)
    intros x y Hxy Hy. rewrite (piece4 x), (piece4 y) by lra.
    replace ((1 - a / x) / x) with (/ x - a * (/ x * / x)) by (field; lra).
    replace ((1 - a / y) / y) with (/ y - a * (/ y * / y)) by (field; lra).
    assert (P1 : / y <= / x) by (apply Rinv_le_contravar; lra).
    assert (P2 : / x <= / d) by (apply Rinv_le_contravar; lra).
    assert (P3 : 0 < / y) by (apply Rinv_0_lt_compat; lra).
    assert (H : (/ x - a * (/ x * / x)) - (/ y - a * (/ y * / y)) = (/ x - / y) * (1 - a * (/ x + / y))) by ring.
    assert (a * (/ x + / y) <= 1).
    { apply Rle_trans with (a * (2 * / d)); [apply Rmult_le_compat_l; lra|].
      apply (Rmult_le_reg_r d); [lra|]. replace (a * (2 * / d) * d) with (2 * a) by (field; lra). lra. }
    assert (0 <= (/ x - / y) * (1 - a * (/ x + / y))) by (apply Rmult_le_pos; lra). lra. }
  intros x y Hxy. rewrite (piece5 x), (piece5 y) by lra.
  replace ((b / x - a / x) / x) with ((b - a) * (/ x * / x)) by (field; lra).
  replace ((b / y - a / y) / y) with ((b - a) * (/ y * / y)) by (field; lra).
  assert (P1 : / y <= / x) by (apply Rinv_le_contravar; lra).
  assert (P3 : 0 < / y) by (apply Rinv_0_lt_compat; lra).
  assert (/ y * / y <= / x * / x) by (apply Rmult_le_compat; lra).
  assert ((b - a) * (/ y * / y) <= (b - a) * (/ x * / x)) by (apply Rmult_le_compat_l; lra). lra.
Qed.

Theorem two_mass_move : forall t t', 0 < t -> 0 < t' ->
  two_mass a b c d t' <= Rmax (t' / t) (t / t') * two_mass a b c d t.
Proof.
  apply ratio_of_mono.
  - intros; apply two_mass_nonneg.
  - exact two_mass_mul_mono.
  - exact two_mass_div_anti.
Qed.

End Move.
