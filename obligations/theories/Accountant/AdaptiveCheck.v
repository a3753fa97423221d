(** * Adaptive composition certified from both sides by the chain's checked bounds

    A composed spec lists parts (a mechanism M_i run k_i times); for each part a two-row
    table D_i (rows P_i, Q_i: a pair of M_i's own rows) dominates every ordered pair of
    neighbours' rows of M_i, with one kernel per pair as witness ([parts_fit],
    Dominate.v).  The claim is about every adaptive sequence whose round j, belonging to
    part i, is at every history dominated by (P_i, Q_i) for every ordered pair of
    neighbours (Adaptive.v):
    - upper side: H_{e^ε} ≤ δ of the chain of the D_i (each k_i times), which is
      [dp_chain_acc] of the two-input chain between its inputs 0 and 1, gives (ε, δ)-DP of
      every such sequence ([adp_chain_acc]);
    - lower side: the fixed sequence of the parts is such a sequence (the kernels), and
      [not_dp_chain_acc] refutes (ε, δ)-DP for it, so the claim for every such sequence is
      refuted ([not_adp_chain_acc]). *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose PLD PLDCheck Dominate.
From Obligations.Accountant Require Import Below DownFloat PLDBound PairKeys Weights ComposeCheck Chain ChainCheck Adaptive.
Import ListNotations.

Local Open Scope R_scope.

(** A table that is (ε, δ)-DP has H_{e^ε} ≤ δ between neighbours: its loss event. *)
Lemma hs_le_of_dp (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) (x x' : nat) :
  dp nb M eps delta -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true -> hs M x x' (exp eps) <= delta.
Proof.
  intros H Hx Hx' Hnb. specialize (H x x' Hx Hx' Hnb (loss_event M x x' (exp eps))).
  rewrite pr_loss_event in H. lra.
Qed.

(** Part by part: the same run counts, and every ordered pair of neighbours of M_i has a
    kernel from D_i's rows. *)
Fixpoint parts_fit (nb : nat -> nat -> bool) (n : nat) (groups dgroups : list (fmech * nat))
    (Kss : list (list (nat * nat * list (list Q)))) : bool :=
  match groups, dgroups, Kss with
  | [], [], [] => true
  | (M, k) :: gs, (D, k') :: ds, Ks :: Kss' => Nat.eqb k k' && kernels_fit nb n M D Ks && parts_fit nb n gs ds Kss'
  | _, _, _ => false
  end.

Lemma parts_fit_dominated (nb : nat -> nat -> bool) (n : nat) groups dgroups Kss :
  parts_fit nb n groups dgroups Kss = true ->
  Forall2 (fun M D => forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> x <> x' -> pair_dominated M x x' D)
          (chain_of groups) (chain_of dgroups).
Proof.
  revert dgroups Kss. induction groups as [|[M k] gs IH]; intros [|[D k'] ds] [|Ks Kss] H; cbn in H; try discriminate.
  - constructor.
  - apply andb_prop in H as [H H3]. apply andb_prop in H as [H1 H2]. apply Nat.eqb_eq in H1. subst k'.
    unfold chain_of. cbn [flat_map fst snd]. apply Forall2_app; [|apply (IH ds Kss H3)].
    induction k as [|k IHk]; cbn [repeat]; constructor; [|exact IHk].
    exact (pair_dominated_of_kernels nb n M D Ks H2).
Qed.

(** Upper side: every adaptive sequence dominated round by round by the chain of the
    [dgroups]' two-row tables is (ε, δ)-DP when [dp_chain_acc]'s window check holds. *)
Theorem adp_chain_acc (nb : nat -> nat -> bool) (n : nat) (nb2 : nat -> nat -> bool) (dgroups : list (fmech * nat))
    (b : Q) (d : Z) (combos : list (list (Z * list Q))) (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) :
  chain_pairs_ok nb2 dgroups 2 b d combos = true -> nb2 0%nat 1%nat = true ->
  0 <= eps -> (0 <= delta)%Q -> has eI eps ->
  forallb (fun combo => le_check (win_upper (base_consts b d) d eI z0 (combo_window tau d (map snd dgroups) combo)) delta)
          combos = true ->
  forall Rs : list adaptive_round, Forall2 (round_dominated nb n) Rs (chain_of dgroups) -> Forall (round_nonneg n) Rs ->
  adp nb n Rs eps (Q2R delta).
Proof.
  intros Hok Hnb2 He Hd HeI Hup Rs HD HN.
  pose proof (dp_chain_acc nb2 dgroups 2 b d combos Hok tau eps eI z0 delta He Hd HeI Hup) as Hdp.
  pose proof (chain_n_in nb2 dgroups 2 b d combos Hok) as En.
  apply (adp_of_dominated nb n Rs (chain_of dgroups) eps (Q2R delta) HD HN (chain_ok_all nb2 dgroups 2 b d combos Hok) He
           ltac:(rewrite <- q2r_0; apply Qle_Rle, Hd)).
  apply (hs_le_of_dp nb2 _ eps (Q2R delta) 0 1 Hdp); [lia|lia|exact Hnb2].
Qed.

Lemma n_out_pos_of_distr (M : fmech) (n : nat) : distr M -> n_in M = n -> (0 < n)%nat -> n_out M <> 0%nat.
Proof.
  intros HD En Hn E. destruct (HD 0%nat ltac:(lia)) as [_ H1]. unfold pr in H1. rewrite E in H1.
  cbn [seq map] in H1. rewrite rsum_nil in H1. lra.
Qed.

(** Lower side: the fixed sequence of the parts meets the hypothesis (the kernels) and is
    not (ε, δ)-DP ([not_dp_chain_acc]'s witness), so the claim for every sequence fails. *)
Theorem not_adp_chain_acc (nb : nat -> nat -> bool) (n : nat) (groups dgroups : list (fmech * nat))
    (Kss : list (list (nat * nat * list (list Q)))) (b : Q) (d : Z) (combos : list (list (Z * list Q)))
    (tau : F.type) (eps : R) (eI : I.type) (z0 : Z) (delta : Q) (lo : list (Z * list Q)) (x x' : nat) :
  chain_pairs_ok nb groups n b d combos = true -> parts_fit nb n groups dgroups Kss = true ->
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> length lo = length groups -> Forall pld_nonneg lo ->
  forallb2 (fun g p => pair_ord_rows false (rows (fst g)) b d p x x') groups lo = true -> has eI eps ->
  gt_check (win_hs (base_consts b d) d eI z0 (combo_window tau d (map snd groups) lo)) delta = true ->
  ~ (forall Rs : list adaptive_round, Forall2 (round_dominated nb n) Rs (chain_of dgroups) -> Forall (round_nonneg n) Rs ->
       adp nb n Rs eps (Q2R delta)).
Proof.
  intros Hok Hfit Hx Hx' Hnb Hlen Hnn Hc HeI Hgt Hall.
  destruct (not_dp_chain_acc nb groups n b d combos Hok tau eps eI z0 delta lo x x' Hx Hx' Hnb Hlen Hnn Hc HeI Hgt)
    as [_ Hnot].
  pose proof (chain_ok_all nb groups n b d combos Hok) as HC.
  assert (HP : Forall (fun M => n_out M <> 0%nat) (chain_of groups)).
  { apply Forall_forall. intros M HM. destruct (in_chain_distr nb groups n b d combos Hok M HM) as [HD En].
    apply (n_out_pos_of_distr M n (distr_of_check M HD) En). lia. }
  apply (not_adp_const nb n (chain_of groups) eps (Q2R delta) HC HP Hnot).
  apply Hall; [apply const_rounds_dominated, (parts_fit_dominated nb n groups dgroups Kss Hfit)|].
  apply const_rounds_nonneg, HC.
Qed.
