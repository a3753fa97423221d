(** * The discrete Gaussian's Rényi moments at integer orders, and (ε, δ) from them

    For a shift s and an integer order a ≥ 1, with P = [dgauss v] and Q = P shifted by s:
    P(z)^a·Q(z)^(1−a) = e^(a(a−1)s²/2v)·P(z + (1−a)s) ([dgauss_moment]: complete the square),
    so over any finite set of distinct integers the moment Σ P^a·Q^(1−a) is at most
    e^(a(a−1)s²/2v) ([dgauss_moment_le]): Rényi divergence at most a·ρ with ρ = s²/2v = Δ²/2σ²
    for |s| ≤ Δ, at every integer order.  With Core/RenyiBound.v this gives, over every
    finite set of outputs, Σ max(0, P − e^ε·Q) ≤ e^((a−1)(aρ − ε)) ([dgauss_hs_renyi]): the
    conversion of zero-concentrated DP to (ε, δ)-DP, at integer orders.  For K runs the moments
    multiply over every box [−m, m]^K ([dgauss_hsbox_renyi]), so K runs of the noise, inputs at
    distance at most Δ, are (ε, e^((a−1)(K·a·Δ²/2v − ε)))-DP for every event ([zdp_dgauss_renyi]).
    Real orders, and ρ-zCDP in full, are in DGaussZcdp.v (the kernel's sums at a real shift:
    ThetaMax.v). *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums RenyiBound.
From Obligations.Coupling Require Import LubSum Geometric Product.
From Obligations.Accountant Require Import NoiseBox NoiseDP DGauss.
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

(** ** K runs: the moments multiply over a box *)

Lemma rpower_1_l (y : R) : Rpower 1 y = 1.
Proof. unfold Rpower. rewrite ln_1, Rmult_0_r. apply exp_0. Qed.

Lemma exp_pow_nat (y : R) (n : nat) : exp y ^ n = exp (INR n * y).
Proof.
  induction n as [|n IH]; cbn [pow]; [rewrite Rmult_0_l, exp_0; reflexivity|].
  rewrite IH, <- exp_plus, S_INR. f_equal. ring.
Qed.

Lemma vp_pos (p : Z -> R) (w : list Z) : (forall y, 0 < p y) -> 0 < vp p w.
Proof. intros Hp. induction w as [|y w IH]; cbn [vp]; [lra|]. apply Rmult_lt_0_compat; [apply Hp|exact IH]. Qed.

Lemma vp_rpower (p q : Z -> R) (a c : R) (w : list Z) : (forall y, 0 < p y) -> (forall y, 0 < q y) ->
  Rpower (vp p w) a * Rpower (vp q w) c = vp (fun y => Rpower (p y) a * Rpower (q y) c) w.
Proof.
  intros Hp Hq. induction w as [|y w IH]; cbn [vp]; [rewrite !rpower_1_l; ring|].
  rewrite <- !Rpower_mult_distr by (apply Hp || apply Hq || apply vp_pos; assumption).
  rewrite <- IH. ring.
Qed.

(** The box sum of K runs against K runs shifted by s = x − x'. *)
Lemma dgauss_hsbox_renyi (x x' : Z) (K m a : nat) (eps : R) : (2 <= a)%nat ->
  hsbox (fun y => dgauss v (y - x)) (fun y => dgauss v (y - x')) K m (exp eps) <=
  exp ((INR a - 1) * (INR K * INR a * (IZR (x - x') * IZR (x - x')) / (2 * v) - eps)).
Proof.
  intros Ha. assert (Ha' : 1 < INR a) by (apply (lt_INR 1); lia).
  set (P := fun y => dgauss v (y - x)). set (Q := fun y => dgauss v (y - x')).
  assert (HP : forall y, 0 < P y) by (intros; apply (dgauss_pos v Hv)).
  assert (HQ : forall y, 0 < Q y) by (intros; apply (dgauss_pos v Hv)).
  set (c := exp (INR a * (INR a - 1) * (IZR (x - x') * IZR (x - x')) / (2 * v))).
  set (f := fun y => Rpower (P y) (INR a) * Rpower (Q y) (1 - INR a)).
  assert (Hwin : rsum (map f (win m)) <= c).
  { set (g := fun z => Rpower (dgauss v z) (INR a) * Rpower (dgauss v (z + (x - x'))) (1 - INR a)).
    replace (rsum (map f (win m))) with (rsum (map (fun y => g (y - x)%Z) (win m))).
    - rewrite <- (rsum_map_map g (fun y => (y - x)%Z)). unfold c, g. apply dgauss_moment_le.
      apply nodup_map_on; [intros y z _ _ E; lia|apply win_NoDup].
    - f_equal. apply map_ext. intros y. unfold f, g, P, Q. do 3 f_equal. ring. }
  unfold hsbox. eapply Rle_trans.
  { apply (hs_le_renyi (box K m) (vp P) (vp Q) (exp eps) (INR a));
      [intros; left; apply vp_pos, HP|intros; apply vp_pos, HQ|apply exp_pos|exact Ha']. }
  rewrite (map_ext _ (vp f)) by (intros w; apply vp_rpower; assumption).
  rewrite fsum_vp_box.
  assert (Hf0 : 0 <= rsum (map f (win m))) by (apply rsum_map_nonneg; intros; unfold f; apply Rmult_le_pos; apply rpower_nonneg).
  eapply Rle_trans; [apply Rmult_le_compat_l; [left; apply exp_pos|apply pow_incr; split; [exact Hf0|exact Hwin]]|].
  unfold c, Rpower. rewrite ln_exp, exp_pow_nat, <- exp_plus. apply Req_le. f_equal. field. lra.
Qed.

(** (ε, δ)-DP of K runs with δ = e^((a−1)(K·a·Δ²/2v − ε)), every integer order a ≥ 2: the
    zCDP → (ε, δ) conversion for ρ = Δ²/2σ² per run, at integer orders. *)
Theorem zdp_dgauss_renyi (Delta : Z) (K a : nat) (eps : R) : (2 <= a)%nat ->
  zdp (dgauss v) Delta K eps (exp ((INR a - 1) * (INR K * INR a * (IZR Delta * IZR Delta) / (2 * v) - eps))).
Proof.
  intros Ha x x' HD S. assert (Ha' : 1 < INR a) by (apply (lt_INR 1); lia).
  apply (zdp_pair_of_box (dgauss v) K (dgauss_nonneg v Hv) (dgauss_sum_le v Hv) x x' eps _ 0).
  intros m _. eapply Rle_trans; [apply dgauss_hsbox_renyi, Ha|].
  apply exp_le_iff. apply Rmult_le_compat_l; [lra|]. apply Rplus_le_compat_r.
  unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
  apply Rmult_le_compat_l; [apply Rmult_le_pos; apply pos_INR|].
  rewrite <- !mult_IZR. apply IZR_le. nia.
Qed.
End Renyi.
