(** * Neighbouring inputs of programs over a stream

    The input of a program is a list: its public values (the same in both
    neighbours), then the stream of answers, of length [k].  The relations
    between the two streams the specs can name:
    - [rel_each lo hi]: every answer moves by a difference in [lo .. hi]
      (every answer within Δ: [-Δ .. Δ]; monotone increasing: [0 .. Δ];
      decreasing: [-Δ .. 0]);
    - [rel_either R1 R2]: one of the two (monotone in either direction);
    - [rel_one Δ]: exactly one answer differs, by at most Δ;
    - [rel_l1 Δ]: the L1 distance of the streams is at most Δ.
    [rel_one Δ] implies [rel_l1 Δ] ([rel_one_l1]); proofs over the L1
    distance use its prefixes ([l1pre]). *)
From Coq Require Import List ZArith Lia.
Import ListNotations.
Local Open Scope Z_scope.

(** The whole input: [npub] public values, equal in both, then streams of length [k] related by [R]. *)
Definition nb_input (npub k : nat) (R : list Z -> list Z -> Prop) (x x' : list Z) : Prop :=
  length x = (npub + k)%nat /\ firstn npub x = firstn npub x' /\ R (skipn npub x) (skipn npub x').

Definition rel_each (lo hi : Z) (x x' : list Z) : Prop :=
  Forall2 (fun a b => lo <= b - a <= hi) x x'.

Definition rel_either (R1 R2 : list Z -> list Z -> Prop) (x x' : list Z) : Prop := R1 x x' \/ R2 x x'.

Definition rel_one (delta : Z) (x x' : list Z) : Prop :=
  length x = length x' /\
  exists j, (forall i, i <> j -> nth i x 0 = nth i x' 0) /\ Z.abs (nth j x 0 - nth j x' 0) <= delta.

(** The L1 distance of two lists (over their common length). *)
Fixpoint l1 (x x' : list Z) : Z :=
  match x, x' with
  | a :: x, b :: x' => Z.abs (a - b) + l1 x x'
  | _, _ => 0
  end.

Definition rel_l1 (delta : Z) (x x' : list Z) : Prop := length x = length x' /\ l1 x x' <= delta.

(** The L1 distance of the first [i] answers. *)
Definition l1pre (i : nat) (x x' : list Z) : Z := l1 (firstn i x) (firstn i x').

(** ** Facts the generated proofs use *)

Lemma rel_each_length (lo hi : Z) (x x' : list Z) : rel_each lo hi x x' -> length x' = length x.
Proof. intros H. induction H; cbn [length]; congruence. Qed.

Lemma rel_each_nth (lo hi : Z) (x x' : list Z) (i : nat) :
  rel_each lo hi x x' -> lo <= nth i x' 0 - nth i x 0 <= hi \/ (length x <= i)%nat.
Proof.
  intros H. revert i. induction H as [|a b x x' Hab H IH]; intros i; [right; cbn; lia|].
  destruct i as [|i]; cbn [nth length]; [left; exact Hab|]. destruct (IH i); [left|right]; lia.
Qed.

Lemma l1_nonneg (x x' : list Z) : 0 <= l1 x x'.
Proof. revert x'. induction x as [|a x IH]; intros [|b x']; cbn [l1]; try lia. specialize (IH x'). lia. Qed.

Lemma l1_one (x x' : list Z) (j : nat) :
  (forall i, i <> j -> nth i x 0 = nth i x' 0) -> l1 x x' <= Z.abs (nth j x 0 - nth j x' 0).
Proof.
  revert x' j. induction x as [|a x IH]; intros [|b x'] j H; cbn [l1]; try apply Z.abs_nonneg.
  destruct j as [|j]; cbn [nth].
    + assert (E : l1 x x' = 0).
      { enough (forall y y', (forall i, nth i y 0 = nth i y' 0) -> l1 y y' = 0) as G.
        { apply G. intros i. exact (H (S i) ltac:(lia)). }
        clear. induction y as [|c y IHy]; intros [|d y'] Hy; cbn [l1]; try reflexivity.
        pose proof (Hy O) as H0. cbn [nth] in H0. rewrite IHy by (intros i; exact (Hy (S i))). lia. }
      rewrite E. lia.
    + pose proof (H O ltac:(lia)) as H0. cbn [nth] in H0.
      assert (G : l1 x x' <= Z.abs (nth j x 0 - nth j x' 0)).
      { apply IH. intros i Hi. exact (H (S i) ltac:(lia)). }
      lia.
Qed.

Lemma rel_one_l1 (delta : Z) (x x' : list Z) : rel_one delta x x' -> rel_l1 delta x x'.
Proof.
  intros [Hl [j [Hj Hd]]]. split; [exact Hl|]. pose proof (l1_one x x' j Hj). lia.
Qed.

Lemma l1pre_0 (x x' : list Z) : l1pre 0 x x' = 0.
Proof. reflexivity. Qed.

Lemma l1pre_S (i : nat) (x x' : list Z) : (i < length x)%nat -> (i < length x')%nat ->
  l1pre (S i) x x' = l1pre i x x' + Z.abs (nth i x 0 - nth i x' 0).
Proof.
  unfold l1pre. revert x x'. induction i as [|i IH]; intros [|a x] [|b x'] H H'; cbn [length] in *; try lia.
  - cbn. lia.
  - change (l1 (firstn (S (S i)) (a :: x)) (firstn (S (S i)) (b :: x')))
      with (Z.abs (a - b) + l1 (firstn (S i) x) (firstn (S i) x')).
    change (l1 (firstn (S i) (a :: x)) (firstn (S i) (b :: x')))
      with (Z.abs (a - b) + l1 (firstn i x) (firstn i x')).
    change (nth (S i) (a :: x) 0) with (nth i x 0). change (nth (S i) (b :: x') 0) with (nth i x' 0).
    rewrite IH by lia. lia.
Qed.

Lemma l1pre_le (i : nat) (x x' : list Z) : l1pre i x x' <= l1 x x'.
Proof.
  unfold l1pre. revert x x'. induction i as [|i IH]; intros [|a x] [|b x'].
  all: cbn [firstn l1]; try lia; try (pose proof (l1_nonneg x x'); lia).
  specialize (IH x x'). lia.
Qed.

Lemma nb_input_length (npub k : nat) (R : list Z -> list Z -> Prop) (x x' : list Z) :
  nb_input npub k R x x' -> length x = (npub + k)%nat.
Proof. intros [H _]. exact H. Qed.

(** ** The facts a generated proof reads off [nb_input] *)

Lemma nb_input_pub (npub k : nat) (R : list Z -> list Z -> Prop) (x x' : list Z) (i : nat) :
  nb_input npub k R x x' -> (i < npub)%nat -> nth i x 0 = nth i x' 0.
Proof.
  intros [_ [H _]] Hi.
  assert (G : forall (l : list Z) n, (i < n)%nat -> nth i (firstn n l) 0 = nth i l 0).
  { clear. induction i as [|i IH]; intros [|a l] [|n] Hn; cbn; try reflexivity; try lia. apply IH. lia. }
  rewrite <- (G x npub Hi), <- (G x' npub Hi), H. reflexivity.
Qed.

Lemma nth_skipn_add (x : list Z) (n j : nat) : nth j (skipn n x) 0 = nth (n + j) x 0.
Proof. revert x. induction n as [|n IH]; intros [|a x]; cbn; try reflexivity. destruct j; reflexivity. apply IH. Qed.

Lemma nb_input_each (npub k : nat) (lo hi : Z) (x x' : list Z) (j : nat) :
  nb_input npub k (rel_each lo hi) x x' -> (j < k)%nat ->
  lo <= nth (npub + j) x' 0 - nth (npub + j) x 0 <= hi.
Proof.
  intros [Hl [_ H]] Hj. rewrite <- !nth_skipn_add.
  destruct (rel_each_nth _ _ _ _ j H) as [G|G]; [exact G|]. rewrite skipn_length in G. lia.
Qed.

Lemma nb_input_either (npub k : nat) (R1 R2 : list Z -> list Z -> Prop) (x x' : list Z) :
  nb_input npub k (rel_either R1 R2) x x' -> nb_input npub k R1 x x' \/ nb_input npub k R2 x x'.
Proof. intros [Hl [Hp [H|H]]]; [left|right]; repeat split; assumption. Qed.

Lemma nb_input_one_l1 (npub k : nat) (delta : Z) (x x' : list Z) :
  nb_input npub k (rel_one delta) x x' -> nb_input npub k (rel_l1 delta) x x'.
Proof. intros [Hl [Hp H]]. split; [exact Hl|split; [exact Hp|apply rel_one_l1, H]]. Qed.

Lemma nb_input_l1_step (npub k : nat) (delta : Z) (x x' : list Z) (j : nat) :
  nb_input npub k (rel_l1 delta) x x' -> (j < k)%nat ->
  l1pre (S j) (skipn npub x) (skipn npub x') =
    l1pre j (skipn npub x) (skipn npub x') + Z.abs (nth (npub + j) x 0 - nth (npub + j) x' 0) /\
  l1pre (S j) (skipn npub x) (skipn npub x') <= delta.
Proof.
  intros [Hl [_ [Hl' H]]] Hj. rewrite <- !nth_skipn_add. split.
  - rewrite !skipn_length in Hl'. apply l1pre_S; rewrite ?skipn_length; lia.
  - pose proof (l1pre_le (S j) (skipn npub x) (skipn npub x')). lia.
Qed.

Lemma nb_input_l1_total (npub k : nat) (delta : Z) (x x' : list Z) (j : nat) :
  nb_input npub k (rel_l1 delta) x x' -> l1pre j (skipn npub x) (skipn npub x') <= delta.
Proof. intros [_ [_ [_ H]]]. pose proof (l1pre_le j (skipn npub x) (skipn npub x')). lia. Qed.
