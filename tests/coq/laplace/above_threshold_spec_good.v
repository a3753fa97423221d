(** AboveThreshold on one answer as a spec lowers it (threshold T public, the stream q of a
    fixed length 1 read by a loop, neighbours: the answer moves by at most 1), with
    continuous noise: the aligned run is void or good for every input pair, real tape and
    prophecy, proved by RealSym.v's generic tactics alone — the loop unrolls at the fixed
    length, [rsym] executes the aligned run statement by statement and splits on the
    comparisons, [rfinal] closes each leaf by [lra] / [lia].  No program-specific step.

    Slots: 0 T_bar, 1 i, 2 qi, 3 eta; then the input: 4 T (public), 5 q (the stream).
    The shift: the threshold by 1; the answer by 1 + qi - qi' when the prophecy says the next
    branch is taken, else 0; cost at most CLAIM_C in units of eps/4 (the claim: 4, eps-DP). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem InputRel.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealAlignSteps RealSym.
Import ListNotations.
Local Open Scope Z_scope.

Definition at1s_body (k : nat) : stmt :=
  (SSeq
    (SAssign 2 (AIdx 5 k (AVar 1)))
    (SSeq
      (SSample 3 (DGeom 4 1 (AVar 2)))
      (SIf (BLe (AVar 0) (AVar 3))
        (SOut (AConst 1))
        (SOut (AConst 0))))).

Definition at1s_prog (k : nat) : stmt :=
  (SSeq
    (SSample 0 (DGeom 2 1 (AVar 4)))
    (SFor 1 k (at1s_body k))).

Definition at1s_nb : list Z -> list Z -> Prop := nb_input 1 1 (rel_each (-1) 1).

Definition at1s_shift (o : list roval) (tr : list bool) (site : nat) (L A : rstate) : Z :=
  match site with
  | 0%nat => 1
  | 1%nat => match nth_error tr (length (rtr L)) with
             | Some true => rfloor (IZR 1 + (raeval (renv L) (AVar 2) - raeval (renv A) (AVar 2)))
             | Some false => 0
             | None => 0
             end
  | _ => 0
  end.

Lemma at1s_good (x x' : list Z) v o tr : at1s_nb x x' ->
  good_run CLAIM_C true (pexec v (at1s_shift o tr) 4 o tr true (at1s_prog 1) 0 0 (pinit 4 x x' v)).
Proof.
  intros Hnb. destruct (nb_input_each_length _ _ _ _ _ _ Hnb) as [Hlx Hlx'].
  destruct x as [|x0 [|x1 [|? ?]]]; try discriminate Hlx.
  destruct x' as [|y0 [|y1 [|? ?]]]; try discriminate Hlx'.
  destruct Hnb as [_ [Hp Hr]]. cbn [firstn skipn] in Hp, Hr. injection Hp as Hp. subst.
  rfacts_each.
  remember (pexec v (at1s_shift o tr) 4 o tr true (at1s_prog 1) 0 0 (pinit 4 _ _ v)) as r eqn:E.
  unfold at1s_prog, at1s_body, pinit, rinit, at1s_shift in E. cbn [repeat app map] in E. rnorm_in E.
  rsym E.
  all: subst r; rfinal.
Qed.

Local Set Printing Width 100000.
Print Assumptions at1s_good.
