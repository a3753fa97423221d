(** * Rational bounds on e^ε

    [exp_exact] rewrites [exp] of sums, negations, integer multiples and
    logarithms of positive constants into a rational expression, for the
    claims whose e^ε is rational (ln 3, −ln ½, 2·ln 3); [exp_taylor_lower]
    and [exp_taylor_upper] bound e^ε for a rational ε (1, 1/2, ...) by the
    Taylor series of ExpTaylor.v; other ε are bounded with [interval] by the
    generated proofs.  The lemmas the tactics rewrite
    with ([exp_Zmult_ln], [exp_ln_Zmult]) are in RealFacts.v. *)
From Coq Require Import Reals Lra QArith Qreals ZArith.
From Obligations.Core Require Import RealFacts ExpTaylor.

(** Rewrite [exp] of sums, negations, integer multiples of logarithms and
    logarithms of positive constants, and unfold [Q2R]. *)
Ltac exp_rewrite :=
  unfold Q2R; cbn [Qnum Qden];
  repeat (rewrite ?exp_plus, ?exp_Ropp, ?exp_0; unfold Rminus);
  repeat (first [ rewrite exp_Zmult_ln by lra
                | rewrite exp_ln_Zmult by lra
                | rewrite exp_ln by lra ]);
  (* x^k of an integer power, as products (and an inverse for k < 0) *)
  cbv [powerRZ pow Pos.to_nat Pos.iter_op Nat.add].

(** Lower bounds [Q2R L <= exp e] when e^ε is rational. *)
Ltac exp_exact := exp_rewrite; lra.

(** Upper bounds [exp e <= Q2R U] when e^ε is rational. *)
Ltac exp_exact_upper :=
  lazymatch goal with
  | |- (exp _ <= _)%R => idtac
  | |- _ => fail "exp_exact_upper: goal is not of the form exp e <= U"
  end;
  exp_rewrite; lra.

(** [Q2R L <= exp e] for e equal to the rational [x] (checked by [lra]): the
    Taylor polynomial of degree [n] at [x/m], to the power [m], is at least [L]. *)
Ltac exp_taylor_lower x m n :=
  lazymatch goal with
  | |- (Q2R _ <= exp ?e)%R =>
      replace e with (Q2R x) by (unfold Q2R; cbn [Qnum Qden]; lra);
      apply (exp_lower_of_check x _ m n); vm_compute; reflexivity
  | |- _ => fail "exp_taylor_lower: goal is not of the form L <= exp e"
  end.

(** [exp e <= Q2R U] for e equal to the rational [x], 0 <= x <= m: the inverse of
    the alternating partial sum of e^(-x/m) of degree 2N+1, to the power [m],
    is at most [U]. *)
Ltac exp_taylor_upper x m n :=
  lazymatch goal with
  | |- (exp ?e <= Q2R _)%R =>
      replace e with (Q2R x) by (unfold Q2R; cbn [Qnum Qden]; lra);
      apply (exp_upper_of_check x _ m n); vm_compute; reflexivity
  | |- _ => fail "exp_taylor_upper: goal is not of the form exp e <= U"
  end.
