(** * The snapping mechanism: pure differential privacy

    [snap_dp mech Delta eps] is the DP notion of the snapping kind, the one
    generated snapping files state.  A mechanism whose per-sign preimages have
    the measures of SnapPreimage.v satisfies it with [eps = r * Delta]
    ([snap_dp_unclamped], [snap_dp_clamped]; clamped, with [r * (2 * B)]
    whatever the sensitivity, [snap_dp_clamped_2b]).  The proofs bound the sum
    of both signs at once (SnapBound.v).  The bound extends to finite sets of
    outputs ([snap_dp_events]), and one output where the ratio is exceeded
    refutes it ([snap_not_dp]). *)
From Coq Require Import Reals Lra ZArith List Classical.
From Flocq Require Import Raux.
From Obligations.Core Require Import RealFacts Sums Privacy.
From Obligations.Noise Require Import UniformMeasure Clamp SnapBound Snapping.
Import ListNotations.
Local Open Scope R_scope.

(** ** The DP notion of the snapping mechanism *)

(** Pure [eps]-DP of [mech : R -> R -> sign -> R] (query value, uniform
    sample, sign) for query values at distance at most [Delta]: every output's
    probability under [c] is at most [e^eps] times its probability under [c']
    (δ = 0, output by output; [snap_dp_events] extends it to finite sets of
    outputs).  A generated file's theorem [NAME_dp] states
    [snap_dp NAME sensitivity claim] written out ([snap_dp_spec]). *)
Definition snap_dp (mech : R -> R -> sign -> R) (Delta eps : R) : Prop :=
  forall c c', Rabs (c - c') <= Delta ->
  forall y p p', snap_prob (mech c) y p -> snap_prob (mech c') y p' -> p <= exp eps * p'.

(** The statement of a generated [NAME_dp] theorem, with [NAME] for [mech],
    its sensitivity for [Delta] and its claim for [eps]: so
    [NAME_dp : snap_dp NAME sensitivity claim] type-checks as it is. *)
Lemma snap_dp_spec (mech : R -> R -> sign -> R) (Delta eps : R) :
  snap_dp mech Delta eps <->
  (forall fa fa', Rabs (fa - fa') <= Delta ->
   forall y p p', snap_prob (mech fa) y p -> snap_prob (mech fa') y p' ->
   p <= exp eps * p').
Proof. split; intros H; exact H. Qed.

(** [snap_dp] is the core notion [dp_with] with δ = 0, events being single
    outputs, for any choice [P] of the output probabilities. *)
Lemma snap_dp_iff_dp_with (mech : R -> R -> sign -> R) (Delta eps : R) (P : R -> R -> R) :
  (forall c y, snap_prob (mech c) y (P c y)) ->
  snap_dp mech Delta eps <-> dp_with (fun c c' => Rabs (c - c') <= Delta) P eps 0.
Proof.
  intros HP. split.
  - intros H c c' Hd y. pose proof (H c c' Hd y _ _ (HP c y) (HP c' y)). lra.
  - intros H c c' Hd y p p' Hp Hp'.
    rewrite (snap_prob_unique _ _ _ _ Hp (HP c y)), (snap_prob_unique _ _ _ _ Hp' (HP c' y)).
    pose proof (H c c' Hd y). lra.
Qed.

(** ** Pure DP, on the sum of both signs *)

(** One grid output: [p = snap_mass/2] at [t = e^(r c)], [p' = snap_mass/2] at [t' = e^(r c')]. *)
Lemma snap_grid_ratio (r lam Delta c c' : R) (k : Z) (m1 m2 m1' m2' : R) :
  0 < r -> 0 < lam -> Rabs (c - c') <= Delta ->
  m1 = ulen (exp (r * ((IZR k - / 2) * lam - c))) (exp (r * ((IZR k + / 2) * lam - c))) ->
  m2 = ulen (exp (r * (c - (IZR k + / 2) * lam))) (exp (r * (c - (IZR k - / 2) * lam))) ->
  m1' = ulen (exp (r * ((IZR k - / 2) * lam - c'))) (exp (r * ((IZR k + / 2) * lam - c'))) ->
  m2' = ulen (exp (r * (c' - (IZR k + / 2) * lam))) (exp (r * (c' - (IZR k - / 2) * lam))) ->
  / 2 * (m1 + m2) <= exp (r * Delta) * (/ 2 * (m1' + m2')).
Proof.
  intros Hr Hl Hd -> -> -> ->. rewrite !exp_sub_div.
  set (alpha := exp (r * ((IZR k - / 2) * lam))).
  set (beta := exp (r * ((IZR k + / 2) * lam))).
  assert (Hab : 0 < alpha < beta).
  { split; [apply exp_pos|apply exp_increasing; nra]. }
  pose proof (snap_mass_ratio alpha beta (exp (r * c')) (exp (r * c)) Hab (exp_pos _) (exp_pos _)) as H.
  unfold snap_mass in H.
  pose proof (exp_ratio_le r c' c Delta ltac:(lra) ltac:(rewrite Rabs_minus_sym; exact Hd)) as Hm.
  pose proof (snap_mass_nonneg alpha beta (exp (r * c'))) as Hn. unfold snap_mass in Hn.
  apply Rmult_le_compat_r with (r := ulen (alpha / exp (r * c')) (beta / exp (r * c')) +
    ulen (exp (r * c') / beta) (exp (r * c') / alpha)) in Hm; [|exact Hn].
  lra.
Qed.

Theorem snap_dp_unclamped (r lam Delta : R) (mech : R -> R -> sign -> R) :
  0 < r -> 0 < lam -> 0 <= Delta ->
  (forall c k, umeasure (fun u => mech c u SPlus = lam * IZR k)
     (ulen (exp (r * ((IZR k - / 2) * lam - c))) (exp (r * ((IZR k + / 2) * lam - c))))) ->
  (forall c k, umeasure (fun u => mech c u SMinus = lam * IZR k)
     (ulen (exp (r * (c - (IZR k + / 2) * lam))) (exp (r * (c - (IZR k - / 2) * lam))))) ->
  (forall c u s y, 0 < u <= 1 -> mech c u s = y -> exists k, y = lam * IZR k) ->
  forall c c', Rabs (c - c') <= Delta ->
  forall y p p', snap_prob (mech c) y p -> snap_prob (mech c') y p' ->
  p <= exp (r * Delta) * p'.
Proof.
  intros Hr Hl HD Hplus Hminus Hgrid c c' Hd y p p' Hp Hp'.
  destruct (classic (exists k, y = lam * IZR k)) as [[k ->]|Hno].
  - destruct Hp as (m1 & m2 & H1 & H2 & ->). destruct Hp' as (m1' & m2' & H1' & H2' & ->).
    eapply snap_grid_ratio; [exact Hr|exact Hl|exact Hd|..].
    + exact (umeasure_unique _ _ _ H1 (Hplus c k)).
    + exact (umeasure_unique _ _ _ H2 (Hminus c k)).
    + exact (umeasure_unique _ _ _ H1' (Hplus c' k)).
    + exact (umeasure_unique _ _ _ H2' (Hminus c' k)).
  - rewrite (snap_prob_never (mech c) y p); [|intros u s Hu E; exact (Hno (Hgrid c u s y Hu E))|exact Hp].
    pose proof (snap_prob_nonneg _ _ _ Hp'). pose proof (exp_pos (r * Delta)). nra.
Qed.

(** One tail output: [tail_mass SPlus] (output [B]) or [tail_mass SMinus] (output [-B]). *)
Lemma snap_tail_ratio (s : sign) (r g Delta c c' m1 m2 m1' m2' : R) :
  0 < r -> Rabs (c - c') <= Delta ->
  m1 + m2 = tail_mass s (exp (r * g)) (exp (r * c)) ->
  m1' + m2' = tail_mass s (exp (r * g)) (exp (r * c')) ->
  / 2 * (m1 + m2) <= exp (r * Delta) * (/ 2 * (m1' + m2')).
Proof.
  intros Hr Hd -> ->.
  pose proof (tail_mass_ratio s (exp (r * g)) (exp (r * c')) (exp (r * c)) (exp_pos _) (exp_pos _) (exp_pos _)) as H.
  pose proof (exp_ratio_le r c' c Delta ltac:(lra) ltac:(rewrite Rabs_minus_sym; exact Hd)) as Hm.
  apply Rmult_le_compat_r with (r := tail_mass s (exp (r * g)) (exp (r * c'))) in Hm; [|apply tail_mass_nonneg].
  lra.
Qed.

(** The bound for a given distance between the {e clamped} query values. *)
Theorem snap_dp_clamped_at (r lam B Delta : R) (mech : R -> R -> sign -> R) :
  0 < r -> 0 < lam -> 0 < B ->
  (forall c k, - B < lam * IZR k < B -> umeasure (fun u => mech c u SPlus = lam * IZR k)
     (ulen (exp (r * ((IZR k - / 2) * lam - clamp B c))) (exp (r * ((IZR k + / 2) * lam - clamp B c))))) ->
  (forall c k, - B < lam * IZR k < B -> umeasure (fun u => mech c u SMinus = lam * IZR k)
     (ulen (exp (r * (clamp B c - (IZR k + / 2) * lam))) (exp (r * (clamp B c - (IZR k - / 2) * lam))))) ->
  (forall c, umeasure (fun u => mech c u SPlus = B)
     (ulen_from (exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B c))))) ->
  (forall c, umeasure (fun u => mech c u SMinus = B)
     (ulen_to (exp (r * (clamp B c - (IZR (Zceil (B / lam)) - / 2) * lam))))) ->
  (forall c, umeasure (fun u => mech c u SPlus = - B)
     (ulen_to (exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - clamp B c))))) ->
  (forall c, umeasure (fun u => mech c u SMinus = - B)
     (ulen_from (exp (r * (clamp B c - (IZR (Zfloor (- B / lam)) + / 2) * lam))))) ->
  (forall c u s y, 0 < u <= 1 -> mech c u s = y ->
     y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B) ->
  forall c c', Rabs (clamp B c - clamp B c') <= Delta ->
  forall y p p', snap_prob (mech c) y p -> snap_prob (mech c') y p' ->
  p <= exp (r * Delta) * p'.
Proof.
  intros Hr Hl HB Hplus Hminus Htp Htm Hbp Hbm Hout c c' Hcd y p p' Hp Hp'.
  assert (HD : 0 <= Delta) by (eapply Rle_trans; [apply Rabs_pos|exact Hcd]).
  destruct Hp as (m1 & m2 & H1 & H2 & Ep). destruct Hp' as (m1' & m2' & H1' & H2' & Ep').
  destruct (classic (y = B)) as [->|HnB]; [|destruct (classic (y = - B)) as [->|Hnb]].
  - subst p p'. set (g := (IZR (Zceil (B / lam)) - / 2) * lam).
    apply (snap_tail_ratio SPlus r g Delta (clamp B c) (clamp B c')); [exact Hr|exact Hcd| |];
      cbn [tail_mass]; rewrite <- !exp_sub_div.
    + rewrite (umeasure_unique _ _ _ H1 (Htp c)), (umeasure_unique _ _ _ H2 (Htm c)). reflexivity.
    + rewrite (umeasure_unique _ _ _ H1' (Htp c')), (umeasure_unique _ _ _ H2' (Htm c')). reflexivity.
  - subst p p'. set (g := (IZR (Zfloor (- B / lam)) + / 2) * lam).
    apply (snap_tail_ratio SMinus r g Delta (clamp B c) (clamp B c')); [exact Hr|exact Hcd| |];
      cbn [tail_mass]; rewrite <- !exp_sub_div.
    + rewrite (umeasure_unique _ _ _ H1 (Hbp c)), (umeasure_unique _ _ _ H2 (Hbm c)). reflexivity.
    + rewrite (umeasure_unique _ _ _ H1' (Hbp c')), (umeasure_unique _ _ _ H2' (Hbm c')). reflexivity.
  - destruct (classic (exists k, y = lam * IZR k /\ - B < lam * IZR k < B)) as [[k [-> Hk]]|Hno].
    + subst p p'. eapply snap_grid_ratio; [exact Hr|exact Hl|exact Hcd|..].
      * exact (umeasure_unique _ _ _ H1 (Hplus c k Hk)).
      * exact (umeasure_unique _ _ _ H2 (Hminus c k Hk)).
      * exact (umeasure_unique _ _ _ H1' (Hplus c' k Hk)).
      * exact (umeasure_unique _ _ _ H2' (Hminus c' k Hk)).
    + assert (Hnever : forall u s, 0 < u <= 1 -> mech c u s <> y).
      { intros u s Hu E. destruct (Hout c u s y Hu E) as [?|[?|?]]; contradiction. }
      assert (Hp0 : p = 0).
      { apply (snap_prob_never (mech c) y p Hnever). exists m1, m2. auto. }
      assert (0 <= p') by (apply (snap_prob_nonneg (mech c') y p'); exists m1', m2'; auto).
      pose proof (exp_pos (r * Delta)). nra.
Qed.

(** Clamping is 1-Lipschitz: neighbours at distance [Delta] give [r * Delta]-DP. *)
Theorem snap_dp_clamped (r lam B Delta : R) (mech : R -> R -> sign -> R) :
  0 < r -> 0 < lam -> 0 < B -> 0 <= Delta ->
  (forall c k, - B < lam * IZR k < B -> umeasure (fun u => mech c u SPlus = lam * IZR k)
     (ulen (exp (r * ((IZR k - / 2) * lam - clamp B c))) (exp (r * ((IZR k + / 2) * lam - clamp B c))))) ->
  (forall c k, - B < lam * IZR k < B -> umeasure (fun u => mech c u SMinus = lam * IZR k)
     (ulen (exp (r * (clamp B c - (IZR k + / 2) * lam))) (exp (r * (clamp B c - (IZR k - / 2) * lam))))) ->
  (forall c, umeasure (fun u => mech c u SPlus = B)
     (ulen_from (exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B c))))) ->
  (forall c, umeasure (fun u => mech c u SMinus = B)
     (ulen_to (exp (r * (clamp B c - (IZR (Zceil (B / lam)) - / 2) * lam))))) ->
  (forall c, umeasure (fun u => mech c u SPlus = - B)
     (ulen_to (exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - clamp B c))))) ->
  (forall c, umeasure (fun u => mech c u SMinus = - B)
     (ulen_from (exp (r * (clamp B c - (IZR (Zfloor (- B / lam)) + / 2) * lam))))) ->
  (forall c u s y, 0 < u <= 1 -> mech c u s = y ->
     y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B) ->
  forall c c', Rabs (c - c') <= Delta ->
  forall y p p', snap_prob (mech c) y p -> snap_prob (mech c') y p' ->
  p <= exp (r * Delta) * p'.
Proof.
  intros Hr Hl HB HD Hplus Hminus Htp Htm Hbp Hbm Hout c c' Hd.
  apply (snap_dp_clamped_at r lam B Delta mech Hr Hl HB Hplus Hminus Htp Htm Hbp Hbm Hout).
  eapply Rle_trans; [apply clamp_lipschitz; lra|exact Hd].
Qed.

(** So the clamped mechanism is [r * (2 * B)]-DP for {e any} two query values: with a
    sensitivity [Delta > 2 * B] the effective distance is [2 * B], not [Delta]. *)
Theorem snap_dp_clamped_2b (r lam B : R) (mech : R -> R -> sign -> R) :
  0 < r -> 0 < lam -> 0 < B ->
  (forall c k, - B < lam * IZR k < B -> umeasure (fun u => mech c u SPlus = lam * IZR k)
     (ulen (exp (r * ((IZR k - / 2) * lam - clamp B c))) (exp (r * ((IZR k + / 2) * lam - clamp B c))))) ->
  (forall c k, - B < lam * IZR k < B -> umeasure (fun u => mech c u SMinus = lam * IZR k)
     (ulen (exp (r * (clamp B c - (IZR k + / 2) * lam))) (exp (r * (clamp B c - (IZR k - / 2) * lam))))) ->
  (forall c, umeasure (fun u => mech c u SPlus = B)
     (ulen_from (exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - clamp B c))))) ->
  (forall c, umeasure (fun u => mech c u SMinus = B)
     (ulen_to (exp (r * (clamp B c - (IZR (Zceil (B / lam)) - / 2) * lam))))) ->
  (forall c, umeasure (fun u => mech c u SPlus = - B)
     (ulen_to (exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - clamp B c))))) ->
  (forall c, umeasure (fun u => mech c u SMinus = - B)
     (ulen_from (exp (r * (clamp B c - (IZR (Zfloor (- B / lam)) + / 2) * lam))))) ->
  (forall c u s y, 0 < u <= 1 -> mech c u s = y ->
     y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B) ->
  forall c c' y p p', snap_prob (mech c) y p -> snap_prob (mech c') y p' ->
  p <= exp (r * (2 * B)) * p'.
Proof.
  intros Hr Hl HB Hplus Hminus Htp Htm Hbp Hbm Hout c c'.
  apply (snap_dp_clamped_at r lam B (2 * B) mech Hr Hl HB Hplus Hminus Htp Htm Hbp Hbm Hout).
  apply clamp_dist_le_2b. lra.
Qed.

(** ** Finite sets of outputs *)

(** The pointwise bound gives the bound on every finite set of outputs
    (listed in [ys]; the probabilities are those of each output). *)
Lemma snap_dp_events (mech mech' : R -> sign -> R) (w : R) :
  (forall y p p', snap_prob mech y p -> snap_prob mech' y p' -> p <= w * p') ->
  forall ys ps ps', Forall2 (snap_prob mech) ys ps -> Forall2 (snap_prob mech') ys ps' ->
  rsum ps <= w * rsum ps'.
Proof.
  intros Hpt ys ps ps' H. revert ps'.
  induction H as [|y p ys ps Hy Hys IH]; intros ps' H'; inversion H' as [|? p' ? ps'' Hy' Hys']; subst.
  - rewrite rsum_nil. lra.
  - rewrite !rsum_cons. pose proof (Hpt y p p' Hy Hy'). pose proof (IH ps'' Hys'). lra.
Qed.

(** ** Refutation: one output where the ratio exceeds [exp e] *)

Lemma snap_not_dp (mech : R -> R -> sign -> R) (Delta e c c' y p p' : R) :
  snap_prob (mech c) y p -> snap_prob (mech c') y p' -> Rabs (c - c') <= Delta ->
  p > exp e * p' ->
  ~ (forall c c', Rabs (c - c') <= Delta ->
     forall y p p', snap_prob (mech c) y p -> snap_prob (mech c') y p' -> p <= exp e * p').
Proof. intros Hp Hp' Hd Hgt H. specialize (H c c' Hd y p p' Hp Hp'). lra. Qed.
