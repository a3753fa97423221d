(** * The ideal snapping mechanism: output probabilities and pure DP

    A mechanism is given as a function of the uniform sample [u ∈ (0,1]] and
    of the sign [s ∈ {+1, -1}] (the query value is applied before).  The
    probability of an output [y] is half the measure of its preimage on each
    sign ([snap_prob]).  This file gives

    - the per-sign preimage of each output as an interval of [u], for both
      tie rules, unclamped and clamped ([snap_pre_*]);
    - the closed-form output probabilities, case by case ([snap_case_*]);
    - pure [r * Delta]-DP of any mechanism with those preimages
      ([snap_dp_unclamped], [snap_dp_clamped]; clamped, [r * (2 * B)]-DP whatever
      the sensitivity, [snap_dp_clamped_2b]), proved on the sum of both signs
      (SnapBound.v), its extension to finite sets of outputs
      ([snap_dp_events]), and the refutation form ([snap_not_dp]). *)
From Coq Require Import Reals Lra ZArith List Classical.
From Flocq Require Import Raux.
From Obligations.Core Require Import Sums.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp SnapBound.
Import ListNotations.
Local Open Scope R_scope.

Inductive sign := SPlus | SMinus.

Definition sgn (s : sign) : R := match s with SPlus => 1 | SMinus => -1 end.

(** [p] is Pr[mech u S = y] for [u] uniform on (0,1] and [S] a fair sign. *)
Definition snap_prob (mech : R -> sign -> R) (y p : R) : Prop :=
  exists m1 m2, umeasure (fun u => mech u SPlus = y) m1 /\
                umeasure (fun u => mech u SMinus = y) m2 /\ p = / 2 * (m1 + m2).

Lemma snap_prob_intro (mech : R -> sign -> R) y m1 m2 :
  umeasure (fun u => mech u SPlus = y) m1 -> umeasure (fun u => mech u SMinus = y) m2 ->
  snap_prob mech y (/ 2 * (m1 + m2)).
Proof. intros H1 H2. exists m1, m2. auto. Qed.

Lemma snap_prob_eq (mech : R -> sign -> R) y p q : p = q -> snap_prob mech y p -> snap_prob mech y q.
Proof. intros ->. trivial. Qed.

(** The probability of an output is unique. *)
Lemma snap_prob_unique (mech : R -> sign -> R) y p q :
  snap_prob mech y p -> snap_prob mech y q -> p = q.
Proof.
  intros (m1 & m2 & H1 & H2 & ->) (n1 & n2 & G1 & G2 & ->).
  rewrite (umeasure_unique _ _ _ H1 G1), (umeasure_unique _ _ _ H2 G2). reflexivity.
Qed.

Lemma snap_prob_nonneg (mech : R -> sign -> R) y p : snap_prob mech y p -> 0 <= p.
Proof.
  intros (m1 & m2 & H1 & H2 & ->).
  pose proof (umeasure_nonneg _ _ H1). pose proof (umeasure_nonneg _ _ H2). lra.
Qed.

(** An output the mechanism never produces has probability 0. *)
Lemma snap_prob_never (mech : R -> sign -> R) y p :
  (forall u s, 0 < u <= 1 -> mech u s <> y) -> snap_prob mech y p -> p = 0.
Proof.
  intros Hn (m1 & m2 & H1 & H2 & ->).
  rewrite (umeasure_empty_eq _ _ (fun u Hu => Hn u SPlus Hu) H1).
  rewrite (umeasure_empty_eq _ _ (fun u Hu => Hn u SMinus Hu) H2). ring.
Qed.

(** ** The Laplace sample [x = c + sgn s * (ln u / r)] *)

Lemma sgn_plus_x c z : c + sgn SPlus * z = c + z.
Proof. simpl. ring. Qed.

Lemma sgn_minus_x c z : c + sgn SMinus * z = c - z.
Proof. simpl. ring. Qed.

(** ** Clamping a grid point *)

Lemma clamp_grid_top_iff B lam j : 0 < B -> 0 < lam ->
  (clamp B (lam * IZR j) = B <-> (Zceil (B / lam) <= j)%Z).
Proof.
  intros HB Hl. rewrite clamp_top_iff by exact HB. split; intros H.
  - apply Zceil_glb. apply div_le_iff_r; [exact Hl|lra].
  - apply IZR_le in H. pose proof (Zceil_ub (B / lam)).
    assert (H1 : B / lam <= IZR j) by lra. apply (div_le_iff_r _ _ _ Hl) in H1. lra.
Qed.

Lemma clamp_grid_bottom_iff B lam j : 0 < B -> 0 < lam ->
  (clamp B (lam * IZR j) = - B <-> (j <= Zfloor (- B / lam))%Z).
Proof.
  intros HB Hl. rewrite clamp_bottom_iff by exact HB. split; intros H.
  - apply Zfloor_lub. apply div_le_iff; [exact Hl|lra].
  - apply IZR_le in H. pose proof (Zfloor_lb (- B / lam)).
    assert (H1 : IZR j <= - B / lam) by lra. apply (div_le_iff _ _ _ Hl) in H1. lra.
Qed.

Lemma clamp_grid_interior_iff B lam j k : 0 < lam -> - B < lam * IZR k < B ->
  (clamp B (lam * IZR j) = lam * IZR k <-> j = k).
Proof. intros Hl Hk. rewrite clamp_interior_iff by exact Hk. apply grid_eq_iff, Hl. Qed.

(** ** Per-sign preimages: unclamped *)

Section Preimages.
Variables (r lam c : R) (k : Z) (u : R).
Hypotheses (Hr : 0 < r) (Hl : 0 < lam) (Hu : 0 < u).

Lemma snap_pre_up_plus :
  lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) <= u < exp (r * ((IZR k + / 2) * lam - c)).
Proof.
  rewrite grid_eq_iff, round_grid_up_iff, sgn_plus_x by assumption.
  rewrite lap_plus_ge, lap_plus_lt by assumption. tauto.
Qed.

Lemma snap_pre_up_minus :
  lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) < u <= exp (r * (c - (IZR k - / 2) * lam)).
Proof.
  rewrite grid_eq_iff, round_grid_up_iff, sgn_minus_x by assumption.
  rewrite lap_minus_ge, lap_minus_lt by assumption. tauto.
Qed.

Lemma snap_pre_down_plus :
  lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) < u <= exp (r * ((IZR k + / 2) * lam - c)).
Proof.
  rewrite grid_eq_iff, round_grid_down_iff, sgn_plus_x by assumption.
  rewrite lap_plus_gt, lap_plus_le by assumption. tauto.
Qed.

Lemma snap_pre_down_minus :
  lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) <= u < exp (r * (c - (IZR k - / 2) * lam)).
Proof.
  rewrite grid_eq_iff, round_grid_down_iff, sgn_minus_x by assumption.
  rewrite lap_minus_gt, lap_minus_le by assumption. tauto.
Qed.

(** ** Per-sign preimages: clamped, interior outputs *)

Variable B : R.
Hypothesis HB : 0 < B.

Lemma snap_pre_clamp_up_plus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) <= u < exp (r * ((IZR k + / 2) * lam - c)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_up_plus. Qed.

Lemma snap_pre_clamp_up_minus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) < u <= exp (r * (c - (IZR k - / 2) * lam)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_up_minus. Qed.

Lemma snap_pre_clamp_down_plus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * ((IZR k - / 2) * lam - c)) < u <= exp (r * ((IZR k + / 2) * lam - c)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_down_plus. Qed.

Lemma snap_pre_clamp_down_minus : - B < lam * IZR k < B ->
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u)))) = lam * IZR k <->
  exp (r * (c - (IZR k + / 2) * lam)) <= u < exp (r * (c - (IZR k - / 2) * lam)).
Proof. intros Hk. rewrite (clamp_grid_interior_iff B lam _ k Hl Hk), <- (grid_eq_iff lam _ k Hl). exact snap_pre_down_minus. Qed.

(** ** Per-sign preimages: clamped, the output [B] (index >= [Zceil (B / lam)]) *)

Lemma snap_pre_top_up_plus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u)))) = B <->
  exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - c)) <= u.
Proof.
  rewrite clamp_grid_top_iff, round_grid_up_ge_iff, sgn_plus_x by assumption.
  apply lap_plus_ge; assumption.
Qed.

Lemma snap_pre_top_up_minus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u)))) = B <->
  u <= exp (r * (c - (IZR (Zceil (B / lam)) - / 2) * lam)).
Proof.
  rewrite clamp_grid_top_iff, round_grid_up_ge_iff, sgn_minus_x by assumption.
  apply lap_minus_ge; assumption.
Qed.

Lemma snap_pre_top_down_plus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u)))) = B <->
  exp (r * ((IZR (Zceil (B / lam)) - / 2) * lam - c)) < u.
Proof.
  rewrite clamp_grid_top_iff, round_grid_down_ge_iff, sgn_plus_x by assumption.
  apply lap_plus_gt; assumption.
Qed.

Lemma snap_pre_top_down_minus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u)))) = B <->
  u < exp (r * (c - (IZR (Zceil (B / lam)) - / 2) * lam)).
Proof.
  rewrite clamp_grid_top_iff, round_grid_down_ge_iff, sgn_minus_x by assumption.
  apply lap_minus_gt; assumption.
Qed.

(** ** Per-sign preimages: clamped, the output [-B] (index <= [Zfloor (- B / lam)]) *)

Lemma snap_pre_bot_up_plus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SPlus * (/ r * ln u)))) = - B <->
  u < exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - c)).
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_up_le_iff, sgn_plus_x by assumption.
  apply lap_plus_lt; assumption.
Qed.

Lemma snap_pre_bot_up_minus :
  clamp B (lam * IZR (round_grid TiesUp lam (c + sgn SMinus * (/ r * ln u)))) = - B <->
  exp (r * (c - (IZR (Zfloor (- B / lam)) + / 2) * lam)) < u.
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_up_le_iff, sgn_minus_x by assumption.
  apply lap_minus_lt; assumption.
Qed.

Lemma snap_pre_bot_down_plus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SPlus * (/ r * ln u)))) = - B <->
  u <= exp (r * ((IZR (Zfloor (- B / lam)) + / 2) * lam - c)).
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_down_le_iff, sgn_plus_x by assumption.
  apply lap_plus_le; assumption.
Qed.

Lemma snap_pre_bot_down_minus :
  clamp B (lam * IZR (round_grid TiesDown lam (c + sgn SMinus * (/ r * ln u)))) = - B <->
  exp (r * (c - (IZR (Zfloor (- B / lam)) + / 2) * lam)) <= u.
Proof.
  rewrite clamp_grid_bottom_iff, round_grid_down_le_iff, sgn_minus_x by assumption.
  apply lap_minus_le; assumption.
Qed.

End Preimages.

(** Every output of the (clamped) mechanism is a grid point (or [±B]). *)
Lemma snap_grid_any (lam : R) (t : tie) (x y : R) :
  lam * IZR (round_grid t lam x) = y -> exists k, y = lam * IZR k.
Proof. intros <-. eexists; reflexivity. Qed.

Lemma snap_grid_clamped (B lam : R) (t : tie) (x y : R) : 0 < B ->
  clamp B (lam * IZR (round_grid t lam x)) = y ->
  y = B \/ y = - B \/ exists k, y = lam * IZR k /\ - B < lam * IZR k < B.
Proof.
  intros HB <-.
  destruct (clamp_cases_3 B (lam * IZR (round_grid t lam x)) HB) as [H|[H|[H1 H2]]].
  - left; exact H.
  - right; left; exact H.
  - right; right. exists (round_grid t lam x). rewrite H2 in *. split; [reflexivity|exact H1].
Qed.

(** ** Closed-form output probabilities *)

Lemma exp_le_1 a : a <= 0 -> exp a <= 1.
Proof. intros H. rewrite <- exp_0. apply exp_le_iff, H. Qed.

Lemma exp_ge_1 a : 0 <= a -> 1 <= exp a.
Proof. intros H. rewrite <- exp_0. apply exp_le_iff, H. Qed.

Lemma exp_nonneg a : 0 <= exp a.
Proof. apply Rlt_le, exp_pos. Qed.

Section Cases.
Variables (mech : R -> sign -> R) (r lam c : R) (k : Z).
Hypotheses (Hr : 0 < r) (Hl : 0 < lam).

Let Hplus := umeasure (fun u => mech u SPlus = lam * IZR k)
  (ulen (exp (r * ((IZR k - / 2) * lam - c))) (exp (r * ((IZR k + / 2) * lam - c)))).
Let Hminus := umeasure (fun u => mech u SMinus = lam * IZR k)
  (ulen (exp (r * (c - (IZR k + / 2) * lam))) (exp (r * (c - (IZR k - / 2) * lam)))).

(** The bucket of [k] lies below [c]. *)
Lemma snap_case_below : (IZR k + / 2) * lam <= c -> Hplus -> Hminus ->
  snap_prob mech (lam * IZR k)
    (/ 2 * (exp (r * ((IZR k + / 2) * lam - c)) - exp (r * ((IZR k - / 2) * lam - c)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_inside, ulen_above.
  - ring.
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_iff; nra].
  - apply exp_le_1. nra.
Qed.

(** [c] lies in the bucket of [k]. *)
Lemma snap_case_bucket : (IZR k - / 2) * lam <= c <= (IZR k + / 2) * lam -> Hplus -> Hminus ->
  snap_prob mech (lam * IZR k)
    (/ 2 * (2 - exp (r * ((IZR k - / 2) * lam - c)) - exp (r * (c - (IZR k + / 2) * lam)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite !ulen_straddle.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
Qed.

(** The bucket of [k] lies above [c]. *)
Lemma snap_case_above : c <= (IZR k - / 2) * lam -> Hplus -> Hminus ->
  snap_prob mech (lam * IZR k)
    (/ 2 * (exp (r * (c - (IZR k - / 2) * lam)) - exp (r * (c - (IZR k + / 2) * lam)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_above, ulen_inside.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_iff; nra].
  - apply exp_le_1. nra.
  - apply exp_ge_1. nra.
Qed.

End Cases.

Section TailCases.
Variables (mech : R -> sign -> R) (r c g y : R).
Hypothesis Hr : 0 < r.

(** Output [B] ([g = (Zceil (B / lam) - 1/2) lam]), in general and in closed form. *)
Lemma snap_case_top :
  umeasure (fun u => mech u SPlus = y) (ulen_from (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_to (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (ulen_from (exp (r * (g - c))) + ulen_to (exp (r * (c - g))))).
Proof. apply snap_prob_intro. Qed.

Lemma snap_case_top_far : c <= g ->
  umeasure (fun u => mech u SPlus = y) (ulen_from (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_to (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * exp (r * (c - g))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_from_above, ulen_to_inside.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
Qed.

Lemma snap_case_top_near : g <= c ->
  umeasure (fun u => mech u SPlus = y) (ulen_from (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_to (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (2 - exp (r * (g - c)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_from_inside, ulen_to_above.
  - ring.
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
Qed.

(** Output [-B] ([g = (Zfloor (- B / lam) + 1/2) lam]). *)
Lemma snap_case_bot :
  umeasure (fun u => mech u SPlus = y) (ulen_to (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_from (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (ulen_to (exp (r * (g - c))) + ulen_from (exp (r * (c - g))))).
Proof. apply snap_prob_intro. Qed.

Lemma snap_case_bot_far : g <= c ->
  umeasure (fun u => mech u SPlus = y) (ulen_to (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_from (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * exp (r * (g - c))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_to_inside, ulen_from_above.
  - ring.
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
Qed.

Lemma snap_case_bot_near : c <= g ->
  umeasure (fun u => mech u SPlus = y) (ulen_to (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_from (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (2 - exp (r * (c - g)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_to_above, ulen_from_inside.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
Qed.

End TailCases.

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

(** One tail output, [T = tail_mass_up] or [tail_mass_down]. *)
Lemma snap_tail_ratio (T : R -> R -> R) (r g Delta c c' m1 m2 m1' m2' : R) :
  (forall gamma t t', 0 < gamma -> 0 < t -> 0 < t' -> T gamma t' <= Rmax (t' / t) (t / t') * T gamma t) ->
  (forall gamma t, 0 <= T gamma t) ->
  0 < r -> Rabs (c - c') <= Delta ->
  m1 + m2 = T (exp (r * g)) (exp (r * c)) ->
  m1' + m2' = T (exp (r * g)) (exp (r * c')) ->
  / 2 * (m1 + m2) <= exp (r * Delta) * (/ 2 * (m1' + m2')).
Proof.
  intros Hratio Hnn Hr Hd -> ->.
  pose proof (Hratio (exp (r * g)) (exp (r * c')) (exp (r * c)) (exp_pos _) (exp_pos _) (exp_pos _)) as H.
  pose proof (exp_ratio_le r c' c Delta ltac:(lra) ltac:(rewrite Rabs_minus_sym; exact Hd)) as Hm.
  apply Rmult_le_compat_r with (r := T (exp (r * g)) (exp (r * c'))) in Hm; [|apply Hnn].
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
    apply (snap_tail_ratio tail_mass_up r g Delta (clamp B c) (clamp B c'));
      [intros; now apply tail_mass_up_ratio|apply tail_mass_up_nonneg|exact Hr|exact Hcd| |];
      unfold tail_mass_up; rewrite <- !exp_sub_div.
    + rewrite (umeasure_unique _ _ _ H1 (Htp c)), (umeasure_unique _ _ _ H2 (Htm c)). reflexivity.
    + rewrite (umeasure_unique _ _ _ H1' (Htp c')), (umeasure_unique _ _ _ H2' (Htm c')). reflexivity.
  - subst p p'. set (g := (IZR (Zfloor (- B / lam)) + / 2) * lam).
    apply (snap_tail_ratio tail_mass_down r g Delta (clamp B c) (clamp B c'));
      [intros; now apply tail_mass_down_ratio|apply tail_mass_down_nonneg|exact Hr|exact Hcd| |];
      unfold tail_mass_down; rewrite <- !exp_sub_div.
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

(** Two clamped values are at most [2 * B] apart, whatever the query values. *)
Lemma clamp_dist_le_2b (B x y : R) : 0 <= B -> Rabs (clamp B x - clamp B y) <= 2 * B.
Proof.
  intros HB. pose proof (clamp_in_range B x HB). pose proof (clamp_in_range B y HB).
  unfold Rabs. destruct (Rcase_abs (clamp B x - clamp B y)); lra.
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

(** Helpers for the numeric witness: [p = e^d p'] with [e < d] and [p' > 0]. *)
Lemma exp_scaled_gt (e d p p' : R) : e < d -> 0 < p' -> p = exp d * p' -> p > exp e * p'.
Proof.
  intros Hed Hp' ->. apply Rmult_lt_compat_r; [exact Hp'|apply exp_increasing, Hed].
Qed.

Lemma exp_shift (x y d : R) : x = y + d -> exp x = exp d * exp y.
Proof. intros ->. rewrite exp_plus. ring. Qed.

Lemma exp_lt_of (a b : R) : a < b -> exp a < exp b.
Proof. apply exp_increasing. Qed.

(** ** Mechanisms that agree on (0, 1] have the same output probabilities

    The generated files define the mechanism literally from the spec's steps and
    prove that it agrees with the normal form [c + sgn s * (/ r * ln u)] that the
    case lemmas speak about; this transports their probabilities. *)
Lemma umeasure_ext (P Q : R -> Prop) m :
  (forall u, 0 < u <= 1 -> (P u <-> Q u)) -> umeasure P m -> umeasure Q m.
Proof.
  intros Hpq [[Hn Hm] | (i & a & b & Hi & Hm)].
  - left. split; [|exact Hm]. intros u Hu HQ. apply (Hn u Hu), Hpq; assumption.
  - right. exists i, a, b. split; [|exact Hm].
    intros u Hu. rewrite <- Hpq by exact Hu. apply Hi, Hu.
Qed.

Lemma snap_prob_ext (mech mech' : R -> sign -> R) y p :
  (forall u s, 0 < u <= 1 -> mech u s = mech' u s) ->
  snap_prob mech y p -> snap_prob mech' y p.
Proof.
  intros Heq (m1 & m2 & H1 & H2 & Hp). exists m1, m2. repeat split; [| |exact Hp].
  - revert H1. apply umeasure_ext. intros u Hu. rewrite (Heq u SPlus Hu). tauto.
  - revert H2. apply umeasure_ext. intros u Hu. rewrite (Heq u SMinus Hu). tauto.
Qed.

(** ** Every output has a probability

    [snap_prob] is a relation; the DP theorems quantify over the probabilities it
    relates, so they would say nothing about an output that has none.  This lemma
    rules that out: outputs in [G] get one from the preimage measures, and any
    other value is never output (measure 0 for both signs). *)
Lemma snap_prob_total (mech : R -> sign -> R) (G : R -> Prop) :
  (forall y, G y -> exists m1 m2, umeasure (fun u => mech u SPlus = y) m1 /\
                                  umeasure (fun u => mech u SMinus = y) m2) ->
  (forall u s y, 0 < u <= 1 -> mech u s = y -> G y) ->
  forall y, exists p, snap_prob mech y p.
Proof.
  intros Hg Hrange y. destruct (Classical_Prop.classic (G y)) as [HG | HG].
  - destruct (Hg y HG) as (m1 & m2 & H1 & H2). exists (/ 2 * (m1 + m2)), m1, m2. auto.
  - exists 0, 0, 0. split; [| split].
    + left. split; [| reflexivity]. intros u Hu Hm. exact (HG (Hrange u SPlus y Hu Hm)).
    + left. split; [| reflexivity]. intros u Hu Hm. exact (HG (Hrange u SMinus y Hu Hm)).
    + lra.
Qed.
