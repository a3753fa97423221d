(** * The Laplace density has mass 1

    mathcomp-analysis 0.6.0 has no fundamental theorem of calculus, so the
    integral of [x ↦ e^{-x/b}] over [0, +∞[ is computed from two facts the
    Lebesgue measure does have:
    - translation: the mass [m] of [0, +∞[ and the mass [J] of [0, h[
      satisfy [m = J + e^{-h/b} m] (the half-line is [0, h[ and a copy of
      itself moved by [h], on which the density is [e^{-h/b}] times
      smaller), and [m] is finite (the same on [0, n·h[ and a limit);
    - bounds on [0, h[: [h e^{-h/b} <= J <= h].
    Hence [h e^{-t} / (1 - e^{-t}) <= m <= h / (1 - e^{-t})] with [t = h/b],
    for every [h > 0]; with [1 + t <= e^t] and the mean value theorem
    ([1 - e^{-t} <= t]) both bounds tend to [b], so [m = b].  The
    reflection [x ↦ -x] gives the negative half-line, and the mass of the
    density [e^{-|x|/b}/(2b)] is 1 ([lapm_setT]). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral exp derive.
From Obligations.Laplace Require Import LowerIntegral Noise LaplaceDensity.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Import numFieldNormedType.Exports.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Section exp_bounds.
Variable R : realType.

(** The mean value theorem for [expR]. *)
Lemma expR_sub_le (x y : R) : x <= y -> expR y - expR x <= (y - x) * expR y.
Proof.
move=> xy; have cexp : {within `[x, y], continuous (@expR R)}.
  by apply: continuous_subspaceT => ?; exact: continuous_expR.
have [c cxy ->] := @MVT_segment R expR expR x y xy (fun c _ => is_derive_expR c) cexp.
rewrite mulrC ler_wpmul2l ?subr_ge0// ler_expR.
by move: cxy; rewrite in_itv /= => /andP[].
Qed.

Lemma onem_expRN_le (t : R) : 0 <= t -> 1 - expR (- t) <= t.
Proof.
move=> t0; have := @expR_sub_le (- t) 0; rewrite oppr_le0 => /(_ t0).
by rewrite expR0 sub0r opprK mulr1.
Qed.

Lemma expRN_ge (t : R) : 0 <= t -> 1 - t <= expR (- t).
Proof. by move=> t0; rewrite ler_subl_addr addrC -ler_subl_addr onem_expRN_le. Qed.

End exp_bounds.

Section mass.
Variable R : realType.
Variable b : {posnum R}.
Local Notation noise := (noise R).

Let g (x : R) : R := expR (- (`|x| / b%:num)).

Let g_ge0 x : 0 <= g x.
Proof. exact/ltW/expR_gt0. Qed.

Let g_le1 x : g x <= 1.
Proof. by rewrite /g -expR0 ler_expR oppr_le0 divr_ge0. Qed.

Let mg : measurable_fun setT (g : noise -> R).
Proof.
apply: (measurable_fun_comp (continuous_measurable_fun (@continuous_expR R))).
apply: (@measurable_funN _ noise R setT (fun x => `|x| / b%:num)).
apply: (@measurable_funM _ noise R setT (fun x => `|x|) (cst b%:num^-1)); last exact: measurable_fun_cst.
exact: measurable_fun_normr.
Qed.

Let M := [the measure _ _ of dmeasure [the measure _ _ of @leb R] mg g_ge0].

Let ME (A : set noise) : M A = (\int[leb]_x ((g x)%:E * (\1_A x)%:E))%E.
Proof. by []. Qed.

Let mgA (A : set noise) : measurable A ->
  measurable_fun setT (fun x : noise => ((g x)%:E * (\1_A x)%:E)%E).
Proof.
move=> mA; apply: emeasurable_funM; apply/EFin_measurable_fun => //.
exact: measurable_fun_indic.
Qed.

Let gA_ge0 (A : set noise) x : (0 <= (g x)%:E * (\1_A x)%:E)%E.
Proof. by apply: mule_ge0; rewrite lee_fin. Qed.

Let q (h : R) : R := expR (- (h / b%:num)).

Let I0 (h : R) : set noise := `[0, h[%classic.
Let Ioo : set noise := `[0, +oo[%classic.

Let mI0 h : measurable (I0 h). Proof. exact: measurable_itv. Qed.
Let mIoo : measurable Ioo. Proof. exact: measurable_itv. Qed.

Local Open Scope ereal_scope.

(** The half-line moved by [h]: the density is [q h] times smaller. *)
Let M_tr (A : set noise) (h : R) : (0 <= h)%R -> measurable A -> (forall x, A x -> 0 <= x)%R ->
  M (tr (- h) @^-1` A) = (q h)%:E * M A.
Proof.
move=> h0 mA Apos; have mA' : measurable (tr (- h) @^-1` A).
  by rewrite -[X in measurable X]setTI; exact: measurable_tr.
rewrite !ME -(integral_tr h (mgA mA') (gA_ge0 _)) -ge0_integralM//; last 2 first.
- exact: mgA.
- by rewrite lee_fin; exact/ltW/expR_gt0.
apply: eq_integral => x _; rewrite /tr /= muleA -!EFinM.
rewrite [\1_A x]indicE [\1_(tr (- h) @^-1` A) _]indicE.
have -> : ((x + h)%R \in tr (- h) @^-1` A) = (x \in A).
  case: (boolP (x \in A)) => xA; first by apply: mem_set; rewrite /preimage /tr /= addrK; exact: set_mem.
  by apply: memNset; rewrite /preimage /tr /= addrK => Ax; move: xA; rewrite mem_set.
case: (boolP (x \in A)) => xA; last by rewrite !mulr0.
rewrite !mulr1 /g /q -expRD; congr (_%:E); congr expR.
have x0 : (0 <= x)%R by apply: Apos; rewrite -inE.
by rewrite !ger0_norm ?addr_ge0// mulrDl opprD addrC.
Qed.

Let leb_itv (h : R) : (0 < h)%R -> leb (I0 h) = h%:E.
Proof.
move=> h0; rewrite /leb /I0 lebesgue_measure_itv hlength_itv /= lte_fin h0.
by rewrite -EFinD subr0.
Qed.

Let M_itv_le (h : R) : (0 < h)%R -> M (I0 h) <= h%:E.
Proof.
move=> h0; have hE : h%:E = \int[leb]_x (\1_(I0 h) x)%:E by rewrite integral_indic// setIT; apply/esym/leb_itv.
rewrite ME hE; apply: ge0_le_integral => //.
- exact: mgA (mI0 h).
- by move=> x _; rewrite lee_fin.
- by apply/EFin_measurable_fun; exact: measurable_fun_indic (mI0 h).
- by move=> x _; rewrite -[X in _ <= X]mul1e; apply: lee_wpmul2r; rewrite ?lee_fin.
Qed.

Let M_itv_ge (h : R) : (0 < h)%R -> (h * q h)%:E <= M (I0 h).
Proof.
move=> h0; have hE : h%:E = \int[leb]_x (\1_(I0 h) x)%:E by rewrite integral_indic// setIT; apply/esym/leb_itv.
rewrite ME mulrC EFinM hE.
rewrite -ge0_integralM//; last 3 first.
- by apply/EFin_measurable_fun; exact: measurable_fun_indic (mI0 h).
- by move=> x _; rewrite lee_fin.
- by rewrite lee_fin; exact/ltW/expR_gt0.
apply: ge0_le_integral => //.
- by move=> x _; apply: mule_ge0; rewrite lee_fin//; exact/ltW/expR_gt0.
- apply: emeasurable_funM; first exact: measurable_fun_cst.
  by apply/EFin_measurable_fun; exact: measurable_fun_indic (mI0 h).
- exact: mgA (mI0 h).
move=> x _; rewrite indicE; case: (boolP (x \in _)) => xA; last by rewrite !mule0.
rewrite !mule1 lee_fin /q /g ler_expR ler_oppr opprK ler_pmul2r ?invr_gt0//.
by move/set_mem: xA; rewrite /I0 /= in_itv /= => /andP[x0 xh]; rewrite ger0_norm// ltW.
Qed.

Let I0_pos h x : I0 h x -> (0 <= x)%R.
Proof. by rewrite /I0 /= in_itv /= => /andP[]. Qed.

Let Ioo_pos x : Ioo x -> (0 <= x)%R.
Proof. by rewrite /Ioo /= in_itv /= andbT. Qed.

(** [0, (n+1)h[ is [0, h[ and [0, n h[ moved by [h]. *)
Let I0_split n h : (0 < h)%R ->
  I0 (n.+1%:R * h) = I0 h `|` tr (- h) @^-1` I0 (n%:R * h) /\
  I0 h `&` tr (- h) @^-1` I0 (n%:R * h) = set0.
Proof.
move=> h0; split.
  apply/seteqP; split => x; rewrite /I0 /tr /= !in_itv /= ?subr_ge0.
    move=> /andP[x0 xn]; have [xh|hx] := ltP x h; first by left; rewrite x0.
    by right; rewrite ltr_subl_addr; move: xn; rewrite -natr1 mulrDl mul1r.
  rewrite -natr1 mulrDl mul1r; case=> /andP[x0 xh].
    by rewrite x0 /= (lt_le_trans xh)// ler_addr mulr_ge0// ltW.
  by rewrite (le_trans (ltW h0) x0) /= -ltr_subl_addr.
apply/seteqP; split => x // [] /=; rewrite /I0 /tr /= !in_itv /= => /andP[_ xh] /andP[].
by rewrite subr_ge0 leNgt xh.
Qed.

Let Ioo_split h : (0 < h)%R ->
  Ioo = I0 h `|` tr (- h) @^-1` Ioo /\ I0 h `&` tr (- h) @^-1` Ioo = set0.
Proof.
move=> h0; split.
  apply/seteqP; split => x; rewrite /I0 /Ioo /tr /= !in_itv /= ?andbT ?subr_ge0.
    by move=> x0; have [xh|hx] := ltP x h; [left; rewrite x0|right].
  by case=> [/andP[]//|hx]; exact: le_trans (ltW h0) hx.
apply/seteqP; split => x // [] /=; rewrite /I0 /Ioo /tr /= !in_itv /= andbT => /andP[_ xh].
by rewrite subr_ge0 leNgt xh.
Qed.

Let M_ge0 A : 0 <= M A.
Proof. exact: measure_ge0. Qed.

Let M_rec n h : (0 < h)%R ->
  M (I0 (n.+1%:R * h)) = M (I0 h) + (q h)%:E * M (I0 (n%:R * h)).
Proof.
move=> h0; have [-> dis] := I0_split n h0.
have mA : measurable (tr (- h) @^-1` I0 (n%:R * h)).
  by rewrite -[X in measurable X]setTI; exact: measurable_tr.
by rewrite measureU//; congr (_ + _); apply: M_tr (ltW h0) _ _ => //; exact: I0_pos.
Qed.

Let M_oo h : (0 < h)%R -> M Ioo = M (I0 h) + (q h)%:E * M Ioo.
Proof.
move=> h0; have [E dis] := Ioo_split h0; rewrite [in LHS]E.
have mA : measurable (tr (- h) @^-1` Ioo).
  by rewrite -[X in measurable X]setTI; exact: measurable_tr.
by rewrite measureU//; congr (_ + _); apply: M_tr (ltW h0) _ _ => //; exact: Ioo_pos.
Qed.

Let q_lt1 h : (0 < h)%R -> (q h < 1)%R.
Proof. by move=> h0; rewrite /q expR_lt1 oppr_lt0 divr_gt0. Qed.

Let q_gt0 h : (0 < q h)%R.
Proof. exact: expR_gt0. Qed.

Let J_fin h : (0 < h)%R -> M (I0 h) = (fine (M (I0 h)))%:E.
Proof.
move=> h0; rewrite fineK// ge0_fin_numE//.
by apply: le_lt_trans (M_itv_le h0) _; rewrite ltry.
Qed.

Let I0_0 : I0 0 = set0.
Proof.
apply/seteqP; split => x //=; rewrite /I0 /= in_itv /= => /andP[x0 x0'].
by move: (le_lt_trans x0 x0'); rewrite ltxx.
Qed.

Let M_bound n h : (0 < h)%R ->
  M (I0 (n%:R * h)) <= (fine (M (I0 h)) / (1 - q h))%:E.
Proof.
move=> h0; set j := fine (M (I0 h)).
have j0 : (0 <= j)%R by apply: fine_ge0; exact: M_ge0.
have q1 : (0 < 1 - q h)%R by rewrite subr_gt0 q_lt1.
elim: n => [|n IH]; first by rewrite mul0r I0_0 measure0 lee_fin divr_ge0// ltW.
rewrite M_rec// (J_fin h0) -/j.
apply: le_trans (lee_add2l _ (lee_wpmul2l _ IH)) _; first by rewrite lee_fin ltW.
rewrite -EFinM -EFinD lee_fin le_eqVlt; apply/orP; left; apply/eqP.
rewrite mulrA -[X in (X + _ = _)%R](mulfK (lt0r_neq0 q1)) -mulrDl; congr (_ * _)%R.
by rewrite mulrBr mulr1 [(q h * j)%R]mulrC subrK.
Qed.

Let Ioo_bigcup h : (0 < h)%R -> Ioo = \bigcup_n I0 (n%:R * h).
Proof.
move=> h0; apply/seteqP; split => x.
  move=> /Ioo_pos x0; have xh0 : (0 <= x / h)%R by rewrite divr_ge0// ltW.
  exists (Num.bound (x / h)) => //; rewrite /I0 /= in_itv /= x0 /=.
  by rewrite -ltr_pdivr_mulr// archi_boundP.
by case=> n _; rewrite /I0 /Ioo /= !in_itv /= andbT => /andP[].
Qed.

Let M_Ioo_le h : (0 < h)%R -> M Ioo <= (fine (M (I0 h)) / (1 - q h))%:E.
Proof.
move=> h0; have nd : nondecreasing_seq (fun n => I0 (n%:R * h)).
  move=> n m nm; apply/subsetPset => x; rewrite /I0 /= !in_itv /= => /andP[-> xn] /=.
  by apply: lt_le_trans xn _; rewrite ler_pmul2r// ler_nat.
have := @nondecreasing_cvg_mu _ _ _ M (fun n => I0 (n%:R * h)) (fun n => mI0 _) _ nd.
rewrite -Ioo_bigcup// => /(_ mIoo) cvgM.
rewrite -(cvg_lim _ cvgM)//; apply: lime_le; first by apply/cvg_ex; eexists; exact: cvgM.
by apply: nearW => n; exact: M_bound.
Qed.

(** The mass of the half-line, as a real number. *)
Let m := fine (M Ioo).

Let M_Ioo_fin : M Ioo = m%:E.
Proof.
rewrite fineK// ge0_fin_numE//; apply: le_lt_trans (M_Ioo_le ltr01) _.
by rewrite ltry.
Qed.

Let m_rec h : (0 < h)%R -> (m = fine (M (I0 h)) + q h * m)%R.
Proof.
move=> h0; have := M_oo h0; rewrite M_Ioo_fin (J_fin h0) -EFinM -EFinD.
by move=> [].
Qed.

Let m_ge0 : (0 <= m)%R.
Proof. by apply: fine_ge0; exact: M_ge0. Qed.

Let m_le e : (0 < e)%R -> (m <= b%:num + e)%R.
Proof.
move=> e0; set t := e / b%:num; have t0 : (0 < t)%R by rewrite divr_gt0.
have et : (e = b%:num * t)%R by rewrite /t mulrCA divff ?mulr1.
have jle : (fine (M (I0 e)) <= e)%R.
  by rewrite -lee_fin -(J_fin e0); exact: M_itv_le.
have qt : q e = expR (- t) by rewrite /q.
clearbody t.
have key : (m * (1 - q e) <= e)%R.
  have Je : fine (M (I0 e)) = (m - q e * m)%R by rewrite {1}(m_rec e0) addrK.
  by apply: le_trans jle; rewrite Je mulrBr mulr1 mulrC.
have onem : (t <= (1 - q e) * (1 + t))%R.
  rewrite qt mulrBl mul1r ler_subr_addr [(t + _)%R]addrC ler_add2r.
  rewrite -[X in (_ <= X)%R](expRxMexpNx_1 t) [(expR t * _)%R]mulrC ler_wpmul2l//.
    exact/ltW/expR_gt0.
  exact: expR_ge1Dx (ltW t0).
have : (m * t <= b%:num * t * (1 + t))%R.
  apply: le_trans (ler_wpmul2l m_ge0 onem) _; rewrite mulrA -et.
  by apply: ler_wpmul2r; [rewrite addr_ge0// ltW|exact: key].
by rewrite -mulrA [(t * _)%R]mulrC mulrA ler_pmul2r// mulrDr mulr1 -et.
Qed.

Let m_ge e : (0 < e)%R -> (b%:num <= m + e)%R.
Proof.
move=> e0; set t := e / b%:num; have t0 : (0 < t)%R by rewrite divr_gt0.
have et : (e = b%:num * t)%R by rewrite /t mulrCA divff ?mulr1.
have jge : (e * q e <= fine (M (I0 e)))%R.
  by rewrite -lee_fin -(J_fin e0); exact: M_itv_ge.
have qt : q e = expR (- t) by rewrite /q.
clearbody t.
have key : (e * q e <= m * t)%R.
  have Je : fine (M (I0 e)) = (m - q e * m)%R by rewrite {1}(m_rec e0) addrK.
  apply: le_trans jge _; rewrite Je -{1}[m]mul1r -mulrBl mulrC.
  by apply: ler_wpmul2l => //; rewrite qt onem_expRN_le// ltW.
have : (b%:num * q e <= m)%R.
  by rewrite -(ler_pmul2r t0) mulrAC -et.
move=> H; rewrite -ler_subl_addr; apply: le_trans H.
by rewrite qt et -{1}[b%:num]mulr1 -mulrBr ler_wpmul2l// expRN_ge// ltW.
Qed.

Lemma half_line_mass : M Ioo = (b%:num)%:E.
Proof.
rewrite M_Ioo_fin; congr (_%:E); apply/eqP; rewrite eq_le.
by apply/andP; split; apply/ler_addgt0Pr => e e0; [exact: m_le|exact: m_ge].
Qed.

Let M_refl (A : set noise) : measurable A -> M (@refl R @^-1` A) = M A.
Proof.
move=> mA; rewrite !ME -(integral_refl (mgA mA) (gA_ge0 _)).
by apply: eq_integral => x _; rewrite /refl /g normrN.
Qed.

Let M_set1 : M [set 0%R] = 0.
Proof.
apply/eqP; rewrite eq_le M_ge0 andbT ME.
have m0 : measurable ([set 0%R] : set noise) by exact: measurable_set1.
apply: le_trans (_ : \int[leb]_x (\1_([set 0%R] : set noise) x)%:E <= 0).
  apply: ge0_le_integral => //.
  - exact: mgA.
  - by move=> x _; rewrite lee_fin.
  - by apply/EFin_measurable_fun; exact: measurable_fun_indic.
  - by move=> x _; rewrite -[X in _ <= X]mul1e; apply: lee_wpmul2r; rewrite ?lee_fin.
rewrite integral_indic// setIT; change (@leb R [set 0%R] <= 0); by rewrite /leb lebesgue_measure_set1.
Qed.

Let Ipos : set noise := `]0%R, +oo[%classic.
Let Ineg : set noise := `]-oo, 0%R[%classic.

Lemma whole_line_mass : M setT = (2 * b%:num)%:E.
Proof.
have mIpos : measurable Ipos by exact: measurable_itv.
have mIneg : measurable Ineg by exact: measurable_itv.
have m0 : measurable ([set 0%R] : set noise) by exact: measurable_set1.
have Ioo_E : Ioo = [set 0%R] `|` Ipos.
  apply/seteqP; split => x; rewrite /Ioo /Ipos /= !in_itv /= !andbT.
    by rewrite le_eqVlt => /orP[/eqP ->|]; [left|right].
  by case=> [->//|/ltW].
have T_E : setT = Ineg `|` Ioo.
  apply/seteqP; split => x // _; rewrite /Ineg /Ioo /= !in_itv /= andbT.
  by case: (ltP x 0%R); [left|right].
have neg_E : Ineg = @refl R @^-1` Ipos.
  by apply/seteqP; split => x; rewrite /Ineg /Ipos /refl /= !in_itv /= andbT oppr_gt0.
have e1 : M setT = M Ineg + M Ioo.
  rewrite T_E measureU//; apply/seteqP; split => x // [].
  rewrite /Ineg /Ioo /= !in_itv /= andbT => x0 x0'.
  by move: (le_lt_trans x0' x0); rewrite ltxx.
have e2 : M Ineg = M Ipos by rewrite neg_E; exact: M_refl.
have e3 : M Ioo = M [set 0%R] + M Ipos.
  rewrite Ioo_E measureU//; apply/seteqP; split => x // [] /= ->.
  by rewrite /Ipos /= in_itv /= ltxx.
rewrite M_set1 add0e half_line_mass in e3.
by rewrite e1 e2 -e3 half_line_mass -EFinD mulr2n mulrDl mul1r.
Qed.

(** The mass of the Laplace density is 1. *)
Lemma lapm_setT : lapm b setT = 1.
Proof.
have -> : lapm b setT = \int[leb]_x (((2 * b%:num)^-1)%:E * ((g x)%:E * (\1_[set: noise] x)%:E)).
  by rewrite lapmE; apply: eq_integral => x _; rewrite /lap /g muleA -EFinM.
rewrite ge0_integralM//; last exact: mgA.
by rewrite -ME whole_line_mass -EFinM mulVf.
Qed.

End mass.
