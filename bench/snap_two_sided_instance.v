From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapInterior SnapTight SnapPipeline
  SnapTwoSidedRatio SnapTwoSidedCond SnapTwoSidedDP.
Local Open Scope R_scope.

(** * The seed's constant at λ = 1, Λ = 2λ, B = 2λ from [float_snap_dp_two_correct]
    (a check by hand, not run by the tests: coqc -Q obligations/theories Obligations
    bench/snap_two_sided_instance.v, ≈ 5 s CPU; with 20.9 for 26 in [tw_K] [tw_inside] is refused.) (check: coqc -Q obligations/theories Obligations bench/snap_two_sided_instance.v; 26·η proved, the route's K ≈ e^(21.0·η), 20.9·η refused at [tw_inside])
    binary64, a correctly rounded log, every tie rule, all real inputs in [−B, B]:
    Pr[out | x] ≤ e^(|x − x′|/λ + 12·η·B/λ + 2·η)·Pr[out | x′], here 26·η; the route's K is about
    e^(21.0·η) (bench/snap_refined_bound.py --coq), the largest condition that of an input inside
    a bucket ([tw_inside]). *)
Definition tw_K : R := exp (26 * eta 53).
Definition tw_sl : R := / 1152921504606846976.

Lemma tw_eta : eta 53 = / 9007199254740992.
Proof. unfold eta, Relative.u_ro. simpl. change (Z.pow_pos 2 52) with 4503599627370496%Z. field. Qed.

Lemma tw_tiny : bpow radix2 (-1074) = powerRZ 2 (-1074).
Proof. rewrite bpow_powerRZ. reflexivity. Qed.

Lemma tw_near : two_near 53 (-1074) 2 2 = 2 + (2 - 2 / 2 + two_err 53 (-1074) 2 2).
Proof.
  unfold two_near. rewrite Rmax_left; [reflexivity|]. unfold two_err. rewrite tw_eta, tw_tiny. interval.
Qed.

Ltac tw_unfold := unfold two_Pn, two_Pf, two_Pi, two_R0, two_R0i, two_Kc, two_in, two_clamp, tw_K, tw_sl,
  cond_tail_low, cond_point_lower, cond_point_upper, cond_tail_high;
  rewrite ?tw_near; unfold two_err, tight_D, tight_W, tight_mu, ustar_q; rewrite ?tw_eta, ?tw_tiny.

Lemma tw_below :
  cond_tail_low (ustar_q 53) (two_Pn 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pf 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K /\
  cond_point_lower (ustar_q 53) (two_Pn 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pf 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K.
Proof. tw_unfold. split; interval with (i_prec 120). Qed.

Lemma tw_above :
  cond_tail_high (ustar_q 53) (two_Pf 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pn 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K /\
  cond_point_upper (ustar_q 53) (two_Pf 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pn 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K.
Proof. tw_unfold. split; interval with (i_prec 120). Qed.

Lemma tw_inside :
  cond_tail_low (ustar_q 53) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0i 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K /\
  cond_point_lower (ustar_q 53) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0i 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K /\
  cond_point_upper (ustar_q 53) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0i 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K /\
  cond_tail_high (ustar_q 53) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl) (two_Pi 53 (-1074) (eta 53) 2 2 1 tw_sl)
    (two_R0i 53 (-1074) (eta 53) 2 2 1 tw_sl) tw_K.
Proof. tw_unfold. repeat split; interval with (i_prec 120). Qed.

Lemma tw_clamped : two_Kc 53 (-1074) (eta 53) 2 2 1 tw_sl 1 <= tw_K.
Proof. tw_unfold. interval with (i_prec 120). Qed.

Lemma tw_rest : 1 <= tw_K /\
  / (ustar_q 53 * ustar_q 53) < two_R0 53 (-1074) (eta 53) 2 2 1 tw_sl /\
  / (ustar_q 53 * ustar_q 53) < two_R0i 53 (-1074) (eta 53) 2 2 1 tw_sl /\
  2 <= exp (tight_W 53 (-1074) 2 2 / 1) /\
  normal_min 53 (-1074) <= exp (- (tight_D 53 (-1074) 2 2 + tight_mu 53 (eta 53) * tight_D 53 (-1074) 2 2 + tw_sl) / 1).
Proof. unfold normal_min. rewrite bpow_powerRZ. tw_unfold. repeat split; interval with (i_prec 120). Qed.

Theorem tw_seed : forall (choice : Z -> bool) (pr : (R -> Prop) -> R) (t : tie), uprob pr ->
  forall x x' out, Rabs x <= 2 -> Rabs x' <= 2 ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr 1 x (fun w => float_snap t 2 2 w = out) <=
  exp (Rabs (x - x') / 1 + 26 * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr 1 x' (fun w => float_snap t 2 2 w = out).
Proof.
  intros choice pr t Hpr x x' out Hx Hx'.
  destruct tw_rest as (HK1 & HR0 & HR0i & HW2 & Hrange).
  rewrite exp_plus. fold tw_K.
  apply (float_snap_dp_two_correct 53 (-1074) eq_refl ltac:(lia) ltac:(lia) choice pr t 2 2 1 1 tw_K tw_sl Hpr);
    try assumption.
  - rewrite binary64_lam_bound. interval.
  - apply generic_format_FLT. exists (Float radix2 1 0). 2: { vm_compute. reflexivity. } 2: { simpl. lia. }
    unfold F2R. simpl. ring.
  - lra.
  - lra.
  - lra.
  - unfold tw_sl. lra.
  - exact tw_below.
  - exact tw_above.
  - exact tw_inside.
  - exact tw_clamped.
Qed.
