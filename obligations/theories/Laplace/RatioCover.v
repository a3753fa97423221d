(** * Refuting a claim by a ratio when the neighbour's tapes lie in a union of products of tails

    RealRatio.v's [not_rdp_of_rratio] bounds Pr[p(x') ∈ S] by one product of tails.  In the
    sparse-vector family the neighbour reaches the event on tapes where each answer's noise
    exceeds the threshold's by a margin ({η_i − η_0 ≥ t}): no single position is far from 0
    on that region, so no product of tails holds it.  Split on one position (the pivot,
    η_0): on each piece [[l, h]] of the pivot's line, η_i ≥ l + t, and the region of that piece
    lies in a product of tails (the pivot's own tail included).  The pieces cover the line, so
    the region lies in the union of [N] products of tails, and its law is at most the sum of
    theirs ([lapn_tunion_le], each by [lapn_tcyl_le]).  When every product's exponent B_j
    exceeds A + c and P(ε) ≥ N, the ratio exceeds e^(c·ε) ([not_rdp_of_rcover]).

    The generated file proves the cover ([rinunion]: the tape in one of the products) leaf by
    leaf of the neighbour's run, comparing the pivot's value with each breakpoint in turn
    (RunCover.v's [rrcover]); the conditions on ε are rationals, closed by [lra]. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Coq Require Import ZArith.
From Coq Require Raxioms.
From Obligations.Program Require ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import LowerIntegral Noise LaplaceDensity LaplaceMass LaplaceBox TapeMeasure TapeAlign.
From Obligations.Laplace Require Import RealTape ProgAlign RealRefute RealRatio.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section union.
Variable R : realType.

Local Unset Implicit Arguments.
(** The tapes in one of the products of tails [cys]. *)
Definition tunion n (cys : seq (seq (rtail R))) : set (tape R n) :=
  foldr (fun cy A => tcyl n cy `|` A) set0 cys.
Local Set Implicit Arguments.

Lemma measurable_tunion n cys : measurable (tunion n cys).
Proof.
elim: cys => [|cy cys IH] /=; first exact: measurable0.
by apply: measurableU; [exact: measurable_tcyl|exact: IH].
Qed.

(** The sum of the products' bounds e^(−B_j). *)
Fixpoint tsum (bs : seq {posnum R}) (cys : seq (seq (rtail R))) : R :=
  match cys with
  | [::] => 0
  | cy :: cys' => expR (- tcost bs cy) + tsum bs cys'
  end.

Local Open Scope ereal_scope.

Lemma measure_setU_le d (T : measurableType d) (mu : {measure set T -> \bar R}) (A B : set T) :
  measurable A -> measurable B -> mu (A `|` B) <= mu A + mu B.
Proof.
move=> mA mB.
have -> : A `|` B = A `|` (B `\` A).
  apply/seteqP; split => z /=.
    by case=> [zA|zB]; [left|have [zA|zA] := pselect (A z); [left|right]].
  by case=> [zA|[zB _]]; [left|right].
rewrite measureU//; last 2 first.
- exact: measurableD.
- by apply/seteqP; split => z // [? []].
apply: lee_add2l; apply: le_measure.
- by rewrite inE; exact: measurableD.
- by rewrite inE.
- by move=> z [].
Qed.

Lemma lapn_tunion_le bs cys : all (all (@tail_ok _)) cys ->
  lapn bs (tunion (size bs) cys) <= (tsum bs cys)%:E.
Proof.
elim: cys => [|cy cys IH] /=; first by rewrite measure0.
move=> /andP[ok oks]; rewrite EFinD.
apply: le_trans (measure_setU_le _ (measurable_tcyl _ _) (measurable_tunion _ _)) _.
by apply: lee_add; [exact: lapn_tcyl_le|exact: IH].
Qed.

Local Close Scope ereal_scope.

(** With every exponent above [a + c·e]: e^(c·e)·Σ e^(−B_j) < N·e^(−a) (at least one product). *)
Lemma tsum_lt bs cys (a ce : R) : cys <> [::] -> all (fun cy => a + ce < tcost bs cy) cys ->
  expR ce * tsum bs cys < (size cys)%:R * expR (- a).
Proof.
have step cy : a + ce < tcost bs cy -> expR ce * expR (- tcost bs cy) < expR (- a).
  by move=> lt; rewrite -expRD ltr_expR ltr_oppr opprB ltr_subr_addl addrC.
have le cys' : all (fun cy => a + ce < tcost bs cy) cys' -> expR ce * tsum bs cys' <= (size cys')%:R * expR (- a).
  elim: cys' => [|cy cys' IH] /=; first by rewrite mulr0 mul0r.
  move=> /andP[lt lts]; rewrite mulrDr -addn1 natrD mulrDl mul1r addrC.
  by apply: ler_add; [exact: IH|exact: ltW (step _ lt)].
case: cys => [//|cy cys] _ /= /andP[lt lts].
rewrite mulrDr -addn1 natrD mulrDl mul1r addrC.
by apply: ler_lt_add; [exact: le|exact: step].
Qed.

End union.

Arguments tunion {R} n cys.

Local Notation R := Rdefinitions.R.

(** ** The refutation, over mathcomp's measures *)
Section refute.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R).
Local Open Scope ereal_scope.

Lemma rprog_prob_le_union (e : {posnum R}) x' (S : option (seq roval) -> bool) cys :
  (forall w : tape real_realType (size (scales e p)), S (rtape_run p nvars x' (tl w)) -> tunion _ cys w) ->
  rprog_prob e p nvars x' S <= lapn (scales e p) (tunion _ cys).
Proof. exact: rprog_prob_le_set (measurable_tunion _ _). Qed.

Theorem not_rdp_of_cover (e : {posnum R}) x x' (S : option (seq roval) -> bool) bx ms cys :
  nb x x' -> (TapeSem.size p <= size bx)%nat -> boxfar bx ms -> all (all (@tail_ok _)) cys ->
  (forall w : tape real_realType (size (scales e p)), tbox _ bx w -> S (rtape_run p nvars x (tl w))) ->
  (forall w : tape real_realType (size (scales e p)), S (rtape_run p nvars x' (tl w)) -> tunion _ cys w) ->
  (expR (c * e%:num) * tsum (scales e p) cys < tboxlow (scales e p) bx ms)%R ->
  ~ rdp_prog nb p nvars c.
Proof.
move=> nbx sz far ok Hin Hout lt H; have := H e x x' nbx S; rewrite leNgt => /negP; apply.
apply: (@le_lt_trans _ _ ((expR (c * e%:num) * tsum (scales e p) cys)%:E)).
  rewrite EFinM; apply: lee_wpmul2l; first by rewrite lee_fin (ltW (expR_gt0 _)).
  exact: le_trans (rprog_prob_le_union Hout) (lapn_tunion_le _ ok).
apply: (@lt_le_trans _ _ (tboxlow (scales e p) bx ms)%:E); first by rewrite lte_fin.
apply: le_trans (rprog_prob_ge_box Hin).
by apply: lapn_tbox_ge; rewrite // size_scales.
Qed.

End refute.

(** ** The same over the standard library's reals, for generated files *)
Section rrefute.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R).

(** A tape in one of the products of tails, as a disjunction (the generated file picks one). *)
Fixpoint rinunion (v : seq R) (cys : seq (seq (rtail R))) : Prop :=
  match cys with
  | [::] => False
  | [:: cy] => rincyl v cy
  | cy :: cys' => rincyl v cy \/ rinunion v cys'
  end.

Lemma tunion_of_rinunion n cys (w : tape real_realType n) : rinunion (tl w) cys -> tunion n cys w.
Proof.
elim: cys => [//|cy cys IH] /=.
case: cys IH => [|cy' cys] IH.
  by move=> h; left; exact: tcyl_of_rincyl.
by case=> [h|h]; [left; exact: tcyl_of_rincyl|right; exact: IH].
Qed.

Let rwtE (e : {posnum R}) w : rwt e%:num w = ((lscale e w)%:num)^-1%R.
Proof.
by rewrite /rwt /= invf_div RdivE// (lt0r_neq0 (izr_pos_gt0 w.1)).
Qed.

(** The refutation: the box from [x]; the neighbour's tapes into the event in the union of the
    products of tails [cys]; one [ε] ([e]) with [N <= P(ε)] and [ε·A + c·ε < ε·B_j] for each
    product (rationals once [e] is a number). *)
Theorem not_rdp_of_rcover x x' (S : option (seq roval) -> bool) bx ms cys (e : R) :
  nb x x' -> size bx = TapeSem.size p -> size ms = size bx ->
  List.Forall2 (fun lh m => Rdefinitions.Rle (Rdefinitions.Ropp m) lh.1 /\ Rdefinitions.Rle lh.1 lh.2 /\
    Rdefinitions.Rle lh.2 m) bx ms ->
  cys <> [::] -> List.Forall (List.Forall rtail_ok) cys ->
  (forall v, rinbox v bx -> size v = size bx -> S (rtape_run p nvars x v)) ->
  (forall v, size v = size bx -> S (rtape_run p nvars x' v) = true -> rinunion v cys) ->
  Rdefinitions.Rlt Rdefinitions.R0 e ->
  Rdefinitions.Rle (Raxioms.INR (size cys)) (rbox_poly e (TapeSem.layout p) bx) ->
  List.Forall (fun cy => Rdefinitions.Rlt (Rdefinitions.Rplus (rbox_exp e (TapeSem.layout p) ms)
    (Rdefinitions.Rmult c e)) (rcyl_exp e (TapeSem.layout p) cy)) cys ->
  ~ rdp_prog nb p nvars c.
Proof.
move=> nbx sz szm far ne ok Hin Hout /RltP e0 /RleP N1 lts.
pose ep : {posnum R} := PosNum e0.
have szl : size (TapeSem.layout p) = size bx by rewrite seq_size_length TapeSem.size_layout sz.
have szs : size (scales ep p) = size bx by rewrite size_scales sz.
apply: (@not_rdp_of_cover nb p nvars c ep x x' S bx ms cys) => //.
- by rewrite sz.
- exact: boxfar_of_forall2.
- elim: ok {ne lts Hout N1} => [//|cy cys' okcy _ IH] /=.
  by rewrite IH andbT; exact: tail_ok_of_forall.
- move=> w wB; apply: Hin; last by rewrite size_tl szs.
  by apply: rinbox_tl; rewrite // szs.
- by move=> w Sw; apply: tunion_of_rinunion; apply: Hout; rewrite // size_tl szs.
rewrite /scales tboxlow_scales; last 3 first.
- by rewrite szl.
- by rewrite szm szl.
- exact: boxfar_of_forall2.
set a := rbox_exp _ _ _.
apply: (@lt_le_trans _ _ ((size cys)%:R * expR (- a))).
  apply: tsum_lt; first exact: ne.
  elim: lts {ne ok Hout N1} => [//|cy cys' lt _ IH] /=.
  by rewrite IH andbT tcost_scales; move/RltP: lt; rewrite RplusE RmultE.
by rewrite ler_wpmul2r ?(ltW (expR_gt0 _)) // -INRE.
Qed.

End rrefute.
