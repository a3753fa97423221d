(** * The same database released K times, summed by counts of outputs in blocks

    For randomized response (Pr[y = x] = lo·r, every other output lo) and a coefficient
    vector c whose support lies in two pairs of inputs {x0, x1} and {x2, x3} (a prior on one
    pair against t times an alternative on the other), [gk K c] (CWCoef.v) depends on a
    sequence of K outputs only through its counts n0, n1, n2, n3 of the four inputs, and

      gk K c = lo^K · Σ_{s ≤ K} C(K, s)·(m − 4)^(K − s) · Σ_{a + b = s} C(s, a)
                     · Σ_{n0 + n1 = a} C(a, n0) · Σ_{n2 + n3 = b} C(b, n2)
                     · max(0, c(x0)·r^n0 + c(x1)·r^n1 + c(x2)·r^n2 + c(x3)·r^n3)

    ([gk_blocks]): C(K, s)·C(s, a) = K!/(a!·b!·(K − s)!) is the multinomial weight of the
    block counts (a outputs in the first pair, b in the second, K − s elsewhere).  The proof
    is one lemma about walks, once for any alphabet: a sum over the K-step walks of commuting
    moves splits, for an alphabet cut in two, into a binomial sum over how many steps each
    part takes ([walk_app]); applied three times to the blocks and the pairs.  [pair_sum]
    is the binomial sum Σ_{n + j = a} C(a, n)·h(n, j); [pair_sum_pow] is the binomial theorem
    (a group all of whose terms are non-negative sums whole to a closed form). *)
From Coq Require Import List Permutation QArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism Compose CW PLD CWStream TypeClass CWCoef.
Import ListNotations.

Local Open Scope R_scope.

(** ** Binomial sums *)

(** C(n, k) by Pascal's rule. *)
Fixpoint binom (n k : nat) : nat :=
  match n, k with
  | _, O => 1%nat
  | O, S _ => 0%nat
  | S n', S k' => (binom n' k' + binom n' k)%nat
  end.

Lemma binom_zero_r (n : nat) : binom n 0 = 1%nat.
Proof. destruct n; reflexivity. Qed.

Lemma binom_above (n k : nat) : (n < k)%nat -> binom n k = 0%nat.
Proof.
  revert k. induction n as [|n IH]; intros [|k] Hk; cbn [binom]; try lia.
  rewrite !IH by lia. reflexivity.
Qed.

(** Σ_{n + j = a} C(a, n)·h(n, j). *)
Definition pair_sum (a : nat) (h : nat -> nat -> R) : R :=
  rsum (map (fun n => INR (binom a n) * h n (a - n)%nat) (seq 0 (S a))).

Lemma pair_sum_ext (a : nat) (h h' : nat -> nat -> R) :
  (forall n j, (n + j = a)%nat -> h n j = h' n j) -> pair_sum a h = pair_sum a h'.
Proof.
  intros H. unfold pair_sum. apply rsum_ext_in. intros n Hn. apply in_seq in Hn. rewrite H by lia. reflexivity.
Qed.

Lemma pair_sum_zero (h : nat -> nat -> R) : pair_sum 0 h = h 0%nat 0%nat.
Proof. unfold pair_sum. cbn [seq map binom INR Nat.sub]. rewrite rsum_cons, rsum_nil. ring. Qed.

Lemma rsum_seq_head (g : nat -> R) (n : nat) :
  rsum (map g (seq 0 (S n))) = g 0%nat + rsum (map (fun i => g (S i)) (seq 0 n)).
Proof. cbn [seq map]. rewrite rsum_cons, <- seq_shift, map_map. reflexivity. Qed.

Lemma rsum_seq_last (g : nat -> R) (n : nat) :
  rsum (map g (seq 0 (S n))) = rsum (map g (seq 0 n)) + g n.
Proof. rewrite seq_S, map_app, rsum_app. cbn [map Nat.add]. rewrite rsum_cons, rsum_nil. ring. Qed.

(** Pascal's rule: one more step goes to either side. *)
Lemma pair_sum_succ (k : nat) (h : nat -> nat -> R) :
  pair_sum (S k) h = pair_sum k (fun n j => h (S n) j) + pair_sum k (fun n j => h n (S j)).
Proof.
  set (U := rsum (map (fun n => INR (binom k n) * h (S n) (k - n)%nat) (seq 0 (S k)))).
  set (W := rsum (map (fun n => INR (binom k (S n)) * h (S n) (k - n)%nat) (seq 0 k))).
  assert (E1 : pair_sum k (fun n j => h n (S j)) = h 0%nat (S k) + W).
  { unfold pair_sum. rewrite rsum_seq_head, binom_zero_r. unfold W. cbn [INR]. rewrite Nat.sub_0_r, Rmult_1_l. f_equal.
    apply rsum_ext_in. intros n Hn. apply in_seq in Hn. replace (S (k - S n)) with (k - n)%nat by lia. reflexivity. }
  assert (E2 : pair_sum (S k) h =
               h 0%nat (S k) + U + rsum (map (fun n => INR (binom k (S n)) * h (S n) (k - n)%nat) (seq 0 (S k)))).
  { unfold pair_sum. rewrite rsum_seq_head. cbn [binom INR Nat.sub]. unfold U. rewrite Rplus_assoc, <- rsum_plus. f_equal; [ring|]. apply rsum_ext_in. intros n _. rewrite plus_INR. ring. }
  rewrite E1, E2, rsum_seq_last, (binom_above k (S k)) by lia. unfold pair_sum. fold U. cbn [INR]. fold W. ring.
Qed.

Lemma pair_sum_scal (a : nat) (u : R) (h : nat -> nat -> R) :
  pair_sum a (fun n j => u * h n j) = u * pair_sum a h.
Proof. unfold pair_sum. rewrite <- rsum_scal. apply rsum_ext_in. intros n _. ring. Qed.

Lemma pair_sum_plus (a : nat) (h h' : nat -> nat -> R) :
  pair_sum a (fun n j => h n j + h' n j) = pair_sum a h + pair_sum a h'.
Proof. unfold pair_sum. rewrite <- rsum_plus. apply rsum_ext_in. intros n _. ring. Qed.

(** A double sum in either order (over lists of two types). *)
Lemma rsum_comm {A B} (f : A -> B -> R) (l1 : list A) (l2 : list B) :
  rsum (map (fun a => rsum (map (fun b => f a b) l2)) l1) = rsum (map (fun b => rsum (map (fun a => f a b) l1)) l2).
Proof.
  induction l1 as [|a l1 IH]; cbn [map].
  - rewrite rsum_nil. symmetry. apply rsum_zero. intros; apply rsum_nil.
  - rewrite rsum_cons, IH, <- rsum_plus. apply rsum_ext_in. intros b _. rewrite rsum_cons. reflexivity.
Qed.

Lemma pair_sum_rsum {B} (a : nat) (F : B -> nat -> nat -> R) (l : list B) :
  rsum (map (fun y => pair_sum a (F y)) l) = pair_sum a (fun n j => rsum (map (fun y => F y n j) l)).
Proof.
  unfold pair_sum. rewrite (rsum_comm (fun y n => INR (binom a n) * F y n (a - n)%nat)).
  apply rsum_ext_in. intros n _. rewrite rsum_scal. reflexivity.
Qed.

(** The binomial theorem: Σ_{n + j = a} C(a, n)·u^n·v^j = (u + v)^a. *)
Theorem pair_sum_pow (a : nat) (u v : R) : pair_sum a (fun n j => u ^ n * v ^ j) = (u + v) ^ a.
Proof.
  induction a as [|a IH]; [rewrite pair_sum_zero; cbn [pow]; ring|].
  rewrite pair_sum_succ.
  rewrite (pair_sum_ext a _ (fun n j => u * (u ^ n * v ^ j))) by (intros; cbn [pow]; ring).
  rewrite (pair_sum_ext a (fun n j => u ^ n * v ^ S j) (fun n j => v * (u ^ n * v ^ j))) by (intros; cbn [pow]; ring).
  rewrite !pair_sum_scal, IH. cbn [pow]. ring.
Qed.

Lemma pair_sum_const (a : nat) (u : R) : pair_sum a (fun _ _ => u) = 2 ^ a * u.
Proof.
  replace (2 ^ a) with ((1 + 1) ^ a) by (f_equal; ring).
  rewrite <- (pair_sum_pow a 1 1), Rmult_comm, <- pair_sum_scal. apply pair_sum_ext. intros. rewrite !pow1. ring.
Qed.

Lemma pair_sum_le (a : nat) (h h' : nat -> nat -> R) :
  (forall n j, (n + j = a)%nat -> h n j <= h' n j) -> pair_sum a h <= pair_sum a h'.
Proof.
  intros H. unfold pair_sum. apply rsum_le. intros n Hn. apply in_seq in Hn.
  apply Rmult_le_compat_l; [apply pos_INR|apply H; lia].
Qed.

(** A group none of whose terms is positive adds nothing; one none of whose terms is
    negative adds its plain sum. *)
Lemma pair_sum_dead (a : nat) (g : nat -> nat -> R) :
  (forall n j, (n + j = a)%nat -> g n j <= 0) -> pair_sum a (fun n j => Rmax 0 (g n j)) = 0.
Proof.
  intros H. transitivity (pair_sum a (fun _ _ => 0)).
  - apply pair_sum_ext. intros n j E. apply Rmax_left, H, E.
  - rewrite pair_sum_const. ring.
Qed.

Lemma pair_sum_sure (a : nat) (g : nat -> nat -> R) :
  (forall n j, (n + j = a)%nat -> 0 <= g n j) -> pair_sum a (fun n j => Rmax 0 (g n j)) = pair_sum a g.
Proof. intros H. apply pair_sum_ext. intros n j E. apply Rmax_right, H, E. Qed.

(** Σ_{n + j = a} C(a, n)·(u·r^n + v·r^j) = (u + v)·(1 + r)^a. *)
Lemma pair_sum_two_pow (a : nat) (u v r : R) :
  pair_sum a (fun n j => u * r ^ n + v * r ^ j) = (u + v) * (1 + r) ^ a.
Proof.
  rewrite (pair_sum_ext a _ (fun n j => u * (r ^ n * 1 ^ j) + v * (1 ^ n * r ^ j))) by (intros; rewrite !pow1; ring).
  rewrite pair_sum_plus, !pair_sum_scal, !pair_sum_pow. rewrite (Rplus_comm r 1). ring.
Qed.

(** A block of counts (a, b) all of whose terms are non-negative, summed whole. *)
Lemma pair_sum_group (a b : nat) (r c0 c1 c2 c3 : R) :
  pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 => c0 * r ^ n0 + c1 * r ^ n1 + c2 * r ^ n2 + c3 * r ^ n3)) =
  2 ^ b * ((c0 + c1) * (1 + r) ^ a) + 2 ^ a * ((c2 + c3) * (1 + r) ^ b).
Proof.
  rewrite (pair_sum_ext a _ (fun n0 n1 => 2 ^ b * (c0 * r ^ n0 + c1 * r ^ n1) + (c2 + c3) * (1 + r) ^ b)).
  - rewrite pair_sum_plus, pair_sum_scal, pair_sum_two_pow, pair_sum_const. ring.
  - intros n0 n1 _. rewrite (pair_sum_ext b _ (fun n2 n3 => (c0 * r ^ n0 + c1 * r ^ n1) + (c2 * r ^ n2 + c3 * r ^ n3)))
      by (intros; ring).
    rewrite pair_sum_plus, pair_sum_const, pair_sum_two_pow. ring.
Qed.

(** ** Walks of commuting moves *)

Section Walk.
Variable T : Type.
Variable mv : nat -> T -> T.
Hypothesis Hcomm : forall y z s, mv y (mv z s) = mv z (mv y s).

(** Σ over the k-step walks from s with moves in Y of V at the end. *)
Fixpoint walk (Y : list nat) (k : nat) (V : T -> R) (s : T) : R :=
  match k with
  | O => V s
  | S k' => rsum (map (fun y => walk Y k' V (mv y s)) Y)
  end.

Lemma walk_ext (Y : list nat) (k : nat) (V V' : T -> R) :
  (forall s, V s = V' s) -> forall s, walk Y k V s = walk Y k V' s.
Proof.
  intros H. induction k as [|k IH]; intros s; cbn [walk]; [apply H|]. apply rsum_ext_in. intros y _. apply IH.
Qed.

Lemma walk_rsum {B} (Y : list nat) (k : nat) (W : B -> T -> R) (l : list B) :
  forall s, walk Y k (fun s' => rsum (map (fun b => W b s') l)) s = rsum (map (fun b => walk Y k (W b) s) l).
Proof.
  induction k as [|k IH]; intros s; cbn [walk]; [reflexivity|].
  rewrite (rsum_ext_in _ (fun y => rsum (map (fun b => walk Y k (W b) (mv y s)) l))) by (intros y _; apply IH).
  apply (rsum_comm (fun y b => walk Y k (W b) (mv y s))).
Qed.

Lemma walk_scal (Y : list nat) (k : nat) (u : R) (V : T -> R) :
  forall s, walk Y k (fun s' => u * V s') s = u * walk Y k V s.
Proof.
  induction k as [|k IH]; intros s; cbn [walk]; [reflexivity|].
  rewrite <- rsum_scal. apply rsum_ext_in. intros y _. apply IH.
Qed.

(** A move taken first is a move taken last. *)
Lemma walk_mv (Y : list nat) (k z : nat) (V : T -> R) :
  forall s, walk Y k V (mv z s) = walk Y k (fun s' => V (mv z s')) s.
Proof.
  induction k as [|k IH]; intros s; cbn [walk]; [reflexivity|].
  apply rsum_ext_in. intros y _. rewrite Hcomm. apply IH.
Qed.

Lemma rsum_perm {B} (f : B -> R) (l l' : list B) : Permutation l l' -> rsum (map f l) = rsum (map f l').
Proof.
  intros H. induction H as [|x l l' _ IH|x y l|l l' l'' _ IH1 _ IH2]; cbn [map]; rewrite ?rsum_cons.
  - reflexivity.
  - rewrite IH. reflexivity.
  - ring.
  - rewrite IH1, IH2. reflexivity.
Qed.

Lemma walk_perm (Y Y' : list nat) (k : nat) (V : T -> R) :
  Permutation Y Y' -> forall s, walk Y k V s = walk Y' k V s.
Proof.
  intros HP. induction k as [|k IH]; intros s; cbn [walk]; [reflexivity|].
  rewrite (rsum_perm _ _ _ HP). apply rsum_ext_in. intros y _. apply IH.
Qed.

(** The alphabet cut in two: n steps in Y1 and j in Y2, in C(n + j, n) orders. *)
Theorem walk_app (Y1 Y2 : list nat) (k : nat) (V : T -> R) :
  forall s, walk (Y1 ++ Y2) k V s = pair_sum k (fun n j => walk Y1 n (walk Y2 j V) s).
Proof.
  induction k as [|k IH]; intros s.
  - rewrite pair_sum_zero. reflexivity.
  - cbn [walk]. rewrite map_app, rsum_app.
    rewrite (rsum_ext_in _ (fun y => pair_sum k (fun n j => walk Y1 n (walk Y2 j V) (mv y s)))) by (intros y _; apply IH).
    rewrite (rsum_ext_in (fun y => walk (Y1 ++ Y2) k V (mv y s))
                         (fun y => pair_sum k (fun n j => walk Y1 n (walk Y2 j V) (mv y s)))) by (intros y _; apply IH).
    rewrite !pair_sum_rsum, pair_sum_succ. f_equal. apply pair_sum_ext. intros n j _.
    rewrite (rsum_ext_in _ (fun y => walk Y1 n (fun s' => walk Y2 j V (mv y s')) s)) by (intros y _; apply walk_mv).
    rewrite <- (walk_rsum Y1 n (fun y s' => walk Y2 j V (mv y s'))). reflexivity.
Qed.

(** One move: the walk is the move taken n times. *)
Lemma iter_mv (y n : nat) (s : T) : Nat.iter n (mv y) (mv y s) = mv y (Nat.iter n (mv y) s).
Proof.
  induction n as [|n IH]; [reflexivity|].
  change (mv y (Nat.iter n (mv y) (mv y s)) = mv y (mv y (Nat.iter n (mv y) s))). rewrite IH. reflexivity.
Qed.

Lemma walk_one (y n : nat) (V : T -> R) : forall s, walk [y] n V s = V (Nat.iter n (mv y) s).
Proof.
  induction n as [|n IH]; intros s; cbn [walk map]; [reflexivity|]. rewrite rsum_cons, rsum_nil, IH, iter_mv.
  rewrite Rplus_0_r. reflexivity.
Qed.

(** Moves that change nothing: |Y|^n copies of V. *)
Lemma walk_idle (Y : list nat) (n : nat) (V : T -> R) :
  (forall y s, In y Y -> mv y s = s) -> forall s, walk Y n V s = INR (length Y) ^ n * V s.
Proof.
  intros H. induction n as [|n IH]; intros s; cbn [walk]; [cbn [pow]; ring|].
  rewrite (rsum_ext_in _ (fun _ => INR (length Y) ^ n * V s)) by (intros y Hy; rewrite IH, H by exact Hy; reflexivity).
  rewrite rsum_const. cbn [pow]. ring.
Qed.

End Walk.

(** ** Randomized response with a coefficient vector on two pairs of inputs *)

Section Blocks.
Variables (M : fmech) (lo r : R) (c : nat -> R) (x0 x1 x2 x3 : nat).
Hypothesis Hn : n_out M = n_in M.
Hypothesis Hlo : 0 <= lo.
Hypothesis HRR : forall x y, (x < n_in M)%nat -> (y < n_in M)%nat -> prob M x y = lo * r ^ (if Nat.eqb x y then 1 else 0).
Hypothesis Hx : (x0 < n_in M)%nat /\ (x1 < n_in M)%nat /\ (x2 < n_in M)%nat /\ (x3 < n_in M)%nat.
Hypothesis Hd : x0 <> x1 /\ x0 <> x2 /\ x0 <> x3 /\ x1 <> x2 /\ x1 <> x3 /\ x2 <> x3.
Hypothesis Hc : forall x, x <> x0 -> x <> x1 -> x <> x2 -> x <> x3 -> c x = 0.

Definition cnt4 := ((nat * nat) * (nat * nat))%type.

(** One output y: the count of its input, if it is one of the four, goes up by one. *)
Definition bmove (y : nat) (s : cnt4) : cnt4 :=
  let '((a, b), (d, e)) := s in
  if Nat.eqb y x0 then ((S a, b), (d, e)) else if Nat.eqb y x1 then ((a, S b), (d, e))
  else if Nat.eqb y x2 then ((a, b), (S d, e)) else if Nat.eqb y x3 then ((a, b), (d, S e)) else s.

Definition bcount (s : cnt4) (x : nat) : nat :=
  let '((a, b), (d, e)) := s in
  if Nat.eqb x x0 then a else if Nat.eqb x x1 then b else if Nat.eqb x x2 then d else if Nat.eqb x x3 then e else 0%nat.

Definition bvec (s : cnt4) : nat -> R := fun x => c x * r ^ bcount s x.

Definition bval (s : cnt4) : R :=
  let '((a, b), (d, e)) := s in Rmax 0 (c x0 * r ^ a + c x1 * r ^ b + c x2 * r ^ d + c x3 * r ^ e).

Lemma bmove_comm (y z : nat) (s : cnt4) : bmove y (bmove z s) = bmove z (bmove y s).
Proof.
  destruct s as [[a b] [d e]]. unfold bmove.
  destruct (Nat.eqb y x0), (Nat.eqb y x1), (Nat.eqb y x2), (Nat.eqb y x3),
           (Nat.eqb z x0), (Nat.eqb z x1), (Nat.eqb z x2), (Nat.eqb z x3); reflexivity.
Qed.

Lemma bcount_move (s : cnt4) (y x : nat) : x = x0 \/ x = x1 \/ x = x2 \/ x = x3 ->
  bcount (bmove y s) x = (bcount s x + if Nat.eqb x y then 1 else 0)%nat.
Proof.
  destruct Hd as (d01 & d02 & d03 & d12 & d13 & d23).
  assert (E : forall u v, u <> v -> Nat.eqb u v = false) by (intros u v; apply Nat.eqb_neq).
  pose proof (E x1 x0 ltac:(congruence)) as E10. pose proof (E x2 x0 ltac:(congruence)) as E20.
  pose proof (E x2 x1 ltac:(congruence)) as E21. pose proof (E x3 x0 ltac:(congruence)) as E30.
  pose proof (E x3 x1 ltac:(congruence)) as E31. pose proof (E x3 x2 ltac:(congruence)) as E32.
  destruct s as [[a b] [d e]]. intros Hx'. unfold bmove.
  destruct (Nat.eqb_spec y x0) as [->|g0]; [|destruct (Nat.eqb_spec y x1) as [->|g1];
    [|destruct (Nat.eqb_spec y x2) as [->|g2]; [|destruct (Nat.eqb_spec y x3) as [->|g3]]]];
    destruct Hx' as [-> | [-> | [-> | ->]]]; unfold bcount;
    rewrite ?Nat.eqb_refl, ?E10, ?E20, ?E21, ?E30, ?E31, ?E32, ?(Nat.eqb_sym x0 x1), ?(Nat.eqb_sym x0 x2),
      ?(Nat.eqb_sym x1 x2), ?(Nat.eqb_sym x0 x3), ?(Nat.eqb_sym x1 x3), ?(Nat.eqb_sym x2 x3),
      ?E10, ?E20, ?E21, ?E30, ?E31, ?E32; try lia;
    rewrite ?(E x0 y), ?(E x1 y), ?(E x2 y), ?(E x3 y) by congruence; lia.
Qed.

Lemma bvec_move (s : cnt4) (x y : nat) :
  ccol M (bvec s) y x = lo * bvec (bmove y s) x \/ ~ (x < n_in M)%nat \/ ~ (y < n_in M)%nat.
Proof.
  destruct (Nat.lt_ge_cases x (n_in M)) as [Hxm|]; [|right; left; lia].
  destruct (Nat.lt_ge_cases y (n_in M)) as [Hym|]; [|right; right; lia]. left.
  unfold ccol, bvec. rewrite HRR by assumption.
  destruct (Nat.eq_dec x x0) as [h|h0]; [|destruct (Nat.eq_dec x x1) as [h|h1];
    [|destruct (Nat.eq_dec x x2) as [h|h2]; [|destruct (Nat.eq_dec x x3) as [h|h3]]]];
    try (rewrite (Hc x) by assumption; ring);
    rewrite bcount_move by tauto; destruct (Nat.eqb x y); rewrite pow_add; cbn [pow]; ring.
Qed.

(** K runs: lo^K times the walk of the counts. *)
Lemma gk_walk (k : nat) : forall s, gk M k (bvec s) = lo ^ k * walk cnt4 bmove (seq 0 (n_in M)) k
  (fun s' => Rmax 0 (rsum (map (bvec s') (seq 0 (n_in M))))) s.
Proof.
  induction k as [|k IH]; intros s; cbn [walk].
  - rewrite gk_0. cbn [pow]. ring.
  - rewrite gk_S, Hn, <- (rsum_scal (lo ^ S k)). apply rsum_ext_in. intros y Hy. apply in_seq in Hy.
    rewrite (gk_ext M k _ (fun x => lo * bvec (bmove y s) x)).
    + rewrite gk_scal, IH by exact Hlo. cbn [pow]. ring.
    + intros x Hxm. destruct (bvec_move s x y) as [H|[H|H]]; [exact H|lia|lia].
Qed.

Definition others : list nat :=
  filter (fun x => negb (Nat.eqb x x0 || Nat.eqb x x1 || Nat.eqb x x2 || Nat.eqb x x3)) (seq 0 (n_in M)).

Lemma seq_blocks : Permutation (seq 0 (n_in M)) (([x0; x1] ++ [x2; x3]) ++ others).
Proof.
  destruct Hd as (d01 & d02 & d03 & d12 & d13 & d23). destruct Hx as (h0 & h1 & h2 & h3).
  apply NoDup_Permutation; [apply seq_NoDup| |].
  - cbn [app]. unfold others.
    assert (Hno : forall x, In x (filter (fun x => negb (Nat.eqb x x0 || Nat.eqb x x1 || Nat.eqb x x2 || Nat.eqb x x3))
                                         (seq 0 (n_in M))) -> x <> x0 /\ x <> x1 /\ x <> x2 /\ x <> x3).
    { intros x Hin. apply filter_In in Hin as [_ Hin]. apply Bool.negb_true_iff in Hin.
      rewrite !Bool.orb_false_iff in Hin. destruct Hin as [[[H0 H1] H2] H3].
      apply Nat.eqb_neq in H0, H1, H2, H3. auto. }
    repeat constructor; cbn [In]; try (intros [E|[E|[E|E]]]); try (intros [E|[E|E]]); try (intros [E|E]);
      try (intros E); subst; try congruence; try (apply Hno in E; tauto).
    apply NoDup_filter, seq_NoDup.
  - intros x. rewrite in_seq. cbn [app In]. unfold others. rewrite filter_In, in_seq. split.
    + intros Hxm. destruct (Nat.eqb_spec x x0); [left; congruence|]. destruct (Nat.eqb_spec x x1); [right; left; congruence|].
      destruct (Nat.eqb_spec x x2); [right; right; left; congruence|].
      destruct (Nat.eqb_spec x x3); [right; right; right; left; congruence|]. right; right; right; right. split; [exact Hxm|reflexivity].
    + intros [E|[E|[E|[E|[H _]]]]]; subst; lia.
Qed.

Lemma others_idle (y : nat) (s : cnt4) : In y others -> bmove y s = s.
Proof.
  unfold others. intros Hin. apply filter_In in Hin as [_ Hin]. apply Bool.negb_true_iff in Hin.
  rewrite !Bool.orb_false_iff in Hin. destruct Hin as [[[H0 H1] H2] H3].
  destruct s as [[a b] [d e]]. unfold bmove. rewrite H0, H1, H2, H3. reflexivity.
Qed.

Lemma others_length : length others = (n_in M - 4)%nat.
Proof.
  pose proof (Permutation_length seq_blocks) as H. rewrite seq_length in H. cbn [app length] in H. lia.
Qed.

Lemma bvec_sum (s : cnt4) : rsum (map (bvec s) (seq 0 (n_in M))) =
  let '((a, b), (d, e)) := s in c x0 * r ^ a + c x1 * r ^ b + c x2 * r ^ d + c x3 * r ^ e.
Proof.
  rewrite (rsum_perm _ _ _ seq_blocks), rsum_map_app.
  rewrite (rsum_zero _ others) by (intros x Hin; unfold bvec; unfold others in Hin; apply filter_In in Hin as [_ Hin];
    apply Bool.negb_true_iff in Hin; rewrite !Bool.orb_false_iff in Hin; destruct Hin as [[[H0 H1] H2] H3];
    apply Nat.eqb_neq in H0, H1, H2, H3; rewrite Hc by assumption; ring).
  destruct Hd as (d01 & d02 & d03 & d12 & d13 & d23). destruct s as [[a b] [d e]].
  cbn [app map]. rewrite !rsum_cons, rsum_nil. unfold bvec, bcount. rewrite !Nat.eqb_refl.
  rewrite (proj2 (Nat.eqb_neq x1 x0)), (proj2 (Nat.eqb_neq x2 x0)), (proj2 (Nat.eqb_neq x2 x1)),
    (proj2 (Nat.eqb_neq x3 x0)), (proj2 (Nat.eqb_neq x3 x1)), (proj2 (Nat.eqb_neq x3 x2)) by congruence.
  ring.
Qed.

Lemma iter_bmove (n : nat) (a b d e : nat) :
  Nat.iter n (bmove x0) ((a, b), (d, e)) = ((n + a, b), (d, e))%nat /\
  Nat.iter n (bmove x1) ((a, b), (d, e)) = ((a, n + b), (d, e))%nat /\
  Nat.iter n (bmove x2) ((a, b), (d, e)) = ((a, b), (n + d, e))%nat /\
  Nat.iter n (bmove x3) ((a, b), (d, e)) = ((a, b), (d, n + e))%nat.
Proof.
  destruct Hd as (d01 & d02 & d03 & d12 & d13 & d23).
  induction n as [|n (I0 & I1 & I2 & I3)]; [repeat split|]. cbn [Nat.iter nat_rect].
  change (nat_rect (fun _ => cnt4) ((a, b), (d, e)) (fun _ => bmove x0) n) with (Nat.iter n (bmove x0) ((a, b), (d, e))).
  change (nat_rect (fun _ => cnt4) ((a, b), (d, e)) (fun _ => bmove x1) n) with (Nat.iter n (bmove x1) ((a, b), (d, e))).
  change (nat_rect (fun _ => cnt4) ((a, b), (d, e)) (fun _ => bmove x2) n) with (Nat.iter n (bmove x2) ((a, b), (d, e))).
  change (nat_rect (fun _ => cnt4) ((a, b), (d, e)) (fun _ => bmove x3) n) with (Nat.iter n (bmove x3) ((a, b), (d, e))).
  rewrite I0, I1, I2, I3. unfold bmove. rewrite !Nat.eqb_refl.
  rewrite (proj2 (Nat.eqb_neq x1 x0)), (proj2 (Nat.eqb_neq x2 x0)), (proj2 (Nat.eqb_neq x2 x1)),
    (proj2 (Nat.eqb_neq x3 x0)), (proj2 (Nat.eqb_neq x3 x1)), (proj2 (Nat.eqb_neq x3 x2)) by congruence.
  repeat split.
Qed.

(** The grouped sum, by the counts (a, b) in the two pairs and (n0, n2) within them. *)
Definition blocks_sum (K : nat) : R :=
  pair_sum K (fun s j => INR (n_in M - 4) ^ j * pair_sum s (fun a b =>
    pair_sum a (fun n0 n1 => pair_sum b (fun n2 n3 =>
      Rmax 0 (c x0 * r ^ n0 + c x1 * r ^ n1 + c x2 * r ^ n2 + c x3 * r ^ n3))))).

Theorem gk_blocks (K : nat) : gk M K c = lo ^ K * blocks_sum K.
Proof.
  assert (Hcomm := bmove_comm).
  rewrite (gk_ext M K c (bvec ((0, 0), (0, 0))%nat)) by (intros x _; unfold bvec, bcount;
    destruct (Nat.eqb x x0), (Nat.eqb x x1), (Nat.eqb x x2), (Nat.eqb x x3); cbn [pow]; ring).
  rewrite gk_walk. f_equal.
  rewrite (walk_ext cnt4 bmove _ K _ bval) by (intros [[a b] [d e]]; rewrite bvec_sum; reflexivity).
  rewrite (walk_perm cnt4 bmove _ _ K bval seq_blocks), walk_app by exact Hcomm.
  unfold blocks_sum. apply pair_sum_ext. intros s j _.
  rewrite (walk_ext cnt4 bmove _ s _ (fun s' => INR (n_in M - 4) ^ j * bval s'))
    by (intros s'; rewrite (walk_idle cnt4 bmove), others_length by (intros; apply others_idle; assumption); reflexivity).
  rewrite walk_scal, walk_app by exact Hcomm. f_equal. apply pair_sum_ext. intros a b _.
  change [x0; x1] with ([x0] ++ [x1]). rewrite walk_app by exact Hcomm. apply pair_sum_ext. intros n0 n1 _.
  rewrite walk_one, walk_one by exact Hcomm.
  destruct (iter_bmove n0 0 0 0 0) as (-> & _ & _ & _). destruct (iter_bmove n1 (n0 + 0) 0 0 0) as (_ & -> & _ & _).
  change [x2; x3] with ([x2] ++ [x3]). rewrite walk_app by exact Hcomm. apply pair_sum_ext. intros n2 n3 _.
  rewrite walk_one, walk_one by exact Hcomm.
  destruct (iter_bmove n2 (n0 + 0) (n1 + 0) 0 0) as (_ & _ & -> & _).
  destruct (iter_bmove n3 (n0 + 0) (n1 + 0) (n2 + 0) 0) as (_ & _ & _ & ->).
  cbn [bval]. rewrite !Nat.add_0_r. reflexivity.
Qed.

End Blocks.

(** hs(t) of the rows i, j of K runs on the same database, for randomized response and
    priors on two pairs: lo^K times the grouped sum at c = g_i − t·g_j. *)
Theorem hs_stream_blocks (M : fmech) (lo r : R) (f f' : list Q) (K i j : nat) (t : R) (x0 x1 x2 x3 : nat) :
  fmech_wf M -> length f = n_in M -> length f' = n_in M -> (i < 2)%nat -> (j < 2)%nat ->
  n_out M = n_in M -> 0 <= lo ->
  (forall x y, (x < n_in M)%nat -> (y < n_in M)%nat -> prob M x y = lo * r ^ (if Nat.eqb x y then 1 else 0)) ->
  (x0 < n_in M)%nat /\ (x1 < n_in M)%nat /\ (x2 < n_in M)%nat /\ (x3 < n_in M)%nat ->
  x0 <> x1 /\ x0 <> x2 /\ x0 <> x3 /\ x1 <> x2 /\ x1 <> x3 /\ x2 <> x3 ->
  (forall x, x <> x0 -> x <> x1 -> x <> x2 -> x <> x3 -> wt f x = 0 /\ wt f' x = 0) ->
  hs (fmech_cw (fmech_power M K) f f') i j t =
  lo ^ K * blocks_sum M r (fun x => wt (cw_weights f f' i) x - t * wt (cw_weights f f' j) x) x0 x1 x2 x3 K.
Proof.
  intros W Hf Hf' Hi Hj Hn Hlo HRR Hx Hd Hsup. rewrite hs_stream_gk by assumption.
  apply gk_blocks; try assumption.
  intros x H0 H1 H2 H3. destruct (Hsup x H0 H1 H2 H3) as [E E'].
  destruct i as [|i], j as [|j]; cbn [cw_weights]; rewrite ?E, ?E'; ring.
Qed.
