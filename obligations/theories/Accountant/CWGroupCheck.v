(** * The grouped sum of K runs on the same database, in floats rounded one way

    CWGroup.v writes hs(t) of K runs of randomized response on the same database, for a
    prior on one pair of inputs against t times an alternative on another, as lo^K times a
    sum by block counts ([gk_blocks]).  Scaled by 1/t (positive homogeneity), its term is
    max(0, P − N) with P = u0·r^n0 + u1·r^n1 and N = v2·r^n2 + v3·r^n3, all of u, v ≥ 0.
    [ftotal] evaluates that sum in floats rounded the way [up] says ([rnd], DownFloat.v):

    - a table, once per index i ≤ K: the binomial row C(i, ·) by Pascal's rule, the rows
      P(n, i − n) and N(n, i − n) rounded both ways with their largest and least entries,
      (u0 + u1)·(1 + r)^i, (v2 + v3)·(1 + r)^i and 2^i;
    - for the counts (a, b) in the two pairs: 0 when the largest P is at most the least N
      ([pair_sum_dead]); the closed form 2^b·(u0+u1)(1+r)^a − 2^a·(v2+v3)(1+r)^b when the
      least P is at least the largest N ([pair_sum_group]); else a row per n0, decided the
      same way against the N row, and only the undecided rows summed over n2.

    [ftotal_rnd]: the float bounds the real sum from the side [up] says, when the table's
    extremes are what [table_good] checks.  Nothing here is a mechanism: CWGroup.v and the
    theorem's glue turn the bound into one of hs(t). *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Float.Sig Float.Basic Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Checker CheckerSound BasicComposition CW PLD PLDCheck Compose CWStream TypeClass CWCoef CWGroup.
From Obligations.Accountant Require Import DownFloat CWCoefCheck.
Import ListNotations.

Local Open Scope R_scope.

(** ** Float facts *)

(** A float that is a number. *)
Definition freal (f : F.type) : bool := match F.classify f with Freal => true | _ => false end.

Lemma freal_toX (f : F.type) : freal f = true -> F.toX f = Xreal (F.toR f).
Proof.
  unfold freal. intros H. pose proof (F.real_correct f) as R1. rewrite F.classify_correct in R1.
  destruct (F.classify f); try discriminate. unfold F.toR. destruct (F.toX f); [discriminate|reflexivity].
Qed.

Lemma fle_real (x y : F.type) : freal x = true -> freal y = true -> fle x y = true -> F.toR x <= F.toR y.
Proof.
  intros Rx Ry. pose proof (freal_toX x Rx) as Ex. pose proof (freal_toX y Ry) as Ey.
  unfold freal in Rx, Ry. unfold fle. rewrite F.cmp_correct.
  destruct (F.classify x); try discriminate. destruct (F.classify y); try discriminate.
  rewrite Ex, Ey. cbn [Xcmp]. destruct (Raux.Rcompare_spec (F.toR x) (F.toR y)); try discriminate; lra.
Qed.

(** The real a float rounded up bounds, when the float is a number. *)
Lemma rnd_up_le (f : F.type) (a : R) : rnd true f a -> F.toX f = Xreal (F.toR f) -> a <= F.toR f.
Proof. intros H E. destruct (rnd_up_real f a H) as [E'|[_ H']]; [congruence|exact H']. Qed.

Lemma rnd_dn_le (f : F.type) (a : R) : rnd false f a -> F.toR f <= a.
Proof. intros [_ H]. exact H. Qed.

Lemma rnd_nonneg' (up : bool) (f : F.type) (a : R) : rnd up f a -> 0 <= a.
Proof. apply rnd_nonneg. Qed.

(** x − y clamped at 0: x bounds a, y bounds b the other way, the result bounds max(0, a − b). *)
Definition fdiff (up : bool) (x y : F.type) : F.type :=
  if flt y x then fsubr up x y else if up then (if fle x y then F.zero else F.nan) else F.zero.

Lemma rnd_weaken_up (f : F.type) (a a' : R) : rnd true f a -> 0 <= a' -> a' <= a -> rnd true f a'.
Proof.
  intros (H0 & Hv & Hl) H1 H2. split; [exact H1|split; [exact Hv|]].
  unfold le_upper in *. destruct (F.toX f); [exact I|lra].
Qed.

Lemma fdiff_rnd (up : bool) (x y : F.type) (a b : R) :
  freal x = true -> freal y = true -> rnd up x a -> rnd (negb up) y b -> rnd up (fdiff up x y) (Rmax 0 (a - b)).
Proof.
  intros Rx Ry Hx Hy. pose proof (freal_toX x Rx) as Ex. unfold fdiff. destruct (flt y x) eqn:Lt.
  - destruct (Rle_dec b a) as [Hab|Hab].
    + rewrite Rmax_right by lra. apply fsub_rnd; assumption.
    + rewrite Rmax_left by lra. destruct up.
      * (* a < b but the floats disagree: the float difference still bounds 0 *)
        cbn [negb] in Hy. destruct Hy as [[Ey' Py] Hb].
        assert (Hyx : F.toR y < F.toR x).
        { unfold flt in Lt. rewrite F.cmp_correct in Lt. unfold freal in Rx, Ry.
          destruct (F.classify y); try discriminate. destruct (F.classify x); try discriminate.
          rewrite Ex, Ey' in Lt. cbn [Xcmp] in Lt. destruct (Raux.Rcompare_spec (F.toR y) (F.toR x)); try discriminate; lra. }
        assert (Hxv : fval x) by (split; [exact Ex|lra]).
        apply (rnd_weaken_up _ (F.toR x - F.toR y)); [|lra|lra].
        apply fsub_rnd; [apply rnd_up_val, Hxv|apply fval_lo; split; assumption|lra].
      * cbn [negb] in Hy. pose proof (flt_rnd y x b a Hy Hx Lt). lra.
  - destruct up.
    + destruct (fle x y) eqn:Le; [|apply rnd_none; apply Rmax_l].
      pose proof (fle_real x y Rx Ry Le). pose proof (rnd_up_le x a Hx Ex).
      cbn [negb] in Hy. pose proof (rnd_dn_le y b Hy). rewrite Rmax_left by lra. apply rnd_zero.
    + apply lo_zero, Rmax_l.
Qed.

(** ** Lists of floats *)

Fixpoint zipf (f : F.type -> F.type -> F.type) (l1 l2 : list F.type) : list F.type :=
  match l1, l2 with x :: l1', y :: l2' => f x y :: zipf f l1' l2' | _, _ => [] end.

Lemma zipf_length (f : F.type -> F.type -> F.type) (l1 l2 : list F.type) :
  length (zipf f l1 l2) = Nat.min (length l1) (length l2).
Proof. revert l2. induction l1 as [|x l1 IH]; intros [|y l2]; cbn; try reflexivity. rewrite IH. reflexivity. Qed.

Lemma nth_zipf (f : F.type -> F.type -> F.type) (l1 l2 : list F.type) (n : nat) (d : F.type) :
  (n < length l1)%nat -> (n < length l2)%nat -> nth n (zipf f l1 l2) d = f (nth n l1 d) (nth n l2 d).
Proof.
  revert l2 n. induction l1 as [|x l1 IH]; intros [|y l2] n H1 H2; cbn in H1, H2; try lia.
  destruct n; [reflexivity|]. cbn. apply IH; lia.
Qed.

(** [v·x^n], n = 0 .. k. *)
Fixpoint fpows (up : bool) (x v : F.type) (k : nat) : list F.type :=
  match k with O => [v] | S k' => v :: fpows up x (fmulr up v x) k' end.

Lemma fpows_length (up : bool) (x v : F.type) (k : nat) : length (fpows up x v k) = S k.
Proof. revert v. induction k as [|k IH]; intros v; cbn; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma fpows_rnd (up : bool) (x v : F.type) (rx rv : R) (k n : nat) :
  rnd up x rx -> rnd up v rv -> (n <= k)%nat -> rnd up (nth n (fpows up x v k) F.zero) (rv * rx ^ n).
Proof.
  intros Hx. revert v rv n. induction k as [|k IH]; intros v rv n Hv Hn.
  - replace n with 0%nat by lia. cbn. rewrite Rmult_1_r. exact Hv.
  - destruct n as [|n]; cbn [fpows nth]; [rewrite Rmult_1_r; exact Hv|].
    replace (rv * rx ^ S n) with ((rv * rx) * rx ^ n) by (cbn [pow]; ring).
    apply IH; [apply fmul_rnd; assumption|lia].
Qed.

(** Σ over pairs of a list of weights and a list of values. *)
Definition fdotl (up : bool) (B V : list F.type) : F.type :=
  fold_right (fun bv acc => faddr up (fmulr up (fst bv) (snd bv)) acc) F.zero (combine B V).

Lemma fdotl_rnd (up : bool) (B V : list F.type) (gB gV : nat -> R) (L : nat) :
  length B = L -> length V = L ->
  (forall n, (n < L)%nat -> rnd up (nth n B F.zero) (gB n) /\ rnd up (nth n V F.zero) (gV n)) ->
  rnd up (fdotl up B V) (rsum (map (fun n => gB n * gV n) (seq 0 L))).
Proof.
  revert V gB gV L. induction B as [|b B IH]; intros V gB gV L HB HV H; cbn in HB; subst L.
  - cbn. apply rnd_zero.
  - destruct V as [|v V]; cbn in HV; [lia|]. unfold fdotl. cbn [combine fold_right fst snd].
    rewrite rsum_seq_head. destruct (H 0%nat ltac:(lia)) as [H1 H2]. cbn [nth] in H1, H2.
    apply fadd_rnd; [apply fmul_rnd; assumption|].
    apply (IH V (fun n => gB (S n)) (fun n => gV (S n)) (length B)); [reflexivity|lia|].
    intros n Hn. apply (H (S n)). lia.
Qed.

Lemma fdotl_pair (up : bool) (B V : list F.type) (a : nat) (h : nat -> nat -> R) :
  length B = S a -> length V = S a ->
  (forall n, (n <= a)%nat -> rnd up (nth n B F.zero) (INR (binom a n)) /\ rnd up (nth n V F.zero) (h n (a - n)%nat)) ->
  rnd up (fdotl up B V) (pair_sum a h).
Proof.
  intros HB HV H. unfold pair_sum. apply (fdotl_rnd up B V (fun n => INR (binom a n)) (fun n => h n (a - n)%nat)); auto.
  intros n Hn. apply H. lia.
Qed.

(** ** Binomial rows by Pascal's rule *)

Definition bnext (up : bool) (l : list F.type) : list F.type := zipf (faddr up) (F.zero :: l) (l ++ [F.zero]).

Fixpoint brow (up : bool) (i : nat) : list F.type :=
  match i with O => [fbnd up (iq 1)] | S i' => bnext up (brow up i') end.

Lemma brow_length (up : bool) (i : nat) : length (brow up i) = S i.
Proof.
  induction i as [|i IH]; [reflexivity|]. cbn [brow]. unfold bnext. rewrite zipf_length. cbn [length].
  rewrite app_length, IH. cbn [length]. lia.
Qed.

Lemma brow_rnd (up : bool) (i n : nat) : rnd up (nth n (brow up i) F.zero) (INR (binom i n)).
Proof.
  revert n. induction i as [|i IH]; intros n.
  - destruct n as [|n]; cbn [brow nth binom].
    + pose proof (rnd_q up 1) as H. rewrite q2r_1 in H. apply H. lra.
    + destruct n; apply rnd_zero.
  - cbn [brow]. unfold bnext. destruct (Nat.le_gt_cases n (S i)) as [Hn|Hn].
    + rewrite nth_zipf by (cbn [length]; rewrite ?app_length, brow_length; cbn [length]; lia).
      destruct n as [|n]; cbn [nth binom].
      * rewrite app_nth1 by (rewrite brow_length; lia).
        replace (INR 1) with (0 + INR (binom i 0)) by (rewrite binom_zero_r; cbn [INR]; ring).
        apply fadd_rnd; [apply rnd_zero|apply IH].
      * rewrite plus_INR. apply fadd_rnd; [apply IH|].
        destruct (Nat.lt_ge_cases (S n) (S i)) as [Hl|Hl].
        -- rewrite app_nth1 by (rewrite brow_length; exact Hl). apply IH.
        -- rewrite app_nth2 by (rewrite brow_length; exact Hl). rewrite brow_length.
           replace (S n - S i)%nat with 0%nat by lia. cbn [nth]. rewrite binom_above by lia. apply rnd_zero.
    + rewrite nth_overflow by (rewrite zipf_length; cbn [length]; rewrite app_length, brow_length; cbn [length]; lia).
      rewrite binom_above by lia. apply rnd_zero.
Qed.

(** ** Rows of pairs of powers *)

(** cA·x^n + cB·x^(a−n), n = 0 .. a, from the powers [PW] of x. *)
Definition prow (up : bool) (PW : list F.type) (cA cB : F.type) (a : nat) : list F.type :=
  let L := firstn (S a) PW in zipf (fun p q => faddr up (fmulr up cA p) (fmulr up cB q)) L (rev L).

Lemma nth_firstn' (l : list F.type) (k n : nat) (d : F.type) : (n < k)%nat -> nth n (firstn k l) d = nth n l d.
Proof.
  revert l n. induction k as [|k IH]; intros l n H; [lia|]. destruct l as [|x l]; cbn [firstn]; [destruct n; reflexivity|].
  destruct n as [|n]; [reflexivity|]. cbn [nth]. apply IH. lia.
Qed.

Lemma prow_length (up : bool) (PW : list F.type) (cA cB : F.type) (a : nat) :
  (a < length PW)%nat -> length (prow up PW cA cB a) = S a.
Proof.
  intros H. unfold prow. rewrite zipf_length, rev_length, firstn_length. lia.
Qed.

Lemma prow_rnd (up : bool) (PW : list F.type) (cA cB : F.type) (x rA rB : R) (K a n : nat) :
  length PW = S K -> (forall n, (n <= K)%nat -> rnd up (nth n PW F.zero) (x ^ n)) ->
  rnd up cA rA -> rnd up cB rB -> (a <= K)%nat -> (n <= a)%nat ->
  rnd up (nth n (prow up PW cA cB a) F.zero) (rA * x ^ n + rB * x ^ (a - n)).
Proof.
  intros HL HP HA HB Ha Hn. unfold prow.
  assert (HLf : length (firstn (S a) PW) = S a) by (rewrite firstn_length; lia).
  rewrite nth_zipf by (rewrite ?rev_length; lia).
  rewrite rev_nth by lia. rewrite HLf, !nth_firstn' by lia.
  apply fadd_rnd; apply fmul_rnd; try assumption; apply HP; lia.
Qed.

(** ** The table *)

Record entry := Entry {
  eB : list F.type; ePu : list F.type; ePd : list F.type; eNu : list F.type; eNd : list F.type;
  ePmax : F.type; ePmin : F.type; eNmax : F.type; eNmin : F.type;
  eSPu : F.type; eSPd : F.type; eSNu : F.type; eSNd : F.type; eT : F.type; eTo : F.type }.

Definition fmaxl (l : list F.type) : F.type := fold_left (fun acc x => if fle acc x then x else acc) l F.zero.
Definition fminl (l : list F.type) : F.type := fold_left (fun acc x => if fle x acc then x else acc) l (hd F.zero l).

Section Eval.
Variables (up : bool) (K m4 : nat) (rq u0 u1 v2 v3 : Q).

Definition fq (d : bool) (q : Q) : F.type := fbnd d (iq q).
Definition PWu : list F.type := fpows true (fq true rq) (fq true 1) K.
Definition PWd : list F.type := fpows false (fq false rq) (fq false 1) K.
Definition QWu : list F.type := fpows true (fq true (1 + rq)) (fq true 1) K.
Definition QWd : list F.type := fpows false (fq false (1 + rq)) (fq false 1) K.
Definition TW (d : bool) : list F.type := fpows d (fq d 2) (fq d 1) K.

Definition mkrow (i : nat) (B : list F.type) : entry :=
  let Pu := prow true PWu (fq true u0) (fq true u1) i in let Pd := prow false PWd (fq false u0) (fq false u1) i in
  let Nu := prow true PWu (fq true v2) (fq true v3) i in let Nd := prow false PWd (fq false v2) (fq false v3) i in
  Entry B Pu Pd Nu Nd (fmaxl Pu) (fminl Pd) (fmaxl Nu) (fminl Nd)
    (fmulr true (fq true (u0 + u1)) (nth i QWu F.zero)) (fmulr false (fq false (u0 + u1)) (nth i QWd F.zero))
    (fmulr true (fq true (v2 + v3)) (nth i QWu F.zero)) (fmulr false (fq false (v2 + v3)) (nth i QWd F.zero))
    (nth i (TW up) F.zero) (nth i (TW (negb up)) F.zero).

Definition mkentry (i : nat) : entry := mkrow i (brow up i).

(** The binomial rows 0 .. k from [l], each from the one before. *)
Fixpoint browsl (k : nat) (l : list F.type) : list (list F.type) :=
  match k with O => [l] | S k' => l :: browsl k' (bnext up l) end.

Definition table : list entry := map (fun iB => mkrow (fst iB) (snd iB)) (combine (seq 0 (S K)) (browsl K (brow up 0))).

Definition edef : entry := Entry [] [] [] [] [] F.zero F.zero F.zero F.zero F.zero F.zero F.zero F.zero F.zero F.zero.

(** The extremes of each row bound its entries. *)
Definition entry_good (e : entry) : bool :=
  forallb freal (ePu e ++ ePd e ++ eNu e ++ eNd e) &&
  freal (ePmax e) && freal (ePmin e) && freal (eNmax e) && freal (eNmin e) &&
  forallb (fun x => fle x (ePmax e)) (ePu e) && forallb (fun x => fle (ePmin e) x) (ePd e) &&
  forallb (fun x => fle x (eNmax e)) (eNu e) && forallb (fun x => fle (eNmin e) x) (eNd e).

Definition table_good : bool := forallb entry_good table.

(** Σ_{n2} C(b, n2)·max(0, p − N(n2)), p given both ways. *)
Definition frow (pu pd : F.type) (EB : entry) : F.type :=
  if fle pu (eNmin EB) then F.zero
  else if fle (eNmax EB) pd then
    fsubr up (fmulr up (eT EB) (if up then pu else pd)) (if up then eSNd EB else eSNu EB)
  else fdotl up (eB EB) (map (fdiff up (if up then pu else pd)) (if up then eNd EB else eNu EB)).

(** Σ_{n0, n2} C(a, n0)·C(b, n2)·max(0, P(n0) − N(n2)). *)
Definition fgroup (EA EB : entry) : F.type :=
  if fle (ePmax EA) (eNmin EB) then F.zero
  else if fle (eNmax EB) (ePmin EA) then
    fsubr up (fmulr up (eT EB) (if up then eSPu EA else eSPd EA)) (fmulr (negb up) (eTo EA) (if up then eSNd EB else eSNu EB))
  else fdotl up (eB EA) (zipf (fun pu pd => frow pu pd EB) (ePu EA) (ePd EA)).

(** The sum over a table [T]; [ftotal] is the sum over [table].  The checks of section Run
    build the table once for both [table_good] and the sum: coqchk's lazy machine shares a
    [let]-bound value, not two unfoldings of the same constant (the table was most of the check). *)
Definition ftotal_of (T : list entry) : F.type :=
  let M4 := fpows up (fq up (inject_Z (Z.of_nat m4))) (fq up 1) K in
  fdotl up (eB (nth K T edef)) (map (fun s => fmulr up (nth (K - s) M4 F.zero)
     (fdotl up (eB (nth s T edef)) (map (fun a => fgroup (nth a T edef) (nth (s - a) T edef)) (seq 0 (S s)))))
     (seq 0 (S K))).

Definition ftotal : F.type := ftotal_of table.

(** ** Soundness *)

Hypothesis Hr : 1 <= Q2R rq.
Hypothesis Hu0 : 0 <= Q2R u0.
Hypothesis Hu1 : 0 <= Q2R u1.
Hypothesis Hv2 : 0 <= Q2R v2.
Hypothesis Hv3 : 0 <= Q2R v3.

Let r := Q2R rq.
Definition preal (n0 n1 : nat) : R := Q2R u0 * r ^ n0 + Q2R u1 * r ^ n1.
Definition nreal (n2 n3 : nat) : R := Q2R v2 * r ^ n2 + Q2R v3 * r ^ n3.

Lemma fq_rnd (d : bool) (q : Q) : 0 <= Q2R q -> rnd d (fq d q) (Q2R q).
Proof. apply rnd_q. Qed.

Lemma one_rnd (d : bool) : rnd d (fq d 1) 1.
Proof. pose proof (fq_rnd d 1) as H. rewrite q2r_1 in H. apply H. lra. Qed.

Lemma pw_rnd (d : bool) (n : nat) : (n <= K)%nat ->
  rnd d (nth n (if d then PWu else PWd) F.zero) (r ^ n).
Proof.
  intros Hn. rewrite <- (Rmult_1_l (r ^ n)). destruct d; apply fpows_rnd; try exact Hn;
    try apply one_rnd; apply fq_rnd; unfold r; lra.
Qed.

Lemma pw_length (d : bool) : length (if d then PWu else PWd) = S K.
Proof. destruct d; apply fpows_length. Qed.

Lemma browsl_length (k : nat) (l : list F.type) : length (browsl k l) = S k.
Proof. revert l. induction k as [|k IH]; intros l; cbn; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma nth_browsl (k n i : nat) : (n <= k)%nat -> nth n (browsl k (brow up i)) [] = brow up (n + i).
Proof.
  revert n i. induction k as [|k IH]; intros n i H; [replace n with 0%nat by lia; reflexivity|].
  destruct n as [|n]; [reflexivity|]. cbn [browsl nth]. change (bnext up (brow up i)) with (brow up (S i)).
  rewrite IH by lia. f_equal. lia.
Qed.

Lemma entry_nth (i : nat) : (i <= K)%nat -> nth i table edef = mkentry i.
Proof.
  intros Hi. unfold table.
  rewrite (nth_map_lt _ (combine (seq 0 (S K)) (browsl K (brow up 0))) i (0%nat, [])) by
    (rewrite combine_length, seq_length, browsl_length; lia).
  rewrite combine_nth by (rewrite seq_length, browsl_length; reflexivity).
  rewrite seq_nth by lia. cbn [fst snd]. rewrite nth_browsl by lia. rewrite Nat.add_0_r. reflexivity.
Qed.

Lemma prow_p_rnd (d : bool) (a n : nat) : (a <= K)%nat -> (n <= a)%nat ->
  rnd d (nth n (if d then ePu (mkentry a) else ePd (mkentry a)) F.zero) (preal n (a - n)).
Proof.
  intros Ha Hn. unfold preal. destruct d; cbn [mkentry mkrow ePu ePd].
  - apply (prow_rnd true PWu _ _ r _ _ K); [apply (pw_length true)|intros m Hm; apply (pw_rnd true m Hm)|
      apply fq_rnd, Hu0|apply fq_rnd, Hu1|exact Ha|exact Hn].
  - apply (prow_rnd false PWd _ _ r _ _ K); [apply (pw_length false)|intros m Hm; apply (pw_rnd false m Hm)|
      apply fq_rnd, Hu0|apply fq_rnd, Hu1|exact Ha|exact Hn].
Qed.

Lemma prow_n_rnd (d : bool) (b n : nat) : (b <= K)%nat -> (n <= b)%nat ->
  rnd d (nth n (if d then eNu (mkentry b) else eNd (mkentry b)) F.zero) (nreal n (b - n)).
Proof.
  intros Hb Hn. unfold nreal. destruct d; cbn [mkentry mkrow eNu eNd].
  - apply (prow_rnd true PWu _ _ r _ _ K); [apply (pw_length true)|intros m Hm; apply (pw_rnd true m Hm)|
      apply fq_rnd, Hv2|apply fq_rnd, Hv3|exact Hb|exact Hn].
  - apply (prow_rnd false PWd _ _ r _ _ K); [apply (pw_length false)|intros m Hm; apply (pw_rnd false m Hm)|
      apply fq_rnd, Hv2|apply fq_rnd, Hv3|exact Hb|exact Hn].
Qed.

Lemma row_length (a : nat) : (a <= K)%nat ->
  length (ePu (mkentry a)) = S a /\ length (ePd (mkentry a)) = S a /\
  length (eNu (mkentry a)) = S a /\ length (eNd (mkentry a)) = S a /\ length (eB (mkentry a)) = S a.
Proof.
  intros Ha. cbn [mkentry mkrow ePu ePd eNu eNd eB]. rewrite !prow_length, brow_length by (unfold PWu, PWd; rewrite fpows_length; lia).
  repeat split.
Qed.

(** The extremes, from [entry_good]. *)
Lemma extremes (a : nat) : (a <= K)%nat -> entry_good (mkentry a) = true ->
  (forall (d : bool) (n : nat), (n <= a)%nat -> freal (nth n (if d then ePu (mkentry a) else ePd (mkentry a)) F.zero) = true) /\
  (forall (d : bool) (n : nat), (n <= a)%nat -> freal (nth n (if d then eNu (mkentry a) else eNd (mkentry a)) F.zero) = true) /\
  freal (ePmax (mkentry a)) = true /\ freal (ePmin (mkentry a)) = true /\
  freal (eNmax (mkentry a)) = true /\ freal (eNmin (mkentry a)) = true /\
  (forall n, (n <= a)%nat -> preal n (a - n) <= F.toR (ePmax (mkentry a))) /\
  (forall n, (n <= a)%nat -> F.toR (ePmin (mkentry a)) <= preal n (a - n)) /\
  (forall n, (n <= a)%nat -> nreal n (a - n) <= F.toR (eNmax (mkentry a))) /\
  (forall n, (n <= a)%nat -> F.toR (eNmin (mkentry a)) <= nreal n (a - n)).
Proof.
  intros Ha G. unfold entry_good in G. rewrite !andb_true_iff in G.
  destruct G as [[[[[[[[G0 R1] R2] R3] R4] G1] G2] G3] G4].
  rewrite forallb_forall in G0, G1, G2, G3, G4. destruct (row_length a Ha) as (L1 & L2 & L3 & L4 & _).
  assert (RP : forall (d : bool) (n : nat), (n <= a)%nat -> freal (nth n (if d then ePu (mkentry a) else ePd (mkentry a)) F.zero) = true).
  { intros d n Hn. apply G0. destruct d; rewrite !in_app_iff; [left|right; left]; apply nth_In; lia. }
  assert (RN : forall (d : bool) (n : nat), (n <= a)%nat -> freal (nth n (if d then eNu (mkentry a) else eNd (mkentry a)) F.zero) = true).
  { intros d n Hn. apply G0. destruct d; rewrite !in_app_iff; [right; right; left|right; right; right]; apply nth_In; lia. }
  repeat split; try assumption; intros n Hn.
  - pose proof (prow_p_rnd true a n Ha Hn) as H. pose proof (RP true n Hn) as Rn. cbv beta iota in H, Rn.
    assert (Hin : In (nth n (ePu (mkentry a)) F.zero) (ePu (mkentry a))) by (apply nth_In; lia).
    pose proof (fle_real _ _ Rn R1 (G1 _ Hin)) as Hle. pose proof (rnd_up_le _ _ H (freal_toX _ Rn)) as Hup. lra.
  - pose proof (prow_p_rnd false a n Ha Hn) as H. pose proof (RP false n Hn) as Rn. cbv beta iota in H, Rn.
    assert (Hin : In (nth n (ePd (mkentry a)) F.zero) (ePd (mkentry a))) by (apply nth_In; lia).
    pose proof (fle_real _ _ R2 Rn (G2 _ Hin)) as Hle. pose proof (rnd_dn_le _ _ H) as Hdn. lra.
  - pose proof (prow_n_rnd true a n Ha Hn) as H. pose proof (RN true n Hn) as Rn. cbv beta iota in H, Rn.
    assert (Hin : In (nth n (eNu (mkentry a)) F.zero) (eNu (mkentry a))) by (apply nth_In; lia).
    pose proof (fle_real _ _ Rn R3 (G3 _ Hin)) as Hle. pose proof (rnd_up_le _ _ H (freal_toX _ Rn)) as Hup. lra.
  - pose proof (prow_n_rnd false a n Ha Hn) as H. pose proof (RN false n Hn) as Rn. cbv beta iota in H, Rn.
    assert (Hin : In (nth n (eNd (mkentry a)) F.zero) (eNd (mkentry a))) by (apply nth_In; lia).
    pose proof (fle_real _ _ R4 Rn (G4 _ Hin)) as Hle. pose proof (rnd_dn_le _ _ H) as Hdn. lra.
Qed.

Lemma twos_rnd (d : bool) (i : nat) : (i <= K)%nat -> rnd d (nth i (TW d) F.zero) (2 ^ i).
Proof.
  intros Hi. unfold TW. rewrite <- (Rmult_1_l (2 ^ i)).
  apply fpows_rnd; [|apply one_rnd|exact Hi].
  replace 2 with (Q2R 2) by (unfold Q2R; cbn; field). apply fq_rnd. unfold Q2R; cbn; lra.
Qed.

Lemma onepr_rnd (d : bool) (i : nat) : (i <= K)%nat -> rnd d (nth i (if d then QWu else QWd) F.zero) ((1 + r) ^ i).
Proof.
  intros Hi. rewrite <- (Rmult_1_l ((1 + r) ^ i)). unfold r. rewrite <- q2r_1 at 2. rewrite <- Q2R_plus.
  destruct d; apply fpows_rnd; try exact Hi; try apply one_rnd; apply fq_rnd; rewrite Q2R_plus, q2r_1; lra.
Qed.

Lemma sum_p_rnd (d : bool) (i : nat) : (i <= K)%nat ->
  rnd d (if d then eSPu (mkentry i) else eSPd (mkentry i)) ((Q2R u0 + Q2R u1) * (1 + r) ^ i).
Proof.
  intros Hi. rewrite <- Q2R_plus. destruct d; cbn [mkentry mkrow eSPu eSPd]; apply fmul_rnd;
    try (apply fq_rnd; rewrite Q2R_plus; lra); apply (onepr_rnd true i Hi) || apply (onepr_rnd false i Hi).
Qed.

Lemma sum_n_rnd (d : bool) (i : nat) : (i <= K)%nat ->
  rnd d (if d then eSNu (mkentry i) else eSNd (mkentry i)) ((Q2R v2 + Q2R v3) * (1 + r) ^ i).
Proof.
  intros Hi. rewrite <- Q2R_plus. destruct d; cbn [mkentry mkrow eSNu eSNd]; apply fmul_rnd;
    try (apply fq_rnd; rewrite Q2R_plus; lra); apply (onepr_rnd true i Hi) || apply (onepr_rnd false i Hi).
Qed.

(** The row of one n0: p bounded both ways. *)
Lemma frow_rnd (pu pd : F.type) (p : R) (b : nat) :
  (b <= K)%nat -> entry_good (mkentry b) = true -> freal pu = true -> freal pd = true ->
  rnd true pu p -> rnd false pd p ->
  rnd up (frow pu pd (mkentry b)) (pair_sum b (fun n2 n3 => Rmax 0 (p - nreal n2 n3))).
Proof.
  intros Hb G Ru Rd Hpu Hpd. destruct (extremes b Hb G) as (_ & RN & _ & _ & RNmax & RNmin & _ & _ & XNmax & XNmin).
  destruct (row_length b Hb) as (_ & _ & L3 & L4 & L5). pose proof (rnd_nonneg _ _ _ Hpu) as Hp0.
  pose proof (rnd_up_le _ _ Hpu (freal_toX _ Ru)). pose proof (rnd_dn_le _ _ Hpd).
  unfold frow. destruct (fle pu (eNmin (mkentry b))) eqn:D1.
  - pose proof (fle_real _ _ Ru RNmin D1).
    rewrite pair_sum_dead; [apply rnd_zero|]. intros n2 n3 E. replace n3 with (b - n2)%nat by lia.
    pose proof (XNmin n2 ltac:(lia)). lra.
  - destruct (fle (eNmax (mkentry b)) pd) eqn:D2.
    + pose proof (fle_real _ _ RNmax Rd D2).
      assert (Hge : forall n2 n3, (n2 + n3 = b)%nat -> 0 <= p - nreal n2 n3).
      { intros n2 n3 E. replace n3 with (b - n2)%nat by lia. pose proof (XNmax n2 ltac:(lia)). lra. }
      assert (Es : pair_sum b (fun n2 n3 => p - nreal n2 n3) = 2 ^ b * p - (Q2R v2 + Q2R v3) * (1 + r) ^ b).
      { unfold nreal. rewrite (pair_sum_ext b _ (fun n2 n3 => p + (-1) * (Q2R v2 * r ^ n2 + Q2R v3 * r ^ n3))) by (intros; ring).
        rewrite pair_sum_plus, pair_sum_const, pair_sum_scal, pair_sum_two_pow. ring. }
      rewrite pair_sum_sure by exact Hge. rewrite Es. apply fsub_rnd.
      * apply fmul_rnd; [apply twos_rnd, Hb|destruct up; assumption].
      * destruct up; cbn [negb]; [apply (sum_n_rnd false b Hb)|apply (sum_n_rnd true b Hb)].
      * assert (S0 : 0 <= pair_sum b (fun n2 n3 => p - nreal n2 n3))
          by (rewrite <- (Rmult_0_r (2 ^ b)), <- pair_sum_const; apply pair_sum_le; exact Hge). lra.
    + apply fdotl_pair; [exact L5|rewrite map_length; destruct up; assumption|].
      intros n Hn. split; [apply brow_rnd|].
      destruct up; cbv beta iota.
      * rewrite (nth_map_lt (fdiff true pu) (eNd (mkentry b)) n F.zero F.zero) by (rewrite L4; lia).
        apply fdiff_rnd; [exact Ru|apply (RN false n Hn)|exact Hpu|apply (prow_n_rnd false b n Hb Hn)].
      * rewrite (nth_map_lt (fdiff false pd) (eNu (mkentry b)) n F.zero F.zero) by (rewrite L3; lia).
        apply fdiff_rnd; [exact Rd|apply (RN true n Hn)|exact Hpd|apply (prow_n_rnd true b n Hb Hn)].
Qed.

(** The group of counts (a, b). *)
Lemma fgroup_rnd (a b : nat) :
  (a <= K)%nat -> (b <= K)%nat -> entry_good (mkentry a) = true -> entry_good (mkentry b) = true ->
  rnd up (fgroup (mkentry a) (mkentry b))
    (pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => Rmax 0 (preal n0 n1 - nreal n2 n3)))).
Proof.
  intros Ha Hb Ga Gb. destruct (extremes a Ha Ga) as (RP & _ & RPmax & RPmin & _ & _ & XPmax & XPmin & _ & _).
  destruct (extremes b Hb Gb) as (_ & _ & _ & _ & RNmax & RNmin & _ & _ & XNmax & XNmin).
  destruct (row_length a Ha) as (L1 & L2 & _ & _ & L5).
  unfold fgroup. destruct (fle (ePmax (mkentry a)) (eNmin (mkentry b))) eqn:D1.
  - pose proof (fle_real _ _ RPmax RNmin D1).
    rewrite (pair_sum_ext a _ (fun _ _ => 0)); [rewrite pair_sum_const, Rmult_0_r; apply rnd_zero|].
    intros n0 n1 E. apply pair_sum_dead. intros n2 n3 E'. replace n1 with (a - n0)%nat by lia.
    replace n3 with (b - n2)%nat by lia. pose proof (XPmax n0 ltac:(lia)). pose proof (XNmin n2 ltac:(lia)). lra.
  - destruct (fle (eNmax (mkentry b)) (ePmin (mkentry a))) eqn:D2.
    + pose proof (fle_real _ _ RNmax RPmin D2).
      assert (Hge : forall n0 n1 n2 n3, (n0 + n1 = a)%nat -> (n2 + n3 = b)%nat -> 0 <= preal n0 n1 - nreal n2 n3).
      { intros n0 n1 n2 n3 Ea Eb. replace n1 with (a - n0)%nat by lia. replace n3 with (b - n2)%nat by lia.
        pose proof (XNmax n2 ltac:(lia)). pose proof (XPmin n0 ltac:(lia)). lra. }
      rewrite (pair_sum_ext a _ (fun n0 n1 => pair_sum b (fun n2 n3 => preal n0 n1 - nreal n2 n3)))
        by (intros n0 n1 Ea; apply pair_sum_sure; intros n2 n3 Eb; apply Hge; assumption).
      assert (Eg : pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => preal n0 n1 - nreal n2 n3)) =
                   2 ^ b * ((Q2R u0 + Q2R u1) * (1 + r) ^ a) - 2 ^ a * ((Q2R v2 + Q2R v3) * (1 + r) ^ b)).
      { unfold preal, nreal. rewrite (pair_sum_ext a _ (fun n0 n1 => pair_sum b (fun n2 n3 =>
          Q2R u0 * r ^ n0 + Q2R u1 * r ^ n1 + (- Q2R v2) * r ^ n2 + (- Q2R v3) * r ^ n3)))
          by (intros n0 n1 _; apply pair_sum_ext; intros; ring).
        rewrite pair_sum_group. ring. }
      rewrite Eg. apply fsub_rnd.
      * apply fmul_rnd; [apply twos_rnd, Hb|destruct up; [apply (sum_p_rnd true a Ha)|apply (sum_p_rnd false a Ha)]].
      * apply fmul_rnd; [apply twos_rnd, Ha|].
        destruct up; cbn [negb]; [apply (sum_n_rnd false b Hb)|apply (sum_n_rnd true b Hb)].
      * assert (S0 : 0 <= pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => preal n0 n1 - nreal n2 n3))).
        { rewrite <- (Rmult_0_r (2 ^ a)), <- pair_sum_const.
          apply pair_sum_le. intros n0 n1 Ea. rewrite <- (Rmult_0_r (2 ^ b)), <- pair_sum_const.
          apply pair_sum_le. intros n2 n3 Eb. apply Hge; assumption. }
        lra.
    + apply fdotl_pair; [exact L5|rewrite zipf_length, L1, L2; lia|].
      intros n Hn. split; [apply brow_rnd|]. rewrite nth_zipf by lia.
      apply frow_rnd; [exact Hb|exact Gb|apply (RP true n Hn)|apply (RP false n Hn)|
                       apply (prow_p_rnd true a n Ha Hn)|apply (prow_p_rnd false a n Ha Hn)].
Qed.

Lemma good_entries (i : nat) : table_good = true -> (i <= K)%nat -> entry_good (mkentry i) = true.
Proof.
  intros G Hi. unfold table_good in G. rewrite forallb_forall in G. rewrite <- (entry_nth i Hi).
  apply G, nth_In. unfold table. rewrite map_length, combine_length, seq_length, browsl_length. lia.
Qed.

Lemma q2r_nat (n : nat) : Q2R (inject_Z (Z.of_nat n)) = INR n.
Proof. unfold Q2R. cbn [Qnum Qden inject_Z]. rewrite INR_IZR_INZ. cbn [IZR IPR]. field. Qed.

(** The whole sum: the float bounds it from the side [up] says. *)
Theorem ftotal_rnd : table_good = true ->
  rnd up ftotal (pair_sum K (fun s j => INR m4 ^ j * pair_sum s (fun a b =>
    pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => Rmax 0 (preal n0 n1 - nreal n2 n3)))))).
Proof.
  intros G. unfold ftotal, ftotal_of. rewrite (entry_nth K) by lia.
  destruct (row_length K ltac:(lia)) as (_ & _ & _ & _ & LK).
  apply fdotl_pair; [exact LK|rewrite map_length, seq_length; reflexivity|].
  intros s Hs. split; [apply brow_rnd|].
  rewrite (nth_map_lt _ (seq 0 (S K)) s 0%nat F.zero) by (rewrite seq_length; lia). rewrite seq_nth, Nat.add_0_l by lia.
  cbv beta. apply fmul_rnd.
  - rewrite <- (Rmult_1_l (INR m4 ^ (K - s))). apply fpows_rnd; [|apply one_rnd|lia].
    rewrite <- q2r_nat. apply fq_rnd. rewrite q2r_nat. apply pos_INR.
  - rewrite (entry_nth s) by lia. destruct (row_length s ltac:(lia)) as (_ & _ & _ & _ & Ls).
    apply fdotl_pair; [exact Ls|rewrite map_length, seq_length; reflexivity|].
    intros a Ha. split; [apply brow_rnd|].
    rewrite (nth_map_lt _ (seq 0 (S s)) a 0%nat F.zero) by (rewrite seq_length; lia). rewrite seq_nth, Nat.add_0_l by lia.
    cbv beta. rewrite !entry_nth by lia. apply fgroup_rnd; try lia; apply good_entries; (assumption || lia).
Qed.

End Eval.

(** ** The check of hs(t) for K runs on the same database *)

(** Σ_{s, a, n0, n2} with the weights of [blocks_sum], of a term [g]. *)
Definition gsum (K m4 : nat) (g : nat -> nat -> nat -> nat -> R) : R :=
  pair_sum K (fun s j => INR m4 ^ j * pair_sum s (fun a b => pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => g n0 n1 n2 n3)))).

Lemma gsum_ext (K m4 : nat) (g g' : nat -> nat -> nat -> nat -> R) :
  (forall n0 n1 n2 n3, g n0 n1 n2 n3 = g' n0 n1 n2 n3) -> gsum K m4 g = gsum K m4 g'.
Proof.
  intros H. unfold gsum. apply pair_sum_ext. intros s j _. f_equal. apply pair_sum_ext. intros a b _.
  apply pair_sum_ext. intros n0 n1 _. apply pair_sum_ext. intros n2 n3 _. apply H.
Qed.

Lemma gsum_scal (K m4 : nat) (l : R) (g : nat -> nat -> nat -> nat -> R) :
  gsum K m4 (fun n0 n1 n2 n3 => l * g n0 n1 n2 n3) = l * gsum K m4 g.
Proof.
  unfold gsum. rewrite <- pair_sum_scal. apply pair_sum_ext. intros s j _.
  rewrite (pair_sum_ext s _ (fun a b => l * pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => g n0 n1 n2 n3)))).
  - rewrite pair_sum_scal. ring.
  - intros a b _. rewrite <- pair_sum_scal. apply pair_sum_ext. intros n0 n1 _. apply pair_sum_scal.
Qed.

Section Run.
Variables (M : fmech) (loq rq : Q) (K : nat).

(** The inputs x0, x1 carry the prior [fi] and x2, x3 the prior [fj]: distinct inputs, and
    each prior zero off its pair. *)
Definition group_shape (fi fj : list Q) (x0 x1 x2 x3 : nat) : bool :=
  (x0 <? n_in M)%nat && (x1 <? n_in M)%nat && (x2 <? n_in M)%nat && (x3 <? n_in M)%nat &&
  negb (x0 =? x1)%nat && negb (x0 =? x2)%nat && negb (x0 =? x3)%nat && negb (x1 =? x2)%nat &&
  negb (x1 =? x3)%nat && negb (x2 =? x3)%nat &&
  forallb (fun x => ((x =? x0)%nat || (x =? x1)%nat || Qeq_bool (nth x fi 0%Q) 0%Q) &&
                    ((x =? x2)%nat || (x =? x3)%nat || Qeq_bool (nth x fj 0%Q) 0%Q)) (seq 0 (n_in M)).

(** lo^K·t times the grouped sum at the coefficients scaled by 1/t. *)
Definition group_run (up : bool) (fi fj : list Q) (x0 x1 x2 x3 : nat) (t : Q) : F.type :=
  fmulr up (fmulr up (nth K (fpows up (fq up loq) (fq up 1) K) F.zero) (fq up t))
    (ftotal up K (n_in M - 4) rq (nth x0 fi 0 / t)%Q (nth x1 fi 0 / t)%Q (nth x2 fj 0%Q) (nth x3 fj 0%Q)).

Definition group_pre (up : bool) (fi fj : list Q) (x0 x1 x2 x3 : nat) (t : Q) : bool :=
  check_distr M && check_rr M loq rq && negb (Qle_bool t 0%Q) && group_shape fi fj x0 x1 x2 x3 &&
  forallb (Qle_bool 0%Q) fi && forallb (Qle_bool 0%Q) fj &&
  table_good up K rq (nth x0 fi 0 / t)%Q (nth x1 fi 0 / t)%Q (nth x2 fj 0%Q) (nth x3 fj 0%Q).

Lemma group_hs (up : bool) (f f' : list Q) (i j x0 x1 x2 x3 : nat) (t : Q) :
  length f = n_in M -> length f' = n_in M -> (i < 2)%nat -> (j < 2)%nat -> i <> j ->
  group_pre up (cw_weights f f' i) (cw_weights f f' j) x0 x1 x2 x3 t = true ->
  rnd up (group_run up (cw_weights f f' i) (cw_weights f f' j) x0 x1 x2 x3 t)
    (hs (fmech_cw (fmech_power M K) f f') i j (Q2R t)).
Proof.
  intros Hf Hf' Hi Hj Hij G. unfold group_pre in G. rewrite !andb_true_iff in G.
  destruct G as [[[[[[HD HR] Ht] HS] Pi] Pj] HT].
  set (fi := cw_weights f f' i) in *. set (fj := cw_weights f f' j) in *.
  destruct (rr_of_check M loq rq HR) as (Hn & Hlo & Hr1 & HRR).
  assert (Ht0 : 0 < Q2R t).
  { apply negb_true_iff in Ht. rewrite <- q2r_0. apply Qlt_Rlt, Qnot_le_lt. intros E.
    apply Qle_bool_iff in E. congruence. }
  unfold group_shape in HS. rewrite !andb_true_iff in HS.
  destruct HS as [[[[[[[[[[H0 H1] H2] H3] D01] D02] D03] D12] D13] D23] HZ].
  apply Nat.ltb_lt in H0, H1, H2, H3. apply negb_true_iff, Nat.eqb_neq in D01, D02, D03, D12, D13, D23.
  rewrite forallb_forall in HZ.
  assert (Z : forall x, (x < n_in M)%nat -> (x <> x0 -> x <> x1 -> wt fi x = 0) /\ (x <> x2 -> x <> x3 -> wt fj x = 0)).
  { intros x Hx. specialize (HZ x ltac:(apply in_seq; lia)). apply andb_true_iff in HZ as [Za Zb]. split.
    - intros N0 N1. destruct (Nat.eqb_spec x x0); [congruence|]. destruct (Nat.eqb_spec x x1); [congruence|].
      cbn [orb] in Za. apply Qeq_bool_eq in Za. unfold wt. rewrite (Qeq_eqR _ _ Za). apply q2r_0.
    - intros N2 N3. destruct (Nat.eqb_spec x x2); [congruence|]. destruct (Nat.eqb_spec x x3); [congruence|].
      cbn [orb] in Zb. apply Qeq_bool_eq in Zb. unfold wt. rewrite (Qeq_eqR _ _ Zb). apply q2r_0. }
  assert (Wnn : forall (g : list Q) x, forallb (Qle_bool 0) g = true -> 0 <= wt g x).
  { intros g x Hg. rewrite forallb_forall in Hg. unfold wt. destruct (Nat.lt_ge_cases x (length g)) as [Hl|Hl].
    - rewrite <- q2r_0. apply Qle_Rle, Qle_bool_imp_le, Hg, nth_In, Hl.
    - rewrite nth_overflow by exact Hl. rewrite q2r_0. lra. }
  assert (Hsup : forall x, x <> x0 -> x <> x1 -> x <> x2 -> x <> x3 -> wt f x = 0 /\ wt f' x = 0).
  { intros x N0 N1 N2 N3. destruct (Nat.lt_ge_cases x (n_in M)) as [Hx|Hx].
    - destruct (Z x Hx) as [Za Zb]. specialize (Za N0 N1). specialize (Zb N2 N3). unfold fi, fj in Za, Zb.
      destruct i as [|[|]], j as [|[|]]; try lia; cbn [cw_weights] in Za, Zb; auto.
    - unfold wt. rewrite !nth_overflow by lia. split; apply q2r_0. }
  destruct (wf_of_check_distr M HD) as [W _].
  rewrite (hs_stream_blocks M (Q2R loq) (Q2R rq) f f' K i j (Q2R t) x0 x1 x2 x3 W Hf Hf' Hi Hj Hn Hlo HRR
             ltac:(auto) ltac:(auto 8) Hsup).
  fold fi fj.
  set (u0 := (nth x0 fi 0 / t)%Q). set (u1 := (nth x1 fi 0 / t)%Q).
  set (v2 := nth x2 fj 0%Q). set (v3 := nth x3 fj 0%Q).
  assert (Htq : ~ (t == 0)%Q) by (intros E; apply Qeq_eqR in E; rewrite q2r_0 in E; lra).
  assert (Eu : forall x, Q2R (nth x fi 0 / t)%Q = wt fi x / Q2R t) by (intros x; unfold wt; rewrite Q2R_div by exact Htq; reflexivity).
  assert (Hu0 : 0 <= Q2R u0) by (unfold u0; rewrite Eu; unfold Rdiv; apply Rmult_le_pos; [apply Wnn, Pi|apply Rlt_le, Rinv_0_lt_compat, Ht0]).
  assert (Hu1 : 0 <= Q2R u1) by (unfold u1; rewrite Eu; unfold Rdiv; apply Rmult_le_pos; [apply Wnn, Pi|apply Rlt_le, Rinv_0_lt_compat, Ht0]).
  assert (Hv2 : 0 <= Q2R v2) by (apply Wnn, Pj).
  assert (Hv3 : 0 <= Q2R v3) by (apply Wnn, Pj).
  assert (EB : blocks_sum M (Q2R rq) (fun x => wt fi x - Q2R t * wt fj x) x0 x1 x2 x3 K =
               Q2R t * gsum K (n_in M - 4) (fun n0 n1 n2 n3 => Rmax 0 (preal rq u0 u1 n0 n1 - nreal rq v2 v3 n2 n3))).
  { unfold blocks_sum. change (pair_sum K ?h) with (gsum K (n_in M - 4) (fun n0 n1 n2 n3 =>
      Rmax 0 ((wt fi x0 - Q2R t * wt fj x0) * Q2R rq ^ n0 + (wt fi x1 - Q2R t * wt fj x1) * Q2R rq ^ n1 +
              (wt fi x2 - Q2R t * wt fj x2) * Q2R rq ^ n2 + (wt fi x3 - Q2R t * wt fj x3) * Q2R rq ^ n3))).
    rewrite <- gsum_scal. apply gsum_ext. intros n0 n1 n2 n3. rewrite <- rmax0_scal by lra. f_equal.
    destruct (Z x0 H0) as [_ F0]. destruct (Z x1 H1) as [_ F1]. destruct (Z x2 H2) as [F2 _]. destruct (Z x3 H3) as [F3 _].
    rewrite (F0 D02 D03), (F1 D12 D13), (F2 ltac:(auto) ltac:(auto)), (F3 ltac:(auto) ltac:(auto)).
    unfold preal, nreal, u0, u1. rewrite !Eu. unfold v2, v3, wt. field. lra. }
  rewrite EB. replace (Q2R loq ^ K * (Q2R t * _)) with
    ((1 * Q2R loq ^ K * Q2R t) * gsum K (n_in M - 4) (fun n0 n1 n2 n3 => Rmax 0 (preal rq u0 u1 n0 n1 - nreal rq v2 v3 n2 n3)))
    by ring.
  unfold group_run. fold fi fj u0 u1 v2 v3. apply fmul_rnd; [apply fmul_rnd|].
  - apply fpows_rnd; [apply fq_rnd; exact Hlo|apply one_rnd|lia].
  - apply fq_rnd. lra.
  - apply ftotal_rnd; assumption.
Qed.

(** [group_pre] and [group_run] over a table [T] given once: the checks below bind the table
    with a [let], so that a re-check computes it once for both. *)
Definition group_table (up : bool) (fi fj : list Q) (x0 x1 x2 x3 : nat) (t : Q) : list entry :=
  table up K rq (nth x0 fi 0 / t)%Q (nth x1 fi 0 / t)%Q (nth x2 fj 0%Q) (nth x3 fj 0%Q).

Definition group_pre_t (T : list entry) (fi fj : list Q) (x0 x1 x2 x3 : nat) (t : Q) : bool :=
  check_distr M && check_rr M loq rq && negb (Qle_bool t 0%Q) && group_shape fi fj x0 x1 x2 x3 &&
  forallb (Qle_bool 0%Q) fi && forallb (Qle_bool 0%Q) fj && forallb entry_good T.

Definition group_run_t (up : bool) (T : list entry) (t : Q) : F.type :=
  fmulr up (fmulr up (nth K (fpows up (fq up loq) (fq up 1) K) F.zero) (fq up t)) (ftotal_of up K (n_in M - 4) T).

(** The check: lo^K·t·(the grouped sum) rounded up at most δ, for the rows i, j. *)
Definition group_le (fi fj : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) : bool :=
  let T := group_table true fi fj x0 x1 x2 x3 t in
  group_pre_t T fi fj x0 x1 x2 x3 t && fle (group_run_t true T t) (fq false delta).

Lemma group_le_eq (fi fj : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) :
  group_le fi fj x0 x1 x2 x3 t delta =
  group_pre true fi fj x0 x1 x2 x3 t && fle (group_run true fi fj x0 x1 x2 x3 t) (fq false delta).
Proof. reflexivity. Qed.

(** Rounded down above δ. *)
Definition group_gt (fi fj : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) : bool :=
  let T := group_table false fi fj x0 x1 x2 x3 t in
  group_pre_t T fi fj x0 x1 x2 x3 t && flt (fq true delta) (group_run_t false T t).

Lemma group_gt_eq (fi fj : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) :
  group_gt fi fj x0 x1 x2 x3 t delta =
  group_pre false fi fj x0 x1 x2 x3 t && flt (fq true delta) (group_run false fi fj x0 x1 x2 x3 t).
Proof. reflexivity. Qed.

(** (ε, δ)-CW-privacy of K runs on the same database: the prior f on the pair x0, x1, the
    alternative f' on x2, x3, both orders of the rows at 1 ≤ t ≤ e^ε. *)
Definition check_group_dp (f f' : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) : bool :=
  check_prior (n_in M) f && check_prior (n_in M) f' && Qle_bool 1 t && Qle_bool 0 delta &&
  group_le f f' x0 x1 x2 x3 t delta && group_le f' f x2 x3 x0 x1 t delta.

Theorem cw_group_dp_of_check (f f' : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) (eps : R) :
  Q2R t <= exp eps -> check_group_dp f f' x0 x1 x2 x3 t delta = true ->
  cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht C. unfold check_group_dp in C. rewrite !group_le_eq, !andb_true_iff in C.
  destruct C as [[[[[Pf Pf'] H1] Hd] [G01 L01]] [G10 L10]].
  apply prior_of_check in Pf, Pf'. apply Qle_bool_imp_le, Qle_Rle in H1, Hd. rewrite q2r_1 in H1. rewrite q2r_0 in Hd.
  assert (HD : check_distr M = true) by (unfold group_pre in G01; rewrite !andb_true_iff in G01; tauto).
  apply (cw_coef_dp_of_hs M K f f' t delta eps Ht HD Pf Pf' H1 Hd).
  - apply (fle_rnd _ _ _ _ (group_hs true f f' 0 1 x0 x1 x2 x3 t (proj1 Pf) (proj1 Pf') ltac:(lia) ltac:(lia) ltac:(lia) G01)
             (fq_rnd false delta Hd) L01).
  - apply (fle_rnd _ _ _ _ (group_hs true f f' 1 0 x2 x3 x0 x1 t (proj1 Pf) (proj1 Pf') ltac:(lia) ltac:(lia) ltac:(lia) G10)
             (fq_rnd false delta Hd) L10).
Qed.

(** One order for both, by an involution of the inputs swapping the priors ([gk_sym]). *)
Definition check_group_dp_sym (p : list nat) (f f' : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) : bool :=
  check_prior (n_in M) f && check_prior (n_in M) f' && Qle_bool 1 t && Qle_bool 0 delta &&
  check_sym M p f f' && group_le f f' x0 x1 x2 x3 t delta.

Theorem cw_group_dp_sym_of_check (p : list nat) (f f' : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) (eps : R) :
  Q2R t <= exp eps -> check_group_dp_sym p f f' x0 x1 x2 x3 t delta = true ->
  cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht C. unfold check_group_dp_sym in C. rewrite group_le_eq, !andb_true_iff in C.
  destruct C as [[[[[Pf Pf'] H1] Hd] HS] [G01 L01]].
  apply prior_of_check in Pf, Pf'. apply Qle_bool_imp_le, Qle_Rle in H1, Hd. rewrite q2r_1 in H1. rewrite q2r_0 in Hd.
  assert (HD : check_distr M = true) by (unfold group_pre in G01; rewrite !andb_true_iff in G01; tauto).
  assert (HR : check_rr M loq rq = true) by (unfold group_pre in G01; rewrite !andb_true_iff in G01; tauto).
  pose proof (fle_rnd _ _ _ _ (group_hs true f f' 0 1 x0 x1 x2 x3 t (proj1 Pf) (proj1 Pf') ltac:(lia) ltac:(lia) ltac:(lia) G01)
             (fq_rnd false delta Hd) L01) as H.
  apply (cw_coef_dp_of_hs M K f f' t delta eps Ht HD Pf Pf' H1 Hd H).
  destruct (wf_of_check_distr M HD) as [W _].
  rewrite (hs_coefs M K f f' 1 0 t W (proj1 Pf) (proj1 Pf')) by lia.
  rewrite (hs_coefs M K f f' 0 1 t W (proj1 Pf) (proj1 Pf')) in H by lia.
  cbn [cw_weights] in H |- *. rewrite (gk_sym M loq rq K p f f' t HR HS). exact H.
Qed.

(** Not (ε, δ): the rows ([dir] false: database then scrubbed; true: the other order) at t ≥ e^ε. *)
Definition check_group_refute (f f' : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) (dir : bool) : bool :=
  check_prior (n_in M) f && check_prior (n_in M) f' && Qle_bool 0 delta &&
  (if dir then group_gt f' f x2 x3 x0 x1 t delta else group_gt f f' x0 x1 x2 x3 t delta).

Theorem cw_group_not_dp_of_check (f f' : list Q) (x0 x1 x2 x3 : nat) (t delta : Q) (dir : bool) (eps : R) :
  exp eps <= Q2R t -> check_group_refute f f' x0 x1 x2 x3 t delta dir = true ->
  ~ cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht C Hdp. unfold check_group_refute in C. rewrite !andb_true_iff in C. destruct C as [[[Pf Pf'] Hd] C].
  apply prior_of_check in Pf, Pf'. apply Qle_bool_imp_le, Qle_Rle in Hd. rewrite q2r_0 in Hd.
  set (T := fmech_cw (fmech_power M K) f f').
  assert (Hpair : forall i' j', (i' < 2)%nat -> (j' < 2)%nat -> check_distr M = true ->
                  Q2R delta < hs T i' j' (Q2R t) -> False).
  { intros i' j' Hi' Hj' HD Hh. pose proof (t_subdistr' M K f f' HD Pf Pf') as HT.
    specialize (Hdp i' j' ltac:(cbn; lia) ltac:(cbn; lia) eq_refl (loss_event T i' j' (exp eps))).
    rewrite pr_loss_event in Hdp.
    assert (hs T i' j' (Q2R t) <= hs T i' j' (exp eps)).
    { apply hs_anti; [intros y Hy; apply (proj1 (HT j' ltac:(cbn; lia))), Hy|exact Ht]. }
    fold T in Hdp. lra. }
  destruct dir; rewrite group_gt_eq, andb_true_iff in C; destruct C as [G L];
    assert (HD : check_distr M = true) by (unfold group_pre in G; rewrite !andb_true_iff in G; tauto).
  - apply (Hpair 1 0)%nat; [lia|lia|exact HD|].
    apply (flt_rnd _ _ _ _ (fq_rnd true delta Hd) (group_hs false f f' 1 0 x2 x3 x0 x1 t (proj1 Pf) (proj1 Pf') ltac:(lia) ltac:(lia) ltac:(lia) G) L).
  - apply (Hpair 0 1)%nat; [lia|lia|exact HD|].
    apply (flt_rnd _ _ _ _ (fq_rnd true delta Hd) (group_hs false f f' 0 1 x0 x1 x2 x3 t (proj1 Pf) (proj1 Pf') ltac:(lia) ltac:(lia) ltac:(lia) G) L).
Qed.


End Run.
