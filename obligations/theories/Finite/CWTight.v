(** * 5-ary randomized response on the same database: the exact ε at δ = 0, every K

    The example of CWCounter.v (keep 3/5: Pr[y = x] = 17/25, else 2/25; the database
    from ½, ½ on {0, 1}, its scrubbed version from ½, ½ on {2, 3}) released K times on
    the same database is (ln(((17/2)^K + 1)/2), 0)-CW-private ([rr5_stream_exact]); with
    [rr5_stream_lower] that is the exact ε at δ = 0 for every K.  A sequence with c_x
    answers x has likelihood (2/25)^K·(17/2)^(c_x) under input x, so its probability ratio
    is (r^(c0) + r^(c1)) / (r^(c2) + r^(c3)) with r = 17/2, at most (r^K + 1)/2 since
    c0 + c1 ≤ K, and the same the other way round. *)
From Coq Require Import List Bool Arith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Compose CW BasicComposition PLD
  CWStream TypeClass CWCounter.
Import ListNotations.

Local Open Scope R_scope.

Lemma rr5_prob (x y : nat) : (x < 5)%nat -> (y < 5)%nat ->
  prob rr5 x y = if Nat.eqb x y then 17 / 25 else 2 / 25.
Proof.
  intros Hx Hy. unfold prob, entry, rr5, tabulate. cbn [rows].
  rewrite nth_map_seq by exact Hx. rewrite nth_map_seq by exact Hy.
  destruct (Nat.eqb x y); unfold Q2R; cbn [Qnum Qden]; cbn; field.
Qed.

Definition cnt (ys : list nat) (x : nat) : nat := count_occ Nat.eq_dec ys x.

Lemma rr5_lik (ys : list nat) (x : nat) : (x < 5)%nat -> Forall (fun y => y < 5)%nat ys ->
  lik rr5 ys x = (2 / 25) ^ length ys * (17 / 2) ^ cnt ys x.
Proof.
  intros Hx Hys. induction Hys as [|y ys Hy Hys IH].
  - unfold lik. cbn. rewrite q2r_1. ring.
  - rewrite lik_cons, IH, rr5_prob by assumption. unfold cnt. cbn [count_occ length pow].
    destruct (Nat.eq_dec y x) as [->|Hne].
    + rewrite Nat.eqb_refl. cbn [pow]. field.
    + replace (Nat.eqb x y) with false by (symmetry; apply Nat.eqb_neq; congruence). field.
Qed.

Lemma cnt_two (ys : list nat) (a b : nat) : a <> b -> (cnt ys a + cnt ys b <= length ys)%nat.
Proof.
  intros Hab. induction ys as [|y ys IH]; [cbn; lia|]. unfold cnt in *. cbn [count_occ length].
  destruct (Nat.eq_dec y a), (Nat.eq_dec y b); subst; try lia.
Qed.

(** r^a + r^b ≤ r^(a+b) + 1 ≤ r^K + 1 for r ≥ 1, a + b ≤ K. *)
Lemma pow_pair_le (r : R) (a b k : nat) : 1 <= r -> (a + b <= k)%nat -> r ^ a + r ^ b <= r ^ k + 1.
Proof.
  intros Hr Hk. assert (Ha : 1 <= r ^ a) by (apply pow_R1_Rle, Hr). assert (Hb : 1 <= r ^ b) by (apply pow_R1_Rle, Hr).
  assert (E : r ^ (a + b) <= r ^ k) by (apply Rle_pow; assumption).
  rewrite pow_add in E. nra.
Qed.

Section Exact.
Variable K : nat.
Let r := 17 / 2.
Let t := (r ^ K + 1) / 2.

Lemma wt_f (x : nat) : wt rr5_f x = match x with O | S O => 1 / 2 | _ => 0 end.
Proof.
  unfold wt, rr5_f. destruct x as [|[|[|[|[|x]]]]]; cbn [nth]; unfold Q2R; cbn [Qnum Qden]; try field.
  destruct x; cbn [nth]; unfold Q2R; cbn; field.
Qed.

Lemma wt_f' (x : nat) : wt rr5_f' x = match x with S (S O) | S (S (S O)) => 1 / 2 | _ => 0 end.
Proof.
  unfold wt, rr5_f'. destruct x as [|[|[|[|[|x]]]]]; cbn [nth]; unfold Q2R; cbn [Qnum Qden]; try field.
  destruct x; cbn [nth]; unfold Q2R; cbn; field.
Qed.

Lemma pv_f (ys : list nat) : length ys = K -> Forall (fun y => y < 5)%nat ys ->
  pv 5 rr5_f (lik rr5 ys) = / 2 * (2 / 25) ^ K * (r ^ cnt ys 0 + r ^ cnt ys 1).
Proof.
  intros Hl Hys. unfold pv. cbn [seq map]. rewrite !rsum_cons, rsum_nil, !wt_f.
  rewrite !rr5_lik by (assumption || lia). rewrite Hl. unfold r. field.
Qed.

Lemma pv_f' (ys : list nat) : length ys = K -> Forall (fun y => y < 5)%nat ys ->
  pv 5 rr5_f' (lik rr5 ys) = / 2 * (2 / 25) ^ K * (r ^ cnt ys 2 + r ^ cnt ys 3).
Proof.
  intros Hl Hys. unfold pv. cbn [seq map]. rewrite !rsum_cons, rsum_nil, !wt_f'.
  rewrite !rr5_lik by (assumption || lia). rewrite Hl. unfold r. field.
Qed.

(** Every sequence: P ≤ t·Q and Q ≤ t·P. *)
Lemma ratio_le (ys : list nat) (a b c d : nat) : length ys = K -> a <> b -> c <> d ->
  / 2 * (2 / 25) ^ K * (r ^ cnt ys a + r ^ cnt ys b) <= t * (/ 2 * (2 / 25) ^ K * (r ^ cnt ys c + r ^ cnt ys d)).
Proof.
  intros Hl Hab Hcd. assert (Hr : 1 <= r) by (unfold r; lra).
  pose proof (pow_pair_le r (cnt ys a) (cnt ys b) K Hr ltac:(rewrite <- Hl; apply cnt_two, Hab)) as H1.
  assert (Hc : 1 <= r ^ cnt ys c) by (apply pow_R1_Rle, Hr). assert (Hd : 1 <= r ^ cnt ys d) by (apply pow_R1_Rle, Hr).
  assert (HK : 0 < (2 / 25) ^ K) by (apply pow_lt; lra).
  assert (Ht : 1 <= t) by (unfold t; pose proof (pow_R1_Rle r K Hr); lra).
  unfold t in *. apply Rmult_le_reg_l with (r := 2 / (2 / 25) ^ K); [apply Rdiv_lt_0_compat; lra|].
  replace (2 / (2 / 25) ^ K * (/ 2 * (2 / 25) ^ K * (r ^ cnt ys a + r ^ cnt ys b))) with (r ^ cnt ys a + r ^ cnt ys b)
    by (field; lra).
  replace (2 / (2 / 25) ^ K * ((r ^ K + 1) / 2 * (/ 2 * (2 / 25) ^ K * (r ^ cnt ys c + r ^ cnt ys d))))
    with ((r ^ K + 1) / 2 * (r ^ cnt ys c + r ^ cnt ys d)) by (field; lra).
  assert (0 <= (r ^ K + 1) * (r ^ cnt ys c + r ^ cnt ys d - 2))
    by (apply Rmult_le_pos; [pose proof (pow_R1_Rle r K Hr)|]; lra).
  lra.
Qed.

(** K releases on the same database are (ln(((17/2)^K + 1)/2), 0)-CW-private. *)
Theorem rr5_stream_exact : cw_dp (fmech_power rr5 K) rr5_f rr5_f' (ln t) 0.
Proof.
  destruct (wf_of_check_distr rr5 rr5_distr) as [W HM].
  assert (Ht0 : 0 < t) by (unfold t, r; pose proof (pow_R1_Rle (17 / 2) K ltac:(lra)); lra).
  intros i j Hi Hj _ S. cbn [fmech_cw n_in] in Hi, Hj. rewrite exp_ln by exact Ht0. rewrite Rplus_0_r.
  unfold pr. cbn [fmech_cw n_out]. rewrite (proj2 (fmech_power_dims rr5 K)), <- seqs_index, !map_map, <- rsum_scal.
  apply rsum_le. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [Hl Hlt]. cbn [n_out rr5] in Hlt.
  destruct (S (power_index (n_out rr5) ys)); [|lra]. rewrite <- Hl.
  rewrite !stream_prob by (try reflexivity; assumption). cbn [n_in rr5].
  destruct i as [|[|]], j as [|[|]]; try lia; cbn [cw_weights];
    rewrite ?pv_f, ?pv_f' by assumption.
  - pose proof (ratio_le ys 0 1 0 1 Hl ltac:(lia) ltac:(lia)). lra.
  - apply ratio_le; [exact Hl|lia|lia].
  - apply ratio_le; [exact Hl|lia|lia].
  - pose proof (ratio_le ys 2 3 2 3 Hl ltac:(lia) ltac:(lia)). lra.
Qed.

End Exact.

(** With [rr5_stream_lower]: ln(((17/2)^K + 1)/2) is the least ε with δ = 0, for every K. *)
Corollary rr5_stream_tight (K : nat) (eps : R) :
  cw_dp (fmech_power rr5 K) rr5_f rr5_f' (ln (((17 / 2) ^ K + 1) / 2)) 0 /\
  (eps < ln (((17 / 2) ^ K + 1) / 2) -> ~ cw_dp (fmech_power rr5 K) rr5_f rr5_f' eps 0).
Proof.
  split; [apply rr5_stream_exact|]. intros He. apply rr5_stream_lower.
  assert (Hp : 0 < ((17 / 2) ^ K + 1) / 2) by (pose proof (pow_R1_Rle (17 / 2) K ltac:(lra)); lra).
  apply ln_gt_iff in He; [exact He|exact Hp].
Qed.
