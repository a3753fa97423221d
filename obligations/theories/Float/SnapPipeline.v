(** * The pipeline's range premise from the parameters
    [pipeline_ok λ] (SnapOutput.v) asks, at every sample u = ustar U: λ normal,
    LN(u) within a relative mu of ln u, and the product fl(λ)·LN(u) normal.
    Every sample is a float in (0, 1 − η] ([ustar_format], [ustar_le]: its
    largest value is the float below 1), so |ln u| ≥ −ln(1 − η) ≥ η
    ([ln_ustar_le]).  Hence a logarithm within mu on the floats of (0, 1) and
    λ with normal_min·(1+η)(1+mu) ≤ λ·η give [pipeline_ok]
    ([pipeline_ok_of_log]): fl(λ) ≥ λ/(1+η) and |LN(u)| ≥ η/(1+mu).  With
    mu ≤ 1/2 the bound is λ ≥ 2^(emin + 2·prec) ([pipeline_ok_of_log_bpow];
    binary64: 2^−968).  The correctly rounded logarithm fun v => rnd (ln v)
    is within η wherever ln v is normal ([ln_rel_of_correct]); |ln u| ≥ η is
    normal when emin + 2·prec ≤ 1 (binary64: −968 ≤ 1), so it needs no
    hypothesis at all ([pipeline_ok_correct]). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core Relative.
From Obligations.Float Require Import RelError RelSemantics UStarMeasure SnapOutput.

Local Open Scope R_scope.

Section SnapPipeline.

Variables prec emin : Z.
(** Precision at least 2 and 1 − η a normal float, as for [ustar]. *)
Hypothesis Hprec : (1 < prec)%Z.
Hypothesis Hemin : (emin + prec <= 0)%Z.
Variable choice : Z -> bool.

Notation eta := (RelError.eta prec).
Notation normal_min := (RelError.normal_min prec emin).
Notation ustar := (ustar prec emin).
Notation format := (generic_format radix2 (FLT_exp emin prec)).

Local Instance pipeline_prec_gt_0 : Prec_gt_0 prec.
Proof. unfold Prec_gt_0. lia. Qed.

Lemma eta_bpow : eta = bpow radix2 (- prec).
Proof.
  unfold RelError.eta, u_ro. replace (- prec + 1)%Z with (1 + - prec)%Z by ring.
  rewrite bpow_plus. change (bpow radix2 1) with 2. field.
Qed.

(** The float below 1 is 1 − η. *)
Lemma pred_one : pred radix2 (FLT_exp emin prec) 1 = 1 - eta.
Proof.
  change 1 with (bpow radix2 0). rewrite pred_bpow. unfold FLT_exp.
  rewrite Z.max_l by lia. rewrite eta_bpow.
  replace (0 - prec)%Z with (- prec)%Z by ring. change (bpow radix2 0) with 1. ring.
Qed.

Lemma format_one_minus_eta : format (1 - eta).
Proof.
  rewrite <- pred_one. apply generic_format_pred; [apply FLT_exp_valid; unfold Prec_gt_0; lia|].
  change 1 with (bpow radix2 0).
  apply generic_format_bpow. unfold FLT_exp. lia.
Qed.

Lemma format_tiny : format (tiny emin).
Proof. apply generic_format_bpow. unfold FLT_exp. lia. Qed.

Lemma format_rdn : forall U, format (rdn prec emin U).
Proof.
  intros U. apply generic_format_round; [apply FLT_exp_valid; unfold Prec_gt_0; lia|apply valid_rnd_DN].
Qed.

(** Every sample of U* is a float of the format. *)
Theorem ustar_format : forall U, format (ustar U).
Proof.
  intros U. unfold UStarMeasure.ustar, Rmax, Rmin.
  destruct (Rle_dec (1 - eta) (rdn prec emin U));
    destruct Rle_dec; first [apply format_tiny|apply format_one_minus_eta|apply format_rdn].
Qed.

Lemma tiny_le_eta : tiny emin <= eta.
Proof. rewrite eta_bpow. unfold tiny. apply bpow_le. lia. Qed.

(** ... at most the float below 1. *)
Theorem ustar_le : forall U, ustar U <= 1 - eta.
Proof.
  intros U. assert (Hs := eta_small prec Hprec). assert (Ht := tiny_le_eta).
  unfold UStarMeasure.ustar. apply Rmax_lub; [lra|apply Rmin_l].
Qed.

Theorem ustar_in : forall U, 0 < ustar U < 1.
Proof.
  intros U. assert (H := ustar_le U). assert (He := eta_pos prec).
  split; [apply ustar_pos; lia|lra].
Qed.

(** ln(1 − η) ≤ −η, from 1 + x ≤ e^x. *)
Lemma ln_one_minus_eta : ln (1 - eta) <= - eta.
Proof.
  assert (Hs := eta_small prec Hprec). assert (He := eta_pos prec).
  rewrite <- (ln_exp (- eta)). apply ln_mono; [lra|].
  assert (H := exp_ineq1_le (- eta)). lra.
Qed.

(** So every sample's logarithm is at most −η: |ln u| ≥ η. *)
Theorem ln_ustar_le : forall U, ln (ustar U) <= - eta.
Proof.
  intros U. apply Rle_trans with (ln (1 - eta)); [|exact ln_one_minus_eta].
  apply ln_mono; [apply ustar_pos; lia|apply ustar_le].
Qed.

Theorem abs_ln_ustar_ge : forall U, eta <= Rabs (ln (ustar U)).
Proof.
  intros U. assert (H := ln_ustar_le U). assert (He := eta_pos prec).
  rewrite Rabs_left by lra. lra.
Qed.

(** (a) A logarithm within mu on the floats of (0, 1), and λ large enough
    that λ/(1+η) · η/(1+mu) is normal. *)
Theorem pipeline_ok_of_log : forall (lnf : R -> R) (mu lam : R), 0 <= mu ->
  (forall v, format v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  normal_min * ((1 + eta) * (1 + mu)) <= lam * eta ->
  pipeline_ok prec emin choice lnf mu lam.
Proof.
  intros lnf mu lam Hmu Hlnf Hlam.
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hn := normal_min_pos prec emin).
  assert (Hge1 : 1 <= (1 + eta) * (1 + mu)) by nra.
  assert (Hl : normal_min <= lam) by nra.
  split; [exact Hl|]. intros U HU. split.
  - apply Hlnf; [apply ustar_format|apply ustar_in].
  - assert (Hln := abs_ln_ustar_ge U).
    destruct (Hlnf (ustar U) (ustar_format U) (ustar_in U)) as (d & [Hd1 Hd2] & Hd).
    assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
    destruct (rnd_rel_within prec emin ltac:(lia) choice lam Hla) as (c & [Hc1 Hc2] & Hc).
    assert (Hi1 : 0 < / (1 + eta)) by (apply Rinv_0_lt_compat; lra).
    assert (Hi2 : 0 < / (1 + mu)) by (apply Rinv_0_lt_compat; lra).
    rewrite Hc, Hd, !Rabs_mult, (Rabs_pos_eq lam), (Rabs_pos_eq c), (Rabs_pos_eq d) by lra.
    (* λ·c·|ln u|·d ≥ λ/(1+η) · η/(1+mu) ≥ normal_min *)
    assert (Hlow : lam * / (1 + eta) * (eta * / (1 + mu)) <= lam * c * (Rabs (ln (ustar U)) * d)).
    { apply Rmult_le_compat.
      - apply Rmult_le_pos; lra.
      - apply Rmult_le_pos; lra.
      - apply Rmult_le_compat_l; lra.
      - apply Rmult_le_compat; lra. }
    assert (Heq : lam * / (1 + eta) * (eta * / (1 + mu)) = lam * eta / ((1 + eta) * (1 + mu)))
      by (field; lra).
    assert (Hq : normal_min <= lam * eta / ((1 + eta) * (1 + mu))).
    { apply (Rmult_le_reg_r ((1 + eta) * (1 + mu))); [nra|].
      unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by nra. exact Hlam. }
    lra.
Qed.

(** With mu ≤ 1/2: λ ≥ 2^(emin + 2·prec) suffices (binary64: 2^−968). *)
Theorem pipeline_ok_of_log_bpow : forall (lnf : R -> R) (mu lam : R), 0 <= mu <= / 2 ->
  (forall v, format v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  bpow radix2 (emin + 2 * prec) <= lam ->
  pipeline_ok prec emin choice lnf mu lam.
Proof.
  intros lnf mu lam Hmu Hlnf Hlam. apply pipeline_ok_of_log; [lra|exact Hlnf|].
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hn : normal_min = bpow radix2 (emin + 2 * prec) * eta * / 2).
  { unfold RelError.normal_min. rewrite eta_bpow, <- bpow_plus.
    replace (emin + prec - 1)%Z with ((emin + 2 * prec + - prec) + (-1))%Z by ring.
    rewrite bpow_plus. reflexivity. }
  rewrite Hn. assert (Hb := bpow_gt_0 radix2 (emin + 2 * prec)).
  assert (H2 : (1 + eta) * (1 + mu) <= 2).
  { assert (Hem : eta * mu <= / 4 * mu) by (apply Rmult_le_compat_r; lra). nra. }
  assert (H3 : bpow radix2 (emin + 2 * prec) * eta <= lam * eta) by nra.
  assert (Hp : 0 < bpow radix2 (emin + 2 * prec) * eta) by nra.
  assert (H4 : bpow radix2 (emin + 2 * prec) * eta * / 2 * ((1 + eta) * (1 + mu)) <=
               bpow radix2 (emin + 2 * prec) * eta).
  { rewrite Rmult_assoc. rewrite <- (Rmult_1_r (bpow radix2 (emin + 2 * prec) * eta)) at 2.
    apply Rmult_le_compat_l; lra. }
  lra.
Qed.

(** η is normal when emin + 2·prec ≤ 1. *)
Lemma normal_min_le_eta : (emin + 2 * prec <= 1)%Z -> normal_min <= eta.
Proof. intros H. rewrite eta_bpow. unfold RelError.normal_min. apply bpow_le. lia. Qed.

(** (b) The correctly rounded logarithm, rounded with the arithmetic's own tie
    rule: within η of ln at every float of (0, 1), since |ln v| ≥ η there. *)
Theorem correct_log_within : (emin + 2 * prec <= 1)%Z ->
  forall v, format v -> 0 < v < 1 -> rel_within eta (ln v) (rnd prec emin choice (ln v)).
Proof.
  intros Hsmall v Fv Hv.
  assert (Hs := eta_small prec Hprec). assert (He := eta_pos prec).
  apply (ln_rel_of_correct prec emin choice (fun v => rnd prec emin choice (ln v))); [lia|reflexivity|lra|].
  apply Rle_trans with eta; [exact (normal_min_le_eta Hsmall)|].
  (* v is a float of (0, 1), so v ≤ 1 − η and ln v ≤ −η *)
  assert (Hv1 : v <= 1 - eta).
  { rewrite <- pred_one. apply pred_ge_gt; [apply FLT_exp_valid; unfold Prec_gt_0; lia|exact Fv| |lra].
    change 1 with (bpow radix2 0). apply generic_format_bpow. unfold FLT_exp. lia. }
  assert (Hl : ln v <= - eta).
  { apply Rle_trans with (ln (1 - eta)); [apply ln_mono; lra|exact ln_one_minus_eta]. }
  rewrite Rabs_left by lra. lra.
Qed.

Theorem pipeline_ok_correct : forall lam, (emin + 2 * prec <= 1)%Z ->
  bpow radix2 (emin + 2 * prec) <= lam ->
  pipeline_ok prec emin choice (fun v => rnd prec emin choice (ln v)) eta lam.
Proof.
  intros lam Hsmall Hlam. assert (Hs := eta_small prec Hprec). assert (He := eta_pos prec).
  apply pipeline_ok_of_log_bpow; [lra| |exact Hlam].
  exact (correct_log_within Hsmall).
Qed.

End SnapPipeline.

(** Binary64 (precision 53, emin −1074): λ ≥ 2^−968. *)
Lemma binary64_lam_bound : bpow radix2 (-1074 + 2 * 53) = powerRZ 2 (-968).
Proof. rewrite bpow_powerRZ. reflexivity. Qed.

Theorem pipeline_ok_binary64_log : forall choice (lnf : R -> R) (mu lam : R), 0 <= mu <= / 2 ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam ->
  pipeline_ok 53 (-1074) choice lnf mu lam.
Proof.
  intros choice lnf mu lam Hmu Hlnf Hlam.
  apply (pipeline_ok_of_log_bpow 53 (-1074) eq_refl ltac:(lia) choice lnf mu lam Hmu Hlnf).
  rewrite binary64_lam_bound. exact Hlam.
Qed.

Theorem pipeline_ok_binary64_correct : forall choice (lam : R), powerRZ 2 (-968) <= lam ->
  pipeline_ok 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) (eta 53) lam.
Proof.
  intros choice lam Hlam.
  apply (pipeline_ok_correct 53 (-1074) eq_refl ltac:(lia) choice lam ltac:(lia)).
  rewrite binary64_lam_bound. exact Hlam.
Qed.
