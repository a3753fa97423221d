(** * The loss keys of each pair of neighbours, rounded to one side, checked exactly

    For a pair of rows P = M(x), Q = M(x'), a base b > 1 and the keys
    oB, oB + d, ..., oB + d·(n − 1) (n = the length of the PLD [B]), [pair_ord_rows]
    finds for every output the key on the [up] side of its loss (the first key [z]
    with P(y) ≤ b^z·Q(y), or the last with P(y) ≥ b^z·Q(y)), checks it, adds the
    output's P-mass to the key's mass and compares the result with [B], all in exact
    rationals.  [pair_ord_spec] gives the hypotheses of [hs_power_pld_ord]
    (PLDBound.v).  When every loss is a power of b the keys are exact and the PLDs of
    both sides are the same list. *)
From Coq Require Import List Bool ZArith QArith Qpower Qreals Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition PLD PLDCheck.
From Obligations.Accountant Require Import PLDBound.
Import ListNotations.

Local Open Scope Q_scope.

Definition keyed_ord_b (up : bool) (b p q : Q) (z : Z) : bool :=
  Qeq_bool p 0 || (if up then Qle_bool p (b ^ z * q) else Qle_bool (b ^ z * q) p).

Definition key_at (oB d : Z) (j : nat) : Z := (oB + d * Z.of_nat j)%Z.

(** Up: the first index in [j, j + n) whose key fits; down: the last; [best] if none. *)
Fixpoint find_idx (up : bool) (b p q : Q) (oB d : Z) (j n best : nat) : nat :=
  match n with
  | O => best
  | S n' =>
      if keyed_ord_b up b p q (key_at oB d j)
      then (if up then j else find_idx up b p q oB d (S j) n' j)
      else find_idx up b p q oB d (S j) n' best
  end.

(** [l] with [p] added to its [j]-th mass. *)
Fixpoint add_at (j : nat) (p : Q) (l : list Q) : list Q :=
  match l, j with
  | [], _ => []
  | a :: l', O => qplus_lcm a p :: l'
  | a :: l', S j' => a :: add_at j' p l'
  end.

Definition densify_at (n : nat) (ps : list Q) (js : list nat) : list Q :=
  fold_right (fun '(p, j) acc => add_at j p acc) (repeat 0 n) (combine ps js).

Definition pair_idx (up : bool) (b : Q) (oB d : Z) (n : nat) (P Qr : list Q) : list nat :=
  map (fun '(p, q) => find_idx up b p q oB d 0 n 0) (combine P Qr).

(** The rows [x], [x'] of [R] have their keys on the [up] side in the key range of
    [pld = (oB, B)], and [B] is their P-mass per key. *)
Definition pair_ord_rows (up : bool) (R : list (list Q)) (b : Q) (d : Z) (pld : Z * list Q) (x x' : nat) : bool :=
  let '(oB, B) := pld in
  let P := nth x R [] in
  let Qr := nth x' R [] in
  let n := length B in
  let js := pair_idx up b oB d n P Qr in
  forallb (fun '(j, (p, q)) => Nat.ltb j n && keyed_ord_b up b p q (key_at oB d j)) (combine js (combine P Qr)) &&
  qlist_eqb (densify_at n P js) B.

(** Every ordered pair of distinct neighbours has its up-rounded PLD among [plds]. *)
Definition pairs_ord_ok (nb : nat -> nat -> bool) (M : fmech) (b : Q) (d : Z) (plds : list (Z * list Q)) : bool :=
  let R := rows M in
  forallb (fun x => forallb (fun x' =>
    if nb x x' then (if Nat.eqb x x' then true else existsb (fun pld => pair_ord_rows true R b d pld x x') plds)
    else true) (seq 0 (n_in M))) (seq 0 (n_in M)).

Local Open Scope R_scope.

Lemma keyed_ord_b_correct (up : bool) (b p q : Q) (z : Z) : keyed_ord_b up b p q z = true -> keyed_ord up b p q z.
Proof.
  unfold keyed_ord_b, keyed_ord. intros H. apply orb_prop in H as [H|H]; [left; apply Qeq_bool_eq, H|right].
  destruct up; apply Qle_bool_imp_le, H.
Qed.

Lemma add_at_length (j : nat) (p : Q) (l : list Q) : length (add_at j p l) = length l.
Proof. revert j. induction l as [|a l IH]; intros [|j]; cbn; try reflexivity. rewrite IH. reflexivity. Qed.

Lemma ev_add_at (d o : Z) (j : nat) (p : Q) (l : list Q) (F : Z -> R) :
  (j < length l)%nat ->
  ev d o (map Q2R (add_at j p l)) F = ev d o (map Q2R l) F + Q2R p * F (key_at o d j).
Proof.
  unfold key_at. revert j o. induction l as [|a l IH]; intros [|j] o Hj; cbn [length] in Hj; try lia.
  - cbn [add_at map ev]. rewrite (Qeq_eqR _ _ (qplus_lcm_correct a p)), Q2R_plus, Z.mul_0_r, Z.add_0_r. ring.
  - cbn [add_at map ev]. rewrite IH by lia. replace (o + d + d * Z.of_nat j)%Z with (o + d * Z.of_nat (S j))%Z by lia.
    ring.
Qed.

Lemma ev_repeat0 (d o : Z) (n : nat) (F : Z -> R) : ev d o (map Q2R (repeat 0%Q n)) F = 0.
Proof. revert o. induction n as [|n IH]; intros o; cbn [repeat map ev]; [reflexivity|]. rewrite IH, q2r_0. ring. Qed.

Lemma densify_at_length (n : nat) (ps : list Q) (js : list nat) : length (densify_at n ps js) = n.
Proof.
  unfold densify_at. induction (combine ps js) as [|[p j] l IH]; cbn [fold_right].
  - apply repeat_length.
  - rewrite add_at_length. exact IH.
Qed.

Lemma densify_at_ev (d o : Z) (n : nat) (ps : list Q) (js : list nat) (F : Z -> R) :
  length js = length ps -> Forall (fun j => j < n)%nat js ->
  ev d o (map Q2R (densify_at n ps js)) F =
  rsum (map (fun i => Q2R (nth i ps 0%Q) * F (key_at o d (nth i js O))) (seq 0 (length ps))).
Proof.
  revert js. induction ps as [|p ps IH]; intros [|j js] Hl Hj; cbn [length] in Hl; try discriminate.
  - apply ev_repeat0.
  - inversion Hj as [|? ? Hj0 Hjs]; subst. unfold densify_at. cbn [combine fold_right].
    fold (densify_at n ps js). rewrite ev_add_at by (rewrite densify_at_length; exact Hj0).
    rewrite (IH js) by (try lia; exact Hjs). cbn [length seq map]. rewrite rsum_cons. cbn [nth].
    rewrite <- seq_shift, map_map. cbn [nth]. ring.
Qed.

Section Pair.
Variables (up : bool) (M : fmech) (b : Q) (d oB : Z) (B : list Q) (x x' : nat).
Hypothesis Hwf : fmech_wf M.
Hypothesis Hx : (x < n_in M)%nat.
Hypothesis Hx' : (x' < n_in M)%nat.
Hypothesis Hpair : pair_ord_rows up (rows M) b d (oB, B) x x' = true.

Definition pair_keys : list Z :=
  map (key_at oB d) (pair_idx up b oB d (length B) (nth x (rows M) []) (nth x' (rows M) [])).

Lemma pair_ord_spec :
  (forall y, (y < n_out M)%nat -> keyed_ord up b (entry M x y) (entry M x' y) (nth y pair_keys 0%Z)) /\
  (forall F : Z -> R, rsum (map (fun y => prob M x y * F (nth y pair_keys 0%Z)) (seq 0 (n_out M))) = ev d oB (map Q2R B) F).
Proof.
  destruct Hwf as [Hn Hr]. unfold pair_ord_rows in Hpair. apply andb_prop in Hpair as [Hall Heq].
  set (P := nth x (rows M) []) in *. set (Qr := nth x' (rows M) []) in *.
  set (js := pair_idx up b oB d (length B) P Qr) in *.
  assert (HP : length P = n_out M) by (apply Hr, nth_In; rewrite Hn; exact Hx).
  assert (HQ : length Qr = n_out M) by (apply Hr, nth_In; rewrite Hn; exact Hx').
  assert (Hjs : length js = n_out M).
  { unfold js, pair_idx. rewrite map_length, combine_length, HP, HQ. apply Nat.min_id. }
  assert (Hy : forall y, (y < n_out M)%nat ->
            (nth y js O < length B)%nat /\ keyed_ord_b up b (nth y P 0%Q) (nth y Qr 0%Q) (key_at oB d (nth y js O)) = true).
  { intros y Hy. rewrite forallb_forall in Hall.
    assert (Hl : length (combine js (combine P Qr)) = n_out M).
    { rewrite !combine_length, Hjs, HP, HQ, !Nat.min_id. reflexivity. }
    assert (E : nth y (combine js (combine P Qr)) (O, (0%Q, 0%Q)) = (nth y js O, (nth y P 0%Q, nth y Qr 0%Q))).
    { rewrite combine_nth by (rewrite combine_length, HP, HQ, Hjs, Nat.min_id; reflexivity).
      rewrite combine_nth by (rewrite HP, HQ; reflexivity). reflexivity. }
    pose proof (Hall _ (nth_In (combine js (combine P Qr)) (O, (0%Q, 0%Q)) ltac:(rewrite Hl; exact Hy))) as H.
    rewrite E in H. apply andb_prop in H as [H1 H2]. split; [apply Nat.ltb_lt, H1|exact H2]. }
  assert (Hk : forall y, (y < n_out M)%nat -> nth y pair_keys 0%Z = key_at oB d (nth y js O)).
  { intros y Hy'. unfold pair_keys. fold P Qr js.
    rewrite nth_indep with (d' := key_at oB d O) by (rewrite map_length, Hjs; exact Hy'). apply map_nth. }
  split.
  - intros y Hy'. rewrite Hk by exact Hy'. apply keyed_ord_b_correct, (Hy y Hy').
  - intros F. rewrite <- (qlist_eqb_map _ _ Heq).
    rewrite densify_at_ev.
    + rewrite HP. apply rsum_ext_in. intros y Hy'. apply in_seq in Hy' as [_ Hy']. rewrite Hk by exact Hy'. reflexivity.
    + rewrite Hjs, HP. reflexivity.
    + apply Forall_forall. intros j Hj. apply In_nth with (d := O) in Hj as [i [Hi <-]].
      rewrite Hjs in Hi. apply (Hy i Hi).
Qed.
End Pair.

Lemma pairs_ord_ok_spec (nb : nat -> nat -> bool) (M : fmech) (b : Q) (d : Z) (plds : list (Z * list Q)) (x x' : nat) :
  pairs_ord_ok nb M b d plds = true -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true -> x <> x' ->
  exists oB B, In (oB, B) plds /\ pair_ord_rows true (rows M) b d (oB, B) x x' = true.
Proof.
  intros H Hx Hx' Hnb Hne. unfold pairs_ord_ok in H. cbv zeta in H. rewrite forallb_forall in H.
  specialize (H x ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H x' ltac:(apply in_seq; lia)). apply Nat.eqb_neq in Hne. rewrite Hnb, Hne in H.
  apply existsb_exists in H as [[oB B] [Hin Hp]]. exists oB, B. split; assumption.
Qed.
