(** * Small clamps: the seed's and Mironov's constants are false for B ≪ λ in binary64
    [snap64_constant ρ0 β0 a b] (SnapSeed64.v) states a·η·B/λ + b·η for every clamp B ≥ β0·λ.  Its
    excess must fall to b·η as B/λ → 0, but the clamped output B keeps a discrete jump: with
    B < Λ/2 it is output exactly when the sign −1's rounded sum reaches Λ/2, i.e. for the samples
    u ≤ V(x) below one threshold, and as x moves by one float V(x) can move by several floats of U*.
    The ratio of the two probabilities is then 1 + 3 to 5·η, above the seed's 2·η + 12·η·B/λ for
    B ≤ 3λ/16 and above Mironov's 16·η·B/λ for B ≤ λ/4 (Mironov's own range is λ < B;
    docs/snap_tight.md, §5 "Small clamps").
    [top_witness_refutes]: a witness for the clamped output B, with Λ/2 above B (one grid point
    inside): one sample u1 inside for the closer input x, one sample u3 outside for the farther
    x′, the pipeline antitone in u ([wsum_anti]), and U*'s mass of the half-lines below a float
    counted exactly ([ustar_le_float_mass]: the cell [u1, succ u1) is in; [ustar_lt_float_mass]).
    Two witnesses, both inputs binary64 floats one ulp apart, λ = 8651856398750854·2^−52 ≈ 1.921 and
    Λ = 2λ (so any ρ0 ≤ 2), the closer input's sum at the tie below λ ([fl_tie_even]):
    - B = 6488892299063141·2^−54 ≥ 3λ/16: Pr[B | x] = 5817256560700990·2^−55 against
      Pr[B | x′] = 5817256560700987·2^−55, an excess of 4.38·η against the seed's 4.25·η
      ([snap_binary64_seed_constant_small_false]);
    - B = λ/4: an excess of 4.89·η against Mironov's 4·η ([snap_binary64_mironov_constant_small_false]);
    - wider, inputs near −λ/4, whose sample threshold u ≈ 0.29 is nearer 1/4 (U*'s relative spacing
      larger than at the first witnesses' u ≈ 0.30-0.32): B = 8478819270775837·2^−54
      ≥ 0.245·λ, an excess of 4.9423·η against the seed's 4.9400·η
      ([snap_binary64_seed_constant_small_false_245]); at λ = 6804446347951172·2^−52 ≈ 1.511,
      Λ = 2λ, B = 4536297565300782·2^−53 ≥ λ/3, an excess of 5.3436·η against Mironov's 5.3333·η
      ([snap_binary64_mironov_constant_small_false_1_3]).
    [small_clamp_false_w] takes a witness's significands and its three [interval] checks (the two
    logs and the key inequality); the four witnesses are its instances.
    Pairs several steps apart ([small_clamp_false_g]: two inputs on a grid of 2^−110, each with its own
    noise float): the pair pays its distance over λ, m − 1 floats of the noise threshold, and collects
    the rounding of the noise's, the log's and U*'s thresholds at both ends, up to about
    2·L + 2 + e^L/2 η (L ≈ 1 + |x|/λ) against one step's 1.5·e^L η.  One pair of binary64 inputs
    1961 steps apart (λ = 6832853291606282·2^−52 ≈ 1.5172, x ≈ −0.4922, the closer input's sum at the
    tie below λ), an excess of 6.0915·η: Mironov's constant false to β0 = 0.38
    ([snap_binary64_mironov_constant_small_false_38]), the seed's to 0.34
    ([snap_binary64_seed_constant_small_false_34]).  One pair of reals 878 steps apart (λ ≈ 1.4756,
    x ≈ −0.5688, 2^−110 off the steps; [snap64_constant] quantifies over real inputs), 6.6577·η:
    Mironov's to 0.415 ([snap_binary64_mironov_constant_small_real_false]), the seed's to 0.3875
    ([snap_binary64_seed_constant_small_real_false]).  To first order no pair reaches either constant
    from β0 ≈ 0.39 (floats: Mironov's; 0.35 the seed's) or 0.42 (reals; 0.40), and the middle output 0
    moves by a few η relative at most (docs/snap_tight.md, §5 "Small clamps").
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

(** The tie below a float with an even significand rounds to it: m·2^e − 2^e/2 goes up
    (the float below has the odd significand m − 1). *)
Lemma fl_tie_even : forall m e, (4503599627370497 < m < 9007199254740992)%Z -> (-1074 <= e)%Z -> Z.even m = true ->
  fl (IZR m * bpow radix2 e - bpow radix2 e / 2) = IZR m * bpow radix2 e.
Proof.
  intros m e Hm He Hev.
  destruct (float_neighbours m e ltac:(lia) He) as (Fu & _ & Pu).
  destruct (float_neighbours (m - 1) e ltac:(lia) He) as (Fd & Sd & _).
  set (u := IZR m * bpow radix2 e) in *. set (d := IZR (m - 1) * bpow radix2 e) in *.
  assert (Hb := bpow_gt_0 radix2 e).
  assert (Hd : d = u - bpow radix2 e) by (unfold d, u; rewrite minus_IZR; ring).
  assert (S1 : succ radix2 fmt64 d = u) by (rewrite Sd, Hd; ring).
  assert (Dn : round radix2 fmt64 Zfloor (u - bpow radix2 e / 2) = d)
    by (apply (round_DN_eq radix2 fmt64 _ d Fd); rewrite S1, Hd; lra).
  assert (Up : round radix2 fmt64 Zceil (u - bpow radix2 e / 2) = u)
    by (apply (round_UP_eq radix2 fmt64 _ u Fu); rewrite Pu; lra).
  unfold rnd. rewrite round_N_middle by (rewrite Dn, Up, Hd; lra).
  assert (Hm' : Zfloor (scaled_mantissa radix2 fmt64 (u - bpow radix2 e / 2)) = (m - 1)%Z).
  { unfold scaled_mantissa, cexp.
    assert (Hmag : mag radix2 (u - bpow radix2 e / 2) = (53 + e)%Z :> Z).
    { apply mag_unique_pos. rewrite !bpow_plus.
      change (bpow radix2 53) with (IZR (Z.pow_pos 2 53)). pow_eval.
      replace (53 + e - 1)%Z with (52 + e)%Z by ring. rewrite bpow_plus.
      change (bpow radix2 52) with (IZR (Z.pow_pos 2 52)). pow_eval.
      assert (4503599627370498 <= IZR m <= 9007199254740991) by (split; apply IZR_le; lia).
      unfold u. split; nra. }
    rewrite Hmag. replace (fmt64 (53 + e)) with e by (unfold FLT_exp; lia).
    assert (Hi : bpow radix2 e * bpow radix2 (- e) = 1) by (rewrite <- bpow_plus, Z.add_opp_diag_r; reflexivity).
    assert (Hv : (u - bpow radix2 e / 2) * bpow radix2 (- e) = IZR m - / 2).
    { unfold u. unfold Rdiv. rewrite Rmult_minus_distr_r, Rmult_assoc, Hi.
      rewrite (Rmult_comm (bpow radix2 e) (/ 2)), Rmult_assoc, Hi. ring. }
    apply Zfloor_imp. rewrite Hv, plus_IZR, !minus_IZR. lra. }
  rewrite Hm'. assert (Ho : even_tie (m - 1) = true).
  { unfold even_tie. rewrite Z.even_sub, Hev. reflexivity. }
  rewrite Ho. exact Up.
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

Lemma lam_one_large : powerRZ 2 (-968) <= 1.
Proof.
  replace (powerRZ 2 (-968)) with (bpow radix2 (-968)) by (rewrite bpow_powerRZ; reflexivity).
  change 1 with (bpow radix2 0). apply bpow_le. lia.
Qed.


(** ** The witnesses' noise scale: λ = 8651856398750854·2^−52 ≈ 1.921, Λ = 2λ *)
Definition sclam : R := IZR 8651856398750854 * bpow radix2 (-52).

Lemma sclam_format : F64 sclam.
Proof. destruct (float_neighbours 8651856398750854 (-52) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F. Qed.

Lemma sclam_gt_one : 1 < sclam.
Proof. unfold sclam. bpow_q. lra. Qed.

Lemma sclam_large : powerRZ 2 (-968) <= sclam.
Proof. assert (H := lam_one_large). assert (H1 := sclam_gt_one). lra. Qed.

(** ** A witness at λ = mlam·2^−52, Λ = 2λ, from its significands
    λ's significand mlam even (the tie below λ rounds up to it), the clamp mb·2^−54 (a float below λ),
    the inputs x = mx·2^−54 and x′ = mx′·2^−54 one ulp below (both negative), the samples
    u1 = m1·2^−54 and u3 = m3·2^−54 two floats below, the logs' floats l1 = ml1·2^−52 and
    l3 = ml3·2^−52 one below, and the noise's float n = mn·2^−51 of both samples: the integer
    conditions put the closer input's sum at the tie below λ and the farther one's below it, the
    two [ln] conditions and the key inequality are the witness's [interval] checks. *)
Lemma small_clamp_false_w : forall (mlam mb mx mx' m1 m3 ml1 ml3 mn : Z) (a b beta1 rho0 beta0 : R),
  (4503599627370497 < mlam < 9007199254740992)%Z -> Z.even mlam = true ->
  (4503599627370496 < mb < 4 * mlam)%Z -> F64 (IZR mb * bpow radix2 (-54)) -> (mx' + 1 = mx)%Z ->
  (4503599627370497 < - mx' <= mb)%Z ->
  (m3 + 2 = m1)%Z -> (4503599627370496 < m3)%Z -> (m1 < 9007199254740992)%Z ->
  (ml3 + 1 = ml1)%Z -> (4503599627370497 < - ml1)%Z -> (- ml3 < 9007199254740992)%Z ->
  (4503599627370496 < - mn < 9007199254740992)%Z -> (mx - 8 * mn = 4 * mlam - 2)%Z ->
  (mlam * ml1 < mn * 9007199254740992 + 4503599627370496)%Z ->
  (mn * 9007199254740992 - 4503599627370496 < mlam * ml3)%Z ->
  (mx' - 8 * mn < 4 * mlam - 2)%Z ->
  ln (IZR m1 * bpow radix2 (-54)) < IZR ml1 * bpow radix2 (-52) + bpow radix2 (-52) / 2 ->
  IZR ml3 * bpow radix2 (-52) - bpow radix2 (-52) / 2 < ln (IZR m3 * bpow radix2 (-54)) ->
  exp (Rabs (IZR mx * bpow radix2 (-54) - IZR mx' * bpow radix2 (-54)) / (IZR mlam * bpow radix2 (-52)) +
       a * eta 53 * (IZR mb * bpow radix2 (-54) / (IZR mlam * bpow radix2 (-52))) + b * eta 53) *
    (/ 2 * (IZR m3 * bpow radix2 (-54))) < / 2 * (IZR m1 * bpow radix2 (-54) + bpow radix2 (-54)) ->
  beta1 * (IZR mlam * bpow radix2 (-52)) <= IZR mb * bpow radix2 (-54) -> rho0 <= 2 -> beta0 <= beta1 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros mlam mb mx mx' m1 m3 ml1 ml3 mn a b beta1 rho0 beta0 Zlam Zev Zb Fb Zx Zx' Zu Zu3 Zu1 Zl Zl1 Zl3 Zn Zt
    Z1 Z3 Z4 Hln1 Hln3 Key Hc Hr Hb.
  set (lam := IZR mlam * bpow radix2 (-52)) in *.
  assert (Rlam : 4503599627370497 < IZR mlam < 9007199254740992) by (split; apply IZR_lt; lia).
  assert (Flam : F64 lam) by (destruct (float_neighbours mlam (-52) ltac:(lia) ltac:(lia)) as (F & _ & _); exact F).
  assert (Hl : 1 < lam) by (unfold lam; bpow_q; lra). assert (Hl0 : 0 < lam) by lra.
  assert (Hlarge : powerRZ 2 (-968) <= lam) by (assert (H := lam_one_large); lra).
  assert (Rb : 4503599627370496 < IZR mb < 4 * IZR mlam)
    by (split; [apply IZR_lt; lia|rewrite <- (mult_IZR 4); apply IZR_lt; lia]).
  assert (Rx : IZR mx' + 1 = IZR mx) by (rewrite <- plus_IZR; apply f_equal; exact Zx).
  assert (Rx' : 4503599627370497 < - IZR mx' <= IZR mb) by (rewrite <- opp_IZR; split; [apply IZR_lt|apply IZR_le]; lia).
  assert (Ru : IZR m3 + 2 = IZR m1) by (rewrite <- plus_IZR; apply f_equal; exact Zu).
  assert (Ru3 : 0 < IZR m3) by (apply IZR_lt; lia).
  assert (Ru1 : IZR m1 < 9007199254740992) by (apply IZR_lt; exact Zu1).
  assert (Rt : IZR mx - 8 * IZR mn = 4 * IZR mlam - 2)
    by (rewrite <- (mult_IZR 8 mn), <- (mult_IZR 4 mlam), <- !minus_IZR; apply f_equal; exact Zt).
  assert (R1 : IZR mlam * IZR ml1 < IZR mn * 9007199254740992 + 4503599627370496)
    by (rewrite <- (mult_IZR mlam), <- (mult_IZR mn 9007199254740992), <- plus_IZR; apply IZR_lt; exact Z1).
  assert (R3 : IZR mn * 9007199254740992 - 4503599627370496 < IZR mlam * IZR ml3)
    by (rewrite <- (mult_IZR mlam), <- (mult_IZR mn 9007199254740992), <- minus_IZR; apply IZR_lt; exact Z3).
  assert (R4 : IZR mx' - 8 * IZR mn < 4 * IZR mlam - 2)
    by (rewrite <- (mult_IZR 8 mn), <- (mult_IZR 4 mlam), <- !minus_IZR; apply IZR_lt; exact Z4).
  assert (Hcl : IZR mb * bpow radix2 (-54) < lam) by (unfold lam; bpow_q; lra).
  apply (top_witness_refutes lam (2 * lam) (IZR mb * bpow radix2 (-54)) (IZR mx * bpow radix2 (-54))
           (IZR mx' * bpow radix2 (-54)) (IZR m1 * bpow radix2 (-54)) (IZR m1 * bpow radix2 (-54) + bpow radix2 (-54))
           (IZR m3 * bpow radix2 (-54)) a b Flam Hlarge).
  - bpow_q. lra.
  - exact Fb.
  - lra.
  - bpow_q. rewrite Rabs_left by lra. lra.
  - bpow_q. rewrite Rabs_left by lra. lra.
  - apply (wsum_ge_of _ _ _ (IZR ml1 * bpow radix2 (-52)) (IZR mn * bpow radix2 (-51))); [exact Hl0|exact Flam| | |].
    + apply fl_le_float; [lia|lia|exact Hln1].
    + apply fl_le_float; [lia|lia|]. unfold lam. bpow_q. lra.
    + replace (IZR mx * bpow radix2 (-54) + -1 * (IZR mn * bpow radix2 (-51)))
        with (IZR mlam * bpow radix2 (-52) - bpow radix2 (-52) / 2) by (bpow_q; lra).
      rewrite (fl_tie_even mlam (-52) ltac:(lia) ltac:(lia) Zev). unfold lam. lra.
  - apply Rle_lt_trans with (IZR (mlam - 1) * bpow radix2 (-52)); [|unfold lam; rewrite minus_IZR; bpow_q; lra].
    apply (wsum_le_of _ _ _ (IZR ml3 * bpow radix2 (-52)) (IZR mn * bpow radix2 (-51))); [exact Hl0|exact Flam| | |].
    + apply fl_ge_float; [lia|lia|exact Hln3].
    + apply fl_ge_float; [lia|lia|]. unfold lam. bpow_q. lra.
    + apply fl_le_float; [lia|lia|]. rewrite minus_IZR. bpow_q. lra.
  - bpow_q. lra.
  - intros pr Hpr. apply ustar_le_float_mass; [exact Hpr|lia|lia|bpow_q; lra].
  - intros pr Hpr. apply ustar_lt_float_mass; [exact Hpr| |].
    + destruct (float_neighbours m3 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
    + rewrite eta_binary64. bpow_q. lra.
  - exact Key.
  - split; [apply Rmult_le_compat_r; lra|lra].
  - split; [|lra]. apply Rle_trans with (beta1 * lam); [apply Rmult_le_compat_r; lra|exact Hc].
Qed.

(** ** The seed's constant: B = 6488892299063141·2^−54 ≥ 3λ/16 *)
Definition sc_clamp : R := IZR 6488892299063141 * bpow radix2 (-54).
Definition sc_x : R := IZR (-4510821348273242) * bpow radix2 (-54).
Definition sc_x' : R := IZR (-4510821348273243) * bpow radix2 (-54).
Definition sc_u1 : R := IZR 5817256560700989 * bpow radix2 (-54).
Definition sc_u3 : R := IZR 5817256560700987 * bpow radix2 (-54).

(** Both inputs are binary64 floats, one ulp apart. *)
Lemma sc_inputs_format : F64 sc_x /\ F64 sc_x'.
Proof.
  split; [destruct (float_neighbours (-4510821348273242) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-4510821348273243) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

Lemma sc_key : exp (Rabs (sc_x - sc_x') / sclam + 12 * eta 53 * (sc_clamp / sclam) + 2 * eta 53) *
  (/ 2 * sc_u3) < / 2 * (sc_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold sc_x, sc_x'; bpow_q; lra).
  rewrite eta_binary64. unfold sc_x, sc_x', sc_u1, sc_u3, sc_clamp, sclam. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's constant is false for every ρ0 ≤ 2 and β0 ≤ 3/16 (ties up). *)
Lemma sc_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 3 / 16 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb.
  apply (small_clamp_false_w 8651856398750854 6488892299063141 (-4510821348273242) (-4510821348273243) 5817256560700989 5817256560700987
           (-5090610449295120) (-5090610449295121) (-4889780867909582) 12 2 (3 / 16)); try lia; try reflexivity; try assumption.
  - destruct (float_neighbours 6488892299063141 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - bpow_i. interval with (i_prec 120).
  - bpow_i. interval with (i_prec 120).
  - exact sc_key.
  - unfold sc_clamp, sclam. bpow_q. lra.
Qed.

Theorem snap_binary64_seed_constant_small_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 3 / 16 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (sc_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 12 and b ≤ 2 over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 3/16. *)
Theorem snap_binary64_seed_constant_small_false_up : forall rho0 beta0 a b, rho0 <= 2 -> 0 <= beta0 <= 3 / 16 ->
  a <= 12 -> b <= 2 -> ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (sc_small_false_w rho0 (3 / 16) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 (3 / 16) 12 2 H ltac:(lra) Hb Ha Hb').
Qed.

(** ** Mironov's constant: B = λ/4 *)
Definition mc_clamp : R := IZR 8651856398750854 * bpow radix2 (-54).
Definition mc_x : R := IZR (-8057256445428266) * bpow radix2 (-54).
Definition mc_x' : R := IZR (-8057256445428267) * bpow radix2 (-54).
Definition mc_u1 : R := IZR 5250653986782125 * bpow radix2 (-54).
Definition mc_u3 : R := IZR 5250653986782123 * bpow radix2 (-54).

(** Both inputs are binary64 floats, one ulp apart. *)
Lemma mc_inputs_format : F64 mc_x /\ F64 mc_x'.
Proof.
  split; [destruct (float_neighbours (-8057256445428266) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-8057256445428267) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

Lemma mc_key : exp (Rabs (mc_x - mc_x') / sclam + 16 * eta 53 * (mc_clamp / sclam) + 0 * eta 53) *
  (/ 2 * mc_u3) < / 2 * (mc_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold mc_x, mc_x'; bpow_q; lra).
  rewrite eta_binary64. unfold mc_x, mc_x', mc_u1, mc_u3, mc_clamp, sclam. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's constant is false for every ρ0 ≤ 2 and β0 ≤ 1/4 (ties up). *)
Lemma mc_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 1 / 4 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb.
  apply (small_clamp_false_w 8651856398750854 8651856398750854 (-8057256445428266) (-8057256445428267) 5250653986782125 5250653986782123
           (-5552121917063673) (-5552121917063674) (-5333085255053960) 16 0 (1 / 4)); try lia; try reflexivity; try assumption.
  - destruct (float_neighbours 8651856398750854 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - bpow_i. interval with (i_prec 120).
  - bpow_i. interval with (i_prec 120).
  - exact mc_key.
  - unfold mc_clamp, sclam. bpow_q. lra.
Qed.

Theorem snap_binary64_mironov_constant_small_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 1 / 4 ->
  ~ snap64_constant rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (mc_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 16 (and b = 0) over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 1/4. *)
Theorem snap_binary64_mironov_constant_small_false_up : forall rho0 beta0 a, rho0 <= 2 -> 0 <= beta0 <= 1 / 4 ->
  a <= 16 -> ~ snap64_constant_ties TiesUp rho0 beta0 a 0.
Proof.
  intros rho0 beta0 a Hr Hb Ha H. apply (mc_small_false_w rho0 (1 / 4) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a 0 rho0 (1 / 4) 16 0 H ltac:(lra) Hb Ha ltac:(lra)).
Qed.

(** ** The seed's constant up to β0 = 0.245: B = 8478819270775837·2^−54 ≥ 0.245·λ *)
Definition sw_clamp : R := IZR 8478819270775837 * bpow radix2 (-54).
Definition sw_x : R := IZR (-8433329091849474) * bpow radix2 (-54).
Definition sw_x' : R := IZR (-8433329091849475) * bpow radix2 (-54).
Definition sw_u1 : R := IZR 5193904976853239 * bpow radix2 (-54).
Definition sw_u3 : R := IZR 5193904976853237 * bpow radix2 (-54).

(** Both inputs are binary64 floats, one ulp apart. *)
Lemma sw_inputs_format : F64 sw_x /\ F64 sw_x'.
Proof.
  split; [destruct (float_neighbours (-8433329091849474) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-8433329091849475) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

(** An excess of 4.94229·η against 4.9400·η. *)
Lemma sw_key : exp (Rabs (sw_x - sw_x') / sclam + 12 * eta 53 * (sw_clamp / sclam) + 2 * eta 53) *
  (/ 2 * sw_u3) < / 2 * (sw_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold sw_x, sw_x'; bpow_q; lra).
  rewrite eta_binary64. unfold sw_x, sw_x', sw_u1, sw_u3, sw_clamp, sclam. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's constant is false for every ρ0 ≤ 2 and β0 ≤ 0.245 (ties up). *)
Lemma sw_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 49 / 200 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb.
  apply (small_clamp_false_w 8651856398750854 8478819270775837 (-8433329091849474) (-8433329091849475) 5193904976853239 5193904976853237
           (-5601061721200139) (-5601061721200140) (-5380094335856611) 12 2 (49 / 200)); try lia; try reflexivity; try assumption.
  - destruct (float_neighbours 8478819270775837 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - bpow_i. interval with (i_prec 120).
  - bpow_i. interval with (i_prec 120).
  - exact sw_key.
  - unfold sw_clamp, sclam. bpow_q. lra.
Qed.

Theorem snap_binary64_seed_constant_small_false_245 : forall rho0 beta0, rho0 <= 2 -> beta0 <= 49 / 200 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (sw_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 12 and b ≤ 2 over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 0.245. *)
Theorem snap_binary64_seed_constant_small_false_245_up : forall rho0 beta0 a b, rho0 <= 2 -> 0 <= beta0 <= 49 / 200 ->
  a <= 12 -> b <= 2 -> ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (sw_small_false_w rho0 (49 / 200) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 (49 / 200) 12 2 H ltac:(lra) Hb Ha Hb').
Qed.

(** ** Mironov's constant up to β0 = 1/3, at another λ: λ = 6804446347951172·2^−52 ≈ 1.511, Λ = 2λ,
    B = 4536297565300782·2^−53 ≥ λ/3 *)
Definition mtlam : R := IZR 6804446347951172 * bpow radix2 (-52).
Definition mt_clamp : R := IZR 9072595130601564 * bpow radix2 (-54).
Definition mt_x : R := IZR (-8996229157737794) * bpow radix2 (-54).
Definition mt_x' : R := IZR (-8996229157737795) * bpow radix2 (-54).
Definition mt_u1 : R := IZR 4761885769842979 * bpow radix2 (-54).
Definition mt_u3 : R := IZR 4761885769842977 * bpow radix2 (-54).

(** λ is a binary64 float; both inputs are, one ulp apart. *)
Lemma mt_inputs_format : F64 mtlam /\ F64 mt_x /\ F64 mt_x'.
Proof.
  split; [|split]; [destruct (float_neighbours 6804446347951172 (-52) ltac:(lia) ltac:(lia)) as (F & _ & _)
                   |destruct (float_neighbours (-8996229157737794) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)
                   |destruct (float_neighbours (-8996229157737795) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

(** An excess of 5.3436·η against 5.3333·η. *)
Lemma mt_key : exp (Rabs (mt_x - mt_x') / mtlam + 16 * eta 53 * (mt_clamp / mtlam) + 0 * eta 53) *
  (/ 2 * mt_u3) < / 2 * (mt_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold mt_x, mt_x'; bpow_q; lra).
  rewrite eta_binary64. unfold mt_x, mt_x', mt_u1, mt_u3, mt_clamp, mtlam. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's constant is false for every ρ0 ≤ 2 and β0 ≤ 1/3 (ties up). *)
Lemma mt_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 1 / 3 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb.
  apply (small_clamp_false_w 6804446347951172 9072595130601564 (-8996229157737794) (-8996229157737795) 4761885769842979 4761885769842977
           (-5992163582861406) (-5992163582861407) (-4526751818692810) 16 0 (1 / 3)); try lia; try reflexivity; try assumption.
  - replace (IZR 9072595130601564 * bpow radix2 (-54)) with (IZR 4536297565300782 * bpow radix2 (-53)) by (bpow_q; lra).
    destruct (float_neighbours 4536297565300782 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - bpow_i. interval with (i_prec 120).
  - bpow_i. interval with (i_prec 120).
  - exact mt_key.
  - bpow_q. lra.
Qed.

Theorem snap_binary64_mironov_constant_small_false_1_3 : forall rho0 beta0, rho0 <= 2 -> beta0 <= 1 / 3 ->
  ~ snap64_constant rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (mt_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 16 (and b = 0) over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 1/3. *)
Theorem snap_binary64_mironov_constant_small_false_1_3_up : forall rho0 beta0 a, rho0 <= 2 -> 0 <= beta0 <= 1 / 3 ->
  a <= 16 -> ~ snap64_constant_ties TiesUp rho0 beta0 a 0.
Proof.
  intros rho0 beta0 a Hr Hb Ha H. apply (mt_small_false_w rho0 (1 / 3) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a 0 rho0 (1 / 3) 16 0 H ltac:(lra) Hb Ha ltac:(lra)).
Qed.

(** ** Any inputs: a witness at λ = mlam·2^−52, Λ = 2λ, the inputs on a grid of 2^−110
    [snap64_constant] quantifies over every real input in [−B, B].  [small_clamp_false_w]'s witnesses are
    floats one ulp apart across one step of the sample threshold; here the inputs x = mx·2^−110 and
    x′ = mx′·2^−110 < x are any two reals of that grid (floats among them), each with its own noise float:
    n1 = mn1·2^−51 for x (its sum x + |n1| above the midpoint below λ, so from every sample u ≤ u1 the output
    is B) and n3 = mn3·2^−51 for x′ (x′ + |n3| below it, so from no sample u ≥ u3), with the logs' floats
    l1 = ml1·2^−52, l3 = ml3·2^−52 between.  Reals 2^−109 apart on either side of a step pay |x − x′|/λ ≈ 0
    instead of an ulp of x over λ; a pair several steps apart pays (m − 1) floats of the noise over λ and
    collects the rounding of the log's and U*'s thresholds over m steps, which can be more
    (docs/snap_tight.md, §5 "Small clamps").  Both sums strictly off the midpoint below λ, or x's exactly at it when mlam is even (the tie rounds up to λ: float inputs at a step). *)
Lemma small_clamp_false_g : forall (mlam mb mx mx' m1 m3 ml1 ml3 mn1 mn3 : Z) (a b beta1 rho0 beta0 : R),
  (4503599627370497 < mlam < 9007199254740992)%Z ->
  (4503599627370496 < mb < 4 * mlam)%Z -> F64 (IZR mb * bpow radix2 (-54)) -> (mx' < mx < 0)%Z ->
  (- mx' <= mb * 72057594037927936)%Z ->
  (4503599627370496 < m3 < 9007199254740992)%Z -> (4503599627370496 < m1 < 9007199254740991)%Z ->
  (4503599627370496 < - ml1 < 9007199254740992)%Z -> (4503599627370496 < - ml3 < 9007199254740992)%Z ->
  (4503599627370496 < - mn1 < 9007199254740992)%Z -> (4503599627370496 < - mn3 < 9007199254740992)%Z ->
  ((mlam * 288230376151711744 - 144115188075855872 < mx - mn1 * 576460752303423488)%Z \/
   (mlam * 288230376151711744 - 144115188075855872 = mx - mn1 * 576460752303423488)%Z /\ Z.even mlam = true) ->
  (mlam * ml1 < mn1 * 9007199254740992 + 4503599627370496)%Z ->
  (mn3 * 9007199254740992 - 4503599627370496 < mlam * ml3)%Z ->
  (mx' - mn3 * 576460752303423488 < mlam * 288230376151711744 - 144115188075855872)%Z ->
  ln (IZR m1 * bpow radix2 (-54)) < IZR ml1 * bpow radix2 (-52) + bpow radix2 (-52) / 2 ->
  IZR ml3 * bpow radix2 (-52) - bpow radix2 (-52) / 2 < ln (IZR m3 * bpow radix2 (-54)) ->
  exp (Rabs (IZR mx * bpow radix2 (-110) - IZR mx' * bpow radix2 (-110)) / (IZR mlam * bpow radix2 (-52)) +
       a * eta 53 * (IZR mb * bpow radix2 (-54) / (IZR mlam * bpow radix2 (-52))) + b * eta 53) *
    (/ 2 * (IZR m3 * bpow radix2 (-54))) < / 2 * (IZR m1 * bpow radix2 (-54) + bpow radix2 (-54)) ->
  beta1 * (IZR mlam * bpow radix2 (-52)) <= IZR mb * bpow radix2 (-54) -> rho0 <= 2 -> beta0 <= beta1 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros mlam mb mx mx' m1 m3 ml1 ml3 mn1 mn3 a b beta1 rho0 beta0 Zlam Zb Fb Zx Zx' Zu3 Zu1 Zl1 Zl3 Zn1 Zn3 Zt
    Z1 Z3 Z4 Hln1 Hln3 Key Hc Hr Hb.
  set (lam := IZR mlam * bpow radix2 (-52)) in *.
  assert (Rlam : 4503599627370497 < IZR mlam < 9007199254740992) by (split; apply IZR_lt; lia).
  assert (Flam : F64 lam) by (destruct (float_neighbours mlam (-52) ltac:(lia) ltac:(lia)) as (F & _ & _); exact F).
  assert (Hl : 1 < lam) by (unfold lam; bpow_q; lra). assert (Hl0 : 0 < lam) by lra.
  assert (Hlarge : powerRZ 2 (-968) <= lam) by (assert (H := lam_one_large); lra).
  assert (Rb : 4503599627370496 < IZR mb < 4 * IZR mlam)
    by (split; [apply IZR_lt; lia|rewrite <- (mult_IZR 4); apply IZR_lt; lia]).
  assert (Rx : IZR mx' < IZR mx < 0) by (split; apply IZR_lt; lia).
  assert (Rx' : - IZR mx' <= IZR mb * 72057594037927936)
    by (rewrite <- opp_IZR, <- mult_IZR; apply IZR_le; exact Zx').
  assert (Ru3 : 0 < IZR m3 < 9007199254740992) by (split; apply IZR_lt; lia).
  assert (Ru1 : IZR m1 < 9007199254740991) by (apply IZR_lt; lia).
  assert (R1 : IZR mlam * IZR ml1 < IZR mn1 * 9007199254740992 + 4503599627370496)
    by (rewrite <- (mult_IZR mlam), <- (mult_IZR mn1 9007199254740992), <- plus_IZR; apply IZR_lt; exact Z1).
  assert (R3 : IZR mn3 * 9007199254740992 - 4503599627370496 < IZR mlam * IZR ml3)
    by (rewrite <- (mult_IZR mlam), <- (mult_IZR mn3 9007199254740992), <- minus_IZR; apply IZR_lt; exact Z3).
  assert (R4 : IZR mx' - IZR mn3 * 576460752303423488 < IZR mlam * 288230376151711744 - 144115188075855872)
    by (rewrite <- !mult_IZR, <- !minus_IZR; apply IZR_lt; exact Z4).
  assert (Hcl : IZR mb * bpow radix2 (-54) < lam) by (unfold lam; bpow_q; lra).
  apply (top_witness_refutes lam (2 * lam) (IZR mb * bpow radix2 (-54)) (IZR mx * bpow radix2 (-110))
           (IZR mx' * bpow radix2 (-110)) (IZR m1 * bpow radix2 (-54)) (IZR m1 * bpow radix2 (-54) + bpow radix2 (-54))
           (IZR m3 * bpow radix2 (-54)) a b Flam Hlarge).
  - bpow_q. lra.
  - exact Fb.
  - lra.
  - bpow_q. rewrite Rabs_left by lra. lra.
  - bpow_q. rewrite Rabs_left by lra. lra.
  - apply (wsum_ge_of _ _ _ (IZR ml1 * bpow radix2 (-52)) (IZR mn1 * bpow radix2 (-51))); [exact Hl0|exact Flam| | |].
    + apply fl_le_float; [lia|lia|exact Hln1].
    + apply fl_le_float; [lia|lia|]. unfold lam. bpow_q. lra.
    + replace (2 * lam / 2) with (IZR mlam * bpow radix2 (-52)) by (unfold lam; field).
      destruct Zt as [Zt|[Zt Zev]].
      * assert (Rt : IZR mlam * 288230376151711744 - 144115188075855872 < IZR mx - IZR mn1 * 576460752303423488)
          by (rewrite <- !mult_IZR, <- !minus_IZR; apply IZR_lt; exact Zt).
        apply fl_ge_float; [lia|lia|]. bpow_q. lra.
      * assert (Rt : IZR mlam * 288230376151711744 - 144115188075855872 = IZR mx - IZR mn1 * 576460752303423488)
          by (rewrite <- !mult_IZR, <- !minus_IZR; apply f_equal; exact Zt).
        replace (IZR mx * bpow radix2 (-110) + -1 * (IZR mn1 * bpow radix2 (-51)))
          with (IZR mlam * bpow radix2 (-52) - bpow radix2 (-52) / 2) by (bpow_q; lra).
        rewrite (fl_tie_even mlam (-52) ltac:(lia) ltac:(lia) Zev). lra.
  - apply Rle_lt_trans with (IZR (mlam - 1) * bpow radix2 (-52)); [|unfold lam; rewrite minus_IZR; bpow_q; lra].
    apply (wsum_le_of _ _ _ (IZR ml3 * bpow radix2 (-52)) (IZR mn3 * bpow radix2 (-51))); [exact Hl0|exact Flam| | |].
    + apply fl_ge_float; [lia|lia|exact Hln3].
    + apply fl_ge_float; [lia|lia|]. unfold lam. bpow_q. lra.
    + apply fl_le_float; [lia|lia|]. rewrite minus_IZR. bpow_q. lra.
  - bpow_q. lra.
  - intros pr Hpr. apply ustar_le_float_mass; [exact Hpr|lia|lia|bpow_q; lra].
  - intros pr Hpr. apply ustar_lt_float_mass; [exact Hpr| |].
    + destruct (float_neighbours m3 (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
    + rewrite eta_binary64. bpow_q. lra.
  - exact Key.
  - split; [apply Rmult_le_compat_r; lra|lra].
  - split; [|lra]. apply Rle_trans with (beta1 * lam); [apply Rmult_le_compat_r; lra|exact Hc].
Qed.

(** ** A pair of binary64 inputs 1961 steps apart
    λ = 6832853291606282·2^−52 ≈ 1.5172, Λ = 2λ, x ≈ −0.4922 (its sum at the tie below λ). *)
Definition pflam : R := IZR 6832853291606282 * bpow radix2 (-52).
Definition pf_x : R := IZR (-638953105497683037668774489620480) * bpow radix2 (-110).
Definition pf_x' : R := IZR (-638953105498812972800883237584896) * bpow radix2 (-110).
Definition pf_u1 : R := IZR 4790988573566912 * bpow radix2 (-54).
Definition pf_u3 : R := IZR 4790988573564161 * bpow radix2 (-54).

(** λ is a binary64 float; both inputs are. *)
Lemma pf_inputs_format : F64 pflam /\ F64 pf_x /\ F64 pf_x'.
Proof.
  split; [|split].
  - destruct (float_neighbours 6832853291606282 (-52) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - unfold pf_x. replace (IZR (-638953105497683037668774489620480) * bpow radix2 (-110))
      with (IZR (-8867255617240930) * bpow radix2 (-54)) by (bpow_q; lra).
    destruct (float_neighbours (-8867255617240930) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - unfold pf_x'. replace (IZR (-638953105498812972800883237584896) * bpow radix2 (-110))
      with (IZR (-8867255617256611) * bpow radix2 (-54)) by (bpow_q; lra).
    destruct (float_neighbours (-8867255617256611) (-54) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
Qed.

(** The pair refutes (a, b) at every clamp B = mb·2^−54 ≥ β1·λ, below λ and above |x′|, where its key holds. *)
Lemma pf_refutes : forall (mb : Z) (a b beta1 rho0 beta0 : R),
  (4503599627370496 < mb < 4 * 6832853291606282)%Z -> F64 (IZR mb * bpow radix2 (-54)) ->
  (638953105498812972800883237584896 <= mb * 72057594037927936)%Z ->
  exp (Rabs (pf_x - pf_x') / pflam + a * eta 53 * (IZR mb * bpow radix2 (-54) / pflam) + b * eta 53) *
    (/ 2 * pf_u3) < / 2 * (pf_u1 + bpow radix2 (-54)) ->
  beta1 * pflam <= IZR mb * bpow radix2 (-54) -> rho0 <= 2 -> beta0 <= beta1 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros mb a b beta1 rho0 beta0 Zb Fb Zx Key Hc Hr Hb.
  apply (small_clamp_false_g 6832853291606282 mb (-638953105497683037668774489620480)
           (-638953105498812972800883237584896) 4790988573566912 4790988573564161 (-5964723091804534) (-5964723091807119)
           (-4524833597958257) (-4524833597960217) a b beta1);
    try lia; try assumption; try (left; lia); try (right; split; [lia|reflexivity]).
  - bpow_i. interval with (i_prec 120).
  - bpow_i. interval with (i_prec 120).
Qed.

(** ** Mironov's constant up to β0 = 0.38, binary64 inputs 1961 steps apart *)
Definition mf_clamp : R := IZR 10385937003241550 * bpow radix2 (-54).

(** An excess of 6.0915·η against Mironov's 16·η·B/λ 6.0800·η. *)
Lemma mf_key : exp (Rabs (pf_x - pf_x') / pflam + 16 * eta 53 * (mf_clamp / pflam) + 0 * eta 53) *
  (/ 2 * pf_u3) < / 2 * (pf_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold pf_x, pf_x'; bpow_q; lra).
  rewrite eta_binary64. unfold pf_x, pf_x', pf_u1, pf_u3, mf_clamp, pflam. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's 16·η·B/λ is false for every ρ0 ≤ 2 and β0 ≤ 0.38 (ties up). *)
Lemma mf_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 19 / 50 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb. apply (pf_refutes 10385937003241550 16 0 (19 / 50)); try lia; try assumption.
  - replace (IZR 10385937003241550 * bpow radix2 (-54)) with (IZR 5192968501620775 * bpow radix2 (-53)) by (bpow_q; lra).
    destruct (float_neighbours 5192968501620775 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - exact mf_key.
  - unfold pflam. bpow_q. lra.
Qed.

Theorem snap_binary64_mironov_constant_small_false_38 : forall rho0 beta0, rho0 <= 2 -> beta0 <= 19 / 50 ->
  ~ snap64_constant rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (mf_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 16 (and b = 0) over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 0.38. *)
Theorem snap_binary64_mironov_constant_small_false_38_up : forall rho0 beta0 a, rho0 <= 2 -> 0 <= beta0 <= 19 / 50 ->
  a <= 16 -> ~ snap64_constant_ties TiesUp rho0 beta0 a 0.
Proof.
  intros rho0 beta0 a Hr Hb Ha H. apply (mf_small_false_w rho0 (19 / 50) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a 0 rho0 (19 / 50) 16 0 H ltac:(lra) Hb Ha ltac:(lra)).
Qed.

(** ** The seed's constant up to β0 = 0.34, the same binary64 inputs *)
Definition sf_clamp : R := IZR 9292680476584544 * bpow radix2 (-54).

(** An excess of 6.0915·η against the seed's 12·η·B/λ + 2·η 6.0800·η. *)
Lemma sf_key : exp (Rabs (pf_x - pf_x') / pflam + 12 * eta 53 * (sf_clamp / pflam) + 2 * eta 53) *
  (/ 2 * pf_u3) < / 2 * (pf_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold pf_x, pf_x'; bpow_q; lra).
  rewrite eta_binary64. unfold pf_x, pf_x', pf_u1, pf_u3, sf_clamp, pflam. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's 12·η·B/λ + 2·η is false for every ρ0 ≤ 2 and β0 ≤ 0.34 (ties up). *)
Lemma sf_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 17 / 50 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb. apply (pf_refutes 9292680476584544 12 2 (17 / 50)); try lia; try assumption.
  - replace (IZR 9292680476584544 * bpow radix2 (-54)) with (IZR 4646340238292272 * bpow radix2 (-53)) by (bpow_q; lra).
    destruct (float_neighbours 4646340238292272 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - exact sf_key.
  - unfold pflam. bpow_q. lra.
Qed.

Theorem snap_binary64_seed_constant_small_false_34 : forall rho0 beta0, rho0 <= 2 -> beta0 <= 17 / 50 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (sf_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 12 and b ≤ 2 over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 0.34. *)
Theorem snap_binary64_seed_constant_small_false_34_up : forall rho0 beta0 a b, rho0 <= 2 -> 0 <= beta0 <= 17 / 50 ->
  a <= 12 -> b <= 2 -> ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (sf_small_false_w rho0 (17 / 50) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 (17 / 50) 12 2 H ltac:(lra) Hb Ha Hb').
Qed.

(** ** A pair of real inputs 878 steps apart
    λ = 6645623350636014·2^−52 ≈ 1.4756, Λ = 2λ, x ≈ −0.5688 (2^−110 above its step). *)
Definition prlam : R := IZR 6645623350636014 * bpow radix2 (-52).
Definition pr_x : R := IZR (-738293643596848068926587797503999) * bpow radix2 (-110).
Definition pr_x' : R := IZR (-738293643597353625006357899902977) * bpow radix2 (-110).
Definition pr_u1 : R := IZR 4507461474169747 * bpow radix2 (-54).
Definition pr_u3 : R := IZR 4507461474168555 * bpow radix2 (-54).

(** The pair refutes (a, b) at every clamp B = mb·2^−54 ≥ β1·λ, below λ and above |x′|, where its key holds. *)
Lemma pr_refutes : forall (mb : Z) (a b beta1 rho0 beta0 : R),
  (4503599627370496 < mb < 4 * 6645623350636014)%Z -> F64 (IZR mb * bpow radix2 (-54)) ->
  (738293643597353625006357899902977 <= mb * 72057594037927936)%Z ->
  exp (Rabs (pr_x - pr_x') / prlam + a * eta 53 * (IZR mb * bpow radix2 (-54) / prlam) + b * eta 53) *
    (/ 2 * pr_u3) < / 2 * (pr_u1 + bpow radix2 (-54)) ->
  beta1 * prlam <= IZR mb * bpow radix2 (-54) -> rho0 <= 2 -> beta0 <= beta1 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros mb a b beta1 rho0 beta0 Zb Fb Zx Key Hc Hr Hb.
  apply (small_clamp_false_g 6645623350636014 mb (-738293643596848068926587797503999)
           (-738293643597353625006357899902977) 4507461474169747 4507461474168555 (-6239454576191319) (-6239454576192509)
           (-4603546991029913) (-4603546991030790) a b beta1);
    try lia; try assumption; try (left; lia); try (right; split; [lia|reflexivity]).
  - bpow_i. interval with (i_prec 120).
  - bpow_i. interval with (i_prec 120).
Qed.

(** ** Mironov's constant up to β0 = 0.415, real inputs 878 steps apart *)
Definition mr_clamp : R := IZR 11031734762055784 * bpow radix2 (-54).

(** An excess of 6.6577·η against Mironov's 16·η·B/λ 6.6400·η. *)
Lemma mr_key : exp (Rabs (pr_x - pr_x') / prlam + 16 * eta 53 * (mr_clamp / prlam) + 0 * eta 53) *
  (/ 2 * pr_u3) < / 2 * (pr_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold pr_x, pr_x'; bpow_q; lra).
  rewrite eta_binary64. unfold pr_x, pr_x', pr_u1, pr_u3, mr_clamp, prlam. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's 16·η·B/λ is false for every ρ0 ≤ 2 and β0 ≤ 0.415 (ties up). *)
Lemma mr_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 83 / 200 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb. apply (pr_refutes 11031734762055784 16 0 (83 / 200)); try lia; try assumption.
  - replace (IZR 11031734762055784 * bpow radix2 (-54)) with (IZR 5515867381027892 * bpow radix2 (-53)) by (bpow_q; lra).
    destruct (float_neighbours 5515867381027892 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - exact mr_key.
  - unfold prlam. bpow_q. lra.
Qed.

Theorem snap_binary64_mironov_constant_small_real_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 83 / 200 ->
  ~ snap64_constant rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (mr_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 16 (and b = 0) over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 0.415. *)
Theorem snap_binary64_mironov_constant_small_real_false_up : forall rho0 beta0 a, rho0 <= 2 -> 0 <= beta0 <= 83 / 200 ->
  a <= 16 -> ~ snap64_constant_ties TiesUp rho0 beta0 a 0.
Proof.
  intros rho0 beta0 a Hr Hb Ha H. apply (mr_small_false_w rho0 (83 / 200) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a 0 rho0 (83 / 200) 16 0 H ltac:(lra) Hb Ha ltac:(lra)).
Qed.

(** ** The seed's constant up to β0 = 0.3875, the same real inputs *)
Definition sr_clamp : R := IZR 10300716193485822 * bpow radix2 (-54).

(** An excess of 6.6577·η against the seed's 12·η·B/λ + 2·η 6.6500·η. *)
Lemma sr_key : exp (Rabs (pr_x - pr_x') / prlam + 12 * eta 53 * (sr_clamp / prlam) + 2 * eta 53) *
  (/ 2 * pr_u3) < / 2 * (pr_u1 + bpow radix2 (-54)).
Proof.
  rewrite Rabs_pos_eq by (unfold pr_x, pr_x'; bpow_q; lra).
  rewrite eta_binary64. unfold pr_x, pr_x', pr_u1, pr_u3, sr_clamp, prlam. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's 12·η·B/λ + 2·η is false for every ρ0 ≤ 2 and β0 ≤ 0.3875 (ties up). *)
Lemma sr_small_false_w : forall rho0 beta0, rho0 <= 2 -> beta0 <= 31 / 80 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb. apply (pr_refutes 10300716193485822 12 2 (31 / 80)); try lia; try assumption.
  - replace (IZR 10300716193485822 * bpow radix2 (-54)) with (IZR 5150358096742911 * bpow radix2 (-53)) by (bpow_q; lra).
    destruct (float_neighbours 5150358096742911 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F.
  - exact sr_key.
  - unfold prlam. bpow_q. lra.
Qed.

Theorem snap_binary64_seed_constant_small_real_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 31 / 80 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (sr_small_false_w rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, every a ≤ 12 and b ≤ 2 over every range ρ0 ≤ 2, 0 ≤ β0 ≤ 0.3875. *)
Theorem snap_binary64_seed_constant_small_real_false_up : forall rho0 beta0 a b, rho0 <= 2 -> 0 <= beta0 <= 31 / 80 ->
  a <= 12 -> b <= 2 -> ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (sr_small_false_w rho0 (31 / 80) Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 (31 / 80) 12 2 H ltac:(lra) Hb Ha Hb').
Qed.
