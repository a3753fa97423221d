(** * Accuracy of a finite mechanism

    A finite mechanism answers a query: input [x] has the query value [q x]
    and output [y] stands for the value [v y] (both rationals; for the
    truncated geometric over {0..n}, [q x = x] and [v y = y]).  Its error on
    input [x] is [|v y - q x|].  Two accuracy notions, stated over the reals
    like [dp]:

    - [accurate M q v alpha beta]: (α, β)-accuracy, Pr[|M(x) − q(x)| > α] ≤ β
      for every input;
    - [expected_error M q v x]: E|M(x) − q(x)|, the exact expected absolute
      error on input [x].

    Boolean checkers over [Q] ([check_accuracy], [check_expected_le],
    [check_expected_eq], [check_inaccurate], [check_expected_gt]) decide them
    by [vm_compute]; their soundness is proved here once. *)
From Coq Require Import List ZArith QArith Qabs Qreals Reals Lra Lia Bool.
From Obligations.Core Require Import Sums.
From Obligations.Finite Require Import Mechanism Checker Refutation.
Import ListNotations.
Local Open Scope R_scope.

(** ** Errors and the two notions *)

(** The error of output [y] on input [x]. *)
Definition err (q v : nat -> Q) (x y : nat) : Q := Qabs (v y - q x)%Q.

(** The outputs whose error on input [x] exceeds [alpha]. *)
Definition far (q v : nat -> Q) (alpha : Q) (x : nat) : event :=
  fun y => negb (Qle_bool (err q v x y) alpha).

(** (α, β)-accuracy: on every input, the error exceeds α with probability at most β. *)
Definition accurate (M : fmech) (q v : nat -> Q) (alpha : Q) (beta : R) : Prop :=
  forall x, (x < n_in M)%nat -> pr M x (far q v alpha x) <= beta.

(** E|M(x) − q(x)|, summed over the outputs of the table. *)
Definition expected_error (M : fmech) (q v : nat -> Q) (x : nat) : R :=
  rsum (map (fun y => prob M x y * Q2R (err q v x y)) (seq 0 (n_out M))).

(** ** The checkers *)

Definition expected_error_q (M : fmech) (q v : nat -> Q) (x : nat) : Q :=
  qsum (map (fun y => (entry M x y * err q v x y)%Q) (seq 0 (n_out M))).

Definition check_accuracy (M : fmech) (q v : nat -> Q) (alpha beta : Q) : bool :=
  forallb (fun x => Qle_bool (pr_q M x (far q v alpha x)) beta) (seq 0 (n_in M)).

Definition check_expected_le (M : fmech) (q v : nat -> Q) (bound : Q) : bool :=
  forallb (fun x => Qle_bool (expected_error_q M q v x) bound) (seq 0 (n_in M)).

(** The exact expected errors, one per input, in input order. *)
Definition check_expected_eq (M : fmech) (q v : nat -> Q) (values : list Q) : bool :=
  (length values =? n_in M)%nat &&
  forallb (fun x => Qeq_bool (expected_error_q M q v x) (nth x values 0%Q)) (seq 0 (n_in M)).

(** A witness input against (α, β)-accuracy, with the exact probability [p]. *)
Definition check_inaccurate (M : fmech) (q v : nat -> Q) (alpha beta : Q) (x : nat) (p : Q) : bool :=
  (x <? n_in M)%nat && Qeq_bool (pr_q M x (far q v alpha x)) p && negb (Qle_bool p beta).

(** A witness input whose expected error exceeds the bound, with its exact value [e]. *)
Definition check_expected_gt (M : fmech) (q v : nat -> Q) (bound : Q) (x : nat) (e : Q) : bool :=
  (x <? n_in M)%nat && Qeq_bool (expected_error_q M q v x) e && negb (Qle_bool e bound).

(** ** Soundness *)

Lemma expected_error_q_correct (M : fmech) (q v : nat -> Q) (x : nat) :
  Q2R (expected_error_q M q v x) = expected_error M q v x.
Proof.
  unfold expected_error_q, expected_error. rewrite qsum_correct, map_map.
  f_equal. apply map_ext. intros y. unfold prob. apply Q2R_mult.
Qed.

Lemma forallb_seq (f : nat -> bool) (n x : nat) :
  forallb f (seq 0 n) = true -> (x < n)%nat -> f x = true.
Proof.
  intros H Hx. rewrite forallb_forall in H. apply H. apply in_seq. lia.
Qed.

Lemma accurate_of_check (M : fmech) (q v : nat -> Q) (alpha beta : Q) :
  check_accuracy M q v alpha beta = true -> accurate M q v alpha (Q2R beta).
Proof.
  intros H x Hx. pose proof (forallb_seq _ _ _ H Hx) as Hb. cbv beta in Hb.
  apply Qle_bool_iff, Qle_Rle in Hb. rewrite <- pr_q_correct. exact Hb.
Qed.

Lemma accurate_of_check_at (M : fmech) (q v : nat -> Q) (alpha betaq : Q) (beta : R) :
  Q2R betaq = beta -> check_accuracy M q v alpha betaq = true -> accurate M q v alpha beta.
Proof. intros <-. apply accurate_of_check. Qed.

Lemma expected_le_of_check (M : fmech) (q v : nat -> Q) (bound : Q) :
  check_expected_le M q v bound = true ->
  forall x, (x < n_in M)%nat -> expected_error M q v x <= Q2R bound.
Proof.
  intros H x Hx. pose proof (forallb_seq _ _ _ H Hx) as Hb. cbv beta in Hb.
  apply Qle_bool_iff, Qle_Rle in Hb. rewrite <- expected_error_q_correct. exact Hb.
Qed.

Lemma expected_eq_of_check (M : fmech) (q v : nat -> Q) (values : list Q) :
  check_expected_eq M q v values = true ->
  forall x, (x < n_in M)%nat -> expected_error M q v x = Q2R (nth x values 0%Q).
Proof.
  intros H x Hx. apply andb_prop in H as [_ H].
  pose proof (forallb_seq _ _ _ H Hx) as Hb. cbv beta in Hb.
  apply Qeq_bool_iff, Qeq_eqR in Hb. rewrite <- expected_error_q_correct. exact Hb.
Qed.

(** A refutation: the probability on input [x] is exactly [p], and [p > beta]. *)
Lemma not_accurate_of_check (M : fmech) (q v : nat -> Q) (alpha beta : Q) (x : nat) (p : Q) :
  check_inaccurate M q v alpha beta x p = true ->
  (x < n_in M)%nat /\ pr M x (far q v alpha x) = Q2R p /\ ~ accurate M q v alpha (Q2R beta).
Proof.
  unfold check_inaccurate. intros H.
  apply andb_prop in H as [H Hgt]. apply andb_prop in H as [Hx Heq].
  apply Nat.ltb_lt in Hx. apply Qeq_bool_iff, Qeq_eqR in Heq. rewrite pr_q_correct in Heq.
  apply negb_true_iff in Hgt.
  assert (Hlt : Q2R beta < Q2R p).
  { apply Qlt_Rlt. apply Qnot_le_lt. intros Hle. apply Qle_bool_iff in Hle. congruence. }
  split; [exact Hx|]. split; [exact Heq|].
  intros Hacc. specialize (Hacc x Hx). lra.
Qed.

Lemma not_accurate_of_check_at (M : fmech) (q v : nat -> Q) (alpha betaq : Q) (beta : R) (x : nat) (p : Q) :
  Q2R betaq = beta -> check_inaccurate M q v alpha betaq x p = true ->
  (x < n_in M)%nat /\ pr M x (far q v alpha x) = Q2R p /\ ~ accurate M q v alpha beta.
Proof. intros <-. apply not_accurate_of_check. Qed.

Lemma expected_gt_of_check (M : fmech) (q v : nat -> Q) (bound : Q) (x : nat) (e : Q) :
  check_expected_gt M q v bound x e = true ->
  (x < n_in M)%nat /\ expected_error M q v x = Q2R e /\ Q2R bound < expected_error M q v x.
Proof.
  unfold check_expected_gt. intros H.
  apply andb_prop in H as [H Hgt]. apply andb_prop in H as [Hx Heq].
  apply Nat.ltb_lt in Hx. apply Qeq_bool_iff, Qeq_eqR in Heq. rewrite expected_error_q_correct in Heq.
  apply negb_true_iff in Hgt.
  assert (Hlt : Q2R bound < Q2R e).
  { apply Qlt_Rlt. apply Qnot_le_lt. intros Hle. apply Qle_bool_iff in Hle. congruence. }
  split; [exact Hx|]. split; [exact Heq|]. lra.
Qed.

(** ** Values of a range: the index [i] stands for the integer [lo + i] *)

Definition range_value (lo : Z) (i : nat) : Q := inject_Z (lo + Z.of_nat i).
