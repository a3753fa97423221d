(** * Clamping to [-B, B]

    [clamp B x] is the point of [-B, B] nearest to [x].  The snapping
    mechanism clamps the query value (which makes the sensitivity argument
    see [clamp B c]) and the rounded output (which turns the two tails into
    the outputs [B] and [-B]). *)
From Coq Require Import Reals Lra.
Local Open Scope R_scope.

Definition clamp (B x : R) : R := Rmax (- B) (Rmin B x).

Ltac clamp_cases :=
  unfold clamp, Rmax, Rmin in *;
  repeat match goal with
  | |- context [Rle_dec ?x ?y] =>
      lazymatch x with context [Rle_dec _ _] => fail | _ =>
      lazymatch y with context [Rle_dec _ _] => fail | _ => destruct (Rle_dec x y) end end
  | H : context [Rle_dec ?x ?y] |- _ =>
      lazymatch x with context [Rle_dec _ _] => fail | _ =>
      lazymatch y with context [Rle_dec _ _] => fail | _ => destruct (Rle_dec x y) end end
  end.

Lemma clamp_in_range B x : 0 <= B -> - B <= clamp B x <= B.
Proof. intros. clamp_cases; lra. Qed.

(** Clamping is 1-Lipschitz, so it does not increase the sensitivity. *)
Lemma clamp_lipschitz B x y : 0 <= B -> Rabs (clamp B x - clamp B y) <= Rabs (x - y).
Proof.
  intros HB. unfold Rabs.
  repeat match goal with |- context [Rcase_abs ?t] => destruct (Rcase_abs t) end;
  clamp_cases; lra.
Qed.

Lemma clamp_id B x : - B <= x <= B -> clamp B x = x.
Proof. intros. clamp_cases; lra. Qed.

Lemma clamp_top_iff B x : 0 < B -> (clamp B x = B <-> B <= x).
Proof. intros. split; intros; clamp_cases; lra. Qed.

Lemma clamp_bottom_iff B x : 0 < B -> (clamp B x = - B <-> x <= - B).
Proof. intros. split; intros; clamp_cases; lra. Qed.

Lemma clamp_interior_iff B x y : - B < y < B -> (clamp B x = y <-> x = y).
Proof. intros. split; intros; clamp_cases; lra. Qed.

(** Every value of [clamp B] is [B], [-B], or strictly between them. *)
Lemma clamp_cases_3 B x :
  0 < B -> clamp B x = B \/ clamp B x = - B \/ (- B < clamp B x < B /\ clamp B x = x).
Proof. intros. clamp_cases; lra. Qed.

(** Two clamped values are at most [2 * B] apart, whatever the query values. *)
Lemma clamp_dist_le_2b (B x y : R) : 0 <= B -> Rabs (clamp B x - clamp B y) <= 2 * B.
Proof.
  intros HB. pose proof (clamp_in_range B x HB). pose proof (clamp_in_range B y HB).
  unfold Rabs. destruct (Rcase_abs (clamp B x - clamp B y)); lra.
Qed.
