(** * Refutations: a witness shows that a mechanism is not (ε, δ)-DP *)
From Coq Require Import List QArith Qreals Reals Lra Bool Arith.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Finite Require Import Mechanism DP Checker.
Import ListNotations.

Lemma pr_q_correct (M : fmech) (x : nat) (S : event) : Q2R (pr_q M x S) = pr M x S.
Proof.
  unfold pr_q, pr. rewrite qsum_correct, map_map.
  apply f_equal, map_ext. intros y.
  destruct (S y); [reflexivity|apply q2r_0].
Qed.

Lemma not_dp_of_witness (nb : nat -> nat -> bool) (M : fmech) (eps : R) (U delta : Q)
    (x x' : nat) (S : event) :
  (exp eps <= Q2R U)%R -> check_witness nb U delta M x x' S = true ->
  ~ dp nb M eps (Q2R delta).
Proof.
  intros HU Hw Hdp.
  unfold check_witness in Hw. rewrite !andb_true_iff, negb_true_iff in Hw.
  destruct Hw as [[[[Hx Hx'] Hnb] Hnn] Hgt].
  apply Nat.ltb_lt in Hx, Hx'.
  rewrite forallb_forall in Hnn.
  specialize (Hdp x x' Hx Hx' Hnb S).
  rewrite <- !pr_q_correct in Hdp.
  assert (Hpos : (0 <= Q2R (pr_q M x' S))%R).
  { rewrite pr_q_correct. apply pr_nonneg. intros y Hy.
    unfold prob. rewrite <- q2r_0.
    apply Qle_Rle, Qle_bool_imp_le, Hnn, in_seq. split; [apply Nat.le_0_l|exact Hy]. }
  assert (Hle : (pr_q M x S <= U * pr_q M x' S + delta)%Q).
  { apply Rle_Qle. rewrite Q2R_plus, Q2R_mult.
    apply Rmult_le_compat_r with (r := Q2R (pr_q M x' S)) in HU; [|exact Hpos].
    lra. }
  apply Qle_bool_iff in Hle. congruence.
Qed.

(** The same, with δ written as any real equal to [Q2R dq]. *)
Lemma not_dp_of_witness_at (nb : nat -> nat -> bool) (M : fmech) (eps d : R) (U dq : Q)
    (x x' : nat) (S : event) :
  Q2R dq = d -> (exp eps <= Q2R U)%R -> check_witness nb U dq M x x' S = true ->
  ~ dp nb M eps d.
Proof. intros <-. apply not_dp_of_witness. Qed.
