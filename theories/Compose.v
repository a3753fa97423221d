(** * Composition: running finite mechanisms one after another on the same input

    [fmech_product M1 M2] releases the outputs of [M1] and [M2] on the same
    input, with independent randomness: output [y1 * n_out M2 + y2] has
    probability [M1(x)(y1) · M2(x)(y2)].  [fmech_power M k] is the k-fold
    composition of [M] with itself.  Both are plain definitions: a claim about
    a composition is checked on the product table Coq computes from them. *)
From Coq Require Import List QArith.
From Obligations Require Import Sums.
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

(** * CW-privacy (seed 001, §1.2): the input is drawn from a prior

    [fmech_cw M f f'] has two inputs: 0, the database drawn from the prior
    [f], and 1, its scrubbed version drawn from [f']; row [i] is the mixture
    [Σ_x f(x) · M(x)].  CW-privacy of [M] is DP of this mechanism for the
    neighbours 0 ~ 1. *)
Definition mix_row (M : fmech) (f : list Q) : list Q :=
  map (fun y => fold_right Qplus 0%Q
                  (map (fun '(fx, r) => fx * nth y r 0%Q) (combine f (rows M))))
      (seq 0 (n_out M)).

Definition fmech_cw (M : fmech) (f f' : list Q) : fmech :=
  FMech 2 (n_out M) [mix_row M f; mix_row M f'].
