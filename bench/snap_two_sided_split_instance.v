From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapInterior SnapTight SnapPipeline
  SnapTwoSidedRatio SnapTwoSidedCond SnapTwoSidedDP SnapTwoSidedMid SnapTwoSidedPieces.
Local Open Scope R_scope.

(** * The seed's constant at λ = 1, Λ = 2λ, B = 3λ/4 from [float_snap_dp_two_split_correct], n = 8
    (a check by hand, not run by the tests: coqc -Q obligations/theories Obligations
    bench/snap_two_sided_split_instance.v).  Binary64, a correctly rounded log, every tie rule,
    all real inputs in [−B, B]: Pr[out | x] ≤ e^(|x − x′|/λ + 12·η·B/λ + 2·η)·Pr[out | x′], here
    11·η.  [float_snap_dp_two]'s K is about e^(14.44·η) there (its inside conditions), the split
    route's about e^(10.40·η) (bench/snap_refined_bound.py --coq-split=8); with 10.3 for 11 in
    [ts_K] the piece conditions are refused ([ts_pieces]). *)
Definition ts_K : R := exp (11 * eta 53).
Definition ts_sl : R := / 1152921504606846976.
Definition ts_B : R := 3 / 4.

Lemma ts_eta : eta 53 = / 9007199254740992.
Proof. unfold eta, Relative.u_ro. simpl. change (Z.pow_pos 2 52) with 4503599627370496%Z. field. Qed.

Lemma ts_tiny : bpow radix2 (-1074) = powerRZ 2 (-1074).
Proof. rewrite bpow_powerRZ. reflexivity. Qed.

Lemma ts_near : two_near 53 (-1074) 2 ts_B = ts_B.
Proof.
  unfold two_near. rewrite Rmax_right; [ring|]. unfold two_err, ts_B. rewrite ts_eta, ts_tiny. interval.
Qed.

Ltac ts_unfold := unfold two_Pn, two_Pf, two_Pj, two_Qj, two_R0, two_R0i, two_Kc, two_clamp, ts_K, ts_sl,
  cond_tail_low, cond_point_lower, cond_point_upper, cond_tail_high, cond_mid, cond_centre;
  rewrite ?ts_near; unfold two_err, tight_D, tight_W, tight_mu, ustar_q, ts_B; rewrite ?ts_eta, ?ts_tiny.

Lemma ts_below :
  cond_tail_low (ustar_q 53) (two_Pn 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) (two_Pf 53 (-1074) (eta 53) 2 ts_B 1 ts_sl)
    (two_R0 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) ts_K /\
  cond_point_lower (ustar_q 53) (two_Pn 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) (two_Pf 53 (-1074) (eta 53) 2 ts_B 1 ts_sl)
    (two_R0 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) ts_K.
Proof. ts_unfold. split; interval with (i_prec 120). Qed.

Lemma ts_above :
  cond_tail_high (ustar_q 53) (two_Pf 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) (two_Pn 53 (-1074) (eta 53) 2 ts_B 1 ts_sl)
    (two_R0 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) ts_K /\
  cond_point_upper (ustar_q 53) (two_Pf 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) (two_Pn 53 (-1074) (eta 53) 2 ts_B 1 ts_sl)
    (two_R0 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) ts_K.
Proof. ts_unfold. split; interval with (i_prec 120). Qed.

Lemma ts_pieces : forall j, (1 <= j <= 8)%nat ->
  two_piece (ustar_q 53) (two_Pj 53 (-1074) (eta 53) 2 ts_B 1 ts_sl 8 j) (two_Qj 53 (-1074) (eta 53) 2 ts_B 1 ts_sl 8 j)
    (two_R0i 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) ts_K 8 j.
Proof.
  intros j Hj.
  assert (J : j = 1%nat \/ j = 2%nat \/ j = 3%nat \/ j = 4%nat \/ j = 5%nat \/ j = 6%nat \/ j = 7%nat \/ j = 8%nat)
    by lia.
  unfold two_piece.
  split; [|split; [|split]]; intros Hc; (destruct J as [->|[->|[->|[->|[->|[->|[->| ->]]]]]]]; try lia);
    ts_unfold; cbn [INR]; repeat split; interval with (i_prec 120).
Qed.

Lemma ts_clamped : two_Kc 53 (-1074) (eta 53) 2 ts_B 1 ts_sl 1 <= ts_K.
Proof. ts_unfold. interval with (i_prec 120). Qed.

Lemma ts_rest : 1 <= ts_K /\
  tight_mu 53 (eta 53) <= / 2 /\
  / ustar_q 53 <= exp (ln (two_R0i 53 (-1074) (eta 53) 2 ts_B 1 ts_sl) / INR 8) /\
  / (ustar_q 53 * ustar_q 53) < two_R0 53 (-1074) (eta 53) 2 ts_B 1 ts_sl /\
  / (ustar_q 53 * ustar_q 53) < two_R0i 53 (-1074) (eta 53) 2 ts_B 1 ts_sl /\
  2 <= exp (tight_W 53 (-1074) 2 ts_B / 1) /\
  normal_min 53 (-1074) <= exp (- (tight_D 53 (-1074) 2 ts_B + tight_mu 53 (eta 53) * tight_D 53 (-1074) 2 ts_B + ts_sl) / 1).
Proof. unfold normal_min. rewrite bpow_powerRZ. ts_unfold. cbn [INR]. repeat split; interval with (i_prec 120). Qed.

Theorem ts_seed : forall (choice : Z -> bool) (pr : (R -> Prop) -> R) (t : tie), uprob pr ->
  forall x x' out, Rabs x <= ts_B -> Rabs x' <= ts_B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr 1 x (fun w => float_snap t 2 ts_B w = out) <=
  exp (Rabs (x - x') / 1 + 11 * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr 1 x' (fun w => float_snap t 2 ts_B w = out).
Proof.
  intros choice pr t Hpr x x' out Hx Hx'.
  destruct ts_rest as (HK1 & Hmu2 & HRn & HR0 & HR0i & HW2 & Hrange).
  rewrite exp_plus. fold ts_K.
  apply (float_snap_dp_two_split_correct 53 (-1074) eq_refl ltac:(lia) ltac:(lia) choice pr t 2 ts_B 1 1 ts_K ts_sl 8 Hpr);
    try assumption.
  - rewrite binary64_lam_bound. interval.
  - apply generic_format_FLT. exists (Float radix2 1 0). 2: { vm_compute. reflexivity. } 2: { simpl. lia. }
    unfold F2R. simpl. ring.
  - lra.
  - unfold ts_B. lra.
  - unfold ts_B. lra.
  - unfold ts_sl. lra.
  - exact ts_below.
  - exact ts_above.
  - exact ts_clamped.
  - lia.
  - exact ts_pieces.
Qed.
