(** * Programs as finite mechanisms

    [prog_run p n x] is the distribution of the output sequences of [p] on
    input vector [x]; [prog_mech] tabulates it on listed inputs and outputs as
    a finite mechanism of [Mechanism].  The theorems here carry DP of that
    table ([dp], checked by the reflective checkers) back to DP of the program
    itself over every event on output sequences ([dp_prog]), and refutations
    the other way.  The table is only honest when no mass escapes the listed
    outputs: the side conditions (listed outputs distinct, every run
    non-negative with mass 1, every row summing to 1) are boolean checks. *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Lia Bool Arith.
From Obligations.Core Require Import Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound.
From Obligations.Program Require Import Dist ProgramSyntax ProgramSem.
Import ListNotations.

(** ** Running a program on an input vector *)

(** The input vector, padded with zeros to [nslots] slots. *)
Definition init_state (nslots : nat) (x : list Z) : state :=
  mkstate (x ++ repeat 0%Z (nslots - length x)) [] false.

Definition prog_run (p : stmt) (nslots : nat) (x : list Z) : dist (list oval) :=
  compact ovals_eqb (dmap out (exec p (init_state nslots x))).

(** A finite set of output sequences, as an event. *)
Definition in_outs (l : list (list oval)) (o : list oval) : bool :=
  existsb (fun o' => ovals_eqb o' o) l.

(** ** The finite mechanism *)

Definition run_row (outs : list (list oval)) (d : dist (list oval)) : list Q :=
  map (fun o => dprob (ovals_eqb o) d) outs.

(** The table of already computed runs: each run is computed once. *)
Definition mech_of_runs (outs : list (list oval)) (runs : list (dist (list oval))) : fmech :=
  FMech (length runs) (length outs) (map (run_row outs) runs).

Definition prog_mech (p : stmt) (nslots : nat) (inputs : list (list Z))
    (outs : list (list oval)) : fmech :=
  mech_of_runs outs (map (prog_run p nslots) inputs).

(** ** The declared input vectors *)

(** Every vector whose slot [k] lies in the [k]-th range [lo .. hi]: the
    cartesian product of the ranges, first slot slowest (the order the tool
    enumerates inputs in).  A generated file states its claim over
    [range_vecs] of the ranges the spec declares. *)
Fixpoint range_vecs (rs : list (Z * Z)) : list (list Z) :=
  match rs with
  | [] => [[]]
  | (lo, hi) :: rs' =>
      let tails := range_vecs rs' in
      flat_map (fun v => map (cons v) tails) (zrange lo hi)
  end.

(** Slotwise membership: as many slots as ranges, each in its range. *)
Fixpoint in_ranges (rs : list (Z * Z)) (x : list Z) : Prop :=
  match rs, x with
  | [], [] => True
  | (lo, hi) :: rs', v :: x' => (lo <= v <= hi)%Z /\ in_ranges rs' x'
  | _, _ => False
  end.

Lemma in_zseq (z : Z) (k : nat) (v : Z) : In v (zseq z k) <-> (z <= v < z + Z.of_nat k)%Z.
Proof.
  revert z. induction k as [|k IH]; intros z; cbn [zseq In].
  - split; [contradiction|lia].
  - rewrite IH. lia.
Qed.

Lemma in_zrange (lo hi v : Z) : In v (zrange lo hi) <-> (lo <= v <= hi)%Z.
Proof. unfold zrange. rewrite in_zseq. lia. Qed.

(** [range_vecs rs] lists exactly the vectors in the ranges [rs]. *)
Lemma in_range_vecs (rs : list (Z * Z)) (x : list Z) : In x (range_vecs rs) <-> in_ranges rs x.
Proof.
  revert x. induction rs as [|[lo hi] rs IH]; intros x; cbn [range_vecs in_ranges].
  - destruct x as [|v x]; cbn; split; intros H.
    + exact I.
    + left. reflexivity.
    + destruct H as [H|[]]. discriminate.
    + contradiction.
  - rewrite in_flat_map. split.
    + intros [v [Hv Hx]]. apply in_map_iff in Hx as [x' [<- Hx']].
      split; [apply in_zrange, Hv|apply IH, Hx'].
    + destruct x as [|v x']; [contradiction|]. intros [Hv Hx'].
      exists v. split; [apply in_zrange, Hv|]. apply in_map, IH, Hx'.
Qed.

(** ** Neighbouring input vectors *)

(** Componentwise [|x_k - x'_k| <= delta_k]; a missing or zero delta means a
    public component, which must be equal. *)
Fixpoint vec_nb (deltas x x' : list Z) : bool :=
  match x, x' with
  | [], [] => true
  | a :: x1, b :: x1' => (Z.abs (a - b) <=? hd 0%Z deltas)%Z && vec_nb (tl deltas) x1 x1'
  | _, _ => false
  end.

Definition nb_vec (deltas : list Z) (inputs : list (list Z)) : nat -> nat -> bool :=
  fun i j => vec_nb deltas (nth i inputs []) (nth j inputs []).

(** ** DP of the program *)

Definition dp_prog (deltas : list Z) (inputs : list (list Z)) (p : stmt) (nslots : nat)
    (eps delta : R) : Prop :=
  forall x x', In x inputs -> In x' inputs -> vec_nb deltas x x' = true ->
  forall E : list oval -> bool,
  (Q2R (dprob E (prog_run p nslots x)) <=
     exp eps * Q2R (dprob E (prog_run p nslots x')) + delta)%R.

(** ** Boolean side conditions *)

Fixpoint ovals_nodup (l : list (list oval)) : bool :=
  match l with
  | [] => true
  | o :: l' => negb (in_outs l' o) && ovals_nodup l'
  end.

Definition run_ok (d : dist (list oval)) : bool := dnonneg_b d && Qeq_bool (mass d) 1.

Definition check_runs (outs : list (list oval)) (runs : list (dist (list oval))) : bool :=
  ovals_nodup outs && forallb run_ok runs.

(** ** Sums over a list, in [Q] *)

Definition qsumf {B} (l : list B) (f : B -> Q) : Q := fold_right (fun b acc => f b + acc) 0 l.

Lemma qsumf_ext {B} (l : list B) f g : (forall b, f b == g b) -> qsumf l f == qsumf l g.
Proof. intros H. induction l as [|b l IH]; cbn; [reflexivity|]. rewrite H, IH. reflexivity. Qed.

Lemma rsum_q2r {B} (l : list B) (f : B -> Q) :
  rsum (map (fun b => Q2R (f b)) l) = Q2R (qsumf l f).
Proof.
  induction l as [|b l IH]; cbn [map qsumf fold_right].
  - rewrite rsum_nil. symmetry. apply q2r_0.
  - rewrite rsum_cons, IH, Q2R_plus. reflexivity.
Qed.

Lemma qsumf_dexpect {A B} (l : list B) (c : B -> Q) (d : dist A) (g : B -> A -> Q) :
  qsumf l (fun o => c o * dexpect d (g o)) == dexpect d (fun a => qsumf l (fun o => c o * g o a)).
Proof.
  induction l as [|o l IH]; cbn [qsumf fold_right].
  - symmetry. apply dexpect_zero.
  - fold (qsumf l (fun o => c o * dexpect d (g o))). rewrite IH.
    rewrite <- dexpect_scal, <- dexpect_plus. reflexivity.
Qed.

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

Lemma check_runs_spec (outs : list (list oval)) (p : stmt) (nslots : nat) (inputs : list (list Z)) :
  check_runs outs (map (prog_run p nslots) inputs) = true ->
  ovals_nodup outs = true /\
  forall x, In x inputs ->
    dnonneg (prog_run p nslots x) /\ mass (prog_run p nslots x) == 1.
Proof.
  unfold check_runs. rewrite andb_true_iff, forallb_forall. intros [Hnd Hr].
  split; [exact Hnd|]. intros x Hx.
  specialize (Hr _ (in_map _ _ _ Hx)). unfold run_ok in Hr.
  apply andb_true_iff in Hr as [Hn Hm]. split.
  - apply dnonneg_b_spec, Hn.
  - apply Qeq_bool_eq, Hm.
Qed.

(** ** The table is the program *)

Lemma nth_map_lt {A B} (f : A -> B) (l : list A) (n : nat) (d : B) (d' : A) :
  (n < length l)%nat -> nth n (map f l) d = f (nth n l d').
Proof.
  intros Hn. rewrite (nth_indep _ d (f d')) by (rewrite map_length; exact Hn).
  apply map_nth.
Qed.

Lemma entry_prog_mech (p : stmt) (nslots : nat) (inputs : list (list Z))
    (outs : list (list oval)) (i y : nat) :
  (i < length inputs)%nat -> (y < length outs)%nat ->
  entry (prog_mech p nslots inputs outs) i y =
  dprob (ovals_eqb (nth y outs [])) (prog_run p nslots (nth i inputs [])).
Proof.
  intros Hi Hy. unfold entry, prog_mech, mech_of_runs. cbn [rows]. rewrite map_map.
  rewrite (nth_map_lt _ _ _ _ []) by exact Hi. unfold run_row.
  rewrite (nth_map_lt _ _ _ _ []) by exact Hy. reflexivity.
Qed.

Lemma n_in_prog_mech p nslots inputs outs : n_in (prog_mech p nslots inputs outs) = length inputs.
Proof. apply map_length. Qed.

Lemma n_out_prog_mech p nslots inputs outs : n_out (prog_mech p nslots inputs outs) = length outs.
Proof. reflexivity. Qed.

(** An event on output indices read as an event on output sequences. *)
Lemma pr_prog_mech_sum (p : stmt) (nslots : nat) (inputs : list (list Z))
    (outs : list (list oval)) (i : nat) (E : list oval -> bool) :
  (i < length inputs)%nat ->
  pr (prog_mech p nslots inputs outs) i (fun y => E (nth y outs [])) =
  Q2R (qsumf outs (fun o => ind (E o) * dprob (ovals_eqb o) (prog_run p nslots (nth i inputs [])))).
Proof.
  intros Hi. rewrite <- rsum_q2r. unfold pr. rewrite n_out_prog_mech.
  rewrite (map_nth_seq (fun o => Q2R (ind (E o) * _)) outs []).
  f_equal. apply map_ext_in. intros y Hy. apply in_seq in Hy.
  unfold prob. rewrite entry_prog_mech by (assumption || lia).
  unfold ind. destruct (E (nth y outs [])).
  - apply Qeq_eqR. ring.
  - rewrite <- q2r_0. apply Qeq_eqR. ring.
Qed.

Lemma pr_prog_mech_listed (p : stmt) (nslots : nat) (inputs : list (list Z))
    (outs : list (list oval)) (i : nat) (E : list oval -> bool) :
  ovals_nodup outs = true -> (i < length inputs)%nat ->
  pr (prog_mech p nslots inputs outs) i (fun y => E (nth y outs [])) =
  Q2R (dprob (fun a => E a && in_outs outs a) (prog_run p nslots (nth i inputs []))).
Proof.
  intros Hnd Hi. rewrite pr_prog_mech_sum by exact Hi. apply Qeq_eqR.
  set (d := prog_run p nslots (nth i inputs [])).
  rewrite (qsumf_ext _ _ (fun o => ind (E o) * dexpect d (fun a => ind (ovals_eqb o a))))
    by (intros o; rewrite dprob_dexpect; reflexivity).
  rewrite qsumf_dexpect, dprob_dexpect. apply dexpect_ext. intros a _ _.
  apply in_outs_nodup_ind, Hnd.
Qed.

(** With mass 1 on the listed outputs, an event and its listed part have the same probability. *)
Lemma dprob_listed {A} (d : dist A) (L E : A -> bool) :
  dnonneg d -> mass d == 1 -> dprob L d == 1 -> dprob (fun a => E a && L a) d == dprob E d.
Proof.
  intros Hnn Hm HL. rewrite mass_dexpect in Hm. rewrite dprob_dexpect in HL |- *.
  rewrite dprob_dexpect.
  set (r := dexpect d (fun a => ind (E a && negb (L a)))).
  assert (Hsplit : dexpect d (fun a => ind (E a)) ==
                   dexpect d (fun a => ind (E a && L a)) + r).
  { unfold r. rewrite <- dexpect_plus. apply dexpect_ext. intros a _ _.
    unfold ind. destruct (E a), (L a); cbn; ring. }
  assert (Hr0 : 0 <= r).
  { apply dexpect_nonneg; [exact Hnn|]. intros a. unfold ind. destruct (_ && _); discriminate. }
  assert (Hr1 : r <= 0).
  { apply (Qle_trans _ (dexpect d (fun a => 1 + (-1) * ind (L a)))).
    - apply dexpect_mono; [exact Hnn|]. intros a.
      unfold ind. destruct (E a), (L a); cbn; discriminate.
    - rewrite dexpect_plus, dexpect_scal, Hm, HL. discriminate. }
  assert (Hr : r == 0) by (apply Qle_antisym; assumption).
  rewrite Hsplit, Hr. ring.
Qed.

Lemma pr_prog_mech_all (p : stmt) (nslots : nat) (inputs : list (list Z))
    (outs : list (list oval)) (i : nat) (E : list oval -> bool) :
  ovals_nodup outs = true -> distr (prog_mech p nslots inputs outs) ->
  dnonneg (prog_run p nslots (nth i inputs [])) ->
  mass (prog_run p nslots (nth i inputs [])) == 1 ->
  (i < length inputs)%nat ->
  pr (prog_mech p nslots inputs outs) i (fun y => E (nth y outs [])) =
  Q2R (dprob E (prog_run p nslots (nth i inputs []))).
Proof.
  intros Hnd Hdistr Hnn Hm Hi.
  rewrite pr_prog_mech_listed by assumption. apply Qeq_eqR, dprob_listed; [exact Hnn|exact Hm|].
  destruct (Hdistr i) as [_ Hall]; [rewrite n_in_prog_mech; exact Hi|].
  unfold everything in Hall.
  change (fun _ : nat => true) with (fun y : nat => (fun _ : list oval => true) (nth y outs [])) in Hall.
  rewrite pr_prog_mech_listed in Hall by assumption. rewrite <- q2r_1 in Hall.
  apply eqR_Qeq in Hall. rewrite <- Hall. apply dprob_of_dequiv, dequiv_refl.
Qed.

(** ** From DP of the table to DP of the program *)

Theorem dp_prog_of_dp (deltas : list Z) (inputs : list (list Z)) (p : stmt) (nslots : nat)
    (outs : list (list oval)) (eps delta : R) :
  ovals_nodup outs = true ->
  distr (prog_mech p nslots inputs outs) ->
  (forall x, In x inputs -> dnonneg (prog_run p nslots x) /\ mass (prog_run p nslots x) == 1) ->
  dp (nb_vec deltas inputs) (prog_mech p nslots inputs outs) eps delta ->
  dp_prog deltas inputs p nslots eps delta.
Proof.
  intros Hnd Hdistr Hruns Hdp x x' Hx Hx' Hnb E.
  destruct (In_nth _ _ [] Hx) as [i [Hi <-]].
  destruct (In_nth _ _ [] Hx') as [j [Hj <-]].
  assert (Hx0 := Hruns _ Hx). assert (Hx0' := Hruns _ Hx').
  specialize (Hdp i j ltac:(rewrite n_in_prog_mech; exact Hi)
                      ltac:(rewrite n_in_prog_mech; exact Hj) Hnb
                      (fun y => E (nth y outs []))).
  rewrite !pr_prog_mech_all in Hdp by (tauto || assumption).
  exact Hdp.
Qed.

(** ** From a refuted table to a refuted program *)

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

Lemma pr_ext (M : fmech) (x : nat) (S S' : event) :
  (forall y, (y < n_out M)%nat -> S y = S' y) -> pr M x S = pr M x S'.
Proof.
  intros H. unfold pr. f_equal. apply map_ext_in. intros y Hy.
  apply in_seq in Hy. rewrite H by lia. reflexivity.
Qed.

Theorem not_dp_prog_of_not_dp (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (eps delta : R) :
  ovals_nodup outs = true ->
  ~ dp (nb_vec deltas inputs) (prog_mech p nslots inputs outs) eps delta ->
  ~ dp_prog deltas inputs p nslots eps delta.
Proof.
  intros Hnd Hnot Hprog. apply Hnot. intros i j Hi Hj Hnb S.
  rewrite n_in_prog_mech in Hi, Hj.
  set (E := fun a => S (oidx a outs)).
  assert (HS : forall k, pr (prog_mech p nslots inputs outs) k S =
                         pr (prog_mech p nslots inputs outs) k (fun y => E (nth y outs []))).
  { intros k. apply pr_ext. intros y Hy. rewrite n_out_prog_mech in Hy.
    unfold E. rewrite oidx_nth by assumption. reflexivity. }
  rewrite !HS, !pr_prog_mech_listed by assumption.
  apply Hprog; [apply nth_In; exact Hi|apply nth_In; exact Hj|exact Hnb].
Qed.

(** ** The combined checks a generated file runs once *)

(** Each input's run is computed once ([let]: the VM evaluates it eagerly),
    then the side conditions and the criterion read the same table. *)
Definition check_prog_pointwise (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (L : Q) : bool :=
  let runs := map (prog_run p nslots) inputs in
  let M := mech_of_runs outs runs in
  check_runs outs runs && check_distr M && check_pointwise (nb_vec deltas inputs) L M.

Definition check_prog_hockey (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (L dq : Q) : bool :=
  let runs := map (prog_run p nslots) inputs in
  let M := mech_of_runs outs runs in
  check_runs outs runs && check_distr M && check_hockey (nb_vec deltas inputs) L dq M.

Theorem dp_prog_of_check_pointwise (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (eps : R) (L : Q) :
  (Q2R L <= exp eps)%R -> check_prog_pointwise deltas inputs p nslots outs L = true ->
  dp_prog deltas inputs p nslots eps 0.
Proof.
  intros HL H. unfold check_prog_pointwise in H. fold (prog_mech p nslots inputs outs) in H.
  apply andb_true_iff in H as [H Hpw]. apply andb_true_iff in H as [Hruns Hdistr].
  destruct (check_runs_spec _ _ _ _ Hruns) as [Hnd Hok].
  apply (dp_prog_of_dp _ _ _ _ outs); [exact Hnd|apply distr_of_check, Hdistr|exact Hok|].
  apply (dp_of_check_pointwise _ _ _ L HL Hpw).
Qed.

Theorem dp_prog_of_check_hockey_at (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (outs : list (list oval)) (eps d : R) (L dq : Q) :
  Q2R dq = d -> (Q2R L <= exp eps)%R ->
  check_prog_hockey deltas inputs p nslots outs L dq = true ->
  dp_prog deltas inputs p nslots eps d.
Proof.
  intros Hd HL H. unfold check_prog_hockey in H. fold (prog_mech p nslots inputs outs) in H.
  apply andb_true_iff in H as [H Hh]. apply andb_true_iff in H as [Hruns Hdistr].
  destruct (check_runs_spec _ _ _ _ Hruns) as [Hnd Hok].
  apply (dp_prog_of_dp _ _ _ _ outs); [exact Hnd|apply distr_of_check, Hdistr|exact Hok|].
  apply (dp_of_check_hockey_at _ _ _ _ L dq Hd HL Hh).
Qed.

(** ** A witness against DP of the program

    Inputs [i], [j] (indices into [inputs]) and a finite set [ev] of output
    sequences with Pr[run x_i ∈ ev] > U · Pr[run x_j ∈ ev] + δ, U ≥ e^ε.
    Only the two runs involved are computed. *)
Definition check_prog_witness (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (U dq : Q) (i j : nat) (ev : list (list oval)) : bool :=
  let x := nth i inputs [] in
  let x' := nth j inputs [] in
  let d := prog_run p nslots x in
  let d' := prog_run p nslots x' in
  (i <? length inputs) && (j <? length inputs) && vec_nb deltas x x' && dnonneg_b d' &&
  negb (Qle_bool (dprob (in_outs ev) d) (U * dprob (in_outs ev) d' + dq)).

Theorem not_dp_prog_of_witness_at (deltas : list Z) (inputs : list (list Z)) (p : stmt)
    (nslots : nat) (eps d : R) (U dq : Q) (i j : nat) (ev : list (list oval)) :
  Q2R dq = d -> (exp eps <= Q2R U)%R ->
  check_prog_witness deltas inputs p nslots U dq i j ev = true ->
  ~ dp_prog deltas inputs p nslots eps d.
Proof.
  intros <- HU Hw Hprog. unfold check_prog_witness in Hw.
  rewrite !andb_true_iff, negb_true_iff in Hw.
  destruct Hw as [[[[Hi Hj] Hnb] Hnn] Hgt].
  apply Nat.ltb_lt in Hi, Hj. apply dnonneg_b_spec in Hnn.
  specialize (Hprog _ _ (nth_In _ _ Hi) (nth_In _ _ Hj) Hnb (in_outs ev)).
  set (a := dprob (in_outs ev) (prog_run p nslots (nth i inputs []))) in *.
  set (b := dprob (in_outs ev) (prog_run p nslots (nth j inputs []))) in *.
  assert (Hb : (0 <= Q2R b)%R).
  { rewrite <- q2r_0. apply Qle_Rle, dprob_nonneg, Hnn. }
  assert (Hle : (a <= U * b + dq)%Q).
  { apply Rle_Qle. rewrite Q2R_plus, Q2R_mult.
    apply Rmult_le_compat_r with (r := Q2R b) in HU; [|exact Hb]. lra. }
  apply Qle_bool_iff in Hle. congruence.
Qed.
