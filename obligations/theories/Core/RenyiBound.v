(** * The hockey-stick sum below a Rényi moment

    For masses p ≥ 0 and q > 0 over a finite list, t > 0 and an order a > 1:
    Σ max(0, p − t·q) ≤ t^(1−a) · Σ p^a·q^(1−a).  With t = e^ε this is the step from Rényi
    (or zero-concentrated) DP to (ε, δ)-DP: δ ≤ e^((a−1)(D_a − ε)) where e^((a−1)·D_a) is the
    moment Σ p^a·q^(1−a).  Each term: where p > t·q, p − t·q ≤ p ≤ p·(p/(t·q))^(a−1). *)
From Coq Require Import List Reals Lra.
From Obligations.Core Require Import RealFacts Sums.
Import ListNotations.

Local Open Scope R_scope.

Lemma rpower_ge_1 (x y : R) : 1 <= x -> 0 <= y -> 1 <= Rpower x y.
Proof.
  intros Hx Hy. unfold Rpower. rewrite <- exp_0. apply exp_le_iff.
  apply Rmult_le_pos; [exact Hy|]. rewrite <- ln_1. destruct (Req_dec x 1) as [->|Hne]; [lra|].
  left. apply ln_increasing; lra.
Qed.

Lemma rpower_nonneg (x y : R) : 0 <= Rpower x y.
Proof. unfold Rpower. left. apply exp_pos. Qed.

(** One term: max(0, p − t·q) ≤ t^(1−a)·p^a·q^(1−a). *)
Lemma hs_term_renyi (p q t a : R) :
  0 <= p -> 0 < q -> 0 < t -> 1 < a ->
  Rmax 0 (p - t * q) <= Rpower t (1 - a) * (Rpower p a * Rpower q (1 - a)).
Proof.
  intros Hp Hq Ht Ha.
  assert (H0 : 0 <= Rpower t (1 - a) * (Rpower p a * Rpower q (1 - a))).
  { apply Rmult_le_pos; [apply rpower_nonneg|apply Rmult_le_pos; apply rpower_nonneg]. }
  unfold Rmax. destruct (Rle_dec 0 (p - t * q)) as [Hle|_]; [|exact H0].
  destruct (Req_dec (p - t * q) 0) as [E|Hne]; [rewrite E; exact H0|].
  assert (Htq : 0 < t * q) by (apply Rmult_lt_0_compat; assumption).
  assert (Hpp : 0 < p) by lra.
  assert (Hr : 1 <= p / (t * q)).
  { apply (Rmult_le_reg_r (t * q)); [exact Htq|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  (* t^(1−a)·p^a·q^(1−a) = p·(p/(t·q))^(a−1) *)
  assert (E : Rpower t (1 - a) * (Rpower p a * Rpower q (1 - a)) = p * Rpower (p / (t * q)) (a - 1)).
  { transitivity (exp (ln p) * Rpower (p / (t * q)) (a - 1)); [|rewrite exp_ln by exact Hpp; reflexivity].
    unfold Rpower, Rdiv. rewrite ln_mult, ln_Rinv, ln_mult by (try apply Rinv_0_lt_compat; assumption).
    rewrite <- !exp_plus. f_equal. ring. }
  rewrite E. pose proof (rpower_ge_1 _ (a - 1) Hr ltac:(lra)) as H1.
  assert (p <= p * Rpower (p / (t * q)) (a - 1)) by nra. nra.
Qed.

Lemma hs_le_renyi {A} (l : list A) (p q : A -> R) (t a : R) :
  (forall y, 0 <= p y) -> (forall y, 0 < q y) -> 0 < t -> 1 < a ->
  rsum (map (fun y => Rmax 0 (p y - t * q y)) l) <=
  Rpower t (1 - a) * rsum (map (fun y => Rpower (p y) a * Rpower (q y) (1 - a)) l).
Proof.
  intros Hp Hq Ht Ha. rewrite <- rsum_scal. apply rsum_le. intros y _. apply hs_term_renyi; auto.
Qed.
