(** * Neighbour relations on the inputs [0 .. n_in - 1] *)
From Coq Require Import List Arith Bool.
Import ListNotations.

(** Every two inputs are neighbours. *)
Definition nb_all : nat -> nat -> bool := fun _ _ => true.

(** Inputs adjacent in input order: [|x - x'| <= 1]. *)
Definition nb_adjacent : nat -> nat -> bool :=
  fun x x' => (x <=? S x') && (x' <=? S x).

(** An explicit list of unordered pairs: [x ~ x'] iff [(x, x')] or [(x', x)] is listed. *)
Definition nb_list (l : list (nat * nat)) : nat -> nat -> bool :=
  fun x x' => existsb (fun '(a, b) => ((a =? x) && (b =? x')) || ((a =? x') && (b =? x))) l.
