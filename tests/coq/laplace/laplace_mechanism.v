(** The Laplace mechanism on a count (sensitivity 1) as a program with
    continuous noise, proved 1·ε-DP by [rdp_of_shift]: the tape is moved by
    the difference of the two inputs, a constant (so the pieces of tapes
    are the whole space or empty: measurable). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Coq Require Import ZArith Lia Lra.
From Coq Require Reals.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import TapeMeasure TapeAlign RealTape ProgAlign.

Set Implicit Arguments.
Unset Strict Implicit.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.
Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.

(** y := x + Lap(1/ε); release y.  Slot 0 is y, slot 1 the input. *)
Definition lapmech : stmt := SSeq (SSample 0 (DGeom 1 1 (AVar 1))) (SOut (AVar 0)).

Definition count_nb (x x' : seq Z) : Prop :=
  exists a a', x = [:: a] /\ x' = [:: a'] /\ (Z.abs (a - a') <= 1)%Z.

Definition lapmech_sh (x x' : seq Z) (v : seq R) : seq Z := [:: (head 0 x - head 0 x')%Z].

Theorem lapmech_dp : rdp_prog count_nb lapmech 1 1.
Proof.
apply: (@rdp_of_shift count_nb lapmech 1 1 lapmech_sh).
- move=> x x' v [a [a' [-> [-> _]]]]; case: v => [|v0 [|]] //= _.
  rewrite /rtape_run /lapmech_sh /=; rewrite /rread /rtape /=; do 3 f_equal.
  rewrite -[v0 + _]RplusE RIneq.minus_IZR; lra.
- move=> x x' v [a [a' [-> [-> h]]]] _; rewrite /lapmech_sh /= addr0.
  rewrite (_ : IZR 1 = 1) // divr1 mulr1.
  have -> : `|IZR (a - a')| = IZR (Z.abs (a - a')) by rewrite Rbasic_fun.abs_IZR.
  by apply/RleP; exact: (RIneq.IZR_le _ _ h).
- by [].
- move=> e x x' z _; have [h|h] := pselect (lapmech_sh x x' [::] = z).
    rewrite (_ : [set w | _] = setT) //.
    by apply/seteqP; split => // w _; exact: h.
  rewrite (_ : [set w | _] = set0) //.
  by apply/seteqP; split => // w /= hw; exact: h hw.
Qed.

Local Set Printing Width 100000.
Print Assumptions lapmech_dp.
