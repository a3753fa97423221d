(** * (ε, δ) of the discrete Gaussian run K times at a rational Rényi order, checked in intervals

    [zdp_dgauss_renyi_real] (DGaussZcdp.v) makes K runs of [dgauss v], inputs at distance at
    most Δ, (ε, δ₀)-DP with δ₀ = e^((a−1)(K·a·Δ²/2v − ε)) at every real order a > 1.  At a
    rational order the exponent is rational: [qorder_passes] computes it exactly in Q
    ([qorder_exponent]), an interval around its exponential in primitive floats, and compares the
    interval's upper end with a float below δ, as DGaussRenyiCheck.v does at integer orders;
    [zdp_dgauss_qorder] then proves (ε, δ)-DP.  A rational near the best order
    (Kρ + ε)/2Kρ, ρ = Δ²/2v, gives within rounding the δ of ρ-zCDP in full, e^(−(ε − Kρ)²/4Kρ). *)
From Coq Require Import ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts ExpTaylor.
From Obligations.Finite Require Import PLDCheck.
From Obligations.Accountant Require Import DownFloat NoiseDP DGauss DGaussZcdp GaussMass GaussCheck DGaussRenyiCheck.

Local Open Scope R_scope.

(** (a − 1)·(K·a·Δ²/(2v) − ε), exactly, at a rational order a. *)
Definition qorder_exponent (v : Q) (Delta : Z) (K : nat) (a eps : Q) : Q :=
  (a - 1) * (inject_Z (Z.of_nat K) * a * inject_Z (Delta * Delta) / (2 * v) - eps).

Definition qorder_passes (v : Q) (Delta : Z) (K : nat) (a eps delta : Q) : bool :=
  negb (Qle_bool a 1) && Qle_bool 0 delta && negb (Qle_bool v 0) &&
  fle (fbnd true (I.exp prec (iq (qorder_exponent v Delta K a eps)))) (fbnd false (iq delta)).

Lemma qorder_exponent_r (v : Q) (Delta : Z) (K : nat) (a eps : Q) : (0 < v)%Q ->
  Q2R (qorder_exponent v Delta K a eps) =
  (Q2R a - 1) * (INR K * Q2R a * (IZR Delta * IZR Delta) / (2 * Q2R v) - Q2R eps).
Proof.
  intros Hv. unfold qorder_exponent. rewrite Q2R_mult, Q2R_minus, Q2R_minus, q2r_over_2v by exact Hv.
  rewrite !Q2R_mult, q2r_of_nat, q2r_inject_Z, mult_IZR, q2r_1. reflexivity.
Qed.

Lemma qlt_of_not_le (x y : Q) : negb (Qle_bool x y) = true -> (y < x)%Q.
Proof. intros H. apply negb_true_iff in H. apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. congruence. Qed.

(** The check passed: K runs of the discrete Gaussian are (ε, δ)-DP. *)
Theorem zdp_dgauss_qorder (v : Q) (Delta : Z) (K : nat) (a eps delta : Q) :
  qorder_passes v Delta K a eps delta = true -> zdp (dgauss (Q2R v)) Delta K (Q2R eps) (Q2R delta).
Proof.
  unfold qorder_passes. intros H.
  apply andb_prop in H as [H Hle]. apply andb_prop in H as [H Hv].
  apply andb_prop in H as [Ha Hd].
  apply qlt_of_not_le, Qlt_Rlt in Ha. rewrite q2r_1 in Ha.
  apply Qle_bool_iff, Qle_Rle in Hd. rewrite q2r_0 in Hd.
  apply qlt_of_not_le in Hv. destruct (q2r_2v v Hv) as [_ Hp].
  apply (zdp_delta_le _ _ _ _ _ _ (zdp_dgauss_renyi_real (Q2R v) Hp Delta K (Q2R a) (Q2R eps) Ha)).
  rewrite <- (qorder_exponent_r v Delta K a eps Hv).
  apply (fle_rnd _ _ _ _ (fbnd_rnd true _ _ (exp_correct_r _ _ (iq_correct _)) (Rlt_le _ _ (exp_pos _)))
           (fbnd_rnd false _ _ (iq_correct delta) Hd) Hle).
Qed.
