(** * Refuting a claim under continuous noise by a ratio: a box from one input, tails from its neighbour

    [not_rdp_of_rratio]: an event [S] that the run on [x] reaches on a box of tapes near 0
    and that the run on the neighbour [x'] reaches only on tapes far from 0 in some
    positions (a product of tails, [tcyl]: in each position anything, [[t, +oo[] with
    [0 <= t] or []-oo, t]] with [t <= 0]).  Both have positive probability, but for one [ε]:

    - Pr[p(x) ∈ S] is at least the box's probability ([lapn_tbox_ge]: a product of
      Laplace probabilities of intervals, each at least its length times the density at a
      far end [m], LaplaceBox.v's [lapm_box]), that is P(ε)·e^(−ε·A) with P a product of
      the widths and of ε·d/(2n) per position (the scale n/(d·ε)) and A = Σ m·d/n;
    - Pr[p(x') ∈ S] is at most the product of the tails' probabilities ([lapn_tcyl_le]: the
      law of a product of sets is the product of the laws, the tail [[t, +oo[] is at most
      e^(−t/b), LaplaceBox.v's [lapm_tail], and the left tail by the reflection), that is
      e^(−ε·B) with B = Σ |t|·d/n over the tails.

    When [1 <= P(ε)] and [ε·A + c·ε < ε·B], the ratio exceeds e^(c·ε) at that [ε]: the
    claim fails.  Both conditions are about rationals once [ε] is a number: the generated
    file closes them by [lra] (any [ε] large enough works as soon as B − A exceeds c). *)
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
From Obligations.Laplace Require Import RealTape ProgAlign RealRefute.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

(** One tape position's tail: anything, at least [t], or at most [t]. *)
Inductive rtail (T : Type) := tany | tge (t : T) | tle (t : T).
Arguments tany {T}.

Section tails.
Variable R : realType.
Local Notation noise := (noise R).

Definition tailset (u : rtail R) : set noise :=
  match u with tany => setT | tge t => `[t, +oo[%classic | tle t => `]-oo, t]%classic end.

(** How far from 0 the tail starts (0 for anything). *)
Definition tailw (u : rtail R) : R := match u with tany => 0 | tge t => t | tle t => - t end.

Definition tail_ok (u : rtail R) : bool := match u with tany => true | tge t => 0 <= t | tle t => t <= 0 end.

Lemma measurable_tailset u : measurable (tailset u).
Proof. by case: u => [|t|t] /=; [exact: measurableT|exact: measurable_itv|exact: measurable_itv]. Qed.

Local Open Scope ereal_scope.

(** The law of the reflection of a set is its law (the density is even). *)
Lemma lapm_refl (b : {posnum R}) (A : set noise) : measurable A -> lapm b A = lapm b (@refl R @^-1` A).
Proof.
move=> mA; have mh : measurable_fun setT (fun x : noise => (lap b x)%:E * (\1_A x)%:E).
  apply: emeasurable_funM; apply/EFin_measurable_fun => //; first exact: measurable_lap.
  exact: measurable_fun_indic.
rewrite !lapmE -(integral_refl mh) => [|x]; last by rewrite mule_ge0// lee_fin ?lap_ge0.
by apply: eq_integral => x _; rewrite /refl /lap normrN.
Qed.

Lemma lapm_tailset (b : {posnum R}) u : tail_ok u ->
  lapm b (tailset u) <= (expR (- (tailw u / b%:num)))%:E.
Proof.
case: u => [|t|t] /= ok.
- by rewrite lapm_setT mul0r oppr0 expR0.
- exact: lapm_tail.
rewrite lapm_refl; last exact: measurable_itv.
have -> : @refl R @^-1` (`]-oo, t]%classic : set noise) = `[(- t)%R, +oo[%classic.
  by apply/seteqP; split => z /=; rewrite !in_itv /= /refl andbT ler_oppl.
by apply: lapm_tail; rewrite oppr_ge0.
Qed.

Local Unset Implicit Arguments.
(** The tapes whose position [i] lies in the [i]-th tail of [cy] (missing entries: anything). *)
Fixpoint tcyl (n : nat) (cy : seq (rtail R)) : set (tape R n) :=
  match n return set (tape R n) with
  | O => setT
  | n'.+1 => tailset (head tany cy) `*` tcyl n' (behead cy)
  end.
Local Set Implicit Arguments.

Lemma measurable_tcyl n cy : measurable (tcyl n cy).
Proof.
elim: n cy => [|n IH] cy /=; first exact: measurableT.
by apply: measurableM; [exact: measurable_tailset|exact: IH].
Qed.

Fixpoint tcost (bs : seq {posnum R}) (cy : seq (rtail R)) : R :=
  match bs with
  | [::] => 0
  | b :: bs' => tailw (head tany cy) / b%:num + tcost bs' (behead cy)
  end.

(** The law of a product of tails is at most e^(−Σ |t|/b). *)
Lemma lapn_tcyl_le bs cy : all tail_ok cy -> lapn bs (tcyl (size bs) cy) <= (expR (- tcost bs cy))%:E.
Proof.
elim: bs cy => [|b bs IH] cy hcy /=.
  by rewrite lapn_nilE indicE in_setT oppr0 expR0.
have [ok0 okr] : tail_ok (head tany cy) /\ all tail_ok (behead cy) by case: cy hcy => [//|u cy] /= /andP.
rewrite /lapn /= product_measure1E; last 2 first.
- exact: measurable_tailset.
- exact: measurable_tcyl.
rewrite opprD expRD EFinM; apply: lee_pmul => //; first exact: lapm_tailset.
exact: IH.
Qed.

Local Close Scope ereal_scope.

(** The box's law is at least the product of the widths times the density at far ends [m]. *)
Fixpoint boxfar (bx : seq (R * R)) (ms : seq R) : bool :=
  match bx, ms with
  | [::], _ => true
  | lh :: bx', m :: ms' => [&& (- m <= lh.1)%R, (lh.1 <= lh.2)%R, (lh.2 <= m)%R & boxfar bx' ms']
  | _ :: _, [::] => false
  end.

Fixpoint tboxlow (bs : seq {posnum R}) (bx : seq (R * R)) (ms : seq R) : R :=
  match bs with
  | [::] => 1
  | b :: bs' => ((head (0, 0) bx).2 - (head (0, 0) bx).1) * lap b (head 0 ms) * tboxlow bs' (behead bx) (behead ms)
  end.

Lemma boxfar_head bx ms : boxfar bx ms ->
  ((head (0, 0) bx).1 <= (head (0, 0) bx).2)%R /\ boxfar (behead bx) (behead ms).
Proof. by case: bx => [|[l h] bx]; case: ms => [|m ms] //= /and4P[]. Qed.

Lemma tboxlow_ge0 bs bx ms : boxfar bx ms -> (0 <= tboxlow bs bx ms)%R.
Proof.
elim: bs bx ms => [|b bs IH] bx ms far /=; first exact: ler01.
have [lh far'] := boxfar_head far.
apply: mulr_ge0; last exact: IH.
by apply: mulr_ge0; [rewrite subr_ge0|exact: lap_ge0].
Qed.

Local Open Scope ereal_scope.

Lemma lapn_tbox_ge bs bx ms : (size bs <= size bx)%nat -> boxfar bx ms ->
  (tboxlow bs bx ms)%:E <= lapn bs (tbox (size bs) bx).
Proof.
elim: bs bx ms => [|b bs IH] bx ms /=.
  by move=> _ _; rewrite lapn_nilE indicE in_setT.
case: bx => [//|[l h] bx]; case: ms => [//|m ms] /= sz far.
have /and4P[ml lh hm far'] := far.
rewrite /lapn /= product_measure1E; last 2 first.
- exact: measurable_itv.
- exact: measurable_tbox.
rewrite EFinM; apply: lee_pmul; last exact: IH.
- by rewrite lee_fin mulr_ge0 ?subr_ge0 ?lap_ge0.
- by rewrite lee_fin tboxlow_ge0.
apply: le_trans (lapm_box b lh); rewrite lee_fin ler_wpmul2l ?subr_ge0//.
apply: lap_le_norm; rewrite (@ger0_norm _ (maxr _ _)); last by rewrite le_maxr normr_ge0.
have m0 : (0 <= m)%R.
  by have := le_trans ml (le_trans lh hm); rewrite -subr_ge0 opprK -mulr2n pmulrn_lge0.
rewrite [X in (_ <= X)%R]ger0_norm// le_maxl; apply/andP; split; rewrite ler_norml.
- by rewrite ml (le_trans lh hm).
- by rewrite hm (le_trans ml lh).
Qed.

End tails.

Arguments tcyl {R} n cy.

Local Notation R := Rdefinitions.R.

(** ** The refutation, over mathcomp's measures *)
Section refute.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R).
Local Open Scope ereal_scope.

(** The law of the runs reaching [S] is at most that of any measurable set of tapes holding
    them (a product of tails here, a union of them in RatioCover.v). *)
Lemma rprog_prob_le_set (e : {posnum R}) x' (S : option (seq roval) -> bool)
    (A : set (tape real_realType (size (scales e p)))) :
  measurable A -> (forall w, S (rtape_run p nvars x' (tl w)) -> A w) ->
  rprog_prob e p nvars x' S <= lapn (scales e p) A.
Proof.
move=> mA Hout; rewrite /rprog_prob /prob.
have -> : lapn (scales e p) A = \int[lapn (scales e p)]_w (\1_A w)%:E by rewrite integral_indic ?setIT.
apply: integral_le_any => w; first by rewrite lee_fin ler0n.
rewrite indicE lee_fin; case: (boolP (S _)) => Sw; last by rewrite ler0n.
by have /mem_set -> := Hout w Sw.
Qed.

Lemma rprog_prob_le_cyl (e : {posnum R}) x' (S : option (seq roval) -> bool) cy :
  (forall w : tape real_realType (size (scales e p)), S (rtape_run p nvars x' (tl w)) -> tcyl _ cy w) ->
  rprog_prob e p nvars x' S <= lapn (scales e p) (tcyl _ cy).
Proof. exact: rprog_prob_le_set (measurable_tcyl _ _). Qed.

Theorem not_rdp_of_cyl (e : {posnum R}) x x' (S : option (seq roval) -> bool) bx ms cy :
  nb x x' -> (TapeSem.size p <= size bx)%nat -> boxfar bx ms -> all (@tail_ok _) cy ->
  (forall w : tape real_realType (size (scales e p)), tbox _ bx w -> S (rtape_run p nvars x (tl w))) ->
  (forall w : tape real_realType (size (scales e p)), S (rtape_run p nvars x' (tl w)) -> tcyl _ cy w) ->
  (expR (c * e%:num) * expR (- tcost (scales e p) cy) < tboxlow (scales e p) bx ms)%R ->
  ~ rdp_prog nb p nvars c.
Proof.
move=> nbx sz far ok Hin Hout lt H; have := H e x x' nbx S; rewrite leNgt => /negP; apply.
apply: (@le_lt_trans _ _ ((expR (c * e%:num) * expR (- tcost (scales e p) cy))%:E)).
  rewrite EFinM; apply: lee_wpmul2l; first by rewrite lee_fin (ltW (expR_gt0 _)).
  exact: le_trans (rprog_prob_le_cyl Hout) (lapn_tcyl_le _ ok).
apply: (@lt_le_trans _ _ (tboxlow (scales e p) bx ms)%:E); first by rewrite lte_fin.
apply: le_trans (rprog_prob_ge_box Hin).
by apply: lapn_tbox_ge; rewrite // size_scales.
Qed.

End refute.

(** ** The same over the standard library's reals, for generated files

    The box as pairs [(l, h)] with a far end [m] each ([-m <= l <= h <= m]), the tails as
    [tany], [tge t], [tle t], one [ε] ([e]) and the two conditions on rationals. *)
Section rrefute.
Variables (nb : seq Z -> seq Z -> Prop) (p : ProgramSyntax.stmt) (nvars : nat) (c : R).

(** 1/b for the scale n/(d·e) of a position: d·e/n. *)
Definition rwt (e : R) (w : positive * positive) : R := Rdefinitions.Rdiv (Rdefinitions.Rmult (Rdefinitions.IZR (Zpos w.2)) e) (Rdefinitions.IZR (Zpos w.1)).

Fixpoint rbox_poly (e : R) (lay : seq (positive * positive)) (bx : seq (R * R)) : R :=
  match lay, bx with
  | w :: lay', lh :: bx' => Rdefinitions.Rmult (Rdefinitions.Rmult (Rdefinitions.Rminus lh.2 lh.1) (Rdefinitions.Rdiv (rwt e w) (Rdefinitions.IZR 2%Z))) (rbox_poly e lay' bx')
  | _, _ => Rdefinitions.R1
  end.

Fixpoint rbox_exp (e : R) (lay : seq (positive * positive)) (ms : seq R) : R :=
  match lay, ms with
  | w :: lay', m :: ms' => Rdefinitions.Rplus (Rdefinitions.Rmult m (rwt e w)) (rbox_exp e lay' ms')
  | _, _ => Rdefinitions.R0
  end.

Definition rtailw (u : rtail R) : R := match u with tany => Rdefinitions.R0 | tge t => t | tle t => Rdefinitions.Ropp t end.

Fixpoint rcyl_exp (e : R) (lay : seq (positive * positive)) (cy : seq (rtail R)) : R :=
  match lay with
  | w :: lay' => Rdefinitions.Rplus (Rdefinitions.Rmult (rtailw (head tany cy)) (rwt e w)) (rcyl_exp e lay' (behead cy))
  | [::] => Rdefinitions.R0
  end.

Definition rtail_ok (u : rtail R) : Prop := match u with tany => True | tge t => Rdefinitions.Rle Rdefinitions.R0 t | tle t => Rdefinitions.Rle t Rdefinitions.R0 end.

Definition rtail_in (t : R) (u : rtail R) : Prop :=
  match u with tany => True | tge s => Rdefinitions.Rle s t | tle s => Rdefinitions.Rle t s end.

Fixpoint rincyl (v : seq R) (cy : seq (rtail R)) : Prop :=
  match v, cy with
  | t :: v', u :: cy' => rtail_in t u /\ rincyl v' cy'
  | _, _ => True
  end.

Lemma tcyl_of_rincyl n cy (w : tape real_realType n) : rincyl (tl w) cy -> tcyl n cy w.
Proof.
elim: n cy w => [//|n IH] [|u cy] [t w] /=.
  by move=> _; split; [exact: I|apply: IH; case: (tl w)].
move=> [tu wc]; split; last exact: IH.
by case: u tu => [//|s|s] /= /RleP st; rewrite /= in_itv /= ?st.
Qed.

Lemma boxfar_of_forall2 bx ms :
  List.Forall2 (fun lh m => Rdefinitions.Rle (Rdefinitions.Ropp m) lh.1 /\ Rdefinitions.Rle lh.1 lh.2 /\ Rdefinitions.Rle lh.2 m) bx ms -> boxfar bx ms.
Proof.
elim=> [//|[l h] m bx' ms' [/RleP ml [/RleP lh /RleP hm]] _ IH] /=.
by rewrite ml lh hm IH.
Qed.

Lemma tail_ok_of_forall cy : List.Forall rtail_ok cy -> all (@tail_ok _) cy.
Proof. by elim=> [//|[|t|t] cy' /= ok _ ->]; rewrite ?andbT //; apply/RleP. Qed.

Let rwtE (e : {posnum R}) w : rwt e%:num w = ((lscale e w)%:num)^-1%R.
Proof.
by rewrite /rwt /= invf_div RdivE// (lt0r_neq0 (izr_pos_gt0 w.1)).
Qed.

Lemma tcost_scales (e : {posnum R}) lay cy : tcost (map (lscale e) lay) cy = rcyl_exp e%:num lay cy.
Proof.
elim: lay cy => [//|w lay IH] cy /=; rewrite IH RplusE RmultE rwtE.
by congr (_ * _ + _)%R; case: (head tany cy).
Qed.

Lemma tboxlow_scales (e : {posnum R}) lay bx ms : size bx = size lay -> size ms = size lay ->
  boxfar bx ms ->
  tboxlow (map (lscale e) lay) bx ms = (rbox_poly e%:num lay bx * expR (- rbox_exp e%:num lay ms))%R.
Proof.
elim: lay bx ms => [|w lay IH] [|[l h] bx] [|m ms] //=.
  move=> _ _ _; change Rdefinitions.RbaseSymbolsImpl.R1 with (1 : R).
  by change Rdefinitions.RbaseSymbolsImpl.R0 with (0 : R); rewrite oppr0 expR0 mul1r.
move=> [sb] [sm] /and4P[ml lh hm far]; rewrite IH //.
have m0 : (0 <= m)%R.
  by have := le_trans ml (le_trans lh hm); rewrite -subr_ge0 opprK -mulr2n pmulrn_lge0.
rewrite /lap ger0_norm // RplusE !RmultE RminusE RdivE; last exact: (lt0r_neq0 (izr_pos_gt0 2)).
rewrite rwtE invfM opprD expRD.
set b := (lscale e w)%:num; set P := rbox_poly _ _ _; set X := expR (- rbox_exp _ _ _).
change (Rdefinitions.IZR 2%Z) with (2 : R).
by rewrite [2^-1 / b]mulrC !mulrA [_ * expR _ * P]mulrAC.
Qed.

(** The refutation: the box from [x], the tails from [x'], and one [ε] at which the bounds
    compare ([1 <= P(ε)] and [ε·A + c·ε < ε·B], rationals once [e] is a number). *)
Theorem not_rdp_of_rratio x x' (S : option (seq roval) -> bool) bx ms cy (e : R) :
  nb x x' -> size bx = TapeSem.size p -> size ms = size bx ->
  List.Forall2 (fun lh m => Rdefinitions.Rle (Rdefinitions.Ropp m) lh.1 /\ Rdefinitions.Rle lh.1 lh.2 /\
    Rdefinitions.Rle lh.2 m) bx ms ->
  List.Forall rtail_ok cy ->
  (forall v, rinbox v bx -> size v = size bx -> S (rtape_run p nvars x v)) ->
  (forall v, size v = size bx -> S (rtape_run p nvars x' v) = true -> rincyl v cy) ->
  Rdefinitions.Rlt Rdefinitions.R0 e ->
  Rdefinitions.Rle Rdefinitions.R1 (rbox_poly e (TapeSem.layout p) bx) ->
  Rdefinitions.Rlt (Rdefinitions.Rplus (rbox_exp e (TapeSem.layout p) ms) (Rdefinitions.Rmult c e))
    (rcyl_exp e (TapeSem.layout p) cy) ->
  ~ rdp_prog nb p nvars c.
Proof.
move=> nbx sz szm far ok Hin Hout /RltP e0 /RleP P1 /RltP lt.
pose ep : {posnum R} := PosNum e0.
have szl : size (TapeSem.layout p) = size bx by rewrite seq_size_length TapeSem.size_layout sz.
have szs : size (scales ep p) = size bx by rewrite size_scales sz.
apply: (@not_rdp_of_cyl nb p nvars c ep x x' S bx ms cy) => //.
- by rewrite sz.
- exact: boxfar_of_forall2.
- exact: tail_ok_of_forall.
- move=> w wB; apply: Hin; last by rewrite size_tl szs.
  by apply: rinbox_tl; rewrite // szs.
- by move=> w Sw; apply: tcyl_of_rincyl; apply: Hout; rewrite // size_tl szs.
rewrite /scales tcost_scales tboxlow_scales; last 3 first.
- by rewrite szl.
- by rewrite szm szl.
- exact: boxfar_of_forall2.
rewrite -expRD; apply: (@lt_le_trans _ _ (expR (- rbox_exp e (TapeSem.layout p) ms))).
  by rewrite ltr_expR ltr_subl_addr addrC ltr_subr_addl.
by apply: ler_pemull; [exact: (ltW (expR_gt0 _))|exact: P1].
Qed.

End rrefute.
