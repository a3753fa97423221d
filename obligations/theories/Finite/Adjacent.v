(** * Checking adjacent neighbours by walking consecutive rows

    For [nb_adjacent] the generic [forall_neighbours] visits all n² pairs of
    rows (and compares unary [nat]s for each); walking the rows once, each
    row with itself and with the next one in both directions, visits 3n
    pairs.  The lemmas here say the walk implies the generic check, so the
    soundness lemmas of [CheckerSound] apply unchanged. *)
From Coq Require Import List QArith Bool Arith Lia.
From Obligations.Finite Require Import Mechanism Neighbours Checker.
Import ListNotations.

Fixpoint forall_consecutive (p : list Q -> list Q -> bool) (l : list (list Q)) : bool :=
  match l with
  | r :: ((r' :: _) as l') => p r r' && p r' r && forall_consecutive p l'
  | _ => true
  end.

Definition forall_adjacent (p : list Q -> list Q -> bool) (M : fmech) : bool :=
  forallb (fun r => p r r) (rows M) && forall_consecutive p (rows M).

Lemma forallb_ix_of_nth {A} (f : nat -> A -> bool) (i : nat) (l : list A) (d : A) :
  (forall k, (k < length l)%nat -> f (i + k)%nat (nth k l d) = true) ->
  forallb_ix f i l = true.
Proof.
  revert i. induction l as [|a l IH]; intros i H; cbn; [reflexivity|].
  apply andb_true_iff. split.
  - specialize (H 0%nat). rewrite Nat.add_0_r in H. apply H. cbn. lia.
  - apply IH. intros k Hk. replace (S i + k)%nat with (i + S k)%nat by lia.
    apply (H (S k)). cbn. lia.
Qed.

Lemma forall_consecutive_nth (p : list Q -> list Q -> bool) (l : list (list Q))
    (d : list Q) (k : nat) :
  forall_consecutive p l = true -> (S k < length l)%nat ->
  p (nth k l d) (nth (S k) l d) = true /\ p (nth (S k) l d) (nth k l d) = true.
Proof.
  revert k. induction l as [|r l IH]; intros k H Hk; cbn in Hk; [lia|].
  destruct l as [|r' l]; cbn in Hk; [lia|].
  cbn [forall_consecutive] in H. apply andb_true_iff in H as [H Hrest].
  apply andb_true_iff in H as [H1 H2].
  destruct k as [|k].
  - cbn. split; assumption.
  - apply (IH k Hrest). cbn. lia.
Qed.

Lemma forall_neighbours_of_adjacent (p : list Q -> list Q -> bool) (M : fmech) :
  forall_adjacent p M = true -> forall_neighbours nb_adjacent p M = true.
Proof.
  unfold forall_adjacent, forall_neighbours. intros H.
  apply andb_true_iff in H as [Hself Hcons].
  rewrite forallb_forall in Hself.
  apply (forallb_ix_of_nth _ _ _ []). intros x Hx. cbn [Nat.add].
  apply (forallb_ix_of_nth _ _ _ []). intros x' Hx'. cbn [Nat.add].
  destruct (nb_adjacent x x') eqn:Hnb; [|reflexivity].
  unfold nb_adjacent in Hnb. apply andb_true_iff in Hnb as [H1 H2].
  apply Nat.leb_le in H1, H2.
  destruct (Nat.lt_trichotomy x x') as [Hlt|[Heq|Hgt]].
  - assert (x' = S x) as -> by lia.
    apply (forall_consecutive_nth p _ [] x Hcons Hx').
  - subst x'. apply Hself, nth_In, Hx.
  - assert (x = S x') as -> by lia.
    apply (forall_consecutive_nth p _ [] x' Hcons Hx).
Qed.

Definition check_pointwise_adjacent (L : Q) (M : fmech) : bool :=
  rows_wf M && forallb row_nonneg (rows M) && forall_adjacent (pointwise_le L) M.

Lemma check_pointwise_of_adjacent (L : Q) (M : fmech) :
  check_pointwise_adjacent L M = true -> check_pointwise nb_adjacent L M = true.
Proof.
  unfold check_pointwise_adjacent, check_pointwise. rewrite !andb_true_iff.
  intros [[Hwf Hnn] Hadj]. split; [split; assumption|].
  apply forall_neighbours_of_adjacent, Hadj.
Qed.

Definition check_hockey_adjacent (L delta : Q) (M : fmech) : bool :=
  rows_wf M && forallb row_nonneg (rows M) &&
  forall_adjacent (fun rx rx' => Qle_bool (hockey L rx rx') delta) M.

Lemma check_hockey_of_adjacent (L delta : Q) (M : fmech) :
  check_hockey_adjacent L delta M = true -> check_hockey nb_adjacent L delta M = true.
Proof.
  unfold check_hockey_adjacent, check_hockey. rewrite !andb_true_iff.
  intros [[Hwf Hnn] Hadj]. split; [split; assumption|].
  apply forall_neighbours_of_adjacent, Hadj.
Qed.
