(** * The two-sided geometric distribution over Z, untruncated

    [dlaplace t z] = (1 − a)/(1 + a) · a^|z| with a = e^(−t), t > 0: the discrete
    Laplace distribution of scale 1/t (Lap(b) in geometric form has t = 1/b).
    Proved here: positivity, every finite sum over distinct integers is at
    most 1 and the total mass is 1 (the least upper bound of the window sums
    over [−n, n], which are 1 − 2a^(n+1)/(1 + a)), and the shift bound
    [dlaplace t z <= e^(t·|d|) · dlaplace t (z + d)] on which every alignment rests. *)
From Coq Require Import List Reals ZArith Lia Lra.
From Obligations.Core Require Import Sums.
From Obligations.Coupling Require Import LubSum.
Import ListNotations.
Local Open Scope R_scope.

Definition dlaplace (t : R) (z : Z) : R :=
  (1 - exp (- t)) / (1 + exp (- t)) * exp (- t) ^ Z.abs_nat z.

Lemma exp_neg_lt_1 (t : R) : 0 < t -> exp (- t) < 1.
Proof. intros Ht. rewrite <- exp_0. apply exp_increasing. lra. Qed.

Lemma dlaplace_pos (t : R) (z : Z) : 0 < t -> 0 < dlaplace t z.
Proof.
  intros Ht. pose proof (exp_pos (- t)). pose proof (exp_neg_lt_1 t Ht). unfold dlaplace.
  apply Rmult_lt_0_compat; [apply Rdiv_lt_0_compat; lra|apply pow_lt; lra].
Qed.

Lemma dlaplace_nonneg (t : R) (z : Z) : 0 < t -> 0 <= dlaplace t z.
Proof. intros Ht. apply Rlt_le, dlaplace_pos, Ht. Qed.

(** ** Powers *)

Lemma exp_mult_INR (x : R) (n : nat) : exp (x * INR n) = exp x ^ n.
Proof.
  induction n as [|n IH]; cbn [pow]; [rewrite Rmult_0_r; apply exp_0|].
  rewrite S_INR, Rmult_plus_distr_l, Rmult_1_r, exp_plus, IH. ring.
Qed.

Lemma pow_anti (a : R) (m n : nat) : 0 <= a <= 1 -> (m <= n)%nat -> a ^ n <= a ^ m.
Proof.
  intros Ha Hmn. replace n with (m + (n - m))%nat by lia. rewrite pow_add.
  pose proof (pow_le a m (proj1 Ha)). pose proof (pow_le a (n - m) (proj1 Ha)).
  assert (a ^ (n - m) <= 1) by (rewrite <- (pow1 (n - m)); apply pow_incr; lra). nra.
Qed.

(** ** The shift bound *)

Lemma dlaplace_shift (t : R) (z d : Z) : 0 < t ->
  dlaplace t z <= exp (t * IZR (Z.abs d)) * dlaplace t (z + d).
Proof.
  intros Ht. pose proof (exp_pos (- t)). pose proof (exp_neg_lt_1 t Ht).
  assert (Hab : (Z.abs_nat (z + d) <= Z.abs_nat z + Z.abs_nat d)%nat) by lia.
  assert (Hd : exp (t * IZR (Z.abs d)) * exp (- t) ^ Z.abs_nat d = 1).
  { rewrite <- Nat2Z.inj_abs_nat, <- INR_IZR_INZ, exp_mult_INR, <- Rpow_mult_distr, <- exp_plus.
    replace (t + - t) with 0 by ring. rewrite exp_0. apply pow1. }
  pose proof (pow_anti (exp (- t)) _ _ (conj (Rlt_le _ _ H) (Rlt_le _ _ H0)) Hab) as Hp.
  rewrite pow_add in Hp. unfold dlaplace.
  assert (Hc : 0 <= (1 - exp (- t)) / (1 + exp (- t))) by (apply Rlt_le, Rdiv_lt_0_compat; lra).
  pose proof (exp_pos (t * IZR (Z.abs d))).
  pose proof (pow_le (exp (- t)) (Z.abs_nat z) (Rlt_le _ _ H)).
  assert (E : exp (- t) ^ Z.abs_nat z =
    exp (t * IZR (Z.abs d)) * (exp (- t) ^ Z.abs_nat z * exp (- t) ^ Z.abs_nat d)).
  { transitivity (exp (- t) ^ Z.abs_nat z * (exp (t * IZR (Z.abs d)) * exp (- t) ^ Z.abs_nat d));
      [rewrite Hd; ring|ring]. }
  rewrite E.
  set (c := (1 - exp (- t)) / (1 + exp (- t))). set (e := exp (t * IZR (Z.abs d))).
  replace (c * (e * (exp (- t) ^ Z.abs_nat z * exp (- t) ^ Z.abs_nat d))) with
    ((c * e) * (exp (- t) ^ Z.abs_nat z * exp (- t) ^ Z.abs_nat d)) by ring.
  replace (e * (c * exp (- t) ^ Z.abs_nat (z + d))) with ((c * e) * exp (- t) ^ Z.abs_nat (z + d)) by ring.
  apply Rmult_le_compat_l; [apply Rmult_le_pos; [exact Hc|apply Rlt_le, H1]|exact Hp].
Qed.

(** ** Windows and mass *)

(** The integers [−n .. n]. *)
Fixpoint win (n : nat) : list Z :=
  match n with
  | O => [0%Z]
  | S m => Z.of_nat n :: (- Z.of_nat n)%Z :: win m
  end.

Lemma in_win (n : nat) (z : Z) : In z (win n) <-> (Z.abs_nat z <= n)%nat.
Proof.
  induction n as [|n IH]; cbn [win In].
  - split; [intros [<-|[]]; reflexivity|intros H; left; lia].
  - rewrite IH. split; [intros [<-|[<-|H]]; lia|].
    intros H. destruct (Nat.eq_dec (Z.abs_nat z) (S n)) as [E|E]; [|right; right; lia].
    destruct (Z.abs_spec z) as [[Hz Ha]|[Hz Ha]]; [left; lia|right; left; lia].
Qed.

Lemma win_NoDup (n : nat) : NoDup (win n).
Proof.
  induction n as [|n IH]; cbn [win]; [repeat constructor; intros []|].
  constructor; [|constructor; [|exact IH]].
  - intros [H|H]; [lia|]. apply in_win in H. lia.
  - intros H. apply in_win in H. lia.
Qed.

Lemma dlaplace_win (t : R) (n : nat) : 0 < t ->
  rsum (map (dlaplace t) (win n)) = 1 - 2 * exp (- t) ^ S n / (1 + exp (- t)).
Proof.
  intros Ht. pose proof (exp_pos (- t)).
  induction n as [|n IH]; cbn [win].
  - rewrite rsum_map_cons, rsum_map_nil. unfold dlaplace. cbn [Z.abs_nat pow]. field. lra.
  - rewrite !rsum_map_cons, IH. unfold dlaplace.
    replace (Z.abs_nat (- Z.of_nat (S n))) with (S n) by lia.
    replace (Z.abs_nat (Z.of_nat (S n))) with (S n) by lia.
    cbn [pow]. field. lra.
Qed.

(** Every finite sum over distinct integers is at most 1. *)
Lemma dlaplace_sum_le (t : R) : 0 < t -> sum_le (dlaplace t) 1.
Proof.
  intros Ht l Hnd.
  set (n := fold_right (fun z m => Nat.max (Z.abs_nat z) m) O l).
  assert (Hn : forall z, In z l -> (Z.abs_nat z <= n)%nat).
  { unfold n. clear. induction l as [|a l IH]; cbn [In fold_right]; [tauto|].
    intros z [<-|H]; [lia|]. specialize (IH z H). lia. }
  eapply Rle_trans; [apply (rsum_map_sub _ _ (win n))|].
  - intros z. apply dlaplace_nonneg, Ht.
  - exact Hnd.
  - intros z Hz _. apply in_win, Hn, Hz.
  - rewrite dlaplace_win by exact Ht. pose proof (exp_pos (- t)).
    pose proof (pow_le (exp (- t)) (S n) (Rlt_le _ _ H)).
    assert (0 <= 2 * exp (- t) ^ S n / (1 + exp (- t))) by (apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]).
    lra.
Qed.

(** The total mass is 1. *)
Lemma dlaplace_mass (t : R) : 0 < t -> tsum1 (dlaplace t) = 1.
Proof.
  intros Ht. apply Rle_antisym; [apply tsum1_le_1|].
  apply Rnot_lt_le. intros Hlt.
  pose proof (exp_pos (- t)) as Ha. pose proof (exp_neg_lt_1 t Ht) as Ha1.
  destruct (pow_lt_1_zero (exp (- t)) ltac:(rewrite Rabs_right; lra) ((1 - tsum1 (dlaplace t)) / 2))
    as [N HN]; [lra|].
  specialize (HN (S N) ltac:(lia)). rewrite Rabs_right in HN by (apply Rle_ge, pow_le; lra).
  pose proof (tsum1_ge (dlaplace t) (win N) (win_NoDup N) ltac:(apply dlaplace_sum_le, win_NoDup; exact Ht)) as Hge.
  rewrite dlaplace_win in Hge by exact Ht.
  assert (2 * exp (- t) ^ S N / (1 + exp (- t)) <= 2 * exp (- t) ^ S N).
  { unfold Rdiv. rewrite <- (Rmult_1_r (2 * _)) at 2. apply Rmult_le_compat_l.
    - pose proof (pow_le (exp (- t)) (S N)). nra.
    - rewrite <- Rinv_1. apply Rinv_le_contravar; lra. }
  lra.
Qed.
