(** * Families of finite mechanisms: DP from a pointwise bound proved for all parameters

    A family of finite mechanisms is a formula [f x y] over the input values
    [x0 .. x1] and the output values [y0 .. y1] ([fmech_z]), whose parameters are
    Coq variables rather than numbers.  Its DP is proved once, from a pointwise
    bound M(x)(y) ≤ L · M(x')(y) shown by case analysis on the formula
    ([dp_of_pointwise]), not by computing a table; an instance (or a mechanism
    whose entries equal the family's) inherits it ([dp_entry_eq]). *)
From Coq Require Import List ZArith QArith Qpower Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP.
Import ListNotations.

(** The number of integers in [lo .. hi] (0 when [hi < lo]). *)
Definition zcount (lo hi : Z) : nat := Z.to_nat (hi - lo + 1).

(** The mechanism of the formula [f] over input values [x0 .. x1] and output values [y0 .. y1]. *)
Definition fmech_z (x0 x1 y0 y1 : Z) (f : Z -> Z -> Q) : fmech :=
  FMech (zcount x0 x1) (zcount y0 y1) (tabulate_z x0 (zcount x0 x1) y0 (zcount y0 y1) f).

Lemma zseq_length (z : Z) (k : nat) : length (zseq z k) = k.
Proof. revert z. induction k as [|k IH]; intros z; cbn; [reflexivity|]. now rewrite IH. Qed.

Lemma nth_zseq (z : Z) (k i : nat) (d : Z) :
  (i < k)%nat -> nth i (zseq z k) d = (z + Z.of_nat i)%Z.
Proof.
  revert z i. induction k as [|k IH]; intros z i Hi; [lia|].
  destruct i as [|i]; cbn [zseq nth]; [lia|].
  rewrite IH by lia. lia.
Qed.

(** Entry [x], [y] of the family's table is the formula at the values [x0 + x], [y0 + y]. *)
Lemma fmech_z_entry (x0 x1 y0 y1 : Z) (f : Z -> Z -> Q) (x y : nat) :
  (x < zcount x0 x1)%nat -> (y < zcount y0 y1)%nat ->
  entry (fmech_z x0 x1 y0 y1 f) x y = f (x0 + Z.of_nat x)%Z (y0 + Z.of_nat y)%Z.
Proof.
  intros Hx Hy. unfold entry, fmech_z, tabulate_z. cbn [rows].
  rewrite (nth_map_lt _ _ _ [] 0%Z) by (rewrite zseq_length; exact Hx).
  rewrite (nth_map_lt _ _ _ 0%Q 0%Z) by (rewrite zseq_length; exact Hy).
  rewrite !nth_zseq by assumption. reflexivity.
Qed.

(** ** DP from a pointwise bound, for a table Coq never computes *)

Lemma dp_of_pointwise (nb : nat -> nat -> bool) (M : fmech) (eps : R) (L : Q) :
  (Q2R L <= exp eps)%R ->
  (forall x x' y, (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true -> (y < n_out M)%nat ->
     (0 <= entry M x' y /\ entry M x y <= L * entry M x' y)%Q) ->
  dp nb M eps 0.
Proof.
  intros HL Hpt x x' Hx Hx' Hnb S.
  assert (Hle : (pr M x S <= Q2R L * pr M x' S)%R).
  { unfold pr. rewrite <- rsum_scal. apply rsum_le.
    intros y Hy. apply in_seq in Hy.
    destruct (S y); [|lra].
    unfold prob. rewrite <- Q2R_mult. apply Qle_Rle.
    apply (Hpt x x' y Hx Hx' Hnb). lia. }
  assert (Hpos : (0 <= pr M x' S)%R).
  { apply pr_nonneg. intros y Hy. unfold prob. rewrite <- q2r_0. apply Qle_Rle.
    apply (Hpt x x' y Hx Hx' Hnb Hy). }
  apply Rmult_le_compat_r with (r := pr M x' S) in HL; [|exact Hpos].
  lra.
Qed.

(** ** Mechanisms with equal entries *)

Lemma pr_entry_eq (M M' : fmech) (x : nat) (S : event) :
  n_out M = n_out M' ->
  (forall y, (y < n_out M)%nat -> entry M x y == entry M' x y) ->
  pr M x S = pr M' x S.
Proof.
  intros Hout He. unfold pr. rewrite <- Hout. apply rsum_ext_in.
  intros y Hy. apply in_seq in Hy. destruct (S y); [|reflexivity].
  unfold prob. apply Qeq_eqR, He. lia.
Qed.

(** A mechanism whose entries equal those of a DP mechanism (on the same inputs and
    outputs) is DP: how an instance, or a spec's own formula, inherits a family's theorem. *)
Lemma dp_entry_eq (nb : nat -> nat -> bool) (M M' : fmech) (eps delta : R) :
  n_in M = n_in M' -> n_out M = n_out M' ->
  (forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> entry M x y == entry M' x y) ->
  dp nb M eps delta -> dp nb M' eps delta.
Proof.
  intros Hin Hout He HM x x' Hx Hx' Hnb S.
  rewrite <- Hin in Hx, Hx'.
  rewrite <- !(pr_entry_eq M M') by (try exact Hout; intros y Hy; apply He; assumption).
  apply HM; assumption.
Qed.

Lemma distr_entry_eq (M M' : fmech) :
  n_in M = n_in M' -> n_out M = n_out M' ->
  (forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> entry M x y == entry M' x y) ->
  distr M -> distr M'.
Proof.
  intros Hin Hout He HM x Hx. rewrite <- Hin in Hx.
  destruct (HM x Hx) as [Hnn Hsum]. split.
  - intros y Hy. rewrite <- Hout in Hy. unfold prob.
    rewrite <- (Qeq_eqR _ _ (He x y Hx Hy)). apply Hnn, Hy.
  - rewrite <- (pr_entry_eq M M') by (try exact Hout; intros y Hy; apply He; assumption).
    exact Hsum.
Qed.

(** Two formulas that agree on the input and output values give mechanisms with equal entries. *)
Lemma fmech_z_entry_eq (x0 x1 y0 y1 : Z) (f g : Z -> Z -> Q) :
  (forall x y, (x0 <= x <= x1)%Z -> (y0 <= y <= y1)%Z -> f x y == g x y) ->
  forall x y, (x < n_in (fmech_z x0 x1 y0 y1 f))%nat -> (y < n_out (fmech_z x0 x1 y0 y1 f))%nat ->
  entry (fmech_z x0 x1 y0 y1 f) x y == entry (fmech_z x0 x1 y0 y1 g) x y.
Proof.
  intros Hfg x y Hx Hy. cbn [n_in n_out fmech_z] in Hx, Hy.
  rewrite !fmech_z_entry by assumption.
  unfold zcount in Hx, Hy. apply Hfg; lia.
Qed.

(** The step from a spec's formula to a library family: the same inputs and outputs,
    equal values on them. *)
Lemma dp_fmech_z_eq (nb : nat -> nat -> bool) (x0 x1 y0 y1 : Z) (f g : Z -> Z -> Q) (eps delta : R) :
  (forall x y, (x0 <= x <= x1)%Z -> (y0 <= y <= y1)%Z -> g x y == f x y) ->
  dp nb (fmech_z x0 x1 y0 y1 g) eps delta -> dp nb (fmech_z x0 x1 y0 y1 f) eps delta.
Proof.
  intros Hfg. apply dp_entry_eq; [reflexivity|reflexivity|].
  apply fmech_z_entry_eq, Hfg.
Qed.

Lemma distr_fmech_z_eq (x0 x1 y0 y1 : Z) (f g : Z -> Z -> Q) :
  (forall x y, (x0 <= x <= x1)%Z -> (y0 <= y <= y1)%Z -> g x y == f x y) ->
  distr (fmech_z x0 x1 y0 y1 g) -> distr (fmech_z x0 x1 y0 y1 f).
Proof.
  intros Hfg. apply distr_entry_eq; [reflexivity|reflexivity|].
  apply fmech_z_entry_eq, Hfg.
Qed.

(** ** Powers of a rational in (0, 1) *)
Section Powers.
Local Open Scope Q_scope.

Lemma qpow_le_1 (a : Q) (k : Z) : 0 <= a -> a <= 1 -> (0 <= k)%Z -> a ^ k <= 1.
Proof.
  intros H0 H1 Hk. destruct (Z_of_nat_complete k Hk) as [m ->]. clear Hk.
  induction m as [|m IH]; [apply Qle_refl|].
  rewrite Nat2Z.inj_succ, <- Z.add_1_r, Qpower_plus' by lia.
  apply Qle_trans with (1 * a); [apply Qmult_le_compat_r; [exact IH|exact H0]|].
  rewrite Qmult_1_l. exact H1.
Qed.

(** a^z ≤ a^z' for z' ≤ z (0 < a ≤ 1). *)
Lemma qpow_anti (a : Q) (z z' : Z) : 0 < a -> a <= 1 -> (z' <= z)%Z -> a ^ z <= a ^ z'.
Proof.
  intros H0 H1 Hz. replace z with (z' + (z - z'))%Z by lia.
  rewrite Qpower_plus by (intros E; rewrite E in H0; discriminate).
  apply Qle_trans with (a ^ z' * 1); [|rewrite Qmult_1_r; apply Qle_refl].
  rewrite (Qmult_comm (a ^ z')), (Qmult_comm (a ^ z')).
  apply Qmult_le_compat_r; [apply qpow_le_1; [apply Qlt_le_weak, H0|exact H1|lia]|].
  apply Qpower_0_le, Qlt_le_weak, H0.
Qed.

(** One step of the exponent costs a factor 1/a: a^z ≤ (1/a)·a^z' when z' ≤ z + 1. *)
Lemma qpow_step (a : Q) (z z' : Z) : 0 < a -> a <= 1 -> (z' <= z + 1)%Z -> a ^ z <= / a * a ^ z'.
Proof.
  intros H0 H1 Hz.
  assert (Ha : ~ a == 0) by (intros E; rewrite E in H0; discriminate).
  assert (E : / a * a ^ z' == a ^ (z' - 1)).
  { unfold Z.sub. rewrite Qpower_plus by exact Ha.
    change (a ^ (-1)) with (/ (a ^ 1)). rewrite Qmult_comm. reflexivity. }
  rewrite E. apply qpow_anti; [exact H0|exact H1|lia].
Qed.

Lemma qpow_nonneg (a : Q) (z : Z) : 0 < a -> 0 <= a ^ z.
Proof. intros H. apply Qpower_0_le, Qlt_le_weak, H. Qed.

End Powers.

(** e^(−ln a) = 1/a, the bound of families whose ratios are powers of a. *)
Lemma exp_neg_ln_q (a : Q) : 0 < a -> Q2R (/ a) = exp (- ln (Q2R a)).
Proof.
  intros Ha. assert (Hr : (0 < Q2R a)%R) by (rewrite <- q2r_0; apply Qlt_Rlt, Ha).
  rewrite Q2R_inv by (intros E; rewrite E in Ha; discriminate).
  rewrite exp_Ropp, exp_ln by exact Hr. reflexivity.
Qed.

(** ** Bounds on e^ε for a claim stated with the family's parameters *)

Lemma bound_exp_neg_ln (L a : Q) : 0 < a -> L == / a -> (Q2R L <= exp (- ln (Q2R a)))%R.
Proof. intros Ha HL. rewrite (Qeq_eqR _ _ HL), exp_neg_ln_q by exact Ha. apply Rle_refl. Qed.

Lemma bound_exp_ln (L a : Q) : 0 < a -> L == a -> (Q2R L <= exp (ln (Q2R a)))%R.
Proof.
  intros Ha HL. assert (Hr : (0 < Q2R a)%R) by (rewrite <- q2r_0; apply Qlt_Rlt, Ha).
  rewrite (Qeq_eqR _ _ HL), exp_ln by exact Hr. apply Rle_refl.
Qed.

Lemma bound_exp_ln_inv (L a : Q) : 0 < a -> L == / a -> (Q2R L <= exp (ln (Q2R (1 / a))))%R.
Proof.
  intros Ha HL. apply bound_exp_ln.
  - apply Qlt_shift_div_l; [exact Ha|]. rewrite Qmult_0_l. reflexivity.
  - rewrite HL. field. intros E. rewrite E in Ha. discriminate.
Qed.

Lemma q2r_le_of_eq (L L' : Q) (e : R) : L == L' -> (Q2R L' <= e)%R -> (Q2R L <= e)%R.
Proof. intros HL. rewrite (Qeq_eqR _ _ HL). trivial. Qed.

(** ** Tactics of the generated files *)

(** A spec's formula equals a library family's on the inputs and outputs: split on
    every condition of both, turn the boolean facts into arithmetic, discard the
    contradictory cases with [lia], and close the rest by conversion. *)
Ltac family_cases :=
  repeat match goal with
  | |- context [if ?b then _ else _] => destruct b eqn:?
  end;
  repeat match goal with
  | H : Z.eqb _ _ = true |- _ => apply Z.eqb_eq in H
  | H : Z.eqb _ _ = false |- _ => apply Z.eqb_neq in H
  | H : Z.ltb _ _ = true |- _ => apply Z.ltb_lt in H
  | H : Z.ltb _ _ = false |- _ => apply Z.ltb_ge in H
  | H : Z.leb _ _ = true |- _ => apply Z.leb_le in H
  | H : Z.leb _ _ = false |- _ => apply Z.leb_gt in H
  | H : negb _ = true |- _ => apply Bool.negb_true_iff in H
  | H : negb _ = false |- _ => apply Bool.negb_false_iff in H
  | H : (_ && _)%bool = true |- _ => apply Bool.andb_true_iff in H; destruct H
  | H : (_ || _)%bool = false |- _ => apply Bool.orb_false_iff in H; destruct H
  end;
  try (exfalso; lia);
  try reflexivity.

(** Exponents of the same base that [lia] shows equal are made the same term
    ([alpha ^ |y − x|] and [alpha ^ |x − y|]). *)
Ltac same_exponents :=
  repeat match goal with
  | |- context [Qpower ?a ?e1] =>
      match goal with
      | |- context [Qpower a ?e2] =>
          assert_fails (constr_eq e1 e2); replace e2 with e1 by lia
      end
  end.

Lemma one_plus_nonzero (a : Q) : 0 <= a -> ~ 1 + a == 0.
Proof.
  intros Ha E. assert (H : 0 < 1 + a) by (apply Qlt_le_trans with 1; [reflexivity|];
    rewrite <- (Qplus_0_r 1) at 1; apply Qplus_le_r, Ha).
  rewrite E in H. discriminate.
Qed.

(** A denominator of a family's formula is not zero: a constant, or 1 + a with a ≥ 0
    (from a hypothesis 0 < a or 0 < a < 1 in context). *)
Ltac denominator_nonzero :=
  first [ intros Hz; discriminate Hz
        | apply one_plus_nonzero; apply Qlt_le_weak; tauto
        | apply one_plus_nonzero; tauto ].

(** The same, then the values of each case equal up to the exponents and [field]. *)
Ltac family_cases_field :=
  family_cases;
  try (same_exponents; reflexivity);
  try (same_exponents; field; repeat split; denominator_nonzero).

(** Conditions on numbers, decided by computation: [0 < 1 # 2], [(1 <= 5)%Z]. *)
Ltac const_conditions :=
  repeat split; vm_compute; first [reflexivity | intros Hc; discriminate Hc].

(** The spec's constraints (in context) give the family's conditions. *)
Ltac family_conditions :=
  intros; repeat match goal with H : _ /\ _ |- _ => destruct H end;
  repeat split; first [assumption | lia].

(** ** A table that is a family's member, entry by entry

    [entries_eqb M M'] compares every entry exactly (one [vm_compute]): how a
    spec's explicit table (seed 002's ¼ and ½ threshold tables) is shown to be a
    member of a library family, whose theorems it then inherits. *)
Definition entries_eqb (M M' : fmech) : bool :=
  Nat.eqb (n_in M) (n_in M') && Nat.eqb (n_out M) (n_out M') &&
  forallb (fun x => forallb (fun y => Qeq_bool (entry M x y) (entry M' x y)) (seq 0 (n_out M)))
    (seq 0 (n_in M)).

Lemma entries_eq_of_check (M M' : fmech) :
  entries_eqb M M' = true ->
  n_in M = n_in M' /\ n_out M = n_out M' /\
  (forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> entry M x y == entry M' x y).
Proof.
  unfold entries_eqb. rewrite !Bool.andb_true_iff, !Nat.eqb_eq, forallb_forall.
  intros [[Hin Hout] H]. repeat split; [exact Hin|exact Hout|].
  intros x y Hx Hy. specialize (H x (proj2 (in_seq _ _ _) (conj (Nat.le_0_l x) Hx))).
  rewrite forallb_forall in H. apply Qeq_bool_eq, H, in_seq. lia.
Qed.
