(** * The two refinements in binary64, for all parameters of a range
    [float_snap_dp_two_correct] (SnapTwoSidedDP.v) at precision 53, emin −1074, with K = e^X and
    its premises discharged for every binary64 λ ≥ 2^−968, ρ0·λ ≤ Λ ≤ 2λ, λ ≤ B ≤ 353λ: each pair
    of conditions from the first-order inequality of [cond_pair_first_order] with the bucket width
    r0 ≤ e^(ρ0 − 10^−4) and two factors k1 ≥ r0/(r0 − 1 − 10^−12), k2 ≥ 1/(r0 − 1 − 10^−12); X must
    exceed three linear forms in β = B/λ, ρ = Λ/λ and τ = 2^−1074/λ ([two64_tail], [two64_inside],
    [two64_clamp]: an input outside a bucket, inside one, a clamped output).  [snap_binary64_two]
    states it; [snap_binary64_two_ab] in the form [snap64_constant ρ0 β0 a b] (SnapSeed64.v) when
    a·β + b exceeds the three forms at every β ≥ β0, ρ ≥ ρ0.  Corollaries: the seed's (12, 2) for
    Λ ≥ 1.9λ from B ≥ 1.5λ ([snap_binary64_seed_constant_two]) and Mironov's (16, 0) for Λ ≥ 1.9λ
    from B ≥ 1.1λ ([snap_binary64_mironov_constant_two]). *)
From Coq Require Import ZArith Reals Lra Lia QArith Qreals.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts ExpTaylor ExpBounds.
From Obligations.Noise Require Import Rounding Clamp.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapBinary64
  SnapThreshold SnapTight SnapTight64 SnapSeed64 SnapTwoSidedRatio SnapTwoSidedCond SnapTwoSidedDP.

Local Open Scope R_scope.

(** The three forms X must exceed (e = η, t = (1 + η)² − 1, err = 2η(β + ρ/2) + τ, the slack η²). *)
Definition two64_err (e beta rho tau : R) : R := 2 * e * (beta + rho / 2) + tau.
Definition two64_tmu (e : R) : R := (1 + e) * (1 + e) - 1.
Definition two64_tail (k1 k2 e beta rho tau : R) : R :=
  k1 * ((two64_tmu e * (2 * (2 * beta - rho / 2 + two64_err e beta rho tau)) + e * e + 2 * e) * (1 + / 1000000000)) +
  k2 * (two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e + 4 * e * (1 + / 1000000000)).
Definition two64_inside (k1 k2 e beta rho tau : R) : R :=
  k1 * ((two64_tmu e * (2 * beta + rho / 2 + rho + 3 * two64_err e beta rho tau) + e * e + 2 * e) * (1 + / 1000000000)) +
  k2 * (two64_tmu e * (2 * beta + rho / 2 + rho + 3 * two64_err e beta rho tau) + e * e + 4 * e * (1 + / 1000000000)).
Definition two64_clamp (e beta rho tau : R) : R :=
  two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e + 2 * e * (1 + / 1000000000).

Section Two64.

Variables (k1 k2 r0 rho0 lam grid B X : R).
Hypothesis Hlam : powerRZ 2 (-968) <= lam.
Hypothesis Hgrid : rho0 * lam <= grid <= 2 * lam.
Hypothesis Hrho0 : 1 <= rho0.
Hypothesis HB : lam <= B <= 353 * lam.
Hypothesis Hr0 : 1001 / 1000 < r0 <= exp (rho0 - / 10000).
Hypothesis Hk1 : r0 <= k1 * (r0 - 1 - / 1000000000000).
Hypothesis Hk2 : 1 <= k2 * (r0 - 1 - / 1000000000000).
Hypothesis HXt : two64_tail k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X.
Hypothesis HXi : two64_inside k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X.
Hypothesis HXc : two64_clamp (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X.

Let e := eta 53.
Let beta := B / lam.
Let rho := grid / lam.
Let tau := bpow radix2 (-1074) / lam.
Let sl := e * e * lam.
Let q := ustar_q 53.

Let He : e = / 9007199254740992.
Proof. exact eta_binary64. Qed.

Let Hlam0 : 0 < lam.
Proof. assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). lra. Qed.

Let Hgrid0 : 0 < grid.
Proof. assert (0 < rho0 * lam) by (apply Rmult_lt_0_compat; lra). lra. Qed.

Lemma two64_beta_range : 1 <= beta <= 353.
Proof. unfold beta. split; [apply div_le_iff; lra|apply div_le_iff_r; lra]. Qed.
Let Hbeta := two64_beta_range.

Lemma two64_rho_range : rho0 <= rho <= 2.
Proof. unfold rho. split; [apply div_le_iff; lra|apply div_le_iff_r; lra]. Qed.
Let Hrho := two64_rho_range.

Lemma two64_tau_small : 0 <= tau <= / 1267650600228229401496703205376.
Proof.
  unfold tau. assert (Hq : bpow radix2 (-968) <= lam) by (rewrite bpow_powerRZ; exact Hlam).
  assert (Hb := bpow_gt_0 radix2 (-968)). assert (Hb' := bpow_gt_0 radix2 (-1074)).
  split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|].
  apply Rle_trans with (bpow radix2 (-1074) / bpow radix2 (-968)).
  - unfold Rdiv. apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
  - replace (bpow radix2 (-1074)) with (bpow radix2 (-106) * bpow radix2 (-968))
      by (rewrite <- bpow_plus; reflexivity).
    replace (bpow radix2 (-106) * bpow radix2 (-968) / bpow radix2 (-968)) with (bpow radix2 (-106)) by (field; lra).
    apply Rle_trans with (bpow radix2 (-100)); [apply bpow_le; lia|].
    change (bpow radix2 (-100)) with (/ IZR (Z.pow_pos 2 100)).
    change (Z.pow_pos 2 100) with 1267650600228229401496703205376%Z. lra.
Qed.
Let Htau := two64_tau_small.

Let Hq : q = 1 - 2 * e.
Proof. reflexivity. Qed.

Let Ht : tight_mu 53 (eta 53) = two64_tmu e.
Proof. unfold tight_mu, two64_tmu. fold e. ring. Qed.

(** The distances in units of λ. *)
Lemma two64_err_units : two_err 53 (-1074) grid B / lam = two64_err e beta rho tau.
Proof. unfold two_err, two64_err, beta, rho, tau. fold e. field. lra. Qed.
Let Herr := two64_err_units.

Lemma two64_far_units : tight_D 53 (-1074) grid B / lam = 2 * beta + rho / 2 + two64_err e beta rho tau.
Proof. unfold tight_D, two64_err, beta, rho, tau. fold e. field. lra. Qed.
Let HD := two64_far_units.

Lemma two64_width_units : tight_W 53 (-1074) grid B / lam = rho - 2 * e * (2 * beta + rho) - 2 * tau.
Proof. unfold tight_W, beta, rho, tau. fold e. field. lra. Qed.
Let HW := two64_width_units.

Lemma two64_near_units : two_near 53 (-1074) grid B / lam = 2 * beta - rho / 2 + two64_err e beta rho tau.
Proof.
  unfold two_near. rewrite Rmax_left.
  - replace ((B + (B - grid / 2 + two_err 53 (-1074) grid B)) / lam)
      with (2 * beta - rho / 2 + two_err 53 (-1074) grid B / lam) by (unfold beta, rho; field; lra).
    rewrite Herr. reflexivity.
  - assert (0 <= two_err 53 (-1074) grid B).
    { unfold two_err. assert (0 < eta 53) by (fold e; rewrite He; lra).
      assert (Hb := bpow_gt_0 radix2 (-1074)). assert (0 <= 2 * eta 53 * (B + grid / 2)) by (apply Rmult_le_pos; lra). lra. }
    lra.
Qed.
Let Hnear := two64_near_units.

Lemma two64_in_units : two_in 53 (-1074) grid B / lam = 2 * beta + rho / 2 + rho + 3 * two64_err e beta rho tau.
Proof.
  unfold two_in. replace ((tight_D 53 (-1074) grid B + grid + 2 * two_err 53 (-1074) grid B) / lam)
    with (tight_D 53 (-1074) grid B / lam + rho + 2 * (two_err 53 (-1074) grid B / lam)) by (unfold rho; field; lra).
  rewrite HD, Herr. ring.
Qed.
Let Hin := two64_in_units.

Let He0 : 0 < e.
Proof. rewrite He. lra. Qed.

Let Htmu_expand : two64_tmu e = 2 * e + e * e.
Proof. unfold two64_tmu. ring. Qed.

Lemma two64_err_small : 0 <= two64_err e beta rho tau <= 2 * e * 354 + / 1267650600228229401496703205376.
Proof. unfold two64_err. rewrite He. lra. Qed.
Let Herr_small := two64_err_small.

(** The first-order facts at binary64's η, for small exponents. *)
Lemma two64_exp_over_q : forall u, 0 <= u <= / 10000000000 -> exp u / q <= 1 + (u + 2 * e) * (1 + / 1000000000).
Proof.
  intros u Hu. assert (Hx := exp_le_inv_one_minus u ltac:(lra)).
  assert (He' : e <= / 1000000000000000) by (rewrite He; lra).
  assert (Hq0 : 0 < q) by (rewrite Hq; lra).
  apply Rle_trans with (/ (1 - u) / q).
  { unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|exact Hx]. }
  assert (HP : 1 - (u + 2 * e) <= (1 - u) * q).
  { rewrite Hq. assert (0 <= u * e) by (apply Rmult_le_pos; lra).
    replace ((1 - u) * (1 - 2 * e)) with (1 - (u + 2 * e) + 2 * (u * e)) by ring. lra. }
  set (w := u + 2 * e) in *.
  assert (Hw : 0 <= w <= / 1000000000 / 2) by (unfold w; lra).
  assert (Hpos : 0 < (1 - u) * q) by (apply Rmult_lt_0_compat; lra).
  apply (Rmult_le_reg_r ((1 - u) * q)); [exact Hpos|].
  replace (/ (1 - u) / q * ((1 - u) * q)) with 1 by (field; lra).
  assert (A : (1 + w * (1 + / 1000000000)) * (1 - w) <= (1 + w * (1 + / 1000000000)) * ((1 - u) * q))
    by (apply Rmult_le_compat_l; lra).
  assert (Bw : w * w <= w * (/ 1000000000 / 2)) by (apply Rmult_le_compat_l; lra).
  assert (E : (1 + w * (1 + / 1000000000)) * (1 - w) = 1 + w * / 1000000000 - (w * w) * (1 + / 1000000000)) by ring.
  assert (0 <= w * w) by (apply Rmult_le_pos; lra).
  lra.
Qed.

Lemma two64_q_over_exp : forall u, 0 <= u <= / 10000000000 -> 1 - (u + 2 * e) * (1 + / 1000000000) <= q / exp u.
Proof.
  intros u Hu. assert (Hx := exp_ineq1_le (- u)). rewrite Hq. unfold Rdiv. rewrite <- exp_Ropp.
  assert (Hp : 0 < 1 - 2 * e) by (rewrite He; lra).
  assert ((1 - 2 * e) * (1 + - u) <= (1 - 2 * e) * exp (- u)) by (apply Rmult_le_compat_l; lra).
  assert (0 <= (u + 2 * e) / 1000000000) by (apply Rmult_le_pos; lra).
  assert (0 <= 2 * e * u) by (apply Rmult_le_pos; lra). lra.
Qed.

Lemma two64_inv_exp : forall v, 1 - v <= / exp v.
Proof. intros v. rewrite <- exp_Ropp. assert (H := exp_ineq1_le (- v)). lra. Qed.

Let c := 4 * e * (1 + / 1000000000).

Lemma two64_inv_q : / q <= 1 + c.
Proof.
  unfold c. rewrite Hq. apply (Rmult_le_reg_r (1 - 2 * e)); [rewrite He; lra|].
  rewrite Rinv_l by (rewrite He; lra). rewrite He. lra.
Qed.
Let inv_q := two64_inv_q.

Lemma two64_inv_q2 : / q <= 1 + 2 * e * (1 + / 1000000000).
Proof.
  rewrite Hq. apply (Rmult_le_reg_r (1 - 2 * e)); [rewrite He; lra|].
  rewrite Rinv_l by (rewrite He; lra). rewrite He. lra.
Qed.
Let inv_q2 := two64_inv_q2.

Lemma two64_inv_qq : / (q * q) <= 1 + c.
Proof.
  unfold c. rewrite Hq. apply (Rmult_le_reg_r ((1 - 2 * e) * (1 - 2 * e))); [rewrite He; nra|].
  rewrite Rinv_l by (rewrite He; nra). rewrite He. nra.
Qed.
Let inv_qq := two64_inv_qq.

(** The width bounds: r0 ≤ R0 and r0 ≤ R0i. *)
Lemma two64_r0_width : r0 <= two_R0 53 (-1074) (eta 53) grid B lam sl.
Proof.
  unfold two_R0. eapply Rle_trans; [apply Hr0|]. apply exp_le_iff.
  replace ((tight_W 53 (-1074) grid B - tight_mu 53 (eta 53) * (two_near 53 (-1074) grid B + tight_D 53 (-1074) grid B)
    - 2 * sl) / lam) with (tight_W 53 (-1074) grid B / lam -
      tight_mu 53 (eta 53) * (two_near 53 (-1074) grid B / lam + tight_D 53 (-1074) grid B / lam) - 2 * (e * e))
    by (unfold sl; field; lra).
  rewrite HW, Hnear, HD, Ht, Htmu_expand. pose proof Herr_small as Hes. pose proof Htau as Hts. rewrite He in *. lra.
Qed.
Let R0_ge := two64_r0_width.

Lemma two64_r0_width_in : r0 <= two_R0i 53 (-1074) (eta 53) grid B lam sl.
Proof.
  unfold two_R0i. eapply Rle_trans; [apply Hr0|]. apply exp_le_iff.
  replace ((tight_W 53 (-1074) grid B - tight_mu 53 (eta 53) * (grid + 2 * two_err 53 (-1074) grid B) - 2 * sl) / lam)
    with (tight_W 53 (-1074) grid B / lam - tight_mu 53 (eta 53) * (rho + 2 * (two_err 53 (-1074) grid B / lam))
      - 2 * (e * e)) by (unfold sl, rho; field; lra).
  rewrite HW, Herr, Ht, Htmu_expand. pose proof Herr_small as Hes. pose proof Htau as Hts. rewrite He in *. lra.
Qed.
Let R0i_ge := two64_r0_width_in.

Let HX1 : 1 + c < r0.
Proof. unfold c. rewrite He. lra. Qed.

(** One side's pair of conditions at (e^u, e^v, R) with R ≥ r0, from X. *)
Lemma two64_side : forall u v R, 0 <= u <= / 10000000000 -> 0 <= v -> r0 <= R ->
  k1 * ((u + 2 * e) * (1 + / 1000000000)) + k2 * (v + c) <= X ->
  cond_tail_low q (exp u) (exp v) R (exp X) /\ cond_point_lower q (exp u) (exp v) R (exp X).
Proof.
  intros u v R Hu Hv HR HXs.
  set (a := (u + 2 * e) * (1 + / 1000000000)).
  assert (Ha : 0 <= a) by (unfold a; apply Rmult_le_pos; lra).
  assert (Hc : 0 <= c) by (unfold c; rewrite He; lra).
  assert (Hc0 : c <= / 1000000000000) by (unfold c; rewrite He; lra).
  assert (Hq0 : 0 < q <= 1) by (rewrite Hq, He; lra).
  apply (cond_pair_first_order q (exp u) (exp v) R (exp X) a v c Hq0 (exp_pos _) (exp_pos _) Hc).
  - exact (two64_exp_over_q u Hu).
  - exact (two64_q_over_exp u Hu).
  - apply two64_inv_exp.
  - exact two64_inv_q.
  - exact two64_inv_qq.
  - lra.
  - apply Rlt_le, exp_pos.
  - (* 1 + (aR + v + c)/(R − 1 − c) ≤ 1 + (a r0 + v + c)/(r0 − 1 − c) ≤ 1 + k1 a + k2 (v + c) ≤ 1 + X ≤ e^X *)
    apply Rle_trans with (1 + X); [|apply exp_ineq1_le].
    apply Rplus_le_compat_l.
    eapply Rle_trans; [apply (first_order_anti a v c r0 R Ha Hv Hc); lra|].
    assert (Hden : 0 < r0 - 1 - / 1000000000000) by lra.
    apply Rle_trans with ((a * r0 + v + c) / (r0 - 1 - / 1000000000000)).
    + unfold Rdiv. apply Rmult_le_compat_l; [assert (0 <= a * r0) by (apply Rmult_le_pos; lra); lra|].
      apply Rinv_le_contravar; lra.
    + apply Rle_trans with (k1 * a + k2 * (v + c)); [|exact HXs].
      apply (Rmult_le_reg_r (r0 - 1 - / 1000000000000)); [exact Hden|].
      replace ((a * r0 + v + c) / (r0 - 1 - / 1000000000000) * (r0 - 1 - / 1000000000000)) with (a * r0 + (v + c))
        by (field; lra).
      replace ((k1 * a + k2 * (v + c)) * (r0 - 1 - / 1000000000000))
        with (a * (k1 * (r0 - 1 - / 1000000000000)) + (v + c) * (k2 * (r0 - 1 - / 1000000000000))) by ring.
      assert (a * r0 <= a * (k1 * (r0 - 1 - / 1000000000000))) by (apply Rmult_le_compat_l; lra).
      assert ((v + c) * 1 <= (v + c) * (k2 * (r0 - 1 - / 1000000000000))) by (apply Rmult_le_compat_l; lra).
      lra.
Qed.

Lemma two64_slack_units : sl / lam = e * e.
Proof. unfold sl. field. lra. Qed.
Let Hsl := two64_slack_units.

Lemma two64_u_near_units : (tight_mu 53 (eta 53) * (2 * two_near 53 (-1074) grid B) + sl) / lam =
  two64_tmu e * (2 * (2 * beta - rho / 2 + two64_err e beta rho tau)) + e * e.
Proof.
  replace ((tight_mu 53 (eta 53) * (2 * two_near 53 (-1074) grid B) + sl) / lam)
    with (tight_mu 53 (eta 53) * (2 * (two_near 53 (-1074) grid B / lam)) + sl / lam) by (field; lra).
  rewrite Hnear, Hsl, Ht. reflexivity.
Qed.
Let u_near_is := two64_u_near_units.

Lemma two64_v_far_units : (tight_mu 53 (eta 53) * (2 * tight_D 53 (-1074) grid B) + sl) / lam =
  two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e.
Proof.
  replace ((tight_mu 53 (eta 53) * (2 * tight_D 53 (-1074) grid B) + sl) / lam)
    with (tight_mu 53 (eta 53) * (2 * (tight_D 53 (-1074) grid B / lam)) + sl / lam) by (field; lra).
  rewrite HD, Hsl, Ht. reflexivity.
Qed.
Let v_far_is := two64_v_far_units.

Lemma two64_u_in_units : (tight_mu 53 (eta 53) * two_in 53 (-1074) grid B + sl) / lam =
  two64_tmu e * (2 * beta + rho / 2 + rho + 3 * two64_err e beta rho tau) + e * e.
Proof.
  replace ((tight_mu 53 (eta 53) * two_in 53 (-1074) grid B + sl) / lam)
    with (tight_mu 53 (eta 53) * (two_in 53 (-1074) grid B / lam) + sl / lam) by (field; lra).
  rewrite Hin, Hsl, Ht. reflexivity.
Qed.
Let u_in_is := two64_u_in_units.

Lemma two64_small : forall y, 0 <= y <= 2 * (2 * 353 + 1 + 3 * (2 * e * 354 + / 1267650600228229401496703205376)) ->
  0 <= two64_tmu e * y + e * e <= / 10000000000.
Proof.
  intros y Hy. rewrite Htmu_expand. assert (He' : e <= / 1000000000000000) by (rewrite He; lra).
  assert (0 <= e * e <= e * / 1000000000000000) by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; lra).
  assert (0 <= (2 * e + e * e) * y <= (2 * e + e * e) * 3000) by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; rewrite He in *; lra).
  rewrite He in *. lra.
Qed.

Lemma two64_u_near_small : 0 <= two64_tmu e * (2 * (2 * beta - rho / 2 + two64_err e beta rho tau)) + e * e <= / 10000000000.
Proof. apply two64_small. split; lra. Qed.
Let Hu_n := two64_u_near_small.

Lemma two64_v_far_small : 0 <= two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e <= / 10000000000.
Proof. apply two64_small. split; lra. Qed.
Let Hv_f := two64_v_far_small.

Lemma two64_u_in_small : 0 <= two64_tmu e * (2 * beta + rho / 2 + rho + 3 * two64_err e beta rho tau) + e * e <= / 10000000000.
Proof. apply two64_small. split; lra. Qed.
Let Hu_i := two64_u_in_small.

Lemma two64_outside_lower :
  cond_tail_low q (two_Pn 53 (-1074) (eta 53) grid B lam sl) (two_Pf 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_lower q (two_Pn 53 (-1074) (eta 53) grid B lam sl) (two_Pf 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X).
Proof using k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc.
  unfold two_Pn, two_Pf. rewrite u_near_is, v_far_is.
  apply two64_side; [exact two64_u_near_small|apply two64_v_far_small|exact two64_r0_width|]. unfold c. exact HXt.
Qed.

Lemma two64_outside_upper :
  cond_tail_high q (two_Pf 53 (-1074) (eta 53) grid B lam sl) (two_Pn 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_upper q (two_Pf 53 (-1074) (eta 53) grid B lam sl) (two_Pn 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X).
Proof using k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc.
  assert (Hq0 : 0 < q) by (rewrite Hq, He; lra).
  assert (HR : 0 < two_R0 53 (-1074) (eta 53) grid B lam sl) by (unfold two_R0; apply exp_pos).
  destruct two64_outside_lower as [B1 B2]. split.
  - apply cond_tail_high_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|exact B1].
  - apply cond_point_upper_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|exact B2].
Qed.

Lemma two64_inside_conds :
  cond_tail_low q (two_Pi 53 (-1074) (eta 53) grid B lam sl) (two_Pi 53 (-1074) (eta 53) grid B lam sl)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_lower q (two_Pi 53 (-1074) (eta 53) grid B lam sl) (two_Pi 53 (-1074) (eta 53) grid B lam sl)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_upper q (two_Pi 53 (-1074) (eta 53) grid B lam sl) (two_Pi 53 (-1074) (eta 53) grid B lam sl)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_tail_high q (two_Pi 53 (-1074) (eta 53) grid B lam sl) (two_Pi 53 (-1074) (eta 53) grid B lam sl)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X).
Proof using k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc.
  assert (Hq0 : 0 < q) by (rewrite Hq, He; lra).
  assert (HR : 0 < two_R0i 53 (-1074) (eta 53) grid B lam sl) by (unfold two_R0i; apply exp_pos).
  assert (Hp : 0 < two_Pi 53 (-1074) (eta 53) grid B lam sl) by (unfold two_Pi; apply exp_pos).
  assert (S : cond_tail_low q (two_Pi 53 (-1074) (eta 53) grid B lam sl) (two_Pi 53 (-1074) (eta 53) grid B lam sl)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
    cond_point_lower q (two_Pi 53 (-1074) (eta 53) grid B lam sl) (two_Pi 53 (-1074) (eta 53) grid B lam sl)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X)).
  { unfold two_Pi. rewrite u_in_is. apply two64_side; [exact two64_u_in_small|apply two64_u_in_small|exact two64_r0_width_in|]. unfold c. exact HXi. }
  destruct S as [S1 S2]. split; [exact S1|]. split; [exact S2|]. split.
  - apply cond_point_upper_swap; assumption.
  - apply cond_tail_high_swap; assumption.
Qed.

Lemma two64_clamped : two_Kc 53 (-1074) (eta 53) grid B lam sl (snap64_g grid B) <= exp X.
Proof using k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc.
  assert (Hg0 : 0 < grid) by (assert (0 < rho0 * lam) by (apply Rmult_lt_0_compat; lra); lra).
  destruct (snap64_g_ok grid B Hg0) as [G1 G2].
  assert (Hq0 : 0 < q) by (rewrite Hq, He; lra).
  unfold two_Kc. fold q.
  (* the clamp's distance is at most tight_D *)
  assert (Hcl : two_clamp 53 (-1074) grid B (snap64_g grid B) <= tight_D 53 (-1074) grid B).
  { unfold two_clamp, tight_D. unfold two_err.
    replace ((IZR (snap64_g grid B) - / 2) * grid) with ((IZR (snap64_g grid B) - 1) * grid + grid / 2) by field. lra. }
  assert (Hw : (tight_mu 53 (eta 53) * (2 * two_clamp 53 (-1074) grid B (snap64_g grid B)) + sl) / lam <=
    (tight_mu 53 (eta 53) * (2 * tight_D 53 (-1074) grid B) + sl) / lam).
  { unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|].
    assert (0 <= tight_mu 53 (eta 53)) by (apply tight_mu_nonneg; fold e; lra). apply Rplus_le_compat_r.
    apply Rmult_le_compat_l; lra. }
  rewrite v_far_is in Hw.
  set (c2 := 2 * e * (1 + / 1000000000)).
  apply Rle_trans with (exp (two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e) * (1 + c2)).
  - unfold Rdiv. apply Rmult_le_compat; [apply Rlt_le, exp_pos|apply Rlt_le, Rinv_0_lt_compat; lra| |exact two64_inv_q2].
    apply exp_le_iff. exact Hw.
  - apply Rle_trans with (exp (two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e) * exp c2).
    + apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|]. assert (H := exp_ineq1_le c2). lra.
    + rewrite <- exp_plus. apply exp_le_iff. unfold c2. exact HXc.
Qed.

Lemma two64_rest : 1 <= exp X /\
  / (q * q) < two_R0 53 (-1074) (eta 53) grid B lam sl /\
  / (q * q) < two_R0i 53 (-1074) (eta 53) grid B lam sl /\
  2 <= exp (tight_W 53 (-1074) grid B / lam) /\
  normal_min 53 (-1074) <= exp (- (tight_D 53 (-1074) grid B + tight_mu 53 (eta 53) * tight_D 53 (-1074) grid B + sl) / lam) /\
  0 < sl.
Proof using k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc.
  assert (HX0 : 0 <= X).
  { eapply Rle_trans; [|exact HXc]. unfold two64_clamp. fold e beta rho tau.
    assert (0 <= two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e) by apply two64_v_far_small.
    pose proof Herr_small as Hes. pose proof Htau as Hts. rewrite He in *. lra. }
  split; [apply exp_ge_1; exact HX0|].
  split; [eapply Rle_lt_trans; [exact two64_inv_qq|]; lra|].
  split; [eapply Rle_lt_trans; [exact two64_inv_qq|]; lra|].
  split.
  - assert (Hw : 9999 / 10000 <= tight_W 53 (-1074) grid B / lam) by (rewrite HW, He; lra).
    apply Rle_trans with (exp (9999 / 10000)); [assert (H := exp_09999_ge); lra|]. apply exp_le_iff. exact Hw.
  - split; [|unfold sl; apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra].
    replace (- (tight_D 53 (-1074) grid B + tight_mu 53 (eta 53) * tight_D 53 (-1074) grid B + sl) / lam)
      with (- (tight_D 53 (-1074) grid B / lam + tight_mu 53 (eta 53) * (tight_D 53 (-1074) grid B / lam) + sl / lam))
      by (field; lra).
    apply normal_min_le_exp. rewrite HD, Hsl, Ht, Htmu_expand. unfold two64_err. rewrite He. lra.
Qed.

End Two64.

(** For any r0 ≤ e^(ρ0 − 10^−4) and factors k1, k2 as above: with a correctly rounded log, every
    binary64 λ ≥ 2^−968, ρ0·λ ≤ Λ ≤ 2λ, λ ≤ B ≤ 353λ, every tie rule and all real inputs in [−B, B],
    every output's ratio is at most e^(|x − x′|/λ + X) for X above the three forms. *)
Theorem snap_binary64_two : forall (k1 k2 r0 rho0 : R) (choice : Z -> bool) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B X : R),
  1 <= rho0 -> 1001 / 1000 < r0 <= exp (rho0 - / 10000) ->
  r0 <= k1 * (r0 - 1 - / 1000000000000) -> 1 <= k2 * (r0 - 1 - / 1000000000000) ->
  uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> lam <= B <= 353 * lam ->
  two64_tail k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X ->
  two64_inside k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X ->
  two64_clamp (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + X) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros k1 k2 r0 rho0 choice pr t lam grid B X Hrho0 Hr0 Hk1 Hk2 Hpr Hlam Fl Hgrid HB HXt HXi HXc x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hg0 : 0 < grid) by (assert (0 < rho0 * lam) by (apply Rmult_lt_0_compat; lra); lra).
  destruct (two64_rest k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc)
    as (HK1 & HR0 & HR0i & HW2 & Hrange & Hsl).
  rewrite exp_plus.
  apply (float_snap_dp_two_correct 53 (-1074) eq_refl ltac:(lia) ltac:(lia) choice pr t grid B (snap64_g grid B)
           lam (exp X) (eta 53 * eta 53 * lam) Hpr); try assumption.
  all: first [ rewrite binary64_lam_bound; exact Hlam
             | exact (snap64_g_ok grid B Hg0)
             | exact (two64_outside_lower k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc)
             | exact (two64_outside_upper k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc)
             | exact (two64_inside_conds k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc)
             | exact (two64_clamped k1 k2 r0 rho0 lam grid B X Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HXt HXi HXc)
             | lra ].
Qed.

(** The three forms over η, with small numbers only (each within a factor 1 + 10^−6 of the form's
    first-order part): what a cell's corollary checks. *)
Definition two64_tail_lin (k1 k2 beta rho : R) : R :=
  (k1 * (8 * beta - 2 * rho + 2) + k2 * (8 * beta + 2 * rho + 4)) * (1 + / 1000000).
Definition two64_inside_lin (k1 k2 beta rho : R) : R :=
  (k1 * (4 * beta + 3 * rho + 2) + k2 * (4 * beta + 3 * rho + 4)) * (1 + / 1000000).
Definition two64_clamp_lin (beta rho : R) : R := (8 * beta + 2 * rho + 2) * (1 + / 1000000).

Lemma two64_parts : forall beta rho tau, 1 <= beta <= 353 -> 1 <= rho <= 2 -> 0 <= tau <= / 1267650600228229401496703205376 ->
  (two64_tmu (eta 53) * (2 * (2 * beta - rho / 2 + two64_err (eta 53) beta rho tau)) + eta 53 * eta 53 + 2 * eta 53)
    * (1 + / 1000000000) <= eta 53 * ((8 * beta - 2 * rho + 2) * (1 + / 1000000)) /\
  two64_tmu (eta 53) * (2 * (2 * beta + rho / 2 + two64_err (eta 53) beta rho tau)) + eta 53 * eta 53
    + 4 * eta 53 * (1 + / 1000000000) <= eta 53 * ((8 * beta + 2 * rho + 4) * (1 + / 1000000)) /\
  (two64_tmu (eta 53) * (2 * beta + rho / 2 + rho + 3 * two64_err (eta 53) beta rho tau) + eta 53 * eta 53 + 2 * eta 53)
    * (1 + / 1000000000) <= eta 53 * ((4 * beta + 3 * rho + 2) * (1 + / 1000000)) /\
  two64_tmu (eta 53) * (2 * beta + rho / 2 + rho + 3 * two64_err (eta 53) beta rho tau) + eta 53 * eta 53
    + 4 * eta 53 * (1 + / 1000000000) <= eta 53 * ((4 * beta + 3 * rho + 4) * (1 + / 1000000)) /\
  two64_clamp (eta 53) beta rho tau <= eta 53 * two64_clamp_lin beta rho.
Proof.
  intros beta rho tau Hb Hr Ht. unfold two64_clamp, two64_clamp_lin, two64_tmu, two64_err.
  rewrite eta_binary64. repeat split; lra.
Qed.

Lemma two64_forms_le : forall k1 k2 beta rho tau, 0 <= k1 -> 0 <= k2 ->
  1 <= beta <= 353 -> 1 <= rho <= 2 -> 0 <= tau <= / 1267650600228229401496703205376 ->
  two64_tail k1 k2 (eta 53) beta rho tau <= eta 53 * two64_tail_lin k1 k2 beta rho /\
  two64_inside k1 k2 (eta 53) beta rho tau <= eta 53 * two64_inside_lin k1 k2 beta rho /\
  two64_clamp (eta 53) beta rho tau <= eta 53 * two64_clamp_lin beta rho.
Proof.
  intros k1 k2 beta rho tau Hk1 Hk2 Hb Hr Ht.
  destruct (two64_parts beta rho tau Hb Hr Ht) as (P1 & P2 & P3 & P4 & P5).
  unfold two64_tail, two64_inside, two64_tail_lin, two64_inside_lin.
  split; [|split; [|exact P5]].
  - apply (Rmult_le_compat_l k1) in P1; [|exact Hk1]. apply (Rmult_le_compat_l k2) in P2; [|exact Hk2].
    replace (eta 53 * ((k1 * (8 * beta - 2 * rho + 2) + k2 * (8 * beta + 2 * rho + 4)) * (1 + / 1000000)))
      with (k1 * (eta 53 * ((8 * beta - 2 * rho + 2) * (1 + / 1000000))) +
            k2 * (eta 53 * ((8 * beta + 2 * rho + 4) * (1 + / 1000000)))) by ring.
    lra.
  - apply (Rmult_le_compat_l k1) in P3; [|exact Hk1]. apply (Rmult_le_compat_l k2) in P4; [|exact Hk2].
    replace (eta 53 * ((k1 * (4 * beta + 3 * rho + 2) + k2 * (4 * beta + 3 * rho + 4)) * (1 + / 1000000)))
      with (k1 * (eta 53 * ((4 * beta + 3 * rho + 2) * (1 + / 1000000))) +
            k2 * (eta 53 * ((4 * beta + 3 * rho + 4) * (1 + / 1000000)))) by ring.
    lra.
Qed.

(** The form of SnapSeed64.v's [snap64_constant]: a·η·β + b·η above the three forms for every
    β0 ≤ β ≤ 353, ρ0 ≤ ρ ≤ 2 and 0 ≤ τ ≤ 2^−100. *)
Theorem snap_binary64_two_ab : forall (k1 k2 r0 rho0 beta0 a b : R),
  1 <= rho0 -> 1 <= beta0 -> 1001 / 1000 < r0 <= exp (rho0 - / 10000) ->
  r0 <= k1 * (r0 - 1 - / 1000000000000) -> 1 <= k2 * (r0 - 1 - / 1000000000000) ->
  (forall beta rho, beta0 <= beta <= 353 -> rho0 <= rho <= 2 ->
    two64_tail_lin k1 k2 beta rho <= a * beta + b /\ two64_inside_lin k1 k2 beta rho <= a * beta + b /\
    two64_clamp_lin beta rho <= a * beta + b) ->
  snap64_constant rho0 beta0 a b.
Proof.
  intros k1 k2 r0 rho0 beta0 a b Hrho0 Hbeta0 Hr0 Hk1 Hk2 Hforms choice pr t lam grid B Hpr Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (HB1 : lam <= B <= 353 * lam).
  { split; [|lra]. apply Rle_trans with (beta0 * lam); [|lra]. rewrite <- (Rmult_1_l lam) at 1.
    apply Rmult_le_compat_r; lra. }
  assert (Htau : 0 <= bpow radix2 (-1074) / lam <= / 1267650600228229401496703205376).
  { assert (Hq : bpow radix2 (-968) <= lam) by (rewrite bpow_powerRZ; exact Hlam).
    assert (Hb := bpow_gt_0 radix2 (-968)). assert (Hb' := bpow_gt_0 radix2 (-1074)).
    split; [apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]|].
    apply Rle_trans with (bpow radix2 (-1074) / bpow radix2 (-968)).
    - unfold Rdiv. apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
    - replace (bpow radix2 (-1074)) with (bpow radix2 (-106) * bpow radix2 (-968))
        by (rewrite <- bpow_plus; reflexivity).
      replace (bpow radix2 (-106) * bpow radix2 (-968) / bpow radix2 (-968)) with (bpow radix2 (-106)) by (field; lra).
      apply Rle_trans with (bpow radix2 (-100)); [apply bpow_le; lia|].
      change (bpow radix2 (-100)) with (/ IZR (Z.pow_pos 2 100)).
      change (Z.pow_pos 2 100) with 1267650600228229401496703205376%Z. lra. }
  assert (Hb : beta0 <= B / lam <= 353) by (split; [apply div_le_iff|apply div_le_iff_r]; lra).
  assert (Hr : rho0 <= grid / lam <= 2) by (split; [apply div_le_iff|apply div_le_iff_r]; lra).
  assert (Hk10 : 0 <= k1).
  { destruct (Rle_or_lt 0 k1) as [|Hn]; [assumption|].
    assert (k1 * (r0 - 1 - / 1000000000000) < 0 * (r0 - 1 - / 1000000000000)) by (apply Rmult_lt_compat_r; lra). lra. }
  assert (Hk20 : 0 <= k2).
  { destruct (Rle_or_lt 0 k2) as [|Hn]; [assumption|].
    assert (k2 * (r0 - 1 - / 1000000000000) < 0 * (r0 - 1 - / 1000000000000)) by (apply Rmult_lt_compat_r; lra). lra. }
  destruct (Hforms (B / lam) (grid / lam) Hb Hr) as (L1 & L2 & L3).
  destruct (two64_forms_le k1 k2 (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) Hk10 Hk20
              ltac:(lra) ltac:(lra) Htau) as (G1 & G2 & G3).
  assert (He0 : 0 < eta 53) by (rewrite eta_binary64; lra).
  assert (Hab : eta 53 * (a * (B / lam) + b) = a * eta 53 * (B / lam) + b * eta 53) by ring.
  assert (F1 : two64_tail k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <=
    a * eta 53 * (B / lam) + b * eta 53).
  { rewrite <- Hab. eapply Rle_trans; [exact G1|]. apply Rmult_le_compat_l; lra. }
  assert (F2 : two64_inside k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <=
    a * eta 53 * (B / lam) + b * eta 53).
  { rewrite <- Hab. eapply Rle_trans; [exact G2|]. apply Rmult_le_compat_l; lra. }
  assert (F3 : two64_clamp (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <=
    a * eta 53 * (B / lam) + b * eta 53).
  { rewrite <- Hab. eapply Rle_trans; [exact G3|]. apply Rmult_le_compat_l; lra. }
  eapply Rle_trans.
  - exact (snap_binary64_two k1 k2 r0 rho0 choice pr t lam grid B (a * eta 53 * (B / lam) + b * eta 53)
             Hrho0 Hr0 Hk1 Hk2 Hpr Hlam Fl Hgrid HB1 F1 F2 F3 x x' out Hx Hx').
  - right. f_equal. f_equal. ring.
Qed.

(** A bucket-width bound from a lower bound of e^c, c = ρ0 − 10^−4. *)
Lemma two64_r0_of : forall rho0 r0 c, r0 <= exp c -> c = rho0 - / 10000 -> 1001 / 1000 < r0 ->
  1001 / 1000 < r0 <= exp (rho0 - / 10000).
Proof. intros rho0 r0 c H -> Hr. split; [exact Hr|exact H]. Qed.

(** One cell of the range form: its factors k1, k2, its width r0 ≤ e^c (the lemma [E]), and the
    linear forms checked by [lra] at the cell's (a, b). *)
Ltac two64_cell k1 k2 r0 E :=
  apply (snap_binary64_two_ab k1 k2 r0);
  [lra|lra|apply (two64_r0_of _ _ _ E); lra|lra|lra|
   intros ?beta ?rho ?Hb ?Hr; unfold two64_tail_lin, two64_inside_lin, two64_clamp_lin; repeat split; lra].

(** The seed's ε + 12·η·B/λ + 2·η for Λ ≥ 1.9λ from B ≥ 1.5λ (SnapSeed64.v's route: from 11λ);
    r0 = 6.685 ≤ e^1.8999, k1 = 1.176, k2 = 0.176. *)
Theorem snap_binary64_seed_constant_two : snap64_constant (19 / 10) (3 / 2) 12 2.
Proof. two64_cell (1176 / 1000) (176 / 1000) (6685 / 1000) exp_18999_ge. Qed.

(** Mironov's ε + 16·η·B/λ for Λ ≥ 1.9λ from B ≥ 1.1λ (SnapSeed64.v's route: from 3λ). *)
Theorem snap_binary64_mironov_constant_two : snap64_constant (19 / 10) (11 / 10) 16 0.
Proof. two64_cell (1176 / 1000) (176 / 1000) (6685 / 1000) exp_18999_ge. Qed.

Lemma exp_16199_ge : 5052 / 1000 <= exp (16199 / 10000).
Proof.
  replace (5052 / 1000) with (Q2R (5052 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (16199 # 10000)%Q 1%nat 8%nat.
Qed.

Lemma exp_11499_ge : 3157 / 1000 <= exp (11499 / 10000).
Proof.
  replace (3157 / 1000) with (Q2R (3157 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (11499 # 10000)%Q 1%nat 6%nat.
Qed.

(** The seed's (12, 2) for Λ ≥ 1.75λ from B ≥ 1.6λ (SnapSeed64.v: from 22λ). *)
Theorem snap_binary64_seed_constant_two_175 : snap64_constant (7 / 4) (16 / 10) 12 2.
Proof. two64_cell (2421 / 2000) (421 / 2000) (5754 / 1000) exp_17499_ge. Qed.

(** The seed's (12, 2) for Λ ≥ 1.65λ from B ≥ 1.7λ (SnapSeed64.v: from 75λ). *)
Theorem snap_binary64_seed_constant_two_165 : snap64_constant (33 / 20) (17 / 10) 12 2.
Proof. two64_cell (12379 / 10000) (2379 / 10000) (5206 / 1000) exp_16499_ge. Qed.

(** The seed's (12, 2) for Λ ≥ 1.62λ from B ≥ 1.8λ (the wide-grid route: from 305λ). *)
Theorem snap_binary64_seed_constant_two_162 : snap64_constant (81 / 50) (18 / 10) 12 2.
Proof. two64_cell (12469 / 10000) (2469 / 10000) (5052 / 1000) exp_16199_ge. Qed.

(** Mironov's (16, 0) for Λ ≥ 1.75λ from B ≥ 1.2λ. *)
Theorem snap_binary64_mironov_constant_two_175 : snap64_constant (7 / 4) (12 / 10) 16 0.
Proof. two64_cell (2421 / 2000) (421 / 2000) (5754 / 1000) exp_17499_ge. Qed.

(** Mironov's (16, 0) for Λ ≥ 1.5λ from B ≥ 1.4λ (SnapSeed64.v: from 6λ). *)
Theorem snap_binary64_mironov_constant_two_15 : snap64_constant (3 / 2) (14 / 10) 16 0.
Proof. two64_cell (6437 / 5000) (1437 / 5000) (4481 / 1000) exp_14999_ge. Qed.

(** Mironov's (16, 0) for Λ ≥ 1.2λ from B ≥ 2λ (SnapSeed64.v: from 19λ). *)
Theorem snap_binary64_mironov_constant_two_12 : snap64_constant (6 / 5) 2 16 0.
Proof. two64_cell (7157 / 5000) (2157 / 5000) (3319 / 1000) exp_11999_ge. Qed.

(** Mironov's (16, 0) for Λ ≥ 1.15λ from B ≥ 4.3λ (the generator's wide-grid cell: from 37λ). *)
Theorem snap_binary64_mironov_constant_two_115 : snap64_constant (23 / 20) (43 / 10) 16 0.
Proof. two64_cell (7319 / 5000) (2319 / 5000) (3157 / 1000) exp_11499_ge. Qed.

(** Mironov's (16, 0) for Λ ≥ 1.12λ from B ≥ 11.2λ (SnapSeed64.v: from 91λ). *)
Theorem snap_binary64_mironov_constant_two_112 : snap64_constant (28 / 25) (112 / 10) 16 0.
Proof. two64_cell (14849 / 10000) (4849 / 10000) (3063 / 1000) exp_11199_ge. Qed.

(** Mironov's (16, 0) for Λ ≥ 1.11λ from B ≥ 21.5λ (SnapSeed64.v: from 175λ). *)
Theorem snap_binary64_mironov_constant_two_111 : snap64_constant (111 / 100) (215 / 10) 16 0.
Proof. two64_cell (373 / 250) (123 / 250) (3033 / 1000) exp_11099_ge. Qed.
