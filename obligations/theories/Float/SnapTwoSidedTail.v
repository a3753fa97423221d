(** * The clamped outputs ±B with U*'s factor once
    [tight_top_ratio] and [tight_bottom_ratio] (SnapTight.v) bound the ratio of
    a clamped output by e^(|x − x′|/λ)·E², E = e^(δ/λ)/(1 − 2η): the threshold
    moved by δ for both inputs and U*'s factor at both ends.  A clamped output
    has one threshold A and a side σ (σ = 1: the output B, the sums at or above
    A; σ = −1: the output −B, the sums at or below A), and U*'s factor falls on
    one sign of the noise only.  With the exponents c1 = (σ(A − x) − d)/λ for x
    and c2 = (σ(A − x′) + n)/λ for x′, both signs together have U* mass at most
    [top_mass q (e^c1) 1] for x and at least [top_mass q (e^c2/q) 1] for x′
    ([ustar_pair_upper], [ustar_pair_lower]), [top_mass q g t] =
    ulen_from(g/t) + ulen_to(t/(q·g)) with q = 1 − 2η, whatever σ is.
    [top_mass/t] is nonincreasing and [t·top_mass] nondecreasing: moving g by a
    factor F ≥ 1 costs F ([top_mass_widen]), moving t costs the ratio of the
    t's ([top_mass_move]), together [top_mass_shift].  With d ≥ μ|A − x| and
    n > μ|A − x′|, every clamped output's ratio is at most
    e^(|x − x′|/λ)·e^((d + n)/λ)/(1 − 2η) ([two_sided_clamp]; the two sides
    [two_sided_top], [two_sided_bottom]). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapClamp SnapRatio SnapTailRatio
  SnapTight SnapTwoSided SnapTwoSidedRatio.

Local Open Scope R_scope.

(** The clamped output's mass: the sign +1 above g, the sign −1 with U*'s factor. *)
Definition top_mass (q g t : R) : R := ulen_from (g / t) + ulen_to (t / (q * g)).

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

(** The mass at the threshold g·k and the point t·k is the mass at g and t. *)
Lemma top_mass_scale : forall g t k, 0 < g -> 0 < t -> 0 < k -> top_mass q (g * k) (t * k) = top_mass q g t.
Proof. intros g t k Hg Ht Hk. unfold top_mass. f_equal; f_equal; field; lra. Qed.

(** Both inputs' exponents: the mass at e^c1 against the mass at e^c2/q, for c1 + s ≤ c2, costs
    e^|s| (the move) and e^(c2 − c1 − s)/q (the widening). *)
Lemma top_mass_shift : forall c1 c2 s, c1 + s <= c2 ->
  top_mass q (exp c1) 1 <= exp (Rabs s) * (exp (c2 - c1 - s) / q) * top_mass q (exp c2 / q) 1.
Proof.
  intros c1 c2 s Hs.
  assert (E := exp_pos s). assert (E1 := exp_pos c1). assert (E2 := exp_pos c2).
  assert (Sc : top_mass q (exp c1) 1 = top_mass q (exp (c1 + s)) (exp s)).
  { rewrite exp_plus. replace (exp s) with (1 * exp s) at 2 by ring. symmetry. apply top_mass_scale; lra. }
  assert (Mv := top_mass_move (exp (c1 + s)) 1 (exp s) (exp_pos _) Rlt_0_1 E).
  assert (Mx : Rmax (exp s / 1) (1 / exp s) <= exp (Rabs s)).
  { apply Rmax_lub.
    - unfold Rdiv. rewrite Rinv_1, Rmult_1_r. apply exp_le_iff. apply Rle_abs.
    - unfold Rdiv. rewrite Rmult_1_l, <- exp_Ropp. apply exp_le_iff. rewrite <- Rabs_Ropp. apply Rle_abs. }
  assert (Hg : exp (c1 + s) <= exp c2 / q).
  { apply Rle_trans with (exp c2); [apply exp_le_iff; lra|]. apply div_k_le'; lra. }
  assert (Wd := top_mass_widen (exp (c1 + s)) (exp c2 / q) 1 (conj (exp_pos _) Hg) Rlt_0_1).
  replace (exp c2 / q / exp (c1 + s)) with (exp (c2 - c1 - s) / q) in Wd
    by (replace (c2 - c1 - s) with (c2 - (c1 + s)) by ring; rewrite exp_sub; field; repeat split; try (apply Rgt_not_eq, exp_pos); lra).
  assert (N1 := top_mass_nonneg (exp (c1 + s)) 1). assert (N2 := top_mass_nonneg (exp c2 / q) 1).
  assert (HF : 0 <= exp (c2 - c1 - s) / q) by (apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|lra]).
  rewrite Sc. eapply Rle_trans; [exact Mv|].
  eapply Rle_trans; [apply Rmult_le_compat_r; [exact N1|exact Mx]|].
  rewrite Rmult_assoc. apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|exact Wd].
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
Notation snap_sum := (snap_sum prec emin choice lnf).
Notation tight_mu := (tight_mu prec mu).
Notation q0 := (ustar_q prec).

Let Hq : 0 < q0 <= 1.
Proof. unfold ustar_q. assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec). lra. Qed.

(** The clamped output on the side σ (σ = 1: B, threshold A, P ⊆ [A, ∞); σ = −1: −B, P ⊆
    (−∞, A]): a sum in P moves U*'s log, on the sign s, by σ·s at least σ(A − x) − d... *)
Lemma clamp_outer_sign : forall sg s lam u x A d, sg = 1 \/ sg = -1 -> s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  sg * A <= sg * (x + s * rnd (rnd lam * lnf u)) -> tight_mu * Rabs (A - x) <= d ->
  sg * (A - x) - d <= (sg * s) * (lam * ln u).
Proof.
  intros sg s lam u x A d Hg Hs Fl Hu Hp Hv Hd. destruct Hg as [->| ->].
  - assert (O := tight_outer_above prec emin Hprec choice lnf mu Hmu s lam u x A Hs Fl Hu Hp ltac:(lra)).
    assert (L := tight_lo_near prec mu Hmu (A - x) d Hd). lra.
  - assert (O := tight_outer_below prec emin Hprec choice lnf mu Hmu s lam u x A Hs Fl Hu Hp ltac:(lra)).
    assert (L := tight_hi_near prec mu Hmu (A - x) d Hd). lra.
Qed.

(** ... and a log moved by more than σ(A − x′) + n puts the sum strictly past A. *)
Lemma clamp_inner_sign : forall sg s lam u x' A n, sg = 1 \/ sg = -1 -> s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  tight_mu * Rabs (A - x') < n -> sg * (A - x') + n <= (sg * s) * (lam * ln u) ->
  sg * A < sg * (x' + s * rnd (rnd lam * lnf u)).
Proof.
  intros sg s lam u x' A n Hg Hs Fl Hu Hp Hn Hl.
  assert (Hm := tight_mu_nonneg prec mu Hmu).
  destruct Hg as [->| ->].
  - assert (W := widen_near true tight_mu (A - x') Hm). cbn [widen] in W. apply Rabs_le_inv in W.
    assert (I := tight_inner_lo prec emin Hprec choice lnf mu Hmu s lam u x' A Hs Fl Hu Hp ltac:(lra)). lra.
  - assert (W := widen_near false tight_mu (A - x') Hm). cbn [widen] in W. apply Rabs_le_inv in W.
    assert (I := tight_inner_hi prec emin Hprec choice lnf mu Hmu s lam u x' A Hs Fl Hu Hp ltac:(lra)). lra.
Qed.

(** U*'s log at or above c on both signs: at most the mass at e^c, U*'s factor on the sign −1. *)
Lemma ustar_pair_upper : forall c, normal_min <= exp c -> normal_min <= exp (- c) ->
  pr (fun U => c <= 1 * ln (ustar prec emin U)) + pr (fun U => c <= -1 * ln (ustar prec emin U)) <=
    top_mass q0 (exp c) 1.
Proof.
  intros c H1 H2. unfold top_mass. assert (Hq1 := Hq). assert (E := exp_pos c). unfold ustar_q in *.
  replace (exp c / 1) with (exp c) by field.
  replace (1 / ((1 - 2 * eta) * exp c)) with (exp (- c) / (1 - 2 * eta)) by (rewrite exp_Ropp; field; lra).
  apply Rplus_le_compat.
  - eapply Rle_trans; [|apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr c H1)].
    apply (uprob_mono pr Hpr). intros U _ HU. lra.
  - eapply Rle_trans; [apply (uprob_mono pr Hpr (fun U => c <= -1 * ln (ustar prec emin U))
                              (fun U => ln (ustar prec emin U) <= - c)); intros U _ HU; lra|].
    apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr (- c) H2).
Qed.

(** ... and at least the mass at e^c/q, U*'s factor on the sign +1. *)
Lemma ustar_pair_lower : forall c, normal_min <= exp c -> normal_min <= exp (- c) ->
  top_mass q0 (exp c / q0) 1 <=
    pr (fun U => c <= 1 * ln (ustar prec emin U)) + pr (fun U => c <= -1 * ln (ustar prec emin U)).
Proof.
  intros c H1 H2. unfold top_mass. assert (Hq1 := Hq). assert (E := exp_pos c). unfold ustar_q in *.
  replace (exp c / (1 - 2 * eta) / 1) with (exp c / (1 - 2 * eta)) by (field; lra).
  replace (1 / ((1 - 2 * eta) * (exp c / (1 - 2 * eta)))) with (exp (- c)) by (rewrite exp_Ropp; field; lra).
  apply Rplus_le_compat.
  - eapply Rle_trans; [apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr c H1)|].
    apply (uprob_mono pr Hpr). intros U _ HU. lra.
  - eapply Rle_trans; [apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr (- c) H2)|].
    apply (uprob_mono pr Hpr). intros U _ HU. lra.
Qed.

(** The sum over both signs of U*'s noise, the signs σ·1 and σ·(−1) in either order. *)
Let pair_sign : forall sg (f : R -> R), sg = 1 \/ sg = -1 -> f (sg * 1) + f (sg * -1) = f 1 + f (-1).
Proof. intros sg f [->| ->]; [rewrite Rmult_1_l, Rmult_1_l|replace (-1 * 1) with (-1) by ring;
  replace (-1 * -1) with 1 by ring; rewrite Rplus_comm]; reflexivity. Qed.

(** The clamped output on the side σ: P ⊆ σ-side of A and the open σ-side of A ⊆ P for the rounded sum. *)
Theorem two_sided_clamp : forall sg lam x x' A d n (P : R -> Prop), sg = 1 \/ sg = -1 -> pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> sg * A <= sg * v) -> (forall v, sg * A < sg * v -> P (rnd v)) ->
  tight_mu * Rabs (A - x) <= d -> tight_mu * Rabs (A - x') < n ->
  normal_min <= exp ((sg * (A - x) - d) / lam) -> normal_min <= exp ((sg * (x - A) + d) / lam) ->
  normal_min <= exp ((sg * (A - x') + n) / lam) -> normal_min <= exp ((sg * (x' - A) - n) / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0) * snap_output_prob lam x' P.
Proof.
  intros sg lam x x' A d n P Hg [Hl Hok] Fl HP1 HP2 Hd Hn H1 H2 H3 H4.
  assert (Hn0 := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  set (c1 := (sg * (A - x) - d) / lam). set (c2 := (sg * (A - x') + n) / lam).
  assert (N1 : - c1 = (sg * (x - A) + d) / lam) by (unfold c1; field; lra).
  assert (N2 : - c2 = (sg * (x' - A) - n) / lam) by (unfold c2; field; lra).
  rewrite <- N1 in H2. rewrite <- N2 in H4.
  assert (Up : forall s, s = 1 \/ s = -1 ->
    pr (fun U => P (snap_sum lam x s U)) <= pr (fun U => c1 <= (sg * s) * ln (ustar prec emin U))).
  { intros s Hs. apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    apply HP1 in HPU. unfold c1. apply div_lam_le; [exact Hlam|].
    assert (O := clamp_outer_sign sg s lam (ustar prec emin U) x A d Hg Hs Fl Hu Hp HPU Hd). lra. }
  assert (Lw : forall s, s = 1 \/ s = -1 ->
    pr (fun U => c2 <= (sg * s) * ln (ustar prec emin U)) <= pr (fun U => P (snap_sum lam x' s U))).
  { intros s Hs. apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum. apply HP2. apply (clamp_inner_sign sg s lam (ustar prec emin U) x' A n Hg Hs Fl Hu Hp Hn).
    apply mul_div_lam in HL; [|exact Hlam]. lra. }
  assert (PU := ustar_pair_upper c1 H1 H2). assert (PL := ustar_pair_lower c2 H3 H4).
  rewrite <- (pair_sign sg (fun s => pr (fun U => c1 <= s * ln (ustar prec emin U))) Hg) in PU.
  rewrite <- (pair_sign sg (fun s => pr (fun U => c2 <= s * ln (ustar prec emin U))) Hg) in PL.
  assert (Sh := top_mass_shift q0 Hq c1 c2 (sg * (x - x') / lam)).
  replace (c2 - c1 - sg * (x - x') / lam) with ((d + n) / lam) in Sh by (unfold c1, c2; field; lra).
  replace (Rabs (sg * (x - x') / lam)) with (Rabs (x - x') / lam) in Sh.
  2: { unfold Rdiv. rewrite !Rabs_mult, (Rabs_pos_eq (/ lam)) by (apply Rlt_le, Rinv_0_lt_compat; lra).
       destruct Hg as [->| ->]; [rewrite Rabs_R1|rewrite (Rabs_left (-1)) by lra]; ring. }
  assert (HF : 0 <= exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0)).
  { apply Rmult_le_pos; [apply Rlt_le, exp_pos|apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos|lra]]. }
  assert (Hdn : 0 <= (d + n) / lam).
  { assert (0 <= tight_mu * Rabs (A - x)) by (apply Rmult_le_pos; [apply tight_mu_nonneg; exact Hmu|apply Rabs_pos]).
    assert (0 <= tight_mu * Rabs (A - x')) by (apply Rmult_le_pos; [apply tight_mu_nonneg; exact Hmu|apply Rabs_pos]).
    apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat; lra]. }
  assert (Ec : c2 - (c1 + sg * (x - x') / lam) = (d + n) / lam) by (unfold c1, c2; field; lra).
  specialize (Sh ltac:(lra)).
  unfold SnapOutput.snap_output_prob.
  assert (U1 := Up 1 (or_introl eq_refl)). assert (U2 := Up (-1) (or_intror eq_refl)).
  assert (L1 := Lw 1 (or_introl eq_refl)). assert (L2 := Lw (-1) (or_intror eq_refl)).
  set (e := exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0)) in *.
  assert (M : e * top_mass q0 (exp c2 / q0) 1 <=
     e * (pr (fun U => P (snap_sum lam x' 1 U)) + pr (fun U => P (snap_sum lam x' (-1) U)))) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

(** The output B: P ⊆ [A, ∞) and (A, ∞) ⊆ P for the rounded sum. *)
Corollary two_sided_top : forall lam x x' A d n (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v) -> (forall v, A < v -> P (rnd v)) ->
  tight_mu * Rabs (A - x) <= d -> tight_mu * Rabs (A - x') < n ->
  normal_min <= exp ((A - x - d) / lam) -> normal_min <= exp ((x - A + d) / lam) ->
  normal_min <= exp ((A - x' + n) / lam) -> normal_min <= exp ((x' - A - n) / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0) * snap_output_prob lam x' P.
Proof.
  intros lam x x' A d n P Hok Fl HP1 HP2 Ha Ha' H1 H2 H3 H4.
  apply (two_sided_clamp 1 lam x x' A d n P (or_introl eq_refl) Hok Fl); try assumption.
  - intros v Hv. specialize (HP1 v Hv). lra.
  - intros v Hv. apply HP2. lra.
  - replace (1 * (A - x) - d) with (A - x - d) by ring. exact H1.
  - replace (1 * (x - A) + d) with (x - A + d) by ring. exact H2.
  - replace (1 * (A - x') + n) with (A - x' + n) by ring. exact H3.
  - replace (1 * (x' - A) - n) with (x' - A - n) by ring. exact H4.
Qed.

(** The output −B: P ⊆ (−∞, B′] and (−∞, B′) ⊆ P. *)
Corollary two_sided_bottom : forall lam x x' B' d n (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> v <= B') -> (forall v, v < B' -> P (rnd v)) ->
  tight_mu * Rabs (B' - x) <= d -> tight_mu * Rabs (B' - x') < n ->
  normal_min <= exp ((B' - x + d) / lam) -> normal_min <= exp ((x - B' - d) / lam) ->
  normal_min <= exp ((B' - x' - n) / lam) -> normal_min <= exp ((x' - B' + n) / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * (exp ((d + n) / lam) / q0) * snap_output_prob lam x' P.
Proof.
  intros lam x x' B' d n P Hok Fl HP1 HP2 Hb Hb' H1 H2 H3 H4.
  apply (two_sided_clamp (-1) lam x x' B' d n P (or_intror eq_refl) Hok Fl); try assumption.
  - intros v Hv. specialize (HP1 v Hv). lra.
  - intros v Hv. apply HP2. lra.
  - replace (-1 * (B' - x) - d) with (x - B' - d) by ring. exact H2.
  - replace (-1 * (x - B') + d) with (B' - x + d) by ring. exact H1.
  - replace (-1 * (B' - x') + n) with (x' - B' + n) by ring. exact H4.
  - replace (-1 * (x' - B') - n) with (B' - x' - n) by ring. exact H3.
Qed.

End TwoSidedTail.
