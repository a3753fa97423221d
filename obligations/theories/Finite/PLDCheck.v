(** * The PLD of a k-fold composition, evaluated by reflection with outward rounding

    [pld_delta] evaluates Σ_i D_k(i) · max(0, 1 − t · b^(−(k·oB + i))) (the hs(t) of
    [hs_power_pld]) in interval arithmetic on 53-bit primitive floats (coq-interval's
    [FloatIntervalFull PrimitiveFloat]): every mass of the convolution power is
    carried as an interval that contains the exact one, and t = e^ε as an interval
    that contains it.  [dp_power_pld]: the upper end at most δ proves
    (ε, δ)-DP of [fmech_power M k] for all neighbours; [not_dp_power_pld]: the lower
    end above δ refutes it, with the witness event [loss_event].  The loss keys of
    each pair are found in Coq ([keys_of]) and the pair's PLD is checked against
    the shared [B] ([pairs_ok]); no product table is built. *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia Psatz.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition PLD.
Import ListNotations.

Module I := FloatIntervalFull PrimitiveFloat.

Definition prec : I.F.precision := 53%Z.

(** [xi] contains the real [r]. *)
Definition has (xi : I.type) (r : R) : Prop := contains (I.convert xi) (Xreal r).

Definition iq (q : Q) : I.type := I.div prec (I.fromZ prec (Qnum q)) (I.fromZ prec (Zpos (Qden q))).

Lemma iq_correct (q : Q) : has (iq q) (Q2R q).
Proof.
  unfold iq, has, Q2R.
  pose proof (I.div_correct prec _ _ _ _ (I.fromZ_correct prec (Qnum q)) (I.fromZ_correct prec (Zpos (Qden q)))) as H.
  unfold Xbind2, Xdiv' in H. rewrite is_zero_false in H by (apply not_0_IZR; discriminate). exact H.
Qed.

Lemma zero_correct : has I.zero 0.
Proof. unfold has. rewrite I.zero_correct. cbn. lra. Qed.

Lemma add_correct xi yi x y : has xi x -> has yi y -> has (I.add prec xi yi) (x + y)%R.
Proof. intros Hx Hy. exact (I.add_correct prec xi yi (Xreal x) (Xreal y) Hx Hy). Qed.

Lemma sub_correct xi yi x y : has xi x -> has yi y -> has (I.sub prec xi yi) (x - y)%R.
Proof. intros Hx Hy. exact (I.sub_correct prec xi yi (Xreal x) (Xreal y) Hx Hy). Qed.

Lemma mul_correct xi yi x y : has xi x -> has yi y -> has (I.mul prec xi yi) (x * y)%R.
Proof. intros Hx Hy. exact (I.mul_correct prec xi yi (Xreal x) (Xreal y) Hx Hy). Qed.

(** ** Masses carried as intervals *)

Lemma dadd_has (DI DI' : list I.type) (D D' : list R) :
  Forall2 has DI D -> Forall2 has DI' D' -> Forall2 has (dadd (I.add prec) DI DI') (dadd Rplus D D').
Proof.
  intros H. revert DI' D'. induction H as [|a r DI D Ha HD IH]; intros DI' D' H'; cbn [dadd]; [exact H'|].
  destruct H' as [|a' r' DI' D' Ha' HD']; [constructor; assumption|].
  constructor; [apply add_correct; assumption|apply IH, HD'].
Qed.

Lemma scale_has (bi : I.type) (b : R) (DI : list I.type) (D : list R) :
  has bi b -> Forall2 has DI D -> Forall2 has (map (I.mul prec bi) DI) (map (Rmult b) D).
Proof. intros Hb H. induction H; constructor; [apply mul_correct|]; assumption. Qed.

Lemma conv_has (BI DI : list I.type) (B D : list R) :
  Forall2 has BI B -> Forall2 has DI D ->
  Forall2 has (conv (I.add prec) (I.mul prec) I.zero BI DI) (conv Rplus Rmult 0%R B D).
Proof.
  intros HB HD. induction HB as [|bi b BI B Hb HB IH]; cbn [conv]; [constructor|].
  apply dadd_has; [apply scale_has; assumption|constructor; [exact zero_correct|exact IH]].
Qed.

Lemma cpow_has (BI : list I.type) (B : list R) (onei : I.type) (k : nat) :
  Forall2 has BI B -> has onei 1 ->
  Forall2 has (cpow (I.add prec) (I.mul prec) I.zero BI onei k) (cpow Rplus Rmult 0%R B 1%R k).
Proof.
  intros HB H1. induction k as [|k IH]; cbn [cpow]; [constructor; [exact H1|constructor]|].
  apply conv_has; assumption.
Qed.

(** ** hs(t) in intervals *)

(** An interval for max(0, r) from one for r. *)
Definition imax0 (xi : I.type) : I.type :=
  match I.sign_large xi with
  | Xgt => xi
  | Xund => I.join I.zero xi
  | _ => I.zero
  end.

Lemma imax0_correct (xi : I.type) (r : R) : has xi r -> has (imax0 xi) (Rmax 0 r).
Proof.
  intros H. unfold imax0. pose proof (I.sign_large_correct xi) as S.
  destruct (I.sign_large xi).
  - specialize (S _ H). injection S as ->. rewrite Rmax_left by lra. exact zero_correct.
  - destruct (S _ H) as [_ Hle]. cbn [proj_val] in Hle. rewrite Rmax_left by lra. exact zero_correct.
  - destruct (S _ H) as [_ Hle]. cbn [proj_val] in Hle. rewrite Rmax_right by lra. exact H.
  - apply I.join_correct. unfold Rmax. destruct (Rle_dec 0 r); [right; exact H|left; exact zero_correct].
Qed.

Definition iweight (bi ti : I.type) (z : Z) : I.type :=
  imax0 (I.sub prec (I.fromZ prec 1) (I.mul prec ti (I.power_int prec bi (- z)))).

Lemma iweight_correct (bi ti : I.type) (b t : R) (z : Z) :
  b <> 0%R -> has bi b -> has ti t -> has (iweight bi ti z) (hs_weight b t z).
Proof.
  intros Hb0 Hb Ht. unfold iweight, hs_weight. apply imax0_correct, sub_correct; [exact (I.fromZ_correct prec 1)|].
  apply mul_correct; [exact Ht|].
  pose proof (I.power_int_correct prec (- z) bi (Xreal b) Hb) as H. unfold has.
  replace (Xreal (powerRZ b (- z))) with (Xpower_int (Xreal b) (- z)); [exact H|].
  cbn [Xpower_int Xbind]. destruct (- z)%Z; cbn [Xpower_int' powerRZ]; try reflexivity.
  rewrite is_zero_false by exact Hb0. reflexivity.
Qed.

Fixpoint iev (d o : Z) (DI : list I.type) (hi : Z -> I.type) : I.type :=
  match DI with
  | [] => I.zero
  | a :: DI' => I.add prec (I.mul prec a (hi o)) (iev d (o + d)%Z DI' hi)
  end.

Lemma iev_correct (d o : Z) (DI : list I.type) (D : list R) (hi : Z -> I.type) (h : Z -> R) :
  Forall2 has DI D -> (forall z, has (hi z) (h z)) -> has (iev d o DI hi) (ev d o D h).
Proof.
  intros HD Hh. revert o. induction HD as [|a r DI D Ha HD IH]; intros o; cbn [iev ev]; [exact zero_correct|].
  apply add_correct; [apply mul_correct; [exact Ha|apply Hh]|apply IH].
Qed.

(** The interval that contains hs(t) of the k-fold composition, for [ti] ∋ t. *)
Definition pld_delta (b : Q) (oB d : Z) (B : list Q) (k : nat) (ti : I.type) : I.type :=
  iev d (Z.of_nat k * oB) (cpow (I.add prec) (I.mul prec) I.zero (map iq B) (iq 1) k) (iweight (iq b) ti).

Lemma pld_delta_correct (b : Q) (oB d : Z) (B : list Q) (k : nat) (ti : I.type) (t : R) :
  (0 < b)%Q -> has ti t -> has (pld_delta b oB d B k ti) (ev d (Z.of_nat k * oB) (pld_power B k) (hs_weight (Q2R b) t)).
Proof.
  intros Hb Ht. apply iev_correct.
  - apply cpow_has; [|rewrite <- q2r_1; apply iq_correct].
    induction B as [|q B IH]; constructor; [apply iq_correct|exact IH].
  - intros z. apply iweight_correct; [|apply iq_correct|exact Ht].
    rewrite <- q2r_0. intros E. apply eqR_Qeq in E. rewrite E in Hb. discriminate.
Qed.

(** Its upper end is at most [d]. *)
Definition le_check (xi : I.type) (d : Q) : bool :=
  match I.sign_large (I.sub prec xi (iq d)) with Xlt | Xeq => true | _ => false end.

Lemma le_check_correct (xi : I.type) (r : R) (d : Q) : has xi r -> le_check xi d = true -> (r <= Q2R d)%R.
Proof.
  intros H C. unfold le_check in C. pose proof (I.sign_large_correct (I.sub prec xi (iq d))) as S.
  pose proof (sub_correct _ _ _ _ H (iq_correct d)) as Hs.
  destruct (I.sign_large _); try discriminate.
  - specialize (S _ Hs). injection S. lra.
  - destruct (S _ Hs) as [_ Hle]. cbn [proj_val] in Hle. lra.
Qed.

(** Its lower end is above [d]. *)
Definition gt_check (xi : I.type) (d : Q) : bool :=
  match I.sign_strict (I.sub prec xi (iq d)) with Xgt => true | _ => false end.

Lemma gt_check_correct (xi : I.type) (r : R) (d : Q) : has xi r -> gt_check xi d = true -> (Q2R d < r)%R.
Proof.
  intros H C. unfold gt_check in C. pose proof (I.sign_strict_correct (I.sub prec xi (iq d))) as S.
  pose proof (sub_correct _ _ _ _ H (iq_correct d)) as Hs.
  destruct (I.sign_strict _); try discriminate.
  destruct (S _ Hs) as [_ Hlt]. cbn [proj_val] in Hlt. lra.
Qed.

(** ** The PLD of each neighbouring pair, checked exactly *)
Local Open Scope Q_scope.

Definition keyed_b (b p q : Q) (z : Z) : bool := Qeq_bool p 0 || Qeq_bool p (b ^ z * q).

(** The first key in [o, o + n) that fits (p, q); [o] if none does (then the check fails). *)
Fixpoint find_key (b p q : Q) (o : Z) (n : nat) : Z :=
  match n with
  | O => o
  | S n' => if keyed_b b p q o then o else find_key b p q (o + 1)%Z n'
  end.

(** The mass list of P-masses [ps] at keys [zs] (each at least [o]), starting at key [o]. *)
Fixpoint densify (o : Z) (ps : list Q) (zs : list Z) : list Q :=
  match ps, zs with
  | p :: ps', z :: zs' => dadd qplus_lcm (repeat 0 (Z.to_nat (z - o)) ++ [p]) (densify o ps' zs')
  | _, _ => []
  end.

Fixpoint qlist_eqb (l1 l2 : list Q) : bool :=
  match l1, l2 with
  | [], [] => true
  | a :: l1', b :: l2' => Qeq_bool a b && qlist_eqb l1' l2'
  | _, _ => false
  end.

Definition keys_of (b : Q) (oB : Z) (n : nat) (P Qr : list Q) : list Z :=
  map (fun '(p, q) => find_key b p q oB n) (combine P Qr).

(** The rows [x], [x'] of the table [R] have keys in [oB, oB + length B) and their PLD is [B]. *)
Definition pair_ok_rows (R : list (list Q)) (b : Q) (oB : Z) (B : list Q) (x x' : nat) : bool :=
  let P := nth x R [] in
  let Qr := nth x' R [] in
  let ks := keys_of b oB (length B) P Qr in
  forallb (fun '(z, (p, q)) => keyed_b b p q z && Z.leb oB z) (combine ks (combine P Qr)) &&
  qlist_eqb (densify oB P ks) B.

Definition pair_ok (M : fmech) (b : Q) (oB : Z) (B : list Q) (x x' : nat) : bool :=
  pair_ok_rows (rows M) b oB B x x'.

(** Every neighbouring pair of distinct inputs (an input and itself meet every
    (ε ≥ 0, δ ≥ 0) claim); the table is computed once. *)
Definition pairs_ok (nb : nat -> nat -> bool) (M : fmech) (b : Q) (oB : Z) (B : list Q) : bool :=
  let R := rows M in
  forallb (fun x => forallb (fun x' => if nb x x' then (if Nat.eqb x x' then true else pair_ok_rows R b oB B x x') else true) (seq 0 (n_in M)))
          (seq 0 (n_in M)).

Local Open Scope R_scope.

Lemma map_q2r_dadd (l1 l2 : list Q) : map Q2R (dadd qplus_lcm l1 l2) = dadd Rplus (map Q2R l1) (map Q2R l2).
Proof.
  revert l2. induction l1 as [|a l1 IH]; intros [|c l2]; cbn [dadd map]; try reflexivity.
  rewrite IH, (Qeq_eqR _ _ (qplus_lcm_correct a c)), Q2R_plus. reflexivity.
Qed.

Lemma ev_single (o : Z) (n : nat) (p : Q) (F : Z -> R) :
  ev 1 o (map Q2R (repeat 0%Q n ++ [p])) F = Q2R p * F (o + Z.of_nat n)%Z.
Proof.
  revert o. induction n as [|n IH]; intros o; cbn [repeat app map ev].
  - rewrite Z.add_0_r. ring.
  - rewrite IH, q2r_0. replace (o + 1 + Z.of_nat n)%Z with (o + Z.of_nat (S n))%Z by lia. ring.
Qed.

Lemma qlist_eqb_map (l1 l2 : list Q) : qlist_eqb l1 l2 = true -> map Q2R l1 = map Q2R l2.
Proof.
  revert l2. induction l1 as [|a l1 IH]; intros [|c l2] H; cbn in H |- *; try reflexivity; try discriminate.
  apply andb_prop in H as [H1 H2]. rewrite (Qeq_eqR _ _ (Qeq_bool_eq _ _ H1)), (IH _ H2). reflexivity.
Qed.

(** Σ_y P(y) · F(z_y) over the list, as the dense PLD. *)
Lemma densify_ev (o : Z) (P : list Q) (ks : list Z) (F : Z -> R) :
  length ks = length P -> Forall (fun z => (o <= z)%Z) ks ->
  rsum (map (fun y => Q2R (nth y P 0%Q) * F (nth y ks 0%Z)) (seq 0 (length P))) =
  ev 1 o (map Q2R (densify o P ks)) F.
Proof.
  revert ks. induction P as [|p P IH]; intros [|z ks] Hl Hk; cbn [length] in Hl; try discriminate.
  - reflexivity.
  - inversion Hk as [|? ? Hz Hks]; subst. cbn [densify]. rewrite map_q2r_dadd, ev_dadd, ev_single.
    cbn [length seq map]. rewrite rsum_cons. cbn [nth]. rewrite <- seq_shift, map_map. cbn [nth].
    rewrite (IH ks) by (try lia; exact Hks). f_equal. f_equal. f_equal. lia.
Qed.

Lemma keyed_b_correct (b p q : Q) (z : Z) : keyed_b b p q z = true -> keyed b p q z.
Proof.
  unfold keyed_b, keyed. intros H. apply orb_prop in H as [H|H]; [left|right]; apply Qeq_bool_eq, H.
Qed.

Lemma pair_ok_spec (M : fmech) (b : Q) (oB : Z) (B : list Q) (x x' : nat) :
  fmech_wf M -> (x < n_in M)%nat -> (x' < n_in M)%nat -> pair_ok M b oB B x x' = true ->
  let ks := keys_of b oB (length B) (nth x (rows M) []) (nth x' (rows M) []) in
  (forall y, (y < n_out M)%nat -> keyed b (entry M x y) (entry M x' y) (nth y ks 0%Z)) /\
  (forall F : Z -> R, rsum (map (fun y => prob M x y * F (nth y ks 0%Z)) (seq 0 (n_out M))) = ev 1 oB (map Q2R B) F).
Proof.
  intros [Hn Hr] Hx Hx' H ks. unfold pair_ok, pair_ok_rows in H. fold ks in H. apply andb_prop in H as [Hall Heq].
  set (P := nth x (rows M) []) in *. set (Qr := nth x' (rows M) []) in *.
  assert (HP : length P = n_out M) by (apply Hr, nth_In; rewrite Hn; exact Hx).
  assert (HQ : length Qr = n_out M) by (apply Hr, nth_In; rewrite Hn; exact Hx').
  assert (Hks : length ks = n_out M).
  { unfold ks, keys_of. rewrite map_length, combine_length, HP, HQ. apply Nat.min_id. }
  assert (Hy : forall y, (y < n_out M)%nat -> keyed_b b (nth y P 0%Q) (nth y Qr 0%Q) (nth y ks 0%Z) = true /\ (oB <= nth y ks 0%Z)%Z).
  { intros y Hy. rewrite forallb_forall in Hall.
    assert (Hl : length (combine ks (combine P Qr)) = n_out M).
    { rewrite !combine_length, Hks, HP, HQ, !Nat.min_id. reflexivity. }
    assert (E : nth y (combine ks (combine P Qr)) (0%Z, (0%Q, 0%Q)) = (nth y ks 0%Z, (nth y P 0%Q, nth y Qr 0%Q))).
    { rewrite combine_nth by (rewrite combine_length, HP, HQ, Hks, Nat.min_id; reflexivity).
      rewrite combine_nth by (rewrite HP, HQ; reflexivity). reflexivity. }
    pose proof (Hall _ (nth_In (combine ks (combine P Qr)) (0%Z, (0%Q, 0%Q)) ltac:(rewrite Hl; exact Hy))) as H.
    rewrite E in H. apply andb_prop in H as [H1 H2]. split; [exact H1|apply Z.leb_le, H2]. }
  split.
  - intros y Hy'. apply keyed_b_correct, (Hy y Hy').
  - intros F. unfold prob, entry. fold P. rewrite <- HP.
    assert (Hf : Forall (fun z => (oB <= z)%Z) ks).
    { apply Forall_forall. intros z Hz. apply In_nth with (d := 0%Z) in Hz as [i [Hi <-]].
      rewrite Hks in Hi. apply (Hy i Hi). }
    rewrite (densify_ev oB P ks F ltac:(rewrite Hks, HP; reflexivity) Hf).
    rewrite (qlist_eqb_map _ _ Heq). reflexivity.
Qed.

Lemma pairs_ok_spec (nb : nat -> nat -> bool) (M : fmech) (b : Q) (oB : Z) (B : list Q) (x x' : nat) :
  pairs_ok nb M b oB B = true -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true -> x <> x' ->
  pair_ok M b oB B x x' = true.
Proof.
  intros H Hx Hx' Hnb Hne. unfold pairs_ok in H. cbv zeta in H. rewrite forallb_forall in H.
  specialize (H x ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H x' ltac:(apply in_seq; lia)). apply Nat.eqb_neq in Hne. rewrite Hnb, Hne in H. exact H.
Qed.

(** ** The certificates' theorems *)

(** Upper side: the k-fold composition is (ε, δ)-DP when the interval for its hs(e^ε)
    ends at most at δ. *)
Theorem dp_power_pld (nb : nat -> nat -> bool) (M : fmech) (b : Q) (oB : Z) (B : list Q)
    (k : nat) (eps : R) (ti : I.type) (delta : Q) :
  check_distr M = true -> (0 < b)%Q -> pairs_ok nb M b oB B = true -> (0 <= eps)%R -> (0 <= delta)%Q ->
  has ti (exp eps) -> le_check (pld_delta b oB 1 B k ti) delta = true ->
  dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros HM Hb Hpairs He Hd Ht Hle x x' Hx Hx' Hnb S.
  destruct (wf_of_check_distr M HM) as [W Hsub].
  destruct (fmech_power_dims M k) as [D1 _]. rewrite D1 in Hx, Hx'.
  destruct (Nat.eq_dec x x') as [<-|Hne].
  { assert (0 <= pr (fmech_power M k) x S)%R by (apply pr_nonneg; intros y Hy; apply (power_nonneg M W Hsub k x y Hx Hy)).
    assert (1 <= exp eps)%R by (rewrite <- exp_0; apply exp_le_iff; lra).
    assert (0 <= Q2R delta)%R by (rewrite <- q2r_0; apply Qle_Rle, Hd). nra. }
  destruct (pair_ok_spec M b oB B x x' W Hx Hx' (pairs_ok_spec nb M b oB B x x' Hpairs Hx Hx' Hnb Hne)) as [Hk HB].
  eapply Rle_trans; [apply pr_le_hs|].
  - intros y Hy. apply (power_nonneg M W Hsub k x' y Hx' Hy).
  - apply Rlt_le, exp_pos.
  - apply Rplus_le_compat_l.
    rewrite (hs_power_pld M x x' b _ oB 1 B W Hsub Hx Hx' Hb Hk HB k (exp eps) (Rlt_le _ _ (exp_pos eps))).
    exact (le_check_correct _ _ _ (pld_delta_correct b oB 1 B k ti _ Hb Ht) Hle).
Qed.

(** Lower side: when the interval for hs(e^ε) of the pair (x, x') starts above δ, the
    event [loss_event] of the k-fold composition violates (ε, δ): the claim is false. *)
Theorem not_dp_power_pld (nb : nat -> nat -> bool) (M : fmech) (b : Q) (oB : Z) (B : list Q)
    (k : nat) (eps : R) (ti : I.type) (delta : Q) (x x' : nat) :
  check_distr M = true -> (0 < b)%Q -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  pair_ok M b oB B x x' = true -> has ti (exp eps) ->
  gt_check (pld_delta b oB 1 B k ti) delta = true ->
  let S := loss_event (fmech_power M k) x x' (exp eps) in
  (exp eps * pr (fmech_power M k) x' S + Q2R delta < pr (fmech_power M k) x S)%R /\
  ~ dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros HM Hb Hx Hx' Hnb Hpair Ht Hgt S.
  destruct (wf_of_check_distr M HM) as [W Hsub].
  destruct (pair_ok_spec M b oB B x x' W Hx Hx' Hpair) as [Hk HB].
  pose proof (gt_check_correct _ _ _ (pld_delta_correct b oB 1 B k ti _ Hb Ht) Hgt) as Hlt.
  rewrite <- (hs_power_pld M x x' b _ oB 1 B W Hsub Hx Hx' Hb Hk HB k (exp eps) (Rlt_le _ _ (exp_pos eps))) in Hlt.
  assert (Hviol : (exp eps * pr (fmech_power M k) x' S + Q2R delta < pr (fmech_power M k) x S)%R).
  { unfold S. rewrite pr_loss_event. lra. }
  split; [exact Hviol|]. intros Hdp.
  destruct (fmech_power_dims M k) as [D1 _].
  specialize (Hdp x x' ltac:(rewrite D1; exact Hx) ltac:(rewrite D1; exact Hx') Hnb S). lra.
Qed.

(** Several claims [(ti, up, lo)] on one convolution power (computed once):
    hs(t) ≤ up and hs(t) > lo for each t ∈ ti. *)
Definition pld_checks (b : Q) (oB d : Z) (B : list Q) (k : nat) (claims : list (I.type * Q * Q)) : bool :=
  let D := cpow (I.add prec) (I.mul prec) I.zero (map iq B) (iq 1) k in
  forallb (fun '(ti, up, lo) =>
             let r := iev d (Z.of_nat k * oB) D (iweight (iq b) ti) in le_check r up && gt_check r lo) claims.

Lemma pld_checks_spec (b : Q) (oB d : Z) (B : list Q) (k : nat) (claims : list (I.type * Q * Q))
    (ti : I.type) (up lo : Q) :
  pld_checks b oB d B k claims = true -> In (ti, up, lo) claims ->
  le_check (pld_delta b oB d B k ti) up = true /\ gt_check (pld_delta b oB d B k ti) lo = true.
Proof.
  intros H Hin. unfold pld_checks in H. cbv zeta in H. rewrite forallb_forall in H.
  apply H, andb_prop in Hin. exact Hin.
Qed.
