(** * Programs: denotational semantics by computation

    A statement maps a state (environment, outputs so far, halted flag) to a
    finite distribution of states.  Everything is computable, so [vm_compute]
    runs a program on a concrete input.  The laws below say that the
    definition is the expected one: sequencing is [bind], a loop is [n]
    copies of its body, a halted state is left alone, and probability mass is
    preserved when every sampled distribution is a distribution. *)
From Coq Require Import List ZArith QArith Bool Lia.
From Obligations.Core Require Import Lists Sums.
From Obligations.Program Require Import Dist ProgramSyntax.
Import ListNotations.

(** ** Environments *)

(** Slots beyond the end read [0]. *)
Definition read (e : list Z) (x : nat) : Z := nth x e 0%Z.

(** Writing beyond the end pads with zeros. *)
Fixpoint write (e : list Z) (x : nat) (v : Z) : list Z :=
  match e, x with
  | [], O => [v]
  | [], S x' => 0%Z :: write [] x' v
  | _ :: e', O => v :: e'
  | z :: e', S x' => z :: write e' x' v
  end.

Fixpoint aeval (e : list Z) (a : aexp) : Z :=
  match a with
  | AConst z => z
  | AVar x => read e x
  | AIdx base len i =>
      let k := aeval e i in
      if (0 <=? k)%Z && (k <? Z.of_nat len)%Z then read e (base + Z.to_nat k) else 0%Z
  | AAdd a b => aeval e a + aeval e b
  | ASub a b => aeval e a - aeval e b
  | AMul a b => aeval e a * aeval e b
  | AMin a b => Z.min (aeval e a) (aeval e b)
  | AMax a b => Z.max (aeval e a) (aeval e b)
  | AAbs a => Z.abs (aeval e a)
  | ADiv a d => Z.div (aeval e a) (Zpos d)
  | AMod a d => Z.modulo (aeval e a) (Zpos d)
  end%Z.

Fixpoint beval (e : list Z) (b : bexp) : bool :=
  match b with
  | BTrue => true
  | BFalse => false
  | BLt a c => (aeval e a <? aeval e c)%Z
  | BLe a c => (aeval e a <=? aeval e c)%Z
  | BEq a c => (aeval e a =? aeval e c)%Z
  | BNot b => negb (beval e b)
  | BAnd b c => beval e b && beval e c
  | BOr b c => beval e b || beval e c
  end.

(** ** The named distributions *)

(** Weights [ps] on the values [z, z + 1, ...]. *)
Fixpoint label (z : Z) (ps : list Q) : dist Z :=
  match ps with
  | [] => []
  | p :: ps' => (z, p) :: label (Z.succ z) ps'
  end.

(** The values lo .. hi (none when hi < lo). *)
Definition zrange (lo hi : Z) : list Z := zseq lo (Z.to_nat (hi - lo + 1)).

Lemma in_zrange (lo hi v : Z) : In v (zrange lo hi) <-> (lo <= v <= hi)%Z.
Proof. unfold zrange. rewrite in_zseq. lia. Qed.

(** Pr[Z <= m] for Pr[Z = z] = (1-α)/(1+α) α^|z|. *)
Definition geom_le (alpha : Q) (m : Z) : Q :=
  if (m <? 0)%Z then Qred (Qpower alpha (- m) / (1 + alpha))
  else Qred (1 - Qpower alpha (m + 1) / (1 + alpha)).

Definition geom_pt (alpha : Q) (z : Z) : Q :=
  Qred ((1 - alpha) / (1 + alpha) * Qpower alpha (Z.abs z)).

(** Clamp to [lo, hi] of [c + Z]: the end points collect the tails. *)
Definition tgeom (alpha : Q) (c lo hi : Z) : dist Z :=
  if (hi <? lo)%Z then []
  else if (lo =? hi)%Z then [(lo, 1%Q)]
  else map (fun v => (v, if (v =? lo)%Z then geom_le alpha (lo - c)
                         else if (v =? hi)%Z then geom_le alpha (c - hi)
                         else geom_pt alpha (v - c)))
           (zrange lo hi).

Definition twosided (alpha : Q) (lo hi : Z) : dist Z :=
  let zs := zrange lo hi in
  let s := qsum (map (fun z => Qpower alpha (Z.abs z)) zs) in
  map (fun z => (z, Qred (Qpower alpha (Z.abs z) / s))) zs.

Definition uniform (lo hi : Z) : dist Z :=
  let w := Qred (1 / inject_Z (hi - lo + 1)) in
  map (fun z => (z, w)) (zrange lo hi).

Definition table (k : Z) (key_lo val_lo : Z) (rows : list (list Q)) : dist Z :=
  if (k <? key_lo)%Z then []
  else label val_lo (nth (Z.to_nat (k - key_lo)) rows []).

Definition dsem (e : list Z) (d : dexp) : dist Z :=
  match d with
  | DTable key key_lo val_lo rows => table (aeval e key) key_lo val_lo rows
  | DTGeom alpha center lo hi => tgeom alpha (aeval e center) lo hi
  | DTwoSided alpha lo hi => twosided alpha lo hi
  | DBernoulli p => [(1%Z, p); (0%Z, Qred (1 - p))]
  | DUniform lo hi => uniform lo hi
  | DGeom _ _ _ => []
  end.

(** ** States *)

(** [out] is the output sequence in chronological order. *)
Record state := mkstate { env : list Z; out : list oval; halted : bool }.

Definition set_slot (x : nat) (v : Z) (st : state) : state :=
  mkstate (write (env st) x v) (out st) (halted st).

Definition emit (o : oval) (st : state) : state :=
  mkstate (env st) (out st ++ [o]) (halted st).

Definition stop (st : state) : state := mkstate (env st) (out st) true.

Definition oval_eqb (o o' : oval) : bool :=
  match o, o' with
  | OTop, OTop | OBot, OBot => true
  | OVal z, OVal z' => (z =? z')%Z
  | _, _ => false
  end.

Definition ovals_eqb : list oval -> list oval -> bool := list_eqb oval_eqb.

Definition state_eqb (s s' : state) : bool :=
  list_eqb Z.eqb (env s) (env s') && ovals_eqb (out s) (out s') && Bool.eqb (halted s) (halted s').

Lemma oval_eqb_spec (o o' : oval) : oval_eqb o o' = true <-> o = o'.
Proof.
  destruct o, o'; cbn; split; intros H; try congruence.
  - apply Z.eqb_eq in H. congruence.
  - injection H as ->. apply Z.eqb_refl.
Qed.

Lemma ovals_eqb_spec (l l' : list oval) : ovals_eqb l l' = true <-> l = l'.
Proof. apply list_eqb_spec, oval_eqb_spec. Qed.

Lemma state_eqb_sound (s s' : state) : state_eqb s s' = true -> s = s'.
Proof.
  destruct s as [e o h], s' as [e' o' h']. unfold state_eqb; cbn.
  rewrite !andb_true_iff. intros [[He Ho] Hh].
  apply (list_eqb_spec _ Z.eqb_eq) in He. apply ovals_eqb_spec in Ho.
  apply Bool.eqb_prop in Hh. congruence.
Qed.

(** ** Execution *)

(** One pass of a loop: [k] iterations from counter value [i], each on the
    whole distribution of states, merged after every iteration so that
    paths reaching the same state are counted once from then on. *)
Fixpoint for_loop (step : state -> dist state) (x : nat) (i : Z) (k : nat)
    (ds : dist state) : dist state :=
  match k with
  | O => ds
  | S k' =>
      for_loop step x (Z.succ i) k'
        (compact state_eqb
           (bind ds (fun st => if halted st then ret st else step (set_slot x i st))))
  end.

Fixpoint exec (s : stmt) (st : state) {struct s} : dist state :=
  if halted st then ret st else
  match s with
  | SSkip => ret st
  | SSeq s1 s2 => bind (exec s1 st) (exec s2)
  | SAssign x a => ret (set_slot x (aeval (env st) a) st)
  | SSample x d => dmap (fun v => set_slot x v st) (dsem (env st) d)
  | SIf b s1 s2 => if beval (env st) b then exec s1 st else exec s2 st
  | SFor x n body => for_loop (exec body) x 0%Z n (ret st)
  | SOut a => ret (emit (OVal (aeval (env st) a)) st)
  | STop => ret (emit OTop st)
  | SBot => ret (emit OBot st)
  | SStop => ret (stop st)
  end.

(** ** Laws *)

Lemma exec_halted (s : stmt) (st : state) : halted st = true -> exec s st = ret st.
Proof. intros H. destruct s; cbn [exec]; rewrite H; reflexivity. Qed.

Lemma exec_seq_running (s1 s2 : stmt) (st : state) :
  halted st = false -> exec (SSeq s1 s2) st = bind (exec s1 st) (exec s2).
Proof. intros H. cbn [exec]. rewrite H. reflexivity. Qed.

(** Sequencing is [bind], halted or not. *)
Lemma exec_seq (s1 s2 : stmt) (st : state) :
  dequiv (exec (SSeq s1 s2) st) (bind (exec s1 st) (exec s2)).
Proof.
  destruct (halted st) eqn:H.
  - rewrite !(exec_halted _ _ H). apply dequiv_sym.
    eapply dequiv_trans; [apply bind_ret_l|]. rewrite (exec_halted _ _ H). apply dequiv_refl.
  - rewrite exec_seq_running by exact H. apply dequiv_refl.
Qed.

Lemma exec_for_0 (x : nat) (body : stmt) (st : state) : exec (SFor x 0 body) st = ret st.
Proof. cbn [exec for_loop]. destruct (halted st); reflexivity. Qed.

(** The loop written out: [x := i; body; x := i + 1; body; ...], [k] times. *)
Fixpoint for_unroll (x : nat) (i : Z) (k : nat) (body : stmt) : stmt :=
  match k with
  | O => SSkip
  | S k' => SSeq (SSeq (SAssign x (AConst i)) body) (for_unroll x (Z.succ i) k' body)
  end.

Lemma exec_skip (st : state) : exec SSkip st = ret st.
Proof. cbn [exec]. destruct (halted st); reflexivity. Qed.

(** One iteration of the loop, state by state, is the unrolled copy. *)
Lemma for_step_unroll (x : nat) (i : Z) (body rest : stmt) (st : state) :
  dequiv (bind (if halted st then ret st else exec body (set_slot x i st)) (exec rest))
         (exec (SSeq (SSeq (SAssign x (AConst i)) body) rest) st).
Proof.
  destruct (halted st) eqn:H.
  - rewrite (exec_halted _ _ H). eapply dequiv_trans; [apply bind_ret_l|].
    rewrite (exec_halted _ _ H). apply dequiv_refl.
  - rewrite !exec_seq_running by exact H.
    apply bind_ext_l. cbn [exec]. rewrite H. cbn [aeval].
    apply dequiv_sym, bind_ret_l.
Qed.

Lemma for_loop_unroll (x : nat) (body : stmt) (k : nat) :
  forall (i : Z) (ds : dist state),
  dequiv (for_loop (exec body) x i k ds) (bind ds (exec (for_unroll x i k body))).
Proof.
  induction k as [|k IH]; intros i ds; cbn [for_loop for_unroll].
  - apply dequiv_sym. eapply dequiv_trans; [|apply bind_ret_r].
    apply bind_ext_r. intros st. rewrite exec_skip. apply dequiv_refl.
  - eapply dequiv_trans; [apply IH|].
    eapply dequiv_trans; [apply bind_ext_l, compact_dequiv, state_eqb_sound|].
    eapply dequiv_trans; [apply bind_assoc|].
    apply bind_ext_r. intros st. apply for_step_unroll.
Qed.

(** The loop is exactly [n] copies of its body. *)
Lemma exec_for_unroll (x n : nat) (body : stmt) (st : state) :
  dequiv (exec (SFor x n body) st) (exec (for_unroll x 0 n body) st).
Proof.
  destruct (halted st) eqn:H.
  - rewrite !(exec_halted _ _ H). apply dequiv_refl.
  - cbn [exec]. rewrite H.
    eapply dequiv_trans; [apply for_loop_unroll|].
    eapply dequiv_trans; [apply bind_ret_l|]. apply dequiv_refl.
Qed.

(** The loop unrolled one step. *)
Lemma exec_for_S (x n : nat) (body : stmt) (st : state) :
  dequiv (exec (SFor x (S n) body) st)
         (exec (SSeq (SSeq (SAssign x (AConst 0)) body) (for_unroll x 1 n body)) st).
Proof. apply exec_for_unroll. Qed.

Lemma dprob_exec_seq (P : state -> bool) (s1 s2 : stmt) (st : state) :
  dprob P (exec (SSeq s1 s2) st) == dexpect (exec s1 st) (fun st' => dprob P (exec s2 st')).
Proof. rewrite (dprob_of_dequiv _ _ _ (exec_seq s1 s2 st)). apply dprob_bind. Qed.

(** ** Mass *)

(** Every distribution the program samples is a distribution, in every environment. *)
Fixpoint dists_ok (s : stmt) : Prop :=
  match s with
  | SSeq s1 s2 | SIf _ s1 s2 => dists_ok s1 /\ dists_ok s2
  | SSample _ d => forall e, dnonneg (dsem e d) /\ mass (dsem e d) == 1
  | SFor _ _ body => dists_ok body
  | _ => True
  end.

Lemma for_loop_mass (step : state -> dist state) (x : nat) :
  (forall st, dnonneg (step st) /\ mass (step st) == 1) ->
  forall k i ds, dnonneg ds ->
  dnonneg (for_loop step x i k ds) /\ mass (for_loop step x i k ds) == mass ds.
Proof.
  intros Hstep. induction k as [|k IH]; intros i ds Hds; cbn [for_loop].
  - split; [exact Hds|reflexivity].
  - set (f := fun st => if halted st then ret st else step (set_slot x i st)).
    assert (Hf : forall st, dnonneg (f st) /\ mass (f st) == 1).
    { intros st. unfold f. destruct (halted st).
      - split; [apply dnonneg_ret|apply mass_ret].
      - apply Hstep. }
    assert (Hb : dnonneg (compact state_eqb (bind ds f))).
    { apply dnonneg_compact, dnonneg_bind; [exact Hds|intros st; apply Hf]. }
    destruct (IH (Z.succ i) _ Hb) as [Hn Hm]. split; [exact Hn|].
    rewrite Hm, (mass_compact _ state_eqb_sound). apply mass_bind.
    intros st _ _. apply Hf.
Qed.

(** A statement maps a state to a distribution (non-negative weights, mass 1)
    when every distribution it samples is one. *)
Lemma exec_mass (s : stmt) :
  dists_ok s -> forall st, dnonneg (exec s st) /\ mass (exec s st) == 1.
Proof.
  induction s; intros Hok st; destruct (halted st) eqn:H;
    try (rewrite (exec_halted _ _ H); split; [apply dnonneg_ret|apply mass_ret]);
    cbn [exec]; rewrite H; cbn [dists_ok] in Hok;
    try (split; [apply dnonneg_ret|apply mass_ret]).
  - destruct Hok as [H1 H2]. split.
    + apply dnonneg_bind; [apply IHs1, H1|intros st'; apply IHs2, H2].
    + rewrite mass_bind; [apply IHs1, H1|]. intros st' _ _. apply IHs2, H2.
  - destruct (Hok (env st)) as [Hn Hm]. split.
    + apply dnonneg_dmap, Hn.
    + rewrite mass_dmap. exact Hm.
  - destruct Hok as [H1 H2]. destruct (beval (env st) b); [apply IHs1, H1|apply IHs2, H2].
  - destruct (for_loop_mass (exec s) x (IHs Hok) n 0%Z (ret st) (dnonneg_ret st)) as [Hn Hm].
    split; [exact Hn|]. rewrite Hm. apply mass_ret.
Qed.
