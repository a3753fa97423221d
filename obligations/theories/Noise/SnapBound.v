(** * The privacy bound of the snapping mechanism, on both signs at once

    With [alpha = e^(r (k - 1/2) lam)], [beta = e^(r (k + 1/2) lam)] and
    [t = e^(r c)], output [k * lam] has probability [snap_mass alpha beta t / 2]:
    the first [ulen] is the sign [+1], the second the sign [-1].  Seed 000
    bounds each sign separately, which is false (see
    [ulen_scale_counterexample]): moving [c] shifts mass from one sign to the
    other.  The sum [M(t)] does satisfy [t M(t)] nondecreasing and [M(t) / t]
    nonincreasing, hence [M(t') <= max(t'/t, t/t') M(t)].  The clamped
    endpoints are the tails [tail_mass_up] (output [B]) and [tail_mass_down]
    (output [-B]) with the same two monotonicity facts. *)
From Coq Require Import Reals Lra.
From Obligations.Noise Require Import UniformMeasure Rounding.
Local Open Scope R_scope.

Definition snap_mass (alpha beta t : R) : R :=
  ulen (alpha / t) (beta / t) + ulen (t / beta) (t / alpha).

(** Output [B]: index at least [Zceil (B / lam)], i.e. [x >= g], [gamma = e^(r g)]. *)
Definition tail_mass_up (gamma t : R) : R := ulen_from (gamma / t) + ulen_to (t / gamma).

(** Output [-B]: index at most [Zfloor (- B / lam)], i.e. [x < g'], [gamma = e^(r g')]. *)
Definition tail_mass_down (gamma t : R) : R := ulen_to (gamma / t) + ulen_from (t / gamma).

(** ** Division facts used to locate [x / t] with respect to 0 and 1 *)

Lemma div_ge1 x t : 0 < t -> t <= x -> 1 <= x / t.
Proof. intros Ht H. apply div_le_iff; lra. Qed.

Lemma div_le1 x t : 0 < t -> x <= t -> x / t <= 1.
Proof. intros Ht H. apply div_le_iff_r; lra. Qed.

Lemma div_pos' x t : 0 < t -> 0 < x -> 0 < x / t.
Proof. intros. unfold Rdiv. apply Rmult_lt_0_compat; [lra|apply Rinv_0_lt_compat; lra]. Qed.

Lemma div_mono x y t : 0 < t -> x <= y -> x / t <= y / t.
Proof. intros. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra. Qed.

Lemma div_anti x s t : 0 < s <= t -> 0 <= x -> x / t <= x / s.
Proof.
  intros Hst Hx. unfold Rdiv. apply Rmult_le_compat_l; [exact Hx|].
  apply Rinv_le_contravar; lra.
Qed.

(** ** Closed forms *)

Lemma snap_mass_low alpha beta t : 0 < alpha < beta -> 0 < t <= alpha ->
  snap_mass alpha beta t = t / alpha - t / beta.
Proof.
  intros Hab Ht. unfold snap_mass.
  rewrite (ulen_above (alpha / t)) by (apply div_ge1; lra).
  rewrite ulen_inside.
  - ring.
  - split; [apply Rlt_le, div_pos'; lra|apply div_anti; lra].
  - apply div_le1; lra.
Qed.

Lemma snap_mass_mid alpha beta t : 0 < alpha < beta -> alpha <= t <= beta ->
  snap_mass alpha beta t = 2 - alpha / t - t / beta.
Proof.
  intros Hab Ht. unfold snap_mass.
  rewrite (ulen_straddle (alpha / t)).
  - rewrite (ulen_straddle (t / beta)).
    + ring.
    + split; [apply Rlt_le, div_pos'; lra|apply div_le1; lra].
    + apply div_ge1; lra.
  - split; [apply Rlt_le, div_pos'; lra|apply div_le1; lra].
  - apply div_ge1; lra.
Qed.

Lemma snap_mass_high alpha beta t : 0 < alpha < beta -> beta <= t ->
  snap_mass alpha beta t = beta / t - alpha / t.
Proof.
  intros Hab Ht. unfold snap_mass.
  rewrite (ulen_above (t / beta)) by (apply div_ge1; lra).
  rewrite ulen_inside.
  - ring.
  - split; [apply Rlt_le, div_pos'; lra|apply div_mono; lra].
  - apply div_le1; lra.
Qed.

Lemma tail_mass_up_low gamma t : 0 < gamma -> 0 < t <= gamma -> tail_mass_up gamma t = t / gamma.
Proof.
  intros Hg Ht. unfold tail_mass_up.
  rewrite ulen_from_above by (apply div_ge1; lra).
  rewrite ulen_to_inside; [ring|].
  split; [apply Rlt_le, div_pos'; lra|apply div_le1; lra].
Qed.

Lemma tail_mass_up_high gamma t : 0 < gamma <= t -> tail_mass_up gamma t = 2 - gamma / t.
Proof.
  intros Hg. unfold tail_mass_up.
  rewrite ulen_to_above by (apply div_ge1; lra).
  rewrite ulen_from_inside; [ring|].
  split; [apply Rlt_le, div_pos'; lra|apply div_le1; lra].
Qed.

Lemma tail_mass_down_low gamma t : 0 < gamma -> 0 < t <= gamma -> tail_mass_down gamma t = 2 - t / gamma.
Proof.
  intros Hg Ht. unfold tail_mass_down.
  rewrite ulen_to_above by (apply div_ge1; lra).
  rewrite ulen_from_inside; [ring|].
  split; [apply Rlt_le, div_pos'; lra|apply div_le1; lra].
Qed.

Lemma tail_mass_down_high gamma t : 0 < gamma <= t -> tail_mass_down gamma t = gamma / t.
Proof.
  intros Hg. unfold tail_mass_down.
  rewrite ulen_from_above by (apply div_ge1; lra).
  rewrite ulen_to_inside; [ring|].
  split; [apply Rlt_le, div_pos'; lra|apply div_le1; lra].
Qed.

Lemma snap_mass_nonneg alpha beta t : 0 <= snap_mass alpha beta t.
Proof. unfold snap_mass. pose proof (ulen_nonneg (alpha / t) (beta / t)). pose proof (ulen_nonneg (t / beta) (t / alpha)). lra. Qed.

Lemma tail_mass_up_nonneg gamma t : 0 <= tail_mass_up gamma t.
Proof. unfold tail_mass_up. pose proof (ulen_from_nonneg (gamma / t)). pose proof (ulen_to_nonneg (t / gamma)). lra. Qed.

Lemma tail_mass_down_nonneg gamma t : 0 <= tail_mass_down gamma t.
Proof. unfold tail_mass_down. pose proof (ulen_to_nonneg (gamma / t)). pose proof (ulen_from_nonneg (t / gamma)). lra. Qed.

(** ** Duality [t -> 1/t]: it swaps the two signs *)

Lemma snap_mass_dual alpha beta t : 0 < alpha -> 0 < beta -> 0 < t ->
  snap_mass alpha beta t = snap_mass (/ beta) (/ alpha) (/ t).
Proof.
  intros Ha Hb Ht. unfold snap_mass.
  replace (/ beta / / t) with (t / beta) by (field; lra).
  replace (/ alpha / / t) with (t / alpha) by (field; lra).
  replace (/ t / / alpha) with (alpha / t) by (field; lra).
  replace (/ t / / beta) with (beta / t) by (field; lra).
  ring.
Qed.

Lemma tail_mass_up_dual gamma t : 0 < gamma -> 0 < t ->
  tail_mass_up gamma t = tail_mass_down (/ gamma) (/ t).
Proof.
  intros Hg Ht. unfold tail_mass_up, tail_mass_down.
  replace (/ gamma / / t) with (t / gamma) by (field; lra).
  replace (/ t / / gamma) with (gamma / t) by (field; lra).
  ring.
Qed.

Lemma tail_mass_down_dual gamma t : 0 < gamma -> 0 < t ->
  tail_mass_down gamma t = tail_mass_up (/ gamma) (/ t).
Proof.
  intros Hg Ht. rewrite (tail_mass_up_dual (/ gamma) (/ t)) by (apply Rinv_0_lt_compat; lra).
  rewrite !Rinv_inv. reflexivity.
Qed.

(** ** Monotonicity, piece by piece *)

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

(** [t * snap_mass] is nondecreasing. *)
Lemma snap_mass_mul_mono alpha beta t t' : 0 < alpha < beta -> 0 < t <= t' ->
  t * snap_mass alpha beta t <= t' * snap_mass alpha beta t'.
Proof.
  intros Hab. revert t t'.
  apply (mono_pieces3 (fun t => t * snap_mass alpha beta t) alpha beta); [lra| | |].
  - intros x y Hxy Hy. rewrite !snap_mass_low by lra.
    assert (Hd : 0 < / alpha - / beta).
    { pose proof (Rinv_lt_contravar alpha beta ltac:(nra) ltac:(lra)). lra. }
    replace (x * (x / alpha - x / beta)) with (x * x * (/ alpha - / beta)) by (unfold Rdiv; ring).
    replace (y * (y / alpha - y / beta)) with (y * y * (/ alpha - / beta)) by (unfold Rdiv; ring).
    apply Rmult_le_compat_r; nra.
  - intros x y Hxy Hy. rewrite !snap_mass_mid by lra.
    replace (x * (2 - alpha / x - x / beta)) with (2 * x - x * x / beta - alpha) by (field; lra).
    replace (y * (2 - alpha / y - y / beta)) with (2 * y - y * y / beta - alpha) by (field; lra).
    pose proof (parabola_mono x y beta ltac:(lra) Hy). lra.
  - intros x y Hxy. rewrite !snap_mass_high by lra.
    replace (x * (beta / x - alpha / x)) with (beta - alpha) by (field; lra).
    replace (y * (beta / y - alpha / y)) with (beta - alpha) by (field; lra). lra.
Qed.

(** [snap_mass / t] is nonincreasing: by duality it is [t' * snap_mass'] at [t' = 1/t]. *)
Lemma snap_mass_div_anti alpha beta t t' : 0 < alpha < beta -> 0 < t <= t' ->
  snap_mass alpha beta t' / t' <= snap_mass alpha beta t / t.
Proof.
  intros Hab Ht.
  rewrite (snap_mass_dual alpha beta t), (snap_mass_dual alpha beta t') by lra.
  replace (snap_mass (/ beta) (/ alpha) (/ t') / t') with (/ t' * snap_mass (/ beta) (/ alpha) (/ t'))
    by (field; lra).
  replace (snap_mass (/ beta) (/ alpha) (/ t) / t) with (/ t * snap_mass (/ beta) (/ alpha) (/ t))
    by (field; lra).
  apply snap_mass_mul_mono.
  - split; [apply Rinv_0_lt_compat; lra|apply Rinv_lt_contravar; nra].
  - split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra].
Qed.

Lemma tail_mass_up_mul_mono gamma t t' : 0 < gamma -> 0 < t <= t' ->
  t * tail_mass_up gamma t <= t' * tail_mass_up gamma t'.
Proof.
  intros Hg. revert t t'.
  apply (mono_pieces2 (fun t => t * tail_mass_up gamma t) gamma Hg).
  - intros x y Hxy Hy. rewrite !tail_mass_up_low by lra.
    replace (x * (x / gamma)) with (x * x * / gamma) by (unfold Rdiv; ring).
    replace (y * (y / gamma)) with (y * y * / gamma) by (unfold Rdiv; ring).
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, Hg|nra].
  - intros x y Hxy. rewrite !tail_mass_up_high by lra.
    replace (x * (2 - gamma / x)) with (2 * x - gamma) by (field; lra).
    replace (y * (2 - gamma / y)) with (2 * y - gamma) by (field; lra). lra.
Qed.

Lemma tail_mass_down_mul_mono gamma t t' : 0 < gamma -> 0 < t <= t' ->
  t * tail_mass_down gamma t <= t' * tail_mass_down gamma t'.
Proof.
  intros Hg. revert t t'.
  apply (mono_pieces2 (fun t => t * tail_mass_down gamma t) gamma Hg).
  - intros x y Hxy Hy. rewrite !tail_mass_down_low by lra.
    replace (x * (2 - x / gamma)) with (2 * x - x * x / gamma) by (field; lra).
    replace (y * (2 - y / gamma)) with (2 * y - y * y / gamma) by (field; lra).
    apply parabola_mono; lra.
  - intros x y Hxy. rewrite !tail_mass_down_high by lra.
    replace (x * (gamma / x)) with gamma by (field; lra).
    replace (y * (gamma / y)) with gamma by (field; lra). lra.
Qed.

Lemma tail_mass_up_div_anti gamma t t' : 0 < gamma -> 0 < t <= t' ->
  tail_mass_up gamma t' / t' <= tail_mass_up gamma t / t.
Proof.
  intros Hg Ht.
  rewrite (tail_mass_up_dual gamma t), (tail_mass_up_dual gamma t') by lra.
  replace (tail_mass_down (/ gamma) (/ t') / t') with (/ t' * tail_mass_down (/ gamma) (/ t'))
    by (field; lra).
  replace (tail_mass_down (/ gamma) (/ t) / t) with (/ t * tail_mass_down (/ gamma) (/ t))
    by (field; lra).
  apply tail_mass_down_mul_mono; [apply Rinv_0_lt_compat; lra|].
  split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra].
Qed.

Lemma tail_mass_down_div_anti gamma t t' : 0 < gamma -> 0 < t <= t' ->
  tail_mass_down gamma t' / t' <= tail_mass_down gamma t / t.
Proof.
  intros Hg Ht.
  rewrite (tail_mass_down_dual gamma t), (tail_mass_down_dual gamma t') by lra.
  replace (tail_mass_up (/ gamma) (/ t') / t') with (/ t' * tail_mass_up (/ gamma) (/ t'))
    by (field; lra).
  replace (tail_mass_up (/ gamma) (/ t) / t) with (/ t * tail_mass_up (/ gamma) (/ t))
    by (field; lra).
  apply tail_mass_up_mul_mono; [apply Rinv_0_lt_compat; lra|].
  split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra].
Qed.

(** ** From the two monotonicity facts to the ratio bound *)

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

Lemma snap_mass_ratio alpha beta t t' : 0 < alpha < beta -> 0 < t -> 0 < t' ->
  snap_mass alpha beta t' <= Rmax (t' / t) (t / t') * snap_mass alpha beta t.
Proof.
  intros Hab. apply ratio_of_mono.
  - intros; apply snap_mass_nonneg.
  - intros; now apply snap_mass_mul_mono.
  - intros; now apply snap_mass_div_anti.
Qed.

Lemma tail_mass_up_ratio gamma t t' : 0 < gamma -> 0 < t -> 0 < t' ->
  tail_mass_up gamma t' <= Rmax (t' / t) (t / t') * tail_mass_up gamma t.
Proof.
  intros Hg. apply ratio_of_mono.
  - intros; apply tail_mass_up_nonneg.
  - intros; now apply tail_mass_up_mul_mono.
  - intros; now apply tail_mass_up_div_anti.
Qed.

Lemma tail_mass_down_ratio gamma t t' : 0 < gamma -> 0 < t -> 0 < t' ->
  tail_mass_down gamma t' <= Rmax (t' / t) (t / t') * tail_mass_down gamma t.
Proof.
  intros Hg. apply ratio_of_mono.
  - intros; apply tail_mass_down_nonneg.
  - intros; now apply tail_mass_down_mul_mono.
  - intros; now apply tail_mass_down_div_anti.
Qed.

(** ** The exp form: [t = e^(r c)] *)

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
