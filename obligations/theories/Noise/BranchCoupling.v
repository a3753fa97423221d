(** * Pairing each sign of the noise with itself: δ = 1 − e^(−r|d|)

    Seed 000's argument keeps the sign [S] and scales [u]: on the branch [s],
    the noise [u] whose Laplace value is [d] more is [k u] with
    [k = e^(sgn s r d)] ([branch_rel], [branch_rel_scale]).  The witnesses are
    the laws of [(u, k u)] and [(u' / k, u')] for [u], [u'] uniform on (0,1]
    ([branch_left], [branch_right]); partners may lie above 1, where the
    uniform law has no mass.  They satisfy Definition 3 with
    [δ = 1 − e^(−r D)] for [|d| <= D] ([branch_lifting]).

    On the branch that [k > 1] stretches, that δ is the least possible: the
    noise [u > 1/k] has no partner in (0,1], and for every choice of witnesses
    (any [w], any sub-probability outer measures) with support in
    [branch_rel], [δ >= 1 − 1/k] ([branch_lifting_tight]).  The mirror
    coupling (Mirror.v) gets δ = 0 by pairing that part with the other sign. *)
From Coq Require Import Reals Lra Classical.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure UniformOuter Snapping NoiseLaw SetLifting.
Local Open Scope R_scope.

(** The same noisy value on the branch [s]: [x + d = x']. *)
Definition branch_rel (r d : R) (s : sign) (u u' : R) : Prop :=
  0 < u /\ 0 < u' /\ lap r (u, s) + d = lap r (u', s).

(** The factor of the branch. *)
Definition branch_k (r d : R) (s : sign) : R := exp (sgn s * (r * d)).

Definition branch_left (r d : R) (s : sign) (E : R * R -> Prop) : R :=
  uouter (fun u => E (u, branch_k r d s * u)).

Definition branch_right (r d : R) (s : sign) (E : R * R -> Prop) : R :=
  uouter (fun u' => E (/ branch_k r d s * u', u')).

Lemma sgn_sq s : sgn s * sgn s = 1.
Proof. destruct s; cbn [sgn]; ring. Qed.

Lemma lap_shift_iff r d s a b : 0 < r ->
  (sgn s * (/ r * a) + d = sgn s * (/ r * b) <-> b = a + sgn s * (r * d)).
Proof.
  intros Hr. split; intros H.
  - transitivity (sgn s * sgn s * b); [rewrite sgn_sq; ring|].
    transitivity (sgn s * r * (sgn s * (/ r * b))); [field; lra|].
    rewrite <- H. transitivity (sgn s * sgn s * a + sgn s * (r * d)); [field; lra|]. rewrite sgn_sq. ring.
  - rewrite H. transitivity (sgn s * (/ r * a) + sgn s * sgn s * d); [rewrite sgn_sq; ring|]. field. lra.
Qed.

(** On positive reals, [branch_rel] is the graph of [u ↦ k u]. *)
Lemma branch_rel_scale r d s u u' : 0 < r -> 0 < u -> 0 < u' ->
  (branch_rel r d s u u' <-> u' = branch_k r d s * u).
Proof.
  intros Hr Hu Hu'. unfold branch_rel, branch_k, lap. cbn [fst snd].
  rewrite (lap_shift_iff r d s (ln u) (ln u') Hr).
  assert (Hk : 0 < exp (sgn s * (r * d)) * u) by (apply Rmult_lt_0_compat; [apply exp_pos|exact Hu]).
  split.
  - intros (_ & _ & H). apply ln_inv; [exact Hu'|exact Hk|].
    rewrite ln_mult, ln_exp by (apply exp_pos || exact Hu). rewrite H. ring.
  - intros ->. split; [exact Hu|split; [exact Hk|]].
    rewrite ln_mult, ln_exp by (apply exp_pos || exact Hu). ring.
Qed.

Lemma branch_k_pos r d s : 0 < branch_k r d s.
Proof. apply exp_pos. Qed.

Lemma branch_k_bounds r d D s : 0 < r -> Rabs d <= D ->
  exp (- (r * D)) <= branch_k r d s <= exp (r * D).
Proof.
  intros Hr HD. unfold branch_k. split; apply exp_le_iff; unfold Rabs in HD;
    destruct (Rcase_abs d); destruct s; cbn [sgn]; nra.
Qed.

Lemma branch_left_subdistr r d s : set_subdistr (branch_left r d s).
Proof.
  unfold branch_left. split; [|split; [|split]].
  - intros E. apply uouter_nonneg.
  - intros E F H. apply uouter_mono. intros u _. apply H.
  - intros E F G H. apply uouter_union. intros u _. apply H.
  - apply uouter_le_1.
Qed.

Lemma branch_right_subdistr r d s : set_subdistr (branch_right r d s).
Proof.
  unfold branch_right. split; [|split; [|split]].
  - intros E. apply uouter_nonneg.
  - intros E F H. apply uouter_mono. intros u _. apply H.
  - intros E F G H. apply uouter_union. intros u _. apply H.
  - apply uouter_le_1.
Qed.

(** [(1/k, 1]] has length at most [1 - e^(-r D)]. *)
Lemma branch_unpaired r d D s : 0 < r -> Rabs d <= D ->
  uouter (fun u => / branch_k r d s < u) <= 1 - exp (- (r * D)).
Proof.
  intros Hr HD. pose proof (branch_k_bounds r d D s Hr HD) as [Hlo Hhi].
  pose proof (branch_k_pos r d s) as Hk.
  rewrite (uouter_umeasure (fun u => / branch_k r d s < u) _ (umeasure_Ioi _ (/ branch_k r d s) (fun u _ => iff_refl _))).
  assert (exp (- (r * D)) <= / branch_k r d s).
  { rewrite exp_Ropp. apply Rinv_le_contravar; [exact Hk|exact Hhi]. }
  pose proof (exp_pos (- (r * D))). pose proof (exp_le_1 (- (r * D)) ltac:(pose proof (Rabs_pos d); nra)).
  unfold ulen_from. split_minmax; lra.
Qed.

(** Definition 3 with [δ = 1 - e^(-r D)] on the branch [s]. *)
Theorem branch_lifting r d D s : 0 < r -> Rabs d <= D ->
  set_lifting_with (branch_rel r d s) (exp (r * D)) (1 - exp (- (r * D)))
    uouter uouter (branch_left r d s) (branch_right r d s).
Proof.
  intros Hr HD. pose proof (branch_k_pos r d s) as Hk.
  pose proof (branch_k_bounds r d D s Hr HD) as [Hlo Hhi].
  split; [|split; [|split; [|split]]].
  - intros P. reflexivity.
  - intros Q. reflexivity.
  - apply uouter_null. intros u Hu H. apply H. cbn [fst snd].
    apply branch_rel_scale; [exact Hr|lra|nra|reflexivity].
  - apply uouter_null. intros u Hu H. apply H. cbn [fst snd].
    assert (0 < / branch_k r d s) by (apply Rinv_0_lt_compat, Hk).
    apply branch_rel_scale; [exact Hr|nra|lra|field; lra].
  - intros E. unfold branch_left, branch_right.
    set (k := branch_k r d s) in *.
    eapply Rle_trans.
    { apply (uouter_union _ (fun u => E (u, k * u) /\ u <= / k) (fun u => / k < u)).
      intros u _ HE. destruct (Rle_or_lt u (/ k)); [left; split|right]; assumption. }
    apply Rplus_le_compat; [|apply branch_unpaired; assumption].
    eapply Rle_trans.
    + apply (uouter_image_scale (/ k) _ (fun u' => E (/ k * u', u'))); [left; apply Rinv_0_lt_compat, Hk|].
      intros x Hx [HE Hxk]. exists (k * x). split; [split; [nra|]|split].
      * apply (Rmult_le_reg_l (/ k)); [apply Rinv_0_lt_compat, Hk|].
        rewrite <- Rmult_assoc, Rinv_l by lra. lra.
      * replace (/ k * (k * x)) with x by (field; lra). exact HE.
      * field. lra.
    + apply Rmult_le_compat_r; [apply uouter_nonneg|].
      replace (exp (r * D)) with (/ exp (- (r * D))) by (rewrite exp_Ropp, Rinv_inv; reflexivity).
      apply Rinv_le_contravar; [apply exp_pos|exact Hlo].
Qed.

(** No witnesses do better on the branch that [k > 1] stretches. *)
Theorem branch_lifting_tight r d s w delta muL muR : 0 < r -> 1 <= branch_k r d s ->
  set_subdistr muL ->
  set_lifting_with (branch_rel r d s) w delta uouter uouter muL muR ->
  1 - / branch_k r d s <= delta.
Proof.
  intros Hr Hk1 (_ & HmL & HsL & _) (HL & HR & SL & _ & Hdil).
  pose proof (branch_k_pos r d s) as Hk. set (k := branch_k r d s) in *.
  set (E := fun xy : R * R => 1 < snd xy).
  assert (HRE : muR E = 0).
  { unfold E. rewrite (HR (fun u' => 1 < u')). apply uouter_null. intros u Hu H. lra. }
  assert (HLE : 1 - / k <= muL E).
  { assert (Hlen : uouter (fun u => / k < u) = 1 - / k).
    { rewrite (uouter_umeasure (fun u => / k < u) _ (umeasure_Ioi _ (/ k) (fun u _ => iff_refl _))).
      assert (0 < / k <= 1) by (split; [apply Rinv_0_lt_compat, Hk|rewrite <- Rinv_1; apply Rinv_le_contravar; lra]).
      unfold ulen_from. split_minmax; lra. }
    rewrite <- Hlen. rewrite <- (HL (fun u => / k < u)).
    rewrite <- (Rplus_0_r (muL E)), <- SL. apply HsL.
    intros [u u'] Hu. cbn [fst snd] in *. unfold E. cbn [snd].
    destruct (classic (branch_rel r d s u u')) as [H|H]; [left|right; exact H].
    destruct H as (Hu0 & Hu'0 & H).
    rewrite (proj1 (branch_rel_scale r d s u u' Hr Hu0 Hu'0) (conj Hu0 (conj Hu'0 H))).
    fold k. apply (Rmult_lt_compat_l k) in Hu; [|exact Hk]. rewrite Rinv_r in Hu by lra. exact Hu. }
  pose proof (Hdil E). rewrite HRE, Rmult_0_r, Rplus_0_l in *. lra.
Qed.

(** ** The snapping mechanism, branch by branch *)

(** Partners have the same noisy value, so the same output whatever follows. *)
Lemma branch_rel_same_value r c c' s u u' :
  branch_rel r (c - c') s u u' -> c + lap r (u, s) = c' + lap r (u', s).
Proof. intros (_ & _ & H). rewrite <- H. ring. Qed.

(** Query values [c], [c'] at most [dist] apart, claim [eps >= r dist]: on each
    branch, Definition 3 holds with [(eps, 1 - e^(-eps))]. *)
Theorem snap_branch_lifting r dist eps c c' s : 0 < r -> Rabs (c - c') <= dist -> r * dist <= eps ->
  set_lifting_with (branch_rel r (c - c') s) (exp eps) (1 - exp (- eps))
    uouter uouter (branch_left r (c - c') s) (branch_right r (c - c') s).
Proof.
  intros Hr Hd He.
  apply (set_lifting_with_weaken (branch_rel r (c - c') s) _ (exp (r * dist)) _ (1 - exp (- (r * dist))));
    [apply branch_left_subdistr|apply branch_right_subdistr|tauto| | |exact (branch_lifting r _ dist s Hr Hd)].
  - apply exp_le_iff, He.
  - assert (exp (- eps) <= exp (- (r * dist))) by (apply exp_le_iff; lra). lra.
Qed.

(** The same for the relation "same noisy value on the branch, hence the same
    output" of mechanisms that depend on the noise only through [c + x]
    (for every [u > 0]: partners may lie above 1). *)
Theorem snap_branch_lifting_same r dist eps c c' s (mech mech' : R -> sign -> R) :
  0 < r -> Rabs (c - c') <= dist -> r * dist <= eps ->
  (forall u u', 0 < u -> 0 < u' ->
     c + sgn s * (/ r * ln u) = c' + sgn s * (/ r * ln u') -> mech u s = mech' u' s) ->
  set_lifting_with (fun u u' => branch_rel r (c - c') s u u' /\ mech u s = mech' u' s)
    (exp eps) (1 - exp (- eps)) uouter uouter (branch_left r (c - c') s) (branch_right r (c - c') s).
Proof.
  intros Hr Hd He Hsame.
  apply (set_lifting_with_weaken (branch_rel r (c - c') s) _ (exp eps) _ (1 - exp (- eps)));
    [apply branch_left_subdistr|apply branch_right_subdistr| |lra|lra|exact (snap_branch_lifting r dist eps c c' s Hr Hd He)].
  intros u u' Hb. split; [exact Hb|]. pose proof (branch_rel_same_value r c c' s u u' Hb) as H.
  destruct Hb as (Hu & Hu' & _). apply Hsame; [exact Hu|exact Hu'|].
  unfold lap in H. cbn [fst snd] in H. exact H.
Qed.
