(** A threshold test on one answer, refuted under continuous noise by RealRefute.v's
    [not_rdp_of_rbox] (tests/coq/test_laplace_refute.py substitutes GUARD).  One Laplace
    sample eta (scale 1/eps) at position 0, then output 1 when GUARD holds, else 0; slot 1
    is the answer q.  With GUARD = [0 <= q] (no noise) the answers 0 and -1 release
    different outputs for every tape, so the event "outputs (1)" has a box of positive
    probability from q = 0 and none from q = -1: not eps-DP.  With GUARD = [eta <= q]
    the program is eps-DP, and the proof fails (the event is reachable from q = -1). *)
From Obligations Require Import PreludeLaplace.
From Obligations.Laplace Require Import RunSym.
Local Open Scope Z_scope.

Definition t_prog : stmt :=
  SSeq (SSample 0 (DGeom 1 1 (AConst 0))) (SIf GUARD (SOut (AConst 1)) (SOut (AConst 0))).

Definition t_nb : list Z -> list Z -> Prop := nb_input 0 1 (rel_each (-1) 1).

Definition t_event (o : option (list roval)) : bool :=
  match o with Some [ROVal a0] => reqb a0 1 | _ => false end.

Lemma t_in v : rinbox v [(-2, -1)]%R -> seq.size v = 1%nat -> t_event (rtape_run t_prog 1 [0] v) = true.
Proof.
  intros Hv Hs. destruct v as [|v0 [|? ?]]; try discriminate. destruct Hv as [H1 [H2 _]]. cbn [fst snd] in H1, H2.
  remember (rtape_run t_prog 1 [0] [v0]) as r eqn:E. unfold t_prog in E. rrun E; subst r; unfold t_event; rrleaf.
Qed.

Lemma t_out v : t_event (rtape_run t_prog 1 [-1] v) = false.
Proof.
  remember (rtape_run t_prog 1 [-1] v) as r eqn:E. unfold t_prog in E. rrun E; subst r; unfold t_event; rrleaf.
Qed.

Theorem t_not_dp : ~ rdp_prog t_nb t_prog 1 1%R.
Proof.
  apply (@not_rdp_of_rbox t_nb t_prog 1 1%R [0] [-1] t_event [(-2, -1)]%R).
  - split; [reflexivity|split; [reflexivity|cbn; repeat apply Forall2_cons; try apply Forall2_nil; lia]].
  - repeat constructor; cbn; lra.
  - reflexivity.
  - exact t_in.
  - exact t_out.
Qed.
Print Assumptions t_not_dp.
