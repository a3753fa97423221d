(** * (ε, δ) of the k-fold composition of any finite mechanism, from both sides

    The theorems of the accountant for finite tables.  Every ordered pair of distinct
    neighbours has its loss keys rounded up checked exactly and its PLD found among
    [ups] (PairKeys.v); each PLD of [ups] is raised to the power k in floats rounded
    down ([pld_window], DownFloat.v: squaring, small masses at the ends dropped),
    which stays below the exact power; the integral of the weights
    max(0, 1 − e^ε·b^(−z)) (Weights.v) against it, plus the mass it misses, bounds
    hs(e^ε) of the pair from above (PLDBound.v, Below.v).  [dp_power_acc]: at most δ
    for every PLD proves (ε, δ)-DP of [fmech_power M k].  [not_dp_power_acc]: for one
    pair with its loss keys rounded down, the integral alone bounds hs(e^ε) from
    below; above δ, that pair and its [loss_event] violate (ε, δ).  No product table
    and no exact convolution is computed; [acc_checks] evaluates several claims on
    powers computed once. *)
From Coq Require Import List Bool ZArith PArith QArith Qreals Reals Lra Lia.
From Coq Require Import PrimFloat.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition PLD PLDCheck.
From Obligations.Accountant Require Import Below DownFloat PLDBound PairKeys Weights.
Import ListNotations.

(** The masses dropped at the ends of a window: below 2^-100. *)
Definition tau100 : F.type := 0x1p-100%float.

(** The masses of a PLD as floats at most them. *)
Definition fpld (B : list Q) : list F.type := map (fun q => flower (iq q)) B.

(** The k-fold power of the PLD [(oB, B)] in floats rounded down, small masses below
    [tau] dropped at the ends. *)
Definition pld_window (tau : F.type) (d : Z) (k : nat) (pld : Z * list Q) : Z * list F.type :=
  fpow tau d (fst pld) (fpld (snd pld)) (Pos.of_nat k).

(** Intervals for ln b, b^(−d), b^d. *)
Definition base_consts (b : Q) (d : Z) : I.type * I.type * I.type :=
  (I.ln prec (iq b), iq (b ^ (- d))%Q, iq (b ^ d)%Q).

(** ∫ max(0, 1 − e^ε·b^(−z)) over the window [w], e^ε from [eI] ∋ ε, one exponential
    at the key nearest [z0]. *)
Definition win_hs (c : I.type * I.type * I.type) (d : Z) (eI : I.type) (z0 : Z) (w : Z * list F.type) : I.type :=
  let '(lbI, mI, pI) := c in
  iev2 (snd w) (window_cs eI lbI mI pI d (fst w) z0 (length (snd w))).

(** The same plus the mass the window misses (1 − its total). *)
Definition win_upper (c : I.type * I.type * I.type) (d : Z) (eI : I.type) (z0 : Z) (w : Z * list F.type) : I.type :=
  I.add prec (win_hs c d eI z0 w) (I.sub prec (I.fromZ prec 1) (isum (snd w))).

(** The pairs: rows distributions, b > 0, keys and PLDs of every pair, PLD masses ≥ 0. *)
Definition acc_pairs (nb : nat -> nat -> bool) (M : fmech) (b : Q) (d : Z) (ups : list (Z * list Q)) : bool :=
  check_distr M && negb (Qle_bool b 0) && pairs_ord_ok nb M b d ups &&
  forallb (fun pld => forallb (Qle_bool 0) (snd pld)) ups.

Lemma acc_pairs_distr (nb : nat -> nat -> bool) (M : fmech) (b : Q) (d : Z) (ups : list (Z * list Q)) :
  acc_pairs nb M b d ups = true -> check_distr M = true.
Proof. unfold acc_pairs. intros H. do 3 (apply andb_prop in H as [H _]). exact H. Qed.

Local Open Scope R_scope.

Lemma fpld_lo (B : list Q) : forallb (Qle_bool 0) B = true -> Forall2 lo (fpld B) (map Q2R B).
Proof.
  induction B as [|q B IH]; intros H; cbn [fpld map]; constructor; cbn [forallb] in H; apply andb_prop in H as [H1 H2].
  - apply flower_lo; [apply iq_correct|]. rewrite <- q2r_0. apply Qle_Rle, Qle_bool_imp_le, H1.
  - apply IH, H2.
Qed.

(** The window is below the exact k-fold power. *)
Lemma pld_window_below (tau : F.type) (d : Z) (k : nat) (oB : Z) (B : list Q) :
  (0 < k)%nat -> forallb (Qle_bool 0) B = true ->
  let w := pld_window tau d k (oB, B) in
  Forall fval (snd w) /\ below d (fst w) (toRs (snd w)) (Z.of_nat k * oB) (pld_power B k).
Proof.
  intros Hk HB w. pose proof (fpow_ok tau d oB (fpld B) (map Q2R B) (fpld_lo B HB) (Pos.of_nat k)) as H.
  rewrite Nat2Pos.id in H by lia. exact H.
Qed.

Lemma base_consts_ok (b : Q) (d : Z) :
  (0 < b)%Q ->
  let '(lbI, mI, pI) := base_consts b d in
  has lbI (ln (Q2R b)) /\ has mI (powerRZ (Q2R b) (- d)) /\ has pI (powerRZ (Q2R b) d).
Proof.
  intros Hb. unfold base_consts. split; [|split].
  - unfold has. assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
    pose proof (I.ln_correct prec (iq b) (Xreal (Q2R b)) (iq_correct b)) as H.
    unfold Xln' in H. cbn [Xbind] in H. rewrite (is_positive_true _ Hb') in H. exact H.
  - rewrite <- q2r_qpower by exact Hb. apply iq_correct.
  - rewrite <- q2r_qpower by exact Hb. apply iq_correct.
Qed.

Lemma win_has (tau : F.type) (b : Q) (d : Z) (k : nat) (oB : Z) (B : list Q) (eps : R) (eI : I.type) (z0 : Z) :
  (0 < b)%Q -> (0 < k)%nat -> forallb (Qle_bool 0) B = true -> has eI eps ->
  let w := pld_window tau d k (oB, B) in
  let L := ev d (fst w) (toRs (snd w)) (hs_weight (Q2R b) (exp eps)) in
  has (win_hs (base_consts b d) d eI z0 w) L /\
  has (win_upper (base_consts b d) d eI z0 w) (L + (1 - ev d (fst w) (toRs (snd w)) (fun _ => 1))).
Proof.
  intros Hb Hk HB He w L. destruct (pld_window_below tau d k oB B Hk HB) as [Hf _]. fold w in Hf.
  pose proof (base_consts_ok b d Hb) as Hc. unfold win_upper, win_hs.
  destruct (base_consts b d) as [[lbI mI] pI] eqn:Ec. destruct Hc as (Hl & Hm & Hp).
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  destruct (window_cs_ok (Q2R b) eps eI lbI mI pI d (fst w) z0 (length (snd w)) Hb' He Hl Hm Hp) as [Hlen Hcs].
  assert (H1 : has (iev2 (snd w) (window_cs eI lbI mI pI d (fst w) z0 (length (snd w)))) L)
    by (apply iev2_correct; assumption).
  split; [exact H1|]. apply add_correct; [exact H1|]. apply sub_correct; [exact (I.fromZ_correct prec 1)|].
  apply isum_correct, Hf.
Qed.

(** The exact k-fold integral between the window's and that plus the missed mass. *)
Lemma win_bracket (tau : F.type) (b : Q) (d : Z) (k : nat) (oB : Z) (B : list Q) (t : R) :
  (0 < b)%Q -> (0 < k)%nat -> forallb (Qle_bool 0) B = true -> 0 <= t ->
  ev d oB (map Q2R B) (fun _ => 1) = 1 ->
  let w := pld_window tau d k (oB, B) in
  let L := ev d (fst w) (toRs (snd w)) (hs_weight (Q2R b) t) in
  let D := ev d (Z.of_nat k * oB) (pld_power B k) (hs_weight (Q2R b) t) in
  L <= D <= L + (1 - ev d (fst w) (toRs (snd w)) (fun _ => 1)).
Proof.
  intros Hb Hk HB Ht H1 w L D. destruct (pld_window_below tau d k oB B Hk HB) as [_ Hbl]. fold w in Hbl.
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  pose proof (ev_below_bracket _ _ _ _ _ (hs_weight (Q2R b) t) Hbl (fun z => hs_weight_01 (Q2R b) t z Hb' Ht)) as H.
  unfold pld_power in H. rewrite ev_cpow_one, H1, pow1 in H. exact H.
Qed.

(** The pair's P-masses total 1. *)
Lemma pld_total (M : fmech) (x : nat) (keys : list Z) (d oB : Z) (B : list Q) :
  check_distr M = true -> (x < n_in M)%nat ->
  (forall F : Z -> R, rsum (map (fun y => prob M x y * F (nth y keys 0%Z)) (seq 0 (n_out M))) = ev d oB (map Q2R B) F) ->
  ev d oB (map Q2R B) (fun _ => 1) = 1.
Proof.
  intros HM Hx HB. rewrite <- HB. destruct (distr_of_check M HM x Hx) as [_ Hs].
  transitivity (pr M x everything); [|exact Hs].
  unfold pr, everything. apply rsum_ext_in. intros y _. ring.
Qed.

(** ** The theorems *)

Theorem dp_power_acc (nb : nat -> nat -> bool) (M : fmech) (b : Q) (d : Z) (ups : list (Z * list Q))
    (k : nat) (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  acc_pairs nb M b d ups = true -> (0 < k)%nat -> 0 <= eps -> (0 <= delta)%Q -> has eI eps ->
  forallb (fun pld => le_check (win_upper (base_consts b d) d eI z0 (pld_window tau d k pld)) delta) ups = true ->
  dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros Hacc Hk He Hd HeI Hup x x' Hx Hx' Hnb S.
  unfold acc_pairs in Hacc. apply andb_prop in Hacc as [Hacc Hnn]. apply andb_prop in Hacc as [Hacc Hpairs].
  apply andb_prop in Hacc as [HM Hb]. apply negb_true_iff in Hb.
  assert (Hb' : (0 < b)%Q) by (apply Qnot_le_lt; intros E; apply Qle_bool_iff in E; rewrite E in Hb; discriminate).
  destruct (wf_of_check_distr M HM) as [W Hsub].
  destruct (fmech_power_dims M k) as [D1 _]. rewrite D1 in Hx, Hx'.
  destruct (Nat.eq_dec x x') as [<-|Hne].
  { assert (0 <= pr (fmech_power M k) x S) by (apply pr_nonneg; intros y Hy; apply (power_nonneg M W Hsub k x y Hx Hy)).
    assert (1 <= exp eps) by (rewrite <- exp_0; apply exp_le_iff; lra).
    assert (0 <= Q2R delta) by (rewrite <- q2r_0; apply Qle_Rle, Hd). nra. }
  destruct (pairs_ord_ok_spec nb M b d ups x x' Hpairs Hx Hx' Hnb Hne) as (oB & B & Hin & Hp).
  destruct (pair_ord_spec true M b d oB B x x' W Hx Hx' Hp) as [Hk' HB].
  assert (HBnn : forallb (Qle_bool 0) B = true).
  { rewrite forallb_forall in Hnn. exact (Hnn _ Hin). }
  assert (Hchk : le_check (win_upper (base_consts b d) d eI z0 (pld_window tau d k (oB, B))) delta = true).
  { rewrite forallb_forall in Hup. exact (Hup _ Hin). }
  eapply Rle_trans; [apply pr_le_hs|].
  - intros y Hy. apply (power_nonneg M W Hsub k x' y Hx' Hy).
  - apply Rlt_le, exp_pos.
  - apply Rplus_le_compat_l.
    pose proof (hs_power_pld_ord true M x x' b _ oB d B W Hsub Hx Hx' Hb' Hk' HB k (exp eps) (Rlt_le _ _ (exp_pos eps))) as H1.
    cbn [ord] in H1. eapply Rle_trans; [exact H1|].
    destruct (win_has tau b d k oB B eps eI z0 Hb' Hk HBnn HeI) as [_ Hu].
    pose proof (win_bracket tau b d k oB B (exp eps) Hb' Hk HBnn (Rlt_le _ _ (exp_pos eps))
                  (pld_total M x _ d oB B HM Hx HB)) as [_ H2].
    eapply Rle_trans; [exact H2|]. exact (le_check_correct _ _ _ Hu Hchk).
Qed.

Theorem not_dp_power_acc (nb : nat -> nat -> bool) (M : fmech) (b : Q) (d : Z) (lo : Z * list Q)
    (k : nat) (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) (x x' : nat) :
  check_distr M = true -> (0 < b)%Q -> (0 < k)%nat -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  pair_ord_rows false (rows M) b d lo x x' = true -> forallb (Qle_bool 0) (snd lo) = true -> has eI eps ->
  gt_check (win_hs (base_consts b d) d eI z0 (pld_window tau d k lo)) delta = true ->
  let S := loss_event (fmech_power M k) x x' (exp eps) in
  exp eps * pr (fmech_power M k) x' S + Q2R delta < pr (fmech_power M k) x S /\
  ~ dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros HM Hb Hk Hx Hx' Hnb Hp HBnn HeI Hgt S. destruct lo as [oB B]. cbn [snd] in HBnn.
  destruct (wf_of_check_distr M HM) as [W Hsub].
  destruct (pair_ord_spec false M b d oB B x x' W Hx Hx' Hp) as [Hk' HB].
  pose proof (hs_power_pld_ord false M x x' b _ oB d B W Hsub Hx Hx' Hb Hk' HB k (exp eps) (Rlt_le _ _ (exp_pos eps))) as H1.
  cbn [ord] in H1.
  destruct (win_has tau b d k oB B eps eI z0 Hb Hk HBnn HeI) as [Hl _].
  pose proof (win_bracket tau b d k oB B (exp eps) Hb Hk HBnn (Rlt_le _ _ (exp_pos eps))
                (pld_total M x _ d oB B HM Hx HB)) as [H2 _].
  pose proof (gt_check_correct _ _ _ Hl Hgt) as H3.
  assert (Hviol : exp eps * pr (fmech_power M k) x' S + Q2R delta < pr (fmech_power M k) x S).
  { unfold S. rewrite pr_loss_event. lra. }
  split; [exact Hviol|]. intros Hdp.
  destruct (fmech_power_dims M k) as [D1 _].
  specialize (Hdp x x' ltac:(rewrite D1; exact Hx) ltac:(rewrite D1; exact Hx') Hnb S). lra.
Qed.

(** ** Several claims on powers computed once *)

Local Open Scope Q_scope.

Definition pld_eqb (p1 p2 : Z * list Q) : bool :=
  Z.eqb (fst p1) (fst p2) &&
  (fix eqb (l1 l2 : list Q) : bool :=
     match l1, l2 with
     | [], [] => true
     | a :: l1', c :: l2' => Z.eqb (Qnum a) (Qnum c) && Pos.eqb (Qden a) (Qden c) && eqb l1' l2'
     | _, _ => false
     end) (snd p1) (snd p2).

Lemma pld_eqb_eq (p1 p2 : Z * list Q) : pld_eqb p1 p2 = true -> p1 = p2.
Proof.
  destruct p1 as [o1 l1], p2 as [o2 l2]. unfold pld_eqb. cbn [fst snd]. intros H.
  apply andb_prop in H as [Ho Hl]. apply Z.eqb_eq in Ho. subst o2. f_equal.
  revert l2 Hl. induction l1 as [|[n1 d1] l1 IH]; intros [|[n2 d2] l2] H; try discriminate; [reflexivity|].
  apply andb_prop in H as [H H3]. apply andb_prop in H as [H1 H2]. cbn in H1, H2.
  apply Z.eqb_eq in H1. apply Pos.eqb_eq in H2. subst. f_equal. apply IH, H3.
Qed.

(** Claims to prove, [(eI, z0, up)]: every PLD of [ups] has hs ≤ up; claims to refute,
    [(eI, z0, lw)]: the pair's [lo] has hs > lw.  [lo] equal to the first of [ups] reuses
    its power. *)
Definition acc_checks (b : Q) (d : Z) (k : nat) (tau : F.type) (ups : list (Z * list Q)) (lo : Z * list Q)
    (cu cl : list (I.type * Z * Q)) : bool :=
  let c := base_consts b d in
  let Wu := map (pld_window tau d k) ups in
  let wl := match ups, Wu with
            | u :: _, w :: _ => if pld_eqb lo u then w else pld_window tau d k lo
            | _, _ => pld_window tau d k lo
            end in
  forallb (fun '(eI, z0, up) => forallb (fun w => le_check (win_upper c d eI z0 w) up) Wu) cu &&
  forallb (fun '(eI, z0, lw) => gt_check (win_hs c d eI z0 wl) lw) cl.

Lemma acc_checks_up (b : Q) (d : Z) (k : nat) (tau : F.type) (ups : list (Z * list Q)) (lo : Z * list Q)
    (cu cl : list (I.type * Z * Q)) (eI : I.type) (z0 : Z) (up : Q) :
  acc_checks b d k tau ups lo cu cl = true -> In (eI, z0, up) cu ->
  forallb (fun pld => le_check (win_upper (base_consts b d) d eI z0 (pld_window tau d k pld)) up) ups = true.
Proof.
  intros H Hin. unfold acc_checks in H. cbv zeta in H. apply andb_prop in H as [H _].
  rewrite forallb_forall in H. specialize (H _ Hin). cbv beta iota in H.
  clear Hin. induction ups as [|u ups' IH]; [reflexivity|]. cbn [map forallb] in H |- *.
  apply andb_prop in H as [H1 H1']. rewrite H1. exact (IH H1').
Qed.

Lemma acc_checks_lo (b : Q) (d : Z) (k : nat) (tau : F.type) (ups : list (Z * list Q)) (lo : Z * list Q)
    (cu cl : list (I.type * Z * Q)) (eI : I.type) (z0 : Z) (lw : Q) :
  acc_checks b d k tau ups lo cu cl = true -> In (eI, z0, lw) cl ->
  gt_check (win_hs (base_consts b d) d eI z0 (pld_window tau d k lo)) lw = true.
Proof.
  intros H Hin. unfold acc_checks in H. cbv zeta in H. apply andb_prop in H as [_ H].
  rewrite forallb_forall in H. specialize (H _ Hin). cbv beta iota in H.
  destruct ups as [|u ups']; cbn [map] in H; [exact H|].
  destruct (pld_eqb lo u) eqn:E; [|exact H]. apply pld_eqb_eq in E. subst u. exact H.
Qed.
