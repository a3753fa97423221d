(** * The mirror coupling of the snapping noise: a lifting with δ = 0

    Two runs of the snapping mechanism add the Laplace value [x = lap r w] of
    the noise [w = (u, S)] to the query values [c] and [c'].  Pairing [w] with
    the noise [w'] whose Laplace value is [x + d], [d = c - c'], makes the two
    runs compute the same noisy value [c + x = c' + x'], hence the same output
    whatever the rounding and clamping after it.  On the noise that pairing is
    [mirror r d] (for [d = sgn s0 * D], [D >= 0], [p = e^(-r D)]):

    - [(u, s0)], [u < p]   goes to [(e^(r D) u, s0)]  ([mirror_piece_keep]);
    - [(u, s0)], [u > p]   goes to [(p / u, -s0)]      ([mirror_piece_cross]);
    - [(u, -s0)]           goes to [(p u, -s0)]        ([mirror_piece_other]).

    The middle piece moves mass from one sign to the other: it is the mirror
    that seed 000's per-sign argument misses.  Each piece stretches lengths by
    a factor at least [p], so every set [A] of noise has
    [noise_pr A <= e^(r |d|) noise_pr (mirror A)] ([mirror_shift]).

    The witnesses are the laws of [(w, mirror r d w)] and
    [(mirror r (-d) w', w')] for [w], [w'] drawn from the noise
    ([mirror_left], [mirror_right]); [mirror_lifting] proves the three
    conditions of Definition 3 with δ = 0 for [Psi : x + d = x'], and
    [snap_mirror_lifting] for [Psi : same output] of any mechanism that
    depends on the noise only through [c + x];
    [snap_lifting_every_event] is its consequence for every set of outputs. *)
From Coq Require Import Reals Lra.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure UniformOuter Snapping NoiseLaw SetLifting.
Local Open Scope R_scope.

(** ** The pairing map *)

Definition mirror (r d : R) (w : R * sign) : R * sign := enc r (lap r w + d).

Lemma lap_mirror r d w : 0 < r -> lap r (mirror r d w) = lap r w + d.
Proof. intros Hr. apply lap_enc, Hr. Qed.

Lemma mirror_in r d w : 0 < r -> 0 < fst (mirror r d w) <= 1.
Proof. intros Hr. apply enc_in, Hr. Qed.

Lemma mirror_inv r d u s : 0 < r -> 0 < u < 1 -> mirror r (- d) (mirror r d (u, s)) = (u, s).
Proof.
  intros Hr Hu. unfold mirror at 1. rewrite lap_mirror by exact Hr.
  replace (lap r (u, s) + d + - d) with (lap r (u, s)) by ring. apply enc_lap; assumption.
Qed.

Lemma ln_lt_shift r D u : 0 < r -> 0 < u -> (u < exp (- (r * D)) <-> / r * ln u + D < 0).
Proof.
  intros Hr Hu. rewrite <- (ln_lt_iff _ _ Hu).
  assert (Hri : 0 < / r) by (apply Rinv_0_lt_compat, Hr).
  split; intros H.
  - apply (Rmult_lt_compat_l (/ r)) in H; [|assumption].
    replace (/ r * - (r * D)) with (- D) in H by (field; lra). lra.
  - apply (Rmult_lt_compat_l r) in H; [|assumption].
    replace (r * (/ r * ln u + D)) with (ln u + r * D) in H by (field; lra). lra.
Qed.

Lemma ln_gt_shift r D u : 0 < r -> 0 < u -> (exp (- (r * D)) < u <-> 0 < / r * ln u + D).
Proof.
  intros Hr Hu. rewrite <- (ln_gt_iff _ _ Hu).
  assert (Hri : 0 < / r) by (apply Rinv_0_lt_compat, Hr).
  split; intros H.
  - apply (Rmult_lt_compat_l (/ r)) in H; [|assumption].
    replace (/ r * - (r * D)) with (- D) in H by (field; lra). lra.
  - apply (Rmult_lt_compat_l r) in H; [|assumption].
    replace (r * (/ r * ln u + D)) with (ln u + r * D) in H by (field; lra). lra.
Qed.

(** The three pieces of the map. *)
Lemma mirror_piece_keep r D s0 u : 0 < r -> 0 < u < exp (- (r * D)) ->
  mirror r (sgn s0 * D) (u, s0) = (exp (r * D) * u, s0).
Proof.
  intros Hr Hu. unfold mirror, lap. cbn [fst snd].
  replace (sgn s0 * (/ r * ln u) + sgn s0 * D) with (sgn s0 * (/ r * ln u + D)) by ring.
  rewrite enc_sgn_neg by (apply ln_lt_shift; lra). f_equal.
  replace (r * (/ r * ln u + D)) with (ln u + r * D) by (field; lra).
  rewrite exp_plus, exp_ln by lra. ring.
Qed.

Lemma mirror_piece_cross r D s0 u : 0 < r -> exp (- (r * D)) < u ->
  mirror r (sgn s0 * D) (u, s0) = (exp (- (r * D)) / u, sign_opp s0).
Proof.
  intros Hr Hu. pose proof (exp_pos (- (r * D))). unfold mirror, lap. cbn [fst snd].
  replace (sgn s0 * (/ r * ln u) + sgn s0 * D) with (sgn s0 * (/ r * ln u + D)) by ring.
  rewrite enc_sgn_pos by (apply ln_gt_shift; lra). f_equal.
  replace (- (r * (/ r * ln u + D))) with (- (r * D) + - ln u) by (field; lra).
  rewrite exp_plus, (exp_Ropp (ln u)), exp_ln by lra. unfold Rdiv. ring.
Qed.

Lemma mirror_piece_other r D s0 u : 0 < r -> 0 <= D -> 0 < u < 1 ->
  mirror r (sgn s0 * D) (u, sign_opp s0) = (exp (- (r * D)) * u, sign_opp s0).
Proof.
  intros Hr HD Hu. unfold mirror, lap. cbn [fst snd]. rewrite sgn_opp.
  replace (- sgn s0 * (/ r * ln u) + sgn s0 * D) with (sgn (sign_opp s0) * (/ r * ln u - D))
    by (rewrite sgn_opp; ring).
  assert (ln u < 0) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (0 < / r) by (apply Rinv_0_lt_compat, Hr).
  rewrite enc_sgn_neg by nra. f_equal.
  replace (r * (/ r * ln u - D)) with (- (r * D) + ln u) by (field; lra).
  rewrite exp_plus, exp_ln by lra. reflexivity.
Qed.

(** ** Every set is moved by at most the factor [e^(r D)] *)

Lemma noise_pr_pieces (r D : R) (s0 : sign) (A B : R * sign -> Prop) :
  0 < r -> 0 <= D ->
  (forall u, 0 < u < exp (- (r * D)) -> A (u, s0) -> B (exp (r * D) * u, s0)) ->
  (forall u, exp (- (r * D)) < u < 1 -> A (u, s0) -> B (exp (- (r * D)) / u, sign_opp s0)) ->
  (forall u, 0 < u < 1 -> A (u, sign_opp s0) -> B (exp (- (r * D)) * u, sign_opp s0)) ->
  noise_pr A <= exp (r * D) * noise_pr B.
Proof.
  intros Hr HD H1 H2 H3.
  set (p := exp (- (r * D))) in *.
  assert (Hp : 0 < p <= 1) by (split; [apply exp_pos|apply exp_le_1; nra]).
  assert (Hpinv : exp (r * D) = / p) by (unfold p; rewrite exp_Ropp, Rinv_inv; reflexivity).
  assert (Hp1 : p <= / p) by (rewrite <- Hpinv; unfold p; apply exp_le_iff; nra).
  rewrite !(noise_pr_sign _ s0).
  set (A0 := fun u => A (u, s0)). set (A1 := fun u => A (u, sign_opp s0)).
  set (B0 := fun u => B (u, s0)). set (B1 := fun u => B (u, sign_opp s0)).
  (* the sign s0, below p: scaled by p *)
  assert (Hlow : uouter (fun u => A0 u /\ u < p) <= p * uouter B0).
  { apply uouter_image_scale; [lra|]. intros x Hx [HA Hxp].
    assert (Hpi : 0 < / p) by (apply Rinv_0_lt_compat; lra).
    exists (exp (r * D) * x). split; [|split].
    - rewrite Hpinv. split; [apply Rmult_lt_0_compat; lra|].
      apply (Rmult_le_reg_l p); [lra|]. rewrite <- Rmult_assoc, Rinv_r by lra. lra.
    - unfold B0. apply H1; [lra|exact HA].
    - rewrite Hpinv. field. lra. }
  (* the sign s0, above p: mirrored onto the other sign above p *)
  assert (Hhigh : uouter (fun u => A0 u /\ p < u) <= / p * uouter (fun u => B1 u /\ p < u)).
  { rewrite (uouter_but_point _ 1).
    replace (/ p) with (p / (p * p)) by (field; lra).
    apply uouter_image_inv; [lra|lra|]. intros x Hx [[HA Hxp] Hx1].
    exists (p / x). split; [split|split; [split|]].
    - apply (Rmult_le_reg_r x); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
    - apply (Rmult_le_reg_r x); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
    - unfold B1. apply H2; [lra|exact HA].
    - apply (Rmult_lt_reg_r x); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
    - field. lra. }
  (* the other sign: scaled by p into (0, p) *)
  assert (Hother : uouter A1 <= / p * uouter (fun u => B1 u /\ u < p)).
  { rewrite (uouter_but_point _ 1). apply uouter_image_scale; [left; apply Rinv_0_lt_compat; lra|].
    intros x Hx [HA Hx1]. exists (p * x). split; [split; nra|split].
    - split; [unfold B1; apply H3; [lra|exact HA]|nra].
    - field. lra. }
  assert (Hsplit0 : uouter A0 = uouter (fun u => A0 u /\ u < p) + uouter (fun u => A0 u /\ p < u))
    by apply uouter_cut.
  assert (Hsplit1 : uouter B1 = uouter (fun u => B1 u /\ u < p) + uouter (fun u => B1 u /\ p < u))
    by apply uouter_cut.
  pose proof (uouter_nonneg B0). pose proof (uouter_nonneg B1).
  rewrite Hpinv. unfold A0, A1, B0, B1 in *. nra.
Qed.

(** Any shift [d], in either direction. *)
Lemma mirror_shift (r d : R) (A B : R * sign -> Prop) : 0 < r ->
  (forall u s, 0 < u < 1 -> A (u, s) -> B (mirror r d (u, s))) ->
  noise_pr A <= exp (r * Rabs d) * noise_pr B.
Proof.
  intros Hr H.
  set (s0 := if Rle_dec 0 d then SPlus else SMinus).
  assert (Hd : d = sgn s0 * Rabs d).
  { unfold s0. destruct (Rle_dec 0 d) as [Hle|Hlt]; cbn [sgn].
    - rewrite Rabs_right by lra. ring.
    - rewrite Rabs_left by lra. ring. }
  pose proof (Rabs_pos d) as HD.
  apply (noise_pr_pieces r (Rabs d) s0); [exact Hr|exact HD| | |].
  - intros u Hu HA. rewrite <- (mirror_piece_keep r (Rabs d) s0 u Hr Hu), <- Hd. apply H; [|exact HA].
    split; [lra|]. eapply Rlt_le_trans; [apply Hu|]. apply exp_le_1. nra.
  - intros u Hu HA. rewrite <- (mirror_piece_cross r (Rabs d) s0 u Hr (proj1 Hu)), <- Hd.
    apply H; [|exact HA]. pose proof (exp_pos (- (r * Rabs d))). lra.
  - intros u Hu HA. rewrite <- (mirror_piece_other r (Rabs d) s0 u Hr HD Hu), <- Hd. apply H; assumption.
Qed.

(** ** The witnesses *)

(** The law of [(w, mirror r d w)], [w] drawn from the noise. *)
Definition mirror_left (r d : R) (E : (R * sign) * (R * sign) -> Prop) : R :=
  noise_pr (fun w => E (w, mirror r d w)).

(** The law of [(mirror r (-d) w', w')], [w'] drawn from the noise. *)
Definition mirror_right (r d : R) (E : (R * sign) * (R * sign) -> Prop) : R :=
  noise_pr (fun w' => E (mirror r (- d) w', w')).

Lemma mirror_left_subdistr r d : set_subdistr (mirror_left r d).
Proof. exact (set_subdistr_map noise_pr (fun w => (w, mirror r d w)) noise_pr_subdistr). Qed.

Lemma mirror_right_subdistr r d : set_subdistr (mirror_right r d).
Proof. exact (set_subdistr_map noise_pr (fun w => (mirror r (- d) w, w)) noise_pr_subdistr). Qed.

Lemma mirror_dilation r d E : 0 < r ->
  mirror_left r d E <= exp (r * Rabs d) * mirror_right r d E.
Proof.
  intros Hr. unfold mirror_left, mirror_right. apply mirror_shift; [exact Hr|].
  intros u s Hu HE. rewrite mirror_inv by assumption. exact HE.
Qed.

(** Definition 3 with δ = 0, for the relation "the same noisy value". *)
Theorem mirror_lifting r d D : 0 < r -> Rabs d <= D ->
  set_lifting_with (fun w w' => lap r w + d = lap r w') (exp (r * D)) 0
    noise_pr noise_pr (mirror_left r d) (mirror_right r d).
Proof.
  intros Hr HD. split; [|split; [|split; [|split]]].
  - intros P. reflexivity.
  - intros Q. reflexivity.
  - apply noise_pr_null. intros u s _ H. apply H. cbn [fst snd]. rewrite lap_mirror by exact Hr. reflexivity.
  - apply noise_pr_null. intros u s _ H. apply H. cbn [fst snd]. rewrite lap_mirror by exact Hr. ring.
  - intros E. pose proof (mirror_dilation r d E Hr). pose proof (noise_pr_nonneg (fun w' => E (mirror r (- d) w', w'))).
    assert (exp (r * Rabs d) <= exp (r * D)) by (apply exp_le_iff; nra).
    unfold mirror_right in *. nra.
Qed.

(** ** The snapping mechanism *)

Section Snap.
Variables (r dist eps c c' : R) (mech mech' : R -> sign -> R).
Hypotheses (Hr : 0 < r) (Hdist : Rabs (c - c') <= dist) (Heps : r * dist <= eps).
(** Both runs depend on the noise only through the noisy value [c + x]
    (rounding, clamping, ... come after it). *)
Hypothesis Hsame : forall u s u' s', 0 < u <= 1 -> 0 < u' <= 1 ->
  c + sgn s * (/ r * ln u) = c' + sgn s' * (/ r * ln u') -> mech u s = mech' u' s'.

(** Definition 3 with δ = 0 for the relation "the same output". *)
Theorem snap_mirror_lifting :
  set_lifting_with (fun w w' => mech (fst w) (snd w) = mech' (fst w') (snd w')) (exp eps) 0
    noise_pr noise_pr (mirror_left r (c - c')) (mirror_right r (c - c')).
Proof.
  split; [|split; [|split; [|split]]].
  - intros P. reflexivity.
  - intros Q. reflexivity.
  - apply noise_pr_null. intros u s Hu H. apply H. cbn [fst snd].
    destruct (mirror r (c - c') (u, s)) as [u' s'] eqn:Hm.
    pose proof (mirror_in r (c - c') (u, s) Hr) as Hin. rewrite Hm in Hin.
    apply Hsame; [exact Hu|exact Hin|].
    pose proof (lap_mirror r (c - c') (u, s) Hr) as Hl. rewrite Hm in Hl. unfold lap in Hl.
    cbn [fst snd] in *. lra.
  - apply noise_pr_null. intros u s Hu H. apply H. cbn [fst snd].
    destruct (mirror r (- (c - c')) (u, s)) as [u' s'] eqn:Hm.
    pose proof (mirror_in r (- (c - c')) (u, s) Hr) as Hin. rewrite Hm in Hin.
    apply Hsame; [exact Hin|exact Hu|].
    pose proof (lap_mirror r (- (c - c')) (u, s) Hr) as Hl. rewrite Hm in Hl. unfold lap in Hl.
    cbn [fst snd] in *. lra.
  - intros E. pose proof (mirror_lifting r (c - c') dist Hr Hdist) as (_ & _ & _ & _ & H).
    pose proof (H E). pose proof (mirror_right_subdistr r (c - c')) as [Hn _].
    assert (exp (r * dist) <= exp eps) by (apply exp_le_iff, Heps).
    pose proof (Hn E). nra.
Qed.

(** The same, as the existence of witnesses that are sub-probability outer measures. *)
Corollary snap_set_lifting :
  set_lifting (fun w w' => mech (fst w) (snd w) = mech' (fst w') (snd w')) eps 0 noise_pr noise_pr.
Proof.
  exists (mirror_left r (c - c')), (mirror_right r (c - c')).
  split; [apply mirror_left_subdistr|split; [apply mirror_right_subdistr|exact snap_mirror_lifting]].
Qed.

End Snap.

(** Pure DP for every set of outputs, from a lifting of "the same output". *)
Theorem snap_lifting_every_event (mech mech' : R -> sign -> R) w muL muR (F : R -> Prop) :
  set_subdistr muL ->
  set_lifting_with (fun w w' => mech (fst w) (snd w) = mech' (fst w') (snd w')) w 0 noise_pr noise_pr muL muR ->
  snap_pr mech F <= w * snap_pr mech' F.
Proof.
  intros Hsub HL. unfold snap_pr. rewrite <- (Rplus_0_r (w * _)).
  apply (set_lifting_events _ _ _ _ _ _ _ _ _ Hsub HL).
  intros x y Hxy HF. rewrite <- Hxy. exact HF.
Qed.
