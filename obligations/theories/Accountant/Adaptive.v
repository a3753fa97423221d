(** * Adaptive composition of finite mechanisms, bounded by a chain of dominating pairs

    An adaptive sequence is a list of rounds; a round is a finite mechanism chosen from
    the history, the outputs of the earlier rounds (oldest first): [adaptive_round].  On input x
    the sequence runs its rounds one after another, each with fresh noise and on the
    same x, and releases the transcript of all outputs; [apr Rs [] x S] is the
    probability that the transcript lies in S (any set of lists of outputs), and [adp]
    is (ε, δ)-DP of the transcript, the core notion [dp_with] ([adp_iff_dp_with]).

    If round i, at every history and for every ordered pair of neighbours, is dominated
    by the rows of a two-row table D_i ([round_dominated], Dominate.v), then the
    transcript's two-parameter hockey stick is at most that of the chain of the D_i,
    [fmech_chain Ds 2] between its inputs 0 and 1 ([ahs2_dominated]); so (ε, δ)-DP of
    the adaptive sequence follows from H_{e^ε} ≤ δ of that fixed chain
    ([adp_of_dominated]).  The step, for the first output y and the chain C after it:
    Σ_y Σ_w max(0, a·A(y)·C0(w) − b·B(y)·C1(w)) = Σ_w G_{A,B}(a·C0(w), b·C1(w)), which
    domination bounds by Σ_w G_{P,Q}(a·C0(w), b·C1(w)), the product's sum.

    Conversely the fixed chain is an adaptive sequence (every round ignores the
    history): [apr_const_chain] gives its transcript's probabilities as the chain's, so a
    pair and event refuting (ε, δ)-DP of [fmech_chain Ms n] refute it for the adaptive
    sequence of its mechanisms ([not_adp_const]). *)
From Coq Require Import List Bool QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Sums Privacy.
From Obligations.Finite Require Import Mechanism DP Compose BasicComposition PLD Dominate.
From Obligations.Accountant Require Import Chain.
Import ListNotations.

Local Open Scope R_scope.

(** A round: the mechanism run after the history of earlier outputs. *)
Definition adaptive_round := list nat -> fmech.

(** Pr[the transcript, after the history h, lies in S] on input x. *)
Fixpoint apr (Rs : list adaptive_round) (h : list nat) (x : nat) (S : list nat -> bool) : R :=
  match Rs with
  | [] => if S h then 1 else 0
  | Rd :: Rs' => rsum (map (fun y => prob (Rd h) x y * apr Rs' (h ++ [y]) x S) (seq 0 (n_out (Rd h))))
  end.

(** (ε, δ)-DP of the adaptive sequence on the inputs [0 .. n - 1]. *)
Definition adp (nb : nat -> nat -> bool) (n : nat) (Rs : list adaptive_round) (eps delta : R) : Prop :=
  forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true ->
  forall S : list nat -> bool, apr Rs [] x S <= exp eps * apr Rs [] x' S + delta.

Lemma adp_iff_dp_with (nb : nat -> nat -> bool) (n : nat) (Rs : list adaptive_round) (eps delta : R) :
  adp nb n Rs eps delta <->
  dp_with (fun x x' => (x < n)%nat /\ (x' < n)%nat /\ nb x x' = true) (fun x => apr Rs [] x) eps delta.
Proof.
  split; intros H.
  - intros x x' (Hx & Hx' & Hnb) S. exact (H x x' Hx Hx' Hnb S).
  - intros x x' Hx Hx' Hnb S. exact (H x x' (conj Hx (conj Hx' Hnb)) S).
Qed.

(** Σ over transcripts t of max(0, a·Pr_x[t] − b·Pr_x'[t]). *)
Fixpoint ahs2 (Rs : list adaptive_round) (h : list nat) (x x' : nat) (a b : R) : R :=
  match Rs with
  | [] => Rmax 0 (a - b)
  | Rd :: Rs' => rsum (map (fun y => ahs2 Rs' (h ++ [y]) x x' (a * prob (Rd h) x y) (b * prob (Rd h) x' y))
                           (seq 0 (n_out (Rd h))))
  end.

(** Every event: a·Pr_x[S] ≤ b·Pr_x'[S] + the hockey stick. *)
Lemma apr_le_ahs2 (Rs : list adaptive_round) :
  forall h x x' a b S, a * apr Rs h x S <= b * apr Rs h x' S + ahs2 Rs h x x' a b.
Proof.
  induction Rs as [|Rd Rs IH]; intros h x x' a b S; cbn [apr ahs2].
  - pose proof (Rmax_l 0 (a - b)). pose proof (Rmax_r 0 (a - b)). destruct (S h); lra.
  - rewrite <- !rsum_scal, <- rsum_plus. apply rsum_le. intros y _.
    rewrite <- !Rmult_assoc. apply IH.
Qed.

(** Round [Rd], at every history, for every ordered pair of distinct neighbours, dominated
    by [D]'s rows. *)
Definition round_dominated (nb : nat -> nat -> bool) (n : nat) (Rd : adaptive_round) (D : fmech) : Prop :=
  forall h x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> x <> x' -> pair_dominated (Rd h) x x' D.

(** Round [Rd]'s probabilities on the inputs are non-negative at every history. *)
Definition round_nonneg (n : nat) (Rd : adaptive_round) : Prop :=
  forall h x y, (x < n)%nat -> (y < n_out (Rd h))%nat -> 0 <= prob (Rd h) x y.

(** The two-parameter hockey stick of a table's rows 0 and 1. *)
Definition hs01 (M : fmech) (a b : R) : R := hs2v (n_out M) (prob M 0) (prob M 1) a b.

Lemma hs01_product (D C : fmech) (a b : R) :
  fmech_wf D -> fmech_wf C -> n_in C = n_in D -> (1 < n_in D)%nat ->
  hs01 (fmech_product D C) a b =
  rsum (map (fun v => rsum (map (fun w => Rmax 0 (a * prob D 0 v * prob C 0 w - b * prob D 1 v * prob C 1 w))
                                (seq 0 (n_out C)))) (seq 0 (n_out D))).
Proof.
  intros WD WC Hn H1. unfold hs01, hs2v. cbn [n_out fmech_product]. rewrite rsum_seq_mul.
  apply rsum_ext_in. intros v Hv. apply in_seq in Hv as [_ Hv].
  apply rsum_ext_in. intros w Hw. apply in_seq in Hw as [_ Hw].
  unfold prob at 1 2. rewrite !fmech_product_entry by (try assumption; lia). rewrite !Q2R_mult.
  f_equal. unfold prob. ring.
Qed.

Lemma hs01_unit (a b : R) : hs01 (fmech_unit 2) a b = Rmax 0 (a - b).
Proof.
  unfold hs01, hs2v, prob, entry. cbn [fmech_unit n_out rows repeat nth seq map].
  rewrite rsum_cons, rsum_nil, q2r_1, !Rmult_1_r, Rplus_0_r. reflexivity.
Qed.

(** The transcript's hockey stick is at most the chain of the dominating pairs'. *)
Theorem ahs2_dominated (nb : nat -> nat -> bool) (n : nat) (Rs : list adaptive_round) (Ds : list fmech) :
  Forall2 (round_dominated nb n) Rs Ds -> Forall (round_nonneg n) Rs -> Forall (chain_ok 2) Ds ->
  forall h x x' a b, (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> x <> x' -> 0 <= a -> 0 <= b ->
  ahs2 Rs h x x' a b <= hs01 (fmech_chain Ds 2) a b.
Proof.
  intros HD. induction HD as [|Rd D Rs Ds Hd HD IH]; intros HN HC h x x' a b Hx Hx' Hnb Hne Ha Hb;
    cbn [ahs2 fmech_chain].
  - rewrite hs01_unit. apply Rle_refl.
  - apply Forall_cons_iff in HN as [HN0 HN]. apply Forall_cons_iff in HC as [[WD [_ ED]] HC].
    destruct (chain_dims 2 Ds HC) as [EC WC].
    set (C := fmech_chain Ds 2) in *.
    assert (HC0 : forall z w, (z < 2)%nat -> (w < n_out C)%nat -> 0 <= prob C z w)
      by (intros z w Hz Hw; apply (chain_nonneg 2 Ds z HC Hz w Hw)).
    set (A := prob (Rd h) x). set (B := prob (Rd h) x'). set (m := n_out (Rd h)).
    assert (HA : forall y, (y < m)%nat -> 0 <= A y) by (intros y Hy; apply HN0; assumption).
    assert (HB : forall y, (y < m)%nat -> 0 <= B y) by (intros y Hy; apply HN0; assumption).
    apply Rle_trans with (rsum (map (fun y => hs01 C (a * A y) (b * B y)) (seq 0 m))).
    { apply rsum_le. intros y Hy. apply in_seq in Hy as [_ Hy].
      apply IH; try assumption; apply Rmult_le_pos; auto. }
    rewrite hs01_product by (try assumption; lia).
    apply Rle_trans with (rsum (map (fun w => hs2v m A B (a * prob C 0 w) (b * prob C 1 w)) (seq 0 (n_out C)))).
    { unfold hs01, hs2v. rewrite rsum_swap. apply Req_le. apply rsum_ext_in. intros w _.
      apply rsum_ext_in. intros y _. f_equal. ring. }
    rewrite (rsum_swap (fun v w => Rmax 0 (a * prob D 0 v * prob C 0 w - b * prob D 1 v * prob C 1 w))).
    apply rsum_le. intros w Hw. apply in_seq in Hw as [_ Hw].
    apply Rle_trans with (hs2v (n_out D) (prob D 0) (prob D 1) (a * prob C 0 w) (b * prob C 1 w)).
    + apply (dominated_hs2v m (n_out D) A B (prob D 0) (prob D 1) (Hd h x x' Hx Hx' Hnb Hne) HB);
        apply Rmult_le_pos; auto.
    + unfold hs2v. apply Req_le. apply rsum_ext_in. intros v _. f_equal. ring.
Qed.

Lemma hs_hs01 (M : fmech) (t : R) : hs M 0 1 t = hs01 M 1 t.
Proof. unfold hs, hs01, hs2v. apply rsum_ext_in. intros y _. rewrite Rmult_1_l. reflexivity. Qed.

Lemma apr_nonneg (n : nat) (Rs : list adaptive_round) :
  Forall (round_nonneg n) Rs -> forall h x S, (x < n)%nat -> 0 <= apr Rs h x S.
Proof.
  intros HN. induction HN as [|Rd Rs HR HN IH]; intros h x S Hx; cbn [apr].
  - destruct (S h); lra.
  - apply rsum_nonneg. intros y Hy. apply in_seq in Hy as [_ Hy].
    apply Rmult_le_pos; [apply HR; assumption|apply IH, Hx].
Qed.

(** (ε, δ)-DP of every adaptive sequence dominated round by round by the pairs [Ds]. *)
Theorem adp_of_dominated (nb : nat -> nat -> bool) (n : nat) (Rs : list adaptive_round) (Ds : list fmech) (eps delta : R) :
  Forall2 (round_dominated nb n) Rs Ds -> Forall (round_nonneg n) Rs -> Forall (chain_ok 2) Ds ->
  0 <= eps -> 0 <= delta -> hs (fmech_chain Ds 2) 0 1 (exp eps) <= delta -> adp nb n Rs eps delta.
Proof.
  intros HD HN HC He Hde Hd x x' Hx Hx' Hnb S.
  destruct (Nat.eq_dec x x') as [<-|Hne].
  { pose proof (apr_nonneg n Rs HN [] x S Hx). pose proof (exp_ge_1 eps He).
    assert (0 <= (exp eps - 1) * apr Rs [] x S) by (apply Rmult_le_pos; lra). lra. }
  pose proof (apr_le_ahs2 Rs [] x x' 1 (exp eps) S) as H1.
  pose proof (ahs2_dominated nb n Rs Ds HD HN HC [] x x' 1 (exp eps) Hx Hx' Hnb Hne ltac:(lra)
                (Rlt_le _ _ (exp_pos eps))) as H2.
  rewrite hs_hs01 in Hd. lra.
Qed.

(** ** The fixed chain as an adaptive sequence *)

(** Every round runs its mechanism whatever the history. *)
Definition const_rounds (Ms : list fmech) : list adaptive_round := map (fun M (_ : list nat) => M) Ms.

(** The chain's output index as the list of the rounds' outputs. *)
Fixpoint chain_decode (Ms : list fmech) (n : nat) (y : nat) : list nat :=
  match Ms with
  | [] => []
  | M :: Ms' => (y / n_out (fmech_chain Ms' n))%nat :: chain_decode Ms' n (y mod n_out (fmech_chain Ms' n))
  end.

Lemma chain_n_out_pos (n : nat) (Ms : list fmech) :
  Forall (fun M => n_out M <> 0%nat) Ms -> n_out (fmech_chain Ms n) <> 0%nat.
Proof.
  intros H. induction H as [|M Ms HM H IH]; cbn [fmech_chain fmech_unit fmech_product n_out]; [lia|].
  intros E. apply Nat.eq_mul_0 in E. tauto.
Qed.

Lemma apr_const_chain (n : nat) (Ms : list fmech) :
  Forall (chain_ok n) Ms -> Forall (fun M => n_out M <> 0%nat) Ms ->
  forall h x S, (x < n)%nat ->
  apr (const_rounds Ms) h x S = pr (fmech_chain Ms n) x (fun y => S (h ++ chain_decode Ms n y)).
Proof.
  intros HC HP. induction HC as [|M Ms [WM [_ EM]] HC IH]; intros h x S Hx;
    apply Forall_cons_iff in HP as [HP0 HP] || idtac; cbn [const_rounds map apr fmech_chain chain_decode].
  - unfold pr, prob, entry. cbn [fmech_unit n_out rows seq map]. rewrite nth_repeat_lt by exact Hx.
    cbn [nth]. rewrite app_nil_r, rsum_cons, rsum_nil, q2r_1, Rplus_0_r. reflexivity.
  - fold (const_rounds Ms). destruct (chain_dims n Ms HC) as [EC WC].
    set (C := fmech_chain Ms n) in *. pose proof (chain_n_out_pos n Ms HP) as HN. fold C in HN.
    unfold pr at 1. cbn [n_out fmech_product]. rewrite rsum_seq_mul.
    apply rsum_ext_in. intros y1 Hy1. apply in_seq in Hy1 as [_ Hy1].
    rewrite (IH HP (h ++ [y1]) x S Hx). unfold pr. rewrite <- rsum_scal. apply rsum_ext_in.
    intros y2 Hy2. apply in_seq in Hy2 as [_ Hy2].
    assert (Ed : ((y1 * n_out C + y2) / n_out C = y1)%nat /\ ((y1 * n_out C + y2) mod n_out C = y2)%nat).
    { split; [rewrite Nat.div_add_l by exact HN; rewrite Nat.div_small by exact Hy2; lia|].
      rewrite Nat.add_comm, Nat.mod_add by exact HN. apply Nat.mod_small, Hy2. }
    destruct Ed as [E1 E2]. rewrite E1, E2, <- app_assoc. cbn [app].
    unfold prob at 3. rewrite fmech_product_entry by (try assumption; lia). rewrite Q2R_mult.
    destruct (S (h ++ y1 :: chain_decode Ms n y2)); unfold prob; ring.
Qed.

(** The chain's output index of a transcript: the inverse of [chain_decode]. *)
Fixpoint chain_encode (Ms : list fmech) (n : nat) (t : list nat) : nat :=
  match Ms, t with
  | M :: Ms', y :: t' => (y * n_out (fmech_chain Ms' n) + chain_encode Ms' n t')%nat
  | _, _ => 0%nat
  end.

Lemma chain_encode_decode (n : nat) (Ms : list fmech) :
  Forall (fun M => n_out M <> 0%nat) Ms ->
  forall y, (y < n_out (fmech_chain Ms n))%nat -> chain_encode Ms n (chain_decode Ms n y) = y.
Proof.
  intros HP. induction HP as [|M Ms HM HP IH]; intros y Hy; cbn [chain_encode chain_decode].
  - cbn [fmech_chain fmech_unit n_out] in Hy. lia.
  - pose proof (chain_n_out_pos n Ms HP) as HN.
    rewrite IH by (apply Nat.mod_upper_bound, HN). rewrite Nat.mul_comm. symmetry. apply Nat.div_mod, HN.
Qed.

(** A fixed chain that is not (ε, δ)-DP is an adaptive sequence that is not. *)
Theorem not_adp_const (nb : nat -> nat -> bool) (n : nat) (Ms : list fmech) (eps delta : R) :
  Forall (chain_ok n) Ms -> Forall (fun M => n_out M <> 0%nat) Ms ->
  ~ dp nb (fmech_chain Ms n) eps delta -> ~ adp nb n (const_rounds Ms) eps delta.
Proof.
  intros HC HP Hnot Had. apply Hnot. intros x x' Hx Hx' Hnb S.
  destruct (chain_dims n Ms HC) as [EC _]. rewrite EC in Hx, Hx'.
  specialize (Had x x' Hx Hx' Hnb (fun t => S (chain_encode Ms n t))).
  rewrite !(apr_const_chain n Ms HC HP) in Had by assumption.
  rewrite !(pr_ext _ _ S (fun y => S (chain_encode Ms n ([] ++ chain_decode Ms n y)))) by
    (intros y Hy; cbn [app]; rewrite chain_encode_decode by assumption; reflexivity).
  exact Had.
Qed.

(** The fixed chain's rounds meet the hypotheses of [adp_of_dominated] when its mechanisms do. *)
Lemma const_rounds_dominated (nb : nat -> nat -> bool) (n : nat) (Ms Ds : list fmech) :
  Forall2 (fun M D => forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> x <> x' -> pair_dominated M x x' D)
          Ms Ds ->
  Forall2 (round_dominated nb n) (const_rounds Ms) Ds.
Proof.
  intros H. induction H as [|M D Ms Ds HM H IH]; cbn [const_rounds map]; constructor; [|exact IH].
  intros h. exact HM.
Qed.

Lemma const_rounds_nonneg (n : nat) (Ms : list fmech) :
  Forall (chain_ok n) Ms -> Forall (round_nonneg n) (const_rounds Ms).
Proof.
  intros H. induction H as [|M Ms [_ [SM EM]] H IH]; cbn [const_rounds map]; constructor; [|exact IH].
  intros h x y Hx Hy. apply (proj1 (SM x ltac:(lia))), Hy.
Qed.
