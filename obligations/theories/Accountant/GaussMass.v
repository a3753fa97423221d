(** * Float lower bounds of the discrete Gaussian's masses, from 70-bit intervals

    The masses e^(−n²/2v)/N of [dgauss v] (DGauss.v) are irrational.  The interval exponential
    of binary64 (coq-interval's primitive floats) puts its lower end about 10⁻¹³·|x| below e^x,
    and K runs multiply that loss K-fold.  Here the kernel values are computed in coq-interval's
    floats with integer mantissas at 70 bits ([J], [jprec]), by a recurrence with one
    exponential: e^(−(n+1)²/2v) = e^(−n²/2v)·r_n with r_n = e^(−(2n+1)/2v) and
    r_(n+1) = r_n·e^(−1/v) ([jkerns]).  An interval above the normaliser N is the window's sum
    plus the proved tail bound ([jnorm], [dg_norm_le]); each quotient's lower end, read as a
    rational, is rounded down to a binary64 float ([hmasses]), at most a few ulps below the
    mass.  The masses at 0 .. m ([hmasses_lo]); the noise is symmetric, so they serve −m .. m. *)
From Coq Require Import List ZArith PArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Specific_ops Float.Specific_stdz Float.Sig Float.Basic Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Finite Require Import PLDCheck.
From Obligations.Coupling Require Import Geometric.
From Obligations.Accountant Require Import DownFloat DGauss.
Import ListNotations.

Module SF := SpecificFloat StdZRadix2.
Module J := FloatIntervalFull SF.

Definition jprec : SF.precision := 70%Z.

Local Open Scope R_scope.

(** ** Rationals and the 2v of the noise *)

Lemma q2r_inject_Z (n : Z) : Q2R (inject_Z n) = IZR n.
Proof. unfold Q2R, inject_Z. cbn [Qnum Qden]. change (IZR (Z.pos 1)) with 1. field. Qed.

Lemma q2r_2v (v : Q) : (0 < v)%Q -> Q2R (2 * v) = 2 * Q2R v /\ 0 < Q2R v.
Proof.
  intros Hv. rewrite Q2R_mult. split; [|rewrite <- q2r_0; apply Qlt_Rlt, Hv].
  f_equal. unfold Q2R. cbn [Qnum Qden]. change (IZR (Z.pos 1)) with 1. field.
Qed.

Lemma q2r_over_2v (v : Q) (n : Q) : (0 < v)%Q -> Q2R (n / (2 * v)) = Q2R n / (2 * Q2R v).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [E Hp]. rewrite Q2R_div, E; [reflexivity|].
  intros H. apply Qeq_eqR in H. rewrite E, q2r_0 in H. lra.
Qed.

(** ** 70-bit intervals *)

Definition jhas (xi : J.type) (r : R) : Prop := contains (J.convert xi) (Xreal r).

Definition jq (q : Q) : J.type := J.div jprec (J.fromZ jprec (Qnum q)) (J.fromZ jprec (Zpos (Qden q))).

Lemma jq_correct (q : Q) : jhas (jq q) (Q2R q).
Proof.
  unfold jq, jhas, Q2R.
  pose proof (J.div_correct jprec _ _ _ _ (J.fromZ_correct jprec (Qnum q)) (J.fromZ_correct jprec (Zpos (Qden q)))) as H.
  unfold Xbind2, Xdiv' in H. rewrite is_zero_false in H by (apply not_0_IZR; discriminate). exact H.
Qed.

Lemma jadd_correct xi yi x y : jhas xi x -> jhas yi y -> jhas (J.add jprec xi yi) (x + y).
Proof. intros Hx Hy. exact (J.add_correct jprec xi yi (Xreal x) (Xreal y) Hx Hy). Qed.

Lemma jsub_correct xi yi x y : jhas xi x -> jhas yi y -> jhas (J.sub jprec xi yi) (x - y).
Proof. intros Hx Hy. exact (J.sub_correct jprec xi yi (Xreal x) (Xreal y) Hx Hy). Qed.

Lemma jmul_correct xi yi x y : jhas xi x -> jhas yi y -> jhas (J.mul jprec xi yi) (x * y).
Proof. intros Hx Hy. exact (J.mul_correct jprec xi yi (Xreal x) (Xreal y) Hx Hy). Qed.

Lemma jdiv_correct xi yi x y : jhas xi x -> jhas yi y -> y <> 0 -> jhas (J.div jprec xi yi) (x / y).
Proof.
  intros Hx Hy Hy0. pose proof (J.div_correct jprec xi yi (Xreal x) (Xreal y) Hx Hy) as H.
  unfold Xbind2, Xdiv' in H. rewrite is_zero_false in H by exact Hy0. exact H.
Qed.

Lemma jexp_correct xi x : jhas xi x -> jhas (J.exp jprec xi) (exp x).
Proof. intros H. exact (J.exp_correct jprec xi (Xreal x) H). Qed.

Lemma jexp_q (v : Q) (n : Q) : (0 < v)%Q -> jhas (J.exp jprec (jq (n / (2 * v)))) (exp (Q2R n / (2 * Q2R v))).
Proof. intros Hv. rewrite <- q2r_over_2v by exact Hv. apply jexp_correct, jq_correct. Qed.

(** ** The kernel at 0 .. n − 1 by the recurrence *)

Fixpoint jkerns (n : nat) (k r q2 : J.type) : list J.type :=
  match n with
  | O => []
  | S n' => k :: jkerns n' (J.mul jprec k r) (J.mul jprec r q2) q2
  end.

Definition kern_at (vr : R) (i : nat) : R := dg_kernel vr (Z.of_nat i).

Lemma kern_step (vr : R) (i : nat) :
  0 < vr -> kern_at vr (S i) = kern_at vr i * exp (- INR (2 * i + 1) / (2 * vr)).
Proof.
  intros Hv. unfold kern_at, dg_kernel. rewrite <- exp_plus. f_equal.
  rewrite Nat2Z.inj_succ, succ_IZR, <- INR_IZR_INZ, plus_INR, mult_INR. cbn [INR]. field. lra.
Qed.

Lemma jkerns_ok (vr : R) (n i : nat) (k r q2 : J.type) :
  0 < vr -> jhas k (kern_at vr i) -> jhas r (exp (- INR (2 * i + 1) / (2 * vr))) -> jhas q2 (exp (- 2 / (2 * vr))) ->
  Forall2 jhas (jkerns n k r q2) (map (kern_at vr) (seq i n)).
Proof.
  intros Hv. revert i k r. induction n as [|n IH]; intros i k r Hk Hr Hq; cbn [jkerns seq map]; [constructor|].
  constructor; [exact Hk|]. apply IH; [rewrite kern_step by exact Hv; apply jmul_correct; assumption| |exact Hq].
  replace (- INR (2 * S i + 1) / (2 * vr)) with (- INR (2 * i + 1) / (2 * vr) + - 2 / (2 * vr))
    by (rewrite !plus_INR, !mult_INR, (S_INR i); replace (INR 2) with 2 by (cbn; ring); replace (INR 1) with 1 by reflexivity; field; lra).
  rewrite exp_plus. apply jmul_correct; assumption.
Qed.

(** The kernel at 0 .. m: e^0 = 1, r_0 = e^(−1/2v), e^(−1/v). *)
Definition jks (v : Q) (m : nat) : list J.type :=
  jkerns (S m) (J.fromZ jprec 1) (J.exp jprec (jq (- 1 / (2 * v)))) (J.exp jprec (jq (- 2 / (2 * v)))).

Lemma jks_ok (v : Q) (m : nat) : (0 < v)%Q -> Forall2 jhas (jks v m) (map (kern_at (Q2R v)) (seq 0 (S m))).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [_ Hp]. apply jkerns_ok; [exact Hp| | |].
  - unfold kern_at. cbn [Z.of_nat]. rewrite dg_kernel_0. exact (J.fromZ_correct jprec 1).
  - assert (E : Q2R (- 1) = - INR (2 * 0 + 1))
      by (unfold Q2R; cbn [Qnum Qden Nat.mul Nat.add INR]; change (IZR (Z.neg 1)) with (- IZR 1); field).
    unfold Rdiv. rewrite <- E. apply jexp_q, Hv.
  - assert (E : Q2R (- 2) = - 2) by (unfold Q2R; cbn [Qnum Qden]; change (IZR (Z.neg 2)) with (- IZR 2); field).
    unfold Rdiv. rewrite <- E. apply jexp_q, Hv.
Qed.

(** ** An interval above the normaliser *)

(** Σ over [−n, n] of the kernel: the value at 0 plus twice those at 1 .. n. *)
Fixpoint jwin (ks : list J.type) (n : nat) : J.type :=
  match n with
  | O => nth 0 ks J.zero
  | S n' => J.add jprec (J.add jprec (nth n ks J.zero) (nth n ks J.zero)) (jwin ks n')
  end.

Lemma nth_forall2 {A B} (P : A -> B -> Prop) (l1 : list A) (l2 : list B) (n : nat) (d1 : A) (d2 : B) :
  Forall2 P l1 l2 -> (n < length l1)%nat -> P (nth n l1 d1) (nth n l2 d2).
Proof.
  intros H. revert n. induction H as [|a b l1 l2 Hab H IH]; intros n Hn; cbn [length] in Hn; [lia|].
  destruct n as [|n]; cbn [nth]; [exact Hab|apply IH; lia].
Qed.

Lemma forall2_length {A B} (P : A -> B -> Prop) (l1 : list A) (l2 : list B) : Forall2 P l1 l2 -> length l1 = length l2.
Proof. intros H. induction H; cbn [length]; [reflexivity|f_equal; assumption]. Qed.

Lemma jks_at (v : Q) (m n : nat) : (0 < v)%Q -> (n <= m)%nat -> jhas (nth n (jks v m) J.zero) (kern_at (Q2R v) n).
Proof.
  intros Hv Hn. pose proof (jks_ok v m Hv) as H.
  pose proof (nth_forall2 _ _ _ n J.zero (kern_at (Q2R v) 0) H) as Hn'. rewrite map_nth, seq_nth in Hn' by lia.
  apply Hn'. rewrite (forall2_length _ _ _ H), map_length, seq_length. lia.
Qed.

Lemma jwin_ok (v : Q) (m n : nat) : (0 < v)%Q -> (n <= m)%nat ->
  jhas (jwin (jks v m) n) (rsum (map (dg_kernel (Q2R v)) (win n))).
Proof.
  intros Hv. induction n as [|n IH]; intros Hn; cbn [jwin win map].
  - rewrite rsum_cons. cbn [rsum fold_right]. rewrite Rplus_0_r. exact (jks_at v m 0 Hv Hn).
  - rewrite !rsum_cons, dg_kernel_opp, <- Rplus_assoc. apply jadd_correct; [|apply IH; lia].
    apply jadd_correct; apply (jks_at v m (S n) Hv Hn).
Qed.

(** 2·e^(−(m+1)²/2v)/(1 − e^(−(m+1)/2v)), the tail bound of [dg_norm_le]. *)
Definition jtail (v : Q) (m : nat) : J.type :=
  let n := inject_Z (Z.of_nat (S m)) in
  J.div jprec (J.mul jprec (J.fromZ jprec 2) (J.exp jprec (jq (- (n * n) / (2 * v)))))
              (J.sub jprec (J.fromZ jprec 1) (J.exp jprec (jq (- n / (2 * v))))).

Lemma jtail_ok (v : Q) (m : nat) : (0 < v)%Q ->
  jhas (jtail v m) (2 * exp (- (INR (S m) * INR (S m)) / (2 * Q2R v)) / (1 - exp (- (INR (S m) / (2 * Q2R v))))).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [_ Hp]. unfold jtail.
  assert (En : Q2R (inject_Z (Z.of_nat (S m))) = INR (S m)) by (rewrite q2r_inject_Z, INR_IZR_INZ; reflexivity).
  apply jdiv_correct.
  - apply jmul_correct; [exact (J.fromZ_correct jprec 2)|].
    replace (- (INR (S m) * INR (S m)) / (2 * Q2R v))
      with (Q2R (- (inject_Z (Z.of_nat (S m)) * inject_Z (Z.of_nat (S m)))) / (2 * Q2R v))
      by (rewrite Q2R_opp, Q2R_mult, En; reflexivity).
    apply jexp_q, Hv.
  - apply jsub_correct; [exact (J.fromZ_correct jprec 1)|].
    replace (- (INR (S m) / (2 * Q2R v))) with (Q2R (- inject_Z (Z.of_nat (S m))) / (2 * Q2R v))
      by (rewrite Q2R_opp, En; unfold Rdiv; ring).
    apply jexp_q, Hv.
  - assert (H : exp (- (INR (S m) / (2 * Q2R v))) < 1).
    { apply exp_neg_lt_1. apply Rdiv_lt_0_compat; [apply lt_0_INR; lia|lra]. }
    lra.
Qed.

Definition jnorm (v : Q) (m : nat) : J.type := J.add jprec (jwin (jks v m) m) (jtail v m).

(** ** From a 70-bit lower end to a binary64 float *)

(** The value of a float with an integer mantissa, as a rational (NaN as 0). *)
Definition sf_q (x : SF.type) : Q :=
  match x with
  | Specific_ops.Fnan => 0%Q
  | Specific_ops.Float mnt e =>
      match e with
      | Z0 => inject_Z mnt
      | Zpos p => inject_Z (mnt * Z.pow_pos 2 p)
      | Zneg p => Qmake mnt (Pos.pow 2 p)
      end
  end.

Lemma sf_q_toX (x : SF.type) : SF.toX x = Xnan \/ SF.toX x = Xreal (Q2R (sf_q x)).
Proof.
  destruct x as [|mnt e]; [left; reflexivity|right].
  unfold SF.toX, SF.toF.
  destruct mnt as [|p|p]; destruct e as [|q|q];
    cbv [StdZRadix2.mantissa_sign StdZRadix2.MtoP StdZRadix2.EtoZ sf_q FtoX FtoR Q2R Qnum Qden inject_Z Zaux.radix_val radix2 SF.radix StdZRadix2.radix];
    f_equal; rewrite ?Pos2Z.inj_pow_pos; rewrite ?Rmult_0_l; try reflexivity; try field.
Qed.

(** A float at most [r] from an interval holding some x ≤ r. *)
Lemma flower_le (xi : I.type) (x r : R) : has xi x -> x <= r -> 0 <= r -> lo (flower xi) r.
Proof.
  intros H Hxr Hr. unfold flower. destruct xi as [|l u]; cbn [I.lower].
  - apply fclamp_lo; [|unfold le_lower, le_upper|exact Hr].
    + rewrite F.valid_lb_correct, F.nan_correct. reflexivity.
    + pose proof (F.real_correct F.nan) as R1. rewrite F.classify_correct, F.nan_correct in R1.
      destruct (F.toX F.nan); [exact I|discriminate].
  - unfold has in H. cbn [I.convert] in H.
    destruct (F.valid_lb l) eqn:Hl; [|cbn in H; destruct H; lra].
    destruct (F.valid_ub u) eqn:Hu; [|cbn in H; destruct H; lra].
    cbn in H. destruct H as [H _]. apply fclamp_lo; [exact Hl| |exact Hr].
    unfold le_lower, le_upper. destruct (F.toX l); cbn in *; [exact I|lra].
Qed.

(** The binary64 float below the lower end of [xi]. *)
Definition jflower (xi : J.type) : F.type := flower (iq (sf_q (J.lower xi))).

Lemma jflower_lo (xi : J.type) (x r : R) : jhas xi x -> x <= r -> 0 <= r -> lo (jflower xi) r.
Proof.
  intros H Hxr Hr. unfold jflower. apply (flower_le _ (Q2R (sf_q (J.lower xi)))); [apply iq_correct| |exact Hr].
  destruct xi as [|l u]; cbn [J.lower].
  - cbn [J.F.nan SF.nan sf_q]. rewrite q2r_0. exact Hr.
  - unfold jhas in H. cbn [J.convert] in H.
    destruct (J.F.valid_lb l && J.F.valid_ub u); [|cbn in H; lra].
    destruct H as [H _]. destruct (sf_q_toX l) as [E|E]; change (J.F.toX l) with (SF.toX l) in H; rewrite E in H.
    + destruct l as [|mnt e]; [cbn; rewrite q2r_0; exact Hr|].
      exfalso. unfold SF.toX, SF.toF in E. cbn [StdZRadix2.mantissa_sign] in E. destruct mnt; discriminate.
    + cbn in H. lra.
Qed.

(** ** The masses at 0 .. m *)

Definition hmasses (v : Q) (m : nat) : list F.type :=
  let N := jnorm v m in map (fun k => jflower (J.div jprec k N)) (jks v m).

Lemma hmasses_lo (v : Q) (m : nat) : (0 < v)%Q ->
  Forall2 lo (hmasses v m) (map (fun n => dgauss (Q2R v) (Z.of_nat n)) (seq 0 (S m))).
Proof.
  intros Hv. destruct (q2r_2v v Hv) as [_ Hp]. set (vr := Q2R v) in *.
  set (U := rsum (map (dg_kernel vr) (win m)) +
            2 * exp (- (INR (S m) * INR (S m)) / (2 * vr)) / (1 - exp (- (INR (S m) / (2 * vr))))).
  assert (HU : jhas (jnorm v m) U) by (apply jadd_correct; [apply jwin_ok; [exact Hv|lia]|apply jtail_ok, Hv]).
  pose proof (dg_norm_le vr Hp m) as HNU. fold U in HNU. pose proof (dg_norm_pos vr Hp) as HN1.
  unfold hmasses. pose proof (jks_ok v m Hv) as Hk. fold vr in Hk. revert Hk.
  generalize (jks v m) (seq 0 (S m)). intros ks l. revert ks.
  induction l as [|n l IH]; intros ks Hk; inversion Hk as [|k r ks' rs Hk1 Hks E1 E2]; subst; cbn [map]; constructor; [|apply IH, Hks].
  pose proof (dg_kernel_pos vr (Z.of_nat n)) as Hkp. unfold kern_at in Hk1.
  apply (jflower_lo _ (dg_kernel vr (Z.of_nat n) / U)); [apply jdiv_correct; [exact Hk1|exact HU|lra]| |].
  - unfold dgauss, Rdiv. apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
  - apply dgauss_nonneg, Hp.
Qed.
