(** * Kernel sums of the discrete Gaussian at a real shift are at most N(v)

    For every real t and every finite set of distinct integers,
    Σ_z e^(−(z − t)²/2v) ≤ N(v) = Σ_{z ∈ Z} e^(−z²/2v) ([dg_shift_sum_le]): the periodised
    Gaussian θ(t) = Σ_z e^(−(z − t)²/2v) is largest at t = 0.  No Fourier analysis and no
    integral: the Gaussian kernel k(x − y) = e^(−(x − y)²/2v) is a positive semidefinite kernel,
    because k(x − y) = c(x)·c(y)·e^(xy/v) with c(x) = e^(−x²/2v) and the exponential series
    e^(xy/v) = Σ_k (x^k)(y^k)/(k!·v^k) is a sum of products of a function of x by the same
    function of y.  So for finite lists of points P and Q, with G(P, Q) = Σ_{p ∈ P, q ∈ Q} k(p − q),
    each partial sum of the series gives 2·G_N(P, Q) ≤ G_N(P, P) + G_N(Q, Q) (termwise
    2ab ≤ a² + b²), and in the limit 2·G(P, Q) ≤ G(P, P) + G(Q, Q) ([kernel_gram_amgm]).  Take
    P = {m − t} and Q = {m} for m in the window [−M, M]: G(P, P) = G(Q, Q) = Σ_{m, m'} k(m − m')
    ≤ (2M + 1)·N(v), while G(P, Q) ≥ (2n + 1)·Σ_{z ∈ l} k(z − t) once M ≥ n + max |z|: for
    M → ∞ the sum over l is at most N(v). *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import Sums.
From Obligations.Coupling Require Import LubSum Geometric.
From Obligations.Accountant Require Import DGauss.
Import ListNotations.
Local Open Scope R_scope.

(** The kernel at a real point: [dg_kernel v z = dg_rkernel v (IZR z)]. *)
Definition dg_rkernel (v x : R) : R := exp (- (x * x) / (2 * v)).

Lemma dg_rkernel_nonneg (v x : R) : 0 <= dg_rkernel v x.
Proof. left. apply exp_pos. Qed.

(** ** Limits of finite sums of sequences *)

Lemma cv_const (c : R) : Un_cv (fun _ => c) c.
Proof. intros eps He. exists O. intros n _. unfold R_dist. replace (c - c) with 0 by ring. rewrite Rabs_R0. lra. Qed.

Lemma cv_ext (u w : nat -> R) (l l' : R) : (forall n, u n = w n) -> l = l' -> Un_cv u l -> Un_cv w l'.
Proof.
  intros Huw <- Hu eps He. destruct (Hu eps He) as [N HN]. exists N. intros n Hn. rewrite <- Huw. apply HN, Hn.
Qed.

Lemma cv_rsum {A} (f : A -> nat -> R) (g : A -> R) (l : list A) :
  (forall a, Un_cv (f a) (g a)) -> Un_cv (fun n => rsum (map (fun a => f a n) l)) (rsum (map g l)).
Proof.
  intros Hf. induction l as [|a l IH]; [exact (cv_const 0)|]. exact (CV_plus _ _ _ _ (Hf a) IH).
Qed.

Lemma rsum_sum_f {A} (g : A -> nat -> R) (l : list A) (N : nat) :
  rsum (map (fun a => sum_f_R0 (g a) N) l) = sum_f_R0 (fun k => rsum (map (fun a => g a k) l)) N.
Proof.
  induction l as [|a l IH].
  - rewrite rsum_map_nil. transitivity (sum_f_R0 (fun _ => 0) N); [rewrite sum_cte; ring|].
    apply sum_eq. reflexivity.
  - rewrite rsum_map_cons, IH, <- sum_plus. apply sum_eq. intros k _. rewrite rsum_map_cons. reflexivity.
Qed.

Lemma exp_partial_cv (y : R) : Un_cv (sum_f_R0 (fun k => / INR (fact k) * y ^ k)) (exp y).
Proof. unfold exp. destruct (exist_exp y) as [l Hl]. exact Hl. Qed.

Section Kernel.
Variable v : R.
Hypothesis Hv : 0 < v.

(** ** The kernel is positive semidefinite *)

Let c (x : R) : R := exp (- (x * x) / (2 * v)).
Let w (k : nat) : R := / INR (fact k) * (/ v) ^ k.
Let tn (N : nat) (p q : R) : R := sum_f_R0 (fun k => w k * ((c p * p ^ k) * (c q * q ^ k))) N.

Lemma series_weight_nonneg (k : nat) : 0 <= w k.
Proof.
  apply Rmult_le_pos; [left; apply Rinv_0_lt_compat, INR_fact_lt_0|].
  apply pow_le. left. apply Rinv_0_lt_compat, Hv.
Qed.

Lemma kernel_series_cv (p q : R) : Un_cv (fun N => tn N p q) (dg_rkernel v (p - q)).
Proof.
  apply (cv_ext (fun N => c p * c q * sum_f_R0 (fun k => / INR (fact k) * (p * q / v) ^ k) N) _
    (c p * c q * exp (p * q / v))).
  - intros N. unfold tn. rewrite scal_sum. apply sum_eq. intros k _. unfold w, Rdiv.
    rewrite !Rpow_mult_distr. ring.
  - unfold c, dg_rkernel. rewrite <- !exp_plus. f_equal. field. lra.
  - apply CV_mult; [apply cv_const|apply exp_partial_cv].
Qed.

(** G(P, Q) = Σ_{p ∈ P} Σ_{q ∈ Q} k(p − q). *)
Definition kernel_gram (P Q : list R) : R :=
  rsum (map (fun p => rsum (map (fun q => dg_rkernel v (p - q)) Q)) P).

Let feat (P : list R) (k : nat) : R := rsum (map (fun p => c p * p ^ k) P).

Lemma kernel_series_sum (N : nat) (P Q : list R) :
  rsum (map (fun p => rsum (map (fun q => tn N p q) Q)) P) =
  sum_f_R0 (fun k => w k * (feat P k * feat Q k)) N.
Proof.
  unfold tn. rewrite (rsum_ext_in _ (fun p => sum_f_R0 (fun k => rsum (map (fun q =>
    w k * (c p * p ^ k * (c q * q ^ k))) Q)) N)) by (intros p _; apply rsum_sum_f).
  rewrite rsum_sum_f. apply sum_eq. intros k _.
  rewrite (rsum_ext_in _ (fun p => (w k * feat Q k) * (c p * p ^ k))).
  - rewrite rsum_scal. unfold feat. ring.
  - intros p _. unfold feat.
    transitivity (rsum (map (fun q => (w k * (c p * p ^ k)) * (c q * q ^ k)) Q)); [apply rsum_ext_in; intros; ring|].
    rewrite rsum_scal. ring.
Qed.

(** 2·G(P, Q) ≤ G(P, P) + G(Q, Q). *)
Lemma kernel_gram_amgm (P Q : list R) : 2 * kernel_gram P Q <= kernel_gram P P + kernel_gram Q Q.
Proof.
  set (T := fun N P Q => rsum (map (fun p => rsum (map (fun q => tn N p q) Q)) P)).
  assert (HT : forall P Q, Un_cv (fun N => T N P Q) (kernel_gram P Q)).
  { intros P' Q'. unfold T, kernel_gram. apply cv_rsum. intros p. apply cv_rsum. intros q. apply kernel_series_cv. }
  apply Rle_cv_lim with (Un := fun N => 2 * T N P Q) (Vn := fun N => T N P P + T N Q Q).
  - intros N. unfold T. rewrite !kernel_series_sum, <- sum_plus, scal_sum. apply sum_Rle. intros k _.
    pose proof (series_weight_nonneg k) as Hw. set (a := feat P k). set (b := feat Q k).
    assert (H : 0 <= w k * ((a - b) * (a - b))) by (apply Rmult_le_pos; [exact Hw|apply Rle_0_sqr]).
    replace (w k * (a * a) + w k * (b * b)) with (w k * (a * b) * 2 + w k * ((a - b) * (a - b))) by ring.
    lra.
  - apply CV_mult; [apply cv_const|apply HT].
  - apply CV_plus; apply HT.
Qed.

(** ** Windows of points *)

(** W(t, M) = Σ_{m, m' ∈ [−M, M]} k(m − t − m'). *)
Definition win_gram (t : R) (M : nat) : R :=
  rsum (map (fun m => rsum (map (fun m' => dg_rkernel v (IZR m - t - IZR m')) (win M))) (win M)).

Lemma kernel_gram_win (t u : R) (M : nat) :
  kernel_gram (map (fun m => IZR m - t) (win M)) (map (fun m => IZR m - u) (win M)) = win_gram (t - u) M.
Proof.
  unfold kernel_gram, win_gram. rewrite map_map. apply rsum_ext_in. intros m _. rewrite map_map.
  apply rsum_ext_in. intros m' _. f_equal. ring.
Qed.

Lemma win_gram_le_0 (t : R) (M : nat) : win_gram t M <= win_gram 0 M.
Proof.
  pose proof (kernel_gram_amgm (map (fun m => IZR m - t) (win M)) (map (fun m => IZR m - 0) (win M))) as H.
  rewrite !kernel_gram_win in H. replace (t - 0) with t in H by ring.
  replace (t - t) with 0 in H by ring. replace (0 - 0) with 0 in H by ring. lra.
Qed.

Lemma rsum_map_const {A} (x : R) (l : list A) : rsum (map (fun _ => x) l) = x * INR (length l).
Proof.
  induction l as [|a l IH]; [rewrite rsum_map_nil; cbn [length INR]; ring|].
  rewrite rsum_map_cons, IH. cbn [length]. rewrite S_INR. ring.
Qed.

Lemma win_length (n : nat) : INR (length (win n)) = 2 * INR n + 1.
Proof. induction n as [|n IH]; cbn [win length]; [cbn [INR]; ring|]. rewrite !S_INR, IH. ring. Qed.

Lemma win_gram_0_le (M : nat) : win_gram 0 M <= (2 * INR M + 1) * dg_norm v.
Proof.
  rewrite <- win_length, Rmult_comm, <- rsum_map_const. apply rsum_le. intros m _.
  rewrite (rsum_ext_in _ (fun m' => dg_kernel v (m - m')%Z))
    by (intros m' _; unfold dg_rkernel, dg_kernel; rewrite minus_IZR; do 4 f_equal; ring).
  rewrite <- (rsum_map_map (dg_kernel v) (fun m' => (m - m')%Z)).
  apply (dg_norm_ge v Hv). apply nodup_map_on; [intros x y _ _ E; lia|apply win_NoDup].
Qed.

Lemma list_bound (l : list Z) : exists D, forall z, In z l -> (Z.abs_nat z <= D)%nat.
Proof.
  induction l as [|a l [D HD]]; [exists O; intros z []|].
  exists (Nat.max (Z.abs_nat a) D). intros z [<-|Hz]; [lia|]. specialize (HD z Hz). lia.
Qed.

(** ** The bound *)

Lemma win_gram_ge (t : R) (l : list Z) (n D : nat) : NoDup l -> (forall z, In z l -> (Z.abs_nat z <= D)%nat) ->
  (2 * INR n + 1) * rsum (map (fun z => dg_rkernel v (IZR z - t)) l) <= win_gram t (n + D).
Proof.
  intros Hnd HD. set (inner := fun m => rsum (map (fun m' => dg_rkernel v (IZR m - t - IZR m')) (win (n + D)))).
  assert (Hin : forall m, 0 <= inner m) by (intros m; apply rsum_map_nonneg; intros; apply dg_rkernel_nonneg).
  apply Rle_trans with (rsum (map inner (win n))).
  - rewrite <- win_length, Rmult_comm, <- rsum_map_const. apply rsum_le. intros m Hm. apply in_win in Hm.
    unfold inner. rewrite (rsum_ext_in _ (fun z => dg_rkernel v (IZR m - t - IZR ((fun z => m - z)%Z z))))
      by (intros z _; f_equal; rewrite minus_IZR; ring).
    rewrite <- (rsum_map_map (fun m' => dg_rkernel v (IZR m - t - IZR m')) (fun z => (m - z)%Z)).
    apply rsum_map_sub; [intros; apply dg_rkernel_nonneg| |].
    + apply nodup_map_on; [intros x y _ _ E; lia|exact Hnd].
    + intros m' Hm' _. apply in_map_iff in Hm' as [z [<- Hz]]. apply in_win. specialize (HD z Hz). lia.
  - apply rsum_map_sub; [exact Hin|apply win_NoDup|]. intros m Hm _. apply in_win. apply in_win in Hm. lia.
Qed.

(** Kernel sums at a real shift are at most N(v): θ(t) ≤ θ(0). *)
Theorem dg_shift_sum_le (t : R) (l : list Z) : NoDup l ->
  rsum (map (fun z => dg_rkernel v (IZR z - t)) l) <= dg_norm v.
Proof.
  intros Hnd. destruct (list_bound l) as [D HD]. set (S := rsum (map (fun z => dg_rkernel v (IZR z - t)) l)).
  set (Nv := dg_norm v). pose proof (dg_norm_pos v Hv) as HN. fold Nv in HN.
  assert (Hn : forall n, (2 * INR n + 1) * S <= (2 * INR (n + D) + 1) * Nv).
  { intros n. eapply Rle_trans; [apply win_gram_ge; [exact Hnd|exact HD]|].
    eapply Rle_trans; [apply win_gram_le_0|apply win_gram_0_le]. }
  destruct (Rle_lt_dec S Nv) as [H|H]; [exact H|exfalso].
  destruct (archimed_cor1 ((S - Nv) / (2 * INR D * Nv + 1))) as [n [Hn1 Hn0]].
  { apply Rdiv_lt_0_compat; [lra|]. pose proof (pos_INR D). nra. }
  specialize (Hn n). rewrite plus_INR in Hn. apply lt_INR in Hn0. cbn [INR] in Hn0.
  pose proof (pos_INR D) as HD0.
  assert (H1 : 2 * INR D * Nv + 1 < INR n * (S - Nv)).
  { apply (Rmult_lt_compat_l (INR n)) in Hn1; [|lra]. rewrite Rinv_r in Hn1 by lra.
    apply (Rmult_lt_compat_r (2 * INR D * Nv + 1)) in Hn1; [|nra].
    unfold Rdiv in Hn1. rewrite Rmult_1_l in Hn1.
    replace (INR n * ((S - Nv) * / (2 * INR D * Nv + 1)) * (2 * INR D * Nv + 1)) with (INR n * (S - Nv)) in Hn1
      by (field; nra). exact Hn1. }
  nra.
Qed.
End Kernel.
