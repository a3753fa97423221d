(** AboveThreshold on one answer as a spec lowers it (a loop over a stream of fixed length 1),
    proved eps-DP under continuous Laplace noise for every eps > 0 and every event on outputs
    ([rdp_prog]) with no program-specific step: [rdp_of_aligned], the aligned run void or good
    by RealSym.v's [rsym]/[rfinal], the measurable pieces by FiberSym.v's [mfibers_zshift]
    (the shifts computed on a symbolic tape by [lazy], split on each comparison of noisy
    values, TapeFibers.v's lemmas at the leaves).  What a generated certificate would hold.
    Slots: 0 T_bar, 1 i, 2 qi, 3 eta; then the input: 4 T (public), 5 q (the stream). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem InputRel.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealAlignSteps RealSym.
From Obligations.Laplace Require Import TapeMeasure ProgAlign TapeFibers FiberSym RealAlignSound.
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
  good_run 4 true (pexec v (at1s_shift o tr) 4 o tr true (at1s_prog 1) 0 0 (pinit 4 x x' v)).
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

Theorem at1s_dp : rdp_prog at1s_nb (at1s_prog 1) 4 1.
Proof.
  replace 1%R with (IZR 4 / IZR 4)%R by field.
  rewrite Rstruct.RdivE by (apply (ssrbool.introN eqtype.eqP); change (IZR 4 <> IZR 0); apply not_0_IZR; discriminate).
  apply (@rdp_of_aligned at1s_nb (at1s_prog 1) 4 4 4 true at1s_shift); [reflexivity | lia | intros x x' Hnb v o tr; exact (at1s_good x x' v o tr Hnb) |].
  intros e x x' z Hnb. revert z.
  destruct (nb_input_each_length _ _ _ _ _ _ Hnb) as [Hlx Hlx'].
  destruct x as [|x0 [|x1 [|? ?]]]; try discriminate Hlx.
  destruct x' as [|y0 [|y1 [|? ?]]]; try discriminate Hlx'.
  unfold at1s_prog, at1s_body, at1s_shift.
  mfibers_zshift.
Qed.
Local Set Printing Width 100000.
Print Assumptions at1s_dp.
