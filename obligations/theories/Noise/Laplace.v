(** * The Laplace sample as a function of the uniform sample

    The snapping mechanism draws its Laplace noise as [x = c ± ln u / r] from
    [u] uniform on (0,1].  The lemmas here turn bounds on [x] (the preimages of
    the rounded outputs, Rounding.v) into bounds on [u]; with the plus sign the
    inequalities keep their direction, with the minus sign they flip. *)
From Coq Require Import Reals Lra.
From Obligations.Core Require Import RealFacts.
Local Open Scope R_scope.

Lemma lap_plus_ge r c a u : 0 < r -> 0 < u -> (a <= c + / r * ln u <-> exp (r * (a - c)) <= u).
Proof.
  intros Hr Hu. rewrite <- ln_ge_iff by exact Hu. split; intros H.
  - apply Rmult_le_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (a - c))) with (a - c) by (field; lra). lra.
  - apply Rmult_le_compat_l with (r := / r) in H; [|apply Rlt_le, Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (a - c))) with (a - c) in H by (field; lra). lra.
Qed.

Lemma lap_plus_gt r c a u : 0 < r -> 0 < u -> (a < c + / r * ln u <-> exp (r * (a - c)) < u).
Proof.
  intros Hr Hu. rewrite <- ln_gt_iff by exact Hu. split; intros H.
  - apply Rmult_lt_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (a - c))) with (a - c) by (field; lra). lra.
  - apply Rmult_lt_compat_l with (r := / r) in H; [|apply Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (a - c))) with (a - c) in H by (field; lra). lra.
Qed.

Lemma lap_plus_le r c b u : 0 < r -> 0 < u -> (c + / r * ln u <= b <-> u <= exp (r * (b - c))).
Proof.
  intros Hr Hu. pose proof (lap_plus_gt r c b u Hr Hu).
  split; intros H'.
  - destruct (Rle_or_lt u (exp (r * (b - c)))); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rle_or_lt (c + / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.

Lemma lap_plus_lt r c b u : 0 < r -> 0 < u -> (c + / r * ln u < b <-> u < exp (r * (b - c))).
Proof.
  intros Hr Hu. pose proof (lap_plus_ge r c b u Hr Hu).
  split; intros H'.
  - destruct (Rlt_or_le u (exp (r * (b - c)))); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rlt_or_le (c + / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.

(** With the minus sign the inequalities flip. *)
Lemma lap_minus_ge r c a u : 0 < r -> 0 < u -> (a <= c - / r * ln u <-> u <= exp (r * (c - a))).
Proof.
  intros Hr Hu. rewrite <- ln_le_iff by exact Hu. split; intros H.
  - apply Rmult_le_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (c - a))) with (c - a) by (field; lra). lra.
  - apply Rmult_le_compat_l with (r := / r) in H; [|apply Rlt_le, Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (c - a))) with (c - a) in H by (field; lra). lra.
Qed.

Lemma lap_minus_gt r c a u : 0 < r -> 0 < u -> (a < c - / r * ln u <-> u < exp (r * (c - a))).
Proof.
  intros Hr Hu. rewrite <- ln_lt_iff by exact Hu. split; intros H.
  - apply Rmult_lt_reg_l with (/ r); [apply Rinv_0_lt_compat, Hr|].
    replace (/ r * (r * (c - a))) with (c - a) by (field; lra). lra.
  - apply Rmult_lt_compat_l with (r := / r) in H; [|apply Rinv_0_lt_compat, Hr].
    replace (/ r * (r * (c - a))) with (c - a) in H by (field; lra). lra.
Qed.

Lemma lap_minus_le r c b u : 0 < r -> 0 < u -> (c - / r * ln u <= b <-> exp (r * (c - b)) <= u).
Proof.
  intros Hr Hu. pose proof (lap_minus_gt r c b u Hr Hu).
  split; intros H'.
  - destruct (Rle_or_lt (exp (r * (c - b))) u); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rle_or_lt (c - / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.

Lemma lap_minus_lt r c b u : 0 < r -> 0 < u -> (c - / r * ln u < b <-> exp (r * (c - b)) < u).
Proof.
  intros Hr Hu. pose proof (lap_minus_ge r c b u Hr Hu).
  split; intros H'.
  - destruct (Rlt_or_le (exp (r * (c - b))) u); [assumption|]. exfalso. apply H in H0. lra.
  - destruct (Rlt_or_le (c - / r * ln u) b); [assumption|]. exfalso. apply H in H0. lra.
Qed.
