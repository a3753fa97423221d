(** * Rational bounds on e^ε

    [exp_exact] rewrites [exp] of sums, negations, integer multiples and
    logarithms of positive constants into a rational expression, for the
    claims whose e^ε is rational (ln 3, −ln ½, 2·ln 3); other ε are bounded
    with [interval] by the generated proofs. *)
From Coq Require Import Reals Lra QArith Qreals ZArith.

Lemma exp_pos_mult_ln (p : positive) (x : R) :
  (0 < x)%R -> exp (IZR (Zpos p) * ln x) = (x ^ Pos.to_nat p)%R.
Proof.
  intros Hx.
  replace (IZR (Zpos p)) with (INR (Pos.to_nat p))
    by (rewrite INR_IZR_INZ, positive_nat_Z; reflexivity).
  apply Rpower_pow, Hx.
Qed.

Lemma exp_Zmult_ln (k : Z) (x : R) : (0 < x)%R -> exp (IZR k * ln x) = powerRZ x k.
Proof.
  intros Hx. destruct k as [|p|p]; simpl powerRZ.
  - rewrite Rmult_0_l. apply exp_0.
  - apply exp_pos_mult_ln, Hx.
  - rewrite <- Pos2Z.opp_pos, opp_IZR, Ropp_mult_distr_l_reverse, exp_Ropp.
    rewrite exp_pos_mult_ln by exact Hx. reflexivity.
Qed.

Lemma exp_ln_Zmult (k : Z) (x : R) : (0 < x)%R -> exp (ln x * IZR k) = powerRZ x k.
Proof. intros Hx. rewrite Rmult_comm. apply exp_Zmult_ln, Hx. Qed.

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
