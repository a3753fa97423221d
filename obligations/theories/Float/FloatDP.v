(** * DP of floating-point pipelines, from the reflective checks
    The statement is [dp_runs] (RunsMech.v) of [float_run]; the checks run
    [float_run_pre], which reads the logarithm once per sampled u and is the
    same function when the first step is [FLn] ([float_run_pre_eq]). *)
From Coq Require Import List ZArith QArith Qreals Reals.
From Flocq Require Import Core.Core IEEE754.BinarySingleNaN.
From Obligations.Program Require Import Dist ProgramSyntax RunsMech.
From Obligations.Float Require Import FloatPipeline.
Import ListNotations.

Section FloatDP.

Variables prec emax : Z.
Context {Hprec : Prec_gt_0 prec} {Hmax : Prec_lt_emax prec emax}.

Notation float := (binary_float prec emax).

Theorem float_dp_of_check_pointwise (deltas : list Z) (inputs : list (list Z))
    (lnf : float -> float) (sampler : dist float) (steps : list (fstep prec emax))
    (outs : list (list oval)) (eps : R) (L : Q) :
  hd_error steps = Some FLn -> (Q2R L <= exp eps)%R ->
  check_runs_pointwise deltas inputs (float_run_pre prec emax lnf (ln_sampler prec emax lnf sampler) steps)
    outs L = true ->
  dp_runs deltas inputs (float_run prec emax lnf sampler steps) eps 0.
Proof.
  intros Hln HL H. apply (dp_runs_ext _ _ (float_run_pre prec emax lnf (ln_sampler prec emax lnf sampler) steps)).
  - intros x. apply float_run_pre_eq, Hln.
  - exact (dp_runs_of_check_pointwise _ _ _ outs eps L HL H).
Qed.

Theorem float_not_dp_of_witness_at (deltas : list Z) (inputs : list (list Z))
    (lnf : float -> float) (sampler : dist float) (steps : list (fstep prec emax))
    (eps d : R) (U dq : Q) (i j : nat) (ev : list (list oval)) :
  hd_error steps = Some FLn -> Q2R dq = d -> (exp eps <= Q2R U)%R ->
  check_runs_witness deltas inputs (float_run_pre prec emax lnf (ln_sampler prec emax lnf sampler) steps)
    U dq i j ev = true ->
  ~ dp_runs deltas inputs (float_run prec emax lnf sampler steps) eps d.
Proof.
  intros Hln Hd HU H Hdp. apply (not_dp_runs_of_witness_at _ _ _ eps d U dq i j ev Hd HU H).
  apply (dp_runs_ext _ _ (float_run prec emax lnf sampler steps)); [|exact Hdp].
  intros x. symmetry. apply float_run_pre_eq, Hln.
Qed.

End FloatDP.
