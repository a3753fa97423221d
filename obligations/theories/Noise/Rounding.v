(** * Rounding to a grid

    [round_grid t lam x] is the index [k] of the multiple [k * lam] nearest to
    [x], ties broken upwards ([TiesUp]) or downwards ([TiesDown]).  The
    lemmas here turn "the rounded value is [k]" (or "at least [k]", "at most
    [k]") into bounds on [x]; Laplace.v turns those into bounds on the uniform
    sample [u]: this is how each output of the snapping mechanism becomes an
    interval of [u]. *)
From Coq Require Import Reals Lra Lia ZArith.
From Flocq Require Import Raux.
From Obligations.Core Require Import RealFacts.
Local Open Scope R_scope.

Inductive tie := TiesUp | TiesDown.

Definition round_grid (t : tie) (lam x : R) : Z :=
  match t with
  | TiesUp => Zfloor (x / lam + / 2)
  | TiesDown => Zceil (x / lam - / 2)
  end.

(** ** Grid points *)

Lemma grid_eq_iff lam k k' : 0 < lam -> (lam * IZR k = lam * IZR k' <-> k = k').
Proof.
  intros Hl. split.
  - intros H. apply eq_IZR. apply Rmult_eq_reg_l with lam; [exact H|lra].
  - intros ->. reflexivity.
Qed.

(** ** Preimages of one grid index *)

Lemma round_grid_up_iff lam x k : 0 < lam ->
  (round_grid TiesUp lam x = k <-> (IZR k - / 2) * lam <= x < (IZR k + / 2) * lam).
Proof.
  intros Hl. cbn. split.
  - intros <-. pose proof (Zfloor_lb (x / lam + / 2)). pose proof (Zfloor_ub (x / lam + / 2)).
    split.
    + apply div_le_iff; [exact Hl|lra].
    + apply div_lt_iff_r; [exact Hl|lra].
  - intros [H1 H2]. apply Zfloor_imp. rewrite plus_IZR.
    apply (div_le_iff _ _ _ Hl) in H1. apply (div_lt_iff_r _ _ _ Hl) in H2. lra.
Qed.

Lemma round_grid_down_iff lam x k : 0 < lam ->
  (round_grid TiesDown lam x = k <-> (IZR k - / 2) * lam < x <= (IZR k + / 2) * lam).
Proof.
  intros Hl. cbn. split.
  - intros <-. pose proof (Zceil_lb (x / lam - / 2)). pose proof (Zceil_ub (x / lam - / 2)).
    split.
    + apply div_lt_iff; [exact Hl|lra].
    + apply div_le_iff_r; [exact Hl|lra].
  - intros [H1 H2]. apply Zceil_imp. rewrite minus_IZR.
    apply (div_lt_iff _ _ _ Hl) in H1. apply (div_le_iff_r _ _ _ Hl) in H2. lra.
Qed.

(** ** Preimages of "index at least [k]" and "index at most [k]" (the tails) *)

Lemma round_grid_up_ge_iff lam x k : 0 < lam ->
  ((k <= round_grid TiesUp lam x)%Z <-> (IZR k - / 2) * lam <= x).
Proof.
  intros Hl. cbn. split.
  - intros H. apply IZR_le in H. pose proof (Zfloor_lb (x / lam + / 2)).
    apply div_le_iff; [exact Hl|lra].
  - intros H. apply Zfloor_lub. apply (div_le_iff _ _ _ Hl) in H. lra.
Qed.

Lemma round_grid_up_le_iff lam x k : 0 < lam ->
  ((round_grid TiesUp lam x <= k)%Z <-> x < (IZR k + / 2) * lam).
Proof.
  intros Hl. cbn. split.
  - intros H. apply IZR_le in H. pose proof (Zfloor_ub (x / lam + / 2)).
    apply div_lt_iff_r; [exact Hl|lra].
  - intros H. apply (div_lt_iff_r _ _ _ Hl) in H.
    assert (Hf : (Zfloor (x / lam + / 2) < k + 1)%Z).
    { apply lt_IZR. rewrite plus_IZR. pose proof (Zfloor_lb (x / lam + / 2)). cbn. lra. }
    lia.
Qed.

Lemma round_grid_down_ge_iff lam x k : 0 < lam ->
  ((k <= round_grid TiesDown lam x)%Z <-> (IZR k - / 2) * lam < x).
Proof.
  intros Hl. cbn. split.
  - intros H. apply IZR_le in H. pose proof (Zceil_lb (x / lam - / 2)).
    apply div_lt_iff; [exact Hl|lra].
  - intros H. apply (div_lt_iff _ _ _ Hl) in H.
    assert (Hc : (k - 1 < Zceil (x / lam - / 2))%Z).
    { apply lt_IZR. rewrite minus_IZR. pose proof (Zceil_ub (x / lam - / 2)). cbn. lra. }
    lia.
Qed.

Lemma round_grid_down_le_iff lam x k : 0 < lam ->
  ((round_grid TiesDown lam x <= k)%Z <-> x <= (IZR k + / 2) * lam).
Proof.
  intros Hl. cbn. split.
  - intros H. apply IZR_le in H. pose proof (Zceil_ub (x / lam - / 2)).
    apply div_le_iff_r; [exact Hl|lra].
  - intros H. apply Zceil_glb. apply (div_le_iff_r _ _ _ Hl) in H. lra.
Qed.
