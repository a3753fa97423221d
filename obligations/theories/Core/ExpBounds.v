(** * Rational bounds on e^ε

    [exp_exact] rewrites [exp] of sums, negations, integer multiples and
    logarithms of positive constants into a rational expression, for the
    claims whose e^ε is rational (ln 3, −ln ½, 2·ln 3); other ε are bounded
    with [interval] by the generated proofs.  The lemmas the tactics rewrite
    with ([exp_Zmult_ln], [exp_ln_Zmult]) are in RealFacts.v. *)
From Coq Require Import Reals Lra QArith Qreals ZArith.
From Obligations.Core Require Import RealFacts.

(** Rewrite [exp] of sums, negations, integer multiples of logarithms and
    logarithms of positive constants, and unfold [Q2R]. *)
Ltac exp_rewrite :=
  unfold Q2R; simpl;
  repeat (rewrite ?exp_plus, ?exp_Ropp, ?exp_0; unfold Rminus);
  repeat (first [ rewrite exp_Zmult_ln by lra
                | rewrite exp_ln_Zmult by lra
                | rewrite exp_ln by lra ]);
  simpl.

(** Lower bounds [Q2R L <= exp e] when e^ε is rational. *)
Ltac exp_exact := exp_rewrite; lra.

(** Upper bounds [exp e <= Q2R U] when e^ε is rational. *)
Ltac exp_exact_upper :=
  lazymatch goal with
  | |- (exp _ <= _)%R => idtac
  | |- _ => fail "exp_exact_upper: goal is not of the form exp e <= U"
  end;
  exp_rewrite; lra.
