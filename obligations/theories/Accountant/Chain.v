(** * Different mechanisms one after another: the hockey-stick bound of a chain by its PLDs

    [fmech_chain Ms n] runs the mechanisms of [Ms] (all on the same [n] inputs) one
    after another on the same input, with independent noise, and releases every output:
    [fmech_power M k] is the chain of [k] copies of [M] ([fmech_chain_power]).  For a pair
    (x, x') whose outputs in every mechanism have loss keys of one base b on the [up]
    side, with PLDs [Ps] (PairKeys.v), the hockey-stick divergence of the chain is bounded
    by the PLD formula of the convolution of all the PLDs ([hs_chain_ord]); the step is
    [hs_product_ord], one mechanism against whatever follows it. *)
From Coq Require Import List ZArith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition PLD.
From Obligations.Accountant Require Import Below PLDBound PairKeys.
Import ListNotations.

Fixpoint fmech_chain (Ms : list fmech) (n : nat) : fmech :=
  match Ms with
  | [] => fmech_unit n
  | M :: Ms' => fmech_product M (fmech_chain Ms' n)
  end.

Lemma fmech_chain_power (M : fmech) (k : nat) : fmech_chain (repeat M k) (n_in M) = fmech_power M k.
Proof. induction k as [|k IH]; cbn [repeat fmech_chain fmech_power]; [reflexivity|]. rewrite IH. reflexivity. Qed.

(** The convolution of a list of PLDs. *)
Fixpoint conv_list (Bs : list (list R)) : list R :=
  match Bs with
  | [] => [1%R]
  | B :: Bs' => conv Rplus Rmult 0%R B (conv_list Bs')
  end.

Local Open Scope R_scope.

Section Chain.
Variable n : nat.

Definition chain_ok (M : fmech) : Prop := fmech_wf M /\ subdistr M /\ n_in M = n.

Lemma chain_dims (Ms : list fmech) :
  Forall chain_ok Ms -> n_in (fmech_chain Ms n) = n /\ fmech_wf (fmech_chain Ms n).
Proof.
  intros H. induction H as [|M Ms [W [S E]] H [IH1 IH2]]; cbn [fmech_chain].
  - split; [reflexivity|]. split; cbn [fmech_unit rows n_in n_out]; [apply repeat_length|].
    intros r Hr. apply repeat_spec in Hr. subst r. reflexivity.
  - destruct W as [Hn Hr], IH2 as [Hn' Hr']. unfold fmech_product. cbn [n_in n_out rows]. split; [exact E|]. split.
    + cbn [n_in rows]. rewrite map_length, combine_length, Hn, Hn', IH1, E. apply Nat.min_id.
    + intros r Hin. apply in_map_iff in Hin as [[r1 r2] [<- Hin]].
      rewrite row_product_length, (Hr r1 (in_combine_l _ _ _ _ Hin)), (Hr' r2 (in_combine_r _ _ _ _ Hin)).
      reflexivity.
Qed.

Lemma chain_nonneg (Ms : list fmech) (z : nat) :
  Forall chain_ok Ms -> (z < n)%nat -> forall y, (y < n_out (fmech_chain Ms n))%nat -> 0 <= prob (fmech_chain Ms n) z y.
Proof.
  intros H Hz. induction H as [|M Ms [W [S E]] H IH]; intros y Hy; cbn [fmech_chain] in *.
  - unfold prob, entry. cbn [rows fmech_unit n_out] in *. rewrite nth_repeat_lt by exact Hz.
    destruct y as [|y]; [cbn; rewrite q2r_1; lra|lia].
  - destruct (chain_dims Ms H) as [D1 D2]. cbn [n_out fmech_product] in Hy.
    assert (Hm : n_out (fmech_chain Ms n) <> 0%nat) by (intros E'; rewrite E' in Hy; lia).
    rewrite (Nat.div_mod y (n_out (fmech_chain Ms n)) Hm), Nat.mul_comm.
    assert (Hq : (y / n_out (fmech_chain Ms n) < n_out M)%nat) by (apply Nat.div_lt_upper_bound; lia).
    assert (Hr : (y mod n_out (fmech_chain Ms n) < n_out (fmech_chain Ms n))%nat) by (apply Nat.mod_upper_bound, Hm).
    unfold prob at 1. rewrite fmech_product_entry by (try assumption; lia). rewrite Q2R_mult.
    apply Rmult_le_pos; [apply (proj1 (S z ltac:(lia))), Hq|apply IH, Hr].
Qed.
End Chain.

(** One mechanism [M] against any [N] after it, whose hs is bounded by a PLD [DN]. *)
Lemma hs_product_ord (up : bool) (M N : fmech) (x x' : nat) (b : Q) (keys : list Z) (oB d oN : Z) (B : list Q)
    (DN : list R) :
  fmech_wf M -> subdistr M -> fmech_wf N -> n_in N = n_in M -> (x < n_in M)%nat -> (x' < n_in M)%nat -> (0 < b)%Q ->
  (forall y, (y < n_out M)%nat -> keyed_ord up b (entry M x y) (entry M x' y) (nth y keys 0%Z)) ->
  (forall F : Z -> R, rsum (map (fun y => prob M x y * F (nth y keys 0%Z)) (seq 0 (n_out M))) = ev d oB (map Q2R B) F) ->
  (forall y, (y < n_out N)%nat -> 0 <= prob N x' y) ->
  (forall t, 0 <= t -> ord up (hs N x x' t) (ev d oN DN (hs_weight (Q2R b) t))) ->
  forall t, 0 <= t -> ord up (hs (fmech_product M N) x x' t) (ev d (oB + oN) (conv Rplus Rmult 0 (map Q2R B) DN) (hs_weight (Q2R b) t)).
Proof.
  intros WM SM WN Hin Hx Hx' Hb Hk HB HN IH t Ht.
  unfold hs. cbn [n_out fmech_product]. rewrite rsum_seq_mul.
  apply ord_trans with (rsum (map (fun y1 => prob M x y1 *
      hs N x x' (t * powerRZ (Q2R b) (- nth y1 keys 0%Z))) (seq 0 (n_out M)))).
  { apply ord_rsum. intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
    unfold hs. rewrite <- rsum_scal. apply ord_rsum. intros y2 Hy2. apply in_seq in Hy2 as [_ Hy2].
    unfold prob at 1 2. rewrite !fmech_product_entry by (try assumption; lia).
    rewrite !Q2R_mult. apply (row_term_ord up M x x' b keys SM Hx Hx' Hb Hk); [exact Hy1| |exact Ht].
    apply HN, Hy2. }
  apply ord_trans with (rsum (map (fun y1 => prob M x y1 *
      ev d oN DN (fun z2 => hs_weight (Q2R b) t (nth y1 keys 0%Z + z2)%Z)) (seq 0 (n_out M)))).
  { apply ord_rsum. intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
    apply ord_scale; [apply (proj1 (SM x Hx)), Hy1|].
    eapply ord_trans; [apply IH|].
    - apply Rmult_le_pos; [exact Ht|]. apply Rlt_le, powerRZ_lt, (bR_pos b Hb).
    - apply ord_eq. apply ev_ext. intros z2. unfold hs_weight. f_equal. f_equal.
      rewrite Rmult_assoc, <- powerRZ_add by (apply Rgt_not_eq, (bR_pos b Hb)). do 3 f_equal. ring. }
  apply ord_eq. rewrite (HB (fun z1 => ev d oN DN (fun z2 => hs_weight (Q2R b) t (z1 + z2)%Z))).
  rewrite <- ev_conv. reflexivity.
Qed.

Lemma hs_unit (n x x' : nat) (b : Q) (d : Z) (t : R) :
  (x < n)%nat -> (x' < n)%nat -> hs (fmech_unit n) x x' t = ev d 0 [1] (hs_weight (Q2R b) t).
Proof.
  intros Hx Hx'. unfold hs, prob, entry. cbn - [Q2R Rmax].
  rewrite !nth_repeat_lt by assumption. cbn [nth]. rewrite q2r_1.
  unfold hs_weight. cbn [powerRZ Z.opp]. rewrite !Rmult_1_r, Rmult_1_l. reflexivity.
Qed.

Definition pld_offsets (Ps : list (Z * list Q)) : Z := fold_right (fun p o => (fst p + o)%Z) 0%Z Ps.
Definition pld_reals (Ps : list (Z * list Q)) : list (list R) := map (fun p => map Q2R (snd p)) Ps.

(** Every mechanism of the chain with its pair's PLD on the [up] side: hs of the chain. *)
Theorem hs_chain_ord (up : bool) (n : nat) (Ms : list fmech) (Ps : list (Z * list Q)) (x x' : nat) (b : Q) (d : Z) :
  Forall (chain_ok n) Ms -> (x < n)%nat -> (x' < n)%nat -> (0 < b)%Q ->
  Forall2 (fun M p => pair_ord_rows up (rows M) b d p x x' = true) Ms Ps ->
  forall t, 0 <= t -> ord up (hs (fmech_chain Ms n) x x' t) (ev d (pld_offsets Ps) (conv_list (pld_reals Ps)) (hs_weight (Q2R b) t)).
Proof.
  intros Hok Hx Hx' Hb HP. revert Hok. induction HP as [|M [oB B] Ms Ps Hp HP IH]; intros Hok t Ht; cbn [fmech_chain].
  - apply ord_eq. apply hs_unit; assumption.
  - apply Forall_cons_iff in Hok as [[W [S E]] Hok'].
    destruct (chain_dims n Ms Hok') as [D1 D2].
    destruct (pair_ord_spec up M b d oB B x x' W ltac:(lia) ltac:(lia) Hp) as [Hk HBq].
    cbn [pld_offsets pld_reals map fold_right conv_list fst snd].
    apply (hs_product_ord up M (fmech_chain Ms n) x x' b _ oB d _ B _ W S D2 ltac:(lia) ltac:(lia) ltac:(lia) Hb Hk HBq);
      [|exact (IH Hok')|exact Ht].
    intros y Hy. apply (chain_nonneg n Ms x' Hok' Hx'), Hy.
Qed.
