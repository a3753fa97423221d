(** * The discrete Gaussian is ρ-zCDP: Rényi moments at every real order

    For a shift s and a real order a, with P = [dgauss v] and Q = P shifted by s, completing
    the square gives P(z)^a·Q(z)^(1−a) = e^(a(a−1)s²/2v)·e^(−(z − (a−1)s)²/2v)/N(v)
    ([dgauss_moment_real]); the shift (a − 1)s is real, and Accountant/ThetaMax.v bounds kernel
    sums at a real shift by N(v), so over any finite set of distinct integers the moment is at
    most e^(a(a−1)s²/2v) ([dgauss_moment_le_real]).  K runs multiply the moments over a box:
    K runs of the discrete Gaussian of variance v, inputs at distance at most Δ, are ρ-zCDP
    with ρ = K·Δ²/2v ([zcdp_dgauss], the bound of Canonne, Kamath and Steinke), hence
    (ε, e^((a−1)(K·a·Δ²/2v − ε)))-DP for every real a > 1 ([zdp_dgauss_renyi_real], the
    integer-order theorem of DGaussRenyi.v at real orders) and, for ε > Kρ₁ with ρ₁ = Δ²/2v,
    (ε, e^(−(ε − Kρ₁)²/4Kρ₁))-DP ([zdp_dgauss_zcdp_best], the order a = (Kρ₁ + ε)/2Kρ₁). *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums RenyiBound.
From Obligations.Coupling Require Import LubSum Geometric Product.
From Obligations.Accountant Require Import NoiseBox NoiseDP DGauss DGaussRenyi ThetaMax Zcdp.
Import ListNotations.
Local Open Scope R_scope.

Section Real.
Variable v : R.
Hypothesis Hv : 0 < v.

Lemma dgauss_moment_real (s z : Z) (a : R) :
  Rpower (dgauss v z) a * Rpower (dgauss v (z + s)) (1 - a) =
  exp (a * (a - 1) * (IZR s * IZR s) / (2 * v)) * (/ dg_norm v * dg_rkernel v (IZR z - (a - 1) * IZR s)).
Proof.
  pose proof (dg_norm_pos v Hv) as HN.
  assert (HI : / dg_norm v = exp (- ln (dg_norm v))) by (rewrite exp_Ropp, exp_ln by lra; reflexivity).
  unfold Rpower, dgauss, dg_kernel, dg_rkernel, Rdiv. rewrite HI, <- !exp_plus, !ln_exp. f_equal.
  rewrite plus_IZR. field. lra.
Qed.

Lemma dgauss_moment_le_real (s : Z) (a : R) (l : list Z) : NoDup l ->
  rsum (map (fun z => Rpower (dgauss v z) a * Rpower (dgauss v (z + s)) (1 - a)) l) <=
  exp (a * (a - 1) * (IZR s * IZR s) / (2 * v)).
Proof.
  intros Hnd. pose proof (dg_norm_pos v Hv) as HN. set (c := exp (a * (a - 1) * (IZR s * IZR s) / (2 * v))).
  rewrite (map_ext _ (fun z => c * (/ dg_norm v * dg_rkernel v (IZR z - (a - 1) * IZR s))))
    by (intros z; apply dgauss_moment_real).
  rewrite rsum_scal, rsum_scal. rewrite <- (Rmult_1_r c) at 2.
  apply Rmult_le_compat_l; [left; apply exp_pos|].
  apply (Rmult_le_reg_l (dg_norm v)); [lra|]. rewrite <- Rmult_assoc, Rinv_r, Rmult_1_l, Rmult_1_r by lra.
  apply (dg_shift_sum_le v Hv), Hnd.
Qed.

(** K runs at x and x' over every finite set of vectors of length K. *)
Theorem zcdp_dgauss (Delta : Z) (K : nat) : zcdp (dgauss v) Delta K (INR K * (IZR Delta * IZR Delta / (2 * v))).
Proof.
  intros x x' HD a Ha l Hnd Hlen.
  set (P := fun y => dgauss v (y - x)). set (Q := fun y => dgauss v (y - x')).
  assert (HP : forall y, 0 < P y) by (intros; apply (dgauss_pos v Hv)).
  assert (HQ : forall y, 0 < Q y) by (intros; apply (dgauss_pos v Hv)).
  set (f := fun y => Rpower (P y) a * Rpower (Q y) (1 - a)).
  set (c := exp (a * (a - 1) * (IZR (x - x') * IZR (x - x')) / (2 * v))).
  set (m := vmax l).
  assert (Hwin : rsum (map f (win m)) <= c).
  { set (g := fun z => Rpower (dgauss v z) a * Rpower (dgauss v (z + (x - x'))) (1 - a)).
    replace (rsum (map f (win m))) with (rsum (map (fun y => g (y - x)%Z) (win m))).
    - rewrite <- (rsum_map_map g (fun y => (y - x)%Z)). unfold c, g. apply dgauss_moment_le_real.
      apply nodup_map_on; [intros y z _ _ E; lia|apply win_NoDup].
    - f_equal. apply map_ext. intros y. unfold f, g, P, Q. do 3 f_equal. ring. }
  assert (Hf0 : 0 <= rsum (map f (win m))) by (apply rsum_map_nonneg; intros; unfold f; apply Rmult_le_pos; apply rpower_nonneg).
  unfold zmoment. fold P Q.
  rewrite (map_ext _ (vp f)) by (intros w; apply vp_rpower; assumption).
  eapply Rle_trans.
  { apply (rsum_map_sub _ l (box K m)); [intros w; apply vp_nonneg; intros; unfold f; apply Rmult_le_pos; apply rpower_nonneg|exact Hnd|].
    intros w Hw _. apply in_box; [apply Hlen, Hw|]. intros z Hz. apply (vmax_spec l w z Hw Hz). }
  rewrite fsum_vp_box.
  eapply Rle_trans; [apply pow_incr; split; [exact Hf0|exact Hwin]|].
  unfold c. rewrite exp_pow_nat. apply exp_le_iff.
  assert (Hs : IZR (x - x') * IZR (x - x') <= IZR Delta * IZR Delta).
  { rewrite <- !mult_IZR. apply IZR_le. nia. }
  pose proof (pos_INR K) as HK.
  assert (Haa : 0 <= a * (a - 1)) by (apply Rmult_le_pos; lra).
  assert (Hv2 : 0 < / (2 * v)) by (apply Rinv_0_lt_compat; lra).
  unfold Rdiv. replace ((a - 1) * (a * (INR K * (IZR Delta * IZR Delta * / (2 * v)))))
    with (INR K * (a * (a - 1) * (IZR Delta * IZR Delta) * / (2 * v))) by ring.
  apply Rmult_le_compat_l; [exact HK|]. apply Rmult_le_compat_r; [lra|].
  apply Rmult_le_compat_l; [exact Haa|exact Hs].
Qed.

(** (ε, δ)-DP of K runs with δ = e^((a−1)(K·a·Δ²/2v − ε)), every real order a > 1. *)
Theorem zdp_dgauss_renyi_real (Delta : Z) (K : nat) (a eps : R) : 1 < a ->
  zdp (dgauss v) Delta K eps (exp ((a - 1) * (INR K * a * (IZR Delta * IZR Delta) / (2 * v) - eps))).
Proof.
  intros Ha. replace (INR K * a * (IZR Delta * IZR Delta) / (2 * v))
    with (a * (INR K * (IZR Delta * IZR Delta / (2 * v)))) by (field; lra).
  apply zdp_of_zcdp; [intros; apply (dgauss_pos v Hv)|apply (dgauss_sum_le v Hv)|exact Ha|apply zcdp_dgauss].
Qed.

(** At the best order: for ρ = K·Δ²/2v > 0 and ε > ρ, δ = e^(−(ε − ρ)²/4ρ). *)
Theorem zdp_dgauss_zcdp_best (Delta : Z) (K : nat) (eps : R) :
  0 < INR K * (IZR Delta * IZR Delta / (2 * v)) < eps ->
  zdp (dgauss v) Delta K eps (exp (- ((eps - INR K * (IZR Delta * IZR Delta / (2 * v))) *
                                     (eps - INR K * (IZR Delta * IZR Delta / (2 * v)))) /
                                   (4 * (INR K * (IZR Delta * IZR Delta / (2 * v)))))).
Proof.
  intros Hr. apply zdp_of_zcdp_best; [intros; apply (dgauss_pos v Hv)|apply (dgauss_sum_le v Hv)|exact Hr|apply zcdp_dgauss].
Qed.
End Real.
