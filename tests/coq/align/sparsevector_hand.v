(* CheckDP's sparsevector (NN = 3), its alignment and invariant written by hand: the pattern the generator follows. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import TapeSem Relational AlignSound InputRel.
From Obligations.Coupling Require Import AlignTactics.
Import ListNotations.
Local Open Scope Z_scope.

Definition sv_body (k : nat) : stmt :=
  SSeq (SAssign 3 (AIdx 6 k (AVar 2)))
  (SSeq (SSample 4 (DGeom 12 1 (AVar 3)))
   (SIf (BLe (AVar 0) (AVar 4))
      (SSeq (SOut (AConst 1)) (SSeq (SAssign 1 (AAdd (AVar 1) (AConst 1))) (SIf (BLe (AConst 3) (AVar 1)) SStop SSkip)))
      (SOut (AConst 0)))).

Definition sv_prog (k : nat) : stmt :=
  SSeq (SSample 0 (DGeom 2 1 (AVar 5))) (SSeq (SAssign 1 (AConst 0)) (SFor 2 k (sv_body k))).

Definition sv_shift (o : list oval) (tr : list bool) (site : nat) (L A : tstate) : Z :=
  match site with
  | O => 1
  | S O => match nth_error tr (length (ttr L)) with
           | Some true => 1 + read (tenv L) 3 - read (tenv A) 3
           | _ => 0 end
  | _ => 0
  end.

Definition sv_inv (T : Z) (q q' : list Z) (o : list oval) (tr : list bool) (j : nat) (ps : pstate) : Prop :=
  exists l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 OL OA TL TA,
    pl ps = mkts ([l0; l1; l2; l3; l4] ++ T :: q) OL TL false false /\
    pa ps = mkts ([r0; r1; r2; r3; r4] ++ T :: q') OA TA false false /\
    pbad ps = false /\ OL = OA /\ TL = TA /\
    r0 = l0 + 1 /\ r1 = l1 /\ 0 <= l1 < 3 /\ pacc ps <= 6 + 2 * l1.

Definition sv_post (ps : pstate) : Prop :=
  pbad ps = false /\ tout (pa ps) = tout (pl ps) /\ ttr (pa ps) = ttr (pl ps) /\ pacc ps <= 12.

Lemma sv_step (k : nat) (T : Z) (q q' : list Z) v o tr j a ps :
  length q = k -> rel_each (-1) 1 q q' -> (j < k)%nat -> sv_inv T q q' o tr j ps -> thalted (pl ps) = false ->
  let ps' := pexec v (sv_shift o tr) 12 o tr true (sv_body k) a 1 (pboth (tset 2 (Z.of_nat j)) ps) in
  (sv_inv T q q' o tr (S j) ps' /\ thalted (pl ps') = false) \/ (sv_post ps' /\ thalted (pl ps') = true) \/
  pvoid ps' = true.
Proof.
  intros Hk Hq Hj [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [OL [OA [TL [TA [HL [HA [Hb [HO [HT Hi]]]]]]]]]]]]]]]]]]] _ ps'.
  assert (Hd : -1 <= nth j q' 0 - nth j q 0 <= 1) by (destruct (rel_each_nth _ _ _ _ j Hq); [exact H|lia]).
  destruct ps as [L A w acc bd vd]. cbn [pl pa pbad pacc] in *. subst L A bd OA TA.
  unfold sv_body in ps'. remember ps' as r eqn:E. subst ps'. unfold sv_shift in E. unfold sv_inv, sv_post.
  pnorm_in E. Time psym E.
  Time all: subst r; pleaf.
Qed.

Lemma sv_good (k : nat) (x x' : list Z) v o tr : nb_input 1 k (rel_each (-1) 1) x x' ->
  good_run 12 true (pexec v (sv_shift o tr) 12 o tr true (sv_prog k) 0 0 (pinit 5 x x' v)).
Proof.
  intros [Hl [Hf Hr]]. destruct x as [|T q]; [cbn in Hl; lia|]. destruct x' as [|T' q']; [discriminate|].
  cbn in Hf, Hr, Hl. injection Hf as <-. injection Hl as Hk.
  remember (pexec v (sv_shift o tr) 12 o tr true (sv_prog k) 0 0 (pinit 5 (T :: q) (T :: q') v)) as r eqn:E.
  unfold sv_prog, pinit, tinit in E. cbn [repeat app] in E.
  psym E. cbn [sv_shift] in E.
  match type of E with context [pexec ?v ?sh ?W ?o ?tr ?ctr (SFor ?x ?n ?body) ?a ?site ?ps] =>
    destruct (loop_cases v sh W o tr ctr x n body a site ps (sv_inv T q q' o tr) sv_post) as [[Hi Hh]|[[Hfin Hh]|Hv]] end.
  - intros j a' ps Hj Hi Hh. apply sv_step; assumption.
  - unfold sv_inv. do 14 eexists. cbn. repeat split; first [reflexivity|lia].
  - reflexivity.
  - rewrite <- E in Hi. destruct Hi as [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [OL [OA [TL [TA [HL [HA [Hb [HO [HT Hi]]]]]]]]]]]]]]]]]]].
    right. rewrite HL, HA, HO, HT. cbn. repeat split; first [reflexivity|assumption|lia].
  - rewrite <- E in Hfin. right. destruct Hfin as [H1 [H2 [H3 H4]]]. repeat split; auto.
  - rewrite <- E in Hv. left. exact Hv.
Qed.

Theorem sv_dp : dp_all_k (fun k => nb_input 1 k (rel_each (-1) 1)) sv_prog 5 1.
Proof.
  intros k. replace 1%R with (IZR 12 / IZR 12)%R by (field; discriminate).
  apply (dp_of_aligned _ _ 5 12 12 true sv_shift); [reflexivity|lia|].
  intros x x' Hnb v o tr. apply sv_good, Hnb.
Qed.
Print Assumptions sv_dp.
