(** The Laplace mechanism on a count as a program with continuous noise, proved 1·ε-DP by
    [rdp_of_aligned]: the hypotheses of the discrete route's [dp_of_aligned] (the aligned run
    with the shift "left input minus right input" is void or good) and the measurable pieces
    (here the shift does not depend on the tape: the pieces are the whole space or empty). *)
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
From Obligations.Laplace Require Import TapeMeasure TapeAlign RealTape ProgAlign RealRelational.
From Obligations.Laplace Require Import RealAlignRun RealAlignSound.

Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.
Local Open Scope ring_scope.

Lemma reqb_refl (r : R) : reqb r r = true.
Proof. unfold reqb. destruct (Reals.RIneq.Req_EM_T r r) as [_|n]; [reflexivity|contradiction (n (erefl r))]. Qed.

(** y := x + Lap(1/ε); release y.  Slot 0 is y, slot 1 the input. *)
Definition lapmech : stmt := SSeq (SSample 0 (DGeom 1 1 (AVar 1))) (SOut (AVar 0)).

Definition count_nb (x x' : seq Z) : Prop :=
  exists a a', x = [:: a] /\ x' = [:: a'] /\ (Z.abs (a - a') <= 1)%Z.

(** The shift: the left input minus the right one (read from the two runs' states). *)
Definition lm_shf (o : seq roval) (tr : seq bool) (site : nat) (L A : rstate) : Z :=
  rfloor (Rdefinitions.Rminus (rread (renv L) 1) (rread (renv A) 1)).

Lemma lm_shf_val a a' o tr : lm_shf o tr 0 (rinit 1 [:: a]) (rinit 1 [:: a']) = (a - a')%Z.
Proof. by rewrite /lm_shf /rinit /rread /= -Reals.RIneq.minus_IZR rfloor_IZR. Qed.

Lemma lm_good x x' : count_nb x x' -> forall (v : nat -> R) o tr,
  good_run 1 false (pexec v (lm_shf o tr) 1 o tr false lapmech 0 0 (pinit 1 x x' v)).
Proof.
move=> [a [a' [-> [-> h]]]] v o tr.
rewrite /lapmech /= lm_shf_val /rread /=.
have E : Rdefinitions.RbaseSymbolsImpl.Rplus (IZR a') (Rdefinitions.RbaseSymbolsImpl.Rplus (v 0%N) (IZR (a - a'))) =
    Rdefinitions.RbaseSymbolsImpl.Rplus (IZR a) (v 0%N).
  by rewrite Reals.RIneq.minus_IZR; lra.
rewrite E /good_run /pemit /psample /=.
rewrite reqb_refl.
case: (out_ok _ _ _) => /=; [right|by left].
split => //; split => //; split => //.
by rewrite lm_shf_val /weight /=; lia.
Qed.

Lemma lm_zshift a a' (v : seq R) : zshift lapmech 1 1 false lm_shf [:: a] [:: a'] v = [:: (a - a')%Z].
Proof.
rewrite /zshift /aligned_run /lapmech /= lm_shf_val /upd /=.
have -> : Rdefinitions.Rminus (Rdefinitions.RbaseSymbolsImpl.Rplus (rtape v 0) (IZR (a - a'))) (rtape v 0)
    = IZR (a - a') by lra.
by rewrite rfloor_IZR.
Qed.

Theorem lapmech_aligned_dp : rdp_prog count_nb lapmech 1 (IZR 1 / IZR 1).
Proof.
apply: (@rdp_of_aligned count_nb lapmech 1 1 1 false lm_shf) => //.
- exact: lm_good.
- move=> e x x' z [a [a' [-> [-> _]]]].
  have [h|h] := pselect ([:: (a - a')%Z] = z).
    rewrite (_ : [set w | _] = setT)%classic //.
    by apply/seteqP; split => // w _; rewrite /= lm_zshift.
  rewrite (_ : [set w | _] = set0)%classic //.
  by apply/seteqP; split => // w /=; rewrite lm_zshift.
Qed.

Local Set Printing Width 100000.
Print Assumptions lapmech_aligned_dp.
