(* CheckDP's noisymax, verbatim (`an > best or i == 0`): the winner's noise shifted by 2, read from the prophecy of the output; the invariant in phases before/after the winner, with the doomed disjunct. Written by hand: the pattern the generator follows. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import TapeSem Relational AlignSound InputRel AlignTactics.
Import ListNotations.
Local Open Scope Z_scope.

Definition nm_body (k : nat) : stmt :=
  SSeq (SAssign 3 (AIdx 5 k (AVar 2)))
  (SSeq (SSample 4 (DGeom 2 1 (AVar 3)))
   (SIf (BOr (BLt (AVar 0) (AVar 4)) (BEq (AVar 2) (AConst 0)))
      (SSeq (SAssign 1 (AVar 2)) (SAssign 0 (AVar 4))) SSkip)).

Definition nm_prog (k : nat) : stmt :=
  SSeq (SAssign 0 (AConst 0)) (SSeq (SAssign 1 (AConst 0)) (SSeq (SFor 2 k (nm_body k)) (SOut (AVar 1)))).

Definition nm_shift (o : list oval) (tr : list bool) (site : nat) (L A : tstate) : Z :=
  match site with
  | O => match nth_error o 0 with Some (OVal w) => if read (tenv L) 2 =? w then 2 else 0 | _ => 0 end
  | _ => 0
  end.

Definition nm_arith (o : list oval) (j : nat) (l0 l1 r0 r1 acc : Z) : Prop :=
  match nth_error o 0 with
  | Some (OVal w) =>
      (Z.of_nat j <= w /\ acc = 0 /\ ((Z.of_nat j = 0 /\ l1 = 0 /\ r1 = 0) \/ (0 < Z.of_nat j /\ l1 < Z.of_nat j /\ r0 <= l0 + 1)))
      \/ (w < Z.of_nat j /\ ((l1 = w /\ r1 = w /\ l0 + 1 <= r0 /\ acc <= 2) \/ (l1 <> w /\ acc <= 2)))
  | _ => True
  end.

Definition nm_inv (q q' : list Z) (o : list oval) (tr : list bool) (j : nat) (ps : pstate) : Prop :=
  exists l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 TL TA,
    pl ps = mkts ([l0; l1; l2; l3; l4] ++ q) [] TL false false /\
    pa ps = mkts ([r0; r1; r2; r3; r4] ++ q') [] TA false false /\
    pbad ps = false /\ nm_arith o j l0 l1 r0 r1 (pacc ps).

Lemma nm_step (k : nat) (q q' : list Z) v o tr j a ps :
  length q = k -> rel_each (-1) 1 q q' -> (j < k)%nat -> nm_inv q q' o tr j ps -> thalted (pl ps) = false ->
  let ps' := pexec v (nm_shift o tr) 2 o tr false (nm_body k) a 0 (pboth (tset 2 (Z.of_nat j)) ps) in
  (nm_inv q q' o tr (S j) ps' /\ thalted (pl ps') = false) \/ (False /\ thalted (pl ps') = true) \/
  pvoid ps' = true.
Proof.
  intros Hk Hq Hj [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [TL [TA [HL [HA [Hb Hi]]]]]]]]]]]]]]] _ ps'.
  assert (Hd : -1 <= nth j q' 0 - nth j q 0 <= 1) by (destruct (rel_each_nth _ _ _ _ j Hq); [exact H|lia]).
  destruct ps as [L A w acc bd vd]. cbn [pl pa pbad pacc] in *. subst L A bd.
  unfold nm_arith in Hi. unfold nm_inv, nm_arith.
  destruct (nth_error o 0) as [[| |wo]|] eqn:Ho.
  all: unfold nm_body in ps'; remember ps' as r eqn:E; subst ps'; unfold nm_shift in E; rewrite ?Ho in E.
  all: pnorm_in E; psym E.
  all: subst r; pleaf.
Qed.

Lemma nm_good (k : nat) (x x' : list Z) v o tr : nb_input 0 k (rel_each (-1) 1) x x' ->
  good_run 2 false (pexec v (nm_shift o tr) 2 o tr false (nm_prog k) 0 0 (pinit 5 x x' v)).
Proof.
  intros [Hl [_ Hr]]. cbn [skipn] in Hr. cbn in Hl.
  remember (pexec v (nm_shift o tr) 2 o tr false (nm_prog k) 0 0 (pinit 5 x x' v)) as r eqn:E.
  unfold nm_prog, pinit, tinit in E. cbn [repeat app] in E.
  psym E.
  match type of E with context [pexec ?lv ?lsh ?lW ?lo ?ltr ?lctr (SFor ?lx ?ln ?lbody) ?la ?lsite ?lps] =>
    destruct (loop_cases lv lsh lW lo ltr lctr lx ln lbody la lsite lps (nm_inv x x' o tr) (fun _ => False))
      as [[Hi Hh]|[[Hfin Hh]|Hv]];
    [| | | set (rl := pexec lv lsh lW lo ltr lctr (SFor lx ln lbody) la lsite lps) in *..] end.
  - intros j a' ps Hj Hi Hh. apply nm_step; assumption.
  - unfold nm_inv, nm_arith. do 12 eexists. repeat split; try reflexivity. cbn [pacc].
    destruct (nth_error o 0) as [[| |wo]|]; try exact I. lia.
  - reflexivity.
  - destruct Hi as [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [TL [TA [HL [HA [Hb Hi]]]]]]]]]]]]]]].
    rewrite (pstate_eta rl), HL, HA, Hb in E. unfold nm_arith in Hi.
    destruct (nth_error o 0) as [[| |wo]|] eqn:Ho; psym E; subst r; pfinal.
  - destruct Hfin.
  - left. rewrite E. apply pexec_void_mono, Hv.
Qed.

Theorem nm_dp : dp_all_k (fun k => nb_input 0 k (rel_each (-1) 1)) nm_prog 5 1.
Proof.
  intros k. replace 1%R with (IZR 2 / IZR 2)%R by (field; discriminate).
  apply (dp_of_aligned _ _ 5 2 2 false nm_shift); [reflexivity|lia|].
  intros x x' Hnb v o tr. apply nm_good, Hnb.
Qed.
Print Assumptions nm_dp.

