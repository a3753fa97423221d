(** * Bounds on the Laplace probability of a box and of a tail, for refutations

    A refutation under continuous noise shows an event of positive
    probability from one input and of small (or zero) probability from the
    neighbour.  [lapm_box]: the probability of [[x, y]] is at least its
    length times the density at the end farther from 0; [lapm_box_le]: at
    most its length times the density at the end nearer to 0 when the box
    lies on one side of 0 (here [0 <= x]); [lapm_tail]: the probability of
    [[t, +oo[] is at most e^{-t/b} for [t >= 0] (the density decays by that
    factor over [t], and the mass is at most 1). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Obligations.Laplace Require Import LowerIntegral Noise LaplaceDensity LaplaceMass.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section box.
Variable R : realType.
Variable b : {posnum R}.
Local Notation noise := (noise R).

Lemma norm_le_max (x y t : R) : x <= t -> t <= y -> `|t| <= maxr `|x| `|y|.
Proof.
move=> xt ty; rewrite le_maxr; case: (lerP 0 t) => t0.
  by apply/orP; right; rewrite ger0_norm// (le_trans ty (ler_norm y)).
apply/orP; left; rewrite ltr0_norm// -normrN (le_trans _ (ler_norm (- x)))//.
by rewrite ler_opp2.
Qed.

(** The density decreases away from 0. *)
Lemma lap_le_norm (s t : R) : `|s| <= `|t| -> lap b t <= lap b s.
Proof.
move=> st; rewrite /lap ler_wpmul2l ?invr_ge0 ?mulr_ge0// ler_expR ler_opp2.
by rewrite ler_pmul2r ?invr_gt0.
Qed.

Let leb_itv (x y : R) : x <= y -> leb (`[x, y]%classic : set noise) = (y - x)%:E.
Proof.
move=> xy; rewrite /leb lebesgue_measure_itv hlength_itv /=.
case: ltP => [_|]; first by rewrite -EFinD.
rewrite lee_fin => yx; have -> : y = x by apply/eqP; rewrite eq_le yx xy.
by rewrite subrr.
Qed.

Local Open Scope ereal_scope.

Let int_cst_indic (c : R) (A : set noise) : (0 <= c)%R -> measurable A ->
  \int[leb]_t ((c * \1_A t)%:E) = c%:E * leb A.
Proof.
move=> c0 mA; rewrite (@integralM_indic _ _ _ leb setT measurableT (fun _ => A) c) //; last first.
  by move=> c0'; move: (lt_le_trans c0' c0); rewrite ltxx.
by rewrite integral_indic// setIT.
Qed.

Lemma lapm_box (x y : R) : (x <= y)%R ->
  ((y - x) * lap b (maxr `|x| `|y|))%:E <= lapm b (`[x, y]%classic : set noise).
Proof.
move=> xy; set c := lap b _; set A : set noise := `[x, y]%classic.
have mA : measurable A by exact: measurable_itv.
rewrite lapmE; apply: (@le_trans _ _ (\int[leb]_t ((c * \1_A t)%:E))).
  by rewrite int_cst_indic ?lap_ge0// leb_itv// -EFinM mulrC.
apply: integral_le_any => t; first by rewrite lee_fin mulr_ge0 ?lap_ge0.
rewrite -EFinM lee_fin indicE; case: (boolP (t \in A)) => tA; last by rewrite !mulr0.
rewrite !mulr1; apply: lap_le_norm; rewrite (@ger0_norm _ (maxr _ _)); last by rewrite le_maxr normr_ge0.
by move: tA; rewrite /A inE /= in_itv /= => /andP[xt ty]; exact: norm_le_max.
Qed.

Lemma lapm_box_le (x y : R) : (0 <= x)%R -> (x <= y)%R ->
  lapm b (`[x, y]%classic : set noise) <= ((y - x) * lap b x)%:E.
Proof.
move=> x0 xy; set A : set noise := `[x, y]%classic.
have mA : measurable A by exact: measurable_itv.
rewrite lapmE; apply: (@le_trans _ _ (\int[leb]_t ((lap b x * \1_A t)%:E))); last first.
  by rewrite int_cst_indic ?lap_ge0// leb_itv// -EFinM mulrC.
apply: integral_le_any => t; first by rewrite mule_ge0// lee_fin ?lap_ge0.
rewrite -EFinM lee_fin indicE; case: (boolP (t \in A)) => tA; last by rewrite !mulr0.
rewrite !mulr1; apply: lap_le_norm.
move: tA; rewrite /A inE /= in_itv /= => /andP[xt _].
by rewrite !ger0_norm// (le_trans x0 xt).
Qed.

Lemma lap_decay (u t : R) : (0 <= u)%R -> (0 <= t)%R -> lap b (u + t) = (expR (- (t / b%:num)) * lap b u)%R.
Proof.
move=> u0 t0; rewrite /lap mulrCA -expRD ger0_norm ?addr_ge0// ger0_norm//.
by congr (_ * expR _)%R; rewrite mulrDl opprD addrC.
Qed.

Lemma lapm_tail (t : R) : (0 <= t)%R ->
  lapm b (`[t, +oo[%classic : set noise) <= (expR (- (t / b%:num)))%:E.
Proof.
move=> t0; set A : set noise := `[t, +oo[%classic; set e := expR (- (t / b%:num)).
have mA : measurable A by exact: measurable_itv.
have mlap (B : set noise) : measurable B -> measurable_fun setT (fun x : noise => (lap b x)%:E * (\1_B x)%:E).
  move=> mB; apply: emeasurable_funM; apply/EFin_measurable_fun => //; first exact: measurable_lap.
  exact: measurable_fun_indic.
rewrite lapmE -(integral_tr t (mlap A mA)) => [|x]; last by rewrite mule_ge0// lee_fin ?lap_ge0.
apply: (@le_trans _ _ (\int[leb]_u (e%:E * ((lap b u)%:E * (\1_setT u)%:E)))).
  apply: integral_le_any => u; first by rewrite mule_ge0// lee_fin ?lap_ge0.
  rewrite /tr !indicE in_setT mule1; case: (boolP ((u + t)%R \in A)) => uA; last first.
    have -> : ((false%:R)%:E : \bar R) = 0 by [].
    by rewrite mule0 mule_ge0// lee_fin ?lap_ge0// (ltW (expR_gt0 _)).
  have u0 : (0 <= u)%R.
    by move: uA; rewrite /A inE /= in_itv /= andbT ler_addr.
  have -> : ((true%:R)%:E : \bar R) = 1 by [].
  by rewrite mule1 lap_decay// EFinM.
rewrite ge0_integralM//; last 3 first.
- exact: mlap measurableT.
- by move=> u _; rewrite mule_ge0// lee_fin ?lap_ge0.
- by rewrite lee_fin (ltW (expR_gt0 _)).
by rewrite -lapmE lapm_setT mule1.
Qed.

End box.
