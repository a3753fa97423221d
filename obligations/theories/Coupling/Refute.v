(** * Certified counterexamples to claims about programs with untruncated noise

    A claim [dp_prog nb p nvars c] (TapeSem.v) fails as soon as one ε > 0, one
    pair of related inputs [x, x'] and one event [S] give
    Pr[p(x) ∈ S] > e^(c·ε)·Pr[p(x') ∈ S].  Both probabilities are infinite
    sums; they are bracketed by finite windows of noise vectors (Bracket.v):
    Pr[p(x) ∈ S] is at least the sum of the densities of the vectors of a ball
    of radius [R] whose run on [x] lands in [S], and Pr[p(x') ∈ S] is at most 1
    minus the sum over a ball of radius [R'] of the vectors whose run on [x']
    does not.  At
    ε = L·ln(q/p), with every tape position's rate an integer multiple of
    ln(q/p) (RatDens.v), both sums are rationals with a common shape, and
    e^(c·ε) = (q/p)^M when c·L = M: the strict inequality is one comparison of
    integers, which [bracket_check] computes (each vector of the balls is run
    through [texec], the program's own semantics).  Nothing else is assumed:
    the theorem is the negation of the claim, for the program as written. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Import Sums.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment TapeSem InputRel Bracket RatDens.
Import ListNotations.
Local Open Scope R_scope.

(** ** Events: finite sets of output sequences *)

Definition oval_eqb (a b : oval) : bool :=
  match a, b with
  | OTop, OTop | OBot, OBot => true
  | OVal y, OVal z => Z.eqb y z
  | _, _ => false
  end.

Fixpoint outs_eqb (a b : list oval) : bool :=
  match a, b with
  | [], [] => true
  | o :: a', o' :: b' => oval_eqb o o' && outs_eqb a' b'
  | _, _ => false
  end.

(** The event "the run releases one of the sequences of [S]" (a fault is not in it). *)
Definition in_outs (S : list (list oval)) (o : option (list oval)) : bool :=
  match o with
  | Some l => existsb (outs_eqb l) S
  | None => false
  end.

(** ** The check *)

(** [p^M·cnum·zS·q^R' > q^M·q^R·(cden·q^R' − cnum·zN)]: the lower bound of
    Pr[p(x) ∈ S] (the ball of radius [R] around the zero vector) exceeds (q/p)^M
    times the upper bound of Pr[p(x') ∈ S] (the ball of radius [R']). *)
Definition bracket_check (p : stmt) (nvars : nat) (x x' : list Z) (S : option (list oval) -> bool)
    (L : positive) (pp qq : Z) (M : nat) (R R' : Z) : bool :=
  let ns := rexps L (layout p) in
  let zS := zsum pp qq R ns (fun v => S (tape_run p nvars x v)) (ball ns R) in
  let zN := zsum pp qq R' ns (fun v => negb (S (tape_run p nvars x' v))) (ball ns R') in
  let cn := cnum pp qq ns in
  let cd := cden pp qq ns in
  forallb (expo_ok L) (layout p) && (0 <? pp)%Z && (pp <? qq)%Z && (0 <=? R)%Z && (0 <=? R')%Z &&
  (qq ^ Z.of_nat M * qq ^ R * (cd * qq ^ R' - cn * zN) <? pp ^ Z.of_nat M * cn * zS * qq ^ R')%Z.

Lemma ball_bound (L : positive) (ws : list (positive * positive)) (R : Z) :
  forall v, In v (ball (rexps L ws) R) -> length v = length ws /\ (zexp (rexps L ws) v <= R)%Z.
Proof.
  intros v Hv. destruct (in_ball _ _ _ Hv) as [H1 H2]. unfold rexps in H1. rewrite map_length in H1. auto.
Qed.

(** The bracket: a checked pair of balls gives a strict violation at ε = L·ln(q/p). *)
Theorem bracket_violation (p : stmt) (nvars : nat) (x x' : list Z) (S : option (list oval) -> bool)
    (L : positive) (pp qq : Z) (M : nat) (R R' : Z) :
  bracket_check p nvars x x' S L pp qq M R R' = true ->
  (IZR qq / IZR pp) ^ M * prog_prob (eps_at L pp qq) p nvars x' S
    < prog_prob (eps_at L pp qq) p nvars x S.
Proof.
  unfold bracket_check. cbv zeta.
  set (ws := layout p). set (ns := rexps L ws).
  set (zS := zsum pp qq R ns _ (ball ns R)). set (zN := zsum pp qq R' ns _ (ball ns R')).
  set (cn := cnum pp qq ns). set (cd := cden pp qq ns).
  intros H. rewrite !andb_true_iff in H.
  destruct H as [[[[[Hok Hp] Hpq] HR] HR'] Hlt].
  apply Z.ltb_lt in Hp, Hpq, Hlt. apply Z.leb_le in HR, HR'.
  assert (Hq : (0 < pp < qq)%Z) by lia.
  assert (Hts : rates_pos (rates (eps_at L pp qq) p)) by (apply rates_pos_eps, eps_at_pos, Hq).
  (* the lower bound *)
  pose proof (prob_event_ge (rates (eps_at L pp qq) p) (tape_run p nvars x) S (ball ns R) Hts
    (ball_NoDup ns R)) as Hlo.
  unfold rates in Hlo. fold ws in Hlo.
  rewrite (fsum_rat L pp qq R ws (fun v => S (tape_run p nvars x v)) (ball ns R) Hq Hok (ball_bound L ws R))
    in Hlo.
  (* the upper bound *)
  pose proof (prob_event_le (rates (eps_at L pp qq) p) (tape_run p nvars x') S (ball ns R') Hts
    (ball_NoDup ns R')) as Hup.
  unfold rates in Hup. fold ws in Hup.
  rewrite (fsum_rat L pp qq R' ws (fun v => negb (S (tape_run p nvars x' v))) (ball ns R') Hq Hok
    (ball_bound L ws R')) in Hup.
  fold ns cn cd in Hlo, Hup. fold zS in Hlo. fold zN in Hup.
  unfold prog_prob.
  (* the arithmetic *)
  assert (Hcd : (0 < cd)%Z) by (apply cden_pos; [exact Hq|apply rexps_nonneg]).
  assert (Hcn : (0 <= cn)%Z) by (apply cnum_nonneg; [exact Hq|apply rexps_nonneg]).
  assert (HqE : (0 < qq ^ R)%Z) by (apply Z.pow_pos_nonneg; lia).
  assert (HqE' : (0 < qq ^ R')%Z) by (apply Z.pow_pos_nonneg; lia).
  assert (HpM : (0 < pp ^ Z.of_nat M)%Z) by (apply Z.pow_pos_nonneg; lia).
  assert (HqM : (0 < qq ^ Z.of_nat M)%Z) by (apply Z.pow_pos_nonneg; lia).
  apply IZR_lt in Hlt. rewrite !mult_IZR, minus_IZR, !mult_IZR in Hlt.
  apply IZR_lt in Hcd, HqE, HqE', HpM, HqM. apply IZR_le in Hcn.
  assert (Hr : (IZR qq / IZR pp) ^ M = IZR (qq ^ Z.of_nat M) / IZR (pp ^ Z.of_nat M)).
  { rewrite <- !pow_IZR. unfold Rdiv. rewrite Rpow_mult_distr, pow_inv. reflexivity. }
  rewrite Hr.
  set (Px := prob_event (rates (eps_at L pp qq) p) (tape_run p nvars x) S) in *.
  set (Px' := prob_event (rates (eps_at L pp qq) p) (tape_run p nvars x') S) in *.
  assert (HPx' : 0 <= Px') by apply tsum1_nonneg.
  set (a := IZR (qq ^ Z.of_nat M)) in *. set (b := IZR (pp ^ Z.of_nat M)) in *.
  set (e := IZR (qq ^ R)) in *. set (e' := IZR (qq ^ R')) in *.
  set (n := IZR cn) in *. set (d := IZR cd) in *. set (s := IZR zS) in *. set (m := IZR zN) in *.
  (* Px >= n/d·s/e and Px' <= 1 − n/d·m/e'; a·e·(d·e' − n·m) < b·n·s·e' *)
  assert (Hlo' : n * s / (d * e) <= Px) by (eapply Rle_trans; [|exact Hlo]; right; field; lra).
  assert (Hup' : Px' <= (d * e' - n * m) / (d * e')) by (eapply Rle_trans; [exact Hup|]; right; field; lra).
  apply (Rmult_le_compat_l (a / b)) in Hup'; [|apply Rlt_le, Rdiv_lt_0_compat; lra].
  eapply Rle_lt_trans; [exact Hup'|]. eapply Rlt_le_trans; [|exact Hlo'].
  replace (a / b * ((d * e' - n * m) / (d * e'))) with ((a * e * (d * e' - n * m)) / (b * d * e * e'))
    by (field; lra).
  replace (n * s / (d * e)) with ((b * n * s * e') / (b * d * e * e')) by (field; lra).
  apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat; repeat apply Rmult_lt_0_compat; lra|]. lra.
Qed.

(** ** The negation of the claims *)

Lemma exp_mult_ln (c r : R) (M : nat) (L : positive) :
  0 < r -> c * IZR (Zpos L) = INR M -> exp (c * (IZR (Zpos L) * ln r)) = r ^ M.
Proof.
  intros Hr Hc. rewrite <- Rmult_assoc, Hc, Rmult_comm, exp_mult_INR, exp_ln by exact Hr. reflexivity.
Qed.

(** A violation refutes (c·ε)-DP: ε = L·ln(q/p), and c·L = M. *)
Theorem not_dp_prog_of_bracket (nb : list Z -> list Z -> Prop) (p : stmt) (nvars : nat) (c : R)
    (x x' : list Z) (S : option (list oval) -> bool) (L : positive) (pp qq : Z) (M : nat)
    (R R' : Z) :
  nb x x' -> c * IZR (Zpos L) = INR M ->
  bracket_check p nvars x x' S L pp qq M R R' = true ->
  ~ dp_prog nb p nvars c.
Proof.
  intros Hnb Hc Hb Hdp.
  pose proof (bracket_violation p nvars x x' S L pp qq M R R' Hb) as Hv.
  assert (Hq : (0 < pp < qq)%Z).
  { unfold bracket_check in Hb. cbv zeta in Hb. rewrite !andb_true_iff in Hb.
    destruct Hb as [[[[[_ Hp] Hpq] _] _] _]. apply Z.ltb_lt in Hp, Hpq. lia. }
  assert (Hr : 0 < IZR qq / IZR pp) by (apply Rdiv_lt_0_compat; apply IZR_lt; lia).
  specialize (Hdp (eps_at L pp qq) (eps_at_pos L pp qq Hq) x x' Hnb S).
  unfold eps_at in Hdp. rewrite (exp_mult_ln c _ M L Hr Hc) in Hdp. fold (eps_at L pp qq) in Hdp. lra.
Qed.

(** The claim for every stream length fails at one of them. *)
Theorem not_dp_all_k_of_bracket (nb : nat -> list Z -> list Z -> Prop) (p : nat -> stmt) (nvars : nat) (c : R)
    (k : nat) (x x' : list Z) (S : option (list oval) -> bool) (L : positive) (pp qq : Z) (M : nat)
    (R R' : Z) :
  nb k x x' -> c * IZR (Zpos L) = INR M ->
  bracket_check (p k) nvars x x' S L pp qq M R R' = true ->
  ~ dp_all_k nb p nvars c.
Proof. intros Hnb Hc Hb Hdp. exact (not_dp_prog_of_bracket _ _ _ _ _ _ _ _ _ _ _ _ _ Hnb Hc Hb (Hdp k)). Qed.

(** ** Related inputs, decided *)

Fixpoint zlist_eqb (a b : list Z) : bool :=
  match a, b with
  | [], [] => true
  | y :: a', z :: b' => Z.eqb y z && zlist_eqb a' b'
  | _, _ => false
  end.

Lemma zlist_eqb_eq (a b : list Z) : zlist_eqb a b = true -> a = b.
Proof.
  revert b. induction a as [|y a IH]; intros [|z b] H; cbn [zlist_eqb] in H; try discriminate; [reflexivity|].
  apply andb_prop in H as [H1 H2]. apply Z.eqb_eq in H1. subst. f_equal. apply IH, H2.
Qed.

(** The whole input: the public values equal, the streams related by [R] (decided by [rb]). *)
Definition nb_input_b (npub k : nat) (rb : list Z -> list Z -> bool) (x x' : list Z) : bool :=
  Nat.eqb (length x) (npub + k) && zlist_eqb (firstn npub x) (firstn npub x') && rb (skipn npub x) (skipn npub x').

Lemma nb_input_of_b (npub k : nat) (R : list Z -> list Z -> Prop) (rb : list Z -> list Z -> bool)
    (x x' : list Z) :
  (forall a b, rb a b = true -> R a b) -> nb_input_b npub k rb x x' = true -> nb_input npub k R x x'.
Proof.
  intros Hr H. unfold nb_input_b in H. rewrite !andb_true_iff in H. destruct H as [[Hl Hp] Hs].
  split; [apply Nat.eqb_eq, Hl|split; [apply zlist_eqb_eq, Hp|apply Hr, Hs]].
Qed.

Fixpoint rel_each_b (lo hi : Z) (x x' : list Z) : bool :=
  match x, x' with
  | [], [] => true
  | a :: y, b :: y' => (lo <=? b - a)%Z && (b - a <=? hi)%Z && rel_each_b lo hi y y'
  | _, _ => false
  end.

Lemma rel_each_b_ok (lo hi : Z) (x x' : list Z) : rel_each_b lo hi x x' = true -> rel_each lo hi x x'.
Proof.
  revert x'. induction x as [|a x IH]; intros [|b x'] H; cbn [rel_each_b] in H; try discriminate.
  - constructor.
  - rewrite !andb_true_iff in H. destruct H as [[H1 H2] H3]. apply Z.leb_le in H1, H2.
    constructor; [lia|apply IH, H3].
Qed.

Definition rel_either_b (b1 b2 : list Z -> list Z -> bool) (x x' : list Z) : bool := b1 x x' || b2 x x'.

Lemma rel_either_b_ok (R1 R2 : list Z -> list Z -> Prop) (b1 b2 : list Z -> list Z -> bool) :
  (forall x x', b1 x x' = true -> R1 x x') -> (forall x x', b2 x x' = true -> R2 x x') ->
  forall x x', rel_either_b b1 b2 x x' = true -> rel_either R1 R2 x x'.
Proof.
  intros H1 H2 x x' H. unfold rel_either_b in H. apply orb_true_iff in H as [H|H]; [left|right]; auto.
Qed.

(** Exactly one answer differs (at most: all others equal), by at most Δ. *)
Fixpoint rel_one_b (delta : Z) (x x' : list Z) : bool :=
  match x, x' with
  | [], [] => true
  | a :: y, b :: y' => if Z.eqb a b then rel_one_b delta y y' else (Z.abs (a - b) <=? delta)%Z && zlist_eqb y y'
  | _, _ => false
  end.

Lemma rel_one_b_ok (delta : Z) (x x' : list Z) : (0 <= delta)%Z -> rel_one_b delta x x' = true -> rel_one delta x x'.
Proof.
  intros Hd. revert x'. induction x as [|a x IH]; intros [|b x'] H; cbn [rel_one_b] in H; try discriminate.
  - split; [reflexivity|]. exists O. split; [intros [|i] _; reflexivity|cbn; lia].
  - destruct (Z.eqb_spec a b) as [<-|Hab].
    + destruct (IH x' H) as [Hl [j [Hj Hdj]]]. split; [cbn [length]; lia|]. exists (S j). split.
      * intros [|i] Hi; [reflexivity|]. cbn [nth]. apply Hj. lia.
      * exact Hdj.
    + apply andb_prop in H as [H1 H2]. apply Z.leb_le in H1. apply zlist_eqb_eq in H2. subst x'.
      split; [reflexivity|]. exists O. split; [intros [|i] Hi; [lia|reflexivity]|exact H1].
Qed.

Definition rel_l1_b (delta : Z) (x x' : list Z) : bool := Nat.eqb (length x) (length x') && (l1 x x' <=? delta)%Z.

Lemma rel_l1_b_ok (delta : Z) (x x' : list Z) : rel_l1_b delta x x' = true -> rel_l1 delta x x'.
Proof.
  intros H. unfold rel_l1_b in H. apply andb_prop in H as [H1 H2].
  split; [apply Nat.eqb_eq, H1|apply Z.leb_le, H2].
Qed.
