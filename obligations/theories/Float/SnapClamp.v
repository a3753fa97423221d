(** * The clamped outputs ±B of binary snapping: their probabilities between two expressions
    With g the first grid index at or above B ((g − 1)Λ < B ≤ gΛ), the output
    is B iff the rounded sum w reaches the bucket of g, w ≥ (g − ½)Λ (strictly
    for ties down), and −B iff w stays below (−g + ½)Λ
    ([float_snap_top_iff], [float_snap_bottom_iff]).  One end each: the
    one-sided outer forms ([outer_above], [outer_below]) and the half-lines of
    the measure layer bound the probability from above, the one-sided inner
    forms from below; both signs added ([top_prob_upper], [top_prob_lower],
    [bottom_prob_upper], [bottom_prob_lower]).  Premises as in SnapOutput.v. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure SnapOutput SnapInterior.

Local Open Scope R_scope.

Section SnapClamp.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Hypothesis Hemin : (emin + prec <= 0)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Notation eta := (eta prec).
Notation normal_min := (normal_min prec emin).
Notation M := (noise_mu prec mu).
Notation snap_sum := (snap_sum prec emin choice lnf).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation outer_lo := (outer_lo prec mu).
Notation outer_hi := (outer_hi prec mu).
Notation inner_lo := (inner_lo prec mu).
Notation inner_hi := (inner_hi prec mu).

Let Hprec0 : (0 < prec)%Z.
Proof. lia. Qed.

Lemma grid_top_iff : forall grid B g k, 0 < grid -> (IZR g - 1) * grid < B <= IZR g * grid ->
  (B <= grid * IZR k <-> (g <= k)%Z).
Proof.
  intros grid B g k Hg [H1 H2]. split; intros H.
  - destruct (Z_le_gt_dec g k) as [Hk|Hk]; [exact Hk|exfalso].
    assert (Hk' : IZR k <= IZR g - 1) by (rewrite <- minus_IZR; apply IZR_le; lia). nra.
  - apply IZR_le in H. nra.
Qed.

Lemma grid_bottom_iff : forall grid B g k, 0 < grid -> (IZR g - 1) * grid < B <= IZR g * grid ->
  (grid * IZR k <= - B <-> (k <= - g)%Z).
Proof.
  intros grid B g k Hg [H1 H2]. split; intros H.
  - destruct (Z_le_gt_dec k (- g)) as [Hk|Hk]; [exact Hk|exfalso].
    assert (Hk' : - IZR g + 1 <= IZR k) by (rewrite <- opp_IZR, <- plus_IZR; apply IZR_le; lia). nra.
  - apply IZR_le in H. rewrite opp_IZR in H. nra.
Qed.

Lemma float_snap_top_iff : forall t grid B g w, 0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid ->
  (float_snap t grid B w = B <->
    match t with TiesUp => (IZR g - / 2) * grid <= w | TiesDown => (IZR g - / 2) * grid < w end).
Proof.
  intros t grid B g w Hg HB Hgb. unfold float_snap.
  rewrite (clamp_top_iff B _ HB), (grid_top_iff grid B g _ Hg Hgb).
  destruct t; [apply round_grid_up_ge_iff|apply round_grid_down_ge_iff]; exact Hg.
Qed.

Lemma float_snap_bottom_iff : forall t grid B g w, 0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid ->
  (float_snap t grid B w = - B <->
    match t with TiesUp => w < (- IZR g + / 2) * grid | TiesDown => w <= (- IZR g + / 2) * grid end).
Proof.
  intros t grid B g w Hg HB Hgb. unfold float_snap.
  rewrite (clamp_bottom_iff B _ HB), (grid_bottom_iff grid B g _ Hg Hgb), <- opp_IZR.
  destruct t; [apply round_grid_up_le_iff|apply round_grid_down_le_iff]; exact Hg.
Qed.

Lemma normal_min_le_1 : normal_min <= 1.
Proof. unfold RelError.normal_min. change 1 with (bpow radix2 0). apply bpow_le. lia. Qed.

(** Pr[ln u ≥ c], c clipped at 0 (ln u ≤ 0 always). *)
Lemma ln_ge_upper_clip : forall c, normal_min <= exp c ->
  pr (fun U => c <= ln (ustar prec emin U)) <= 1 - exp (Rmin c 0).
Proof.
  intros c Hc.
  assert (Hm : normal_min <= exp (Rmin c 0)).
  { unfold Rmin. destruct (Rle_dec c 0); [exact Hc|rewrite exp_0; apply normal_min_le_1]. }
  eapply Rle_trans; [|apply (ustar_ln_above_upper prec emin Hprec pr Hpr); [exact Hm|apply Rmin_r]].
  apply (uprob_mono pr Hpr). intros U _ H. apply Rle_trans with c; [apply Rmin_l|exact H].
Qed.

Lemma ln_le_lower_clip : forall d, normal_min <= exp d ->
  exp (Rmin d 0) <= pr (fun U => ln (ustar prec emin U) <= d).
Proof.
  intros d Hd.
  assert (Hm : normal_min <= exp (Rmin d 0)).
  { unfold Rmin. destruct (Rle_dec d 0); [exact Hd|rewrite exp_0; apply normal_min_le_1]. }
  eapply Rle_trans; [apply (ustar_ln_below_lower prec emin Hprec pr Hpr); [exact Hm|apply Rmin_r]|].
  apply (uprob_mono pr Hpr). intros U _ H. apply Rle_trans with (Rmin d 0); [exact H|apply Rmin_l].
Qed.

Lemma div_lam_le : forall lam p q, 0 < lam -> p <= lam * q -> p / lam <= q.
Proof.
  intros lam p q Hl H. apply (Rmult_le_reg_l lam); [exact Hl|].
  replace (lam * (p / lam)) with p by (field; lra). exact H.
Qed.

Lemma le_div_lam : forall lam p q, 0 < lam -> lam * q <= p -> q <= p / lam.
Proof.
  intros lam p q Hl H. apply (Rmult_le_reg_l lam); [exact Hl|].
  replace (lam * (p / lam)) with p by (field; lra). exact H.
Qed.

(** ** Output B *)

Definition top_upper (lam x a : R) : R :=
  / 2 * (1 - exp (Rmin (outer_lo x a / lam) 0)) + / 2 * (exp (- outer_lo x a / lam) / (1 - 2 * eta)).

Theorem top_prob_upper : forall t grid B g lam x, 0 < grid -> 0 < B ->
  (IZR g - 1) * grid < B <= IZR g * grid ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x ->
  normal_min <= exp (outer_lo x ((IZR g - / 2) * grid) / lam) ->
  normal_min <= exp (- outer_lo x ((IZR g - / 2) * grid) / lam) ->
  snap_output_prob lam x (fun w => float_snap t grid B w = B) <= top_upper lam x ((IZR g - / 2) * grid).
Proof.
  intros t grid B g lam x Hg HB Hgb [Hl Hok] Fx H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  set (a := (IZR g - / 2) * grid) in *.
  assert (HP : forall w, float_snap t grid B w = B -> a <= w).
  { intros w Hw. apply (float_snap_top_iff t grid B g w Hg HB Hgb) in Hw. destruct t; unfold a; lra. }
  unfold snap_output_prob, top_upper. apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - eapply Rle_trans; [|apply ln_ge_upper_clip; exact H1].
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    assert (O := outer_above prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x a
                   (or_introl eq_refl) Hla Hu Hp Fx (HP _ HPU)).
    rewrite Rmult_1_l in O. apply div_lam_le; [exact Hlam|exact O].
  - eapply Rle_trans; [|apply (ustar_ln_below_upper prec emin Hprec pr Hpr); exact H2].
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    assert (O := outer_above prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x a
                   (or_intror eq_refl) Hla Hu Hp Fx (HP _ HPU)).
    apply le_div_lam; [exact Hlam|]. unfold SnapOutput.outer_lo, SnapOutput.outer_hi in *. lra.
Qed.

Definition top_lower (lam x a : R) : R :=
  / 2 * (1 - exp (inner_lo x a / lam) / (1 - 2 * eta)) + / 2 * exp (Rmin (- inner_lo x a / lam) 0).

Theorem top_prob_lower : forall t grid B g lam x a, 0 < grid -> 0 < B ->
  (IZR g - 1) * grid < B <= IZR g * grid -> (IZR g - / 2) * grid < a ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x ->
  normal_min <= exp (inner_lo x a / lam) -> normal_min <= exp (- inner_lo x a / lam) ->
  top_lower lam x a <= snap_output_prob lam x (fun w => float_snap t grid B w = B).
Proof.
  intros t grid B g lam x a Hg HB Hgb Ha [Hl Hok] Fx H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  assert (HP : forall w, a <= w -> float_snap t grid B w = B).
  { intros w Hw. apply (float_snap_top_iff t grid B g w Hg HB Hgb). destruct t; lra. }
  assert (Hin : forall v, inner_lo x a <= v -> a <= widen_lo eta (x + widen_lo M v))
    by (intros v Hv; apply (inner_lo_ok prec mu Hmu); exact Hv).
  unfold snap_output_prob, top_lower. apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - eapply Rle_trans; [apply (ustar_ln_above_lower prec emin Hprec pr Hpr); exact H1|].
    apply (uprob_mono pr Hpr). intros U HU HU'. destruct (Hok U HU) as [Hu Hp]. apply HP.
    apply (inner_above prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x a (inner_lo x a)
             (or_introl eq_refl) Hla Hu Hp Fx); [|apply Hin; lra].
    rewrite Rmult_1_l. apply (Rmult_le_compat_l lam) in HU'; [|lra].
    replace (lam * (inner_lo x a / lam)) with (inner_lo x a) in HU' by (field; lra). exact HU'.
  - eapply Rle_trans; [apply ln_le_lower_clip; exact H2|].
    apply (uprob_mono pr Hpr). intros U HU HU'. destruct (Hok U HU) as [Hu Hp]. apply HP.
    apply (inner_above prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x a (inner_lo x a)
             (or_intror eq_refl) Hla Hu Hp Fx); [|apply Hin; lra].
    apply (Rmult_le_compat_l lam) in HU'; [|lra].
    replace (lam * (- inner_lo x a / lam)) with (- inner_lo x a) in HU' by (field; lra). lra.
Qed.

(** ** Output −B *)

Definition bottom_upper (lam x b : R) : R :=
  / 2 * (exp (outer_hi x b / lam) / (1 - 2 * eta)) + / 2 * (1 - exp (Rmin (- outer_hi x b / lam) 0)).

Theorem bottom_prob_upper : forall t grid B g lam x, 0 < grid -> 0 < B ->
  (IZR g - 1) * grid < B <= IZR g * grid ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x ->
  normal_min <= exp (outer_hi x ((- IZR g + / 2) * grid) / lam) ->
  normal_min <= exp (- outer_hi x ((- IZR g + / 2) * grid) / lam) ->
  snap_output_prob lam x (fun w => float_snap t grid B w = - B) <= bottom_upper lam x ((- IZR g + / 2) * grid).
Proof.
  intros t grid B g lam x Hg HB Hgb [Hl Hok] Fx H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  set (b := (- IZR g + / 2) * grid) in *.
  assert (HP : forall w, float_snap t grid B w = - B -> w <= b).
  { intros w Hw. apply (float_snap_bottom_iff t grid B g w Hg HB Hgb) in Hw. destruct t; unfold b; lra. }
  unfold snap_output_prob, bottom_upper. apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - eapply Rle_trans; [|apply (ustar_ln_below_upper prec emin Hprec pr Hpr); exact H1].
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    assert (O := outer_below prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x b
                   (or_introl eq_refl) Hla Hu Hp Fx (HP _ HPU)).
    rewrite Rmult_1_l in O. apply le_div_lam; [exact Hlam|exact O].
  - eapply Rle_trans; [|apply ln_ge_upper_clip; exact H2].
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    assert (O := outer_below prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x b
                   (or_intror eq_refl) Hla Hu Hp Fx (HP _ HPU)).
    apply div_lam_le; [exact Hlam|]. unfold SnapOutput.outer_lo, SnapOutput.outer_hi in *. lra.
Qed.

Definition bottom_lower (lam x b : R) : R :=
  / 2 * exp (Rmin (inner_hi x b / lam) 0) + / 2 * (1 - exp (- inner_hi x b / lam) / (1 - 2 * eta)).

Theorem bottom_prob_lower : forall t grid B g lam x b, 0 < grid -> 0 < B ->
  (IZR g - 1) * grid < B <= IZR g * grid -> b < (- IZR g + / 2) * grid ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x ->
  normal_min <= exp (inner_hi x b / lam) -> normal_min <= exp (- inner_hi x b / lam) ->
  bottom_lower lam x b <= snap_output_prob lam x (fun w => float_snap t grid B w = - B).
Proof.
  intros t grid B g lam x b Hg HB Hgb Hb [Hl Hok] Fx H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  assert (HP : forall w, w <= b -> float_snap t grid B w = - B).
  { intros w Hw. apply (float_snap_bottom_iff t grid B g w Hg HB Hgb). destruct t; lra. }
  assert (Hin : forall v, v <= inner_hi x b -> widen_hi eta (x + widen_hi M v) <= b)
    by (intros v Hv; apply (inner_hi_ok prec mu Hmu); exact Hv).
  unfold snap_output_prob, bottom_lower. apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - eapply Rle_trans; [apply ln_le_lower_clip; exact H1|].
    apply (uprob_mono pr Hpr). intros U HU HU'. destruct (Hok U HU) as [Hu Hp]. apply HP.
    apply (inner_below prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x b (inner_hi x b)
             (or_introl eq_refl) Hla Hu Hp Fx); [|apply Hin; lra].
    rewrite Rmult_1_l. apply (Rmult_le_compat_l lam) in HU'; [|lra].
    replace (lam * (inner_hi x b / lam)) with (inner_hi x b) in HU' by (field; lra). exact HU'.
  - eapply Rle_trans; [apply (ustar_ln_above_lower prec emin Hprec pr Hpr); exact H2|].
    apply (uprob_mono pr Hpr). intros U HU HU'. destruct (Hok U HU) as [Hu Hp]. apply HP.
    apply (inner_below prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x b (inner_hi x b)
             (or_intror eq_refl) Hla Hu Hp Fx); [|apply Hin; lra].
    apply (Rmult_le_compat_l lam) in HU'; [|lra].
    replace (lam * (- inner_hi x b / lam)) with (- inner_hi x b) in HU' by (field; lra). lra.
Qed.

End SnapClamp.
