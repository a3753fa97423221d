(** * The seed's and Mironov's constants in binary64 where the grid is wide
    [snap_binary64_dp_tight] (SnapTight64.v) bounds the bucket-width factor (r + 1)/(r − 1),
    r = e^(W/λ), by its value at Λ = λ (2.165), which puts its slope at 18·η·B/λ.  For a grid
    Λ ≥ ρ0·λ the factor is smaller ((e^1.9 + 1)/(e^1.9 − 1) < 1.353, (e^1.5 + 1)/(e^1.5 − 1) < 1.576)
    and the same route gives, for a correctly rounded logarithm, every binary64 λ ≥ 2^−968,
    0 < B ≤ 353λ and all real inputs in [−B, B], the exponent |x − x′|/λ + c·(8·B/λ + 11)·η
    ([snap_binary64_dp_wide]); for B ≥ β0·λ that is a·η·B/λ + b·η when 8c ≤ a and
    11c − b ≤ (a − 8c)·β0 ([snap_binary64_dp_wide_ab], stated as [snap64_constant ρ0 β0 a b]; a proved
    constant holds for a narrower range and larger constants, [snap64_constant_weaken]).  From it:
    - seed 004's ε + 12·B·ε·η + 2·η for 1.9λ ≤ Λ ≤ 2λ and 11λ ≤ B ≤ 353λ ([snap_binary64_seed_constant]),
      for Λ ≥ 1.75λ and B ≥ 22λ, for Λ ≥ 1.65λ and B ≥ 75λ;
    - Mironov's ε + 2^−49·B·ε for 1.9λ ≤ Λ ≤ 2λ and 3λ ≤ B ≤ 353λ ([snap_binary64_mironov_constant]),
      for Λ ≥ 1.5λ and B ≥ 6λ, for Λ ≥ 1.2λ and B ≥ 19λ, for Λ ≥ 1.12λ and B ≥ 91λ, for Λ ≥ 1.11λ
      and B ≥ 175λ.
    The route's slope is 8c ≈ 8·(r + 1)/(r − 1), r = e^(Λ/λ): above 12 for Λ < 1.61λ, above 16
    for Λ < 1.1λ; its intercept c·11·η is above the seed's 2·η for every Λ.  What it does not
    reach stays open (docs/snap_tight.md). *)
From Coq Require Import ZArith Reals Lra Lia QArith Qreals.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts ExpTaylor ExpBounds.
From Obligations.Noise Require Import Rounding Clamp.
From Obligations.Float Require Import RelError SnapOuter UStarMeasure SnapOutput SnapInterior SnapRatio
  SnapFloatDP SnapPipeline SnapBinary64
  SnapThreshold SnapTight SnapTight64.

Local Open Scope R_scope.

Lemma exp_18999_ge : 6685 / 1000 <= exp (18999 / 10000).
Proof.
  replace (6685 / 1000) with (Q2R (6685 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (18999 # 10000)%Q 1%nat 9%nat.
Qed.

Lemma exp_17499_ge : 5754 / 1000 <= exp (17499 / 10000).
Proof.
  replace (5754 / 1000) with (Q2R (5754 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (17499 # 10000)%Q 1%nat 10%nat.
Qed.

Lemma exp_16499_ge : 5206 / 1000 <= exp (16499 / 10000).
Proof.
  replace (5206 / 1000) with (Q2R (5206 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (16499 # 10000)%Q 1%nat 8%nat.
Qed.

Lemma exp_14999_ge : 4481 / 1000 <= exp (14999 / 10000).
Proof.
  replace (4481 / 1000) with (Q2R (4481 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (14999 # 10000)%Q 1%nat 8%nat.
Qed.

Lemma exp_11999_ge : 3319 / 1000 <= exp (11999 / 10000).
Proof.
  replace (3319 / 1000) with (Q2R (3319 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (11999 # 10000)%Q 1%nat 7%nat.
Qed.

Lemma exp_11199_ge : 3063 / 1000 <= exp (11199 / 10000).
Proof.
  replace (3063 / 1000) with (Q2R (3063 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (11199 # 10000)%Q 1%nat 6%nat.
Qed.

Lemma exp_11099_ge : 3033 / 1000 <= exp (11099 / 10000).
Proof.
  replace (3033 / 1000) with (Q2R (3033 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (11099 # 10000)%Q 1%nat 6%nat.
Qed.

(** The narrowest bucket's thresholds are at least ρ0 − 10^−4 grid-widths of λ apart. *)
Lemma tight64_W_ge : forall rho0 lam grid B, powerRZ 2 (-968) <= lam -> rho0 * lam <= grid <= 2 * lam ->
  0 < B <= 353 * lam -> rho0 - / 10000 <= tight_W 53 (-1074) grid B / lam.
Proof.
  intros rho0 lam grid B Hlam Hgrid HB.
  assert (Hl0 : 0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra).
  assert (Hlam0 : 0 < lam) by lra.
  assert (Ht : bpow radix2 (-1074) <= / 10000000 * lam).
  { apply Rle_trans with (/ 10000000 * powerRZ 2 (-968)); [|apply Rmult_le_compat_l; lra].
    rewrite bpow_powerRZ. change (IZR (radix_val radix2)) with 2.
    replace (-1074)%Z with (-106 + -968)%Z by reflexivity.
    rewrite powerRZ_add by lra. apply Rmult_le_compat_r; [lra|].
    change (powerRZ 2 (-106)) with (/ (2 ^ 106)). apply Rinv_le_contravar; lra. }
  apply div_le_iff; [exact Hlam0|]. unfold tight_W. rewrite eta_binary64. lra.
Qed.

(** For any c with 1.0002·(r0 + 1) ≤ c·(r0 − 1.0002), r0 ≤ e^(ρ0 − 10^−4) and ρ0·λ ≤ Λ ≤ 2λ:
    every output's ratio is at most e^(|x − x′|/λ + c·(8·B/λ + 11)·η). *)
Theorem snap_binary64_dp_wide : forall (c r0 rho0 : R) (choice : Z -> bool) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  10002 / 10000 < r0 -> r0 <= exp (rho0 - / 10000) -> 10002 / 10000 * (r0 + 1) <= c * (r0 - 10002 / 10000) ->
  1 <= rho0 -> uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + c * (8 * (B / lam) + 11) * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros c r0 rho0 choice pr t lam grid B Hr0 Hr0e Hc Hrho0 Hpr Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hg0 : 0 < grid) by nra.
  assert (Hgrid1 : lam <= grid <= 2 * lam) by nra.
  assert (He := eta_binary64).
  assert (Hmu2 : 0 <= eta 53 <= / 2) by (rewrite He; lra).
  assert (Hlnf := correct_log_within 53 (-1074) eq_refl ltac:(lia) choice ltac:(lia)).
  assert (Hlb : bpow radix2 (-1074 + 2 * 53) <= lam) by (rewrite binary64_lam_bound; exact Hlam).
  set (lnf := fun v => rnd 53 (-1074) choice (ln v)) in *.
  assert (Hnn := snap_prob_nonneg 53 (-1074) choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = out)).
  assert (Hm1 : eta 53 <= 1 * eta 53) by lra.
  assert (Hm22 : 1 <= 2 ^ 22) by lra.
  eapply Rle_trans.
  - refine (float_snap_dp_tight_log 53 (-1074) eq_refl ltac:(lia) choice lnf (eta 53) pr t grid B
             (snap64_g grid B) lam (tight64_delta (eta 53) lam grid B) Hmu2 Hpr Hlnf Hlb Fl Hg0 (proj1 HB)
             (snap64_g_ok grid B Hg0) _ _ _ _ x x' out Hx Hx');
      [exact (tight64_delta_nonneg _ 1 lam grid B (proj1 Hmu2) Hm1 Hm22 Hlam Hgrid1 HB)
      |exact (tight64_disp _ lam grid B HB)
      |exact (tight64_range _ 1 lam grid B (proj1 Hmu2) Hm1 Hm22 Hlam Hgrid1 HB)
      |exact (tight64_E _ 1 lam grid B (proj1 Hmu2) Hm1 Hm22 Hlam Hgrid1 HB)].
  - apply Rmult_le_compat_r; [exact Hnn|]. rewrite !exp_plus.
    apply Rmult_le_compat_l; [left; apply exp_pos|].
    assert (HW := tight64_W_ge rho0 lam grid B Hlam Hgrid HB).
    assert (Hrw : r0 <= exp (tight_W 53 (-1074) grid B / lam)).
    { eapply Rle_trans; [exact Hr0e|]. apply exp_le_iff. exact HW. }
    eapply Rle_trans; [apply (tight64_K_le_c (eta 53) 1 lam grid B (proj1 Hmu2) Hm1 Hm22 Hlam Hgrid1 HB
                                c r0 Hr0 Hrw Hc)|].
    assert (Hc0 : 0 <= c) by nra.
    assert (Hrho : grid / lam <= 2) by (apply div_le_iff_r; lra).
    assert (Hb : 0 <= B / lam) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
    assert (Hs : eta 53 * (4 * (B / lam) + 4 * (1 * (B / lam)) + grid / lam + 1 * (grid / lam) + 7) <=
      (8 * (B / lam) + 11) * eta 53) by (rewrite He; lra).
    apply Rle_trans with (1 + c * (8 * (B / lam) + 11) * eta 53).
    + rewrite Rmult_assoc. apply Rplus_le_compat_l. apply Rmult_le_compat_l; [exact Hc0|exact Hs].
    + apply exp_ineq1_le.
Qed.

(** The statement's shape: with a correctly rounded logarithm, for every binary64 λ ≥ 2^−968, every grid
    ρ0·λ ≤ Λ ≤ 2λ, every clamp β0·λ ≤ B ≤ 353λ, every tie rule and all real inputs in [−B, B], every
    output's ratio is at most e^(|x − x′|/λ + a·η·B/λ + b·η). *)
Definition snap64_constant (rho0 beta0 a b : R) : Prop :=
  forall (choice : Z -> bool) (pr : (R -> Prop) -> R) (t : tie) (lam grid B : R),
  uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + a * eta 53 * (B / lam) + b * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).

(** The exponent a·η·B/λ + b·η from c·(8·B/λ + 11)·η, for B ≥ β0·λ: 8c ≤ a and 11c − b ≤ (a − 8c)·β0. *)
Theorem snap_binary64_dp_wide_ab : forall (c r0 rho0 beta0 a b : R),
  10002 / 10000 < r0 -> r0 <= exp (rho0 - / 10000) -> 10002 / 10000 * (r0 + 1) <= c * (r0 - 10002 / 10000) ->
  1 <= rho0 -> 8 * c <= a -> 11 * c - b <= (a - 8 * c) * beta0 -> 0 < beta0 ->
  snap64_constant rho0 beta0 a b.
Proof.
  intros c r0 rho0 beta0 a b Hr0 Hr0e Hc Hrho0 Ha Hb Hbeta0 choice pr t lam grid B Hpr Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hc0 : 0 <= c) by nra.
  assert (HB0 : 0 < B <= 353 * lam).
  { split; [|lra]. assert (0 < beta0 * lam) by (apply Rmult_lt_0_compat; lra). lra. }
  eapply Rle_trans; [exact (snap_binary64_dp_wide c r0 rho0 choice pr t lam grid B Hr0 Hr0e Hc Hrho0 Hpr Hlam Fl
                              Hgrid HB0 x x' out Hx Hx')|].
  apply Rmult_le_compat_r; [apply snap_prob_nonneg; exact Hpr|]. apply exp_le_iff.
  assert (Hbl : beta0 <= B / lam) by (apply div_le_iff; lra).
  assert (He := eta_binary64). assert (He0 : 0 < eta 53) by (rewrite He; lra).
  assert (Hk : c * (8 * (B / lam) + 11) <= a * (B / lam) + b) by nra.
  assert (Hk' : c * (8 * (B / lam) + 11) * eta 53 <= (a * (B / lam) + b) * eta 53)
    by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

(** A proved constant holds for a narrower range and larger constants. *)
Lemma snap64_constant_weaken : forall rho0 beta0 a b rho1 beta1 a1 b1,
  snap64_constant rho0 beta0 a b -> rho0 <= rho1 -> 0 <= beta0 <= beta1 -> a <= a1 -> b <= b1 ->
  snap64_constant rho1 beta1 a1 b1.
Proof.
  intros rho0 beta0 a b rho1 beta1 a1 b1 H Hrho Hbeta Ha Hb choice pr t lam grid B Hpr Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hgrid0 : rho0 * lam <= grid <= 2 * lam) by (split; [|lra]; apply Rle_trans with (rho1 * lam); [|lra];
    apply Rmult_le_compat_r; lra).
  assert (HB0 : beta0 * lam <= B <= 353 * lam) by (split; [|lra]; apply Rle_trans with (beta1 * lam); [|lra];
    apply Rmult_le_compat_r; lra).
  eapply Rle_trans; [exact (H choice pr t lam grid B Hpr Hlam Fl Hgrid0 HB0 x x' out Hx Hx')|].
  apply Rmult_le_compat_r; [apply snap_prob_nonneg; exact Hpr|]. apply exp_le_iff.
  assert (Hbl : 0 <= B / lam) by (apply Rmult_le_pos; [nra|left; apply Rinv_0_lt_compat; exact Hlam0]).
  assert (He0 : 0 < eta 53) by (rewrite eta_binary64; lra).
  assert (a * eta 53 * (B / lam) <= a1 * eta 53 * (B / lam)) by (apply Rmult_le_compat_r; [exact Hbl|];
    apply Rmult_le_compat_r; lra).
  assert (b * eta 53 <= b1 * eta 53) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

(** Seed 004's constant, ε + 12·B·ε·η + 2·η with ε = 1/λ, for 1.9λ ≤ Λ ≤ 2λ and 11λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_seed_constant : snap64_constant (19 / 10) 11 12 2.
Proof.
  apply (snap_binary64_dp_wide_ab (1353 / 1000) (6685 / 1000) (19 / 10) 11 12 2); [lra| |lra..].
  replace (19 / 10 - / 10000) with (18999 / 10000) by field. exact exp_18999_ge.
Qed.

(** The seed's constant for 1.75λ ≤ Λ ≤ 2λ and 22λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_seed_constant_175 : snap64_constant (7 / 4) 22 12 2.
Proof.
  apply (snap_binary64_dp_wide_ab (1422 / 1000) (5754 / 1000) (7 / 4) 22 12 2); [lra| |lra..].
  replace (7 / 4 - / 10000) with (17499 / 10000) by field. exact exp_17499_ge.
Qed.

(** The seed's constant for 1.65λ ≤ Λ ≤ 2λ and 75λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_seed_constant_165 : snap64_constant (33 / 20) 75 12 2.
Proof.
  apply (snap_binary64_dp_wide_ab (1476 / 1000) (5206 / 1000) (33 / 20) 75 12 2); [lra| |lra..].
  replace (33 / 20 - / 10000) with (16499 / 10000) by field. exact exp_16499_ge.
Qed.

(** Mironov's constant, ε + 2^−49·B·ε = ε + 16·B·ε·η, for 1.9λ ≤ Λ ≤ 2λ and 3λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_mironov_constant : snap64_constant (19 / 10) 3 16 0.
Proof.
  apply (snap_binary64_dp_wide_ab (1353 / 1000) (6685 / 1000) (19 / 10) 3 16 0); [lra| |lra..].
  replace (19 / 10 - / 10000) with (18999 / 10000) by field. exact exp_18999_ge.
Qed.

(** Mironov's constant for 1.5λ ≤ Λ ≤ 2λ and 6λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_mironov_constant_15 : snap64_constant (3 / 2) 6 16 0.
Proof.
  apply (snap_binary64_dp_wide_ab (1576 / 1000) (4481 / 1000) (3 / 2) 6 16 0); [lra| |lra..].
  replace (3 / 2 - / 10000) with (14999 / 10000) by field. exact exp_14999_ge.
Qed.

(** Mironov's constant for 1.2λ ≤ Λ ≤ 2λ and 19λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_mironov_constant_12 : snap64_constant (6 / 5) 19 16 0.
Proof.
  apply (snap_binary64_dp_wide_ab (1864 / 1000) (3319 / 1000) (6 / 5) 19 16 0); [lra| |lra..].
  replace (6 / 5 - / 10000) with (11999 / 10000) by field. exact exp_11999_ge.
Qed.

(** Mironov's constant for 1.12λ ≤ Λ ≤ 2λ and 91λ ≤ B ≤ 353λ. *)
Corollary snap_binary64_mironov_constant_112 : snap64_constant (28 / 25) 91 16 0.
Proof.
  apply (snap_binary64_dp_wide_ab (19701 / 10000) (3063 / 1000) (28 / 25) 91 16 0); [lra| |lra..].
  replace (28 / 25 - / 10000) with (11199 / 10000) by field. exact exp_11199_ge.
Qed.

(** Mironov's constant for 1.11λ ≤ Λ ≤ 2λ and 175λ ≤ B ≤ 353λ: below, the route's slope 8c meets 16
    (at Λ = 1.1λ it would need B ≥ 2066λ). *)
Corollary snap_binary64_mironov_constant_111 : snap64_constant (111 / 100) 175 16 0.
Proof.
  apply (snap_binary64_dp_wide_ab (4961 / 2500) (3033 / 1000) (111 / 100) 175 16 0); [lra| |lra..].
  replace (111 / 100 - / 10000) with (11099 / 10000) by field. exact exp_11099_ge.
Qed.
