(** * Binary snapping in binary64, for all parameters, in closed form
    [float_snap_dp] at precision 53, emin −1074, with δ and g chosen here and
    its premises Hdisp, Hrange, HE discharged for every λ, Λ, B in the ranges
    λ ≤ Λ ≤ 2λ (any grid step between λ and 2λ, e.g. the power of two at or above λ)
    and 0 < B ≤ 353λ, and a logarithm within a relative mu ≤ m·η
    (0 ≤ m ≤ 2^22): for floats |x|, |x′| ≤ B and every output,
    Pr[out | x] ≤ e^(|x − x′|/λ + (22 + 9m)·η·B/λ + (39 + 9m)·η)·Pr[out | x′]
    ([snap_binary64_dp]); a correctly rounded log (m = 1) gives 31·η·B/λ + 48·η
    ([snap_binary64_dp_correct]), a log within k ulps gives
    (23 + 18k)·η·B/λ + (40 + 18k)·η ([snap_binary64_dp_ulps]).
    The route: K − 1 = (r + 1)(E² − 1)/(r − E²) with r = e^(Λ/λ) ≥ e and
    E² ≤ 1/(1 − s), s = 2δ/λ + 4η (e^x ≤ 1/(1 − x)), so K − 1 ≤ 2.165·s, and
    K ≤ 1 + t ≤ e^t.  The uprob and pipeline_ok premises stay hypotheses. *)
From Coq Require Import ZArith Reals Lra QArith Qreals.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts ExpTaylor ExpBounds.
From Obligations.Noise Require Import Rounding Clamp.
From Obligations.Float Require Import RelError SnapOuter UStarMeasure SnapOutput SnapInterior SnapRatio
  SnapFloatDP.

Local Open Scope R_scope.

(** ** binary64's constants as numbers *)
Lemma eta_binary64 : eta 53 = / 9007199254740992.
Proof. unfold eta, Relative.u_ro. cbn. change (Z.pow_pos 2 52) with 4503599627370496%Z. field. Qed.

Lemma normal_min_binary64 : normal_min 53 (-1074) = / 2 ^ 1022.
Proof.
  unfold normal_min. change (-1074 + 53 - 1)%Z with (- (1022))%Z. rewrite bpow_opp.
  f_equal. rewrite bpow_powerRZ. change 1022%Z with (Z.of_nat 1022). rewrite <- pow_powerRZ. reflexivity.
Qed.

(** ** Bounds on exp *)
Lemma exp_le_inv_one_minus : forall x, x < 1 -> exp x <= / (1 - x).
Proof.
  intros x Hx. assert (H := exp_ineq1_le (- x)).
  replace (exp x) with (/ exp (- x)) by (rewrite exp_Ropp, Rinv_inv; reflexivity).
  apply Rinv_le_contravar; lra.
Qed.

Lemma exp_1_ge : 2718 / 1000 <= exp 1.
Proof.
  replace (2718 / 1000) with (Q2R (2718 # 1000)) by (unfold Q2R; cbn; lra).
  exp_taylor_lower (1 # 1)%Q 1%nat 10%nat.
Qed.

Lemma exp_ln2_below : exp (7081 / 10220) <= 2.
Proof.
  replace 2 with (Q2R (2 # 1)) by (unfold Q2R; cbn; lra).
  exp_taylor_upper (7081 # 10220)%Q 1%nat 5%nat.
Qed.

(** Every interval of ln u down to −708.1 stays above ln of the smallest normal. *)
Lemma normal_min_le_exp : forall y, y <= 7081 / 10 -> normal_min 53 (-1074) <= exp (- y).
Proof.
  intros y Hy. rewrite normal_min_binary64, exp_Ropp. apply Rinv_le_contravar; [apply exp_pos|].
  apply Rle_trans with (exp (7081 / 10)); [apply exp_le_iff; exact Hy|].
  replace (7081 / 10) with (INR 1022 * (7081 / 10220)) by (rewrite INR_IZR_INZ; cbn; field).
  rewrite exp_INR_mult. apply pow_incr. split; [left; apply exp_pos|exact exp_ln2_below].
Qed.

(** ** The choices: δ one η·λ above the displacement, g the first grid index at or above B *)
Definition snap64_delta (mu lam grid B : R) : R :=
  eta 53 * (B + grid) + noise_mu 53 mu * (2 * B + grid + eta 53 * (B + grid)) + eta 53 * lam.

Definition snap64_g (grid B : R) : Z := Zceil (B / grid).

(** The closed form's constants, for a logarithm within a relative m·η. *)
Definition snap64_a (m : R) : R := 22 + 9 * m.
Definition snap64_b (m : R) : R := 39 + 9 * m.

Lemma snap64_g_ok : forall grid B, 0 < grid ->
  (IZR (snap64_g grid B) - 1) * grid < B <= IZR (snap64_g grid B) * grid.
Proof.
  intros grid B Hg. unfold snap64_g.
  assert (H1 := Zceil_ub (B / grid)). assert (H2 := Zceil_lb (B / grid)).
  set (g := IZR (Zceil (B / grid))) in *.
  assert (E : B = B / grid * grid) by (field; lra).
  split; [apply (Rmult_lt_compat_r grid) in H2|apply (Rmult_le_compat_r grid) in H1]; lra.
Qed.

(** K ≤ 1 + C·s for E² ≤ 1/(1 − s), r ≥ 2.718, s small, C = 2.165. *)
Lemma snap64_K_step : forall F r s, 1 <= F -> F * (1 - s) <= 1 -> 0 <= s <= / 10000 -> 2718 / 1000 <= r ->
  (F * r - 1) / (r - F) <= 1 + 2165 / 1000 * s.
Proof.
  intros F r s H1 Hs Hs0 Hr.
  assert (HF : F <= 10002 / 10000) by nra.
  assert (Hrf : 0 < r - F) by lra.
  apply (Rmult_le_reg_r (r - F)); [exact Hrf|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  assert (A : (F - 1) * (r + 1) <= s * F * (r + 1)) by nra.
  assert (B : F * (r + 1) <= 2165 / 1000 * (r - F)) by nra.
  assert (C : s * (F * (r + 1)) <= s * (2165 / 1000 * (r - F))) by (apply Rmult_le_compat_l; lra).
  nra.
Qed.

Section Closed.

Variables (mu m lam grid B : R).
Hypothesis Hmu : 0 <= mu.
Hypothesis Hm : mu <= m * eta 53.
Hypothesis Hmmax : m <= 2 ^ 22.
Hypothesis Hlam : 0 < lam.
Hypothesis Hgrid : lam <= grid <= 2 * lam.
Hypothesis HB : 0 < B <= 353 * lam.

Let e := eta 53.
Let d := snap64_delta mu lam grid B / lam.
Let beta := B / lam.
Let rho := grid / lam.

Let He : e = / 9007199254740992.
Proof. exact eta_binary64. Qed.

Let Hbeta : 0 < beta <= 353.
Proof. unfold beta. split; [apply Rdiv_lt_0_compat; lra|]. apply div_le_iff_r; lra. Qed.

Let Hrho : 1 <= rho <= 2.
Proof. unfold rho. split; [apply div_le_iff; lra|apply div_le_iff_r; lra]. Qed.

Let Hm0 : 0 <= m.
Proof. assert (0 < e) by (rewrite He; lra). fold e in Hm. nra. Qed.

Let Hd_eq : d = e * (beta + rho) + noise_mu 53 mu * (2 * beta + rho + e * (beta + rho)) + e.
Proof. unfold d, snap64_delta, beta, rho. fold e. field. lra. Qed.

(** The noise's relative error M, linear in mu at binary64's η. *)
Let HM : noise_mu 53 mu <= (2 * e + e * e) + (1 + e) * (1 + e) * (m * e).
Proof.
  unfold noise_mu. fold e. assert (0 < e) by (rewrite He; lra). fold e in Hm.
  assert ((1 + e) * (1 + e) * mu <= (1 + e) * (1 + e) * (m * e)) by (apply Rmult_le_compat_l; nra). nra.
Qed.

Let Hs : 2 * d + 4 * e <= 2 * (e * (beta + rho) + e) + 4 * e +
  2 * ((2 * e + e * e) + (1 + e) * (1 + e) * (m * e)) * (2 * beta + rho + e * (beta + rho)).
Proof.
  rewrite Hd_eq. assert (0 < e) by (rewrite He; lra).
  assert (0 <= e * (beta + rho)) by (apply Rmult_le_pos; lra).
  assert (0 <= 2 * beta + rho + e * (beta + rho)) by lra.
  assert (noise_mu 53 mu * (2 * beta + rho + e * (beta + rho)) <=
    ((2 * e + e * e) + (1 + e) * (1 + e) * (m * e)) * (2 * beta + rho + e * (beta + rho)))
    by (apply Rmult_le_compat_r; [lra|exact HM]).
  lra.
Qed.

Let Hd0 : 0 <= d.
Proof.
  rewrite Hd_eq. assert (0 < e) by (rewrite He; lra). assert (Hn := noise_mu_nonneg 53 mu Hmu).
  assert (0 <= e * (beta + rho)) by (apply Rmult_le_pos; lra).
  assert (0 <= noise_mu 53 mu * (2 * beta + rho + e * (beta + rho))) by (apply Rmult_le_pos; lra).
  lra.
Qed.

(** The small quantity s = 2δ/λ + 4η, bounded linearly in β, ρ, m·β, m·ρ. *)
Let Hs_lin : 2 * d + 4 * e <= 2 * (e * (beta + rho) + e) + 4 * e +
  2 * (2 * e + e * e) * (2 * beta + rho + e * (beta + rho)) +
  2 * (1 + e) * (1 + e) * e * (2 * (m * beta) + m * rho + e * (m * beta + m * rho)).
Proof. eapply Rle_trans; [exact Hs|]. right. ring. Qed.

Let Hmb : 0 <= m * beta <= 2 ^ 22 * 353.
Proof. split; [apply Rmult_le_pos; lra|]. apply Rmult_le_compat; lra. Qed.

Let Hmr : m * 1 <= m * rho <= m * 2.
Proof. split; apply Rmult_le_compat_l; lra. Qed.

Let Hs_small : 2 * d + 4 * e <= / 10000.
Proof. eapply Rle_trans; [exact Hs_lin|]. rewrite He. lra. Qed.

Lemma snap64_K_le : snap_K 53 lam grid (snap64_delta mu lam grid B) <= 1 + snap64_a m * eta 53 * (B / lam) + snap64_b m * eta 53.
Proof.
  unfold snap_K, ratio_E. fold e. fold rho.
  set (s := 2 * d + 4 * e).
  set (F := exp (snap64_delta mu lam grid B / lam) / (1 - 2 * e) * (exp (snap64_delta mu lam grid B / lam) / (1 - 2 * e))).
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
  assert (Hr : 2718 / 1000 <= exp rho).
  { eapply Rle_trans; [exact exp_1_ge|]. apply exp_le_iff. lra. }
  assert (Hs0 : 0 <= s <= / 10000) by (unfold s; split; lra).
  eapply Rle_trans; [apply (snap64_K_step F (exp rho) s F1 F2 Hs0 Hr)|].
  fold beta. unfold snap64_a, snap64_b. fold e.
  assert (Hsl := Hs_lin). fold s in Hsl. rewrite He in Hsl |- *. lra.
Qed.

(** Hdisp, Hrange and HE of [float_snap_dp] at these choices. *)
Lemma snap64_disp : eta 53 * (B + grid) + noise_mu 53 mu * (2 * B + grid + eta 53 * (B + grid)) <
  snap64_delta mu lam grid B.
Proof.
  unfold snap64_delta. assert (Hep : 0 < eta 53) by (rewrite eta_binary64; lra).
  (* from HB alone: the statement's hypotheses stay those it always had *)
  assert (Hl : 0 < lam) by (clear - HB; destruct HB; lra).
  assert (0 < eta 53 * lam) by (apply Rmult_lt_0_compat; [exact Hep|exact Hl]). lra.
Qed.

Lemma snap64_range : normal_min 53 (-1074) <= exp (- (2 * B + grid + snap64_delta mu lam grid B) / lam).
Proof.
  replace (- (2 * B + grid + snap64_delta mu lam grid B) / lam) with (- (2 * beta + rho + d))
    by (unfold beta, rho, d; field; lra).
  apply normal_min_le_exp. assert (Hsl := Hs_small). lra.
Qed.

Lemma snap64_E : ratio_E 53 lam (snap64_delta mu lam grid B) * ratio_E 53 lam (snap64_delta mu lam grid B) <
  exp (grid / lam).
Proof.
  unfold ratio_E. fold e. fold d. fold rho.
  assert (Hepos : 0 < e) by (rewrite He; lra). assert (Hsm := Hs_small).
  assert (Hx : exp d <= / (1 - d)) by (apply exp_le_inv_one_minus; lra).
  assert (Hx' : exp d <= 10001 / 10000).
  { assert (Hd1 : 0 < 1 - d) by lra.
    apply (Rmult_le_compat_r (1 - d)) in Hx; [|lra]. rewrite Rinv_l in Hx by lra.
    destruct (Rle_or_lt (exp d) (10001 / 10000)) as [|Hlt]; [assumption|]. exfalso.
    assert (10001 / 10000 * (1 - d) < exp d * (1 - d)) by (apply Rmult_lt_compat_r; lra).
    assert (Hd := Hd0). lra. }
  assert (Hr : 2718 / 1000 <= exp rho).
  { eapply Rle_trans; [exact exp_1_ge|]. apply exp_le_iff. lra. }
  assert (Hi : / (1 - 2 * e) <= 10001 / 10000).
  { apply (Rmult_le_reg_l (1 - 2 * e)); [lra|]. rewrite Rinv_r by lra. rewrite He. lra. }
  assert (He2 : exp d / (1 - 2 * e) <= 10001 / 10000 * (10001 / 10000)).
  { unfold Rdiv. apply Rmult_le_compat; [left; apply exp_pos|left; apply Rinv_0_lt_compat; lra|exact Hx'|exact Hi]. }
  assert (0 <= exp d / (1 - 2 * e)) by (unfold Rdiv; apply Rmult_le_pos; [left; apply exp_pos|left; apply Rinv_0_lt_compat; lra]).
  assert (exp d / (1 - 2 * e) * (exp d / (1 - 2 * e)) <= 10001 / 10000 * (10001 / 10000) * (10001 / 10000 * (10001 / 10000)))
    by (apply Rmult_le_compat; lra).
  lra.
Qed.

End Closed.

(** ** The theorem: every output's ratio in closed form *)
Theorem snap_binary64_dp : forall (mu m : R) (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  0 <= mu -> mu <= m * eta 53 -> m <= 2 ^ 22 ->
  uprob pr -> pipeline_ok 53 (-1074) choice lnf mu lam ->
  lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out,
  generic_format radix2 (FLT_exp (-1074) 53) x -> generic_format radix2 (FLT_exp (-1074) 53) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + snap64_a m * eta 53 * (B / lam) + snap64_b m * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros mu m choice lnf pr t lam grid B Hmu Hm Hmmax Hpr Hok Hgrid HB x x' out Fx Fx' Hx Hx'.
  assert (Hlam : 0 < lam).
  { destruct Hok as [Hl _]. assert (Hn := normal_min_pos 53 (-1074)). lra. }
  assert (Hg0 : 0 < grid) by lra.
  assert (Hd0 : 0 <= snap64_delta mu lam grid B).
  { unfold snap64_delta. assert (0 < eta 53) by (rewrite eta_binary64; lra).
    assert (Hn := noise_mu_nonneg 53 mu Hmu). assert (0 <= noise_mu 53 mu * (2 * B + grid + eta 53 * (B + grid))).
    { apply Rmult_le_pos; [exact Hn|]. assert (0 <= eta 53 * (B + grid)) by (apply Rmult_le_pos; lra). lra. }
    assert (0 <= eta 53 * (B + grid)) by (apply Rmult_le_pos; lra).
    assert (0 <= eta 53 * lam) by (apply Rmult_le_pos; lra). lra. }
  assert (Hnn : 0 <= snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out))
    by (apply snap_output_prob_nonneg, Hpr).
  eapply Rle_trans.
  - apply (float_snap_dp 53 (-1074) eq_refl choice lnf mu Hmu pr Hpr t grid B (snap64_g grid B) lam
             (snap64_delta mu lam grid B) Hg0 (proj1 HB) (snap64_g_ok grid B Hg0) Hok Hd0);
      [eapply snap64_disp|eapply snap64_range|eapply snap64_E|..]; eassumption.
  - apply Rmult_le_compat_r; [exact Hnn|]. rewrite !exp_plus, Rmult_assoc.
    apply Rmult_le_compat_l; [left; apply exp_pos|].
    rewrite <- exp_plus. eapply Rle_trans; [eapply snap64_K_le; eassumption|].
    rewrite Rplus_assoc. apply exp_ineq1_le.
Qed.

(** A correctly rounded logarithm (mu = η): 31·η·B/λ + 48·η. *)
Corollary snap_binary64_dp_correct : forall (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  uprob pr -> pipeline_ok 53 (-1074) choice lnf (eta 53) lam ->
  lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out,
  generic_format radix2 (FLT_exp (-1074) 53) x -> generic_format radix2 (FLT_exp (-1074) 53) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + 31 * eta 53 * (B / lam) + 48 * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros choice lnf pr t lam grid B Hpr Hok Hgrid HB x x' out Fx Fx' Hx Hx'.
  assert (H := snap_binary64_dp (eta 53) 1 choice lnf pr t lam grid B (eta_nonneg 53) ltac:(lra) ltac:(lra)
                 Hpr Hok Hgrid HB x x' out Fx Fx' Hx Hx').
  unfold snap64_a, snap64_b in H. replace (22 + 9 * 1) with 31 in H by ring.
  replace (39 + 9 * 1) with 48 in H by ring. exact H.
Qed.

(** A logarithm within k ulps of a normal result (mu = 2kη/(1 − 2kη), 1 ≤ k ≤ 2^20):
    (23 + 18k)·η·B/λ + (40 + 18k)·η. *)
Corollary snap_binary64_dp_ulps : forall (k : R) (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  1 <= k <= 2 ^ 20 ->
  uprob pr -> pipeline_ok 53 (-1074) choice lnf (2 * k * eta 53 / (1 - 2 * k * eta 53)) lam ->
  lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out,
  generic_format radix2 (FLT_exp (-1074) 53) x -> generic_format radix2 (FLT_exp (-1074) 53) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + (23 + 18 * k) * eta 53 * (B / lam) + (40 + 18 * k) * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros k choice lnf pr t lam grid B Hk Hpr Hok Hgrid HB x x' out Fx Fx' Hx Hx'.
  assert (He := eta_binary64). set (e := eta 53) in *.
  assert (Hden : 0 < 1 - 2 * k * e) by (rewrite He; lra).
  set (m := 2 * k / (1 - 2 * k * e)).
  assert (Hmu : 0 <= 2 * k * e / (1 - 2 * k * e)).
  { unfold Rdiv. apply Rmult_le_pos; [rewrite He; lra|left; apply Rinv_0_lt_compat; exact Hden]. }
  assert (Hmm : 2 * k * e / (1 - 2 * k * e) <= m * e) by (right; unfold m; field; lra).
  (* 9m ≤ 18k + 1: the factor 1/(1 − 2kη) costs less than one unit *)
  assert (Hm1 : m * (1 - 2 * k * e) = 2 * k) by (unfold m; field; lra).
  assert (Hk2 : 9 * m <= 18 * k + 1).
  { apply (Rmult_le_reg_r (1 - 2 * k * e)); [exact Hden|]. rewrite Rmult_assoc, Hm1.
    assert (k * k <= 2 ^ 20 * 2 ^ 20) by nra. rewrite He in *. nra. }
  assert (Hmmax : m <= 2 ^ 22) by lra.
  assert (H := snap_binary64_dp _ m choice lnf pr t lam grid B Hmu Hmm Hmmax Hpr Hok Hgrid HB x x' out Fx Fx' Hx Hx').
  eapply Rle_trans; [exact H|].
  assert (Hnn : 0 <= snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out))
    by (apply snap_output_prob_nonneg, Hpr).
  apply Rmult_le_compat_r; [exact Hnn|]. apply exp_le_iff.
  assert (Hb : 0 <= B / lam).
  { destruct Hok as [Hl _]. assert (Hn := normal_min_pos 53 (-1074)). apply Rmult_le_pos; [lra|].
    left. apply Rinv_0_lt_compat. lra. }
  assert (He0 : 0 <= e) by (rewrite He; lra).
  unfold snap64_a, snap64_b. change (eta 53) with e.
  assert ((22 + 9 * m) * e * (B / lam) <= (23 + 18 * k) * e * (B / lam)).
  { apply Rmult_le_compat_r; [exact Hb|]. apply Rmult_le_compat_r; lra. }
  assert ((39 + 9 * m) * e <= (40 + 18 * k) * e) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.
