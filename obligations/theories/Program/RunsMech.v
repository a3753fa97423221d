(** * Finite mechanisms from runs
    [run x] is the distribution of the output sequences on input vector [x]
    (a program's [prog_run], a floating-point pipeline's [float_run], ...);
    [runs_mech] tabulates it on listed inputs and outputs as a finite mechanism
    of [Mechanism].  The theorems here carry DP of that table ([dp], checked by
    the reflective checkers) back to DP of the runs themselves over every event
    on output sequences ([dp_runs]), and refutations the other way.  The table
    is only honest when no mass escapes the listed outputs: the side conditions
    (listed outputs distinct, every run non-negative with mass 1, every row
    summing to 1) are boolean checks. *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Lia Bool Arith.
From Obligations.Core Require Import RealFacts Lists Sums Privacy.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound.
From Obligations.Program Require Import Dist ProgramSyntax ProgramSem ProgramInputs.
Import ListNotations.

(** (ε, δ)-DP of the runs on the declared [inputs], for neighbouring input
    vectors ([vec_nb] with the sensitivities [deltas]) and every event [E] on
    output sequences: Pr[run x ∈ E] ≤ e^ε · Pr[run x' ∈ E] + δ. *)
Definition dp_runs (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval))
    (eps delta : R) : Prop :=
  forall x x', In x inputs -> In x' inputs -> vec_nb deltas x x' = true ->
  forall E : list oval -> bool,
  (Q2R (dprob E (run x)) <= exp eps * Q2R (dprob E (run x')) + delta)%R.

(** [dp_runs] is the core notion [dp_with] for the declared inputs and the
    probabilities of the runs. *)
Lemma dp_runs_iff_dp_with (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval))
    (eps delta : R) :
  dp_runs deltas inputs run eps delta <->
  dp_with (fun x x' => In x inputs /\ In x' inputs /\ vec_nb deltas x x' = true)
          (fun x E => Q2R (dprob E (run x))) eps delta.
Proof.
  split; intros H.
  - intros x x' (Hx & Hx' & Hnb) E. exact (H x x' Hx Hx' Hnb E).
  - intros x x' Hx Hx' Hnb E. exact (H x x' (conj Hx (conj Hx' Hnb)) E).
Qed.

(** A finite set of output sequences, as an event. *)
Definition in_outs (l : list (list oval)) (o : list oval) : bool :=
  existsb (fun o' => ovals_eqb o' o) l.

(** ** The finite mechanism *)

Definition run_row (outs : list (list oval)) (d : dist (list oval)) : list Q :=
  map (fun o => dprob (ovals_eqb o) d) outs.

(** The table of already computed runs: each run is computed once. *)
Definition mech_of_runs (outs : list (list oval)) (runs : list (dist (list oval))) : fmech :=
  FMech (length runs) (length outs) (map (run_row outs) runs).

Definition runs_mech (run : list Z -> dist (list oval)) (inputs : list (list Z))
    (outs : list (list oval)) : fmech :=
  mech_of_runs outs (map run inputs).

(** ** Boolean side conditions *)

Fixpoint ovals_nodup (l : list (list oval)) : bool :=
  match l with
  | [] => true
  | o :: l' => negb (in_outs l' o) && ovals_nodup l'
  end.

Definition run_ok (d : dist (list oval)) : bool := dnonneg_b d && Qeq_bool (mass d) 1.

Definition check_runs (outs : list (list oval)) (runs : list (dist (list oval))) : bool :=
  ovals_nodup outs && forallb run_ok runs.

(** ** Soundness of the side conditions *)

Lemma in_outs_nodup_ind (outs : list (list oval)) (E : list oval -> bool) (a : list oval) :
  ovals_nodup outs = true ->
  qsumf outs (fun o => ind (E o) * ind (ovals_eqb o a)) == ind (E a && in_outs outs a).
Proof.
  induction outs as [|o l IH]; intros Hnd; cbn [qsumf fold_right in_outs existsb].
  - destruct (E a); reflexivity.
  - cbn [ovals_nodup] in Hnd. apply andb_true_iff in Hnd as [Hno Hnd].
    fold (qsumf l (fun o => ind (E o) * ind (ovals_eqb o a))). rewrite IH by exact Hnd.
    fold (in_outs l a).
    destruct (ovals_eqb o a) eqn:Hoa.
    + apply ovals_eqb_spec in Hoa. subst o.
      apply negb_true_iff in Hno. rewrite Hno.
      destruct (E a); cbn; reflexivity.
    + cbn [orb]. unfold ind. destruct (E o), (E a && in_outs l a); cbn; reflexivity.
Qed.

Lemma check_runs_spec (outs : list (list oval)) (run : list Z -> dist (list oval)) (inputs : list (list Z)) :
  check_runs outs (map run inputs) = true ->
  ovals_nodup outs = true /\
  forall x, In x inputs ->
    dnonneg (run x) /\ mass (run x) == 1.
Proof.
  unfold check_runs. rewrite andb_true_iff, forallb_forall. intros [Hnd Hr].
  split; [exact Hnd|]. intros x Hx.
  specialize (Hr _ (in_map _ _ _ Hx)). unfold run_ok in Hr.
  apply andb_true_iff in Hr as [Hn Hm]. split.
  - apply dnonneg_b_spec, Hn.
  - apply Qeq_bool_eq, Hm.
Qed.

(** ** The table is the runs *)

Lemma entry_runs_mech (run : list Z -> dist (list oval)) (inputs : list (list Z))
    (outs : list (list oval)) (i y : nat) :
  (i < length inputs)%nat -> (y < length outs)%nat ->
  entry (runs_mech run inputs outs) i y =
  dprob (ovals_eqb (nth y outs [])) (run (nth i inputs [])).
Proof.
  intros Hi Hy. unfold entry, runs_mech, mech_of_runs. cbn [rows]. rewrite map_map.
  rewrite (nth_map_lt _ _ _ _ []) by exact Hi. unfold run_row.
  rewrite (nth_map_lt _ _ _ _ []) by exact Hy. reflexivity.
Qed.

Lemma n_in_runs_mech run inputs outs : n_in (runs_mech run inputs outs) = length inputs.
Proof. apply map_length. Qed.

Lemma n_out_runs_mech run inputs outs : n_out (runs_mech run inputs outs) = length outs.
Proof. reflexivity. Qed.

(** An event on output indices read as an event on output sequences. *)
Lemma pr_runs_mech_sum (run : list Z -> dist (list oval)) (inputs : list (list Z))
    (outs : list (list oval)) (i : nat) (E : list oval -> bool) :
  (i < length inputs)%nat ->
  pr (runs_mech run inputs outs) i (fun y => E (nth y outs [])) =
  Q2R (qsumf outs (fun o => ind (E o) * dprob (ovals_eqb o) (run (nth i inputs [])))).
Proof.
  intros Hi. rewrite <- rsum_q2r. unfold pr. rewrite n_out_runs_mech.
  rewrite (map_nth_seq (fun o => Q2R (ind (E o) * _)) outs []).
  f_equal. apply map_ext_in. intros y Hy. apply in_seq in Hy.
  unfold prob. rewrite entry_runs_mech by (assumption || lia).
  unfold ind. destruct (E (nth y outs [])).
  - apply Qeq_eqR. ring.
  - rewrite <- q2r_0. apply Qeq_eqR. ring.
Qed.

Lemma pr_runs_mech_listed (run : list Z -> dist (list oval)) (inputs : list (list Z))
    (outs : list (list oval)) (i : nat) (E : list oval -> bool) :
  ovals_nodup outs = true -> (i < length inputs)%nat ->
  pr (runs_mech run inputs outs) i (fun y => E (nth y outs [])) =
  Q2R (dprob (fun a => E a && in_outs outs a) (run (nth i inputs []))).
Proof.
  intros Hnd Hi. rewrite pr_runs_mech_sum by exact Hi. apply Qeq_eqR.
  set (d := run (nth i inputs [])).
  rewrite (qsumf_ext _ _ (fun o => ind (E o) * dexpect d (fun a => ind (ovals_eqb o a))))
    by (intros o; rewrite dprob_dexpect; reflexivity).
  rewrite qsumf_dexpect, dprob_dexpect. apply dexpect_ext. intros a _ _.
  apply in_outs_nodup_ind, Hnd.
Qed.

Lemma pr_runs_mech_all (run : list Z -> dist (list oval)) (inputs : list (list Z))
    (outs : list (list oval)) (i : nat) (E : list oval -> bool) :
  ovals_nodup outs = true -> distr (runs_mech run inputs outs) ->
  dnonneg (run (nth i inputs [])) ->
  mass (run (nth i inputs [])) == 1 ->
  (i < length inputs)%nat ->
  pr (runs_mech run inputs outs) i (fun y => E (nth y outs [])) =
  Q2R (dprob E (run (nth i inputs []))).
Proof.
  intros Hnd Hdistr Hnn Hm Hi.
  rewrite pr_runs_mech_listed by assumption. apply Qeq_eqR, dprob_listed; [exact Hnn|exact Hm|].
  destruct (Hdistr i) as [_ Hall]; [rewrite n_in_runs_mech; exact Hi|].
  unfold everything in Hall.
  change (fun _ : nat => true) with (fun y : nat => (fun _ : list oval => true) (nth y outs [])) in Hall.
  rewrite pr_runs_mech_listed in Hall by assumption. rewrite <- q2r_1 in Hall.
  apply eqR_Qeq in Hall. rewrite <- Hall. apply dprob_of_dequiv, dequiv_refl.
Qed.

(** ** From DP of the table to DP of the runs *)

Theorem dp_runs_of_dp (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval))
    (outs : list (list oval)) (eps delta : R) :
  ovals_nodup outs = true ->
  distr (runs_mech run inputs outs) ->
  (forall x, In x inputs -> dnonneg (run x) /\ mass (run x) == 1) ->
  dp (nb_vec deltas inputs) (runs_mech run inputs outs) eps delta ->
  dp_runs deltas inputs run eps delta.
Proof.
  intros Hnd Hdistr Hruns Hdp x x' Hx Hx' Hnb E.
  destruct (In_nth _ _ [] Hx) as [i [Hi <-]].
  destruct (In_nth _ _ [] Hx') as [j [Hj <-]].
  assert (Hx0 := Hruns _ Hx). assert (Hx0' := Hruns _ Hx').
  specialize (Hdp i j ltac:(rewrite n_in_runs_mech; exact Hi)
                      ltac:(rewrite n_in_runs_mech; exact Hj) Hnb
                      (fun y => E (nth y outs []))).
  rewrite !pr_runs_mech_all in Hdp by (tauto || assumption).
  exact Hdp.
Qed.

(** ** From a refuted table to refuted runs *)

Fixpoint oidx (a : list oval) (l : list (list oval)) : nat :=
  match l with
  | [] => O
  | o :: l' => if ovals_eqb o a then O else S (oidx a l')
  end.

Lemma in_outs_nth (l : list (list oval)) (y : nat) :
  (y < length l)%nat -> in_outs l (nth y l []) = true.
Proof.
  intros Hy. apply existsb_exists. exists (nth y l []). split.
  - apply nth_In, Hy.
  - apply ovals_eqb_spec. reflexivity.
Qed.

Lemma oidx_nth (l : list (list oval)) (y : nat) :
  ovals_nodup l = true -> (y < length l)%nat -> oidx (nth y l []) l = y.
Proof.
  revert y. induction l as [|o l IH]; intros y Hnd Hy; cbn in Hy; [lia|].
  cbn [ovals_nodup] in Hnd. apply andb_true_iff in Hnd as [Hno Hnd].
  destruct y as [|y]; cbn [nth oidx].
  - replace (ovals_eqb o o) with true by (symmetry; apply ovals_eqb_spec; reflexivity).
    reflexivity.
  - destruct (ovals_eqb o (nth y l [])) eqn:Ho.
    + apply ovals_eqb_spec in Ho. rewrite Ho, in_outs_nth in Hno by lia. discriminate.
    + rewrite IH by (assumption || lia). reflexivity.
Qed.

Theorem not_dp_runs_of_not_dp (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (outs : list (list oval)) (eps delta : R) :
  ovals_nodup outs = true ->
  ~ dp (nb_vec deltas inputs) (runs_mech run inputs outs) eps delta ->
  ~ dp_runs deltas inputs run eps delta.
Proof.
  intros Hnd Hnot Hprog. apply Hnot. intros i j Hi Hj Hnb S.
  rewrite n_in_runs_mech in Hi, Hj.
  set (E := fun a => S (oidx a outs)).
  assert (HS : forall k, pr (runs_mech run inputs outs) k S =
                         pr (runs_mech run inputs outs) k (fun y => E (nth y outs []))).
  { intros k. apply pr_ext. intros y Hy. rewrite n_out_runs_mech in Hy.
    unfold E. rewrite oidx_nth by assumption. reflexivity. }
  rewrite !HS, !pr_runs_mech_listed by assumption.
  apply Hprog; [apply nth_In; exact Hi|apply nth_In; exact Hj|exact Hnb].
Qed.

(** ** The combined checks a generated file runs once *)

(** Each input's run is computed once ([let]: the VM evaluates it eagerly),
    then the side conditions and the criterion read the same table. *)
Definition check_runs_pointwise (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (outs : list (list oval)) (L : Q) : bool :=
  let runs := map run inputs in
  let M := mech_of_runs outs runs in
  check_runs outs runs && check_distr M && check_pointwise (nb_vec deltas inputs) L M.

Definition check_runs_hockey (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (outs : list (list oval)) (L dq : Q) : bool :=
  let runs := map run inputs in
  let M := mech_of_runs outs runs in
  check_runs outs runs && check_distr M && check_hockey (nb_vec deltas inputs) L dq M.

Theorem dp_runs_of_check_pointwise (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (outs : list (list oval)) (eps : R) (L : Q) :
  (Q2R L <= exp eps)%R -> check_runs_pointwise deltas inputs run outs L = true ->
  dp_runs deltas inputs run eps 0.
Proof.
  intros HL H. unfold check_runs_pointwise in H. fold (runs_mech run inputs outs) in H.
  apply andb_true_iff in H as [H Hpw]. apply andb_true_iff in H as [Hruns Hdistr].
  destruct (check_runs_spec _ _ _ Hruns) as [Hnd Hok].
  apply (dp_runs_of_dp _ _ _ outs); [exact Hnd|apply distr_of_check, Hdistr|exact Hok|].
  apply (dp_of_check_pointwise _ _ _ L HL Hpw).
Qed.

Theorem dp_runs_of_check_hockey_at (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (outs : list (list oval)) (eps d : R) (L dq : Q) :
  Q2R dq = d -> (Q2R L <= exp eps)%R ->
  check_runs_hockey deltas inputs run outs L dq = true ->
  dp_runs deltas inputs run eps d.
Proof.
  intros Hd HL H. unfold check_runs_hockey in H. fold (runs_mech run inputs outs) in H.
  apply andb_true_iff in H as [H Hh]. apply andb_true_iff in H as [Hruns Hdistr].
  destruct (check_runs_spec _ _ _ Hruns) as [Hnd Hok].
  apply (dp_runs_of_dp _ _ _ outs); [exact Hnd|apply distr_of_check, Hdistr|exact Hok|].
  apply (dp_of_check_hockey_at _ _ _ _ L dq Hd HL Hh).
Qed.

(** ** A witness against DP of the runs

    Inputs [i], [j] (indices into [inputs]) and a finite set [ev] of output
    sequences with Pr[run x_i ∈ ev] > U · Pr[run x_j ∈ ev] + δ, U ≥ e^ε.
    Only the two runs involved are computed. *)
Definition check_runs_witness (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (U dq : Q) (i j : nat) (ev : list (list oval)) : bool :=
  let x := nth i inputs [] in
  let x' := nth j inputs [] in
  let d := run x in
  let d' := run x' in
  (i <? length inputs) && (j <? length inputs) && vec_nb deltas x x' && dnonneg_b d' &&
  negb (Qle_bool (dprob (in_outs ev) d) (U * dprob (in_outs ev) d' + dq)).

Theorem not_dp_runs_of_witness_at (deltas : list Z) (inputs : list (list Z)) (run : list Z -> dist (list oval)) (eps d : R) (U dq : Q) (i j : nat) (ev : list (list oval)) :
  Q2R dq = d -> (exp eps <= Q2R U)%R ->
  check_runs_witness deltas inputs run U dq i j ev = true ->
  ~ dp_runs deltas inputs run eps d.
Proof.
  intros <- HU Hw Hprog. unfold check_runs_witness in Hw.
  rewrite !andb_true_iff, negb_true_iff in Hw.
  destruct Hw as [[[[Hi Hj] Hnb] Hnn] Hgt].
  apply Nat.ltb_lt in Hi, Hj. apply dnonneg_b_spec in Hnn.
  specialize (Hprog _ _ (nth_In _ _ Hi) (nth_In _ _ Hj) Hnb (in_outs ev)).
  set (a := dprob (in_outs ev) (run (nth i inputs []))) in *.
  set (b := dprob (in_outs ev) (run (nth j inputs []))) in *.
  assert (Hb : (0 <= Q2R b)%R).
  { rewrite <- q2r_0. apply Qle_Rle, dprob_nonneg, Hnn. }
  assert (Hle : (a <= U * b + dq)%Q).
  { apply Rle_Qle. rewrite Q2R_plus, Q2R_mult.
    apply Rmult_le_compat_r with (r := Q2R b) in HU; [|exact Hb]. lra. }
  apply Qle_bool_iff in Hle. congruence.
Qed.

(** ** Runs that agree *)

Lemma dp_runs_ext (deltas : list Z) (inputs : list (list Z)) (r1 r2 : list Z -> dist (list oval))
    (eps delta : R) :
  (forall x, r1 x = r2 x) -> dp_runs deltas inputs r1 eps delta -> dp_runs deltas inputs r2 eps delta.
Proof. intros Heq H x x' Hx Hx' Hnb E. rewrite <- !Heq. exact (H x x' Hx Hx' Hnb E). Qed.
