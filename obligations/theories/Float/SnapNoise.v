(** * The noise of floating-point snapping, within a relative factor of λ·ln u
    Seed 004, Definition 3: y = fl(λ) ⊗ LN(u).  Relative errors compose
    ([rel_within_compose]); the noise is λ·ln u times a factor within
    [1/((1+η)^2(1+mu)), (1+η)^2(1+mu)] ([noise_rel_within]), mu the
    logarithm's relative error (eta when it is correctly rounded).  The
    addition of the query value that follows has a factor of the sum only, not
    of the noise (SnapOuter.v): when the two cancel its error η·|x + y| is an
    additive term in the bucket's position, which the seed's ID step leaves out
    (docs/binary64.md). *)
From Coq Require Import ZArith Reals Lra.
From Flocq Require Import Core.Core.
From Obligations.Float Require Import RelError.

Section SnapNoise.

Local Open Scope R_scope.

Lemma rel_within_compose : forall m1 m2 x y z, 0 <= m1 -> 0 <= m2 ->
  rel_within m1 x y -> rel_within m2 y z -> rel_within ((1 + m1) * (1 + m2) - 1) x z.
Proof.
  intros m1 m2 x y z H1 H2 (d1 & [Hl1 Hh1] & ->) (d2 & [Hl2 Hh2] & ->).
  exists (d1 * d2). split; [split|ring].
  - replace (1 + ((1 + m1) * (1 + m2) - 1)) with ((1 + m1) * (1 + m2)) by ring.
    rewrite Rinv_mult.
    assert (0 < / (1 + m1)) by (apply Rinv_0_lt_compat; lra).
    assert (0 < / (1 + m2)) by (apply Rinv_0_lt_compat; lra).
    apply Rmult_le_compat; lra.
  - replace (1 + ((1 + m1) * (1 + m2) - 1)) with ((1 + m1) * (1 + m2)) by ring.
    assert (0 < / (1 + m1)) by (apply Rinv_0_lt_compat; lra).
    assert (0 < / (1 + m2)) by (apply Rinv_0_lt_compat; lra).
    apply Rmult_le_compat; lra.
Qed.

Lemma rel_within_mult : forall m1 m2 a b a' b', 0 <= m1 -> 0 <= m2 ->
  rel_within m1 a a' -> rel_within m2 b b' -> rel_within ((1 + m1) * (1 + m2) - 1) (a * b) (a' * b').
Proof.
  intros m1 m2 a b a' b' H1 H2 (d1 & [Hl1 Hh1] & ->) (d2 & [Hl2 Hh2] & ->).
  exists (d1 * d2). split; [split|ring].
  - replace (1 + ((1 + m1) * (1 + m2) - 1)) with ((1 + m1) * (1 + m2)) by ring.
    rewrite Rinv_mult.
    assert (0 < / (1 + m1)) by (apply Rinv_0_lt_compat; lra).
    assert (0 < / (1 + m2)) by (apply Rinv_0_lt_compat; lra).
    apply Rmult_le_compat; lra.
  - replace (1 + ((1 + m1) * (1 + m2) - 1)) with ((1 + m1) * (1 + m2)) by ring.
    assert (0 < / (1 + m1)) by (apply Rinv_0_lt_compat; lra).
    assert (0 < / (1 + m2)) by (apply Rinv_0_lt_compat; lra).
    apply Rmult_le_compat; lra.
Qed.

Variables prec emin : Z.
Hypothesis Hprec : (0 < prec)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.

Notation eta := (eta prec).
Notation rnd := (rnd prec emin choice).
Notation normal_min := (normal_min prec emin).

(** The noise factor: with λ, ln u and their rounded product normal, and the
    logarithm within mu of ln at u, fl(fl(λ)·LN(u)) = λ·ln u·d with d in
    [1/((1+η)^2(1+mu)), (1+η)^2(1+mu)]. *)
Theorem noise_rel_within : forall lam u,
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  rel_within ((1 + eta) * (1 + eta) * (1 + mu) - 1) (lam * ln u) (rnd (rnd lam * lnf u)).
Proof.
  intros lam u Hl Hu Hp.
  assert (He := eta_nonneg prec).
  assert (Hprod : rel_within ((1 + eta) * (1 + mu) - 1) (lam * ln u) (rnd lam * lnf u)).
  { apply rel_within_mult; [exact He|exact Hmu| |exact Hu]. apply rnd_rel_within; assumption. }
  assert (Hr : rel_within eta (rnd lam * lnf u) (rnd (rnd lam * lnf u))) by (apply rnd_rel_within; assumption).
  assert (Hm : 0 <= (1 + eta) * (1 + mu) - 1) by nra.
  assert (Hc := rel_within_compose _ _ _ _ _ Hm He Hprod Hr).
  replace ((1 + eta) * (1 + eta) * (1 + mu) - 1) with ((1 + ((1 + eta) * (1 + mu) - 1)) * (1 + eta) - 1) by ring.
  exact Hc.
Qed.

End SnapNoise.
