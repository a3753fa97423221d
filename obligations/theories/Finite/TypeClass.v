(** * The same database released K times, by classes of output sequences

    The same-database K-fold CW mechanism [fmech_cw (fmech_power M K) f f'] has m^K
    outputs, the sequences [ys] of K outputs of [M].  Its two rows depend on [ys] only
    through the likelihood vector (Pr[M^K(x) = ys])_x = Π_i M(x)(y_i), which depends only
    on the type of [ys] (how often each output occurs): the C(K+m-1, m-1) types, with
    their numbers of sequences, carry all the hockey-stick divergence.

    [run A D keep K] computes these classes without the product table: a list of states
    (v, N), v an integer likelihood vector over the common denominator D^K, N the number
    of sequences with that vector.  One step extends every sequence by every output y
    (v ↦ v ⊙ A(·, y)), merges equal vectors (adding their numbers) and keeps the states
    [keep] selects; dropping states loses P-mass, which the bounds account for.

    [classes_le] (once for every K): for every non-negative function G of the likelihood
    vector, the states' weighted sum Σ N·G(v / D^K) is at most the sum of G over the
    product table's sequences, with equality when [keep] keeps everything.  From it:
    - [hs_stream_ge]: hs(t) of the two rows is at least Σ N·(p − t·q)⁺ over the states;
    - [hs_stream_le]: hs(t) is at most Σ N·(p − t·q)⁺ + (1 − Σ N·p);
    with p, q the rows' probabilities of a state's sequences.  The checks are integer
    sums ([check_stream]); [cw_stream_dp_of_check] and [cw_stream_not_dp_of_check] turn
    them into (ε, δ)-CW-privacy of K runs on the same database, or its negation. *)
From Coq Require Import List Bool ZArith QArith Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP Checker Compose CW BasicComposition PLD CWStream.
Import ListNotations.

Local Open Scope R_scope.

(** ** The product table as a sum over sequences *)

(** All sequences of [k] outputs among [0 .. m - 1], in the order of [power_index]. *)
Fixpoint seqs (m k : nat) : list (list nat) :=
  match k with
  | O => [[]]
  | S k' => flat_map (fun y => map (cons y) (seqs m k')) (seq 0 m)
  end.

Lemma rsum_flat_map {A B} (h : B -> R) (g : A -> list B) (l : list A) :
  rsum (map h (flat_map g l)) = rsum (map (fun a => rsum (map h (g a))) l).
Proof.
  induction l as [|a l IH]; [reflexivity|]. cbn [flat_map map]. rewrite map_app, rsum_app, IH.
  reflexivity.
Qed.

Lemma map_add_seq_gen (s k c : nat) : map (Nat.add s) (seq k c) = seq (s + k) c.
Proof.
  revert k. induction c as [|c IH]; intros k; [reflexivity|]. cbn [seq map]. rewrite IH.
  f_equal. f_equal. lia.
Qed.

Lemma map_add_seq (s c : nat) : map (Nat.add s) (seq 0 c) = seq s c.
Proof. rewrite map_add_seq_gen. f_equal. lia. Qed.

Lemma flat_map_blocks (m c : nat) :
  flat_map (fun y => map (Nat.add (y * c)) (seq 0 c)) (seq 0 m) = seq 0 (m * c).
Proof.
  induction m as [|m IH]; [reflexivity|].
  rewrite seq_S, flat_map_app, IH. cbn [flat_map]. rewrite app_nil_r, map_add_seq.
  replace (S m * c)%nat with (m * c + c)%nat by lia. rewrite seq_app. reflexivity.
Qed.

Lemma seqs_index (m k : nat) : map (power_index m) (seqs m k) = seq 0 (m ^ k).
Proof.
  induction k as [|k IH]; [reflexivity|]. cbn [seqs].
  rewrite flat_map_concat_map, concat_map, map_map.
  transitivity (concat (map (fun y => map (Nat.add (y * m ^ k)) (seq 0 (m ^ k))) (seq 0 m))).
  - f_equal. apply map_ext_in. intros y _. rewrite map_map, <- IH, map_map. apply map_ext_in.
    intros ys Hys. cbn [power_index].
    assert (length ys = k) as ->; [|reflexivity].
    clear IH. revert ys Hys. induction k as [|k IHk]; intros ys Hys.
    + destruct Hys as [<-|[]]. reflexivity.
    + cbn [seqs] in Hys. apply in_flat_map in Hys as [y' [_ Hys]]. apply in_map_iff in Hys as [zs [<- Hzs]].
      cbn [length]. f_equal. apply IHk, Hzs.
  - rewrite <- flat_map_concat_map, flat_map_blocks. cbn [Nat.pow]. reflexivity.
Qed.

Lemma seqs_spec (m k : nat) (ys : list nat) :
  In ys (seqs m k) -> length ys = k /\ Forall (fun y => y < m)%nat ys.
Proof.
  revert ys. induction k as [|k IH]; intros ys Hys.
  - destruct Hys as [<-|[]]. split; [reflexivity|constructor].
  - cbn [seqs] in Hys. apply in_flat_map in Hys as [y [Hy Hys]]. apply in_map_iff in Hys as [zs [<- Hzs]].
    apply in_seq in Hy. destruct (IH zs Hzs) as [H1 H2]. split; [cbn; lia|constructor; [lia|exact H2]].
Qed.

(** The likelihood vector of a sequence, x ↦ Pr[M^k(x) = ys] (as a function of x). *)
Definition lik (M : fmech) (ys : list nat) : nat -> R := fun x => Q2R (run_prob M x ys).

(** The probability of a likelihood vector [w] under the prior [g]: Σ_x g(x) · w(x). *)
Definition pv (n : nat) (g : list Q) (w : nat -> R) : R := rsum (map (fun x => wt g x * w x) (seq 0 n)).

Lemma pv_ext (n : nat) (g : list Q) (w1 w2 : nat -> R) :
  (forall x, (x < n)%nat -> w1 x = w2 x) -> pv n g w1 = pv n g w2.
Proof. intros H. unfold pv. apply rsum_ext_in. intros x Hx. apply in_seq in Hx. rewrite H by lia. reflexivity. Qed.

(** Row [i] of the same-database composition gives [ys] the probability Σ_x g_i(x) · lik(ys)(x). *)
Lemma stream_prob (M : fmech) (f f' : list Q) (i : nat) (ys : list nat) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat ->
  Forall (fun y => y < n_out M)%nat ys ->
  prob (fmech_cw (fmech_power M (length ys)) f f') i (power_index (n_out M) ys) =
  pv (n_in M) (cw_weights f f' i) (lik M ys).
Proof.
  intros W Hf Hf' Hi Hys. destruct (fmech_cw_power_entry M f f' ys W Hf Hf' Hys) as [E0 E1].
  unfold prob. destruct i as [|[|i]]; [rewrite E0|rewrite E1|lia]; cbn [cw_weights];
    rewrite fold_qplus_qsumf, <- rsum_q2r; unfold pv, wt, lik; apply rsum_ext_in; intros x _; apply Q2R_mult.
Qed.

(** hs(t) of the rows [i], [j] of K runs on the same database, as a sum over sequences. *)
Lemma hs_stream (M : fmech) (f f' : list Q) (K i j : nat) (t : R) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat -> (j < 2)%nat ->
  hs (fmech_cw (fmech_power M K) f f') i j t =
  rsum (map (fun ys => Rmax 0 (pv (n_in M) (cw_weights f f' i) (lik M ys) - t * pv (n_in M) (cw_weights f f' j) (lik M ys)))
            (seqs (n_out M) K)).
Proof.
  intros W Hf Hf' Hi Hj. unfold hs. cbn [fmech_cw n_out].
  rewrite (proj2 (fmech_power_dims M K)), <- seqs_index, map_map. apply rsum_ext_in.
  intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [Hl Hlt]. subst K.
  rewrite !stream_prob by assumption. reflexivity.
Qed.

(** The sum of the first row over all sequences is at most 1. *)
Lemma stream_mass (M : fmech) (f f' : list Q) (K i : nat) :
  fmech_wf M -> subdistr M -> prior (n_in M) f -> prior (n_in M) f' -> (i < 2)%nat ->
  rsum (map (fun ys => pv (n_in M) (cw_weights f f' i) (lik M ys)) (seqs (n_out M) K)) <= 1.
Proof.
  intros W HM Hf Hf' Hi.
  assert (HS : subdistr (fmech_cw (fmech_power M K) f f')).
  { apply cw_subdistr; [apply power_wf', W|apply power_subdistr; assumption|apply prior_power, Hf|apply prior_power, Hf']. }
  destruct (HS i ltac:(cbn; lia)) as [_ H1]. unfold pr, everything in H1. cbn [fmech_cw n_out] in H1.
  rewrite (proj2 (fmech_power_dims M K)), <- seqs_index, map_map in H1.
  erewrite rsum_ext_in; [exact H1|]. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [Hl Hlt]. subst K.
  rewrite stream_prob by (try apply Hf; try apply Hf'; assumption). reflexivity.
Qed.

(** ** Classes of sequences, computed step by step *)

Definition state := (list Z * positive)%type.

Fixpoint zl_cmp (a b : list Z) : comparison :=
  match a, b with
  | [], [] => Eq
  | [], _ => Lt
  | _, [] => Gt
  | x :: a', y :: b' => match Z.compare x y with Eq => zl_cmp a' b' | c => c end
  end.

Lemma zl_cmp_eq (a b : list Z) : zl_cmp a b = Eq -> a = b.
Proof.
  revert b. induction a as [|x a IH]; intros [|y b]; cbn; try discriminate; [reflexivity|].
  destruct (Z.compare_spec x y); try discriminate. intros H'. subst. f_equal. apply IH, H'.
Qed.

(** Merge two lists of states, adding the numbers of equal vectors (linear on sorted lists). *)
Fixpoint merge (A : list state) : list state -> list state :=
  match A with
  | [] => fun B => B
  | (a, N) :: A' =>
      fix merge_a (B : list state) : list state :=
        match B with
        | [] => A
        | (b, N') :: B' =>
            match zl_cmp a b with
            | Lt => (a, N) :: merge A' B
            | Gt => (b, N') :: merge_a B'
            | Eq => (a, (N + N')%positive) :: merge A' B'
            end
        end
  end.

Section Classes.
Variables (n m : nat) (A : list (list Z)) (D : positive).

(** Extend by output [y]: coordinate x multiplied by A(x, y) = D · Pr[M(x) = y]. *)
Definition extend (y : nat) (s : state) : state :=
  (map (fun x => nth y (nth x A []) 0%Z * nth x (fst s) 0%Z)%Z (seq 0 n), snd s).

Definition step (keep : nat -> state -> bool) (k : nat) (L : list state) : list state :=
  filter (keep (S k)) (fold_right merge [] (map (fun y => map (extend y) L) (seq 0 m))).

Fixpoint run (keep : nat -> state -> bool) (k : nat) : list state :=
  match k with
  | O => [(repeat 1%Z n, 1%positive)]
  | S k' => step keep k' (run keep k')
  end.

(** The vector a state stands for: v / D^k. *)
Definition scale (k : nat) (v : list Z) : nat -> R := fun x => IZR (nth x v 0%Z) / IZR (Zpos D) ^ k.

(** Σ N · G(v / D^k) over the states. *)
Definition ssum (G : (nat -> R) -> R) (k : nat) (L : list state) : R :=
  rsum (map (fun s => IZR (Zpos (snd s)) * G (scale k (fst s))) L).

Lemma ssum_app G k L1 L2 : ssum G k (L1 ++ L2) = ssum G k L1 + ssum G k L2.
Proof. unfold ssum. rewrite map_app. apply rsum_app. Qed.

Lemma ssum_cons G k s L : ssum G k (s :: L) = IZR (Zpos (snd s)) * G (scale k (fst s)) + ssum G k L.
Proof. unfold ssum. cbn [map]. apply rsum_cons. Qed.

Lemma ssum_nil G k : ssum G k [] = 0.
Proof. reflexivity. Qed.

Lemma merge_cons (a : list Z) (N : positive) (A' : list state) (b : list Z) (N' : positive) (B' : list state) :
  merge ((a, N) :: A') ((b, N') :: B') =
  match zl_cmp a b with
  | Lt => (a, N) :: merge A' ((b, N') :: B')
  | Gt => (b, N') :: merge (@cons state (a, N) A') B'
  | Eq => (a, (N + N')%positive) :: merge A' B'
  end.
Proof. reflexivity. Qed.

Lemma ssum_merge G k L1 L2 : ssum G k (merge L1 L2) = ssum G k L1 + ssum G k L2.
Proof.
  revert L2. induction L1 as [|[a N] L1 IH]; intros L2.
  { cbn [merge]. rewrite ssum_nil. ring. }
  induction L2 as [|[b N'] L2 IH2].
  { cbn [merge]. rewrite ssum_nil. ring. }
  rewrite merge_cons. destruct (zl_cmp a b) eqn:E.
  - apply zl_cmp_eq in E. subst b. rewrite !ssum_cons, IH. cbn [fst snd].
    rewrite Pos2Z.inj_add, plus_IZR. ring.
  - rewrite !ssum_cons, IH, ssum_cons. ring.
  - rewrite !ssum_cons, IH2, ssum_cons. ring.
Qed.

Lemma ssum_fold_merge G k (Ls : list (list state)) :
  ssum G k (fold_right merge [] Ls) = rsum (map (ssum G k) Ls).
Proof.
  induction Ls as [|L Ls IH]; [reflexivity|]. cbn [fold_right map]. rewrite ssum_merge, IH, rsum_cons. reflexivity.
Qed.

Lemma ssum_filter G k (p : state -> bool) L :
  (forall w, 0 <= G w) -> ssum G k (filter p L) <= ssum G k L.
Proof.
  intros HG. induction L as [|s L IH]; [apply Rle_refl|]. cbn [filter].
  assert (0 <= IZR (Zpos (snd s)) * G (scale k (fst s))) by (apply Rmult_le_pos; [apply IZR_le; lia|apply HG]).
  destruct (p s); unfold ssum in *; cbn [map]; rewrite !rsum_cons; lra.
Qed.

(** G reads a vector only at the inputs [0 .. n - 1]. *)
Definition on_inputs (G : (nat -> R) -> R) : Prop :=
  forall w1 w2, (forall x, (x < n)%nat -> w1 x = w2 x) -> G w1 = G w2.

Variable M : fmech.
Hypothesis Hn : n_in M = n.
Hypothesis Hm : n_out M = m.
(** A(x, y) / D is Pr[M(x) = y]. *)
Hypothesis HA : forall x y, (x < n)%nat -> (y < m)%nat -> prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D).

Lemma scale_extend (k y : nat) (s : state) (x : nat) :
  (x < n)%nat -> (y < m)%nat -> scale (S k) (fst (extend y s)) x = prob M x y * scale k (fst s) x.
Proof.
  intros Hx Hy. unfold scale, extend. cbn [fst]. rewrite nth_map_seq by exact Hx. rewrite HA by assumption.
  rewrite mult_IZR. cbn [pow]. assert (0 < IZR (Zpos D)) by (apply IZR_lt; lia).
  assert (0 < IZR (Zpos D) ^ k) by (apply pow_lt; lra). field. lra.
Qed.

Lemma lik_cons (y : nat) (ys : list nat) (x : nat) : lik M (y :: ys) x = prob M x y * lik M ys x.
Proof. unfold lik, prob. cbn [run_prob]. apply Q2R_mult. Qed.

(** The states after k steps stand for at most the product table's sequences, for every
    non-negative G (exactly them when nothing is dropped). *)
Theorem classes_le (keep : nat -> state -> bool) (k : nat) (G : (nat -> R) -> R) :
  on_inputs G -> (forall w, 0 <= G w) ->
  ssum G k (run keep k) <= rsum (map (fun ys => G (lik M ys)) (seqs m k)).
Proof.
  revert G. induction k as [|k IH]; intros G HG HG0.
  - unfold ssum. cbn [run map seqs]. rewrite !rsum_cons, !rsum_nil. cbn [fst snd].
    assert (E : G (scale 0 (repeat 1%Z n)) = G (lik M [])).
    { apply HG. intros x Hx. unfold scale, lik. cbn [run_prob pow].
      rewrite nth_repeat_lt by exact Hx. rewrite q2r_1. field. }
    rewrite E. lra.
  - cbn [run seqs]. unfold step. eapply Rle_trans; [apply ssum_filter, HG0|].
    rewrite ssum_fold_merge, map_map, rsum_flat_map. apply rsum_le. intros y Hy. apply in_seq in Hy as [_ Hy].
    rewrite map_map.
    set (G' := fun w : nat -> R => G (fun x => prob M x y * w x)).
    assert (E : ssum G (S k) (map (extend y) (run keep k)) = ssum G' k (run keep k)).
    { unfold ssum. rewrite map_map. apply rsum_ext_in. intros s _. cbn [snd extend]. f_equal.
      unfold G'. apply HG. intros x Hx. apply scale_extend; assumption. }
    rewrite E. eapply Rle_trans; [apply IH|].
    + intros w1 w2 Hw. unfold G'. apply HG. intros x Hx. rewrite Hw by exact Hx. reflexivity.
    + intros w. apply HG0.
    + right. apply rsum_ext_in. intros ys _. unfold G'. apply HG. intros x _. symmetry. apply lik_cons.
Qed.

End Classes.

(** ** Bounds on the hockey-stick divergence from the classes *)

Section Bounds.
Variables (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive).
Variable keep : nat -> state -> bool.
Hypothesis W : fmech_wf M.
Hypothesis HM : subdistr M.
Hypothesis Hf : prior (n_in M) f.
Hypothesis Hf' : prior (n_in M) f'.
Hypothesis HA : forall x y, (x < n_in M)%nat -> (y < n_out M)%nat ->
  prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D).

Let L := run (n_in M) (n_out M) A keep K.
Let p (g : list Q) (w : nat -> R) := pv (n_in M) g w.

Lemma lik_nonneg (ys : list nat) (x : nat) : (x < n_in M)%nat -> Forall (fun y => y < n_out M)%nat ys -> 0 <= lik M ys x.
Proof.
  intros Hx Hys. induction Hys as [|y ys Hy Hys IH]; [unfold lik; cbn; rewrite q2r_1; lra|].
  rewrite lik_cons. apply Rmult_le_pos; [apply (proj1 (HM x Hx)), Hy|exact IH].
Qed.

Lemma pv_lik_nonneg (g : list Q) (ys : list nat) :
  prior (n_in M) g -> Forall (fun y => y < n_out M)%nat ys -> 0 <= pv (n_in M) g (lik M ys).
Proof.
  intros (_ & Hg & _) Hys. apply rsum_nonneg. intros x Hx. apply in_seq in Hx as [_ Hx].
  apply Rmult_le_pos; [apply Hg, Hx|apply lik_nonneg; assumption].
Qed.

Lemma on_inputs_pv (g g' : list Q) (t : R) :
  on_inputs (n_in M) (fun w => Rmax 0 (pv (n_in M) g w - t * pv (n_in M) g' w)).
Proof. intros w1 w2 Hw. rewrite (pv_ext _ g w1 w2 Hw), (pv_ext _ g' w1 w2 Hw). reflexivity. Qed.

Lemma rmax_split (a b : R) : 0 <= a -> 0 <= b -> Rmax 0 (a - b) = a - Rmax 0 (a - Rmax 0 (a - b)).
Proof.
  intros Ha Hb. destruct (Rle_dec b a).
  - rewrite (Rmax_right 0 (a - b)) by lra. rewrite Rmax_right by lra. ring.
  - rewrite (Rmax_left 0 (a - b)) by lra. rewrite Rmax_right by lra. ring.
Qed.

Variables (i j : nat).
Hypothesis Hi : (i < 2)%nat.
Hypothesis Hj : (j < 2)%nat.
Let g := cw_weights f f' i.
Let g' := cw_weights f f' j.

Lemma prior_g (l : nat) : (l < 2)%nat -> prior (n_in M) (cw_weights f f' l).
Proof. intros Hl. destruct l as [|[|]]; [exact Hf|exact Hf'|lia]. Qed.

(** hs(t) is at least the classes' share Σ N · (p − t·q)⁺. *)
Theorem hs_stream_ge (t : R) :
  ssum D (fun w => Rmax 0 (p g w - t * p g' w)) K L <= hs (fmech_cw (fmech_power M K) f f') i j t.
Proof.
  rewrite hs_stream by (try apply Hf; try apply Hf'; assumption).
  apply classes_le with (M := M); try reflexivity; try assumption.
  - apply on_inputs_pv.
  - intros w. apply Rmax_l.
Qed.

(** hs(t) is at most the classes' share plus the P-mass they miss: Σ N (p − t·q)⁺ + 1 − Σ N p. *)
Theorem hs_stream_le (t : R) : 0 <= t ->
  hs (fmech_cw (fmech_power M K) f f') i j t <=
  ssum D (fun w => Rmax 0 (p g w - t * p g' w)) K L + 1 - ssum D (p g) K L.
Proof.
  intros Ht.
  set (Gt := fun w => Rmax 0 (p g w - t * p g' w)).
  set (H := fun w => Rmax 0 (p g w - Gt w)).
  assert (HH : ssum D H K L <= rsum (map (fun ys => H (lik M ys)) (seqs (n_out M) K))).
  { apply classes_le with (M := M); try reflexivity; try assumption.
    - intros w1 w2 Hw. unfold H, Gt, p. rewrite (pv_ext _ g w1 w2 Hw), (pv_ext _ g' w1 w2 Hw). reflexivity.
    - intros w. apply Rmax_l. }
  assert (HP := stream_mass M f f' K i W HM Hf Hf' Hi).
  assert (Hsplit : rsum (map (fun ys => Gt (lik M ys)) (seqs (n_out M) K)) =
                   rsum (map (fun ys => p g (lik M ys)) (seqs (n_out M) K)) - rsum (map (fun ys => H (lik M ys)) (seqs (n_out M) K))).
  { rewrite <- rsum_minus. apply rsum_ext_in. intros ys Hys. destruct (seqs_spec _ _ _ Hys) as [_ Hlt].
    pose proof (pv_lik_nonneg g ys (prior_g i Hi) Hlt). pose proof (pv_lik_nonneg g' ys (prior_g j Hj) Hlt).
    unfold H, Gt. apply rmax_split; [assumption|apply Rmult_le_pos; assumption]. }
  assert (Hlow : ssum D (p g) K L - ssum D Gt K L <= ssum D H K L).
  { unfold ssum. rewrite <- rsum_minus. apply rsum_le. intros s _.
    assert (0 <= IZR (Zpos (snd s))) by (apply IZR_le; lia).
    unfold H. pose proof (Rmax_r 0 (p g (scale D K (fst s)) - Gt (scale D K (fst s)))). nra. }
  rewrite hs_stream by (try apply Hf; try apply Hf'; assumption). fold g g'.
  change (fun ys => Rmax 0 (pv (n_in M) g (lik M ys) - t * pv (n_in M) g' (lik M ys))) with (fun ys => Gt (lik M ys)).
  rewrite Hsplit.
  assert (HP2 : rsum (map (fun ys => p g (lik M ys)) (seqs (n_out M) K)) <= 1) by exact HP. lra.
Qed.

End Bounds.
