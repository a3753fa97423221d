(** * The discrete Gaussian's Rényi moments at integer orders, and (ε, δ) from them

    For a shift s and an integer order a ≥ 1, with P = [dgauss v] and Q = P shifted by s:
    P(z)^a·Q(z)^(1−a) = e^(a(a−1)s²/2v)·P(z + (1−a)s) ([dgauss_moment]: complete the square),
    so over any finite set of distinct integers the moment Σ P^a·Q^(1−a) is at most
    e^(a(a−1)s²/2v) ([dgauss_moment_le]): Rényi divergence at most a·ρ with ρ = s²/2v = Δ²/2σ²
    for |s| ≤ Δ, at every integer order.  With Core/RenyiBound.v this gives, over every
    finite set of outputs, Σ max(0, P − e^ε·Q) ≤ e^((a−1)(aρ − ε)) ([dgauss_hs_renyi]): the
    conversion of zero-concentrated DP to (ε, δ)-DP, at integer orders.  Not proved here: the
    bound at real orders (it needs Canonne–Kamath–Steinke's bound on sums of the kernel at a
    real shift), hence not ρ-zCDP in its full form. *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums RenyiBound.
From Obligations.Coupling Require Import LubSum.
From Obligations.Accountant Require Import DGauss.
Import ListNotations.
Local Open Scope R_scope.

Section Renyi.
Variable v : R.
Hypothesis Hv : 0 < v.

Lemma dgauss_moment (s z : Z) (a : nat) :
  Rpower (dgauss v z) (INR a) * Rpower (dgauss v (z + s)) (1 - INR a) =
  exp (INR a * (INR a - 1) * (IZR s * IZR s) / (2 * v)) * dgauss v (z + (1 - Z.of_nat a) * s).
Proof.
  pose proof (dg_norm_pos v Hv) as HN.
  assert (HI : / dg_norm v = exp (- ln (dg_norm v))) by (rewrite exp_Ropp, exp_ln by lra; reflexivity).
  unfold Rpower, dgauss, dg_kernel, Rdiv. rewrite HI, <- !exp_plus, !ln_exp. f_equal.
  rewrite !plus_IZR, !mult_IZR, minus_IZR, <- INR_IZR_INZ. field. lra.
Qed.

Lemma dgauss_moment_le (s : Z) (a : nat) (l : list Z) : NoDup l ->
  rsum (map (fun z => Rpower (dgauss v z) (INR a) * Rpower (dgauss v (z + s)) (1 - INR a)) l) <=
  exp (INR a * (INR a - 1) * (IZR s * IZR s) / (2 * v)).
Proof.
  intros Hnd. set (c := exp (INR a * (INR a - 1) * (IZR s * IZR s) / (2 * v))).
  rewrite (map_ext _ (fun z => c * dgauss v (z + (1 - Z.of_nat a) * s)%Z)) by (intros z; apply dgauss_moment).
  rewrite rsum_scal. rewrite <- Rmult_1_r. apply Rmult_le_compat_l; [left; apply exp_pos|].
  rewrite <- (rsum_map_map (dgauss v) (fun z => (z + (1 - Z.of_nat a) * s)%Z)).
  apply (dgauss_sum_le v Hv). apply nodup_map_on; [intros x y _ _ E; lia|exact Hnd].
Qed.

(** (ε, δ) over every finite set of outputs from the moment of order a ≥ 2. *)
Theorem dgauss_hs_renyi (s : Z) (a : nat) (eps : R) (l : list Z) : (2 <= a)%nat -> NoDup l ->
  rsum (map (fun z => Rmax 0 (dgauss v z - exp eps * dgauss v (z + s))) l) <=
  exp ((INR a - 1) * (INR a * (IZR s * IZR s) / (2 * v) - eps)).
Proof.
  intros Ha Hnd. assert (Ha' : 1 < INR a) by (apply (lt_INR 1); lia).
  eapply Rle_trans.
  - apply (hs_le_renyi l (dgauss v) (fun z => dgauss v (z + s)%Z) (exp eps) (INR a));
      [intros; apply (dgauss_nonneg v Hv)|intros; apply (dgauss_pos v Hv)|apply exp_pos|exact Ha'].
  - eapply Rle_trans; [apply Rmult_le_compat_l; [left; apply exp_pos|apply dgauss_moment_le, Hnd]|].
    unfold Rpower. rewrite ln_exp, <- exp_plus. apply Req_le. f_equal. field. lra.
Qed.
End Renyi.
