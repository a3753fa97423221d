(** * (ε, δ) of the discrete Gaussian run K times, from one Rényi moment, checked in intervals

    [zdp_dgauss_renyi] (DGaussRenyi.v) makes K runs of [dgauss v], inputs at distance at most
    Δ neighbours, (ε, δ₀)-DP with δ₀ = e^((a−1)(K·a·Δ²/2v − ε)) at every integer order a ≥ 2.
    [renyi_check] computes that exponent exactly in Q ([renyi_exponent]), an interval around
    its exponential in primitive floats (coq-interval's [I.exp]), and compares the interval's
    upper end with a float below δ; [zdp_dgauss_renyi_check] then proves (ε, δ)-DP.  The check
    is a handful of float operations whatever K is: no window, no convolution, only an upper
    bound (the accountant's bracket, GaussCheck.v, is two-sided). *)
From Coq Require Import ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts ExpTaylor.
From Obligations.Finite Require Import PLDCheck.
From Obligations.Accountant Require Import DownFloat NoiseDP DGauss DGaussRenyi GaussMass GaussCheck.

Local Open Scope R_scope.

(** (a − 1)·(K·a·Δ²/(2v) − ε), exactly. *)
Definition renyi_exponent (v : Q) (Delta : Z) (K a : nat) (eps : Q) : Q :=
  (inject_Z (Z.of_nat a) - 1) *
  (inject_Z (Z.of_nat K) * inject_Z (Z.of_nat a) * inject_Z (Delta * Delta) / (2 * v) - eps).

Definition renyi_check (v : Q) (Delta : Z) (K a : nat) (eps delta : Q) : bool :=
  Nat.leb 2 a && Qle_bool 0 delta && negb (Qle_bool v 0) &&
  fle (fbnd true (I.exp prec (iq (renyi_exponent v Delta K a eps)))) (fbnd false (iq delta)).

Lemma renyi_exponent_r (v : Q) (Delta : Z) (K a : nat) (eps : Q) : (0 < v)%Q ->
  Q2R (renyi_exponent v Delta K a eps) =
  (INR a - 1) * (INR K * INR a * (IZR Delta * IZR Delta) / (2 * Q2R v) - Q2R eps).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [E2 Hp].
  unfold renyi_exponent. rewrite Q2R_mult, Q2R_minus, Q2R_minus, q2r_over_2v by exact Hv.
  rewrite !Q2R_mult, !q2r_of_nat, q2r_inject_Z, mult_IZR, q2r_1. reflexivity.
Qed.

Lemma zdp_delta_le (p : Z -> R) (Delta : Z) (K : nat) (eps d d' : R) :
  zdp p Delta K eps d -> d <= d' -> zdp p Delta K eps d'.
Proof. intros H Hd x x' Hx S. specialize (H x x' Hx S). lra. Qed.

(** The check passed: K runs of the discrete Gaussian are (ε, δ)-DP. *)
Theorem zdp_dgauss_renyi_check (v : Q) (Delta : Z) (K a : nat) (eps delta : Q) :
  renyi_check v Delta K a eps delta = true -> zdp (dgauss (Q2R v)) Delta K (Q2R eps) (Q2R delta).
Proof.
  unfold renyi_check. intros H.
  apply andb_prop in H as [H Hle]. apply andb_prop in H as [H Hv].
  apply andb_prop in H as [Ha Hd].
  apply Nat.leb_le in Ha. apply Qle_bool_iff, Qle_Rle in Hd. rewrite q2r_0 in Hd.
  apply negb_true_iff in Hv. assert (Hv' : (0 < v)%Q).
  { apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. congruence. }
  destruct (q2r_2v v Hv') as [_ Hp].
  apply (zdp_delta_le _ _ _ _ _ _ (zdp_dgauss_renyi (Q2R v) Hp Delta K a (Q2R eps) Ha)).
  rewrite <- (renyi_exponent_r v Delta K a eps Hv').
  apply (fle_rnd _ _ _ _ (fbnd_rnd true _ _ (exp_correct_r _ _ (iq_correct _)) (Rlt_le _ _ (exp_pos _)))
           (fbnd_rnd false _ _ (iq_correct delta) Hd) Hle).
Qed.
