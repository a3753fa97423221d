(** * CW-privacy does not compose additively on the same database

    The counterexample: 5-ary randomized response that keeps its input with
    probability 3/5 and otherwise answers uniformly (Pr[y = x] = 17/25, every other
    output 2/25), the database drawn from ½, ½ on {0, 1}, its scrubbed version from
    ½, ½ on {2, 3}.  One release is (ln(19/4), 0)-CW-private ([rr5_one]).  Two
    releases on the same database are (ln(293/8), 0)-CW-private and no better
    ([rr5_two], [rr5_two_tight]); 293/8 > (19/4)^2 = 361/16, so the one-release
    parameters do not add up ([cw_not_additive]); at 2·ln(19/4), δ must be at least
    9/50 ([rr5_two_delta]).

    For every k, the k releases that all answer 0 have probability
    ½·((17/25)^k + (2/25)^k) against (2/25)^k: k runs are not (ε, 0)-CW-private
    below ln(((17/2)^k + 1)/2) ([rr5_stream_lower]), which exceeds k·ln(19/4) from
    k = 2 on ([rr5_not_additive]).  The composition theorem of CWStream.v gives
    k·ln(17/2) ([rr5_stream_upper]): within ln 2 of the truth for every k.
    (A fresh database per release would give k·ln(19/4): [cw_fresh_basic].) *)
From Coq Require Import List Bool QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Compose CW BasicComposition
  Checker CheckerSound Refutation KOV CWStream.
Import ListNotations.

Local Open Scope R_scope.

Definition rr5 : fmech :=
  FMech 5 5 (tabulate 5 5 (fun i j => if Nat.eqb i j then (17 # 25)%Q else (2 # 25)%Q)).

Definition rr5_f : list Q := [1 # 2; 1 # 2; 0; 0; 0]%Q.
Definition rr5_f' : list Q := [0; 0; 1 # 2; 1 # 2; 0]%Q.

Lemma rr5_distr : check_distr rr5 = true.
Proof. vm_compute. reflexivity. Qed.

Lemma rr5_priors : prior 5 rr5_f /\ prior 5 rr5_f'.
Proof. split; apply prior_of_check; vm_compute; reflexivity. Qed.

Lemma exp_ln_q (a b : Z) : (0 < a)%Z -> (0 < b)%Z -> exp (ln (IZR a / IZR b)) = Q2R (a # Z.to_pos b).
Proof.
  intros Ha Hb. rewrite exp_ln.
  - unfold Q2R. cbn [Qnum Qden]. rewrite Z2Pos.id by exact Hb. reflexivity.
  - apply Rdiv_lt_0_compat; apply IZR_lt; assumption.
Qed.

(** One release: (ln(19/4), 0)-CW-private. *)
Theorem rr5_one : cw_dp rr5 rr5_f rr5_f' (ln (19 / 4)) 0.
Proof.
  apply (dp_of_check_pointwise _ _ _ (19 # 4)).
  - rewrite exp_ln_q by lia. apply Rle_refl.
  - vm_compute. reflexivity.
Qed.

(** Two releases on the same database: (ln(293/8), 0)-CW-private ... *)
Theorem rr5_two : cw_dp (fmech_power rr5 2) rr5_f rr5_f' (ln (293 / 8)) 0.
Proof.
  apply (dp_of_check_pointwise _ _ _ (293 # 8)).
  - rewrite exp_ln_q by lia. apply Rle_refl.
  - vm_compute. reflexivity.
Qed.

(** ... and not (ε, 0) for any ε < ln(293/8): both answers 0. *)
Theorem rr5_two_tight (eps : R) : eps < ln (293 / 8) -> ~ cw_dp (fmech_power rr5 2) rr5_f rr5_f' eps 0.
Proof.
  intros He Hcw. specialize (Hcw 0%nat 1%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl (fun y => Nat.eqb y 0)).
  rewrite !pr_single in Hcw by (cbn; lia). unfold prob in Hcw.
  assert (E0 : (entry (fmech_cw (fmech_power rr5 2) rr5_f rr5_f') 0 0 == 293 # 1250)%Q) by (vm_compute; reflexivity).
  assert (E1 : (entry (fmech_cw (fmech_power rr5 2) rr5_f rr5_f') 1 0 == 8 # 1250)%Q) by (vm_compute; reflexivity).
  rewrite (Qeq_eqR _ _ E0), (Qeq_eqR _ _ E1) in Hcw. apply exp_lt_iff in He. rewrite exp_ln_q in He by lia.
  unfold Q2R in Hcw, He. cbn [Qnum Qden] in Hcw, He. cbn in Hcw, He. lra.
Qed.

(** At 2·ln(19/4), the value additive composition would give, two releases need δ ≥ 9/50:
    (2·ln(19/4), 9/50)-CW-private, not (2·ln(19/4), δ) for δ < 9/50. *)
Theorem rr5_two_delta :
  cw_dp (fmech_power rr5 2) rr5_f rr5_f' (2 * ln (19 / 4)) (Q2R (9 # 50)) /\
  forall delta, delta < Q2R (9 # 50) -> ~ cw_dp (fmech_power rr5 2) rr5_f rr5_f' (2 * ln (19 / 4)) delta.
Proof.
  assert (He : exp (2 * ln (19 / 4)) = Q2R (361 # 16)).
  { rewrite exp_Zmult_ln by lra. change (powerRZ (19 / 4) 2) with ((19 / 4) ^ 2).
    unfold Q2R. cbn [Qnum Qden]. field. }
  split.
  - apply (dp_of_check_hockey _ _ _ (361 # 16)); [rewrite He; apply Rle_refl|vm_compute; reflexivity].
  - intros delta Hd Hcw.
    (* The hockey-stick event: the output pairs whose probability under the prior exceeds
       361/16 times the alternative's. *)
    set (S := fun y => Qlt_le_dec ((361 # 16) * entry (fmech_cw (fmech_power rr5 2) rr5_f rr5_f') 1 y)
                                  (entry (fmech_cw (fmech_power rr5 2) rr5_f rr5_f') 0 y)).
    set (S' := fun y => if S y then true else false).
    specialize (Hcw 0%nat 1%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl S').
    rewrite <- !pr_q_correct, He in Hcw.
    assert (E0 : (pr_q (fmech_cw (fmech_power rr5 2) rr5_f rr5_f') 0 S' == 293 # 625)%Q) by (vm_compute; reflexivity).
    assert (E1 : (pr_q (fmech_cw (fmech_power rr5 2) rr5_f rr5_f') 1 S' == 8 # 625)%Q) by (vm_compute; reflexivity).
    rewrite (Qeq_eqR _ _ E0), (Qeq_eqR _ _ E1) in Hcw. unfold Q2R in Hcw, Hd. cbn [Qnum Qden] in Hcw, Hd.
    cbn in Hcw, Hd. lra.
Qed.

(** The failure of additive composition, as a statement about all finite mechanisms:
    it is not true that (ε, 0)-CW privacy of one release gives (2ε, 0) for two releases
    on the same database. *)
Theorem cw_not_additive :
  ~ (forall (M : fmech) (f f' : list Q) (eps : R),
       check_distr M = true -> prior (n_in M) f -> prior (n_in M) f' ->
       cw_dp M f f' eps 0 -> cw_dp (fmech_power M 2) f f' (2 * eps) 0).
Proof.
  intros H. apply (rr5_two_tight (2 * ln (19 / 4))).
  - apply ln_gt_iff; [lra|]. rewrite exp_Zmult_ln by lra.
    change (powerRZ (19 / 4) 2) with ((19 / 4) ^ 2). cbn [pow]. lra.
  - apply H; [exact rr5_distr|apply rr5_priors|apply rr5_priors|exact rr5_one].
Qed.

(** ** Every number of releases *)

Lemma run_prob_repeat (M : fmech) (x y k : nat) : Q2R (run_prob M x (repeat y k)) = Q2R (entry M x y) ^ k.
Proof.
  induction k as [|k IH]; [apply q2r_1|]. cbn [repeat run_prob pow]. rewrite Q2R_mult, IH. reflexivity.
Qed.

Lemma power_index_zeros (m k : nat) : power_index m (repeat 0%nat k) = 0%nat.
Proof. induction k as [|k IH]; [reflexivity|]. cbn [repeat power_index]. rewrite IH. reflexivity. Qed.

(** The k releases that all answer 0: ½·((17/25)^k + (2/25)^k) under the prior, (2/25)^k under
    the alternative. *)
Lemma rr5_zeros (k : nat) :
  prob (fmech_cw (fmech_power rr5 k) rr5_f rr5_f') 0 0 = / 2 * ((17 / 25) ^ k + (2 / 25) ^ k) /\
  prob (fmech_cw (fmech_power rr5 k) rr5_f rr5_f') 1 0 = (2 / 25) ^ k.
Proof.
  assert (W : fmech_wf rr5) by exact (proj1 (wf_of_check_distr rr5 rr5_distr)).
  pose proof (fmech_cw_power_entry rr5 rr5_f rr5_f' (repeat 0%nat k) W eq_refl eq_refl) as H.
  rewrite repeat_length, power_index_zeros in H.
  destruct H as [H0 H1]; [apply Forall_forall; intros y Hy; apply repeat_spec in Hy; subst; cbn; lia|].
  unfold prob. rewrite H0, H1. cbn [n_in rr5 seq map fold_right]. cbn [nth rr5_f rr5_f'].
  rewrite !Q2R_plus, !Q2R_mult, !run_prob_repeat.
  change (entry rr5 0 0) with (17 # 25)%Q. change (entry rr5 1 0) with (2 # 25)%Q.
  change (entry rr5 2 0) with (2 # 25)%Q. change (entry rr5 3 0) with (2 # 25)%Q.
  change (entry rr5 4 0) with (2 # 25)%Q.
  unfold Q2R; cbn [Qnum Qden]. unfold Rdiv. split; field.
Qed.

(** k runs on the same database are not (ε, 0)-CW-private for e^ε < ((17/2)^k + 1)/2. *)
Theorem rr5_stream_lower (k : nat) (eps : R) :
  exp eps < ((17 / 2) ^ k + 1) / 2 -> ~ cw_dp (fmech_power rr5 k) rr5_f rr5_f' eps 0.
Proof.
  intros He Hcw.
  assert (Hn : (0 < n_out (fmech_power rr5 k))%nat).
  { rewrite (proj2 (fmech_power_dims rr5 k)). cbn [n_out rr5]. apply Nat.neq_0_lt_0, Nat.pow_nonzero. lia. }
  specialize (Hcw 0%nat 1%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl (fun y => Nat.eqb y 0)).
  rewrite !pr_single in Hcw by (cbn [fmech_cw n_out]; exact Hn).
  destruct (rr5_zeros k) as [E0 E1]. rewrite E0, E1 in Hcw.
  assert (Hq : 0 < (2 / 25) ^ k) by (apply pow_lt; lra).
  assert (Hr : (17 / 25) ^ k = (17 / 2) ^ k * (2 / 25) ^ k).
  { rewrite <- Rpow_mult_distr. f_equal. field. }
  rewrite Hr in Hcw.
  apply Rmult_lt_compat_r with (r := (2 / 25) ^ k) in He; [|exact Hq]. lra.
Qed.

Lemma pow_two_lt (k : nat) : (2 <= k)%nat -> 2 * (19 / 4) ^ k < (17 / 2) ^ k.
Proof.
  intros Hk. replace k with (2 + (k - 2))%nat by lia. rewrite !pow_add.
  assert (H1 : (19 / 4) ^ (k - 2) <= (17 / 2) ^ (k - 2)) by (apply pow_incr; lra).
  assert (H2 : 0 < (19 / 4) ^ (k - 2)) by (apply pow_lt; lra).
  cbn [pow]. nra.
Qed.

(** From two releases on, k·ln(19/4) (what additive composition would give) is false. *)
Theorem rr5_not_additive (k : nat) :
  (2 <= k)%nat -> ~ cw_dp (fmech_power rr5 k) rr5_f rr5_f' (INR k * ln (19 / 4)) 0.
Proof.
  intros Hk. apply rr5_stream_lower.
  rewrite <- ln_pow by lra. rewrite exp_ln by (apply pow_lt; lra).
  pose proof (pow_two_lt k Hk). lra.
Qed.

(** The composition theorem's bound: every pair of the supports is (ln(17/2), 0)-DP, so k
    runs are (k·ln(17/2), 0)-CW-private; not (k·ln(17/2) − ln 2, 0). *)
Theorem rr5_stream_upper (k : nat) :
  cw_dp (fmech_power rr5 k) rr5_f rr5_f' (INR k * ln (17 / 2)) 0 /\
  ~ cw_dp (fmech_power rr5 k) rr5_f rr5_f' (INR k * ln (17 / 2) - ln 2) 0.
Proof.
  destruct (wf_of_check_distr rr5 rr5_distr) as [W HM]. destruct rr5_priors as [Hf Hf'].
  split.
  - replace 0 with (INR k * 0) by ring.
    apply (cw_stream_basic nb_all); try assumption.
    + rewrite <- ln_1. apply Rlt_le, ln_increasing; lra.
    + lra.
    + intros; reflexivity.
    + apply (dp_of_check_pointwise _ _ _ (17 # 2)); [rewrite exp_ln_q by lia; apply Rle_refl|vm_compute; reflexivity].
  - apply rr5_stream_lower. rewrite <- ln_pow by lra.
    unfold Rminus. rewrite exp_plus, exp_Ropp, !exp_ln by (try apply pow_lt; lra).
    assert (0 < (17 / 2) ^ k) by (apply pow_lt; lra). lra.
Qed.
