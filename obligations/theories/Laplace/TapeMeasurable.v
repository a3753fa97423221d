(** * Measurable sets of tapes: what programs compute from noise values

    The pieces of an alignment (ProgAlign.v's [sh_meas]) are sets of tapes
    cut out by what a program computes: sums and constant multiples of noise
    values and inputs, compared with each other, combined by the boolean
    operations of conditions.  This file gives the lemmas that make such a
    set measurable without a hand proof:
    - the [i]-th value of a tape is a measurable function ([measurable_coord]);
    - sums, differences, products, constants of measurable functions are
      (mathcomp-analysis: [measurable_funD], [measurable_funB],
      [measurable_funM], [measurable_fun_cst]);
    - a comparison [f w <= g w], [f w < g w] or [f w = g w] of measurable
      functions is a measurable set ([measurable_le], [measurable_lt],
      [measurable_eqr]);
    - conditions combine by intersection, union and complement
      ([measurableI], [measurableU], [measurableC]), and a set defined by
      cases on a measurable condition is measurable ([measurable_cases]). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral.
From Obligations.Laplace Require Import Noise TapeMeasure.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section tape_measurable.
Variable R : realType.

(** The value at position [i] of a tape (0 beyond its end). *)
Fixpoint coord (n : nat) (i : nat) : tape R n -> R :=
  match n return tape R n -> R with
  | O => fun _ => 0
  | n'.+1 => fun w => if i is i'.+1 then coord i' w.2 else w.1
  end.

Lemma coordE n i (w : tape R n) : coord i w = nth 0 (tl w) i.
Proof.
elim: n i w => [|n IH] i /=; first by rewrite nth_nil.
by case: i => [|i] [x w] //=; rewrite IH.
Qed.

Lemma measurable_coord n i : measurable_fun setT (@coord n i).
Proof.
elim: n i => [|n IH] i /=; first exact: measurable_fun_cst.
case: i => [|i].
  exact: (@measurable_fst _ _ (noise R) (tape R n)).
exact: (measurable_fun_comp (IH i) (@measurable_snd _ _ (noise R) (tape R n))).
Qed.

Section compare.
Context n (f g : tape R n -> R).
Hypotheses (mf : measurable_fun setT f) (mg : measurable_fun setT g).

Lemma measurable_le : measurable [set w | f w <= g w].
Proof.
have := measurable_funB mg mf measurableT (@measurable_itv R `[0, +oo[).
rewrite setTI; congr measurable; apply/seteqP; split => w /=;
  by rewrite in_itv /= andbT subr_ge0.
Qed.

Lemma measurable_lt : measurable [set w | f w < g w].
Proof.
have := measurable_funB mg mf measurableT (@measurable_itv R `]0, +oo[).
rewrite setTI; congr measurable; apply/seteqP; split => w /=;
  by rewrite in_itv /= andbT subr_gt0.
Qed.

End compare.

Lemma measurable_eqr n (f g : tape R n -> R) : measurable_fun setT f -> measurable_fun setT g ->
  measurable [set w | f w = g w].
Proof.
move=> mf mg; rewrite (_ : [set w | f w = g w] = [set w | f w <= g w] `&` [set w | g w <= f w]).
  by apply: measurableI; [exact: measurable_le|exact: measurable_le].
apply/seteqP; split => w /=; first by move=> ->.
by move=> [fg gf]; apply/eqP; rewrite eq_le fg gf.
Qed.

(** A boolean condition measurable as a set, and the sets it selects between. *)
Lemma measurable_cases n (b : tape R n -> bool) (A B : set (tape R n)) :
  measurable [set w | b w] -> measurable A -> measurable B ->
  measurable [set w | if b w then A w else B w].
Proof.
move=> mb mA mB.
rewrite (_ : [set w | _] = ([set w | b w] `&` A) `|` (~` [set w | b w] `&` B)).
  by apply: measurableU; apply: measurableI => //; exact: measurableC.
apply/seteqP; split => w /=; first by case: (b w) => h; [left|right].
by case: (b w) => -[[]|[]].
Qed.

Lemma measurable_bool n (b : tape R n -> bool) :
  measurable [set w | b w] -> measurable [set w | ~~ b w].
Proof.
move=> mb; rewrite (_ : [set w | ~~ b w] = ~` [set w | b w]); first exact: measurableC.
by apply/seteqP; split => w /=; case: (b w).
Qed.

End tape_measurable.
