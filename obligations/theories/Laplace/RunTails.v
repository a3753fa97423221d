(** * The neighbour's run into the event stays in the tails, for refutations by a ratio

    [rrtail] closes a leaf of [rrun] on the neighbour's run in a goal
    [NAME_event r = true -> rincyl v cy] (RealRatio.v's [not_rdp_of_rratio]): the event
    decided on the released reals (a leaf whose outputs do not match it is void), then each
    position's tail read off the comparisons the path took and the event's, by [lra] (the
    tape's reads at a position computed from the loop index, [i * size body], reduced first:
    [lra] reads them as the tape's values only then). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Laplace Require Import RealTape RealSym RunSym RealRatio.
Local Open Scope R_scope.

Ltac rrtail :=
  let H := fresh "HS" in
  intros H; cbv beta iota in H;
  first
    [ discriminate H
    | rbool_hyps; izr_push_all; cbn [Nat.mul Nat.add rincyl rtail_in] in *; repeat split; lra ].

(** A leaf of [rrun] on the run from [x] on the box: the event decided on the released reals,
    a half-line ([rleb]) as a pinned value ([reqb]), by [lra] from the box and the path. *)
Ltac rrbox :=
  rbool_hyps; izr_push_all; unfold is_true, reqb, rleb in *; cbn [Nat.mul Nat.add] in *;
  repeat match goal with
  | |- context [Req_EM_T ?x ?y] => destruct (Req_EM_T x y)
  | |- context [Rle_dec ?x ?y] => destruct (Rle_dec x y)
  end;
  cbn [andb orb negb]; first [reflexivity | exfalso; lra].
