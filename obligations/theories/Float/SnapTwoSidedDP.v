(** * Binary snapping with U*'s factor at one end per sign and per-end, per-input displacements
    [float_snap_dp_tight] (SnapTight.v) moves every threshold by one δ for both
    inputs and puts U*'s factor at both ends of a bucket.  Here every output is
    bounded with the displacements it actually has ([two_ratio_of_mass],
    [two_sided_top], [two_sided_bottom]): for an interior bucket [A, B′] the
    input x at distance |A − x| ≤ [tight_D] from an end, and x′ on one side of
    the bucket or inside it:
    - x′ below the bucket: the lower end is the near one; the two inputs'
      distances to it add up to at most 2·[two_near] = 2B + 2·max(B − Λ/2 + err, 0)
      (instead of 2·(2B + Λ/2)), and only the low tail and the point t = a2 of
      [two_mass_widen] matter ([two_cond_low]);
    - x′ above: the mirror image ([two_cond_high]);
    - x′ inside: each end's distances add up to at most [two_in] and the bucket
      is narrowed by the width only ([two_cond_all]);
    and a clamped output pays U*'s factor once and the two inputs' distances to
    its threshold, at most 2·[two_clamp] = 2·(B + (g − ½)Λ + err).  The
    conditions on K are the normalised ones of SnapTwoSidedCond.v at the bounds
    ([two_Pn], [two_Pf], [two_Pi] for the displacements, [two_R0], [two_R0i] for
    the narrowed width); the result is [float_snap_dp_two]: every output's
    ratio is at most e^(|x − x′|/λ)·K.  A slack sl > 0 makes the narrowed
    displacements strict, as U*'s atoms require. *)
From Coq Require Import ZArith Reals Lra Lia Classical_Prop.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Snapping Rounding Clamp SnapBound.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapInterior SnapClamp SnapRatio
  SnapTailRatio SnapPipeline SnapThreshold SnapTight SnapTwoSided SnapTwoSidedRatio SnapTwoSidedTail SnapTwoSidedCond.

Local Open Scope R_scope.

Section TwoSidedDP.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Notation eta := (eta prec).
Notation rnd := (rnd prec emin choice).
Notation normal_min := (normal_min prec emin).
Notation format := (generic_format radix2 (FLT_exp emin prec)).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation tmu := (tight_mu prec mu).
Notation thr := (thr prec emin Hprec choice).
Notation q0 := (ustar_q prec).
Notation tD := (tight_D prec emin).
Notation tW := (tight_W prec emin).

(** A threshold's distance to its edge, for edges within B + Λ/2 of 0. *)
Definition two_err (grid B : R) : R := 2 * eta * (B + grid / 2) + bpow radix2 emin.
(** Half the largest sum of the two inputs' distances to the near end of a
    bucket that x′ is outside of. *)
Definition two_near (grid B : R) : R := B + Rmax (B - grid / 2 + two_err grid B) 0.
(** The largest sum of the two inputs' distances to an end of a bucket that x′ is inside of. *)
Definition two_in (grid B : R) : R := tD grid B + grid + 2 * two_err grid B.
(** The largest distance of an input to a clamped output's threshold. *)
Definition two_clamp (grid B : R) (g : Z) : R := B + (IZR g - / 2) * grid + two_err grid B.

(** The bounds on p, Q (near, far, inside) and R (outside, inside). *)
Definition two_Pn (grid B lam sl : R) : R := exp ((tmu * (2 * two_near grid B) + sl) / lam).
Definition two_Pf (grid B lam sl : R) : R := exp ((tmu * (2 * tD grid B) + sl) / lam).
Definition two_Pi (grid B lam sl : R) : R := exp ((tmu * two_in grid B + sl) / lam).
Definition two_R0 (grid B lam sl : R) : R :=
  exp ((tW grid B - tmu * (two_near grid B + tD grid B) - 2 * sl) / lam).
Definition two_R0i (grid B lam sl : R) : R :=
  exp ((tW grid B - tmu * (grid + 2 * two_err grid B) - 2 * sl) / lam).
(** The clamped outputs' factor. *)
Definition two_Kc (grid B lam sl : R) (g : Z) : R := exp ((tmu * (2 * two_clamp grid B g) + sl) / lam) / q0.

Lemma exp3 : forall u v w, exp u * exp v * exp w = exp (u + v + w).
Proof. intros u v w. rewrite !exp_plus. reflexivity. Qed.

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
Hypothesis HKi : cond_tail_low q0 (two_Pi grid B lam sl) (two_Pi grid B lam sl) (two_R0i grid B lam sl) K /\
  cond_point_lower q0 (two_Pi grid B lam sl) (two_Pi grid B lam sl) (two_R0i grid B lam sl) K /\
  cond_point_upper q0 (two_Pi grid B lam sl) (two_Pi grid B lam sl) (two_R0i grid B lam sl) K /\
  cond_tail_high q0 (two_Pi grid B lam sl) (two_Pi grid B lam sl) (two_R0i grid B lam sl) K.
(** The clamped outputs. *)
Hypothesis HKc : two_Kc grid B lam sl g <= K.
(** The narrowed buckets stay wider than U*'s factor twice, the buckets wider than ln 2. *)
Hypothesis HR0 : / (q0 * q0) < two_R0 grid B lam sl.
Hypothesis HR0i : / (q0 * q0) < two_R0i grid B lam sl.
Hypothesis HW2 : 2 <= exp (tW grid B / lam).
(** Every interval of ln u stays above ln of the smallest normal. *)
Hypothesis Hrange : normal_min <= exp (- (tD grid B + tmu * tD grid B + sl) / lam).

Let Hlam : 0 < lam.
Proof. destruct Hok as [Hl _]. assert (Hn := normal_min_pos prec emin). lra. Qed.

Let He : 0 < eta.
Proof. exact (eta_pos prec). Qed.

Let Hq : 0 < q0 <= 1.
Proof. unfold ustar_q. assert (Hs := eta_small prec Hprec). lra. Qed.

Let Hm : 0 <= tmu.
Proof. exact (tight_mu_nonneg prec mu Hmu). Qed.

Let Hb0 : 0 < bpow radix2 emin.
Proof. apply bpow_gt_0. Qed.

Let Hinvlam : 0 < / lam.
Proof. apply Rinv_0_lt_compat. exact Hlam. Qed.

Let lam_exp_mono : forall u v, u <= v -> exp (u / lam) <= exp (v / lam).
Proof. intros u v H. apply exp_le_iff. unfold Rdiv. apply Rmult_le_compat_r; lra. Qed.

Let one_le_exp : forall u, 0 <= u -> 1 <= exp (u / lam).
Proof. intros u H. rewrite <- exp_0. apply lam_exp_mono in H. replace (0 / lam) with 0 in H by (field; lra). exact H. Qed.

Let range_ok : forall v, - (tD grid B + tmu * tD grid B + sl) <= v -> normal_min <= exp (v / lam).
Proof.
  intros v Hv. apply Rle_trans with (exp (- (tD grid B + tmu * tD grid B + sl) / lam)); [exact Hrange|].
  apply lam_exp_mono. lra.
Qed.

(** A threshold is within [two_err] of its edge. *)
Let thr_err : forall e, Rabs e <= B + grid / 2 -> Rabs (thr t e - e) <= two_err grid B.
Proof.
  intros e He'. eapply Rle_trans; [apply thr_near|]. unfold two_err.
  assert (2 * eta * Rabs e <= 2 * eta * (B + grid / 2)) by (apply Rmult_le_compat_l; lra). lra.
Qed.

Let err_nonneg : 0 <= two_err grid B.
Proof. unfold two_err. assert (0 <= 2 * eta * (B + grid / 2)) by (apply Rmult_le_pos; lra). lra. Qed.

Let tmu_le : forall u v, u <= v -> tmu * u <= tmu * v.
Proof. intros u v H. apply Rmult_le_compat_l; lra. Qed.

Let tD_ge : forall e x, Rabs e <= B + grid / 2 -> Rabs x <= B -> Rabs (thr t e - x) <= tD grid B.
Proof. intros e x He' Hx. exact (thr_dist prec emin Hprec choice t grid B e x He' Hx). Qed.

(** ** An interior bucket *)
(** The case x′ inside an interior bucket [A, B′] as a claim: two thresholds between [tight_W]
    and grid + 2·[two_err] apart with x′ between them and x within [tight_D] of both, the
    displacements (dA, dB of x, nA, nB of x′) and p, Q, R and the base al of
    [two_ratio_of_mass]; the wide masses at most K times the narrow ones.
    [two_interior_by] bounds every interior bucket given it; [two_inside_all] proves it with
    [two_cond_all] under [HKi], SnapTwoSidedPieces.v piece by piece. *)
Definition two_mass_inside : Prop := forall x x' A B', Rabs x <= B -> Rabs x' <= B -> A < x' < B' ->
  tW grid B <= B' - A <= grid + 2 * two_err grid B -> Rabs (A - x) <= tD grid B -> Rabs (B' - x) <= tD grid B ->
  let dA := tmu * Rabs (A - x) in let dB := tmu * Rabs (B' - x) in
  let nA := tmu * Rabs (A - x') + sl in let nB := tmu * Rabs (B' - x') + sl in
  let al := exp ((A + nA) / lam) in let p := exp ((dA + nA) / lam) in let Q := exp ((dB + nB) / lam) in
  let R := exp ((B' - nB - A - nA) / lam) in
  tmu * Rabs (A - x) <= tmu * tD grid B -> tmu * Rabs (B' - x) <= tmu * tD grid B -> 0 < al -> 1 <= p -> 1 <= Q ->
  two_mass (al / p) (al * Q * R / q0) (al * q0 / p) (al * Q * R) (exp (x' / lam)) <=
    K * two_mass (al / q0) (al * R) al (al * R * q0) (exp (x' / lam)).

Lemma two_interior_by : two_mass_inside -> forall x x' k, Rabs x <= B -> Rabs x' <= B -> - B < grid * IZR k < B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = grid * IZR k) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = grid * IZR k).
Proof.
  intros Hin x x' k Hx Hx' Hk.
  set (e1 := (IZR k - / 2) * grid). set (e2 := (IZR k + / 2) * grid).
  assert (He1 : Rabs e1 <= B + grid / 2) by (unfold e1; apply Rabs_le; split; lra).
  assert (He2 : Rabs e2 <= B + grid / 2) by (unfold e2; apply Rabs_le; split; lra).
  assert (He1u : e1 <= B - grid / 2) by (unfold e1; lra).
  assert (He2l : - B + grid / 2 <= e2) by (unfold e2; lra).
  assert (Hge : e2 - e1 = grid) by (unfold e1, e2; lra).
  set (A := thr t e1). set (B' := thr t e2).
  assert (TA := thr_err e1 He1). assert (TB := thr_err e2 He2). fold A in TA. fold B' in TB.
  apply Rabs_le_inv in TA. apply Rabs_le_inv in TB.
  assert (HW : tW grid B <= B' - A) by (unfold tight_W; unfold two_err in TA, TB; lra).
  assert (DAx := tD_ge e1 x He1 Hx). assert (DAx' := tD_ge e1 x' He1 Hx').
  assert (DBx := tD_ge e2 x He2 Hx). assert (DBx' := tD_ge e2 x' He2 Hx').
  fold A in DAx, DAx'. fold B' in DBx, DBx'.
  set (dA := tmu * Rabs (A - x)). set (dB := tmu * Rabs (B' - x)).
  set (nA := tmu * Rabs (A - x') + sl). set (nB := tmu * Rabs (B' - x') + sl).
  assert (HdA : 0 <= dA) by (unfold dA; apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (HdB : 0 <= dB) by (unfold dB; apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (HnA : 0 <= tmu * Rabs (A - x')) by (apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (HnB : 0 <= tmu * Rabs (B' - x')) by (apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (XA : Rabs (A - x) <= tD grid B) by (rewrite Rabs_minus_sym; replace (x - A) with (- (A - x)) by ring;
    rewrite Rabs_Ropp; exact DAx).
  clear XA.
  (* the distances, as in thr_dist, are |thr − x| *)
  assert (DA1 : tmu * Rabs (A - x) <= tmu * tD grid B) by (apply tmu_le; exact DAx).
  assert (DA2 : tmu * Rabs (A - x') <= tmu * tD grid B) by (apply tmu_le; exact DAx').
  assert (DB1 : tmu * Rabs (B' - x) <= tmu * tD grid B) by (apply tmu_le; exact DBx).
  assert (DB2 : tmu * Rabs (B' - x') <= tmu * tD grid B) by (apply tmu_le; exact DBx').
  set (al := exp ((A + nA) / lam)). set (p := exp ((dA + nA) / lam)). set (Q := exp ((dB + nB) / lam)).
  set (R := exp ((B' - nB - A - nA) / lam)).
  assert (Hal : 0 < al) by apply exp_pos.
  assert (Hp1 : 1 <= p) by (apply one_le_exp; unfold nA; lra).
  assert (HQ1 : 1 <= Q) by (apply one_le_exp; unfold nB; lra).
  assert (Ewa : wide_plus_lower lam A dA = al / p).
  { unfold wide_plus_lower, al, p. rewrite <- exp_sub. f_equal. field. lra. }
  assert (Ewd : wide_minus_upper lam B' dB = al * Q * R).
  { unfold wide_minus_upper, al, Q, R. rewrite exp3. f_equal. field. lra. }
  assert (Enb : narrow_plus_upper lam B' nB = al * R).
  { unfold narrow_plus_upper, al, R. rewrite <- exp_plus. f_equal. field. lra. }
  assert (Ecmp : forall K', two_mass (al / p) (al * Q * R / q0) (al * q0 / p) (al * Q * R) (exp (x' / lam)) <=
      K' * two_mass (al / q0) (al * R) al (al * R * q0) (exp (x' / lam)) ->
    two_mass (wide_plus_lower lam A dA) (wide_plus_upper prec lam B' dB) (wide_minus_lower prec lam A dA) (wide_minus_upper lam B' dB) (exp (x' / lam)) <=
      K' * two_mass (narrow_plus_lower prec lam A nA) (narrow_plus_upper lam B' nB) (narrow_minus_lower lam A nA) (narrow_minus_upper prec lam B' nB)
        (exp (x' / lam))).
  { intros K' H.
    assert (Ewb : wide_plus_upper prec lam B' dB = al * Q * R / q0) by (unfold wide_plus_upper; fold (wide_minus_upper lam B' dB); rewrite Ewd; reflexivity).
    assert (Ewc : wide_minus_lower prec lam A dA = al * q0 / p)
      by (unfold wide_minus_lower; fold (wide_plus_lower lam A dA); rewrite Ewa; field; lra).
    assert (Ena : narrow_plus_lower prec lam A nA = al / q0) by reflexivity.
    assert (Enc : narrow_minus_lower lam A nA = al) by reflexivity.
    assert (End : narrow_minus_upper prec lam B' nB = al * R * q0) by (unfold narrow_minus_upper; fold (narrow_plus_upper lam B' nB); rewrite Enb; reflexivity).
    rewrite Ewa, Ewb, Ewc, Ewd, Ena, Enb, Enc, End. exact H. }
  apply (two_ratio_of_mass prec emin Hprec choice lnf mu Hmu pr Hpr lam x x' A B' dA dB nA nB K).
  - exact Hok.
  - exact Hfl.
  - intros v Hv. apply (float_snap_interior_iff t grid B k (rnd v) Hgrid Hk) in Hv.
    exact (proj1 (bucket_thr prec emin Hprec choice t grid k v) Hv).
  - intros v Hv. apply (float_snap_interior_iff t grid B k (rnd v) Hgrid Hk).
    exact (proj2 (bucket_thr prec emin Hprec choice t grid k v) Hv).
  - exact HdA.
  - exact HdB.
  - lra.
  - right. reflexivity.
  - right. reflexivity.
  - unfold nA. lra.
  - unfold nB. lra.
  - apply range_ok. assert (H := Rabs_le_inv _ _ DAx). unfold dA. lra.
  - apply range_ok. assert (H := Rabs_le_inv _ _ DBx). unfold dB. lra.
  - apply range_ok. assert (H := Rabs_le_inv _ _ DAx'). unfold nA. lra.
  - apply range_ok. assert (H := Rabs_le_inv _ _ DBx'). unfold nB. lra.
  - (* 2 a1 ≤ d1 *)
    unfold wide_plus_lower, wide_minus_upper.
    apply Rle_trans with (exp ((A - dA) / lam) * exp (tW grid B / lam)).
    + rewrite (Rmult_comm (exp ((A - dA) / lam))). apply Rmult_le_compat_r; [apply Rlt_le, exp_pos|exact HW2].
    + rewrite <- exp_plus. apply exp_le_iff. unfold Rdiv. rewrite <- Rmult_plus_distr_r.
      apply Rmult_le_compat_r; lra.
  - apply Ecmp.
    assert (Ht' : 0 < exp (x' / lam)) by apply exp_pos.
    destruct (Rle_lt_dec x' A) as [Xb|Xb].
    + (* x′ below the bucket: the lower end is near *)
      assert (N1 : Rabs (A - x) + Rabs (A - x') <= 2 * two_near grid B /\ Rabs (A - x') <= two_near grid B).
      { unfold two_near. assert (Rmax (B - grid / 2 + two_err grid B) 0 >= B - grid / 2 + two_err grid B)
          by (apply Rle_ge, Rmax_l).
        assert (Rmax (B - grid / 2 + two_err grid B) 0 >= 0) by (apply Rle_ge, Rmax_r).
        apply Rabs_le_inv in Hx. apply Rabs_le_inv in Hx'.
        rewrite (Rabs_pos_eq (A - x')) by lra.
        destruct (Rle_lt_dec 0 A) as [A0|A0].
        - assert (Rabs (A - x) <= A + B) by (apply Rabs_le; split; lra). split; lra.
        - assert (Rabs (A - x) <= B - A) by (apply Rabs_le; split; lra). split; lra. }
      apply (two_cond_low q0 p Q R K al Hq Hp1 HQ1).
      * apply Rlt_le_trans with (two_R0 grid B lam sl); [exact HR0|]. unfold two_R0, R. apply lam_exp_mono.
        unfold nA, nB. assert (tmu * Rabs (A - x') <= tmu * two_near grid B) by (apply tmu_le; apply N1). lra.
      * exact HK1.
      * exact Hal.
      * split; [exact Ht'|]. apply Rle_trans with al; [|apply div_k_le'; lra].
        unfold al. apply lam_exp_mono. unfold nA. lra.
      * apply (cond_tail_low_mono q0 p Q R (two_Pn grid B lam sl) (two_Pf grid B lam sl) (two_R0 grid B lam sl) K Hq);
          [split; [exact Hp1|] | split; [exact HQ1|] | split; [apply exp_pos|] | exact HK1 | apply HKb].
        -- unfold p, two_Pn. apply lam_exp_mono. unfold dA, nA.
           assert (tmu * (Rabs (A - x) + Rabs (A - x')) <= tmu * (2 * two_near grid B)) by (apply tmu_le; apply N1). lra.
        -- unfold Q, two_Pf. apply lam_exp_mono. unfold dB, nB. lra.
        -- unfold R, two_R0. apply lam_exp_mono. unfold nA, nB.
           assert (tmu * Rabs (A - x') <= tmu * two_near grid B) by (apply tmu_le; apply N1). lra.
      * apply (cond_point_lower_mono q0 p Q R (two_Pn grid B lam sl) (two_Pf grid B lam sl) (two_R0 grid B lam sl) K Hq);
          [split; [exact Hp1|] | split; [exact HQ1|] | split; [apply exp_pos|] | exact HK1 | apply HKb].
        -- unfold p, two_Pn. apply lam_exp_mono. unfold dA, nA.
           assert (tmu * (Rabs (A - x) + Rabs (A - x')) <= tmu * (2 * two_near grid B)) by (apply tmu_le; apply N1). lra.
        -- unfold Q, two_Pf. apply lam_exp_mono. unfold dB, nB. lra.
        -- unfold R, two_R0. apply lam_exp_mono. unfold nA, nB.
           assert (tmu * Rabs (A - x') <= tmu * two_near grid B) by (apply tmu_le; apply N1). lra.
    + destruct (Rle_lt_dec B' x') as [Xa|Xa].
      * (* x′ above the bucket: the upper end is near *)
        assert (N1 : Rabs (B' - x) + Rabs (B' - x') <= 2 * two_near grid B /\ Rabs (B' - x') <= two_near grid B).
        { unfold two_near. assert (Rmax (B - grid / 2 + two_err grid B) 0 >= B - grid / 2 + two_err grid B)
            by (apply Rle_ge, Rmax_l).
          assert (Rmax (B - grid / 2 + two_err grid B) 0 >= 0) by (apply Rle_ge, Rmax_r).
          apply Rabs_le_inv in Hx. apply Rabs_le_inv in Hx'.
          rewrite (Rabs_left1 (B' - x')) by lra.
          destruct (Rle_lt_dec B' 0) as [B0|B0].
          - assert (Rabs (B' - x) <= B - B') by (apply Rabs_le; split; lra). split; lra.
          - assert (Rabs (B' - x) <= B' + B) by (apply Rabs_le; split; lra). split; lra. }
        apply (two_cond_high q0 p Q R K al Hq Hp1 HQ1).
        -- apply Rlt_le_trans with (two_R0 grid B lam sl); [exact HR0|]. unfold two_R0, R. apply lam_exp_mono.
           unfold nA, nB. assert (tmu * Rabs (B' - x') <= tmu * two_near grid B) by (apply tmu_le; apply N1). lra.
        -- exact HK1.
        -- exact Hal.
        -- rewrite <- Enb. unfold narrow_plus_upper. apply Rle_trans with (exp ((B' - nB) / lam)).
           ++ rewrite <- (Rmult_1_r (exp ((B' - nB) / lam))) at 2. apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|lra].
           ++ apply lam_exp_mono. unfold nB. lra.
        -- apply (cond_tail_high_mono q0 p Q R (two_Pf grid B lam sl) (two_Pn grid B lam sl) (two_R0 grid B lam sl) K Hq);
             [split; [exact Hp1|] | split; [exact HQ1|] | split; [apply exp_pos|] | exact HK1 | apply HKa].
           ++ unfold p, two_Pf. apply lam_exp_mono. unfold dA, nA. lra.
           ++ unfold Q, two_Pn. apply lam_exp_mono. unfold dB, nB.
              assert (tmu * (Rabs (B' - x) + Rabs (B' - x')) <= tmu * (2 * two_near grid B)) by (apply tmu_le; apply N1). lra.
           ++ unfold R, two_R0. apply lam_exp_mono. unfold nA, nB.
              assert (tmu * Rabs (B' - x') <= tmu * two_near grid B) by (apply tmu_le; apply N1). lra.
        -- apply (cond_point_upper_mono q0 p Q R (two_Pf grid B lam sl) (two_Pn grid B lam sl) (two_R0 grid B lam sl) K Hq);
             [split; [exact Hp1|] | split; [exact HQ1|] | split; [apply exp_pos|] | exact HK1 | apply HKa].
           ++ unfold p, two_Pf. apply lam_exp_mono. unfold dA, nA. lra.
           ++ unfold Q, two_Pn. apply lam_exp_mono. unfold dB, nB.
              assert (tmu * (Rabs (B' - x) + Rabs (B' - x')) <= tmu * (2 * two_near grid B)) by (apply tmu_le; apply N1). lra.
           ++ unfold R, two_R0. apply lam_exp_mono. unfold nA, nB.
              assert (tmu * Rabs (B' - x') <= tmu * two_near grid B) by (apply tmu_le; apply N1). lra.
      * (* x′ inside the bucket: the claim *)
        assert (Hwid : B' - A <= grid + 2 * two_err grid B) by lra.
        exact (Hin x x' A B' Hx Hx' (conj Xb Xa) (conj HW Hwid) DAx DBx DA1 DB1 Hal Hp1 HQ1).
Qed.

(** x′ inside: each end's distances add up to at most [two_in], the bucket narrowed by the width only. *)
Lemma two_inside_all : two_mass_inside.
Proof.
  intros x x' A B' Hx Hx' [Xb Xa] [HW Hwid] DAx DBx dA dB nA nB al p Q R DA1 DB1 Hal Hp1 HQ1.
  assert (N1 : Rabs (A - x') + Rabs (B' - x') <= grid + 2 * two_err grid B).
  { rewrite (Rabs_left1 (A - x')) by lra. rewrite (Rabs_pos_eq (B' - x')) by lra. lra. }
  assert (NA : Rabs (A - x) + Rabs (A - x') <= two_in grid B).
  { unfold two_in. assert (Rabs (A - x') <= grid + 2 * two_err grid B) by (assert (0 <= Rabs (B' - x')) by apply Rabs_pos; lra). lra. }
  assert (NB : Rabs (B' - x) + Rabs (B' - x') <= two_in grid B).
  { unfold two_in. assert (Rabs (B' - x') <= grid + 2 * two_err grid B) by (assert (0 <= Rabs (A - x')) by apply Rabs_pos; lra). lra. }
  assert (Pp : p <= two_Pi grid B lam sl).
  { unfold p, two_Pi. apply lam_exp_mono. unfold dA, nA.
    assert (tmu * (Rabs (A - x) + Rabs (A - x')) <= tmu * two_in grid B) by (apply tmu_le; exact NA). lra. }
  assert (PQ : Q <= two_Pi grid B lam sl).
  { unfold Q, two_Pi. apply lam_exp_mono. unfold dB, nB.
    assert (tmu * (Rabs (B' - x) + Rabs (B' - x')) <= tmu * two_in grid B) by (apply tmu_le; exact NB). lra. }
  assert (PR : two_R0i grid B lam sl <= R).
  { unfold R, two_R0i. apply lam_exp_mono. unfold nA, nB.
    assert (tmu * (Rabs (A - x') + Rabs (B' - x')) <= tmu * (grid + 2 * two_err grid B)) by (apply tmu_le; exact N1). lra. }
  assert (Ht' : 0 < exp (x' / lam)) by apply exp_pos.
  destruct HKi as (K1 & K2 & K3 & K4).
  apply (two_cond_all q0 p Q R K al Hq Hp1 HQ1); try assumption.
  - apply Rlt_le_trans with (two_R0i grid B lam sl); assumption.
  - apply (cond_tail_low_mono q0 p Q R _ _ _ K Hq (conj Hp1 Pp) (conj HQ1 PQ) (conj (exp_pos _) PR) HK1 K1).
  - apply (cond_point_lower_mono q0 p Q R _ _ _ K Hq (conj Hp1 Pp) (conj HQ1 PQ) (conj (exp_pos _) PR) HK1 K2).
  - apply (cond_point_upper_mono q0 p Q R _ _ _ K Hq (conj Hp1 Pp) (conj HQ1 PQ) (conj (exp_pos _) PR) HK1 K3).
  - apply (cond_tail_high_mono q0 p Q R _ _ _ K Hq (conj Hp1 Pp) (conj HQ1 PQ) (conj (exp_pos _) PR) HK1 K4).
Qed.

Lemma two_interior : forall x x' k, Rabs x <= B -> Rabs x' <= B -> - B < grid * IZR k < B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = grid * IZR k) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = grid * IZR k).
Proof. exact (two_interior_by two_inside_all). Qed.

(** ** The clamped outputs *)
Let Hg1 : 1 <= IZR g.
Proof.
  assert (H0 : 0 < IZR g).
  { destruct (Rle_lt_dec (IZR g) 0) as [Hn|Hp]; [|exact Hp]. exfalso.
    assert (IZR g * grid <= 0 * grid) by (apply Rmult_le_compat_r; lra). lra. }
  apply lt_0_IZR in H0. apply IZR_le. lia.
Qed.

Let clamp_factor : forall e x x', Rabs e = (IZR g - / 2) * grid -> Rabs x <= B -> Rabs x' <= B ->
  exp ((tmu * Rabs (thr t e - x) + (tmu * Rabs (thr t e - x') + sl)) / lam) / q0 <= K.
Proof.
  intros e x x' He' Hx Hx'.
  assert (He'' : Rabs e <= B + grid / 2) by (rewrite He'; lra).
  assert (T := thr_err e He'').
  assert (D : forall y, Rabs y <= B -> Rabs (thr t e - y) <= two_clamp grid B g).
  { intros y Hy. unfold two_clamp. replace (thr t e - y) with ((thr t e - e) + e - y) by ring.
    eapply Rle_trans; [apply Rabs_triang|]. rewrite <- He'.
    assert (Rabs (thr t e - e + e) <= Rabs (thr t e - e) + Rabs e) by apply Rabs_triang.
    rewrite Rabs_Ropp. lra. }
  eapply Rle_trans; [|exact HKc]. unfold two_Kc.
  apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|]. apply lam_exp_mono.
  assert (tmu * Rabs (thr t e - x) <= tmu * two_clamp grid B g) by (apply tmu_le; apply D; exact Hx).
  assert (tmu * Rabs (thr t e - x') <= tmu * two_clamp grid B g) by (apply tmu_le; apply D; exact Hx'). lra.
Qed.

Lemma two_top_output : forall x x', Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = B) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = B).
Proof.
  intros x x' Hx Hx'.
  set (e := (IZR g - / 2) * grid). assert (He' : Rabs e <= B + grid / 2) by exact (top_edge grid B g HB Hg).
  assert (Hae : Rabs e = (IZR g - / 2) * grid) by (unfold e; apply Rabs_pos_eq; apply Rmult_le_pos; lra).
  assert (Dx := tD_ge e x He' Hx). assert (Dx' := tD_ge e x' He' Hx').
  assert (Hnn := snap_prob_nonneg prec emin choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = B)).
  assert (Hd0 : 0 <= tmu * Rabs (thr t e - x)) by (apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (Hn0 : 0 <= tmu * Rabs (thr t e - x')) by (apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (HtD0 : 0 <= tmu * tD grid B) by (apply Rmult_le_pos; [lra|]; assert (0 <= Rabs (thr t e - x)) by apply Rabs_pos; lra).
  eapply Rle_trans.
  - apply (two_sided_top prec emin Hprec choice lnf mu Hmu pr Hpr lam x x' (thr t e)
             (tmu * Rabs (thr t e - x)) (tmu * Rabs (thr t e - x') + sl)); try assumption.
    + intros v Hv. apply (float_snap_top_event t grid B g (rnd v) Hgrid HB Hg) in Hv.
      exact (proj1 (top_thr prec emin Hprec choice t e v) Hv).
    + intros v Hv. apply (float_snap_top_event t grid B g (rnd v) Hgrid HB Hg).
      exact (proj2 (top_thr prec emin Hprec choice t e v) Hv).
    + lra.
    + lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx). assert (tmu * Rabs (thr t e - x) <= tmu * tD grid B) by (apply tmu_le; exact Dx). lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx). lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx'). lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx'). assert (tmu * Rabs (thr t e - x') <= tmu * tD grid B) by (apply tmu_le; exact Dx'). lra.
  - apply Rmult_le_compat_r; [exact Hnn|]. apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|].
    replace (tmu * Rabs (thr t e - x) + (tmu * Rabs (thr t e - x') + sl)) with
      (tmu * Rabs (thr t e - x) + (tmu * Rabs (thr t e - x') + sl)) by ring.
    exact (clamp_factor e x x' Hae Hx Hx').
Qed.

Lemma two_bottom_output : forall x x', Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = - B) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = - B).
Proof.
  intros x x' Hx Hx'.
  set (e := (- IZR g + / 2) * grid). assert (He' : Rabs e <= B + grid / 2) by exact (bottom_edge grid B g HB Hg).
  assert (Hae : Rabs e = (IZR g - / 2) * grid).
  { unfold e. rewrite Rabs_left1.
    - ring.
    - replace ((- IZR g + / 2) * grid) with (- ((IZR g - / 2) * grid)) by ring.
      assert (0 <= (IZR g - / 2) * grid) by (apply Rmult_le_pos; lra). lra. }
  assert (Dx := tD_ge e x He' Hx). assert (Dx' := tD_ge e x' He' Hx').
  assert (Hnn := snap_prob_nonneg prec emin choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = - B)).
  assert (Hd0 : 0 <= tmu * Rabs (thr t e - x)) by (apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (Hn0 : 0 <= tmu * Rabs (thr t e - x')) by (apply Rmult_le_pos; [lra|apply Rabs_pos]).
  assert (HtD0 : 0 <= tmu * tD grid B) by (apply Rmult_le_pos; [lra|]; assert (0 <= Rabs (thr t e - x)) by apply Rabs_pos; lra).
  eapply Rle_trans.
  - apply (two_sided_bottom prec emin Hprec choice lnf mu Hmu pr Hpr lam x x' (thr t e)
             (tmu * Rabs (thr t e - x)) (tmu * Rabs (thr t e - x') + sl)); try assumption.
    + intros v Hv. apply (float_snap_bottom_event prec emin choice t grid B g v Hgrid HB Hg) in Hv.
      exact (proj1 (bottom_thr prec emin Hprec choice t e v) Hv).
    + intros v Hv. apply (float_snap_bottom_event prec emin choice t grid B g v Hgrid HB Hg).
      exact (proj2 (bottom_thr prec emin Hprec choice t e v) Hv).
    + lra.
    + lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx). lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx). assert (tmu * Rabs (thr t e - x) <= tmu * tD grid B) by (apply tmu_le; exact Dx). lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx'). assert (tmu * Rabs (thr t e - x') <= tmu * tD grid B) by (apply tmu_le; exact Dx'). lra.
    + apply range_ok. assert (H := Rabs_le_inv _ _ Dx'). lra.
  - apply Rmult_le_compat_r; [exact Hnn|]. apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|].
    exact (clamp_factor e x x' Hae Hx Hx').
Qed.

(** ** Every output, given the case x′ inside a bucket *)
Lemma two_dp_by : two_mass_inside -> forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros Hin x x' out Hx Hx'.
  assert (Hpx' := snap_prob_nonneg prec emin choice lnf pr Hpr lam x' (fun w => float_snap t grid B w = out)).
  destruct (Req_dec out B) as [->|NB]; [exact (two_top_output x x' Hx Hx')|].
  destruct (Req_dec out (- B)) as [->|NmB]; [exact (two_bottom_output x x' Hx Hx')|].
  destruct (classic (exists k, out = grid * IZR k /\ - B < grid * IZR k < B)) as [[k [-> Hk]]|Hno].
  { exact (two_interior_by Hin x x' k Hx Hx' Hk). }
  (* anything else is never output *)
  assert (Z : snap_output_prob lam x (fun w => float_snap t grid B w = out) = 0).
  { unfold SnapOutput.snap_output_prob.
    assert (E0 : forall s, pr (fun U => float_snap t grid B (SnapOutput.snap_sum prec emin choice lnf lam x s U) = out) = 0).
    { intros s. apply (uprob_len pr Hpr). apply umeasure_empty. intros U _ H.
      unfold float_snap in H.
      destruct (clamp_cases_3 B (grid * IZR (round_grid t grid (SnapOutput.snap_sum prec emin choice lnf lam x s U))) HB)
        as [C|[C|[C1 C2]]].
      - rewrite C in H. exact (NB (eq_sym H)).
      - rewrite C in H. exact (NmB (eq_sym H)).
      - apply Hno. exists (round_grid t grid (SnapOutput.snap_sum prec emin choice lnf lam x s U)).
        rewrite C2 in C1, H. split; [symmetry; exact H|exact C1]. }
    rewrite !E0. ring. }
  rewrite Z. apply Rmult_le_pos; [|exact Hpx']. apply Rmult_le_pos; [apply Rlt_le, exp_pos|lra].
Qed.

(** ** Every output *)
Theorem float_snap_dp_two : forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' (fun w => float_snap t grid B w = out).
Proof. exact (two_dp_by two_inside_all). Qed.

End TwoSidedDP.

(** The correctly rounded logarithm of the arithmetic itself: no hypothesis on it, and λ ≥ 2^(emin + 2·prec)
    instead of [pipeline_ok]. *)
Theorem float_snap_dp_two_correct : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  (emin + 2 * prec <= 1)%Z ->
  forall choice pr t grid B g lam K sl, uprob pr ->
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
  cond_tail_low (ustar_q prec) (two_Pi prec emin (eta prec) grid B lam sl) (two_Pi prec emin (eta prec) grid B lam sl)
    (two_R0i prec emin (eta prec) grid B lam sl) K /\
  cond_point_lower (ustar_q prec) (two_Pi prec emin (eta prec) grid B lam sl) (two_Pi prec emin (eta prec) grid B lam sl)
    (two_R0i prec emin (eta prec) grid B lam sl) K /\
  cond_point_upper (ustar_q prec) (two_Pi prec emin (eta prec) grid B lam sl) (two_Pi prec emin (eta prec) grid B lam sl)
    (two_R0i prec emin (eta prec) grid B lam sl) K /\
  cond_tail_high (ustar_q prec) (two_Pi prec emin (eta prec) grid B lam sl) (two_Pi prec emin (eta prec) grid B lam sl)
    (two_R0i prec emin (eta prec) grid B lam sl) K ->
  two_Kc prec emin (eta prec) grid B lam sl g <= K ->
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
  intros prec emin Hprec Hemin Hsmall choice pr t grid B g lam K sl Hpr Hlam Fl Hgrid HB Hg Hsl HK1
    HKb HKa HKi HKc HR0 HR0i HW2 Hrange x x' out Hx Hx'.
  apply (float_snap_dp_two prec emin Hprec choice _ (eta prec) (eta_nonneg prec) pr Hpr t grid B g lam K sl);
    try assumption.
  exact (pipeline_ok_correct prec emin Hprec Hemin choice lam Hsmall Hlam).
Qed.
