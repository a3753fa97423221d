(** * Poisson subsampling of a finite mechanism, add/remove neighbours

    A table M whose input [e] is the batch without the protected record and whose other
    inputs x are the batch with it (the record's value x).  Poisson subsampling with rate q
    keeps the record with probability q, independently of the noise: on the batch with the
    record the output law is q·M(x) + (1 − q)·M(e), on the batch without it M(e).  The
    subsampled mechanism is again a table ([fmech_subsample]), so everything proved of
    tables (composition by the accountant included) applies to it; its neighbours are the
    add/remove pairs {x, e} ([nb_remove]). *)
From Coq Require Import List Arith ZArith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours.
Import ListNotations.

Local Open Scope Q_scope.

(** Entry by entry q·a + (1 − q)·b, reduced (the checks compare masses exactly). *)
Definition mix_row (q : Q) (r r0 : list Q) : list Q :=
  map (fun y => Qred (q * nth y r 0 + (1 - q) * nth y r0 0)) (seq 0 (length r0)).

(** The row of input x of the subsampled table. *)
Definition subsample_row (q : Q) (e : nat) (M : fmech) (x : nat) : list Q :=
  if Nat.eqb x e then nth e (rows M) [] else mix_row q (nth x (rows M) []) (nth e (rows M) []).

(** The subsampled mechanism: same inputs and outputs, the record kept with probability q. *)
Definition fmech_subsample (q : Q) (e : nat) (M : fmech) : fmech :=
  FMech (n_in M) (n_out M) (map (subsample_row q e M) (seq 0 (n_in M))).

(** Add/remove neighbours: the batch without the record [e] and each batch with it. *)
Definition nb_remove (e : nat) : nat -> nat -> bool :=
  fun x x' => negb (Nat.eqb x x') && (Nat.eqb x e || Nat.eqb x' e).

Lemma nb_remove_symmetric (e : nat) : symmetric (nb_remove e).
Proof.
  intros x x'. unfold nb_remove. rewrite Nat.eqb_sym. f_equal. apply Bool.orb_comm.
Qed.

Local Open Scope R_scope.

(** What the definition means: Pr[sub(x) = y] = q·Pr[M(x) = y] + (1 − q)·Pr[M(e) = y] for a
    batch with the record, Pr[M(e) = y] for the batch without it (rows of M of length
    [n_out M], as every checked table has). *)
Lemma prob_subsample (q : Q) (e : nat) (M : fmech) (x y : nat) :
  (x < n_in M)%nat -> (y < n_out M)%nat -> length (nth e (rows M) []) = n_out M ->
  prob (fmech_subsample q e M) x y =
  if Nat.eqb x e then prob M e y else Q2R q * prob M x y + (1 - Q2R q) * prob M e y.
Proof.
  intros Hx Hy Hlen. unfold prob, entry. cbn [rows fmech_subsample].
  rewrite nth_indep with (d' := subsample_row q e M 0) by (rewrite map_length, seq_length; exact Hx).
  rewrite map_nth, seq_nth by exact Hx. cbn [plus]. unfold subsample_row.
  destruct (Nat.eqb x e) eqn:E; [apply Nat.eqb_eq in E; subst x; reflexivity|].
  unfold mix_row. rewrite Hlen.
  rewrite nth_indep with (d' := Qred (q * nth 0 (nth x (rows M) []) 0 + (1 - q) * nth 0 (nth e (rows M) []) 0)%Q)
    by (rewrite map_length, seq_length; exact Hy).
  rewrite (map_nth (fun y0 => Qred (q * nth y0 (nth x (rows M) []) 0 + (1 - q) * nth y0 (nth e (rows M) []) 0)%Q)), seq_nth by exact Hy. cbn [plus].
  rewrite Qred_correct, Q2R_plus, !Q2R_mult, Q2R_minus. unfold Q2R at 3. cbn [Qnum Qden]. lra.
Qed.
