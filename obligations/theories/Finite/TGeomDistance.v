(** * The truncated α-geometric at distance d: sensitivity beyond 1

    Inputs at distance at most d ([nb_distance d], Neighbours.v) are d steps of
    one: the ratio bound of one step, M(x)(y) ≤ (1/α)·M(x ± 1)(y)
    ([tgeom_pmf_ratio], which holds for every integer input), chained d times gives
    M(x)(y) ≤ (1/α)^d·M(x')(y), hence [tgeom_dp_distance]: the truncated
    α-geometric is (d·(−ln α), 0)-DP for neighbours at distance d, for every
    α, n and d. *)
From Coq Require Import List Arith ZArith QArith Qpower Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Family TGeom.

Section TGeomDistance.
Local Open Scope Q_scope.

Lemma qinv_ge_1 (a : Q) : 0 < a < 1 -> 1 <= / a.
Proof.
  intros [H0 H1]. apply Qle_shift_inv_l; [exact H0|]. rewrite Qmult_1_l. apply Qlt_le_weak, H1.
Qed.

Lemma qpow_ge_1 (b : Q) (d : nat) : 1 <= b -> 1 <= b ^ Z.of_nat d.
Proof.
  intros Hb. induction d as [|d IH]; [apply Qle_refl|].
  assert (Hpos : 0 < b) by (apply Qlt_le_trans with 1; [reflexivity|exact Hb]).
  assert (Hb0 : ~ b == 0) by (intros E; apply (Qlt_not_eq 0 b Hpos); symmetry; exact E).
  replace (Z.of_nat (S d)) with (Z.of_nat d + 1)%Z by lia.
  rewrite (Qpower_plus b (Z.of_nat d) 1 Hb0). change (b ^ 1) with b.
  rewrite <- (Qmult_1_l 1). apply Qmult_le_compat_nonneg; split; try assumption; discriminate.
Qed.

(** M(x)(y) ≤ (1/α)^d · M(x')(y) for inputs at distance at most d. *)
Lemma tgeom_pmf_ratio_distance (a : Q) (n : Z) (d : nat) :
  0 < a < 1 -> forall x x' y, (Z.abs (x - x') <= Z.of_nat d)%Z ->
  tgeom_pmf a n x y <= (/ a) ^ Z.of_nat d * tgeom_pmf a n x' y.
Proof.
  intros Ha. pose proof (qinv_ge_1 a Ha) as Hinv.
  assert (Hi0 : ~ / a == 0).
  { intros E. apply (Qlt_not_eq 0 (/ a) (Qinv_lt_0_compat a (proj1 Ha))). symmetry. exact E. }
  induction d as [|d IH]; intros x x' y Hd.
  - assert (x = x') as -> by lia. cbn. rewrite Qmult_1_l. apply Qle_refl.
  - set (x'' := if (x' <? x)%Z then (x' + 1)%Z else (x' - 1)%Z).
    destruct (Z.eq_dec x x') as [->|Hne].
    + rewrite <- (Qmult_1_l (tgeom_pmf a n x' y)) at 1.
      apply Qmult_le_compat_r; [apply qpow_ge_1, Hinv|apply tgeom_pmf_nonneg, Ha].
    + assert (Hx'' : (Z.abs (x - x'') <= Z.of_nat d)%Z).
      { unfold x''. destruct (x' <? x)%Z eqn:E; [apply Z.ltb_lt in E|apply Z.ltb_ge in E]; lia. }
      apply Qle_trans with ((/ a) ^ Z.of_nat d * tgeom_pmf a n x'' y); [exact (IH x x'' y Hx'')|].
      replace (Z.of_nat (S d)) with (Z.of_nat d + 1)%Z by lia.
      rewrite (Qpower_plus (/ a) (Z.of_nat d) 1 Hi0). change ((/ a) ^ 1) with (/ a). rewrite <- Qmult_assoc. apply Qmult_le_l.
      * apply Qlt_le_trans with 1; [reflexivity|apply qpow_ge_1, Hinv].
      * apply tgeom_pmf_ratio; [exact Ha| |]; unfold x''; destruct (x' <? x)%Z; lia.
Qed.

End TGeomDistance.

(** ** (ε, 0)-DP at distance d whenever (1/α)^d ≤ e^ε *)
Theorem tgeom_dp_distance_le (a : Q) (n : Z) (d : nat) (eps : R) :
  0 < a < 1 -> (Q2R ((/ a) ^ Z.of_nat d) <= exp eps)%R ->
  dp (nb_distance d) (tgeom_fmech a n) eps 0.
Proof.
  intros Ha HL. apply (dp_of_pointwise _ _ _ ((/ a) ^ Z.of_nat d)); [exact HL|].
  intros x x' y Hx Hx' Hnb Hy. unfold tgeom_fmech.
  rewrite !fmech_z_entry by assumption.
  split; [apply tgeom_pmf_nonneg, Ha|].
  unfold nb_distance in Hnb. apply andb_prop in Hnb as [H1 H2].
  apply Nat.leb_le in H1, H2.
  apply tgeom_pmf_ratio_distance; [exact Ha|lia].
Qed.

Lemma q2r_pow_exp (a : Q) (d : nat) :
  0 < a -> Q2R ((/ a) ^ Z.of_nat d) = exp (INR d * - ln (Q2R a)).
Proof.
  intros Ha. assert (Hi0 : ~ / a == 0).
  { intros E. apply (Qlt_not_eq 0 (/ a) (Qinv_lt_0_compat a Ha)). symmetry. exact E. }
  induction d as [|d IH].
  - cbn. rewrite Rmult_0_l, exp_0. apply q2r_1.
  - replace (Z.of_nat (S d)) with (Z.of_nat d + 1)%Z by lia.
    rewrite (Qeq_eqR _ _ (Qpower_plus (/ a) (Z.of_nat d) 1 Hi0)). change ((/ a) ^ 1) with (/ a).
    rewrite Q2R_mult, IH, S_INR, exp_neg_ln_q by exact Ha.
    rewrite <- exp_plus. f_equal. ring.
Qed.

(** The tight form: (d·(−ln α), 0)-DP for neighbours at distance d. *)
Theorem tgeom_dp_distance (a : Q) (n : Z) (d : nat) :
  0 < a < 1 -> dp (nb_distance d) (tgeom_fmech a n) (INR d * - ln (Q2R a)) 0.
Proof.
  intros Ha. apply tgeom_dp_distance_le; [exact Ha|].
  rewrite q2r_pow_exp by apply Ha. apply Rle_refl.
Qed.

(** The bound a generated family file proves for distance d: (1/α)^d ≤ e^ε when
    ε = d·(−ln α), the claim written any way [ring] equates. *)
Lemma bound_exp_pow (a : Q) (d : nat) (e : R) :
  0 < a -> e = (INR d * - ln (Q2R a))%R -> (Q2R ((/ a) ^ Z.of_nat d) <= exp e)%R.
Proof. intros Ha ->. rewrite q2r_pow_exp by exact Ha. apply Rle_refl. Qed.
