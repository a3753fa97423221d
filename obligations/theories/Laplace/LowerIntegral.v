(** * The integral of a nonnegative function as a lower integral

    mathcomp-analysis defines [\int[mu]_x f x] of a nonnegative [f] as the
    supremum of the integrals of the simple functions below [f], for every
    [f], measurable or not.  For a measurable [f] this is the Lebesgue
    integral; for any other [f] it is the lower integral (for an indicator:
    the inner measure).  This file proves the three facts that hold for every
    nonnegative [f] and that the alignment proofs use, so that the events of
    a privacy claim need no measurability hypothesis:
    - monotone in the function ([integral_le_any]);
    - monotone in the measure ([integral_le_measure]);
    - bounded by [c] as soon as every measurable minorant is
      ([integral_le_minorants]). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section lower_integral.
Local Open Scope ereal_scope.
Context d (T : measurableType d) (R : realType).
Implicit Types (mu nu : {measure set T -> \bar R}) (f g : T -> \bar R).

Lemma integral_le_any mu f g : (forall x, 0 <= f x) -> (forall x, f x <= g x) ->
  \int[mu]_x f x <= \int[mu]_x g x.
Proof.
move=> f0 fg; have g0 x : 0 <= g x by exact: le_trans (fg x).
rewrite !ge0_integralTE//; apply: le_ereal_sup => _ [h hf <-]; exists h => //.
by move=> x; exact: le_trans (fg x).
Qed.

Lemma integral_le_measure mu nu f : (forall x, 0 <= f x) ->
  (forall A, measurable A -> mu A <= nu A) -> \int[mu]_x f x <= \int[nu]_x f x.
Proof.
move=> f0 munu; rewrite !ge0_integralTE//; apply: ub_ereal_sup => _ [h hf <-].
apply: le_trans (ereal_sup_ub _); last by exists h.
rewrite !sintegralE; apply: lee_fsum => [|r [t _ <-]]; first exact: fimfunP.
apply: lee_wpmul2l; first by rewrite lee_fin; exact: fun_ge0.
exact/munu/measurable_sfunP.
Qed.

Lemma integral_le_minorants mu f (c : \bar R) : (forall x, 0 <= f x) ->
  (forall h : {nnsfun T >-> R}, (forall x, (h x)%:E <= f x) -> \int[mu]_x (h x)%:E <= c) ->
  \int[mu]_x f x <= c.
Proof.
move=> f0 H; rewrite ge0_integralTE//; apply: ub_ereal_sup => _ [h hf <-].
by have := H h hf; rewrite integral_nnsfun// patch_setT.
Qed.

(** A series with at most one nonzero term. *)
Lemma eseries_single (u : (\bar R)^nat) (m : nat) :
  (forall n, n != m -> u n = 0) -> \sum_(n <oo) u n = u m.
Proof.
move=> u0; apply/cvg_lim => //; apply: cvg_near_cst; exists m.+1 => // n /= mn.
rewrite big_mkord (bigD1 (Ordinal mn)) //= big1 ?adde0// => i /eqP im.
by apply: u0; apply/eqP => im'; apply: im; apply: val_inj.
Qed.

End lower_integral.
