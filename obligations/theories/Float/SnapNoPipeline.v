(** * The first forms of the snapping bound without [pipeline_ok]
    [float_snap_dp] (SnapFloatDP.v) and [snap_binary64_dp] (SnapBinary64.v) take the pipeline's
    range premise [pipeline_ok] as a hypothesis; SnapPipeline.v derives it from the logarithm's
    error on the floats of (0, 1) and λ ≥ 2^(emin + 2·prec) (binary64: 2^−968), or from λ alone
    for the correctly rounded logarithm.  Here the two theorems are restated with those premises
    in its place ([float_snap_dp_log], [float_snap_dp_correct], [snap_binary64_dp_log],
    [snap_binary64_dp_correct']).  The tight forms (SnapTight.v, SnapTight64.v) are stated this
    way from the start. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Noise Require Import Rounding.
From Obligations.Float Require Import RelError SnapOuter UStarMeasure SnapOutput SnapInterior SnapRatio
  SnapFloatDP SnapPipeline SnapBinary64.

Local Open Scope R_scope.

Theorem float_snap_dp_log : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  forall choice lnf mu pr t grid B g lam delta,
  0 <= mu <= / 2 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp emin prec) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  bpow radix2 (emin + 2 * prec) <= lam ->
  0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid -> 0 <= delta ->
  eta prec * (B + grid) + noise_mu prec mu * (2 * B + grid + eta prec * (B + grid)) < delta ->
  normal_min prec emin <= exp (- (2 * B + grid + delta) / lam) ->
  ratio_E prec lam delta * ratio_E prec lam delta < exp (grid / lam) ->
  forall x x' out,
  generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob prec emin choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * snap_K prec lam grid delta *
    snap_output_prob prec emin choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros prec emin Hprec Hemin choice lnf mu pr t grid B g lam delta Hmu Hpr Hlnf Hlam
    Hgrid HB Hg Hd0 Hdisp Hrange HE x x' out Fx Fx' Hx Hx'.
  apply (float_snap_dp prec emin Hprec choice lnf mu (proj1 Hmu) pr Hpr t grid B g lam delta); try assumption.
  exact (pipeline_ok_of_log_bpow prec emin Hprec Hemin choice lnf mu lam Hmu Hlnf Hlam).
Qed.

Theorem float_snap_dp_correct : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  (emin + 2 * prec <= 1)%Z ->
  forall choice pr t grid B g lam delta, uprob pr -> bpow radix2 (emin + 2 * prec) <= lam ->
  0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid -> 0 <= delta ->
  eta prec * (B + grid) + noise_mu prec (eta prec) * (2 * B + grid + eta prec * (B + grid)) < delta ->
  normal_min prec emin <= exp (- (2 * B + grid + delta) / lam) ->
  ratio_E prec lam delta * ratio_E prec lam delta < exp (grid / lam) ->
  forall x x' out,
  generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob prec emin choice (fun v => rnd prec emin choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam) * snap_K prec lam grid delta *
    snap_output_prob prec emin choice (fun v => rnd prec emin choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros prec emin Hprec Hemin Hsmall choice pr t grid B g lam delta Hpr Hlam
    Hgrid HB Hg Hd0 Hdisp Hrange HE x x' out Fx Fx' Hx Hx'.
  apply (float_snap_dp prec emin Hprec choice _ (eta prec) (eta_nonneg prec) pr Hpr t grid B g lam delta);
    try assumption.
  exact (pipeline_ok_correct prec emin Hprec Hemin choice lam Hsmall Hlam).
Qed.

(** Binary64, all parameters: the closed form with λ ≥ 2^−968 in place of [pipeline_ok]. *)
Theorem snap_binary64_dp_log : forall (mu m : R) (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  0 <= mu -> mu <= m * eta 53 -> m <= 2 ^ 22 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out,
  generic_format radix2 (FLT_exp (-1074) 53) x -> generic_format radix2 (FLT_exp (-1074) 53) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + snap64_a m * eta 53 * (B / lam) + snap64_b m * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros mu m choice lnf pr t lam grid B Hmu Hm Hmmax Hpr Hlnf Hlam Hgrid HB x x' out Fx Fx' Hx Hx'.
  assert (He := eta_binary64).
  assert (Hmu2 : 0 <= mu <= / 2).
  { split; [exact Hmu|]. assert (0 <= m) by (rewrite He in Hm; nra).
    assert (mu <= 2 ^ 22 * eta 53) by (eapply Rle_trans; [exact Hm|]; apply Rmult_le_compat_r; [rewrite He; lra|exact Hmmax]).
    rewrite He in H0. lra. }
  exact (snap_binary64_dp mu m choice lnf pr t lam grid B Hmu Hm Hmmax Hpr
           (pipeline_ok_binary64_log choice lnf mu lam Hmu2 Hlnf Hlam) Hgrid HB x x' out Fx Fx' Hx Hx').
Qed.

Corollary snap_binary64_dp_correct' : forall (choice : Z -> bool) (pr : (R -> Prop) -> R)
  (t : tie) (lam grid B : R),
  uprob pr -> powerRZ 2 (-968) <= lam -> lam <= grid <= 2 * lam -> 0 < B <= 353 * lam ->
  forall x x' out,
  generic_format radix2 (FLT_exp (-1074) 53) x -> generic_format radix2 (FLT_exp (-1074) 53) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + 31 * eta 53 * (B / lam) + 48 * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros choice pr t lam grid B Hpr Hlam Hgrid HB x x' out Fx Fx' Hx Hx'.
  exact (snap_binary64_dp_correct choice _ pr t lam grid B Hpr (pipeline_ok_binary64_correct choice lam Hlam)
           Hgrid HB x x' out Fx Fx' Hx Hx').
Qed.
