(** * A log within two ulps refutes Mironov's and the seed's constants at Λ = 2λ, with binary64 inputs
    [snap64_constant_ulps k ρ0 β0 a b] (SnapSeedUlps.v) states the loss bound for every log within
    k ulps of ln on the floats of (0, 1).  For k = 1 Mironov's (16, 0) is proved at 1.99λ ≤ Λ ≤ 2λ,
    B ≥ 95λ ([snap_binary64_mironov_constant_1ulp]); for k = 2 it is false there.  [lnadv_k j s1 F]
    is DN(ln v) shifted j floats down below s1, and from s1 on the median of (DN(ln v) shifted j floats
    down, F, UP(ln v) shifted j floats up): monotone for every j and every real F ([lnadv_k_mono]), and
    within j + 1 ulps on the floats of (0, 1) for j + 1 ≤ 2^20 ([lnadv_k_rel_all]; [lnadv_k_rel]: j = 1).  (A switch from "j floats up"
    straight to "j floats down" would not be monotone for j ≥ 1; the median goes through F.)  Against
    one pair of inputs it takes each of the four thresholds the way that widens the closer input's
    bucket and narrows the farther one's (docs/snap_tight.md, §5).  [witness_refutes_ulps_from] is
    SnapUlpsRefuted.v's [witness_refutes_ulps] for a monotone log ≤ 0 within k0 ulps, refuting every
    k0 ≤ m ≤ 2^20.  The witness (bench/snap_ulps_witness.py): λ = 1 − 1048577·2^−53, Λ = 2λ,
    B = 1031/4, output 128Λ, the binary64 inputs x = −4521569176915002·2^−44 ≈ −257.021 and
    x′ = −4527050595619153·2^−44 ≈ −257.333: an excess of at least 5503η (exactly 5508η) against
    Mironov's 16·η·B/λ ≈ 4124η. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Interval Require Import Tactic.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Core Require Import RealFacts.
From Obligations.Float Require Import RelError UStarMeasure SnapOutput SnapInterior SnapPipeline SnapBinary64
  DiffprivlibRound SnapSeedUlps SnapSeedRealRefuted SnapUlpsRefuted.

Local Open Scope R_scope.

Local Instance ulps_k_refuted_prec_gt_0 : Prec_gt_0 53.
Proof. unfold Prec_gt_0. lia. Qed.

Local Notation dn := (round radix2 fmt64 Zfloor).
Local Notation upr := (round radix2 fmt64 Zceil).
Local Notation pr64 := (pred radix2 fmt64).
Local Notation sc64 := (succ radix2 fmt64).

Local Ltac pow_eval := repeat match goal with |- context [Z.pow_pos 2 ?p] =>
  let t := eval vm_compute in (Z.pow_pos 2 p) in change (Z.pow_pos 2 p) with t end.
Local Ltac bpow_q := rewrite ?bpow_neg_q; pow_eval.
Local Ltac bpow_i := rewrite ?bpow_powerRZ; change (IZR (radix_val radix2)) with 2.

(** ** The log: DN shifted j floats down, the median with F from s1 on *)
Definition shift_dn (j : nat) (y : R) : R := Nat.iter j pr64 (dn y).
Definition shift_up (j : nat) (y : R) : R := Nat.iter j sc64 (upr y).

Definition lnadv_k (j : nat) (s1 F v : R) : R :=
  if Rlt_dec v s1 then shift_dn j (ln v) else Rmax (shift_dn j (ln v)) (Rmin F (shift_up j (ln v))).

Lemma iter_S_unfold : forall (f : R -> R) j x, Nat.iter (S j) f x = f (Nat.iter j f x).
Proof. reflexivity. Qed.

Lemma iter_O_unfold : forall (f : R -> R) x, Nat.iter 0 f x = x.
Proof. reflexivity. Qed.

Lemma iter_pred_mono : forall j x y, F64 x -> F64 y -> x <= y ->
  F64 (Nat.iter j pr64 x) /\ F64 (Nat.iter j pr64 y) /\ Nat.iter j pr64 x <= Nat.iter j pr64 y.
Proof.
  induction j as [|j IH]; intros x y Fx Fy H; [cbn; auto|].
  destruct (IH x y Fx Fy H) as (A & B & C). rewrite ?iter_S_unfold.
  split; [exact (generic_format_pred radix2 fmt64 _ A)|]. split; [exact (generic_format_pred radix2 fmt64 _ B)|].
  exact (pred_le radix2 fmt64 _ _ A B C).
Qed.

Lemma iter_succ_mono : forall j x y, F64 x -> F64 y -> x <= y ->
  F64 (Nat.iter j sc64 x) /\ F64 (Nat.iter j sc64 y) /\ Nat.iter j sc64 x <= Nat.iter j sc64 y.
Proof.
  induction j as [|j IH]; intros x y Fx Fy H; [cbn; auto|].
  destruct (IH x y Fx Fy H) as (A & B & C). rewrite ?iter_S_unfold.
  split; [exact (generic_format_succ radix2 fmt64 _ A)|]. split; [exact (generic_format_succ radix2 fmt64 _ B)|].
  exact (succ_le radix2 fmt64 _ _ A B C).
Qed.

Lemma iter_pred_below : forall j x, Nat.iter j pr64 x <= x.
Proof.
  induction j as [|j IH]; intros x; rewrite ?iter_S_unfold, ?iter_O_unfold; [lra|].
  assert (P := pred_le_id radix2 fmt64 (Nat.iter j pr64 x)). specialize (IH x). lra.
Qed.

Lemma iter_succ_above : forall j x, x <= Nat.iter j sc64 x.
Proof.
  induction j as [|j IH]; intros x; rewrite ?iter_S_unfold, ?iter_O_unfold; [lra|].
  assert (P := succ_ge_id radix2 fmt64 (Nat.iter j sc64 x)). specialize (IH x). lra.
Qed.

Lemma shift_dn_mono : forall j y y', y <= y' -> shift_dn j y <= shift_dn j y'.
Proof.
  intros j y y' H. apply (iter_pred_mono j); [apply generic_format_round; auto with typeclass_instances..|].
  apply round_le; auto with typeclass_instances.
Qed.

Lemma shift_up_mono : forall j y y', y <= y' -> shift_up j y <= shift_up j y'.
Proof.
  intros j y y' H. apply (iter_succ_mono j); [apply generic_format_round; auto with typeclass_instances..|].
  apply round_le; auto with typeclass_instances.
Qed.

Lemma shift_dn_below : forall j y, shift_dn j y <= y.
Proof. intros j y. assert (D := dn_below y). assert (I := iter_pred_below j (dn y)). unfold shift_dn. lra. Qed.

Lemma shift_up_above : forall j y, y <= shift_up j y.
Proof. intros j y. assert (U := upr_above y). assert (I := iter_succ_above j (upr y)). unfold shift_up. lra. Qed.

(** Monotone for every j and every F: the median of three monotone functions, the lower below s1. *)
Lemma lnadv_k_mono : forall j s1 F v v', 0 < v <= v' -> lnadv_k j s1 F v <= lnadv_k j s1 F v'.
Proof.
  intros j s1 F v v' Hv. unfold lnadv_k.
  assert (Hl : ln v <= ln v') by (apply ln_mono; lra).
  assert (D := shift_dn_mono j _ _ Hl). assert (U := shift_up_mono j _ _ Hl).
  assert (M : Rmin F (shift_up j (ln v)) <= Rmin F (shift_up j (ln v'))).
  { unfold Rmin. destruct (Rle_dec F (shift_up j (ln v))); destruct (Rle_dec F (shift_up j (ln v'))); lra. }
  destruct (Rlt_dec v s1); destruct (Rlt_dec v' s1); try lra.
  - apply Rle_trans with (shift_dn j (ln v')); [exact D|apply Rmax_l].
  - apply Rmax_lub; [eapply Rle_trans; [exact D|apply Rmax_l]|eapply Rle_trans; [exact M|apply Rmax_r]].
Qed.

Lemma lnadv_k_nonpos : forall j s1 F v, F <= 0 -> 0 < v <= 1 -> lnadv_k j s1 F v <= 0.
Proof.
  intros j s1 F v HF Hv. assert (Hl : ln v <= 0) by (rewrite <- ln_1; apply ln_mono; lra).
  assert (D := shift_dn_below j (ln v)). unfold lnadv_k. destruct (Rlt_dec v s1); [lra|].
  apply Rmax_lub; [lra|]. eapply Rle_trans; [apply Rmin_l|exact HF].
Qed.

(** ** One step of pred or succ from a normal negative float costs at most a factor 1 + 2η *)
Lemma ulp_normal : forall z, bpow radix2 (-1022) <= Rabs z -> ulp radix2 fmt64 z <= Rabs z * (2 * / 9007199254740992).
Proof.
  intros z Hz. assert (U := ulp_FLT_le radix2 (-1074) 53 z Hz).
  change (bpow radix2 (1 - 53)) with (bpow radix2 (-52)) in U. rewrite bpow_neg_q in U. pow_eval. lra.
Qed.

Lemma pred_neg_ge : forall z, z < 0 -> bpow radix2 (-1022) <= Rabs z -> z * (1 + 2 * / 9007199254740992) <= pr64 z.
Proof.
  intros z Hz Hn. replace z with (- - z) at 2 by ring. rewrite pred_opp.
  assert (S := succ_le_plus_ulp radix2 fmt64 (- z)). rewrite ulp_opp in S.
  assert (U := ulp_normal z Hn). rewrite Rabs_left in U by lra. lra.
Qed.

Lemma succ_neg_le : forall z, z < 0 -> bpow radix2 (-1022) <= Rabs z -> sc64 z <= z * (1 - 2 * / 9007199254740992).
Proof.
  intros z Hz Hn. assert (S := succ_le_plus_ulp radix2 fmt64 z).
  assert (U := ulp_normal z Hn). rewrite Rabs_left in U by lra. lra.
Qed.


(** ** Within j + 1 ulps for every j: each step costs a factor 1 + 2η (down) or 1 − 2η (up) *)
Lemma step_pow_lower : forall n, 1 - INR n * (2 * / 9007199254740992) <= (1 - 2 * / 9007199254740992) ^ n.
Proof.
  induction n as [|n IH]; [rewrite pow_O; cbn [INR]; lra|].
  rewrite S_INR, <- tech_pow_Rmult. assert (Hn0 : 0 <= INR n) by apply pos_INR.
  assert (H : (1 - 2 * / 9007199254740992) * (1 - INR n * (2 * / 9007199254740992)) <=
              (1 - 2 * / 9007199254740992) * (1 - 2 * / 9007199254740992) ^ n)
    by (apply Rmult_le_compat_l; lra).
  assert (0 <= INR n * (2 * / 9007199254740992) * (2 * / 9007199254740992)) by (apply Rmult_le_pos; lra).
  lra.
Qed.

Lemma step_pow_upper : forall n, (1 + 2 * / 9007199254740992) ^ n * (1 - (INR n + 1) * (2 * / 9007199254740992))
  <= 1 - 2 * / 9007199254740992.
Proof.
  induction n as [|n IH]; [rewrite pow_O; cbn [INR]; lra|].
  rewrite S_INR, <- tech_pow_Rmult. assert (0 <= INR n) by apply pos_INR.
  assert (P : 1 <= (1 + 2 * / 9007199254740992) ^ n) by (apply pow_R1_Rle; lra).
  assert (0 <= (1 + 2 * / 9007199254740992) ^ n * ((INR n + 2) * (2 * / 9007199254740992 * (2 * / 9007199254740992))))
    by (apply Rmult_le_pos; [lra|apply Rmult_le_pos; lra]).
  lra.
Qed.

Lemma iter_pred_neg : forall j z, z < 0 -> bpow radix2 (-1022) <= Rabs z ->
  z * (1 + 2 * / 9007199254740992) ^ j <= Nat.iter j pr64 z.
Proof.
  induction j as [|j IH]; intros z Hz Hn; [rewrite pow_O, iter_O_unfold; lra|].
  rewrite iter_S_unfold, <- tech_pow_Rmult. specialize (IH z Hz Hn).
  assert (W := iter_pred_below j z). set (w := Nat.iter j pr64 z) in *.
  rewrite Rabs_left in Hn by lra.
  assert (P := pred_neg_ge w ltac:(lra) ltac:(rewrite Rabs_left by lra; lra)).
  assert (M := Rmult_le_compat_r (1 + 2 * / 9007199254740992) _ _ ltac:(lra) IH). lra.
Qed.

Lemma iter_succ_neg : forall j z, z < 0 -> bpow radix2 (-1021) <= Rabs z -> INR j <= 2 ^ 20 ->
  Nat.iter j sc64 z <= z * (1 - 2 * / 9007199254740992) ^ j.
Proof.
  induction j as [|j IH]; intros z Hz Hn Hj; [rewrite pow_O, iter_O_unfold; lra|].
  rewrite S_INR in Hj. assert (0 <= INR j) by apply pos_INR. assert (H20 : (2 : R) ^ 20 = 1048576) by ring.
  rewrite iter_S_unfold, <- tech_pow_Rmult. specialize (IH z Hz Hn ltac:(lra)).
  set (w := Nat.iter j sc64 z) in *. rewrite Rabs_left in Hn by lra.
  assert (B := step_pow_lower j). assert (Hb : bpow radix2 (-1021) = 2 * bpow radix2 (-1022)).
  { change (-1021)%Z with (1 + -1022)%Z. rewrite bpow_plus. reflexivity. }
  assert (Hh : / 2 <= (1 - 2 * / 9007199254740992) ^ j) by lra.
  assert (Hq : - z * / 2 <= - z * (1 - 2 * / 9007199254740992) ^ j) by (apply Rmult_le_compat_l; lra).
  assert (S := succ_neg_le w ltac:(lra) ltac:(rewrite Rabs_left by lra; lra)).
  assert (M := Rmult_le_compat_r (1 - 2 * / 9007199254740992) _ _ ltac:(lra) IH). lra.
Qed.

(** [lnadv_k j] is within j + 1 ulps on every float of (0, 1), for j + 1 <= 2^20. *)
Lemma lnadv_k_rel_all : forall j s1 F v, INR j + 1 <= 2 ^ 20 -> F64 v -> 0 < v < 1 ->
  rel_within (2 * (INR j + 1) * eta 53 / (1 - 2 * (INR j + 1) * eta 53)) (ln v) (lnadv_k j s1 F v).
Proof.
  intros j s1 F v Hj Fv Hv. assert (H20 : (2 : R) ^ 20 = 1048576) by ring. assert (0 <= INR j) by apply pos_INR.
  assert (Hb := float_below_one v Fv (proj2 Hv)).
  assert (Hl : ln v <= ln (1 - / 9007199254740992)) by (apply ln_mono; lra).
  assert (Hn : ln (1 - / 9007199254740992) <= - / 1000000000000000000000) by interval with (i_prec 120).
  assert (Hm : bpow radix2 (-1021) <= / 2000000000000000000000).
  { bpow_i. interval_intro (powerRZ 2 (-1021)) upper. lra. }
  assert (Hm' : bpow radix2 (-1022) <= bpow radix2 (-1021)) by (apply bpow_le; lia).
  set (y := ln v) in *.
  assert (Hy : bpow radix2 (-1022) <= Rabs y) by (rewrite Rabs_left by lra; lra).
  destruct (directed_rel Zfloor valid_rnd_DN y Hy) as (d1 & Hd1 & E1).
  destruct (directed_rel Zceil valid_rnd_UP y Hy) as (d2 & Hd2 & E2).
  rewrite eta_binary64 in Hd1, Hd2 |- *.
  replace (/ (1 + 2 * 1 * / 9007199254740992 / (1 - 2 * 1 * / 9007199254740992)))
    with (4503599627370495 / 4503599627370496) in Hd1, Hd2 by field.
  replace (1 + 2 * 1 * / 9007199254740992 / (1 - 2 * 1 * / 9007199254740992))
    with (4503599627370496 / 4503599627370495) in Hd1, Hd2 by field.
  assert (Dl : y * (4503599627370496 / 4503599627370495) <= dn y) by (rewrite E1; nra).
  assert (Du : dn y <= y) by apply dn_below.
  assert (Uu : upr y <= y * (4503599627370495 / 4503599627370496)) by (rewrite E2; nra).
  set (k := INR j + 1) in *. assert (Kd : k = INR j + 1) by reflexivity.
  set (P := (1 + 2 * / 9007199254740992) ^ j).
  set (Q := (1 - 2 * / 9007199254740992) ^ j).
  assert (P1 : 1 <= P) by (apply pow_R1_Rle; lra).
  assert (QB := step_pow_lower j). assert (PB := step_pow_upper j). fold P Q k in QB, PB.
  assert (Q0 : 0 <= Q) by lra.
  (* the two shifted roundings against y *)
  assert (A : y * (4503599627370496 / 4503599627370495) * P <= shift_dn j y).
  { unfold shift_dn. assert (I := iter_pred_neg j (dn y) ltac:(lra) ltac:(rewrite Rabs_left by lra; lra)).
    fold P in I. assert (M := Rmult_le_compat_r P _ _ ltac:(lra) Dl). lra. }
  assert (B : shift_up j y <= y * (4503599627370495 / 4503599627370496) * Q).
  { unfold shift_up.
    assert (I := iter_succ_neg j (upr y) ltac:(lra) ltac:(rewrite Rabs_left by lra; lra) ltac:(lra)).
    fold Q in I. assert (M := Rmult_le_compat_r Q _ _ Q0 Uu). lra. }
  assert (Z : shift_dn j y <= lnadv_k j s1 F v <= shift_up j y).
  { assert (D1 := shift_dn_below j y). assert (U1 := shift_up_above j y). unfold lnadv_k. fold y.
    destruct (Rlt_dec v s1); [lra|]. split; [apply Rmax_l|]. apply Rmax_lub; [lra|apply Rmin_r]. }
  set (z := lnadv_k j s1 F v) in *.
  assert (K0 : 0 < 1 - 2 * k * / 9007199254740992) by lra.
  exists (z / y). split; [|field; lra].
  replace (/ (1 + 2 * k * / 9007199254740992 / (1 - 2 * k * / 9007199254740992)))
    with (1 - 2 * k * / 9007199254740992) by (field; lra).
  replace (1 + 2 * k * / 9007199254740992 / (1 - 2 * k * / 9007199254740992))
    with (/ (1 - 2 * k * / 9007199254740992)) by (field; lra).
  assert (Ny : 0 < - y) by lra.
  split.
  - (* z <= y (1 − e2)^(j+1) <= y (1 − k e2) *)
    apply Rmult_le_reg_r with (- y); [exact Ny|]. replace (z / y * - y) with (- z) by (field; lra).
    assert (T : (1 - 2 * k * / 9007199254740992) <= (4503599627370495 / 4503599627370496) * Q).
    { unfold k. replace (4503599627370495 / 4503599627370496) with (1 - 2 * / 9007199254740992) by field.
      assert (M := Rmult_le_compat_l (1 - 2 * / 9007199254740992) _ _ ltac:(lra) QB).
      assert (0 <= INR j * (2 * / 9007199254740992) * (2 * / 9007199254740992)) by (apply Rmult_le_pos; lra).
      lra. }
    assert (M := Rmult_le_compat_l (- y) _ _ (Rlt_le _ _ Ny) T). lra.
  - (* y (1/(1 − e2)) P <= z, and P (1 − k e2) <= 1 − e2 *)
    apply Rmult_le_reg_r with (1 - 2 * k * / 9007199254740992); [exact K0|].
    rewrite Rinv_l by lra.
    apply Rmult_le_reg_r with (- y); [exact Ny|]. rewrite Rmult_1_l.
    replace (z / y * (1 - 2 * k * / 9007199254740992) * - y) with (- z * (1 - 2 * k * / 9007199254740992))
      by (field; lra).
    assert (T : (4503599627370496 / 4503599627370495) * P * (1 - 2 * k * / 9007199254740992) <= 1).
    { replace (2 * k * / 9007199254740992) with (k * (2 * / 9007199254740992)) by ring.
      assert (E : P * (1 - k * (2 * / 9007199254740992)) <= 1 - 2 * / 9007199254740992) by exact PB.
      assert (M := Rmult_le_compat_l (4503599627370496 / 4503599627370495) _ _ ltac:(lra) E). lra. }
    assert (Hz : - z <= - y * (4503599627370496 / 4503599627370495) * P) by lra.
    assert (M := Rmult_le_compat_r (1 - 2 * k * / 9007199254740992) _ _ ltac:(lra) Hz).
    assert (M' := Rmult_le_compat_l (- y) _ _ (Rlt_le _ _ Ny) T). lra.
Qed.

(** Two ulps, j = 1: the witness's log. *)
Lemma lnadv_k_rel : forall s1 F v, F64 v -> 0 < v < 1 ->
  rel_within (2 * 2 * eta 53 / (1 - 2 * 2 * eta 53)) (ln v) (lnadv_k 1 s1 F v).
Proof.
  intros s1 F v Fv Hv. assert (E : INR 1 + 1 = 2) by (change (INR 1) with 1; ring).
  assert (R := lnadv_k_rel_all 1 s1 F v ltac:(rewrite E; assert (H20 : (2 : R) ^ 20 = 1048576) by ring; lra) Fv Hv).
  rewrite E in R. exact R.
Qed.

(** Within k0 ulps is within k ulps, 1 <= k0 <= k <= 2^20. *)
Lemma rel_within_ulps_le : forall k0 k y z, 1 <= k0 <= k -> k <= 2 ^ 20 ->
  rel_within (2 * k0 * eta 53 / (1 - 2 * k0 * eta 53)) y z -> rel_within (2 * k * eta 53 / (1 - 2 * k * eta 53)) y z.
Proof.
  intros k0 k y z Hk0 Hk (d & Hd & E). exists d. split; [|exact E]. rewrite eta_binary64 in *.
  assert (H20 : (2 : R) ^ 20 = 1048576) by ring.
  assert (Hm : 2 * k0 * / 9007199254740992 / (1 - 2 * k0 * / 9007199254740992) <=
               2 * k * / 9007199254740992 / (1 - 2 * k * / 9007199254740992)).
  { unfold Rdiv. apply Rmult_le_compat; try lra.
    - assert (0 < / (1 - 2 * k0 * / 9007199254740992)) by (apply Rinv_0_lt_compat; lra). lra.
    - apply Rinv_le_contravar; lra. }
  assert (P : 0 < 1 + 2 * k0 * / 9007199254740992 / (1 - 2 * k0 * / 9007199254740992)).
  { unfold Rdiv. assert (0 < / (1 - 2 * k0 * / 9007199254740992)) by (apply Rinv_0_lt_compat; lra).
    assert (0 <= 2 * k0 * / 9007199254740992) by lra. nra. }
  split; [|lra]. eapply Rle_trans; [|apply Hd]. apply Rinv_le_contravar; lra.
Qed.

(** ** The argument of [witness_refutes_ulps] for any monotone log <= 0 within k0 ulps *)
Local Notation ust := (ustar 53 (-1074)).

Section WitnessK.

Variable lnf : R -> R.
Variables k0 lam grid bound x x' u1 u2 u3 u4 a b : R.
Variable k : Z.
Hypothesis Hmono : forall v v', 0 < v <= v' -> lnf v <= lnf v'.
Hypothesis Hneg : forall v, 0 < v <= 1 -> lnf v <= 0.
Hypothesis Hrel : forall v, F64 v -> 0 < v < 1 -> rel_within (2 * k0 * eta 53 / (1 - 2 * k0 * eta 53)) (ln v) (lnf v).
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

(** The witness refutes every k0 <= m <= 2^20 ulps and every constant (a', b') <= (a, b), ties up. *)
Theorem witness_refutes_ulps_from : forall m rho0 beta0 a' b', 1 <= k0 <= m -> m <= 2 ^ 20 -> a' <= a -> b' <= b ->
  rho0 * lam <= grid <= 2 * lam -> beta0 * lam <= bound <= 353 * lam ->
  ~ snap64_constant_ulps_ties TiesUp m rho0 beta0 a' b'.
Proof.
  intros m rho0 beta0 a' b' Hm Hm' Ha Hb Hgrid HB H.
  assert (Hrelk : forall v, F64 v -> 0 < v < 1 -> rel_within (2 * m * eta 53 / (1 - 2 * m * eta 53)) (ln v) (lnf v))
    by (intros v Fv Hv; apply (rel_within_ulps_le k0); [exact Hm|exact Hm'|apply Hrel; assumption]).
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

End WitnessK.

(** ** The log's value against a float two steps from ln v *)
Lemma shift_dn_le_float : forall m e y, (4503599627370496 < Z.abs m < 9007199254740992)%Z ->
  (4503599627370496 < Z.abs (m + 1) < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  y < IZR (m + 1) * bpow radix2 e + bpow radix2 e -> shift_dn 1 y <= IZR m * bpow radix2 e.
Proof.
  intros m e y Hm Hm1 He H. destruct (float_neighbours (m + 1) e Hm1 He) as (F & _ & P).
  assert (D := dn_le_float (m + 1) e y Hm1 He H). unfold shift_dn. rewrite iter_S_unfold, iter_O_unfold.
  assert (L := pred_le radix2 fmt64 _ _ (generic_format_round radix2 fmt64 Zfloor y) F D).
  rewrite P, plus_IZR in L. lra.
Qed.

Lemma shift_up_ge_float : forall m e y, (4503599627370496 < Z.abs m < 9007199254740992)%Z ->
  (4503599627370496 < Z.abs (m - 1) < 9007199254740992)%Z -> (-1074 <= e)%Z ->
  IZR (m - 1) * bpow radix2 e - bpow radix2 e < y -> IZR m * bpow radix2 e <= shift_up 1 y.
Proof.
  intros m e y Hm Hm1 He H. destruct (float_neighbours (m - 1) e Hm1 He) as (F & S & _).
  assert (U := up_ge_float (m - 1) e y Hm1 He H). unfold shift_up. rewrite iter_S_unfold, iter_O_unfold.
  assert (L := succ_le radix2 fmt64 _ _ F (generic_format_round radix2 fmt64 Zceil y) U).
  rewrite S, minus_IZR in L. lra.
Qed.

(** ** The witness: λ = 1 − 1048577·2^−53, Λ = 2λ, B = 1031/4, output 128Λ, binary64 inputs *)
Definition k2_grid : R := 2 * w1_lam.
Definition k2_x : R := IZR (-4521569176915002) * bpow radix2 (-44).
Definition k2_x' : R := IZR (-4527050595619153) * bpow radix2 (-44).
Definition k2_u1 : R := IZR 5580022265323744 * bpow radix2 (-791).
Definition k2_u2 : R := IZR 6041391149951493 * bpow radix2 (-794).
Definition k2_u3 : R := IZR 8172357049041251 * bpow radix2 (-792).
Definition k2_u4 : R := IZR 8848066047544825 * bpow radix2 (-795).
(** The median's float F, between the logs' thresholds at u3 and at u1; the switch s1 = u2. *)
Definition k2_F : R := IZR (-4505158664059928) * bpow radix2 (-43).
Definition k2_log : R -> R := lnadv_k 1 k2_u2 k2_F.

Lemma k2_inputs_format : F64 k2_x /\ F64 k2_x'.
Proof.
  split; [destruct (float_neighbours (-4521569176915002) (-44) ltac:(lia) ltac:(lia)) as (F & _ & _)
         |destruct (float_neighbours (-4527050595619153) (-44) ltac:(lia) ltac:(lia)) as (F & _ & _)]; exact F.
Qed.

Lemma k2_F_format : F64 k2_F.
Proof. destruct (float_neighbours (-4505158664059928) (-43) ltac:(lia) ltac:(lia)) as (F & _ & _). exact F. Qed.

Lemma k2_order : k2_u4 < k2_u2 /\ k2_u2 <= k2_u3 /\ k2_u3 <= k2_u1.
Proof. unfold k2_u1, k2_u2, k2_u3, k2_u4. bpow_i. repeat split; interval with (i_prec 80). Qed.

Lemma k2_mono : forall v v', 0 < v <= v' -> k2_log v <= k2_log v'.
Proof. apply lnadv_k_mono. Qed.

Lemma k2_log_u1 : k2_log k2_u1 <= IZR (-4503788309383731) * bpow radix2 (-43).
Proof.
  destruct k2_order as (A & B & C). unfold k2_log, lnadv_k.
  destruct (Rlt_dec k2_u1 k2_u2); [lra|]. apply Rmax_lub.
  - apply shift_dn_le_float; [lia|lia|lia|]. unfold k2_u1. bpow_i. interval with (i_prec 120).
  - eapply Rle_trans; [apply Rmin_l|]. unfold k2_F. bpow_q. lra.
Qed.

Lemma k2_log_u2 : IZR (-4521380495428146) * bpow radix2 (-43) <= k2_log k2_u2.
Proof.
  unfold k2_log, lnadv_k. destruct (Rlt_dec k2_u2 k2_u2); [lra|].
  eapply Rle_trans; [|apply Rmax_r]. apply Rmin_glb.
  - unfold k2_F. bpow_q. lra.
  - apply shift_up_ge_float; [lia|lia|lia|]. unfold k2_u2. bpow_i. interval with (i_prec 120).
Qed.

Lemma k2_log_u3 : IZR (-4506529018736126) * bpow radix2 (-43) <= k2_log k2_u3.
Proof.
  destruct k2_order as (A & B & C). unfold k2_log, lnadv_k. destruct (Rlt_dec k2_u3 k2_u2); [lra|].
  eapply Rle_trans; [|apply Rmax_r]. apply Rmin_glb.
  - unfold k2_F. bpow_q. lra.
  - apply shift_up_ge_float; [lia|lia|lia|]. unfold k2_u3. bpow_i. interval with (i_prec 120).
Qed.

Lemma k2_log_u4 : k2_log k2_u4 <= IZR (-4524121204780543) * bpow radix2 (-43).
Proof.
  destruct k2_order as (A & B & C). unfold k2_log, lnadv_k. destruct (Rlt_dec k2_u4 k2_u2); [|lra].
  apply shift_dn_le_float; [lia|lia|lia|]. unfold k2_u4. bpow_i. interval with (i_prec 120).
Qed.

Lemma k2_w1 : (IZR 128 - / 2) * k2_grid <= wsumf k2_log w1_lam k2_x k2_u1.
Proof.
  apply Rle_trans with (IZR 8972014881607680 * bpow radix2 (-45)); [unfold k2_grid; rewrite w1_lam_value; bpow_q; lra|].
  apply (wsumf_ge_of _ _ _ _ (IZR (-4503788309383731) * bpow radix2 (-43)) (IZR (-4503788308859421) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact k2_log_u1| |].
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold k2_x. bpow_q. lra.
Qed.

Lemma k2_w2 : wsumf k2_log w1_lam k2_x k2_u2 < (IZR 128 + / 2) * k2_grid.
Proof.
  apply Rle_lt_trans with (IZR 4521191812888575 * bpow radix2 (-44)); [|unfold k2_grid; rewrite w1_lam_value; bpow_q; lra].
  apply (wsumf_le_of _ _ _ _ (IZR (-4521380495428146) * bpow radix2 (-43)) (IZR (-4521380494901788) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact k2_log_u2| |].
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold k2_x. bpow_q. lra.
Qed.

Lemma k2_w3 : wsumf k2_log w1_lam k2_x' k2_u3 < (IZR 128 - / 2) * k2_grid.
Proof.
  apply Rle_lt_trans with (IZR 8972014881607679 * bpow radix2 (-45)); [|unfold k2_grid; rewrite w1_lam_value; bpow_q; lra].
  apply (wsumf_le_of _ _ _ _ (IZR (-4506529018736126) * bpow radix2 (-43)) (IZR (-4506529018211496) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact k2_log_u3| |].
  - apply fl_ge_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_le_float; [lia|lia|]. unfold k2_x'. bpow_q. lra.
Qed.

Lemma k2_w4 : (IZR 128 + / 2) * k2_grid <= wsumf k2_log w1_lam k2_x' k2_u4.
Proof.
  apply Rle_trans with (IZR 4521191812888576 * bpow radix2 (-44)); [unfold k2_grid; rewrite w1_lam_value; bpow_q; lra|].
  apply (wsumf_ge_of _ _ _ _ (IZR (-4524121204780543) * bpow radix2 (-43)) (IZR (-4524121204253865) * bpow radix2 (-43)));
    [exact w1_lam_pos|exact w1_lam_format|exact k2_log_u4| |].
  - apply fl_le_float; [lia|lia|]. rewrite w1_lam_value. bpow_q. lra.
  - apply fl_ge_float; [lia|lia|]. unfold k2_x'. bpow_q. lra.
Qed.

Lemma k2_key16 : exp (Rabs (k2_x - k2_x') / w1_lam + 16 * eta 53 * (w2_bound / w1_lam) + 0 * eta 53) *
  (/ 2 * (k2_u3 / (1 - 2 * eta 53) - k2_u4)) < / 2 * (k2_u1 - k2_u2 / (1 - 2 * eta 53)).
Proof.
  rewrite Rabs_pos_eq by (unfold k2_x, k2_x'; bpow_q; lra).
  rewrite eta_binary64, w1_lam_value. unfold k2_x, k2_x', w2_bound, k2_u1, k2_u2, k2_u3, k2_u4. bpow_i.
  interval with (i_prec 200).
Qed.

Lemma k2_key12 : exp (Rabs (k2_x - k2_x') / w1_lam + 12 * eta 53 * (w2_bound / w1_lam) + 2 * eta 53) *
  (/ 2 * (k2_u3 / (1 - 2 * eta 53) - k2_u4)) < / 2 * (k2_u1 - k2_u2 / (1 - 2 * eta 53)).
Proof.
  rewrite Rabs_pos_eq by (unfold k2_x, k2_x'; bpow_q; lra).
  rewrite eta_binary64, w1_lam_value. unfold k2_x, k2_x', w2_bound, k2_u1, k2_u2, k2_u3, k2_u4. bpow_i.
  interval with (i_prec 200).
Qed.

(** Mironov's (16, 0), and every a <= 16 with b = 0, is false for a log within k >= 2 ulps at ties up, for every
    ρ0 ≤ 2 (every grid up to 2λ) and β0 ≤ 257; the witness's inputs are binary64 floats. *)
Theorem snap_binary64_mironov_constant_2ulp_false_up : forall k rho0 beta0 a, 2 <= k <= 2 ^ 20 -> rho0 <= 2 ->
  0 <= beta0 <= 257 -> a <= 16 -> ~ snap64_constant_ulps_ties TiesUp k rho0 beta0 a 0.
Proof.
  intros k rho0 beta0 a Hk Hr Hb Ha. assert (Hl := w1_lam_value).
  destruct k2_order as (O1 & O2 & O3).
  apply (witness_refutes_ulps_from k2_log 2 w1_lam k2_grid w2_bound k2_x k2_x' k2_u1 k2_u2 k2_u3 k2_u4 16 0 128);
    [exact k2_mono|intros v Hv; apply lnadv_k_nonpos; [unfold k2_F; bpow_q; lra|exact Hv]
    |intros v Fv Hv; apply lnadv_k_rel; assumption
    |exact w1_lam_format|rewrite Hl; interval|unfold k2_grid; rewrite Hl; lra|unfold k2_grid; rewrite Hl; lra
    |unfold k2_grid, w2_bound; rewrite Hl; lra
    |unfold k2_x, w2_bound; bpow_q; rewrite Rabs_left by lra; lra|unfold k2_x', w2_bound; bpow_q; rewrite Rabs_left by lra; lra
    |unfold k2_x'; bpow_q; lra|exact k2_w1|exact k2_w2|exact k2_w3|exact k2_w4
    |unfold k2_u1; bpow_i; interval|rewrite normal_min_64; unfold k2_u2; bpow_i; interval
    |rewrite normal_min_64; split; [unfold k2_u4; bpow_i; interval|lra]
    |exact k2_key16|lra|lra|lra|lra|unfold k2_grid; rewrite Hl; split; nra|rewrite Hl; unfold w2_bound; split; nra].
Qed.

(** The seed's (12, 2), and every a <= 12, b <= 2, likewise. *)
Theorem snap_binary64_seed_constant_2ulp_false_up : forall k rho0 beta0 a b, 2 <= k <= 2 ^ 20 -> rho0 <= 2 ->
  0 <= beta0 <= 257 -> a <= 12 -> b <= 2 -> ~ snap64_constant_ulps_ties TiesUp k rho0 beta0 a b.
Proof.
  intros k rho0 beta0 a b Hk Hr Hb Ha Hb'. assert (Hl := w1_lam_value).
  destruct k2_order as (O1 & O2 & O3).
  apply (witness_refutes_ulps_from k2_log 2 w1_lam k2_grid w2_bound k2_x k2_x' k2_u1 k2_u2 k2_u3 k2_u4 12 2 128);
    [exact k2_mono|intros v Hv; apply lnadv_k_nonpos; [unfold k2_F; bpow_q; lra|exact Hv]
    |intros v Fv Hv; apply lnadv_k_rel; assumption
    |exact w1_lam_format|rewrite Hl; interval|unfold k2_grid; rewrite Hl; lra|unfold k2_grid; rewrite Hl; lra
    |unfold k2_grid, w2_bound; rewrite Hl; lra
    |unfold k2_x, w2_bound; bpow_q; rewrite Rabs_left by lra; lra|unfold k2_x', w2_bound; bpow_q; rewrite Rabs_left by lra; lra
    |unfold k2_x'; bpow_q; lra|exact k2_w1|exact k2_w2|exact k2_w3|exact k2_w4
    |unfold k2_u1; bpow_i; interval|rewrite normal_min_64; unfold k2_u2; bpow_i; interval
    |rewrite normal_min_64; split; [unfold k2_u4; bpow_i; interval|lra]
    |exact k2_key12|lra|lra|lra|lra|unfold k2_grid; rewrite Hl; split; nra|rewrite Hl; unfold w2_bound; split; nra].
Qed.

(** In the form of SnapSeedUlps.v: Mironov's (16, 0) and the seed's (12, 2), two ulps, every grid up to 2λ. *)
Theorem snap_binary64_mironov_constant_2ulp_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 257 ->
  ~ snap64_constant_ulps 2 rho0 beta0 16 0.
Proof.
  intros rho0 beta0 Hr Hb H. apply (snap_binary64_mironov_constant_2ulp_false_up 2 rho0 257 16); try lra.
  apply (snap64_constant_ulps_ties_of TiesUp) in H. intros choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid HB.
  apply (H choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid). split; [|lra].
  assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). nra.
Qed.

Theorem snap_binary64_seed_constant_2ulp_false : forall rho0 beta0, rho0 <= 2 -> beta0 <= 257 ->
  ~ snap64_constant_ulps 2 rho0 beta0 12 2.
Proof.
  intros rho0 beta0 Hr Hb H. apply (snap_binary64_seed_constant_2ulp_false_up 2 rho0 257 12 2); try lra.
  apply (snap64_constant_ulps_ties_of TiesUp) in H. intros choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid HB.
  apply (H choice lnf pr lam grid B Hpr Hrel Hlam Fl Hgrid). split; [|lra].
  assert (0 < powerRZ 2 (-968)) by (apply powerRZ_lt; lra). nra.
Qed.
