(** * Binary snapping in binary64 with the sum's rounding as a threshold, for all parameters
    [float_snap_dp_tight_log] (SnapTight.v) at precision 53, emin −1074, with δ and g
    chosen here and its premises discharged for every binary64 λ ≥ 2^−968, every Λ with
    λ ≤ Λ ≤ 2λ and every B with 0 < B ≤ 353λ, and a logarithm within a relative
    mu ≤ m·η (0 ≤ m ≤ 2^22) on the floats of (0, 1): for all real inputs |x|, |x′| ≤ B
    and every output, Pr[out | x] ≤ e^(|x − x′|/λ + (9 + 9m)·η·B/λ + (18 + 5m)·η)·Pr[out | x′]
    ([snap_binary64_dp_tight]).  A correctly rounded log (m = 1): 18·η·B/λ + 23·η
    ([snap_binary64_dp_tight_correct]); a log within k ulps: (10 + 18k)·η·B/λ + (19 + 10k)·η
    ([snap_binary64_dp_tight_ulps]).  No [pipeline_ok] and no [uprob]-free step: the
    hypotheses are the sampler's ([uprob pr]) and the logarithm's error.
    The route is SnapBinary64.v's: K − 1 ≤ 2.165·s, s = 2δ/λ + 4η, e^(W/λ) ≥ e^0.9999 ≥ 2.718;
    here δ = tight_mu·tight_D + η·λ, tight_mu = (1+η)(1+mu) − 1, tight_D = 2B + Λ/2 + ...,
    so s ≈ 4(1 + m)η·B/λ + (1 + m)η·Λ/λ + 6η. *)
From Coq Require Import ZArith Reals Lra Lia QArith Qreals.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts ExpTaylor ExpBounds.
From Obligations.Noise Require Import Rounding Clamp.
From Obligations.Float Require Import RelError SnapOuter UStarMeasure SnapOutput SnapInterior SnapRatio
  SnapFloatDP SnapPipeline SnapBinary64 SnapThreshold SnapTight.

Local Open Scope R_scope.

Lemma exp_09999_ge : 2718 / 1000 <= exp (9999 / 10000).
Proof.
  replace (2718 / 1000) with (Q2R (2718 # 1000)) by (unfold Q2R; cbn [Qnum Qden]; lra).
  exp_taylor_lower (9999 # 10000)%Q 1%nat 12%nat.
Qed.

Lemma tiny_binary64 : bpow radix2 (-1074) = powerRZ 2 (-1074).
Proof. rewrite bpow_powerRZ. reflexivity. Qed.

(** K ≤ 1 + c·s for E² ≤ 1/(1 − s), s small and any r with 1.0002·(r + 1) ≤ c·(r − 1.0002):
    [snap64_K_step] with the bucket-width factor (r + 1)/(r − 1) left as a parameter. *)
Lemma ratio_K_step_c : forall F r s c, 1 <= F -> F * (1 - s) <= 1 -> 0 <= s <= / 10000 ->
  10002 / 10000 < r -> 10002 / 10000 * (r + 1) <= c * (r - 10002 / 10000) ->
  (F * r - 1) / (r - F) <= 1 + c * s.
Proof.
  intros F r s c H1 Hs Hs0 Hr Hc.
  assert (HF : F <= 10002 / 10000) by nra.
  assert (Hrf : 0 < r - F) by lra.
  assert (Hc0 : 0 <= c) by nra.
  apply (Rmult_le_reg_r (r - F)); [exact Hrf|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  assert (A : (F - 1) * (r + 1) <= s * F * (r + 1)) by nra.
  assert (B : F * (r + 1) <= c * (r - F)).
  { assert (F * (r + 1) <= 10002 / 10000 * (r + 1)) by (apply Rmult_le_compat_r; lra).
    assert (c * (r - 10002 / 10000) <= c * (r - F)) by (apply Rmult_le_compat_l; lra). lra. }
  assert (C : s * (F * (r + 1)) <= s * (c * (r - F))) by (apply Rmult_le_compat_l; lra).
  nra.
Qed.

(** δ one η·λ above the noise's displacement of a threshold. *)
Definition tight64_delta (mu lam grid B : R) : R :=
  tight_mu 53 mu * tight_D 53 (-1074) grid B + eta 53 * lam.

(** The closed form's constants, for a logarithm within a relative m·η. *)
Definition tight64_a (m : R) : R := 9 + 9 * m.
Definition tight64_b (m : R) : R := 18 + 5 * m.

Section Closed.

Variables (mu m lam grid B : R).
Hypothesis Hmu : 0 <= mu.
Hypothesis Hm : mu <= m * eta 53.
Hypothesis Hmmax : m <= 2 ^ 22.
Hypothesis Hlam : powerRZ 2 (-968) <= lam.
Hypothesis Hgrid : lam <= grid <= 2 * lam.
Hypothesis HB : 0 < B <= 353 * lam.

Let e := eta 53.
Let d := tight64_delta mu lam grid B / lam.
Let beta := B / lam.
Let rho := grid / lam.
Let tau := bpow radix2 (-1074) / lam.

Let He : e = / 9007199254740992.
Proof. exact eta_binary64. Qed.

Let Hlam0 : 0 < lam.
Proof. assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). lra. Qed.

Let Hbeta : 0 < beta <= 353.
Proof. unfold beta. split; [apply Rdiv_lt_0_compat; lra|]. apply div_le_iff_r; lra. Qed.

Let Hrho : 1 <= rho <= 2.
Proof. unfold rho. split; [apply div_le_iff; lra|apply div_le_iff_r; lra]. Qed.

Let Htau : 0 <= tau <= / 1267650600228229401496703205376.
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

Let Hm0 : 0 <= m.
Proof. assert (0 < e) by (rewrite He; lra). fold e in Hm. nra. Qed.

(** The noise's relative error, linear in mu at binary64's η. *)
Let HM : tight_mu 53 mu <= e + (1 + e) * (m * e).
Proof.
  unfold tight_mu. fold e. assert (0 < e) by (rewrite He; lra). fold e in Hm.
  assert ((1 + e) * mu <= (1 + e) * (m * e)) by (apply Rmult_le_compat_l; lra). nra.
Qed.

Let HD_eq : tight_D 53 (-1074) grid B / lam = 2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau.
Proof. unfold tight_D, beta, rho, tau. fold e. field. lra. Qed.

Let Hd_eq : d = tight_mu 53 mu * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau) + e.
Proof. unfold d, tight64_delta. rewrite <- HD_eq. fold e. field. lra. Qed.

Let Hmb : 0 <= m * beta <= 2 ^ 22 * 353.
Proof. split; [apply Rmult_le_pos; lra|]. apply Rmult_le_compat; lra. Qed.

Let Hmr : m * 1 <= m * rho <= m * 2.
Proof. split; apply Rmult_le_compat_l; lra. Qed.

Let Hmt : 0 <= m * tau <= 2 ^ 22 * / 1267650600228229401496703205376.
Proof. split; [apply Rmult_le_pos; lra|]. apply Rmult_le_compat; lra. Qed.

(** s = 2δ/λ + 4η, bounded linearly in β, ρ, τ and m·β, m·ρ, m·τ. *)
Let Hs_lin : 2 * d + 4 * e <= 2 * (e + (1 + e) * e * m) * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau)
  + 6 * e.
Proof.
  rewrite Hd_eq. assert (0 < e) by (rewrite He; lra).
  assert (0 <= e * (beta + rho / 2)) by (apply Rmult_le_pos; lra).
  assert (0 <= 2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau) by lra.
  assert (tight_mu 53 mu * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau) <=
    (e + (1 + e) * (m * e)) * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau))
    by (apply Rmult_le_compat_r; [lra|exact HM]).
  lra.
Qed.

Let Hs_expand : 2 * (e + (1 + e) * e * m) * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau) + 6 * e =
  2 * e * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau) +
  2 * (1 + e) * e * (2 * (m * beta) + (m * rho) / 2 + 2 * e * ((m * beta) + (m * rho) / 2) + (m * tau)) + 6 * e.
Proof. field. Qed.

Let Hd0 : 0 <= d.
Proof.
  rewrite Hd_eq. assert (0 < e) by (rewrite He; lra). assert (Hn := tight_mu_nonneg 53 mu Hmu).
  assert (0 <= e * (beta + rho / 2)) by (apply Rmult_le_pos; lra).
  assert (0 <= tight_mu 53 mu * (2 * beta + rho / 2 + 2 * e * (beta + rho / 2) + tau))
    by (apply Rmult_le_pos; lra).
  lra.
Qed.

Let Hs_small : 2 * d + 4 * e <= / 10000.
Proof. eapply Rle_trans; [exact Hs_lin|]. rewrite Hs_expand, He. lra. Qed.

Let HW : 9999 / 10000 <= tight_W 53 (-1074) grid B / lam.
Proof.
  replace (tight_W 53 (-1074) grid B / lam) with (rho - 2 * e * (2 * beta + rho) - 2 * tau)
    by (unfold tight_W, rho, beta, tau; fold e; field; lra).
  rewrite He. lra.
Qed.

Let Hr : 2718 / 1000 <= exp (tight_W 53 (-1074) grid B / lam).
Proof. eapply Rle_trans; [exact exp_09999_ge|]. apply exp_le_iff. exact HW. Qed.

Lemma tight64_K_le : tight_K 53 (-1074) lam grid B (tight64_delta mu lam grid B) <=
  1 + tight64_a m * eta 53 * (B / lam) + tight64_b m * eta 53.
Proof.
  unfold tight_K, ratio_E. fold e.
  set (s := 2 * d + 4 * e).
  set (F := exp (tight64_delta mu lam grid B / lam) / (1 - 2 * e) * (exp (tight64_delta mu lam grid B / lam) / (1 - 2 * e))).
  assert (Hepos : 0 < e) by (rewrite He; lra).
  assert (HF : F = exp (2 * d) / ((1 - 2 * e) * (1 - 2 * e))).
  { unfold F. fold d. replace (2 * d) with (d + d) by ring. rewrite exp_plus. field. lra. }
  assert (Hexp1 : 1 <= exp (2 * d)) by (apply exp_ge_1; lra).
  assert (Hexp2 : exp (2 * d) <= / (1 - 2 * d)) by (apply exp_le_inv_one_minus; lra).
  assert (Hden : 1 - 2 * d - 4 * e <= (1 - 2 * d) * ((1 - 2 * e) * (1 - 2 * e))).
  { (* the difference is 4e(e + 2d(1 - e)) *)
    assert (Hd := Hd0). assert (0 <= d * (1 - e)) by (apply Rmult_le_pos; lra).
    assert (0 <= e * (e + 2 * (d * (1 - e)))) by (apply Rmult_le_pos; lra).
    lra. }
  assert (Hpos : 0 < (1 - 2 * e) * (1 - 2 * e)) by (apply Rmult_lt_0_compat; lra).
  assert (F1 : 1 <= F).
  { rewrite HF. apply div_ge1; [exact Hpos|].
    assert (0 <= e * (1 - e)) by (apply Rmult_le_pos; lra). lra. }
  assert (F2 : F * (1 - s) <= 1).
  { rewrite HF. unfold s. unfold Rdiv.
    assert (Hx : exp (2 * d) * (1 - 2 * d) <= 1).
    { apply (Rmult_le_compat_r (1 - 2 * d)) in Hexp2; [|lra]. rewrite Rinv_l in Hexp2 by lra. exact Hexp2. }
    apply (Rmult_le_reg_r ((1 - 2 * e) * (1 - 2 * e))); [exact Hpos|].
    replace (exp (2 * d) * / ((1 - 2 * e) * (1 - 2 * e)) * (1 - (2 * d + 4 * e)) * ((1 - 2 * e) * (1 - 2 * e)))
      with (exp (2 * d) * (1 - (2 * d + 4 * e))) by (field; lra).
    assert (exp (2 * d) * (1 - (2 * d + 4 * e)) <= exp (2 * d) * ((1 - 2 * d) * ((1 - 2 * e) * (1 - 2 * e))))
      by (apply Rmult_le_compat_l; lra).
    assert (exp (2 * d) * (1 - 2 * d) * ((1 - 2 * e) * (1 - 2 * e)) <= 1 * ((1 - 2 * e) * (1 - 2 * e)))
      by (apply Rmult_le_compat_r; lra).
    lra. }
  assert (Hs0 : 0 <= s <= / 10000) by (unfold s; split; lra).
  eapply Rle_trans; [apply (snap64_K_step F _ s F1 F2 Hs0 Hr)|].
  fold beta. unfold tight64_a, tight64_b. fold e.
  assert (Hsl := Hs_lin). rewrite Hs_expand in Hsl. fold s in Hsl.
  rewrite He in Hsl |- *. lra.
Qed.

(** The same for a grid wide enough that e^(W/λ) ≥ r0: K ≤ 1 + c·s with s written linearly,
    where c bounds the bucket-width factor (r0 + 1)/(r0 − 1) (with a margin). *)
Lemma tight64_K_le_c : forall c r0, 10002 / 10000 < r0 -> r0 <= exp (tight_W 53 (-1074) grid B / lam) ->
  10002 / 10000 * (r0 + 1) <= c * (r0 - 10002 / 10000) ->
  tight_K 53 (-1074) lam grid B (tight64_delta mu lam grid B) <=
  1 + c * (eta 53 * (4 * (B / lam) + 4 * (m * (B / lam)) + grid / lam + m * (grid / lam) + 7)).
Proof.
  intros c r0 Hr0 Hrw Hc.
  unfold tight_K, ratio_E. fold e.
  set (s := 2 * d + 4 * e).
  set (F := exp (tight64_delta mu lam grid B / lam) / (1 - 2 * e) * (exp (tight64_delta mu lam grid B / lam) / (1 - 2 * e))).
  assert (Hepos : 0 < e) by (rewrite He; lra).
  assert (HF : F = exp (2 * d) / ((1 - 2 * e) * (1 - 2 * e))).
  { unfold F. fold d. replace (2 * d) with (d + d) by ring. rewrite exp_plus. field. lra. }
  assert (Hexp1 : 1 <= exp (2 * d)) by (apply exp_ge_1; lra).
  assert (Hexp2 : exp (2 * d) <= / (1 - 2 * d)) by (apply exp_le_inv_one_minus; lra).
  assert (Hden : 1 - 2 * d - 4 * e <= (1 - 2 * d) * ((1 - 2 * e) * (1 - 2 * e))).
  { (* the difference is 4e(e + 2d(1 - e)) *)
    assert (Hd := Hd0). assert (0 <= d * (1 - e)) by (apply Rmult_le_pos; lra).
    assert (0 <= e * (e + 2 * (d * (1 - e)))) by (apply Rmult_le_pos; lra).
    lra. }
  assert (Hpos : 0 < (1 - 2 * e) * (1 - 2 * e)) by (apply Rmult_lt_0_compat; lra).
  assert (F1 : 1 <= F).
  { rewrite HF. apply div_ge1; [exact Hpos|].
    assert (0 <= e * (1 - e)) by (apply Rmult_le_pos; lra). lra. }
  assert (F2 : F * (1 - s) <= 1).
  { rewrite HF. unfold s. unfold Rdiv.
    assert (Hx : exp (2 * d) * (1 - 2 * d) <= 1).
    { apply (Rmult_le_compat_r (1 - 2 * d)) in Hexp2; [|lra]. rewrite Rinv_l in Hexp2 by lra. exact Hexp2. }
    apply (Rmult_le_reg_r ((1 - 2 * e) * (1 - 2 * e))); [exact Hpos|].
    replace (exp (2 * d) * / ((1 - 2 * e) * (1 - 2 * e)) * (1 - (2 * d + 4 * e)) * ((1 - 2 * e) * (1 - 2 * e)))
      with (exp (2 * d) * (1 - (2 * d + 4 * e))) by (field; lra).
    assert (exp (2 * d) * (1 - (2 * d + 4 * e)) <= exp (2 * d) * ((1 - 2 * d) * ((1 - 2 * e) * (1 - 2 * e))))
      by (apply Rmult_le_compat_l; lra).
    assert (exp (2 * d) * (1 - 2 * d) * ((1 - 2 * e) * (1 - 2 * e)) <= 1 * ((1 - 2 * e) * (1 - 2 * e)))
      by (apply Rmult_le_compat_r; lra).
    lra. }
  assert (Hs0 : 0 <= s <= / 10000) by (unfold s; split; lra).
  assert (Hc0 : 0 <= c) by (clear - Hr0 Hc; nra).
  assert (Hcr : 10002 / 10000 * (exp (tight_W 53 (-1074) grid B / lam) + 1) <=
    c * (exp (tight_W 53 (-1074) grid B / lam) - 10002 / 10000)).
  { assert (Hc1 : 10002 / 10000 <= c) by (clear - Hr0 Hc Hc0; nra).
    assert (10002 / 10000 * (exp (tight_W 53 (-1074) grid B / lam) - r0) <=
      c * (exp (tight_W 53 (-1074) grid B / lam) - r0)) by (apply Rmult_le_compat_r; lra).
    lra. }
  eapply Rle_trans; [apply (ratio_K_step_c F _ s c F1 F2 Hs0); [lra|exact Hcr]|].
  apply Rplus_le_compat_l. apply Rmult_le_compat_l; [exact Hc0|].
  fold beta rho. fold e.
  assert (Hsl := Hs_lin). rewrite Hs_expand in Hsl. fold s in Hsl.
  rewrite He in Hsl |- *. lra.
Qed.

Lemma tight64_disp : tight_mu 53 mu * tight_D 53 (-1074) grid B < tight64_delta mu lam grid B.
Proof.
  unfold tight64_delta. assert (Hep : 0 < eta 53) by (rewrite eta_binary64; lra).
  (* from HB alone: the statement's hypotheses stay those it always had *)
  assert (Hl : 0 < lam) by (clear - HB; destruct HB; lra).
  assert (0 < eta 53 * lam) by (apply Rmult_lt_0_compat; [exact Hep|exact Hl]). lra.
Qed.

Lemma tight64_range :
  normal_min 53 (-1074) <= exp (- (tight_D 53 (-1074) grid B + tight64_delta mu lam grid B) / lam).
Proof.
  replace (- (tight_D 53 (-1074) grid B + tight64_delta mu lam grid B) / lam)
    with (- (tight_D 53 (-1074) grid B / lam + d)) by (unfold d; field; lra).
  apply normal_min_le_exp. rewrite HD_eq. assert (Hsl := Hs_small). rewrite He. lra.
Qed.

Lemma tight64_E : ratio_E 53 lam (tight64_delta mu lam grid B) * ratio_E 53 lam (tight64_delta mu lam grid B) <
  exp (tight_W 53 (-1074) grid B / lam).
Proof.
  unfold ratio_E. fold e. fold d.
  assert (Hepos : 0 < e) by (rewrite He; lra). assert (Hsm := Hs_small).
  assert (Hx : exp d <= / (1 - d)) by (apply exp_le_inv_one_minus; lra).
  assert (Hx' : exp d <= 10001 / 10000).
  { assert (Hd1 : 0 < 1 - d) by lra.
    apply (Rmult_le_compat_r (1 - d)) in Hx; [|lra]. rewrite Rinv_l in Hx by lra.
    destruct (Rle_or_lt (exp d) (10001 / 10000)) as [|Hlt]; [assumption|]. exfalso.
    assert (10001 / 10000 * (1 - d) < exp d * (1 - d)) by (apply Rmult_lt_compat_r; lra).
    assert (Hd := Hd0). lra. }
  assert (Hi : / (1 - 2 * e) <= 10001 / 10000).
  { apply (Rmult_le_reg_l (1 - 2 * e)); [lra|]. rewrite Rinv_r by lra. rewrite He. lra. }
  assert (He2 : exp d / (1 - 2 * e) <= 10001 / 10000 * (10001 / 10000)).
  { unfold Rdiv. apply Rmult_le_compat; [left; apply exp_pos|left; apply Rinv_0_lt_compat; lra|exact Hx'|exact Hi]. }
  assert (0 <= exp d / (1 - 2 * e)) by (unfold Rdiv; apply Rmult_le_pos; [left; apply exp_pos|left; apply Rinv_0_lt_compat; lra]).
  assert (exp d / (1 - 2 * e) * (exp d / (1 - 2 * e)) <= 10001 / 10000 * (10001 / 10000) * (10001 / 10000 * (10001 / 10000)))
    by (apply Rmult_le_compat; lra).
  assert (Hr' := Hr). lra.
Qed.

Lemma tight64_delta_nonneg : 0 <= tight64_delta mu lam grid B.
Proof using Hmu Hm Hmmax Hlam Hgrid HB.
  assert (Hd := Hd0). unfold d in Hd. apply (Rmult_le_compat_r lam) in Hd; [|lra].
  unfold Rdiv in Hd. rewrite Rmult_assoc, Rinv_l, Rmult_1_r, Rmult_0_l in Hd by lra. exact Hd.
Qed.

End Closed.

(** ** The theorem: every output's ratio in closed form, for every binary64 λ ≥ 2^−968 *)
Theorem snap_binary64_dp_tight : forall (mu m : R) (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  0 <= mu -> mu <= m * eta 53 -> m <= 2 ^ 22 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + tight64_a m * eta 53 * (B / lam) + tight64_b m * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros mu m choice lnf pr t lam grid B Hmu Hm Hmmax Hpr Hlnf Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hg0 : 0 < grid) by lra.
  assert (He := eta_binary64).
  assert (Hmu2 : 0 <= mu <= / 2).
  { split; [exact Hmu|]. assert (0 <= m) by (rewrite He in Hm; nra).
    assert (mu <= 2 ^ 22 * eta 53) by (eapply Rle_trans; [exact Hm|]; apply Rmult_le_compat_r; [rewrite He; lra|exact Hmmax]).
    rewrite He in H0. lra. }
  assert (Hlb : bpow radix2 (-1074 + 2 * 53) <= lam) by (rewrite binary64_lam_bound; exact Hlam).
  assert (Hnn := snap_prob_nonneg 53 (-1074) choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = out)).
  eapply Rle_trans.
  - refine (float_snap_dp_tight_log 53 (-1074) eq_refl ltac:(lia) choice lnf mu pr t grid B (snap64_g grid B) lam
             (tight64_delta mu lam grid B) Hmu2 Hpr Hlnf Hlb Fl Hg0 (proj1 HB) (snap64_g_ok grid B Hg0)
             _ _ _ _ x x' out Hx Hx');
      [eapply tight64_delta_nonneg|eapply tight64_disp|eapply tight64_range|eapply tight64_E]; eassumption.
  - apply Rmult_le_compat_r; [exact Hnn|]. rewrite !exp_plus, Rmult_assoc.
    apply Rmult_le_compat_l; [left; apply exp_pos|].
    rewrite <- exp_plus. eapply Rle_trans; [eapply tight64_K_le; eassumption|].
    rewrite Rplus_assoc. apply exp_ineq1_le.
Qed.

(** A correctly rounded logarithm (mu = η, no hypothesis on it): 18·η·B/λ + 23·η. *)
Corollary snap_binary64_dp_tight_correct : forall (choice : Z -> bool) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + 18 * eta 53 * (B / lam) + 23 * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros choice pr t lam grid B Hpr Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (H := snap_binary64_dp_tight (eta 53) 1 choice _ pr t lam grid B (eta_nonneg 53) ltac:(lra) ltac:(lra)
                 Hpr (correct_log_within 53 (-1074) eq_refl ltac:(lia) choice ltac:(lia)) Hlam Fl Hgrid HB
                 x x' out Hx Hx').
  unfold tight64_a, tight64_b in H. replace (9 + 9 * 1) with 18 in H by ring.
  replace (18 + 5 * 1) with 23 in H by ring. exact H.
Qed.

(** A logarithm within k ulps of a normal result (mu = 2kη/(1 − 2kη), 1 ≤ k ≤ 2^20):
    (10 + 18k)·η·B/λ + (19 + 10k)·η. *)
Corollary snap_binary64_dp_tight_ulps : forall (k : R) (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  1 <= k <= 2 ^ 20 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 ->
     rel_within (2 * k * eta 53 / (1 - 2 * k * eta 53)) (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + (10 + 18 * k) * eta 53 * (B / lam) + (19 + 10 * k) * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros k choice lnf pr t lam grid B Hk Hpr Hlnf Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (He := eta_binary64). set (e := eta 53) in *.
  assert (Hden : 0 < 1 - 2 * k * e) by (rewrite He; lra).
  set (m := 2 * k / (1 - 2 * k * e)).
  assert (Hmu : 0 <= 2 * k * e / (1 - 2 * k * e)).
  { unfold Rdiv. apply Rmult_le_pos; [rewrite He; lra|left; apply Rinv_0_lt_compat; exact Hden]. }
  assert (Hmm : 2 * k * e / (1 - 2 * k * e) <= m * e) by (right; unfold m; field; lra).
  assert (Hm1 : m * (1 - 2 * k * e) = 2 * k) by (unfold m; field; lra).
  assert (Hk2 : 9 * m <= 18 * k + 1).
  { apply (Rmult_le_reg_r (1 - 2 * k * e)); [exact Hden|]. rewrite Rmult_assoc, Hm1.
    assert (k * k <= 2 ^ 20 * 2 ^ 20) by nra. rewrite He in *. nra. }
  assert (Hmmax : m <= 2 ^ 22) by lra.
  assert (H := snap_binary64_dp_tight _ m choice lnf pr t lam grid B Hmu Hmm Hmmax Hpr Hlnf Hlam Fl Hgrid HB
                 x x' out Hx Hx').
  eapply Rle_trans; [exact H|].
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hnn := snap_prob_nonneg 53 (-1074) choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = out)).
  apply Rmult_le_compat_r; [exact Hnn|]. apply exp_le_iff.
  assert (Hb : 0 <= B / lam) by (apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
  assert (He0 : 0 <= e) by (rewrite He; lra).
  unfold tight64_a, tight64_b. change (eta 53) with e.
  assert ((9 + 9 * m) * e * (B / lam) <= (10 + 18 * k) * e * (B / lam)).
  { apply Rmult_le_compat_r; [exact Hb|]. apply Rmult_le_compat_r; lra. }
  assert ((18 + 5 * m) * e <= (19 + 10 * k) * e) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.
