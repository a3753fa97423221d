(** * The same database released K times, by classes of output sequences

    The same-database K-fold CW mechanism [fmech_cw (fmech_power M K) f f'] has m^K
    outputs, the sequences [ys] of K outputs of [M].  Its two rows depend on [ys] only
    through the likelihood vector (Pr[M^K(x) = ys])_x = Π_i M(x)(y_i), which depends only
    on the type of [ys] (how often each output occurs): the C(K+m-1, m-1) types, with
    their numbers of sequences, carry all the hockey-stick divergence.

    [run A D keep K] computes these classes without the product table: a list of states
    (v, N), v an integer likelihood vector over the common denominator D^K, N the number
    of sequences with that vector.  One step extends every sequence by every letter (y, w)
    (v ↦ v ⊙ A(·, y), N ↦ w·N), merges equal vectors (adding their numbers) and keeps the
    states [keep] selects; dropping states loses P-mass, which the bounds account for.

    Letters group the outputs: a block of w outputs whose columns agree on the inputs the
    two rows read (the priors' supports, [supp2]) is one letter (y, w), y one of them
    ([letters_ok], checked by [check_letters]).  The rows read a sequence only through its
    counts of blocks, so C(K+b-1, b-1) classes for b blocks suffice; every output its own
    letter ([letters_all]) is the plain type of the sequence.  For randomized response with
    priors on s inputs, the n − s outputs outside the supports are one block.

    [classes_le] (once for every K): for every non-negative function G of the likelihood
    vector that reads it only on the supports, the states' weighted sum Σ N·G(v / D^K) is at most the sum of G over the
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

(** Letters: one (y, w) per block of outputs with equal columns, y one of them and w how many. *)
Definition letter := (nat * positive)%type.

(** Every output its own letter. *)
Definition letters_all (m : nat) : list letter := map (fun y => (y, 1%positive)) (seq 0 m).

Section Classes.
Variables (n m : nat) (A : list (list Z)) (D : positive) (B : list letter).
(** The inputs the sums read (those of the priors' supports). *)
Variable sup : nat -> bool.

(** Extend by the letter (y, w): coordinate x multiplied by A(x, y) = D · Pr[M(x) = y], for
    each of the w outputs of the block. *)
Definition extend (y : nat) (w : positive) (s : state) : state :=
  (map (fun x => nth y (nth x A []) 0%Z * nth x (fst s) 0%Z)%Z (seq 0 n), (snd s * w)%positive).

Definition step (keep : nat -> state -> bool) (k : nat) (L : list state) : list state :=
  filter (keep (S k)) (fold_right merge [] (map (fun b => map (extend (fst b) (snd b)) L) B)).

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

(** G reads a vector only at the inputs [sup] among [0 .. n - 1]. *)
Definition on_inputs (G : (nat -> R) -> R) : Prop :=
  forall w1 w2, (forall x, (x < n)%nat -> sup x = true -> w1 x = w2 x) -> G w1 = G w2.

Variable M : fmech.
Hypothesis Hn : n_in M = n.
Hypothesis Hm : n_out M = m.
(** A(x, y) / D is Pr[M(x) = y]. *)
Hypothesis HA : forall x y, (x < n)%nat -> (y < m)%nat -> prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D).
(** The letters stand for the outputs: a sum over the outputs of anything that reads an
    output only through its column is the letters' sum weighted by their multiplicities. *)
Hypothesis HB : forall F : nat -> R,
  (forall y y', (y < m)%nat -> (y' < m)%nat -> (forall x, (x < n)%nat -> sup x = true -> prob M x y = prob M x y') ->
     F y = F y') ->
  rsum (map F (seq 0 m)) = rsum (map (fun b => IZR (Zpos (snd b)) * F (fst b)) B).
Hypothesis HBm : Forall (fun b => fst b < m)%nat B.

Lemma scale_extend (k y : nat) (w : positive) (s : state) (x : nat) :
  (x < n)%nat -> (y < m)%nat -> scale (S k) (fst (extend y w s)) x = prob M x y * scale k (fst s) x.
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
    { apply HG. intros x Hx _. unfold scale, lik. cbn [run_prob pow].
      rewrite nth_repeat_lt by exact Hx. rewrite q2r_1. field. }
    rewrite E. lra.
  - cbn [run seqs]. unfold step. eapply Rle_trans; [apply ssum_filter, HG0|].
    rewrite ssum_fold_merge, map_map, rsum_flat_map.
    set (Fy := fun y => rsum (map (fun ys => G (lik M ys)) (map (cons y) (seqs m k)))).
    change (rsum (map (fun y => rsum (map (fun ys => G (lik M ys)) (map (cons y) (seqs m k)))) (seq 0 m)))
      with (rsum (map Fy (seq 0 m))).
    rewrite HB.
    2:{ intros y y' _ _ Hyy. unfold Fy. rewrite !map_map. apply rsum_ext_in. intros ys _.
        apply HG. intros x Hx Hs. rewrite !lik_cons, Hyy by assumption. reflexivity. }
    apply rsum_le. intros [y w] Hb. cbn [fst snd]. rewrite Forall_forall in HBm. specialize (HBm _ Hb). cbn [fst] in HBm.
    set (G' := fun v : nat -> R => G (fun x => prob M x y * v x)).
    assert (E : ssum G (S k) (map (extend y w) (run keep k)) = IZR (Zpos w) * ssum G' k (run keep k)).
    { unfold ssum. rewrite map_map, <- rsum_scal. apply rsum_ext_in. intros s _. cbn [snd extend].
      rewrite Pos2Z.inj_mul, mult_IZR.
      replace (G (scale (S k) (fst (extend y w s)))) with (G' (scale k (fst s))); [ring|].
      unfold G'. apply HG. intros x Hx _. symmetry. apply scale_extend; assumption. }
    rewrite E. apply Rmult_le_compat_l; [apply IZR_le; lia|].
    eapply Rle_trans; [apply IH|].
    + intros w1 w2 Hw. unfold G'. apply HG. intros x Hx Hs. rewrite Hw by assumption. reflexivity.
    + intros v. apply HG0.
    + right. unfold Fy. rewrite map_map. apply rsum_ext_in. intros ys _. unfold G'. apply HG. intros x _ _.
      symmetry. apply lik_cons.
Qed.

End Classes.

(** The letters [B] stand for the outputs of [M] as read at the inputs [sup] (the hypotheses
    [HB], [HBm] of [classes_le]). *)
Definition letters_ok (M : fmech) (sup : nat -> bool) (B : list letter) : Prop :=
  (forall F : nat -> R,
    (forall y y', (y < n_out M)%nat -> (y' < n_out M)%nat ->
       (forall x, (x < n_in M)%nat -> sup x = true -> prob M x y = prob M x y') -> F y = F y') ->
    rsum (map F (seq 0 (n_out M))) = rsum (map (fun b => IZR (Zpos (snd b)) * F (fst b)) B)) /\
  Forall (fun b => fst b < n_out M)%nat B.

(** Every output its own letter: always. *)
Lemma letters_all_ok (M : fmech) (sup : nat -> bool) : letters_ok M sup (letters_all (n_out M)).
Proof.
  split.
  - intros F _. unfold letters_all. rewrite map_map. apply rsum_ext_in. intros y _. cbn [fst snd]. ring.
  - unfold letters_all. apply Forall_forall. intros b Hb. apply in_map_iff in Hb as [y [<- Hy]].
    apply in_seq in Hy. cbn [fst]. lia.
Qed.

(** The inputs in the support of [f] or [f']: the only ones the two rows read. *)
Definition supp2 (f f' : list Q) (x : nat) : bool :=
  negb (Qeq_bool (nth x f 0%Q) 0 && Qeq_bool (nth x f' 0%Q) 0).

Lemma pv_ext_supp (n : nat) (f f' : list Q) (i : nat) (w1 w2 : nat -> R) :
  (forall x, (x < n)%nat -> supp2 f f' x = true -> w1 x = w2 x) ->
  pv n (cw_weights f f' i) w1 = pv n (cw_weights f f' i) w2.
Proof.
  intros H. unfold pv. apply rsum_ext_in. intros x Hx. apply in_seq in Hx as [_ Hx].
  destruct (supp2 f f' x) eqn:E; [rewrite H by assumption; reflexivity|].
  unfold supp2 in E. apply negb_false_iff in E. rewrite andb_true_iff in E. destruct E as [E1 E2].
  apply Qeq_bool_eq, Qeq_eqR in E1, E2. rewrite q2r_0 in E1, E2.
  assert (E : wt (cw_weights f f' i) x = 0) by (unfold wt; destruct i; cbn [cw_weights]; assumption).
  rewrite E. ring.
Qed.

(** ** Bounds on the hockey-stick divergence from the classes *)

Section Bounds.
Variables (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive) (B : list letter).
Variable keep : nat -> state -> bool.
Hypothesis W : fmech_wf M.
Hypothesis HM : subdistr M.
Hypothesis Hf : prior (n_in M) f.
Hypothesis Hf' : prior (n_in M) f'.
Hypothesis HA : forall x y, (x < n_in M)%nat -> (y < n_out M)%nat ->
  prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D).
Hypothesis HB : letters_ok M (supp2 f f') B.

Let L := run (n_in M) A B keep K.
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

Lemma on_inputs_pv (i' j' : nat) (t : R) :
  on_inputs (n_in M) (supp2 f f')
    (fun w => Rmax 0 (pv (n_in M) (cw_weights f f' i') w - t * pv (n_in M) (cw_weights f f' j') w)).
Proof. intros w1 w2 Hw. rewrite (pv_ext_supp _ f f' i' w1 w2 Hw), (pv_ext_supp _ f f' j' w1 w2 Hw). reflexivity. Qed.

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
  apply classes_le with (M := M) (sup := supp2 f f'); try reflexivity; try assumption; try exact (proj1 HB); try exact (proj2 HB).
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
  { apply classes_le with (M := M) (sup := supp2 f f'); try reflexivity; try assumption; try exact (proj1 HB); try exact (proj2 HB).
    - intros w1 w2 Hw. unfold H, Gt, p, g, g'. rewrite (pv_ext_supp _ f f' i w1 w2 Hw), (pv_ext_supp _ f f' j w1 w2 Hw).
      reflexivity.
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

(** ** Integer evaluation *)

(** Σ_x u(x) · v(x) over the inputs [0 .. n - 1]. *)
Definition zdot (n : nat) (u v : list Z) : Z :=
  fold_right Z.add 0%Z (map (fun x => nth x u 0 * nth x v 0)%Z (seq 0 n)).

(** Σ N · max(0, td · p − tn · q) and Σ N · p over the states, p and q with weights [u], [u']. *)
Definition hs_num (n : nat) (u u' : list Z) (tn td : Z) (L : list state) : Z :=
  fold_right Z.add 0%Z (map (fun s => Zpos (snd s) * Z.max 0 (td * zdot n u (fst s) - tn * zdot n u' (fst s)))%Z L).

Definition mass_num (n : nat) (u : list Z) (L : list state) : Z :=
  fold_right Z.add 0%Z (map (fun s => Zpos (snd s) * zdot n u (fst s))%Z L).

(** The table is A / D entry by entry. *)
Definition check_table (M : fmech) (A : list (list Z)) (D : positive) : bool :=
  forallb (fun x => forallb (fun y => Qeq_bool (entry M x y) (nth y (nth x A []) 0%Z # D))
                            (seq 0 (n_out M))) (seq 0 (n_in M)).

(** The prior is u / F weight by weight. *)
Definition check_weights (n : nat) (g : list Q) (u : list Z) (F : positive) : bool :=
  forallb (fun x => Qeq_bool (nth x g 0%Q) (nth x u 0%Z # F)) (seq 0 n).

Lemma table_of_check (M : fmech) (A : list (list Z)) (D : positive) :
  check_table M A D = true -> forall x y, (x < n_in M)%nat -> (y < n_out M)%nat ->
  prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D).
Proof.
  unfold check_table. rewrite forallb_forall. intros H x y Hx Hy.
  specialize (H x ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H y ltac:(apply in_seq; lia)). apply Qeq_bool_eq, Qeq_eqR in H.
  unfold prob. rewrite H. unfold Q2R. reflexivity.
Qed.

Lemma weights_of_check (n : nat) (g : list Q) (u : list Z) (F : positive) :
  check_weights n g u F = true -> forall x, (x < n)%nat -> wt g x = IZR (nth x u 0%Z) / IZR (Zpos F).
Proof.
  unfold check_weights. rewrite forallb_forall. intros H x Hx.
  specialize (H x ltac:(apply in_seq; lia)). apply Qeq_bool_eq, Qeq_eqR in H.
  unfold wt. rewrite H. unfold Q2R. reflexivity.
Qed.

Lemma fold_zadd_rsum {B} (h : B -> Z) (l : list B) :
  IZR (fold_right Z.add 0%Z (map h l)) = rsum (map (fun b => IZR (h b)) l).
Proof. induction l as [|b l IH]; [reflexivity|]. cbn [map fold_right]. rewrite plus_IZR, IH, rsum_cons. reflexivity. Qed.

Section Eval.
Variables (n : nat) (g : list Q) (u : list Z) (F D : positive).
Hypothesis Hu : forall x, (x < n)%nat -> wt g x = IZR (nth x u 0%Z) / IZR (Zpos F).

Lemma pv_scale (k : nat) (v : list Z) :
  pv n g (scale D k v) = IZR (zdot n u v) / (IZR (Zpos F) * IZR (Zpos D) ^ k).
Proof.
  unfold pv, zdot. rewrite fold_zadd_rsum.
  assert (HF : 0 < IZR (Zpos F)) by (apply IZR_lt; lia).
  assert (HD : 0 < IZR (Zpos D) ^ k) by (apply pow_lt, IZR_lt; lia).
  unfold Rdiv. rewrite Rmult_comm, <- rsum_scal. apply rsum_ext_in. intros x Hx. apply in_seq in Hx.
  rewrite Hu by lia. unfold scale. rewrite mult_IZR. field. lra.
Qed.
End Eval.

Section EvalPair.
Variables (n : nat) (g g' : list Q) (u u' : list Z) (F D : positive) (t : Q).
Hypothesis Hu : forall x, (x < n)%nat -> wt g x = IZR (nth x u 0%Z) / IZR (Zpos F).
Hypothesis Hu' : forall x, (x < n)%nat -> wt g' x = IZR (nth x u' 0%Z) / IZR (Zpos F).

Lemma ssum_mass (k : nat) (L : list state) :
  ssum D (pv n g) k L = IZR (mass_num n u L) / (IZR (Zpos F) * IZR (Zpos D) ^ k).
Proof.
  unfold ssum, mass_num. rewrite fold_zadd_rsum. unfold Rdiv. rewrite Rmult_comm, <- rsum_scal.
  apply rsum_ext_in. intros s _. rewrite (pv_scale n g u F D Hu), mult_IZR. unfold Rdiv. ring.
Qed.

Lemma ssum_hs (k : nat) (L : list state) :
  ssum D (fun w => Rmax 0 (pv n g w - Q2R t * pv n g' w)) k L =
  IZR (hs_num n u u' (Qnum t) (Zpos (Qden t)) L) / (IZR (Zpos (Qden t)) * IZR (Zpos F) * IZR (Zpos D) ^ k).
Proof.
  unfold ssum, hs_num. rewrite fold_zadd_rsum. unfold Rdiv. rewrite Rmult_comm, <- rsum_scal.
  apply rsum_ext_in. intros s _. rewrite (pv_scale n g u F D Hu), (pv_scale n g' u' F D Hu'), mult_IZR.
  assert (HF : 0 < IZR (Zpos F)) by (apply IZR_lt; lia).
  assert (HD : 0 < IZR (Zpos D) ^ k) by (apply pow_lt, IZR_lt; lia).
  assert (Ht : 0 < IZR (Zpos (Qden t))) by (apply IZR_lt; lia).
  set (c := IZR (Zpos (Qden t)) * IZR (Zpos F) * IZR (Zpos D) ^ k).
  assert (Hc : 0 < c) by (unfold c; apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra).
  assert (E : IZR (zdot n u (fst s)) / (IZR (Zpos F) * IZR (Zpos D) ^ k) -
              Q2R t * (IZR (zdot n u' (fst s)) / (IZR (Zpos F) * IZR (Zpos D) ^ k)) =
              IZR (Zpos (Qden t) * zdot n u (fst s) - Qnum t * zdot n u' (fst s)) / c).
  { unfold c, Q2R. rewrite minus_IZR, !mult_IZR. field. repeat split; lra. }
  rewrite E. unfold Rdiv at 1. rewrite <- (Rmult_0_l (/ c)).
  destruct (Z.max_spec 0 (Zpos (Qden t) * zdot n u (fst s) - Qnum t * zdot n u' (fst s))) as [[Hlt ->]|[Hle ->]].
  - rewrite Rmax_right; [unfold Rdiv; ring|]. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, Hc|].
    apply IZR_le. lia.
  - rewrite Rmax_left; [unfold Rdiv; ring|]. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, Hc|].
    apply IZR_le. lia.
Qed.
End EvalPair.

(** ** The letters from their check *)

(** The letters [B] group the outputs into blocks of equal columns of [A]: output y is in the
    block [nth y blk], whose letter's column is y's and whose multiplicity counts its outputs. *)
Definition check_letters (n m : nat) (A : list (list Z)) (sup : nat -> bool) (B : list letter) (blk : list nat) : bool :=
  forallb (fun y => let j := nth y blk 0%nat in
             (j <? length B)%nat &&
             forallb (fun x => negb (sup x) ||
                               Z.eqb (nth y (nth x A []) 0%Z) (nth (fst (nth j B (0%nat, 1%positive))) (nth x A []) 0%Z))
                     (seq 0 n))
          (seq 0 m) &&
  forallb (fun j => let b := nth j B (0%nat, 1%positive) in
             (fst b <? m)%nat && Z.eqb (Zpos (snd b)) (Z.of_nat (length (filter (fun y => nth y blk 0 =? j)%nat (seq 0 m)))))
          (seq 0 (length B)).

Lemma rsum_filter_if {B'} (p : B' -> bool) (h : B' -> R) (l : list B') :
  rsum (map h (filter p l)) = rsum (map (fun y => if p y then h y else 0) l).
Proof.
  induction l as [|y l IH]; [reflexivity|]. cbn [filter map]. destruct (p y); rewrite ?rsum_cons, <- IH; [reflexivity|ring].
Qed.

Lemma rsum_const {B'} (c : R) (l : list B') : rsum (map (fun _ => c) l) = INR (length l) * c.
Proof. induction l as [|y l IH]; cbn [map length]; [rewrite rsum_nil; cbn [INR]; ring|]. rewrite rsum_cons, IH, S_INR. ring. Qed.

Lemma map_as_nth {B' C} (h : B' -> C) (d : B') (l : list B') :
  map h l = map (fun j => h (nth j l d)) (seq 0 (length l)).
Proof.
  induction l as [|b l IH]; [reflexivity|]. cbn [length seq map nth]. f_equal.
  rewrite IH, <- seq_shift, map_map. reflexivity.
Qed.

Lemma letters_of_check (M : fmech) (A : list (list Z)) (D : positive) (sup : nat -> bool) (B : list letter)
    (blk : list nat) :
  (forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D)) ->
  check_letters (n_in M) (n_out M) A sup B blk = true -> letters_ok M sup B.
Proof.
  intros HA Hc. unfold check_letters in Hc. rewrite andb_true_iff, !forallb_forall in Hc. destruct Hc as [Hy Hj].
  set (d := (0%nat, 1%positive) : letter).
  assert (Hjb : forall j, (j < length B)%nat -> (fst (nth j B d) < n_out M)%nat /\
            Zpos (snd (nth j B d)) = Z.of_nat (length (filter (fun y => nth y blk 0%nat =? j)%nat (seq 0 (n_out M))))).
  { intros j Hjl. specialize (Hj j ltac:(apply in_seq; lia)). cbv zeta in Hj. rewrite andb_true_iff in Hj.
    destruct Hj as [H1 H2]. split; [apply Nat.ltb_lt, H1|apply Z.eqb_eq, H2]. }
  assert (Hyb : forall y, (y < n_out M)%nat -> (nth y blk 0%nat < length B)%nat /\
            forall x, (x < n_in M)%nat -> sup x = true -> prob M x y = prob M x (fst (nth (nth y blk 0%nat) B d))).
  { intros y Hyl. specialize (Hy y ltac:(apply in_seq; lia)). cbv zeta in Hy. rewrite andb_true_iff, forallb_forall in Hy.
    destruct Hy as [H1 H2]. split; [apply Nat.ltb_lt, H1|]. intros x Hx Hs.
    destruct (Hjb _ (proj1 (Nat.ltb_lt _ _) H1)) as [Hr _].
    rewrite !HA by assumption. specialize (H2 x ltac:(apply in_seq; lia)). rewrite Hs in H2. apply Z.eqb_eq in H2. rewrite H2. reflexivity. }
  split.
  - intros F HF. rewrite (map_as_nth _ d B).
    transitivity (rsum (map (fun j => rsum (map (fun y => if (nth y blk 0%nat =? j)%nat then F y else 0) (seq 0 (n_out M))))
                            (seq 0 (length B)))).
    + rewrite rsum_swap. apply rsum_ext_in. intros y Hy'. apply in_seq in Hy' as [_ Hy'].
      destruct (Hyb y Hy') as [Hlt _].
      rewrite (rsum_single Nat.eq_dec _ _ (nth y blk 0%nat)).
      * rewrite Nat.eqb_refl. reflexivity.
      * apply seq_NoDup.
      * apply in_seq. lia.
      * intros j Hne. destruct (Nat.eqb_spec (nth y blk 0%nat) j); [congruence|reflexivity].
    + apply rsum_ext_in. intros j Hj'. apply in_seq in Hj' as [_ Hj'].
      destruct (Hjb j Hj') as [Hr Hw]. rewrite Hw, <- INR_IZR_INZ, <- rsum_const, <- rsum_filter_if.
      apply rsum_ext_in. intros y Hyf. apply filter_In in Hyf as [Hyin Heq]. apply in_seq in Hyin as [_ Hyl].
      apply Nat.eqb_eq in Heq. destruct (Hyb y Hyl) as [_ Hcol]. rewrite Heq in Hcol.
      apply HF; assumption.
  - apply Forall_forall. intros b Hb. apply (In_nth B b d) in Hb as [j [Hjl <-]]. apply Hjb, Hjl.
Qed.

(** ** The checks and what they prove *)

Lemma hs_anti (T : fmech) (x x' : nat) (t1 t2 : R) :
  (forall y, (y < n_out T)%nat -> 0 <= prob T x' y) -> t1 <= t2 -> hs T x x' t2 <= hs T x x' t1.
Proof.
  intros Hq Ht. unfold hs. apply rsum_le. intros y Hy. apply in_seq in Hy as [_ Hy].
  pose proof (Hq y Hy). apply Rle_max_compat_l. nra.
Qed.

(** One ordered pair of rows: with c = F · D^K, U = [hs_num], P = [mass_num],
    [fst]: hs(t) ≤ (U / td + c − P) / c ≤ δ; [snd]: hs(t) ≥ U / (td · c) > δ. *)
Definition pair_check (n : nat) (u u' : list Z) (F D : positive) (K : nat) (t delta : Q) (L : list state) : bool * bool :=
  let c := (Zpos F * Zpos D ^ Z.of_nat K)%Z in
  let U := hs_num n u u' (Qnum t) (Zpos (Qden t)) L in
  let P := mass_num n u L in
  ((Zpos (Qden delta) * (U + Zpos (Qden t) * (c - P)) <=? Qnum delta * Zpos (Qden t) * c)%Z,
   (Qnum delta * Zpos (Qden t) * c <? Zpos (Qden delta) * U)%Z).

(** What both checks need: the table and the priors, their integer forms, and the letters. *)
Definition check_stream_input (M : fmech) (f f' : list Q) (A : list (list Z)) (D : positive)
    (B : list letter) (blk : list nat) (u u' : list Z) (F : positive) : bool :=
  check_distr M && check_prior (n_in M) f && check_prior (n_in M) f' && check_table M A D &&
  check_letters (n_in M) (n_out M) A (supp2 f f') B blk &&
  check_weights (n_in M) f u F && check_weights (n_in M) f' u' F.

(** (ε, δ)-CW-privacy of K runs on the same database, both orders, at 1 ≤ t ≤ e^ε. *)
Definition check_stream_dp (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive)
    (B : list letter) (blk : list nat) (u u' : list Z) (F : positive) (keep : nat -> state -> bool) (t delta : Q) : bool :=
  check_stream_input M f f' A D B blk u u' F && Qle_bool 1 t && Qle_bool 0 delta &&
  let L := run (n_in M) A B keep K in
  fst (pair_check (n_in M) u u' F D K t delta L) && fst (pair_check (n_in M) u' u F D K t delta L).

(** Not (ε, δ): the pair of rows ([dir] = 0: database then scrubbed; 1: the other order)
    has hs(t) > δ at t ≥ e^ε. *)
Definition check_stream_refute (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive)
    (B : list letter) (blk : list nat) (u u' : list Z) (F : positive) (keep : nat -> state -> bool) (t delta : Q)
    (dir : bool) : bool :=
  check_stream_input M f f' A D B blk u u' F && Qle_bool 0 t &&
  let L := run (n_in M) A B keep K in
  if dir then snd (pair_check (n_in M) u' u F D K t delta L) else snd (pair_check (n_in M) u u' F D K t delta L).

Section Theorems.
Variables (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive) (B : list letter) (blk : list nat)
  (u u' : list Z) (F : positive).
Variable keep : nat -> state -> bool.
Hypothesis Hin : check_stream_input M f f' A D B blk u u' F = true.

Let T := fmech_cw (fmech_power M K) f f'.
Let L := run (n_in M) A B keep K.

Lemma input_facts :
  fmech_wf M /\ subdistr M /\ prior (n_in M) f /\ prior (n_in M) f' /\
  (forall x y, (x < n_in M)%nat -> (y < n_out M)%nat -> prob M x y = IZR (nth y (nth x A []) 0%Z) / IZR (Zpos D)) /\
  (forall x, (x < n_in M)%nat -> wt f x = IZR (nth x u 0%Z) / IZR (Zpos F)) /\
  (forall x, (x < n_in M)%nat -> wt f' x = IZR (nth x u' 0%Z) / IZR (Zpos F)).
Proof.
  unfold check_stream_input in Hin. rewrite !andb_true_iff in Hin.
  destruct Hin as [[[[[[H1 H2] H3] H4] _] H5] H6]. destruct (wf_of_check_distr M H1) as [W HM].
  refine (conj W (conj HM (conj (prior_of_check _ _ H2) (conj (prior_of_check _ _ H3)
    (conj (table_of_check M A D H4) (conj (weights_of_check _ f u F H5) (weights_of_check _ f' u' F H6))))))).
Qed.

Lemma input_letters : letters_ok M (supp2 f f') B.
Proof.
  unfold check_stream_input in Hin. rewrite !andb_true_iff in Hin.
  destruct Hin as [[[[[[_ _] _] H4] H] _] _].
  apply (letters_of_check M A D _ B blk (table_of_check M A D H4) H).
Qed.

Lemma t_subdistr : subdistr T.
Proof.
  destruct input_facts as (W & HM & Hf & Hf' & _).
  apply cw_subdistr; [apply power_wf', W|apply power_subdistr; assumption|apply prior_power, Hf|apply prior_power, Hf'].
Qed.

(** The integer bound of one ordered pair of rows, as a bound on hs. *)
Lemma pair_bounds (i j : nat) (ui uj : list Z) (t : Q) :
  (i < 2)%nat -> (j < 2)%nat ->
  (forall x, (x < n_in M)%nat -> wt (cw_weights f f' i) x = IZR (nth x ui 0%Z) / IZR (Zpos F)) ->
  (forall x, (x < n_in M)%nat -> wt (cw_weights f f' j) x = IZR (nth x uj 0%Z) / IZR (Zpos F)) ->
  0 <= Q2R t ->
  let c := (Zpos F * Zpos D ^ Z.of_nat K)%Z in
  IZR (hs_num (n_in M) ui uj (Qnum t) (Zpos (Qden t)) L) / (IZR (Zpos (Qden t)) * IZR c) <= hs T i j (Q2R t) /\
  hs T i j (Q2R t) <= IZR (hs_num (n_in M) ui uj (Qnum t) (Zpos (Qden t)) L) / (IZR (Zpos (Qden t)) * IZR c) +
                      1 - IZR (mass_num (n_in M) ui L) / IZR c.
Proof.
  intros Hi Hj Hui Huj Ht c.
  destruct input_facts as (W & HM & Hf & Hf' & HA & _).
  assert (Ec : IZR c = IZR (Zpos F) * IZR (Zpos D) ^ K) by (unfold c; rewrite mult_IZR, pow_IZR; reflexivity).
  rewrite Ec, <- Rmult_assoc.
  rewrite <- (ssum_hs (n_in M) _ _ ui uj F D t Hui Huj K L), <- (ssum_mass (n_in M) _ ui F D Hui K L).
  split.
  - apply (hs_stream_ge M f f' K A D B keep W Hf Hf' HA input_letters i j); assumption.
  - apply (hs_stream_le M f f' K A D B keep W HM Hf Hf' HA input_letters i j Hi Hj), Ht.
Qed.

Lemma pair_dp (i j : nat) (ui uj : list Z) (t delta : Q) (eps : R) :
  (i < 2)%nat -> (j < 2)%nat ->
  (forall x, (x < n_in M)%nat -> wt (cw_weights f f' i) x = IZR (nth x ui 0%Z) / IZR (Zpos F)) ->
  (forall x, (x < n_in M)%nat -> wt (cw_weights f f' j) x = IZR (nth x uj 0%Z) / IZR (Zpos F)) ->
  0 <= Q2R t -> Q2R t <= exp eps ->
  fst (pair_check (n_in M) ui uj F D K t delta L) = true ->
  forall S, pr T i S <= exp eps * pr T j S + Q2R delta.
Proof.
  intros Hi Hj Hui Huj Ht0 Ht Hc S.
  destruct (pair_bounds i j ui uj t Hi Hj Hui Huj Ht0) as [_ Hup].
  eapply Rle_trans; [apply pr_le_hs; [intros y Hy; apply (proj1 (t_subdistr j ltac:(cbn; lia))), Hy|apply exp_nonneg]|].
  apply Rplus_le_compat_l.
  eapply Rle_trans; [apply hs_anti; [intros y Hy; apply (proj1 (t_subdistr j ltac:(cbn; lia))), Hy|exact Ht]|].
  eapply Rle_trans; [exact Hup|]. clear Hup.
  unfold pair_check in Hc. cbn [fst] in Hc. apply Z.leb_le in Hc.
  set (c := (Zpos F * Zpos D ^ Z.of_nat K)%Z) in *.
  set (U := hs_num (n_in M) ui uj (Qnum t) (Zpos (Qden t)) L) in *.
  set (P := mass_num (n_in M) ui L) in *.
  apply IZR_le in Hc. rewrite !mult_IZR, plus_IZR, mult_IZR, minus_IZR in Hc.
  assert (Hc0 : 0 < IZR c) by (apply IZR_lt; unfold c; apply Z.mul_pos_pos; [lia|apply Z.pow_pos_nonneg; lia]).
  assert (Htd : 0 < IZR (Zpos (Qden t))) by (apply IZR_lt; lia).
  assert (Hdd : 0 < IZR (Zpos (Qden delta))) by (apply IZR_lt; lia).
  unfold Q2R. apply (Rmult_le_reg_r (IZR (Zpos (Qden delta)) * IZR (Zpos (Qden t)) * IZR c)).
  { apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; assumption. }
  replace ((IZR U / (IZR (Zpos (Qden t)) * IZR c) + 1 - IZR P / IZR c) *
           (IZR (Zpos (Qden delta)) * IZR (Zpos (Qden t)) * IZR c))
    with (IZR (Zpos (Qden delta)) * (IZR U + IZR (Zpos (Qden t)) * (IZR c - IZR P))) by (field; lra).
  replace (IZR (Qnum delta) * / IZR (Zpos (Qden delta)) * (IZR (Zpos (Qden delta)) * IZR (Zpos (Qden t)) * IZR c))
    with (IZR (Qnum delta) * IZR (Zpos (Qden t)) * IZR c) by (field; lra).
  exact Hc.
Qed.

Lemma pair_refute (i j : nat) (ui uj : list Z) (t delta : Q) (eps : R) :
  (i < 2)%nat -> (j < 2)%nat ->
  (forall x, (x < n_in M)%nat -> wt (cw_weights f f' i) x = IZR (nth x ui 0%Z) / IZR (Zpos F)) ->
  (forall x, (x < n_in M)%nat -> wt (cw_weights f f' j) x = IZR (nth x uj 0%Z) / IZR (Zpos F)) ->
  0 <= Q2R t -> exp eps <= Q2R t ->
  snd (pair_check (n_in M) ui uj F D K t delta L) = true ->
  exp eps * pr T j (loss_event T i j (exp eps)) + Q2R delta < pr T i (loss_event T i j (exp eps)).
Proof.
  intros Hi Hj Hui Huj Ht0 Ht Hc.
  destruct (pair_bounds i j ui uj t Hi Hj Hui Huj Ht0) as [Hlow _].
  rewrite pr_loss_event. apply Rplus_lt_compat_l.
  eapply Rlt_le_trans; [|apply hs_anti; [intros y Hy; apply (proj1 (t_subdistr j ltac:(cbn; lia))), Hy|exact Ht]].
  eapply Rlt_le_trans; [|exact Hlow].
  unfold pair_check in Hc. cbn [snd] in Hc. apply Z.ltb_lt, IZR_lt in Hc.
  set (c := (Zpos F * Zpos D ^ Z.of_nat K)%Z) in *.
  set (U := hs_num (n_in M) ui uj (Qnum t) (Zpos (Qden t)) L) in *.
  rewrite !mult_IZR in Hc.
  assert (Hc0 : 0 < IZR c) by (apply IZR_lt; unfold c; apply Z.mul_pos_pos; [lia|apply Z.pow_pos_nonneg; lia]).
  assert (Htd : 0 < IZR (Zpos (Qden t))) by (apply IZR_lt; lia).
  assert (Hdd : 0 < IZR (Zpos (Qden delta))) by (apply IZR_lt; lia).
  unfold Q2R. apply (Rmult_lt_reg_r (IZR (Zpos (Qden delta)) * IZR (Zpos (Qden t)) * IZR c)).
  { apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; assumption. }
  replace (IZR U / (IZR (Zpos (Qden t)) * IZR c) * (IZR (Zpos (Qden delta)) * IZR (Zpos (Qden t)) * IZR c))
    with (IZR (Zpos (Qden delta)) * IZR U) by (field; lra).
  replace (IZR (Qnum delta) * / IZR (Zpos (Qden delta)) * (IZR (Zpos (Qden delta)) * IZR (Zpos (Qden t)) * IZR c))
    with (IZR (Qnum delta) * IZR (Zpos (Qden t)) * IZR c) by (field; lra).
  exact Hc.
Qed.

End Theorems.

(** K runs of [M] on the same database are (ε, δ)-CW-private, checked on the classes. *)
Theorem cw_stream_dp_of_check (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive)
    (B : list letter) (blk : list nat) (u u' : list Z) (F : positive) (keep : nat -> state -> bool) (t delta : Q) (eps : R) :
  Q2R t <= exp eps ->
  check_stream_dp M f f' K A D B blk u u' F keep t delta = true ->
  cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht Hc. unfold check_stream_dp in Hc. cbv zeta in Hc. rewrite !andb_true_iff in Hc.
  destruct Hc as [[[Hin Ht1] Hd0] [H01 H10]].
  apply Qle_bool_imp_le, Qle_Rle in Ht1, Hd0. rewrite q2r_1 in Ht1. rewrite q2r_0 in Hd0.
  assert (Ht0 : 0 <= Q2R t) by lra. assert (He1 : 1 <= exp eps) by lra.
  destruct (input_facts M f f' A D B blk u u' F Hin) as (_ & _ & _ & _ & _ & Hu & Hu').
  intros i j Hi Hj _ S. cbn [fmech_cw n_in] in Hi, Hj.
  destruct i as [|[|]], j as [|[|]]; try lia.
  - pose proof (pr_nonneg _ 0%nat S (proj1 (t_subdistr M f f' K A D B blk u u' F Hin 0%nat ltac:(cbn; lia)))).
    nra.
  - apply (pair_dp M f f' K A D B blk u u' F keep Hin 0 1 u u' t delta eps); auto.
  - apply (pair_dp M f f' K A D B blk u u' F keep Hin 1 0 u' u t delta eps); auto.
  - pose proof (pr_nonneg _ 1%nat S (proj1 (t_subdistr M f f' K A D B blk u u' F Hin 1%nat ltac:(cbn; lia)))).
    nra.
Qed.

(** K runs of [M] on the same database are not (ε, δ)-CW-private, checked on the classes:
    the loss event of the two rows at e^ε is the witness. *)
Theorem cw_stream_not_dp_of_check (M : fmech) (f f' : list Q) (K : nat) (A : list (list Z)) (D : positive)
    (B : list letter) (blk : list nat) (u u' : list Z) (F : positive) (keep : nat -> state -> bool) (t delta : Q) (dir : bool) (eps : R) :
  exp eps <= Q2R t ->
  check_stream_refute M f f' K A D B blk u u' F keep t delta dir = true ->
  ~ cw_dp (fmech_power M K) f f' eps (Q2R delta).
Proof.
  intros Ht Hc Hdp. unfold check_stream_refute in Hc. cbv zeta in Hc. rewrite !andb_true_iff in Hc.
  destruct Hc as [[Hin Ht0] Hc]. apply Qle_bool_imp_le, Qle_Rle in Ht0. rewrite q2r_0 in Ht0.
  destruct (input_facts M f f' A D B blk u u' F Hin) as (_ & _ & _ & _ & _ & Hu & Hu').
  destruct dir.
  - pose proof (pair_refute M f f' K A D B blk u u' F keep Hin 1 0 u' u t delta eps ltac:(lia) ltac:(lia) Hu' Hu Ht0 Ht Hc) as H.
    specialize (Hdp 1%nat 0%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl (loss_event (fmech_cw (fmech_power M K) f f') 1 0 (exp eps))). lra.
  - pose proof (pair_refute M f f' K A D B blk u u' F keep Hin 0 1 u u' t delta eps ltac:(lia) ltac:(lia) Hu Hu' Ht0 Ht Hc) as H.
    specialize (Hdp 0%nat 1%nat ltac:(cbn; lia) ltac:(cbn; lia) eq_refl (loss_event (fmech_cw (fmech_power M K) f f') 0 1 (exp eps))). lra.
Qed.
