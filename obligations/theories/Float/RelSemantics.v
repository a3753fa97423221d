(** * Seed 004's relative-error semantics, corrected, and its soundness
    Expressions of seed 004 (Figure 1): constants rounded to the format (CONST),
    inputs that are already floats, rounded operations (OP) and a logarithm
    (LN).  [derives e lo hi] is the seed's judgement e ⇓ (lo, hi): the float
    value of e lies in [lo, hi].  The seed's OP rule bounds fl(e1 * e2) by the
    product of the operands' real values, which ignores the operands' own
    errors; here OP takes any interval containing the operation over the
    operands' intervals, then widens it by one rounding.  The ranges where the
    rules hold (normal results, a positive argument of ln) are premises of the
    rules; the logarithm is any function within a relative factor [mu] of ln
    (mu = eta for a correctly rounded ln, [ln_rel_of_correct]). *)
From Coq Require Import ZArith Reals Lra.
From Flocq Require Import Core.Core.
From Obligations.Float Require Import RelError.

Section RelSemantics.

Local Open Scope R_scope.

Variables prec emin : Z.
Hypothesis Hprec : (0 < prec)%Z.
Variable choice : Z -> bool.

Notation eta := (eta prec).
Notation rnd := (rnd prec emin choice).
Notation normal_min := (normal_min prec emin).

Inductive op := OAdd | OSub | OMul | ODiv.

Definition op_eval (o : op) (a b : R) : R :=
  match o with OAdd => a + b | OSub => a - b | OMul => a * b | ODiv => a / b end.

Inductive expr :=
| EConst (r : R)
| EInput (x : R)
| EOp (o : op) (e1 e2 : expr)
| ELn (e : expr).

(** The logarithm the implementation calls, within a factor [1/(1+mu), 1+mu] of
    ln wherever ln's value is normal. *)
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Hypothesis Hlnf : forall v, 0 < v -> normal_min <= Rabs (ln v) -> rel_within mu (ln v) (lnf v).

Fixpoint real_eval (e : expr) : R :=
  match e with
  | EConst r => r
  | EInput x => x
  | EOp o e1 e2 => op_eval o (real_eval e1) (real_eval e2)
  | ELn e => ln (real_eval e)
  end.

Fixpoint float_eval (e : expr) : R :=
  match e with
  | EConst r => rnd r
  | EInput x => x
  | EOp o e1 e2 => rnd (op_eval o (float_eval e1) (float_eval e2))
  | ELn e => lnf (float_eval e)
  end.

(** Every real in [lo, hi] is normal: the interval is on one side of 0, away from it. *)
Definition normal_range (lo hi : R) : Prop := normal_min <= lo \/ hi <= - normal_min.

Inductive derives : expr -> R -> R -> Prop :=
| DConst r : normal_range r r -> derives (EConst r) (widen_lo eta r) (widen_hi eta r)
| DInput x : derives (EInput x) x x
| DOp o e1 e2 l1 h1 l2 h2 lo hi :
    derives e1 l1 h1 -> derives e2 l2 h2 ->
    (forall a b, l1 <= a <= h1 -> l2 <= b <= h2 -> lo <= op_eval o a b <= hi) ->
    normal_range lo hi ->
    derives (EOp o e1 e2) (widen_lo eta lo) (widen_hi eta hi)
| DLn e l h :
    derives e l h -> 0 < l -> normal_range (ln l) (ln h) ->
    derives (ELn e) (widen_lo mu (ln l)) (widen_hi mu (ln h)).

Lemma normal_range_abs : forall lo hi y, normal_range lo hi -> lo <= y <= hi -> normal_min <= Rabs y.
Proof.
  intros lo hi y [H|H] Hy; assert (0 < normal_min) by apply bpow_gt_0.
  - rewrite Rabs_right; lra.
  - rewrite Rabs_left; lra.
Qed.

Lemma ln_le_mono : forall a b, 0 < a -> a <= b -> ln a <= ln b.
Proof.
  intros a b Ha [Hab| ->]; [left; apply ln_increasing; assumption|right; reflexivity].
Qed.

(** Soundness (seed 004, Theorem 1): the float value lies in the derived interval. *)
Theorem derives_sound : forall e lo hi, derives e lo hi -> lo <= float_eval e <= hi.
Proof.
  assert (He := eta_nonneg prec).
  induction 1 as [r Hr|x|o e1 e2 l1 h1 l2 h2 lo hi D1 IH1 D2 IH2 Hbox Hn|e l h D IH Hl Hn]; cbn.
  - apply (rel_within_widen eta r r r); [exact He|lra|].
    apply rnd_rel_within; [exact Hprec|]. apply (normal_range_abs r r); [exact Hr|lra].
  - lra.
  - assert (Hy := Hbox _ _ IH1 IH2).
    apply (rel_within_widen eta lo hi (op_eval o (float_eval e1) (float_eval e2))); [exact He|exact Hy|].
    apply rnd_rel_within; [exact Hprec|]. exact (normal_range_abs lo hi _ Hn Hy).
  - assert (Hpos : 0 < float_eval e) by lra.
    assert (Hy : ln l <= ln (float_eval e) <= ln h).
    { split; apply ln_le_mono; lra. }
    apply (rel_within_widen mu (ln l) (ln h) (ln (float_eval e))); [exact Hmu|exact Hy|].
    apply Hlnf; [exact Hpos|]. exact (normal_range_abs _ _ _ Hn Hy).
Qed.

(** The real value lies in the same interval (the rules only widen). *)
Theorem derives_sound_real : forall e lo hi, derives e lo hi -> lo <= real_eval e <= hi.
Proof.
  assert (He := eta_nonneg prec).
  induction 1 as [r Hr|x|o e1 e2 l1 h1 l2 h2 lo hi D1 IH1 D2 IH2 Hbox Hn|e l h D IH Hl Hn]; cbn.
  - split; [apply widen_lo_le|apply widen_hi_ge]; exact He.
  - lra.
  - assert (Hy := Hbox _ _ IH1 IH2). split.
    + apply Rle_trans with lo; [apply widen_lo_le; exact He|lra].
    + apply Rle_trans with hi; [lra|apply widen_hi_ge; exact He].
  - assert (Hy : ln l <= ln (real_eval e) <= ln h).
    { split; apply ln_le_mono; lra. }
    split.
    + apply Rle_trans with (ln l); [apply widen_lo_le; exact Hmu|lra].
    + apply Rle_trans with (ln h); [lra|apply widen_hi_ge; exact Hmu].
Qed.

End RelSemantics.

(** A correctly rounded logarithm satisfies the LN rule's hypothesis with mu = eta. *)
Lemma ln_rel_of_correct (prec emin : Z) (choice : Z -> bool) (lnf : R -> R) :
  (0 < prec)%Z -> (forall v, (0 < v)%R -> lnf v = rnd prec emin choice (ln v)) ->
  forall v, (0 < v)%R -> (normal_min prec emin <= Rabs (ln v))%R -> rel_within (eta prec) (ln v) (lnf v).
Proof.
  intros Hp Hc v Hv Hn. rewrite Hc by exact Hv. apply rnd_rel_within; assumption.
Qed.
