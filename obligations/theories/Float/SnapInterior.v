(** * An interior output of binary snapping: its probability between two expressions
    The float mechanism of seed 004, Definition 3, with U* as its sample: the
    rounded sum w ([snap_sum]) rounded exactly to the grid ΛZ by the tie rule
    ([round_grid], Noise/Rounding.v) and clamped to [−B, B].  An interior output
    kΛ (−B < kΛ < B) is w in its bucket, half-open by the tie rule
    ([float_snap_interior_iff]).  Its probability, both signs added, is at most
    [output_upper] of the closed bucket ([interior_prob_upper]) and at least
    [inner_lower] of any closed interval [a, b] strictly inside the bucket
    ([interior_prob_lower]); [inner_lower] is explicit: the inner interval of
    s·λ·ln u is [widen_hi M (widen_hi η a − x), widen_lo M (widen_lo η b − x)],
    the outer one's mirror, since v ≤ widen_lo m t gives widen_hi m v ≤ t
    ([widen_hi_le_of]). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure SnapOutput.

Local Open Scope R_scope.

(** The widenings undo each other in one direction: shrinking by widen_lo keeps
    the widened value below t, and monotonicity. *)
Lemma widen_hi_le_of : forall m v t, 0 <= m -> v <= widen_lo m t -> widen_hi m v <= t.
Proof.
  intros m v t Hm H. unfold widen_lo, widen_hi, Rdiv in *.
  assert (Hp : 0 < / (1 + m)) by (apply Rinv_0_lt_compat; lra).
  assert (Hi : / (1 + m) * (1 + m) = 1) by (field; lra).
  destruct (Rle_dec 0 t) as [Ht|Ht].
  - assert (Hv : v <= t * / (1 + m)) by (apply Rle_trans with (Rmin (t * / (1 + m)) (t * (1 + m))); [exact H|apply Rmin_l]).
    apply Rmax_lub.
    + apply Rle_trans with (t * / (1 + m) * / (1 + m)); [apply Rmult_le_compat_r; lra|].
      assert (Hq : / (1 + m) <= 1) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
      assert (Ht1 : t * / (1 + m) <= t) by nra.
      assert (Ht2 : 0 <= t * / (1 + m)) by nra. nra.
    + apply Rle_trans with (t * / (1 + m) * (1 + m)); [apply Rmult_le_compat_r; lra|]. nra.
  - assert (Hv : v <= t * (1 + m)) by (apply Rle_trans with (Rmin (t * / (1 + m)) (t * (1 + m))); [exact H|apply Rmin_r]).
    apply Rmax_lub.
    + apply Rle_trans with (t * (1 + m) * / (1 + m)); [apply Rmult_le_compat_r; lra|]. nra.
    + assert (v < 0) by nra. nra.
Qed.

Lemma widen_lo_ge_of : forall m v t, 0 <= m -> widen_hi m t <= v -> t <= widen_lo m v.
Proof.
  intros m v t Hm H. unfold widen_lo, widen_hi, Rdiv in *.
  assert (Hp : 0 < / (1 + m)) by (apply Rinv_0_lt_compat; lra).
  assert (Hi : / (1 + m) * (1 + m) = 1) by (field; lra).
  assert (Hq : / (1 + m) <= 1) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
  assert (H1 : t * / (1 + m) <= v) by (apply Rle_trans with (Rmax (t * / (1 + m)) (t * (1 + m))); [apply Rmax_l|exact H]).
  assert (H2 : t * (1 + m) <= v) by (apply Rle_trans with (Rmax (t * / (1 + m)) (t * (1 + m))); [apply Rmax_r|exact H]).
  apply Rmin_glb.
  - destruct (Rle_dec 0 t) as [Ht|Ht].
    + apply Rle_trans with (t * (1 + m) * / (1 + m)); [right; field; lra|apply Rmult_le_compat_r; lra].
    + assert (Ht1 : t <= t * / (1 + m)) by nra.
      assert (Ht2 : t * / (1 + m) <= t * / (1 + m) * / (1 + m)) by nra.
      apply Rle_trans with (t * / (1 + m) * / (1 + m)); [lra|apply Rmult_le_compat_r; lra].
  - apply Rle_trans with (t * / (1 + m) * (1 + m)); [right; field; lra|apply Rmult_le_compat_r; lra].
Qed.

Lemma widen_hi_mono : forall m v v', 0 <= m -> v <= v' -> widen_hi m v <= widen_hi m v'.
Proof.
  intros m v v' Hm H. unfold widen_hi, Rdiv.
  assert (Hp : 0 < / (1 + m)) by (apply Rinv_0_lt_compat; lra).
  apply Rmax_lub.
  - apply Rle_trans with (v' * / (1 + m)); [apply Rmult_le_compat_r; lra|apply Rmax_l].
  - apply Rle_trans with (v' * (1 + m)); [apply Rmult_le_compat_r; lra|apply Rmax_r].
Qed.

Lemma widen_lo_mono : forall m v v', 0 <= m -> v <= v' -> widen_lo m v <= widen_lo m v'.
Proof.
  intros m v v' Hm H. unfold widen_lo, Rdiv.
  assert (Hp : 0 < / (1 + m)) by (apply Rinv_0_lt_compat; lra).
  apply Rmin_glb.
  - apply Rle_trans with (v * / (1 + m)); [apply Rmin_l|apply Rmult_le_compat_r; lra].
  - apply Rle_trans with (v * (1 + m)); [apply Rmin_r|apply Rmult_le_compat_r; lra].
Qed.

Section SnapInterior.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Hypothesis Hemin : (emin + prec <= 0)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Notation eta := (eta prec).
Notation normal_min := (normal_min prec emin).
Notation M := (noise_mu prec mu).
Notation snap_sum := (snap_sum prec emin choice lnf).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation outer_lo := (outer_lo prec mu).
Notation outer_hi := (outer_hi prec mu).

(** The output for a rounded sum w: grid Λ, tie rule t, clamp B. *)
Definition float_snap (t : tie) (grid B w : R) : R := clamp B (grid * IZR (round_grid t grid w)).

(** The bucket of kΛ, closed at the end the tie rule includes. *)
Definition in_bucket (t : tie) (grid : R) (k : Z) (w : R) : Prop :=
  match t with
  | TiesUp => (IZR k - / 2) * grid <= w < (IZR k + / 2) * grid
  | TiesDown => (IZR k - / 2) * grid < w <= (IZR k + / 2) * grid
  end.

Lemma float_snap_interior_iff : forall t grid B k w, 0 < grid -> - B < grid * IZR k < B ->
  (float_snap t grid B w = grid * IZR k <-> in_bucket t grid k w).
Proof.
  intros t grid B k w Hg Hk. unfold float_snap.
  rewrite (clamp_interior_iff B _ _ Hk), (grid_eq_iff grid _ _ Hg).
  destruct t; cbn; [apply round_grid_up_iff|apply round_grid_down_iff]; exact Hg.
Qed.

(** The inner interval of s·λ·ln u for w in [a, b]: the outer one's mirror. *)
Definition inner_lo (x a : R) : R := widen_hi M (widen_hi eta a - x).
Definition inner_hi (x b : R) : R := widen_lo M (widen_lo eta b - x).

(** The lower bound of an output's probability, both signs: ln u in
    [inner_lo/λ, min(inner_hi/λ, 0)] for s = 1, in
    [−inner_hi/λ, min(−inner_lo/λ, 0)] for s = −1. *)
Definition inner_lower (lam x a b : R) : R :=
  / 2 * (exp (Rmin (inner_hi x b / lam) 0) - exp (inner_lo x a / lam) / (1 - 2 * eta)) +
  / 2 * (exp (Rmin (- inner_lo x a / lam) 0) - exp (- inner_hi x b / lam) / (1 - 2 * eta)).

Lemma inner_lo_ok : forall x a v, inner_lo x a <= v -> a <= widen_lo eta (x + widen_lo M v).
Proof.
  intros x a v H. assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  apply widen_lo_ge_of; [exact He|].
  assert (H2 := widen_lo_ge_of M v (widen_hi eta a - x) Hm H). lra.
Qed.

Lemma inner_hi_ok : forall x b w, w <= inner_hi x b -> widen_hi eta (x + widen_hi M w) <= b.
Proof.
  intros x b w H. assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  apply widen_hi_le_of; [exact He|].
  assert (H2 := widen_hi_le_of M w (widen_lo eta b - x) Hm H). lra.
Qed.

Theorem interior_prob_upper : forall t grid B k lam x, 0 < grid -> - B < grid * IZR k < B ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x ->
  normal_min <= exp (outer_lo x ((IZR k - / 2) * grid) / lam) ->
  normal_min <= exp (- outer_hi x ((IZR k + / 2) * grid) / lam) ->
  snap_output_prob lam x (fun w => float_snap t grid B w = grid * IZR k) <=
    output_upper prec mu lam x ((IZR k - / 2) * grid) ((IZR k + / 2) * grid).
Proof.
  intros t grid B k lam x Hg Hk Hok Fx H1 H2.
  apply output_prob_upper; try assumption.
  intros w Hw. apply (float_snap_interior_iff t grid B k w Hg Hk) in Hw.
  destruct t; cbn in Hw; lra.
Qed.

Theorem interior_prob_lower : forall t grid B k lam x a b, 0 < grid -> - B < grid * IZR k < B ->
  (IZR k - / 2) * grid < a -> b < (IZR k + / 2) * grid ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x ->
  normal_min <= exp (inner_lo x a / lam) -> normal_min <= exp (- inner_hi x b / lam) ->
  inner_lower lam x a b <= snap_output_prob lam x (fun w => float_snap t grid B w = grid * IZR k).
Proof.
  intros t grid B k lam x a b Hg Hk Ha Hb Hok Fx H1 H2.
  assert (Hl : 0 < lam).
  { destruct Hok as [Hl _]. assert (Hn := normal_min_pos prec emin). lra. }
  assert (HP : forall w, a <= w <= b -> float_snap t grid B w = grid * IZR k).
  { intros w Hw. apply (float_snap_interior_iff t grid B k w Hg Hk). destruct t; cbn; lra. }
  unfold inner_lower.
  apply (output_prob_lower prec emin Hprec choice lnf mu Hmu pr Hpr lam x a b
           (inner_lo x a / lam) (Rmin (inner_hi x b / lam) 0)
           (- inner_hi x b / lam) (Rmin (- inner_lo x a / lam) 0)); try assumption.
  - apply Rmin_r.
  - apply Rmin_r.
  - apply inner_lo_ok. right. field. lra.
  - apply inner_hi_ok. apply Rle_trans with (lam * (inner_hi x b / lam)).
    + apply Rmult_le_compat_l; [lra|apply Rmin_l].
    + right. field. lra.
  - apply inner_lo_ok. apply Rle_trans with (- (lam * (- inner_lo x a / lam))).
    + right. field. lra.
    + assert (lam * Rmin (- inner_lo x a / lam) 0 <= lam * (- inner_lo x a / lam))
        by (apply Rmult_le_compat_l; [lra|apply Rmin_l]). lra.
  - apply inner_hi_ok. right. field. lra.
Qed.

End SnapInterior.
