(** * The soundness of alignment for programs with continuous Laplace noise, proved once

    [rdp_of_aligned] is Coupling/AlignSound.v's [dp_of_aligned] for the
    semantics over the reals: if, for all related inputs, every tape of reals
    and every prophecy, the aligned run ([pexec], RealRelational.v) of the
    program with the shift function [shf o tr] is void or good (not bad, the
    same outputs and, when [ctr], the same branches, at a cost [pacc] of at
    most [C] in units of ε/W), and the tapes on which the aligned run shifts
    by given whole numbers form measurable sets, then the program is
    (C/W·ε)-DP under continuous Laplace noise for every ε > 0 and every
    event on outputs ([rdp_prog]).  The hypotheses on the aligned run are
    word for word those of [dp_of_aligned]; the measurability of the pieces
    is the one more duty over the reals (TapeMeasurable.v).

    The proof: RealAlignRun.v's laws of the aligned tape (moved by whole
    numbers, same outputs, cost, read back) are the hypotheses of
    ProgAlign.v's [rdp_of_shift]. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Coq Require Import ZArith Lia.
From Coq Require Reals.
From Obligations.Program Require ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import TapeMeasure TapeAlign RealTape ProgAlign.
From Obligations.Laplace Require RealRelational.
From Obligations.Laplace Require Import RealAlignRun.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.

Lemma vadd_rvadd (v d : seq R) : vadd v d = rvadd v d.
Proof. by elim: v d => //= x v IH d; rewrite IH; case: d. Qed.

Lemma map_list_map (A B : Type) (f : A -> B) (l : seq A) : map f l = List.map f l.
Proof. by elim: l => //= x l ->. Qed.

Lemma wcost_zcost lay (z : seq Z) : wcost lay z = zcost lay z.
Proof.
elim: lay z => [//|w lay IH] z /=; rewrite IH; congr (_ + _).
have -> : head 0%Z z = List.hd 0%Z z by case: z.
rewrite /TapeSem.rate RdivE; last by rewrite gt_eqF// izr_pos_gt0.
by rewrite !RmultE mul1r [RHS]mulrC mulrA.
Qed.

Section sound.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (W C : Z) (ctr : bool).
Variable shf : seq roval -> seq bool -> nat -> rstate -> rstate -> Z.

Hypothesis Hgeom : TapeSem.geom_only p = true.
Hypothesis HW : (0 < W)%Z.
Hypothesis Hgood : forall x x', nb x x' -> forall (v : nat -> R) o tr,
  good_run C ctr (RealRelational.pexec v (shf o tr) W o tr ctr p 0 0 (RealRelational.pinit nvars x x' v)).
Hypothesis Hmeas : forall (e : {posnum R}) x x' (z : seq Z), nb x x' ->
  measurable [set w : tape real_realType (size (scales e p)) | zshift p nvars W ctr shf x x' (tl w) = z].

Theorem rdp_of_aligned : rdp_prog nb p nvars (IZR C / IZR W).
Proof.
have W0 : IZR W != 0 by apply/eqP => /RIneq.eq_IZR_R0 W0; move: HW; rewrite W0.
apply: (@rdp_of_shift nb p nvars _ (zshift p nvars W ctr shf)).
- move=> x x' v nbx vn; rewrite vadd_rvadd map_list_map.
  by apply: (zshift_out nb p nvars W C ctr shf Hgeom Hgood x x' v nbx); rewrite -seq_size_length.
- move=> x x' v nbx _; rewrite wcost_zcost -RdivE//; apply/RleP.
  exact: (zshift_cost nb p nvars W C ctr shf HW Hgood x x' v nbx).
- move=> x x' v v' nbx vn v'n; rewrite !vadd_rvadd !map_list_map.
  by apply: (zshift_back nb p nvars W C ctr shf Hgood x x' v v' nbx); rewrite -?seq_size_length.
- exact: Hmeas.
Qed.

End sound.

(** For every stream length: the family of programs [p k], one alignment each. *)
Theorem rdp_all_k_of_aligned (nb : nat -> seq Z -> seq Z -> Prop) (p : nat -> ProgramSyntax.stmt)
    (nvars : nat) (W C : Z) (ctr : bool) (shf : nat -> seq roval -> seq bool -> nat -> rstate -> rstate -> Z) :
  (0 < W)%Z ->
  (forall k, TapeSem.geom_only (p k) = true) ->
  (forall k x x', nb k x x' -> forall (v : nat -> R) o tr,
     good_run C ctr (RealRelational.pexec v (shf k o tr) W o tr ctr (p k) 0 0 (RealRelational.pinit nvars x x' v))) ->
  (forall k (e : {posnum R}) x x' (z : seq Z), nb k x x' ->
     measurable [set w : tape real_realType (size (scales e (p k))) | zshift (p k) nvars W ctr (shf k) x x' (tl w) = z]) ->
  rdp_all_k nb p nvars (IZR C / IZR W).
Proof.
move=> HW Hg Hgood Hmeas k.
exact: (@rdp_of_aligned (nb k) (p k) nvars W C ctr (shf k) (Hg k) HW (Hgood k) (Hmeas k)).
Qed.
