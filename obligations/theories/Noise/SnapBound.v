(** * The privacy bound of the snapping mechanism, on both signs at once

    With [alpha = e^(r (k - 1/2) lam)], [beta = e^(r (k + 1/2) lam)] and
    [t = e^(r c)], output [k * lam] has probability [snap_mass alpha beta t / 2]:
    the first [ulen] is the sign [+1], the second the sign [-1].  Seed 000
    bounds each sign separately, which is false (see
    [ulen_scale_counterexample]): moving [c] shifts mass from one sign to the
    other.  The sum [M(t)] does satisfy [t M(t)] nondecreasing and [M(t) / t]
    nonincreasing, hence [M(t') <= max(t'/t, t/t') M(t)].  The clamped
    endpoints are the tails [tail_mass SPlus] (output [B]) and [tail_mass SMinus]
    (output [-B]) with the same two monotonicity facts, proved once for both
    signs: duality [t -> 1/t] swaps them ([tail_mass_dual]).  The generic facts
    (division, monotone pieces, [ratio_of_mono], ratios of exponentials) are
    in RealFacts.v. *)
From Coq Require Import Reals Lra.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Snapping.
Local Open Scope R_scope.

Definition snap_mass (alpha beta t : R) : R :=
  ulen (alpha / t) (beta / t) + ulen (t / beta) (t / alpha).

(** The clamped ends, one per sign: [SPlus] is output [B] (index at least
    [Zceil (B / lam)], i.e. [x >= g], [gamma = e^(r g)]), [SMinus] is output [-B]
    (index at most [Zfloor (- B / lam)], i.e. [x < g'], [gamma = e^(r g')]). *)
Definition tail_mass (s : sign) (gamma t : R) : R :=
  match s with
  | SPlus => ulen_from (gamma / t) + ulen_to (t / gamma)
  | SMinus => ulen_to (gamma / t) + ulen_from (t / gamma)
  end.

Definition sign_flip (s : sign) : sign := match s with SPlus => SMinus | SMinus => SPlus end.

(** ** Closed forms *)

Lemma snap_mass_low alpha beta t : 0 < alpha < beta -> 0 < t <= alpha ->
  snap_mass alpha beta t = t / alpha - t / beta.
Proof.
  intros Hab Ht. unfold snap_mass.
  rewrite (ulen_above (alpha / t)) by (apply div_ge1; lra).
  rewrite ulen_inside.
  - ring.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_anti; lra].
  - apply div_le1; lra.
Qed.

Lemma snap_mass_mid alpha beta t : 0 < alpha < beta -> alpha <= t <= beta ->
  snap_mass alpha beta t = 2 - alpha / t - t / beta.
Proof.
  intros Hab Ht. unfold snap_mass.
  rewrite (ulen_straddle (alpha / t)).
  - rewrite (ulen_straddle (t / beta)).
    + ring.
    + split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra].
    + apply div_ge1; lra.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra].
  - apply div_ge1; lra.
Qed.

Lemma snap_mass_high alpha beta t : 0 < alpha < beta -> beta <= t ->
  snap_mass alpha beta t = beta / t - alpha / t.
Proof.
  intros Hab Ht. unfold snap_mass.
  rewrite (ulen_above (t / beta)) by (apply div_ge1; lra).
  rewrite ulen_inside.
  - ring.
  - split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_mono; lra].
  - apply div_le1; lra.
Qed.

Lemma tail_mass_low s gamma t : 0 < gamma -> 0 < t <= gamma ->
  tail_mass s gamma t = match s with SPlus => t / gamma | SMinus => 2 - t / gamma end.
Proof.
  intros Hg Ht. assert (Hin : 0 <= t / gamma <= 1).
  { split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra]. }
  destruct s; cbn [tail_mass].
  - rewrite ulen_from_above by (apply div_ge1; lra). rewrite ulen_to_inside by exact Hin. ring.
  - rewrite ulen_to_above by (apply div_ge1; lra). rewrite ulen_from_inside by exact Hin. ring.
Qed.

Lemma tail_mass_high s gamma t : 0 < gamma <= t ->
  tail_mass s gamma t = match s with SPlus => 2 - gamma / t | SMinus => gamma / t end.
Proof.
  intros Hg. assert (Hin : 0 <= gamma / t <= 1).
  { split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra]. }
  destruct s; cbn [tail_mass].
  - rewrite ulen_to_above by (apply div_ge1; lra). rewrite ulen_from_inside by exact Hin. ring.
  - rewrite ulen_from_above by (apply div_ge1; lra). rewrite ulen_to_inside by exact Hin. ring.
Qed.

Lemma snap_mass_nonneg alpha beta t : 0 <= snap_mass alpha beta t.
Proof. unfold snap_mass. pose proof (ulen_nonneg (alpha / t) (beta / t)). pose proof (ulen_nonneg (t / beta) (t / alpha)). lra. Qed.

Lemma tail_mass_nonneg s gamma t : 0 <= tail_mass s gamma t.
Proof.
  pose proof (ulen_from_nonneg (gamma / t)). pose proof (ulen_to_nonneg (t / gamma)).
  pose proof (ulen_to_nonneg (gamma / t)). pose proof (ulen_from_nonneg (t / gamma)).
  destruct s; cbn [tail_mass]; lra.
Qed.

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

Lemma tail_mass_dual s gamma t : 0 < gamma -> 0 < t ->
  tail_mass s gamma t = tail_mass (sign_flip s) (/ gamma) (/ t).
Proof.
  intros Hg Ht. destruct s; cbn [tail_mass sign_flip];
    replace (/ gamma / / t) with (t / gamma) by (field; lra);
    replace (/ t / / gamma) with (gamma / t) by (field; lra); ring.
Qed.

(** ** Monotonicity: [t M(t)] nondecreasing, [M(t) / t] nonincreasing *)

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

Lemma tail_mass_mul_mono s gamma t t' : 0 < gamma -> 0 < t <= t' ->
  t * tail_mass s gamma t <= t' * tail_mass s gamma t'.
Proof.
  intros Hg. revert t t'.
  apply (mono_pieces2 (fun t => t * tail_mass s gamma t) gamma Hg).
  - intros x y Hxy Hy. rewrite !tail_mass_low by lra. destruct s.
    + replace (x * (x / gamma)) with (x * x * / gamma) by (unfold Rdiv; ring).
      replace (y * (y / gamma)) with (y * y * / gamma) by (unfold Rdiv; ring).
      apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, Hg|nra].
    + replace (x * (2 - x / gamma)) with (2 * x - x * x / gamma) by (field; lra).
      replace (y * (2 - y / gamma)) with (2 * y - y * y / gamma) by (field; lra).
      apply parabola_mono; lra.
  - intros x y Hxy. rewrite !tail_mass_high by lra. destruct s.
    + replace (x * (2 - gamma / x)) with (2 * x - gamma) by (field; lra).
      replace (y * (2 - gamma / y)) with (2 * y - gamma) by (field; lra). lra.
    + replace (x * (gamma / x)) with gamma by (field; lra).
      replace (y * (gamma / y)) with gamma by (field; lra). lra.
Qed.

(** [tail_mass / t] is nonincreasing: by duality it is [t' * tail_mass] of the other sign at [t' = 1/t]. *)
Lemma tail_mass_div_anti s gamma t t' : 0 < gamma -> 0 < t <= t' ->
  tail_mass s gamma t' / t' <= tail_mass s gamma t / t.
Proof.
  intros Hg Ht.
  rewrite (tail_mass_dual s gamma t), (tail_mass_dual s gamma t') by lra.
  replace (tail_mass (sign_flip s) (/ gamma) (/ t') / t') with (/ t' * tail_mass (sign_flip s) (/ gamma) (/ t'))
    by (field; lra).
  replace (tail_mass (sign_flip s) (/ gamma) (/ t) / t) with (/ t * tail_mass (sign_flip s) (/ gamma) (/ t))
    by (field; lra).
  apply tail_mass_mul_mono; [apply Rinv_0_lt_compat; lra|].
  split; [apply Rinv_0_lt_compat; lra|apply Rinv_le_contravar; lra].
Qed.

(** ** The ratio bound ([ratio_of_mono]) *)

Lemma snap_mass_ratio alpha beta t t' : 0 < alpha < beta -> 0 < t -> 0 < t' ->
  snap_mass alpha beta t' <= Rmax (t' / t) (t / t') * snap_mass alpha beta t.
Proof.
  intros Hab. apply ratio_of_mono.
  - intros; apply snap_mass_nonneg.
  - intros; now apply snap_mass_mul_mono.
  - intros; now apply snap_mass_div_anti.
Qed.

Lemma tail_mass_ratio s gamma t t' : 0 < gamma -> 0 < t -> 0 < t' ->
  tail_mass s gamma t' <= Rmax (t' / t) (t / t') * tail_mass s gamma t.
Proof.
  intros Hg. apply ratio_of_mono.
  - intros; apply tail_mass_nonneg.
  - intros; now apply tail_mass_mul_mono.
  - intros; now apply tail_mass_div_anti.
Qed.
