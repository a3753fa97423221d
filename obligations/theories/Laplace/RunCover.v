(** * The neighbour's run into the event stays in a union of products of tails, piece by piece

    [rrcover t bs] closes a leaf of [rrun] on the neighbour's run in a goal
    [NAME_event r = true -> rinunion v cys] (RatioCover.v's [not_rdp_of_rcover]): the event
    decided on the released reals (a leaf whose outputs do not match it is void), then the
    pivot's value [t] compared with each breakpoint of [bs] in turn (ascending): at the first
    breakpoint at or above it the tape is in that piece's product, each tail by [lra] from the
    comparisons the path took, the event's and the piece's bounds; above every breakpoint, in
    the last product. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Laplace Require Import RealTape RealSym RunSym RealRatio RunTails RatioCover.
Local Open Scope R_scope.

Ltac rrpiece := cbn [rincyl rtail_in]; repeat split; lra.

Ltac rrpieces t bs :=
  lazymatch bs with
  | @nil _ => cbn [rinunion]; rrpiece
  | @cons _ ?b ?bs' =>
      destruct (Rle_lt_dec t b);
      [ cbn [rinunion]; left; rrpiece | cbn [rinunion]; right; rrpieces t bs' ]
  end.

Ltac rrcover t bs :=
  let H := fresh "HS" in
  intros H; cbv beta iota in H;
  first
    [ discriminate H
    | rbool_hyps; izr_push_all; cbn [Nat.mul Nat.add] in *; rrpieces t bs ].
