(** * Additive noise over Z run K times: the hockey-stick divergence over a box, by a PLD

    A mechanism that adds noise from a distribution over Z (the discrete Laplace, the
    discrete Gaussian) has infinite support.  Its K-fold composition gives the output vector
    v in Z^K the probability Π_i p(v_i) on one input and Π_i q(v_i) on a neighbour ([vp]).
    Every finite set of vectors lies in a box [−m, m]^K ([box] of Coupling/Product.v), and
    over a box the hockey-stick sum [hsbox] is bounded by the PLD formula from either side,
    exactly as for a finite table ([hsbox_ord], the induction of PLDBound.v): each output's
    loss key on the [up] side, the PLD the P-mass per key over the window [−m, m].
    [hsbox_trunc] compares it with the same sum for the noise truncated to a smaller window
    (the masses outside it are at most what the truncated rows miss), which is how a fixed,
    finite PLD bounds every box. *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import PLD.
From Obligations.Accountant Require Import Below PLDBound.
From Obligations.Coupling Require Import LubSum Geometric Product.
Import ListNotations.

Local Open Scope R_scope.

(** Π_i p(v_i). *)
Fixpoint vp (p : Z -> R) (v : list Z) : R :=
  match v with
  | [] => 1
  | y :: v' => p y * vp p v'
  end.

Definition hsbox (p q : Z -> R) (n m : nat) (t : R) : R :=
  rsum (map (fun v => Rmax 0 (vp p v - t * vp q v)) (box n m)).

Lemma hs_weight_nonneg (b t : R) (z : Z) : 0 < b -> 0 <= t -> 0 <= hs_weight b t z.
Proof. intros Hb Ht. unfold hs_weight. apply Rmax_l. Qed.

Lemma ord_fsum {A} (up : bool) (f g : A -> R) (l : list A) :
  (forall a, In a l -> ord up (f a) (g a)) -> ord up (rsum (map f l)) (rsum (map g l)).
Proof. apply ord_rsum. Qed.

Lemma vp_nonneg (p : Z -> R) (v : list Z) : (forall y, 0 <= p y) -> 0 <= vp p v.
Proof. intros Hp. induction v as [|y v IH]; cbn [vp]; [lra|]. specialize (Hp y). nra. Qed.

Lemma vp_mono (p p0 : Z -> R) (v : list Z) :
  (forall y, 0 <= p0 y <= p y) -> vp p0 v <= vp p v.
Proof.
  intros H. induction v as [|y v IH]; cbn [vp]; [lra|].
  assert (0 <= vp p0 v) by (apply vp_nonneg; intros z; apply H). destruct (H y). nra.
Qed.

(** The box's total: (Σ_{[−m, m]} p)^n. *)
Lemma fsum_vp_box (p : Z -> R) (n m : nat) : rsum (map (vp p) (box n m)) = (rsum (map p (win m))) ^ n.
Proof.
  induction n as [|n IH]; cbn [box pow].
  - rewrite rsum_map_cons, rsum_map_nil. cbn [vp]. ring.
  - rewrite rsum_map_flat_map.
    transitivity (rsum (map (fun y => rsum (map (vp p) (box n m)) * p y) (win m))).
    + f_equal. apply map_ext. intros y.
      fold (rsum (map (vp p) (map (cons y) (box n m)))). rewrite rsum_map_map. cbn [vp]. rewrite rsum_scal. ring.
    + rewrite rsum_scal, IH. ring.
Qed.

Section Box.
Variables (up : bool) (p q : Z -> R) (m : nat) (b : R) (key : Z -> Z) (oB d : Z) (B : list R).
Hypothesis Hp : forall y, 0 <= p y.
Hypothesis Hq : forall y, 0 <= q y.
Hypothesis Hb : 0 < b.
Hypothesis HBnn : nonneg B.
Hypothesis Hkeys : forall y, In y (win m) -> p y = 0 \/ ord up (p y) (powerRZ b (key y) * q y).
(** [B] is the P-mass per key over the window (tested against non-negative functions). *)
Hypothesis HB : forall F : Z -> R, (forall z, 0 <= F z) ->
  rsum (map (fun y => p y * F (key y)) (win m)) = ev d oB B F.

Lemma box_row_term (y : Z) (P Qv t : R) :
  In y (win m) -> 0 <= Qv -> 0 <= t ->
  ord up (Rmax 0 (p y * P - t * (q y * Qv))) (p y * Rmax 0 (P - t * powerRZ b (- key y) * Qv)).
Proof.
  intros Hy HQ Ht. pose proof (Hp y) as Hp1. pose proof (Hq y) as Hq1.
  set (w := powerRZ b (key y)). assert (Hw : 0 < w) by (apply powerRZ_lt, Hb).
  rewrite powerRZ_neg' by lra. fold w.
  destruct (Hkeys y Hy) as [E|E].
  - rewrite E. apply ord_eq. rewrite Rmult_0_l, Rmax_left; [ring|].
    assert (0 <= t * (q y * Qv)) by (apply Rmult_le_pos; [lra|apply Rmult_le_pos; lra]). lra.
  - rewrite <- (rmax0_scale (p y)) by exact Hp1.
    replace (p y * (P - t * / w * Qv)) with (p y * P - t * (p y / w * Qv)) by (field; lra).
    fold w in E. destruct up; cbn in E |- *.
    + assert (H1 : p y / w <= q y) by (apply div_le_iff_r; lra).
      apply rmax0_mono. apply Rplus_le_compat_l, Ropp_le_contravar, Rmult_le_compat_l; [exact Ht|].
      apply Rmult_le_compat_r; [exact HQ|exact H1].
    + assert (H1 : q y <= p y / w) by (apply div_le_iff; lra).
      apply rmax0_mono. apply Rplus_le_compat_l, Ropp_le_contravar, Rmult_le_compat_l; [exact Ht|].
      apply Rmult_le_compat_r; [exact HQ|exact H1].
Qed.

Theorem hsbox_ord (n : nat) (t : R) :
  0 <= t -> ord up (hsbox p q n m t) (ev d (Z.of_nat n * oB) (cpow Rplus Rmult 0 B 1 n) (hs_weight b t)).
Proof.
  revert t. induction n as [|n IH]; intros t Ht.
  - apply ord_eq. unfold hsbox. cbn [box]. rewrite rsum_map_cons, rsum_map_nil. cbn [vp cpow ev].
    unfold hs_weight. rewrite Z.mul_0_l. cbn [Z.opp powerRZ]. rewrite !Rmult_1_r, Rmult_1_l, Rplus_0_r.
    reflexivity.
  - unfold hsbox. cbn [box]. rewrite rsum_map_flat_map.
    apply ord_trans with (rsum (map (fun y => p y * hsbox p q n m (t * powerRZ b (- key y))) (win m))).
    { apply ord_fsum. intros y Hy.
      rewrite rsum_map_map. unfold hsbox. rewrite <- rsum_scal. apply ord_rsum. intros v _.
      cbn [vp]. rewrite <- !Rmult_assoc.
      replace (p y * vp p v - t * q y * vp q v) with (p y * vp p v - t * (q y * vp q v)) by ring.
      exact (box_row_term y (vp p v) (vp q v) t Hy (vp_nonneg q v Hq) Ht). }
    apply ord_trans with (rsum (map (fun y => p y *
        ev d (Z.of_nat n * oB) (cpow Rplus Rmult 0 B 1 n) (fun z2 => hs_weight b t (key y + z2)%Z)) (win m))).
    { apply ord_fsum. intros y Hy. apply ord_scale; [apply Hp|].
      eapply ord_trans; [apply IH|].
      - apply Rmult_le_pos; [exact Ht|]. apply Rlt_le, powerRZ_lt, Hb.
      - apply ord_eq. apply ev_ext. intros z2. unfold hs_weight. f_equal. f_equal.
        rewrite Rmult_assoc, <- powerRZ_add by lra. do 3 f_equal. ring. }
    apply ord_eq.
    rewrite (HB (fun z1 => ev d (Z.of_nat n * oB) (cpow Rplus Rmult 0 B 1 n) (fun z2 => hs_weight b t (z1 + z2)%Z))).
    + replace (Z.of_nat (S n) * oB)%Z with (oB + Z.of_nat n * oB)%Z by lia. rewrite <- ev_conv. reflexivity.
    + intros z. apply ev_nonneg; [apply nonneg_cpow, HBnn|]. intros z2. apply hs_weight_nonneg; [lra|exact Ht].
Qed.
End Box.

(** Truncating the first row's noise to [p0] ≤ p changes the box sum by at most the mass the
    truncation removes, and only downwards. *)
Lemma hsbox_trunc (p p0 q : Z -> R) (n m : nat) (t : R) :
  (forall y, 0 <= p0 y <= p y) -> (forall y, 0 <= q y) -> 0 <= t ->
  hsbox p0 q n m t <= hsbox p q n m t <= hsbox p0 q n m t + ((rsum (map p (win m))) ^ n - (rsum (map p0 (win m))) ^ n).
Proof.
  intros H0 Hq Ht. rewrite <- !fsum_vp_box. unfold hsbox. split.
  - apply rsum_le. intros v _. apply rmax0_mono. pose proof (vp_mono p p0 v H0). lra.
  - replace (rsum (map (vp p) (box n m)) - rsum (map (vp p0) (box n m))) with (rsum (map (fun v => vp p v - vp p0 v) (box n m))).
    + rewrite <- rsum_plus. apply rsum_le. intros v _.
      pose proof (vp_mono p p0 v H0). unfold Rmax.
      destruct (Rle_dec 0 (vp p v - t * vp q v)), (Rle_dec 0 (vp p0 v - t * vp q v)); lra.
    + rewrite <- rsum_minus. reflexivity.
Qed.
