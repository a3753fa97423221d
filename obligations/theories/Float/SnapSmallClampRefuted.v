(** * Small clamps: the seed's and Mironov's constants are false for B ≪ λ in binary64
    [snap64_constant ρ0 β0 a b] (SnapSeed64.v) states a·η·B/λ + b·η for every clamp B ≥ β0·λ.  Its
    excess must fall to b·η as B/λ → 0, but the clamped output B keeps a discrete jump: with
    B < Λ/2 it is output exactly when the sign −1's rounded sum reaches Λ/2, i.e. for the samples
    u ≤ V(x) below one threshold, and as x moves by one float V(x) can move by two floats of U*.
    The ratio of the two probabilities is then about 1 + 2.9·η (U*'s spacing near e^−1 is 1.36·η
    relative), above the seed's 2·η + 12·η·B/λ for B ≤ λ/16 and above Mironov's 16·η·B/λ for
    B ≤ 3λ/16 (Mironov's own range is λ < B; docs/snap_tight.md, §5 "Small clamps").
    [top_witness_refutes]: a witness for the clamped output B, with Λ/2 above B (one grid point
    inside): one sample u1 inside for the closer input x, one sample u3 outside for the farther
    x′, the pipeline antitone in u ([wsum_anti]), and U*'s mass of the half-lines below a float
    counted exactly ([ustar_le_float_mass]: the cell [u1, succ u1) is in; [ustar_lt_float_mass]).
    Two witnesses, both inputs binary64 floats one ulp apart, λ = 1 and Λ = 2 (so any ρ0 ≤ 2):
    - B = 1/16: Pr[B | x] = 6225628982177923·2^−54 against Pr[B | x′] ≤ 6225628982177921·2^−54,
      an excess of 2.83·η against the seed's 2.75·η ([snap_binary64_seed_constant_small_false]);
    - B = 3/16: an excess of 3.027·η against Mironov's 3·η ([snap_binary64_mironov_constant_small_false]).
    Found and checked forwards by bench/snap_small_clamp.py.  The reals' axioms and [interval]'s
    primitive operations only. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Core Require Import RealFacts.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapThreshold SnapPipeline SnapBinary64
  DiffprivlibRound SnapSeed64 SnapSeedRealRefuted.

Local Open Scope R_scope.

Local Instance small_prec_gt_0 : Prec_gt_0 53.
Proof. unfold Prec_gt_0. lia. Qed.

Local Ltac pow_eval := repeat match goal with |- context [Z.pow_pos 2 ?p] =>
  let t := eval vm_compute in (Z.pow_pos 2 p) in change (Z.pow_pos 2 p) with t end.

(** Spacings as rationals for [lra], as powers for [interval]. *)
Local Ltac bpow_q := rewrite ?bpow_neg_q; pow_eval.
Local Ltac bpow_i := rewrite ?bpow_powerRZ; change (IZR (radix_val radix2)) with 2.

Local Notation lnf := (fun v => rnd 53 (-1074) even_tie (ln v)).
Local Notation ust := (ustar 53 (-1074)).

(** ** U*'s mass of the half-lines below a float, exactly *)

(** Every U below succ u rounds down to at most u: the whole cell of u counts. *)
Lemma ustar_le_float_mass : forall pr m e, uprob pr -> (4503599627370496 < m < 9007199254740992)%Z ->
  (-1074 <= e)%Z -> IZR m * bpow radix2 e + bpow radix2 e <= 1 ->
  IZR m * bpow radix2 e + bpow radix2 e <= pr (fun U => ust U <= IZR m * bpow radix2 e).
Proof.
  intros pr m e Hpr Hm He Hs.
  destruct (float_neighbours m e ltac:(lia) He) as (F & S & _).
  set (u := IZR m * bpow radix2 e) in *.
  assert (Hb := bpow_gt_0 radix2 e).
  assert (Hu : bpow radix2 e <= u).
  { unfold u. assert (1 <= IZR m) by (apply IZR_le; lia).
    rewrite <- (Rmult_1_l (bpow radix2 e)) at 1. apply Rmult_le_compat_r; lra. }
  assert (Ht : bpow radix2 (-1074) <= bpow radix2 e) by (apply bpow_le; exact He).
  apply Rle_trans with (pr (fun U => U < u + bpow radix2 e)).
  { rewrite (uprob_len pr Hpr (fun U => U < u + bpow radix2 e) (ulen_to (u + bpow radix2 e))
      (umeasure_Iio _ _ (fun U _ => iff_refl _))).
    unfold ulen_to. rewrite Rmin_left by lra. rewrite Rmax_right by lra. lra. }
  apply (uprob_mono pr Hpr). intros U HU HUs.
  assert (Hd : rdn 53 (-1074) U <= u).
  { unfold rdn. destruct (Rlt_le_dec U u) as [L|L].
    - rewrite <- (round_generic radix2 fmt64 Zfloor u F).
      apply round_le; [apply FLT_exp_valid; exact small_prec_gt_0|apply valid_rnd_DN|lra].
    - right. apply (round_DN_eq radix2 fmt64 U u F). rewrite S. lra. }
  unfold ustar, tiny. apply Rmax_lub; [lra|]. apply Rle_trans with (rdn 53 (-1074) U); [apply Rmin_r|exact Hd].
Qed.

(** A U at or above a float u ≤ 1 − η rounds down to at least u. *)
Lemma ustar_lt_float_mass : forall pr u, uprob pr -> F64 u -> 0 < u <= 1 - eta 53 ->
  pr (fun U => ust U < u) <= u.
Proof.
  intros pr u Hpr F Hu.
  assert (He := eta_binary64).
  apply Rle_trans with (pr (fun U => U < u)).
  2: { rewrite (uprob_len pr Hpr (fun U => U < u) (ulen_to u) (umeasure_Iio _ _ (fun U _ => iff_refl _))).
       unfold ulen_to. rewrite Rmin_left by lra. rewrite Rmax_right by lra. lra. }
  apply (uprob_mono pr Hpr). intros U HU H.
  destruct (Rlt_le_dec U u) as [L|L]; [exact L|exfalso].
  assert (Hd : u <= rdn 53 (-1074) U).
  { unfold rdn. rewrite <- (round_generic radix2 fmt64 Zfloor u F).
    apply round_le; [apply FLT_exp_valid; exact small_prec_gt_0|apply valid_rnd_DN|exact L]. }
  revert H. apply Rle_not_lt. unfold ustar.
  apply Rle_trans with (Rmin (1 - eta 53) (rdn 53 (-1074) U)); [|apply Rmax_r].
  apply Rmin_glb; lra.
Qed.

(** The tie below 1 rounds to 1 (its significand 2^53 − 1 is odd). *)
Lemma fl_one_tie : fl (1 - bpow radix2 (-54)) = 1.
Proof.
  destruct (float_neighbours 9007199254740991 (-53) ltac:(lia) ltac:(lia)) as (Fd & Sd & _).
  set (d := IZR 9007199254740991 * bpow radix2 (-53)) in *.
  assert (Hd : d = 1 - bpow radix2 (-53)) by (unfold d; bpow_q; lra).
  assert (S1 : succ radix2 fmt64 d = 1) by (rewrite Sd, Hd; bpow_q; lra).
  assert (F1 : F64 1) by (change 1 with (bpow radix2 0); apply f64_bpow; lia).
  assert (P1 : pred radix2 fmt64 1 = d) by (rewrite <- S1; apply (pred_succ radix2 fmt64 d Fd)).
  assert (Dn : round radix2 fmt64 Zfloor (1 - bpow radix2 (-54)) = d)
    by (apply (round_DN_eq radix2 fmt64 _ d Fd); rewrite S1, Hd; bpow_q; lra).
  assert (Up : round radix2 fmt64 Zceil (1 - bpow radix2 (-54)) = 1)
    by (apply (round_UP_eq radix2 fmt64 _ 1 F1); rewrite P1, Hd; bpow_q; lra).
  unfold rnd. rewrite round_N_middle by (rewrite Dn, Up, Hd; bpow_q; lra).
  assert (Hm : Zfloor (scaled_mantissa radix2 fmt64 (1 - bpow radix2 (-54))) = 9007199254740991%Z).
  { unfold scaled_mantissa, cexp.
    rewrite (mag_unique_pos radix2 _ 0).
    2: { replace (0 - 1)%Z with (-1)%Z by reflexivity. change (bpow radix2 0) with 1. bpow_q. split; lra. }
    change (bpow radix2 (- fmt64 0)) with (IZR (Z.pow_pos 2 53)). pow_eval.
    apply Zfloor_imp. rewrite plus_IZR. bpow_q. split; lra. }
  rewrite Hm. exact Up.
Qed.

(** ** A witness for the clamped output B, one grid point above (Λ/2 > B) *)
Section TopWitness.

Variables lam grid bound x x' u1 s1 u3 a b : R.
Hypothesis Flam : F64 lam.
Hypothesis Hlam : powerRZ 2 (-968) <= lam.
Hypothesis Hb : 0 < bound <= grid.
Hypothesis Fb : F64 bound.
Hypothesis Hbe : bound < grid / 2.
Hypothesis Hx : Rabs x <= bound.
Hypothesis Hx' : Rabs x' <= bound.
Hypothesis W1 : grid / 2 <= wsum lam x u1.
Hypothesis W3 : wsum lam x' u3 < grid / 2.
Hypothesis U1 : 0 < u1.
Hypothesis U3 : 0 < u3.
Hypothesis S1 : forall pr, uprob pr -> s1 <= pr (fun U => ust U <= u1).
Hypothesis S3 : forall pr, uprob pr -> pr (fun U => ust U < u3) <= u3.
Hypothesis Key : exp (Rabs (x - x') / lam + a * eta 53 * (bound / lam) + b * eta 53) * (/ 2 * u3) < / 2 * s1.

Let lam_pos : 0 < lam.
Proof. assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). lra. Qed.

Lemma top_iff : forall w, float_snap TiesUp grid bound w = bound <-> grid / 2 <= w.
Proof.
  intros w. rewrite (float_snap_top_event TiesUp grid bound 1 w ltac:(lra) ltac:(lra) ltac:(lra)).
  cbn [top_event]. replace ((IZR 1 - / 2) * grid) with (grid / 2) by (cbn; field). reflexivity.
Qed.

Lemma top_sum_minus : forall y U, snap_sum 53 (-1074) even_tie lnf lam y (-1) U = wsum lam y (ust U).
Proof. intros y U. reflexivity. Qed.

(** From x: at least U*'s mass below u1, with the sign −1 alone. *)
Lemma top_close_lower : forall pr, uprob pr ->
  / 2 * s1 <= snap_output_prob 53 (-1074) even_tie lnf pr lam x (fun w => float_snap TiesUp grid bound w = bound).
Proof.
  intros pr Hpr. unfold snap_output_prob.
  assert (H0 := uprob_nonneg pr (fun U => float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x 1 U)
                                          = bound) Hpr).
  assert (Hlo : s1 <= pr (fun U => float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x (-1) U) = bound)).
  { eapply Rle_trans; [exact (S1 pr Hpr)|].
    apply (uprob_mono pr Hpr). intros U HU H. rewrite top_sum_minus, top_iff.
    eapply Rle_trans; [exact W1|]. apply wsum_anti; [exact lam_pos|exact Flam|apply ustar_pos|exact H]. }
  lra.
Qed.

(** From x′ ≤ B < Λ/2 the sign +1 never reaches Λ/2: its noise is ≤ 0. *)
Lemma top_far_plus_empty : forall U, 0 < U <= 1 ->
  ~ float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x' 1 U) = bound.
Proof.
  intros U _ H. rewrite top_iff in H. revert H. apply Rlt_not_le.
  unfold snap_sum. change (rnd 53 (-1074) even_tie) with fl. rewrite (fl_generic lam Flam).
  destruct (ustar_in 53 (-1074) ltac:(lia) ltac:(lia) U) as [U0 U1'].
  assert (Hl : fl (ln (ust U)) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le.
    rewrite <- ln_1. apply ln_mono; lra. }
  assert (Hn : fl (lam * fl (ln (ust U))) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. assert (L := lam_pos).
    assert (0 <= lam * - fl (ln (ust U))) by (apply Rmult_le_pos; lra). lra. }
  assert (Hs : fl (x' + 1 * fl (lam * fl (ln (ust U)))) <= bound).
  { rewrite <- (fl_generic bound Fb). apply fl_le. apply Rabs_le_inv in Hx'. lra. }
  lra.
Qed.

(** From x′: at most U*'s mass below u3, with the sign −1 only. *)
Lemma top_far_upper : forall pr, uprob pr ->
  snap_output_prob 53 (-1074) even_tie lnf pr lam x' (fun w => float_snap TiesUp grid bound w = bound) <= / 2 * u3.
Proof.
  intros pr Hpr. unfold snap_output_prob.
  rewrite (uprob_len pr Hpr _ 0 (umeasure_empty _ top_far_plus_empty)).
  assert (Hup : pr (fun U => float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x' (-1) U) = bound)
    <= u3).
  { eapply Rle_trans; [|exact (S3 pr Hpr)].
    apply (uprob_mono pr Hpr). intros U HU H. rewrite top_sum_minus, top_iff in H.
    destruct (Rlt_le_dec (ust U) u3) as [L|L]; [exact L|exfalso].
    assert (M := wsum_anti lam x' u3 (ust U) lam_pos Flam U3 L). lra. }
  lra.
Qed.

(** The witness refutes the constant (a, b) for every range that contains its parameters. *)
Theorem top_witness_refutes : forall rho0 beta0, rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= bound <= 353 * lam ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 Hgrid HB H.
  assert (C := H even_tie inner_len lam grid bound uprob_inner_len Hlam Flam Hgrid HB x x' bound Hx Hx').
  assert (Lo := top_close_lower inner_len uprob_inner_len).
  assert (Up := top_far_upper inner_len uprob_inner_len).
  assert (E := exp_pos (Rabs (x - x') / lam + a * eta 53 * (bound / lam) + b * eta 53)).
  assert (Mul := Rmult_le_compat_l _ _ _ (Rlt_le _ _ E) Up). lra.
Qed.

End TopWitness.

Lemma one_format : F64 1.
Proof. change 1 with (bpow radix2 0). apply f64_bpow. lia. Qed.

Lemma lam_one_large : powerRZ 2 (-968) <= 1.
Proof.
  replace (powerRZ 2 (-968)) with (bpow radix2 (-968)) by (rewrite bpow_powerRZ; reflexivity).
  change 1 with (bpow radix2 0). apply bpow_le. lia.
Qed.

(** ** The seed's constant: λ = 1, Λ = 2, B = 1/16 *)
Definition sc_x : R := IZR (-9006749149314152) * bpow radix2 (-57).
Definition sc_x' : R := IZR (-9006749149314153) * bpow radix2 (-57).
Definition sc_u1 : R := IZR 6225628982177922 * bpow radix2 (-54).
Definition sc_u3 : R := IZR 6225628982177921 * bpow radix2 (-54).
(** The noise threshold of both samples (and the log's: λ = 1). *)
Definition sc_n : R := IZR (-4785060538286563) * bpow radix2 (-52).

(** Both inputs are binary64 floats, one ulp apart. *)
Lemma sc_inputs_format : F64 sc_x /\ F64 sc_x'.
Proof.
  split; [destruct (float_neighbours (-9006749149314152) (-57) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-9006749149314153) (-57) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

Lemma sc_w1 : 2 / 2 <= wsum 1 sc_x sc_u1.
Proof.
  apply (wsum_ge_of _ _ _ sc_n sc_n); [lra|exact one_format| | |].
  - apply fl_le_float; [lia|lia|]. unfold sc_u1. bpow_i. interval with (i_prec 120).
  - rewrite Rmult_1_l. apply fl_le_float; [lia|lia|]. unfold sc_n. bpow_q. lra.
  - replace (sc_x + -1 * sc_n) with (1 - bpow radix2 (-54)) by (unfold sc_x, sc_n; bpow_q; lra).
    rewrite fl_one_tie. lra.
Qed.

Lemma sc_w3 : wsum 1 sc_x' sc_u3 < 2 / 2.
Proof.
  apply Rle_lt_trans with (IZR 9007199254740991 * bpow radix2 (-53)); [|bpow_q; lra].
  apply (wsum_le_of _ _ _ sc_n sc_n); [lra|exact one_format| | |].
  - apply fl_ge_float; [lia|lia|]. unfold sc_u3. bpow_i. interval with (i_prec 120).
  - rewrite Rmult_1_l. apply fl_ge_float; [lia|lia|]. unfold sc_n. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold sc_x', sc_n. bpow_q. lra.
Qed.

Lemma sc_key : exp (Rabs (sc_x - sc_x') / 1 + 12 * eta 53 * (1 / 16 / 1) + 2 * eta 53) * (/ 2 * sc_u3) <
  / 2 * (sc_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold sc_x, sc_x'; bpow_q; lra).
  rewrite eta_binary64. unfold sc_x, sc_x', sc_u1, sc_u3. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's constant is false for every ρ0 ≤ 2 and β0 ≤ 1/16 (ties up). *)
Lemma seed_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 1 / 16 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb.
  apply (top_witness_refutes 1 2 (1 / 16) sc_x sc_x' sc_u1 (sc_u1 + bpow radix2 (-54)) sc_u3 12 2
           one_format lam_one_large); try lra.
  - replace (1 / 16) with (bpow radix2 (-4)) by (bpow_q; lra). apply f64_bpow. lia.
  - unfold sc_x. bpow_q. rewrite Rabs_left by lra. lra.
  - unfold sc_x'. bpow_q. rewrite Rabs_left by lra. lra.
  - exact sc_w1.
  - exact sc_w3.
  - unfold sc_u3. bpow_q. lra.
  - intros pr Hpr. apply ustar_le_float_mass; [exact Hpr|lia|lia|unfold sc_u1; bpow_q; lra].
  - intros pr Hpr. apply ustar_lt_float_mass; [exact Hpr| |].
    + destruct (float_neighbours 6225628982177921 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
    + rewrite eta_binary64. unfold sc_u3. bpow_q. lra.
  - exact sc_key.
Qed.

Theorem snap_binary64_seed_constant_small_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 1 / 16 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (seed_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 12 and b ≤ 2 over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 1/16. *)
Theorem snap_binary64_seed_constant_small_false_up : forall rho0 beta0 a b, rho0 <= 2 -> 0 <= beta0 <= 1 / 16 ->
  a <= 12 -> b <= 2 -> ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (seed_small_false_w rho0 (1 / 16) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 (1 / 16) 12 2 H ltac:(lra) Hb Ha Hb').
Qed.

(** ** Mironov's constant: λ = 1, Λ = 2, B = 3/16 *)
Definition mc_clamp : R := IZR 6755399441055744 * bpow radix2 (-55).
Definition mc_x : R := IZR (-6736412551704202) * bpow radix2 (-55).
Definition mc_x' : R := IZR (-6736412551704203) * bpow radix2 (-55).
Definition mc_u1 : R := IZR 5496977234171843 * bpow radix2 (-54).
Definition mc_u3 : R := IZR 5496977234171842 * bpow radix2 (-54).
Definition mc_n : R := IZR (-5345651196333521) * bpow radix2 (-52).

Lemma mc_clamp_is : mc_clamp = 3 / 16.
Proof. unfold mc_clamp. bpow_q. lra. Qed.

Lemma mc_inputs_format : F64 mc_x /\ F64 mc_x'.
Proof.
  split; [destruct (float_neighbours (-6736412551704202) (-55) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-6736412551704203) (-55) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

Lemma mc_w1 : 2 / 2 <= wsum 1 mc_x mc_u1.
Proof.
  apply (wsum_ge_of _ _ _ mc_n mc_n); [lra|exact one_format| | |].
  - apply fl_le_float; [lia|lia|]. unfold mc_u1. bpow_i. interval with (i_prec 120).
  - rewrite Rmult_1_l. apply fl_le_float; [lia|lia|]. unfold mc_n. bpow_q. lra.
  - replace (mc_x + -1 * mc_n) with (1 - bpow radix2 (-54)) by (unfold mc_x, mc_n; bpow_q; lra).
    rewrite fl_one_tie. lra.
Qed.

Lemma mc_w3 : wsum 1 mc_x' mc_u3 < 2 / 2.
Proof.
  apply Rle_lt_trans with (IZR 9007199254740991 * bpow radix2 (-53)); [|bpow_q; lra].
  apply (wsum_le_of _ _ _ mc_n mc_n); [lra|exact one_format| | |].
  - apply fl_ge_float; [lia|lia|]. unfold mc_u3. bpow_i. interval with (i_prec 120).
  - rewrite Rmult_1_l. apply fl_ge_float; [lia|lia|]. unfold mc_n. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold mc_x', mc_n. bpow_q. lra.
Qed.

Lemma mc_key : exp (Rabs (mc_x - mc_x') / 1 + 16 * eta 53 * (mc_clamp / 1) + 0 * eta 53) * (/ 2 * mc_u3) <
  / 2 * (mc_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold mc_x, mc_x'; bpow_q; lra).
  rewrite eta_binary64, mc_clamp_is. unfold mc_x, mc_x', mc_u1, mc_u3. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's constant is false for every ρ0 ≤ 2 and β0 ≤ 3/16 (ties up). *)
Lemma mironov_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 3 / 16 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb. assert (Hv := mc_clamp_is).
  apply (top_witness_refutes 1 2 mc_clamp mc_x mc_x' mc_u1 (mc_u1 + bpow radix2 (-54)) mc_u3 16 0
           one_format lam_one_large); try lra; try (rewrite Hv; lra).
  - destruct (float_neighbours 6755399441055744 (-55) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - rewrite Hv. unfold mc_x. bpow_q. rewrite Rabs_left by lra. lra.
  - rewrite Hv. unfold mc_x'. bpow_q. rewrite Rabs_left by lra. lra.
  - exact mc_w1.
  - exact mc_w3.
  - unfold mc_u3. bpow_q. lra.
  - intros pr Hpr. apply ustar_le_float_mass; [exact Hpr|lia|lia|unfold mc_u1; bpow_q; lra].
  - intros pr Hpr. apply ustar_lt_float_mass; [exact Hpr| |].
    + destruct (float_neighbours 5496977234171842 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
    + rewrite eta_binary64. unfold mc_u3. bpow_q. lra.
  - exact mc_key.
Qed.

Theorem snap_binary64_mironov_constant_small_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 3 / 16 ->
  ~ snap64_constant rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (mironov_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 16 (and b = 0) over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 3/16. *)
Theorem snap_binary64_mironov_constant_small_false_up : forall rho0 beta0 a, rho0 <= 2 -> 0 <= beta0 <= 3 / 16 ->
  a <= 16 -> ~ snap64_constant_ties TiesUp rho0 beta0 a 0.
Proof.
  intros rho0 beta0 a Hr Hb Ha H. apply (mironov_small_false_w rho0 (3 / 16) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a 0 rho0 (3 / 16) 16 0 H ltac:(lra) Hb Ha ltac:(lra)).
Qed.
