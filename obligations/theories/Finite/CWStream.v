(** * Streaming CW-privacy: a composition theorem for the same database released k times

    Seed 001 (§2) asks how CW-privacy composes when the mechanism is run k times
    on {e one} database drawn from the prior ("streaming").  That mechanism is
    [fmech_cw (fmech_power M k) f f'] (CW.v): row 0 is Σ_x f(x) · M(x)^⊗k, row 1 is
    Σ_x f'(x) · M(x)^⊗k.  This file proves, for every finite mechanism:

    - [cw_dp_of_pairs], [cw_dp_of_dp]: CW-privacy follows from DP of [M] over the
      pairs "x in the support of f, x' in the support of f'" (both orders), by
      convexity: Pr[Σ_x f(x) M(x) ∈ S] = Σ_{x,x'} f(x) f'(x') Pr[M(x) ∈ S].  Applied
      to [fmech_power M k] ([cw_stream_of_dp]) it turns every DP bound of the
      k-fold composition (basic composition, the KOV bound, the PLD) into a CW bound
      of the same database released k times; [cw_stream_basic] is the basic one:
      (k·ε, k·δ) when [M] is (ε, δ)-DP over those pairs;
    - [cw_dp_of_hs]: the sharper averaged form, δ ≥ Σ_{x,x'} f(x) f'(x') hs_{x,x'}(e^ε)
      (each direction), the pairs' hockey-stick divergences weighted by the priors;
    - [cw_fresh_basic]: a fresh database for every run, [fmech_power (fmech_cw M f f') k],
      composes additively in the one-release CW parameters;
    - [cw_point_iff], [cw_point_stream]: with point-mass priors CW-privacy is DP of
      one pair of inputs, and the same database composes additively too.

    That the same database does {e not} compose additively in the one-release CW
    parameters is CWCounter.v. *)
From Coq Require Import List Bool QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Compose CW BasicComposition PLD.
Import ListNotations.

Local Open Scope R_scope.

(** ** Priors *)

(** The weight [f(x)] as a real. *)
Definition wt (f : list Q) (x : nat) : R := Q2R (nth x f 0%Q).

(** A prior on the inputs [0 .. n - 1]: one weight per input, non-negative, summing to 1. *)
Definition prior (n : nat) (f : list Q) : Prop :=
  length f = n /\ (forall x, (x < n)%nat -> 0 <= wt f x) /\ rsum (map (wt f) (seq 0 n)) = 1.

(** The boolean check of [prior], for generated files. *)
Definition check_prior (n : nat) (f : list Q) : bool :=
  Nat.eqb (length f) n && forallb (Qle_bool 0) f && Qeq_bool (qsum f) 1.

Lemma prior_of_check (n : nat) (f : list Q) : check_prior n f = true -> prior n f.
Proof.
  unfold check_prior. intros H. apply andb_prop in H as [H Hs]. apply andb_prop in H as [Hl Hnn].
  apply Nat.eqb_eq in Hl. rewrite forallb_forall in Hnn. split; [exact Hl|split].
  - intros x Hx. unfold wt. rewrite <- q2r_0. apply Qle_Rle, Qle_bool_imp_le, Hnn, nth_In. lia.
  - apply Qeq_bool_eq in Hs. apply Qeq_eqR in Hs. rewrite q2r_1, qsum_correct in Hs. rewrite <- Hs.
    subst n. unfold wt. rewrite (map_nth_seq Q2R f 0%Q). reflexivity.
Qed.

(** Input [x] carries weight under [f] (the support, as a boolean). *)
Definition in_supp (f : list Q) (x : nat) : bool := negb (Qle_bool (nth x f 0%Q) 0).

Lemma in_supp_pos (f : list Q) (x : nat) : in_supp f x = true -> 0 < wt f x.
Proof.
  unfold in_supp, wt. intros H. apply negb_true_iff in H. rewrite <- q2r_0. apply Qlt_Rlt.
  apply Qnot_le_lt. intros E. apply Qle_bool_iff in E. congruence.
Qed.

Lemma in_supp_of_pos (f : list Q) (x : nat) : 0 < wt f x -> in_supp f x = true.
Proof.
  unfold in_supp, wt. intros H. apply negb_true_iff. destruct (Qle_bool _ _) eqn:E; [|reflexivity].
  apply Qle_bool_iff, Qle_Rle in E. rewrite q2r_0 in E. lra.
Qed.

(** The neighbour relation of the composition theorem: x in the support of [f] and x'
    in that of [f'], in either order. *)
Definition supp_nb (f f' : list Q) : nat -> nat -> bool :=
  fun x x' => (in_supp f x && in_supp f' x') || (in_supp f' x && in_supp f x').

Lemma supp_nb_symmetric (f f' : list Q) : symmetric (supp_nb f f').
Proof. intros x x'. unfold supp_nb. rewrite orb_comm, (andb_comm (in_supp f' x')), (andb_comm (in_supp f x')). reflexivity. Qed.

(** ** A prior mixture of the rows *)

Lemma fold_qplus_qsumf {B} (l : list B) (g : B -> Q) :
  fold_right Qplus 0%Q (map g l) = qsumf l g.
Proof. induction l as [|b l IH]; [reflexivity|]. cbn [map fold_right]. rewrite IH. reflexivity. Qed.

(** Pr[mixture = y] = Σ_x f(x) · Pr[M(x) = y]. *)
Lemma mix_row_prob (M : fmech) (f : list Q) (y : nat) :
  fmech_wf M -> length f = n_in M -> (y < n_out M)%nat ->
  Q2R (nth y (mix_row M f) 0%Q) = rsum (map (fun x => wt f x * prob M x y) (seq 0 (n_in M))).
Proof.
  intros [Hn _] Hf Hy. rewrite mix_row_nth by exact Hy.
  replace (combine f (rows M)) with (map (fun x => (nth x f 0%Q, nth x (rows M) [])) (seq 0 (n_in M))).
  - rewrite map_map, fold_qplus_qsumf, <- rsum_q2r. apply rsum_ext_in. intros x _.
    unfold wt, prob, entry. apply Q2R_mult.
  - apply nth_ext with (d := (0%Q, [])) (d' := (0%Q, [])).
    + rewrite map_length, seq_length, combine_length, Hf, Hn. symmetry. apply Nat.min_id.
    + intros i Hi. rewrite map_length, seq_length in Hi.
      rewrite nth_map_seq by exact Hi. rewrite combine_nth by (rewrite Hf, Hn; reflexivity). reflexivity.
Qed.

(** The row of the mixture with weights [g]: row 0 ([f]) or row 1 ([f']). *)
Definition cw_weights (f f' : list Q) (i : nat) : list Q := match i with O => f | _ => f' end.

Lemma cw_prob (M : fmech) (f f' : list Q) (i y : nat) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat -> (y < n_out M)%nat ->
  prob (fmech_cw M f f') i y = rsum (map (fun x => wt (cw_weights f f' i) x * prob M x y) (seq 0 (n_in M))).
Proof.
  intros W Hf Hf' Hi Hy. unfold prob at 1, entry. cbn [fmech_cw rows].
  destruct i as [|[|i]]; [| |lia]; cbn [nth cw_weights]; apply mix_row_prob; assumption.
Qed.

(** Pr[Σ_x g(x) M(x) ∈ S] = Σ_x g(x) · Pr[M(x) ∈ S]. *)
Lemma cw_pr (M : fmech) (f f' : list Q) (i : nat) (S : event) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat ->
  pr (fmech_cw M f f') i S = rsum (map (fun x => wt (cw_weights f f' i) x * pr M x S) (seq 0 (n_in M))).
Proof.
  intros W Hf Hf' Hi. unfold pr at 1. cbn [fmech_cw n_out].
  transitivity (rsum (map (fun y => rsum (map (fun x => wt (cw_weights f f' i) x * (if S y then prob M x y else 0))
                                                (seq 0 (n_in M)))) (seq 0 (n_out M)))).
  - apply rsum_ext_in. intros y Hy. apply in_seq in Hy as [_ Hy].
    destruct (S y); [apply (cw_prob M f f' i y W Hf Hf' Hi Hy)|].
    symmetry. apply rsum_zero. intros x _. ring.
  - rewrite rsum_swap. apply rsum_ext_in. intros x _. unfold pr. rewrite <- rsum_scal. reflexivity.
Qed.

(** ** The composition theorem *)

(** Σ_x g(x) · c = c for a prior [g]. *)
Lemma rsum_wt_scal (M : fmech) (g : list Q) (c : R) :
  prior (n_in M) g -> rsum (map (fun x => wt g x * c) (seq 0 (n_in M))) = c.
Proof.
  intros (_ & _ & H1). rewrite (rsum_ext_in _ (fun x => c * wt g x)) by (intros; ring).
  rewrite rsum_scal. replace (map (fun x => wt g x) (seq 0 (n_in M))) with (map (wt g) (seq 0 (n_in M))) by reflexivity.
  rewrite H1. ring.
Qed.

Section Mix.
Variables (M : fmech) (f g : list Q).
Hypothesis Hf : prior (n_in M) f.
Hypothesis Hg : prior (n_in M) g.

(** One direction, with a δ per pair: if Pr[M(x) ∈ S] ≤ e^ε · Pr[M(x') ∈ S] + d(x, x') for
    x in the support of [f] and x' in that of [g], the mixtures satisfy it with
    δ = Σ_{x,x'} f(x) g(x') d(x, x'). *)
Lemma mix_le (eps : R) (d : nat -> nat -> R) (S : event) :
  (forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> 0 < wt f x -> 0 < wt g x' ->
     pr M x S <= exp eps * pr M x' S + d x x') ->
  rsum (map (fun x => wt f x * pr M x S) (seq 0 (n_in M))) <=
  exp eps * rsum (map (fun x' => wt g x' * pr M x' S) (seq 0 (n_in M))) +
  rsum (map (fun x => rsum (map (fun x' => wt f x * wt g x' * d x x') (seq 0 (n_in M)))) (seq 0 (n_in M))).
Proof.
  intros H. destruct Hf as (_ & Hf0 & _). destruct Hg as (_ & Hg0 & _).
  (* Both sides as double sums over (x, x'). *)
  apply Rle_trans with (rsum (map (fun x => rsum (map (fun x' => wt f x * wt g x' * pr M x S) (seq 0 (n_in M)))) (seq 0 (n_in M)))).
  - right. apply rsum_ext_in. intros x _.
    rewrite (rsum_ext_in _ (fun x' => wt g x' * (wt f x * pr M x S))) by (intros; ring).
    rewrite (rsum_wt_scal M g (wt f x * pr M x S) Hg) at 1. reflexivity.
  - replace (exp eps * rsum (map (fun x' => wt g x' * pr M x' S) (seq 0 (n_in M))))
      with (rsum (map (fun x => rsum (map (fun x' => wt f x * wt g x' * (exp eps * pr M x' S)) (seq 0 (n_in M)))) (seq 0 (n_in M)))).
    2:{ rewrite rsum_swap.
        transitivity (rsum (map (fun x' => wt f 0 * 0 + exp eps * (wt g x' * pr M x' S)) (seq 0 (n_in M)))).
        - apply rsum_ext_in. intros x' _.
          rewrite (rsum_ext_in _ (fun x => wt f x * (wt g x' * (exp eps * pr M x' S)))) by (intros; ring).
          rewrite (rsum_wt_scal M f _ Hf). ring.
        - rewrite (rsum_ext_in _ (fun x' => exp eps * (wt g x' * pr M x' S))) by (intros; ring).
          apply rsum_scal. }
    rewrite <- rsum_plus. apply rsum_le. intros x Hx. apply in_seq in Hx as [_ Hx].
    rewrite <- rsum_plus. apply rsum_le. intros x' Hx'. apply in_seq in Hx' as [_ Hx'].
    destruct (Rle_lt_or_eq_dec _ _ (Hf0 x Hx)) as [Hpx|Hpx]; [|rewrite <- Hpx; lra].
    destruct (Rle_lt_or_eq_dec _ _ (Hg0 x' Hx')) as [Hpx'|Hpx']; [|rewrite <- Hpx'; lra].
    specialize (H x x' Hx Hx' Hpx Hpx').
    assert (0 < wt f x * wt g x') by (apply Rmult_lt_0_compat; assumption).
    apply Rmult_le_compat_l with (r := wt f x * wt g x') in H; lra.
Qed.

End Mix.

(** A prior mixture of the rows of a sub-distribution table is non-negative. *)
Lemma mix_pr_nonneg (M : fmech) (f : list Q) (S : event) :
  subdistr M -> prior (n_in M) f -> 0 <= rsum (map (fun x => wt f x * pr M x S) (seq 0 (n_in M))).
Proof.
  intros HM (_ & Hf0 & _). apply rsum_nonneg. intros x Hx. apply in_seq in Hx as [_ Hx].
  apply Rmult_le_pos; [apply Hf0, Hx|apply pr_nonneg, (HM x Hx)].
Qed.

(** The averaged form: a δ per ordered pair of inputs, weighted by the priors.
    [d x x'] bounds the pair (x, x'), [d x' x] the pair (x', x). *)
Theorem cw_dp_of_pairs_avg (M : fmech) (f f' : list Q) (eps delta : R) (d : nat -> nat -> R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= eps -> 0 <= delta ->
  (forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> 0 < wt f x -> 0 < wt f' x' -> forall S,
     pr M x S <= exp eps * pr M x' S + d x x' /\ pr M x' S <= exp eps * pr M x S + d x' x) ->
  rsum (map (fun x => rsum (map (fun x' => wt f x * wt f' x' * d x x') (seq 0 (n_in M)))) (seq 0 (n_in M))) <= delta ->
  rsum (map (fun x' => rsum (map (fun x => wt f' x' * wt f x * d x' x) (seq 0 (n_in M)))) (seq 0 (n_in M))) <= delta ->
  cw_dp M f f' eps delta.
Proof.
  intros W HM Hf Hf' He Hd Hpairs Hd1 Hd2 i j Hi Hj _ S.
  cbn [fmech_cw n_in] in Hi, Hj.
  pose proof (proj1 Hf) as Lf. pose proof (proj1 Hf') as Lf'.
  assert (He1 : 1 <= exp eps) by (apply exp_ge_1, He).
  assert (Hsame : forall g, prior (n_in M) g ->
            rsum (map (fun x => wt g x * pr M x S) (seq 0 (n_in M))) <=
            exp eps * rsum (map (fun x => wt g x * pr M x S) (seq 0 (n_in M))) + delta).
  { intros g Hg. pose proof (mix_pr_nonneg M g S HM Hg). nra. }
  rewrite !cw_pr by assumption.
  destruct i as [|[|i]], j as [|[|j]]; try lia; cbn [cw_weights].
  - apply Hsame, Hf.
  - eapply Rle_trans; [apply (mix_le M f f' Hf Hf' eps d S)|lra].
    intros x x' Hx Hx' Hpx Hpx'. apply (Hpairs x x' Hx Hx' Hpx Hpx' S).
  - eapply Rle_trans; [apply (mix_le M f' f Hf' Hf eps d S)|lra].
    intros x' x Hx' Hx Hpx' Hpx. apply (Hpairs x x' Hx Hx' Hpx Hpx' S).
  - apply Hsame, Hf'.
Qed.

(** The composition theorem, one δ for all pairs: CW-privacy of [M] for the priors
    [f], [f'] follows from the DP inequalities of the pairs x ∈ supp f, x' ∈ supp f'. *)
Theorem cw_dp_of_pairs (M : fmech) (f f' : list Q) (eps delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= eps -> 0 <= delta ->
  (forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> 0 < wt f x -> 0 < wt f' x' -> forall S,
     pr M x S <= exp eps * pr M x' S + delta /\ pr M x' S <= exp eps * pr M x S + delta) ->
  cw_dp M f f' eps delta.
Proof.
  intros W HM Hf Hf' He Hd Hpairs.
  apply (cw_dp_of_pairs_avg M f f' eps delta (fun _ _ => delta)); try assumption.
  - right. rewrite (rsum_ext_in _ (fun x => wt f x * delta)).
    + apply (rsum_wt_scal M f delta Hf).
    + intros x _. rewrite (rsum_ext_in _ (fun x' => wt f' x' * (wt f x * delta))) by (intros; ring).
      apply (rsum_wt_scal M f' _ Hf').
  - right. rewrite (rsum_ext_in _ (fun x' => wt f' x' * delta)).
    + apply (rsum_wt_scal M f' delta Hf').
    + intros x' _. rewrite (rsum_ext_in _ (fun x => wt f x * (wt f' x' * delta))) by (intros; ring).
      apply (rsum_wt_scal M f _ Hf).
Qed.

(** As DP: if [M] is (ε, δ)-DP for a relation that holds on the pairs of [supp_nb f f']
    (for instance [supp_nb f f'] itself, or every pair), it is (ε, δ)-CW-private. *)
Theorem cw_dp_of_dp (nb : nat -> nat -> bool) (M : fmech) (f f' : list Q) (eps delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= eps -> 0 <= delta ->
  (forall x x', supp_nb f f' x x' = true -> nb x x' = true) ->
  dp nb M eps delta -> cw_dp M f f' eps delta.
Proof.
  intros W HM Hf Hf' He Hd Hnb Hdp. apply cw_dp_of_pairs; try assumption.
  intros x x' Hx Hx' Hpx Hpx' S. apply in_supp_of_pos in Hpx, Hpx'. split; apply Hdp; try assumption.
  - apply Hnb. unfold supp_nb. rewrite Hpx, Hpx'. reflexivity.
  - apply Hnb. unfold supp_nb. rewrite Hpx, Hpx', orb_true_r. reflexivity.
Qed.

(** ** The same database released k times *)

Lemma power_subdistr (M : fmech) (k : nat) : fmech_wf M -> subdistr M -> subdistr (fmech_power M k).
Proof.
  intros W HM. refine (proj2 (dp_power_basic (fun _ _ => false) M 0 0 k W HM (Rle_refl 0) _)).
  intros x x' _ _ Hf. discriminate.
Qed.

Lemma power_wf' (M : fmech) (k : nat) : fmech_wf M -> fmech_wf (fmech_power M k).
Proof.
  intros W. destruct (fmech_power_wf M k W) as [H1 H2]. destruct (fmech_power_dims M k) as [D1 D2].
  split; [rewrite H1, D1; reflexivity|rewrite D2; exact H2].
Qed.

Lemma prior_power (M : fmech) (k : nat) (f : list Q) : prior (n_in M) f -> prior (n_in (fmech_power M k)) f.
Proof. destruct (fmech_power_dims M k) as [D1 _]. rewrite D1. trivial. Qed.

(** The streaming composition theorem: every (ε, δ)-DP bound of the k-fold composition
    [fmech_power M k] over the pairs x ∈ supp f, x' ∈ supp f' is an (ε, δ)-CW bound of
    the same database released k times. *)
Theorem cw_stream_of_dp (nb : nat -> nat -> bool) (M : fmech) (f f' : list Q) (k : nat) (eps delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= eps -> 0 <= delta ->
  (forall x x', supp_nb f f' x x' = true -> nb x x' = true) ->
  dp nb (fmech_power M k) eps delta -> cw_dp (fmech_power M k) f f' eps delta.
Proof.
  intros W HM Hf Hf' He Hd Hnb Hdp.
  apply (cw_dp_of_dp nb); try assumption.
  - apply power_wf', W.
  - apply power_subdistr; assumption.
  - apply prior_power, Hf.
  - apply prior_power, Hf'.
Qed.

(** With basic composition: (ε, δ)-DP of one run over those pairs gives (k·ε, k·δ)-CW
    privacy of k runs on the same database. *)
Corollary cw_stream_basic (nb : nat -> nat -> bool) (M : fmech) (f f' : list Q) (k : nat) (eps delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= eps -> 0 <= delta ->
  (forall x x', supp_nb f f' x x' = true -> nb x x' = true) ->
  dp nb M eps delta -> cw_dp (fmech_power M k) f f' (INR k * eps) (INR k * delta).
Proof.
  intros W HM Hf Hf' He Hd Hnb Hdp.
  apply (cw_stream_of_dp nb); try assumption; try (apply Rmult_le_pos; [apply pos_INR|assumption]).
  apply (proj1 (dp_power_basic nb M eps delta k W HM Hd Hdp)).
Qed.

(** The averaged form with the pairs' hockey-stick divergences (e.g. from their PLD,
    [hs_power_pld]): δ at least Σ_{x,x'} f(x) f'(x') hs_{x,x'}(e^ε) in each direction. *)
Theorem cw_dp_of_hs (M : fmech) (f f' : list Q) (eps delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= eps -> 0 <= delta ->
  rsum (map (fun x => rsum (map (fun x' => wt f x * wt f' x' * hs M x x' (exp eps)) (seq 0 (n_in M)))) (seq 0 (n_in M))) <= delta ->
  rsum (map (fun x' => rsum (map (fun x => wt f' x' * wt f x * hs M x' x (exp eps)) (seq 0 (n_in M)))) (seq 0 (n_in M))) <= delta ->
  cw_dp M f f' eps delta.
Proof.
  intros W HM Hf Hf' He Hd H1 H2.
  apply (cw_dp_of_pairs_avg M f f' eps delta (fun x x' => hs M x x' (exp eps))); try assumption.
  intros x x' Hx Hx' _ _ S. split; apply pr_le_hs; try (apply Rlt_le, exp_pos).
  - intros y Hy. apply (proj1 (HM x' Hx')), Hy.
  - intros y Hy. apply (proj1 (HM x Hx)), Hy.
Qed.

(** ** A fresh database for every run: additive *)

Lemma cw_wf (M : fmech) (f f' : list Q) : fmech_wf (fmech_cw M f f').
Proof.
  split; [reflexivity|]. intros r Hr. cbn [fmech_cw rows In] in Hr.
  destruct Hr as [<-|[<-|[]]]; unfold mix_row; rewrite map_length, seq_length; reflexivity.
Qed.

Lemma cw_subdistr (M : fmech) (f f' : list Q) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> subdistr (fmech_cw M f f').
Proof.
  intros W HM Hf Hf' i Hi. cbn [fmech_cw n_in n_out] in Hi |- *.
  assert (Hg : prior (n_in M) (cw_weights f f' i)) by (destruct i as [|[|]]; [exact Hf|exact Hf'|lia]).
  split.
  - intros y Hy. rewrite cw_prob by (try apply Hf; try apply Hf'; assumption).
    destruct Hg as (_ & Hg0 & _). apply rsum_nonneg. intros x Hx. apply in_seq in Hx as [_ Hx].
    apply Rmult_le_pos; [apply Hg0, Hx|apply (proj1 (HM x Hx)), Hy].
  - rewrite cw_pr by (try apply Hf; try apply Hf'; assumption).
    rewrite <- (rsum_wt_scal M _ 1 Hg). apply rsum_le. intros x Hx. apply in_seq in Hx as [_ Hx].
    destruct Hg as (_ & Hg0 & _). apply Rmult_le_compat_l; [apply Hg0, Hx|apply (proj2 (HM x Hx))].
Qed.

(** Drawing a fresh database for each of k runs composes additively: a (ε, δ)-CW-private
    [M] gives a (k·ε, k·δ)-DP [fmech_power (fmech_cw M f f') k]. *)
Theorem cw_fresh_basic (M : fmech) (f f' : list Q) (k : nat) (eps delta : R) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> 0 <= delta ->
  cw_dp M f f' eps delta -> dp nb_all (fmech_power (fmech_cw M f f') k) (INR k * eps) (INR k * delta).
Proof.
  intros W HM Hf Hf' Hd Hcw.
  apply (proj1 (dp_power_basic nb_all (fmech_cw M f f') eps delta k (cw_wf M f f') (cw_subdistr M f f' W HM Hf Hf') Hd Hcw)).
Qed.

(** ** Point-mass priors: CW-privacy is DP of one pair *)

(** The prior that puts all its weight on [x]. *)
Definition point (n x : nat) : list Q := map (fun i => if Nat.eqb i x then 1%Q else 0%Q) (seq 0 n).

Lemma wt_point (n x i : nat) : (i < n)%nat -> wt (point n x) i = if Nat.eqb i x then 1 else 0.
Proof.
  intros Hi. unfold wt, point. rewrite nth_map_seq by exact Hi.
  destruct (Nat.eqb i x); [apply q2r_1|apply q2r_0].
Qed.

Lemma prior_point (n x : nat) : (x < n)%nat -> prior n (point n x).
Proof.
  intros Hx. split; [unfold point; rewrite map_length; apply seq_length|split].
  - intros i Hi. rewrite wt_point by exact Hi. destruct (Nat.eqb i x); lra.
  - rewrite (rsum_ext_in _ (fun i => if Nat.eqb i x then 1 else 0)).
    + rewrite (rsum_single Nat.eq_dec _ _ x); [rewrite Nat.eqb_refl; reflexivity|apply seq_NoDup|apply in_seq; lia|].
      intros a Ha. apply Nat.eqb_neq in Ha. rewrite Ha. reflexivity.
    + intros i Hi. apply in_seq in Hi. apply wt_point. lia.
Qed.

Lemma point_mix (M : fmech) (n x : nat) (h : nat -> R) :
  n = n_in M -> (x < n)%nat -> rsum (map (fun i => wt (point n x) i * h i) (seq 0 (n_in M))) = h x.
Proof.
  intros -> Hx. rewrite (rsum_ext_in _ (fun i => if Nat.eqb i x then h i else 0)).
  - rewrite (rsum_single Nat.eq_dec _ _ x); [rewrite Nat.eqb_refl; reflexivity|apply seq_NoDup|apply in_seq; lia|].
    intros a Ha. apply Nat.eqb_neq in Ha. rewrite Ha. reflexivity.
  - intros i Hi. apply in_seq in Hi. rewrite wt_point by lia. destruct (Nat.eqb i x); ring.
Qed.

(** With point masses at [x] and [x'], CW-privacy is the DP inequality of the pair (x, x')
    in both orders. *)
Theorem cw_point_iff (M : fmech) (x x' : nat) (eps delta : R) :
  fmech_wf M -> subdistr M -> (x < n_in M)%nat -> (x' < n_in M)%nat -> 0 <= eps -> 0 <= delta ->
  cw_dp M (point (n_in M) x) (point (n_in M) x') eps delta <->
  forall S, pr M x S <= exp eps * pr M x' S + delta /\ pr M x' S <= exp eps * pr M x S + delta.
Proof.
  intros W HM Hx Hx' He Hd.
  assert (Hl : forall z, length (point (n_in M) z) = n_in M) by (intros; unfold point; rewrite map_length; apply seq_length).
  split.
  - intros Hcw S. unfold cw_dp, dp in Hcw. pose proof (Hcw 0%nat 1%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl S) as H1.
    pose proof (Hcw 1%nat 0%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl S) as H2.
    rewrite !cw_pr in H1, H2 by (try apply Hl; try assumption; lia). cbn [cw_weights] in H1, H2.
    rewrite !(point_mix M (n_in M)) in H1, H2 by (reflexivity || assumption). split; assumption.
  - intros H. apply cw_dp_of_pairs; try assumption; try apply prior_point; try assumption.
    intros a a' Ha Ha' Hpa Hpa' S. rewrite wt_point in Hpa, Hpa' by assumption.
    destruct (Nat.eqb_spec a x) as [->|]; [|lra]. destruct (Nat.eqb_spec a' x') as [->|]; [|lra]. apply H.
Qed.

(** So with point-mass priors the same database composes additively: k runs of a
    (ε, δ)-CW-private [M] are (k·ε, k·δ)-CW-private. *)
Corollary cw_point_stream (M : fmech) (x x' k : nat) (eps delta : R) :
  fmech_wf M -> subdistr M -> (x < n_in M)%nat -> (x' < n_in M)%nat -> 0 <= eps -> 0 <= delta ->
  cw_dp M (point (n_in M) x) (point (n_in M) x') eps delta ->
  cw_dp (fmech_power M k) (point (n_in M) x) (point (n_in M) x') (INR k * eps) (INR k * delta).
Proof.
  intros W HM Hx Hx' He Hd Hcw0.
  pose proof (proj1 (cw_point_iff M x x' eps delta W HM Hx Hx' He Hd) Hcw0) as Hcw.
  set (nb := supp_nb (point (n_in M) x) (point (n_in M) x')).
  apply (cw_stream_basic nb); try assumption; try apply prior_point; try assumption; [intros; assumption|].
  intros a a' Ha Ha' Hnb S. unfold nb, supp_nb in Hnb.
  assert (Hs : forall z i, (i < n_in M)%nat -> in_supp (point (n_in M) z) i = true -> i = z).
  { intros z i Hi Hz. apply in_supp_pos in Hz. rewrite wt_point in Hz by exact Hi.
    destruct (Nat.eqb_spec i z); [assumption|lra]. }
  apply orb_prop in Hnb as [Hnb|Hnb]; apply andb_prop in Hnb as [H1 H2].
  - apply Hs in H1, H2; try assumption. subst. apply Hcw.
  - apply Hs in H1, H2; try assumption. subst. apply Hcw.
Qed.
