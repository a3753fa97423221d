(** * A shift reading the released index: the prophecy of a released real, measurable

    Report-noisy-max's alignment moves the noise of the answer whose index the
    program releases after the loop: the shift at the loop's sampling site
    reads the output prophecy [o] (the left run's outputs) and compares the
    loop index with the released value ([released_at]).  Over the reals a
    released value is a real ([ROVal r]), so the prophecy is no longer a
    countable choice: RunFibers.v's [zshift_mfibers] asks nothing of [o] and
    cannot close such a shift.  Here the left run's outputs are shown
    measurable once, for every program ([mrout_rexec]: the tags of the
    released values have measurable fibers and each released real is a
    measurable real), and [zshift_mfibers_released] is [zshift_mfibers] with
    that fact given to the duty on the shift function; [mshift_released]
    closes the duty for the shapes the tool renders, the comparison with the
    released index included ([mfibers_released]).

    Without measure theory: a released value the prophecy names is a whole
    number or it is not ([released_cases]); when it is not, a run whose
    released value is a whole number (an index) is void at its output, so a
    generated invariant states its phases for a whole-number prophecy only. *)
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
From Obligations.Laplace Require Import RealRelational RealAlignRun RunFibers ReleasedIndex.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Def Num.Theory.
Local Open Scope classical_set_scope.
Local Open Scope ring_scope.

Local Notation R := Rdefinitions.R.
Local Notation IZR := Rdefinitions.IZR.

(** ** The left run's outputs are measurable *)

Section released.
Variable n : nat.
Local Notation T := (tape real_realType n).
Local Notation RR := (Real.sort real_realType).

Definition rtag (ov : roval) : nat := match ov with ROTop => 0 | ROBot => 1 | ROVal _ => 2 end.

Definition oreal (ov : option roval) : R := match ov with Some (ROVal r) => r | _ => IZR Z0 end.

(** Lists of released values, measurable in the tape: their tags have measurable fibers and
    each released real is a measurable real. *)
Definition mrout (o : T -> list roval) : Prop :=
  mfibers (fun w => List.map rtag (o w)) /\ forall i, mreal (fun w => oreal (List.nth_error (o w) i)).

Lemma mrout_ext (o o' : T -> list roval) : (forall w, o w = o' w) -> mrout o' -> mrout o.
Proof. by move=> e; rewrite (_ : o = o') //; apply/funext. Qed.

Lemma mrout_cst (l : list roval) : mrout (fun _ => l).
Proof. by split; [exact: mfibers_cst|move=> i; exact: mreal_cst]. Qed.

Lemma mrout_if (c : T -> bool) (o o' : T -> list roval) : measurable [set w | c w] -> mrout o -> mrout o' ->
  mrout (fun w => if c w then o w else o' w).
Proof.
move=> mc [t r] [t' r']; split.
- rewrite (_ : (fun w => _) = (fun w => if c w then List.map rtag (o w) else List.map rtag (o' w))).
    exact: mfibers_if.
  by apply/funext => w; case: (c w).
- move=> i; rewrite (_ : (fun w => _) = (fun w => if c w then oreal (List.nth_error (o w) i)
                                                  else oreal (List.nth_error (o' w) i))).
    exact: mreal_if.
  by apply/funext => w; case: (c w).
Qed.

Lemma oreal_app (l : list roval) (ov : roval) (i : nat) :
  oreal (List.nth_error (l ++ [:: ov])%list i) =
  if (i <? List.length l)%nat then oreal (List.nth_error l i)
  else if (i =? List.length l)%nat then oreal (Some ov) else IZR Z0.
Proof.
case: (Nat.ltb_spec i (List.length l)) => h; first by rewrite List.nth_error_app1.
rewrite List.nth_error_app2 //; case: (Nat.eqb_spec i (List.length l)) => e.
  by rewrite e PeanoNat.Nat.sub_diag.
have [m ->] : exists m, Nat.sub i (List.length l) = S m.
  by exists (Nat.sub (Nat.sub i (List.length l)) 1); lia.
by case: m.
Qed.

Lemma mrout_emit (ov : T -> roval) (o : T -> list roval) :
  mfibers (fun w => rtag (ov w)) -> mreal (fun w => oreal (Some (ov w))) -> mrout o ->
  mrout (fun w => (o w ++ [:: ov w])%list).
Proof.
move=> mt mr [t r]; split.
- rewrite (_ : (fun w => _) = (fun w => (List.map rtag (o w) ++ [:: rtag (ov w)])%list)).
    exact: (@mfibers_comp _ _ _ (fun w => (List.map rtag (o w), rtag (ov w))) (fun q => (q.1 ++ [:: q.2])%list)
      (mfibers_pair t mt)).
  by apply/funext => w; rewrite List.map_app.
- move=> i; have ml : mfibers (fun w => List.length (o w)).
    rewrite (_ : (fun w => _) = (fun w => List.length (List.map rtag (o w)))).
      exact: (@mfibers_comp _ _ _ (fun w => List.map rtag (o w)) (@List.length nat) t).
    by apply/funext => w; rewrite List.map_length.
  pose f := fun b w => if (i <? b)%nat then oreal (List.nth_error (o w) i)
    else if (i =? b)%nat then oreal (Some (ov w)) else IZR Z0.
  apply: (@mreal_ext _ _ (fun w => f (List.length (o w)) w)).
    by move=> w; rewrite oreal_app.
  apply: (@mreal_count _ _ (fun w => List.length (o w)) f ml) => b.
  by rewrite /f; case: (i <? b)%nat; [exact: r|case: (i =? b)%nat; [exact: mr|exact: mreal_cst]].
Qed.

Lemma mrout_halt (F G : T -> rstate) : mstate F -> mrout (fun w => rout (F w)) -> mrout (fun w => rout (G w)) ->
  mrout (fun w => rout (if rhalted (F w) then F w else G w)).
Proof.
move=> mF oF oG; apply: (@mrout_ext _ (fun w => if rhalted (F w) then rout (F w) else rout (G w))).
  by move=> w; case: (rhalted (F w)).
by apply: mrout_if => //; exact: mstate_halted.
Qed.

Lemma mrout_rfor (step : T -> nat -> rstate -> rstate) (x sb : nat) :
  (forall a F, mstate F -> mstate (fun w => step w a (F w))) ->
  (forall a F, mstate F -> mrout (fun w => rout (F w)) -> mrout (fun w => rout (step w a (F w)))) ->
  forall k a i F, mstate F -> mrout (fun w => rout (F w)) ->
  mrout (fun w => rout (rfor (step w) x sb a i k (F w))).
Proof.
move=> hs ho; elim=> [|k IH] a i F mF oF; cbn [rfor]; first exact: oF.
have mS : mstate (fun w => rset x (IZR i) (F w)) by apply: mstate_set => //; exact: mreal_cst.
apply: IH.
- by apply: mstate_if; [exact: mstate_halted|exact: mF|exact: hs].
- by apply: mrout_halt => //; apply: ho.
Qed.

Theorem mrout_rexec (s : ProgramSyntax.stmt) : forall a F, mstate F -> mrout (fun w => rout (F w)) ->
  mrout (fun w => rout (rexec (rtape (tl w)) s a (F w))).
Proof.
elim: s => [|s1 IH1 s2 IH2|x e|x d|b s1 IH1 s2 IH2|x k body IH|e| | | ] a F mF oF; cbn [rexec];
  apply: mrout_halt => //.
- by apply: IH2; [exact: mstate_rexec|exact: IH1].
- by case: d.
- apply: (@mrout_ext _ (fun w => if rbeval (renv (F w)) b
      then rout (rexec (rtape (tl w)) s1 a (rbranch true (F w)))
      else rout (rexec (rtape (tl w)) s2 (a + TapeSem.size s1) (rbranch false (F w))))).
    by move=> w; case: (rbeval _ b).
  apply: mrout_if; first exact: mcond_env.
    by apply: IH1 => //; exact: mstate_branch.
  by apply: IH2 => //; exact: mstate_branch.
- exact: (@mrout_rfor (fun w => rexec (rtape (tl w)) body) x (TapeSem.size body)
    (fun a' G mG => mstate_rexec body a' mG) (fun a' G mG oG => IH a' G mG oG) k a 0%Z F mF oF).
- apply: mrout_emit oF; first exact: mfibers_cst.
  exact: mreal_env.
- by apply: mrout_emit oF; [exact: mfibers_cst|exact: mreal_cst].
- by apply: mrout_emit oF; [exact: mfibers_cst|exact: mreal_cst].
Qed.

(** ** The pieces, with the output prophecy measurable *)

Theorem zshift_mfibers_released (p : ProgramSyntax.stmt) (nvars : nat) (W : Z) (ctr : bool)
    (shf : list roval -> list bool -> nat -> rstate -> rstate -> Z) (x x' : list Z) :
  (forall site (o : T -> list roval) (tr : T -> list bool) (L A : T -> rstate),
     mfibers tr -> mrout o -> mstate L -> mstate A -> mfibers (fun w => shf (o w) (tr w) site (L w) (A w))) ->
  mfibers (fun w : T => zshift p nvars W ctr shf x x' (tl w)).
Proof.
move=> hsh.
have mleft : mstate (fun w : T => left_run p nvars x (tl w)).
  exact: (mstate_rexec p 0 (mstate_cst n (rinit nvars x))).
have oleft : mrout (fun w : T => rout (left_run p nvars x (tl w))).
  exact: (mrout_rexec p 0 (mstate_cst n (rinit nvars x)) (mrout_cst _)).
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
have [_ [_ mw]] := @mpstate_pexec _ (fun w => shf (o w) (tr w)) W o tr ctr Hsh p 0 0 _ mP.
rewrite /zshift.
apply: (@mfibers_lmap _ _ _ (fun b w => rfloor (Rdefinitions.Rminus (pw (aligned_run p nvars W ctr shf x x' (tl w)) b)
  (rtape (tl w) b)))).
by move=> b; apply: mfibers_rfloor; apply: mreal_minus; [exact: mw|exact: mreal_rtape].
Qed.

(** A choice on whether a slot of the left run holds the released value. *)
Lemma mfibers_released (o : T -> list roval) (L : T -> rstate) (i : nat) (e : ProgramSyntax.aexp) (f g : T -> Z) :
  mrout o -> mstate L -> mfibers f -> mfibers g ->
  mfibers (fun w => if released_at (o w) i (raeval (renv (L w)) e) then f w else g w).
Proof.
move=> [t r] mL mf mg; apply: mfibers_if => //.
have mtag : mfibers (fun w => List.nth_error (List.map rtag (o w)) i).
  exact: (@mfibers_comp _ _ _ (fun w => List.map rtag (o w)) (fun q => List.nth_error q i) t).
rewrite (_ : [set w | _] = [set w | List.nth_error (List.map rtag (o w)) i = Some 2%nat] `&`
    [set w | reqb (raeval (renv (L w)) e) (oreal (List.nth_error (o w) i))]).
  by apply: measurableI; [exact: mtag|apply: measurable_reqb; [exact: mreal_env|exact: r]].
apply/seteqP; split => w /=; rewrite /released_at List.nth_error_map;
  case: (List.nth_error (o w) i) => [[| |v]|] //=; first [by move=> h; split | by case].
Qed.

End released.

(** The duty of [zshift_mfibers_released] on a shift function defined by cases on the site,
    each a constant, a rounding down of a real computed from the two runs' slots, a choice on
    the branch prophecy or on the released index between such shifts. *)
Ltac mshift_released_leaf :=
  lazymatch goal with
  | |- @mfibers _ _ _ (fun _ => ?c) => apply mfibers_cst
  | |- @mfibers _ _ _ (fun w => rfloor _) => apply mfibers_rfloor_real; mreal_tac
  | |- @mfibers _ _ _ (fun w => if released_at _ _ _ then _ else _) =>
      apply mfibers_released; [assumption|assumption|mshift_released_leaf|mshift_released_leaf]
  | |- _ => apply mfibers_proph; [assumption|assumption|mshift_released_leaf|mshift_released_leaf
                                 |mshift_released_leaf]
  end.

Ltac mshift_released_sites site :=
  lazymatch goal with
  | |- @mfibers _ _ _ (fun _ => ?c) => apply mfibers_cst
  | |- _ => destruct site as [|site]; cbv beta iota; [mshift_released_leaf|mshift_released_sites site]
  end.

Ltac mshift_released :=
  let site := fresh "site" in
  intros site ? ? ? ? ? ? ? ?; mshift_released_sites site.
