(** * Programs as finite mechanisms
    [prog_run p n x] (ProgramDP.v) is the distribution of the output sequences
    of [p] on input vector [x]: the runs of RunsMech.v.  [prog_mech] tabulates
    them on listed inputs and outputs; the theorems carry DP of that table
    ([dp], checked by the reflective checkers) back to DP of the program itself
    over every event on output sequences ([dp_prog], which is [dp_runs] of the
    program's runs), and refutations the other way. *)
From Coq Require Import List ZArith QArith Qreals Reals.
From Obligations.Finite Require Import Mechanism DP.
From Obligations.Program Require Import Dist ProgramSyntax ProgramSem ProgramInputs ProgramDP RunsMech.
Import ListNotations.

Definition prog_mech (p : stmt) (nslots : nat) (inputs : list (list Z))
    (outs : list (list oval)) : fmech :=
  runs_mech (prog_run p nslots) inputs outs.

Lemma dp_prog_runs deltas inputs p nslots eps delta :
  dp_prog deltas inputs p nslots eps delta <-> dp_runs deltas inputs (prog_run p nslots) eps delta.
Proof. reflexivity. Qed.

Theorem dp_prog_of_dp (deltas : list Z) (inputs : list (list Z)) (p : stmt) (nslots : nat)
    (outs : list (list oval)) (eps delta : R) :
  ovals_nodup outs = true ->
  distr (prog_mech p nslots inputs outs) ->
  (forall x, In x inputs -> dnonneg (prog_run p nslots x) /\ mass (prog_run p nslots x) == 1) ->
  dp (nb_vec deltas inputs) (prog_mech p nslots inputs outs) eps delta ->
  dp_prog deltas inputs p nslots eps delta.
Proof. exact (dp_runs_of_dp deltas inputs (prog_run p nslots) outs eps delta). Qed.

Theorem not_dp_prog_of_not_dp (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (eps delta : R) :
  ovals_nodup outs = true ->
  ~ dp (nb_vec deltas inputs) (prog_mech p nslots inputs outs) eps delta ->
  ~ dp_prog deltas inputs p nslots eps delta.
Proof. exact (not_dp_runs_of_not_dp deltas inputs (prog_run p nslots) outs eps delta). Qed.

(** ** The combined checks a generated file runs once *)

Definition check_prog_pointwise (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (L : Q) : bool :=
  check_runs_pointwise deltas inputs (prog_run p nslots) outs L.

Definition check_prog_hockey (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (L dq : Q) : bool :=
  check_runs_hockey deltas inputs (prog_run p nslots) outs L dq.

Theorem dp_prog_of_check_pointwise (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (eps : R) (L : Q) :
  (Q2R L <= exp eps)%R -> check_prog_pointwise deltas inputs p nslots outs L = true ->
  dp_prog deltas inputs p nslots eps 0.
Proof. exact (dp_runs_of_check_pointwise deltas inputs (prog_run p nslots) outs eps L). Qed.

Theorem dp_prog_of_check_hockey_at (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (eps d : R) (L dq : Q) :
  Q2R dq = d -> (Q2R L <= exp eps)%R ->
  check_prog_hockey deltas inputs p nslots outs L dq = true ->
  dp_prog deltas inputs p nslots eps d.
Proof. exact (dp_runs_of_check_hockey_at deltas inputs (prog_run p nslots) outs eps d L dq). Qed.

(** ** A witness against DP of the program (RunsMech.v: [check_runs_witness]) *)

Definition check_prog_witness (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (U dq : Q) (i j : nat) (ev : list (list oval)) : bool :=
  check_runs_witness deltas inputs (prog_run p nslots) U dq i j ev.

Theorem not_dp_prog_of_witness_at (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (eps d : R) (U dq : Q) (i j : nat) (ev : list (list oval)) :
  Q2R dq = d -> (exp eps <= Q2R U)%R ->
  check_prog_witness deltas inputs p nslots U dq i j ev = true ->
  ~ dp_prog deltas inputs p nslots eps d.
Proof. exact (not_dp_runs_of_witness_at deltas inputs (prog_run p nslots) eps d U dq i j ev). Qed.
