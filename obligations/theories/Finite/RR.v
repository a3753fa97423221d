(** * k-ary randomized response, for every k and keep probability

    On input x ∈ {0..k−1}, output x with probability p and each other value
    with probability (1 − p)/(k − 1).  [krr_fmech p k] is that mechanism for symbolic
    [p : Q], [k : Z]; for k ≥ 2 and 1/k ≤ p < 1 it is (ln(p(k − 1)/(1 − p)), 0)-DP
    for all pairs of inputs ([krr_dp_le]), and every row is a distribution
    ([krr_distr]).  Proved once, by cases (x = y or not, for x and x'). *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Lia Field.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Family.
Import ListNotations.

Definition krr_pmf (p : Q) (k : Z) (x y : Z) : Q :=
  if Z.eqb x y then p else (1 - p) / inject_Z (k - 1).

Definition krr_fmech (p : Q) (k : Z) : fmech := fmech_z 0 (k - 1) 0 (k - 1) (krr_pmf p k).

Section RR.
Local Open Scope Q_scope.

Lemma krr_q_pos (p : Q) (k : Z) : (2 <= k)%Z -> p < 1 -> 0 < (1 - p) / inject_Z (k - 1).
Proof.
  intros Hk Hp. apply Qlt_shift_div_l.
  - unfold Qlt. cbn. lia.
  - rewrite Qmult_0_l. apply Qlt_minus_iff in Hp. exact Hp.
Qed.

Lemma krr_q_le_p (p : Q) (k : Z) : (2 <= k)%Z -> 1 / inject_Z k <= p -> (1 - p) / inject_Z (k - 1) <= p.
Proof.
  intros Hk Hp. assert (Hk1 : 0 < inject_Z (k - 1)) by (unfold Qlt; cbn; lia).
  assert (Hk0 : 0 < inject_Z k) by (unfold Qlt; cbn; lia).
  apply Qle_shift_div_r; [exact Hk1|].
  assert (H1 : 1 <= p * inject_Z k).
  { apply Qmult_le_compat_r with (z := inject_Z k) in Hp; [|apply Qlt_le_weak, Hk0].
    setoid_replace (1 / inject_Z k * inject_Z k) with 1 in Hp; [exact Hp|].
    field. intros E. rewrite E in Hk0. discriminate. }
  unfold Z.sub. rewrite inject_Z_plus, inject_Z_opp. change (inject_Z 1) with 1.
  apply (Qplus_le_l _ _ p). ring_simplify. exact H1.
Qed.

End RR.

(** ** (ε, 0)-DP for all pairs of inputs whenever p(k − 1)/(1 − p) ≤ e^ε *)
Theorem krr_dp_le (p : Q) (k : Z) (eps : R) :
  (2 <= k)%Z -> 1 / inject_Z k <= p < 1 ->
  (Q2R (p / ((1 - p) / inject_Z (k - 1))) <= exp eps)%R -> dp nb_all (krr_fmech p k) eps 0.
Proof.
  intros Hk [Hp1 Hp2] HL. apply (dp_of_pointwise _ _ _ (p / ((1 - p) / inject_Z (k - 1)))); [exact HL|].
  intros x x' y Hx Hx' _ Hy. unfold krr_fmech in *. cbn [n_in n_out fmech_z] in Hx, Hx', Hy.
  rewrite !fmech_z_entry by assumption.
  pose proof (krr_q_pos p k Hk Hp2) as Hq. pose proof (krr_q_le_p p k Hk Hp1) as Hqp.
  set (q := (1 - p) / inject_Z (k - 1)) in *.
  assert (HL1 : 1 <= p / q).
  { apply Qle_shift_div_l; [exact Hq|]. rewrite Qmult_1_l. exact Hqp. }
  assert (Hp0 : 0 <= p) by (apply Qle_trans with q; [apply Qlt_le_weak, Hq|exact Hqp]).
  assert (Hself : forall v, 0 <= v -> v <= p / q * v).
  { intros v Hv. rewrite <- (Qmult_1_l v) at 1. apply Qmult_le_compat_r; assumption. }
  unfold krr_pmf. destruct (Z.eqb (0 + Z.of_nat x)%Z (0 + Z.of_nat y)%Z); destruct (Z.eqb (0 + Z.of_nat x')%Z (0 + Z.of_nat y)%Z).
  - split; [exact Hp0|apply Hself, Hp0].
  - split; [apply Qlt_le_weak, Hq|].
    assert (E : p == p / q * q).
    { unfold Qdiv. rewrite <- Qmult_assoc, (Qmult_comm (/ q)), Qmult_inv_r, Qmult_1_r; [reflexivity|].
      intros E. rewrite E in Hq. discriminate. }
    apply Qle_lteq. right. exact E.
  - split; [exact Hp0|]. apply Qle_trans with p; [exact Hqp|apply Hself, Hp0].
  - split; [apply Qlt_le_weak, Hq|apply Hself, Qlt_le_weak, Hq].
Qed.

(** The bound of [krr_dp_le] as the ratio a claim states: p(k − 1)/(1 − p). *)
Lemma krr_bound_eq (p : Q) (k : Z) :
  (2 <= k)%Z -> 1 / inject_Z k <= p < 1 ->
  p / ((1 - p) / inject_Z (k - 1)) == p * inject_Z (k - 1) / (1 - p).
Proof.
  intros Hk [_ Hp]. field. split.
  - intros E. apply Qlt_minus_iff in Hp. rewrite E in Hp. discriminate.
  - intros E. assert (H : 0 < inject_Z (k - 1)) by (unfold Qlt; cbn; lia).
    rewrite E in H. discriminate.
Qed.

Lemma krr_bound_pos (p : Q) (k : Z) :
  (2 <= k)%Z -> 1 / inject_Z k <= p < 1 -> 0 < p * inject_Z (k - 1) / (1 - p).
Proof.
  intros Hk [Hp1 Hp2].
  pose proof (krr_q_pos p k Hk Hp2) as Hq. pose proof (krr_q_le_p p k Hk (Hp1)) as Hqp.
  rewrite <- (krr_bound_eq p k Hk (conj Hp1 Hp2)).
  apply Qlt_shift_div_l; [exact Hq|]. rewrite Qmult_0_l. apply Qlt_le_trans with (1 := Hq), Hqp.
Qed.

(** ** Every row is a distribution: p + (k − 1)·(1 − p)/(k − 1) = 1 *)
Section Distr.
Local Open Scope Q_scope.

Lemma qsumf_seq_succ (g : nat -> Q) (k : nat) : qsumf (seq 0 (S k)) g == qsumf (seq 0 k) g + g k.
Proof.
  rewrite seq_S, Nat.add_0_l. generalize (seq 0 k) as l. intros l. unfold qsumf.
  induction l as [|b l IH]; cbn [app fold_right].
  - ring.
  - rewrite IH. ring.
Qed.

(** Σ_{y < N} (p if y = X else q): p + (N − 1)·q when X < N, N·q otherwise (X ≥ 0). *)
Lemma krr_partial (p q : Q) (X : Z) (N : nat) : (0 <= X)%Z ->
  qsumf (seq 0 N) (fun y => if Z.eqb X (Z.of_nat y) then p else q) ==
  if (X <? Z.of_nat N)%Z then p + inject_Z (Z.of_nat N - 1) * q else inject_Z (Z.of_nat N) * q.
Proof.
  intros HX. induction N as [|N IH].
  - cbn. replace (X <? 0)%Z with false by (symmetry; apply Z.ltb_ge; lia). ring.
  - rewrite qsumf_seq_succ, IH. rewrite Nat2Z.inj_succ.
    destruct (Z.ltb_spec X (Z.of_nat N)) as [Hlt|Hge];
      destruct (Z.ltb_spec X (Z.succ (Z.of_nat N))) as [Hlt'|Hge'];
      destruct (Z.eqb_spec X (Z.of_nat N)) as [Heq|Hne]; try lia.
    + replace (Z.succ (Z.of_nat N) - 1)%Z with ((Z.of_nat N - 1) + 1)%Z by lia.
      rewrite inject_Z_plus. ring.
    + replace (Z.succ (Z.of_nat N) - 1)%Z with (Z.of_nat N) by lia. ring.
    + replace (Z.succ (Z.of_nat N)) with (Z.of_nat N + 1)%Z by lia. rewrite inject_Z_plus. ring.
Qed.

End Distr.

Theorem krr_distr (p : Q) (k : Z) : (2 <= k)%Z -> 1 / inject_Z k <= p < 1 -> distr (krr_fmech p k).
Proof.
  intros Hk [Hp1 Hp2] x Hx. unfold krr_fmech in *. cbn [n_in n_out fmech_z] in Hx |- *.
  pose proof (krr_q_le_p p k Hk Hp1) as Hqp. pose proof (krr_q_pos p k Hk Hp2) as Hq.
  split.
  - intros y Hy. unfold prob. rewrite fmech_z_entry by assumption.
    rewrite <- q2r_0. apply Qle_Rle. unfold krr_pmf. destruct (Z.eqb _ _).
    + apply Qle_trans with ((1 - p) / inject_Z (k - 1)); [apply Qlt_le_weak, Hq|exact Hqp].
    + apply Qlt_le_weak, Hq.
  - unfold pr, everything.
    rewrite (rsum_ext_in _ (fun y => Q2R (if Z.eqb (Z.of_nat x) (Z.of_nat y) then p
                                          else (1 - p) / inject_Z (k - 1)))).
    + rewrite rsum_q2r, <- q2r_1. apply Qeq_eqR.
      rewrite krr_partial by lia. cbn [n_out fmech_z]. unfold zcount in *.
      replace (Z.of_nat x <? Z.of_nat (Z.to_nat (k - 1 - 0 + 1)))%Z with true by (symmetry; apply Z.ltb_lt; lia).
      replace (Z.of_nat (Z.to_nat (k - 1 - 0 + 1)) - 1)%Z with (k - 1)%Z by lia.
      field. intros E. assert (H : 0 < inject_Z (k - 1)) by (unfold Qlt; cbn; lia).
      rewrite E in H. discriminate.
    + intros y Hy. apply in_seq in Hy. cbn [n_out fmech_z] in Hy. unfold prob.
      rewrite fmech_z_entry by lia. reflexivity.
Qed.
