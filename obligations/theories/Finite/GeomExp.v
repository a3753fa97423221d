(** * The truncated geometric calibrated with α = e^(−ε), for every ε ≥ 0 and n

    How DP libraries ship the geometric mechanism: α = e^(−ε), a real.  On input
    x ∈ {0..n}, Pr[M(x) = 0] = α^x/(1 + α), Pr[M(x) = n] = α^(n−x)/(1 + α), and
    Pr[M(x) = y] = (1 − α)/(1 + α) · α^|y − x| for 0 < y < n (seed 002's formula,
    TGeom.v for rational α), with α^k written e^(−ε·k).  [rgeom eps n] is that
    table of reals for symbolic [eps] and [n]:
    - [rgeom_rdp_distance]: (d·ε, 0)-DP for inputs at distance at most d, for every
      ε ≥ 0, n and d ([rgeom_rdp]: ε for adjacent inputs), by cases on the output
      (0, n, interior) with the input below, at or above it: the exponents differ
      by at most ε·|x − x'|;
    - [rgeom_rdistr]: for n ≥ 1 every row is a distribution (the partial sums
      telescope, as in TGeom.v, over the reals);
    - [rgeom_ratio_zero]: M(0)(0) = e^(ε·x')·M(x')(0), the ratio a refutation of a
      smaller claim exhibits. *)
From Coq Require Import List Arith ZArith Reals Lra Lia Field.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours RealTable.
Import ListNotations.

Section GeomExp.
Local Open Scope R_scope.

Definition rgeom_pmf (eps : R) (n x y : nat) : R :=
  if Nat.eqb y 0 then exp (- eps * INR x) / (1 + exp (- eps))
  else if Nat.eqb y n then exp (- eps * (INR n - INR x)) / (1 + exp (- eps))
  else (1 - exp (- eps)) / (1 + exp (- eps)) * exp (- eps * Rabs (INR y - INR x)).

Definition rgeom (eps : R) (n : nat) : rmech :=
  RMech (S n) (S n) (map (fun x => map (rgeom_pmf eps n x) (seq 0 (S n))) (seq 0 (S n))).

Lemma rgeom_entry (eps : R) (n x y : nat) :
  (x <= n)%nat -> (y <= n)%nat -> rentry (rgeom eps n) x y = rgeom_pmf eps n x y.
Proof.
  intros Hx Hy. unfold rentry, rgeom. cbn [rrows].
  rewrite (nth_map_seq (fun x => map (rgeom_pmf eps n x) (seq 0 (S n)))) by lia.
  apply nth_map_seq. lia.
Qed.

Lemma rgeom_denominator (eps : R) : 0 < 1 + exp (- eps).
Proof. pose proof (exp_pos (- eps)). lra. Qed.

Lemma rgeom_pmf_nonneg (eps : R) (n x y : nat) : 0 <= eps -> 0 <= rgeom_pmf eps n x y.
Proof.
  intros He. pose proof (rgeom_denominator eps) as Hd.
  assert (Ha : exp (- eps) <= 1) by (apply exp_le_1; lra).
  unfold rgeom_pmf. destruct (Nat.eqb y 0); [|destruct (Nat.eqb y n)].
  - apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|exact Hd].
  - apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|exact Hd].
  - apply Rmult_le_pos; [apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat, Hd]|apply exp_nonneg].
Qed.

(** e^u ≤ e^L · e^v when u ≤ L + v: the step every case of the ratio is. *)
Lemma exp_le_shift (u v L : R) : u <= L + v -> exp u <= exp L * exp v.
Proof. intros H. rewrite <- exp_plus. apply exp_le_iff. exact H. Qed.

Lemma scaled_exp_le (c u v L : R) : 0 <= c -> u <= L + v -> c * exp u <= exp L * (c * exp v).
Proof.
  intros Hc H. rewrite (Rmult_comm (exp L)), Rmult_assoc. apply Rmult_le_compat_l; [exact Hc|].
  rewrite Rmult_comm. apply exp_le_shift, H.
Qed.

(** ** The privacy loss between inputs at distance at most d is at most d·ε, output by output *)
Lemma rgeom_pmf_ratio (eps : R) (n d x x' y : nat) :
  0 <= eps -> Rabs (INR x - INR x') <= INR d ->
  rgeom_pmf eps n x y <= exp (INR d * eps) * rgeom_pmf eps n x' y.
Proof.
  intros He Hxd. pose proof (rgeom_denominator eps) as Hd.
  assert (Ha : exp (- eps) <= 1) by (apply exp_le_1; lra).
  assert (Hi : 0 <= / (1 + exp (- eps))) by (apply Rlt_le, Rinv_0_lt_compat, Hd).
  assert (Hde : eps * Rabs (INR x - INR x') <= INR d * eps).
  { rewrite Rmult_comm. apply Rmult_le_compat_r; assumption. }
  pose proof (Rle_abs (INR x - INR x')) as Hab1.
  pose proof (Rle_abs (- (INR x - INR x'))) as Hab2. rewrite Rabs_Ropp in Hab2.
  unfold rgeom_pmf. destruct (Nat.eqb y 0); [|destruct (Nat.eqb y n)].
  - unfold Rdiv. rewrite !(Rmult_comm (exp _) (/ _)). apply scaled_exp_le; [exact Hi|nra].
  - unfold Rdiv. rewrite !(Rmult_comm (exp _) (/ _)). apply scaled_exp_le; [exact Hi|nra].
  - apply scaled_exp_le; [apply Rmult_le_pos; [lra|exact Hi]|].
    pose proof (Rabs_triang (INR y - INR x) (INR x - INR x')) as Ht.
    replace (INR y - INR x + (INR x - INR x')) with (INR y - INR x') in Ht by ring.
    pose proof (Rabs_pos (INR y - INR x)). nra.
Qed.

(** ** (d·ε, 0)-DP for inputs at distance at most d, for every ε ≥ 0 and n *)
Theorem rgeom_rdp_distance_le (eps : R) (n d : nat) (e : R) :
  0 <= eps -> INR d * eps <= e -> rdp (nb_distance d) (rgeom eps n) e 0.
Proof.
  intros He Hle. apply rdp_of_pointwise.
  intros x x' y Hx Hx' Hnb Hy. cbn [rgeom rn_in rn_out] in Hx, Hx', Hy.
  rewrite !rgeom_entry by lia.
  split; [apply rgeom_pmf_nonneg, He|].
  unfold nb_distance in Hnb. apply andb_prop in Hnb as [H1 H2]. apply Nat.leb_le in H1, H2.
  apply Rle_trans with (exp (INR d * eps) * rgeom_pmf eps n x' y).
  - apply rgeom_pmf_ratio; [exact He|].
    apply Rabs_le. split.
    + apply le_INR in H2. rewrite plus_INR in H2. lra.
    + apply le_INR in H1. rewrite plus_INR in H1. lra.
  - apply Rmult_le_compat_r; [apply rgeom_pmf_nonneg, He|]. apply exp_le_iff, Hle.
Qed.

Theorem rgeom_rdp_distance (eps : R) (n d : nat) :
  0 <= eps -> rdp (nb_distance d) (rgeom eps n) (INR d * eps) 0.
Proof. intros He. apply rgeom_rdp_distance_le; [exact He|apply Rle_refl]. Qed.

(** Adjacent inputs are inputs at distance at most 1. *)
Lemma rdp_adjacent_of_distance_1 (M : rmech) (e delta : R) :
  rdp (nb_distance 1) M e delta -> rdp nb_adjacent M e delta.
Proof.
  intros H x x' Hx Hx' Hnb. apply H; [exact Hx|exact Hx'|].
  unfold nb_adjacent in Hnb. unfold nb_distance. rewrite !Nat.add_1_r. exact Hnb.
Qed.

Theorem rgeom_rdp_le (eps : R) (n : nat) (e : R) :
  0 <= eps -> eps <= e -> rdp nb_adjacent (rgeom eps n) e 0.
Proof.
  intros He Hle. apply rdp_adjacent_of_distance_1, rgeom_rdp_distance_le; [exact He|].
  cbn [INR]. lra.
Qed.

Theorem rgeom_rdp (eps : R) (n : nat) : 0 <= eps -> rdp nb_adjacent (rgeom eps n) eps 0.
Proof. intros He. apply rgeom_rdp_le; [exact He|apply Rle_refl]. Qed.

(** ** The ratio at output 0 that a refutation exhibits: M(0)(0) = e^(ε·x')·M(x')(0) *)
Lemma rgeom_ratio_zero (eps : R) (n x' : nat) : (x' <= n)%nat ->
  rentry (rgeom eps n) 0 0 = exp (INR x' * eps) * rentry (rgeom eps n) x' 0.
Proof.
  intros Hx'. rewrite !rgeom_entry by lia. unfold rgeom_pmf. cbn [Nat.eqb INR].
  unfold Rdiv. rewrite <- Rmult_assoc, <- exp_plus.
  replace (INR x' * eps + - eps * INR x') with (- eps * 0) by ring. reflexivity.
Qed.

(** ** Every row is a distribution (n ≥ 1): the partial sums telescope *)
Lemma rsum_seq_S (g : nat -> R) (k : nat) :
  rsum (map g (seq 0 (S k))) = rsum (map g (seq 0 k)) + g k.
Proof. rewrite seq_S, map_app, rsum_app. cbn [map Nat.add]. rewrite rsum_cons, rsum_nil. ring. Qed.

Lemma exp_neg_succ (eps u : R) : exp (- eps * (u + 1)) = exp (- eps * u) * exp (- eps).
Proof. rewrite <- exp_plus. f_equal. ring. Qed.

Lemma rgeom_partial (eps : R) (N X : nat) : (X <= N)%nat ->
  forall k, (k < N)%nat ->
  rsum (map (rgeom_pmf eps N X) (seq 0 (S k))) =
  if (k <? X)%nat then exp (- eps * (INR X - INR k)) / (1 + exp (- eps))
  else 1 - exp (- eps * (INR k - INR X + 1)) / (1 + exp (- eps)).
Proof.
  intros HX. pose proof (rgeom_denominator eps) as Hd.
  induction k as [|k IH]; intros Hk.
  - cbn [seq map]. rewrite rsum_cons, rsum_nil. unfold rgeom_pmf. cbn [Nat.eqb].
    destruct (Nat.ltb_spec 0 X) as [HX0|HX0].
    + cbn [INR]. replace (INR X - 0) with (INR X) by ring. ring.
    + assert (X = 0%nat) as -> by lia. cbn [INR].
      replace (- eps * (0 - 0 + 1)) with (- eps) by ring. replace (- eps * 0) with 0 by ring.
      rewrite exp_0. field. lra.
  - rewrite rsum_seq_S, IH by lia. unfold rgeom_pmf.
    rewrite (proj2 (Nat.eqb_neq (S k) 0)) by lia.
    rewrite (proj2 (Nat.eqb_neq (S k) N)) by lia.
    rewrite S_INR.
    destruct (Nat.ltb_spec k X) as [Hlt|Hge]; destruct (Nat.ltb_spec (S k) X) as [Hlt'|Hge'].
    + apply lt_INR in Hlt'. rewrite S_INR in Hlt'.
      rewrite Rabs_left1 by lra.
      replace (INR X - INR k) with ((INR X - (INR k + 1)) + 1) by ring.
      replace (- (INR k + 1 - INR X)) with (INR X - (INR k + 1)) by ring.
      rewrite !exp_neg_succ. field. lra.
    + assert (X = S k) as -> by lia. rewrite S_INR.
      replace (INR k + 1 - (INR k + 1)) with 0 by ring. rewrite Rabs_R0.
      replace (- eps * (INR k + 1 - INR k)) with (- eps) by ring.
      replace (- eps * (0 + 1)) with (- eps) by ring.
      replace (- eps * 0) with 0 by ring. rewrite exp_0. field. lra.
    + lia.
    + apply le_INR in Hge. rewrite Rabs_right by lra.
      replace (INR k + 1 - INR X + 1) with ((INR k - INR X + 1) + 1) by ring.
      replace (INR k + 1 - INR X) with (INR k - INR X + 1) by ring.
      rewrite !exp_neg_succ. field. lra.
Qed.

Lemma rgeom_row_sum (eps : R) (N X : nat) : (1 <= N)%nat -> (X <= N)%nat ->
  rsum (map (rgeom_pmf eps N X) (seq 0 (S N))) = 1.
Proof.
  intros HN HX. pose proof (rgeom_denominator eps) as Hd.
  destruct N as [|N]; [lia|].
  rewrite rsum_seq_S, (rgeom_partial eps (S N) X HX N) by lia.
  unfold rgeom_pmf. rewrite (proj2 (Nat.eqb_neq (S N) 0)) by lia. rewrite Nat.eqb_refl.
  destruct (Nat.ltb_spec N X) as [Hlt|Hge].
  - assert (X = S N) as -> by lia. rewrite S_INR.
    replace (- eps * (INR N + 1 - INR N)) with (- eps) by ring.
    replace (- eps * (INR N + 1 - (INR N + 1))) with 0 by ring. rewrite exp_0. field. lra.
  - rewrite S_INR. replace (INR N - INR X + 1) with (INR N + 1 - INR X) by ring. field. lra.
Qed.

Theorem rgeom_rdistr (eps : R) (n : nat) : 0 <= eps -> (1 <= n)%nat -> rdistr (rgeom eps n).
Proof.
  intros He Hn x Hx. cbn [rgeom rn_in rn_out] in *. split.
  - intros y Hy. rewrite rgeom_entry by lia. apply rgeom_pmf_nonneg, He.
  - unfold rpr, everything. cbn [rn_out rgeom].
    rewrite (rsum_ext_in _ (rgeom_pmf eps n x)).
    + apply rgeom_row_sum; lia.
    + intros y Hy. apply in_seq in Hy. apply rgeom_entry; lia.
Qed.

(** ** Bounds on [Z.to_nat z], for instances whose n is written in binary

    A generated file writes n as [Z.to_nat z]: a unary numeral of ten thousand would cost
    coqchk (which has no VM) tens of seconds to convert, and [lia] on [Z.to_nat] of a
    numeral converts it; these lemmas leave only the binary comparison [(k <= z)%Z]. *)
Lemma nat_le_z (k : nat) (z : Z) : (Z.of_nat k <= z)%Z -> (k <= Z.to_nat z)%nat.
Proof. intros H. lia. Qed.

Lemma nat_lt_z (k : nat) (z : Z) : (Z.of_nat k <= z)%Z -> (k < S (Z.to_nat z))%nat.
Proof. intros H. lia. Qed.

End GeomExp.
