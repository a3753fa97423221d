(** * The PLD of a k-fold composition with rounded loss keys: a bound from either side

    [hs_power_pld] (PLD.v) needs every output of the pair (x, x') to have a loss that
    is exactly a power of [b].  Here each output [y] only needs a key [z_y] on the
    right side of its loss: [P(y) ≤ b^(z_y)·Q(y)] (rounded up, [up = true]) or
    [P(y) ≥ b^(z_y)·Q(y)] (rounded down, [up = false]), or [P(y) = 0].  Then the PLD
    formula of the keys bounds the hockey-stick divergence of the k-fold composition
    from above or from below ([hs_power_pld_ord]): rounding a loss up gives the pair
    less Q-mass where it matters, which can only raise every max(0, P − t·Q).  Keys
    that are exact give both bounds at once, and PLD.v's identity. *)
From Coq Require Import List ZArith QArith Qpower Qreals Reals Lra Lia Psatz.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Compose BasicComposition PLD.
Import ListNotations.

(** Output [y] of the pair has its loss on the [up] side of the key [z]. *)
Definition keyed_ord (up : bool) (b p q : Q) (z : Z) : Prop :=
  (p == 0 \/ if up then p <= b ^ z * q else b ^ z * q <= p)%Q.

Local Open Scope R_scope.

(** [x ≤ y] when [up], [x ≥ y] otherwise. *)
Definition ord (up : bool) (x y : R) : Prop := if up then x <= y else y <= x.

Lemma ord_eq (up : bool) (x y : R) : x = y -> ord up x y.
Proof. intros ->. destruct up; cbn; lra. Qed.

Lemma ord_trans (up : bool) (x y z : R) : ord up x y -> ord up y z -> ord up x z.
Proof. destruct up; cbn; lra. Qed.

Lemma ord_scale (up : bool) (c x y : R) : 0 <= c -> ord up x y -> ord up (c * x) (c * y).
Proof. destruct up; cbn; intros; nra. Qed.

Lemma ord_rsum {A} (up : bool) (f g : A -> R) (l : list A) :
  (forall a, In a l -> ord up (f a) (g a)) -> ord up (rsum (map f l)) (rsum (map g l)).
Proof. destruct up; cbn; intros H; apply rsum_le; intros a Ha; apply H, Ha. Qed.

Lemma rmax0_mono (a c : R) : a <= c -> Rmax 0 a <= Rmax 0 c.
Proof. intros H. unfold Rmax. destruct (Rle_dec 0 a), (Rle_dec 0 c); lra. Qed.

Section Bound.
Variables (up : bool) (M : fmech) (x x' : nat) (b : Q) (keys : list Z) (oB d : Z) (B : list Q).
Hypothesis Hwf : fmech_wf M.
Hypothesis Hsub : subdistr M.
Hypothesis Hx : (x < n_in M)%nat.
Hypothesis Hx' : (x' < n_in M)%nat.
Hypothesis Hb : (0 < b)%Q.
Hypothesis Hkeys : forall y, (y < n_out M)%nat -> keyed_ord up b (entry M x y) (entry M x' y) (nth y keys 0%Z).
Hypothesis HB : forall F : Z -> R,
  rsum (map (fun y => prob M x y * F (nth y keys 0%Z)) (seq 0 (n_out M))) = ev d oB (map Q2R B) F.

(** One output [y1] of the first run against the rest. *)
Lemma row_term_ord (y1 : nat) (P Qv t : R) :
  (y1 < n_out M)%nat -> 0 <= Qv -> 0 <= t ->
  ord up (Rmax 0 (prob M x y1 * P - t * (prob M x' y1 * Qv)))
         (prob M x y1 * Rmax 0 (P - t * powerRZ (Q2R b) (- nth y1 keys 0%Z) * Qv)).
Proof.
  intros Hy HQ Ht. assert (Hq1 : 0 <= prob M x' y1) by (apply (proj1 (Hsub x' Hx')), Hy).
  assert (Hp1 : 0 <= prob M x y1) by (apply (proj1 (Hsub x Hx)), Hy).
  assert (HbR : 0 < Q2R b) by (apply (bR_pos b Hb)).
  set (z := nth y1 keys 0%Z) in *. set (w := powerRZ (Q2R b) z).
  assert (Hw : 0 < w) by (apply powerRZ_lt, HbR).
  rewrite powerRZ_neg' by lra. fold w.
  destruct (Hkeys y1 Hy) as [E|E]; fold z in E.
  - unfold prob in *. rewrite (Qeq_eqR _ _ E) in *. rewrite q2r_0 in *. apply ord_eq.
    rewrite Rmult_0_l, Rmax_left; [ring|]. rewrite Rminus_0_l.
    apply Ropp_le_cancel. rewrite Ropp_involutive, Ropp_0. apply Rmult_le_pos; [lra|apply Rmult_le_pos; lra].
  - assert (Hw' : Q2R (b ^ z) = w) by (apply (q2r_qpower b Hb)).
    rewrite <- (rmax0_scale (prob M x y1)) by exact Hp1.
    replace (prob M x y1 * (P - t * / w * Qv)) with (prob M x y1 * P - t * (prob M x y1 / w * Qv)) by (field; lra).
    assert (Hpw : 0 <= prob M x y1 / w) by (apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat, Hw]).
    destruct up; cbn.
    + apply Qle_Rle in E. rewrite Q2R_mult, Hw' in E. unfold prob in *.
      assert (H1 : Q2R (entry M x y1) / w <= Q2R (entry M x' y1)) by (apply div_le_iff_r; lra).
      apply rmax0_mono. apply Rplus_le_compat_l, Ropp_le_contravar, Rmult_le_compat_l; [exact Ht|].
      apply Rmult_le_compat_r; [exact HQ|exact H1].
    + apply Qle_Rle in E. rewrite Q2R_mult, Hw' in E. unfold prob in *.
      assert (H1 : Q2R (entry M x' y1) <= Q2R (entry M x y1) / w) by (apply div_le_iff; lra).
      apply rmax0_mono. apply Rplus_le_compat_l, Ropp_le_contravar, Rmult_le_compat_l; [exact Ht|].
      apply Rmult_le_compat_r; [exact HQ|exact H1].
Qed.

Theorem hs_power_pld_ord (k : nat) (t : R) :
  0 <= t ->
  ord up (hs (fmech_power M k) x x' t) (ev d (Z.of_nat k * oB) (pld_power B k) (hs_weight (Q2R b) t)).
Proof.
  revert t. induction k as [|k IH]; intros t Ht.
  - apply ord_eq. unfold hs, pld_power, prob, entry. cbn - [Q2R Rmax].
    rewrite !nth_repeat_lt by assumption. cbn [nth]. rewrite q2r_1.
    unfold hs_weight. cbn [powerRZ Z.opp]. rewrite !Rmult_1_r, Rmult_1_l. reflexivity.
  - destruct (fmech_power_dims M k) as [D1 D2].
    unfold hs. cbn [fmech_power]. cbn [n_out fmech_product]. rewrite rsum_seq_mul.
    apply ord_trans with (rsum (map (fun y1 => prob M x y1 *
        hs (fmech_power M k) x x' (t * powerRZ (Q2R b) (- nth y1 keys 0%Z))) (seq 0 (n_out M)))).
    { apply ord_rsum. intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
      unfold hs. rewrite <- rsum_scal. apply ord_rsum. intros y2 Hy2. apply in_seq in Hy2 as [_ Hy2].
      unfold prob at 1 2. rewrite !fmech_product_entry by (try apply power_wf; try assumption; lia).
      rewrite !Q2R_mult. apply row_term_ord; [exact Hy1| |exact Ht]. apply power_nonneg; try assumption; lia. }
    apply ord_trans with (rsum (map (fun y1 => prob M x y1 *
        ev d (Z.of_nat k * oB) (pld_power B k)
          (fun z2 => hs_weight (Q2R b) t (nth y1 keys 0%Z + z2)%Z)) (seq 0 (n_out M)))).
    { apply ord_rsum. intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
      apply ord_scale; [apply (proj1 (Hsub x Hx)), Hy1|].
      eapply ord_trans; [apply IH|].
      - apply Rmult_le_pos; [exact Ht|]. apply Rlt_le, powerRZ_lt, (bR_pos b Hb).
      - apply ord_eq. apply ev_ext. intros z2. unfold hs_weight. f_equal. f_equal.
        rewrite Rmult_assoc, <- powerRZ_add by (apply Rgt_not_eq, (bR_pos b Hb)). do 3 f_equal. ring. }
    apply ord_eq.
    rewrite (HB (fun z1 => ev d (Z.of_nat k * oB) (pld_power B k) (fun z2 => hs_weight (Q2R b) t (z1 + z2)%Z))).
    rewrite <- ev_conv. unfold pld_power. cbn [cpow]. f_equal. lia.
Qed.

End Bound.
