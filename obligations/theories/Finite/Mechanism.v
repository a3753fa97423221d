(** * Finite mechanisms

    A finite mechanism with inputs [0 .. n_in - 1] and outputs
    [0 .. n_out - 1] is given by its rows: row [x] lists the probabilities
    [M(x)(0), ..., M(x)(n_out - 1)] as exact rationals.  Entries outside the
    table read as [0]. *)
From Coq Require Import List ZArith QArith Qreals Reals Lia.
From Obligations.Core Require Import Lists Sums SubDistr.
Import ListNotations.

Record fmech := FMech {
  n_in : nat;
  n_out : nat;
  rows : list (list Q)
}.

(** A table computed from a formula [f i j]. *)
Definition tabulate (n m : nat) (f : nat -> nat -> Q) : list (list Q) :=
  map (fun i => map (f i) (seq 0 m)) (seq 0 n).

(** The table of a formula over input values x0 .. x0 + n - 1 and output values
    y0 .. y0 + m - 1 ([zseq] is in Lists.v). *)
Definition tabulate_z (x0 : Z) (n : nat) (y0 : Z) (m : nat) (f : Z -> Z -> Q) : list (list Q) :=
  let ys := zseq y0 m in map (fun x => map (f x) ys) (zseq x0 n).

Definition entry (M : fmech) (x y : nat) : Q := nth y (nth x (rows M) []) 0%Q.

(** [prob M x y] is Pr[M(x) = y]. *)
Definition prob (M : fmech) (x y : nat) : R := Q2R (entry M x y).

(** Events are sets of outputs, given by their indicator. *)
Definition event := nat -> bool.

(** [pr M x S] is Pr[M(x) ∈ S]. *)
Definition pr (M : fmech) (x : nat) (S : event) : R :=
  rsum (map (fun y => if S y then prob M x y else 0%R) (seq 0 (n_out M))).

Definition everything : event := fun _ => true.

(** Events that agree on the outputs have the same probability. *)
Lemma pr_ext (M : fmech) (x : nat) (S S' : event) :
  (forall y, (y < n_out M)%nat -> S y = S' y) -> pr M x S = pr M x S'.
Proof.
  intros H. unfold pr. f_equal. apply map_ext_in. intros y Hy.
  apply in_seq in Hy. rewrite H by lia. reflexivity.
Qed.

Lemma pr_nonneg (M : fmech) (x : nat) (S : event) :
  (forall y, (y < n_out M)%nat -> (0 <= prob M x y)%R) -> (0 <= pr M x S)%R.
Proof.
  intros Hp. unfold pr. apply rsum_nonneg. intros y Hy.
  apply in_seq in Hy as [_ Hy].
  destruct (S y).
  - apply Hp, Hy.
  - apply Rle_refl.
Qed.

(** Every row is a sub-distribution: non-negative, total mass at most 1. *)
Definition subdistr (M : fmech) : Prop :=
  forall x, (x < n_in M)%nat ->
    (forall y, (y < n_out M)%nat -> (0 <= prob M x y)%R) /\ (pr M x everything <= 1)%R.

(** Every row is a distribution: non-negative, total mass exactly 1. *)
Definition distr (M : fmech) : Prop :=
  forall x, (x < n_in M)%nat ->
    (forall y, (y < n_out M)%nat -> (0 <= prob M x y)%R) /\ pr M x everything = 1%R.

Lemma distr_subdistr (M : fmech) : distr M -> subdistr M.
Proof.
  intros HM x Hx. destruct (HM x Hx) as [Hnn Hsum].
  split; [exact Hnn|]. rewrite Hsum. apply Rle_refl.
Qed.

(** Each row is the core notion (Core/SubDistr.v) on the outputs [0 .. n_out - 1]. *)
Lemma pr_is_pr_on (M : fmech) (x : nat) (S : event) : pr M x S = pr_on (seq 0 (n_out M)) (prob M x) S.
Proof. reflexivity. Qed.

Lemma subdistr_iff_subdistr_on (M : fmech) :
  subdistr M <-> forall x, (x < n_in M)%nat -> subdistr_on (seq 0 (n_out M)) (prob M x).
Proof.
  split; intros H x Hx; destruct (H x Hx) as [Hnn Hs]; (split; [|exact Hs]);
    intros y Hy; apply Hnn; first [apply in_seq in Hy; lia|apply in_seq; lia].
Qed.

Lemma distr_iff_distr_on (M : fmech) :
  distr M <-> forall x, (x < n_in M)%nat -> distr_on (seq 0 (n_out M)) (prob M x).
Proof.
  split; intros H x Hx; destruct (H x Hx) as [Hnn Hs]; (split; [|exact Hs]);
    intros y Hy; apply Hnn; first [apply in_seq in Hy; lia|apply in_seq; lia].
Qed.

(** The table has [n_in] rows of [n_out] entries each (the boolean check is
    [rows_wf] in Checker.v). *)
Definition fmech_wf (M : fmech) : Prop :=
  length (rows M) = n_in M /\ forall r, In r (rows M) -> length r = n_out M.
