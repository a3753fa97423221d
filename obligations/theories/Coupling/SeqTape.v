(** * Programs with untruncated noise: the sequential tape of the family theories

    Kept for the certificates of SparseVector.v and ReportNoisyMax.v; the
    semantics of the generic route is TapeSem.v (a tape addressed by
    sampling site and loop iteration).

    The same syntax as the finite programs (Program/ProgramSyntax.v), run on a
    noise tape: a vector [v] in Z^n drawn from independent two-sided geometric
    distributions.  The [j]-th sampling statement executed reads [v_j]; its
    value is [center + v_j].  The layout [ws] (one scale num/den per tape
    position) fixes the law of each position: position [j] is [dlaplace] of rate
    ε·den/num.  A sampling statement whose scale is not the one [ws] gives its
    position, a sampling statement of another distribution, or a run needing
    more than [n] draws is a fault: the run's output is [None] (the generated
    certificates prove no run of a tape of length [n] faults).

    The environment holds the program's variables first ([nvars] slots, zero at
    the start) and then the input stream [x], of any length [k]: a program for
    every stream length is a function [k ↦ stmt], its loop [SFor i k body]
    reading the stream with [AIdx nvars k (AVar i)].

    [dp_stream] is the claim the certificates state: for every stream length,
    every ε > 0 and every pair of streams differing by at most Δ entry by
    entry, Pr[p(x) ∈ S] ≤ e^ε · Pr[p(x') ∈ S] for every event S on outputs. *)
From Coq Require Import List ZArith Reals Lia Lra.
From Obligations.Core Require Import Privacy.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment.
Import ListNotations.
Local Open Scope R_scope.

Record tstate := mkts { tenv : list Z; tout : list oval; thalted : bool; tpos : nat; tfault : bool }.

Definition tset (x : nat) (v : Z) (st : tstate) : tstate :=
  mkts (write (tenv st) x v) (tout st) (thalted st) (tpos st) (tfault st).

Definition temit (o : oval) (st : tstate) : tstate :=
  mkts (tenv st) (tout st ++ [o]) (thalted st) (tpos st) (tfault st).

Definition tstop (st : tstate) : tstate := mkts (tenv st) (tout st) true (tpos st) (tfault st).

Definition tfail (st : tstate) : tstate := mkts (tenv st) (tout st) true (tpos st) true.

(** Position [pos] of the layout has the scale [num/den]. *)
Definition scale_at (ws : list (positive * positive)) (pos : nat) (num den : positive) : bool :=
  match nth_error ws pos with
  | Some (n, d) => Pos.eqb n num && Pos.eqb d den
  | None => false
  end.

Definition tsample (ws : list (positive * positive)) (tape : list Z) (x : nat) (d : dexp)
    (st : tstate) : tstate :=
  match d with
  | DGeom num den c =>
      if scale_at ws (tpos st) num den
      then mkts (write (tenv st) x (aeval (tenv st) c + nth (tpos st) tape 0)%Z)
                (tout st) (thalted st) (S (tpos st)) (tfault st)
      else tfail st
  | _ => tfail st
  end.

(** [n] iterations from counter value [i]; a halted state is left alone. *)
Fixpoint tfor (step : tstate -> tstate) (x : nat) (i : Z) (n : nat) (st : tstate) : tstate :=
  match n with
  | O => st
  | S n' => tfor step x (Z.succ i) n' (if thalted st then st else step (tset x i st))
  end.

Fixpoint texec (ws : list (positive * positive)) (tape : list Z) (s : stmt) (st : tstate)
    {struct s} : tstate :=
  if thalted st then st else
  match s with
  | SSkip => st
  | SSeq s1 s2 => texec ws tape s2 (texec ws tape s1 st)
  | SAssign x a => tset x (aeval (tenv st) a) st
  | SSample x d => tsample ws tape x d st
  | SIf b s1 s2 => if beval (tenv st) b then texec ws tape s1 st else texec ws tape s2 st
  | SFor x n body => tfor (texec ws tape body) x 0%Z n st
  | SOut a => temit (OVal (aeval (tenv st) a)) st
  | STop => temit OTop st
  | SBot => temit OBot st
  | SStop => tstop st
  end.

(** The run on the stream [x] and the tape [v]: the outputs, or [None] on a fault. *)
Definition tape_run (ws : list (positive * positive)) (p : stmt) (nvars : nat) (x : list Z)
    (v : list Z) : option (list oval) :=
  let st := texec ws v p (mkts (repeat 0%Z nvars ++ x) [] false O false) in
  if tfault st then None else Some (tout st).

(** The rates of the tape positions at ε. *)
Definition rates (eps : R) (ws : list (positive * positive)) : list R :=
  map (fun w => eps * IZR (Zpos (snd w)) / IZR (Zpos (fst w))) ws.

Lemma rates_pos_eps (eps : R) (ws : list (positive * positive)) : 0 < eps -> rates_pos (rates eps ws).
Proof.
  intros He t Ht. unfold rates in Ht. apply in_map_iff in Ht as [[n d] [<- _]]. cbn [fst snd].
  apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [exact He|apply IZR_lt; lia]|apply IZR_lt; lia].
Qed.

(** Pr[p(x) ∈ S] at ε, for the layout [ws]. *)
Definition prog_prob (eps : R) (ws : list (positive * positive)) (p : stmt) (nvars : nat)
    (x : list Z) (S : option (list oval) -> bool) : R :=
  prob_event (rates eps ws) (tape_run ws p nvars x) S.

(** Neighbouring streams: same length, entries differing by at most [delta]. *)
Definition stream_nb (delta : Z) (x x' : list Z) : Prop :=
  Forall2 (fun a b => (Z.abs (a - b) <= delta)%Z) x x'.

(** The claim: (ε, 0)-DP for every stream length [k] and every ε > 0. *)
Definition dp_stream (delta : Z) (p : nat -> stmt) (ws : nat -> list (positive * positive))
    (nvars : nat) : Prop :=
  forall (k : nat) (eps : R), 0 < eps ->
  forall x x', length x = k -> stream_nb delta x x' ->
  forall S, prog_prob eps (ws k) (p k) nvars x S <= exp eps * prog_prob eps (ws k) (p k) nvars x' S.

(** [dp_stream] is the core notion [dp_with] with δ = 0, for every stream length and every ε > 0. *)
Lemma dp_stream_iff_dp_with (delta : Z) (p : nat -> stmt) (ws : nat -> list (positive * positive))
    (nvars : nat) :
  dp_stream delta p ws nvars <->
  forall (k : nat) (eps : R), 0 < eps ->
  dp_with (fun x x' => length x = k /\ stream_nb delta x x') (prog_prob eps (ws k) (p k) nvars) eps 0.
Proof.
  split; intros H k eps He.
  - intros x x' [Hk Hnb] S. rewrite Rplus_0_r. exact (H k eps He x x' Hk Hnb S).
  - intros x x' Hk Hnb S. rewrite <- (Rplus_0_r (exp eps * _)). exact (H k eps He x x' (conj Hk Hnb) S).
Qed.

(** The soundness of alignment for programs: a shift of the tape, chosen from
    the two streams and the output, that preserves the output at cost at most
    ε for every tape proves [dp_stream]. *)
Theorem dp_stream_of_alignment (delta : Z) (p : nat -> stmt) (ws : nat -> list (positive * positive))
    (nvars : nat) (shift : list Z -> list Z -> option (list oval) -> list Z) :
  (forall k x x' v, length x = k -> stream_nb delta x x' -> length v = length (ws k) ->
     tape_run (ws k) (p k) nvars x' (vadd v (shift x x' (tape_run (ws k) (p k) nvars x v)))
     = tape_run (ws k) (p k) nvars x v) ->
  (forall k eps x x' v, 0 < eps -> length x = k -> stream_nb delta x x' -> length v = length (ws k) ->
     cost (rates eps (ws k)) (shift x x' (tape_run (ws k) (p k) nvars x v)) <= eps) ->
  dp_stream delta p ws nvars.
Proof.
  intros Hpres Hcost k eps He x x' Hk Hnb S. unfold prog_prob.
  apply (alignment_event _ _ _ (shift x x')).
  - apply rates_pos_eps, He.
  - intros v Hv. unfold rates in Hv. rewrite map_length in Hv. exact (Hpres k x x' v Hk Hnb Hv).
  - intros v Hv. unfold rates in Hv. rewrite map_length in Hv. exact (Hcost k eps x x' v He Hk Hnb Hv).
Qed.

Lemma stream_nb_length (delta : Z) (x x' : list Z) : stream_nb delta x x' -> length x' = length x.
Proof. intros H. induction H; cbn [length]; congruence. Qed.

(** ** Facts the generated proofs use *)

Lemma tfor_halted (step : tstate -> tstate) (x : nat) (i : Z) (n : nat) (st : tstate) :
  thalted st = true -> tfor step x i n st = st.
Proof. revert i. induction n as [|n IH]; intros i H; cbn [tfor]; [reflexivity|]. rewrite H. apply IH, H. Qed.

Lemma skipn_nth_cons {A} (l : list A) (j : nat) (d : A) :
  (j < length l)%nat -> skipn j l = nth j l d :: skipn (S j) l.
Proof. revert l. induction j as [|j IH]; intros [|a l] H; cbn in *; try lia; [reflexivity|]. apply IH. lia. Qed.

(** Positions [1 .. k] of the layout [w :: repeat w' k] have the scale [w']. *)
Lemma scale_at_repeat (w : positive * positive) (num den : positive) (k j : nat) :
  (j < k)%nat -> scale_at (w :: repeat (num, den) k) (S j) num den = true.
Proof.
  intros H. unfold scale_at. cbn [nth_error]. rewrite nth_error_repeat by exact H.
  rewrite !Pos.eqb_refl. reflexivity.
Qed.

Lemma scale_at_head (num den : positive) (ws : list (positive * positive)) :
  scale_at ((num, den) :: ws) 0 num den = true.
Proof. unfold scale_at. cbn [nth_error]. rewrite !Pos.eqb_refl. reflexivity. Qed.

(** Reading the stream element [j] by [AIdx base k (AVar i)] with [i = j]. *)
Lemma idx_guard (j k : nat) : (j < k)%nat ->
  ((0 <=? Z.of_nat j)%Z && (Z.of_nat j <? Z.of_nat k)%Z)%bool = true.
Proof. intros H. apply Bool.andb_true_iff. split; [apply Z.leb_le|apply Z.ltb_lt]; lia. Qed.
