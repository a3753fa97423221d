(** * Noise densities in rationals, at ε = L·ln(q/p)

    A refutation needs one ε.  Taking ε = L·ln(q/p) for integers 0 < p < q and
    a positive integer L such that every tape position's rate ε·den/num is
    n·ln(q/p) with n a natural number (n = L·den/num), the two-sided geometric
    of that position has e^(−rate) = (p/q)^n, and the density of a noise vector
    [v] is the rational C·(p/q)^(Σ n_i·|v_i|), with C = Π (q^n_i − p^n_i)/(q^n_i + p^n_i).
    A sum of densities over a window whose exponents are at most E is then
    C/q^E times the integer Σ p^e·q^(E − e): computed by [vm_compute] in [Z],
    no series and no [exp] left. *)
From Coq Require Import List Reals ZArith Lia Lra.
From Obligations.Core Require Import Sums.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment TapeSem Bracket.
Import ListNotations.
Local Open Scope R_scope.

(** ε = L·ln(q/p). *)
Definition eps_at (L : positive) (p q : Z) : R := IZR (Zpos L) * ln (IZR q / IZR p).

(** The exponent n of a tape position of scale num/den: L·den = num·n. *)
Definition expo (L : positive) (w : positive * positive) : Z := (Zpos L * Zpos (snd w) / Zpos (fst w))%Z.

Definition expo_ok (L : positive) (w : positive * positive) : bool :=
  (Zpos L * Zpos (snd w) mod Zpos (fst w) =? 0)%Z.

Lemma expo_nonneg (L : positive) (w : positive * positive) : (0 <= expo L w)%Z.
Proof. unfold expo. apply Z.div_pos; lia. Qed.

Lemma eps_at_pos (L : positive) (p q : Z) : (0 < p < q)%Z -> 0 < eps_at L p q.
Proof.
  intros Hpq. unfold eps_at. apply Rmult_lt_0_compat; [apply IZR_lt; lia|].
  rewrite <- ln_1. apply ln_increasing; [lra|].
  assert (0 < IZR p) by (apply IZR_lt; lia). assert (IZR p < IZR q) by (apply IZR_lt; lia).
  apply (Rmult_lt_reg_r (IZR p)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** e^ε = (q/p)^L. *)
Lemma exp_eps_at (L : positive) (p q : Z) : (0 < p < q)%Z ->
  exp (eps_at L p q) = (IZR q / IZR p) ^ Pos.to_nat L.
Proof.
  intros Hpq. unfold eps_at.
  assert (0 < IZR q / IZR p) by (apply Rdiv_lt_0_compat; apply IZR_lt; lia).
  rewrite <- positive_nat_Z, <- INR_IZR_INZ, Rmult_comm, exp_mult_INR, exp_ln by exact H. reflexivity.
Qed.

Lemma rate_expo (L : positive) (p q : Z) (w : positive * positive) : expo_ok L w = true ->
  eps_at L p q * IZR (Zpos (snd w)) / IZR (Zpos (fst w)) = IZR (expo L w) * ln (IZR q / IZR p).
Proof.
  intros Hok. unfold expo_ok, expo in *. apply Z.eqb_eq in Hok.
  destruct w as [num den]. cbn [fst snd] in *.
  pose proof (proj2 (Z.div_exact (Zpos L * Zpos den) (Zpos num) ltac:(lia)) Hok) as E.
  set (n := (Zpos L * Zpos den / Zpos num)%Z) in *.
  apply (f_equal IZR) in E. rewrite !mult_IZR in E.
  assert (IZR (Zpos num) <> 0) by (apply not_0_IZR; lia).
  unfold eps_at. set (r := ln (IZR q / IZR p)).
  replace (IZR (Zpos L) * r * IZR (Zpos den) / IZR (Zpos num))
    with (IZR (Zpos L) * IZR (Zpos den) * r / IZR (Zpos num)) by (field; exact H).
  rewrite E. field. exact H.
Qed.

(** ** One coordinate *)

Lemma pq_pow (p q : Z) (N : nat) : (0 < p < q)%Z ->
  (IZR p / IZR q) ^ N = IZR (p ^ Z.of_nat N) / IZR (q ^ Z.of_nat N).
Proof.
  intros Hpq. rewrite <- !pow_IZR. unfold Rdiv. rewrite Rpow_mult_distr, pow_inv. reflexivity.
Qed.

Lemma dlaplace_rat (n p q z : Z) : (0 < p < q)%Z -> (0 <= n)%Z ->
  dlaplace (IZR n * ln (IZR q / IZR p)) z =
  IZR (q ^ n - p ^ n) / IZR (q ^ n + p ^ n) * (IZR p / IZR q) ^ Z.to_nat (n * Z.abs z).
Proof.
  intros Hpq Hn. unfold dlaplace.
  assert (Hp : 0 < IZR p) by (apply IZR_lt; lia). assert (Hq : 0 < IZR q) by (apply IZR_lt; lia).
  assert (Ha : exp (- (IZR n * ln (IZR q / IZR p))) = (IZR p / IZR q) ^ Z.to_nat n).
  { replace (- (IZR n * ln (IZR q / IZR p))) with (ln (IZR p / IZR q) * INR (Z.to_nat n)).
    - rewrite exp_mult_INR, exp_ln; [reflexivity|apply Rdiv_lt_0_compat; lra].
    - rewrite INR_IZR_INZ, Z2Nat.id by exact Hn.
      replace (IZR p / IZR q) with (/ (IZR q / IZR p)) by (field; lra).
      rewrite ln_Rinv by (apply Rdiv_lt_0_compat; lra). ring. }
  rewrite Ha.
  assert (Hm : Z.to_nat (n * Z.abs z) = (Z.to_nat n * Z.abs_nat z)%nat).
  { rewrite Z2Nat.inj_mul by lia. f_equal. lia. }
  rewrite Hm, pow_mult, (pq_pow p q (Z.to_nat n) Hpq), Z2Nat.id by exact Hn.
  assert (0 < IZR (q ^ n)) by (apply IZR_lt, Z.pow_pos_nonneg; lia).
  assert (0 < IZR (p ^ n)) by (apply IZR_lt, Z.pow_pos_nonneg; lia).
  rewrite minus_IZR, plus_IZR. f_equal. field. split; lra.
Qed.

(** ** Vectors *)

Fixpoint cnum (p q : Z) (ns : list Z) : Z :=
  match ns with [] => 1 | n :: ns' => ((q ^ n - p ^ n) * cnum p q ns')%Z end.

Fixpoint cden (p q : Z) (ns : list Z) : Z :=
  match ns with [] => 1 | n :: ns' => ((q ^ n + p ^ n) * cden p q ns')%Z end.

Lemma zexp_nonneg (ns v : list Z) : Forall (fun n => 0 <= n)%Z ns -> (0 <= zexp ns v)%Z.
Proof.
  revert v. induction ns as [|n ns IH]; intros [|z v] H; cbn [zexp]; try lia.
  inversion H as [|? ? Hn Hns]; subst. specialize (IH v Hns). nia.
Qed.

Lemma cden_pos (p q : Z) (ns : list Z) : (0 < p < q)%Z -> Forall (fun n => 0 <= n)%Z ns ->
  (0 < cden p q ns)%Z.
Proof.
  intros Hpq Hns. induction Hns as [|n ns Hn Hns IH]; cbn [cden]; [lia|].
  pose proof (Z.pow_pos_nonneg q n ltac:(lia) Hn). pose proof (Z.pow_pos_nonneg p n ltac:(lia) Hn). nia.
Qed.

Lemma cnum_nonneg (p q : Z) (ns : list Z) : (0 < p < q)%Z -> Forall (fun n => 0 <= n)%Z ns ->
  (0 <= cnum p q ns)%Z.
Proof.
  intros Hpq Hns. induction Hns as [|n ns Hn Hns IH]; cbn [cnum]; [lia|].
  assert (p ^ n <= q ^ n)%Z by (apply Z.pow_le_mono_l; lia). nia.
Qed.

Definition rexps (L : positive) (ws : list (positive * positive)) : list Z := map (expo L) ws.

Lemma rexps_nonneg (L : positive) (ws : list (positive * positive)) :
  Forall (fun n => 0 <= n)%Z (rexps L ws).
Proof. apply Forall_forall. intros n Hn. apply in_map_iff in Hn as [w [<- _]]. apply expo_nonneg. Qed.

(** The density of a noise vector at ε = L·ln(q/p). *)
Lemma dens_rat (L : positive) (p q : Z) (ws : list (positive * positive)) (v : list Z) :
  (0 < p < q)%Z -> forallb (expo_ok L) ws = true -> length v = length ws ->
  dens (map (rate (eps_at L p q)) ws) v =
  IZR (cnum p q (rexps L ws)) / IZR (cden p q (rexps L ws)) * (IZR p / IZR q) ^ Z.to_nat (zexp (rexps L ws) v).
Proof.
  intros Hpq. revert v. induction ws as [|w ws IH]; intros [|z v] Hok Hl; cbn [length] in Hl; try lia.
  - cbn. field.
  - cbn [forallb] in Hok. apply andb_prop in Hok as [Hw Hok].
    cbn [map dens zexp cnum cden]. unfold rexps in *. cbn [map zexp cnum cden]. fold (rexps L ws).
    unfold rate at 1. rewrite (rate_expo L p q w Hw), dlaplace_rat by (exact Hpq || apply expo_nonneg).
    rewrite (IH v Hok ltac:(lia)).
    pose proof (expo_nonneg L w). pose proof (zexp_nonneg (rexps L ws) v (rexps_nonneg L ws)).
    rewrite Z2Nat.inj_add, pow_add by nia. rewrite !mult_IZR.
    pose proof (cden_pos p q (rexps L ws) Hpq (rexps_nonneg L ws)).
    assert (0 < IZR (cden p q (rexps L ws))) by (apply IZR_lt; lia).
    assert (0 < IZR (q ^ expo L w + p ^ expo L w)).
    { apply IZR_lt. pose proof (Z.pow_pos_nonneg q (expo L w) ltac:(lia) ltac:(lia)).
      pose proof (Z.pow_pos_nonneg p (expo L w) ltac:(lia) ltac:(lia)). lia. }
    change (map (expo L) ws) with (rexps L ws) in *.
    field. lra.
Qed.

(** ** Window sums as integers *)

(** p^e·q^(E − e) for the vector's exponent e. *)
Definition zterm (p q E : Z) (ns v : list Z) : Z := (p ^ zexp ns v * q ^ (E - zexp ns v))%Z.

Fixpoint zsum (p q E : Z) (ns : list Z) (b : list Z -> bool) (l : list (list Z)) : Z :=
  match l with
  | [] => 0%Z
  | v :: l' => ((if b v then zterm p q E ns v else 0) + zsum p q E ns b l')%Z
  end.

Lemma zterm_div (p q E e : Z) : (0 < p < q)%Z -> (0 <= e <= E)%Z ->
  (IZR p / IZR q) ^ Z.to_nat e = IZR (p ^ e * q ^ (E - e)) / IZR (q ^ E).
Proof.
  intros Hpq He. rewrite pq_pow, Z2Nat.id by (exact Hpq || lia).
  replace (q ^ E)%Z with (q ^ e * q ^ (E - e))%Z by (rewrite <- Z.pow_add_r by lia; f_equal; ring).
  rewrite !mult_IZR.
  assert (0 < IZR (q ^ e)) by (apply IZR_lt, Z.pow_pos_nonneg; lia).
  assert (0 < IZR (q ^ (E - e))) by (apply IZR_lt, Z.pow_pos_nonneg; lia).
  field. lra.
Qed.

(** The sum of the densities of the vectors of [l] where [b] holds. *)
Lemma fsum_rat (L : positive) (p q E : Z) (ws : list (positive * positive)) (b : list Z -> bool)
    (l : list (list Z)) :
  (0 < p < q)%Z -> forallb (expo_ok L) ws = true ->
  (forall v, In v l -> length v = length ws /\ (zexp (rexps L ws) v <= E)%Z) ->
  rsum (map (fun v => dens (map (rate (eps_at L p q)) ws) v * indicator (b v)) l) =
  IZR (cnum p q (rexps L ws)) / IZR (cden p q (rexps L ws)) * IZR (zsum p q E (rexps L ws) b l) / IZR (q ^ E).
Proof.
  intros Hpq Hok Hl. pose proof (cden_pos p q (rexps L ws) Hpq (rexps_nonneg L ws)).
  assert (0 < IZR (cden p q (rexps L ws))) by (apply IZR_lt; lia).
  induction l as [|v l IH]; cbn [zsum]; rewrite ?rsum_map_nil, ?rsum_map_cons.
  - unfold Rdiv. rewrite Rmult_0_r, Rmult_0_l. reflexivity.
  - rewrite IH by (intros u Hu; apply Hl; now right).
    destruct (Hl v (or_introl eq_refl)) as [Hv HE].
    pose proof (zexp_nonneg (rexps L ws) v (rexps_nonneg L ws)).
    assert (HqE : 0 < IZR (q ^ E)) by (apply IZR_lt, Z.pow_pos_nonneg; lia).
    rewrite plus_IZR. unfold indicator. destruct (b v).
    + rewrite (dens_rat L p q ws v Hpq Hok Hv), (zterm_div p q E) by (exact Hpq || lia).
      unfold zterm. field. lra.
    + field. lra.
Qed.
