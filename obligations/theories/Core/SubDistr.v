(** * Sub-distributions on a finite support

    A discrete sub-distribution is a function [mu : B -> R] read on a list
    [univ] that covers its support (duplicate-free where a lemma says so);
    events are boolean predicates.  [pr_on univ mu E] is Pr[mu ∈ E] and
    [subdistr_on univ mu] says that [mu] is a sub-distribution: non-negative,
    total mass at most 1.  (Finite mechanisms, whose rows are such
    sub-distributions on the outputs [0 .. n_out - 1], have their own [pr] and
    [subdistr] in Finite/Mechanism.v.) *)
From Coq Require Import Reals Lra List.
From Obligations.Core Require Import Sums.
Import ListNotations.
Local Open Scope R_scope.

(** Pr[mu ∈ E], the support read on [univ]. *)
Definition pr_on {B} (univ : list B) (mu : B -> R) (E : B -> bool) : R :=
  rsum (map (fun a => if E a then mu a else 0) univ).

Definition subdistr_on {B} (univ : list B) (mu : B -> R) : Prop :=
  (forall a, In a univ -> 0 <= mu a) /\ pr_on univ mu (fun _ => true) <= 1.

(** On pairs, the probability of an event is a double sum. *)
Lemma pr_on_prod {A : Type} (mu : A * A -> R) (E : A * A -> bool) (univ : list A) :
  pr_on (list_prod univ univ) mu E =
  rsum (map (fun a => rsum (map (fun b => if E (a, b) then mu (a, b) else 0) univ)) univ).
Proof. unfold pr_on. rewrite rsum_prod. reflexivity. Qed.
