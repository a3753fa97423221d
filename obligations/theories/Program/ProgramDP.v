(** * Differential privacy of a program

    The DP notion of programs, the one generated program files state:
    [prog_run p n x] is the distribution of the output sequences of [p] on the
    input vector [x], and [dp_prog] bounds the probability of every event on
    output sequences for neighbouring declared inputs.  (ProgramMech.v proves
    it from a finite table of the runs.) *)
From Coq Require Import List ZArith QArith Qreals Reals.
From Obligations.Core Require Import Privacy.
From Obligations.Program Require Import Dist ProgramSyntax ProgramSem ProgramInputs.
Import ListNotations.

(** ** Running a program on an input vector *)

(** The input vector, padded with zeros to [nslots] slots. *)
Definition init_state (nslots : nat) (x : list Z) : state :=
  mkstate (x ++ repeat 0%Z (nslots - length x)) [] false.

Definition prog_run (p : stmt) (nslots : nat) (x : list Z) : dist (list oval) :=
  compact ovals_eqb (dmap out (exec p (init_state nslots x))).

(** ** DP of the program *)

(** (ε, δ)-DP of the program [p] on the declared [inputs], for the
    neighbouring input vectors ([vec_nb] with the sensitivities [deltas]) and
    every event [E] on output sequences:
    Pr[p(x) ∈ E] ≤ e^ε · Pr[p(x') ∈ E] + δ. *)
Definition dp_prog (deltas : list Z) (inputs : list (list Z)) (p : stmt) (nslots : nat)
    (eps delta : R) : Prop :=
  forall x x', In x inputs -> In x' inputs -> vec_nb deltas x x' = true ->
  forall E : list oval -> bool,
  (Q2R (dprob E (prog_run p nslots x)) <=
     exp eps * Q2R (dprob E (prog_run p nslots x')) + delta)%R.

(** [dp_prog] is the core notion [dp_with] for the declared inputs and the
    probabilities of the runs. *)
Lemma dp_prog_iff_dp_with (deltas : list Z) (inputs : list (list Z)) (p : stmt) (nslots : nat)
    (eps delta : R) :
  dp_prog deltas inputs p nslots eps delta <->
  dp_with (fun x x' => In x inputs /\ In x' inputs /\ vec_nb deltas x x' = true)
          (fun x E => Q2R (dprob E (prog_run p nslots x))) eps delta.
Proof.
  split; intros H.
  - intros x x' (Hx & Hx' & Hnb) E. exact (H x x' Hx Hx' Hnb E).
  - intros x x' Hx Hx' Hnb E. exact (H x x' (conj Hx (conj Hx' Hnb)) E).
Qed.
