(** * The snapping mechanism: the preimage of each output, sign by sign

    For the Laplace sample [x = c + sgn s * (ln u / r)] rounded to the grid
    [lam * Z] (either tie rule) and possibly clamped to [-B, B], the set of
    [u] giving a grid output [k * lam], the output [B] or the output [-B] is
    an interval whose endpoints are exponentials ([snap_pre_*]); every output
    is a grid point, or [±B] when clamped ([snap_grid_any],
    [snap_grid_clamped]). *)
From Coq Require Import Reals Lra ZArith.
From Flocq Require Import Raux.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import Rounding Laplace Clamp Snapping.
Local Open Scope R_scope.

(** ** Clamping a grid point *)

Lemma clamp_grid_top_iff B lam j : 0 < B -> 0 < lam ->
  (clamp B (lam * IZR j) = B <-> (Zceil (B / lam) <= j)%Z).
Proof.
  intros HB Hl. rewrite clamp_top_iff by exact HB. split; intros H.
  - apply Zceil_glb. apply div_le_iff_r; [exact Hl|lra].
  - apply IZR_le in H. pose proof (Zceil_ub (B / lam)).
    assert (H1 : B / lam <= IZR j) by lra. apply (div_le_iff_r _ _ _ Hl) in H1. lra.
Qed.

Lemma clamp_grid_bottom_iff B lam j : 0 < B -> 0 < lam ->
  (clamp B (lam * IZR j) = - B <-> (j <= Zfloor (- B / lam))%Z).
Proof.
  intros HB Hl. rewrite clamp_bottom_iff by exact HB. split; intros H.
  - apply Zfloor_lub. apply div_le_iff; [exact Hl|lra].
  - apply IZR_le in H. pose proof (Zfloor_lb (- B / lam)).
    assert (H1 : IZR j <= - B / lam) by lra. apply (div_le_iff _ _ _ Hl) in H1. lra.
Qed.

Lemma clamp_grid_interior_iff B lam j k : 0 < lam -> - B < lam * IZR k < B ->
  (clamp B (lam * IZR j) = lam * IZR k <-> j = k).
Proof. intros Hl Hk. rewrite clamp_interior_iff by exact Hk. apply grid_eq_iff, Hl. Qed.

(** ** Per-sign preimages: unclamped *)

Section Preimages.
Variables (r lam c : R) (k : Z) (u : R).
Hypotheses (Hr : 0 < r) (Hl : 0 < lam) (Hu : 0 < u).

Lemma snap_pre_up_plus :
  lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) <= u < exp (r * ((IZR k + / 2) * lam - c)).
Proof.
  rewrite grid_eq_iff, round_grid_up_iff, sgn_plus_x by assumption.
  rewrite lap_plus_ge, lap_plus_lt by assumption. tauto.
Qed.

Lemma snap_pre_up_minus :
  lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) < u <= exp (r * (c - (IZR k - / 2) * lam)).
Proof.
  rewrite grid_eq_iff, round_grid_up_iff, sgn_minus_x by assumption.
  rewrite lap_minus_ge, lap_minus_lt by assumption. tauto.
Qed.

Lemma snap_pre_down_plus :
  lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) < u <= exp (r * ((IZR k + / 2) * lam - c)).
Proof.
  rewrite grid_eq_iff, round_grid_down_iff, sgn_plus_x by assumption.
  rewrite lap_plus_gt, lap_plus_le by assumption. tauto.
Qed.

Lemma snap_pre_down_minus :
  lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) <= u < exp (r * (c - (IZR k - / 2) * lam)).
Proof.
  rewrite grid_eq_iff, round_grid_down_iff, sgn_minus_x by assumption.
  rewrite lap_minus_gt, lap_minus_le by assumption. tauto.
Qed.

(** ** Per-sign preimages: clamped, interior outputs *)

Variable B : R.
Hypothesis HB : 0 < B.

Lemma snap_pre_clamp_up_plus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) <= u < exp (r * ((IZR k + / 2) * lam - c)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_up_plus. Qed.

Lemma snap_pre_clamp_up_minus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) < u <= exp (r * (c - (IZR k - / 2) * lam)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_up_minus. Qed.

Lemma snap_pre_clamp_down_plus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) < u <= exp (r * ((IZR k + / 2) * lam - c)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_down_plus. Qed.

Lemma snap_pre_clamp_down_minus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) <= u < exp (r * (c - (IZR k - / 2) * lam)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_down_minus. Qed.

(** ** Per-sign preimages: clamped, the output [B] (index >= [Zceil (B / lam)]) *)

Lemma snap_pre_top_up_plus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u)))) = B <->
  exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - c)) <= u.
Proof.
  rewrite clamp_grid_top_iff, round_grid_up_ge_iff, sgn_plus_x by assumption.
  apply lap_plus_ge; assumption.
Qed.

Lemma snap_pre_top_up_minus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u)))) = B <->
  u <= exp (r * (c - (IZR (Zceil (B / lam)) - / 2) * lam)).
Proof.
  rewrite clamp_grid_top_iff, round_grid_up_ge_iff, sgn_minus_x by assumption.
  apply lap_minus_ge; assumption.
Qed.

Lemma snap_pre_top_down_plus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u)))) = B <->
  exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - c)) < u.
Proof.
  rewrite clamp_grid_top_iff, round_grid_down_ge_iff, sgn_plus_x by assumption.
  apply lap_plus_gt; assumption.
Qed.

Lemma snap_pre_top_down_minus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u)))) = B <->
  u < exp (r * (c - (IZR (Zceil (B / lam)) - / 2) * lam)).
Proof.
  rewrite clamp_grid_top_iff, round_grid_down_ge_iff, sgn_minus_x by assumption.
  apply lap_minus_gt; assumption.
Qed.

(** ** Per-sign preimages: clamped, the output [-B] (index <= [Zfloor (- B / lam)]) *)

Lemma snap_pre_bot_up_plus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u)))) = - B <->
  u < exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - c)).
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_up_le_iff, sgn_plus_x by assumption.
  apply lap_plus_lt; assumption.
Qed.

Lemma snap_pre_bot_up_minus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u)))) = - B <->
  exp (r * (c - (IZR (Zfloor (- B / lam)) + / 2) * lam)) < u.
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_up_le_iff, sgn_minus_x by assumption.
  apply lap_minus_lt; assumption.
Qed.

Lemma snap_pre_bot_down_plus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u)))) = - B <->
  u <= exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - c)).
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_down_le_iff, sgn_plus_x by assumption.
  apply lap_plus_le; assumption.
Qed.

Lemma snap_pre_bot_down_minus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u)))) = - B <->
  exp (r * (c - (IZR (Zfloor (- B / lam)) + / 2) * lam)) <= u.
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_down_le_iff, sgn_minus_x by assumption.
  apply lap_minus_le; assumption.
Qed.

End Preimages.

(** Every output of the (clamped) mechanism is a grid point (or [±B]). *)
Lemma snap_grid_any (lam : R) (t : tie) (x y : R) :
  lam * IZR (round_grid t lam x) = y -> exists k, y = lam * IZR k.
Proof. intros <-. eexists; reflexivity. Qed.

Lemma snap_grid_clamped (B lam : R) (t : tie) (x y : R) : 0 < B ->
  clamp B (lam * IZR (round_grid t lam x)) = y ->
  y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B.
Proof.
  intros HB <-.
  destruct (clamp_cases_3 B (lam * IZR (round_grid t lam x)) HB) as [H|[H|[H1 H2]]].
  - left; exact H.
  - right; left; exact H.
  - right; right. exists (round_grid t lam x). rewrite H2 in *. split; [reflexivity|exact H1].
Qed.
