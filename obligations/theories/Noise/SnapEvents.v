(** * Every set of outputs of the snapping mechanism, and mass one

    [snap_pr mech F] (NoiseLaw.v) is the probability that the output lies in
    any set [F].  Here it is tied to the probabilities of single outputs:

    - an interval of [u] splits every set exactly ([uouter_split_sandwich]),
      so a finite set of distinct outputs has the sum of their probabilities
      ([snap_pr_list]) and, when it holds every output, that sum is 1
      ([snap_mass_list]: the clamped mechanism);
    - for the unclamped mechanism the outputs [k Λ], [|k| <= N], leave a mass
      that tends to 0 ([snap_pr_tail]), so the probability of every set [F] of
      outputs is the monotone limit of the probabilities of its finite parts
      [F ∩ {k Λ : |k| <= N}] ([snap_pr_grid_limit]), and the probabilities of
      the outputs sum to 1 ([snap_mass_grid]). *)
From Coq Require Import Reals Lra Lia ZArith List Classical FinFun.
From Flocq Require Import Raux.
From Obligations.Core Require Import RealFacts Sums Lists.
From Obligations.Noise Require Import UniformMeasure UniformOuter Snapping NoiseLaw SnapDP.
Import ListNotations.
Local Open Scope R_scope.

(** ** Intervals split every set exactly *)

Lemma uouter_split_sandwich (Z X : R -> Prop) lo hi :
  (forall u, lo < u < hi -> 0 < u <= 1 /\ X u) -> (forall u, 0 < u <= 1 -> X u -> lo <= u <= hi) ->
  uouter Z = uouter (fun u => Z u /\ X u) + uouter (fun u => Z u /\ ~ X u).
Proof.
  intros In Out. apply Rle_antisym.
  - apply uouter_union. intros u _ HZ. destruct (classic (X u)); [left|right]; tauto.
  - destruct (Rle_or_lt lo hi) as [Hlh|Hlh].
    + assert (HX : uouter (fun u => Z u /\ X u) <= uouter (fun u => Z u /\ lo <= u /\ u <= hi))
        by (apply uouter_mono; intros u Hu [HZ HXu]; split; [exact HZ|apply Out; assumption]).
      assert (HnX : uouter (fun u => Z u /\ ~ X u) <=
                    uouter (fun u => Z u /\ u <= lo) + uouter (fun u => (Z u /\ lo <= u) /\ hi <= u)).
      { apply uouter_union. intros u Hu [HZ HXu].
        destruct (Rle_or_lt u lo) as [H1|H1]; [left; tauto|].
        destruct (Rle_or_lt hi u) as [H2|H2]; [right; split; [split; [exact HZ|lra]|exact H2]|].
        exfalso. apply HXu, (In u). lra. }
      pose proof (uouter_cut_ge Z lo) as Hc1.
      pose proof (uouter_cut_ge (fun u => Z u /\ lo <= u) hi) as Hc2.
      assert (uouter (fun u => (Z u /\ lo <= u) /\ u <= hi) = uouter (fun u => Z u /\ lo <= u /\ u <= hi))
        by (apply uouter_ext; intros; tauto).
      lra.
    + assert (H0 : uouter (fun u => Z u /\ X u) = 0).
      { apply uouter_null. intros u Hu [_ HXu]. pose proof (Out u Hu HXu). lra. }
      rewrite H0, Rplus_0_l. apply uouter_mono. tauto.
Qed.

Lemma uouter_split_umeasure (Z X : R -> Prop) m : umeasure X m ->
  uouter Z = uouter (fun u => Z u /\ X u) + uouter (fun u => Z u /\ ~ X u).
Proof.
  intros Hm. destruct (umeasure_sandwich X m Hm) as (lo & hi & [In Out] & _).
  apply (uouter_split_sandwich Z X lo hi).
  - intros u Hu. apply In, Hu.
  - intros u Hu HX. apply Out. split; assumption.
Qed.

(** ** Finite sets of outputs *)

(** The probabilities of distinct outputs add up. *)
Lemma snap_pr_list (mech : R -> sign -> R) ys ps :
  NoDup ys -> Forall2 (snap_prob mech) ys ps -> snap_pr mech (fun y => In y ys) = rsum ps.
Proof.
  intros Hnd H. induction H as [|y p ys ps Hy Hys IH].
  - rewrite rsum_nil. apply noise_pr_null. intros u s _ [].
  - inversion Hnd as [|? ? Hnot Hnd']; subst. rewrite rsum_cons, <- (IH Hnd').
    rewrite <- (snap_pr_prob mech y p Hy).
    destruct Hy as (m1 & m2 & H1 & H2 & _).
    unfold snap_pr, noise_pr. cbn [fst snd].
    rewrite (uouter_split_umeasure (fun u => In (mech u SPlus) (y :: ys)) _ m1 H1).
    rewrite (uouter_split_umeasure (fun u => In (mech u SMinus) (y :: ys)) _ m2 H2).
    assert (Hin : forall v, In v (y :: ys) /\ v = y <-> v = y) by (intros v; cbn [In]; split; [tauto|intros ->; tauto]).
    assert (Hout : forall v, In v (y :: ys) /\ v <> y <-> In v ys).
    { intros v. cbn [In]. split; [intros [[->|H] Hne]; [contradiction|exact H]|].
      intros H. split; [right; exact H|intros ->; contradiction]. }
    rewrite (uouter_ext (fun u => In (mech u SPlus) (y :: ys) /\ mech u SPlus = y) (fun u => mech u SPlus = y))
      by (intros u _; apply Hin).
    rewrite (uouter_ext (fun u => In (mech u SMinus) (y :: ys) /\ mech u SMinus = y) (fun u => mech u SMinus = y))
      by (intros u _; apply Hin).
    rewrite (uouter_ext (fun u => In (mech u SPlus) (y :: ys) /\ mech u SPlus <> y) (fun u => In (mech u SPlus) ys))
      by (intros u _; apply Hout).
    rewrite (uouter_ext (fun u => In (mech u SMinus) (y :: ys) /\ mech u SMinus <> y) (fun u => In (mech u SMinus) ys))
      by (intros u _; apply Hout).
    ring.
Qed.

(** Distinct outputs that hold every output of the mechanism: mass one. *)
Theorem snap_mass_list (mech : R -> sign -> R) ys ps :
  NoDup ys -> Forall2 (snap_prob mech) ys ps ->
  (forall u s, 0 < u <= 1 -> In (mech u s) ys) -> rsum ps = 1.
Proof.
  intros Hnd H Hall. rewrite <- (snap_pr_list mech ys ps Hnd H), <- noise_pr_all.
  apply noise_pr_ext. intros u s Hu. cbn [fst snd]. split; [tauto|intros _; apply Hall, Hu].
Qed.

(** ** Grid outputs [k Λ], [|k| <= N] *)

(** The integers [-N, ..., N]. *)
Definition zrange (N : nat) : list Z := zseq (- Z.of_nat N) (2 * N + 1).

Lemma in_zrange N k : In k (zrange N) <-> (Z.abs k <= Z.of_nat N)%Z.
Proof. unfold zrange. rewrite in_zseq. lia. Qed.

Lemma zseq_nodup z n : NoDup (zseq z n).
Proof.
  revert z. induction n as [|n IH]; intros z; cbn [zseq]; constructor.
  - rewrite in_zseq. lia.
  - apply IH.
Qed.

(** The grid outputs with [|k| <= N], distinct. *)
Definition grid_outputs (lam : R) (N : nat) : list R := map (fun k => lam * IZR k) (zrange N).

Lemma grid_outputs_nodup lam N : 0 < lam -> NoDup (grid_outputs lam N).
Proof.
  intros Hl. apply Injective_map_NoDup; [|apply zseq_nodup].
  intros k k' H. apply eq_IZR. apply (Rmult_eq_reg_l lam); [exact H|lra].
Qed.

Lemma in_grid_outputs lam N y : 0 < lam ->
  (In y (grid_outputs lam N) <-> exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k).
Proof.
  intros Hl. unfold grid_outputs. rewrite in_map_iff. split.
  - intros (k & <- & Hk). exists k. split; [apply in_zrange, Hk|reflexivity].
  - intros (k & Hk & ->). exists k. split; [reflexivity|apply in_zrange, Hk].
Qed.

(** ** The unclamped mechanism: the outputs far from [c] have vanishing mass *)

Lemma nat_above (x : R) : exists N0 : nat, x < INR N0.
Proof.
  destruct (archimed x) as [H _]. exists (Z.to_nat (up x)).
  destruct (Z_lt_le_dec (up x) 0) as [Hneg|Hpos].
  - pose proof (pos_INR (Z.to_nat (up x))). apply IZR_lt in Hneg. lra.
  - rewrite INR_IZR_INZ, Z2Nat.id by exact Hpos. exact H.
Qed.

(** [e^(b - a N) -> 0] and [e^(b + a N) -> ∞]. *)
Lemma exp_tail_small a b eps : 0 < a -> 0 < eps ->
  exists N0 : nat, forall N, (N0 <= N)%nat -> exp (b - a * INR N) < eps.
Proof.
  intros Ha He. destruct (nat_above ((b - ln eps) / a)) as [N0 HN0]. exists N0. intros N HN.
  apply le_INR in HN. rewrite <- (exp_ln eps He). apply exp_increasing.
  apply (Rmult_lt_compat_l a) in HN0; [|exact Ha].
  replace (a * ((b - ln eps) / a)) with (b - ln eps) in HN0 by (field; lra). nra.
Qed.

Lemma exp_tail_big a b : 0 < a -> exists N0 : nat, forall N, (N0 <= N)%nat -> 1 <= exp (b + a * INR N).
Proof.
  intros Ha. destruct (nat_above (- b / a)) as [N0 HN0]. exists N0. intros N HN.
  apply le_INR in HN. apply exp_ge_1.
  apply (Rmult_lt_compat_l a) in HN0; [|exact Ha].
  replace (a * (- b / a)) with (- b) in HN0 by (field; lra). nra.
Qed.

Section Grid.
Variables (mech : R -> sign -> R) (r lam c : R).
Hypotheses (Hr : 0 < r) (Hl : 0 < lam).
(** Every output is a grid point, and the output [k Λ] comes from the
    preimages of SnapPreimage.v (closed bounds: either tie rule). *)
Hypothesis Hgrid : forall u s y, 0 < u <= 1 -> mech u s = y -> exists k, y = lam * IZR k.
Hypothesis Hplus : forall k u, 0 < u <= 1 -> mech u SPlus = lam * IZR k ->
  exp (r * ((IZR k - / 2) * lam - c)) <= u <= exp (r * ((IZR k + / 2) * lam - c)).
Hypothesis Hminus : forall k u, 0 < u <= 1 -> mech u SMinus = lam * IZR k ->
  exp (r * (c - (IZR k + / 2) * lam)) <= u <= exp (r * (c - (IZR k - / 2) * lam)).

(** The noise that gives an output [k Λ] with [|k| > N]. *)
Let far N := fun y => ~ exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k.

(** On each sign, an output with [|k| > N] needs [u] near 0 or above 1. *)
Lemma grid_far_bounds N u s : 0 < u <= 1 -> far N (mech u s) ->
  u <= exp ((r * (- lam / 2) + r * (sgn s * - c)) - r * lam * INR N) \/
  exp ((r * (lam / 2) - r * (sgn s * c)) + r * lam * INR N) <= u.
Proof.
  intros Hu Hfar. destruct (Hgrid u s _ Hu eq_refl) as [k Hk].
  assert (HN : (Z.of_nat N < Z.abs k)%Z).
  { destruct (Z_lt_le_dec (Z.of_nat N) (Z.abs k)) as [H|H]; [exact H|].
    exfalso. apply Hfar. exists k. split; [exact H|exact Hk]. }
  rewrite INR_IZR_INZ.
  assert (Hpos : forall z, (Z.of_nat N < z)%Z -> IZR (Z.of_nat N) + 1 <= IZR z).
  { intros z Hz. rewrite <- plus_IZR. apply IZR_le. lia. }
  assert (0 < r * lam) by nra.
  destruct s; cbn [sgn].
  - pose proof (Hplus k u Hu Hk) as [H1 H2].
    destruct (Z_lt_le_dec k 0) as [Hneg|Hnn].
    + left. eapply Rle_trans; [exact H2|]. apply exp_le_iff.
      assert (IZR (Z.of_nat N) + 1 <= - IZR k) by (rewrite <- opp_IZR; apply Hpos; lia). nra.
    + right. eapply Rle_trans; [|exact H1]. apply exp_le_iff.
      assert (IZR (Z.of_nat N) + 1 <= IZR k) by (apply Hpos; lia). nra.
  - pose proof (Hminus k u Hu Hk) as [H1 H2].
    destruct (Z_lt_le_dec k 0) as [Hneg|Hnn].
    + right. eapply Rle_trans; [|exact H1]. apply exp_le_iff.
      assert (IZR (Z.of_nat N) + 1 <= - IZR k) by (rewrite <- opp_IZR; apply Hpos; lia). nra.
    + left. eapply Rle_trans; [exact H2|]. apply exp_le_iff.
      assert (IZR (Z.of_nat N) + 1 <= IZR k) by (apply Hpos; lia). nra.
Qed.

(** The outputs with [|k| > N] have a probability that tends to 0. *)
Lemma snap_pr_tail eps : 0 < eps -> exists N0 : nat, forall N, (N0 <= N)%nat -> snap_pr mech (far N) < eps.
Proof.
  intros He. assert (Ha : 0 < r * lam) by nra.
  destruct (exp_tail_small (r * lam) (r * (- lam / 2) + r * (1 * - c)) (eps / 2) Ha ltac:(lra)) as [N1 H1].
  destruct (exp_tail_small (r * lam) (r * (- lam / 2) + r * (-1 * - c)) (eps / 2) Ha ltac:(lra)) as [N2 H2].
  destruct (exp_tail_big (r * lam) (r * (lam / 2) - r * (1 * c)) Ha) as [N3 H3].
  destruct (exp_tail_big (r * lam) (r * (lam / 2) - r * (-1 * c)) Ha) as [N4 H4].
  exists (max (max N1 N2) (max N3 N4)). intros N HN.
  assert (Hsign : forall s (b1 b2 : R), (forall N, (max (max N1 N2) (max N3 N4) <= N)%nat ->
      exp (b1 - r * lam * INR N) < eps / 2) ->
      (forall N, (max (max N1 N2) (max N3 N4) <= N)%nat -> 1 <= exp (b2 + r * lam * INR N)) ->
      b1 = r * (- lam / 2) + r * (sgn s * - c) -> b2 = r * (lam / 2) - r * (sgn s * c) ->
      uouter (fun u => far N (mech u s)) < eps / 2).
  { intros s b1 b2 Hb1 Hb2 -> ->.
    pose proof (exp_pos (r * (- lam / 2) + r * (sgn s * - c) - r * lam * INR N)).
    pose proof (Hb1 N HN). pose proof (Hb2 N HN).
    set (t := exp (r * (- lam / 2) + r * (sgn s * - c) - r * lam * INR N)) in *.
    set (T := exp (r * (lam / 2) - r * (sgn s * c) + r * lam * INR N)) in *.
    eapply Rle_lt_trans; [apply (uouter_union _ (fun u => u <= t) (fun u => T <= u))|].
    - intros u Hu Hfar. exact (grid_far_bounds N u s Hu Hfar).
    - rewrite (uouter_umeasure (fun u => u <= t) _ (umeasure_Iic _ _ (fun u _ => iff_refl _))).
      rewrite (uouter_umeasure (fun u => T <= u) _ (umeasure_Ici _ _ (fun u _ => iff_refl _))).
      unfold ulen_to, ulen_from. split_minmax; lra. }
  unfold snap_pr, noise_pr. cbn [fst snd].
  pose proof (Hsign SPlus _ _ (fun N HN => H1 N ltac:(lia)) (fun N HN => H3 N ltac:(lia)) eq_refl eq_refl).
  pose proof (Hsign SMinus _ _ (fun N HN => H2 N ltac:(lia)) (fun N HN => H4 N ltac:(lia)) eq_refl eq_refl).
  lra.
Qed.

(** Every set of outputs: the monotone limit of its finite parts. *)
Theorem snap_pr_grid_limit (F : R -> Prop) :
  Un_cv (fun N => snap_pr mech (fun y => F y /\ exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k))
        (snap_pr mech F).
Proof.
  intros eps He. destruct (snap_pr_tail eps He) as [N0 HN0]. exists N0. intros N HN.
  unfold R_dist. pose proof (HN0 N HN) as Ht.
  assert (Hle : snap_pr mech (fun y => F y /\ exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k) <= snap_pr mech F)
    by (apply noise_pr_mono; intros u s _ [HF _]; exact HF).
  assert (Hge : snap_pr mech F <=
                snap_pr mech (fun y => F y /\ exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k) +
                snap_pr mech (far N)).
  { apply noise_pr_union. intros u s _ HF. cbn [fst snd] in *.
    destruct (classic (exists k, (Z.abs k <= Z.of_nat N)%Z /\ mech u s = lam * IZR k)) as [H|H];
      [left; split; assumption|right; exact H]. }
  rewrite Rabs_left1 by lra. lra.
Qed.

(** The probabilities of the outputs [k Λ] sum to 1. *)
Theorem snap_mass_grid :
  (forall k, exists p, snap_prob mech (lam * IZR k) p) ->
  Un_cv (fun N => rsum (map (fun k => snap_pr mech (fun y => y = lam * IZR k)) (zrange N))) 1.
Proof.
  intros Hex. rewrite <- noise_pr_all.
  replace (noise_pr (fun _ => True)) with (snap_pr mech (fun _ => True)) by reflexivity.
  intros eps He. destruct (snap_pr_grid_limit (fun _ => True) eps He) as [N0 HN0]. exists N0. intros N HN.
  replace (rsum (map (fun k => snap_pr mech (fun y => y = lam * IZR k)) (zrange N)))
    with (snap_pr mech (fun y => True /\ exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k)).
  - apply HN0, HN.
  - rewrite <- (snap_pr_list mech (grid_outputs lam N)).
    + unfold snap_pr. apply noise_pr_ext. intros u s _. cbn [fst snd]. rewrite in_grid_outputs by exact Hl. tauto.
    + apply grid_outputs_nodup, Hl.
    + unfold grid_outputs. clear HN0 HN. induction (zrange N) as [|k ks IH]; cbn [map]; constructor; [|exact IH].
      destruct (Hex k) as [p Hp]. rewrite (snap_pr_prob mech _ p Hp). exact Hp.
Qed.

End Grid.

(** ** Pure DP for every set of outputs, by the monotone limit *)

(** The elements of [l] that satisfy [P], as a list (classically). *)
Lemma list_filter_prop {A : Type} (P : A -> Prop) (l : list A) :
  exists l', (forall x, In x l' <-> In x l /\ P x) /\ (NoDup l -> NoDup l').
Proof.
  induction l as [|a l (l' & Hin & Hnd)].
  - exists []. split; [intros x; cbn [In]; tauto|intros _; constructor].
  - destruct (classic (P a)) as [Ha|Ha].
    + exists (a :: l'). split.
      * intros x. cbn [In]. rewrite Hin. split; [intros [->|H]; tauto|intros [[->|H] HP]; [left|right]; tauto].
      * intros Hnd'. inversion Hnd' as [|? ? Hnot Hnd'']; subst. constructor; [rewrite Hin; tauto|apply Hnd, Hnd''].
    + exists l'. split.
      * intros x. cbn [In]. rewrite Hin. split; [tauto|intros [[->|H] HP]; [contradiction|tauto]].
      * intros Hnd'. inversion Hnd'; subst. apply Hnd. assumption.
Qed.

Lemma forall2_exists {A B : Type} (Rel : A -> B -> Prop) (l : list A) :
  (forall x, In x l -> exists y, Rel x y) -> exists l', Forall2 Rel l l'.
Proof.
  induction l as [|a l IH]; intros H.
  - exists []. constructor.
  - destruct (H a (or_introl eq_refl)) as [b Hb].
    destruct IH as [l' Hl']; [intros x Hx; apply H; right; exact Hx|].
    exists (b :: l'). constructor; assumption.
Qed.

(** The pointwise bound (SnapDP.v) extends to every set of outputs of the
    unclamped mechanism: true on the finite parts [F ∩ {k Λ : |k| <= N}]
    ([snap_dp_events]), it passes to their limits ([snap_pr_grid_limit]). *)
Theorem snap_dp_grid_limit (mech mech' : R -> sign -> R) (r lam c c' w : R) :
  0 < r -> 0 < lam ->
  (forall u s y, 0 < u <= 1 -> mech u s = y -> exists k, y = lam * IZR k) ->
  (forall k u, 0 < u <= 1 -> mech u SPlus = lam * IZR k ->
     exp (r * ((IZR k - / 2) * lam - c)) <= u <= exp (r * ((IZR k + / 2) * lam - c))) ->
  (forall k u, 0 < u <= 1 -> mech u SMinus = lam * IZR k ->
     exp (r * (c - (IZR k + / 2) * lam)) <= u <= exp (r * (c - (IZR k - / 2) * lam))) ->
  (forall u s y, 0 < u <= 1 -> mech' u s = y -> exists k, y = lam * IZR k) ->
  (forall k u, 0 < u <= 1 -> mech' u SPlus = lam * IZR k ->
     exp (r * ((IZR k - / 2) * lam - c')) <= u <= exp (r * ((IZR k + / 2) * lam - c'))) ->
  (forall k u, 0 < u <= 1 -> mech' u SMinus = lam * IZR k ->
     exp (r * (c' - (IZR k + / 2) * lam)) <= u <= exp (r * (c' - (IZR k - / 2) * lam))) ->
  (forall y, exists p, snap_prob mech y p) -> (forall y, exists p, snap_prob mech' y p) ->
  (forall y p p', snap_prob mech y p -> snap_prob mech' y p' -> p <= w * p') ->
  forall F, snap_pr mech F <= w * snap_pr mech' F.
Proof.
  intros Hr Hl Hg Hp Hm Hg' Hp' Hm' Hex Hex' Hpt F.
  set (part := fun N y => F y /\ exists k, (Z.abs k <= Z.of_nat N)%Z /\ y = lam * IZR k).
  apply Rle_cv_lim with (Un := fun N => snap_pr mech (part N)) (Vn := fun N => w * snap_pr mech' (part N)).
  - intros N. destruct (list_filter_prop F (grid_outputs lam N)) as (ys & Hys & Hnd).
    pose proof (Hnd (grid_outputs_nodup lam N Hl)) as Hnd'.
    destruct (forall2_exists (snap_prob mech) ys (fun y _ => Hex y)) as [ps Hps].
    destruct (forall2_exists (snap_prob mech') ys (fun y _ => Hex' y)) as [ps' Hps'].
    assert (Hpart : forall m, snap_pr m (part N) = snap_pr m (fun y => In y ys)).
    { intros m. unfold snap_pr. apply noise_pr_ext. intros u s _. cbn [fst snd].
      rewrite Hys, in_grid_outputs by exact Hl. unfold part. tauto. }
    rewrite !Hpart, (snap_pr_list mech ys ps Hnd' Hps), (snap_pr_list mech' ys ps' Hnd' Hps').
    exact (snap_dp_events mech mech' w Hpt ys ps ps' Hps Hps').
  - exact (snap_pr_grid_limit mech r lam c Hr Hl Hg Hp Hm F).
  - apply (CV_mult (fun _ => w)); [intros e He; exists 0%nat; intros n _; unfold R_dist; rewrite Rminus_diag_eq, Rabs_R0 by reflexivity; exact He|].
    exact (snap_pr_grid_limit mech' r lam c' Hr Hl Hg' Hp' Hm' F).
Qed.

(** ** The clamped mechanism: finitely many outputs *)

(** The grid indices strictly inside [(-B, B)]. *)
Definition interior_range (B lam : R) : list Z :=
  zseq (Zfloor (- B / lam) + 1) (Z.to_nat (Zceil (B / lam) - Zfloor (- B / lam) - 1)).

Lemma in_interior_range B lam k : 0 < B -> 0 < lam ->
  (In k (interior_range B lam) <-> - B < lam * IZR k < B).
Proof.
  intros HB Hl. unfold interior_range.
  assert (Hc : (1 <= Zceil (B / lam))%Z).
  { pose proof (Zceil_ub (B / lam)) as Hu. assert (Hp : 0 < B / lam) by (apply Rdiv_lt_0_compat; lra).
    destruct (Z_lt_le_dec (Zceil (B / lam)) 1) as [Hlt|Hle]; [|exact Hle].
    exfalso. assert (Hz : (Zceil (B / lam) <= 0)%Z) by lia. apply IZR_le in Hz. lra. }
  assert (Hf : (Zfloor (- B / lam) <= -1)%Z).
  { destruct (Z_lt_le_dec (Zfloor (- B / lam)) 0) as [Hlt|Hle]; [lia|].
    exfalso. apply IZR_le in Hle. pose proof (Zfloor_lb (- B / lam)).
    assert (- B / lam < 0) by (unfold Rdiv; rewrite Ropp_mult_distr_l_reverse; apply Ropp_lt_gt_0_contravar, Rdiv_lt_0_compat; lra).
    lra. }
  rewrite in_zseq, Z2Nat.id by lia.
  assert (Hlo : - B / lam < IZR k <-> - B < lam * IZR k).
  { split; intros H.
    - apply (Rmult_lt_compat_l lam) in H; [|exact Hl]. replace (lam * (- B / lam)) with (- B) in H by (field; lra). exact H.
    - apply (Rmult_lt_compat_l (/ lam)) in H; [|apply Rinv_0_lt_compat, Hl].
      replace (/ lam * (lam * IZR k)) with (IZR k) in H by (field; lra).
      replace (/ lam * - B) with (- B / lam) in H by (field; lra). exact H. }
  assert (Hhi : IZR k < B / lam <-> lam * IZR k < B).
  { split; intros H.
    - apply (Rmult_lt_compat_l lam) in H; [|exact Hl]. replace (lam * (B / lam)) with B in H by (field; lra). exact H.
    - apply (Rmult_lt_compat_l (/ lam)) in H; [|apply Rinv_0_lt_compat, Hl].
      replace (/ lam * (lam * IZR k)) with (IZR k) in H by (field; lra).
      replace (/ lam * B) with (B / lam) in H by (field; lra). exact H. }
  rewrite <- Hlo, <- Hhi. split.
  - intros [H1 H2]. split.
    + apply Rlt_le_trans with (IZR (Zfloor (- B / lam)) + 1); [apply Zfloor_ub|].
      rewrite <- plus_IZR. apply IZR_le. lia.
    + apply Rle_lt_trans with (IZR (Zceil (B / lam)) - 1); [rewrite <- minus_IZR; apply IZR_le; lia|].
      pose proof (Zceil_lb (B / lam)). lra.
  - intros [H1 H2]. split.
    + destruct (Z_lt_le_dec (Zfloor (- B / lam)) k) as [H|H]; [lia|].
      exfalso. apply IZR_le in H. pose proof (Zfloor_lb (- B / lam)). lra.
    + destruct (Z_lt_le_dec k (Zceil (B / lam))) as [H|H]; [lia|].
      exfalso. apply IZR_le in H. pose proof (Zceil_ub (B / lam)). lra.
Qed.

(** The outputs [B], [-B] and the interior grid points, distinct. *)
Definition clamped_outputs (B lam : R) : list R :=
  B :: - B :: map (fun k => lam * IZR k) (interior_range B lam).

Lemma clamped_outputs_nodup B lam : 0 < B -> 0 < lam -> NoDup (clamped_outputs B lam).
Proof.
  intros HB Hl. unfold clamped_outputs.
  assert (Hin : forall y, In y (map (fun k => lam * IZR k) (interior_range B lam)) -> - B < y < B).
  { intros y Hy. apply in_map_iff in Hy as (k & <- & Hk). apply in_interior_range; assumption. }
  constructor; [|constructor].
  - intros [H|H]; [lra|]. pose proof (Hin B H). lra.
  - intros H. pose proof (Hin (- B) H). lra.
  - apply Injective_map_NoDup; [|apply zseq_nodup].
    intros k k' H. apply eq_IZR. apply (Rmult_eq_reg_l lam); [exact H|lra].
Qed.

(** The probabilities of the outputs of the clamped mechanism sum to 1. *)
Theorem snap_mass_clamped (mech : R -> sign -> R) (B lam : R) : 0 < B -> 0 < lam ->
  (forall u s y, 0 < u <= 1 -> mech u s = y ->
     y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B) ->
  (forall y, exists p, snap_prob mech y p) ->
  rsum (map (fun y => snap_pr mech (fun y' => y' = y)) (clamped_outputs B lam)) = 1.
Proof.
  intros HB Hl Hout Hex. apply (snap_mass_list mech (clamped_outputs B lam)).
  - apply clamped_outputs_nodup; assumption.
  - generalize (clamped_outputs B lam). intros ys. induction ys as [|y ys IH]; cbn [map]; constructor; [|exact IH].
    destruct (Hex y) as [p Hp]. rewrite (snap_pr_prob mech y p Hp). exact Hp.
  - intros u s Hu. unfold clamped_outputs. cbn [In].
    destruct (Hout u s _ Hu eq_refl) as [H|[H|(k & H & Hk)]]; [left; symmetry; exact H|right; left; symmetry; exact H|].
    right; right. apply in_map_iff. exists k. split; [symmetry; exact H|apply in_interior_range; assumption].
Qed.
