(** * Composition: running finite mechanisms one after another on the same input

    [fmech_product M1 M2] releases the outputs of [M1] and [M2] on the same
    input, with independent randomness: output [y1 * n_out M2 + y2] has
    probability [M1(x)(y1) · M2(x)(y2)].  [fmech_power M k] is the k-fold
    composition of [M] with itself.  Both are plain definitions: a claim about
    a composition is checked on the product table Coq computes from them. *)
From Coq Require Import List QArith Lia.
From Obligations.Core Require Import Lists.
From Obligations.Finite Require Import Mechanism.
Import ListNotations.

Definition row_product (r1 r2 : list Q) : list Q :=
  flat_map (fun p => map (Qmult p) r2) r1.

Definition fmech_product (M1 M2 : fmech) : fmech :=
  FMech (n_in M1) (n_out M1 * n_out M2)
        (map (fun '(r1, r2) => row_product r1 r2) (combine (rows M1) (rows M2))).

(** The mechanism with one output that always happens: the unit of composition. *)
Definition fmech_unit (n : nat) : fmech := FMech n 1 (repeat [1%Q] n).

Fixpoint fmech_power (M : fmech) (k : nat) : fmech :=
  match k with
  | O => fmech_unit (n_in M)
  | S k' => fmech_product M (fmech_power M k')
  end.

(** ** The k-fold composition, entry by entry

    [fmech_power M k] gives the output sequence [ys] (index
    [power_index (n_out M) ys]) on input [x] the probability
    Π_i M(x)(y_i), for a table with rows of the right number and length
    ([fmech_wf]). *)
Section Power.
Local Open Scope Q_scope.

(** The index of the output sequence [ys] of the [length ys]-fold composition:
    [y1 * m^(k-1) + (the index of the rest)], the order [fmech_power] lists them in. *)
Fixpoint power_index (m : nat) (ys : list nat) : nat :=
  match ys with
  | [] => O
  | y :: ys' => (y * m ^ length ys' + power_index m ys')%nat
  end.

(** Pr[M(x) = y1] · ... · Pr[M(x) = yk]: the runs on input [x], independent. *)
Fixpoint run_prob (M : fmech) (x : nat) (ys : list nat) : Q :=
  match ys with
  | [] => 1%Q
  | y :: ys' => (entry M x y * run_prob M x ys')%Q
  end.

Lemma row_product_length (r1 r2 : list Q) :
  length (row_product r1 r2) = (length r1 * length r2)%nat.
Proof. apply length_flat_map_const. intros p. apply map_length. Qed.

Lemma row_product_nth (r1 r2 : list Q) (y1 y2 : nat) :
  (y1 < length r1)%nat -> (y2 < length r2)%nat ->
  nth (y1 * length r2 + y2) (row_product r1 r2) 0%Q = (nth y1 r1 0 * nth y2 r2 0)%Q.
Proof.
  intros H1 H2. unfold row_product.
  rewrite (nth_flat_map_const _ (length r2) r1 y1 y2 0%Q 0%Q); [| intros; apply map_length | exact H2 | exact H1].
  rewrite nth_indep with (d' := Qmult (nth y1 r1 0%Q) 0%Q) by (rewrite map_length; exact H2).
  apply map_nth.
Qed.

Lemma fmech_power_wf (M : fmech) (k : nat) :
  fmech_wf M -> length (rows (fmech_power M k)) = n_in M /\
  forall r, In r (rows (fmech_power M k)) -> length r = (n_out M ^ k)%nat.
Proof.
  intros [Hn Hr]. induction k as [|k [IHn IHr]]; cbn [fmech_power].
  - cbn. split; [apply repeat_length|].
    intros r Hin. apply repeat_spec in Hin. subst r. reflexivity.
  - unfold fmech_product. cbn [rows n_in]. split.
    + rewrite map_length, combine_length, Hn, IHn. apply Nat.min_id.
    + intros r Hin. apply in_map_iff in Hin as [[r1 r2] [<- Hin]].
      rewrite row_product_length, (Hr r1 (in_combine_l _ _ _ _ Hin)),
              (IHr r2 (in_combine_r _ _ _ _ Hin)).
      reflexivity.
Qed.

Lemma power_index_lt (m : nat) (ys : list nat) :
  Forall (fun y => y < m)%nat ys -> (power_index m ys < m ^ length ys)%nat.
Proof.
  induction 1 as [|y ys Hy Hys IH]; cbn [power_index length]; [cbn; lia|].
  rewrite Nat.pow_succ_r'.
  apply Nat.lt_le_trans with (y * m ^ length ys + m ^ length ys)%nat; [lia|].
  rewrite <- Nat.mul_succ_l. apply Nat.mul_le_mono_r. lia.
Qed.

(** The k-fold composition assigns the output sequence [ys] the product of the
    runs' probabilities. *)
Lemma fmech_power_entry (M : fmech) (x : nat) (ys : list nat) :
  fmech_wf M -> (x < n_in M)%nat -> Forall (fun y => y < n_out M)%nat ys ->
  entry (fmech_power M (length ys)) x (power_index (n_out M) ys) = run_prob M x ys.
Proof.
  intros Hwf Hx Hys. pose proof Hwf as [Hn Hr].
  induction Hys as [|y ys Hy Hys IH].
  - cbn. unfold entry. cbn [rows fmech_unit].
    rewrite nth_indep with (d' := [1%Q]) by (rewrite repeat_length; exact Hx).
    rewrite nth_repeat. reflexivity.
  - cbn [length fmech_power power_index run_prob]. unfold entry in IH |- *.
    destruct (fmech_power_wf M (length ys) Hwf) as [Hpn Hpr].
    unfold fmech_product. cbn [rows].
    rewrite nth_indep with (d' := (fun '(r1, r2) => row_product r1 r2) ([], []))
      by (rewrite map_length, combine_length, Hn, Hpn, Nat.min_id; exact Hx).
    change (row_product [] []) with ((fun '(r1, r2) => row_product r1 r2) (@nil Q, @nil Q)).
    rewrite map_nth, combine_nth by (rewrite Hn, Hpn; reflexivity).
    cbv beta iota.
    assert (Hx1 : In (nth x (rows M) []) (rows M)) by (apply nth_In; lia).
    assert (Hx2 : In (nth x (rows (fmech_power M (length ys))) []) (rows (fmech_power M (length ys))))
      by (apply nth_In; lia).
    rewrite <- (Hpr _ Hx2). rewrite row_product_nth.
    + f_equal. exact IH.
    + rewrite (Hr _ Hx1). exact Hy.
    + rewrite (Hpr _ Hx2). apply power_index_lt, Hys.
Qed.

End Power.
