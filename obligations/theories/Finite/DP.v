(** * (ε, δ)-differential privacy of a finite mechanism, over events

    The DP notion of finite mechanisms, the one generated finite files state:
    [M] is (ε, δ)-DP for the neighbour relation [nb] when for all neighbours
    [x], [x'] and every set [S] of outputs,
    Pr[M(x) ∈ S] ≤ e^ε · Pr[M(x') ∈ S] + δ. *)
From Coq Require Import Reals.
From Obligations.Core Require Import Privacy.
From Obligations.Finite Require Import Mechanism.

(** (ε, δ)-DP of the finite mechanism [M] for the neighbours [nb] of its
    inputs [0 .. n_in - 1]: Pr[M(x) ∈ S] ≤ e^ε · Pr[M(x') ∈ S] + δ. *)
Definition dp (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) : Prop :=
  forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  forall S : event, (pr M x S <= exp eps * pr M x' S + delta)%R.

Lemma dp_delta_eq nb M eps d1 d2 : d1 = d2 -> dp nb M eps d1 -> dp nb M eps d2.
Proof. intros ->; trivial. Qed.

Lemma dp_eps_eq nb M e1 e2 delta : e1 = e2 -> dp nb M e1 delta -> dp nb M e2 delta.
Proof. intros ->; trivial. Qed.

(** [dp] is the core notion [dp_with] for the inputs of the table and [pr]. *)
Lemma dp_iff_dp_with (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) :
  dp nb M eps delta <->
  dp_with (fun x x' => (x < n_in M)%nat /\ (x' < n_in M)%nat /\ nb x x' = true) (pr M) eps delta.
Proof.
  split; intros H.
  - intros x x' (Hx & Hx' & Hnb) S. exact (H x x' Hx Hx' Hnb S).
  - intros x x' Hx Hx' Hnb S. exact (H x x' (conj Hx (conj Hx' Hnb)) S).
Qed.
