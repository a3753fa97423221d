(** * Refuting a claim under continuous noise: an event reachable from one input and not from its neighbour

    [not_rdp_of_box]: if the run on [x] lands in the event [S] for every
    tape in a box of positive width at each position ([tbox]), and the run
    on the neighbour [x'] never does, then [rdp_prog] fails for every
    factor: Pr[p(x) ∈ S] is at least the box's probability, positive
    ([lapn_tbox_gt0]: a product of Laplace probabilities of intervals,
    each at least the interval's length times the density at its far end,
    LaplaceBox.v), and Pr[p(x') ∈ S] is 0, so no e^(c·ε) covers the ratio. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Coq Require Import ZArith.
From Obligations.Program Require ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import LowerIntegral Noise LaplaceDensity LaplaceMass LaplaceBox TapeMeasure TapeAlign.
From Obligations.Laplace Require Import RealTape ProgAlign.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section box.
Variable R : realType.
Local Notation noise := (noise R).

Local Unset Implicit Arguments.
(** The tapes whose position [i] lies in [[l_i, h_i]] ([(l_i, h_i)] the [i]-th pair of [bx]). *)
Fixpoint tbox (n : nat) (bx : seq (R * R)) : set (tape R n) :=
  match n return set (tape R n) with
  | O => setT
  | n'.+1 => (`[(head (0, 0) bx).1, (head (0, 0) bx).2]%classic : set noise) `*` tbox n' (behead bx)
  end.
Local Set Implicit Arguments.

Lemma measurable_tbox n bx : measurable (tbox n bx).
Proof.
elim: n bx => [|n IH] bx /=; first exact: measurableT.
by apply: measurableM; [exact: measurable_itv|exact: IH].
Qed.

Local Open Scope ereal_scope.

Lemma lapn_tbox_gt0 (bs : seq {posnum R}) bx :
  all (fun lh : R * R => lh.1 < lh.2)%R bx -> (size bs <= size bx)%nat ->
  0 < lapn bs (tbox (size bs) bx).
Proof.
elim: bs bx => [|b bs IH] bx /=; first by move=> _ _; rewrite lapn_nilE indicE in_setT lte_fin ltr01.
case: bx => [//|[l h] bx] /= /andP[lh hbx] sz.
rewrite /lapn /= product_measure1E; last 2 first.
- exact: measurable_itv.
- exact: measurable_tbox.
apply: mule_gt0; last exact: IH.
apply: lt_le_trans (lapm_box b (ltW lh)).
by rewrite lte_fin mulr_gt0 ?subr_gt0 ?lap_gt0.
Qed.

End box.
Arguments tbox {R} n bx.

Local Notation R := Rdefinitions.R.

Section refute.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R).
Local Open Scope ereal_scope.

Lemma rprog_prob_ge_box (e : {posnum R}) x (S : option (seq roval) -> bool) bx :
  (forall w : tape real_realType (size (scales e p)), tbox _ bx w -> S (rtape_run p nvars x (tl w))) ->
  lapn (scales e p) (tbox _ bx) <= rprog_prob e p nvars x S.
Proof.
move=> Hin; rewrite /rprog_prob /prob.
have -> : lapn (scales e p) (tbox _ bx) = \int[lapn (scales e p)]_w (\1_(tbox _ bx) w)%:E.
  by rewrite integral_indic ?setIT//; exact: measurable_tbox.
apply: integral_le_any => w; first by rewrite lee_fin indicE.
rewrite indicE lee_fin; case: (boolP (w \in tbox _ bx)) => wB.
  by rewrite (Hin w (set_mem wB)).
by rewrite ler_nat; case: (S _).
Qed.

Lemma rprog_prob_never (e : {posnum R}) x (S : option (seq roval) -> bool) :
  (forall v, S (rtape_run p nvars x v) = false) -> rprog_prob e p nvars x S = 0.
Proof.
move=> Hout; rewrite /rprog_prob /prob (eq_integral (cst 0)) ?integral0// => w _.
by rewrite Hout.
Qed.

(** The refutation: an event with a positive box from [x] and impossible from [x']. *)
Theorem not_rdp_of_box (e : {posnum R}) x x' (S : option (seq roval) -> bool) (bx : seq (R * R)) :
  nb x x' ->
  all (fun lh : R * R => lh.1 < lh.2)%R bx -> (TapeSem.size p <= size bx)%nat ->
  (forall w : tape real_realType (size (scales e p)), tbox _ bx w -> S (rtape_run p nvars x (tl w))) ->
  (forall v, S (rtape_run p nvars x' v) = false) ->
  ~ rdp_prog nb p nvars c.
Proof.
move=> nbx hbx sz Hin Hout H; have := H e x x' nbx S.
rewrite (rprog_prob_never _ Hout) mule0 leNgt => /negP; apply.
apply: lt_le_trans (rprog_prob_ge_box Hin).
by apply: lapn_tbox_gt0; rewrite // size_scales.
Qed.

(** The same over the standard library's reals, for generated files: the box as a list of
    pairs [(l, h)] with [l < h], and a tape of the program's size inside it ([rinbox]). *)
Fixpoint rinbox (v : seq R) (bx : seq (R * R)) : Prop :=
  match v, bx with
  | t :: v', lh :: bx' => Rdefinitions.Rle lh.1 t /\ Rdefinitions.Rle t lh.2 /\ rinbox v' bx'
  | _, _ => True
  end.

Lemma rinbox_tl n bx (w : tape real_realType n) : tbox n bx w -> (n <= size bx)%nat -> rinbox (tl w) bx.
Proof.
elim: n bx w => [//|n IH] [//|[l h] bx] [t w] /= [/= tI wB] sz.
move: tI; rewrite /= in_itv /= => /andP[lt th].
by split; [exact/RleP|split; [exact/RleP|exact: IH]].
Qed.

Theorem not_rdp_of_rbox x x' (S : option (seq roval) -> bool) (bx : seq (R * R)) :
  nb x x' -> List.Forall (fun lh => Rdefinitions.Rlt lh.1 lh.2) bx ->
  size bx = TapeSem.size p ->
  (forall v, rinbox v bx -> size v = size bx -> S (rtape_run p nvars x v)) ->
  (forall v, S (rtape_run p nvars x' v) = false) ->
  ~ rdp_prog nb p nvars c.
Proof.
move=> nbx hbx sz Hin Hout.
pose e : {posnum R} := PosNum (@ltr01 real_realType).
apply: (@not_rdp_of_box e x x' S bx) => //; last 2 first.
- by rewrite sz.
- move=> w wB; have szs : size (scales e p) = size bx by rewrite size_scales sz.
  apply: Hin; last by rewrite size_tl szs.
  by apply: rinbox_tl; rewrite // szs.
apply/allP => lh; elim: hbx => [//|[l h] bx' /= /RltP lh' _ IH].
by rewrite inE => /orP[/eqP->//|]; exact: IH.
Qed.

End refute.
