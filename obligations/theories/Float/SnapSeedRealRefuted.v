(** * The seed's constant with real inputs is false near Λ = λ in binary64
    [snap64_constant ρ0 β0 12 2] (SnapSeed64.v) is the seed's ε + 12·B·ε·η + 2·η for every
    binary64 λ, ρ0·λ ≤ Λ ≤ 2λ, β0·λ ≤ B ≤ 353λ and all *real* inputs in [−B, B].  Off the float
    lattice each input puts the product's threshold (the first float at or beyond c* − x) where it
    likes, and near Λ = λ that is worth more than the seed's slope (docs/snap_tight.md, §5).
    [witness_refutes]: a witness refutes [snap64_constant ρ0 β0 a b] when, for an interior output
    kΛ and the sign −1 (whose samples giving kΛ are an interval of u), four samples bound the two
    intervals: u1 ≥ u2 inside for the closer input x ([wsum] at u1 and u2 in the bucket), u3 and u4
    just outside for the farther x′; the pipeline is monotone in u in between ([wsum_anti]), U*'s
    probability of an interval of u is bracketed (UStarMeasure.v), the sign +1 never reaches kΛ > 0
    from x′ ≤ 0, and the brackets' ratio beats e^(|x − x′|/λ + a·η·B/λ + b·η).  Two witnesses found
    by bench/snap_real_inputs.py, each sample run through the pipeline (three roundings, each within
    half an ulp of a named float, the logarithm's by `interval`):
    - λ = 1 − 1048577·2^−53, Λ = 1 (the power of two at or above λ, as libraries take it),
      B = 519/4, output 128, x ≈ −128.575, x′ ≈ −129.107: an excess of at least 1596·η against the
      seed's 1559·η ([snap_binary64_seed_constant_real_false]: false for every ρ0 ≤ 1, β0 ≤ 129);
    - the same λ, Λ = 1.05λ, B = 1031/4, output 244·Λ: at least 3140·η against 3095·η
      ([snap_binary64_seed_constant_real_false_105]: false for every ρ0 ≤ 1.05, β0 ≤ 257).
    The seed's and diffprivlib's inputs are floats; this does not refute them. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Core Require Import RealFacts.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapBinary64
  DiffprivlibRound SnapSeed64.

Local Open Scope R_scope.

Local Instance refuted_prec_gt_0 : Prec_gt_0 53.
Proof. unfold Prec_gt_0. lia. Qed.

Local Ltac pow_eval := repeat match goal with |- context [Z.pow_pos 2 ?p] =>
  let t := eval vm_compute in (Z.pow_pos 2 p) in change (Z.pow_pos 2 p) with t end.

(** Spacings as rationals for [lra], as powers for [interval]. *)
Lemma bpow_neg_q : forall p, bpow radix2 (Z.neg p) = / IZR (Z.pow_pos 2 p).
Proof. reflexivity. Qed.

Local Ltac bpow_q := rewrite ?bpow_neg_q; pow_eval.
Local Ltac bpow_i := rewrite ?bpow_powerRZ; change (IZR (radix_val radix2)) with 2.

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

(** The rounded sum of the sign −1 at the sample u. *)
Definition wsum (lam x u : R) : R := fl (x + -1 * fl (fl lam * fl (ln u))).

(** The pipeline of the sign −1 is antitone in u: a smaller sample, a larger noise. *)
Lemma wsum_anti : forall lam x u u', 0 < lam -> F64 lam -> 0 < u -> u <= u' -> wsum lam x u' <= wsum lam x u.
Proof.
  intros lam x u u' Hlam Fl Hu Huu. unfold wsum. rewrite (fl_generic lam Fl). apply fl_le.
  assert (Hl : fl (ln u) <= fl (ln u')) by (apply fl_le; apply ln_mono; lra).
  assert (fl (lam * fl (ln u)) <= fl (lam * fl (ln u'))) by (apply fl_le; apply Rmult_le_compat_l; lra).
  lra.
Qed.

(** Running the pipeline at a sample: if fl(ln u) ≤ L, fl(λ·L) ≤ N and fl(x − N) ≥ t then wsum ≥ t;
    the mirror for ≤. *)
Lemma wsum_ge_of : forall lam x u L N t, 0 < lam -> F64 lam ->
  fl (ln u) <= L -> fl (lam * L) <= N -> t <= fl (x + -1 * N) -> t <= wsum lam x u.
Proof.
  intros lam x u L N t Hlam Fl H1 H2 H3. unfold wsum. rewrite (fl_generic lam Fl).
  assert (fl (lam * fl (ln u)) <= fl (lam * L)) by (apply fl_le; apply Rmult_le_compat_l; lra).
  eapply Rle_trans; [exact H3|]. apply fl_le. lra.
Qed.

Lemma wsum_le_of : forall lam x u L N t, 0 < lam -> F64 lam ->
  L <= fl (ln u) -> N <= fl (lam * L) -> fl (x + -1 * N) <= t -> wsum lam x u <= t.
Proof.
  intros lam x u L N t Hlam Fl H1 H2 H3. unfold wsum. rewrite (fl_generic lam Fl).
  assert (fl (lam * L) <= fl (lam * fl (ln u))) by (apply fl_le; apply Rmult_le_compat_l; lra).
  eapply Rle_trans; [|exact H3]. apply fl_le. lra.
Qed.

Lemma normal_min_64 : normal_min 53 (-1074) = powerRZ 2 (-1022).
Proof. unfold normal_min. rewrite bpow_powerRZ. reflexivity. Qed.

Local Notation lnf := (fun v => rnd 53 (-1074) even_tie (ln v)).
Local Notation ust := (ustar 53 (-1074)).

(** [snap64_constant] at one tie rule of the rounding to the grid: what a claim with ties up states. *)
Definition snap64_constant_ties (t : tie) (rho0 beta0 a b : R) : Prop :=
  forall (choice : Z -> bool) (pr : (R -> Prop) -> R) (lam grid B : R),
  uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + a * eta 53 * (B / lam) + b * eta 53) *
    snap_output_prob 53 (-1074) choice (fun v => rnd 53 (-1074) choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).

Lemma snap64_constant_ties_of : forall t rho0 beta0 a b,
  snap64_constant rho0 beta0 a b -> snap64_constant_ties t rho0 beta0 a b.
Proof. intros t rho0 beta0 a b H choice pr. exact (H choice pr t). Qed.

(** A constant at one tie rule holds for a narrower range and larger constants (as [snap64_constant_weaken]). *)
Lemma snap64_constant_ties_weaken : forall t rho0 beta0 a b rho1 beta1 a1 b1,
  snap64_constant_ties t rho0 beta0 a b -> rho0 <= rho1 -> 0 <= beta0 <= beta1 -> a <= a1 -> b <= b1 ->
  snap64_constant_ties t rho1 beta1 a1 b1.
Proof.
  intros t rho0 beta0 a b rho1 beta1 a1 b1 H Hrho Hbeta Ha Hb choice pr lam grid B Hpr Hlam Fl Hgrid HB x x' out Hx Hx'.
  assert (Hlam0 : 0 < lam) by (assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra); lra).
  assert (Hgrid0 : rho0 * lam <= grid <= 2 * lam) by (split; [|lra]; apply Rle_trans with (rho1 * lam); [|lra];
    apply Rmult_le_compat_r; lra).
  assert (HB0 : beta0 * lam <= B <= 353 * lam) by (split; [|lra]; apply Rle_trans with (beta1 * lam); [|lra];
    apply Rmult_le_compat_r; lra).
  eapply Rle_trans; [exact (H choice pr lam grid B Hpr Hlam Fl Hgrid0 HB0 x x' out Hx Hx')|].
  apply Rmult_le_compat_r; [apply snap_output_prob_nonneg; exact Hpr|]. apply exp_le_iff.
  assert (HB1 : 0 <= B) by (assert (0 <= beta0 * lam) by (apply Rmult_le_pos; lra); lra).
  assert (Hbl : 0 <= B / lam) by (apply Rmult_le_pos; [exact HB1|left; apply Rinv_0_lt_compat; exact Hlam0]).
  assert (He0 : 0 < eta 53) by (rewrite eta_binary64; lra).
  assert (a * eta 53 * (B / lam) <= a1 * eta 53 * (B / lam)) by (apply Rmult_le_compat_r; [exact Hbl|];
    apply Rmult_le_compat_r; lra).
  assert (b * eta 53 <= b1 * eta 53) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

Section Witness.

Variables lam grid bound x x' u1 u2 u3 u4 a b : R.
Variable k : Z.
Hypothesis Flam : F64 lam.
Hypothesis Hlam : powerRZ 2 (-968) <= lam.
Hypothesis Hedge : 0 < (IZR k - / 2) * grid.
Hypothesis Hg0 : 0 < grid.
Hypothesis Hk : grid * IZR k < bound.
Hypothesis Hx : Rabs x <= bound.
Hypothesis Hx' : Rabs x' <= bound.
Hypothesis Hx'0 : x' <= 0.
Hypothesis W1 : (IZR k - / 2) * grid <= wsum lam x u1.
Hypothesis W2 : wsum lam x u2 < (IZR k + / 2) * grid.
Hypothesis W3 : wsum lam x' u3 < (IZR k - / 2) * grid.
Hypothesis W4 : (IZR k + / 2) * grid <= wsum lam x' u4.
Hypothesis U1 : u1 <= 1.
Hypothesis U2 : normal_min 53 (-1074) <= u2.
Hypothesis U4 : normal_min 53 (-1074) <= u4 <= u3.
Hypothesis Key : exp (Rabs (x - x') / lam + a * eta 53 * (bound / lam) + b * eta 53) *
  (/ 2 * (u3 / (1 - 2 * eta 53) - u4)) < / 2 * (u1 - u2 / (1 - 2 * eta 53)).

Let lam_pos : 0 < lam.
Proof. assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). lra. Qed.

Let nm_pos : 0 < normal_min 53 (-1074).
Proof. rewrite normal_min_64. apply powerRZ_lt. lra. Qed.

Let out := grid * IZR k.

Lemma out_iff : forall w, float_snap TiesUp grid bound w = out <-> (IZR k - / 2) * grid <= w < (IZR k + / 2) * grid.
Proof.
  intros w. unfold out. assert (0 <= bound) by (assert (0 <= Rabs x) by apply Rabs_pos; lra).
  rewrite (float_snap_interior_iff TiesUp grid bound k w Hg0 ltac:(split; nra)).
  cbn [in_bucket]. reflexivity.
Qed.

Lemma sum_minus : forall y U, snap_sum 53 (-1074) even_tie lnf lam y (-1) U = wsum lam y (ust U).
Proof. intros y U. reflexivity. Qed.

(** From x: at least U*'s mass of [u2, u1], with the sign −1 alone. *)
Lemma close_lower : forall pr, uprob pr ->
  / 2 * (u1 - u2 / (1 - 2 * eta 53)) <=
  snap_output_prob 53 (-1074) even_tie lnf pr lam x (fun w => float_snap TiesUp grid bound w = out).
Proof.
  intros pr Hpr. unfold snap_output_prob.
  assert (H0 := uprob_nonneg pr (fun U => float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x 1 U)
                                          = out) Hpr).
  assert (Hlo : u1 - u2 / (1 - 2 * eta 53) <=
    pr (fun U => float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x (-1) U) = out)).
  { eapply Rle_trans.
    - exact (ustar_prob_lower 53 (-1074) ltac:(lia) pr Hpr u2 u1 U2 U1).
    - apply (uprob_mono pr Hpr). intros U HU [H1 H2]. rewrite sum_minus, out_iff. split.
      + eapply Rle_trans; [exact W1|]. apply wsum_anti; [exact lam_pos|exact Flam|lra|exact H2].
      + eapply Rle_lt_trans; [|exact W2]. apply wsum_anti; [exact lam_pos|exact Flam|lra|exact H1]. }
  lra.
Qed.

(** From x′ ≤ 0 the sign +1 never reaches kΛ > 0: its noise is ≤ 0. *)
Lemma far_plus_empty : forall U, 0 < U <= 1 ->
  ~ float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x' 1 U) = out.
Proof.
  intros U _ H. rewrite out_iff in H. destruct H as [H _]. revert H. apply Rlt_not_le.
  unfold snap_sum. change (rnd 53 (-1074) even_tie) with fl. rewrite (fl_generic lam Flam).
  destruct (ustar_in 53 (-1074) ltac:(lia) ltac:(lia) U) as [U0 U1'].
  assert (Hl : fl (ln (ust U)) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le.
    rewrite <- ln_1. apply ln_mono; lra. }
  assert (Hn : fl (lam * fl (ln (ust U))) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. assert (L := lam_pos).
    assert (0 <= lam * - fl (ln (ust U))) by (apply Rmult_le_pos; lra). lra. }
  assert (Hs : fl (x' + 1 * fl (lam * fl (ln (ust U)))) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. lra. }
  lra.
Qed.

(** From x′: at most U*'s mass of [u4, u3], with the sign −1 only. *)
Lemma far_upper : forall pr, uprob pr ->
  snap_output_prob 53 (-1074) even_tie lnf pr lam x' (fun w => float_snap TiesUp grid bound w = out) <=
  / 2 * (u3 / (1 - 2 * eta 53) - u4).
Proof.
  intros pr Hpr. unfold snap_output_prob.
  rewrite (uprob_len pr Hpr _ 0 (umeasure_empty _ far_plus_empty)).
  assert (Hup : pr (fun U => float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x' (-1) U) = out)
    <= u3 / (1 - 2 * eta 53) - u4).
  { eapply Rle_trans; [|exact (ustar_prob_upper 53 (-1074) ltac:(lia) pr Hpr u4 u3 U4)].
    apply (uprob_mono pr Hpr). intros U HU H. rewrite sum_minus, out_iff in H. destruct H as [H1 H2].
    assert (P0 := ustar_pos 53 (-1074) U). split.
    - destruct (Rle_lt_dec (ust U) u4) as [L|L]; [|lra]. exfalso.
      assert (M := wsum_anti lam x' (ust U) u4 lam_pos Flam P0 L). lra.
    - destruct (Rle_lt_dec u3 (ust U)) as [L|L]; [|lra]. exfalso.
      assert (M := wsum_anti lam x' u3 (ust U) lam_pos Flam ltac:(lra) L). lra. }
  lra.
Qed.

(** The witness refutes the constant (a, b) for every range that contains its parameters. *)
Theorem witness_refutes : forall rho0 beta0, rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= bound <= 353 * lam ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 Hgrid HB H.
  assert (C := H even_tie inner_len lam grid bound uprob_inner_len Hlam Flam Hgrid HB x x' out Hx Hx').
  assert (Lo := close_lower inner_len uprob_inner_len).
  assert (Up := far_upper inner_len uprob_inner_len).
  assert (E := exp_pos (Rabs (x - x') / lam + a * eta 53 * (bound / lam) + b * eta 53)).
  assert (Mul := Rmult_le_compat_l _ _ _ (Rlt_le _ _ E) Up). lra.
Qed.

End Witness.

(** ** The first witness: Λ = 1, the power of two at or above λ *)
Definition w1_lam : R := IZR 9007199253692415 * bpow radix2 (-53).
Definition w1_bound : R := 519 / 4.
Definition w1_x : R := -667600578954239577719425932922893223 / 5192296858534827628530496329220096.
Definition w1_x' : R := -10725785627697329202128951141300252345 / 83076749736557242056487941267521536.
Definition w1_u1 : R := IZR 6646824233663904 * bpow radix2 (-422).
Definition w1_u2 : R := IZR 4890459968720553 * bpow radix2 (-423).
Definition w1_u3 : R := IZR 7810997823204624 * bpow radix2 (-423).
Definition w1_u4 : R := IZR 5747011027715025 * bpow radix2 (-424).

Lemma w1_lam_format : F64 w1_lam.
Proof. destruct (float_neighbours 9007199253692415 (-53) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F. Qed.

Lemma w1_lam_value : w1_lam = 9007199253692415 / 9007199254740992.
Proof. unfold w1_lam. bpow_q. field. Qed.

Lemma w1_lam_pos : 0 < w1_lam.
Proof. rewrite w1_lam_value. lra. Qed.

Lemma w1_w1 : (IZR 128 - / 2) * 1 <= wsum w1_lam w1_x w1_u1.
Proof.
  apply Rle_trans with (IZR 8972014882652160 * bpow radix2 (-46)); [bpow_q; lra|].
  apply (wsum_ge_of _ _ _ (IZR (-4504922465108629) * bpow radix2 (-44)) (IZR (-4504922464584187) * bpow radix2 (-44)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_le_float; [lia|lia|]. unfold w1_u1. bpow_i. interval with (i_prec 120).
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold w1_x. bpow_q. lra.
Qed.

Lemma w1_w2 : wsum w1_lam w1_x w1_u2 < (IZR 128 + / 2) * 1.
Proof.
  apply Rle_lt_trans with (IZR 4521191813414910 * bpow radix2 (-45)); [|bpow_q; lra].
  apply (wsum_le_of _ _ _ (IZR (-4522514651155093) * bpow radix2 (-44)) (IZR (-4522514650628602) * bpow radix2 (-44)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_ge_float; [lia|lia|]. unfold w1_u2. bpow_i. interval with (i_prec 120).
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold w1_x. bpow_q. lra.
Qed.

Lemma w1_w3 : wsum w1_lam w1_x' w1_u3 < (IZR 128 - / 2) * 1.
Proof.
  apply Rle_lt_trans with (IZR 8972014882652159 * bpow radix2 (-46)); [|bpow_q; lra].
  apply (wsum_le_of _ _ _ (IZR (-4514277174150143) * bpow radix2 (-44)) (IZR (-4514277173624611) * bpow radix2 (-44)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_ge_float; [lia|lia|]. unfold w1_u3. bpow_i. interval with (i_prec 120).
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold w1_x'. bpow_q. lra.
Qed.

Lemma w1_w4 : (IZR 128 + / 2) * 1 <= wsum w1_lam w1_x' w1_u4.
Proof.
  apply Rle_trans with (IZR 4521191813414912 * bpow radix2 (-45)); [bpow_q; lra|].
  apply (wsum_ge_of _ _ _ (IZR (-4531869360196607) * bpow radix2 (-44)) (IZR (-4531869359669027) * bpow radix2 (-44)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_le_float; [lia|lia|]. unfold w1_u4. bpow_i. interval with (i_prec 120).
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold w1_x'. bpow_q. lra.
Qed.

Lemma w1_key : exp (Rabs (w1_x - w1_x') / w1_lam + 12 * eta 53 * (w1_bound / w1_lam) + 2 * eta 53) *
  (/ 2 * (w1_u3 / (1 - 2 * eta 53) - w1_u4)) < / 2 * (w1_u1 - w1_u2 / (1 - 2 * eta 53)).
Proof.
  rewrite Rabs_pos_eq by (unfold w1_x, w1_x'; lra).
  rewrite eta_binary64, w1_lam_value. unfold w1_x, w1_x', w1_bound, w1_u1, w1_u2, w1_u3, w1_u4. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's constant with real inputs is false for every ρ0 ≤ 1 and β0 ≤ 129. *)
Lemma seed_real_false_w1 : forall rho0 beta0, rho0 <= 1 -> beta0 <= 129 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb. assert (Hl := w1_lam_value).
  apply (witness_refutes w1_lam 1 w1_bound w1_x w1_x' w1_u1 w1_u2 w1_u3 w1_u4 12 2 128 w1_lam_format);
    [rewrite Hl; interval|lra|lra|unfold w1_bound; lra
    |unfold w1_x, w1_bound; rewrite Rabs_left by lra; lra|unfold w1_x', w1_bound; rewrite Rabs_left by lra; lra
    |unfold w1_x'; lra|exact w1_w1|exact w1_w2|exact w1_w3|exact w1_w4
    |unfold w1_u1; bpow_i; interval|rewrite normal_min_64; unfold w1_u2; bpow_i; interval
    |rewrite normal_min_64; unfold w1_u3, w1_u4; bpow_i; split; interval
    |exact w1_key|rewrite Hl; split; nra|rewrite Hl; unfold w1_bound; split; nra].
Qed.

Theorem snap_binary64_seed_constant_real_false : forall rho0 beta0, rho0 <= 1 -> beta0 <= 129 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (seed_real_false_w1 rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, and every constant a <= 12, b <= 2 over every range rho0 <= 1, 0 <= beta0 <= 129:
    what a claim of the all-parameters form is refuted by. *)
Theorem snap_binary64_seed_constant_real_false_up : forall rho0 beta0 a b, rho0 <= 1 -> 0 <= beta0 <= 129 -> a <= 12 -> b <= 2 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (seed_real_false_w1 rho0 129 Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 129 12 2 H ltac:(lra) Hb Ha Hb').
Qed.

(** ** The second witness: the same λ, Λ = 1.05λ *)
Definition w2_grid : R := 21 / 20 * w1_lam.
Definition w2_bound : R := 1031 / 4.
Definition w2_x : R := -2662003362040506043538708153400258853 / 10384593717069655257060992658440192.
Definition w2_x' : R := -10658317048078384677967526071559295433 / 41538374868278621028243970633760768.
Definition w2_u1 : R := IZR 5607158289847038 * bpow radix2 (-791).
Definition w2_u2 : R := IZR 7848625403434684 * bpow radix2 (-793).
Definition w2_u3 : R := IZR 8750764630161726 * bpow radix2 (-792).
Definition w2_u4 : R := IZR 6124445755360890 * bpow radix2 (-793).

Lemma w2_w1 : (IZR 244 - / 2) * w2_grid <= wsum w1_lam w2_x w2_u1.
Proof.
  apply Rle_trans with (IZR 8995764332764876 * bpow radix2 (-45)); [unfold w2_grid; rewrite w1_lam_value; bpow_q; lra|].
  apply (wsum_ge_of _ _ _ (IZR (-4503745637065550) * bpow radix2 (-43)) (IZR (-4503745636541245) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_le_float; [lia|lia|]. unfold w2_u1. bpow_i. interval with (i_prec 120).
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold w2_x. bpow_q. lra.
Qed.

Lemma w2_w2 : wsum w1_lam w2_x w2_u2 < (IZR 244 + / 2) * w2_grid.
Proof.
  apply Rle_lt_trans with (IZR 4516353961726924 * bpow radix2 (-44)); [|unfold w2_grid; rewrite w1_lam_value; bpow_q; lra].
  apply (wsum_le_of _ _ _ (IZR (-4512981534738869) * bpow radix2 (-43)) (IZR (-4512981534213488) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_ge_float; [lia|lia|]. unfold w2_u2. bpow_i. interval with (i_prec 120).
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold w2_x. bpow_q. lra.
Qed.

Lemma w2_w3 : wsum w1_lam w2_x' w2_u3 < (IZR 244 - / 2) * w2_grid.
Proof.
  apply Rle_lt_trans with (IZR 8995764332764875 * bpow radix2 (-45)); [|unfold w2_grid; rewrite w1_lam_value; bpow_q; lra].
  apply (wsum_le_of _ _ _ (IZR (-4505927509216926) * bpow radix2 (-43)) (IZR (-4505927508692366) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_ge_float; [lia|lia|]. unfold w2_u3. bpow_i. interval with (i_prec 120).
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold w2_x'. bpow_q. lra.
Qed.

Lemma w2_w4 : (IZR 244 + / 2) * w2_grid <= wsum w1_lam w2_x' w2_u4.
Proof.
  apply Rle_trans with (IZR 4516353961726926 * bpow radix2 (-44)); [unfold w2_grid; rewrite w1_lam_value; bpow_q; lra|].
  apply (wsum_ge_of _ _ _ (IZR (-4515163406890245) * bpow radix2 (-43)) (IZR (-4515163406364610) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format| | |].
  - apply fl_le_float; [lia|lia|]. unfold w2_u4. bpow_i. interval with (i_prec 120).
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold w2_x'. bpow_q. lra.
Qed.

Lemma w2_key : exp (Rabs (w2_x - w2_x') / w1_lam + 12 * eta 53 * (w2_bound / w1_lam) + 2 * eta 53) *
  (/ 2 * (w2_u3 / (1 - 2 * eta 53) - w2_u4)) < / 2 * (w2_u1 - w2_u2 / (1 - 2 * eta 53)).
Proof.
  rewrite Rabs_pos_eq by (unfold w2_x, w2_x'; lra).
  rewrite eta_binary64, w1_lam_value. unfold w2_x, w2_x', w2_bound, w2_u1, w2_u2, w2_u3, w2_u4. bpow_i.
  interval with (i_prec 200).
Qed.

(** The seed's constant with real inputs is false for every ρ0 ≤ 1.05 and β0 ≤ 257. *)
Lemma seed_real_false_w2 : forall rho0 beta0, rho0 <= 21 / 20 -> beta0 <= 257 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb. assert (Hl := w1_lam_value).
  apply (witness_refutes w1_lam w2_grid w2_bound w2_x w2_x' w2_u1 w2_u2 w2_u3 w2_u4 12 2 244 w1_lam_format);
    [rewrite Hl; interval|unfold w2_grid; rewrite Hl; lra|unfold w2_grid; rewrite Hl; lra
    |unfold w2_grid, w2_bound; rewrite Hl; lra
    |unfold w2_x, w2_bound; rewrite Rabs_left by lra; lra|unfold w2_x', w2_bound; rewrite Rabs_left by lra; lra
    |unfold w2_x'; lra|exact w2_w1|exact w2_w2|exact w2_w3|exact w2_w4
    |unfold w2_u1; bpow_i; interval|rewrite normal_min_64; unfold w2_u2; bpow_i; interval
    |rewrite normal_min_64; unfold w2_u3, w2_u4; bpow_i; split; interval
    |exact w2_key|unfold w2_grid; rewrite Hl; split; nra|rewrite Hl; unfold w2_bound; split; nra].
Qed.

Theorem snap_binary64_seed_constant_real_false_105 : forall rho0 beta0, rho0 <= 21 / 20 -> beta0 <= 257 ->
  ~ snap64_constant rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (seed_real_false_w2 rho0 beta0 Hr Hb). apply snap64_constant_ties_of. exact H.
Qed.

(** With ties up, and every constant a <= 12, b <= 2 over every range rho0 <= 1.05, 0 <= beta0 <= 257:
    what a claim of the all-parameters form is refuted by. *)
Theorem snap_binary64_seed_constant_real_false_105_up : forall rho0 beta0 a b, rho0 <= 21 / 20 -> 0 <= beta0 <= 257 -> a <= 12 -> b <= 2 ->
  ~ snap64_constant_ties TiesUp rho0 beta0 a b.
Proof.
  intros rho0 beta0 a b Hr Hb Ha Hb' H. apply (seed_real_false_w2 rho0 257 Hr ltac:(lra)).
  exact (snap64_constant_ties_weaken TiesUp rho0 beta0 a b rho0 257 12 2 H ltac:(lra) Hb Ha Hb').
Qed.
