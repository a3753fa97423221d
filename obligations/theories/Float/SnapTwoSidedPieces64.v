(** * The input inside a bucket piece by piece, in binary64, for all parameters of a range
    [float_snap_dp_two_split_correct] (SnapTwoSidedPieces.v) at precision 53, emin −1074, with
    K = e^X, n pieces, and its premises discharged for every binary64 λ ≥ 2^−968, ρ0·λ ≤ Λ ≤ 2λ,
    0 < B ≤ 353λ (no B ≥ λ: the clamp B ≤ Λ has g = 1, [pw64_clamp1], and an input outside a
    bucket has its near end within max(2B − Λ/2 + err, B), [pw64_tail]).  The first and the last
    piece need [two64_side]'s first-order pair ([pw64_pair]); the centre conditions, with
    L1 ≤ e^((ρ0 − 10^−4)/n) and R ≥ e^(ρ0 − 10^−4), 1/R^(j/n) ≤ 1/L1^j, R^(j/n)/R ≤ 1/L1^(n − j),
    need [cond_centre_first_order]'s linear inequality ([pw64_centre], [pw64_room]); the lower
    point of the piece j is the upper point of the piece n − j + 1 with the ends exchanged
    ([cond_mid_swap]).  [snap_binary64_two_split] states it, [snap_binary64_two_split_ab] as
    [snap64_constant ρ0 β0 a b] from linear forms over η; corollaries at n = 8. *)
From Coq Require Import ZArith Reals Lra Lia QArith Qreals.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts ExpTaylor ExpBounds.
From Obligations.Noise Require Import Rounding Clamp.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapBinary64
  SnapThreshold SnapTight SnapTight64 SnapSeed64 SnapTwoSidedRatio SnapTwoSidedCond SnapTwoSidedDP SnapTwoSided64
  SnapTwoSidedMid SnapTwoSidedPieces.

Local Open Scope R_scope.

(** A piece's displacement exponent in units of λ: [tight_D] and f of the widest bucket, the slack 2η². *)
Definition pw64_disp (e beta rho tau f : R) : R :=
  two64_tmu e * (2 * beta + rho / 2 + two64_err e beta rho tau + f * (rho + 2 * two64_err e beta rho tau))
    + 2 * (e * e).
(** An input outside a bucket, the near end's distance nd (in units of λ). *)
Definition pw64_tail (k1 k2 e nd beta rho tau : R) : R :=
  k1 * ((two64_tmu e * (2 * nd) + e * e + 2 * e) * (1 + / 1000000000)) +
  k2 * (two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e + 4 * e * (1 + / 1000000000)).
(** The first and the last piece. *)
Definition pw64_pair (k1 k2 e beta rho tau f : R) : R :=
  k1 * ((pw64_disp e beta rho tau f + 2 * e) * (1 + / 1000000000)) +
  k2 * (pw64_disp e beta rho tau 1 + 4 * e * (1 + / 1000000000)).
(** A centre condition: u·a + v·b + c·(a + b) ≤ X·(2 − (1 + c)(a + b)), c = 4η(1 + 10^−9). *)
Definition pw64_centre (e beta rho tau f g a b : R) : R :=
  pw64_disp e beta rho tau f * a + pw64_disp e beta rho tau g * b + 4 * e * (1 + / 1000000000) * (a + b).
Definition pw64_room (e a b : R) : R := 2 - (1 + 4 * e * (1 + / 1000000000)) * (a + b).
(** A clamp within one step (g = 1). *)
Definition pw64_clamp1 (e beta rho tau : R) : R :=
  two64_tmu e * (2 * (beta + rho / 2 + two64_err e beta rho tau)) + e * e + 2 * e * (1 + / 1000000000).

Section Pieces64.

Variables (n : nat) (k1 k2 r0 rho0 L1 lam grid B X : R).
Hypothesis Hn : (1 <= n)%nat.
Hypothesis Hlam : powerRZ 2 (-968) <= lam.
Hypothesis Hgrid : rho0 * lam <= grid <= 2 * lam.
Hypothesis Hrho0 : 1 <= rho0.
Hypothesis HB : 0 < B <= 353 * lam.
Hypothesis Hr0 : 1001 / 1000 < r0 <= exp (rho0 - / 10000).
Hypothesis Hk1 : r0 <= k1 * (r0 - 1 - / 1000000000000).
Hypothesis Hk2 : 1 <= k2 * (r0 - 1 - / 1000000000000).
Hypothesis HL1 : 1001 / 1000 <= L1 /\ L1 ^ n <= r0.
Hypothesis HXt : pw64_tail k1 k2 (eta 53)
  (Rmax (2 * (B / lam) - grid / lam / 2 + two64_err (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam)) (B / lam))
  (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X.
Hypothesis HXp : pw64_pair k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) (/ INR n) <= X.
Hypothesis HXm : forall j, (1 <= j < n)%nat ->
  pw64_centre (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) (INR j / INR n)
    ((INR n - INR j + 1) / INR n) (/ L1 ^ j) (/ L1 ^ (n - j)) <= X * pw64_room (eta 53) (/ L1 ^ j) (/ L1 ^ (n - j)).
Hypothesis HXc1 : B <= grid -> pw64_clamp1 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X.
Hypothesis HXc : grid <= B -> two64_clamp (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X.

Let e := eta 53.
Let beta := B / lam.
Let rho := grid / lam.
Let tau := bpow radix2 (-1074) / lam.
Let sl := e * e * lam.
Let q := ustar_q 53.
Let c := 4 * e * (1 + / 1000000000).
Let c0 := rho0 - / 10000.

Let He : e = / 9007199254740992.
Proof. exact eta_binary64. Qed.

Let Hlam0 : 0 < lam.
Proof. assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). lra. Qed.

Let Hgrid0 : 0 < grid.
Proof. assert (0 < rho0 * lam) by (apply Rmult_lt_0_compat; lra). lra. Qed.

Let Hbeta : 0 < beta <= 353.
Proof. unfold beta. split; [apply Rdiv_lt_0_compat; lra|apply div_le_iff_r; lra]. Qed.

Let Hrho : rho0 <= rho <= 2.
Proof. unfold rho. split; [apply div_le_iff|apply div_le_iff_r]; lra. Qed.

Let Htau : 0 <= tau <= / 1267650600228229401496703205376.
Proof. exact (two64_tau_small lam Hlam). Qed.

Let Hq : q = 1 - 2 * e.
Proof. reflexivity. Qed.

Let Ht : tight_mu 53 (eta 53) = two64_tmu e.
Proof. unfold tight_mu, two64_tmu. fold e. ring. Qed.

Let Herr : two_err 53 (-1074) grid B / lam = two64_err e beta rho tau.
Proof. exact (two64_err_units lam grid B Hlam). Qed.

Let HD : tight_D 53 (-1074) grid B / lam = 2 * beta + rho / 2 + two64_err e beta rho tau.
Proof. exact (two64_far_units lam grid B Hlam). Qed.

Let HW : tight_W 53 (-1074) grid B / lam = rho - 2 * e * (2 * beta + rho) - 2 * tau.
Proof. exact (two64_width_units lam grid B Hlam). Qed.

Let He0 : 0 < e.
Proof. rewrite He. lra. Qed.

Let Htmu_expand : two64_tmu e = 2 * e + e * e.
Proof. unfold two64_tmu. ring. Qed.

Let Herr_small : 0 <= two64_err e beta rho tau <= 2 * e * 354 + / 1267650600228229401496703205376.
Proof. unfold two64_err. rewrite He. lra. Qed.

Let Hsl : sl / lam = e * e.
Proof. unfold sl. field. lra. Qed.

Let Hc : 0 <= c <= / 1000000000000.
Proof. unfold c. rewrite He. lra. Qed.

Lemma pw64_x_nonneg : 0 <= X.
Proof.
  assert (H0 : 0 <= two64_tmu e * (2 * (beta + rho / 2 + two64_err e beta rho tau))).
  { rewrite Htmu_expand. apply Rmult_le_pos; [|lra]. assert (0 <= e * e) by (apply Rmult_le_pos; lra). lra. }
  assert (H1 : 0 <= two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau))).
  { rewrite Htmu_expand. apply Rmult_le_pos; [|lra]. assert (0 <= e * e) by (apply Rmult_le_pos; lra). lra. }
  assert (0 <= e * e) by (apply Rmult_le_pos; lra).
  destruct (Rle_or_lt B grid) as [Hb|Hb].
  - eapply Rle_trans; [|exact (HXc1 Hb)]. unfold pw64_clamp1. fold e beta rho tau. lra.
  - eapply Rle_trans; [|exact (HXc (Rlt_le _ _ Hb))]. unfold two64_clamp. fold e beta rho tau. lra.
Qed.

(** The exponents are small and nonnegative. *)
Lemma pw64_disp_small : forall f, 0 <= f <= 1 -> 0 <= pw64_disp e beta rho tau f <= / 10000000000.
Proof.
  intros f Hf. unfold pw64_disp. rewrite Htmu_expand.
  assert (He' : e <= / 1000000000000000) by (rewrite He; lra).
  set (y := 2 * beta + rho / 2 + two64_err e beta rho tau + f * (rho + 2 * two64_err e beta rho tau)).
  assert (Hy : 0 <= y <= 1000).
  { unfold y. assert (0 <= f * (rho + 2 * two64_err e beta rho tau) <= 1 * (rho + 2 * two64_err e beta rho tau))
      by (split; [apply Rmult_le_pos|apply Rmult_le_compat_r]; lra).
    rewrite He in *. lra. }
  assert (0 <= e * e <= e * / 1000000000000000) by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; lra).
  assert (0 <= (2 * e + e * e) * y <= (2 * e + e * e) * 1000) by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; lra).
  rewrite He in *. lra.
Qed.

Let Hn0 : 0 < INR n.
Proof. apply lt_0_INR. lia. Qed.

(** L1 ≤ e^((ρ0 − 10^−4)/n) from L1^n ≤ r0 ≤ e^(ρ0 − 10^−4). *)
Lemma pw64_root_le : 1001 / 1000 <= L1 <= exp (c0 / INR n).
Proof.
  split; [apply HL1|]. destruct HL1 as [H1 H2].
  assert (Hp : 0 < L1 ^ n) by (apply pow_lt; lra).
  assert (Hln : INR n * ln L1 <= c0).
  { rewrite <- ln_pow by lra. apply exp_le_iff. rewrite exp_ln by exact Hp. unfold c0. lra. }
  rewrite <- (exp_ln L1) by lra. apply exp_le_iff.
  apply (Rmult_le_reg_l (INR n)); [exact Hn0|]. replace (INR n * (c0 / INR n)) with c0 by (field; lra). exact Hln.
Qed.

(** The bounds of SnapTwoSidedDP.v and SnapTwoSidedPieces.v in units of λ. *)
Lemma pw64_pj_units : forall j, (tight_mu 53 (eta 53) * (tight_D 53 (-1074) grid B + INR j / INR n *
    (grid + 2 * two_err 53 (-1074) grid B)) + 2 * sl) / lam = pw64_disp e beta rho tau (INR j / INR n).
Proof.
  intros j. unfold pw64_disp. rewrite <- HD, <- Herr, Ht. unfold rho. rewrite <- Hsl. field. split; lra.
Qed.

Lemma pw64_qj_units : forall j, (tight_mu 53 (eta 53) * (tight_D 53 (-1074) grid B + (INR n - INR j + 1) / INR n *
    (grid + 2 * two_err 53 (-1074) grid B)) + 2 * sl) / lam = pw64_disp e beta rho tau ((INR n - INR j + 1) / INR n).
Proof.
  intros j. unfold pw64_disp. rewrite <- HD, <- Herr, Ht. unfold rho. rewrite <- Hsl. field. split; lra.
Qed.

Lemma pw64_near_units : two_near 53 (-1074) grid B / lam = Rmax (2 * beta - rho / 2 + two64_err e beta rho tau) beta.
Proof.
  unfold two_near. unfold Rmax at 1. destruct (Rle_dec (B - grid / 2 + two_err 53 (-1074) grid B) 0) as [H|H].
  - rewrite Rmax_right.
    + replace ((B + 0) / lam) with beta by (unfold beta; field; lra). reflexivity.
    + assert (2 * beta - rho / 2 + two64_err e beta rho tau <= beta); [|lra].
      rewrite <- Herr. unfold beta, rho. apply (Rmult_le_reg_r lam); [lra|].
      replace ((2 * (B / lam) - grid / lam / 2 + two_err 53 (-1074) grid B / lam) * lam)
        with (2 * B - grid / 2 + two_err 53 (-1074) grid B) by (field; lra).
      replace (B / lam * lam) with B by (field; lra). lra.
  - rewrite Rmax_left.
    + rewrite <- Herr. unfold beta, rho. field. lra.
    + assert (beta <= 2 * beta - rho / 2 + two64_err e beta rho tau); [|lra].
      rewrite <- Herr. unfold beta, rho. apply (Rmult_le_reg_r lam); [lra|].
      replace ((2 * (B / lam) - grid / lam / 2 + two_err 53 (-1074) grid B / lam) * lam)
        with (2 * B - grid / 2 + two_err 53 (-1074) grid B) by (field; lra).
      replace (B / lam * lam) with B by (field; lra). lra.
Qed.

Lemma pw64_near_bounds : 0 <= Rmax (2 * beta - rho / 2 + two64_err e beta rho tau) beta <= 2 * beta + two64_err e beta rho tau.
Proof.
  split; [apply Rle_trans with beta; [lra|apply Rmax_r]|].
  apply Rmax_lub; lra.
Qed.

(** The narrowed widths: r0 ≤ e^(ρ0 − 10^−4) ≤ R0, R0i. *)
Lemma pw64_width_in : exp c0 <= two_R0i 53 (-1074) (eta 53) grid B lam sl.
Proof.
  unfold two_R0i, c0. apply exp_le_iff.
  replace ((tight_W 53 (-1074) grid B - tight_mu 53 (eta 53) * (grid + 2 * two_err 53 (-1074) grid B) - 2 * sl) / lam)
    with (tight_W 53 (-1074) grid B / lam - tight_mu 53 (eta 53) * (rho + 2 * (two_err 53 (-1074) grid B / lam))
      - 2 * (e * e)) by (unfold sl, rho; field; lra).
  rewrite HW, Herr, Ht, Htmu_expand. pose proof Herr_small as Hes. pose proof Htau as Hts. rewrite He in *. lra.
Qed.

Lemma pw64_width_out : r0 <= two_R0 53 (-1074) (eta 53) grid B lam sl.
Proof.
  unfold two_R0. eapply Rle_trans; [apply Hr0|]. apply exp_le_iff.
  replace ((tight_W 53 (-1074) grid B - tight_mu 53 (eta 53) * (two_near 53 (-1074) grid B + tight_D 53 (-1074) grid B)
    - 2 * sl) / lam) with (tight_W 53 (-1074) grid B / lam -
      tight_mu 53 (eta 53) * (two_near 53 (-1074) grid B / lam + tight_D 53 (-1074) grid B / lam) - 2 * (e * e))
    by (unfold sl; field; lra).
  rewrite HW, pw64_near_units, HD, Ht, Htmu_expand. pose proof pw64_near_bounds as Hnr.
  pose proof Herr_small as Hes. pose proof Htau as Hts.
  set (m := Rmax (2 * beta - rho / 2 + two64_err e beta rho tau) beta) in *.
  assert (0 <= (2 * e + e * e) * (m + (2 * beta + rho / 2 + two64_err e beta rho tau)) <=
    (2 * e + e * e) * 2000) by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; rewrite He in *; lra).
  rewrite He in *. lra.
Qed.

Lemma pw64_r0_le_in : r0 <= two_R0i 53 (-1074) (eta 53) grid B lam sl.
Proof. eapply Rle_trans; [apply Hr0|]. exact pw64_width_in. Qed.

Let Hq0 : 0 < q.
Proof. rewrite Hq, He. lra. Qed.

(** An input outside a bucket. *)
Lemma pw64_outside_lower :
  cond_tail_low q (two_Pn 53 (-1074) (eta 53) grid B lam sl) (two_Pf 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_lower q (two_Pn 53 (-1074) (eta 53) grid B lam sl) (two_Pf 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X).
Proof using n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc.
  unfold two_Pn, two_Pf.
  replace ((tight_mu 53 (eta 53) * (2 * two_near 53 (-1074) grid B) + sl) / lam)
    with (two64_tmu e * (2 * Rmax (2 * beta - rho / 2 + two64_err e beta rho tau) beta) + e * e)
    by (rewrite <- pw64_near_units, <- Hsl, <- Ht; field; lra).
  replace ((tight_mu 53 (eta 53) * (2 * tight_D 53 (-1074) grid B) + sl) / lam)
    with (two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e)
    by (rewrite <- HD, <- Hsl, <- Ht; field; lra).
  pose proof pw64_near_bounds as Hnr.
  apply (two64_side k1 k2 r0 rho0 X Hr0 Hk1 Hk2).
  - rewrite Htmu_expand. set (m := Rmax (2 * beta - rho / 2 + two64_err e beta rho tau) beta) in *.
    assert (He' : e <= / 1000000000000000) by (rewrite He; lra).
    assert (0 <= e * e <= e * / 1000000000000000) by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; lra).
    assert (0 <= (2 * e + e * e) * (2 * m) <= (2 * e + e * e) * 1500)
      by (split; [apply Rmult_le_pos|apply Rmult_le_compat_l]; pose proof Herr_small; rewrite He in *; lra).
    rewrite He in *. lra.
  - rewrite Htmu_expand. assert (0 <= e * e) by (apply Rmult_le_pos; lra).
    assert (0 <= (2 * e + e * e) * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)))
      by (apply Rmult_le_pos; pose proof Herr_small; lra). lra.
  - exact pw64_width_out.
  - unfold pw64_tail in HXt. fold e beta rho tau in HXt. exact HXt.
Qed.

Lemma pw64_outside_upper :
  cond_tail_high q (two_Pf 53 (-1074) (eta 53) grid B lam sl) (two_Pn 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_upper q (two_Pf 53 (-1074) (eta 53) grid B lam sl) (two_Pn 53 (-1074) (eta 53) grid B lam sl)
    (two_R0 53 (-1074) (eta 53) grid B lam sl) (exp X).
Proof using n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc.
  assert (HR : 0 < two_R0 53 (-1074) (eta 53) grid B lam sl) by (unfold two_R0; apply exp_pos).
  destruct pw64_outside_lower as [B1 B2]. split.
  - apply cond_tail_high_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|exact B1].
  - apply cond_point_upper_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|exact B2].
Qed.

(** The first piece's pair (and, exchanged, the last one's). *)
Lemma pw64_pair_conds : cond_tail_low q (exp (pw64_disp e beta rho tau (/ INR n))) (exp (pw64_disp e beta rho tau 1))
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) /\
  cond_point_lower q (exp (pw64_disp e beta rho tau (/ INR n))) (exp (pw64_disp e beta rho tau 1))
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X).
Proof.
  assert (Hf : 0 <= / INR n <= 1).
  { split; [apply Rlt_le, Rinv_0_lt_compat; lra|]. rewrite <- Rinv_1. apply Rinv_le_contravar; [lra|].
    replace 1 with (INR 1) by reflexivity. apply le_INR. lia. }
  apply (two64_side k1 k2 r0 rho0 X Hr0 Hk1 Hk2).
  - exact (pw64_disp_small _ Hf).
  - apply (pw64_disp_small 1). lra.
  - exact pw64_r0_le_in.
  - unfold pw64_pair in HXp. fold e beta rho tau in HXp. exact HXp.
Qed.

(** The centre condition at the upper point of the piece j < n. *)
Lemma pw64_centre_conds : forall j, (1 <= j < n)%nat ->
  cond_mid q (exp (pw64_disp e beta rho tau (INR j / INR n))) (exp (pw64_disp e beta rho tau ((INR n - INR j + 1) / INR n)))
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) (INR j / INR n).
Proof.
  intros j Hj.
  assert (Hj1 : 1 <= INR j) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  assert (Hjn : INR j + 1 <= INR n) by (rewrite <- S_INR; apply le_INR; lia).
  assert (Hf : 0 <= INR j / INR n <= 1) by (split; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]|apply div_le1; lra]).
  assert (Hg : 0 <= (INR n - INR j + 1) / INR n <= 1)
    by (split; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]|apply div_le1; lra]).
  assert (Hu := pw64_disp_small _ Hf). assert (Hv := pw64_disp_small _ Hg).
  assert (HL : 1 <= L1) by (destruct HL1; lra).
  set (pu := exp (pw64_disp e beta rho tau (INR j / INR n))).
  set (pv := exp (pw64_disp e beta rho tau ((INR n - INR j + 1) / INR n))).
  assert (Hpu : 1 <= pu <= pu) by (unfold pu; split; [apply exp_ge_1; lra|lra]).
  assert (Hpv : 1 <= pv <= pv) by (unfold pv; split; [apply exp_ge_1; lra|lra]).
  apply (cond_mid_mono q pu pv _ pu pv (exp c0) (exp X) _ ltac:(rewrite Hq; lra) Hpu Hpv
           (conj (exp_pos _) pw64_width_in) ltac:(apply exp_ge_1; exact pw64_x_nonneg) Hf).
  unfold pu, pv.
  unfold cond_mid. rewrite ln_exp.
  set (y := c0 / INR n).
  assert (Ey : INR j / INR n * c0 = INR j * y) by (unfold y; field; lra).
  assert (HLy : L1 <= exp y) by (unfold y; apply pw64_root_le).
  assert (Hpow : forall m, L1 ^ m <= exp (INR m * y)).
  { intros m. rewrite exp_nat_mul. apply pow_incr. lra. }
  assert (HLpos : forall m, 0 < L1 ^ m) by (intros m; apply pow_lt; lra).
  assert (HLj : / L1 ^ j <= / L1) by (apply Rinv_le_contravar; [lra|]; rewrite <- (pow_1 L1) at 1; apply Rle_pow; [lra|lia]).
  assert (HLnj : / L1 ^ (n - j) <= / L1)
    by (apply Rinv_le_contravar; [lra|]; rewrite <- (pow_1 L1) at 1; apply Rle_pow; [lra|lia]).
  assert (HL1i : / L1 <= 1000 / 1001) by (replace (1000 / 1001) with (/ (1001 / 1000)) by field; apply Rinv_le_contravar; lra).
  apply (cond_centre_first_order q _ _ _ _ _ (/ L1 ^ j) (/ L1 ^ (n - j))
           (pw64_disp e beta rho tau (INR j / INR n)) (pw64_disp e beta rho tau ((INR n - INR j + 1) / INR n)) c X).
  - exact Hq0.
  - apply exp_pos.
  - apply exp_pos.
  - apply exp_pos.
  - apply exp_pos.
  - rewrite Ey. apply Rinv_le_contravar; [apply HLpos|apply Hpow].
  - rewrite Ey. unfold Rdiv. rewrite <- exp_Ropp, <- exp_plus.
    replace (INR j * y + - c0) with (- (INR (n - j) * y)) by (rewrite minus_INR by lia; unfold y; field; lra).
    rewrite exp_Ropp. apply Rinv_le_contravar; [apply HLpos|apply Hpow].
  - apply two64_inv_exp.
  - apply two64_inv_exp.
  - exact two64_inv_q.
  - lra.
  - lra.
  - lra.
  - exact pw64_x_nonneg.
  - assert (/ L1 ^ j + / L1 ^ (n - j) <= 2 * (1000 / 1001)) by lra.
    assert ((1 + c) * (/ L1 ^ j + / L1 ^ (n - j)) <= (1 + c) * (2 * (1000 / 1001))) by (apply Rmult_le_compat_l; lra).
    lra.
  - apply exp_ineq1_le.
  - assert (H := HXm j Hj). unfold pw64_centre, pw64_room in H. fold e beta rho tau c in H. exact H.
Qed.

Lemma pw64_pj_exp : forall j, two_Pj 53 (-1074) (eta 53) grid B lam sl n j = exp (pw64_disp e beta rho tau (INR j / INR n)).
Proof. intros j. unfold two_Pj. rewrite pw64_pj_units. reflexivity. Qed.

Lemma pw64_qj_exp : forall j, two_Qj 53 (-1074) (eta 53) grid B lam sl n j =
  exp (pw64_disp e beta rho tau ((INR n - INR j + 1) / INR n)).
Proof. intros j. unfold two_Qj. rewrite pw64_qj_units. reflexivity. Qed.

Lemma pw64_pieces : forall j, (1 <= j <= n)%nat ->
  two_piece q (two_Pj 53 (-1074) (eta 53) grid B lam sl n j) (two_Qj 53 (-1074) (eta 53) grid B lam sl n j)
    (two_R0i 53 (-1074) (eta 53) grid B lam sl) (exp X) n j.
Proof using n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc.
  intros j Hj. rewrite pw64_pj_exp, pw64_qj_exp.
  assert (HR : 0 < two_R0i 53 (-1074) (eta 53) grid B lam sl) by (unfold two_R0i; apply exp_pos).
  unfold two_piece. split; [|split; [|split]].
  - intros ->. replace (INR 1 / INR n) with (/ INR n) by (cbn [INR]; field; lra).
    replace ((INR n - INR 1 + 1) / INR n) with 1 by (cbn [INR]; field; lra). exact pw64_pair_conds.
  - intros J. set (j' := (n - j + 1)%nat).
    assert (Hj' : (1 <= j' < n)%nat) by (unfold j'; lia).
    assert (Ej' : INR j' = INR n - INR j + 1) by (unfold j'; rewrite plus_INR, minus_INR by lia; cbn [INR]; ring).
    apply cond_mid_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|].
    assert (C := pw64_centre_conds j' Hj'). rewrite Ej' in C.
    replace ((INR n - (INR n - INR j + 1) + 1) / INR n) with (INR j / INR n) in C by (field; lra).
    replace (1 - (INR j - 1) / INR n) with ((INR n - INR j + 1) / INR n) by (field; lra). exact C.
  - intros J. apply pw64_centre_conds. lia.
  - intros ->. replace (INR n / INR n) with 1 by (field; lra).
    replace ((INR n - INR n + 1) / INR n) with (/ INR n) by (field; lra).
    destruct pw64_pair_conds as [P1 P2]. split.
    + apply cond_point_upper_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|exact P2].
    + apply cond_tail_high_swap; [exact Hq0|apply exp_pos|apply exp_pos|exact HR|exact P1].
Qed.

(** The clamped outputs. *)
Lemma pw64_clamped : two_Kc 53 (-1074) (eta 53) grid B lam sl (snap64_g grid B) <= exp X.
Proof using n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc.
  destruct (snap64_g_ok grid B Hgrid0) as [G1 G2].
  unfold two_Kc. fold q.
  set (c2 := 2 * e * (1 + / 1000000000)).
  (* the clamp's distance: B + Λ/2 + err when g = 1, at most tight_D otherwise *)
  assert (Hy : exists y, (tight_mu 53 (eta 53) * (2 * two_clamp 53 (-1074) grid B (snap64_g grid B)) + sl) / lam <= y /\
    y + c2 <= X).
  { assert (Htm : 0 <= tight_mu 53 (eta 53)) by (apply tight_mu_nonneg; fold e; lra).
    destruct (Rle_or_lt B grid) as [Hb|Hb].
    - exists (two64_tmu e * (2 * (beta + rho / 2 + two64_err e beta rho tau)) + e * e). split.
      + assert (Hg1 : IZR (snap64_g grid B) = 1).
        { assert (HgL : 0 < IZR (snap64_g grid B)).
          { destruct (Rle_lt_dec (IZR (snap64_g grid B)) 0) as [Hn'|Hp]; [|exact Hp].
            assert (IZR (snap64_g grid B) * grid <= 0 * grid) by (apply Rmult_le_compat_r; lra). lra. }
          assert (HgU : IZR (snap64_g grid B) < 2).
          { destruct (Rlt_le_dec (IZR (snap64_g grid B)) 2) as [Hl|Hl]; [exact Hl|].
            assert (1 * grid <= (IZR (snap64_g grid B) - 1) * grid) by (apply Rmult_le_compat_r; lra). lra. }
          apply lt_IZR in HgL. apply lt_IZR in HgU. replace (snap64_g grid B) with 1%Z by lia. reflexivity. }
        unfold two_clamp. rewrite Hg1. right. rewrite <- Herr, <- Hsl, <- Ht. unfold beta, rho. field. lra.
      + assert (H := HXc1 Hb). unfold pw64_clamp1 in H. fold e beta rho tau in H. unfold c2. lra.
    - exists (two64_tmu e * (2 * (2 * beta + rho / 2 + two64_err e beta rho tau)) + e * e). split.
      + assert (Hcl : two_clamp 53 (-1074) grid B (snap64_g grid B) <= tight_D 53 (-1074) grid B).
        { unfold two_clamp, tight_D. unfold two_err.
          replace ((IZR (snap64_g grid B) - / 2) * grid) with ((IZR (snap64_g grid B) - 1) * grid + grid / 2) by field. lra. }
        rewrite <- HD, <- Hsl, <- Ht.
        replace (tight_mu 53 (eta 53) * (2 * (tight_D 53 (-1074) grid B / lam)) + sl / lam)
          with ((tight_mu 53 (eta 53) * (2 * tight_D 53 (-1074) grid B) + sl) / lam) by (field; lra).
        unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|].
        apply Rplus_le_compat_r. apply Rmult_le_compat_l; lra.
      + assert (H := HXc (Rlt_le _ _ Hb)). unfold two64_clamp in H. fold e beta rho tau in H. unfold c2. lra. }
  destruct Hy as (y & Hy1 & Hy2).
  apply Rle_trans with (exp y * (1 + c2)).
  - unfold Rdiv. apply Rmult_le_compat; [apply Rlt_le, exp_pos|apply Rlt_le, Rinv_0_lt_compat; lra| |exact two64_inv_q2].
    apply exp_le_iff. exact Hy1.
  - apply Rle_trans with (exp y * exp c2).
    + apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|]. assert (H := exp_ineq1_le c2). lra.
    + rewrite <- exp_plus. apply exp_le_iff. exact Hy2.
Qed.

Lemma pw64_rest : 1 <= exp X /\ tight_mu 53 (eta 53) <= / 2 /\
  / q <= exp (ln (two_R0i 53 (-1074) (eta 53) grid B lam sl) / INR n) /\
  / (q * q) < two_R0 53 (-1074) (eta 53) grid B lam sl /\
  / (q * q) < two_R0i 53 (-1074) (eta 53) grid B lam sl /\
  2 <= exp (tight_W 53 (-1074) grid B / lam) /\
  normal_min 53 (-1074) <= exp (- (tight_D 53 (-1074) grid B + tight_mu 53 (eta 53) * tight_D 53 (-1074) grid B + sl) / lam) /\
  0 < sl.
Proof using n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc.
  split; [apply exp_ge_1; exact pw64_x_nonneg|].
  split; [rewrite Ht, Htmu_expand, He; lra|].
  split.
  { apply Rle_trans with L1; [eapply Rle_trans; [exact two64_inv_q|]; rewrite eta_binary64; lra|].
    eapply Rle_trans; [apply pw64_root_le|]. apply exp_le_iff. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|].
    rewrite <- (ln_exp c0). apply exp_le_iff. rewrite !exp_ln; [exact pw64_width_in|apply exp_pos|].
    assert (0 < exp c0) by apply exp_pos. lra. }
  split; [eapply Rle_lt_trans; [exact two64_inv_qq|]; pose proof pw64_width_out; pose proof Hr0; pose proof eta_binary64; lra|].
  split; [eapply Rle_lt_trans; [exact two64_inv_qq|]; pose proof pw64_r0_le_in; pose proof Hr0; pose proof eta_binary64; lra|].
  split.
  - assert (Hw : 9999 / 10000 <= tight_W 53 (-1074) grid B / lam) by (rewrite HW, He; lra).
    apply Rle_trans with (exp (9999 / 10000)); [assert (H := exp_09999_ge); lra|]. apply exp_le_iff. exact Hw.
  - split; [|unfold sl; apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra].
    replace (- (tight_D 53 (-1074) grid B + tight_mu 53 (eta 53) * tight_D 53 (-1074) grid B + sl) / lam)
      with (- (tight_D 53 (-1074) grid B / lam + tight_mu 53 (eta 53) * (tight_D 53 (-1074) grid B / lam) + sl / lam))
      by (field; lra).
    apply normal_min_le_exp. rewrite HD, Hsl, Ht, Htmu_expand. unfold two64_err. rewrite He. lra.
Qed.

End Pieces64.

(** For n ≥ 1 pieces, L1 ≤ e^((ρ0 − 10^−4)/n) and r0, k1, k2 as in SnapTwoSided64.v: with a correctly
    rounded log, every binary64 λ ≥ 2^−968, ρ0·λ ≤ Λ ≤ 2λ, 0 < B ≤ 353λ, every tie rule and all real
    inputs in [−B, B], every output's ratio is at most e^(|x − x′|/λ + X) for X above the forms. *)
Theorem snap_binary64_two_split : forall (n : nat) (k1 k2 r0 rho0 L1 : R) (choice : Z -> bool)
  (pr : (R -> Prop) -> R) (t : tie) (lam grid B X : R),
  (1 <= n)%nat -> 1 <= rho0 -> 1001 / 1000 < r0 <= exp (rho0 - / 10000) ->
  r0 <= k1 * (r0 - 1 - / 1000000000000) -> 1 <= k2 * (r0 - 1 - / 1000000000000) ->
  1001 / 1000 <= L1 -> L1 ^ n <= r0 ->
  uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  pw64_tail k1 k2 (eta 53)
    (Rmax (2 * (B / lam) - grid / lam / 2 + two64_err (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam)) (B / lam))
    (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X ->
  pw64_pair k1 k2 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) (/ INR n) <= X ->
  (forall j, (1 <= j < n)%nat ->
    pw64_centre (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) (INR j / INR n)
      ((INR n - INR j + 1) / INR n) (/ L1 ^ j) (/ L1 ^ (n - j)) <= X * pw64_room (eta 53) (/ L1 ^ j) (/ L1 ^ (n - j))) ->
  (B <= grid -> pw64_clamp1 (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X) ->
  (grid <= B -> two64_clamp (eta 53) (B / lam) (grid / lam) (bpow radix2 (-1074) / lam) <= X) ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + X) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros n k1 k2 r0 rho0 L1 choice pr t lam grid B X Hn Hrho0 Hr0 Hk1 Hk2 HL1a HL1b Hpr Hlam Fl Hgrid HB
    HXt HXp HXm HXc1 HXc x x' out Hx Hx'.
  assert (HL1 : 1001 / 1000 <= L1 /\ L1 ^ n <= r0) by (split; assumption).
  assert (Hg0 : 0 < grid) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra);
    assert (0 < rho0 * lam) by (apply Rmult_lt_0_compat; lra); lra).
  destruct (pw64_rest n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc)
    as (HK1 & Hmu2 & HRn & HR0 & HR0i & HW2 & Hrange & Hsl).
  rewrite exp_plus.
  apply (float_snap_dp_two_split_correct 53 (-1074) eq_refl ltac:(lia) ltac:(lia) choice pr t grid B (snap64_g grid B)
           lam (exp X) (eta 53 * eta 53 * lam) n Hpr); try assumption.
  all: first [ rewrite binary64_lam_bound; exact Hlam
             | exact (snap64_g_ok grid B Hg0)
             | exact (pw64_outside_lower n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc)
             | exact (pw64_outside_upper n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc)
             | exact (pw64_clamped n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc)
             | exact (pw64_pieces n k1 k2 r0 rho0 L1 lam grid B X Hn Hlam Hgrid Hrho0 HB Hr0 Hk1 Hk2 HL1 HXt HXp HXm HXc1 HXc)
             | lra ].
Qed.

(** The forms over η, with small numbers only (each within a factor 1 + 10^−6 of its first-order
    part): what a cell's corollary checks.  nd is the near end's distance (2β − ρ/2 or β), f the
    first piece's fraction 1/n; a centre condition at the fractions f, g with the factors a, b. *)
Definition pw64_tail_lin (k1 k2 nd beta rho : R) : R :=
  (k1 * (4 * nd + 2) + k2 * (8 * beta + 2 * rho + 4)) * (1 + / 1000000).
Definition pw64_pair_lin (k1 k2 beta rho f : R) : R :=
  (k1 * (4 * beta + rho + 2 * f * rho + 2) + k2 * (4 * beta + 3 * rho + 4)) * (1 + / 1000000).
Definition pw64_centre_lin (beta rho f g a b : R) : R :=
  (a * (4 * beta + rho + 2 * f * rho) + b * (4 * beta + rho + 2 * g * rho)) * (1 + / 1000000) + 4 * (1 + / 100000000) * (a + b).
Definition pw64_room_lin (a b : R) : R := 2 - (1 + / 1000000000000) * (a + b).
Definition pw64_clamp1_lin (beta rho : R) : R := (4 * beta + 2 * rho + 2) * (1 + / 1000000).

Lemma pw64_disp_le : forall beta rho tau f, 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 -> 0 <= f <= 1 ->
  pw64_disp (eta 53) beta rho tau f <= eta 53 * ((4 * beta + rho + 2 * f * rho) * (1 + / 1000000)).
Proof.
  intros beta rho tau f Hb Hr Ht Hf. unfold pw64_disp, two64_tmu, two64_err. rewrite eta_binary64.
  assert (0 <= f * beta <= beta) by (split; [apply Rmult_le_pos|rewrite <- (Rmult_1_l beta) at 2; apply Rmult_le_compat_r]; lra).
  assert (0 <= f * tau <= tau) by (split; [apply Rmult_le_pos|rewrite <- (Rmult_1_l tau) at 2; apply Rmult_le_compat_r]; lra).
  assert (0 <= f * rho <= rho) by (split; [apply Rmult_le_pos|rewrite <- (Rmult_1_l rho) at 2; apply Rmult_le_compat_r]; lra).
  lra.
Qed.

Lemma pw64_near_part : forall nd nd0, - / 10000000000000 <= nd0 -> 0 <= nd <= nd0 + / 10000000000000 ->
  nd <= 1000 ->
  (two64_tmu (eta 53) * (2 * nd) + eta 53 * eta 53 + 2 * eta 53) * (1 + / 1000000000) <=
    eta 53 * ((4 * nd0 + 2) * (1 + / 1000000)).
Proof. intros nd nd0 H0 H1 H2. unfold two64_tmu. rewrite eta_binary64. lra. Qed.

Lemma pw64_far_part : forall beta rho tau, 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 ->
  two64_tmu (eta 53) * (2 * (2 * beta + rho / 2 + two64_err (eta 53) beta rho tau)) + eta 53 * eta 53
    + 4 * eta 53 * (1 + / 1000000000) <= eta 53 * ((8 * beta + 2 * rho + 4) * (1 + / 1000000)).
Proof. intros beta rho tau Hb Hr Ht. unfold two64_tmu, two64_err. rewrite eta_binary64. lra. Qed.

Lemma pw64_err_small : forall beta rho tau, 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 -> 0 <= two64_err (eta 53) beta rho tau <= / 10000000000000.
Proof. intros beta rho tau Hb Hr Ht. unfold two64_err. rewrite eta_binary64. lra. Qed.

Lemma pw64_tail_le : forall k1 k2 beta rho tau, 0 <= k1 -> 0 <= k2 -> 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 ->
  pw64_tail k1 k2 (eta 53) (Rmax (2 * beta - rho / 2 + two64_err (eta 53) beta rho tau) beta) beta rho tau <=
    eta 53 * Rmax (pw64_tail_lin k1 k2 (2 * beta - rho / 2) beta rho) (pw64_tail_lin k1 k2 beta beta rho).
Proof.
  intros k1 k2 beta rho tau Hk1 Hk2 Hb Hr Ht.
  assert (Hf := pw64_far_part beta rho tau Hb Hr Ht). assert (He := pw64_err_small beta rho tau Hb Hr Ht).
  apply (Rmult_le_compat_l k2) in Hf; [|exact Hk2].
  assert (He0 : 0 < eta 53) by (rewrite eta_binary64; lra).
  set (nd := Rmax (2 * beta - rho / 2 + two64_err (eta 53) beta rho tau) beta).
  set (nd0 := Rmax (2 * beta - rho / 2) beta).
  assert (Hnd : nd0 <= nd <= nd0 + / 10000000000000 /\ beta <= nd0 <= 2 * beta).
  { unfold nd, nd0, Rmax. destruct (Rle_dec (2 * beta - rho / 2 + two64_err (eta 53) beta rho tau) beta);
      destruct (Rle_dec (2 * beta - rho / 2) beta); lra. }
  assert (Hn := pw64_near_part nd nd0 ltac:(lra) ltac:(lra) ltac:(lra)).
  apply (Rmult_le_compat_l k1) in Hn; [|exact Hk1].
  assert (Hlin : pw64_tail_lin k1 k2 nd0 beta rho <=
    Rmax (pw64_tail_lin k1 k2 (2 * beta - rho / 2) beta rho) (pw64_tail_lin k1 k2 beta beta rho)).
  { unfold nd0, Rmax at 1. destruct (Rle_dec (2 * beta - rho / 2) beta); [apply Rmax_r|apply Rmax_l]. }
  apply Rle_trans with (eta 53 * pw64_tail_lin k1 k2 nd0 beta rho); [|apply Rmult_le_compat_l; lra].
  unfold pw64_tail, pw64_tail_lin.
  replace (eta 53 * ((k1 * (4 * nd0 + 2) + k2 * (8 * beta + 2 * rho + 4)) * (1 + / 1000000)))
    with (k1 * (eta 53 * ((4 * nd0 + 2) * (1 + / 1000000))) + k2 * (eta 53 * ((8 * beta + 2 * rho + 4) * (1 + / 1000000))))
    by ring.
  lra.
Qed.

Lemma pw64_pair_le : forall k1 k2 beta rho tau f, 0 <= k1 -> 0 <= k2 -> 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 -> 0 <= f <= 1 ->
  pw64_pair k1 k2 (eta 53) beta rho tau f <= eta 53 * pw64_pair_lin k1 k2 beta rho f.
Proof.
  intros k1 k2 beta rho tau f Hk1 Hk2 Hb Hr Ht Hf.
  assert (U1 := pw64_disp_le beta rho tau f Hb Hr Ht Hf).
  assert (U2 := pw64_disp_le beta rho tau 1 Hb Hr Ht ltac:(lra)).
  assert (He := eta_binary64).
  assert (0 <= f * rho <= 2) by (split; [apply Rmult_le_pos|replace 2 with (1 * 2) by ring; apply Rmult_le_compat]; lra).
  assert (A1 : (pw64_disp (eta 53) beta rho tau f + 2 * eta 53) * (1 + / 1000000000) <=
    eta 53 * ((4 * beta + rho + 2 * f * rho + 2) * (1 + / 1000000))) by (rewrite He in *; lra).
  assert (A2 : pw64_disp (eta 53) beta rho tau 1 + 4 * eta 53 * (1 + / 1000000000) <=
    eta 53 * ((4 * beta + 3 * rho + 4) * (1 + / 1000000))) by (rewrite He in *; lra).
  apply (Rmult_le_compat_l k1) in A1; [|exact Hk1]. apply (Rmult_le_compat_l k2) in A2; [|exact Hk2].
  unfold pw64_pair, pw64_pair_lin.
  replace (eta 53 * ((k1 * (4 * beta + rho + 2 * f * rho + 2) + k2 * (4 * beta + 3 * rho + 4)) * (1 + / 1000000)))
    with (k1 * (eta 53 * ((4 * beta + rho + 2 * f * rho + 2) * (1 + / 1000000))) +
          k2 * (eta 53 * ((4 * beta + 3 * rho + 4) * (1 + / 1000000)))) by ring.
  lra.
Qed.

Lemma pw64_centre_le : forall beta rho tau f g a b, 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 -> 0 <= f <= 1 -> 0 <= g <= 1 -> 0 <= a -> 0 <= b ->
  pw64_centre (eta 53) beta rho tau f g a b <= eta 53 * pw64_centre_lin beta rho f g a b /\
  pw64_room_lin a b <= pw64_room (eta 53) a b.
Proof.
  intros beta rho tau f g a b Hb Hr Ht Hf Hg Ha Hbb.
  assert (U1 := pw64_disp_le beta rho tau f Hb Hr Ht Hf). assert (U2 := pw64_disp_le beta rho tau g Hb Hr Ht Hg).
  apply (Rmult_le_compat_r a) in U1; [|exact Ha]. apply (Rmult_le_compat_r b) in U2; [|exact Hbb].
  assert (He := eta_binary64).
  unfold pw64_centre, pw64_centre_lin, pw64_room, pw64_room_lin. rewrite He in *. split; lra.
Qed.

Lemma pw64_clamp1_le : forall beta rho tau, 0 <= beta <= 353 -> 1 <= rho <= 2 ->
  0 <= tau <= / 1267650600228229401496703205376 ->
  pw64_clamp1 (eta 53) beta rho tau <= eta 53 * pw64_clamp1_lin beta rho.
Proof. intros beta rho tau Hb Hr Ht. unfold pw64_clamp1, pw64_clamp1_lin, two64_tmu, two64_err. rewrite eta_binary64. lra. Qed.

(** The [_ab] form: a·η·β + b·η above the linear forms for every β0 ≤ β ≤ 353, ρ0 ≤ ρ ≤ 2. *)
Theorem snap_binary64_two_split_ab : forall (n : nat) (k1 k2 r0 rho0 L1 beta0 a b : R),
  (1 <= n)%nat -> 1 <= rho0 -> 0 < beta0 -> 1001 / 1000 < r0 <= exp (rho0 - / 10000) ->
  r0 <= k1 * (r0 - 1 - / 1000000000000) -> 1 <= k2 * (r0 - 1 - / 1000000000000) ->
  1001 / 1000 <= L1 -> L1 ^ n <= r0 ->
  (forall beta rho, beta0 <= beta <= 353 -> rho0 <= rho <= 2 ->
    pw64_tail_lin k1 k2 (2 * beta - rho / 2) beta rho <= a * beta + b /\
    pw64_tail_lin k1 k2 beta beta rho <= a * beta + b /\
    pw64_pair_lin k1 k2 beta rho (/ INR n) <= a * beta + b /\
    (beta <= rho -> pw64_clamp1_lin beta rho <= a * beta + b) /\
    (rho <= beta -> two64_clamp_lin beta rho <= a * beta + b) /\
    (forall j, (1 <= j < n)%nat ->
      pw64_centre_lin beta rho (INR j / INR n) ((INR n - INR j + 1) / INR n) (/ L1 ^ j) (/ L1 ^ (n - j)) <=
        (a * beta + b) * pw64_room_lin (/ L1 ^ j) (/ L1 ^ (n - j)))) ->
  snap64_constant rho0 beta0 a b.
Proof.
  intros n k1 k2 r0 rho0 L1 beta0 a b Hn Hrho0 Hbeta0 Hr0 Hk1 Hk2 HL1a HL1b Hforms choice pr t lam grid B Hpr Hlam Fl Hgrid HB
    x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (HB1 : 0 < B <= 353 * lam) by (split; [|lra]; assert (0 < beta0 * lam) by (apply Rmult_lt_0_compat; lra); lra).
  assert (Htau := two64_tau_small lam Hlam).
  set (beta := B / lam). set (rho := grid / lam). set (tau := bpow radix2 (-1074) / lam).
  assert (Hb : beta0 <= beta <= 353) by (unfold beta; split; [apply div_le_iff|apply div_le_iff_r]; lra).
  assert (Hr : rho0 <= rho <= 2) by (unfold rho; split; [apply div_le_iff|apply div_le_iff_r]; lra).
  assert (Hk10 : 0 <= k1).
  { destruct (Rle_or_lt 0 k1) as [|Hn']; [assumption|].
    assert (k1 * (r0 - 1 - / 1000000000000) < 0 * (r0 - 1 - / 1000000000000)) by (apply Rmult_lt_compat_r; lra). lra. }
  assert (Hk20 : 0 <= k2).
  { destruct (Rle_or_lt 0 k2) as [|Hn']; [assumption|].
    assert (k2 * (r0 - 1 - / 1000000000000) < 0 * (r0 - 1 - / 1000000000000)) by (apply Rmult_lt_compat_r; lra). lra. }
  destruct (Hforms beta rho Hb Hr) as (L1t & L2t & L3 & L4 & L5 & L6).
  assert (He := eta_binary64).
  assert (He0 : 0 < eta 53) by (rewrite He; lra).
  set (X := a * eta 53 * beta + b * eta 53).
  assert (HXe : X = eta 53 * (a * beta + b)) by (unfold X; ring).
  assert (Hn0 : 0 < INR n) by (apply lt_0_INR; lia).
  assert (Hfn : 0 <= / INR n <= 1).
  { split; [apply Rlt_le, Rinv_0_lt_compat; lra|]. rewrite <- Rinv_1. apply Rinv_le_contravar; [lra|].
    replace 1 with (INR 1) by reflexivity. apply le_INR. lia. }
  assert (Hab0 : 0 <= a * beta + b).
  { destruct (Rle_or_lt beta rho) as [H|H].
    - assert (H' := L4 H). unfold pw64_clamp1_lin in H'. lra.
    - assert (H' := L5 (Rlt_le _ _ H)). unfold two64_clamp_lin in H'. lra. }
  assert (Hrho1 : 1 <= rho <= 2) by lra.
  assert (Hb0 : 0 <= beta <= 353) by lra.
  assert (pw64_x_nonneg : 0 <= X) by (rewrite HXe; apply Rmult_le_pos; lra).
  assert (Hmul : forall y z, y <= z -> eta 53 * y <= eta 53 * z) by (intros y z H; apply Rmult_le_compat_l; lra).
  eapply Rle_trans.
  - apply (snap_binary64_two_split n k1 k2 r0 rho0 L1 choice pr t lam grid B X Hn Hrho0 Hr0 Hk1 Hk2 HL1a HL1b Hpr Hlam Fl
             Hgrid HB1); fold beta rho tau.
    + eapply Rle_trans; [apply (pw64_tail_le k1 k2 beta rho tau); assumption|].
      rewrite HXe. apply Hmul. apply Rmax_lub; assumption.
    + eapply Rle_trans; [apply (pw64_pair_le k1 k2 beta rho tau); assumption|]. rewrite HXe. apply Hmul. exact L3.
    + intros j Hj.
      assert (Hj1 : 1 <= INR j) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
      assert (Hjn : INR j + 1 <= INR n) by (rewrite <- S_INR; apply le_INR; lia).
      assert (Hf : 0 <= INR j / INR n <= 1)
        by (split; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]|apply div_le1; lra]).
      assert (Hg : 0 <= (INR n - INR j + 1) / INR n <= 1)
        by (split; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]|apply div_le1; lra]).
      assert (Ha : 0 <= / L1 ^ j) by (apply Rlt_le, Rinv_0_lt_compat, pow_lt; lra).
      assert (Hb' : 0 <= / L1 ^ (n - j)) by (apply Rlt_le, Rinv_0_lt_compat, pow_lt; lra).
      destruct (pw64_centre_le beta rho tau _ _ _ _ Hb0 Hrho1 Htau Hf Hg Ha Hb') as [C1 C2].
      eapply Rle_trans; [exact C1|].
      apply Rle_trans with (X * pw64_room_lin (/ L1 ^ j) (/ L1 ^ (n - j))); [|apply Rmult_le_compat_l; lra].
      rewrite HXe, Rmult_assoc. apply Hmul. exact (L6 j Hj).
    + intros Hbg. assert (Hbr : beta <= rho) by (unfold beta, rho; apply div_mono; lra).
      eapply Rle_trans; [apply (pw64_clamp1_le beta rho tau); assumption|]. rewrite HXe. apply Hmul. exact (L4 Hbr).
    + intros Hbg. assert (Hbr : rho <= beta) by (unfold beta, rho; apply div_mono; lra).
      destruct (two64_parts beta rho tau ltac:(lra) ltac:(lra) Htau) as (_ & _ & _ & _ & P5).
      eapply Rle_trans; [exact P5|]. rewrite HXe. apply Hmul. exact (L5 Hbr).
    + exact Hx.
    + exact Hx'.
  - right. unfold X, beta. f_equal. f_equal. ring.
Qed.


(** ** Cells at n = 8 *)

(** One cell at n = 8: the factors k1, k2, the width r0 ≤ e^c (the lemma [E]), L1 with L1^8 ≤ r0,
    and the linear forms checked by [lra] at the cell's (a, b), the seven centre conditions one by one. *)
Ltac pw64_cell8 k1 k2 r0 E L1 :=
  apply (snap_binary64_two_split_ab 8 k1 k2 r0 _ L1);
  [lia|lra|lra|apply (two64_r0_of _ _ _ E); lra|lra|lra|lra|lra|];
  intros ?beta ?rho ?Hb ?Hr;
  unfold pw64_tail_lin, pw64_pair_lin, pw64_clamp1_lin, two64_clamp_lin, pw64_centre_lin, pw64_room_lin;
  split; [lra|split; [lra|split; [cbn [INR]; lra|split; [intros; lra|split; [intros; lra|]]]]];
  let j := fresh "j" in let Hj := fresh "Hj" in
  intros j Hj; do 8 (destruct j as [|j]; [first [exfalso; lia|cbn [INR pow Nat.sub]; lra]|]); exfalso; lia.

(** The seed's ε + 12·η·B/λ + 2·η for Λ ≥ 1.9λ from B ≥ 0.8λ (SnapTwoSided64.v: from 1.5λ). *)
Theorem snap_binary64_seed_constant_two_pw : snap64_constant (19 / 10) (4 / 5) 12 2.
Proof. pw64_cell8 (1176 / 1000) (176 / 1000) (6685 / 1000) exp_18999_ge (1268 / 1000). Qed.

(** Mironov's ε + 16·η·B/λ for Λ ≥ 1.9λ from B ≥ 0.7λ (SnapTwoSided64.v: from 1.1λ). *)
Theorem snap_binary64_mironov_constant_two_pw : snap64_constant (19 / 10) (7 / 10) 16 0.
Proof. pw64_cell8 (1176 / 1000) (176 / 1000) (6685 / 1000) exp_18999_ge (1268 / 1000). Qed.
