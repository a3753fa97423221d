(** * The Laplace distribution over the reals

    [lap b x = exp(-|x|/b) / (2b)] for a scale [b > 0], and [lapm b] the
    measure with this density on the noise carrier.  A shift of the noise by
    [a] changes the density by a factor at most [e^{|a|/b}]
    ([lap_shift]); hence the measure of a set and the integral of a
    measurable function change by at most that factor ([lapm_shift],
    [lapm_shift_fun]).  That its mass is 1 is LaplaceMass.v. *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp.
From Obligations.Laplace Require Import LowerIntegral Noise.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section laplace.
Variable R : realType.
Variable b : {posnum R}.
Local Notation noise := (noise R).

Definition lap (x : R) : R := (2 * b%:num)^-1 * expR (- (`|x| / b%:num)).

Lemma lap_gt0 x : 0 < lap x.
Proof. by rewrite /lap mulr_gt0 ?expR_gt0// invr_gt0 mulr_gt0. Qed.

Lemma lap_ge0 x : 0 <= lap x.
Proof. exact/ltW/lap_gt0. Qed.

Lemma lap_shift (x a : R) : lap x <= expR (`|a| / b%:num) * lap (x + a).
Proof.
rewrite /lap mulrCA ler_pmul2l ?invr_gt0 ?mulr_gt0// -expRD ler_expR.
rewrite -mulNr -mulrBl ler_pmul2r ?invr_gt0// ler_oppl opprB ler_subl_addr.
exact: ler_norm_add.
Qed.

Lemma measurable_lap : measurable_fun setT (lap : noise -> R).
Proof.
apply: (@measurable_funrM _ noise R setT (fun x => expR (- (`|x| / b%:num)))).
apply: (measurable_fun_comp (continuous_measurable_fun (@continuous_expR R))).
apply: (@measurable_funN _ noise R setT (fun x => `|x| / b%:num)).
apply: (@measurable_funM _ noise R setT (fun x => `|x|) (cst b%:num^-1)); last exact: measurable_fun_cst.
exact: measurable_fun_normr.
Qed.

Definition lapm : {measure set noise -> \bar R} :=
  [the measure _ _ of dmeasure [the measure _ _ of @leb R] measurable_lap lap_ge0].

Lemma lapmE (A : set noise) : lapm A = (\int[leb]_x ((lap x)%:E * (\1_A x)%:E))%E.
Proof. by []. Qed.

Local Open Scope ereal_scope.

(** Moving a set by [a] changes its probability by at most [e^{|a|/b}]. *)
Lemma lapm_shift (A : set noise) (a : R) : measurable A ->
  lapm A <= (expR (`|a| / b%:num))%:E * lapm (tr (- a) @^-1` A).
Proof.
move=> mA; have mh : measurable_fun setT (fun x : noise => (lap x)%:E * (\1_A x)%:E).
  apply: emeasurable_funM; apply/EFin_measurable_fun => //; first exact: measurable_lap.
  exact: measurable_fun_indic.
rewrite !lapmE -(integral_tr (- a) mh) => [|x]; last by apply: mule_ge0; rewrite lee_fin// lap_ge0.
rewrite -ge0_integralM//; last 3 first.
- apply: emeasurable_funM; apply/EFin_measurable_fun => //; first exact: measurable_lap.
  by apply: measurable_fun_indic; rewrite -[X in measurable X]setTI; exact: measurable_tr.
- by move=> x _; apply: mule_ge0; rewrite lee_fin// lap_ge0.
- by rewrite lee_fin (ltW (expR_gt0 _)).
apply: ge0_le_integral => //.
- by move=> x _; apply: mule_ge0; rewrite lee_fin// lap_ge0.
- apply: measurable_fun_comp mh (measurable_tr _).
- by move=> x _; apply: mule_ge0; [rewrite lee_fin (ltW (expR_gt0 _))|apply: mule_ge0; rewrite lee_fin// lap_ge0].
- apply: emeasurable_funM; first exact: measurable_fun_cst.
  apply: emeasurable_funM; apply/EFin_measurable_fun => //; first exact: measurable_lap.
  by apply: measurable_fun_indic; rewrite -[X in measurable X]setTI; exact: measurable_tr.
move=> x _; rewrite /tr -!EFinM lee_fin.
have -> : (\1_(tr (- a) @^-1` A) x = \1_A (x - a) :> R)%R by [].
rewrite mulrA; apply: ler_wpmul2r; first by rewrite indicE ler0n.
by rewrite (le_trans (lap_shift _ a))// subrK.
Qed.

(** The same for the integral of a measurable function. *)
Lemma lapm_shift_fun (g : noise -> \bar R) (a : R) : measurable_fun setT g -> (forall x, 0 <= g x) ->
  \int[lapm]_x g (tr a x) <= (expR (`|a| / b%:num))%:E * \int[lapm]_x g x.
Proof.
move=> mg g0; rewrite -(integral_pushforward (measurable_tr a) lapm mg g0).
have c0 : (0 <= expR (`|a| / b%:num))%R by exact: (ltW (expR_gt0 _)).
rewrite -(ge0_integral_mscale lapm measurableT (NngNum c0) mg (fun x _ => g0 x)).
apply: integral_le_measure => // A mA; rewrite /pushforward /mscale /=.
apply: le_trans (lapm_shift a _) _; first by rewrite -[X in measurable X]setTI; exact: measurable_tr.
have -> : tr (- a) @^-1` (tr a @^-1` A) = A.
  by apply/seteqP; split => x /=; rewrite /tr subrK.
by [].
Qed.

End laplace.
