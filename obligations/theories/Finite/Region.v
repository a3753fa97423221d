(** * Privacy regions (seed 001, Theorem 2)

    A finite mechanism [M] is (ε, δ)-DP iff its privacy region [R(M)] (the
    points reached by tests on neighbouring inputs) lies in the region
    [R(ε, δ)] cut out by the two tangent lines
    [1 − δ ≤ p_x + e^ε p_y] and [1 − δ ≤ e^ε p_x + p_y]. *)
From Coq Require Import List Bool Reals Lra QArith Qreals.
From Obligations.Core Require Import Sums.
From Obligations.Finite Require Import Mechanism Neighbours DP.
Import ListNotations.

(** ** Definitions *)

(** R(ε, δ): the points (p_x, p_y) above both tangent lines. *)
Definition region_eps (eps delta : R) (px py : R) : Prop :=
  (1 - delta <= px + exp eps * py)%R /\ (1 - delta <= exp eps * px + py)%R.

(** [wsum M x α] is the weighted sum Σ_y α_y M(x)(y): the expected value of
    the test α on the output of M(x). *)
Definition wsum (M : fmech) (x : nat) (alpha : nat -> R) : R :=
  rsum (map (fun y => alpha y * prob M x y)%R (seq 0 (n_out M))).

(** A fractional test α ∈ [0,1]^outputs gives the point
    (Σ_y α_y M(x)(y), Σ_y (1 − α_y) M(x')(y)); for α the indicator of S it is
    (Pr[M(x) ∈ S], Pr[M(x') ∉ S]).  R(M, x, x') is the set of these points. *)
Definition test_point (M : fmech) (x x' : nat) (alpha : nat -> R) : R * R :=
  (wsum M x alpha, wsum M x' (fun y => 1 - alpha y)%R).

Definition test (M : fmech) (alpha : nat -> R) : Prop :=
  forall y, (y < n_out M)%nat -> (0 <= alpha y <= 1)%R.

(** R(M) ⊆ R(ε, δ): every neighbour pair, every test. *)
Definition region_within (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) : Prop :=
  forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  forall alpha, test M alpha ->
  region_eps eps delta (fst (test_point M x x' alpha)) (snd (test_point M x x' alpha)).

Lemma test_point_wsum (M : fmech) (x x' : nat) (alpha : nat -> R) :
  test_point M x x' alpha = (wsum M x alpha, wsum M x' (fun y => 1 - alpha y)%R).
Proof. reflexivity. Qed.

(** ** Weighted sums of a mechanism row *)

Lemma wsum_ext (M : fmech) (x : nat) (alpha beta : nat -> R) :
  (forall y, (y < n_out M)%nat -> alpha y = beta y) -> wsum M x alpha = wsum M x beta.
Proof.
  intros Hab. unfold wsum. apply rsum_ext_in. intros y Hy.
  apply in_seq in Hy as [_ Hy]. now rewrite Hab.
Qed.

(** The probability of an event is the weighted sum of its indicator. *)
Lemma pr_wsum (M : fmech) (x : nat) (S : event) :
  pr M x S = wsum M x (fun y => if S y then 1 else 0)%R.
Proof.
  unfold pr, wsum. apply rsum_ext_in. intros y _.
  destruct (S y); ring.
Qed.

Lemma wsum_one (M : fmech) (x : nat) :
  distr M -> (x < n_in M)%nat -> wsum M x (fun _ => 1%R) = 1%R.
Proof.
  intros HM Hx. destruct (HM x Hx) as [_ H1].
  rewrite pr_wsum in H1. exact H1.
Qed.

(** On a distribution row, the complementary test has the complementary value. *)
Lemma rsum_complement (M : fmech) (x : nat) (alpha : nat -> R) :
  distr M -> (x < n_in M)%nat ->
  wsum M x (fun y => 1 - alpha y)%R = (1 - wsum M x alpha)%R.
Proof.
  intros HM Hx.
  transitivity (wsum M x (fun _ => 1%R) - wsum M x alpha)%R.
  - unfold wsum. rewrite <- rsum_minus. apply rsum_ext_in. intros y _. ring.
  - now rewrite wsum_one.
Qed.

(** ** The region inequalities as DP inequalities *)

(** On distributions, the point of the test α lies in R(ε, δ) iff the DP
    inequality holds for the test 1 − α on (x, x') and for the test α on
    (x', x). *)
Lemma region_eps_test_point (M : fmech) (x x' : nat) (eps delta : R) (alpha : nat -> R) :
  distr M -> (x < n_in M)%nat -> (x' < n_in M)%nat ->
  region_eps eps delta (fst (test_point M x x' alpha)) (snd (test_point M x x' alpha)) <->
  (wsum M x (fun y => 1 - alpha y) <= exp eps * wsum M x' (fun y => 1 - alpha y) + delta)%R /\
  (wsum M x' alpha <= exp eps * wsum M x alpha + delta)%R.
Proof.
  intros HM Hx Hx'. rewrite test_point_wsum. cbn [fst snd]. unfold region_eps.
  rewrite !rsum_complement by assumption.
  split; intros [H1 H2]; split; lra.
Qed.

(** The hockey-stick set S⁺ = {y | e^ε M(x')(y) < M(x)(y)}. *)
Definition hockey_event (M : fmech) (x x' : nat) (eps : R) : event :=
  fun y => if Rlt_dec (exp eps * prob M x' y) (prob M x y) then true else false.

(** Pointwise: β (p − c q) ≤ max(0, p − c q) for β ∈ [0, 1]. *)
Lemma test_le_hockey (b p cq : R) :
  (0 <= b <= 1)%R ->
  (b * p - b * cq <= (if Rlt_dec cq p then p - cq else 0))%R.
Proof.
  intros [Hb0 Hb1]. destruct (Rlt_dec cq p) as [Hlt|Hge].
  - assert (0 <= (1 - b) * (p - cq))%R by (apply Rmult_le_pos; lra). nra.
  - assert (0 <= b * (cq - p))%R by (apply Rmult_le_pos; lra). nra.
Qed.

(** The gap of a fractional test is at most the gap of S⁺. *)
Lemma wsum_gap_le_hockey (M : fmech) (x x' : nat) (eps : R) (beta : nat -> R) :
  test M beta ->
  (wsum M x beta - exp eps * wsum M x' beta <=
   pr M x (hockey_event M x x' eps) - exp eps * pr M x' (hockey_event M x x' eps))%R.
Proof.
  intros Hbeta. unfold wsum, pr.
  rewrite <- !rsum_scal, <- !rsum_minus.
  apply rsum_le. intros y Hy. apply in_seq in Hy as [_ Hy].
  pose proof (test_le_hockey (beta y) (prob M x y) (exp eps * prob M x' y) (Hbeta y Hy)) as H.
  unfold hockey_event. destruct (Rlt_dec (exp eps * prob M x' y) (prob M x y)); lra.
Qed.

(** DP over events extends to fractional tests. *)
Lemma dp_test (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) :
  dp nb M eps delta ->
  forall x x', (x < n_in M)%nat -> (x' < n_in M)%nat -> nb x x' = true ->
  forall beta, test M beta ->
  (wsum M x beta <= exp eps * wsum M x' beta + delta)%R.
Proof.
  intros Hdp x x' Hx Hx' Hnb beta Hbeta.
  pose proof (wsum_gap_le_hockey M x x' eps beta Hbeta) as Hgap.
  pose proof (Hdp x x' Hx Hx' Hnb (hockey_event M x x' eps)) as Hev.
  lra.
Qed.

Lemma test_complement (M : fmech) (alpha : nat -> R) :
  test M alpha -> test M (fun y => 1 - alpha y)%R.
Proof. intros Ha y Hy. specialize (Ha y Hy). lra. Qed.

(** The indicator of the complement of an event is a test. *)
Lemma test_co_indicator (M : fmech) (S : event) :
  test M (fun y => if S y then 0 else 1)%R.
Proof. intros y _. destruct (S y); lra. Qed.

(** ** Theorem 2 *)

Theorem dp_iff_region_within (nb : nat -> nat -> bool) (M : fmech) (eps delta : R) :
  distr M -> symmetric nb ->
  dp nb M eps delta <-> region_within nb M eps delta.
Proof.
  intros HM Hsym. split.
  - intros Hdp x x' Hx Hx' Hnb alpha Halpha.
    apply region_eps_test_point; [assumption..|]. split.
    + apply (dp_test nb M eps delta Hdp x x'); [assumption..|].
      apply test_complement, Halpha.
    + apply (dp_test nb M eps delta Hdp x' x); [assumption|assumption| |assumption].
      now rewrite Hsym.
  - intros Hreg x x' Hx Hx' Hnb S.
    pose proof (Hreg x x' Hx Hx' Hnb _ (test_co_indicator M S)) as H.
    apply region_eps_test_point in H as [H _]; [|assumption..].
    assert (Hco : forall z, wsum M z (fun y => 1 - (if S y then 0 else 1))%R = pr M z S).
    { intros z. rewrite pr_wsum. apply wsum_ext. intros y _. destruct (S y); ring. }
    rewrite !Hco in H. exact H.
Qed.
