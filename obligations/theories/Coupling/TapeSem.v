(** * Programs with untruncated noise: the tape semantics, for every input

    The syntax of Program/ProgramSyntax.v, run on a noise tape drawn from
    independent two-sided geometric distributions.  The tape is addressed by
    sampling site and loop iteration: a statement [s] run from tape position
    [a] owns the positions [a .. a + size s - 1]; a sampling statement owns
    one, a sequence or a conditional the positions of its parts one after the
    other, a loop of [n] iterations [n] copies of its body's, iteration [j]
    the [j]-th copy.  So every position is read at most once by a run, in
    increasing order, and a sampling statement [SSample x (DGeom num den c)]
    reads the position whose law [layout] fixes from the statement itself: the
    [dlaplace] of rate ε·den/num.  The law of the tape is thus the program's
    own: nothing outside the program says which noise a position carries.
    The value sampled is [c + tape a].

    The run records its outputs ([tout]) and the branch each conditional took
    ([ttr], the trace: bookkeeping that no output depends on).  A sampling
    statement of a finite distribution has no meaning here: it is a fault
    (the output [None]); [geom_only] rules it out by syntax.

    The environment holds the program's variables first ([nvars] slots, zero
    at the start) and then the input [x] (the spec's public values and the
    stream, in that order): the program for streams of length [k] is [p k],
    whose loop over the stream is [SFor i k body] reading the stream with
    [AIdx base k (AVar i)].

    [dp_prog nb p nvars c] is the claim the certificates state: for every
    ε > 0 and inputs related by [nb], Pr[p(x) ∈ S] ≤ e^(c·ε) · Pr[p(x') ∈ S]
    for every event S on outputs. *)
From Coq Require Import List ZArith Reals Lia Lra.
From Obligations.Core Require Import Privacy.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment.
Import ListNotations.
Local Open Scope R_scope.

Record tstate := mkts { tenv : list Z; tout : list oval; ttr : list bool; thalted : bool; tfault : bool }.

Definition tset (x : nat) (v : Z) (st : tstate) : tstate :=
  mkts (write (tenv st) x v) (tout st) (ttr st) (thalted st) (tfault st).

Definition temit (o : oval) (st : tstate) : tstate :=
  mkts (tenv st) (tout st ++ [o]) (ttr st) (thalted st) (tfault st).

Definition tbranch (b : bool) (st : tstate) : tstate :=
  mkts (tenv st) (tout st) (ttr st ++ [b]) (thalted st) (tfault st).

Definition tstop (st : tstate) : tstate := mkts (tenv st) (tout st) (ttr st) true (tfault st).

Definition tfail (st : tstate) : tstate := mkts (tenv st) (tout st) (ttr st) true true.

(** The tape positions a statement owns. *)
Fixpoint size (s : stmt) : nat :=
  match s with
  | SSample _ _ => 1
  | SSeq s1 s2 | SIf _ s1 s2 => size s1 + size s2
  | SFor _ n body => n * size body
  | _ => 0
  end.

(** The scale num/den of a sampling statement ([1/1] for a finite distribution, which faults). *)
Definition scale (d : dexp) : positive * positive :=
  match d with
  | DGeom num den _ => (num, den)
  | _ => (1%positive, 1%positive)
  end.

(** The scale of each position the statement owns. *)
Fixpoint layout (s : stmt) : list (positive * positive) :=
  match s with
  | SSample _ d => [scale d]
  | SSeq s1 s2 | SIf _ s1 s2 => layout s1 ++ layout s2
  | SFor _ n body => concat (repeat (layout body) n)
  | _ => []
  end.

(** Every sampling statement draws untruncated geometric noise. *)
Fixpoint geom_only (s : stmt) : bool :=
  match s with
  | SSample _ (DGeom _ _ _) => true
  | SSample _ _ => false
  | SSeq s1 s2 | SIf _ s1 s2 => geom_only s1 && geom_only s2
  | SFor _ _ body => geom_only body
  | _ => true
  end.

(** [n] iterations from counter value [i], the first owning the positions
    from [a], each [sb] positions; a halted state is left alone. *)
Fixpoint tfor (step : nat -> tstate -> tstate) (x : nat) (sb a : nat) (i : Z) (n : nat) (st : tstate)
    : tstate :=
  match n with
  | O => st
  | S n' => tfor step x sb (a + sb) (Z.succ i) n' (if thalted st then st else step a (tset x i st))
  end.

Fixpoint texec (v : nat -> Z) (s : stmt) (a : nat) (st : tstate) {struct s} : tstate :=
  if thalted st then st else
  match s with
  | SSkip => st
  | SSeq s1 s2 => texec v s2 (a + size s1) (texec v s1 a st)
  | SAssign x e => tset x (aeval (tenv st) e) st
  | SSample x (DGeom _ _ c) => tset x (aeval (tenv st) c + v a)%Z st
  | SSample _ _ => tfail st
  | SIf b s1 s2 =>
      if beval (tenv st) b then texec v s1 a (tbranch true st)
      else texec v s2 (a + size s1) (tbranch false st)
  | SFor x n body => tfor (texec v body) x (size body) a 0%Z n st
  | SOut e => temit (OVal (aeval (tenv st) e)) st
  | STop => temit OTop st
  | SBot => temit OBot st
  | SStop => tstop st
  end.

Definition tinit (nvars : nat) (x : list Z) : tstate := mkts (repeat 0%Z nvars ++ x) [] [] false false.

(** The tape as a function of positions (0 beyond its end). *)
Definition tape (v : list Z) : nat -> Z := fun a => nth a v 0%Z.

(** The run on the input [x] and the tape [v]: the outputs, or [None] on a fault. *)
Definition tape_run (p : stmt) (nvars : nat) (x : list Z) (v : list Z) : option (list oval) :=
  let st := texec (tape v) p 0 (tinit nvars x) in
  if tfault st then None else Some (tout st).

(** The rate of the scale num/den at ε: ε·den/num. *)
Definition rate (eps : R) (w : positive * positive) : R := eps * IZR (Zpos (snd w)) / IZR (Zpos (fst w)).

(** The rates of the tape positions at ε. *)
Definition rates (eps : R) (p : stmt) : list R := map (rate eps) (layout p).

Lemma rates_pos_eps (eps : R) (p : stmt) : 0 < eps -> rates_pos (rates eps p).
Proof.
  intros He t Ht. unfold rates in Ht. apply in_map_iff in Ht as [[n d] [<- _]]. unfold rate. cbn [fst snd].
  apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [exact He|apply IZR_lt; lia]|apply IZR_lt; lia].
Qed.

(** Pr[p(x) ∈ S] at ε. *)
Definition prog_prob (eps : R) (p : stmt) (nvars : nat) (x : list Z) (S : option (list oval) -> bool) : R :=
  prob_event (rates eps p) (tape_run p nvars x) S.

(** The claim: (c·ε, 0)-DP for every ε > 0, between inputs related by [nb]. *)
Definition dp_prog (nb : list Z -> list Z -> Prop) (p : stmt) (nvars : nat) (c : R) : Prop :=
  forall eps, 0 < eps -> forall x x', nb x x' ->
  forall S, prog_prob eps p nvars x S <= exp (c * eps) * prog_prob eps p nvars x' S.

(** The claim for every stream length [k]. *)
Definition dp_all_k (nb : nat -> list Z -> list Z -> Prop) (p : nat -> stmt) (nvars : nat) (c : R) : Prop :=
  forall k, dp_prog (nb k) (p k) nvars c.

(** [dp_all_k] is the core notion [dp_with] at (c·ε, 0), for every stream length and ε > 0. *)
Lemma dp_all_k_iff_dp_with (nb : nat -> list Z -> list Z -> Prop) (p : nat -> stmt) (nvars : nat) (c : R) :
  dp_all_k nb p nvars c <->
  forall k eps, 0 < eps -> dp_with (nb k) (prog_prob eps (p k) nvars) (c * eps) 0.
Proof.
  unfold dp_all_k, dp_prog, dp_with. split; intros H k eps He.
  - intros x x' Hnb S. rewrite Rplus_0_r. exact (H k eps He x x' Hnb S).
  - intros x x' Hnb S. rewrite <- (Rplus_0_r (exp (c * eps) * _)). exact (H k eps He x x' Hnb S).
Qed.

(** ** Laws *)

Lemma size_layout (s : stmt) : length (layout s) = size s.
Proof.
  induction s; cbn [layout size]; rewrite ?app_length; try lia; try reflexivity.
  induction n as [|n IH]; cbn [repeat concat]; [reflexivity|]. rewrite app_length, IH, IHs. lia.
Qed.

Lemma rates_length (eps : R) (p : stmt) : length (rates eps p) = size p.
Proof. unfold rates. rewrite map_length. apply size_layout. Qed.

Lemma texec_halted (v : nat -> Z) (s : stmt) (a : nat) (st : tstate) :
  thalted st = true -> texec v s a st = st.
Proof. intros H. destruct s; cbn [texec]; rewrite H; reflexivity. Qed.

Lemma tfor_halted (step : nat -> tstate -> tstate) (x sb a : nat) (i : Z) (n : nat) (st : tstate) :
  thalted st = true -> tfor step x sb a i n st = st.
Proof. revert a i. induction n as [|n IH]; intros a i H; cbn [tfor]; [reflexivity|]. rewrite H. apply IH, H. Qed.

(** A run of a program that samples only geometric noise never faults. *)
Lemma texec_no_fault (v : nat -> Z) (s : stmt) :
  geom_only s = true -> forall a st, tfault st = false -> tfault (texec v s a st) = false.
Proof.
  induction s; intros Hg pos st Hf; cbn [texec]; destruct (thalted st); try exact Hf;
    cbn [geom_only] in Hg; try exact Hf.
  - apply andb_prop in Hg as [H1 H2]. apply IHs2, IHs1; assumption.
  - destruct d; try discriminate. exact Hf.
  - apply andb_prop in Hg as [H1 H2].
    destruct (beval (tenv st) b); [apply IHs1|apply IHs2]; assumption.
  - revert pos st Hf. generalize 0%Z. induction n as [|n IH]; intros i pos st Hf; cbn [tfor]; [exact Hf|].
    apply IH. destruct (thalted st); [exact Hf|]. apply IHs; assumption.
Qed.

Lemma tape_run_some (p : stmt) (nvars : nat) (x v : list Z) :
  geom_only p = true -> tape_run p nvars x v = Some (tout (texec (tape v) p 0 (tinit nvars x))).
Proof. intros H. unfold tape_run. rewrite texec_no_fault by (exact H || reflexivity). reflexivity. Qed.
