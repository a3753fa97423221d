(** * The input vectors of a program: declared ranges and neighbours

    A program's input is a vector of integers, one per declared input slot.
    A generated file states its claim over [range_vecs] of the ranges the spec
    declares; two vectors are neighbours ([vec_nb]) when every slot differs by
    at most the slot's sensitivity. *)
From Coq Require Import List ZArith Bool.
From Obligations.Program Require Import ProgramSem.
Import ListNotations.

(** ** The declared input vectors *)

(** Every vector whose slot [k] lies in the [k]-th range [lo .. hi]: the
    cartesian product of the ranges, first slot slowest (the order the tool
    enumerates inputs in).  A generated file states its claim over
    [range_vecs] of the ranges the spec declares. *)
Fixpoint range_vecs (rs : list (Z * Z)) : list (list Z) :=
  match rs with
  | [] => [[]]
  | (lo, hi) :: rs' =>
      let tails := range_vecs rs' in
      flat_map (fun v => map (cons v) tails) (zrange lo hi)
  end.

(** Slotwise membership: as many slots as ranges, each in its range. *)
Fixpoint in_ranges (rs : list (Z * Z)) (x : list Z) : Prop :=
  match rs, x with
  | [], [] => True
  | (lo, hi) :: rs', v :: x' => (lo <= v <= hi)%Z /\ in_ranges rs' x'
  | _, _ => False
  end.

(** [range_vecs rs] lists exactly the vectors in the ranges [rs]. *)
Lemma in_range_vecs (rs : list (Z * Z)) (x : list Z) : In x (range_vecs rs) <-> in_ranges rs x.
Proof.
  revert x. induction rs as [|[lo hi] rs IH]; intros x; cbn [range_vecs in_ranges].
  - destruct x as [|v x]; cbn; split; intros H.
    + exact I.
    + left. reflexivity.
    + destruct H as [H|[]]. discriminate.
    + contradiction.
  - rewrite in_flat_map. split.
    + intros [v [Hv Hx]]. apply in_map_iff in Hx as [x' [<- Hx']].
      split; [apply in_zrange, Hv|apply IH, Hx'].
    + destruct x as [|v x']; [contradiction|]. intros [Hv Hx'].
      exists v. split; [apply in_zrange, Hv|]. apply in_map, IH, Hx'.
Qed.

(** ** Neighbouring input vectors *)

(** Componentwise [|x_k - x'_k| <= delta_k]; a missing or zero delta means a
    public component, which must be equal. *)
Fixpoint vec_nb (deltas x x' : list Z) : bool :=
  match x, x' with
  | [], [] => true
  | a :: x1, b :: x1' => (Z.abs (a - b) <=? hd 0%Z deltas)%Z && vec_nb (tl deltas) x1 x1'
  | _, _ => false
  end.

Definition nb_vec (deltas : list Z) (inputs : list (list Z)) : nat -> nat -> bool :=
  fun i j => vec_nb deltas (nth i inputs []) (nth j inputs []).
