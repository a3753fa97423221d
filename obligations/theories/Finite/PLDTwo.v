(** * Pairs with two privacy-loss values: the PLD from the row sums

    When every output of the pair (x, x') has P(y) = b^z1 · Q(y) or P(y) = b^z2 · Q(y)
    (z1 < z2: randomized response, the truncated geometric, ...), the pair's PLD has
    two atoms and their P-masses m1, m2 are fixed by the two row sums:
    m1 + m2 = ΣP = 1 and b^(−z1)·m1 + b^(−z2)·m2 = ΣQ = 1.  So checking a pair costs
    one rational comparison per output and no sums ([pair2_ok]); [two_pld] is the
    shared PLD, [dp_power_pld2] and [not_dp_power_pld2] the theorems of PLDCheck.v
    for it. *)
From Coq Require Import List Bool ZArith QArith Qpower Qreals Reals Lra Lia Psatz.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import Mechanism DP Checker CheckerSound Compose BasicComposition PLD PLDCheck.
Import ListNotations.

Local Open Scope Q_scope.

(** The two masses: m1 = (1 − b^(−z2)) / (b^(−z1) − b^(−z2)), m2 = 1 − m1, at keys
    z1 and z2: a PLD of stride z2 − z1 (the keys between carry nothing, and so do those of
    its convolution powers: the k-fold PLD has k + 1 atoms). *)
Definition two_m1 (b : Q) (z1 z2 : Z) : Q := (1 - b ^ (- z2)) / (b ^ (- z1) - b ^ (- z2)).

Definition two_pld (b : Q) (z1 z2 : Z) : list Q := [two_m1 b z1 z2; 1 - two_m1 b z1 z2].

Definition key2 (b : Q) (z1 z2 : Z) (p q : Q) : Z := if Qeq_bool p (b ^ z1 * q) then z1 else z2.

Definition pair2_ok_rows (R : list (list Q)) (b : Q) (z1 z2 : Z) (x x' : nat) : bool :=
  forallb2 (fun p q => Qeq_bool p (b ^ z1 * q) || Qeq_bool p (b ^ z2 * q)) (nth x R []) (nth x' R []).

(** The shape: b > 0, z1 < z2, b^(−z1) ≠ b^(−z2). *)
Definition two_ok (b : Q) (z1 z2 : Z) : bool :=
  negb (Qle_bool b 0) && Z.ltb z1 z2 && negb (Qeq_bool (b ^ (- z1)) (b ^ (- z2))).

Definition pairs2_ok (nb : nat -> nat -> bool) (M : fmech) (b : Q) (z1 z2 : Z) : bool :=
  let R := rows M in
  two_ok b z1 z2 &&
  forallb (fun x => forallb (fun x' => if nb x x' then (if Nat.eqb x x' then true else pair2_ok_rows R b z1 z2 x x') else true)
                            (seq 0 (n_in M))) (seq 0 (n_in M)).

Local Open Scope R_scope.

Lemma forallb2_nth {A B} (f : A -> B -> bool) (l1 : list A) (l2 : list B) (d1 : A) (d2 : B) :
  forallb2 f l1 l2 = true -> length l1 = length l2 /\ forall i, (i < length l1)%nat -> f (nth i l1 d1) (nth i l2 d2) = true.
Proof.
  revert l2. induction l1 as [|a l1 IH]; intros [|c l2] H; cbn in H |- *; try discriminate.
  - split; [reflexivity|intros; lia].
  - apply andb_prop in H as [H1 H2]. destruct (IH l2 H2) as [Hl Hi]. split; [lia|].
    intros [|i] Hi'; [exact H1|apply Hi; lia].
Qed.

Lemma ev_two (b : Q) (z1 z2 : Z) (F : Z -> R) :
  ev (z2 - z1) z1 (map Q2R (two_pld b z1 z2)) F = Q2R (two_m1 b z1 z2) * F z1 + Q2R (1 - two_m1 b z1 z2) * F z2.
Proof.
  unfold two_pld. cbn [map ev]. replace (z1 + (z2 - z1))%Z with z2 by ring. ring.
Qed.

Section Pair.
Variables (M : fmech) (b : Q) (z1 z2 : Z) (x x' : nat).
Hypothesis HM : check_distr M = true.
Hypothesis Hx : (x < n_in M)%nat.
Hypothesis Hx' : (x' < n_in M)%nat.
Hypothesis Hshape : two_ok b z1 z2 = true.
Hypothesis Hpair : pair2_ok_rows (rows M) b z1 z2 x x' = true.

Definition keys2 : list Z := map (fun '(p, q) => key2 b z1 z2 p q) (combine (nth x (rows M) []) (nth x' (rows M) [])).

Lemma pair2_facts :
  fmech_wf M /\ (0 < b)%Q /\ (z1 < z2)%Z /\ ~ (b ^ (- z1) == b ^ (- z2))%Q /\
  forall y, (y < n_out M)%nat -> (entry M x y == b ^ nth y keys2 0%Z * entry M x' y)%Q /\
                                 (nth y keys2 0%Z = z1 \/ nth y keys2 0%Z = z2).
Proof.
  destruct (wf_of_check_distr M HM) as [[Hn Hr] _].
  unfold two_ok in Hshape. apply andb_prop in Hshape as [Hs3 Hs2]. apply andb_prop in Hs3 as [Hs1 Hs3].
  split; [split; assumption|]. split; [apply Qnot_le_lt; intros E; apply Qle_bool_iff in E; rewrite E in Hs1; discriminate|]. split; [apply Z.ltb_lt, Hs3|].
  split; [intros E; apply Qeq_bool_iff in E; rewrite E in Hs2; discriminate|].
  assert (HP : length (nth x (rows M) []) = n_out M) by (apply Hr, nth_In; lia).
  assert (HQ : length (nth x' (rows M) []) = n_out M) by (apply Hr, nth_In; lia).
  destruct (forallb2_nth _ _ _ 0%Q 0%Q Hpair) as [_ Hi].
  intros y Hy. specialize (Hi y ltac:(lia)). unfold keys2, entry.
  rewrite nth_indep with (d' := key2 b z1 z2 0%Q 0%Q) by (rewrite map_length, combine_length; lia).
  change (key2 b z1 z2 0%Q 0%Q) with ((fun '(p, q) => key2 b z1 z2 p q) (0%Q, 0%Q)).
  rewrite map_nth, combine_nth by lia. unfold key2.
  destruct (Qeq_bool (nth y (nth x (rows M) []) 0%Q) (b ^ z1 * nth y (nth x' (rows M) []) 0%Q)) eqn:E.
  - split; [apply Qeq_bool_eq, E|left; reflexivity].
  - apply orb_prop in Hi as [Hi|Hi].
    + discriminate.
    + split; [apply Qeq_bool_eq, Hi|right; reflexivity].
Qed.

Lemma pair2_keyed (y : nat) :
  (y < n_out M)%nat -> keyed b (entry M x y) (entry M x' y) (nth y keys2 0%Z).
Proof. intros Hy. right. apply (proj2 (proj2 (proj2 (proj2 pair2_facts))) y Hy). Qed.

Lemma pair2_pld (F : Z -> R) :
  rsum (map (fun y => prob M x y * F (nth y keys2 0%Z)) (seq 0 (n_out M))) = ev (z2 - z1) z1 (map Q2R (two_pld b z1 z2)) F.
Proof.
  destruct pair2_facts as (W & Hb & Hz & Hne & Hy).
  pose proof (distr_of_check M HM) as Hd.
  set (c := fun y => if Z.eq_dec (nth y keys2 0%Z) z1 then 1 else 0).
  set (S1 := rsum (map (fun y => c y * prob M x y) (seq 0 (n_out M)))).
  set (S2 := rsum (map (fun y => (1 - c y) * prob M x y) (seq 0 (n_out M)))).
  set (w1 := Q2R (b ^ (- z1))). set (w2 := Q2R (b ^ (- z2))).
  assert (HF : rsum (map (fun y => prob M x y * F (nth y keys2 0%Z)) (seq 0 (n_out M))) = S1 * F z1 + S2 * F z2).
  { unfold S1, S2. rewrite !(Rmult_comm _ (F _)), <- !rsum_scal, <- rsum_plus. apply rsum_ext_in.
    intros y Hy'. apply in_seq in Hy'. unfold c. destruct (proj2 (Hy y ltac:(lia))) as [E|E]; rewrite E.
    - destruct (Z.eq_dec z1 z1); [ring|contradiction].
    - destruct (Z.eq_dec z2 z1); [lia|ring]. }
  assert (HP1 : S1 + S2 = 1).
  { unfold S1, S2. rewrite <- rsum_plus. destruct (Hd x Hx) as [_ Hs].
    transitivity (pr M x everything); [|exact Hs]. unfold pr, everything. cbv beta iota.
    apply rsum_ext_in. intros y _. ring. }
  assert (HQ1 : w1 * S1 + w2 * S2 = 1).
  { unfold S1, S2. rewrite <- !rsum_scal, <- rsum_plus. destruct (Hd x' Hx') as [_ Hs].
    transitivity (pr M x' everything); [|exact Hs]. unfold pr, everything. cbv beta iota.
    apply rsum_ext_in. intros y Hy'. apply in_seq in Hy'. destruct (Hy y ltac:(lia)) as [Ee Ek].
    unfold prob. rewrite (Qeq_eqR _ _ Ee), Q2R_mult.
    assert (Hb0 : ~ (b == 0)%Q) by (intros E; rewrite E in Hb; discriminate).
    assert (Hinv : forall z, (Q2R (b ^ (- z)) * Q2R (b ^ z) = 1)%R).
    { intros z. rewrite <- Q2R_mult. rewrite (Qeq_eqR _ _ (Qmult_comm _ _)).
      rewrite (Qeq_eqR _ _ (Qmult_comp _ _ (Qeq_refl _) _ _ (Qpower_opp b z))).
      rewrite (Qeq_eqR _ _ (Qmult_inv_r _ (Qpower_not_0 b z Hb0))). apply q2r_1. }
    unfold c, w1, w2. destruct Ek as [E|E]; rewrite E.
    - destruct (Z.eq_dec z1 z1); [|contradiction].
      transitivity (Q2R (b ^ (- z1)) * Q2R (b ^ z1) * Q2R (entry M x' y)); [ring|rewrite Hinv; ring].
    - destruct (Z.eq_dec z2 z1); [lia|].
      transitivity (Q2R (b ^ (- z2)) * Q2R (b ^ z2) * Q2R (entry M x' y)); [ring|rewrite Hinv; ring]. }
  assert (Hw : w1 - w2 <> 0).
  { intros E. apply Hne. apply eqR_Qeq. unfold w1, w2 in E. lra. }
  assert (Hd0 : ~ (b ^ (- z1) - b ^ (- z2) == 0)%Q).
  { intros E. apply Hne. apply (Qplus_inj_r _ _ (- b ^ (- z2))). rewrite Qplus_opp_r. exact E. }
  assert (Hm1 : Q2R (two_m1 b z1 z2) = S1).
  { unfold two_m1. rewrite Q2R_div by exact Hd0. rewrite !Q2R_minus, q2r_1. fold w1 w2.
    apply (Rmult_eq_reg_r (w1 - w2)); [|exact Hw]. field_simplify; [|exact Hw]. nra. }
  rewrite HF, ev_two. rewrite Q2R_minus, q2r_1, Hm1. replace S2 with (1 - S1) by lra. ring.
Qed.

End Pair.

Lemma pairs2_ok_spec (nb : nat -> nat -> bool) (M : fmech) (b : Q) (z1 z2 : Z) (x x' : nat) :
  pairs2_ok nb M b z1 z2 = true -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true -> x <> x' ->
  two_ok b z1 z2 = true /\ pair2_ok_rows (rows M) b z1 z2 x x' = true.
Proof.
  intros H Hx Hx' Hnb Hne. unfold pairs2_ok in H. cbv zeta in H. apply andb_prop in H as [Hs H].
  split; [exact Hs|]. rewrite forallb_forall in H.
  specialize (H x ltac:(apply in_seq; lia)). rewrite forallb_forall in H.
  specialize (H x' ltac:(apply in_seq; lia)). apply Nat.eqb_neq in Hne. rewrite Hnb, Hne in H. exact H.
Qed.

(** Upper side for two-valued losses: (ε, δ)-DP of the k-fold composition. *)
Theorem dp_power_pld2 (nb : nat -> nat -> bool) (M : fmech) (b : Q) (z1 z2 : Z)
    (k : nat) (eps : R) (ti : I.type) (delta : Q) :
  check_distr M = true -> pairs2_ok nb M b z1 z2 = true -> 0 <= eps -> (0 <= delta)%Q ->
  has ti (exp eps) -> le_check (pld_delta b z1 (z2 - z1) (two_pld b z1 z2) k ti) delta = true ->
  dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros HM Hpairs He Hd Ht Hle x x' Hx Hx' Hnb S.
  destruct (wf_of_check_distr M HM) as [W Hsub].
  destruct (fmech_power_dims M k) as [D1 _]. rewrite D1 in Hx, Hx'.
  destruct (Nat.eq_dec x x') as [<-|Hne].
  { assert (0 <= pr (fmech_power M k) x S) by (apply pr_nonneg; intros y Hy; apply (power_nonneg M W Hsub k x y Hx Hy)).
    assert (1 <= exp eps) by (rewrite <- exp_0; apply exp_le_iff; lra).
    assert (0 <= Q2R delta) by (rewrite <- q2r_0; apply Qle_Rle, Hd). nra. }
  destruct (pairs2_ok_spec nb M b z1 z2 x x' Hpairs Hx Hx' Hnb Hne) as [Hs Hp].
  pose proof (pair2_facts M b z1 z2 x x' HM Hx Hx' Hs Hp) as (_ & Hb & _).
  eapply Rle_trans; [apply pr_le_hs|].
  - intros y Hy. apply (power_nonneg M W Hsub k x' y Hx' Hy).
  - apply Rlt_le, exp_pos.
  - apply Rplus_le_compat_l.
    rewrite (hs_power_pld M x x' b _ z1 (z2 - z1) (two_pld b z1 z2) W Hsub Hx Hx' Hb
               (pair2_keyed M b z1 z2 x x' HM Hx Hx' Hs Hp) (pair2_pld M b z1 z2 x x' HM Hx Hx' Hs Hp)
               k (exp eps) (Rlt_le _ _ (exp_pos eps))).
    exact (le_check_correct _ _ _ (pld_delta_correct b z1 (z2 - z1) _ k ti _ Hb Ht) Hle).
Qed.

(** Lower side for two-valued losses: the pair (x, x') and the event [loss_event]
    of the k-fold composition violate (ε, δ). *)
Theorem not_dp_power_pld2 (nb : nat -> nat -> bool) (M : fmech) (b : Q) (z1 z2 : Z)
    (k : nat) (eps : R) (ti : I.type) (delta : Q) (x x' : nat) :
  check_distr M = true -> (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  two_ok b z1 z2 = true -> pair2_ok_rows (rows M) b z1 z2 x x' = true -> has ti (exp eps) ->
  gt_check (pld_delta b z1 (z2 - z1) (two_pld b z1 z2) k ti) delta = true ->
  let S := loss_event (fmech_power M k) x x' (exp eps) in
  exp eps * pr (fmech_power M k) x' S + Q2R delta < pr (fmech_power M k) x S /\
  ~ dp nb (fmech_power M k) eps (Q2R delta).
Proof.
  intros HM Hx Hx' Hnb Hs Hp Ht Hgt S.
  destruct (wf_of_check_distr M HM) as [W Hsub].
  pose proof (pair2_facts M b z1 z2 x x' HM Hx Hx' Hs Hp) as (_ & Hb & _).
  pose proof (gt_check_correct _ _ _ (pld_delta_correct b z1 (z2 - z1) _ k ti _ Hb Ht) Hgt) as Hlt.
  rewrite <- (hs_power_pld M x x' b _ z1 (z2 - z1) (two_pld b z1 z2) W Hsub Hx Hx' Hb
               (pair2_keyed M b z1 z2 x x' HM Hx Hx' Hs Hp) (pair2_pld M b z1 z2 x x' HM Hx Hx' Hs Hp)
               k (exp eps) (Rlt_le _ _ (exp_pos eps))) in Hlt.
  assert (Hviol : exp eps * pr (fmech_power M k) x' S + Q2R delta < pr (fmech_power M k) x S).
  { unfold S. rewrite pr_loss_event. lra. }
  split; [exact Hviol|]. intros Hdp.
  destruct (fmech_power_dims M k) as [D1 _].
  specialize (Hdp x x' ltac:(rewrite D1; exact Hx) ltac:(rewrite D1; exact Hx') Hnb S). lra.
Qed.
