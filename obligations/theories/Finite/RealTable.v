(** * Finite mechanisms with real entries, and rational brackets for them

    Mechanisms calibrated with e^ε (k-ary randomized response with keep
    probability e^ε/(e^ε + k − 1), the exponential mechanism) have entries that
    are reals, not rationals.  [rmech] is a finite table of reals; [rdp] is
    (ε, δ)-DP over events for it, the same statement as [dp] of DP.v.
    Its DP is proved two ways:
    - by a pointwise bound M(x)(y) ≤ e^ε · M(x')(y) ([rdp_of_pointwise]), as the
      family [krr_exp] does for every ε ≥ 0 and k ≥ 2 ([krr_exp_rdp]);
    - for an explicit table, from rational brackets lo ≤ M(x)(y) ≤ hi (each
      proved by [interval] in the generated file) and one boolean check on the
      brackets ([rdp_of_brackets]); the brackets also refute a claim when they
      show a violation ([not_rdp_of_brackets]).  The brackets are only a proof
      device: the theorems are about the table of reals. *)
From Coq Require Import List Arith Bool ZArith QArith Qminmax Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums SubDistr Privacy.
From Obligations.Finite Require Import Mechanism Neighbours.
Import ListNotations.

Record rmech := RMech {
  rn_in : nat;
  rn_out : nat;
  rrows : list (list R)
}.

Definition rentry (M : rmech) (x y : nat) : R := nth y (nth x (rrows M) []) 0%R.

(** [rpr M x S] is Pr[M(x) ∈ S]. *)
Definition rpr (M : rmech) (x : nat) (S : event) : R :=
  rsum (map (fun y => if S y then rentry M x y else 0%R) (seq 0 (rn_out M))).

(** (ε, δ)-DP for the neighbours [nb], over events: the statement of [dp] (DP.v). *)
Definition rdp (nb : nat -> nat -> bool) (M : rmech) (eps delta : R) : Prop :=
  forall x x', (x < rn_in M)%nat -> (x' < rn_in M)%nat -> nb x x' = true ->
  forall S : event, (rpr M x S <= exp eps * rpr M x' S + delta)%R.

(** Every row is a distribution: non-negative, total mass exactly 1. *)
Definition rdistr (M : rmech) : Prop :=
  forall x, (x < rn_in M)%nat ->
    (forall y, (y < rn_out M)%nat -> (0 <= rentry M x y)%R) /\ rpr M x everything = 1%R.

(** Each row is the core notion (Core/SubDistr.v) on the outputs [0 .. rn_out - 1]. *)
Lemma rpr_is_pr_on (M : rmech) (x : nat) (S : event) : rpr M x S = pr_on (seq 0 (rn_out M)) (rentry M x) S.
Proof. reflexivity. Qed.

Lemma rdistr_iff_distr_on (M : rmech) :
  rdistr M <-> forall x, (x < rn_in M)%nat -> distr_on (seq 0 (rn_out M)) (rentry M x).
Proof.
  split; intros H x Hx; destruct (H x Hx) as [Hnn Hs]; (split; [|exact Hs]);
    intros y Hy; apply Hnn; first [apply in_seq in Hy; lia|apply in_seq; lia].
Qed.

(** [rdp] is the core notion [dp_with] for the inputs of the table and [rpr]. *)
Lemma rdp_iff_dp_with (nb : nat -> nat -> bool) (M : rmech) (eps delta : R) :
  rdp nb M eps delta <->
  dp_with (fun x x' => (x < rn_in M)%nat /\ (x' < rn_in M)%nat /\ nb x x' = true) (rpr M) eps delta.
Proof.
  split; intros H.
  - intros x x' (Hx & Hx' & Hnb) S. exact (H x x' Hx Hx' Hnb S).
  - intros x x' Hx Hx' Hnb S. exact (H x x' (conj Hx (conj Hx' Hnb)) S).
Qed.

Section RealTable.
Local Open Scope R_scope.

(** ** DP from a pointwise bound *)

Lemma rdp_of_pointwise (nb : nat -> nat -> bool) (M : rmech) (eps : R) :
  (forall x x' y, (x < rn_in M)%nat -> (x' < rn_in M)%nat -> nb x x' = true -> (y < rn_out M)%nat ->
     0 <= rentry M x' y /\ rentry M x y <= exp eps * rentry M x' y) ->
  rdp nb M eps 0.
Proof.
  intros Hpt x x' Hx Hx' Hnb S. rewrite Rplus_0_r.
  unfold rpr. rewrite <- rsum_scal. apply rsum_le.
  intros y Hy. apply in_seq in Hy.
  destruct (S y); [|lra].
  apply (Hpt x x' y Hx Hx' Hnb). lia.
Qed.

(** Mechanisms with equal entries have the same DP: how a spec's table inherits a family's theorem. *)
Lemma rdp_entry_eq (nb : nat -> nat -> bool) (M M' : rmech) (eps delta : R) :
  rn_in M = rn_in M' -> rn_out M = rn_out M' ->
  (forall x y, (x < rn_in M)%nat -> (y < rn_out M)%nat -> rentry M x y = rentry M' x y) ->
  rdp nb M eps delta -> rdp nb M' eps delta.
Proof.
  intros Hin Hout He HM x x' Hx Hx' Hnb S.
  rewrite <- Hin in Hx, Hx'.
  assert (Hpr : forall z, (z < rn_in M)%nat -> rpr M z S = rpr M' z S).
  { intros z Hz. unfold rpr. rewrite <- Hout. apply rsum_ext_in.
    intros y Hy. apply in_seq in Hy. destruct (S y); [|reflexivity]. apply He; lia. }
  rewrite <- !Hpr by assumption. apply HM; assumption.
Qed.

(** DP for all pairs of inputs is DP for any neighbour relation. *)
Lemma rdp_of_all (nb : nat -> nat -> bool) (M : rmech) (eps delta : R) :
  rdp nb_all M eps delta -> rdp nb M eps delta.
Proof. intros H x x' Hx Hx' _. exact (H x x' Hx Hx' eq_refl). Qed.

(** ** Rational brackets *)

Definition qentry (t : list (list Q)) (x y : nat) : Q := nth y (nth x t []) 0%Q.

(** Every entry of [M] lies between the rationals of [lo] and [hi]. *)
Definition bracketed (M : rmech) (lo hi : list (list Q)) : Prop :=
  forall x y, (x < rn_in M)%nat -> (y < rn_out M)%nat ->
    Q2R (qentry lo x y) <= rentry M x y <= Q2R (qentry hi x y).

(** The check on the brackets: for all neighbours and outputs, 0 ≤ lo(x', y) and
    hi(x, y) ≤ L · lo(x', y). *)
Definition check_brackets (nb : nat -> nat -> bool) (n m : nat) (lo hi : list (list Q)) (L : Q) : bool :=
  forallb (fun x => forallb (fun x' => implb (nb x x')
    (forallb (fun y => Qle_bool 0 (qentry lo x' y) && Qle_bool (qentry hi x y) (L * qentry lo x' y))
       (seq 0 m))) (seq 0 n)) (seq 0 n).

Lemma check_brackets_sound nb n m lo hi L x x' y :
  check_brackets nb n m lo hi L = true -> (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> (y < m)%nat ->
  (0 <= qentry lo x' y /\ qentry hi x y <= L * qentry lo x' y)%Q.
Proof.
  intros H Hx Hx' Hnb Hy. unfold check_brackets in H.
  rewrite forallb_forall in H. specialize (H x (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hx))).
  rewrite forallb_forall in H. specialize (H x' (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hx'))).
  rewrite Hnb in H. cbn [implb] in H.
  rewrite forallb_forall in H. specialize (H y (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hy))).
  apply andb_prop in H as [H1 H2]. split; apply Qle_bool_imp_le; assumption.
Qed.

Theorem rdp_of_brackets (nb : nat -> nat -> bool) (M : rmech) (lo hi : list (list Q)) (L : Q) (eps : R) :
  bracketed M lo hi -> check_brackets nb (rn_in M) (rn_out M) lo hi L = true ->
  Q2R L <= exp eps -> rdp nb M eps 0.
Proof.
  intros Hb Hc HL. apply rdp_of_pointwise.
  intros x x' y Hx Hx' Hnb Hy.
  destruct (check_brackets_sound _ _ _ _ _ _ _ _ _ Hc Hx Hx' Hnb Hy) as [H0 H1].
  apply Qle_Rle in H0, H1. rewrite q2r_0 in H0. rewrite Q2R_mult in H1.
  destruct (Hb x y Hx Hy) as [_ Hhi]. destruct (Hb x' y Hx' Hy) as [Hlo _].
  split; [lra|].
  apply Rle_trans with (Q2R (qentry hi x y)); [exact Hhi|].
  apply Rle_trans with (Q2R L * Q2R (qentry lo x' y)); [exact H1|].
  apply Rle_trans with (exp eps * Q2R (qentry lo x' y)).
  - apply Rmult_le_compat_r; assumption.
  - apply Rmult_le_compat_l; [apply exp_nonneg|exact Hlo].
Qed.

(** Pr[M(x) ∈ {y}] is the entry. *)
Lemma rpr_single (M : rmech) (x y : nat) :
  (y < rn_out M)%nat -> rpr M x (fun z => Nat.eqb z y) = rentry M x y.
Proof.
  intros Hy. unfold rpr.
  rewrite (rsum_single Nat.eq_dec _ _ y).
  - rewrite Nat.eqb_refl. reflexivity.
  - apply seq_NoDup.
  - apply in_seq. lia.
  - intros z Hz. apply Nat.eqb_neq in Hz. rewrite Hz. reflexivity.
Qed.

(** One output refutes (ε, δ)-DP: Pr[M(x) = y] > e^ε · Pr[M(x') = y] + δ for neighbours x, x'. *)
Theorem not_rdp_of_entry (nb : nat -> nat -> bool) (M : rmech) (x x' y : nat) (eps delta : R) :
  (x < rn_in M)%nat -> (x' < rn_in M)%nat -> nb x x' = true -> (y < rn_out M)%nat ->
  exp eps * rentry M x' y + delta < rentry M x y -> ~ rdp nb M eps delta.
Proof.
  intros Hx Hx' Hnb Hy Hlt H.
  specialize (H x x' Hx Hx' Hnb (fun z => Nat.eqb z y)).
  rewrite !rpr_single in H by exact Hy. lra.
Qed.

(** The brackets refute (ε, δ)-DP: for neighbours x, x' and one output y,
    lo(x, y) > U · hi(x', y) + δ with e^ε ≤ U (and 0 ≤ lo(x', y)), so Pr[M(x) = y] > e^ε · Pr[M(x') = y] + δ. *)
Definition check_bracket_witness (lo hi : list (list Q)) (x x' y : nat) (U delta : Q) : bool :=
  Qle_bool 0 (qentry lo x' y) && negb (Qle_bool (qentry lo x y) (U * qentry hi x' y + delta)).

Theorem not_rdp_of_brackets (nb : nat -> nat -> bool) (M : rmech) (lo hi : list (list Q))
    (x x' y : nat) (U dq : Q) (eps delta : R) :
  (x < rn_in M)%nat -> (x' < rn_in M)%nat -> nb x x' = true -> (y < rn_out M)%nat ->
  bracketed M lo hi -> check_bracket_witness lo hi x x' y U dq = true ->
  exp eps <= Q2R U -> delta = Q2R dq -> ~ rdp nb M eps delta.
Proof.
  intros Hx Hx' Hnb Hy Hb Hc HU -> H.
  specialize (H x x' Hx Hx' Hnb (fun z => Nat.eqb z y)).
  rewrite !rpr_single in H by exact Hy.
  unfold check_bracket_witness in Hc. apply andb_prop in Hc as [H0 Hlt].
  apply Qle_bool_imp_le, Qle_Rle in H0. rewrite q2r_0 in H0.
  apply negb_true_iff in Hlt.
  assert (Hq : (U * qentry hi x' y + dq < qentry lo x y)%Q).
  { apply Qnot_le_lt. intros Hle. apply Qle_bool_iff in Hle. rewrite Hle in Hlt. discriminate. }
  apply Qlt_Rlt in Hq. rewrite Q2R_plus, Q2R_mult in Hq.
  destruct (Hb x y Hx Hy) as [Hlo _]. destruct (Hb x' y Hx' Hy) as [_ Hhi].
  destruct (Hb x' y Hx' Hy) as [Hl' _].
  assert (exp eps * rentry M x' y <= Q2R U * Q2R (qentry hi x' y)).
  { apply Rle_trans with (Q2R U * rentry M x' y).
    - apply Rmult_le_compat_r; [lra|exact HU].
    - apply Rmult_le_compat_l; [|exact Hhi]. pose proof (exp_pos eps). lra. }
  lra.
Qed.

(** ** (ε, δ)-DP from the brackets: the hockey-stick check

    For all neighbours x, x': 0 ≤ lo(x', y) for every output, and
    Σ_y max(0, hi(x, y) − L·lo(x', y)) ≤ δ with L ≤ e^ε.  Each entry then satisfies
    M(x)(y) ≤ e^ε·M(x')(y) + max(0, hi(x, y) − L·lo(x', y)), and summing over an event gives
    Pr[M(x) ∈ S] ≤ e^ε·Pr[M(x') ∈ S] + δ. *)
Definition bracket_excess (lo hi : list (list Q)) (L : Q) (x x' y : nat) : Q :=
  Qmax 0 (qentry hi x y - L * qentry lo x' y).

Definition check_brackets_delta (nb : nat -> nat -> bool) (n m : nat) (lo hi : list (list Q)) (L dq : Q) : bool :=
  forallb (fun x => forallb (fun x' => implb (nb x x')
    (forallb (fun y => Qle_bool 0 (qentry lo x' y)) (seq 0 m) &&
     Qle_bool (qsum (map (bracket_excess lo hi L x x') (seq 0 m))) dq)) (seq 0 n)) (seq 0 n).

Lemma check_brackets_delta_sound nb n m lo hi L dq x x' :
  check_brackets_delta nb n m lo hi L dq = true -> (x < n)%nat -> (x' < n)%nat -> nb x x' = true ->
  (forall y, (y < m)%nat -> 0 <= qentry lo x' y)%Q /\
  (qsum (map (bracket_excess lo hi L x x') (seq 0 m)) <= dq)%Q.
Proof.
  intros H Hx Hx' Hnb. unfold check_brackets_delta in H.
  rewrite forallb_forall in H. specialize (H x (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hx))).
  rewrite forallb_forall in H. specialize (H x' (proj2 (in_seq _ _ _) (conj (Nat.le_0_l _) Hx'))).
  rewrite Hnb in H. cbn [implb] in H. apply andb_prop in H as [H1 H2].
  split.
  - intros y Hy. rewrite forallb_forall in H1.
    apply Qle_bool_imp_le, H1, in_seq. lia.
  - apply Qle_bool_imp_le, H2.
Qed.

Theorem rdp_of_brackets_delta (nb : nat -> nat -> bool) (M : rmech) (lo hi : list (list Q)) (L dq : Q)
    (eps delta : R) :
  bracketed M lo hi -> check_brackets_delta nb (rn_in M) (rn_out M) lo hi L dq = true ->
  Q2R L <= exp eps -> delta = Q2R dq -> rdp nb M eps delta.
Proof.
  intros Hb Hc HL -> x x' Hx Hx' Hnb S.
  destruct (check_brackets_delta_sound _ _ _ _ _ _ _ _ _ Hc Hx Hx' Hnb) as [H0 Hsum].
  apply Qle_Rle in Hsum. rewrite qsum_correct, map_map in Hsum.
  unfold rpr. rewrite <- rsum_scal.
  apply Rle_trans with (rsum (map (fun y => (exp eps * (if S y then rentry M x' y else 0)) +
                                            Q2R (bracket_excess lo hi L x x' y)) (seq 0 (rn_out M)))).
  - apply rsum_le. intros y Hy. apply in_seq in Hy.
    assert (Hy' : (y < rn_out M)%nat) by lia.
    destruct (Hb x y Hx Hy') as [_ Hhi]. destruct (Hb x' y Hx' Hy') as [Hlo _].
    pose proof (H0 y Hy') as Hl0. apply Qle_Rle in Hl0. rewrite q2r_0 in Hl0.
    assert (Hex : Q2R (qentry hi x y) - Q2R L * Q2R (qentry lo x' y) <= Q2R (bracket_excess lo hi L x x' y)).
    { unfold bracket_excess. rewrite <- Q2R_mult, <- Q2R_minus. apply Qle_Rle, Q.le_max_r. }
    assert (Hex0 : 0 <= Q2R (bracket_excess lo hi L x x' y)).
    { unfold bracket_excess. rewrite <- q2r_0. apply Qle_Rle, Q.le_max_l. }
    assert (HLlo : Q2R L * Q2R (qentry lo x' y) <= exp eps * rentry M x' y).
    { apply Rle_trans with (exp eps * Q2R (qentry lo x' y)).
      - apply Rmult_le_compat_r; assumption.
      - apply Rmult_le_compat_l; [apply exp_nonneg|exact Hlo]. }
    destruct (S y); lra.
  - rewrite rsum_plus. apply Rplus_le_compat_l. exact Hsum.
Qed.

(** The brackets refute (ε, δ)-DP on a set of outputs S (a list): Σ_{y ∈ S} lo(x, y) >
    U·Σ_{y ∈ S} hi(x', y) + δ with e^ε ≤ U. *)
Definition in_list (ys : list nat) : event := fun z => existsb (Nat.eqb z) ys.

Definition check_bracket_set_witness (m : nat) (lo hi : list (list Q)) (x x' : nat) (ys : list nat) (U dq : Q) : bool :=
  let lx := qsum (map (fun y => if in_list ys y then qentry lo x y else 0%Q) (seq 0 m)) in
  let hx' := qsum (map (fun y => if in_list ys y then qentry hi x' y else 0%Q) (seq 0 m)) in
  Qle_bool 0 hx' && negb (Qle_bool lx (U * hx' + dq)).

Theorem not_rdp_of_bracket_set (nb : nat -> nat -> bool) (M : rmech) (lo hi : list (list Q))
    (x x' : nat) (ys : list nat) (U dq : Q) (eps delta : R) :
  (x < rn_in M)%nat -> (x' < rn_in M)%nat -> nb x x' = true ->
  bracketed M lo hi -> check_bracket_set_witness (rn_out M) lo hi x x' ys U dq = true ->
  exp eps <= Q2R U -> delta = Q2R dq -> ~ rdp nb M eps delta.
Proof.
  intros Hx Hx' Hnb Hb Hc HU -> H.
  specialize (H x x' Hx Hx' Hnb (in_list ys)).
  unfold check_bracket_set_witness in Hc. apply andb_prop in Hc as [H0 Hlt].
  apply Qle_bool_imp_le, Qle_Rle in H0. rewrite q2r_0 in H0.
  apply negb_true_iff in Hlt.
  set (lx := qsum (map (fun y => if in_list ys y then qentry lo x y else 0%Q) (seq 0 (rn_out M)))) in *.
  set (hx' := qsum (map (fun y => if in_list ys y then qentry hi x' y else 0%Q) (seq 0 (rn_out M)))) in *.
  assert (Hq : (U * hx' + dq < lx)%Q).
  { apply Qnot_le_lt. intros Hle. apply Qle_bool_iff in Hle. rewrite Hle in Hlt. discriminate. }
  apply Qlt_Rlt in Hq. rewrite Q2R_plus, Q2R_mult in Hq.
  assert (Hpx : Q2R lx <= rpr M x (in_list ys)).
  { unfold lx. rewrite qsum_correct, map_map. unfold rpr. apply rsum_le. intros y Hy. apply in_seq in Hy.
    destruct (in_list ys y); [apply (Hb x y Hx); lia|rewrite q2r_0; lra]. }
  assert (Hpx' : rpr M x' (in_list ys) <= Q2R hx').
  { unfold hx'. rewrite qsum_correct, map_map. unfold rpr. apply rsum_le. intros y Hy. apply in_seq in Hy.
    destruct (in_list ys y); [apply (Hb x' y Hx'); lia|rewrite q2r_0; lra]. }
  assert (exp eps * rpr M x' (in_list ys) <= Q2R U * Q2R hx').
  { apply Rle_trans with (exp eps * Q2R hx').
    - apply Rmult_le_compat_l; [apply exp_nonneg|exact Hpx'].
    - apply Rmult_le_compat_r; [exact H0|exact HU]. }
  lra.
Qed.

End RealTable.
