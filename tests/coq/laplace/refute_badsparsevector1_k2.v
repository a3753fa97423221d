(** * badsparsevector1 under continuous Laplace noise at stream length 2, refuted
    (tests/coq/test_laplace_refute.py, which puts the neighbour in place of NEIGHBOUR)

    Written by hand in the shape a route would generate: CheckDP's badsparsevector1 with its
    site `laplace: {scale: 2, center: T}`, slots 0 = eta_1, 1 = T_bar, 2 = count, 3 = i, 4 = qi,
    5 = eta_2; then T, q_1, q_2.  Inputs T = 0, q = (1, 0) and the neighbour NEIGHBOUR; event:
    the outputs (1, 0), released from q on the box eta_1 in [1/4, 3/4] (probability at least
    1/2 * lap(3/4) > 0, RealRefute.v).  With q' = (0, 1) no tape releases it from q' (it would
    need eta_1 <= 0 and 1 < eta_1) and the claim is refuted (the same proof refutes every c);
    with q' = q the proof must fail.  Measured (loaded 2-core machine, CPU): the Qed of
    [bsv_in] 0.4 s, of [bsv_out] 0.2 s, the file 14 s with [Print Assumptions]; before RunSym.v
    rewrote [rtape_run] with [rtape_run_rexec], the Qed of [bsv_in] had not finished after
    4.6 min (docs/laplace.md, "The kernel's cost"). *)
From Obligations Require Import PreludeLaplace.
From Obligations.Laplace Require Import RunSym.
Local Open Scope Z_scope.

Definition bsv_body (k : nat) : stmt :=
  (SSeq
    (SAssign 4 (AIdx 7 k (AVar 3)))
    (SSeq
      (SAssign 5 (AConst 0))
      (SIf (BLe (AVar 1) (AAdd (AVar 4) (AVar 5)))
        (SSeq
          (SOut (AConst 1))
          (SAssign 2 (AAdd (AVar 2) (AConst 1))))
        (SOut (AConst 0))))).

Definition bsv_prog (k : nat) : stmt :=
  (SSeq
    (SSample 0 (DGeom 2 1 (AVar 6)))
    (SSeq
      (SAssign 1 (AVar 0))
      (SSeq
        (SAssign 2 (AConst 0))
        (SFor 3 k (bsv_body k))))).

Definition bsv_nb : list Z -> list Z -> Prop := nb_input 1 2 (rel_each (-1) 1).

Definition bsv_event (o : option (list roval)) : bool :=
  match o with
  | Some [ROVal a0; ROVal a1] => reqb a0 1 && reqb a1 0
  | _ => false
  end.

Lemma bsv_in v : rinbox v [(1/4, 3/4)]%R -> seq.size v = 1%nat -> bsv_event (rtape_run (bsv_prog 2) 6 [0; 1; 0] v) = true.
Proof.
  intros Hv Hs. destruct v as [|v0 [|? ?]]; try discriminate. destruct Hv as [H1 [H2 _]]. cbn [fst snd] in H1, H2.
  remember (rtape_run (bsv_prog 2) 6 [0; 1; 0] [v0]) as r eqn:E.
  unfold bsv_prog, bsv_body in E. rrun E; subst r; unfold bsv_event; rrleaf.
Qed.

Lemma bsv_out v : bsv_event (rtape_run (bsv_prog 2) 6 NEIGHBOUR v) = false.
Proof.
  remember (rtape_run (bsv_prog 2) 6 NEIGHBOUR v) as r eqn:E.
  unfold bsv_prog, bsv_body in E. rrun E; subst r; unfold bsv_event; rrleaf.
Qed.

Theorem bsv_not_dp : ~ rdp_prog bsv_nb (bsv_prog 2) 6 1%R.
Proof.
  apply (@not_rdp_of_rbox bsv_nb (bsv_prog 2) 6 1%R [0; 1; 0] NEIGHBOUR bsv_event [(1/4, 3/4)]%R).
  - split; [reflexivity|split; [reflexivity|cbn; repeat apply Forall2_cons; try apply Forall2_nil; lia]].
  - repeat constructor; cbn; lra.
  - reflexivity.
  - exact bsv_in.
  - exact bsv_out.
Qed.
Print Assumptions bsv_not_dp.
