(** * The truncated α-geometric mechanism over {0..n}, for every α and n

    Seed 002: on input x, Pr[M(x) = 0] = α^x / (1 + α), Pr[M(x) = n] =
    α^(n−x) / (1 + α), and Pr[M(x) = y] = (1 − α)/(1 + α) · α^|y − x| for
    0 < y < n.  [tgeom_fmech a n] is that mechanism for symbolic [a : Q], [n : Z];
    [tgeom_dp]: for 0 < α < 1 it is (−ln α, 0)-DP for adjacent inputs, proved
    once by cases on the output (0, n, interior), never by a table;
    [tgeom_distr]: for n ≥ 1 every row is a distribution. *)
From Coq Require Import List ZArith QArith Qpower Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Family.
Import ListNotations.

Definition tgeom_pmf (a : Q) (n : Z) (x y : Z) : Q :=
  if Z.eqb y 0 then Qpower a x / (1 + a)
  else if Z.eqb y n then Qpower a (n - x) / (1 + a)
  else (1 - a) / (1 + a) * Qpower a (Z.abs (y - x)).

Definition tgeom_fmech (a : Q) (n : Z) : fmech := fmech_z 0 n 0 n (tgeom_pmf a n).

Section TGeom.
Local Open Scope Q_scope.

Lemma tgeom_pmf_nonneg (a : Q) (n x y : Z) : 0 < a < 1 -> 0 <= tgeom_pmf a n x y.
Proof.
  intros [H0 H1].
  assert (Hd : 0 < 1 + a) by (apply Qlt_trans with a; [exact H0|]; rewrite <- (Qplus_0_l a) at 1;
                              apply Qplus_lt_le_compat; [reflexivity|apply Qle_refl]).
  assert (Hi : 0 <= / (1 + a)) by (apply Qlt_le_weak, Qinv_lt_0_compat, Hd).
  unfold tgeom_pmf. destruct (Z.eqb y 0); [|destruct (Z.eqb y n)].
  - apply Qmult_le_0_compat; [apply qpow_nonneg, H0|exact Hi].
  - apply Qmult_le_0_compat; [apply qpow_nonneg, H0|exact Hi].
  - apply Qmult_le_0_compat; [apply Qmult_le_0_compat; [|exact Hi]|apply qpow_nonneg, H0].
    apply Qlt_le_weak in H1. rewrite Qle_minus_iff in H1. exact H1.
Qed.

(** a^z / c ≤ (1/a) · (a^z' / c) when z' ≤ z + 1. *)
Lemma qpow_step_div (a c : Q) (z z' : Z) :
  0 < a -> a <= 1 -> 0 <= / c -> (z' <= z + 1)%Z -> a ^ z / c <= / a * (a ^ z' / c).
Proof.
  intros H0 H1 Hc Hz. unfold Qdiv. rewrite Qmult_assoc.
  apply Qmult_le_compat_r; [apply qpow_step; assumption|exact Hc].
Qed.

(** The privacy loss of one step of the input is at most 1/a, output by output. *)
Lemma tgeom_pmf_ratio (a : Q) (n x x' y : Z) :
  0 < a < 1 -> (x' <= x + 1)%Z -> (x <= x' + 1)%Z ->
  tgeom_pmf a n x y <= / a * tgeom_pmf a n x' y.
Proof.
  intros [H0 H1] Hx1 Hx2. apply Qlt_le_weak in H1 as H1'.
  assert (Hd : 0 < 1 + a) by (apply Qlt_trans with a; [exact H0|]; rewrite <- (Qplus_0_l a) at 1;
                              apply Qplus_lt_le_compat; [reflexivity|apply Qle_refl]).
  assert (Hi : 0 <= / (1 + a)) by (apply Qlt_le_weak, Qinv_lt_0_compat, Hd).
  unfold tgeom_pmf. destruct (Z.eqb y 0); [|destruct (Z.eqb y n)].
  - apply qpow_step_div; [exact H0|exact H1'|exact Hi|lia].
  - apply qpow_step_div; [exact H0|exact H1'|exact Hi|lia].
  - rewrite Qmult_assoc, (Qmult_comm (/ a)), <- Qmult_assoc.
    rewrite (Qmult_comm ((1 - a) / (1 + a))), (Qmult_comm ((1 - a) / (1 + a))).
    apply Qmult_le_compat_r.
    + apply qpow_step; [exact H0|exact H1'|lia].
    + apply Qmult_le_0_compat; [|exact Hi].
      rewrite Qle_minus_iff in H1'. exact H1'.
Qed.

End TGeom.

(** ** (ε, 0)-DP for adjacent inputs whenever 1/α ≤ e^ε, for every 0 < α < 1 and every n *)
Theorem tgeom_dp_le (a : Q) (n : Z) (eps : R) :
  0 < a < 1 -> (Q2R (/ a) <= exp eps)%R -> dp nb_adjacent (tgeom_fmech a n) eps 0.
Proof.
  intros Ha HL. apply (dp_of_pointwise _ _ _ (/ a)); [exact HL|].
  intros x x' y Hx Hx' Hnb Hy. unfold tgeom_fmech.
    rewrite !fmech_z_entry by assumption.
    split; [apply tgeom_pmf_nonneg, Ha|].
    unfold nb_adjacent in Hnb. apply andb_prop in Hnb as [H1 H2].
    apply Nat.leb_le in H1, H2.
    apply tgeom_pmf_ratio; [exact Ha|lia|lia].
Qed.

(** The tight form: (−ln α, 0)-DP. *)
Theorem tgeom_dp (a : Q) (n : Z) :
  0 < a < 1 -> dp nb_adjacent (tgeom_fmech a n) (- ln (Q2R a)) 0.
Proof.
  intros Ha. apply tgeom_dp_le; [exact Ha|].
  rewrite exp_neg_ln_q by apply Ha. apply Rle_refl.
Qed.

(** ** Every row is a distribution (n ≥ 1)

    The partial sums over the outputs 0..k telescope: α^(x−k)/(1 + α) while
    k < x, then 1 − α^(k−x+1)/(1 + α); the last output n brings the row to 1. *)
Section Distr.
Local Open Scope Q_scope.

Lemma qsumf_seq_S (g : nat -> Q) (k : nat) : qsumf (seq 0 (S k)) g == qsumf (seq 0 k) g + g k.
Proof.
  rewrite seq_S, Nat.add_0_l. generalize (seq 0 k) as l. intros l. unfold qsumf.
  induction l as [|b l IH]; cbn [app fold_right].
  - ring.
  - rewrite IH. ring.
Qed.

Lemma qpow_succ (a : Q) (e : Z) : ~ a == 0 -> a ^ (e + 1) == a ^ e * a.
Proof. intros Ha. rewrite Qpower_plus by exact Ha. reflexivity. Qed.

Lemma tgeom_partial (a : Q) (N : nat) (X : Z) :
  0 < a < 1 -> (0 <= X <= Z.of_nat N)%Z ->
  forall k, (k < N)%nat ->
  qsumf (seq 0 (S k)) (fun y => tgeom_pmf a (Z.of_nat N) X (Z.of_nat y)) ==
  if (Z.of_nat k <? X)%Z then a ^ (X - Z.of_nat k) / (1 + a)
  else 1 - a ^ (Z.of_nat k - X + 1) / (1 + a).
Proof.
  intros [H0 H1] HX.
  assert (Ha : ~ a == 0) by (intros E; rewrite E in H0; discriminate).
  assert (Hd : ~ 1 + a == 0).
  { intros E. assert (0 < 1 + a) as Hp; [|rewrite E in Hp; discriminate].
    apply Qlt_trans with a; [exact H0|]. rewrite <- (Qplus_0_l a) at 1.
    apply Qplus_lt_le_compat; [reflexivity|apply Qle_refl]. }
  induction k as [|k IH]; intros Hk.
  - cbn [seq qsumf fold_right]. unfold tgeom_pmf. cbn [Z.of_nat Z.eqb].
    destruct (Z.ltb_spec 0 X) as [HX0|HX0].
    + rewrite Z.sub_0_r. ring.
    + replace (0 - X + 1)%Z with 1%Z by lia. replace X with 0%Z by lia.
      rewrite Qpower_1_r. cbn [Qpower]. field. exact Hd.
  - rewrite qsumf_seq_S, IH by lia. unfold tgeom_pmf.
    rewrite (proj2 (Z.eqb_neq (Z.of_nat (S k)) 0)) by lia.
    rewrite (proj2 (Z.eqb_neq (Z.of_nat (S k)) (Z.of_nat N))) by lia.
    destruct (Z.ltb_spec (Z.of_nat k) X) as [Hlt|Hge];
      destruct (Z.ltb_spec (Z.of_nat (S k)) X) as [Hlt'|Hge'].
    + replace (X - Z.of_nat k)%Z with ((X - Z.of_nat (S k)) + 1)%Z by lia.
      replace (Z.abs (Z.of_nat (S k) - X)) with (X - Z.of_nat (S k))%Z by lia.
      set (e := (X - Z.of_nat (S k))%Z). rewrite (qpow_succ a e) by exact Ha. field. exact Hd.
    + replace (X - Z.of_nat k)%Z with 1%Z by lia.
      replace (Z.abs (Z.of_nat (S k) - X)) with 0%Z by lia.
      replace (Z.of_nat (S k) - X + 1)%Z with 1%Z by lia.
      rewrite Qpower_1_r. cbn [Qpower]. field. exact Hd.
    + lia.
    + replace (Z.abs (Z.of_nat (S k) - X)) with (Z.of_nat k - X + 1)%Z by lia.
      replace (Z.of_nat (S k) - X + 1)%Z with ((Z.of_nat k - X + 1) + 1)%Z by lia.
      set (e := (Z.of_nat k - X + 1)%Z). rewrite (qpow_succ a e) by exact Ha. field. exact Hd.
Qed.

Lemma tgeom_row_sum (a : Q) (N : nat) (X : Z) :
  0 < a < 1 -> (1 <= N)%nat -> (0 <= X <= Z.of_nat N)%Z ->
  qsumf (seq 0 (S N)) (fun y => tgeom_pmf a (Z.of_nat N) X (Z.of_nat y)) == 1.
Proof.
  intros Hr HN HX. destruct Hr as [H0 H1].
  assert (Ha : ~ a == 0) by (intros E; rewrite E in H0; discriminate).
  assert (Hd : ~ 1 + a == 0).
  { intros E. assert (0 < 1 + a) as Hp; [|rewrite E in Hp; discriminate].
    apply Qlt_trans with a; [exact H0|]. rewrite <- (Qplus_0_l a) at 1.
    apply Qplus_lt_le_compat; [reflexivity|apply Qle_refl]. }
  destruct N as [|N]; [lia|].
  rewrite qsumf_seq_S, (tgeom_partial a (S N) X (conj H0 H1) HX N) by lia.
  unfold tgeom_pmf. rewrite (proj2 (Z.eqb_neq (Z.of_nat (S N)) 0)) by lia.
  rewrite Z.eqb_refl.
  destruct (Z.ltb_spec (Z.of_nat N) X) as [Hlt|Hge].
  - replace (X - Z.of_nat N)%Z with 1%Z by lia.
    replace (Z.of_nat (S N) - X)%Z with 0%Z by lia.
    rewrite Qpower_1_r. cbn [Qpower]. field. exact Hd.
  - replace (Z.of_nat N - X + 1)%Z with (Z.of_nat (S N) - X)%Z by lia.
    field. exact Hd.
Qed.

End Distr.

Theorem tgeom_distr (a : Q) (n : Z) : 0 < a < 1 -> (1 <= n)%Z -> distr (tgeom_fmech a n).
Proof.
  intros Ha Hn x Hx. unfold tgeom_fmech in *. cbn [n_in n_out fmech_z] in Hx |- *.
  split.
  - intros y Hy. unfold prob. rewrite fmech_z_entry by assumption.
    rewrite <- q2r_0. apply Qle_Rle, tgeom_pmf_nonneg, Ha.
  - unfold pr, everything.
    assert (HN : zcount 0 n = S (Z.to_nat n)) by (unfold zcount; lia).
    rewrite (rsum_ext_in _ (fun y => Q2R (tgeom_pmf a (Z.of_nat (Z.to_nat n)) (Z.of_nat x) (Z.of_nat y)))).
    + rewrite rsum_q2r. cbn [n_out fmech_z]. rewrite HN, <- q2r_1. apply Qeq_eqR, tgeom_row_sum; [exact Ha|lia|].
      unfold zcount in Hx. lia.
    + intros y Hy. apply in_seq in Hy. cbn [n_out fmech_z] in Hy. unfold prob.
      rewrite fmech_z_entry by lia.
      rewrite Z2Nat.id by lia. reflexivity.
Qed.
