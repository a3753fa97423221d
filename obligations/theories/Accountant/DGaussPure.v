(** * The discrete Gaussian is (ε, 0)-DP for no ε

    One run's ratio Pr[z]/Pr[z − 1] is e^((1 − 2z)/2v) ([dgauss_shift]): it grows without bound
    as z goes down.  On the inputs 0 and 1, the output vector of K copies of −m has probability
    ratio e^(K·(2m + 1)/2v), so every ε below that refutes (ε, 0)-DP of K runs with that one-vector
    event ([not_zdp_dgauss_pure]); the caller picks m ≥ 0.  When e^ε is a rational or bounded above by
    one (ε = ln 7), e^ε ≤ 1 + K·(2m + 1)/2v is enough, since 1 + t < e^t
    ([not_zdp_dgauss_pure_exp]).  The generated files check the rational inequalities by
    computation ([not_zdp_dgauss_pure_dec], [not_zdp_dgauss_pure_exp_dec]). *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts.
From Obligations.Accountant Require Import NoiseDP DGauss DLapPure.

Local Open Scope R_scope.

Lemma exp_pow_nat (a : R) (K : nat) : exp a ^ K = exp (INR K * a).
Proof.
  induction K as [|K IH]; [cbn [pow]; rewrite Rmult_0_l, exp_0; reflexivity|].
  rewrite <- tech_pow_Rmult, IH, <- exp_plus, S_INR. f_equal. ring.
Qed.

Section Gauss.
Variable v : R.
Hypothesis Hv : 0 < v.

(** The output −m against −m − 1: Pr[−m] = e^((2m + 1)/2v)·Pr[−m − 1]. *)
Lemma dgauss_down (m : Z) :
  dgauss v (- m) = exp ((2 * IZR m + 1) / (2 * v)) * dgauss v (- m - 1).
Proof.
  rewrite (dgauss_shift v Hv (- m) (-1)).
  replace (- m + -1)%Z with (- m - 1)%Z by lia. f_equal.
  rewrite <- exp_Zmult_ln by apply exp_pos. rewrite ln_exp. f_equal.
  rewrite plus_IZR, !mult_IZR, !opp_IZR. field. lra.
Qed.

Theorem not_zdp_dgauss_pure (D : Z) (K : nat) (m : Z) (eps : R) :
  (1 <= D)%Z -> eps < INR K * ((2 * IZR m + 1) / (2 * v)) ->
  exp eps * zpr (dgauss v) 1 K (point_set (repeat (- m)%Z K))
    < zpr (dgauss v) 0 K (point_set (repeat (- m)%Z K)) /\
  ~ zdp (dgauss v) D K eps 0.
Proof.
  intros HD Heps.
  assert (Hr : exp eps * dgauss v (- m - 1) ^ K < dgauss v (- m) ^ K).
  { rewrite dgauss_down, Rpow_mult_distr, exp_pow_nat.
    pose proof (pow_lt _ K (dgauss_pos v Hv (- m - 1))).
    apply Rmult_lt_compat_r; [exact H|]. apply exp_increasing, Heps. }
  rewrite !zpr_point by (apply dgauss_nonneg || apply dgauss_sum_le; exact Hv).
  replace (- m - 0)%Z with (- m)%Z by lia.
  split; [exact Hr|]. intros Hdp.
  specialize (Hdp 0%Z 1%Z ltac:(lia) (point_set (repeat (- m)%Z K))).
  rewrite !zpr_point in Hdp by (apply dgauss_nonneg || apply dgauss_sum_le; exact Hv).
  replace (- m - 0)%Z with (- m)%Z in Hdp by lia. lra.
Qed.

(** The same from an upper bound of e^ε. *)
Theorem not_zdp_dgauss_pure_exp (D : Z) (K : nat) (m : Z) (eps : R) :
  (1 <= D)%Z -> (1 <= K)%nat -> (0 <= m)%Z -> exp eps <= 1 + INR K * ((2 * IZR m + 1) / (2 * v)) ->
  exp eps * zpr (dgauss v) 1 K (point_set (repeat (- m)%Z K))
    < zpr (dgauss v) 0 K (point_set (repeat (- m)%Z K)) /\
  ~ zdp (dgauss v) D K eps 0.
Proof.
  intros HD HK Hm He. apply not_zdp_dgauss_pure; [exact HD|].
  assert (Ht : 0 < INR K * ((2 * IZR m + 1) / (2 * v))).
  { apply Rmult_lt_0_compat; [apply lt_0_INR; lia|].
    apply Rdiv_lt_0_compat; [apply IZR_le in Hm|]; lra. }
  pose proof (exp_ineq1 _ (Rgt_not_eq _ _ Ht)). apply exp_lt_inv. lra.
Qed.
End Gauss.

(** ** The rational checks *)

Lemma q2r_of_nat (n : nat) : Q2R (inject_Z (Z.of_nat n)) = INR n.
Proof. unfold Q2R. cbn [Qnum Qden inject_Z]. rewrite INR_IZR_INZ. field. Qed.

Lemma q2r_of_Z (z : Z) : Q2R (inject_Z z) = IZR z.
Proof. unfold Q2R. cbn [Qnum Qden inject_Z]. field. Qed.

Local Open Scope Q_scope.

(** K·(2m + 1)/2v: the log-ratio of K runs at the output −m. *)
Definition dgauss_down_q (v : Q) (K : nat) (m : Z) : Q :=
  inject_Z (Z.of_nat K) * ((2 * inject_Z m + 1) / (2 * v)).

Lemma dgauss_down_q_r (v : Q) (K : nat) (m : Z) :
  ~ v == 0 -> Q2R (dgauss_down_q v K m) = (INR K * ((2 * IZR m + 1) / (2 * Q2R v)))%R.
Proof.
  intros Hv. unfold dgauss_down_q.
  assert (H2v : ~ 2 * v == 0) by (intros E; apply Hv; apply (Qmult_integral_l 2 v); [discriminate|exact E]).
  rewrite Q2R_mult, Q2R_div, Q2R_plus, !Q2R_mult, q2r_of_nat, q2r_of_Z by exact H2v.
  assert (E2 : Q2R 2 = 2%R) by (unfold Q2R; cbn [Qnum Qden]; field).
  assert (E1 : Q2R 1 = 1%R) by (unfold Q2R; cbn [Qnum Qden]; field).
  rewrite E2, E1. field. intros E. apply Hv. apply eqR_Qeq. rewrite RMicromega.Q2R_0. exact E.
Qed.

(** 0 < v and ε < K·(2m + 1)/2v. *)
Definition dgauss_impure_dec (v eps : Q) (K : nat) (m : Z) : bool :=
  negb (Qle_bool v 0) && negb (Qle_bool (dgauss_down_q v K m) eps).

(** 0 < v, 1 ≤ K, 0 ≤ m and U ≤ 1 + K·(2m + 1)/2v, for an upper bound U of e^ε. *)
Definition dgauss_impure_exp_dec (v U : Q) (K : nat) (m : Z) : bool :=
  negb (Qle_bool v 0) && Nat.leb 1 K && Z.leb 0 m && Qle_bool U (1 + dgauss_down_q v K m).

Lemma dgauss_dec_v (v : Q) : negb (Qle_bool v 0) = true -> (0 < Q2R v)%R.
Proof.
  intros H. apply negb_true_iff in H. rewrite <- RMicromega.Q2R_0. apply Qlt_Rlt.
  apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. congruence.
Qed.

Local Open Scope R_scope.

Theorem not_zdp_dgauss_pure_dec (v eps : Q) (D : Z) (K : nat) (m : Z) :
  dgauss_impure_dec v eps K m = true -> (1 <= D)%Z ->
  (exp (Q2R eps) * zpr (dgauss (Q2R v)) 1 K (point_set (repeat (- m)%Z K))
    < zpr (dgauss (Q2R v)) 0 K (point_set (repeat (- m)%Z K)))%R /\
  ~ zdp (dgauss (Q2R v)) D K (Q2R eps) 0.
Proof.
  unfold dgauss_impure_dec. intros H HD. apply andb_true_iff in H as [Hv He].
  pose proof (dgauss_dec_v v Hv) as Hr.
  apply not_zdp_dgauss_pure; [exact Hr|exact HD|].
  rewrite <- dgauss_down_q_r by (intros E; apply Qeq_eqR in E; rewrite RMicromega.Q2R_0 in E; lra).
  apply Qlt_Rlt, Qnot_le_lt. intros E. apply negb_true_iff in He. apply Qle_bool_iff in E. congruence.
Qed.

Theorem not_zdp_dgauss_pure_exp_dec (v U : Q) (D : Z) (K : nat) (m : Z) (eps : R) :
  dgauss_impure_exp_dec v U K m = true -> (1 <= D)%Z -> (exp eps <= Q2R U)%R ->
  (exp eps * zpr (dgauss (Q2R v)) 1 K (point_set (repeat (- m)%Z K))
    < zpr (dgauss (Q2R v)) 0 K (point_set (repeat (- m)%Z K)))%R /\
  ~ zdp (dgauss (Q2R v)) D K eps 0.
Proof.
  unfold dgauss_impure_exp_dec. intros H HD HU. apply andb_true_iff in H as [H HQ]. apply andb_true_iff in H as [H Hm].
  apply andb_true_iff in H as [Hv HK].
  pose proof (dgauss_dec_v v Hv) as Hr.
  apply not_zdp_dgauss_pure_exp; [exact Hr|exact HD|apply Nat.leb_le, HK|apply Z.leb_le, Hm|].
  apply Qle_bool_iff, Qle_Rle in HQ. rewrite Q2R_plus, dgauss_down_q_r in HQ
    by (intros E; apply Qeq_eqR in E; rewrite RMicromega.Q2R_0 in E; lra).
  assert (E1 : Q2R 1 = 1%R) by (unfold Q2R; cbn [Qnum Qden]; field). lra.
Qed.
