(** * Differential privacy of additive noise over Z run K times, from box bounds

    [zdens p x K v] is the probability that K runs of the noise [p] added to the input [x]
    give the vector [v] (0 unless [v] has length K); [zpr] is the probability of an event, a
    least upper bound of finite sums (Coupling/LubSum.v), and [zdp] is (ε, δ)-DP for inputs
    at distance at most Δ.  [zdp_pair_of_box]: if the hockey-stick sum over every large
    enough box is at most δ, the pair meets (ε, δ) for every event.  [zpr_loss_box]: the
    pair's loss event inside a box reaches the box's sum, so a sum above δ refutes
    (ε, δ)-DP ([not_zdp_of_box]). *)
From Coq Require Import List Bool ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Coupling Require Import LubSum Geometric Product.
From Obligations.Accountant Require Import NoiseBox.
Import ListNotations.

Local Open Scope R_scope.

Definition zdens (p : Z -> R) (x : Z) (K : nat) (v : list Z) : R :=
  if Nat.eqb (length v) K then vp (fun y => p (y - x)%Z) v else 0.

Definition zpr (p : Z -> R) (x : Z) (K : nat) (S : list Z -> bool) : R :=
  tsum1 (fun v => if S v then zdens p x K v else 0).

(** (ε, δ)-DP of K runs of the noise [p], inputs at distance at most Δ neighbours. *)
Definition zdp (p : Z -> R) (Delta : Z) (K : nat) (eps delta : R) : Prop :=
  forall x x' : Z, (Z.abs (x - x') <= Delta)%Z -> forall S, zpr p x K S <= exp eps * zpr p x' K S + delta.

Section Noise.
Variables (p : Z -> R) (K : nat).
Hypothesis Hp : forall z, 0 <= p z.
Hypothesis Hsum : sum_le p 1.

Lemma box_length (n m : nat) (v : list Z) : In v (box n m) -> length v = n.
Proof.
  revert v. induction n as [|n IH]; intros v Hv; cbn [box] in Hv.
  - destruct Hv as [<-|[]]. reflexivity.
  - apply in_flat_map in Hv as [z [_ Hv]]. apply in_map_iff in Hv as [w [<- Hw]]. cbn [length]. rewrite (IH w Hw). reflexivity.
Qed.

Lemma nodup_app {A} (l1 l2 : list A) :
  NoDup l1 -> NoDup l2 -> (forall a, In a l1 -> In a l2 -> False) -> NoDup (l1 ++ l2).
Proof.
  intros H1 H2 Hd. induction H1 as [|a l1 Ha H1 IH]; cbn [app]; [exact H2|].
  constructor.
  - intros Hin. apply in_app_or in Hin as [Hin|Hin]; [contradiction|]. apply (Hd a); [now left|exact Hin].
  - apply IH. intros b Hb Hb2. apply (Hd b); [now right|exact Hb2].
Qed.

Lemma box_NoDup (n m : nat) : NoDup (box n m).
Proof.
  induction n as [|n IH]; cbn [box]; [constructor; [intros []|constructor]|].
  induction (win_NoDup m) as [|z zs Hz Hzs IHz]; cbn [flat_map]; [constructor|].
  apply nodup_app; [apply nodup_map_on; [intros a c _ _ E; injection E; auto|exact IH]|exact IHz|].
  intros v Hv Hv'. apply in_map_iff in Hv as [w [<- _]]. apply in_flat_map in Hv' as [z' [Hz' Hv']].
  apply in_map_iff in Hv' as [w' [E _]]. injection E as -> _. contradiction.
Qed.

(** All entries of every vector of [l] within [m]. *)
Definition vmax (l : list (list Z)) : nat := fold_right (fun v acc => fold_right (fun z a => Nat.max (Z.abs_nat z) a) acc v) O l.

Lemma vmax_spec (l : list (list Z)) (v : list Z) (z : Z) : In v l -> In z v -> (Z.abs_nat z <= vmax l)%nat.
Proof.
  unfold vmax. induction l as [|w l IH]; cbn [In fold_right]; [tauto|].
  intros [->|Hv] Hz.
  - set (acc := fold_right _ O l). clear IH. induction v as [|y v IHv]; cbn [In fold_right] in *; [tauto|].
    destruct Hz as [<-|Hz]; [lia|]. specialize (IHv Hz). lia.
  - specialize (IH Hv Hz). set (acc := fold_right _ O l) in *. clear -IH.
    induction w as [|y w IHw]; cbn [fold_right]; lia.
Qed.

Lemma shifted_window_le (x : Z) (m : nat) : rsum (map (fun y => p (y - x)%Z) (win m)) <= 1.
Proof.
  rewrite <- (rsum_map_map p (fun y => (y - x)%Z)). apply Hsum.
  apply nodup_map_on; [intros a c _ _ E; lia|apply win_NoDup].
Qed.

Lemma zdens_box (x : Z) (m : nat) : rsum (map (zdens p x K) (box K m)) <= 1.
Proof.
  apply Rle_trans with (rsum (map (vp (fun y => p (y - x)%Z)) (box K m))).
  - right. apply rsum_ext_in. intros v Hv. unfold zdens. rewrite (box_length _ _ _ Hv), Nat.eqb_refl. reflexivity.
  - rewrite fsum_vp_box. rewrite <- (pow1 K). apply pow_incr. split; [apply rsum_map_nonneg; intros; apply Hp|].
    apply shifted_window_le.
Qed.

Lemma zdens_nonneg (x : Z) (v : list Z) : 0 <= zdens p x K v.
Proof. unfold zdens. destruct (Nat.eqb _ _); [apply vp_nonneg; intros; apply Hp|lra]. Qed.

(** Each finite sum over distinct vectors lies in a box (of any size at least [m0]). *)
Lemma fsum_in_box (f : list Z -> R) (l : list (list Z)) (m0 : nat) :
  (forall v, 0 <= f v) -> (forall v, length v <> K -> f v = 0) -> NoDup l ->
  rsum (map f l) <= rsum (map f (box K (Nat.max m0 (vmax l)))).
Proof.
  intros Hf Hk Hnd. apply rsum_map_sub; [exact Hf|exact Hnd|]. intros v Hv H0.
  apply in_box.
  - destruct (Nat.eq_dec (length v) K) as [E|E]; [exact E|]. exfalso. apply H0, Hk, E.
  - intros z Hz. pose proof (vmax_spec l v z Hv Hz). lia.
Qed.

Lemma zdens_sum_le (x : Z) : sum_le (zdens p x K) 1.
Proof.
  intros l Hnd. eapply Rle_trans; [apply (fsum_in_box _ l O (zdens_nonneg x)); [|exact Hnd]|apply zdens_box].
  intros v Hv. unfold zdens. apply Nat.eqb_neq in Hv. rewrite Hv. reflexivity.
Qed.

(** The pair meets (ε, δ) when every large enough box's hockey-stick sum is at most δ. *)
Theorem zdp_pair_of_box (x x' : Z) (eps delta : R) (m0 : nat) :
  (forall m, (m0 <= m)%nat -> hsbox (fun y => p (y - x)%Z) (fun y => p (y - x')%Z) K m (exp eps) <= delta) ->
  forall S, zpr p x K S <= exp eps * zpr p x' K S + delta.
Proof.
  intros Hbox S. unfold zpr at 1. apply tsum1_le. intros l Hnd.
  set (t := exp eps). assert (Ht : 0 < t) by apply exp_pos.
  set (g := fun v => if S v then zdens p x' K v else 0).
  set (h := fun v => Rmax 0 (zdens p x K v - t * zdens p x' K v)).
  apply Rle_trans with (t * rsum (map g l) + rsum (map h l)).
  { rewrite <- rsum_scal. rewrite <- rsum_plus. apply rsum_le. intros v _. unfold g, h.
    pose proof (Rmax_l 0 (zdens p x K v - t * zdens p x' K v)). pose proof (Rmax_r 0 (zdens p x K v - t * zdens p x' K v)).
    pose proof (zdens_nonneg x v). pose proof (zdens_nonneg x' v).
    destruct (S v); nra. }
  apply Rplus_le_compat.
  - apply Rmult_le_compat_l; [lra|]. apply tsum1_ge; [exact Hnd|].
    eapply Rle_trans; [|apply (zdens_sum_le x' l Hnd)]. apply rsum_le. intros v _. unfold g.
    destruct (S v); [lra|apply zdens_nonneg].
  - eapply Rle_trans; [apply (fsum_in_box h l m0); [intros; apply Rmax_l| |exact Hnd]|].
    + intros v Hv. unfold h, zdens. apply Nat.eqb_neq in Hv. rewrite Hv. rewrite Rmult_0_r, Rminus_0_r. apply Rmax_left. lra.
    + eapply Rle_trans; [|apply (Hbox (Nat.max m0 (vmax l))); lia]. right. unfold hsbox. apply rsum_ext_in.
      intros v Hv. unfold h, zdens. rewrite (box_length _ _ _ Hv), Nat.eqb_refl. reflexivity.
Qed.

(** The loss event of the pair inside the box [−m, m]^K. *)
Definition loss_box (x x' : Z) (m : nat) (t : R) (v : list Z) : bool :=
  Nat.eqb (length v) K && forallb (fun z => Nat.leb (Z.abs_nat z) m) v &&
  (if Rlt_dec (t * zdens p x' K v) (zdens p x K v) then true else false).

Lemma loss_box_in (x x' : Z) (m : nat) (t : R) (v : list Z) : loss_box x x' m t v = true -> In v (box K m).
Proof.
  unfold loss_box. intros H. apply andb_prop in H as [H _]. apply andb_prop in H as [Hl Hz].
  apply in_box; [apply Nat.eqb_eq, Hl|]. intros z Hin. rewrite forallb_forall in Hz. apply Nat.leb_le, Hz, Hin.
Qed.

(** An event inside a box has the box's finite sum as its probability. *)
Lemma zpr_in_box (x : Z) (m : nat) (S : list Z -> bool) :
  (forall v, S v = true -> In v (box K m)) ->
  zpr p x K S = rsum (map (fun v => if S v then zdens p x K v else 0) (box K m)).
Proof.
  intros HS. set (f := fun v => if S v then zdens p x K v else 0).
  assert (Hf : forall v, 0 <= f v) by (intros v; unfold f; destruct (S v); [apply zdens_nonneg|lra]).
  assert (Hbox : rsum (map f (box K m)) <= 1).
  { eapply Rle_trans; [|apply (zdens_box x m)]. apply rsum_le. intros v _. unfold f. destruct (S v); [lra|apply zdens_nonneg]. }
  apply Rle_antisym.
  - apply tsum1_le. intros l Hnd. apply rsum_map_sub; [exact Hf|exact Hnd|]. intros v _ H0. apply HS.
    unfold f in H0. destruct (S v); [reflexivity|contradiction].
  - apply tsum1_ge; [apply box_NoDup|exact Hbox].
Qed.

(** The loss event inside the box reaches the box's hockey-stick sum. *)
Lemma zpr_loss_box (x x' : Z) (m : nat) (t : R) :
  let S := loss_box x x' m t in
  zpr p x K S = t * zpr p x' K S + hsbox (fun y => p (y - x)%Z) (fun y => p (y - x')%Z) K m t.
Proof.
  intros S. rewrite !(zpr_in_box _ m S) by (apply loss_box_in). unfold hsbox.
  rewrite <- rsum_scal. rewrite <- rsum_plus. apply rsum_ext_in. intros v Hv.
  unfold S, loss_box. rewrite (box_length _ _ _ Hv), Nat.eqb_refl. cbn [andb].
  rewrite (proj2 (forallb_forall _ v)).
  - unfold zdens. rewrite (box_length _ _ _ Hv), Nat.eqb_refl.
    destruct (Rlt_dec _ _) as [H|H]; cbv iota.
    + cbn [andb]. rewrite Rmax_right by lra. ring.
    + cbn [andb]. rewrite Rmax_left by lra. ring.
  - intros z Hz. apply Nat.leb_le. clear -Hv Hz. revert v Hv Hz. induction K as [|n IH]; intros v Hv Hz.
    + cbn [box] in Hv. destruct Hv as [<-|[]]. destruct Hz.
    + cbn [box] in Hv. apply in_flat_map in Hv as [y [Hy Hv]]. apply in_map_iff in Hv as [w [<- Hw]].
      destruct Hz as [<-|Hz]; [apply in_win, Hy|apply (IH w Hw Hz)].
Qed.

(** A box whose hockey-stick sum exceeds δ refutes (ε, δ)-DP, with the loss event inside it. *)
Theorem not_zdp_of_box (Delta : Z) (x x' : Z) (eps delta : R) (m : nat) :
  (Z.abs (x - x') <= Delta)%Z ->
  delta < hsbox (fun y => p (y - x)%Z) (fun y => p (y - x')%Z) K m (exp eps) ->
  let S := loss_box x x' m (exp eps) in
  exp eps * zpr p x' K S + delta < zpr p x K S /\ ~ zdp p Delta K eps delta.
Proof.
  intros HD Hlt S. pose proof (zpr_loss_box x x' m (exp eps)) as E. fold S in E.
  assert (Hv : exp eps * zpr p x' K S + delta < zpr p x K S) by lra.
  split; [exact Hv|]. intros Hdp. specialize (Hdp x x' HD S). lra.
Qed.
End Noise.
