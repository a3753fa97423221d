(** * Binary snapping with the input inside a bucket taken piece by piece
    [float_snap_dp_two] (SnapTwoSidedDP.v) charges an input x′ inside a bucket
    the four conditions of [two_mass_widen] over the whole t-range, with both
    ends displaced by x′'s whole μ·Λ.  Here the bucket is cut into n pieces:
    on the piece j (t between R^((j−1)/n) and R^(j/n) in the units of the
    narrowed lower end, which is x′ within j/n of the bucket's width from the
    lower end and within (n − j + 1)/n from the upper one) the displacements
    are at most [two_Pj] and [two_Qj], and [two_cond_centre]
    (SnapTwoSidedMid.v) needs the centre conditions at the piece's two ends
    only; the first piece also the low tail and the point 1/q, the last one the
    high tail and the point R·q ([two_piece]).  Outside a bucket and at the
    clamped outputs the conditions and the proof are [float_snap_dp_two]'s
    ([two_dp_by]): this file proves only the inside case ([two_inside_pieces]).  The result is
    [float_snap_dp_two_split] (and [_correct]); with n = 1 its inside
    conditions are [float_snap_dp_two]'s up to the slack. *)
From Coq Require Import ZArith Reals Lra Lia Classical_Prop.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Snapping Rounding Clamp SnapBound.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapInterior SnapClamp SnapRatio
  SnapTailRatio SnapPipeline SnapThreshold SnapTight SnapTwoSided SnapTwoSidedRatio SnapTwoSidedTail SnapTwoSidedCond
  SnapTwoSidedDP SnapTwoSidedMid.

Local Open Scope R_scope.

Section TwoSidedPieces.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Notation eta := (eta prec).
Notation normal_min := (normal_min prec emin).
Notation format := (generic_format radix2 (FLT_exp emin prec)).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation tmu := (tight_mu prec mu).
Notation q0 := (ustar_q prec).
Notation tD := (tight_D prec emin).
Notation tW := (tight_W prec emin).
Notation two_err := (two_err prec emin).
Notation two_Pn := (two_Pn prec emin mu).
Notation two_Pf := (two_Pf prec emin mu).
Notation two_R0 := (two_R0 prec emin mu).
Notation two_R0i := (two_R0i prec emin mu).
Notation two_Kc := (two_Kc prec emin mu).

(** The bounds on p and Q for an input in the piece j of n of a bucket: the
    other input's distance [tight_D], its own j/n (lower end) and (n − j + 1)/n
    (upper end) of the widest bucket. *)
Definition two_Pj (grid B lam sl : R) (n j : nat) : R :=
  exp ((tmu * (tD grid B + INR j / INR n * (grid + 2 * two_err grid B)) + 2 * sl) / lam).
Definition two_Qj (grid B lam sl : R) (n j : nat) : R :=
  exp ((tmu * (tD grid B + (INR n - INR j + 1) / INR n * (grid + 2 * two_err grid B)) + 2 * sl) / lam).


Variables (t : tie) (grid B : R) (g : Z) (lam K sl : R).
Hypothesis Hgrid : 0 < grid.
Hypothesis HB : 0 < B.
Hypothesis Hg : (IZR g - 1) * grid < B <= IZR g * grid.
Hypothesis Hok : pipeline_ok lam.
Hypothesis Hfl : format lam.
Hypothesis Hsl : 0 < sl.
Hypothesis HK1 : 1 <= K.
(** x′ below an interior bucket, above it, inside it. *)
Hypothesis HKb : cond_tail_low q0 (two_Pn grid B lam sl) (two_Pf grid B lam sl) (two_R0 grid B lam sl) K /\
  cond_point_lower q0 (two_Pn grid B lam sl) (two_Pf grid B lam sl) (two_R0 grid B lam sl) K.
Hypothesis HKa : cond_tail_high q0 (two_Pf grid B lam sl) (two_Pn grid B lam sl) (two_R0 grid B lam sl) K /\
  cond_point_upper q0 (two_Pf grid B lam sl) (two_Pn grid B lam sl) (two_R0 grid B lam sl) K.
Hypothesis HKc : two_Kc grid B lam sl g <= K.
(** x′ inside a bucket: n pieces. *)
Variable n : nat.
Hypothesis Hn : (1 <= n)%nat.
Hypothesis HKp : forall j, (1 <= j <= n)%nat ->
  two_piece q0 (two_Pj grid B lam sl n j) (two_Qj grid B lam sl n j) (two_R0i grid B lam sl) K n j.
Hypothesis Hmu2 : tmu <= / 2.
Hypothesis HRn : / q0 <= exp (ln (two_R0i grid B lam sl) / INR n).
(** The narrowed buckets stay wider than U*'s factor twice, the buckets wider than ln 2. *)
Hypothesis HR0 : / (q0 * q0) < two_R0 grid B lam sl.
Hypothesis HR0i : / (q0 * q0) < two_R0i grid B lam sl.
Hypothesis HW2 : 2 <= exp (tW grid B / lam).
(** Every interval of ln u stays above ln of the smallest normal. *)
Hypothesis Hrange : normal_min <= exp (- (tD grid B + tmu * tD grid B + sl) / lam).

Let Hlam : 0 < lam.
Proof. destruct Hok as [Hl _]. assert (Hnm := normal_min_pos prec emin). lra. Qed.

Let He : 0 < eta.
Proof. exact (eta_pos prec). Qed.

Let Hq : 0 < q0 <= 1.
Proof. unfold ustar_q. assert (Hs := eta_small prec Hprec). lra. Qed.

Let Hm : 0 <= tmu.
Proof. exact (tight_mu_nonneg prec mu Hmu). Qed.

Let Hinvlam : 0 < / lam.
Proof. apply Rinv_0_lt_compat. exact Hlam. Qed.

Let lam_exp_mono : forall u v, u <= v -> exp (u / lam) <= exp (v / lam).
Proof. intros u v H. apply exp_le_iff. unfold Rdiv. apply Rmult_le_compat_r; lra. Qed.

Let tmu_le : forall u v, u <= v -> tmu * u <= tmu * v.
Proof. intros u v H. apply Rmult_le_compat_l; lra. Qed.

(** ** x′ inside a bucket: the piece that holds it *)
Lemma two_inside_pieces : two_mass_inside prec emin mu grid B lam K sl.
Proof.
  intros x x' A B' Hx Hx' [Xb Xa] [HW Hwid] DAx DBx dA dB nA nB al p Q R DA1 DB1 Hal Hp1 HQ1.
  assert (N1 : Rabs (A - x') + Rabs (B' - x') <= grid + 2 * two_err grid B).
  { rewrite (Rabs_left1 (A - x')) by lra. rewrite (Rabs_pos_eq (B' - x')) by lra. lra. }
  assert (PR : two_R0i grid B lam sl <= R).
  { unfold R, two_R0i. apply lam_exp_mono. unfold nA, nB.
    assert (tmu * (Rabs (A - x') + Rabs (B' - x')) <= tmu * (grid + 2 * two_err grid B)) by (apply tmu_le; exact N1). lra. }
  assert (HRq : / (q0 * q0) < R) by lra.
  assert (Hq1 : 1 <= / q0) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
  assert (Hqq1 : 1 <= / (q0 * q0)).
  { rewrite Rinv_mult. replace 1 with (1 * 1) by ring. apply Rmult_le_compat; lra. }
  assert (EnA : nA = tmu * (x' - A) + sl) by (unfold nA; rewrite (Rabs_left1 (A - x')) by lra; f_equal; f_equal; ring).
  assert (EnB : nB = tmu * (B' - x') + sl) by (unfold nB; rewrite (Rabs_pos_eq (B' - x')) by lra; reflexivity).
  set (L := B' - nB - A - nA). set (v := x' - A - nA).
  assert (ElnR : ln R = L / lam) by (unfold R, L; apply ln_exp).
  assert (HlnR : 0 < ln R) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (HL : 0 < L).
  { replace L with (ln R * lam) by (rewrite ElnR; field; lra). apply Rmult_lt_0_compat; lra. }
  assert (Et : exp (x' / lam) = al * exp (v / lam)) by (unfold al, v; rewrite <- exp_plus; f_equal; field; lra).
  assert (Hn0 : 0 < INR n) by (apply lt_0_INR; lia).
  destruct (piece_exists n (INR n * v / L) Hn) as (j & Hj & Hlo & Hhi).
  assert (Hj1 : 1 <= INR j) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  assert (Hjn : INR j <= INR n) by (apply le_INR; lia).
  set (f1 := (INR j - 1) / INR n). set (f2 := INR j / INR n).
  assert (Hf1 : 0 <= f1 <= 1).
  { unfold f1. split; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]|].
    apply div_le1; lra. }
  assert (Hf2 : 0 <= f2 <= 1).
  { unfold f2. split; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]|].
    apply div_le1; lra. }
  assert (Ey : forall c, c / INR n * L = c * (INR n * v / L) / INR n * L / (INR n * v / L) \/ v = 0).
  { intros c. destruct (Req_dec v 0) as [|Hv]; [right; assumption|left]. field. repeat split; lra. }
  clear Ey.
  (* the piece's bounds on v, in the exponent *)
  assert (V1 : j <> 1%nat -> f1 * L <= v).
  { intros J. destruct Hlo as [J'|Hlo]; [contradiction|].
    replace v with ((INR n * v / L) * (L / INR n)) by (field; lra).
    unfold f1. replace ((INR j - 1) / INR n * L) with ((INR j - 1) * (L / INR n)) by (field; lra).
    apply Rmult_le_compat_r; [apply Rlt_le, Rdiv_lt_0_compat; lra|exact Hlo]. }
  assert (V2 : j <> n -> v <= f2 * L).
  { intros J. destruct Hhi as [J'|Hhi]; [contradiction|].
    replace v with ((INR n * v / L) * (L / INR n)) by (field; lra).
    unfold f2. replace (INR j / INR n * L) with (INR j * (L / INR n)) by (field; lra).
    apply Rmult_le_compat_r; [apply Rlt_le, Rdiv_lt_0_compat; lra|exact Hhi]. }
  (* the displacements of x′ *)
  assert (HmuE : 0 <= tmu <= / 2) by lra.
  assert (NA : tmu * (x' - A) <= tmu * (f2 * (B' - A)) + sl).
  { destruct (Nat.eq_dec j n) as [J|J].
    - replace f2 with 1 by (unfold f2; rewrite J; field; lra).
      assert (tmu * (x' - A) <= tmu * (1 * (B' - A))) by (apply tmu_le; lra). lra.
    - apply (piece_disp tmu (x' - A) (B' - A) f2 sl HmuE (Rlt_le _ _ Hsl) Hf2).
      assert (H := V2 J). unfold v, L in H. rewrite EnA, EnB in H. lra. }
  assert (NB : tmu * (B' - x') <= tmu * ((1 - f1) * (B' - A)) + sl).
  { destruct (Nat.eq_dec j 1) as [J|J].
    - replace f1 with 0 by (unfold f1; rewrite J; cbn [INR]; field; lra).
      assert (tmu * (B' - x') <= tmu * ((1 - 0) * (B' - A))) by (apply tmu_le; lra). lra.
    - replace (B' - x') with ((B' - A) - (x' - A)) by ring.
      apply (piece_disp tmu ((B' - A) - (x' - A)) (B' - A) (1 - f1) sl HmuE (Rlt_le _ _ Hsl) ltac:(lra)).
      assert (H := V1 J). unfold v, L in H. rewrite EnA, EnB in H. lra. }
  assert (Pp : p <= two_Pj grid B lam sl n j).
  { unfold p, two_Pj. apply lam_exp_mono. fold f2. rewrite EnA.
    assert (tmu * (f2 * (B' - A)) <= tmu * (f2 * (grid + 2 * two_err grid B)))
      by (apply tmu_le; apply Rmult_le_compat_l; lra).
    unfold dA. lra. }
  assert (PQ : Q <= two_Qj grid B lam sl n j).
  { unfold Q, two_Qj. apply lam_exp_mono.
    replace ((INR n - INR j + 1) / INR n) with (1 - f1) by (unfold f1; field; lra). rewrite EnB.
    assert (tmu * ((1 - f1) * (B' - A)) <= tmu * ((1 - f1) * (grid + 2 * two_err grid B)))
      by (apply tmu_le; apply Rmult_le_compat_l; lra).
    unfold dB. lra. }
  destruct (HKp j Hj) as (P1 & P2 & P3 & P4).
  assert (HR0i0 : 0 < two_R0i grid B lam sl) by (unfold two_R0i; apply exp_pos).
  assert (Hp0 : 0 < p) by lra. assert (HQ0 : 0 < Q) by lra. assert (HR00 : 0 < R) by lra.
  assert (Mp : 1 <= p <= two_Pj grid B lam sl n j) by lra.
  assert (MQ : 1 <= Q <= two_Qj grid B lam sl n j) by lra.
  assert (MR : 0 < two_R0i grid B lam sl <= R) by lra.
  (* R^(1/n) ≥ 1/q *)
  assert (Hlnr : ln (two_R0i grid B lam sl) <= ln R) by (apply exp_le_iff; rewrite !exp_ln; lra).
  assert (Hroot : / q0 <= exp (ln R / INR n)).
  { apply Rle_trans with (exp (ln (two_R0i grid B lam sl) / INR n)); [exact HRn|].
    apply exp_le_iff. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra. }
  assert (Lo : (j = 1%nat /\ exp (x' / lam) <= al / q0) \/
    exists s1, / q0 <= s1 /\ al * s1 <= exp (x' / lam) /\ cond_centre q0 p Q R K s1).
  { destruct (Nat.eq_dec j 1) as [J|J].
    - destruct (Rle_lt_dec (exp (x' / lam)) (al / q0)) as [T|T]; [left; split; assumption|right].
      exists (/ q0). split; [lra|split; [unfold Rdiv in T; lra|]].
      apply cond_centre_lower; [lra|lra|lra|lra|].
      exact (cond_point_lower_mono q0 p Q R _ _ _ K Hq Mp MQ MR HK1 (proj2 (P1 J))).
    - right. exists (exp (f1 * ln R)). split; [|split].
      + apply Rle_trans with (exp (ln R / INR n)); [exact Hroot|]. apply exp_le_iff.
        unfold f1. unfold Rdiv. rewrite (Rmult_comm (ln R)).
        apply Rmult_le_compat_r; [lra|]. rewrite <- (Rmult_1_l (/ INR n)) at 1.
        apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|].
        assert (2 <= INR j) by (replace 2 with (INR 2) by (cbn [INR]; ring); apply le_INR; lia). lra.
      + rewrite Et. apply Rmult_le_compat_l; [lra|]. apply exp_le_iff. rewrite ElnR.
        replace (f1 * (L / lam)) with ((f1 * L) / lam) by (field; lra).
        apply Rmult_le_compat_r; [lra|]. exact (V1 J).
      + apply (cond_mid_mono q0 p Q R _ _ _ K f1 Hq Mp MQ MR HK1 Hf1). apply P2. lia. }
  assert (Hi : (j = n /\ al * R * q0 <= exp (x' / lam)) \/
    exists s2, s2 <= R * q0 /\ exp (x' / lam) <= al * s2 /\ cond_centre q0 p Q R K s2).
  { destruct (Nat.eq_dec j n) as [J|J].
    - destruct (Rle_lt_dec (al * R * q0) (exp (x' / lam))) as [T|T]; [left; split; assumption|right].
      exists (R * q0). split; [lra|split; [lra|]].
      apply cond_centre_upper; [lra|lra|lra|lra|].
      exact (cond_point_upper_mono q0 p Q R _ _ _ K Hq Mp MQ MR HK1 (proj1 (P4 J))).
    - right. exists (exp (f2 * ln R)). split; [|split].
      + (* R^f2 · R^(1/n) ≤ R *)
        assert (Hjn1 : INR j + 1 <= INR n).
        { replace (INR j + 1) with (INR (S j)) by (rewrite S_INR; ring). apply le_INR. lia. }
        assert (E1 : exp (f2 * ln R) * exp (ln R / INR n) <= R).
        { rewrite <- exp_plus. apply Rle_trans with (exp (ln R)); [|rewrite exp_ln; lra]. apply exp_le_iff.
          unfold f2. replace (INR j / INR n * ln R + ln R / INR n) with ((INR j + 1) / INR n * ln R) by (field; lra).
          rewrite <- (Rmult_1_l (ln R)) at 2. apply Rmult_le_compat_r; [lra|]. apply div_le1; lra. }
        assert (E2 : exp (f2 * ln R) <= R / exp (ln R / INR n)).
        { apply (Rmult_le_reg_r (exp (ln R / INR n))); [apply exp_pos|].
          replace (R / exp (ln R / INR n) * exp (ln R / INR n)) with R by (field; apply Rgt_not_eq, exp_pos). exact E1. }
        apply Rle_trans with (R / exp (ln R / INR n)); [exact E2|].
        unfold Rdiv. apply Rmult_le_compat_l; [lra|].
        replace q0 with (/ / q0) by (field; lra). apply Rinv_le_contravar; [apply Rinv_0_lt_compat; lra|exact Hroot].
      + rewrite Et. apply Rmult_le_compat_l; [lra|]. apply exp_le_iff. rewrite ElnR.
        replace (f2 * (L / lam)) with ((f2 * L) / lam) by (field; lra).
        apply Rmult_le_compat_r; [lra|]. exact (V2 J).
      + apply (cond_mid_mono q0 p Q R _ _ _ K f2 Hq Mp MQ MR HK1 Hf2). apply P3. lia. }
  destruct Lo as [[J T]|(s1 & S1 & T1 & C1)].
  -- destruct (P1 J) as [C1 C2].
     apply (two_cond_low q0 p Q R K al Hq Hp1 HQ1 HRq HK1 Hal); [split; [apply exp_pos|exact T]| |].
     ++ exact (cond_tail_low_mono q0 p Q R _ _ _ K Hq Mp MQ MR HK1 C1).
     ++ exact (cond_point_lower_mono q0 p Q R _ _ _ K Hq Mp MQ MR HK1 C2).
  -- destruct Hi as [[J T]|(s2 & S2 & T2 & C2)].
     ++ destruct (P4 J) as [C3 C4].
        apply (two_cond_high q0 p Q R K al Hq Hp1 HQ1 HRq HK1 Hal); [exact T| |].
        ** exact (cond_tail_high_mono q0 p Q R _ _ _ K Hq Mp MQ MR HK1 C4).
        ** exact (cond_point_upper_mono q0 p Q R _ _ _ K Hq Mp MQ MR HK1 C3).
     ++ apply (two_cond_centre q0 p Q R K al Hq Hp1 HQ1 HRq HK1 Hal s1 s2); try assumption.
        ** apply (Rmult_le_reg_l al); lra.
        ** split; assumption.
Qed.

(** ** An interior bucket, and every output: [float_snap_dp_two]'s assembly *)
Lemma two_split_interior : forall x x' k, Rabs x <= B -> Rabs x' <= B -> - B < grid * IZR k < B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = grid * IZR k) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = grid * IZR k).
Proof.
  apply (two_interior_by prec emin Hprec choice lnf mu Hmu pr Hpr t grid B lam K sl); try assumption.
  exact two_inside_pieces.
Qed.

Theorem float_snap_dp_two_split : forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = out).
Proof.
  apply (two_dp_by prec emin Hprec choice lnf mu Hmu pr Hpr t grid B g lam K sl); try assumption.
  exact two_inside_pieces.
Qed.

End TwoSidedPieces.

(** The correctly rounded logarithm of the arithmetic itself: no hypothesis on it, and λ ≥ 2^(emin + 2·prec)
    instead of [pipeline_ok]. *)
Theorem float_snap_dp_two_split_correct : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  (emin + 2 * prec <= 1)%Z ->
  forall choice pr t grid B g lam K sl n, uprob pr ->
  bpow radix2 (emin + 2 * prec) <= lam -> generic_format radix2 (FLT_exp emin prec) lam ->
  0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid -> 0 < sl -> 1 <= K ->
  cond_tail_low (ustar_q prec) (two_Pn prec emin (eta prec) grid B lam sl) (two_Pf prec emin (eta prec) grid B lam sl)
    (two_R0 prec emin (eta prec) grid B lam sl) K /\
  cond_point_lower (ustar_q prec) (two_Pn prec emin (eta prec) grid B lam sl) (two_Pf prec emin (eta prec) grid B lam sl)
    (two_R0 prec emin (eta prec) grid B lam sl) K ->
  cond_tail_high (ustar_q prec) (two_Pf prec emin (eta prec) grid B lam sl) (two_Pn prec emin (eta prec) grid B lam sl)
    (two_R0 prec emin (eta prec) grid B lam sl) K /\
  cond_point_upper (ustar_q prec) (two_Pf prec emin (eta prec) grid B lam sl) (two_Pn prec emin (eta prec) grid B lam sl)
    (two_R0 prec emin (eta prec) grid B lam sl) K ->
  two_Kc prec emin (eta prec) grid B lam sl g <= K ->
  (1 <= n)%nat ->
  (forall j, (1 <= j <= n)%nat ->
    two_piece (ustar_q prec) (two_Pj prec emin (eta prec) grid B lam sl n j)
      (two_Qj prec emin (eta prec) grid B lam sl n j) (two_R0i prec emin (eta prec) grid B lam sl) K n j) ->
  tight_mu prec (eta prec) <= / 2 ->
  / ustar_q prec <= exp (ln (two_R0i prec emin (eta prec) grid B lam sl) / INR n) ->
  / (ustar_q prec * ustar_q prec) < two_R0 prec emin (eta prec) grid B lam sl ->
  / (ustar_q prec * ustar_q prec) < two_R0i prec emin (eta prec) grid B lam sl ->
  2 <= exp (tight_W prec emin grid B / lam) ->
  normal_min prec emin <= exp (- (tight_D prec emin grid B + tight_mu prec (eta prec) * tight_D prec emin grid B + sl) / lam) ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob prec emin choice (fun v => rnd prec emin choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam) * K *
    snap_output_prob prec emin choice (fun v => rnd prec emin choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros prec emin Hprec Hemin Hsmall choice pr t grid B g lam K sl n Hpr Hlam Fl Hgrid HB Hg Hsl HK1
    HKb HKa HKc Hn HKp Hmu2 HRn HR0 HR0i HW2 Hrange x x' out Hx Hx'.
  apply (float_snap_dp_two_split prec emin Hprec choice _ (eta prec) (eta_nonneg prec) pr Hpr t grid B g lam K sl) with (n := n);
    try assumption.
  exact (pipeline_ok_correct prec emin Hprec Hemin choice lam Hsmall Hlam).
Qed.
