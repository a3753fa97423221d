(** * Basic composition: (ε1 + ε2, δ1 + δ2), adaptive, for finite mechanisms

    [fmech_adaptive M1 m2 M2] runs [M1] on the input, then the mechanism
    [M2 y1] chosen from [M1]'s output [y1], on the same input with independent
    noise; output [y1 * m2 + y2] (the layout of [fmech_product]).
    [dp_adaptive]: if [M1] is (ε1, δ1)-DP and every [M2 y1] is (ε2, δ2)-DP
    (sub-distributions, δ2 ≥ 0), the composition is (ε1 + ε2, δ1 + δ2)-DP, over
    events.  [dp_power_basic]: the k-fold composition [fmech_power M k] of an
    (ε, δ)-DP mechanism is (k·ε, k·δ)-DP, without its table. *)
From Coq Require Import List Arith Lia Reals Lra QArith Qpower Qreals.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Checker CheckerSound Compose Region Family.
Import ListNotations.

Definition adaptive_row (M1 : fmech) (m2 : nat) (M2 : nat -> fmech) (x : nat) : list Q :=
  flat_map (fun y1 => map (fun y2 => entry M1 x y1 * entry (M2 y1) x y2)%Q (seq 0 m2))
           (seq 0 (n_out M1)).

Definition fmech_adaptive (M1 : fmech) (m2 : nat) (M2 : nat -> fmech) : fmech :=
  FMech (n_in M1) (n_out M1 * m2) (map (adaptive_row M1 m2 M2) (seq 0 (n_in M1))).

Lemma adaptive_entry (M1 : fmech) (m2 : nat) (M2 : nat -> fmech) (x y1 y2 : nat) :
  (x < n_in M1)%nat -> (y1 < n_out M1)%nat -> (y2 < m2)%nat ->
  entry (fmech_adaptive M1 m2 M2) x (y1 * m2 + y2) = (entry M1 x y1 * entry (M2 y1) x y2)%Q.
Proof.
  intros Hx Hy1 Hy2. unfold entry at 1, fmech_adaptive. cbn [rows].
  rewrite nth_map_seq by exact Hx. unfold adaptive_row.
  rewrite (nth_flat_map_const _ m2 _ y1 y2 0%Q 0%nat);
    [| intros; rewrite map_length, seq_length; reflexivity | exact Hy2 | rewrite seq_length; exact Hy1].
  rewrite seq_nth by exact Hy1. cbn [Nat.add]. rewrite nth_map_seq by exact Hy2. reflexivity.
Qed.

Lemma seq_offset (s n : nat) : seq s n = map (fun i => s + i)%nat (seq 0 n).
Proof.
  induction n as [|n IH]; [reflexivity|].
  rewrite !seq_S, map_app, IH. reflexivity.
Qed.

(** A sum over [0 .. m1·m2 − 1] as a double sum over [y1 < m1], [y2 < m2]. *)
Lemma rsum_seq_mul (f : nat -> R) (m1 m2 : nat) :
  rsum (map f (seq 0 (m1 * m2))) =
  rsum (map (fun y1 => rsum (map (fun y2 => f (y1 * m2 + y2)%nat) (seq 0 m2))) (seq 0 m1)).
Proof.
  induction m1 as [|m1 IH]; [reflexivity|].
  replace (S m1 * m2)%nat with (m1 * m2 + m2)%nat by lia.
  rewrite seq_app, map_app, rsum_app, IH, seq_S, map_app, rsum_app. cbn [map].
  rewrite rsum_cons, rsum_nil, Rplus_0_r. f_equal.
  rewrite seq_offset, map_map. reflexivity.
Qed.

(** Pr[composition on x ∈ S] = Σ_{y1} M1(x)(y1) · Pr[M2 y1 on x ∈ S's section at y1]. *)
Lemma pr_adaptive (M1 : fmech) (m2 : nat) (M2 : nat -> fmech) (x : nat) (S : event) :
  (x < n_in M1)%nat -> (forall y1, n_out (M2 y1) = m2) ->
  pr (fmech_adaptive M1 m2 M2) x S =
  rsum (map (fun y1 => prob M1 x y1 * pr (M2 y1) x (fun y2 => S (y1 * m2 + y2)%nat))%R
            (seq 0 (n_out M1))).
Proof.
  intros Hx Hout. unfold pr at 1. cbn [n_out fmech_adaptive]. rewrite rsum_seq_mul.
  apply rsum_ext_in. intros y1 Hy1. apply in_seq in Hy1.
  unfold pr. rewrite Hout, <- rsum_scal. apply rsum_ext_in. intros y2 Hy2. apply in_seq in Hy2.
  destruct (S (y1 * m2 + y2)%nat); [|ring].
  unfold prob. rewrite adaptive_entry by lia. apply Q2R_mult.
Qed.

Lemma pr_le_everything (M : fmech) (x : nat) (S : event) :
  (forall y, (y < n_out M)%nat -> (0 <= prob M x y)%R) -> (pr M x S <= pr M x everything)%R.
Proof.
  intros Hnn. unfold pr, everything. apply rsum_le. intros y Hy. apply in_seq in Hy.
  destruct (S y); [lra|]. apply Hnn. lia.
Qed.

(** The adaptive composition of sub-distributions is one. *)
Lemma subdistr_adaptive (M1 : fmech) (m2 : nat) (M2 : nat -> fmech) :
  subdistr M1 -> (forall y1, n_in (M2 y1) = n_in M1 /\ n_out (M2 y1) = m2 /\ subdistr (M2 y1)) ->
  subdistr (fmech_adaptive M1 m2 M2).
Proof.
  intros H1 H2 x Hx. cbn [n_in fmech_adaptive] in Hx.
  assert (Hout : forall y1, n_out (M2 y1) = m2) by (intros; apply H2).
  destruct (H1 x Hx) as [Hnn1 Hsum1]. split.
  - intros y Hy. cbn [n_out fmech_adaptive] in Hy.
    assert (Hm2 : m2 <> 0%nat) by (intros ->; lia).
    rewrite (Nat.div_mod y m2 Hm2), Nat.mul_comm. unfold prob.
    assert (Hq : (y / m2 < n_out M1)%nat) by (apply Nat.div_lt_upper_bound; lia).
    assert (Hr : (y mod m2 < m2)%nat) by (apply Nat.mod_upper_bound, Hm2).
    rewrite adaptive_entry, Q2R_mult by assumption.
    destruct (H2 (y / m2)%nat) as (Hin2 & Hout2 & Hsub2).
    apply Rmult_le_pos; [apply Hnn1, Hq|].
    apply (proj1 (Hsub2 x ltac:(lia))). lia.
  - rewrite pr_adaptive by assumption.
    apply Rle_trans with (rsum (map (prob M1 x) (seq 0 (n_out M1)))).
    + apply rsum_le. intros y1 Hy1. apply in_seq in Hy1.
      destruct (H2 y1) as (Hin2 & _ & Hsub2). destruct (Hsub2 x ltac:(lia)) as [Hnn2 Hs2].
      assert (Hle : (pr (M2 y1) x (fun y2 => everything (y1 * m2 + y2)%nat) <= 1)%R).
      { apply Rle_trans with (pr (M2 y1) x everything); [apply pr_le_everything, Hnn2|exact Hs2]. }
      assert (H0 : (0 <= prob M1 x y1)%R) by (apply Hnn1; lia).
      nra.
    + exact Hsum1.
Qed.

(** ** Basic composition, adaptive *)
Theorem dp_adaptive (nb : nat -> nat -> bool) (M1 : fmech) (m2 : nat) (M2 : nat -> fmech)
    (e1 e2 d1 d2 : R) :
  subdistr M1 -> (forall y1, n_in (M2 y1) = n_in M1 /\ n_out (M2 y1) = m2 /\ subdistr (M2 y1)) ->
  (0 <= d2)%R -> dp nb M1 e1 d1 -> (forall y1, (y1 < n_out M1)%nat -> dp nb (M2 y1) e2 d2) ->
  dp nb (fmech_adaptive M1 m2 M2) (e1 + e2) (d1 + d2).
Proof.
  intros H1 H2 Hd2 Hdp1 Hdp2 x x' Hx Hx' Hnb S. cbn [n_in fmech_adaptive] in Hx, Hx'.
  assert (Hout : forall y1, n_out (M2 y1) = m2) by (intros; apply H2).
  rewrite !pr_adaptive by assumption.
  set (sec := fun y1 y2 => S (y1 * m2 + y2)%nat).
  set (q := fun y1 => pr (M2 y1) x' (sec y1)).
  set (h := fun y1 => Rmin 1 (exp e2 * q y1)).
  destruct (H1 x Hx) as [Hnn1 Hsum1]. destruct (H1 x' Hx') as [Hnn1' _].
  (* Each section: Pr[M2 y1 on x ∈ S_y1] ≤ min(1, e^ε2 q) + δ2. *)
  assert (Ha : forall y1, (y1 < n_out M1)%nat -> (pr (M2 y1) x (sec y1) <= h y1 + d2)%R).
  { intros y1 Hy1. destruct (H2 y1) as (Hin2 & _ & Hsub2).
    pose proof (Hdp2 y1 Hy1 x x' ltac:(lia) ltac:(lia) Hnb (sec y1)) as Hd.
    destruct (Hsub2 x ltac:(lia)) as [Hnn2 Hs2].
    assert (Hle1 : (pr (M2 y1) x (sec y1) <= 1)%R)
      by (apply Rle_trans with (pr (M2 y1) x everything); [apply pr_le_everything, Hnn2|exact Hs2]).
    unfold h, q. apply Rmin_case_strong; intros; lra. }
  assert (Hq0 : forall y1, (y1 < n_out M1)%nat -> (0 <= q y1)%R).
  { intros y1 Hy1. destruct (H2 y1) as (Hin2 & _ & Hsub2). unfold q.
    apply pr_nonneg. apply (Hsub2 x' ltac:(lia)). }
  assert (Htest : test M1 h).
  { intros y1 Hy1. unfold h. split.
    - apply Rmin_glb; [lra|]. apply Rmult_le_pos; [apply exp_nonneg|apply Hq0, Hy1].
    - apply Rmin_l. }
  (* Step 1: the sections' δ2, at most once in total. *)
  assert (Hstep1 : (rsum (map (fun y1 => prob M1 x y1 * pr (M2 y1) x (sec y1)) (seq 0 (n_out M1)))
                    <= wsum M1 x h + d2)%R).
  { unfold wsum. apply Rle_trans with
      (rsum (map (fun y1 => h y1 * prob M1 x y1 + d2 * prob M1 x y1) (seq 0 (n_out M1))))%R.
    - apply rsum_le. intros y1 Hy1. apply in_seq in Hy1.
      assert (H0 : (0 <= prob M1 x y1)%R) by (apply Hnn1; lia).
      pose proof (Ha y1 ltac:(lia)). nra.
    - rewrite rsum_plus, rsum_scal.
      assert (Hs : (rsum (map (prob M1 x) (seq 0 (n_out M1))) <= 1)%R) by exact Hsum1.
      apply Rplus_le_compat_l. rewrite <- (Rmult_1_r d2) at 2. apply Rmult_le_compat_l; assumption. }
  (* Step 2: M1's DP applied to the test h ∈ [0, 1]. *)
  pose proof (dp_test nb M1 e1 d1 Hdp1 x x' Hx Hx' Hnb h Htest) as Hstep2.
  (* Step 3: h ≤ e^ε2 q. *)
  assert (Hstep3 : (wsum M1 x' h <=
                    exp e2 * rsum (map (fun y1 => prob M1 x' y1 * q y1) (seq 0 (n_out M1))))%R).
  { unfold wsum. rewrite <- rsum_scal. apply rsum_le. intros y1 Hy1. apply in_seq in Hy1.
    assert (H0 : (0 <= prob M1 x' y1)%R) by (apply Hnn1'; lia).
    assert (Hh : (h y1 <= exp e2 * q y1)%R) by apply Rmin_r. nra. }
  rewrite exp_plus.
  assert (He1 : (0 <= exp e1)%R) by apply exp_nonneg.
  apply Rmult_le_compat_l with (r := exp e1) in Hstep3; [|exact He1].
  unfold h, q, sec in *. cbv beta in *. rewrite Rmult_assoc. lra.
Qed.

(** ** The product is the adaptive composition with a constant second mechanism *)

Lemma fmech_product_entry (M1 M2 : fmech) (x y1 y2 : nat) :
  fmech_wf M1 -> fmech_wf M2 -> n_in M2 = n_in M1 ->
  (x < n_in M1)%nat -> (y1 < n_out M1)%nat -> (y2 < n_out M2)%nat ->
  entry (fmech_product M1 M2) x (y1 * n_out M2 + y2) = (entry M1 x y1 * entry M2 x y2)%Q.
Proof.
  intros [Hn1 Hr1] [Hn2 Hr2] Hin Hx Hy1 Hy2. unfold entry, fmech_product. cbn [rows].
  rewrite nth_indep with (d' := (fun '(r1, r2) => row_product r1 r2) ([], []))
    by (rewrite map_length, combine_length, Hn1, Hn2, Hin, Nat.min_id; exact Hx).
  change (row_product [] []) with ((fun '(r1, r2) => row_product r1 r2) (@nil Q, @nil Q)).
  rewrite map_nth, combine_nth by (rewrite Hn1, Hn2; symmetry; exact Hin). cbv beta iota.
  assert (H1 : In (nth x (rows M1) []) (rows M1)) by (apply nth_In; lia).
  assert (H2' : In (nth x (rows M2) []) (rows M2)) by (apply nth_In; lia).
  rewrite <- (Hr2 _ H2'), row_product_nth; [reflexivity| |].
  - rewrite (Hr1 _ H1). exact Hy1.
  - rewrite (Hr2 _ H2'). exact Hy2.
Qed.

Lemma product_adaptive_entries (M1 M2 : fmech) :
  fmech_wf M1 -> fmech_wf M2 -> n_in M2 = n_in M1 ->
  forall x y, (x < n_in (fmech_adaptive M1 (n_out M2) (fun _ => M2)))%nat ->
  (y < n_out (fmech_adaptive M1 (n_out M2) (fun _ => M2)))%nat ->
  entry (fmech_adaptive M1 (n_out M2) (fun _ => M2)) x y == entry (fmech_product M1 M2) x y.
Proof.
  intros W1 W2 Hin x y Hx Hy. cbn [n_in n_out fmech_adaptive] in Hx, Hy.
  assert (Hm2 : n_out M2 <> 0%nat) by (intros E; rewrite E in Hy; lia).
  rewrite (Nat.div_mod y (n_out M2) Hm2), Nat.mul_comm.
  assert (Hq : (y / n_out M2 < n_out M1)%nat) by (apply Nat.div_lt_upper_bound; lia).
  assert (Hr : (y mod n_out M2 < n_out M2)%nat) by (apply Nat.mod_upper_bound, Hm2).
  rewrite adaptive_entry, fmech_product_entry by assumption. reflexivity.
Qed.

Lemma subdistr_entry_eq (M M' : fmech) :
  n_in M = n_in M' -> n_out M = n_out M' ->
  (forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> entry M x y == entry M' x y) ->
  subdistr M -> subdistr M'.
Proof.
  intros Hin Hout He HM x Hx. rewrite <- Hin in Hx.
  destruct (HM x Hx) as [Hnn Hsum]. split.
  - intros y Hy. rewrite <- Hout in Hy. unfold prob.
    rewrite <- (Qeq_eqR _ _ (He x y Hx Hy)). apply Hnn, Hy.
  - rewrite <- (pr_entry_eq M M') by (try exact Hout; intros y Hy; apply He; assumption).
    exact Hsum.
Qed.

Lemma nth_repeat_lt {A} (a d : A) (n i : nat) : (i < n)%nat -> nth i (repeat a n) d = a.
Proof. intros Hi. rewrite nth_indep with (d' := a) by (rewrite repeat_length; exact Hi). apply nth_repeat. Qed.

Lemma dp_unit (nb : nat -> nat -> bool) (n : nat) : dp nb (fmech_unit n) 0 0.
Proof.
  intros x x' Hx Hx' _ S. cbn [n_in fmech_unit] in Hx, Hx'.
  assert (E : forall z, (z < n)%nat -> pr (fmech_unit n) z S = pr (fmech_unit n) 0 S).
  { intros z Hz. unfold pr, prob, entry. cbn [n_out fmech_unit rows].
    apply rsum_ext_in. intros y Hy. apply in_seq in Hy.
    rewrite !nth_repeat_lt by lia. reflexivity. }
  rewrite (E x Hx), (E x' Hx'), exp_0. lra.
Qed.

Lemma subdistr_unit (n : nat) : subdistr (fmech_unit n).
Proof.
  intros x Hx. cbn [n_in fmech_unit] in Hx.
  assert (E : forall y, (y < 1)%nat -> prob (fmech_unit n) x y = 1%R).
  { intros y Hy. unfold prob, entry. cbn [rows fmech_unit].
    rewrite nth_repeat_lt by exact Hx. replace y with 0%nat by lia. apply q2r_1. }
  split.
  - intros y Hy. rewrite E by exact Hy. lra.
  - unfold pr, everything. cbn [n_out fmech_unit seq map]. rewrite rsum_cons, rsum_nil, E by lia. lra.
Qed.

Lemma fmech_power_dims (M : fmech) (k : nat) :
  n_in (fmech_power M k) = n_in M /\ n_out (fmech_power M k) = (n_out M ^ k)%nat.
Proof.
  induction k as [|k [H1 H2]]; [split; reflexivity|].
  cbn [fmech_power fmech_product n_in n_out]. rewrite H2. split; reflexivity.
Qed.

(** ** k-fold composition: (k·ε, k·δ), proved once, no table *)
Theorem dp_power_basic (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) (k : nat) :
  fmech_wf M -> subdistr M -> (0 <= delta)%R -> dp nb M eps delta ->
  dp nb (fmech_power M k) (INR k * eps) (INR k * delta) /\ subdistr (fmech_power M k).
Proof.
  intros W HM Hd HDP. induction k as [|k [IHdp IHsub]].
  - cbn [fmech_power INR]. rewrite !Rmult_0_l. split; [apply dp_unit|apply subdistr_unit].
  - destruct (fmech_power_wf M k W) as [Hpn Hpr].
    destruct (fmech_power_dims M k) as [Hin Hout].
    assert (Wk : fmech_wf (fmech_power M k)) by (split; [rewrite Hpn, Hin; reflexivity|rewrite Hout; exact Hpr]).
    assert (Hdims : forall y1 : nat, n_in ((fun _ => fmech_power M k) y1) = n_in M /\
                    n_out ((fun _ => fmech_power M k) y1) = n_out (fmech_power M k) /\
                    subdistr ((fun _ => fmech_power M k) y1)) by (intros; auto).
    assert (Hn : n_in (fmech_adaptive M (n_out (fmech_power M k)) (fun _ => fmech_power M k)) =
                 n_in (fmech_power M (S k))) by reflexivity.
    assert (Ho : n_out (fmech_adaptive M (n_out (fmech_power M k)) (fun _ => fmech_power M k)) =
                 n_out (fmech_power M (S k))) by reflexivity.
    pose proof (product_adaptive_entries M (fmech_power M k) W Wk Hin) as He.
    cbn [fmech_power]. split.
    + rewrite S_INR, !Rmult_plus_distr_r, !Rmult_1_l, (Rplus_comm (INR k * eps)),
        (Rplus_comm (INR k * delta)).
      apply (dp_entry_eq _ _ _ _ _ Hn Ho He).
      apply dp_adaptive; [exact HM|exact Hdims|apply Rmult_le_pos; [apply pos_INR|exact Hd]|exact HDP|].
      intros; exact IHdp.
    + apply (subdistr_entry_eq _ _ Hn Ho He), subdistr_adaptive; [exact HM|exact Hdims].
Qed.

(** The form a certificate uses: a claim (ε', δ') at least k times the single run's. *)
Corollary dp_power_basic_le (nb : nat -> nat -> bool) (M : fmech) (eps delta eps' delta' : R) (k : nat) :
  fmech_wf M -> subdistr M -> (0 <= delta)%R -> dp nb M eps delta ->
  (INR k * eps <= eps')%R -> (INR k * delta <= delta')%R -> dp nb (fmech_power M k) eps' delta'.
Proof.
  intros W HM Hd HDP He Hd' x x' Hx Hx' Hnb S.
  destruct (dp_power_basic nb M eps delta k W HM Hd HDP) as [H Hsub].
  specialize (H x x' Hx Hx' Hnb S).
  assert (Hp : (0 <= pr (fmech_power M k) x' S)%R) by (apply pr_nonneg, (Hsub x' Hx')).
  apply exp_le_iff in He.
  apply Rmult_le_compat_r with (r := pr (fmech_power M k) x' S) in He; [|exact Hp].
  lra.
Qed.

(** ** The form generated files use: rational bounds, checked by computation

    The single run [M] is (ln L, d0)-DP (its table checked with the bound L); then
    [fmech_power M k] is (ε, δ)-DP as soon as L^k ≤ e^ε and k·d0 ≤ δ.  A certificate
    made this way is the basic-composition bound, not the exact curve. *)
Lemma q2r_qpower_nat (L : Q) (k : nat) : ~ L == 0 -> Q2R (L ^ Z.of_nat k) = (Q2R L ^ k)%R.
Proof.
  intros HL. induction k as [|k IH]; [apply q2r_1|].
  rewrite Nat2Z.inj_succ, <- Z.add_1_r.
  rewrite (Qeq_eqR _ _ (Qpower_plus L (Z.of_nat k) 1 HL)), Q2R_mult, IH. cbn [Qpower Qpower_positive pow_pos pow].
  ring.
Qed.

Lemma q2r_inject_Z (z : Z) : Q2R (inject_Z z) = IZR z.
Proof. unfold Q2R, inject_Z. cbn [Qnum Qden]. rewrite Rinv_1. ring. Qed.

Lemma wf_of_check_distr (M : fmech) : check_distr M = true -> fmech_wf M /\ subdistr M.
Proof.
  intros H. split.
  - unfold check_distr in H. apply andb_prop in H as [Hwf _]. exact (rows_wf_spec M Hwf).
  - apply distr_subdistr, distr_of_check, H.
Qed.

Corollary dp_power_basic_q (nb : nat -> nat -> bool) (M : fmech) (L LK d0 dq : Q) (eps delta : R) (k : nat) :
  fmech_wf M -> subdistr M -> 0 <= d0 -> 0 < L -> dp nb M (ln (Q2R L)) (Q2R d0) ->
  LK == L ^ Z.of_nat k -> (Q2R LK <= exp eps)%R ->
  inject_Z (Z.of_nat k) * d0 <= dq -> Q2R dq = delta ->
  dp nb (fmech_power M k) eps delta.
Proof.
  intros W HM Hd0 HL HDP HLK Hexp Hdq <-.
  assert (HLr : (0 < Q2R L)%R) by (rewrite <- q2r_0; apply Qlt_Rlt, HL).
  assert (HL0 : ~ L == 0) by (intros E; rewrite E in HL; discriminate).
  apply (dp_power_basic_le nb M (ln (Q2R L)) (Q2R d0) eps (Q2R dq) k W HM).
  - rewrite <- q2r_0. apply Qle_Rle, Hd0.
  - exact HDP.
  - rewrite <- ln_pow by exact HLr. rewrite <- q2r_qpower_nat, <- (Qeq_eqR _ _ HLK) by exact HL0.
    apply ln_le_iff; [rewrite (Qeq_eqR _ _ HLK), q2r_qpower_nat by exact HL0; apply pow_lt, HLr|exact Hexp].
  - rewrite INR_IZR_INZ, <- q2r_inject_Z, <- Q2R_mult. apply Qle_Rle, Hdq.
Qed.
