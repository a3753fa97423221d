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

(** ** Symmetry *)

(** The neighbour relation is symmetric (true of nb_all, nb_adjacent, nb_list). *)
Definition symmetric (nb : nat -> nat -> bool) : Prop := forall x x', nb x x' = nb x' x.

Lemma nb_all_symmetric : symmetric nb_all.
Proof. intros x x'. reflexivity. Qed.

Lemma nb_adjacent_symmetric : symmetric nb_adjacent.
Proof. intros x x'. unfold nb_adjacent. apply andb_comm. Qed.

Lemma nb_list_symmetric l : symmetric (nb_list l).
Proof.
  intros x x'. unfold nb_list.
  induction l as [|[a b] l IH]; cbn [existsb]; [reflexivity|].
  now rewrite IH, orb_comm with (b1 := ((a =? x) && (b =? x'))%nat).
Qed.

(** Integer-labelled inputs at distance at most [d]: [|x - x'| <= d] (sensitivity [d]). *)
Definition nb_distance (d : nat) : nat -> nat -> bool :=
  fun x x' => (x <=? x' + d) && (x' <=? x + d).

Lemma nb_distance_symmetric d : symmetric (nb_distance d).
Proof. intros x x'. unfold nb_distance. apply andb_comm. Qed.
