(** * The Kairouz–Oh–Viswanath bound: k-fold composition of any ε0-DP mechanism

    Every finite mechanism [M] whose rows are distributions and which is
    (ε0, 0)-DP for a symmetric neighbour relation (ε0 > 0) is dominated, pair by
    pair, by binary randomized response with ratio r = e^ε0: for neighbours
    x, x' and all reals a, b,
    Σ_y max(0, a·M^k(x)(y) − b·M^k(x')(y)) ≤ Σ_i C(k,i)/(1+r)^k · max(0, a·r^(k−i) − b·r^i)
    for the k-fold composition [fmech_power M k] ([hs2_power_kov]).  The right side
    is the same sum for the k-fold composition of RR_r (which attains it), so
    [dp_power_kov] proves (ε, δ)-DP of [fmech_power M k] for EVERY such [M] from
    δ ≥ that sum at a = 1, b = e^ε, which [kov_delta] bounds in interval arithmetic
    ([dp_power_kov_check]).

    Why it holds: each output y of one run splits as M(x)(y) = (r·c_y + d_y)/(1+r),
    M(x')(y) = (c_y + r·d_y)/(1+r) with c_y = (r·M(x)(y) − M(x')(y))/(r − 1) ≥ 0 and
    d_y = (r·M(x')(y) − M(x)(y))/(r − 1) ≥ 0 (pure DP, both ways), and Σ c = Σ d = 1
    (both rows sum to 1).  Since max(0, ·) is subadditive and positively homogeneous,
    one run more costs at most the average of the two RR branches ([hs2_step]); the
    RR sum satisfies that recursion with equality ([kov_hs_step]).  No kernel or
    product table is built. *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia Psatz.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Compose BasicComposition PLD PLDCheck.
Import ListNotations.

Local Open Scope R_scope.

(** ** The two-parameter hockey stick of a pair of rows *)

(** G(a, b) = Σ_y max(0, a·M(x)(y) − b·M(x')(y)); hs(t) is G(1, t). *)
Definition hs2 (M : fmech) (x x' : nat) (a b : R) : R :=
  rsum (map (fun y => Rmax 0 (a * prob M x y - b * prob M x' y)) (seq 0 (n_out M))).

Lemma hs_hs2 (M : fmech) (x x' : nat) (t : R) : hs M x x' t = hs2 M x x' 1 t.
Proof. unfold hs, hs2. apply rsum_ext_in. intros y _. rewrite Rmult_1_l. reflexivity. Qed.

Lemma rmax0_subadd (u v : R) : Rmax 0 (u + v) <= Rmax 0 u + Rmax 0 v.
Proof.
  pose proof (Rmax_l 0 u). pose proof (Rmax_r 0 u). pose proof (Rmax_l 0 v). pose proof (Rmax_r 0 v).
  apply Rmax_lub; lra.
Qed.

(** max(0, c·u + d·v) ≤ c·max(0, u) + d·max(0, v) for c, d ≥ 0. *)
Lemma rmax0_comb (c d u v : R) : 0 <= c -> 0 <= d -> Rmax 0 (c * u + d * v) <= c * Rmax 0 u + d * Rmax 0 v.
Proof.
  intros Hc Hd. rewrite <- (rmax0_scale c u Hc), <- (rmax0_scale d v Hd). apply rmax0_subadd.
Qed.

(** ** Binary randomized response with ratio r, k times: the KOV sum *)

(** The masses C(k,i)/(1+r)^k, as the k-th convolution power of [1/(1+r); 1/(1+r)]. *)
Definition rr_masses (r : R) (k : nat) : list R := cpow Rplus Rmult 0 [/ (1 + r); / (1 + r)] 1 k.

(** max(0, a·r^(k−i) − b·r^i): the outputs of k-fold RR on input 0 that equal it on i runs. *)
Definition kov_weight (r : R) (k : nat) (a b : R) (i : Z) : R :=
  Rmax 0 (a * powerRZ r (Z.of_nat k - i) - b * powerRZ r i).

(** Σ_i C(k,i)/(1+r)^k · max(0, a·r^(k−i) − b·r^i): G(a, b) of k-fold RR_r. *)
Definition kov_hs (r : R) (k : nat) (a b : R) : R := ev 1 0 (rr_masses r k) (kov_weight r k a b).

(** One run more is the average of the two branches, with weights r/(1+r) and 1/(1+r)
    folded into the scaled arguments. *)
Lemma kov_hs_step (r : R) (k : nat) (a b : R) :
  0 < r -> kov_hs r (S k) a b = / (1 + r) * kov_hs r k (r * a) b + / (1 + r) * kov_hs r k a (r * b).
Proof.
  intros Hr. unfold kov_hs, rr_masses. cbn [cpow].
  change 0%Z with (0 + 0)%Z at 1. rewrite ev_conv. cbn [ev]. rewrite Rplus_0_r.
  assert (Hr0 : r <> 0) by lra.
  f_equal; f_equal; apply ev_ext; intros z; unfold kov_weight; f_equal.
  - replace (0 + z)%Z with z by ring. replace (Z.of_nat (S k) - z)%Z with (1 + (Z.of_nat k - z))%Z by lia.
    rewrite powerRZ_add, powerRZ_1 by exact Hr0. ring.
  - replace (Z.of_nat (S k) - (0 + 1 + z))%Z with (Z.of_nat k - z)%Z by lia.
    replace (0 + 1 + z)%Z with (1 + z)%Z by ring.
    rewrite (powerRZ_add r 1 z), powerRZ_1 by exact Hr0. ring.
Qed.

Lemma kov_hs_0 (r a b : R) : kov_hs r 0 a b = Rmax 0 (a - b).
Proof.
  unfold kov_hs, rr_masses, kov_weight. cbn [cpow ev]. cbn [powerRZ Z.of_nat Z.sub Z.add Z.opp].
  rewrite !Rmult_1_r, Rmult_1_l, Rplus_0_r. reflexivity.
Qed.

(** ** Pure DP gives the pointwise ratio bound, both ways *)

Lemma pr_single (M : fmech) (x y : nat) :
  (y < n_out M)%nat -> pr M x (fun y' => Nat.eqb y' y) = prob M x y.
Proof.
  intros Hy. unfold pr.
  rewrite (rsum_single Nat.eq_dec (fun y' => if Nat.eqb y' y then prob M x y' else 0) _ y).
  - rewrite Nat.eqb_refl. reflexivity.
  - apply seq_NoDup.
  - apply in_seq. lia.
  - intros a Ha. apply Nat.eqb_neq in Ha. rewrite Ha. reflexivity.
Qed.

Lemma dp0_pointwise (nb : nat -> nat -> bool) (M : fmech) (eps0 : R) (x x' y : nat) :
  dp nb M eps0 0 -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true -> (y < n_out M)%nat ->
  prob M x y <= exp eps0 * prob M x' y.
Proof.
  intros Hdp Hx Hx' Hnb Hy. pose proof (Hdp x x' Hx Hx' Hnb (fun y' => Nat.eqb y' y)) as H.
  rewrite !pr_single in H by exact Hy. lra.
Qed.

(** ** The domination step: one run of [M] against the rest *)

Section Step.
Variables (M : fmech) (x x' : nat) (r : R).
Hypothesis Hwf : fmech_wf M.
Hypothesis Hd : distr M.
Hypothesis Hx : (x < n_in M)%nat.
Hypothesis Hx' : (x' < n_in M)%nat.
Hypothesis Hr : 1 < r.
Hypothesis Hpq : forall y, (y < n_out M)%nat -> prob M x y <= r * prob M x' y.
Hypothesis Hqp : forall y, (y < n_out M)%nat -> prob M x' y <= r * prob M x y.

Let c (y : nat) : R := (r * prob M x y - prob M x' y) / (r - 1).
Let d (y : nat) : R := (r * prob M x' y - prob M x y) / (r - 1).

Lemma row_sum (z : nat) : (z < n_in M)%nat -> rsum (map (fun y => prob M z y) (seq 0 (n_out M))) = 1.
Proof.
  intros Hz. destruct (Hd z Hz) as [_ Hs]. rewrite <- Hs. unfold pr, everything. reflexivity.
Qed.

Lemma sum_c : rsum (map c (seq 0 (n_out M))) = 1.
Proof.
  unfold c, Rdiv. rewrite (rsum_ext_in _ (fun y => / (r - 1) * (r * prob M x y) - / (r - 1) * prob M x' y))
    by (intros; ring).
  rewrite rsum_minus, !rsum_scal, !row_sum by assumption. field. lra.
Qed.

Lemma sum_d : rsum (map d (seq 0 (n_out M))) = 1.
Proof.
  unfold d, Rdiv. rewrite (rsum_ext_in _ (fun y => / (r - 1) * (r * prob M x' y) - / (r - 1) * prob M x y))
    by (intros; ring).
  rewrite rsum_minus, !rsum_scal, !row_sum by assumption. field. lra.
Qed.

(** One term of the first run: max(0, a·p·P − b·q·Q) ≤ c/(1+r)·max(0, r·a·P − b·Q) + d/(1+r)·max(0, a·P − r·b·Q). *)
Lemma term_split (y : nat) (a b P Qv : R) :
  (y < n_out M)%nat ->
  Rmax 0 (a * (prob M x y * P) - b * (prob M x' y * Qv)) <=
  c y / (1 + r) * Rmax 0 (r * a * P - b * Qv) + d y / (1 + r) * Rmax 0 (a * P - r * b * Qv).
Proof.
  intros Hy. pose proof (Hpq y Hy). pose proof (Hqp y Hy).
  assert (Hc : 0 <= c y / (1 + r)) by (unfold c; apply Rmult_le_pos; [apply Rmult_le_pos|]; try (apply Rlt_le, Rinv_0_lt_compat); lra).
  assert (Hd' : 0 <= d y / (1 + r)) by (unfold d; apply Rmult_le_pos; [apply Rmult_le_pos|]; try (apply Rlt_le, Rinv_0_lt_compat); lra).
  eapply Rle_trans; [|apply (rmax0_comb _ _ _ _ Hc Hd')]. right. f_equal.
  unfold c, d. field. lra.
Qed.

Lemma hs2_step (k : nat) (a b : R) :
  hs2 (fmech_power M (S k)) x x' a b <=
  / (1 + r) * hs2 (fmech_power M k) x x' (r * a) b + / (1 + r) * hs2 (fmech_power M k) x x' a (r * b).
Proof.
  destruct (fmech_power_dims M k) as [D1 D2]. pose proof (power_wf M Hwf k) as Wk.
  unfold hs2 at 1. cbn [fmech_power]. cbn [n_out fmech_product]. rewrite rsum_seq_mul.
  set (G1 := hs2 (fmech_power M k) x x' (r * a) b). set (G2 := hs2 (fmech_power M k) x x' a (r * b)).
  eapply Rle_trans.
  - apply (rsum_le _ (fun y1 => c y1 / (1 + r) * G1 + d y1 / (1 + r) * G2)).
    intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
    unfold G1, G2, hs2. rewrite <- !rsum_scal, <- rsum_plus. apply rsum_le.
    intros y2 Hy2. apply in_seq in Hy2 as [_ Hy2].
    unfold prob at 1 2. rewrite !fmech_product_entry by (try assumption; lia).
    rewrite !Q2R_mult. apply term_split. exact Hy1.
  - right. rewrite rsum_plus.
    rewrite (rsum_ext_in _ (fun y1 => (/ (1 + r) * G1) * c y1)) by (intros; unfold Rdiv; ring).
    rewrite (rsum_ext_in (fun y1 => d y1 / (1 + r) * G2) (fun y1 => (/ (1 + r) * G2) * d y1)) by (intros; unfold Rdiv; ring).
    rewrite !rsum_scal, sum_c, sum_d. ring.
Qed.

End Step.

(** ** Every k: the k-fold composition is dominated by k-fold RR_r *)
Theorem hs2_power_kov (M : fmech) (x x' : nat) (r : R) (k : nat) :
  fmech_wf M -> distr M -> (x < n_in M)%nat -> (x' < n_in M)%nat -> 1 < r ->
  (forall y, (y < n_out M)%nat -> prob M x y <= r * prob M x' y) ->
  (forall y, (y < n_out M)%nat -> prob M x' y <= r * prob M x y) ->
  forall a b, hs2 (fmech_power M k) x x' a b <= kov_hs r k a b.
Proof.
  intros Hwf Hd Hx Hx' Hr Hpq Hqp. induction k as [|k IH]; intros a b.
  - rewrite kov_hs_0. unfold hs2, prob, entry. cbn - [Q2R Rmax].
    rewrite !nth_repeat_lt by assumption. cbn [nth]. rewrite q2r_1.
    unfold rsum. cbn [fold_right]. rewrite !Rmult_1_r, Rplus_0_r. apply Rle_refl.
  - eapply Rle_trans; [apply (hs2_step M x x' r); assumption|].
    rewrite kov_hs_step by lra.
    assert (0 < / (1 + r)) by (apply Rinv_0_lt_compat; lra).
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra; apply IH.
Qed.

(** (ε, δ)-DP of [fmech_power M k] for every (ε0, 0)-DP [M] whose rows are distributions,
    when δ is at least the KOV sum at e^ε. *)
Theorem dp_power_kov (nb : nat -> nat -> bool) (M : fmech) (eps0 eps delta : R) (k : nat) :
  symmetric nb -> fmech_wf M -> distr M -> 0 < eps0 -> dp nb M eps0 0 ->
  kov_hs (exp eps0) k 1 (exp eps) <= delta -> dp nb (fmech_power M k) eps delta.
Proof.
  intros Hsym Hwf Hd He0 Hdp Hle x x' Hx Hx' Hnb S.
  destruct (fmech_power_dims M k) as [D1 _]. rewrite D1 in Hx, Hx'.
  assert (Hr : 1 < exp eps0) by (rewrite <- exp_0; apply exp_increasing, He0).
  eapply Rle_trans; [apply pr_le_hs|].
  - intros y Hy. apply (power_nonneg M Hwf (distr_subdistr M Hd) k x' y Hx' Hy).
  - apply Rlt_le, exp_pos.
  - apply Rplus_le_compat_l. rewrite hs_hs2. eapply Rle_trans; [|exact Hle].
    apply hs2_power_kov; try assumption.
    + intros y Hy. apply (dp0_pointwise nb M eps0 x x' y Hdp Hx Hx' Hnb Hy).
    + intros y Hy. apply (dp0_pointwise nb M eps0 x' x y Hdp Hx' Hx); [|exact Hy]. rewrite Hsym. exact Hnb.
Qed.

(** ** The KOV sum in outward-rounded intervals *)

Definition ikov_weight (ri ti : I.type) (k : nat) (i : Z) : I.type :=
  imax0 (I.sub prec (I.power_int prec ri (Z.of_nat k - i)) (I.mul prec ti (I.power_int prec ri i))).

Definition iinv1p (ri : I.type) : I.type := I.div prec (I.fromZ prec 1) (I.add prec (I.fromZ prec 1) ri).

(** An interval that contains the KOV sum at a = 1, b = t, for [ri] ∋ r and [ti] ∋ t. *)
Definition kov_delta (ri ti : I.type) (k : nat) : I.type :=
  iev 1 0 (cpow (I.add prec) (I.mul prec) I.zero [iinv1p ri; iinv1p ri] (I.fromZ prec 1) k) (ikov_weight ri ti k).

Lemma power_int_has (ri : I.type) (r : R) (z : Z) : r <> 0 -> has ri r -> has (I.power_int prec ri z) (powerRZ r z).
Proof.
  intros Hr0 Hr. pose proof (I.power_int_correct prec z ri (Xreal r) Hr) as H. unfold has.
  replace (Xreal (powerRZ r z)) with (Xpower_int (Xreal r) z); [exact H|].
  cbn [Xpower_int Xbind]. destruct z; cbn [Xpower_int' powerRZ]; try reflexivity.
  rewrite is_zero_false by exact Hr0. reflexivity.
Qed.

Lemma kov_delta_correct (ri ti : I.type) (r t : R) (k : nat) :
  0 < r -> has ri r -> has ti t -> has (kov_delta ri ti k) (kov_hs r k 1 t).
Proof.
  intros Hr Hri Hti. apply iev_correct.
  - apply cpow_has; [|exact (I.fromZ_correct prec 1)].
    assert (Hu : has (iinv1p ri) (/ (1 + r))).
    { unfold iinv1p, has.
      pose proof (I.div_correct prec _ _ _ _ (I.fromZ_correct prec 1) (add_correct _ _ _ _ (I.fromZ_correct prec 1) Hri)) as H.
      unfold Xbind2, Xdiv' in H. rewrite is_zero_false in H by lra. unfold Rdiv in H. rewrite Rmult_1_l in H. exact H. }
    repeat constructor; exact Hu.
  - intros z. unfold ikov_weight, kov_weight. rewrite Rmult_1_l. apply imax0_correct, sub_correct.
    + apply power_int_has; [lra|exact Hri].
    + apply mul_correct; [exact Hti|]. apply power_int_has; [lra|exact Hri].
Qed.

(** Its lower end is at least [d]. *)
Definition ge_check (xi : I.type) (d : Q) : bool :=
  match I.sign_large (I.sub prec xi (iq d)) with Xgt | Xeq => true | _ => false end.

Lemma ge_check_correct (xi : I.type) (r : R) (d : Q) : has xi r -> ge_check xi d = true -> (Q2R d <= r)%R.
Proof.
  intros H C. unfold ge_check in C. pose proof (I.sign_large_correct (I.sub prec xi (iq d))) as S.
  pose proof (sub_correct _ _ _ _ H (iq_correct d)) as Hs.
  destruct (I.sign_large _); try discriminate.
  - specialize (S _ Hs). injection S. lra.
  - destruct (S _ Hs) as [_ Hle]. cbn [proj_val] in Hle. lra.
Qed.

(** The checked form, one boolean for [vm_compute]: [ri] ∋ e^ε0 lies above 1 (so ε0 > 0)
    and the upper end of [kov_delta] is at most δ. *)
Definition kov_le_check (ri ti : I.type) (k : nat) (delta : Q) : bool :=
  gt_check ri 1 && le_check (kov_delta ri ti k) delta.

Theorem dp_power_kov_check (nb : nat -> nat -> bool) (M : fmech) (eps0 eps : R) (k : nat)
    (ri ti : I.type) (delta : Q) :
  symmetric nb -> fmech_wf M -> distr M -> dp nb M eps0 0 ->
  has ri (exp eps0) -> has ti (exp eps) -> kov_le_check ri ti k delta = true ->
  dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros Hsym Hwf Hd Hdp Hri Hti Hc. apply andb_prop in Hc as [H1 Hle].
  pose proof (gt_check_correct _ _ _ Hri H1) as He. rewrite q2r_1, <- exp_0 in He.
  apply (proj1 (exp_lt_iff 0 eps0)) in He.
  apply (dp_power_kov nb M eps0); try assumption.
  exact (le_check_correct _ _ _ (kov_delta_correct ri ti _ _ k (exp_pos eps0) Hri Hti) Hle).
Qed.

(** The lower end of [kov_delta] above δ: the KOV sum exceeds δ. *)
Lemma kov_gt_check (ri ti : I.type) (r t : R) (k : nat) (delta : Q) :
  0 < r -> has ri r -> has ti t -> gt_check (kov_delta ri ti k) delta = true -> Q2R delta < kov_hs r k 1 t.
Proof. intros Hr Hri Hti Hgt. exact (gt_check_correct _ _ _ (kov_delta_correct ri ti r t k Hr Hri Hti) Hgt). Qed.
