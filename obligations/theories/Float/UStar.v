(** * Mironov's U*: every float in (0, 1), weighted by the reals it stands for
    A uniform real in (0, 1) rounded down to the format: the float [u] stands
    for the interval [u, Bsucc u), the smallest positive float also for the
    reals below it (which rounding down would send to 0, whose logarithm is
    −∞).  The sampler walks the floats from the smallest positive one by
    [Bsucc] while they are below 1; each weight is the length of its interval,
    a dyadic rational read from the floats themselves ([fq], LnTable.v), so the
    weights add up to 1 (the checkers verify every run's mass is 1). *)
From Coq Require Import List ZArith QArith.
From Flocq Require Import Core.Core IEEE754.BinarySingleNaN.
From Obligations.Program Require Import Dist.
From Obligations.Float Require Import FloatPipeline LnTable.
Import ListNotations.

Local Open Scope Q_scope.

Section UStar.

Variables prec emax : Z.
Context {Hprec : Prec_gt_0 prec} {Hmax : Prec_lt_emax prec emax}.

Notation float := (binary_float prec emax).

(** [u] and the floats after it below 1, at most [n] of them; [lo] is where
    [u]'s interval starts. *)
Fixpoint ustar_walk (n : nat) (lo : Q) (u : float) : dist float :=
  match n with
  | O => []
  | S n' =>
      if Bltb u (fl_dyadic prec emax 1 0) then
        let hi := fq prec emax (Bsucc u) in
        (u, Qred (hi - lo)) :: ustar_walk n' hi (Bsucc u)
      else []
  end.

(** Enough steps for every float in (0, 1): 2^(prec - 1) per binade, from the
    subnormals' exponent [emin] up to 1. *)
Definition ustar_fuel : nat :=
  Z.to_nat (Z.pow 2 (prec - 1) * (- SpecFloat.emin prec emax + 1)).

Definition ustar_sampler : dist float :=
  ustar_walk ustar_fuel 0 (Bsucc (B754_zero false)).

End UStar.
