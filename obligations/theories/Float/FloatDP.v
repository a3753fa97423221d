(** * DP of floating-point pipelines, from the reflective checks
    The statement is [dp_runs] (RunsMech.v) of [float_run]; the checks run
    [float_run_pre], which reads the logarithm once per sampled u and is the
    same function when the first step is [FLn] ([float_run_pre_eq]). *)
From Coq Require Import List ZArith QArith Qreals Reals Lra.
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


(** ** An output one input reaches and its neighbour never does: no finite ε

    [check_one_sided] asks, of two neighbouring inputs and a set of outputs,
    that the first put positive probability on it and the second none; then
    no ε whatsoever makes the runs (ε, 0)-DP. *)
Definition check_one_sided (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval))
    (i j : nat) (ev : list (list oval)) : bool :=
  check_runs_witness deltas inputs run 0 0 i j ev &&
  Qeq_bool (dprob (in_outs ev) (run (nth j inputs []))) 0.

Theorem not_dp_runs_of_one_sided (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval))
    (i j : nat) (ev : list (list oval)) :
  check_one_sided deltas inputs run i j ev = true -> forall eps, ~ dp_runs deltas inputs run eps 0.
Proof.
  intros H eps Hdp. unfold check_one_sided, check_runs_witness in H.
  rewrite !andb_true_iff, negb_true_iff in H. destruct H as [[[[[Hi Hj] Hnb] _] Hgt] Hz].
  apply Nat.ltb_lt in Hi, Hj. apply Qeq_bool_eq in Hz.
  specialize (Hdp _ _ (nth_In _ _ Hi) (nth_In _ _ Hj) Hnb (in_outs ev)).
  rewrite (Qeq_eqR _ _ Hz), RMicromega.Q2R_0 in Hdp.
  assert (Hpos : (0 < dprob (in_outs ev) (run (nth i inputs [])))%Q).
  { apply Qnot_le_lt. intros Hle. assert (Hb : Qle_bool (dprob (in_outs ev) (run (nth i inputs []))) (0 * dprob (in_outs ev) (run (nth j inputs [])) + 0) = true)
      by (apply Qle_bool_iff; rewrite Qmult_0_l, Qplus_0_r; exact Hle).
    congruence. }
  apply Qlt_Rlt in Hpos. rewrite RMicromega.Q2R_0 in Hpos. lra.
Qed.

Theorem float_not_dp_of_one_sided (deltas : list Z) (inputs : list (list Z))
    (lnf : float -> float) (sampler : dist float) (steps : list (fstep prec emax))
    (i j : nat) (ev : list (list oval)) :
  hd_error steps = Some FLn ->
  check_one_sided deltas inputs (float_run_pre prec emax lnf (ln_sampler prec emax lnf sampler) steps) i j ev = true ->
  forall eps, ~ dp_runs deltas inputs (float_run prec emax lnf sampler steps) eps 0.
Proof.
  intros Hln H eps Hdp. apply (not_dp_runs_of_one_sided _ _ _ i j ev H eps).
  apply (dp_runs_ext _ _ (float_run prec emax lnf sampler steps)); [|exact Hdp].
  intros x. symmetry. apply float_run_pre_eq, Hln.
Qed.

End FloatDP.
