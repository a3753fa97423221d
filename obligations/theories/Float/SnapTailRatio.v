(** * The ratio for the clamped outputs ±B
    The mirror of SnapRatio.v for the two tails.  Output B is the rounded sum
    at or above a = (g − ½)Λ (above it for ties down), −B at or below
    b = (−g + ½)Λ; their ideal masses are [tail_mass SPlus] and [tail_mass SMinus]
    (Noise/SnapBound.v) of γ = e^(a/λ) (resp. e^(b/λ)) at t = e^(x/λ).  The
    widenings and U*'s bracket move γ by the factor E = e^(δ/λ)/(1 − 2η), and a
    tail mass depends on γ/t only, so moving γ by E² is moving t by E²: the
    ratio is e^(|x − x′|/λ)·E² ([top_ratio], [bottom_ratio]). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Snapping SnapBound Rounding.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure SnapOutput SnapInterior
  SnapClamp SnapRatio.

Local Open Scope R_scope.

Lemma ulen_from_anti : forall a a', a <= a' -> ulen_from a' <= ulen_from a.
Proof. intros a a' H. ulen_cases; lra. Qed.

Lemma ulen_to_mono : forall b b', b <= b' -> ulen_to b <= ulen_to b'.
Proof. intros b b' H. ulen_cases; lra. Qed.

Lemma exp_sub : forall u v, exp (u - v) = exp u / exp v.
Proof. intros u v. unfold Rminus. rewrite exp_plus, exp_Ropp. reflexivity. Qed.

(** Moving γ by E² is moving t by E², on either sign (a tail mass depends on γ/t only). *)
Lemma tail_mass_shift : forall s g t E, 0 < g -> 0 < t -> 0 < E ->
  tail_mass s (g / E) t = tail_mass s (g * E) (t * (E * E)).
Proof.
  intros s g t E Hg Ht HE. destruct s; cbn [tail_mass]; f_equal; f_equal; field; lra.
Qed.

Lemma rmax_ratio_scale : forall t t' F, 0 < t -> 0 < t' -> 1 <= F ->
  Rmax (t * F / t') (t' / (t * F)) <= F * Rmax (t / t') (t' / t).
Proof.
  intros t t' F Ht Ht' HF. apply Rmax_lub.
  - replace (t * F / t') with (F * (t / t')) by (field; lra).
    apply Rmult_le_compat_l; [lra|apply Rmax_l].
  - apply Rle_trans with (t' / t).
    + apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; [lra|]. nra.
    + apply Rle_trans with (Rmax (t / t') (t' / t)); [apply Rmax_r|].
      assert (0 <= Rmax (t / t') (t' / t))
        by (apply Rle_trans with (t / t'); [left; apply Rdiv_lt_0_compat; lra|apply Rmax_l]). nra.
Qed.

Lemma rmax_ratio_scale' : forall t t' F, 0 < t -> 0 < t' -> 1 <= F ->
  Rmax (t / F / t') (t' / (t / F)) <= F * Rmax (t / t') (t' / t).
Proof.
  intros t t' F Ht Ht' HF.
  replace (t / F / t') with (t / (t' * F)) by (field; lra).
  replace (t' / (t / F)) with (t' * F / t) by (field; lra).
  rewrite Rmax_comm, (Rmax_comm (t / t')). apply rmax_ratio_scale; assumption.
Qed.

Section SnapTailRatio.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.
Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Notation eta := (eta prec).
Notation normal_min := (normal_min prec emin).
Notation M := (noise_mu prec mu).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation outer_lo := (outer_lo prec mu).
Notation outer_hi := (outer_hi prec mu).
Notation inner_lo := (inner_lo prec mu).
Notation inner_hi := (inner_hi prec mu).
Notation disp := (disp prec mu).
Notation ratio_E := (ratio_E prec).

Let Hprec0 : (0 < prec)%Z.
Proof. lia. Qed.

(** The one-sided strict inner forms. *)
Lemma inner_above_open : forall s lam u x a, s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd prec emin choice lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x -> inner_lo x a < s * (lam * ln u) ->
  a < rnd prec emin choice (x + s * rnd prec emin choice (rnd prec emin choice lam * lnf u)).
Proof.
  intros s lam u x a Hs Hla Hu Hp Fx C1.
  assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  set (c := s * (lam * ln u)) in *.
  assert (Hc : c <= s * (lam * ln u) <= c) by (unfold c; lra).
  destruct (inner_interval prec emin Hprec0 choice lnf mu Hmu s lam u x
              (widen_lo eta (x + widen_lo M c)) (widen_hi eta (x + widen_hi M c)) c c
              Hs Hla Hu Hp Fx Hc (Rle_refl _) (Rle_refl _)) as [W1 _].
  assert (Ia : a <= widen_lo eta (x + widen_lo M (inner_lo x a))) by (apply (inner_lo_ok prec mu Hmu); lra).
  assert (Sa : widen_lo eta (x + widen_lo M (inner_lo x a)) < widen_lo eta (x + widen_lo M c)).
  { apply (widen_strict false); [exact He|]. assert (widen_lo M (inner_lo x a) < widen_lo M c)
      by (apply (widen_strict false); assumption). lra. }
  lra.
Qed.

Lemma inner_below_open : forall s lam u x b, s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd prec emin choice lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x -> s * (lam * ln u) < inner_hi x b ->
  rnd prec emin choice (x + s * rnd prec emin choice (rnd prec emin choice lam * lnf u)) < b.
Proof.
  intros s lam u x b Hs Hla Hu Hp Fx C2.
  assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  set (c := s * (lam * ln u)) in *.
  assert (Hc : c <= s * (lam * ln u) <= c) by (unfold c; lra).
  destruct (inner_interval prec emin Hprec0 choice lnf mu Hmu s lam u x
              (widen_lo eta (x + widen_lo M c)) (widen_hi eta (x + widen_hi M c)) c c
              Hs Hla Hu Hp Fx Hc (Rle_refl _) (Rle_refl _)) as [_ W2].
  assert (Ib : widen_hi eta (x + widen_hi M (inner_hi x b)) <= b) by (apply (inner_hi_ok prec mu Hmu); lra).
  assert (Sb : widen_hi eta (x + widen_hi M c) < widen_hi eta (x + widen_hi M (inner_hi x b))).
  { apply (widen_strict true); [exact He|]. assert (widen_hi M c < widen_hi M (inner_hi x b))
      by (apply (widen_strict true); assumption). lra. }
  lra.
Qed.

(** ** Output B: P ⊆ [a, ∞) and (a, ∞) ⊆ P *)
Theorem top_ratio : forall lam x x' a delta (P : R -> Prop),
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  (forall w, P w -> a <= w) -> (forall w, a < w -> P w) -> 0 <= delta ->
  disp x a <= delta -> disp x' a < delta ->
  normal_min <= exp ((a - x - delta) / lam) -> normal_min <= exp ((x - a + delta) / lam) ->
  normal_min <= exp ((a - x' + delta) / lam) -> normal_min <= exp ((x' - a - delta) / lam) ->
  snap_output_prob lam x P <=
    exp (Rabs (x - x') / lam) * (ratio_E lam delta * ratio_E lam delta) * snap_output_prob lam x' P.
Proof.
  intros lam x x' a delta P Hok Fx Fx' HP1 HP2 Hd Ha Ha' H1 H2 H3 H4.
  destruct Hok as [Hl Hok].
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hk0 : 0 < 1 - 2 * eta) by lra.
  set (D := exp (delta / lam)).
  assert (HD : 1 <= D).
  { unfold D. rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  set (E := ratio_E lam delta).
  assert (HE : E = D / (1 - 2 * eta)) by reflexivity.
  assert (HDE : D <= E) by (rewrite HE; apply div_k_le'; lra).
  set (g := exp (a / lam)). set (t := exp (x / lam)). set (t' := exp (x' / lam)).
  assert (Hg : 0 < g) by apply exp_pos. assert (Ht : 0 < t) by apply exp_pos. assert (Ht' : 0 < t') by apply exp_pos.
  destruct (ends_near prec mu Hmu x a) as (Lo & _). destruct (ends_near prec mu Hmu x' a) as (_ & _ & Li & _).
  (* exponentials of the moved ends *)
  assert (X1 : exp ((a - x - delta) / lam) = g / (t * D)).
  { replace ((a - x - delta) / lam) with (a / lam - (x / lam + delta / lam)) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (X2 : exp ((x - a + delta) / lam) = t * D / g).
  { replace ((x - a + delta) / lam) with (x / lam + delta / lam - a / lam) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (X3 : exp ((a - x' + delta) / lam) = g * D / t').
  { replace ((a - x' + delta) / lam) with (a / lam + delta / lam - x' / lam) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (X4 : exp ((x' - a - delta) / lam) = t' / (g * D)).
  { replace ((x' - a - delta) / lam) with (x' / lam - (a / lam + delta / lam)) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  (* the upper bound at x: an ideal tail mass of g / E *)
  assert (Up : snap_output_prob lam x P <= / 2 * tail_mass SPlus (g / E) t).
  { unfold snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => (a - x - delta) / lam <= ln (ustar prec emin U))).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        assert (O := outer_above prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x a
                       (or_introl eq_refl) Hla Hu Hp Fx (HP1 _ HPU)).
        rewrite Rmult_1_l in O. fold (outer_lo x a) in O. apply div_lam_le; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr); exact H1|].
        rewrite X1. apply ulen_from_anti.
        replace (g / E / t) with (g / (t * D) * (1 - 2 * eta)) by (rewrite HE; field; split; lra).
        assert (0 < g / (t * D)) by (apply Rdiv_lt_0_compat; [|apply Rmult_lt_0_compat]; lra).
        assert (0 <= g / (t * D) * eta) by (apply Rmult_le_pos; lra). lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (x - a + delta) / lam)).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        assert (O := outer_above prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x a
                       (or_intror eq_refl) Hla Hu Hp Fx (HP1 _ HPU)).
        fold (outer_lo x a) in O. apply le_div_lam; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr); exact H2|].
        rewrite X2. right. f_equal. rewrite HE. field. split; lra. }
  (* the lower bound at x': an ideal tail mass of g * E *)
  assert (Lw : / 2 * tail_mass SPlus (g * E) t' <= snap_output_prob lam x' P).
  { unfold snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => (a - x' + delta) / lam <= ln (ustar prec emin U))).
      + eapply Rle_trans; [|apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr); exact H3].
        rewrite X3. right. f_equal. rewrite HE. field. split; lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp]. apply HP2.
        apply (inner_above_open 1 lam (ustar prec emin U) x' a (or_introl eq_refl) Hla Hu Hp Fx').
        apply mul_div_lam in HL; [|exact Hlam]. lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (x' - a - delta) / lam)).
      + eapply Rle_trans; [|apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr); exact H4].
        rewrite X4. apply ulen_to_mono.
        apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; [apply Rmult_lt_0_compat|apply Rmult_le_compat_l]; lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp]. apply HP2.
        apply (inner_above_open (-1) lam (ustar prec emin U) x' a (or_intror eq_refl) Hla Hu Hp Fx').
        apply mul_div_lam_r in HL; [|exact Hlam]. lra. }
  (* the ideal ratio, t moved by E² *)
  assert (HE0 : 0 < E) by lra.
  rewrite (tail_mass_shift SPlus g t E Hg Ht HE0) in Up.
  assert (P1 : 0 < g * E) by (apply Rmult_lt_0_compat; assumption).
  assert (P2 : 0 < t * (E * E)) by (apply Rmult_lt_0_compat; [assumption|apply Rmult_lt_0_compat; assumption]).
  assert (P3 : 1 <= E * E) by (rewrite <- (Rmult_1_l 1); apply Rmult_le_compat; lra).
  assert (R := tail_mass_ratio SPlus (g * E) t' (t * (E * E)) P1 Ht' P2).
  assert (Hsc := rmax_ratio_scale t t' (E * E) Ht Ht' P3).
  assert (Hmax : Rmax (t / t') (t' / t) = exp (Rabs (x - x') / lam)).
  { unfold t, t'. replace (x / lam) with (/ lam * x) by (unfold Rdiv; ring).
    replace (x' / lam) with (/ lam * x') by (unfold Rdiv; ring).
    rewrite (exp_ratio_max (/ lam) x' x) by (left; apply Rinv_0_lt_compat; exact Hlam).
    rewrite Rabs_minus_sym. unfold Rdiv. rewrite Rmult_comm. reflexivity. }
  rewrite Hmax in Hsc.
  assert (Hn1 := tail_mass_nonneg SPlus (g * E) t').
  set (m := tail_mass SPlus (g * E) t') in *.
  set (rho := Rmax (t * (E * E) / t') (t' / (t * (E * E)))) in *.
  assert (S1 : rho * m <= E * E * exp (Rabs (x - x') / lam) * m) by (apply Rmult_le_compat_r; lra).
  assert (S2 : 0 <= E * E * exp (Rabs (x - x') / lam)).
  { assert (0 < exp (Rabs (x - x') / lam)) by apply exp_pos. apply Rmult_le_pos; [apply Rmult_le_pos|]; lra. }
  assert (S3 : E * E * exp (Rabs (x - x') / lam) * (/ 2 * m) <= E * E * exp (Rabs (x - x') / lam) * snap_output_prob lam x' P)
    by (apply Rmult_le_compat_l; [exact S2|exact Lw]).
  fold E. lra.
Qed.

(** ** Output −B: P ⊆ (−∞, b] and (−∞, b) ⊆ P *)
Theorem bottom_ratio : forall lam x x' b delta (P : R -> Prop),
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  (forall w, P w -> w <= b) -> (forall w, w < b -> P w) -> 0 <= delta ->
  disp x b <= delta -> disp x' b < delta ->
  normal_min <= exp ((b - x + delta) / lam) -> normal_min <= exp ((x - b - delta) / lam) ->
  normal_min <= exp ((b - x' - delta) / lam) -> normal_min <= exp ((x' - b + delta) / lam) ->
  snap_output_prob lam x P <=
    exp (Rabs (x - x') / lam) * (ratio_E lam delta * ratio_E lam delta) * snap_output_prob lam x' P.
Proof.
  intros lam x x' b delta P Hok Fx Fx' HP1 HP2 Hd Hb Hb' H1 H2 H3 H4.
  destruct Hok as [Hl Hok].
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hk0 : 0 < 1 - 2 * eta) by lra.
  set (D := exp (delta / lam)).
  assert (HD : 1 <= D).
  { unfold D. rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  set (E := ratio_E lam delta).
  assert (HE : E = D / (1 - 2 * eta)) by reflexivity.
  assert (HDE : D <= E) by (rewrite HE; apply div_k_le'; lra).
  set (g := exp (b / lam)). set (t := exp (x / lam)). set (t' := exp (x' / lam)).
  assert (Hg : 0 < g) by apply exp_pos. assert (Ht : 0 < t) by apply exp_pos. assert (Ht' : 0 < t') by apply exp_pos.
  destruct (ends_near prec mu Hmu x b) as (_ & Hi & _). destruct (ends_near prec mu Hmu x' b) as (_ & _ & _ & Ii).
  assert (X1 : exp ((b - x + delta) / lam) = g * D / t).
  { replace ((b - x + delta) / lam) with (b / lam + delta / lam - x / lam) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (X2 : exp ((x - b - delta) / lam) = t / (g * D)).
  { replace ((x - b - delta) / lam) with (x / lam - (b / lam + delta / lam)) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (X3 : exp ((b - x' - delta) / lam) = g / (t' * D)).
  { replace ((b - x' - delta) / lam) with (b / lam - (x' / lam + delta / lam)) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (X4 : exp ((x' - b + delta) / lam) = t' * D / g).
  { replace ((x' - b + delta) / lam) with (x' / lam + delta / lam - b / lam) by (field; lra).
    rewrite exp_sub, exp_plus. reflexivity. }
  assert (Up : snap_output_prob lam x P <= / 2 * tail_mass SMinus (g * E) t).
  { unfold snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (b - x + delta) / lam)).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        assert (O := outer_below prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x b
                       (or_introl eq_refl) Hla Hu Hp Fx (HP1 _ HPU)).
        rewrite Rmult_1_l in O. fold (outer_hi x b) in O. apply le_div_lam; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr); exact H1|].
        rewrite X1. right. f_equal. rewrite HE. field. split; lra.
    - apply Rle_trans with (pr (fun U => (x - b - delta) / lam <= ln (ustar prec emin U))).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        assert (O := outer_below prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x b
                       (or_intror eq_refl) Hla Hu Hp Fx (HP1 _ HPU)).
        fold (outer_hi x b) in O. apply div_lam_le; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr); exact H2|].
        rewrite X2. apply ulen_from_anti.
        apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; [apply Rmult_lt_0_compat|apply Rmult_le_compat_l]; lra. }
  assert (Lw : / 2 * tail_mass SMinus (g / E) t' <= snap_output_prob lam x' P).
  { unfold snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (b - x' - delta) / lam)).
      + eapply Rle_trans; [|apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr); exact H3].
        rewrite X3. apply ulen_to_mono.
        replace (g / E / t') with (g / (t' * D) * (1 - 2 * eta)) by (rewrite HE; field; split; lra).
        assert (0 < g / (t' * D)) by (apply Rdiv_lt_0_compat; [|apply Rmult_lt_0_compat]; lra).
        assert (0 <= g / (t' * D) * eta) by (apply Rmult_le_pos; lra). lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp]. apply HP2.
        apply (inner_below_open 1 lam (ustar prec emin U) x' b (or_introl eq_refl) Hla Hu Hp Fx').
        apply mul_div_lam_r in HL; [|exact Hlam]. lra.
    - apply Rle_trans with (pr (fun U => (x' - b + delta) / lam <= ln (ustar prec emin U))).
      + eapply Rle_trans; [|apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr); exact H4].
        rewrite X4. right. f_equal. rewrite HE. field. split; lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp]. apply HP2.
        apply (inner_below_open (-1) lam (ustar prec emin U) x' b (or_intror eq_refl) Hla Hu Hp Fx').
        apply mul_div_lam in HL; [|exact Hlam]. lra. }
  assert (HE0 : 0 < E) by lra.
  assert (Hshift := tail_mass_shift SMinus g t (/ E) Hg Ht (Rinv_0_lt_compat _ HE0)).
  replace (g / / E) with (g * E) in Hshift by (field; lra). replace (g * / E) with (g / E) in Hshift by (field; lra).
  replace (t * (/ E * / E)) with (t / (E * E)) in Hshift by (field; lra). rewrite Hshift in Up.
  assert (P1 : 0 < g / E) by (apply Rdiv_lt_0_compat; assumption).
  assert (P2 : 0 < t / (E * E)) by (apply Rdiv_lt_0_compat; [assumption|apply Rmult_lt_0_compat; assumption]).
  assert (P3 : 1 <= E * E) by (rewrite <- (Rmult_1_l 1); apply Rmult_le_compat; lra).
  assert (R := tail_mass_ratio SMinus (g / E) t' (t / (E * E)) P1 Ht' P2).
  assert (Hsc := rmax_ratio_scale' t t' (E * E) Ht Ht' P3).
  assert (Hmax : Rmax (t / t') (t' / t) = exp (Rabs (x - x') / lam)).
  { unfold t, t'. replace (x / lam) with (/ lam * x) by (unfold Rdiv; ring).
    replace (x' / lam) with (/ lam * x') by (unfold Rdiv; ring).
    rewrite (exp_ratio_max (/ lam) x' x) by (left; apply Rinv_0_lt_compat; exact Hlam).
    rewrite Rabs_minus_sym. unfold Rdiv. rewrite Rmult_comm. reflexivity. }
  rewrite Hmax in Hsc.
  assert (Hn1 := tail_mass_nonneg SMinus (g / E) t').
  set (m := tail_mass SMinus (g / E) t') in *.
  set (rho := Rmax (t / (E * E) / t') (t' / (t / (E * E)))) in *.
  assert (S1 : rho * m <= E * E * exp (Rabs (x - x') / lam) * m) by (apply Rmult_le_compat_r; lra).
  assert (S2 : 0 <= E * E * exp (Rabs (x - x') / lam)).
  { assert (0 < exp (Rabs (x - x') / lam)) by apply exp_pos. apply Rmult_le_pos; [apply Rmult_le_pos|]; lra. }
  assert (S3 : E * E * exp (Rabs (x - x') / lam) * (/ 2 * m) <= E * E * exp (Rabs (x - x') / lam) * snap_output_prob lam x' P)
    by (apply Rmult_le_compat_l; [exact S2|exact Lw]).
  fold E. lra.
Qed.

(** The clamped outputs of the float mechanism: B at g, the first grid index at
    or above B, and −B. *)
Theorem clamp_top_ratio : forall t grid B g lam x x' delta, 0 < grid -> 0 < B ->
  (IZR g - 1) * grid < B <= IZR g * grid ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  0 <= delta -> disp x ((IZR g - / 2) * grid) <= delta -> disp x' ((IZR g - / 2) * grid) < delta ->
  normal_min <= exp (((IZR g - / 2) * grid - x - delta) / lam) ->
  normal_min <= exp ((x - (IZR g - / 2) * grid + delta) / lam) ->
  normal_min <= exp (((IZR g - / 2) * grid - x' + delta) / lam) ->
  normal_min <= exp ((x' - (IZR g - / 2) * grid - delta) / lam) ->
  snap_output_prob lam x (fun w => float_snap t grid B w = B) <=
    exp (Rabs (x - x') / lam) * (ratio_E lam delta * ratio_E lam delta) *
    snap_output_prob lam x' (fun w => float_snap t grid B w = B).
Proof.
  intros t grid B g lam x x' delta Hg HB Hgb Hok Fx Fx' Hd Ha Ha' H1 H2 H3 H4.
  apply top_ratio with ((IZR g - / 2) * grid); try assumption.
  - intros w Hw. apply (float_snap_top_iff t grid B g w Hg HB Hgb) in Hw. destruct t; lra.
  - intros w Hw. apply (float_snap_top_iff t grid B g w Hg HB Hgb). destruct t; lra.
Qed.

Theorem clamp_bottom_ratio : forall t grid B g lam x x' delta, 0 < grid -> 0 < B ->
  (IZR g - 1) * grid < B <= IZR g * grid ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  0 <= delta -> disp x ((- IZR g + / 2) * grid) <= delta -> disp x' ((- IZR g + / 2) * grid) < delta ->
  normal_min <= exp (((- IZR g + / 2) * grid - x + delta) / lam) ->
  normal_min <= exp ((x - (- IZR g + / 2) * grid - delta) / lam) ->
  normal_min <= exp (((- IZR g + / 2) * grid - x' - delta) / lam) ->
  normal_min <= exp ((x' - (- IZR g + / 2) * grid + delta) / lam) ->
  snap_output_prob lam x (fun w => float_snap t grid B w = - B) <=
    exp (Rabs (x - x') / lam) * (ratio_E lam delta * ratio_E lam delta) *
    snap_output_prob lam x' (fun w => float_snap t grid B w = - B).
Proof.
  intros t grid B g lam x x' delta Hg HB Hgb Hok Fx Fx' Hd Hb Hb' H1 H2 H3 H4.
  apply bottom_ratio with ((- IZR g + / 2) * grid); try assumption.
  - intros w Hw. apply (float_snap_bottom_iff t grid B g w Hg HB Hgb) in Hw. destruct t; lra.
  - intros w Hw. apply (float_snap_bottom_iff t grid B g w Hg HB Hgb). destruct t; lra.
Qed.

End SnapTailRatio.
