(** * Binary snapping by the two refinements, for a logarithm within a relative error
    [float_snap_dp_two] (SnapTwoSidedDP.v) takes [pipeline_ok] as a hypothesis; here it
    follows, as in [float_snap_dp_tight_log] (SnapTight.v), from a logarithm lnf within a
    relative mu ≤ 1/2 of ln on the format's numbers of (0, 1) and λ ≥ 2^(emin + 2·prec)
    ([pipeline_ok_of_log_bpow], SnapPipeline.v).  A logarithm within k ulps (numpy.log's
    guarantee takes that form) is within mu = 2kη/(1 − 2kη); the four conditions on K are
    those of [float_snap_dp_two] at that mu. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Noise Require Import UniformMeasure Snapping Rounding Clamp.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapTight SnapTwoSidedRatio
  SnapTwoSidedCond SnapTwoSidedDP.

Local Open Scope R_scope.

Theorem float_snap_dp_two_log : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  forall choice lnf mu pr t grid B g lam K sl,
  0 <= mu <= / 2 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp emin prec) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  bpow radix2 (emin + 2 * prec) <= lam -> generic_format radix2 (FLT_exp emin prec) lam ->
  0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid -> 0 < sl -> 1 <= K ->
  cond_tail_low (ustar_q prec) (two_Pn prec emin mu grid B lam sl) (two_Pf prec emin mu grid B lam sl)
    (two_R0 prec emin mu grid B lam sl) K /\
  cond_point_lower (ustar_q prec) (two_Pn prec emin mu grid B lam sl) (two_Pf prec emin mu grid B lam sl)
    (two_R0 prec emin mu grid B lam sl) K ->
  cond_tail_high (ustar_q prec) (two_Pf prec emin mu grid B lam sl) (two_Pn prec emin mu grid B lam sl)
    (two_R0 prec emin mu grid B lam sl) K /\
  cond_point_upper (ustar_q prec) (two_Pf prec emin mu grid B lam sl) (two_Pn prec emin mu grid B lam sl)
    (two_R0 prec emin mu grid B lam sl) K ->
  cond_tail_low (ustar_q prec) (two_Pi prec emin mu grid B lam sl) (two_Pi prec emin mu grid B lam sl)
    (two_R0i prec emin mu grid B lam sl) K /\
  cond_point_lower (ustar_q prec) (two_Pi prec emin mu grid B lam sl) (two_Pi prec emin mu grid B lam sl)
    (two_R0i prec emin mu grid B lam sl) K /\
  cond_point_upper (ustar_q prec) (two_Pi prec emin mu grid B lam sl) (two_Pi prec emin mu grid B lam sl)
    (two_R0i prec emin mu grid B lam sl) K /\
  cond_tail_high (ustar_q prec) (two_Pi prec emin mu grid B lam sl) (two_Pi prec emin mu grid B lam sl)
    (two_R0i prec emin mu grid B lam sl) K ->
  two_Kc prec emin mu grid B lam sl g <= K ->
  / (ustar_q prec * ustar_q prec) < two_R0 prec emin mu grid B lam sl ->
  / (ustar_q prec * ustar_q prec) < two_R0i prec emin mu grid B lam sl ->
  2 <= exp (tight_W prec emin grid B / lam) ->
  normal_min prec emin <= exp (- (tight_D prec emin grid B + tight_mu prec mu * tight_D prec emin grid B + sl) / lam) ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob prec emin choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam) * K * snap_output_prob prec emin choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros prec emin Hprec Hemin choice lnf mu pr t grid B g lam K sl Hmu Hpr Hlnf Hlam Fl Hgrid HB Hg Hsl HK1
    HKb HKa HKi HKc HR0 HR0i HW2 Hrange x x' out Hx Hx'.
  apply (float_snap_dp_two prec emin Hprec choice lnf mu (proj1 Hmu) pr Hpr t grid B g lam K sl); try assumption.
  exact (pipeline_ok_of_log_bpow prec emin Hprec Hemin choice lnf mu lam Hmu Hlnf Hlam).
Qed.
