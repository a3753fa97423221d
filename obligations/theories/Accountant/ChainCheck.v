(** * (ε, δ) of a chain of different mechanisms, each run several times, from both sides

    [groups] lists mechanisms [M] with run counts [k] (all on the same [n] inputs); the chain
    runs them in order, [fmech_chain (chain_of groups) n].  For every ordered pair of
    distinct neighbours, each group's loss keys (one base b for all) and PLD are checked,
    and the pair's combination of PLDs (one per group) must be among [combos]; each
    combination's window is the k-th powers of its PLDs (DownFloat.v) convolved, in floats
    rounded down ([combo_window]), below the exact convolution of the chain's PLDs.
    [dp_chain_acc] and [not_dp_chain_acc] are the theorems of ComposeCheck.v for chains. *)
From Coq Require Import List Bool ZArith PArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition PLD PLDCheck.
From Obligations.Accountant Require Import Below DownFloat PLDBound PairKeys Weights ComposeCheck Chain.
Import ListNotations.

Definition chain_of (groups : list (fmech * nat)) : list fmech := flat_map (fun g => repeat (fst g) (snd g)) groups.

(** The chain's PLDs: each group's, repeated as often as it runs. *)
Definition combo_plds (ks : list nat) (combo : list (Z * list Q)) : list (Z * list Q) :=
  flat_map (fun kp => repeat (snd kp) (fst kp)) (combine ks combo).

Fixpoint combo_window (tau : F.type) (d : Z) (ks : list nat) (combo : list (Z * list Q)) : Z * list F.type :=
  match ks, combo with
  | k :: ks', p :: combo' =>
      let w := pld_window tau d k p in
      let r := combo_window tau d ks' combo' in
      trim tau d (fst w + fst r) (fconv (snd w) (snd r))
  | _, _ => (0%Z, [flower (iq 1)])
  end.

(** Every group: rows distributions on [n] inputs, run at least once; b > 0; the PLDs of
    every combination non-negative, one per group; every ordered pair of distinct neighbours
    with its combination of up-rounded PLDs among [combos]. *)
Definition chain_pairs_ok (nb : nat -> nat -> bool) (groups : list (fmech * nat)) (n : nat) (b : Q) (d : Z)
    (combos : list (list (Z * list Q))) : bool :=
  forallb (fun g => check_distr (fst g) && Nat.eqb (n_in (fst g)) n && Nat.ltb 0 (snd g)) groups &&
  negb (Qle_bool b 0) &&
  forallb (fun combo => Nat.eqb (length combo) (length groups) &&
                        forallb (fun p => forallb (Qle_bool 0) (snd p)) combo) combos &&
  forallb (fun x => forallb (fun x' =>
    if nb x x' then (if Nat.eqb x x' then true else
      existsb (fun combo => forallb2 (fun g p => pair_ord_rows true (rows (fst g)) b d p x x') groups combo) combos)
    else true) (seq 0 n)) (seq 0 n).

Local Open Scope R_scope.

Lemma pld_offsets_app (P1 P2 : list (Z * list Q)) : pld_offsets (P1 ++ P2) = (pld_offsets P1 + pld_offsets P2)%Z.
Proof. induction P1 as [|p P1 IH]; cbn [app pld_offsets fold_right]; [reflexivity|]. fold (pld_offsets (P1 ++ P2)). rewrite IH. unfold pld_offsets. lia. Qed.

Lemma pld_offsets_repeat (p : Z * list Q) (k : nat) : pld_offsets (repeat p k) = (Z.of_nat k * fst p)%Z.
Proof. induction k as [|k IH]; cbn [repeat pld_offsets fold_right]; [reflexivity|]. fold (pld_offsets (repeat p k)). rewrite IH. lia. Qed.

Lemma ev_conv_list_repeat (d o oB : Z) (B : list R) (k : nat) (L : list (list R)) (h : Z -> R) :
  ev d (Z.of_nat k * oB + o) (conv_list (repeat B k ++ L)) h =
  ev d (Z.of_nat k * oB + o) (conv Rplus Rmult 0 (cpow Rplus Rmult 0 B 1 k) (conv_list L)) h.
Proof.
  revert h. induction k as [|k IH]; intros h; cbn [repeat app conv_list cpow].
  - rewrite Z.mul_0_l, Z.add_0_l, ev_unit. reflexivity.
  - replace (Z.of_nat (S k) * oB + o)%Z with (oB + (Z.of_nat k * oB + o))%Z by lia.
    rewrite ev_conv. replace (oB + (Z.of_nat k * oB + o))%Z with ((oB + Z.of_nat k * oB) + o)%Z by lia.
    rewrite (ev_conv d (oB + Z.of_nat k * oB) o), ev_conv.
    apply ev_ext. intros z1. rewrite IH, ev_conv. apply ev_ext. intros z2. apply ev_ext. intros z3. f_equal. lia.
Qed.

Lemma map_repeat' {A B} (f : A -> B) (a : A) (k : nat) : map f (repeat a k) = repeat (f a) k.
Proof. induction k as [|k IH]; cbn; [reflexivity|]. rewrite IH. reflexivity. Qed.

Definition pld_nonneg (p : Z * list Q) : Prop := forallb (Qle_bool 0) (snd p) = true.

Lemma pld_nonneg_all (Ps : list (Z * list Q)) :
  forallb (fun p => forallb (Qle_bool 0) (snd p)) Ps = true -> Forall pld_nonneg Ps.
Proof. intros H. apply Forall_forall. intros p Hp. rewrite forallb_forall in H. exact (H p Hp). Qed.

Lemma pld_nonneg_reals (p : Z * list Q) : pld_nonneg p -> nonneg (map Q2R (snd p)).
Proof.
  unfold pld_nonneg. destruct p as [o B]. cbn [snd]. induction B as [|q B IH]; intros H; cbn in H |- *; [constructor|].
  apply andb_prop in H as [H1 H2]. constructor; [|apply IH, H2].
  rewrite <- q2r_0. apply Qle_Rle, Qle_bool_imp_le, H1.
Qed.

Lemma conv_list_nonneg (Ps : list (Z * list Q)) : Forall pld_nonneg Ps -> nonneg (conv_list (pld_reals Ps)).
Proof.
  intros H. induction H as [|p Ps Hp H IH]; cbn [pld_reals map conv_list]; [constructor; [lra|constructor]|].
  apply nonneg_conv; [apply pld_nonneg_reals, Hp|exact IH].
Qed.

Lemma combo_plds_nonneg (ks : list nat) (combo : list (Z * list Q)) :
  Forall pld_nonneg combo -> Forall pld_nonneg (combo_plds ks combo).
Proof.
  intros H. apply Forall_forall. intros p Hp. unfold combo_plds in Hp. apply in_flat_map in Hp as [[k q] [Hin Hp]].
  apply repeat_spec in Hp. cbn [snd] in Hp. subst q. apply in_combine_r in Hin. rewrite Forall_forall in H. apply H, Hin.
Qed.

Lemma combo_window_below (tau : F.type) (d : Z) (ks : list nat) (combo : list (Z * list Q)) :
  length ks = length combo -> Forall (fun k => (0 < k)%nat) ks -> Forall pld_nonneg combo ->
  let w := combo_window tau d ks combo in
  Forall fval (snd w) /\
  below d (fst w) (toRs (snd w)) (pld_offsets (combo_plds ks combo)) (conv_list (pld_reals (combo_plds ks combo))).
Proof.
  revert combo. induction ks as [|k ks IH]; intros [|[oB B] combo] Hl Hk Hn w; cbn [length] in Hl; try discriminate.
  - unfold w. cbn [combo_window fst snd combo_plds combine flat_map pld_reals map conv_list pld_offsets fold_right].
    assert (H1 : lo (flower (iq 1)) 1) by (apply flower_lo; [rewrite <- q2r_1; apply iq_correct|lra]).
    split; [constructor; [apply H1|constructor]|]. apply below_pointwise. constructor; [apply H1|constructor].
  - inversion Hk as [|? ? Hk0 Hks]; subst. inversion Hn as [|? ? Hn0 Hns]; subst. cbn [snd] in Hn0.
    destruct (IH combo ltac:(lia) Hks Hns) as [Hr1 Hr2]. set (r := combo_window tau d ks combo) in *.
    destruct (pld_window_below tau d k oB B Hk0 Hn0) as [Hw1 Hw2]. set (wk := pld_window tau d k (oB, B)) in *.
    unfold w. cbn [combo_window]. fold r wk.
    pose proof (fconv_lo _ _ _ _ (fvals_lo _ Hw1) (fvals_lo _ Hr1)) as Hc.
    destruct (trim_below tau d (fst wk + fst r) _ (lo_fvals _ _ Hc)) as [H3 H4]. split; [exact H3|].
    eapply below_trans; [exact H4|]. eapply below_trans; [apply lo_below, Hc|].
    eapply below_trans.
    + apply below_conv; [apply fvals_nonneg, Hw1| |exact Hw2|exact Hr2].
      apply conv_list_nonneg, combo_plds_nonneg, Hns.
    + apply below_ev_eq. intros h. unfold combo_plds. cbn [combine flat_map fst snd].
      fold (combo_plds ks combo). unfold pld_reals. rewrite map_app. fold (pld_reals (combo_plds ks combo)).
      rewrite pld_offsets_app, pld_offsets_repeat. cbn [fst].
      rewrite map_repeat'. cbn [snd]. rewrite ev_conv_list_repeat. reflexivity.
Qed.

Lemma win_has_any (b : Q) (d : Z) (eps : R) (eI : I.type) (z0 : Z) (w : Z * list F.type) :
  (0 < b)%Q -> has eI eps -> Forall fval (snd w) ->
  let L := ev d (fst w) (toRs (snd w)) (hs_weight (Q2R b) (exp eps)) in
  has (win_hs (base_consts b d) d eI z0 w) L /\
  has (win_upper (base_consts b d) d eI z0 w) (L + (1 - ev d (fst w) (toRs (snd w)) (fun _ => 1))).
Proof.
  intros Hb He Hf L. pose proof (base_consts_ok b d Hb) as Hc. unfold win_upper, win_hs.
  destruct (base_consts b d) as [[lbI mI] pI] eqn:Ec. destruct Hc as (Hl & Hm & Hp).
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  destruct (window_cs_ok (Q2R b) eps eI lbI mI pI d (fst w) z0 (length (snd w)) Hb' He Hl Hm Hp) as [Hlen Hcs].
  assert (H1 : has (iev2 (snd w) (window_cs eI lbI mI pI d (fst w) z0 (length (snd w)))) L)
    by (apply iev2_correct; assumption).
  split; [exact H1|]. apply add_correct; [exact H1|]. apply sub_correct; [exact (I.fromZ_correct prec 1)|].
  apply isum_correct, Hf.
Qed.

Lemma ev_conv_list_one (d : Z) (Ps : list (Z * list Q)) :
  Forall (fun p => ev d (fst p) (map Q2R (snd p)) (fun _ => 1) = 1) Ps ->
  ev d (pld_offsets Ps) (conv_list (pld_reals Ps)) (fun _ => 1) = 1.
Proof.
  intros H. induction H as [|[o B] Ps Hp H IH]; cbn [pld_offsets pld_reals fold_right map conv_list fst snd] in *.
  - cbn [ev]. ring.
  - fold (pld_offsets Ps) (pld_reals Ps). rewrite ev_conv.
    rewrite (ev_ext d o _ _ (fun _ => 1)) by (intros z; exact IH). exact Hp.
Qed.

Lemma forall2_in_r {A B} (R : A -> B -> Prop) (l1 : list A) (l2 : list B) (y : B) :
  Forall2 R l1 l2 -> In y l2 -> exists x, In x l1 /\ R x y.
Proof.
  intros H. induction H as [|a c l1 l2 Hac H IH]; intros Hin; [destruct Hin|].
  destruct Hin as [<-|Hin]; [exists a; split; [left; reflexivity|exact Hac]|].
  destruct (IH Hin) as [z [Hz Hr]]. exists z. split; [right; exact Hz|exact Hr].
Qed.

Section Groups.
Variables (nb : nat -> nat -> bool) (groups : list (fmech * nat)) (n : nat) (b : Q) (d : Z)
          (combos : list (list (Z * list Q))).
Hypothesis Hpairs : chain_pairs_ok nb groups n b d combos = true.

Lemma chain_pairs_facts :
  Forall (fun g => check_distr (fst g) = true /\ n_in (fst g) = n /\ (0 < snd g)%nat) groups /\ (0 < b)%Q /\
  Forall (fun combo => length combo = length groups /\ Forall pld_nonneg combo) combos.
Proof.
  unfold chain_pairs_ok in Hpairs. apply andb_prop in Hpairs as [H _]. apply andb_prop in H as [H Hc].
  apply andb_prop in H as [Hg Hb]. split; [|split].
  - apply Forall_forall. intros g Hin. rewrite forallb_forall in Hg. specialize (Hg g Hin).
    apply andb_prop in Hg as [Hg Hk]. apply andb_prop in Hg as [Hd Hn].
    split; [exact Hd|]. split; [apply Nat.eqb_eq, Hn|apply Nat.ltb_lt, Hk].
  - apply negb_true_iff in Hb. apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. rewrite E in Hb. discriminate.
  - apply Forall_forall. intros c Hin. rewrite forallb_forall in Hc. specialize (Hc c Hin).
    apply andb_prop in Hc as [Hl Hn]. split; [apply Nat.eqb_eq, Hl|].
    apply Forall_forall. intros p Hp. rewrite forallb_forall in Hn. exact (Hn p Hp).
Qed.

Lemma chain_ok_all : Forall (chain_ok n) (chain_of groups).
Proof.
  destruct chain_pairs_facts as [Hg _]. apply Forall_forall. intros M HM. unfold chain_of in HM.
  apply in_flat_map in HM as [g [Hin HM]]. apply repeat_spec in HM. subst M.
  rewrite Forall_forall in Hg. destruct (Hg g Hin) as (Hd & Hn & _).
  destruct (wf_of_check_distr _ Hd) as [W S]. split; [exact W|]. split; [exact S|exact Hn].
Qed.

(** A group-wise check of a pair, spread over the runs of the chain. *)
Lemma forallb2_chain (up : bool) (combo : list (Z * list Q)) (x x' : nat) :
  forallb2 (fun g p => pair_ord_rows up (rows (fst g)) b d p x x') groups combo = true ->
  Forall2 (fun M p => pair_ord_rows up (rows M) b d p x x' = true) (chain_of groups) (combo_plds (map snd groups) combo).
Proof.
  clear Hpairs. revert combo. induction groups as [|[M k] gs IH]; intros [|p combo] H; cbn in H; try discriminate.
  - constructor.
  - apply andb_prop in H as [H1 H2]. unfold chain_of, combo_plds. cbn [flat_map map combine fst snd].
    apply Forall2_app; [|apply IH, H2].
    clear IH H2. induction k as [|k IHk]; cbn [repeat]; constructor; [exact H1|exact IHk].
Qed.

Lemma in_chain_distr (M : fmech) : In M (chain_of groups) -> check_distr M = true /\ n_in M = n.
Proof.
  destruct chain_pairs_facts as [Hg _]. intros HM. unfold chain_of in HM.
  apply in_flat_map in HM as [g [Hin HM]]. apply repeat_spec in HM. subst M.
  rewrite Forall_forall in Hg. destruct (Hg g Hin) as (Hd & Hn & _). split; assumption.
Qed.

(** The exact bound of a pair with its combination, against the combination's window. *)
Lemma chain_bracket (up : bool) (tau : F.type) (combo : list (Z * list Q)) (x x' : nat) (t : R) :
  In combo combos -> (x < n)%nat -> (x' < n)%nat -> 0 <= t ->
  forallb2 (fun g p => pair_ord_rows up (rows (fst g)) b d p x x') groups combo = true ->
  let w := combo_window tau d (map snd groups) combo in
  let L := ev d (fst w) (toRs (snd w)) (hs_weight (Q2R b) t) in
  Forall fval (snd w) /\
  ord up (hs (fmech_chain (chain_of groups) n) x x' t) (ev d (pld_offsets (combo_plds (map snd groups) combo))
           (conv_list (pld_reals (combo_plds (map snd groups) combo))) (hs_weight (Q2R b) t)) /\
  L <= ev d (pld_offsets (combo_plds (map snd groups) combo)) (conv_list (pld_reals (combo_plds (map snd groups) combo)))
           (hs_weight (Q2R b) t) <= L + (1 - ev d (fst w) (toRs (snd w)) (fun _ => 1)).
Proof.
  intros Hin Hx Hx' Ht Hc w L. destruct chain_pairs_facts as (Hg & Hb & Hcs).
  rewrite Forall_forall in Hcs. destruct (Hcs combo Hin) as [Hlen Hnn].
  pose proof (forallb2_chain up combo x x' Hc) as HF.
  destruct (combo_window_below tau d (map snd groups) combo ltac:(rewrite map_length; lia)
              ltac:(apply Forall_map, (Forall_impl _ (fun g H => proj2 (proj2 H)) Hg)) Hnn) as [Hf Hbl].
  split; [exact Hf|]. split.
  - apply (hs_chain_ord up n _ _ x x' b d chain_ok_all Hx Hx' Hb HF t Ht).
  - assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
    pose proof (ev_below_bracket _ _ _ _ _ (hs_weight (Q2R b) t) Hbl (fun z => hs_weight_01 (Q2R b) t z Hb' Ht)) as H.
    rewrite ev_conv_list_one in H; [exact H|].
    apply Forall_forall. intros [oB B] HpIn.
    destruct (forall2_in_r _ _ _ _ HF HpIn) as [M [HM Hp]].
    destruct (in_chain_distr M HM) as [Hd Hn]. destruct (wf_of_check_distr M Hd) as [W _].
    destruct (pair_ord_spec up M b d oB B x x' W ltac:(lia) ltac:(lia) Hp) as [_ HB].
    exact (pld_total M x _ d oB B Hd ltac:(lia) HB).
Qed.
Lemma chain_distr : forall x, (x < n)%nat -> forall y, (y < n_out (fmech_chain (chain_of groups) n))%nat ->
  0 <= prob (fmech_chain (chain_of groups) n) x y.
Proof. intros x Hx y Hy. apply (chain_nonneg n _ x chain_ok_all Hx y Hy). Qed.

Lemma chain_n_in : n_in (fmech_chain (chain_of groups) n) = n.
Proof. apply (chain_dims n _ chain_ok_all). Qed.

(** Upper side: (ε, δ)-DP of the chain when every combination's window gives at most δ. *)
Theorem dp_chain_acc (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  0 <= eps -> (0 <= delta)%Q -> has eI eps ->
  forallb (fun combo => le_check (win_upper (base_consts b d) d eI z0 (combo_window tau d (map snd groups) combo)) delta)
          combos = true ->
  dp nb (fmech_chain (chain_of groups) n) eps (Q2R delta).
Proof.
  intros He Hd HeI Hup x x' Hx Hx' Hnb S. rewrite chain_n_in in Hx, Hx'.
  destruct chain_pairs_facts as (_ & Hb & _).
  destruct (Nat.eq_dec x x') as [<-|Hne].
  { assert (0 <= pr (fmech_chain (chain_of groups) n) x S) by (apply pr_nonneg; intros y Hy; apply chain_distr; assumption).
    assert (1 <= exp eps) by (rewrite <- exp_0; apply exp_le_iff; lra).
    assert (0 <= Q2R delta) by (rewrite <- q2r_0; apply Qle_Rle, Hd). nra. }
  assert (Hc : existsb (fun combo => forallb2 (fun g p => pair_ord_rows true (rows (fst g)) b d p x x') groups combo)
                       combos = true).
  { unfold chain_pairs_ok in Hpairs. apply andb_prop in Hpairs as [_ H]. rewrite forallb_forall in H.
    specialize (H x ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
    specialize (H x' ltac:(apply in_seq; lia)). apply Nat.eqb_neq in Hne. rewrite Hnb, Hne in H. exact H. }
  apply existsb_exists in Hc as [combo [Hin Hc]].
  destruct (chain_bracket true tau combo x x' (exp eps) Hin Hx Hx' (Rlt_le _ _ (exp_pos eps)) Hc)
    as (Hf & Hord & _ & H2).
  cbn [ord] in Hord.
  destruct (win_has_any b d eps eI z0 (combo_window tau d (map snd groups) combo) Hb HeI Hf) as [_ Hu].
  assert (Hchk : le_check (win_upper (base_consts b d) d eI z0 (combo_window tau d (map snd groups) combo)) delta = true).
  { rewrite forallb_forall in Hup. exact (Hup _ Hin). }
  eapply Rle_trans; [apply pr_le_hs|].
  - intros y Hy. exact (chain_distr x' Hx' y Hy).
  - apply Rlt_le, exp_pos.
  - apply Rplus_le_compat_l. eapply Rle_trans; [exact Hord|]. eapply Rle_trans; [exact H2|].
    exact (le_check_correct _ _ _ Hu Hchk).
Qed.

(** Lower side: one pair with its combination of down-rounded PLDs [lo]. *)
Theorem not_dp_chain_acc (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) (lo : list (Z * list Q))
    (x x' : nat) :
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> length lo = length groups -> Forall pld_nonneg lo ->
  forallb2 (fun g p => pair_ord_rows false (rows (fst g)) b d p x x') groups lo = true -> has eI eps ->
  gt_check (win_hs (base_consts b d) d eI z0 (combo_window tau d (map snd groups) lo)) delta = true ->
  let S := loss_event (fmech_chain (chain_of groups) n) x x' (exp eps) in
  exp eps * pr (fmech_chain (chain_of groups) n) x' S + Q2R delta < pr (fmech_chain (chain_of groups) n) x S /\
  ~ dp nb (fmech_chain (chain_of groups) n) eps (Q2R delta).
Proof.
  intros Hx Hx' Hnb Hlen Hnn Hc HeI Hgt S.
  destruct chain_pairs_facts as (Hg & Hb & _).
  set (w := combo_window tau d (map snd groups) lo).
  destruct (combo_window_below tau d (map snd groups) lo ltac:(rewrite map_length; lia)
              ltac:(apply Forall_map, (Forall_impl _ (fun g H => proj2 (proj2 H)) Hg)) Hnn) as [Hf Hbl].
  fold w in Hf, Hbl.
  pose proof (forallb2_chain false lo x x' Hc) as HF.
  pose proof (hs_chain_ord false n _ _ x x' b d chain_ok_all Hx Hx' Hb HF (exp eps) (Rlt_le _ _ (exp_pos eps))) as Hord.
  cbn [ord] in Hord.
  assert (Hb' : 0 < Q2R b) by (rewrite <- q2r_0; apply Qlt_Rlt, Hb).
  pose proof (Hbl (hs_weight (Q2R b) (exp eps)) (fun z => proj1 (hs_weight_01 (Q2R b) (exp eps) z Hb' (Rlt_le _ _ (exp_pos eps))))) as H2.
  destruct (win_has_any b d eps eI z0 w Hb HeI Hf) as [Hl _].
  pose proof (gt_check_correct _ _ _ Hl Hgt) as H3.
  assert (Hviol : exp eps * pr (fmech_chain (chain_of groups) n) x' S + Q2R delta < pr (fmech_chain (chain_of groups) n) x S).
  { unfold S. rewrite pr_loss_event. lra. }
  split; [exact Hviol|]. intros Hdp.
  specialize (Hdp x x' ltac:(rewrite chain_n_in; exact Hx) ltac:(rewrite chain_n_in; exact Hx') Hnb S). lra.
Qed.
End Groups.

(** ** Several claims on windows computed once *)

Local Open Scope Q_scope.

Definition chain_checks (groups : list (fmech * nat)) (b : Q) (d : Z) (tau : F.type) (combos : list (list (Z * list Q)))
    (lo : list (Z * list Q)) (cu cl : list (I.type * Z * Q)) : bool :=
  let c := base_consts b d in
  let ks := map snd groups in
  let Wu := map (combo_window tau d ks) combos in
  let wl := combo_window tau d ks lo in
  forallb (fun '(eI, z0, up) => forallb (fun w => le_check (win_upper c d eI z0 w) up) Wu) cu &&
  forallb (fun '(eI, z0, lw) => gt_check (win_hs c d eI z0 wl) lw) cl.

Lemma chain_checks_up groups b d tau combos lo cu cl eI z0 up :
  chain_checks groups b d tau combos lo cu cl = true -> In (eI, z0, up) cu ->
  forallb (fun combo => le_check (win_upper (base_consts b d) d eI z0 (combo_window tau d (map snd groups) combo)) up)
          combos = true.
Proof.
  intros H Hin. unfold chain_checks in H. cbv zeta in H. apply andb_prop in H as [H _].
  rewrite forallb_forall in H. specialize (H _ Hin). cbv beta iota in H.
  clear Hin. induction combos as [|c combos' IH]; [reflexivity|]. cbn [map forallb] in H |- *.
  apply andb_prop in H as [H1 H1']. rewrite H1. exact (IH H1').
Qed.

Lemma chain_checks_lo groups b d tau combos lo cu cl eI z0 lw :
  chain_checks groups b d tau combos lo cu cl = true -> In (eI, z0, lw) cl ->
  gt_check (win_hs (base_consts b d) d eI z0 (combo_window tau d (map snd groups) lo)) lw = true.
Proof.
  intros H Hin. unfold chain_checks in H. cbv zeta in H. apply andb_prop in H as [_ H].
  rewrite forallb_forall in H. exact (H _ Hin).
Qed.
