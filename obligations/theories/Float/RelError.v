(** * Relative error of rounding to nearest in an FLT format
    Seed 004's CONST/OP/LN rules bound a rounded value between r/(1+η) and
    r(1+η).  In the normal range (|r| ≥ 2^(emin+prec-1)) rounding to nearest,
    with any tie rule, multiplies r by a factor in [1/(1+η), 1+η], η = 2^-prec
    (Flocq's [u_ro]); the lower end needs Flocq's sharper u/(1+u) bound, since
    r(1-η) alone is below r/(1+η).  [widen_lo]/[widen_hi] turn that factor into
    an interval on both signs. *)
From Coq Require Import ZArith Reals Lra.
From Flocq Require Import Core.Core Relative.

Section RelError.

Local Open Scope R_scope.

Variables prec emin : Z.
Hypothesis Hprec : (0 < prec)%Z.
Variable choice : Z -> bool.

Definition eta : R := u_ro radix2 prec.

Definition rnd (x : R) : R := round radix2 (FLT_exp emin prec) (Znearest choice) x.

(** The smallest positive normal number of the format. *)
Definition normal_min : R := bpow radix2 (emin + prec - 1).

(** y is x times a factor within [1/(1+mu), 1+mu]. *)
Definition rel_within (mu x y : R) : Prop :=
  exists d, / (1 + mu) <= d <= 1 + mu /\ y = x * d.

Lemma eta_nonneg : 0 <= eta.
Proof. apply u_ro_pos. Qed.

Lemma rnd_rel_within : forall x, normal_min <= Rabs x -> rel_within eta x (rnd x).
Proof.
  intros x Hx.
  destruct (relative_error_N_FLX'_ex radix2 prec Hprec choice x) as (e & He & Hr).
  assert (Hu := eta_nonneg). unfold eta in Hu.
  assert (Hq : u_ro radix2 prec / (1 + u_ro radix2 prec) <= u_ro radix2 prec)
    by apply u_rod1pu_ro_le_u_ro.
  exists (1 + e). split; [split|].
  - apply Rabs_le_inv in He. destruct He as [He _].
    assert (Hid : / (1 + eta) = 1 - u_ro radix2 prec / (1 + u_ro radix2 prec))
      by (unfold eta; field; lra).
    rewrite Hid. lra.
  - apply Rabs_le_inv in He. unfold eta. lra.
  - unfold rnd. rewrite round_FLT_FLX; [exact Hr|exact Hx].
Qed.

(** Intervals: [widen_lo mu a] and [widen_hi mu b] bound y·d for every y in
    [a, b] and every factor d in [1/(1+mu), 1+mu], whatever the signs. *)
Definition widen_lo (mu a : R) : R := Rmin (a / (1 + mu)) (a * (1 + mu)).
Definition widen_hi (mu b : R) : R := Rmax (b / (1 + mu)) (b * (1 + mu)).

Lemma widen_lo_le : forall mu a, 0 <= mu -> widen_lo mu a <= a.
Proof.
  intros mu a Hmu. unfold widen_lo.
  destruct (Rle_dec 0 a).
  - apply Rle_trans with (a / (1 + mu)); [apply Rmin_l|].
    unfold Rdiv. rewrite <- (Rmult_1_r a) at 2. apply Rmult_le_compat_l; [lra|].
    rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
  - apply Rle_trans with (a * (1 + mu)); [apply Rmin_r|]. nra.
Qed.

Lemma widen_hi_ge : forall mu b, 0 <= mu -> b <= widen_hi mu b.
Proof.
  intros mu b Hmu. unfold widen_hi.
  destruct (Rle_dec 0 b).
  - apply Rle_trans with (b * (1 + mu)); [nra|apply Rmax_r].
  - apply Rle_trans with (b / (1 + mu)); [|apply Rmax_l].
    unfold Rdiv. assert (Hi : / (1 + mu) <= 1) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
    assert (Hp : 0 < / (1 + mu)) by (apply Rinv_0_lt_compat; lra). nra.
Qed.

Lemma rel_within_widen : forall mu a b y z, 0 <= mu -> a <= y <= b -> rel_within mu y z ->
  widen_lo mu a <= z <= widen_hi mu b.
Proof.
  intros mu a b y z Hmu Hy (d & Hd & ->).
  assert (Hp : 0 < / (1 + mu)) by (apply Rinv_0_lt_compat; lra).
  unfold widen_lo, widen_hi, Rdiv. split.
  - destruct (Rle_dec 0 y).
    + apply Rle_trans with (a * / (1 + mu)); [apply Rmin_l|].
      apply Rle_trans with (y * / (1 + mu)); [apply Rmult_le_compat_r; lra|].
      apply Rmult_le_compat_l; lra.
    + apply Rle_trans with (a * (1 + mu)); [apply Rmin_r|].
      apply Rle_trans with (y * (1 + mu)); [apply Rmult_le_compat_r; lra|]. nra.
  - destruct (Rle_dec 0 y).
    + apply Rle_trans with (b * (1 + mu)); [|apply Rmax_r].
      apply Rle_trans with (y * (1 + mu)); [apply Rmult_le_compat_l; lra|].
      apply Rmult_le_compat_r; lra.
    + apply Rle_trans with (b * / (1 + mu)); [|apply Rmax_l].
      apply Rle_trans with (y * / (1 + mu)); [nra|]. apply Rmult_le_compat_r; lra.
Qed.

End RelError.
