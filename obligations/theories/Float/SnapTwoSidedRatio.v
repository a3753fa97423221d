(** * One output's ratio, U*'s factor at one end per sign and each end displaced on its own
    [tight_prob_upper] and [tight_prob_lower] (SnapTight.v) widen (narrow) both
    ends of an interval [A, B′] of the sum by one δ and put U*'s factor
    1/(1 − 2η) at both ends of the bucket for both inputs
    ([moved_le_snap_mass]).  Here each end has its own displacement, the one
    the input at hand needs (dA ≥ μ|A − x|, dB ≥ μ|B′ − x|; nA, nB likewise for
    x′), and U*'s factor stays where U* puts it: at the upper end of u, which
    is the upper end of the sum for the sign +1 and the lower end for the sign
    −1 ([two_prob_upper]), and at the lower end of u for the lower bound
    ([two_prob_lower]).  Both are [two_mass]es (SnapTwoSided.v); the ratio
    moves x to x′ ([two_mass_move]) and compares the widened pair with the
    narrowed one at x′ only ([two_ratio_of_mass]: the comparison is a premise,
    proved from [two_mass_widen_low], [two_mass_widen_high] or [two_mass_widen]
    depending on where x′ is). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.
From Obligations.Float Require Import RelError SnapNoise UStarMeasure SnapOutput SnapClamp SnapRatio SnapTight
  SnapTwoSided.

Local Open Scope R_scope.

Section TwoSidedRatio.

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

(** U*'s factor: the upper end of u is divided by [ustar_q] in the upper bound,
    the lower end in the lower bound. *)
Definition ustar_q : R := 1 - 2 * eta.

Let Hq : 0 < ustar_q <= 1.
Proof. unfold ustar_q. assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec). lra. Qed.

(** The widened pair for an input with displacements dA (lower end) and dB
    (upper end), and the narrowed pair with nA, nB, in the order of
    [two_mass a b c d]. *)
Definition wide_plus_lower (lam A dA : R) : R := exp ((A - dA) / lam).
Definition wide_plus_upper (lam B' dB : R) : R := exp ((B' + dB) / lam) / ustar_q.
Definition wide_minus_lower (lam A dA : R) : R := exp ((A - dA) / lam) * ustar_q.
Definition wide_minus_upper (lam B' dB : R) : R := exp ((B' + dB) / lam).
Definition narrow_plus_lower (lam A nA : R) : R := exp ((A + nA) / lam) / ustar_q.
Definition narrow_plus_upper (lam B' nB : R) : R := exp ((B' - nB) / lam).
Definition narrow_minus_lower (lam A nA : R) : R := exp ((A + nA) / lam).
Definition narrow_minus_upper (lam B' nB : R) : R := exp ((B' - nB) / lam) * ustar_q.

Lemma exp_over : forall lam p y, 0 < lam -> exp ((p - y) / lam) = exp (p / lam) / exp (y / lam).
Proof. intros lam p y Hl. apply exp_div_lam. exact Hl. Qed.

Theorem two_prob_upper : forall lam x A B' dA dB (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v <= B') ->
  tight_mu * Rabs (A - x) <= dA -> tight_mu * Rabs (B' - x) <= dB ->
  normal_min <= exp ((A - x - dA) / lam) -> normal_min <= exp ((x - B' - dB) / lam) ->
  snap_output_prob lam x P <=
    / 2 * two_mass (wide_plus_lower lam A dA) (wide_plus_upper lam B' dB) (wide_minus_lower lam A dA) (wide_minus_upper lam B' dB) (exp (x / lam)).
Proof.
  intros lam x A B' dA dB P [Hl Hok] Fl HP Ha Hb H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Lo := tight_lo_near prec mu Hmu (A - x) dA Ha). assert (Hi := tight_hi_near prec mu Hmu (B' - x) dB Hb).
  assert (Ht := exp_pos (x / lam)).
  unfold SnapOutput.snap_output_prob, two_mass. rewrite Rmult_plus_distr_l.
  apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - apply Rle_trans with (pr (fun U => (A - x - dA) / lam <= ln (ustar prec emin U) <= (B' - x + dB) / lam)).
    2: { eapply Rle_trans; [apply (ustar_ln_upper_ulen prec emin Hprec pr Hpr); exact H1|]. right.
         unfold wide_plus_lower, wide_plus_upper. f_equal.
         - replace (A - x - dA) with ((A - dA) - x) by ring. apply exp_over; exact Hlam.
         - replace (B' - x + dB) with ((B' + dB) - x) by ring. rewrite (exp_over lam (B' + dB) x Hlam).
           fold ustar_q. field. lra. }
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum in HPU. apply HP in HPU.
    destruct (tight_outer prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x A B'
                (or_introl eq_refl) Fl Hu Hp HPU) as [O1 O2].
    rewrite Rmult_1_l in O1, O2.
    split; [apply div_lam_le|apply le_div_lam]; try exact Hlam; lra.
  - apply Rle_trans with (pr (fun U => (x - B' - dB) / lam <= ln (ustar prec emin U) <= (x - A + dA) / lam)).
    2: { eapply Rle_trans; [apply (ustar_ln_upper_ulen prec emin Hprec pr Hpr); exact H2|]. right.
         unfold wide_minus_lower, wide_minus_upper. f_equal.
         - replace (x - B' - dB) with (x - (B' + dB)) by ring. apply exp_over; exact Hlam.
         - replace (x - A + dA) with (x - (A - dA)) by ring. rewrite (exp_over lam x (A - dA) Hlam).
           fold ustar_q. assert (0 < exp ((A - dA) / lam)) by apply exp_pos. field. lra. }
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum in HPU. apply HP in HPU.
    destruct (tight_outer prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x A B'
                (or_intror eq_refl) Fl Hu Hp HPU) as [O1 O2].
    split; [apply div_lam_le|apply le_div_lam]; try exact Hlam; lra.
Qed.

Theorem two_prob_lower : forall lam x A B' nA nB (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, A < v < B' -> P (rnd v)) ->
  tight_mu * Rabs (A - x) < nA -> tight_mu * Rabs (B' - x) < nB ->
  normal_min <= exp ((A - x + nA) / lam) -> normal_min <= exp ((x - B' + nB) / lam) ->
  / 2 * two_mass (narrow_plus_lower lam A nA) (narrow_plus_upper lam B' nB) (narrow_minus_lower lam A nA) (narrow_minus_upper lam B' nB) (exp (x / lam))
    <= snap_output_prob lam x P.
Proof.
  intros lam x A B' nA nB P [Hl Hok] Fl HP Ha Hb H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hm := tight_mu_nonneg prec mu Hmu).
  assert (Lo : widen_hi tight_mu (A - x) < A - x + nA).
  { assert (W := widen_near true tight_mu (A - x) Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
  assert (Hi : B' - x - nB < widen_lo tight_mu (B' - x)).
  { assert (W := widen_near false tight_mu (B' - x) Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
  assert (Ht := exp_pos (x / lam)).
  unfold SnapOutput.snap_output_prob, two_mass. rewrite Rmult_plus_distr_l.
  apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - apply Rle_trans with (pr (fun U => (A - x + nA) / lam <= ln (ustar prec emin U) <= (B' - x - nB) / lam)).
    { eapply Rle_trans; [|apply (ustar_ln_lower_ulen prec emin Hprec pr Hpr); exact H1]. right.
      unfold narrow_plus_lower, narrow_plus_upper. f_equal.
      - replace (A - x + nA) with ((A + nA) - x) by ring. rewrite (exp_over lam (A + nA) x Hlam).
        fold ustar_q. field. lra.
      - replace (B' - x - nB) with ((B' - nB) - x) by ring. symmetry. apply exp_over; exact Hlam. }
    apply (uprob_mono pr Hpr). intros U HU [L1 L2]. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum. apply HP.
    apply mul_div_lam in L1; [|exact Hlam]. apply mul_div_lam_r in L2; [|exact Hlam].
    split.
    + apply (tight_inner_lo prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x A (or_introl eq_refl) Fl Hu Hp). lra.
    + apply (tight_inner_hi prec emin Hprec choice lnf mu Hmu 1 lam (ustar prec emin U) x B' (or_introl eq_refl) Fl Hu Hp). lra.
  - apply Rle_trans with (pr (fun U => (x - B' + nB) / lam <= ln (ustar prec emin U) <= (x - A - nA) / lam)).
    { eapply Rle_trans; [|apply (ustar_ln_lower_ulen prec emin Hprec pr Hpr); exact H2]. right.
      unfold narrow_minus_lower, narrow_minus_upper. f_equal.
      - replace (x - B' + nB) with (x - (B' - nB)) by ring. rewrite (exp_over lam x (B' - nB) Hlam).
        fold ustar_q. assert (0 < exp ((B' - nB) / lam)) by apply exp_pos. field. lra.
      - replace (x - A - nA) with (x - (A + nA)) by ring. symmetry. apply exp_over; exact Hlam. }
    apply (uprob_mono pr Hpr). intros U HU [L1 L2]. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum. apply HP.
    apply mul_div_lam in L1; [|exact Hlam]. apply mul_div_lam_r in L2; [|exact Hlam].
    split.
    + apply (tight_inner_lo prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x A (or_intror eq_refl) Fl Hu Hp). lra.
    + apply (tight_inner_hi prec emin Hprec choice lnf mu Hmu (-1) lam (ustar prec emin U) x B' (or_intror eq_refl) Fl Hu Hp). lra.
Qed.

(** The ratio for an interval [A, B′] of the sum, given the comparison of the
    widened pair (x's displacements) with the narrowed one (x′'s) at x′. *)
Theorem two_ratio_of_mass : forall lam x x' A B' dA dB nA nB K (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v <= B') -> (forall v, A < v < B' -> P (rnd v)) ->
  0 <= dA -> 0 <= dB -> 0 <= K ->
  tight_mu * Rabs (A - x) <= dA -> tight_mu * Rabs (B' - x) <= dB ->
  tight_mu * Rabs (A - x') < nA -> tight_mu * Rabs (B' - x') < nB ->
  normal_min <= exp ((A - x - dA) / lam) -> normal_min <= exp ((x - B' - dB) / lam) ->
  normal_min <= exp ((A - x' + nA) / lam) -> normal_min <= exp ((x' - B' + nB) / lam) ->
  2 * wide_plus_lower lam A dA <= wide_minus_upper lam B' dB ->
  two_mass (wide_plus_lower lam A dA) (wide_plus_upper lam B' dB) (wide_minus_lower lam A dA) (wide_minus_upper lam B' dB) (exp (x' / lam)) <=
    K * two_mass (narrow_plus_lower lam A nA) (narrow_plus_upper lam B' nB) (narrow_minus_lower lam A nA) (narrow_minus_upper lam B' nB) (exp (x' / lam)) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' P.
Proof.
  intros lam x x' A B' dA dB nA nB K P Hok Fl HP1 HP2 HdA HdB HK Ha Hb Ha' Hb' H1 H2 H3 H4 H2a HW.
  assert (Hlam : 0 < lam) by (destruct Hok as [Hl _]; assert (Hn := normal_min_pos prec emin); lra).
  assert (U := two_prob_upper lam x A B' dA dB P Hok Fl HP1 Ha Hb H1 H2).
  assert (L := two_prob_lower lam x' A B' nA nB P Hok Fl HP2 Ha' Hb' H3 H4).
  set (a1 := wide_plus_lower lam A dA) in *. set (b1 := wide_plus_upper lam B' dB) in *.
  set (c1 := wide_minus_lower lam A dA) in *. set (d1 := wide_minus_upper lam B' dB) in *.
  assert (Ha1 : 0 < a1) by apply exp_pos. assert (Hd1 : 0 < d1) by apply exp_pos.
  assert (Hc1 : 0 < c1) by (unfold c1, wide_minus_lower; apply Rmult_lt_0_compat; [apply exp_pos|lra]).
  assert (Hca : c1 <= a1).
  { unfold c1, a1, wide_minus_lower, wide_plus_lower. rewrite <- (Rmult_1_r (exp ((A - dA) / lam))) at 2.
    apply Rmult_le_compat_l; [apply Rlt_le, exp_pos|lra]. }
  assert (Hdb : d1 <= b1).
  { unfold d1, b1, wide_minus_upper, wide_plus_upper. apply div_k_le'; [apply exp_pos|lra]. }
  assert (Ht := exp_pos (x / lam)). assert (Ht' := exp_pos (x' / lam)).
  assert (Mv := two_mass_move a1 b1 c1 d1 Hc1 Hca H2a Hdb (exp (x' / lam)) (exp (x / lam)) Ht' Ht).
  assert (Hmax : Rmax (exp (x / lam) / exp (x' / lam)) (exp (x' / lam) / exp (x / lam)) = exp (Rabs (x - x') / lam)).
  { replace (x / lam) with (/ lam * x) by (unfold Rdiv; ring).
    replace (x' / lam) with (/ lam * x') by (unfold Rdiv; ring).
    rewrite (exp_ratio_max (/ lam) x' x) by (left; apply Rinv_0_lt_compat; exact Hlam).
    rewrite Rabs_minus_sym. unfold Rdiv. rewrite Rmult_comm. reflexivity. }
  rewrite Hmax in Mv.
  set (e := exp (Rabs (x - x') / lam)) in *. assert (He0 : 0 < e) by apply exp_pos.
  set (m1 := two_mass a1 b1 c1 d1 (exp (x / lam))) in *.
  set (m1' := two_mass a1 b1 c1 d1 (exp (x' / lam))) in *.
  set (m2 := two_mass (narrow_plus_lower lam A nA) (narrow_plus_upper lam B' nB) (narrow_minus_lower lam A nA) (narrow_minus_upper lam B' nB)
               (exp (x' / lam))) in *.
  set (pl := snap_output_prob lam x' P) in *.
  assert (S1 : e * m1' <= e * (K * m2)) by (apply Rmult_le_compat_l; lra).
  assert (S2 : e * K * (/ 2 * m2) <= e * K * pl) by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact L]).
  lra.
Qed.

End TwoSidedRatio.
