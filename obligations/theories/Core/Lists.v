(** * Generic facts about lists

    Integer ranges as lists, [nth] of [map] and of [flat_map], and boolean
    equality of lists.  Nothing here is about a mechanism. *)
From Coq Require Import List ZArith Arith Lia Bool.
Import ListNotations.

(** ** Integer ranges *)

(** The integers z, z + 1, ..., z + k - 1 (counting in [Z]: no unary [nat] arithmetic). *)
Fixpoint zseq (z : Z) (k : nat) : list Z :=
  match k with
  | O => []
  | S k' => z :: zseq (Z.succ z) k'
  end.

Lemma in_zseq (z : Z) (k : nat) (v : Z) : In v (zseq z k) <-> (z <= v < z + Z.of_nat k)%Z.
Proof.
  revert z. induction k as [|k IH]; intros z; cbn [zseq In].
  - split; [contradiction|lia].
  - rewrite IH. lia.
Qed.

(** ** [nth] of [map] and [flat_map] *)

(** A map over a list, as a map over the indices of its elements. *)
Lemma map_nth_seq {A B} (g : A -> B) (l : list A) (d : A) :
  map g l = map (fun i => g (nth i l d)) (seq 0 (length l)).
Proof.
  induction l as [|a l IH]; [reflexivity|].
  cbn [length seq map nth]. f_equal.
  rewrite IH, <- seq_shift, map_map. reflexivity.
Qed.

Lemma nth_map_seq {A} (g : nat -> A) (n y : nat) (d : A) :
  (y < n)%nat -> nth y (map g (seq 0 n)) d = g y.
Proof.
  intros Hy. rewrite nth_indep with (d' := g 0%nat) by (rewrite map_length, seq_length; exact Hy).
  rewrite map_nth, seq_nth by exact Hy. reflexivity.
Qed.

Lemma nth_map_lt {A B} (f : A -> B) (l : list A) (n : nat) (d : B) (d' : A) :
  (n < length l)%nat -> nth n (map f l) d = f (nth n l d').
Proof.
  intros Hn. rewrite (nth_indep _ d (f d')) by (rewrite map_length; exact Hn).
  apply map_nth.
Qed.

Lemma nth_flat_map_const {A B} (g : A -> list B) (n : nat) (l : list A) (a b : nat) (d : B) (da : A) :
  (forall z, length (g z) = n) -> (b < n)%nat -> (a < length l)%nat ->
  nth (a * n + b) (flat_map g l) d = nth b (g (nth a l da)) d.
Proof.
  intros Hg Hb. revert a. induction l as [|z l IH]; intros a Ha; [cbn in Ha; lia|].
  cbn [flat_map]. destruct a as [|a].
  - cbn. apply app_nth1. rewrite Hg. exact Hb.
  - cbn in Ha |- *. rewrite app_nth2 by (rewrite Hg; lia).
    rewrite Hg. replace (n + a * n + b - n)%nat with (a * n + b)%nat by lia.
    apply IH. lia.
Qed.

Lemma length_flat_map_const {A B} (g : A -> list B) (n : nat) (l : list A) :
  (forall z, length (g z) = n) -> length (flat_map g l) = (length l * n)%nat.
Proof.
  intros Hg. induction l as [|z l IH]; [reflexivity|].
  cbn [flat_map length]. rewrite app_length, Hg, IH. reflexivity.
Qed.

(** ** Boolean equality of lists *)

Fixpoint list_eqb {A} (eqb : A -> A -> bool) (l l' : list A) : bool :=
  match l, l' with
  | [], [] => true
  | a :: l1, a' :: l1' => eqb a a' && list_eqb eqb l1 l1'
  | _, _ => false
  end.

Lemma list_eqb_spec {A} (eqb : A -> A -> bool) :
  (forall a a', eqb a a' = true <-> a = a') ->
  forall l l', list_eqb eqb l l' = true <-> l = l'.
Proof.
  intros Heq. induction l as [|a l IH]; intros [|a' l']; cbn; split; intros H;
    try congruence.
  - apply andb_true_iff in H as [H1 H2]. apply Heq in H1. apply IH in H2. congruence.
  - injection H as -> ->. apply andb_true_iff. split; [apply Heq|apply IH]; reflexivity.
Qed.
