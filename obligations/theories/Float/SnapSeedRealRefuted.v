(** * The seed's constant with real inputs is false near Λ = λ in binary64
    [snap64_constant ρ0 β0 12 2] (SnapSeed64.v) is the seed's ε + 12·B·ε·η + 2·η for every
    binary64 λ, ρ0·λ ≤ Λ ≤ 2λ, β0·λ ≤ B ≤ 353λ and all *real* inputs in [−B, B].  Off the float
    lattice each input puts the product's threshold (the first float at or beyond c* − x) where it
    likes, and near Λ = λ that is worth more than the seed's slope (docs/snap_tight.md, §5).  The
    witness (bench/snap_real_inputs.py): λ = 1 − 1048577·2^−53 (a float), Λ = 1 (the power of two
    at or above λ, as libraries take it), B = 519/4, the output 128, x ≈ −128.575 and
    x′ ≈ −129.107 (dyadic reals, not floats).  With the sign −1 the output is a bucket of u: four
    samples bound it (u_c_hi, u_c_lo for x: [wsum_close_hi], [wsum_close_lo]; u_f_lo, u_f_hi for x′:
    [wsum_far_lo], [wsum_far_hi]), each run through the pipeline
    (three roundings, each within half an ulp of a named float, the logarithm's by `interval`);
    between them the pipeline is monotone in u ([wsum_anti]); U*'s probability of an interval of u
    is bracketed by UStarMeasure.v; the sign +1 never reaches 128 from x′ ([far_plus_empty]).  Then
    Pr[128 | x] > e^(|x − x′|/λ + 12·η·B/λ + 2·η)·Pr[128 | x′] (an excess of about 1596·η against
    the seed's ≈ 1559·η), so [snap_binary64_seed_constant_real_false]: the statement fails for every
    ρ0 ≤ 1 and β0 ≤ 129.  The seed's and diffprivlib's inputs are floats; this does not refute them. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapBinary64
  DiffprivlibRound SnapSeed64.

Local Open Scope R_scope.

Local Instance refuted_prec_gt_0 : Prec_gt_0 53.
Proof. unfold Prec_gt_0. lia. Qed.

Definition lam0 : R := IZR 9007199253692415 * bpow radix2 (-53).
Definition bound0 : R := 519 / 4.
(** The closer input x and the farther one x′. *)
Definition x_close : R := -667600578954239577719425932922893223 / 5192296858534827628530496329220096.
Definition x_far : R := -10725785627697329202128951141300252345 / 83076749736557242056487941267521536.

(** The four samples: the ends of the bucket of u for x (u_c_hi, u_c_lo) and just outside it for x′. *)
Definition u_c_hi : R := IZR 6646824233663904 * bpow radix2 (-422).
Definition u_c_lo : R := IZR 4890459968720553 * bpow radix2 (-423).
Definition u_f_lo : R := IZR 7810997823204624 * bpow radix2 (-423).
Definition u_f_hi : R := IZR 5747011027715025 * bpow radix2 (-424).

(** The rounded sum of the sign −1 at the sample u. *)
Definition wsum (x u : R) : R := fl (x + -1 * fl (fl lam0 * fl (ln u))).

Local Ltac pow_eval := repeat match goal with |- context [Z.pow_pos 2 ?p] =>
  let t := eval vm_compute in (Z.pow_pos 2 p) in change (Z.pow_pos 2 p) with t end.

(** Spacings as rationals for [lra], as powers for [interval]. *)
Lemma bpow_neg_q : forall p, bpow radix2 (Z.neg p) = / IZR (Z.pow_pos 2 p).
Proof. reflexivity. Qed.

Local Ltac bpow_q := rewrite ?bpow_neg_q; pow_eval.
Local Ltac bpow_i := rewrite ?bpow_powerRZ; change (IZR (radix_val radix2)) with 2.

Lemma lam0_format : F64 lam0.
Proof. destruct (float_neighbours 9007199253692415 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F. Qed.

Lemma lam0_value : lam0 = 9007199253692415 / 9007199254740992.
Proof. unfold lam0. bpow_q. field. Qed.

Lemma fl_lam0 : fl lam0 = lam0.
Proof. apply fl_generic. exact lam0_format. Qed.

(** A real below the midpoint above m·2^e rounds to at most m·2^e; above the one below, to at least. *)
Lemma fl_le_float : forall m e v, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  v < IZR m * bpow radix2 e + bpow radix2 e / 2 -> fl v <= IZR m * bpow radix2 e.
Proof.
  intros m e v Hm He H. destruct (float_neighbours m e Hm He) as (F & S & _).
  apply (round_N_le_midp radix2 fmt64 even_tie); [exact F|]. rewrite S. lra.
Qed.

Lemma fl_ge_float : forall m e v, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  IZR m * bpow radix2 e - bpow radix2 e / 2 < v -> IZR m * bpow radix2 e <= fl v.
Proof.
  intros m e v Hm He H. destruct (float_neighbours m e Hm He) as (F & _ & P).
  apply (round_N_ge_midp radix2 fmt64 even_tie); [exact F|]. rewrite P. lra.
Qed.

(** The pipeline of the sign −1 is antitone in u: a smaller sample, a larger noise. *)
Lemma wsum_anti : forall x u u', 0 < u -> u <= u' -> wsum x u' <= wsum x u.
Proof.
  intros x u u' Hu Huu. unfold wsum. rewrite fl_lam0. apply fl_le.
  assert (Hl : fl (ln u) <= fl (ln u')) by (apply fl_le; apply ln_mono; lra).
  assert (Hlam : 0 < lam0) by (rewrite lam0_value; lra).
  assert (fl (lam0 * fl (ln u)) <= fl (lam0 * fl (ln u'))) by (apply fl_le; apply Rmult_le_compat_l; lra).
  lra.
Qed.

(** Running the pipeline at a sample: if fl(ln u) ≤ L, fl(λ·L) ≤ N and fl(x − N) ≥ t then wsum ≥ t;
    the mirror for ≤. *)
Lemma wsum_ge_of : forall x u L N t, fl (ln u) <= L -> fl (lam0 * L) <= N -> t <= fl (x + -1 * N) ->
  t <= wsum x u.
Proof.
  intros x u L N t H1 H2 H3. unfold wsum. rewrite fl_lam0.
  assert (Hlam : 0 < lam0) by (rewrite lam0_value; lra).
  assert (fl (lam0 * fl (ln u)) <= fl (lam0 * L)) by (apply fl_le; apply Rmult_le_compat_l; lra).
  eapply Rle_trans; [exact H3|]. apply fl_le. lra.
Qed.

Lemma wsum_le_of : forall x u L N t, L <= fl (ln u) -> N <= fl (lam0 * L) -> fl (x + -1 * N) <= t ->
  wsum x u <= t.
Proof.
  intros x u L N t H1 H2 H3. unfold wsum. rewrite fl_lam0.
  assert (Hlam : 0 < lam0) by (rewrite lam0_value; lra).
  assert (fl (lam0 * L) <= fl (lam0 * fl (ln u))) by (apply fl_le; apply Rmult_le_compat_l; lra).
  eapply Rle_trans; [|exact H3]. apply fl_le. lra.
Qed.

Lemma half_up : IZR 128 - / 2 = IZR 8972014882652160 * bpow radix2 (-46).
Proof. bpow_q. field. Qed.

Lemma half_up' : IZR 128 + / 2 = IZR 4521191813414912 * bpow radix2 (-45).
Proof. bpow_q. field. Qed.

(** x reaches the bucket of 128 at u = u_c_hi (its largest sample there) ... *)
Lemma wsum_close_hi : IZR 128 - / 2 <= wsum x_close u_c_hi.
Proof.
  rewrite half_up.
  apply (wsum_ge_of _ _ (IZR (-4504922465108629) * bpow radix2 (-44)) (IZR (-4504922464584187) * bpow radix2 (-44))).
  - apply fl_le_float; [lia|lia|]. unfold u_c_hi. bpow_i. interval with (i_prec 120).
  - apply fl_le_float; [lia|lia|]. rewrite lam0_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold x_close. bpow_q. lra.
Qed.

(** ... and at u = u_c_lo (its smallest). *)
Lemma wsum_close_lo : wsum x_close u_c_lo < IZR 128 + / 2.
Proof.
  apply Rle_lt_trans with (IZR 4521191813414910 * bpow radix2 (-45)).
  - apply (wsum_le_of _ _ (IZR (-4522514651155093) * bpow radix2 (-44)) (IZR (-4522514650628602) * bpow radix2 (-44))).
    + apply fl_ge_float; [lia|lia|]. unfold u_c_lo. bpow_i. interval with (i_prec 120).
    + apply fl_ge_float; [lia|lia|]. rewrite lam0_value. bpow_q. lra.
    + apply fl_le_float; [lia|lia|]. unfold x_close. bpow_q. lra.
  - bpow_q. lra.
Qed.

(** x′ is below the bucket at u = u_f_lo and above it at u = u_f_hi. *)
Lemma wsum_far_lo : wsum x_far u_f_lo < IZR 128 - / 2.
Proof.
  apply Rle_lt_trans with (IZR 8972014882652159 * bpow radix2 (-46)).
  - apply (wsum_le_of _ _ (IZR (-4514277174150143) * bpow radix2 (-44)) (IZR (-4514277173624611) * bpow radix2 (-44))).
    + apply fl_ge_float; [lia|lia|]. unfold u_f_lo. bpow_i. interval with (i_prec 120).
    + apply fl_ge_float; [lia|lia|]. rewrite lam0_value. bpow_q. lra.
    + apply fl_le_float; [lia|lia|]. unfold x_far. bpow_q. lra.
  - bpow_q. lra.
Qed.

Lemma wsum_far_hi : IZR 128 + / 2 <= wsum x_far u_f_hi.
Proof.
  rewrite half_up'.
  apply (wsum_ge_of _ _ (IZR (-4531869360196607) * bpow radix2 (-44)) (IZR (-4531869359669027) * bpow radix2 (-44))).
  - apply fl_le_float; [lia|lia|]. unfold u_f_hi. bpow_i. interval with (i_prec 120).
  - apply fl_le_float; [lia|lia|]. rewrite lam0_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold x_far. bpow_q. lra.
Qed.

Local Notation lnf := (fun v => rnd 53 (-1074) even_tie (ln v)).
Local Notation ust := (ustar 53 (-1074)).
Local Notation out128 := (1 * IZR 128).

Lemma out128_iff : forall w, float_snap TiesUp 1 bound0 w = out128 <-> IZR 128 - / 2 <= w < IZR 128 + / 2.
Proof.
  intros w. rewrite (float_snap_interior_iff TiesUp 1 bound0 128 w ltac:(lra) ltac:(unfold bound0; lra)).
  cbn [in_bucket]. split; intros [H1 H2]; split; lra.
Qed.

Lemma sum_minus : forall x U, snap_sum 53 (-1074) even_tie lnf lam0 x (-1) U = wsum x (ust U).
Proof. intros x U. reflexivity. Qed.

Lemma normal_min_64 : normal_min 53 (-1074) = powerRZ 2 (-1022).
Proof. unfold normal_min. rewrite bpow_powerRZ. reflexivity. Qed.

(** From x: at least U*'s mass of [u_c_lo, u_c_hi], with the sign −1 alone. *)
Lemma close_lower : forall pr, uprob pr ->
  / 2 * (u_c_hi - u_c_lo / (1 - 2 * eta 53)) <=
  snap_output_prob 53 (-1074) even_tie lnf pr lam0 x_close (fun w => float_snap TiesUp 1 bound0 w = out128).
Proof.
  intros pr Hpr. unfold snap_output_prob.
  assert (H0 := uprob_nonneg pr (fun U => float_snap TiesUp 1 bound0 (snap_sum 53 (-1074) even_tie lnf lam0 x_close 1 U)
                                          = out128) Hpr).
  assert (Hlo : u_c_hi - u_c_lo / (1 - 2 * eta 53) <=
    pr (fun U => float_snap TiesUp 1 bound0 (snap_sum 53 (-1074) even_tie lnf lam0 x_close (-1) U) = out128)).
  { eapply Rle_trans.
    - apply (ustar_prob_lower 53 (-1074) ltac:(lia) pr Hpr u_c_lo u_c_hi).
      + rewrite normal_min_64. unfold u_c_lo. bpow_i. interval.
      + unfold u_c_hi. bpow_i. interval.
    - apply (uprob_mono pr Hpr). intros U HU [H1 H2]. rewrite sum_minus, out128_iff.
      assert (Hp : 0 < u_c_lo) by (unfold u_c_lo; bpow_i; interval).
      split.
      + eapply Rle_trans; [exact wsum_close_hi|]. apply wsum_anti; [lra|exact H2].
      + eapply Rle_lt_trans; [|exact wsum_close_lo]. apply wsum_anti; [exact Hp|exact H1]. }
  lra.
Qed.

(** From x′ the sign +1 never reaches 128: the noise is ≤ 0 and x′ < 0. *)
Lemma far_plus_empty : forall U, 0 < U <= 1 ->
  ~ float_snap TiesUp 1 bound0 (snap_sum 53 (-1074) even_tie lnf lam0 x_far 1 U) = out128.
Proof.
  intros U _ H. rewrite out128_iff in H. destruct H as [H _]. revert H. apply Rlt_not_le.
  unfold snap_sum. change (rnd 53 (-1074) even_tie) with fl. rewrite fl_lam0.
  destruct (ustar_in 53 (-1074) ltac:(lia) ltac:(lia) U) as [U0 U1].
  assert (Hl : fl (ln (ust U)) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le.
    rewrite <- ln_1. apply ln_mono; lra. }
  assert (Hlam : 0 < lam0) by (rewrite lam0_value; lra).
  assert (Hn : fl (lam0 * fl (ln (ust U))) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. nra. }
  assert (Hs : fl (x_far + 1 * fl (lam0 * fl (ln (ust U)))) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. unfold x_far. lra. }
  lra.
Qed.

(** From x′: at most U*'s mass of [u_f_hi, u_f_lo], with the sign −1 only. *)
Lemma far_upper : forall pr, uprob pr ->
  snap_output_prob 53 (-1074) even_tie lnf pr lam0 x_far (fun w => float_snap TiesUp 1 bound0 w = out128) <=
  / 2 * (u_f_lo / (1 - 2 * eta 53) - u_f_hi).
Proof.
  intros pr Hpr. unfold snap_output_prob.
  rewrite (uprob_len pr Hpr _ 0 (umeasure_empty _ far_plus_empty)).
  assert (Hp : 0 < u_f_hi) by (unfold u_f_hi; bpow_i; interval).
  assert (Hup : pr (fun U => float_snap TiesUp 1 bound0 (snap_sum 53 (-1074) even_tie lnf lam0 x_far (-1) U) = out128)
    <= u_f_lo / (1 - 2 * eta 53) - u_f_hi).
  { eapply Rle_trans; [|apply (ustar_prob_upper 53 (-1074) ltac:(lia) pr Hpr u_f_hi u_f_lo)].
    - apply (uprob_mono pr Hpr). intros U HU H. rewrite sum_minus, out128_iff in H. destruct H as [H1 H2].
      assert (U0 := ustar_pos 53 (-1074) U).
      split.
      + destruct (Rle_lt_dec (ust U) u_f_hi) as [L|L]; [|lra]. exfalso.
        assert (M := wsum_anti x_far (ust U) u_f_hi U0 L). assert (F := wsum_far_hi). lra.
      + destruct (Rle_lt_dec u_f_lo (ust U)) as [L|L]; [|lra]. exfalso.
        assert (M := wsum_anti x_far u_f_lo (ust U) ltac:(unfold u_f_lo; bpow_i; interval) L).
        assert (F := wsum_far_lo). lra.
    - split.
      + rewrite normal_min_64. unfold u_f_hi. bpow_i. interval.
      + unfold u_f_hi, u_f_lo. bpow_i. interval. }
  lra.
Qed.

(** The seed's constant with real inputs is false for every ρ0 ≤ 1 and β0 ≤ 129. *)
Theorem snap_binary64_seed_constant_real_false : forall rho0 beta0, rho0 <= 1 -> beta0 <= 129 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H.
  assert (Hl := lam0_value).
  assert (Hlam : powerRZ 2 (-968) <= lam0) by (rewrite Hl; interval).
  assert (Hgrid : rho0 * lam0 <= 1 <= 2 * lam0) by (rewrite Hl; split; nra).
  assert (HB : beta0 * lam0 <= bound0 <= 353 * lam0) by (rewrite Hl; unfold bound0; split; nra).
  assert (Hxc : Rabs x_close <= bound0) by (unfold x_close, bound0; rewrite Rabs_left by lra; lra).
  assert (Hxf : Rabs x_far <= bound0) by (unfold x_far, bound0; rewrite Rabs_left by lra; lra).
  assert (C := H even_tie inner_len TiesUp lam0 1 bound0 uprob_inner_len Hlam lam0_format Hgrid HB
                 x_close x_far out128 Hxc Hxf).
  assert (Lo := close_lower inner_len uprob_inner_len).
  assert (Up := far_upper inner_len uprob_inner_len).
  assert (E := exp_pos (Rabs (x_close - x_far) / lam0 + 12 * eta 53 * (bound0 / lam0) + 2 * eta 53)).
  assert (Key : exp (Rabs (x_close - x_far) / lam0 + 12 * eta 53 * (bound0 / lam0) + 2 * eta 53) *
                (/ 2 * (u_f_lo / (1 - 2 * eta 53) - u_f_hi)) < / 2 * (u_c_hi - u_c_lo / (1 - 2 * eta 53))).
  { rewrite Rabs_pos_eq by (unfold x_close, x_far; lra).
    rewrite eta_binary64, Hl. unfold x_close, x_far, bound0, u_f_lo, u_f_hi, u_c_hi, u_c_lo. bpow_i.
    interval with (i_prec 200). }
  assert (Mul := Rmult_le_compat_l _ _ _ (Rlt_le _ _ E) Up). lra.
Qed.
