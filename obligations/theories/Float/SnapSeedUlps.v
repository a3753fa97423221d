(** * The wide-grid constants for a logarithm within k ulps
    [snap_binary64_dp_wide] (SnapSeed64.v) is stated for a correctly rounded logarithm.  The same
    route with a logarithm within m·η of ln ([tight64_K_le_c] takes m) gives the exponent
    |x − x′|/λ + c·((4 + 4m)·B/λ + 2m + 9)·η ([snap_binary64_dp_wide_log]); for a logarithm within
    k ulps of a normal result (m = 2k/(1 − 2kη), numpy.log's k = 1) that is
    |x − x′|/λ + c·((4 + 8k)·B/λ + 4k + 10)·η ([snap_binary64_dp_wide_ulps]).  Its slope
    (4 + 8k)·c, c ≥ (e² + 1)/(e² − 1) > 1.31 on the whole range λ ≤ Λ ≤ 2λ, is above the seed's 12
    for every k ≥ 1: this route does not give the seed's constant for a log within an ulp.  It gives
    Mironov's 16·η·B/λ for k = 1 where the grid is nearly 2λ: 1.99λ ≤ Λ ≤ 2λ and 95λ ≤ B ≤ 353λ
    ([snap_binary64_mironov_constant_1ulp]).  For k ≥ 2 the slope is above 16 everywhere. *)
From Coq Require Import ZArith Reals Lra Lia QArith Qreals.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts ExpTaylor ExpBounds.
From Obligations.Noise Require Import Rounding Clamp.
From Obligations.Float Require Import RelError SnapOuter UStarMeasure SnapOutput SnapInterior SnapRatio
  SnapFloatDP SnapPipeline SnapBinary64
  SnapThreshold SnapTight SnapTight64 SnapSeed64.

Local Open Scope R_scope.

Lemma exp_19899_ge : 7314 / 1000 <= exp (19899 / 10000).
Proof.
  replace (7314 / 1000) with (Q2R (7314 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (19899 # 10000)%Q 1%nat 9%nat.
Qed.

(** For a logarithm within m·η of ln, any c with 1.0002·(r0 + 1) ≤ c·(r0 − 1.0002),
    r0 ≤ e^(ρ0 − 10^−4) and ρ0·λ ≤ Λ ≤ 2λ: every output's ratio is at most
    e^(|x − x′|/λ + c·((4 + 4m)·B/λ + 2m + 9)·η). *)
Theorem snap_binary64_dp_wide_log : forall (mu m c r0 rho0 : R) (choice : Z -> bool) (lnf : R -> R)
  (pr : (R -> Prop) -> R) (t : tie) (lam grid B : R),
  0 <= mu -> mu <= m * eta 53 -> m <= 2 ^ 22 ->
  10002 / 10000 < r0 -> r0 <= exp (rho0 - / 10000) -> 10002 / 10000 * (r0 + 1) <= c * (r0 - 10002 / 10000) ->
  1 <= rho0 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + c * ((4 + 4 * m) * (B / lam) + 2 * m + 9) * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros mu m c r0 rho0 choice lnf pr t lam grid B Hmu Hm Hmmax Hr0 Hr0e Hc Hrho0 Hpr Hlnf Hlam Fl Hgrid HB
    x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hg0 : 0 < grid) by nra.
  assert (Hgrid1 : lam <= grid <= 2 * lam) by nra.
  assert (He := eta_binary64).
  assert (Hm0 : 0 <= m) by (rewrite He in Hm; nra).
  assert (Hmu2 : 0 <= mu <= / 2).
  { split; [exact Hmu|].
    assert (mu <= 2 ^ 22 * eta 53) by (eapply Rle_trans; [exact Hm|]; apply Rmult_le_compat_r; [rewrite He; lra|exact Hmmax]).
    rewrite He in H. lra. }
  assert (Hlb : bpow radix2 (-1074 + 2 * 53) <= lam) by (rewrite binary64_lam_bound; exact Hlam).
  assert (Hnn := snap_prob_nonneg 53 (-1074) choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = out)).
  eapply Rle_trans.
  - refine (float_snap_dp_tight_log 53 (-1074) eq_refl ltac:(lia) choice lnf mu pr t grid B
             (snap64_g grid B) lam (tight64_delta mu lam grid B) Hmu2 Hpr Hlnf Hlb Fl Hg0 (proj1 HB)
             (snap64_g_ok grid B Hg0) _ _ _ _ x x' out Hx Hx');
      [exact (tight64_delta_nonneg mu m lam grid B Hmu Hm Hmmax Hlam Hgrid1 HB)
      |exact (tight64_disp mu lam grid B HB)
      |exact (tight64_range mu m lam grid B Hmu Hm Hmmax Hlam Hgrid1 HB)
      |exact (tight64_E mu m lam grid B Hmu Hm Hmmax Hlam Hgrid1 HB)].
  - apply Rmult_le_compat_r; [exact Hnn|]. rewrite !exp_plus.
    apply Rmult_le_compat_l; [left; apply exp_pos|].
    assert (HW := tight64_W_ge rho0 lam grid B Hlam Hgrid HB).
    assert (Hrw : r0 <= exp (tight_W 53 (-1074) grid B / lam)).
    { eapply Rle_trans; [exact Hr0e|]. apply exp_le_iff. exact HW. }
    eapply Rle_trans; [apply (tight64_K_le_c mu m lam grid B Hmu Hm Hmmax Hlam Hgrid1 HB c r0 Hr0 Hrw Hc)|].
    assert (Hc0 : 0 <= c) by (clear - Hr0 Hc; nra).
    assert (Hrho : grid / lam <= 2) by (apply div_le_iff_r; lra).
    assert (Hrho0' : 0 <= grid / lam) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
    assert (Hb : 0 <= B / lam) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
    assert (Hmr : m * (grid / lam) <= m * 2) by (apply Rmult_le_compat_l; lra).
    assert (Hs : eta 53 * (4 * (B / lam) + 4 * (m * (B / lam)) + grid / lam + m * (grid / lam) + 7) <=
      ((4 + 4 * m) * (B / lam) + 2 * m + 9) * eta 53) by (rewrite He; lra).
    apply Rle_trans with (1 + c * ((4 + 4 * m) * (B / lam) + 2 * m + 9) * eta 53).
    + rewrite Rmult_assoc. apply Rplus_le_compat_l. apply Rmult_le_compat_l; [exact Hc0|exact Hs].
    + apply exp_ineq1_le.
Qed.

(** A logarithm within k ulps of a normal result (m = 2k/(1 − 2kη), 1 ≤ k ≤ 2^20):
    e^(|x − x′|/λ + c·((4 + 8k)·B/λ + 4k + 10)·η). *)
Corollary snap_binary64_dp_wide_ulps : forall (k c r0 rho0 : R) (choice : Z -> bool) (lnf : R -> R)
  (pr : (R -> Prop) -> R) (t : tie) (lam grid B : R),
  1 <= k <= 2 ^ 20 ->
  10002 / 10000 < r0 -> r0 <= exp (rho0 - / 10000) -> 10002 / 10000 * (r0 + 1) <= c * (r0 - 10002 / 10000) ->
  1 <= rho0 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 ->
     rel_within (2 * k * eta 53 / (1 - 2 * k * eta 53)) (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + c * ((4 + 8 * k) * (B / lam) + 4 * k + 10) * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros k c r0 rho0 choice lnf pr t lam grid B Hk Hr0 Hr0e Hc Hrho0 Hpr Hlnf Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (He := eta_binary64). set (e := eta 53) in *.
  assert (Hden : 0 < 1 - 2 * k * e) by (rewrite He; lra).
  set (m := 2 * k / (1 - 2 * k * e)).
  assert (Hmu : 0 <= 2 * k * e / (1 - 2 * k * e)).
  { unfold Rdiv. apply Rmult_le_pos; [rewrite He; lra|left; apply Rinv_0_lt_compat; exact Hden]. }
  assert (Hmm : 2 * k * e / (1 - 2 * k * e) <= m * e) by (right; unfold m; field; lra).
  assert (Hm1 : m * (1 - 2 * k * e) = 2 * k) by (unfold m; field; lra).
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hb : 0 <= B / lam <= 353).
  { split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|]. apply div_le_iff_r; lra. }
  (* m exceeds 2k by 4k²η/(1 − 2kη) ≤ 2^−11 (about), which the +1 of the intercept absorbs. *)
  assert (Hk2 : (4 + 4 * m) * (B / lam) + 2 * m + 9 <= (4 + 8 * k) * (B / lam) + 4 * k + 10).
  { assert (Hmk : (m - 2 * k) * (1 - 2 * k * e) = 4 * k * k * e) by (rewrite Rmult_minus_distr_r, Hm1; ring).
    assert (Hkk : k * k <= 2 ^ 20 * 2 ^ 20) by (apply Rmult_le_compat; lra).
    assert (Hk0 : 0 <= k * k) by (apply Rmult_le_pos; lra).
    assert (Hmk' : m - 2 * k <= / 2000).
    { apply (Rmult_le_reg_r (1 - 2 * k * e)); [exact Hden|]. rewrite Hmk. rewrite He in *. lra. }
    assert (Hm2 : 2 * k <= m).
    { apply (Rmult_le_reg_r (1 - 2 * k * e)); [exact Hden|]. rewrite Hm1. rewrite He in *. lra. }
    assert (B / lam * (m - 2 * k) <= 353 * (m - 2 * k)) by (apply Rmult_le_compat_r; lra).
    lra. }
  assert (Hmmax : m <= 2 ^ 22).
  { apply (Rmult_le_reg_r (1 - 2 * k * e)); [exact Hden|]. rewrite Hm1. rewrite He in *. lra. }
  assert (H := snap_binary64_dp_wide_log _ m c r0 rho0 choice lnf pr t lam grid B Hmu Hmm Hmmax Hr0 Hr0e Hc Hrho0
                 Hpr Hlnf Hlam Fl Hgrid HB x x' out Hx Hx').
  eapply Rle_trans; [exact H|].
  assert (Hnn := snap_prob_nonneg 53 (-1074) choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = out)).
  apply Rmult_le_compat_r; [exact Hnn|]. apply exp_le_iff.
  assert (Hc0 : 0 <= c) by (clear - Hr0 Hc; nra).
  assert (He0 : 0 <= e) by (rewrite He; lra).
  apply Rplus_le_compat_l. apply Rmult_le_compat_r; [exact He0|]. apply Rmult_le_compat_l; [exact Hc0|exact Hk2].
Qed.

(** The statement's shape for a logarithm within k ulps: for every binary64 λ ≥ 2^−968, every grid
    ρ0·λ ≤ Λ ≤ 2λ, every clamp β0·λ ≤ B ≤ 353λ, every tie rule and all real inputs in [−B, B], every
    output's ratio is at most e^(|x − x′|/λ + a·η·B/λ + b·η). *)
Definition snap64_constant_ulps (k rho0 beta0 a b : R) : Prop :=
  forall (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R) (t : tie) (lam grid B : R),
  uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 ->
     rel_within (2 * k * eta 53 / (1 - 2 * k * eta 53)) (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + a * eta 53 * (B / lam) + b * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).

(** a·η·B/λ + b·η from c·((4 + 8k)·B/λ + 4k + 10)·η, for B ≥ β0·λ:
    (4 + 8k)·c ≤ a and (4k + 10)·c − b ≤ (a − (4 + 8k)·c)·β0. *)
Theorem snap_binary64_dp_wide_ulps_ab : forall (k c r0 rho0 beta0 a b : R),
  1 <= k <= 2 ^ 20 ->
  10002 / 10000 < r0 -> r0 <= exp (rho0 - / 10000) -> 10002 / 10000 * (r0 + 1) <= c * (r0 - 10002 / 10000) ->
  1 <= rho0 -> (4 + 8 * k) * c <= a -> (4 * k + 10) * c - b <= (a - (4 + 8 * k) * c) * beta0 -> 0 < beta0 ->
  snap64_constant_ulps k rho0 beta0 a b.
Proof.
  intros k c r0 rho0 beta0 a b Hk Hr0 Hr0e Hc Hrho0 Ha Hb Hbeta0 choice lnf pr t lam grid B Hpr Hlnf Hlam Fl Hgrid HB
    x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hc0 : 0 <= c) by (clear - Hr0 Hc; nra).
  assert (HB0 : 0 < B <= 353 * lam).
  { split; [|lra]. assert (0 < beta0 * lam) by (apply Rmult_lt_0_compat; lra). lra. }
  eapply Rle_trans; [exact (snap_binary64_dp_wide_ulps k c r0 rho0 choice lnf pr t lam grid B Hk Hr0 Hr0e Hc Hrho0
                              Hpr Hlnf Hlam Fl Hgrid HB0 x x' out Hx Hx')|].
  apply Rmult_le_compat_r; [apply snap_prob_nonneg; exact Hpr|]. apply exp_le_iff.
  assert (Hbl : beta0 <= B / lam) by (apply div_le_iff; lra).
  assert (He := eta_binary64). assert (He0 : 0 < eta 53) by (rewrite He; lra).
  assert (Hkc : c * ((4 + 8 * k) * (B / lam) + 4 * k + 10) <= a * (B / lam) + b).
  { assert ((a - (4 + 8 * k) * c) * beta0 <= (a - (4 + 8 * k) * c) * (B / lam)) by (apply Rmult_le_compat_l; lra).
    lra. }
  assert (Hk' : c * ((4 + 8 * k) * (B / lam) + 4 * k + 10) * eta 53 <= (a * (B / lam) + b) * eta 53)
    by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

(** Mironov's constant, ε + 2^−49·B·ε, with numpy.log's logarithm within 1 ulp, for
    1.99λ ≤ Λ ≤ 2λ and 95λ ≤ B ≤ 353λ (slope 12c = 15.81 with c = 1.3171). *)
Corollary snap_binary64_mironov_constant_1ulp : snap64_constant_ulps 1 (199 / 100) 95 16 0.
Proof.
  apply (snap_binary64_dp_wide_ulps_ab 1 (13171 / 10000) (7314 / 1000) (199 / 100) 95 16 0); [lra|lra| |lra..].
  replace (199 / 100 - / 10000) with (19899 / 10000) by field. exact exp_19899_ge.
Qed.
