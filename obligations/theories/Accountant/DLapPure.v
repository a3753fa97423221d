(** * Pure DP of the discrete Laplace run K times, from both sides

    K runs of the discrete Laplace [dlap α] (Pr[z] ∝ α^|z|) on inputs at distance at most
    Δ: each output's density ratio is at most α^(−Δ) per run ([zdens_dlap_shift_le]), so the
    mechanism is (ε, 0)-DP whenever (1/α)^(K·Δ) ≤ e^ε ([zdp_dlap_pure]).  The ratio is
    attained by the output vector of all zeros on inputs 0 and Δ, so (1/α)^(K·Δ) > e^ε refutes
    (ε, 0)-DP with that singleton event ([not_zdp_dlap_pure]).  The comparison with e^ε
    (ε rational) is a rational check from e^ε's Taylor bounds (Core/ExpTaylor.v):
    [dlap_pure_dec] proves, [dlap_impure_dec] refutes. *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums ExpTaylor.
From Obligations.Coupling Require Import LubSum Geometric.
From Obligations.Accountant Require Import NoiseBox NoiseDP DLaplace.
Import ListNotations.

Local Open Scope R_scope.

Lemma vp_repeat (g : Z -> R) (z : Z) (K : nat) : vp g (repeat z K) = g z ^ K.
Proof. induction K as [|K IH]; cbn [repeat vp pow]; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma pow_le_one_of (a : R) (k : nat) : 0 <= a <= 1 -> a ^ k <= 1.
Proof. intros Ha. rewrite <- (pow1 k). apply pow_incr. exact Ha. Qed.

(** A point mass at [v] sums to its value. *)
Lemma tsum1_point (f : list Z -> R) (v : list Z) :
  (forall a, 0 <= f a) -> f v <= 1 -> (forall a, a <> v -> f a = 0) -> tsum1 f = f v.
Proof.
  intros Hf H1 H0. apply Rle_antisym.
  - apply tsum1_le. intros l Hnd. eapply Rle_trans; [apply (rsum_map_sub f l [v] Hf Hnd)|].
    + intros a _ Ha. left. destruct (list_eq_dec Z.eq_dec v a) as [E|E]; [exact E|]. exfalso. apply Ha, H0. congruence.
    + cbn [map]. rewrite rsum_cons. cbn [rsum fold_right]. lra.
  - replace (f v) with (rsum (map f [v])) by (cbn [map]; rewrite rsum_cons; cbn [rsum fold_right]; ring).
    apply tsum1_ge; [constructor; [intros []|constructor]|]. cbn [map]. rewrite rsum_cons. cbn [rsum fold_right]. lra.
Qed.

(** The event holding the one output vector [w]: K runs of any noise give it probability
    p(z − x)^K when [w] is K copies of z. *)
Definition point_set (w v : list Z) : bool :=
  if list_eq_dec Z.eq_dec v w then true else false.

Lemma zpr_point (p : Z -> R) (K : nat) (x z : Z) :
  (forall y, 0 <= p y) -> sum_le p 1 -> zpr p x K (point_set (repeat z K)) = p (z - x)%Z ^ K.
Proof.
  intros Hp Hs. unfold zpr. rewrite (tsum1_point _ (repeat z K)).
  - unfold point_set. destruct (list_eq_dec _ _ _) as [_|E]; [|congruence].
    unfold zdens. rewrite repeat_length, Nat.eqb_refl, vp_repeat. reflexivity.
  - intros v. unfold point_set. destruct (list_eq_dec _ _ _); [apply zdens_nonneg, Hp|lra].
  - unfold point_set. destruct (list_eq_dec _ _ _) as [_|E]; [|congruence].
    pose proof (zdens_sum_le p K Hp Hs x [repeat z K] ltac:(constructor; [intros []|constructor])) as H.
    cbn [map] in H. rewrite rsum_cons in H. cbn [rsum fold_right] in H. lra.
  - intros v Hv. unfold point_set. destruct (list_eq_dec _ _ _); [contradiction|reflexivity].
Qed.

Section Alpha.
Variable alpha : Q.
Hypothesis Ha : (0 < alpha)%Q.
Hypothesis Ha1 : (alpha < 1)%Q.

Local Notation a := (Q2R alpha).
Local Notation c := ((1 - Q2R alpha) / (1 + Q2R alpha)).

Lemma dlap_pow (z : Z) : dlap alpha z = c * a ^ Z.abs_nat z.
Proof.
  destruct (alpha_r alpha Ha Ha1) as [H0 _]. unfold dlap, dlaplace.
  rewrite Ropp_involutive, exp_ln by exact H0. reflexivity.
Qed.

Lemma dlap_c_pos : 0 < c.
Proof. destruct (alpha_r alpha Ha Ha1). apply Rdiv_lt_0_compat; lra. Qed.

(** One run: the density at distance [n'] is at most α^(−Δ) times that at distance [n]
    when the two distances differ by at most Δ. *)
Lemma dlap_shift_le (D : nat) (x x' y : Z) :
  (Z.abs (x - x') <= Z.of_nat D)%Z -> dlap alpha (y - x) <= (/ a) ^ D * dlap alpha (y - x').
Proof.
  intros HD. destruct (alpha_r alpha Ha Ha1) as [H0 H1].
  rewrite !dlap_pow. set (n := Z.abs_nat (y - x)). set (n' := Z.abs_nat (y - x')).
  assert (Hn : (n' <= n + D)%nat) by (unfold n, n'; lia).
  assert (Hk : a ^ (n + D) <= a ^ n') .
  { replace (n + D)%nat with (n' + (n + D - n'))%nat by lia. rewrite pow_add.
    pose proof (pow_le_one_of a (n + D - n') ltac:(lra)). pose proof (pow_lt a n' H0). nra. }
  assert (HaD : (/ a) ^ D * a ^ D = 1) by (rewrite <- Rpow_mult_distr, Rinv_l by lra; apply pow1).
  assert (Hc := dlap_c_pos). pose proof (pow_lt (/ a) D ltac:(apply Rinv_0_lt_compat; lra)).
  replace (c * a ^ n) with ((/ a) ^ D * (c * a ^ (n + D))) by (rewrite pow_add; replace ((/ a) ^ D * (c * (a ^ n * a ^ D))) with (c * a ^ n * ((/ a) ^ D * a ^ D)) by ring; rewrite HaD; ring).
  apply Rmult_le_compat_l; [lra|]. apply Rmult_le_compat_l; lra.
Qed.

Lemma vp_dlap_shift_le (D : nat) (x x' : Z) (v : list Z) :
  (Z.abs (x - x') <= Z.of_nat D)%Z ->
  vp (fun y => dlap alpha (y - x)) v <= ((/ a) ^ D) ^ length v * vp (fun y => dlap alpha (y - x')) v.
Proof.
  intros HD. induction v as [|y v IH]; cbn [vp length pow]; [lra|].
  pose proof (dlap_shift_le D x x' y HD) as Hy.
  assert (0 <= dlap alpha (y - x)) by apply (dlap_nonneg alpha Ha Ha1).
  assert (0 <= vp (fun y => dlap alpha (y - x)) v) by (apply vp_nonneg; intros; apply (dlap_nonneg alpha Ha Ha1)).
  eapply Rle_trans; [apply Rmult_le_compat; [assumption|assumption|exact Hy|exact IH]|]. right. ring.
Qed.

(** K runs: every output's density ratio is at most (1/α)^(K·Δ). *)
Lemma zdens_dlap_shift_le (D K : nat) (x x' : Z) (v : list Z) :
  (Z.abs (x - x') <= Z.of_nat D)%Z ->
  zdens (dlap alpha) x K v <= ((/ a) ^ D) ^ K * zdens (dlap alpha) x' K v.
Proof.
  intros HD. unfold zdens. destruct (Nat.eqb (length v) K) eqn:E; [|lra].
  apply Nat.eqb_eq in E. rewrite <- E. apply vp_dlap_shift_le, HD.
Qed.

Theorem zdp_dlap_pure (D K : nat) (eps : R) :
  ((/ a) ^ D) ^ K <= exp eps -> zdp (dlap alpha) (Z.of_nat D) K eps 0.
Proof.
  intros Hr x x' HD S. rewrite Rplus_0_r. unfold zpr at 1. apply tsum1_le. intros l Hnd.
  set (g := fun v => if S v then zdens (dlap alpha) x' K v else 0).
  assert (Hg : forall v, 0 <= g v) by (intros v; unfold g; destruct (S v); [apply zdens_nonneg; apply (dlap_nonneg alpha Ha Ha1)|lra]).
  assert (Hr0 : 0 <= ((/ a) ^ D) ^ K).
  { destruct (alpha_r alpha Ha Ha1). apply pow_le, pow_le. apply Rlt_le, Rinv_0_lt_compat. lra. }
  apply Rle_trans with (((/ a) ^ D) ^ K * rsum (map g l)).
  { rewrite <- rsum_scal. apply rsum_le. intros v _. unfold g. destruct (S v); [apply zdens_dlap_shift_le, HD|lra]. }
  assert (Hl : rsum (map g l) <= tsum1 g).
  { apply tsum1_ge; [exact Hnd|]. eapply Rle_trans; [|apply (zdens_sum_le (dlap alpha) K (dlap_nonneg alpha Ha Ha1) (dlap_sum_le alpha Ha Ha1) x' l Hnd)].
    apply rsum_le. intros v _. unfold g. destruct (S v); [lra|apply zdens_nonneg; apply (dlap_nonneg alpha Ha Ha1)]. }
  assert (0 <= rsum (map g l)) by (apply rsum_map_nonneg; exact Hg).
  unfold zpr. fold g. nra.
Qed.

(** The all-zeros output on inputs 0 and Δ attains the ratio: (1/α)^(K·Δ) > e^ε refutes. *)
Definition zeros_set (K : nat) : list Z -> bool := point_set (repeat 0%Z K).

Lemma zpr_zeros_set (K : nat) (x : Z) :
  zpr (dlap alpha) x K (zeros_set K) = dlap alpha (0 - x) ^ K.
Proof. exact (zpr_point (dlap alpha) K x 0 (dlap_nonneg alpha Ha Ha1) (dlap_sum_le alpha Ha Ha1)). Qed.

Theorem not_zdp_dlap_pure (D K : nat) (eps : R) :
  exp eps < ((/ a) ^ D) ^ K ->
  exp eps * zpr (dlap alpha) (Z.of_nat D) K (zeros_set K) < zpr (dlap alpha) 0 K (zeros_set K) /\
  ~ zdp (dlap alpha) (Z.of_nat D) K eps 0.
Proof.
  intros Hlt. destruct (alpha_r alpha Ha Ha1) as [H0 H1].
  rewrite !zpr_zeros_set, !dlap_pow. replace (Z.abs_nat (0 - 0)) with O by lia.
  replace (Z.abs_nat (0 - Z.of_nat D)) with D by lia.
  assert (HP : 0 < (a ^ D) ^ K) by (apply pow_lt, pow_lt, H0).
  assert (Hinv : ((/ a) ^ D) ^ K * (a ^ D) ^ K = 1)
    by (rewrite <- Rpow_mult_distr, <- Rpow_mult_distr, Rinv_l by lra; rewrite !pow1; reflexivity).
  assert (HcK : 0 < c ^ K) by (apply pow_lt, dlap_c_pos).
  assert (Hv : exp eps * (c * a ^ D) ^ K < (c * a ^ 0) ^ K).
  { rewrite pow_O, Rmult_1_r, Rpow_mult_distr.
    assert (exp eps * (a ^ D) ^ K < 1).
    { apply Rmult_lt_reg_r with (((/ a) ^ D) ^ K); [pose proof (exp_pos eps); lra|].
      replace (exp eps * (a ^ D) ^ K * ((/ a) ^ D) ^ K) with (exp eps * (((/ a) ^ D) ^ K * (a ^ D) ^ K)) by ring.
      rewrite Hinv. lra. }
    replace (exp eps * (c ^ K * (a ^ D) ^ K)) with (c ^ K * (exp eps * (a ^ D) ^ K)) by ring. nra. }
  split; [exact Hv|]. intros Hdp.
  assert (HD : (Z.abs (0 - Z.of_nat D) <= Z.of_nat D)%Z) by lia.
  specialize (Hdp 0%Z (Z.of_nat D) HD (zeros_set K)). rewrite !zpr_zeros_set, !dlap_pow in Hdp.
  replace (Z.abs_nat (0 - 0)) with O in Hdp by lia. replace (Z.abs_nat (0 - Z.of_nat D)) with D in Hdp by lia. lra.
Qed.
End Alpha.

(** ** The rational checks *)

Local Open Scope Q_scope.

(** 0 < α < 1 and (1/α)^(Δ·K) ≤ e^ε by a Taylor lower bound of e^(ε/m), degree n. *)
Definition dlap_pure_dec (alpha eps : Q) (D K m n : nat) : bool :=
  negb (Qle_bool alpha 0) && negb (Qle_bool 1 alpha) && exp_lower_check eps (qpow (/ alpha) (D * K)) m n.

(** 0 < α < 1 and e^ε ≤ U < (1/α)^(Δ·K) by an alternating-series bound of e^(−ε/m). *)
Definition dlap_impure_dec (alpha eps U : Q) (D K m N : nat) : bool :=
  negb (Qle_bool alpha 0) && negb (Qle_bool 1 alpha) && exp_upper_check eps U m N
  && negb (Qle_bool (qpow (/ alpha) (D * K)) U).

Local Open Scope R_scope.

Lemma alpha_in_unit (alpha : Q) :
  negb (Qle_bool alpha 0) && negb (Qle_bool 1 alpha) = true -> (0 < alpha)%Q /\ (alpha < 1)%Q.
Proof.
  intros H. apply andb_prop in H as [H1 H2]. apply negb_true_iff in H1, H2.
  split; apply Qnot_le_lt; intros E; apply Qle_bool_iff in E; congruence.
Qed.

Lemma qpow_inv_pow (alpha : Q) (D K : nat) :
  (0 < alpha)%Q -> Q2R (qpow (/ alpha) (D * K)) = ((/ Q2R alpha) ^ D) ^ K.
Proof.
  intros Ha. rewrite qpow_correct, <- pow_mult, Q2R_inv; [reflexivity|].
  intros E. rewrite E in Ha. apply (Qlt_irrefl 0), Ha.
Qed.

Theorem zdp_dlap_pure_dec (alpha eps : Q) (D K m n : nat) :
  dlap_pure_dec alpha eps D K m n = true -> zdp (dlap alpha) (Z.of_nat D) K (Q2R eps) 0.
Proof.
  unfold dlap_pure_dec. intros H. apply andb_prop in H as [Hal Hc].
  destruct (alpha_in_unit alpha Hal) as [Ha Ha1].
  apply (zdp_dlap_pure alpha Ha Ha1). rewrite <- qpow_inv_pow by exact Ha.
  apply (exp_lower_of_check _ _ m n Hc).
Qed.

Theorem not_zdp_dlap_pure_dec (alpha eps U : Q) (D K m N : nat) :
  dlap_impure_dec alpha eps U D K m N = true ->
  exp (Q2R eps) * zpr (dlap alpha) (Z.of_nat D) K (zeros_set K) < zpr (dlap alpha) 0 K (zeros_set K) /\
  ~ zdp (dlap alpha) (Z.of_nat D) K (Q2R eps) 0.
Proof.
  unfold dlap_impure_dec. intros H. apply andb_prop in H as [H Hgt]. apply andb_prop in H as [Hal Hc].
  destruct (alpha_in_unit alpha Hal) as [Ha Ha1].
  apply (not_zdp_dlap_pure alpha Ha Ha1). rewrite <- qpow_inv_pow by exact Ha.
  apply negb_true_iff in Hgt. assert (HU : (U < qpow (/ alpha) (D * K))%Q).
  { apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. congruence. }
  eapply Rle_lt_trans; [apply (exp_upper_of_check _ _ m N Hc)|]. apply Qlt_Rlt, HU.
Qed.

(** ** When e^ε is rational (ε a logarithm: 3·ln 2), compared with the power exactly *)

Local Open Scope Q_scope.

Definition dlap_power_le_dec (alpha L : Q) (D K : nat) : bool :=
  negb (Qle_bool alpha 0) && negb (Qle_bool 1 alpha) && Qle_bool (qpow (/ alpha) (D * K)) L.

Definition dlap_power_gt_dec (alpha U : Q) (D K : nat) : bool :=
  negb (Qle_bool alpha 0) && negb (Qle_bool 1 alpha) && negb (Qle_bool (qpow (/ alpha) (D * K)) U).

Local Open Scope R_scope.

Theorem zdp_dlap_pure_exp (alpha L : Q) (D K : nat) (eps : R) :
  dlap_power_le_dec alpha L D K = true -> Q2R L <= exp eps -> zdp (dlap alpha) (Z.of_nat D) K eps 0.
Proof.
  unfold dlap_power_le_dec. intros H HL. apply andb_prop in H as [Hal Hc].
  destruct (alpha_in_unit alpha Hal) as [Ha Ha1].
  apply (zdp_dlap_pure alpha Ha Ha1). rewrite <- qpow_inv_pow by exact Ha.
  apply Qle_bool_iff, Qle_Rle in Hc. lra.
Qed.

Theorem not_zdp_dlap_pure_exp (alpha U : Q) (D K : nat) (eps : R) :
  dlap_power_gt_dec alpha U D K = true -> exp eps <= Q2R U ->
  exp eps * zpr (dlap alpha) (Z.of_nat D) K (zeros_set K) < zpr (dlap alpha) 0 K (zeros_set K) /\
  ~ zdp (dlap alpha) (Z.of_nat D) K eps 0.
Proof.
  unfold dlap_power_gt_dec. intros H HU. apply andb_prop in H as [Hal Hgt].
  destruct (alpha_in_unit alpha Hal) as [Ha Ha1].
  apply (not_zdp_dlap_pure alpha Ha Ha1). rewrite <- qpow_inv_pow by exact Ha.
  apply negb_true_iff in Hgt. assert (HU' : (U < qpow (/ alpha) (D * K))%Q).
  { apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. congruence. }
  apply Qlt_Rlt in HU'. lra.
Qed.
