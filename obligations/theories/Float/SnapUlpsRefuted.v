(** * A log within one ulp refutes the seed's and Mironov's constants, with binary64 inputs
    [snap64_constant_ulps 1 ρ0 β0 a b] (SnapSeedUlps.v) states the loss bound for every log within
    1 ulp of ln on the floats of (0, 1).  [lnadv s1 (exp F)] is one such log: ln u rounded down below
    s1 and from e^F on, up in between; within 1 ulp everywhere ([lnadv_rel]) and monotone when F is
    a float ([lnadv_mono]).  Against one pair of inputs it rounds each of the four thresholds the
    way that widens the closer input's bucket and narrows the farther one's (docs/snap_tight.md, §5).
    [witness_refutes_ulps] is the argument of SnapSeedRealRefuted.v's [witness_refutes] for any
    monotone log ≤ 0 within 1 ulp.  The witness (bench/snap_faithful_witness.py): λ = 1 − 1048577·2^−53,
    Λ = 1.05λ, B = 1031/4, output 244Λ, the *binary64* inputs x = −4517374001546552·2^−44 ≈ −256.79
    and x′ = −4524865066047753·2^−44 ≈ −257.21: an excess of at least 4718η (exactly 4725η) against
    Mironov's 16·η·B/λ ≈ 4124η and the seed's 12·η·B/λ + 2η ≈ 3095η. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core Relative.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Core Require Import RealFacts.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapBinary64
  DiffprivlibRound SnapSeedUlps SnapSeedRealRefuted.

Local Open Scope R_scope.

Local Instance ulps_refuted_prec_gt_0 : Prec_gt_0 53.
Proof. unfold Prec_gt_0. lia. Qed.

Local Notation dn := (round radix2 fmt64 Zfloor).
Local Notation upr := (round radix2 fmt64 Zceil).

Local Ltac pow_eval := repeat match goal with |- context [Z.pow_pos 2 ?p] =>
  let t := eval vm_compute in (Z.pow_pos 2 p) in change (Z.pow_pos 2 p) with t end.
Local Ltac bpow_q := rewrite ?bpow_neg_q; pow_eval.
Local Ltac bpow_i := rewrite ?bpow_powerRZ; change (IZR (radix_val radix2)) with 2.

(** ** The log: ln rounded down, up on [s1, s2), down again from s2 *)
Definition lnadv (s1 s2 v : R) : R :=
  if Rlt_dec v s1 then dn (ln v) else if Rlt_dec v s2 then upr (ln v) else dn (ln v).

Lemma dn_below : forall y, dn y <= y.
Proof. intros y. exact (proj1 (proj2 (round_DN_pt radix2 fmt64 y))). Qed.

Lemma upr_above : forall y, y <= upr y.
Proof. intros y. exact (proj1 (proj2 (round_UP_pt radix2 fmt64 y))). Qed.

Lemma lnadv_mono : forall s1 F, F64 F -> s1 <= exp F -> forall v v', 0 < v <= v' ->
  lnadv s1 (exp F) v <= lnadv s1 (exp F) v'.
Proof.
  intros s1 F FF Hs v v' Hv. unfold lnadv.
  assert (Hl : ln v <= ln v') by (apply ln_mono; lra).
  assert (Dn := round_le radix2 fmt64 Zfloor (ln v) (ln v') Hl).
  assert (Up := round_le radix2 fmt64 Zceil (ln v) (ln v') Hl).
  destruct (Rlt_dec v s1) as [A|A]; destruct (Rlt_dec v' s1) as [B|B]; try lra.
  - destruct (Rlt_dec v' (exp F)); [|lra].
    assert (H1 := dn_below (ln v)). assert (H2 := upr_above (ln v')). lra.
  - destruct (Rlt_dec v (exp F)) as [C|C]; destruct (Rlt_dec v' (exp F)) as [D|D]; try lra.
    assert (E1 : ln v <= F) by (rewrite <- (ln_exp F); apply ln_mono; lra).
    assert (E2 : F <= ln v') by (rewrite <- (ln_exp F); apply ln_mono; [apply exp_pos|lra]).
    assert (U := round_le radix2 fmt64 Zceil _ _ E1). assert (W := round_le radix2 fmt64 Zfloor _ _ E2).
    rewrite (round_generic radix2 fmt64 Zceil F FF) in U. rewrite (round_generic radix2 fmt64 Zfloor F FF) in W.
    lra.
Qed.

Lemma lnadv_nonpos : forall s1 s2 v, 0 < v <= 1 -> lnadv s1 s2 v <= 0.
Proof.
  intros s1 s2 v Hv. assert (Hl : ln v <= 0) by (rewrite <- ln_1; apply ln_mono; lra).
  assert (U := round_le radix2 fmt64 Zceil _ _ Hl). rewrite (round_0 radix2 fmt64 Zceil) in U.
  assert (D := dn_below (ln v)). unfold lnadv.
  destruct (Rlt_dec v s1) as [A|A]; [lra|]. destruct (Rlt_dec v s2) as [C|C]; lra.
Qed.

(** A directed rounding of a normal y is within 1 ulp: a factor in [1 − 2η, 1/(1 − 2η)]. *)
Lemma directed_rel : forall rnd, Valid_rnd rnd -> forall y, bpow radix2 (-1022) <= Rabs y ->
  rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) y (round radix2 fmt64 rnd y).
Proof.
  intros r Vr y Hy.
  destruct (relative_error_FLT_ex radix2 (-1074) 53 ltac:(lia) r y Hy) as (e & He & Hr).
  exists (1 + e). rewrite eta_binary64. apply Rabs_lt_inv in He.
  assert (Hb : bpow radix2 (- (53) + 1) = / 4503599627370496)
    by (change (- (53) + 1)%Z with (-52)%Z; rewrite bpow_neg_q; pow_eval; reflexivity).
  rewrite Hb in He.
  split; [|exact Hr].
  replace (/ (1 + 2 * 1 * / 9007199254740992 / (1 - 2 * 1 * / 9007199254740992)))
    with (4503599627370495 / 4503599627370496) by field.
  replace (1 + 2 * 1 * / 9007199254740992 / (1 - 2 * 1 * / 9007199254740992))
    with (4503599627370496 / 4503599627370495) by field.
  lra.
Qed.

Lemma float_below_one : forall v, F64 v -> v < 1 -> v <= 1 - / 9007199254740992.
Proof.
  intros v Fv Hv.
  assert (F1 : F64 1) by (change 1 with (bpow radix2 0); apply generic_format_bpow; cbn; lia).
  assert (P := pred_ge_gt radix2 fmt64 v 1 Fv F1 Hv).
  change 1 with (bpow radix2 0) in P. rewrite pred_bpow in P.
  change (bpow radix2 (fmt64 0)) with (bpow radix2 (-53)) in P. rewrite bpow_neg_q in P. pow_eval.
  change (bpow radix2 0) with 1 in P. exact P.
Qed.

Lemma lnadv_rel : forall s1 s2 v, F64 v -> 0 < v < 1 ->
  rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) (ln v) (lnadv s1 s2 v).
Proof.
  intros s1 s2 v Fv Hv.
  assert (Hb := float_below_one v Fv (proj2 Hv)).
  assert (Hl : ln v <= ln (1 - / 9007199254740992)) by (apply ln_mono; lra).
  assert (Hn : ln (1 - / 9007199254740992) <= - / 1000000000000000000000) by interval with (i_prec 120).
  assert (Hy : bpow radix2 (-1022) <= Rabs (ln v)).
  { rewrite Rabs_left by lra. bpow_i. interval_intro (powerRZ 2 (-1022)) upper. lra. }
  unfold lnadv. destruct (Rlt_dec v s1); [|destruct (Rlt_dec v s2)]; apply directed_rel; auto with typeclass_instances.
Qed.

(** [snap64_constant_ulps] at one tie rule of the rounding to the grid: what a claim with ties up states. *)
Definition snap64_constant_ulps_ties (t : tie) (k rho0 beta0 a b : R) : Prop :=
  forall (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R) (lam grid B : R),
  uprob pr ->
  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 ->
     rel_within (2 * k * eta 53 / (1 - 2 * k * eta 53)) (ln v) (lnf v)) ->
  powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->
  rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= B <= 353 * lam ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob 53 (-1074) choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam + a * eta 53 * (B / lam) + b * eta 53) *
    snap_output_prob 53 (-1074) choice lnf pr lam x' (fun w => float_snap t grid B w = out).

Lemma snap64_constant_ulps_ties_of : forall t k rho0 beta0 a b,
  snap64_constant_ulps k rho0 beta0 a b -> snap64_constant_ulps_ties t k rho0 beta0 a b.
Proof. intros t k rho0 beta0 a b H choice lnf pr. exact (H choice lnf pr t). Qed.

(** Within 1 ulp is within k ulps, 1 <= k <= 2^20: the factor's range only widens. *)
Lemma rel_within_ulps : forall k y z, 1 <= k <= 2 ^ 20 ->
  rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) y z -> rel_within (2 * k * eta 53 / (1 - 2 * k * eta 53)) y z.
Proof.
  intros k y z Hk (d & Hd & E). exists d. split; [|exact E]. rewrite eta_binary64 in *.
  assert (Hm : 2 * 1 * / 9007199254740992 / (1 - 2 * 1 * / 9007199254740992) <=
               2 * k * / 9007199254740992 / (1 - 2 * k * / 9007199254740992)).
  { unfold Rdiv. assert (H20 : (2 : R) ^ 20 = 1048576) by ring.
    apply Rmult_le_compat; try lra. apply Rinv_le_contravar; lra. }
  assert (P : 0 < 1 + 2 * 1 * / 9007199254740992 / (1 - 2 * 1 * / 9007199254740992))
    by (unfold Rdiv; assert (0 < / (1 - 2 * 1 * / 9007199254740992)) by (apply Rinv_0_lt_compat; lra); nra).
  split; [|lra]. eapply Rle_trans; [|apply Hd]. apply Rinv_le_contravar; lra.
Qed.

(** ** The argument for any monotone log <= 0 within 1 ulp *)
Definition wsumf (lnf : R -> R) (lam x u : R) : R := fl (x + -1 * fl (fl lam * lnf u)).

Lemma wsumf_anti : forall lnf lam x u u', (forall v v', 0 < v <= v' -> lnf v <= lnf v') ->
  0 < lam -> F64 lam -> 0 < u -> u <= u' -> wsumf lnf lam x u' <= wsumf lnf lam x u.
Proof.
  intros lnf lam x u u' Hm Hlam Fl Hu Huu. unfold wsumf. rewrite (fl_generic lam Fl). apply fl_le.
  assert (Hl : lnf u <= lnf u') by (apply Hm; lra).
  assert (fl (lam * lnf u) <= fl (lam * lnf u')) by (apply fl_le; apply Rmult_le_compat_l; lra).
  lra.
Qed.

Lemma wsumf_ge_of : forall lnf lam x u L N t, 0 < lam -> F64 lam ->
  lnf u <= L -> fl (lam * L) <= N -> t <= fl (x + -1 * N) -> t <= wsumf lnf lam x u.
Proof.
  intros lnf lam x u L N t Hlam Fl H1 H2 H3. unfold wsumf. rewrite (fl_generic lam Fl).
  assert (fl (lam * lnf u) <= fl (lam * L)) by (apply fl_le; apply Rmult_le_compat_l; lra).
  eapply Rle_trans; [exact H3|]. apply fl_le. lra.
Qed.

Lemma wsumf_le_of : forall lnf lam x u L N t, 0 < lam -> F64 lam ->
  L <= lnf u -> N <= fl (lam * L) -> fl (x + -1 * N) <= t -> wsumf lnf lam x u <= t.
Proof.
  intros lnf lam x u L N t Hlam Fl H1 H2 H3. unfold wsumf. rewrite (fl_generic lam Fl).
  assert (fl (lam * L) <= fl (lam * lnf u)) by (apply fl_le; apply Rmult_le_compat_l; lra).
  eapply Rle_trans; [|exact H3]. apply fl_le. lra.
Qed.

Local Notation ust := (ustar 53 (-1074)).

Section Witness.

Variable lnf : R -> R.
Variables lam grid bound x x' u1 u2 u3 u4 a b : R.
Variable k : Z.
Hypothesis Hmono : forall v v', 0 < v <= v' -> lnf v <= lnf v'.
Hypothesis Hneg : forall v, 0 < v <= 1 -> lnf v <= 0.
Hypothesis Hrel : forall v, F64 v -> 0 < v < 1 -> rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) (ln v) (lnf v).
Hypothesis Flam : F64 lam.
Hypothesis Hlam : powerRZ 2 (-968) <= lam.
Hypothesis Hedge : 0 < (IZR k - / 2) * grid.
Hypothesis Hg0 : 0 < grid.
Hypothesis Hk : grid * IZR k < bound.
Hypothesis Hx : Rabs x <= bound.
Hypothesis Hx' : Rabs x' <= bound.
Hypothesis Hx'0 : x' <= 0.
Hypothesis W1 : (IZR k - / 2) * grid <= wsumf lnf lam x u1.
Hypothesis W2 : wsumf lnf lam x u2 < (IZR k + / 2) * grid.
Hypothesis W3 : wsumf lnf lam x' u3 < (IZR k - / 2) * grid.
Hypothesis W4 : (IZR k + / 2) * grid <= wsumf lnf lam x' u4.
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

Let out_iff : forall w, float_snap TiesUp grid bound w = out <-> (IZR k - / 2) * grid <= w < (IZR k + / 2) * grid.
Proof.
  intros w. unfold out. assert (0 <= bound) by (assert (0 <= Rabs x) by apply Rabs_pos; lra).
  rewrite (float_snap_interior_iff TiesUp grid bound k w Hg0 ltac:(split; nra)).
  cbn [in_bucket]. reflexivity.
Qed.

Let sum_minus : forall y U, snap_sum 53 (-1074) even_tie lnf lam y (-1) U = wsumf lnf lam y (ust U).
Proof. intros y U. reflexivity. Qed.

Let close_lower : forall pr, uprob pr ->
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
      + eapply Rle_trans; [exact W1|]. apply wsumf_anti; [exact Hmono|exact lam_pos|exact Flam|lra|exact H2].
      + eapply Rle_lt_trans; [|exact W2]. apply wsumf_anti; [exact Hmono|exact lam_pos|exact Flam|lra|exact H1]. }
  lra.
Qed.

Let far_plus_empty : forall U, 0 < U <= 1 ->
  ~ float_snap TiesUp grid bound (snap_sum 53 (-1074) even_tie lnf lam x' 1 U) = out.
Proof.
  intros U _ H. rewrite out_iff in H. destruct H as [H _]. revert H. apply Rlt_not_le.
  unfold snap_sum. change (rnd 53 (-1074) even_tie) with fl. rewrite (fl_generic lam Flam).
  destruct (ustar_in 53 (-1074) ltac:(lia) ltac:(lia) U) as [U0 U1'].
  assert (Hl : lnf (ust U) <= 0) by (apply Hneg; lra).
  assert (Hn : fl (lam * lnf (ust U)) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. assert (L := lam_pos).
    assert (0 <= lam * - lnf (ust U)) by (apply Rmult_le_pos; lra). lra. }
  assert (Hs : fl (x' + 1 * fl (lam * lnf (ust U))) <= 0).
  { rewrite <- (fl_generic 0) by apply generic_format_0. apply fl_le. lra. }
  lra.
Qed.

Let far_upper : forall pr, uprob pr ->
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
      assert (M := wsumf_anti lnf lam x' (ust U) u4 Hmono lam_pos Flam P0 L). lra.
    - destruct (Rle_lt_dec u3 (ust U)) as [L|L]; [|lra]. exfalso.
      assert (M := wsumf_anti lnf lam x' u3 (ust U) Hmono lam_pos Flam ltac:(lra) L). lra. }
  lra.
Qed.

(** The witness refutes every m >= 1 ulps and every constant (a', b') <= (a, b), ties up. *)
Theorem witness_refutes_ulps : forall m rho0 beta0 a' b', 1 <= m <= 2 ^ 20 -> a' <= a -> b' <= b ->
  rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= bound <= 353 * lam ->
  ~ snap64_constant_ulps_ties TiesUp m rho0 beta0 a' b'.
Proof.
  intros m rho0 beta0 a' b' Hm Ha Hb Hgrid HB H.
  assert (Hrelk : forall v, F64 v -> 0 < v < 1 -> rel_within (2 * m * eta 53 / (1 - 2 * m * eta 53)) (ln v) (lnf v))
    by (intros v Fv Hv; apply rel_within_ulps; [exact Hm|apply Hrel; assumption]).
  assert (C := H even_tie lnf inner_len lam grid bound uprob_inner_len Hrelk Hlam Flam Hgrid HB x x' out Hx Hx').
  assert (Lo := close_lower inner_len uprob_inner_len).
  assert (Up := far_upper inner_len uprob_inner_len).
  assert (Hbl : 0 <= bound / lam) by (apply Rmult_le_pos; [assert (0 <= Rabs x) by apply Rabs_pos; lra
                                                          |left; apply Rinv_0_lt_compat; exact lam_pos]).
  assert (He : 0 < eta 53) by (rewrite eta_binary64; lra).
  assert (Ea : a' * eta 53 * (bound / lam) <= a * eta 53 * (bound / lam))
    by (apply Rmult_le_compat_r; [exact Hbl|apply Rmult_le_compat_r; lra]).
  assert (Eb : b' * eta 53 <= b * eta 53) by (apply Rmult_le_compat_r; lra).
  assert (Ex : exp (Rabs (x - x') / lam + a' * eta 53 * (bound / lam) + b' * eta 53) <=
               exp (Rabs (x - x') / lam + a * eta 53 * (bound / lam) + b * eta 53)) by (apply exp_le_iff; lra).
  assert (P0 : 0 <= snap_output_prob 53 (-1074) even_tie lnf inner_len lam x' (fun w => float_snap TiesUp grid bound w = out))
    by (apply snap_output_prob_nonneg; exact uprob_inner_len).
  assert (E := exp_pos (Rabs (x - x') / lam + a * eta 53 * (bound / lam) + b * eta 53)).
  assert (Mul := Rmult_le_compat_l _ _ _ (Rlt_le _ _ E) Up).
  assert (Mul' := Rmult_le_compat_r _ _ _ P0 Ex). lra.
Qed.

End Witness.

(** ** Directed roundings against a float's neighbours *)
Lemma dn_le_float : forall m e y, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  y < IZR m * bpow radix2 e + bpow radix2 e -> dn y <= IZR m * bpow radix2 e.
Proof.
  intros m e y Hm He H. destruct (float_neighbours m e Hm He) as (F & S & _).
  destruct (Rle_lt_dec (dn y) (IZR m * bpow radix2 e)) as [L|L]; [exact L|exfalso].
  assert (Fd : F64 (dn y)) by exact (generic_format_round radix2 fmt64 Zfloor y).
  assert (Su := succ_le_lt radix2 fmt64 _ _ F Fd L). assert (D := dn_below y). lra.
Qed.

Lemma up_ge_float : forall m e y, (4503599627370496 < Z.abs m < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  IZR m * bpow radix2 e - bpow radix2 e < y -> IZR m * bpow radix2 e <= upr y.
Proof.
  intros m e y Hm He H. destruct (float_neighbours m e Hm He) as (F & _ & P).
  destruct (Rle_lt_dec (IZR m * bpow radix2 e) (upr y)) as [L|L]; [exact L|exfalso].
  assert (Fu : F64 (upr y)) by exact (generic_format_round radix2 fmt64 Zceil y).
  assert (Pr := pred_ge_gt radix2 fmt64 _ _ Fu F L). assert (U := upr_above y). lra.
Qed.

(** ** The witness: λ = 1 − 1048577·2^−53, Λ = 1.05λ, B = 1031/4, output 244Λ, binary64 inputs *)
Definition v_x : R := IZR (-4517374001546552) * bpow radix2 (-44).
Definition v_x' : R := IZR (-4524865066047753) * bpow radix2 (-44).
Definition v_u1 : R := IZR 7212445372756347 * bpow radix2 (-792).
Definition v_u2 : R := IZR 5047813798657557 * bpow radix2 (-793).
Definition v_u3 : R := IZR 4711424672989340 * bpow radix2 (-792).
Definition v_u4 : R := IZR 6594821380691652 * bpow radix2 (-794).
(** The switch back to rounding down: e^F, F = −1025/2, between u3 and u1. *)
Definition v_F : R := IZR (-4508497673881600) * bpow radix2 (-43).
Definition v_log : R -> R := lnadv v_u2 (exp v_F).

Lemma v_F_format : F64 v_F.
Proof. destruct (float_neighbours (-4508497673881600) (-43) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F. Qed.

Lemma v_x_format : F64 v_x /\ F64 v_x'.
Proof.
  split; [destruct (float_neighbours (-4517374001546552) (-44) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-4524865066047753) (-44) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

Lemma v_switch : v_u3 < exp v_F <= v_u1 /\ v_u4 < v_u2 <= v_u3.
Proof. unfold v_u1, v_u2, v_u3, v_u4, v_F. bpow_i. repeat split; interval with (i_prec 80). Qed.

Lemma v_mono : forall v v', 0 < v <= v' -> v_log v <= v_log v'.
Proof. apply lnadv_mono; [exact v_F_format|]. destruct v_switch as [[A B] [C D]]. lra. Qed.

Lemma v_log_u1 : v_log v_u1 <= IZR (-4507628084489252) * bpow radix2 (-43).
Proof.
  destruct v_switch as [[A B] [C D]]. unfold v_log, lnadv.
  destruct (Rlt_dec v_u1 v_u2); [lra|]. destruct (Rlt_dec v_u1 (exp v_F)); [lra|].
  apply dn_le_float; [lia|lia|]. unfold v_u1. bpow_i. interval with (i_prec 120).
Qed.

Lemma v_log_u2 : IZR (-4516863982162571) * bpow radix2 (-43) <= v_log v_u2.
Proof.
  destruct v_switch as [[A B] [C D]]. unfold v_log, lnadv.
  destruct (Rlt_dec v_u2 v_u2); [lra|]. destruct (Rlt_dec v_u2 (exp v_F)); [|lra].
  apply up_ge_float; [lia|lia|]. unfold v_u2. bpow_i. interval with (i_prec 120).
Qed.

Lemma v_log_u3 : IZR (-4511373616740289) * bpow radix2 (-43) <= v_log v_u3.
Proof.
  destruct v_switch as [[A B] [C D]]. unfold v_log, lnadv.
  destruct (Rlt_dec v_u3 v_u2); [lra|]. destruct (Rlt_dec v_u3 (exp v_F)); [|lra].
  apply up_ge_float; [lia|lia|]. unfold v_u3. bpow_i. interval with (i_prec 120).
Qed.

Lemma v_log_u4 : v_log v_u4 <= IZR (-4520609514413608) * bpow radix2 (-43).
Proof.
  destruct v_switch as [[A B] [C D]]. unfold v_log, lnadv.
  destruct (Rlt_dec v_u4 v_u2); [|lra].
  apply dn_le_float; [lia|lia|]. unfold v_u4. bpow_i. interval with (i_prec 120).
Qed.

Lemma v_w1 : (IZR 244 - / 2) * w2_grid <= wsumf v_log w1_lam v_x v_u1.
Proof.
  apply Rle_trans with (IZR 8995764332764876 * bpow radix2 (-45)); [unfold w2_grid; rewrite w1_lam_value; bpow_q; lra|].
  apply (wsumf_ge_of _ _ _ _ (IZR (-4507628084489252) * bpow radix2 (-43)) (IZR (-4507628083964495) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact v_log_u1| |].
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold v_x. bpow_q. lra.
Qed.

Lemma v_w2 : wsumf v_log w1_lam v_x v_u2 < (IZR 244 + / 2) * w2_grid.
Proof.
  apply Rle_lt_trans with (IZR 4516353961726924 * bpow radix2 (-44)); [|unfold w2_grid; rewrite w1_lam_value; bpow_q; lra].
  apply (wsumf_le_of _ _ _ _ (IZR (-4516863982162571) * bpow radix2 (-43)) (IZR (-4516863981636738) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact v_log_u2| |].
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold v_x. bpow_q. lra.
Qed.

Lemma v_w3 : wsumf v_log w1_lam v_x' v_u3 < (IZR 244 - / 2) * w2_grid.
Proof.
  apply Rle_lt_trans with (IZR 8995764332764875 * bpow radix2 (-45)); [|unfold w2_grid; rewrite w1_lam_value; bpow_q; lra].
  apply (wsumf_le_of _ _ _ _ (IZR (-4511373616740289) * bpow radix2 (-43)) (IZR (-4511373616215095) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact v_log_u3| |].
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold v_x'. bpow_q. lra.
Qed.

Lemma v_w4 : (IZR 244 + / 2) * w2_grid <= wsumf v_log w1_lam v_x' v_u4.
Proof.
  apply Rle_trans with (IZR 4516353961726925 * bpow radix2 (-44)); [unfold w2_grid; rewrite w1_lam_value; bpow_q; lra|].
  apply (wsumf_ge_of _ _ _ _ (IZR (-4520609514413608) * bpow radix2 (-43)) (IZR (-4520609513887339) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact v_log_u4| |].
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold v_x'. bpow_q. lra.
Qed.

Lemma v_key16 : exp (Rabs (v_x - v_x') / w1_lam + 16 * eta 53 * (w2_bound / w1_lam) + 0 * eta 53) *
  (/ 2 * (v_u3 / (1 - 2 * eta 53) - v_u4)) < / 2 * (v_u1 - v_u2 / (1 - 2 * eta 53)).
Proof.
  rewrite Rabs_pos_eq by (unfold v_x, v_x'; bpow_q; lra).
  rewrite eta_binary64, w1_lam_value. unfold v_x, v_x', w2_bound, v_u1, v_u2, v_u3, v_u4. bpow_i.
  interval with (i_prec 200).
Qed.

Lemma v_key12 : exp (Rabs (v_x - v_x') / w1_lam + 12 * eta 53 * (w2_bound / w1_lam) + 2 * eta 53) *
  (/ 2 * (v_u3 / (1 - 2 * eta 53) - v_u4)) < / 2 * (v_u1 - v_u2 / (1 - 2 * eta 53)).
Proof.
  rewrite Rabs_pos_eq by (unfold v_x, v_x'; bpow_q; lra).
  rewrite eta_binary64, w1_lam_value. unfold v_x, v_x', w2_bound, v_u1, v_u2, v_u3, v_u4. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's (16, 0), and every a <= 16 with b = 0, is false for a log within k >= 1 ulps at ties up, for every
    ρ0 ≤ 1.05 and β0 ≤ 257; the witness's inputs are binary64 floats. *)
Theorem snap_binary64_mironov_constant_ulp_false_up : forall k rho0 beta0 a, 1 <= k <= 2 ^ 20 -> rho0 <= 21 / 20 ->
  0 <= beta0 <= 257 -> a <= 16 -> ~ snap64_constant_ulps_ties TiesUp k rho0 beta0 a 0.
Proof.
  intros k rho0 beta0 a Hk Hr Hb Ha. assert (Hl := w1_lam_value).
  apply (witness_refutes_ulps v_log w1_lam w2_grid w2_bound v_x v_x' v_u1 v_u2 v_u3 v_u4 16 0 244);
    [exact v_mono|intros v Hv; apply lnadv_nonpos; exact Hv|intros v Fv Hv; apply lnadv_rel; assumption
    |exact w1_lam_format|rewrite Hl; interval|unfold w2_grid; rewrite Hl; lra|unfold w2_grid; rewrite Hl; lra
    |unfold w2_grid, w2_bound; rewrite Hl; lra
    |unfold v_x, w2_bound; bpow_q; rewrite Rabs_left by lra; lra|unfold v_x', w2_bound; bpow_q; rewrite Rabs_left by lra; lra
    |unfold v_x'; bpow_q; lra|exact v_w1|exact v_w2|exact v_w3|exact v_w4
    |unfold v_u1; bpow_i; interval|rewrite normal_min_64; unfold v_u2; bpow_i; interval
    |destruct v_switch as [_ [C D]]; rewrite normal_min_64; split; [unfold v_u4; bpow_i; interval|lra]
    |exact v_key16|exact Hk|lra|lra|unfold w2_grid; rewrite Hl; split; nra|rewrite Hl; unfold w2_bound; split; nra].
Qed.

(** The seed's (12, 2), and every a <= 12, b <= 2, likewise. *)
Theorem snap_binary64_seed_constant_ulp_false_up : forall k rho0 beta0 a b, 1 <= k <= 2 ^ 20 -> rho0 <= 21 / 20 ->
  0 <= beta0 <= 257 -> a <= 12 -> b <= 2 -> ~ snap64_constant_ulps_ties TiesUp k rho0 beta0 a b.
Proof.
  intros k rho0 beta0 a b Hk Hr Hb Ha Hb'. assert (Hl := w1_lam_value).
  apply (witness_refutes_ulps v_log w1_lam w2_grid w2_bound v_x v_x' v_u1 v_u2 v_u3 v_u4 12 2 244);
    [exact v_mono|intros v Hv; apply lnadv_nonpos; exact Hv|intros v Fv Hv; apply lnadv_rel; assumption
    |exact w1_lam_format|rewrite Hl; interval|unfold w2_grid; rewrite Hl; lra|unfold w2_grid; rewrite Hl; lra
    |unfold w2_grid, w2_bound; rewrite Hl; lra
    |unfold v_x, w2_bound; bpow_q; rewrite Rabs_left by lra; lra|unfold v_x', w2_bound; bpow_q; rewrite Rabs_left by lra; lra
    |unfold v_x'; bpow_q; lra|exact v_w1|exact v_w2|exact v_w3|exact v_w4
    |unfold v_u1; bpow_i; interval|rewrite normal_min_64; unfold v_u2; bpow_i; interval
    |destruct v_switch as [_ [C D]]; rewrite normal_min_64; split; [unfold v_u4; bpow_i; interval|lra]
    |exact v_key12|exact Hk|lra|lra|unfold w2_grid; rewrite Hl; split; nra|rewrite Hl; unfold w2_bound; split; nra].
Qed.

(** In the form of SnapSeedUlps.v: Mironov's (16, 0) and the seed's (12, 2), one ulp. *)
Theorem snap_binary64_mironov_constant_ulp_false : forall rho0 beta0, rho0 <= 21 / 20 -> beta0 <= 257 ->
  ~ snap64_constant_ulps 1 rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (snap_binary64_mironov_constant_ulp_false_up 1 rho0 257 16); try lra.
  apply (snap64_constant_ulps_ties_of TiesUp) in H. intros choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid HB.
  apply (H choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid). split; [|lra].
  assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). nra.
Qed.

Theorem snap_binary64_seed_constant_ulp_false : forall rho0 beta0, rho0 <= 21 / 20 -> beta0 <= 257 ->
  ~ snap64_constant_ulps 1 rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (snap_binary64_seed_constant_ulp_false_up 1 rho0 257 12 2); try lra.
  apply (snap64_constant_ulps_ties_of TiesUp) in H. intros choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid HB.
  apply (H choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid). split; [|lra].
  assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). nra.
Qed.
