(** * (ε, δ)-differential privacy of a finite mechanism, over events

    [M] is (ε, δ)-DP for the neighbour relation [nb] when for all neighbours
    [x], [x'] and every set [S] of outputs,
    Pr[M(x) ∈ S] ≤ e^ε · Pr[M(x') ∈ S] + δ. *)
From Coq Require Import Reals.
From Obligations.Finite Require Import Mechanism.
Definition dp (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) : Prop :=
  forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  forall S : event, (pr M x S <= exp eps * pr M x' S + delta)%R.

Lemma dp_delta_eq nb M eps d1 d2 : d1 = d2 -> dp nb M eps d1 -> dp nb M eps d2.
Proof. intros ->; trivial. Qed.

Lemma dp_eps_eq nb M e1 e2 delta : e1 = e2 -> dp nb M e1 delta -> dp nb M e2 delta.
Proof. intros ->; trivial. Qed.
