(** * Reflective checkers over exact rationals

    Boolean functions that [vm_compute] evaluates quickly.  Their soundness
    lemmas are in [CheckerSound] and [Refutation].  Each checker walks the rows
    once, so a row computed from a formula is computed once. *)
From Coq Require Import List QArith Qminmax Bool Arith.
From Obligations.Core Require Import Sums.
From Obligations.Finite Require Import Mechanism.
Import ListNotations.

(** The table has [n_in] rows of [n_out] entries each. *)
Definition rows_wf (M : fmech) : bool :=
  (length (rows M) =? n_in M) && forallb (fun r => length r =? n_out M) (rows M).

Definition row_nonneg (r : list Q) : bool := forallb (Qle_bool 0) r.

Definition check_distr (M : fmech) : bool :=
  rows_wf M && forallb (fun r => row_nonneg r && Qeq_bool (qsum r) 1) (rows M).

Definition check_subdistr (M : fmech) : bool :=
  rows_wf M && forallb (fun r => row_nonneg r && Qle_bool (qsum r) 1) (rows M).

(** [forallb] over a list with the indices of its elements, from [i]. *)
Fixpoint forallb_ix {A} (f : nat -> A -> bool) (i : nat) (l : list A) : bool :=
  match l with
  | [] => true
  | a :: l' => f i a && forallb_ix f (S i) l'
  end.

(** [forallb] over two lists of the same length, pairwise. *)
Fixpoint forallb2 {A B} (f : A -> B -> bool) (l1 : list A) (l2 : list B) : bool :=
  match l1, l2 with
  | [], [] => true
  | a :: l1', b :: l2' => f a b && forallb2 f l1' l2'
  | _, _ => false
  end.

(** Every ordered pair of neighbouring rows satisfies [p]. *)
Definition forall_neighbours (nb : nat -> nat -> bool)
    (p : list Q -> list Q -> bool) (M : fmech) : bool :=
  forallb_ix (fun x rx =>
    (* [if], not [negb _ || _]: the VM evaluates the arguments of [orb] eagerly. *)
    forallb_ix (fun x' rx' => if nb x x' then p rx rx' else true) 0 (rows M)) 0 (rows M).

(** Pointwise ratio bound: M(x)(y) ≤ L · M(x')(y) for every output y. *)
Definition pointwise_le (L : Q) (rx rx' : list Q) : bool :=
  forallb2 (fun p q => Qle_bool p (L * q)) rx rx'.

Definition check_pointwise (nb : nat -> nat -> bool) (L : Q) (M : fmech) : bool :=
  rows_wf M && forallb row_nonneg (rows M) && forall_neighbours nb (pointwise_le L) M.

(** The hockey-stick divergence Σ_y max(0, M(x)(y) − L · M(x')(y)). *)
Definition hockey (L : Q) (rx rx' : list Q) : Q :=
  qsum (map (fun '(p, q) => Qmax 0 (p - L * q)) (combine rx rx')).

Definition check_hockey (nb : nat -> nat -> bool) (L delta : Q) (M : fmech) : bool :=
  rows_wf M && forallb row_nonneg (rows M) &&
  forall_neighbours nb (fun rx rx' => Qle_bool (hockey L rx rx') delta) M.

(** Pr[M(x) ∈ S] computed in [Q]. *)
Definition pr_q (M : fmech) (x : nat) (S : nat -> bool) : Q :=
  qsum (map (fun y => if S y then entry M x y else 0%Q) (seq 0 (n_out M))).

(** A witness against (ε, δ)-DP, given an upper bound [U ≥ e^ε]:
    U · Pr[M(x') ∈ S] + δ < Pr[M(x) ∈ S], with row x' non-negative. *)
Definition check_witness (nb : nat -> nat -> bool) (U delta : Q) (M : fmech)
    (x x' : nat) (S : nat -> bool) : bool :=
  (x <? n_in M) && (x' <? n_in M) && nb x x' &&
  forallb (fun y => Qle_bool 0 (entry M x' y)) (seq 0 (n_out M)) &&
  negb (Qle_bool (pr_q M x S) (U * pr_q M x' S + delta)).

(** A finite set of outputs, as an event. *)
Definition in_list (l : list nat) : nat -> bool := fun y => existsb (Nat.eqb y) l.
