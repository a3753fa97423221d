(** * Composition: running finite mechanisms one after another on the same input

    [fmech_product M1 M2] releases the outputs of [M1] and [M2] on the same
    input, with independent randomness: output [y1 * n_out M2 + y2] has
    probability [M1(x)(y1) · M2(x)(y2)].  [fmech_power M k] is the k-fold
    composition of [M] with itself.  Both are plain definitions: a claim about
    a composition is checked on the product table Coq computes from them. *)
From Coq Require Import List QArith.
From Obligations Require Import Mechanism.
Import ListNotations.

Definition row_product (r1 r2 : list Q) : list Q :=
  flat_map (fun p => map (Qmult p) r2) r1.

Definition fmech_product (M1 M2 : fmech) : fmech :=
  FMech (n_in M1) (n_out M1 * n_out M2)
        (map (fun '(r1, r2) => row_product r1 r2) (combine (rows M1) (rows M2))).

(** The mechanism with one output that always happens: the unit of composition. *)
Definition fmech_unit (n : nat) : fmech := FMech n 1 (repeat [1%Q] n).

Fixpoint fmech_power (M : fmech) (k : nat) : fmech :=
  match k with
  | O => fmech_unit (n_in M)
  | S k' => fmech_product M (fmech_power M k')
  end.
