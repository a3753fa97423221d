(** * The pieces of an alignment are measurable, for every program and every stream length

    [rdp_of_aligned] (RealAlignSound.v) asks that the tapes on which the
    aligned run shifts by given whole numbers form measurable sets: the map
    [zshift] from a tape to its shifts has measurable fibers ([mfibers],
    TapeFibers.v).  FiberSym.v discharges this at a fixed stream length by
    computing the map on a symbolic tape; here it is proved once, by
    induction on the program, for every program (so for every stream
    length: a loop is an induction on its count), from one duty on the
    shift function alone ([zshift_mfibers]).

    A map from tapes to states of the semantics over the reals is
    measurable ([mstate]) when every slot of its environment is a
    measurable real and its branch trace and halting flag have measurable
    fibers.  Every statement keeps this ([mstate_rexec]): assignments and
    sampling compute measurable reals from measurable reals (sums,
    differences, products, min, max, absolute values, roundings down and
    reads of a stream at a rounded index, the last three because a rounding
    down takes countably many values on measurable sets), a conditional
    chooses on a measurable set, a loop is an induction on its count.  The
    aligned run keeps the same property of both its runs and of its aligned
    tape ([mpstate_pexec]) when the shift it reads has measurable fibers for
    measurable states, which [mshift] proves from the shapes the tool
    renders (constants, roundings down of differences of centres, a choice
    on the branch prophecy). *)
From HB Require Import structures.
From mathcomp Require Import all_ssreflect ssralg ssrnum ssrint interval finmap.
From mathcomp.classical Require Import boolp classical_sets functions cardinality fsbigop mathcomp_extra.
From mathcomp.analysis Require Import Rstruct.
From mathcomp.analysis Require Import ereal reals signed topology normedtype sequences esum measure.
From mathcomp.analysis Require Import lebesgue_measure numfun lebesgue_integral.
From Coq Require Import ZArith Lia Lra.
From Coq Require Reals.
From Obligations.Program Require ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import Noise TapeMeasure TapeMeasurable RealTape TapeFibers ProgAlign.
From Obligations.Laplace Require Import RealRelational RealAlignRun.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.

(** ** Facts of the semantics, without measure theory *)

Lemma nth_nil0 (i : nat) : List.nth i (@nil R) (IZR Z0) = IZR Z0.
Proof. by case: i. Qed.

Lemma rread_rwrite (e : list R) (x : nat) (v : R) (i : nat) :
  rread (rwrite e x v) i = if Nat.eqb i x then v else rread e i.
Proof.
  unfold rread. revert e i. induction x as [|x IH]; intros e i.
  - destruct e as [|z e], i as [|i]; cbn [rwrite List.nth Nat.eqb]; solve [reflexivity | destruct i; reflexivity].
  - destruct e as [|z e], i as [|i]; cbn [rwrite List.nth Nat.eqb]; rewrite ?IH;
      solve [reflexivity | destruct i; reflexivity].
Qed.

Lemma rmin_rleb (x y : R) : Rbasic_fun.Rmin x y = if rleb x y then x else y.
Proof. by rewrite /Rbasic_fun.Rmin /rleb; case: Reals.RIneq.Rle_dec. Qed.

Lemma rmax_rleb (x y : R) : Rbasic_fun.Rmax x y = if rleb x y then y else x.
Proof. by rewrite /Rbasic_fun.Rmax /rleb; case: Reals.RIneq.Rle_dec. Qed.

Lemma rabs_rltb (x : R) : Rbasic_fun.Rabs x = if rltb x (IZR Z0) then Rdefinitions.Rminus (IZR Z0) x else x.
Proof.
rewrite /Rbasic_fun.Rabs /rltb; case: Rbasic_fun.Rcase_abs => h; case: Reals.RIneq.Rlt_dec => h' //.
- by rewrite Reals.RIneq.Rminus_0_l.
- by exfalso; apply: (Reals.RIneq.Rle_not_lt _ _ (Reals.RIneq.Rge_le _ _ h)).
Qed.

Lemma zenc_inj : injective zenc.
Proof. by move=> a b e; rewrite -(zencK a) e zencK. Qed.

Section run_fibers.
Variable n : nat.
Local Notation T := (tape real_realType n).
Local Notation RR := (Real.sort real_realType).

(** A measurable real computed from the tape. *)
Definition mreal (f : T -> RR) : Prop := measurable_fun setT f.

(** ** Countable choices *)

Lemma measurable_bigcup_count (B : countType) (F : B -> set T) :
  (forall b, measurable (F b)) -> measurable (\bigcup_(b in setT) F b).
Proof.
move=> mF.
rewrite (_ : \bigcup_(b in setT) F b =
    \bigcup_(k in setT) (if choice.unpickle k is Some b then F b else set0)).
  by apply: bigcupT_measurable => k; case: (choice.unpickle k) => [b|]; [exact: mF|exact: measurable0].
apply/seteqP; split => w [b _ Fb].
  by exists (choice.pickle b) => //; rewrite choice.pickleK.
by move: Fb; case: (choice.unpickle b) => [b'|] // Fb; exists b'.
Qed.

(** A map chosen by a value of a countable type with measurable fibers. *)
Lemma mfibers_count (A : Type) (B : countType) (g : T -> B) (f : B -> T -> A) :
  mfibers g -> (forall b, mfibers (f b)) -> mfibers (fun w => f (g w) w).
Proof.
move=> mg mf a.
rewrite (_ : [set w | _] = \bigcup_(b in setT) ([set w | g w = b] `&` [set w | f b w = a])).
  by apply: measurable_bigcup_count => b; apply: measurableI; [exact: mg|exact: mf].
apply/seteqP; split => w /=; first by move=> h; exists (g w) => //.
by case=> b _ [/= <-].
Qed.

Lemma mfibers_comp (A : Type) (B : countType) (g : T -> B) (h : B -> A) :
  mfibers g -> mfibers (fun w => h (g w)).
Proof. by move=> mg; apply: (@mfibers_count A B g (fun b _ => h b)) => // b; exact: mfibers_cst. Qed.

Lemma mfibers_pair (A B : Type) (f : T -> A) (g : T -> B) :
  mfibers f -> mfibers g -> mfibers (fun w => (f w, g w)).
Proof.
move=> mf mg [a b]; rewrite (_ : [set w | _] = [set w | f w = a] `&` [set w | g w = b]).
  exact: measurableI.
by apply/seteqP; split => w /=; [case=> -> ->|case=> -> ->].
Qed.

Lemma mfibers_bool (c : T -> bool) : measurable [set w | c w] -> mfibers c.
Proof.
move=> mc [|]; first exact: mc.
rewrite (_ : [set w | c w = false] = ~` [set w | c w]); first exact: measurableC.
by apply/seteqP; split => w /=; case: (c w).
Qed.

Lemma mfibers_zenc (z : T -> Z) : mfibers z -> mfibers (fun w => zenc (z w)).
Proof.
move=> mz b; have [e|ne] := pselect (zenc (zdec b) = b).
  rewrite (_ : [set w | _] = [set w | z w = zdec b]); first exact: mz.
  apply/seteqP; split => w /=; first by move=> <-; rewrite zencK.
  by move=> ->.
rewrite (_ : [set w | _] = set0); first exact: measurable0.
by apply/seteqP; split => w //= h; apply: ne; rewrite -h zencK.
Qed.

Lemma mreal_count (B : countType) (g : T -> B) (f : B -> T -> RR) :
  mfibers g -> (forall b, mreal (f b)) -> mreal (fun w => f (g w) w).
Proof.
move=> mg mf _ Y mY; rewrite setTI.
rewrite (_ : _ @^-1` Y = \bigcup_(b in setT) ([set w | g w = b] `&` (f b @^-1` Y))).
  apply: measurable_bigcup_count => b; apply: measurableI; first exact: mg.
  by have := mf b measurableT Y mY; rewrite setTI.
apply/seteqP; split => w /=; first by move=> h; exists (g w) => //.
by case=> b _ [/= <-].
Qed.

Lemma mreal_ext (f g : T -> RR) : (forall w, f w = g w) -> mreal g -> mreal f.
Proof. by move=> e; rewrite (_ : f = g) //; apply/funext. Qed.

Lemma mreal_cst (c : R) : mreal (fun _ => c).
Proof. exact: measurable_fun_cst. Qed.

Lemma mreal_IZR (z : T -> Z) : mfibers z -> mreal (fun w => IZR (z w)).
Proof.
move=> mz; apply: (@mreal_ext _ (fun w => (fun b _ => IZR (zdec b)) (zenc (z w)) w)).
  by move=> w /=; rewrite zencK.
exact: (@mreal_count _ (fun w => zenc (z w)) (fun b _ => IZR (zdec b)) (mfibers_zenc mz)
  (fun b => mreal_cst _)).
Qed.

Lemma mreal_if (c : T -> bool) (f g : T -> RR) : measurable [set w | c w] -> mreal f -> mreal g ->
  mreal (fun w => if c w then f w else g w).
Proof.
move=> mc mf mg.
by apply: (@mreal_count _ c (fun b w => if b then f w else g w)); [exact: mfibers_bool|case].
Qed.

Lemma mreal_plus (f g : T -> RR) : mreal f -> mreal g -> mreal (fun w => Rdefinitions.Rplus (f w) (g w)).
Proof. exact: measurable_rplus. Qed.

Lemma mreal_minus (f g : T -> RR) : mreal f -> mreal g -> mreal (fun w => Rdefinitions.Rminus (f w) (g w)).
Proof. exact: measurable_rminus. Qed.

Lemma mreal_mult (f g : T -> RR) : mreal f -> mreal g -> mreal (fun w => Rdefinitions.Rmult (f w) (g w)).
Proof. exact: measurable_funM. Qed.

Lemma mreal_rtape (i : nat) : mreal (fun w => rtape (tl w) i).
Proof. exact: measurable_rtape. Qed.

(** ** What an expression computes from measurable slots *)

Lemma mreal_raeval (E : T -> list R) : (forall i, mreal (fun w => rread (E w) i)) ->
  forall e, mreal (fun w => raeval (E w) e).
Proof.
move=> mE; elim=> [c|x|base len i IHi|a IHa b IHb|a IHa b IHb|a IHa b IHb|a IHa b IHb|a IHa b IHb|a IHa
  |a IHa d|a IHa d]; cbn [raeval].
- exact: mreal_cst.
- exact: mE.
- pose f := fun b w => if (0 <=? zdec b)%Z && (zdec b <? Z.of_nat len)%Z
                        then rread (E w) (base + Z.to_nat (zdec b)) else IZR Z0.
  apply: (@mreal_ext _ (fun w => f (zenc (rfloor (raeval (E w) i))) w)).
    by move=> w; rewrite /f zencK.
  apply: (@mreal_count _ (fun w => zenc (rfloor (raeval (E w) i))) f).
    exact/mfibers_zenc/mfibers_rfloor.
  by move=> b; rewrite /f; case: (_ && _); [exact: mE|exact: mreal_cst].
- exact: mreal_plus.
- exact: mreal_minus.
- exact: mreal_mult.
- apply: (mreal_ext (fun w => rmin_rleb _ _)).
  by apply: mreal_if => //; exact: measurable_rleb.
- apply: (mreal_ext (fun w => rmax_rleb _ _)).
  by apply: mreal_if => //; exact: measurable_rleb.
- apply: (mreal_ext (fun w => rabs_rltb _)).
  apply: mreal_if => //; first by apply: measurable_rltb => //; exact: mreal_cst.
  by apply: mreal_minus => //; exact: mreal_cst.
- apply/mreal_IZR/mfibers_rfloor; apply: mreal_mult => //; exact: mreal_cst.
- apply: mreal_minus => //; apply: mreal_mult; first exact: mreal_cst.
  apply/mreal_IZR/mfibers_rfloor; apply: mreal_mult => //; exact: mreal_cst.
Qed.

Lemma mcond_rbeval (E : T -> list R) : (forall i, mreal (fun w => rread (E w) i)) ->
  forall b, measurable [set w | rbeval (E w) b].
Proof.
move=> mE; have ma := mreal_raeval mE.
elim=> [||a c|a c|a c|b IH|b IHb c IHc|b IHb c IHc]; cbn [rbeval].
- by rewrite (_ : [set _ | _] = setT); [exact: measurableT|apply/seteqP; split].
- by rewrite (_ : [set _ | _] = set0); [exact: measurable0|apply/seteqP; split].
- exact: measurable_rltb (ma a) (ma c).
- exact: measurable_rleb (ma a) (ma c).
- exact: measurable_reqb (ma a) (ma c).
- exact: measurable_bool IH.
- rewrite (_ : [set _ | _] = [set w | rbeval (E w) b] `&` [set w | rbeval (E w) c]); first exact: measurableI.
  by apply/seteqP; split => w /=; [move/andP|move=> [-> ->]].
- rewrite (_ : [set _ | _] = [set w | rbeval (E w) b] `|` [set w | rbeval (E w) c]); first exact: measurableU.
  by apply/seteqP; split => w /=; [move/orP|case=> ->; rewrite ?orbT].
Qed.

(** ** Measurable states *)

Definition mstate (F : T -> rstate) : Prop :=
  (forall i, mreal (fun w => rread (renv (F w)) i)) /\ mfibers (fun w => rtr (F w)) /\
  mfibers (fun w => rhalted (F w)).

Lemma mstate_halted (F : T -> rstate) : mstate F -> measurable [set w | rhalted (F w)].
Proof. by case=> _ [_ h]; exact: (h true). Qed.

Lemma mreal_env (F : T -> rstate) e : mstate F -> mreal (fun w => raeval (renv (F w)) e).
Proof. by case=> mE _; exact: mreal_raeval. Qed.

Lemma mcond_env (F : T -> rstate) b : mstate F -> measurable [set w | rbeval (renv (F w)) b].
Proof. by case=> mE _; exact: mcond_rbeval. Qed.

Lemma mstate_cst (st : rstate) : mstate (fun _ => st).
Proof. by split; [move=> i; exact: mreal_cst|split; exact: mfibers_cst]. Qed.

Lemma if_app (A B : Type) (f : A -> B) (c : bool) (x y : A) :
  f (if c then x else y) = if c then f x else f y.
Proof. by case: c. Qed.

Lemma mstate_if (c : T -> bool) (F G : T -> rstate) : measurable [set w | c w] -> mstate F -> mstate G ->
  mstate (fun w => if c w then F w else G w).
Proof.
move=> mc [eF [tF hF]] [eG [tG hG]]; split; [|split].
- move=> i; apply: (mreal_ext (fun w => if_app (fun st => rread (renv st) i) (c w) (F w) (G w))).
  exact: mreal_if.
- rewrite (_ : (fun w => _) = (fun w => if c w then rtr (F w) else rtr (G w))); first exact: mfibers_if.
  by apply/funext => w; case: (c w).
- rewrite (_ : (fun w => _) = (fun w => if c w then rhalted (F w) else rhalted (G w))); first exact: mfibers_if.
  by apply/funext => w; case: (c w).
Qed.

Lemma mstate_set (x : nat) (f : T -> RR) (F : T -> rstate) : mreal f -> mstate F ->
  mstate (fun w => rset x (f w) (F w)).
Proof.
move=> mf [eF [tF hF]]; split; [|split]; [|exact: tF|exact: hF].
move=> i; apply: (mreal_ext (fun w => rread_rwrite (renv (F w)) x (f w) i)).
by case: (Nat.eqb i x); [exact: mf|exact: eF].
Qed.

Lemma mstate_emit (o : T -> roval) (F : T -> rstate) : mstate F -> mstate (fun w => remit (o w) (F w)).
Proof. by case=> eF [tF hF]; split; [exact: eF|split; [exact: tF|exact: hF]]. Qed.

Lemma mstate_branch (b : bool) (F : T -> rstate) : mstate F -> mstate (fun w => rbranch b (F w)).
Proof.
case=> eF [tF hF]; split; [exact: eF|split; [|exact: hF]].
exact: (@mfibers_comp _ _ (fun w => rtr (F w)) (fun t => (t ++ [:: b])%list)).
Qed.

Lemma mstate_stop (F : T -> rstate) : mstate F -> mstate (fun w => rstop (F w)).
Proof. by case=> eF [tF hF]; split; [exact: eF|split; [exact: tF|exact: mfibers_cst]]. Qed.

Lemma mstate_fail (F : T -> rstate) : mstate F -> mstate (fun w => rfail (F w)).
Proof. by case=> eF [tF hF]; split; [exact: eF|split; [exact: tF|exact: mfibers_cst]]. Qed.

(** ** Every statement keeps the states measurable *)

Lemma mstate_rfor (step : T -> nat -> rstate -> rstate) (x sb : nat) :
  (forall a F, mstate F -> mstate (fun w => step w a (F w))) ->
  forall k a i F, mstate F -> mstate (fun w => rfor (step w) x sb a i k (F w)).
Proof.
move=> hs; elim=> [|k IH] a i F mF; cbn [rfor]; first exact: mF.
apply: IH; apply: mstate_if; [exact: mstate_halted|exact: mF|].
by apply: hs; apply: mstate_set => //; exact: mreal_cst.
Qed.

Lemma mstate_rexec (s : ProgramSyntax.stmt) : forall a F, mstate F ->
  mstate (fun w => rexec (rtape (tl w)) s a (F w)).
Proof.
elim: s => [|s1 IH1 s2 IH2|x e|x d|b s1 IH1 s2 IH2|x k body IH|e| | | ] a F mF; cbn [rexec];
  (apply: mstate_if; [exact: mstate_halted|exact: mF|]).
- exact: mF.
- by apply: IH2; apply: IH1.
- by apply: mstate_set => //; exact: mreal_env.
- case: d => *; try exact: mstate_fail.
  apply: mstate_set => //; apply: mreal_plus; [exact: mreal_env|exact: mreal_rtape].
- apply: mstate_if; [exact: mcond_env|apply: IH1|apply: IH2]; exact: mstate_branch.
- exact: (@mstate_rfor (fun w => rexec (rtape (tl w)) body) x (TapeSem.size body) IH k a 0%Z F mF).
- exact: (mstate_emit (fun w => ROVal (raeval (renv (F w)) e)) mF).
- exact: (mstate_emit (fun _ => ROTop) mF).
- exact: (mstate_emit (fun _ => ROBot) mF).
- exact: mstate_stop.
Qed.

(** ** The aligned run *)

Definition mpstate (P : T -> pstate) : Prop :=
  mstate (fun w => pl (P w)) /\ mstate (fun w => pa (P w)) /\ (forall b, mreal (fun w => pw (P w) b)).

Lemma mpstate_if (c : T -> bool) (P Q : T -> pstate) : measurable [set w | c w] -> mpstate P -> mpstate Q ->
  mpstate (fun w => if c w then P w else Q w).
Proof.
move=> mc [lP [aP wP]] [lQ [aQ wQ]]; split; [|split].
- rewrite (_ : (fun w => _) = (fun w => if c w then pl (P w) else pl (Q w))); first exact: mstate_if.
  by apply/funext => w; case: (c w).
- rewrite (_ : (fun w => _) = (fun w => if c w then pa (P w) else pa (Q w))); first exact: mstate_if.
  by apply/funext => w; case: (c w).
- move=> b; apply: (mreal_ext (fun w => if_app (fun ps => pw ps b) (c w) (P w) (Q w))).
  exact: mreal_if.
Qed.

Lemma mpstate_mk (L A : T -> rstate) (pw' : T -> nat -> R) (acc : T -> Z) (bad vd : T -> bool) :
  mstate L -> mstate A -> (forall b, mreal (fun w => pw' w b)) ->
  mpstate (fun w => mkps (L w) (A w) (pw' w) (acc w) (bad w) (vd w)).
Proof. by move=> mL mA mW; split; [exact: mL|split; [exact: mA|exact: mW]]. Qed.

Lemma mcond_eqb (b1 b2 : T -> bool) : measurable [set w | b1 w] -> measurable [set w | b2 w] ->
  measurable [set w | Bool.eqb (b1 w) (b2 w)].
Proof.
move=> m1 m2.
exact: (@mfibers_comp _ _ (fun w => (b1 w, b2 w)) (fun q => Bool.eqb q.1 q.2)
  (mfibers_pair (mfibers_bool m1) (mfibers_bool m2)) true).
Qed.

Section pexec.
Variables (sh : T -> nat -> rstate -> rstate -> Z) (W : Z) (o : T -> list roval) (tr : T -> list bool)
  (ctr : bool).
Hypothesis Hsh : forall site (L A : T -> rstate), mstate L -> mstate A ->
  mfibers (fun w => sh w site (L w) (A w)).

Lemma mpstate_pfor (step : T -> nat -> pstate -> pstate) (x sb : nat) :
  (forall a P, mpstate P -> mpstate (fun w => step w a (P w))) ->
  forall k a i P, mpstate P -> mpstate (fun w => pfor (step w) x sb a i k (P w)).
Proof.
move=> hs; elim=> [|k IH] a i P mP; cbn [pfor]; first exact: mP.
apply: IH; apply: mpstate_if; [by case: mP => mL _; exact: mstate_halted|exact: mP|].
apply: hs; case: mP => mL [mA mW]; cbn [pboth]; apply: mpstate_mk; [| |exact: mW].
- by apply: mstate_set => //; exact: mreal_cst.
- by apply: mstate_set => //; exact: mreal_cst.
Qed.

Lemma mpstate_pexec (s : ProgramSyntax.stmt) : forall a site P, mpstate P ->
  mpstate (fun w => pexec (rtape (tl w)) (sh w) W (o w) (tr w) ctr s a site (P w)).
Proof.
elim: s => [|s1 IH1 s2 IH2|x e|x d|b s1 IH1 s2 IH2|x k body IH|e| | | ] a site P mP; cbn [pexec];
  have [mL [mA mW]] := mP;
  (apply: mpstate_if; [exact: mstate_halted mL|exact: mP|]).
- exact: mP.
- by apply: IH2; apply: IH1.
- by cbn [passign]; apply: mpstate_mk; [apply: mstate_set => //; exact: mreal_env
                      |apply: mstate_set => //; exact: mreal_env|exact: mW].
- case: d => [????|????|???|?|??|num den c];
    try by cbn [pboth]; apply: mpstate_mk; [exact: mstate_fail|exact: mstate_fail|exact: mW].
  have mz := Hsh site mL mA.
  cbn [psample]; apply: mpstate_mk.
  + apply: mstate_set => //; apply: mreal_plus; [exact: mreal_env|exact: mreal_rtape].
  + apply: mstate_set => //; apply: mreal_plus; first exact: mreal_env.
    by apply: mreal_plus; [exact: mreal_rtape|exact: mreal_IZR].
  + move=> b; cbv beta; rewrite /upd; case: (Nat.eqb b a); last exact: mW.
    by apply: mreal_plus; [exact: mreal_rtape|exact: mreal_IZR].
- have ml := mcond_env b mL; have ma := mcond_env b mA.
  apply: mpstate_if; first exact: mcond_eqb.
    apply: mpstate_if => //; [apply: IH1|apply: IH2];
      (apply: mpstate_mk; [exact: mstate_branch|exact: mstate_branch|exact: mW]).
  apply: mpstate_mk; [| |exact: mW].
  + apply: mstate_if => //; [apply: mstate_rexec|apply: mstate_rexec]; exact: mstate_branch.
  + apply: mstate_if => //; [apply: mstate_rexec|apply: mstate_rexec]; exact: mstate_branch.
- exact: (@mpstate_pfor (fun w a' ps' => pexec (rtape (tl w)) (sh w) W (o w) (tr w) ctr body a' site ps')
    x (TapeSem.size body) (fun a' Q mQ => IH a' site Q mQ) k a 0%Z P mP).
- cbn [pemit]; apply: mpstate_mk; [| |exact: mW].
  + exact: (mstate_emit (fun w => ROVal (raeval (renv (pl (P w))) e)) mL).
  + exact: (mstate_emit (fun w => ROVal (raeval (renv (pa (P w))) e)) mA).
- by cbn [pemit]; apply: mpstate_mk; [exact: (mstate_emit (fun _ => ROTop) mL)|exact: (mstate_emit (fun _ => ROTop) mA)|exact: mW].
- by cbn [pemit]; apply: mpstate_mk; [exact: (mstate_emit (fun _ => ROBot) mL)|exact: (mstate_emit (fun _ => ROBot) mA)|exact: mW].
- by cbn [pboth]; apply: mpstate_mk; [exact: mstate_stop|exact: mstate_stop|exact: mW].
Qed.

End pexec.

(** ** The shifts of the aligned tape have measurable fibers *)

Lemma mfibers_lmap (A B : Type) (f : B -> T -> A) (s : list B) :
  (forall b, mfibers (f b)) -> mfibers (fun w => List.map (fun b => f b w) s).
Proof.
move=> mf; elim: s => [|b s IH] /=; first exact: mfibers_cst.
exact: mfibers_cons.
Qed.

Theorem zshift_mfibers (p : ProgramSyntax.stmt) (nvars : nat) (W : Z) (ctr : bool)
    (shf : list roval -> list bool -> nat -> rstate -> rstate -> Z) (x x' : list Z) :
  (forall site (o : T -> list roval) (tr : T -> list bool) (L A : T -> rstate),
     mfibers tr -> mstate L -> mstate A -> mfibers (fun w => shf (o w) (tr w) site (L w) (A w))) ->
  mfibers (fun w : T => zshift p nvars W ctr shf x x' (tl w)).
Proof.
move=> hsh.
have mleft : mstate (fun w : T => left_run p nvars x (tl w)).
  exact: (mstate_rexec p 0 (mstate_cst (rinit nvars x))).
have mtr : mfibers (fun w : T => proph_tr ctr (left_run p nvars x (tl w))).
  rewrite /proph_tr; case: ctr; last exact: mfibers_cst.
  by case: mleft => _ [h _]; exact: h.
pose o := fun w : T => rout (left_run p nvars x (tl w)).
pose tr := fun w : T => proph_tr ctr (left_run p nvars x (tl w)).
have Hsh : forall site (L A : T -> rstate), mstate L -> mstate A ->
    mfibers (fun w => shf (o w) (tr w) site (L w) (A w)).
  by move=> site L A; exact: hsh.
have mP : mpstate (fun w : T => pinit nvars x x' (rtape (tl w))).
  by split; [exact: mstate_cst|split; [exact: mstate_cst|move=> b; exact: mreal_rtape]].
have [_ [_ mw]] := @mpstate_pexec (fun w => shf (o w) (tr w)) W o tr ctr Hsh p 0 0 _ mP.
rewrite /zshift.
apply: (@mfibers_lmap _ _ (fun b w => rfloor (Rdefinitions.Rminus (pw (aligned_run p nvars W ctr shf x x' (tl w)) b)
  (rtape (tl w) b)))).
by move=> b; apply: mfibers_rfloor; apply: mreal_minus; [exact: mw|exact: mreal_rtape].
Qed.

(** ** The duty on the shift function, for the shapes the tool renders *)

Lemma mfibers_proph (tr : T -> list bool) (L : T -> rstate) (f g h : T -> Z) :
  mfibers tr -> mstate L -> mfibers f -> mfibers g -> mfibers h ->
  mfibers (fun w => match List.nth_error (tr w) (List.length (rtr (L w))) with
                    | Some true => f w | Some false => g w | None => h w end).
Proof.
move=> mt [_ [mL _]] mf mg mh.
apply: (@mfibers_count _ _ (fun w => List.nth_error (tr w) (List.length (rtr (L w))))
  (fun q w => match q with Some true => f w | Some false => g w | None => h w end)).
  exact: (@mfibers_comp _ _ (fun w => (tr w, rtr (L w))) (fun q => List.nth_error q.1 (List.length q.2))
    (mfibers_pair mt mL)).
by case=> [[]|].
Qed.

Lemma mfibers_rfloor_real (f : T -> RR) : mreal f -> mfibers (fun w => rfloor (f w)).
Proof. exact: mfibers_rfloor. Qed.

End run_fibers.

(** The duty of [zshift_mfibers] on a shift function defined by cases on the site, each a
    constant, a rounding down of a real computed from the two runs' slots, or a choice on the
    branch prophecy between such shifts. *)
Ltac mreal_tac :=
  lazymatch goal with
  | |- mreal (fun _ => ?c) => apply mreal_cst
  | |- mreal (fun w => Rdefinitions.Rplus _ _) => apply mreal_plus; mreal_tac
  | |- mreal (fun w => Rdefinitions.Rminus _ _) => apply mreal_minus; mreal_tac
  | |- mreal (fun w => Rdefinitions.Rmult _ _) => apply mreal_mult; mreal_tac
  | |- mreal (fun w => raeval (renv _) _) => apply mreal_env; assumption
  end.

(** Read from the goal's shape: a failed [apply] costs seconds of unification on the measure
    types. *)
Ltac mshift_leaf :=
  lazymatch goal with
  | |- @mfibers _ _ _ (fun _ => ?c) => apply mfibers_cst
  | |- @mfibers _ _ _ (fun w => rfloor _) => apply mfibers_rfloor_real; mreal_tac
  | |- _ => apply mfibers_proph; [assumption|assumption|mshift_leaf|mshift_leaf|mshift_leaf]
  end.

Ltac mshift_sites site :=
  lazymatch goal with
  | |- @mfibers _ _ _ (fun _ => ?c) => apply mfibers_cst
  | |- _ => destruct site as [|site]; cbv beta iota; [mshift_leaf|mshift_sites site]
  end.

Ltac mshift :=
  let site := fresh "site" in
  intros site ? ? ? ? ? ? ?; mshift_sites site.
