(** * Soundness of the checkers

    The pointwise criterion and the hockey-stick criterion each imply
    (ε, δ)-DP over events, given a rational lower bound [L ≤ e^ε]. *)
From Coq Require Import List QArith Qminmax Qreals Reals Lra Lia Bool Arith.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker.
Import ListNotations.

(** ** Helper lemmas about the checkers *)

Lemma rows_wf_spec (M : fmech) :
  rows_wf M = true ->
  length (rows M) = n_in M /\ forall r, In r (rows M) -> length r = n_out M.
Proof.
  unfold rows_wf. rewrite andb_true_iff, Nat.eqb_eq, forallb_forall.
  intros [Hl Hr]. split; [exact Hl|].
  intros r Hin. apply Nat.eqb_eq, Hr, Hin.
Qed.

Lemma rows_wf_row_length (M : fmech) (x : nat) :
  rows_wf M = true -> (x < n_in M)%nat -> length (nth x (rows M) []) = n_out M.
Proof.
  intros Hwf Hx. destruct (rows_wf_spec M Hwf) as [Hl Hr].
  apply Hr, nth_In. lia.
Qed.

Lemma row_nonneg_nth (r : list Q) (y : nat) :
  row_nonneg r = true -> (0 <= nth y r 0)%Q.
Proof.
  unfold row_nonneg. rewrite forallb_forall. intros Hr.
  destruct (Nat.lt_ge_cases y (length r)) as [Hy|Hy].
  - apply Qle_bool_imp_le, Hr, nth_In, Hy.
  - rewrite nth_overflow by exact Hy. apply Qle_refl.
Qed.

Lemma prob_nonneg_row (M : fmech) (x y : nat) :
  row_nonneg (nth x (rows M) []) = true -> (0 <= prob M x y)%R.
Proof.
  intros Hr. unfold prob, entry. rewrite <- q2r_0.
  apply Qle_Rle, row_nonneg_nth, Hr.
Qed.

Lemma prob_nonneg (M : fmech) (x y : nat) :
  forallb row_nonneg (rows M) = true -> (0 <= prob M x y)%R.
Proof.
  rewrite forallb_forall. intros Hrows.
  destruct (Nat.lt_ge_cases x (length (rows M))) as [Hx|Hx].
  - apply prob_nonneg_row, Hrows, nth_In, Hx.
  - unfold prob, entry. rewrite (nth_overflow (rows M)) by exact Hx.
    replace (nth y [] 0%Q) with 0%Q by (destruct y; reflexivity).
    rewrite q2r_0. apply Rle_refl.
Qed.

Lemma forallb_ix_nth {A} (f : nat -> A -> bool) (i : nat) (l : list A) (d : A) (k : nat) :
  forallb_ix f i l = true -> (k < length l)%nat -> f (i + k)%nat (nth k l d) = true.
Proof.
  revert i k. induction l as [|a l IH]; intros i k Hl Hk; cbn in *; [lia|].
  apply andb_true_iff in Hl as [Ha Hl].
  destruct k as [|k].
  - now rewrite Nat.add_0_r.
  - rewrite <- Nat.add_succ_comm. apply IH; [exact Hl|lia].
Qed.

Lemma forallb2_length {A B} (f : A -> B -> bool) (l1 : list A) (l2 : list B) :
  forallb2 f l1 l2 = true -> length l1 = length l2.
Proof.
  revert l2. induction l1 as [|a l1 IH]; intros [|b l2] H; cbn in *;
    try reflexivity; try discriminate.
  apply andb_true_iff in H as [_ H]. f_equal. apply IH, H.
Qed.

Lemma forallb2_nth {A B} (f : A -> B -> bool) (l1 : list A) (l2 : list B)
    (d1 : A) (d2 : B) (k : nat) :
  forallb2 f l1 l2 = true -> (k < length l1)%nat ->
  f (nth k l1 d1) (nth k l2 d2) = true.
Proof.
  revert l2 k. induction l1 as [|a l1 IH]; intros [|b l2] k H Hk; cbn in *;
    try lia; try discriminate.
  apply andb_true_iff in H as [Hab H].
  destruct k as [|k]; [exact Hab|].
  apply IH; [exact H|lia].
Qed.

Lemma forall_neighbours_nth (nb : nat -> nat -> bool) (p : list Q -> list Q -> bool)
    (M : fmech) (x x' : nat) :
  forall_neighbours nb p M = true ->
  (x < length (rows M))%nat -> (x' < length (rows M))%nat -> nb x x' = true ->
  p (nth x (rows M) []) (nth x' (rows M) []) = true.
Proof.
  unfold forall_neighbours. intros H Hx Hx' Hnb.
  apply (forallb_ix_nth _ _ _ [] x) in H; [|exact Hx].
  cbn in H.
  apply (forallb_ix_nth _ _ _ [] x') in H; [|exact Hx'].
  cbn in H. rewrite Hnb in H. exact H.
Qed.

Lemma pr_everything (M : fmech) (x : nat) :
  length (nth x (rows M) []) = n_out M ->
  pr M x everything = Q2R (qsum (nth x (rows M) [])).
Proof.
  intros Hlen. rewrite qsum_correct. unfold pr, everything, prob, entry.
  rewrite (map_nth_seq Q2R _ 0%Q), Hlen. reflexivity.
Qed.

Lemma distr_of_check (M : fmech) : check_distr M = true -> distr M.
Proof.
  unfold check_distr. rewrite andb_true_iff, forallb_forall.
  intros [Hwf Hrows] x Hx.
  destruct (rows_wf_spec M Hwf) as [Hl _].
  assert (Hin : In (nth x (rows M) []) (rows M)) by (apply nth_In; lia).
  apply Hrows, andb_true_iff in Hin as [Hnn Hsum].
  split.
  - intros y _. apply prob_nonneg_row, Hnn.
  - rewrite pr_everything by (apply rows_wf_row_length; assumption).
    rewrite (Qeq_eqR _ _ (Qeq_bool_eq _ _ Hsum)). apply q2r_1.
Qed.

Lemma subdistr_of_check (M : fmech) : check_subdistr M = true -> subdistr M.
Proof.
  unfold check_subdistr. rewrite andb_true_iff, forallb_forall.
  intros [Hwf Hrows] x Hx.
  destruct (rows_wf_spec M Hwf) as [Hl _].
  assert (Hin : In (nth x (rows M) []) (rows M)) by (apply nth_In; lia).
  apply Hrows, andb_true_iff in Hin as [Hnn Hsum].
  split.
  - intros y _. apply prob_nonneg_row, Hnn.
  - rewrite pr_everything by (apply rows_wf_row_length; assumption).
    rewrite <- q2r_1. apply Qle_Rle, Qle_bool_imp_le, Hsum.
Qed.

(** Pointwise: if M(x)(y) ≤ L · M(x')(y) for all neighbours and outputs,
    and L ≤ e^ε, then M is (ε, 0)-DP. *)
Lemma dp_of_check_pointwise (nb : nat -> nat -> bool) (M : fmech) (eps : R) (L : Q) :
  (Q2R L <= exp eps)%R -> check_pointwise nb L M = true -> dp nb M eps 0.
Proof.
  intros HL. unfold check_pointwise. rewrite !andb_true_iff.
  intros [[Hwf Hnn] Hnb] x x' Hx Hx' Hxx' S.
  destruct (rows_wf_spec M Hwf) as [Hl _].
  pose proof (forall_neighbours_nth _ _ _ x x' Hnb
    ltac:(lia) ltac:(lia) Hxx') as Hpw.
  unfold pointwise_le in Hpw.
  assert (Hle : (pr M x S <= Q2R L * pr M x' S)%R).
  { unfold pr. rewrite <- rsum_scal. apply rsum_le.
    intros y Hy. apply in_seq in Hy.
    destruct (S y); [|lra].
    unfold prob, entry. rewrite <- Q2R_mult.
    apply Qle_Rle, Qle_bool_imp_le.
    apply (forallb2_nth _ _ _ 0%Q 0%Q y Hpw).
    rewrite rows_wf_row_length by assumption. lia. }
  assert (Hpos : (0 <= pr M x' S)%R).
  { apply pr_nonneg. intros y _. apply prob_nonneg, Hnn. }
  apply Rmult_le_compat_r with (r := pr M x' S) in HL; [|exact Hpos].
  lra.
Qed.

(** Hockey-stick: if Σ_y max(0, M(x)(y) − L · M(x')(y)) ≤ δ for all
    neighbours, and L ≤ e^ε, then M is (ε, δ)-DP. *)
Lemma dp_of_check_hockey (nb : nat -> nat -> bool) (M : fmech) (eps : R) (L delta : Q) :
  (Q2R L <= exp eps)%R -> check_hockey nb L delta M = true -> dp nb M eps (Q2R delta).
Proof.
  intros HL. unfold check_hockey. rewrite !andb_true_iff.
  intros [[Hwf Hnn] Hnb] x x' Hx Hx' Hxx' S.
  destruct (rows_wf_spec M Hwf) as [Hl _].
  pose proof (forall_neighbours_nth _ _ _ x x' Hnb
    ltac:(lia) ltac:(lia) Hxx') as Hh.
  cbn in Hh. apply Qle_bool_imp_le, Qle_Rle in Hh.
  assert (Hlx := rows_wf_row_length M x Hwf Hx).
  assert (Hlx' := rows_wf_row_length M x' Hwf Hx').
  set (rx := nth x (rows M) []) in *.
  set (rx' := nth x' (rows M) []) in *.
  (* The hockey-stick divergence as a sum over the outputs. *)
  assert (Hhs : Q2R (hockey L rx rx') =
    rsum (map (fun y => Q2R (Qmax 0 (nth y rx 0 - L * nth y rx' 0)))
      (seq 0 (n_out M)))).
  { unfold hockey. rewrite qsum_correct, map_map.
    rewrite (map_nth_seq _ _ (0%Q, 0%Q)), combine_length, Hlx, Hlx', Nat.min_id.
    apply f_equal, map_ext. intros y.
    rewrite combine_nth by congruence. reflexivity. }
  assert (Hle : (pr M x S <= Q2R L * pr M x' S + Q2R (hockey L rx rx'))%R).
  { rewrite Hhs. unfold pr. rewrite <- rsum_scal, <- rsum_plus.
    apply rsum_le. intros y _.
    pose proof (Q.le_max_l 0 (nth y rx 0 - L * nth y rx' 0)) as H1.
    pose proof (Q.le_max_r 0 (nth y rx 0 - L * nth y rx' 0)) as H2.
    apply Qle_Rle in H1, H2.
    rewrite q2r_0 in H1. rewrite Q2R_minus, Q2R_mult in H2.
    unfold prob, entry. fold rx rx'.
    destruct (S y); lra. }
  assert (Hpos : (0 <= pr M x' S)%R).
  { apply pr_nonneg. intros y _. apply prob_nonneg, Hnn. }
  apply Rmult_le_compat_r with (r := pr M x' S) in HL; [|exact Hpos].
  lra.
Qed.

(** The hockey-stick criterion with δ written as any real equal to [Q2R dq]. *)
Lemma dp_of_check_hockey_at (nb : nat -> nat -> bool) (M : fmech) (eps d : R) (L dq : Q) :
  Q2R dq = d -> (Q2R L <= exp eps)%R -> check_hockey nb L dq M = true -> dp nb M eps d.
Proof. intros <-. apply dp_of_check_hockey. Qed.
