(** * k-ary randomized response calibrated with e^ε, for every ε ≥ 0 and k ≥ 2

    On input x ∈ {0..k−1}, output x with probability e^ε/(e^ε + k − 1) and each
    other value with probability 1/(e^ε + k − 1): how DP libraries ship k-ary
    randomized response.  [krr_exp eps k] is that table of reals for symbolic
    [eps] and [k]; it is (ε, 0)-DP for all pairs of inputs ([krr_exp_rdp]) and
    every row is a distribution ([krr_exp_rdistr]).  Proved once, by cases
    (x = y or not, for x and x'), never on a table. *)
From Coq Require Import List Arith ZArith QArith Reals Lra Lia Field.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours RealTable.
Import ListNotations.

Section KrrExp.
Local Open Scope R_scope.

Definition krr_exp_pmf (eps : R) (k : nat) (x y : nat) : R :=
  if Nat.eqb x y then exp eps / (exp eps + INR k - 1) else 1 / (exp eps + INR k - 1).

Definition krr_exp (eps : R) (k : nat) : rmech :=
  RMech k k (map (fun x => map (krr_exp_pmf eps k x) (seq 0 k)) (seq 0 k)).

Lemma krr_exp_entry (eps : R) (k x y : nat) :
  (x < k)%nat -> (y < k)%nat -> rentry (krr_exp eps k) x y = krr_exp_pmf eps k x y.
Proof.
  intros Hx Hy. unfold rentry, krr_exp. cbn [rrows].
  rewrite (nth_map_seq (fun x => map (krr_exp_pmf eps k x) (seq 0 k))) by exact Hx.
  apply nth_map_seq, Hy.
Qed.

Lemma krr_exp_denominator (eps : R) (k : nat) : (1 <= k)%nat -> 0 < exp eps + INR k - 1.
Proof.
  intros Hk. apply le_INR in Hk. change (INR 1) with 1 in Hk. pose proof (exp_pos eps). lra.
Qed.

(** ** (ε, 0)-DP for all pairs of inputs *)
Theorem krr_exp_rdp (eps : R) (k : nat) : 0 <= eps -> (2 <= k)%nat -> rdp nb_all (krr_exp eps k) eps 0.
Proof.
  intros He Hk. apply rdp_of_pointwise.
  intros x x' y Hx Hx' _ Hy. cbn [krr_exp rn_in rn_out] in Hx, Hx', Hy.
  rewrite !krr_exp_entry by assumption.
  pose proof (krr_exp_denominator eps k ltac:(lia)) as Hd.
  set (d := exp eps + INR k - 1) in *.
  pose proof (exp_ge_1 eps He) as H1.
  assert (Hp : 0 <= exp eps / d) by (apply Rlt_le, Rdiv_lt_0_compat; lra).
  assert (Hq : 0 <= 1 / d) by (apply Rlt_le, Rdiv_lt_0_compat; lra).
  assert (Hqp : 1 / d <= exp eps / d) by (apply div_mono; lra).
  assert (Hself : forall v, 0 <= v -> v <= exp eps * v).
  { intros v Hv. rewrite <- (Rmult_1_l v) at 1. apply Rmult_le_compat_r; assumption. }
  unfold krr_exp_pmf. fold d.
  destruct (Nat.eqb x y); destruct (Nat.eqb x' y).
  - split; [exact Hp|apply Hself, Hp].
  - split; [exact Hq|]. unfold Rdiv. lra.
  - split; [exact Hp|]. apply Rle_trans with (exp eps / d); [exact Hqp|apply Hself, Hp].
  - split; [exact Hq|apply Hself, Hq].
Qed.

(** ** Every row is a distribution: e^ε/d + (k − 1)/d = 1 *)
Lemma rsum_const_list {A} (c : R) (l : list A) : rsum (map (fun _ => c) l) = INR (length l) * c.
Proof.
  induction l as [|a l IH]; cbn [map length]; [rewrite rsum_nil; cbn; ring|].
  rewrite rsum_cons, IH, S_INR. ring.
Qed.

Lemma krr_exp_row_sum (eps : R) (k x : nat) : (1 <= k)%nat -> (x < k)%nat ->
  rsum (map (fun y => rentry (krr_exp eps k) x y) (seq 0 k)) = 1.
Proof.
  intros Hk Hx.
  rewrite (rsum_ext_in _ (fun y => 1 / (exp eps + INR k - 1) +
             (if Nat.eqb y x then (exp eps - 1) / (exp eps + INR k - 1) else 0))).
  2: { intros y Hy. apply in_seq in Hy. rewrite krr_exp_entry by lia. unfold krr_exp_pmf.
       rewrite Nat.eqb_sym. pose proof (krr_exp_denominator eps k Hk).
       destruct (Nat.eqb y x); [field|]; lra. }
  rewrite rsum_plus.
  rewrite (rsum_single Nat.eq_dec (fun y => if Nat.eqb y x then (exp eps - 1) / (exp eps + INR k - 1) else 0)
             _ x); [| apply seq_NoDup | apply in_seq; lia |].
  2: { intros z Hz. apply Nat.eqb_neq in Hz. rewrite Hz. reflexivity. }
  rewrite Nat.eqb_refl, rsum_const_list, seq_length.
  pose proof (krr_exp_denominator eps k Hk). field. lra.
Qed.

Theorem krr_exp_rdistr (eps : R) (k : nat) : (1 <= k)%nat -> rdistr (krr_exp eps k).
Proof.
  intros Hk x Hx. cbn [krr_exp rn_in rn_out] in *. split.
  - intros y Hy. rewrite krr_exp_entry by assumption. unfold krr_exp_pmf.
    pose proof (krr_exp_denominator eps k Hk). pose proof (exp_pos eps).
    destruct (Nat.eqb x y); apply Rlt_le, Rdiv_lt_0_compat; lra.
  - unfold rpr, everything. cbn [rn_out krr_exp]. exact (krr_exp_row_sum eps k x Hk Hx).
Qed.

End KrrExp.
