(** * Rational bounds on e^x from its Taylor series, for rational x >= 0

    Lower bounds: the partial sums [T_n(y)] of e^y's series are below e^y for
    y >= 0 ([exp_ge_partial]).  Upper bounds: for 0 <= y <= 1 the series of
    e^(-y) alternates with decreasing terms, so its partial sum [A] of odd
    degree is below e^(-y) and e^y <= 1/A ([exp_neg_alt]).  A larger x is split
    as e^x = (e^(x/m))^m.  The sums are computed in [Q] ([qseries], [qpow]) and
    compared by [Qle_bool]: [exp_lower_of_check] and [exp_upper_of_check] turn
    a boolean check, run by [vm_compute], into a bound on [exp (Q2R x)].
    Only the standard library's real-number axioms are used (no [interval]). *)
From Coq Require Import Reals Lra QArith Qreals ZArith Lia.
From Obligations.Core Require Import RealFacts.

Local Open Scope R_scope.

Definition eterm (x : R) (i : nat) : R := x ^ i / INR (fact i).

Lemma eterm_S : forall x i, eterm x (S i) = eterm x i * x / INR (S i).
Proof.
  intros x i. unfold eterm. rewrite fact_simpl, mult_INR. simpl pow.
  assert (0 < INR (fact i)) by apply INR_fact_lt_0.
  assert (0 < INR (S i)) by apply lt_0_INR, Nat.lt_0_succ.
  field. lra.
Qed.

Lemma exp_series : forall x, Un_cv (fun n => sum_f_R0 (eterm x) n) (exp x).
Proof.
  intros x eps Heps. unfold exp. destruct (exist_exp x) as [l Hl]; cbn.
  destruct (Hl eps Heps) as [N HN]. exists N. intros k Hk.
  replace (sum_f_R0 (eterm x) k) with (sum_f_R0 (fun i => / INR (fact i) * x ^ i) k).
  - exact (HN k Hk).
  - apply sum_eq. intros. unfold eterm, Rdiv. ring.
Qed.

Lemma eterm_nonneg : forall x i, 0 <= x -> 0 <= eterm x i.
Proof.
  intros x i Hx. unfold eterm, Rdiv. apply Rmult_le_pos.
  - apply pow_le; exact Hx.
  - apply Rlt_le, Rinv_0_lt_compat, INR_fact_lt_0.
Qed.

(** Partial sums bound e^x below for x >= 0. *)
Lemma exp_ge_partial : forall x n, 0 <= x -> sum_f_R0 (eterm x) n <= exp x.
Proof.
  intros x n Hx. apply sum_incr; [apply exp_series | intro; apply eterm_nonneg; exact Hx].
Qed.

(** For 0 <= x <= 1 the series of e^-x alternates with decreasing terms. *)
Lemma exp_neg_alt : forall x N, 0 <= x <= 1 ->
  sum_f_R0 (tg_alt (eterm x)) (S (2 * N)) <= exp (- x) <= sum_f_R0 (tg_alt (eterm x)) (2 * N).
Proof.
  intros x N Hx. apply alternated_series_ineq.
  - intro n. rewrite eterm_S.
    assert (0 <= eterm x n) by (apply eterm_nonneg; lra).
    assert (1 <= INR (S n)) by (rewrite S_INR; pose proof (pos_INR n); lra).
    unfold Rdiv. apply Rle_trans with (eterm x n * x * 1).
    + apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|].
      rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
    + nra.
  - exact (cv_speed_pow_fact x).
  - intros eps Heps. destruct (exp_series (- x) eps Heps) as [M HM]. exists M. intros k Hk.
    replace (sum_f_R0 (tg_alt (eterm x)) k) with (sum_f_R0 (eterm (- x)) k).
    + exact (HM k Hk).
    + apply sum_eq. intros i _. unfold tg_alt, eterm, Rdiv.
      replace (- x) with ((-1) * x) by ring. rewrite Rpow_mult_distr. ring.
Qed.

(** ** The same sums computed in [Q] *)

(** [(term n, sum up to n)] of the series of e^x, each reduced. *)
Fixpoint qseries (x : Q) (n : nat) : Q * Q :=
  match n with
  | O => (1%Q, 1%Q)
  | S k => let (t, s) := qseries x k in
           let t' := Qred (t * x / inject_Z (Z.of_nat (S k))) in (t', Qred (s + t'))
  end.

Fixpoint qpow (q : Q) (m : nat) : Q :=
  match m with O => 1%Q | S k => Qred (q * qpow q k) end.

Lemma q2r_of_nat : forall n, Q2R (inject_Z (Z.of_nat n)) = INR n.
Proof. intro n. unfold Q2R; cbn. rewrite INR_IZR_INZ. field. Qed.

Lemma qseries_correct : forall x n,
  Q2R (fst (qseries x n)) = eterm (Q2R x) n /\ Q2R (snd (qseries x n)) = sum_f_R0 (eterm (Q2R x)) n.
Proof.
  intros x n. induction n as [|k [IHt IHs]].
  - unfold eterm; cbn. unfold Q2R; cbn. split; field.
  - cbn [qseries sum_f_R0]. destruct (qseries x k) as [t s]. cbn [fst snd] in *.
    assert (Hk : Q2R (inject_Z (Z.of_nat (S k))) <> 0).
    { rewrite q2r_of_nat. apply not_0_INR. discriminate. }
    assert (Hk' : ~ inject_Z (Z.of_nat (S k)) == 0).
    { intro H. apply Hk. rewrite H. unfold Q2R; cbn; ring. }
    assert (Ht : Q2R (Qred (t * x / inject_Z (Z.of_nat (S k)))) = eterm (Q2R x) (S k)).
    { rewrite q2r_qred, Q2R_div by exact Hk'. rewrite Q2R_mult, IHt, eterm_S, q2r_of_nat. reflexivity. }
    split; [exact Ht|].
    rewrite q2r_qred, Q2R_plus, IHs, Ht. reflexivity.
Qed.

Lemma qpow_correct : forall q m, Q2R (qpow q m) = Q2R q ^ m.
Proof.
  intros q m. induction m as [|k IH].
  - unfold Q2R; cbn; field.
  - cbn [qpow pow]. rewrite q2r_qred, Q2R_mult, IH. reflexivity.
Qed.

Lemma exp_INR_mult : forall m y, exp (INR m * y) = exp y ^ m.
Proof.
  intros m y. induction m as [|k IH].
  - cbn. rewrite Rmult_0_l. apply exp_0.
  - rewrite S_INR, Rmult_plus_distr_r, Rmult_1_l, exp_plus, IH. cbn. ring.
Qed.

(** x = m * (x / m) *)
Lemma q2r_split : forall x m, (0 < m)%nat ->
  Q2R x = INR m * Q2R (x / inject_Z (Z.of_nat m)).
Proof.
  intros x m Hm.
  assert (H : INR m <> 0) by (apply not_0_INR; lia).
  assert (H' : ~ inject_Z (Z.of_nat m) == 0).
  { intro E. apply H. rewrite <- q2r_of_nat, E. unfold Q2R; cbn; ring. }
  rewrite Q2R_div by exact H'. rewrite q2r_of_nat. field. exact H.
Qed.

(** ** The two checks and what they prove *)

(** [L <= (T_n(x/m))^m] with [T_n] the Taylor polynomial of degree n. *)
Definition exp_lower_check (x L : Q) (m n : nat) : bool :=
  Nat.ltb 0 m && Qle_bool 0 x
  && Qle_bool L (qpow (snd (qseries (x / inject_Z (Z.of_nat m)) n)) m).

Lemma exp_lower_of_check : forall x L m n,
  exp_lower_check x L m n = true -> Q2R L <= exp (Q2R x).
Proof.
  intros x L m n H. unfold exp_lower_check in H.
  apply andb_prop in H as [H H3]. apply andb_prop in H as [H1 H2].
  apply Nat.ltb_lt in H1. apply Qle_bool_iff, Qle_Rle in H2. apply Qle_bool_iff, Qle_Rle in H3.
  set (y := (x / inject_Z (Z.of_nat m))%Q) in *.
  rewrite (q2r_split x m H1). fold y. rewrite exp_INR_mult.
  rewrite qpow_correct in H3. destruct (qseries_correct y n) as [_ Hs]. rewrite Hs in H3.
  assert (Hy : 0 <= Q2R y).
  { rewrite (q2r_split x m H1) in H2. fold y in H2. replace (Q2R 0) with 0 in H2 by (unfold Q2R; cbn; ring).
    pose proof (lt_0_INR m H1). nra. }
  eapply Rle_trans; [exact H3|]. apply pow_incr. split.
  - apply cond_pos_sum. intro; apply eterm_nonneg; exact Hy.
  - apply exp_ge_partial; exact Hy.
Qed.

Lemma sum_eterm_opp : forall x n, sum_f_R0 (eterm (- x)) n = sum_f_R0 (tg_alt (eterm x)) n.
Proof.
  intros x n. apply sum_eq. intros i _. unfold tg_alt, eterm, Rdiv.
  replace (- x) with ((-1) * x) by ring. rewrite Rpow_mult_distr. ring.
Qed.

(** [(1 / A(x/m))^m <= U], where [A] is the alternating partial sum of e^(-x/m) up to
    the odd degree 2N+1 (a lower bound when x/m <= 1), and A > 0. *)
Definition exp_upper_check (x U : Q) (m N : nat) : bool :=
  let a := snd (qseries (- (x / inject_Z (Z.of_nat m))) (S (2 * N))) in
  Nat.ltb 0 m && Qle_bool 0 x && Qle_bool x (inject_Z (Z.of_nat m)) && negb (Qle_bool a 0)
  && Qle_bool (/ qpow a m) U.

Lemma exp_upper_of_check : forall x U m N,
  exp_upper_check x U m N = true -> exp (Q2R x) <= Q2R U.
Proof.
  intros x U m N H. unfold exp_upper_check in H.
  set (y := (x / inject_Z (Z.of_nat m))%Q) in *.
  set (a := snd (qseries (- y) (S (2 * N)))) in *.
  apply andb_prop in H as [H H5]. apply andb_prop in H as [H H4].
  apply andb_prop in H as [H H3]. apply andb_prop in H as [H1 H2].
  apply Nat.ltb_lt in H1. apply Qle_bool_iff, Qle_Rle in H2. apply Qle_bool_iff, Qle_Rle in H3.
  apply Qle_bool_iff, Qle_Rle in H5.
  assert (Ha : 0 < Q2R a).
  { apply negb_true_iff in H4. assert (~ (a <= 0)%Q) by (intro E; apply Qle_bool_iff in E; congruence).
    apply Qnot_le_lt, Qlt_Rlt in H. replace (Q2R 0) with 0 in H by (unfold Q2R; cbn; ring). exact H. }
  assert (Hm : 0 < INR m) by (apply lt_0_INR; exact H1).
  assert (Hy : 0 <= Q2R y <= 1).
  { rewrite (q2r_split x m H1) in H2, H3. fold y in H2, H3. rewrite q2r_of_nat in H3.
    replace (Q2R 0) with 0 in H2 by (unfold Q2R; cbn; ring). split; nra. }
  assert (Hlow : Q2R a <= exp (- Q2R y)).
  { unfold a. destruct (qseries_correct (- y) (S (2 * N))) as [_ Hs]. rewrite Hs, Q2R_opp, sum_eterm_opp.
    apply exp_neg_alt; exact Hy. }
  assert (Hpow : 0 < Q2R a ^ m) by (apply pow_lt; exact Ha).
  assert (Hnz : ~ qpow a m == 0).
  { intro E. apply Qeq_eqR in E. rewrite qpow_correct in E. replace (Q2R 0) with 0 in E by (unfold Q2R; cbn; ring). lra. }
  rewrite Q2R_inv, qpow_correct in H5 by exact Hnz.
  rewrite (q2r_split x m H1). fold y. rewrite exp_INR_mult.
  eapply Rle_trans; [|exact H5]. rewrite <- pow_inv.
  apply pow_incr. split; [apply Rlt_le, exp_pos|].
  rewrite <- (Rinv_inv (exp (Q2R y))), <- exp_Ropp.
  apply Rinv_le_contravar; [exact Ha | exact Hlow].
Qed.
