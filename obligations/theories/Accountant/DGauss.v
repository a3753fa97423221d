(** * The discrete Gaussian over Z

    [dgauss v z] = e^(−z²/2v) / N(v) with N(v) = Σ_{y ∈ Z} e^(−y²/2v): the discrete Gaussian of
    Canonne, Kamath and Steinke with parameter v = σ² > 0.  N(v) is the least upper bound of
    the kernel's finite sums over distinct integers ([dg_norm_lub]); they are bounded because
    the kernel, scaled by a = (1 − e^(−1/2v))/(1 + e^(−1/2v)), is at most the discrete Laplace
    mass of rate 1/2v (z² ≥ |z| on Z; [dg_kernel_dom]).  Proved here: the total mass 1 as a
    series ([dgauss_mass]), symmetry, the exact loss ratio [dgauss_shift]
    (Pr[z]/Pr[z + s] = b^(2sz + s²) with b = e^(1/2v)), and the tail bound [dg_norm_le]: N(v) is
    at most the window sum over [−m, m] plus 2·e^(−(m+1)²/2v)/(1 − e^(−(m+1)/2v)). *)
From Coq Require Import List Bool ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Coupling Require Import LubSum Geometric.
From Obligations.Accountant Require Import NoiseDP.
Import ListNotations.
Local Open Scope R_scope.

Definition dg_kernel (v : R) (z : Z) : R := exp (- (IZR z * IZR z) / (2 * v)).

(** a = dlaplace (1/2v) 0: the scale that puts the kernel below the discrete Laplace. *)
Definition dg_scale (v : R) : R := dlaplace (/ (2 * v)) 0.

Definition dg_norm (v : R) : R := tsum1 (fun z => dg_scale v * dg_kernel v z) / dg_scale v.

Definition dgauss (v : R) (z : Z) : R := dg_kernel v z / dg_norm v.

Lemma dg_kernel_pos (v : R) (z : Z) : 0 < dg_kernel v z.
Proof. apply exp_pos. Qed.

Lemma dg_kernel_0 (v : R) : dg_kernel v 0 = 1.
Proof. unfold dg_kernel. replace (- (IZR 0 * IZR 0) / (2 * v)) with 0 by (cbn; unfold Rdiv; ring). apply exp_0. Qed.


Lemma dg_kernel_opp (v : R) (z : Z) : dg_kernel v (- z) = dg_kernel v z.
Proof. unfold dg_kernel. rewrite opp_IZR. do 3 f_equal. ring. Qed.

(** e^(−t)^|z| = e^(−t·|z|). *)
Lemma exp_pow_abs (t : R) (z : Z) : exp (- t) ^ Z.abs_nat z = exp (- (t * IZR (Z.abs z))).
Proof.
  rewrite <- exp_mult_INR, INR_IZR_INZ, Nat2Z.inj_abs_nat. f_equal. ring.
Qed.

(** The kernel at |z| ≥ n + 1 is at most e^(−(n+1)/2v)^|z|. *)
Lemma dg_kernel_geom (v : R) (n : nat) (z : Z) :
  0 < v -> (Z.of_nat n * Z.abs z <= z * z)%Z -> dg_kernel v z <= exp (- (INR n / (2 * v))) ^ Z.abs_nat z.
Proof.
  intros Hv H. rewrite exp_pow_abs. unfold dg_kernel. apply exp_le_iff.
  apply IZR_le in H. rewrite mult_IZR, mult_IZR, <- INR_IZR_INZ in H.
  assert (0 < 2 * v) by lra.
  replace (- (IZR z * IZR z) / (2 * v)) with (- (IZR z * IZR z * / (2 * v))) by (unfold Rdiv; ring).
  replace (- (INR n / (2 * v) * IZR (Z.abs z))) with (- (INR n * IZR (Z.abs z) * / (2 * v))) by (unfold Rdiv; ring).
  apply Ropp_le_contravar, Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|exact H].
Qed.

Section Norm.
Variable v : R.
Hypothesis Hv : 0 < v.

Lemma rate_pos : 0 < / (2 * v).
Proof. apply Rinv_0_lt_compat. lra. Qed.

Lemma dg_scale_pos : 0 < dg_scale v.
Proof. apply dlaplace_pos, rate_pos. Qed.

Lemma dg_kernel_dom (z : Z) : dg_scale v * dg_kernel v z <= dlaplace (/ (2 * v)) z.
Proof.
  unfold dg_scale, dlaplace. cbn [Z.abs_nat pow]. rewrite Rmult_1_r.
  apply Rmult_le_compat_l.
  - pose proof (exp_pos (- / (2 * v))). pose proof (exp_neg_lt_1 _ rate_pos). apply Rlt_le, Rdiv_lt_0_compat; lra.
  - replace (/ (2 * v)) with (INR 1 / (2 * v)) by (cbn [INR]; unfold Rdiv; ring).
    apply dg_kernel_geom; [exact Hv|]. cbn [Z.of_nat]. destruct (Z.abs_spec z) as [[H1 ->]|[H1 ->]]; nia.
Qed.

Lemma dg_scaled_sum_le : sum_le (fun z => dg_scale v * dg_kernel v z) 1.
Proof.
  intros l Hnd. eapply Rle_trans; [apply rsum_le; intros z _; apply dg_kernel_dom|].
  apply (dlaplace_sum_le _ rate_pos l Hnd).
Qed.

(** N(v) is the least upper bound of the kernel's finite sums. *)
Lemma dg_norm_lub : is_lub (fun r => exists l, NoDup l /\ r = rsum (map (dg_kernel v) l)) (dg_norm v).
Proof.
  pose proof dg_scale_pos as Ha. destruct (tsum1_lub _ dg_scaled_sum_le) as [Hub Hlub]. unfold dg_norm. split.
  - intros r [l [Hnd ->]]. apply div_le_iff; [exact Ha|].
    rewrite Rmult_comm, <- rsum_scal. apply Hub. exists l. auto.
  - intros B HB. apply div_le_iff_r; [exact Ha|]. rewrite Rmult_comm. apply Hlub.
    intros r [l [Hnd ->]]. rewrite rsum_scal. apply Rmult_le_compat_l; [lra|]. apply HB. exists l. auto.
Qed.

Lemma dg_norm_ge (l : list Z) : NoDup l -> rsum (map (dg_kernel v) l) <= dg_norm v.
Proof. intros Hnd. apply (proj1 dg_norm_lub). exists l. auto. Qed.

Lemma dg_norm_pos : 1 <= dg_norm v.
Proof.
  pose proof (dg_norm_ge [0%Z] ltac:(repeat constructor; intros [])) as H.
  rewrite rsum_map_cons, rsum_map_nil, dg_kernel_0 in H. lra.
Qed.

Lemma dgauss_pos (z : Z) : 0 < dgauss v z.
Proof. unfold dgauss. apply Rdiv_lt_0_compat; [apply dg_kernel_pos|pose proof dg_norm_pos; lra]. Qed.

Lemma dgauss_nonneg (z : Z) : 0 <= dgauss v z.
Proof. apply Rlt_le, dgauss_pos. Qed.

Lemma fsum_dgauss (l : list Z) : rsum (map (dgauss v) l) = rsum (map (dg_kernel v) l) / dg_norm v.
Proof. unfold dgauss, Rdiv. rewrite Rmult_comm, <- rsum_scal. f_equal. apply map_ext. intros z. ring. Qed.

Lemma dgauss_sum_le : sum_le (dgauss v) 1.
Proof.
  intros l Hnd. pose proof dg_norm_pos. rewrite fsum_dgauss. apply div_le_iff_r; [lra|].
  rewrite Rmult_1_l. apply dg_norm_ge, Hnd.
Qed.

(** The total mass is 1: N(v)·(Σ dgauss) bounds every finite sum of the kernel. *)
Lemma dgauss_mass : tsum1 (dgauss v) = 1.
Proof.
  pose proof dg_norm_pos as Hn. apply Rle_antisym; [apply tsum1_le_1|].
  assert (H : dg_norm v <= dg_norm v * tsum1 (dgauss v)).
  { apply (proj2 dg_norm_lub). intros r [l [Hnd ->]].
    replace (rsum (map (dg_kernel v) l)) with (dg_norm v * rsum (map (dgauss v) l)) by (rewrite fsum_dgauss; field; lra).
    apply Rmult_le_compat_l; [lra|]. apply tsum1_ge; [exact Hnd|apply dgauss_sum_le, Hnd]. }
  assert (H1 : dg_norm v * 1 <= dg_norm v * tsum1 (dgauss v)) by lra.
  apply Rmult_le_reg_l in H1; lra.
Qed.

Lemma dgauss_opp (z : Z) : dgauss v (- z) = dgauss v z.
Proof. unfold dgauss. rewrite dg_kernel_opp. reflexivity. Qed.

(** The loss ratio of a shift s: Pr[z] = b^(2sz + s²)·Pr[z + s], b = e^(1/2v). *)
Lemma dgauss_shift (z s : Z) : dgauss v z = powerRZ (exp (/ (2 * v))) (2 * s * z + s * s) * dgauss v (z + s).
Proof.
  rewrite <- exp_Zmult_ln by apply exp_pos. rewrite ln_exp. unfold dgauss, dg_kernel, Rdiv.
  rewrite <- Rmult_assoc, <- exp_plus. f_equal. f_equal.
  rewrite plus_IZR, !mult_IZR, plus_IZR. field. lra.
Qed.

(** ** The tail bound *)

Lemma rsum_map_filter {A} (f : A -> R) (p : A -> bool) (l : list A) :
  rsum (map f l) = rsum (map f (filter p l)) + rsum (map f (filter (fun a => negb (p a)) l)).
Proof.
  induction l as [|a l IH]; cbn [filter]; [rewrite !rsum_map_nil; ring|].
  destruct (p a); cbn [negb]; rewrite !rsum_map_cons, IH; ring.
Qed.

Lemma dg_norm_le (m : nat) :
  dg_norm v <= rsum (map (dg_kernel v) (win m)) +
               2 * exp (- (INR (S m) * INR (S m)) / (2 * v)) / (1 - exp (- (INR (S m) / (2 * v)))).
Proof.
  set (u := INR (S m) / (2 * v)). set (g := exp (- u)).
  assert (Hu : 0 < u) by (unfold u; apply Rdiv_lt_0_compat; [apply lt_0_INR; lia|lra]).
  assert (Hg : 0 < g) by apply exp_pos. assert (Hg1 : g < 1) by (apply exp_neg_lt_1, Hu).
  apply (proj2 dg_norm_lub). intros r [l [Hnd ->]].
  set (inw := fun z : Z => Nat.leb (Z.abs_nat z) m).
  rewrite (rsum_map_filter _ inw l). apply Rplus_le_compat.
  - apply rsum_map_sub; [intros; apply Rlt_le, dg_kernel_pos|apply NoDup_filter, Hnd|].
    intros z Hz _. apply filter_In in Hz as [_ Hz]. apply in_win, Nat.leb_le, Hz.
  - set (out := filter (fun z => negb (inw z)) l).
    assert (Hout : forall z, In z out -> (m < Z.abs_nat z)%nat).
    { intros z Hz. apply filter_In in Hz as [_ Hz]. unfold inw in Hz. apply negb_true_iff, Nat.leb_gt in Hz. exact Hz. }
    set (C := (1 + g) / (1 - g)).
    assert (HC : 0 < C) by (unfold C; apply Rdiv_lt_0_compat; lra).
    apply Rle_trans with (C * rsum (map (dlaplace u) out)).
    { rewrite <- rsum_scal. apply rsum_le. intros z Hz. unfold dlaplace. fold g.
      replace (C * ((1 - g) / (1 + g) * g ^ Z.abs_nat z)) with (g ^ Z.abs_nat z) by (unfold C; field; lra).
      apply dg_kernel_geom; [exact Hv|]. specialize (Hout z Hz).
      destruct (Z.abs_spec z) as [[H1 E1]|[H1 E1]]; rewrite E1; nia. }
    assert (Hsum : rsum (map (dlaplace u) out) + rsum (map (dlaplace u) (win m)) <= 1).
    { rewrite <- rsum_map_app. apply dlaplace_sum_le; [exact Hu|]. apply nodup_app; [apply NoDup_filter, Hnd|apply win_NoDup|].
      intros z Hz Hw. apply in_win in Hw. specialize (Hout z Hz). lia. }
    rewrite dlaplace_win in Hsum by exact Hu. fold g in Hsum.
    assert (E : exp (- (INR (S m) * INR (S m)) / (2 * v)) = g ^ S m).
    { unfold g. rewrite <- exp_mult_INR. f_equal. unfold u, Rdiv. ring. }
    rewrite E. fold u g.
    apply Rle_trans with (C * (2 * g ^ S m / (1 + g))); [apply Rmult_le_compat_l; lra|].
    right. unfold C. field. lra.
Qed.
End Norm.
