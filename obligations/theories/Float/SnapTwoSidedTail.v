(** * The clamped outputs ±B with U*'s factor once
    [tight_top_ratio] and [tight_bottom_ratio] (SnapTight.v) bound the ratio of
    a clamped output by e^(|x − x′|/λ)·E², E = e^(δ/λ)/(1 − 2η): the threshold
    moved by δ for both inputs and U*'s factor at both ends.  A clamped output
    has one threshold A (the output B: the sum at or above A), and U*'s factor
    falls on one sign only: in the upper bound on the sign −1 (u at most
    e^((x − A + d)/λ), its upper end), in the lower bound on the sign +1.  Both
    masses are then functions of t/g alone, [top_mass q g t] =
    ulen_from(g/t) + ulen_to(t/(q·g)) with q = 1 − 2η (and [bot_mass] for −B),
    with [top_mass/t] nonincreasing and [t·top_mass] nondecreasing: moving g by
    a factor F ≥ 1 costs F ([top_mass_widen]), moving t costs the ratio of the
    t's ([top_mass_move]).  With d ≥ μ|A − x| for x and n > μ|A − x′| for x′,
    F = e^((d + n)/λ)/(1 − 2η): every clamped output's ratio is at most
    e^(|x − x′|/λ)·e^((d + n)/λ)/(1 − 2η) ([two_sided_top], [two_sided_bottom]). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapClamp SnapRatio SnapTailRatio
  SnapTight SnapTwoSided SnapTwoSidedRatio.

Local Open Scope R_scope.

(** The output B: the sign +1 above g, the sign −1 with U*'s factor. *)
Definition top_mass (q g t : R) : R := ulen_from (g / t) + ulen_to (t / (q * g)).

(** The output −B: the sign +1 with U*'s factor below h, the sign −1 above h/q... *)
Definition bot_mass (q h t : R) : R := ulen_to (h / t) + ulen_from (t / (q * h)).

Section Tails.

Variables q : R.
Hypothesis Hq : 0 < q <= 1.

Let top1 : forall g t, 0 < g -> 0 < t <= q * g -> top_mass q g t = t / (q * g).
Proof.
  intros g t Hg Ht. unfold top_mass.
  assert (0 < q * g) by (apply Rmult_lt_0_compat; lra).
  assert (Hqgg : q * g <= g) by (rewrite <- (Rmult_1_l g) at 2; apply Rmult_le_compat_r; lra).
  rewrite ulen_from_above by (apply div_ge1; lra).
  rewrite ulen_to_inside by (split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra]). ring.
Qed.

Let top2 : forall g t, 0 < g -> q * g <= t <= g -> top_mass q g t = 1.
Proof.
  intros g t Hg Ht. unfold top_mass.
  assert (0 < q * g) by (apply Rmult_lt_0_compat; lra).
  rewrite ulen_from_above by (apply div_ge1; lra).
  rewrite ulen_to_above by (apply div_ge1; lra). ring.
Qed.

Let top3 : forall g t, 0 < g -> g <= t -> top_mass q g t = 2 - g / t.
Proof.
  intros g t Hg Ht. unfold top_mass.
  assert (0 < q * g) by (apply Rmult_lt_0_compat; lra).
  assert (Hqgg : q * g <= g) by (rewrite <- (Rmult_1_l g) at 2; apply Rmult_le_compat_r; lra).
  rewrite ulen_from_inside by (split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra]).
  rewrite ulen_to_above by (apply div_ge1; lra). ring.
Qed.

Lemma top_mass_nonneg : forall g t, 0 <= top_mass q g t.
Proof. intros g t. unfold top_mass. pose proof (ulen_from_nonneg (g / t)). pose proof (ulen_to_nonneg (t / (q * g))). lra. Qed.

Lemma top_mass_mul_mono : forall g, 0 < g -> forall t t', 0 < t <= t' -> t * top_mass q g t <= t' * top_mass q g t'.
Proof.
  intros g Hg. assert (Hqg : 0 < q * g) by (apply Rmult_lt_0_compat; lra).
  assert (Hqgg : q * g <= g) by (rewrite <- (Rmult_1_l g) at 2; apply Rmult_le_compat_r; lra).
  apply (mono_glue0 _ (q * g) Hqg).
  { intros x y Hxy Hy. rewrite (top1 g x), (top1 g y) by lra.
    replace (x * (x / (q * g))) with (x * x * / (q * g)) by (field; lra).
    replace (y * (y / (q * g))) with (y * y * / (q * g)) by (field; lra).
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|]. apply Rmult_le_compat; lra. }
  apply (mono_glue _ (q * g) g ltac:(lra)).
  { intros x y Hxy Hy. rewrite (top2 g x), (top2 g y) by lra. lra. }
  intros x y Hxy. rewrite (top3 g x), (top3 g y) by lra.
  replace (x * (2 - g / x)) with (2 * x - g) by (field; lra).
  replace (y * (2 - g / y)) with (2 * y - g) by (field; lra). lra.
Qed.

Lemma top_mass_div_anti : forall g, 0 < g -> forall t t', 0 < t <= t' -> top_mass q g t' / t' <= top_mass q g t / t.
Proof.
  intros g Hg. assert (Hqg : 0 < q * g) by (apply Rmult_lt_0_compat; lra).
  assert (Hqgg : q * g <= g) by (rewrite <- (Rmult_1_l g) at 2; apply Rmult_le_compat_r; lra).
  assert (G : forall t t', 0 < t <= t' -> - (top_mass q g t / t) <= - (top_mass q g t' / t')).
  2: { intros t t' Ht. assert (H := G t t' Ht). lra. }
  apply (mono_glue0 (fun t => - (top_mass q g t / t)) (q * g) Hqg).
  { intros x y Hxy Hy. rewrite (top1 g x), (top1 g y) by lra.
    replace (x / (q * g) / x) with (/ (q * g)) by (field; lra).
    replace (y / (q * g) / y) with (/ (q * g)) by (field; lra). lra. }
  apply (mono_glue _ (q * g) g ltac:(lra)).
  { intros x y Hxy Hy. rewrite (top2 g x), (top2 g y) by lra.
    assert (/ y <= / x) by (apply Rinv_le_contravar; lra). unfold Rdiv. lra. }
  intros x y Hxy. rewrite (top3 g x), (top3 g y) by lra.
  replace ((2 - g / x) / x) with (2 * / x - g * (/ x * / x)) by (field; lra).
  replace ((2 - g / y) / y) with (2 * / y - g * (/ y * / y)) by (field; lra).
  assert (P1 : / y <= / x) by (apply Rinv_le_contravar; lra).
  assert (P2 : / x <= / g) by (apply Rinv_le_contravar; lra).
  assert (P3 : 0 < / y) by (apply Rinv_0_lt_compat; lra).
  assert (H : (2 * / x - g * (/ x * / x)) - (2 * / y - g * (/ y * / y)) = (/ x - / y) * (2 - g * (/ x + / y))) by ring.
  assert (g * (/ x + / y) <= 2).
  { replace 2 with (g * (2 * / g)) by (field; lra). apply Rmult_le_compat_l; lra. }
  assert (0 <= (/ x - / y) * (2 - g * (/ x + / y))) by (apply Rmult_le_pos; lra). lra.
Qed.

Lemma top_mass_move : forall g t t', 0 < g -> 0 < t -> 0 < t' ->
  top_mass q g t' <= Rmax (t' / t) (t / t') * top_mass q g t.
Proof.
  intros g t t' Hg. revert t t'. apply ratio_of_mono.
  - intros; apply top_mass_nonneg.
  - exact (top_mass_mul_mono g Hg).
  - exact (top_mass_div_anti g Hg).
Qed.

(** Moving the threshold up by a factor g2/g1 ≥ 1 costs g2/g1. *)
Lemma top_mass_widen : forall g1 g2 t, 0 < g1 <= g2 -> 0 < t ->
  top_mass q g1 t <= g2 / g1 * top_mass q g2 t.
Proof.
  intros g1 g2 t Hg Ht.
  assert (Hs : top_mass q g2 t = top_mass q g1 (t * g1 / g2)).
  { unfold top_mass. f_equal; f_equal; field; lra. }
  assert (Ht' : 0 < t * g1 / g2 <= t).
  { split; [apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat|]; lra|].
    apply (Rmult_le_reg_r g2); [lra|]. replace (t * g1 / g2 * g2) with (t * g1) by (field; lra).
    apply Rmult_le_compat_l; lra. }
  assert (D := top_mass_div_anti g1 (proj1 Hg) _ _ Ht'). rewrite Hs.
  apply (Rmult_le_compat_r t) in D; [|lra].
  replace (top_mass q g1 t / t * t) with (top_mass q g1 t) in D by (field; lra).
  replace (g2 / g1 * top_mass q g1 (t * g1 / g2)) with (top_mass q g1 (t * g1 / g2) / (t * g1 / g2) * t)
    by (field; repeat split; lra).
  exact D.
Qed.

Let bot1 : forall h t, 0 < h -> 0 < t <= q * h -> bot_mass q h t = 2 - t / (q * h).
Proof.
  intros h t Hh Ht. unfold bot_mass.
  assert (0 < q * h) by (apply Rmult_lt_0_compat; lra).
  assert (Hqhh : q * h <= h) by (rewrite <- (Rmult_1_l h) at 2; apply Rmult_le_compat_r; lra).
  rewrite ulen_to_above by (apply div_ge1; lra).
  rewrite ulen_from_inside by (split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra]). ring.
Qed.

Let bot2 : forall h t, 0 < h -> q * h <= t <= h -> bot_mass q h t = 1.
Proof.
  intros h t Hh Ht. unfold bot_mass.
  assert (0 < q * h) by (apply Rmult_lt_0_compat; lra).
  rewrite ulen_to_above by (apply div_ge1; lra).
  rewrite ulen_from_above by (apply div_ge1; lra). ring.
Qed.

Let bot3 : forall h t, 0 < h -> h <= t -> bot_mass q h t = h / t.
Proof.
  intros h t Hh Ht. unfold bot_mass.
  assert (0 < q * h) by (apply Rmult_lt_0_compat; lra).
  assert (Hqhh : q * h <= h) by (rewrite <- (Rmult_1_l h) at 2; apply Rmult_le_compat_r; lra).
  rewrite ulen_to_inside by (split; [apply Rlt_le, Rdiv_lt_0_compat; lra|apply div_le1; lra]).
  rewrite ulen_from_above by (apply div_ge1; lra). ring.
Qed.

Lemma bot_mass_nonneg : forall h t, 0 <= bot_mass q h t.
Proof. intros h t. unfold bot_mass. pose proof (ulen_to_nonneg (h / t)). pose proof (ulen_from_nonneg (t / (q * h))). lra. Qed.

Lemma bot_mass_mul_mono : forall h, 0 < h -> forall t t', 0 < t <= t' -> t * bot_mass q h t <= t' * bot_mass q h t'.
Proof.
  intros h Hh. assert (Hqh : 0 < q * h) by (apply Rmult_lt_0_compat; lra).
  assert (Hqhh : q * h <= h) by (rewrite <- (Rmult_1_l h) at 2; apply Rmult_le_compat_r; lra).
  apply (mono_glue0 _ (q * h) Hqh).
  { intros x y Hxy Hy. rewrite (bot1 h x), (bot1 h y) by lra.
    replace (x * (2 - x / (q * h))) with (2 * x - x * x / (q * h)) by (field; lra).
    replace (y * (2 - y / (q * h))) with (2 * y - y * y / (q * h)) by (field; lra).
    apply parabola_mono; lra. }
  apply (mono_glue _ (q * h) h ltac:(lra)).
  { intros x y Hxy Hy. rewrite (bot2 h x), (bot2 h y) by lra. lra. }
  intros x y Hxy. rewrite (bot3 h x), (bot3 h y) by lra.
  replace (x * (h / x)) with h by (field; lra). replace (y * (h / y)) with h by (field; lra). lra.
Qed.

Lemma bot_mass_div_anti : forall h, 0 < h -> forall t t', 0 < t <= t' -> bot_mass q h t' / t' <= bot_mass q h t / t.
Proof.
  intros h Hh. assert (Hqh : 0 < q * h) by (apply Rmult_lt_0_compat; lra).
  assert (Hqhh : q * h <= h) by (rewrite <- (Rmult_1_l h) at 2; apply Rmult_le_compat_r; lra).
  assert (G : forall t t', 0 < t <= t' -> - (bot_mass q h t / t) <= - (bot_mass q h t' / t')).
  2: { intros t t' Ht. assert (H := G t t' Ht). lra. }
  apply (mono_glue0 (fun t => - (bot_mass q h t / t)) (q * h) Hqh).
  { intros x y Hxy Hy. rewrite (bot1 h x), (bot1 h y) by lra.
    replace ((2 - x / (q * h)) / x) with (2 * / x - / (q * h)) by (field; lra).
    replace ((2 - y / (q * h)) / y) with (2 * / y - / (q * h)) by (field; lra).
    assert (/ y <= / x) by (apply Rinv_le_contravar; lra). lra. }
  apply (mono_glue _ (q * h) h ltac:(lra)).
  { intros x y Hxy Hy. rewrite (bot2 h x), (bot2 h y) by lra.
    assert (/ y <= / x) by (apply Rinv_le_contravar; lra). unfold Rdiv. lra. }
  intros x y Hxy. rewrite (bot3 h x), (bot3 h y) by lra.
  replace (h / x / x) with (h * (/ x * / x)) by (field; lra).
  replace (h / y / y) with (h * (/ y * / y)) by (field; lra).
  assert (P1 : / y <= / x) by (apply Rinv_le_contravar; lra).
  assert (P3 : 0 < / y) by (apply Rinv_0_lt_compat; lra).
  assert (/ y * / y <= / x * / x) by (apply Rmult_le_compat; lra).
  assert (h * (/ y * / y) <= h * (/ x * / x)) by (apply Rmult_le_compat_l; lra). lra.
Qed.

Lemma bot_mass_move : forall h t t', 0 < h -> 0 < t -> 0 < t' ->
  bot_mass q h t' <= Rmax (t' / t) (t / t') * bot_mass q h t.
Proof.
  intros h t t' Hh. revert t t'. apply ratio_of_mono.
  - intros; apply bot_mass_nonneg.
  - exact (bot_mass_mul_mono h Hh).
  - exact (bot_mass_div_anti h Hh).
Qed.

(** Moving the threshold down by a factor h1/h2 ≥ 1 costs h1/h2. *)
Lemma bot_mass_widen : forall h1 h2 t, 0 < h2 <= h1 -> 0 < t ->
  bot_mass q h1 t <= h1 / h2 * bot_mass q h2 t.
Proof.
  intros h1 h2 t Hh Ht.
  assert (Hs : bot_mass q h1 t = bot_mass q h2 (t * h2 / h1)).
  { unfold bot_mass. f_equal; f_equal; field; lra. }
  assert (Ht' : 0 < t * h2 / h1 <= t).
  { split; [apply Rdiv_lt_0_compat; [apply Rmult_lt_0_compat|]; lra|].
    apply (Rmult_le_reg_r h1); [lra|]. replace (t * h2 / h1 * h1) with (t * h2) by (field; lra).
    apply Rmult_le_compat_l; lra. }
  assert (M := bot_mass_mul_mono h2 (proj1 Hh) _ _ Ht'). rewrite Hs.
  apply (Rmult_le_compat_r (/ (t * h2 / h1))) in M; [|apply Rlt_le, Rinv_0_lt_compat; lra].
  replace (t * h2 / h1 * bot_mass q h2 (t * h2 / h1) * / (t * h2 / h1)) with (bot_mass q h2 (t * h2 / h1)) in M
    by (field; repeat split; lra).
  replace (h1 / h2 * bot_mass q h2 t) with (t * bot_mass q h2 t * / (t * h2 / h1)) by (field; repeat split; lra).
  exact M.
Qed.

End Tails.

Section TwoSidedTail.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Notation eta := (eta prec).
Notation rnd := (rnd prec emin choice).
Notation normal_min := (normal_min prec emin).
Notation format := (generic_format radix2 (FLT_exp emin prec)).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation tight_mu := (tight_mu prec mu).
Notation q0 := (ustar_q prec).

Let Hq : 0 < q0 <= 1.
Proof. unfold ustar_q. assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec). lra. Qed.

Let Hmax : forall lam x x', 0 < lam ->
  Rmax (exp (x / lam) / exp (x' / lam)) (exp (x' / lam) / exp (x / lam)) = exp (Rabs (x - x') / lam).
Proof.
  intros lam x x' Hlam.
  replace (x / lam) with (/ lam * x) by (unfold Rdiv; ring).
  replace (x' / lam) with (/ lam * x') by (unfold Rdiv; ring).
  rewrite (exp_ratio_max (/ lam) x' x) by (left; apply Rinv_0_lt_compat; exact Hlam).
  rewrite Rabs_minus_sym. unfold Rdiv. rewrite Rmult_comm. reflexivity.
Qed.

(** The output B: P ⊆ [A, ∞) and (A, ∞) ⊆ P for the rounded sum. *)
Theorem two_sided_top : forall lam x x' A d n (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v) -> (forall v, A < v -> P (rnd v)) ->
  tight_mu * Rabs (A - x) <= d -> tight_mu * Rabs (A - x') < n ->
  normal_min <= exp ((A - x - d) / lam) -> normal_min <= exp ((x - A + d) / lam) ->
  normal_min <= exp ((A - x' + n) / lam) -> normal_min <= exp ((x' - A - n) / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0) * snap_output_prob lam x' P.
Proof.
  intros lam x x' a d n P [Hl Hok] Fl HP1 HP2 Ha Ha' H1 H2 H3 H4.
  assert (Hn0 := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hm := tight_mu_nonneg prec mu Hmu).
  assert (Hq1 : 0 < 1 - 2 * eta) by (assert (He := eta_pos prec); assert (Hs := eta_small prec Hprec); lra).
  set (t := exp (x / lam)). set (t' := exp (x' / lam)).
  assert (Ht : 0 < t) by apply exp_pos. assert (Ht' : 0 < t') by apply exp_pos.
  set (g1 := exp ((a - d) / lam)). set (g2 := exp ((a + n) / lam) / q0).
  assert (Hg1 : 0 < g1) by apply exp_pos.
  assert (Hg2 : 0 < g2) by (apply Rdiv_lt_0_compat; [apply exp_pos|lra]).
  assert (Lo := tight_lo_near prec mu Hmu (a - x) d Ha).
  assert (Li : widen_hi tight_mu (a - x') < a - x' + n).
  { assert (W := widen_near true tight_mu (a - x') Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
  assert (Hd0 : 0 <= d).
  { assert (0 <= tight_mu * Rabs (a - x)) by (apply Rmult_le_pos; [exact Hm|apply Rabs_pos]). lra. }
  assert (Hn0' : 0 <= n).
  { assert (0 <= tight_mu * Rabs (a - x')) by (apply Rmult_le_pos; [exact Hm|apply Rabs_pos]). lra. }
  assert (Up : snap_output_prob lam x P <= / 2 * top_mass q0 g1 t).
  { unfold SnapOutput.snap_output_prob, top_mass. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => (a - x - d) / lam <= ln (ustar prec emin U))).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_above prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x a
                       (or_introl eq_refl) Fl Hu Hp HPU).
        rewrite Rmult_1_l in O. apply div_lam_le; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr); exact H1|].
        right. f_equal. unfold g1, t. replace (a - x - d) with ((a - d) - x) by ring. apply exp_over; exact Hlam.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (x - a + d) / lam)).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_above prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x a
                       (or_intror eq_refl) Fl Hu Hp HPU).
        apply le_div_lam; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr); exact H2|].
        right. f_equal. unfold g1, t. replace (x - a + d) with (x - (a - d)) by ring.
        rewrite (exp_over lam x (a - d) Hlam). unfold ustar_q. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra. }
  assert (Lw : / 2 * top_mass q0 g2 t' <= snap_output_prob lam x' P).
  { unfold SnapOutput.snap_output_prob, top_mass. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => (a - x' + n) / lam <= ln (ustar prec emin U))).
      + eapply Rle_trans; [|apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr); exact H3].
        right. f_equal. unfold g2, t'. replace (a - x' + n) with ((a + n) - x') by ring.
        rewrite (exp_over lam (a + n) x' Hlam). unfold ustar_q. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_lo prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x' a (or_introl eq_refl) Fl Hu Hp).
        apply mul_div_lam in HL; [|exact Hlam]. lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (x' - a - n) / lam)).
      + eapply Rle_trans; [|apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr); exact H4].
        right. f_equal. unfold g2, t'. replace (x' - a - n) with (x' - (a + n)) by ring.
        rewrite (exp_over lam x' (a + n) Hlam). field. repeat split; try (apply Rgt_not_eq, exp_pos); lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_lo prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x' a (or_intror eq_refl) Fl Hu Hp).
        apply mul_div_lam_r in HL; [|exact Hlam]. lra. }
  assert (HF : g2 / g1 = exp ((d + n) / lam) / q0).
  { unfold g2, g1. replace ((d + n) / lam) with ((a + n) / lam - (a - d) / lam) by (field; lra).
    rewrite exp_sub. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra. }
  assert (Hg12 : g1 <= g2).
  { unfold g1, g2. apply Rle_trans with (exp ((a + n) / lam)).
    - apply exp_le_iff. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra.
    - apply div_k_le'; [apply exp_pos|lra]. }
  assert (Mv := top_mass_move q0 Hq g1 t' t Hg1 Ht' Ht). fold t t' in Mv.
  assert (Hmx : Rmax (t / t') (t' / t) = exp (Rabs (x - x') / lam)) by (unfold t, t'; apply Hmax; exact Hlam).
  rewrite Hmx in Mv.
  assert (Wd := top_mass_widen q0 Hq g1 g2 t' (conj Hg1 Hg12) Ht'). rewrite HF in Wd.
  set (e := exp (Rabs (x - x') / lam)) in *. assert (He0 : 0 < e) by apply exp_pos.
  set (F := exp ((d + n) / lam) / q0) in *.
  assert (HF0 : 0 <= F) by (unfold F; apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|lra]).
  assert (S1 : e * top_mass q0 g1 t' <= e * (F * top_mass q0 g2 t')) by (apply Rmult_le_compat_l; lra).
  assert (S2 : e * F * (/ 2 * top_mass q0 g2 t') <= e * F * snap_output_prob lam x' P)
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact Lw]).
  lra.
Qed.

(** The output −B: P ⊆ (−∞, B′] and (−∞, B′) ⊆ P. *)
Theorem two_sided_bottom : forall lam x x' B' d n (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> v <= B') -> (forall v, v < B' -> P (rnd v)) ->
  tight_mu * Rabs (B' - x) <= d -> tight_mu * Rabs (B' - x') < n ->
  normal_min <= exp ((B' - x + d) / lam) -> normal_min <= exp ((x - B' - d) / lam) ->
  normal_min <= exp ((B' - x' - n) / lam) -> normal_min <= exp ((x' - B' + n) / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0) * snap_output_prob lam x' P.
Proof.
  intros lam x x' b d n P [Hl Hok] Fl HP1 HP2 Hb Hb' H1 H2 H3 H4.
  assert (Hn0 := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hm := tight_mu_nonneg prec mu Hmu).
  assert (Hq1 : 0 < 1 - 2 * eta) by (assert (He := eta_pos prec); assert (Hs := eta_small prec Hprec); lra).
  set (t := exp (x / lam)). set (t' := exp (x' / lam)).
  assert (Ht : 0 < t) by apply exp_pos. assert (Ht' : 0 < t') by apply exp_pos.
  set (h1 := exp ((b + d) / lam) / q0). set (h2 := exp ((b - n) / lam)).
  assert (Hh2 : 0 < h2) by apply exp_pos.
  assert (Hh1 : 0 < h1) by (apply Rdiv_lt_0_compat; [apply exp_pos|lra]).
  assert (Hi := tight_hi_near prec mu Hmu (b - x) d Hb).
  assert (Ii : b - x' - n < widen_lo tight_mu (b - x')).
  { assert (W := widen_near false tight_mu (b - x') Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
  assert (Hd0 : 0 <= d).
  { assert (0 <= tight_mu * Rabs (b - x)) by (apply Rmult_le_pos; [exact Hm|apply Rabs_pos]). lra. }
  assert (Hn0' : 0 <= n).
  { assert (0 <= tight_mu * Rabs (b - x')) by (apply Rmult_le_pos; [exact Hm|apply Rabs_pos]). lra. }
  assert (Up : snap_output_prob lam x P <= / 2 * bot_mass q0 h1 t).
  { unfold SnapOutput.snap_output_prob, bot_mass. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (b - x + d) / lam)).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_below prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x b
                       (or_introl eq_refl) Fl Hu Hp HPU).
        rewrite Rmult_1_l in O. apply le_div_lam; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr); exact H1|].
        right. f_equal. unfold h1, t. replace (b - x + d) with ((b + d) - x) by ring.
        rewrite (exp_over lam (b + d) x Hlam). unfold ustar_q. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra.
    - apply Rle_trans with (pr (fun U => (x - b - d) / lam <= ln (ustar prec emin U))).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_below prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x b
                       (or_intror eq_refl) Fl Hu Hp HPU).
        apply div_lam_le; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr); exact H2|].
        right. f_equal. unfold h1, t. replace (x - b - d) with (x - (b + d)) by ring.
        rewrite (exp_over lam x (b + d) Hlam). unfold ustar_q. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra. }
  assert (Lw : / 2 * bot_mass q0 h2 t' <= snap_output_prob lam x' P).
  { unfold SnapOutput.snap_output_prob, bot_mass. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (b - x' - n) / lam)).
      + eapply Rle_trans; [|apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr); exact H3].
        right. f_equal. unfold h2, t'. replace (b - x' - n) with ((b - n) - x') by ring.
        symmetry. apply exp_over; exact Hlam.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_hi prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x' b (or_introl eq_refl) Fl Hu Hp).
        apply mul_div_lam_r in HL; [|exact Hlam]. lra.
    - apply Rle_trans with (pr (fun U => (x' - b + n) / lam <= ln (ustar prec emin U))).
      + eapply Rle_trans; [|apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr); exact H4].
        right. f_equal. unfold h2, t'. replace (x' - b + n) with (x' - (b - n)) by ring.
        rewrite (exp_over lam x' (b - n) Hlam). unfold ustar_q. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_hi prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x' b (or_intror eq_refl) Fl Hu Hp).
        apply mul_div_lam in HL; [|exact Hlam]. lra. }
  assert (HF : h1 / h2 = exp ((d + n) / lam) / q0).
  { unfold h1, h2. replace ((d + n) / lam) with ((b + d) / lam - (b - n) / lam) by (field; lra).
    rewrite exp_sub. field. repeat split; try (apply Rgt_not_eq, exp_pos); lra. }
  assert (Hh12 : h2 <= h1).
  { unfold h1, h2. apply Rle_trans with (exp ((b + d) / lam)).
    - apply exp_le_iff. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat|]; lra.
    - apply div_k_le'; [apply exp_pos|lra]. }
  assert (Mv := bot_mass_move q0 Hq h1 t' t Hh1 Ht' Ht). fold t t' in Mv.
  assert (Hmx : Rmax (t / t') (t' / t) = exp (Rabs (x - x') / lam)) by (unfold t, t'; apply Hmax; exact Hlam).
  rewrite Hmx in Mv.
  assert (Wd := bot_mass_widen q0 Hq h1 h2 t' (conj Hh2 Hh12) Ht'). rewrite HF in Wd.
  set (e := exp (Rabs (x - x') / lam)) in *. assert (He0 : 0 < e) by apply exp_pos.
  set (F := exp ((d + n) / lam) / q0) in *.
  assert (HF0 : 0 <= F) by (unfold F; apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|lra]).
  assert (S1 : e * bot_mass q0 h1 t' <= e * (F * bot_mass q0 h2 t')) by (apply Rmult_le_compat_l; lra).
  assert (S2 : e * F * (/ 2 * bot_mass q0 h2 t') <= e * F * snap_output_prob lam x' P)
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact Lw]).
  lra.
Qed.

End TwoSidedTail.
