(** * Snapping against Laplace, pointwise (seed 003, §3.1)

    The Laplace mechanism outputs [c + Y]; the snapping mechanism outputs
    [clamp B (lam * round (clamp B c + Y))].  Coupled on the same noise [Y]
    (the same uniform sample [u] and sign [S], [Y = S * ln u / r]), the
    distance between the two outputs is bounded case by case, by which clamp
    binds, for every [lam], [B], [c] and [Y]:

    - no clamp binds ([snap_lap_dist_interior], case 1): at most [lam / 2],
      hence below the Laplace scale [λ] when [lam < 2 λ] (the note's choice of
      [lam], the smallest power of two at least [λ]);
    - the inner clamp binds, the rounded value lies in [-B, B] ([snap_lap_dist_inner],
      case 2): at most [|c| - B + lam / 2], hence below [|c| - B + λ];
    - the outer clamp binds (cases 3 and 4): the snapping output is [B] or [-B]
      and the distance is exactly [|c + Y - B|] or [|c + Y + B|]
      ([snap_lap_dist_outer_top], [snap_lap_dist_outer_bot]), which no constant
      bounds: the expected error and the tail are in docs/utility.md.

    Unclamped snapping is within [lam / 2] of Laplace on every sample
    ([snap_lap_dist_unclamped]).  Only [Zfloor]/[Zceil] facts and [lra]. *)
From Coq Require Import Reals Lra ZArith.
From Flocq Require Import Raux.
From Obligations.Noise Require Import Rounding Clamp.
Local Open Scope R_scope.

(** ** Rounding moves a point by at most half a grid step *)

Lemma round_grid_dist (t : tie) (lam x : R) :
  0 < lam -> Rabs (x - lam * IZR (round_grid t lam x)) <= lam / 2.
Proof.
  intros Hl. set (k := round_grid t lam x).
  assert (Hk : (IZR k - / 2) * lam <= x <= (IZR k + / 2) * lam).
  { destruct t.
    - pose proof (proj1 (round_grid_up_iff lam x k Hl) eq_refl). lra.
    - pose proof (proj1 (round_grid_down_iff lam x k Hl) eq_refl). lra. }
  apply Rabs_le. lra.
Qed.

(** ** The Laplace and snapping outputs on the same noise *)

(** The snapping output for query value [c] and noise [Y] (clamped when [B] is given). *)
Definition snap_value (t : tie) (lam B c Y : R) : R :=
  clamp B (lam * IZR (round_grid t lam (clamp B c + Y))).

(** Unclamped snapping: within half a grid step of Laplace, on every sample. *)
Lemma snap_lap_dist_unclamped (t : tie) (lam c Y : R) :
  0 < lam -> Rabs ((c + Y) - lam * IZR (round_grid t lam (c + Y))) <= lam / 2.
Proof. intros Hl. apply round_grid_dist, Hl. Qed.

(** Case 1: no clamp binds. *)
Lemma snap_lap_dist_interior (t : tie) (lam B c Y : R) :
  0 < lam -> - B <= c <= B -> - B <= lam * IZR (round_grid t lam (c + Y)) <= B ->
  Rabs ((c + Y) - snap_value t lam B c Y) <= lam / 2.
Proof.
  intros Hl Hc Hr. unfold snap_value.
  rewrite (clamp_id B c Hc), (clamp_id B _ Hr). apply round_grid_dist, Hl.
Qed.

(** Case 2: the inner clamp binds ([|c| > B]), the rounded value lies in [-B, B]. *)
Lemma snap_lap_dist_inner (t : tie) (lam B c Y : R) :
  0 < lam -> 0 <= B -> B < Rabs c ->
  - B <= lam * IZR (round_grid t lam (clamp B c + Y)) <= B ->
  Rabs ((c + Y) - snap_value t lam B c Y) <= Rabs c - B + lam / 2.
Proof.
  intros Hl HB Hc Hr. unfold snap_value. rewrite (clamp_id B _ Hr).
  pose proof (round_grid_dist t lam (clamp B c + Y) Hl) as Hd.
  set (z := lam * IZR (round_grid t lam (clamp B c + Y))) in *.
  apply Rabs_le. revert Hd. unfold Rabs at 1. destruct (Rcase_abs (clamp B c + Y - z)) as [Hn | Hp];
  intros Hd; revert Hc; unfold Rabs; destruct (Rcase_abs c) as [Hcn | Hcp]; intros Hc;
  unfold clamp, Rmax, Rmin in *;
  repeat match goal with
  | H : context [Rle_dec ?x ?y] |- _ => destruct (Rle_dec x y)
  | |- context [Rle_dec ?x ?y] => destruct (Rle_dec x y)
  end; lra.
Qed.

(** The same, strictly below the note's [|c| - B + λ] when [lam < 2 λ]. *)
Lemma snap_lap_dist_inner_lt (t : tie) (lam B c Y scale : R) :
  0 < lam -> 0 <= B -> B < Rabs c -> lam < 2 * scale ->
  - B <= lam * IZR (round_grid t lam (clamp B c + Y)) <= B ->
  Rabs ((c + Y) - snap_value t lam B c Y) < Rabs c - B + scale.
Proof.
  intros Hl HB Hc Hs Hr. pose proof (snap_lap_dist_inner t lam B c Y Hl HB Hc Hr). lra.
Qed.

Lemma snap_lap_dist_interior_lt (t : tie) (lam B c Y scale : R) :
  0 < lam -> lam < 2 * scale -> - B <= c <= B -> - B <= lam * IZR (round_grid t lam (c + Y)) <= B ->
  Rabs ((c + Y) - snap_value t lam B c Y) < scale.
Proof.
  intros Hl Hs Hc Hr. pose proof (snap_lap_dist_interior t lam B c Y Hl Hc Hr). lra.
Qed.

(** Cases 3 and 4: the outer clamp binds; the distance is that of [c + Y] to [±B]. *)
Lemma snap_lap_dist_outer_top (t : tie) (lam B c Y : R) :
  0 <= B -> B <= lam * IZR (round_grid t lam (clamp B c + Y)) ->
  Rabs ((c + Y) - snap_value t lam B c Y) = Rabs (c + Y - B).
Proof.
  intros HB Hr. unfold snap_value. f_equal. f_equal.
  set (z := lam * IZR (round_grid t lam (clamp B c + Y))) in *.
  unfold clamp, Rmax, Rmin. repeat destruct (Rle_dec _ _); lra.
Qed.

Lemma snap_lap_dist_outer_bot (t : tie) (lam B c Y : R) :
  0 <= B -> lam * IZR (round_grid t lam (clamp B c + Y)) <= - B ->
  Rabs ((c + Y) - snap_value t lam B c Y) = Rabs (c + Y + B).
Proof.
  intros HB Hr. unfold snap_value.
  replace (c + Y + B) with (c + Y - - B) by ring. f_equal. f_equal.
  set (z := lam * IZR (round_grid t lam (clamp B c + Y))) in *.
  unfold clamp, Rmax, Rmin. repeat destruct (Rle_dec _ _); lra.
Qed.

(** Cases 1 and 3 together ([c] in [-B, B]): within [lam / 2] plus the distance by
    which the Laplace output [c + Y] leaves [-B, B]; this clamping bias
    [max(0, |c + Y| - B)] is all that case 3 adds to case 1. *)
Lemma snap_lap_dist_clamped_bias (t : tie) (lam B c Y : R) :
  0 < lam -> 0 <= B -> - B <= c <= B ->
  Rabs ((c + Y) - snap_value t lam B c Y) <= lam / 2 + Rmax 0 (Rabs (c + Y) - B).
Proof.
  intros Hl HB Hc. unfold snap_value. rewrite (clamp_id B c Hc).
  pose proof (round_grid_dist t lam (c + Y) Hl) as Hd.
  set (z := lam * IZR (round_grid t lam (c + Y))) in *.
  assert (Hm : Rabs (c + Y) - B <= Rmax 0 (Rabs (c + Y) - B)) by apply Rmax_r.
  assert (H0 : 0 <= Rmax 0 (Rabs (c + Y) - B)) by apply Rmax_l.
  revert Hd Hm H0. generalize (Rmax 0 (Rabs (c + Y) - B)). intros m Hd Hm H0.
  destruct (Rle_or_lt z B) as [Hzb | Hzb]; [destruct (Rle_or_lt (- B) z) as [Hzb' | Hzb'] |].
  - rewrite (clamp_id B z (conj Hzb' Hzb)). lra.
  - replace (clamp B z) with (- B) by (unfold clamp, Rmax, Rmin;
      repeat match goal with |- context [Rle_dec ?x ?y] =>
        lazymatch x with context [Rle_dec _ _] => fail | _ =>
        lazymatch y with context [Rle_dec _ _] => fail | _ => destruct (Rle_dec x y) end end end; lra).
    revert Hd Hm. unfold Rabs. repeat destruct (Rcase_abs _); intros; lra.
  - replace (clamp B z) with B by (unfold clamp, Rmax, Rmin;
      repeat match goal with |- context [Rle_dec ?x ?y] =>
        lazymatch x with context [Rle_dec _ _] => fail | _ =>
        lazymatch y with context [Rle_dec _ _] => fail | _ => destruct (Rle_dec x y) end end end; lra).
    revert Hd Hm. unfold Rabs. repeat destruct (Rcase_abs _); intros; lra.
Qed.
