(** * The ratio of an output's probabilities between neighbouring inputs
    The first two steps of the ratio for an output between neighbours
    (docs/binary64.md, "Not done"): each widening moves an end e of the event's
    interval of the rounded sum by at most [disp x e] = η|e| + M(|e − x| + η|e|)
    ([widen2_near], [ends_near]: either widening, down or up); with the U*
    bracket in its clipped form, an output's probability given x is at most the
    ideal (real-valued) mass of its interval widened by δ ≥ disp at both ends,
    the upper ends of u also divided by 1 − 2η ([output_prob_upper_mass]), and
    at least the ideal mass of the interval narrowed likewise
    ([output_prob_lower_mass]).  Both are sums over the two signs of clipped
    lengths [ulen] of exponentials, the form of the ideal snapping proof
    (Noise/SnapBound.v).  They are snapping masses of the bucket moved out or
    in ([moved_le_snap_mass], [snap_mass_le_narrowed]); the ideal ratio moves x
    to x′, and [snap_mass_widen] compares the widened bucket's mass with the
    narrowed one's: [output_ratio], and [interior_ratio] for the mechanism. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure SnapBound.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure SnapOutput SnapInterior SnapClamp.

Local Open Scope R_scope.

(** An end widened down ([false]: [widen_lo]) or up ([true]: [widen_hi]). *)
Definition widen (up : bool) (m v : R) : R := if up then widen_hi m v else widen_lo m v.

(** Either widening moves [v] by at most [m |v|]. *)
Lemma widen_near : forall up m v, 0 <= m -> Rabs (widen up m v - v) <= m * Rabs v.
Proof.
  assert (Hlo : forall m v, 0 <= m -> v - m * Rabs v <= widen_lo m v).
  { intros m v Hm. unfold widen_lo, Rdiv.
    assert (Hp : 0 < / (1 + m)) by (apply Rinv_0_lt_compat; lra).
    assert (Hi : / (1 + m) * (1 + m) = 1) by (field; lra).
    destruct (Rle_dec 0 v) as [Hv|Hv].
    - rewrite Rabs_pos_eq by exact Hv. apply Rmin_glb; [|nra].
      assert (H1 : (v - m * v) * (1 + m) <= v) by nra.
      apply (Rmult_le_reg_r (1 + m)); [lra|]. rewrite Rmult_assoc, Hi, Rmult_1_r. exact H1.
    - rewrite Rabs_left by lra. apply Rmin_glb; [|lra].
      assert (H1 : v <= v * / (1 + m)) by nra. nra. }
  intros up m v Hm. assert (Hmv : 0 <= m * Rabs v) by (apply Rmult_le_pos; [exact Hm|apply Rabs_pos]).
  apply Rabs_le. destruct up; cbn [widen].
  - (* widen_hi m v = - widen_lo m (- v) *)
    assert (H := Hlo m (- v) Hm). rewrite Rabs_Ropp in H. assert (Hge := widen_hi_ge m v Hm).
    assert (Hup : widen_hi m v <= v + m * Rabs v).
    { unfold widen_lo, widen_hi, Rdiv in *.
      replace (- v * / (1 + m)) with (- (v * / (1 + m))) in H by ring.
      replace (- v * (1 + m)) with (- (v * (1 + m))) in H by ring.
      apply Rmax_lub.
      - assert (Rmin (- (v * / (1 + m))) (- (v * (1 + m))) <= - (v * / (1 + m))) by apply Rmin_l. lra.
      - assert (Rmin (- (v * / (1 + m))) (- (v * (1 + m))) <= - (v * (1 + m))) by apply Rmin_r. lra. }
    lra.
  - assert (H := Hlo m v Hm). assert (Hle := widen_lo_le m v Hm). lra.
Qed.

(** The missing ideal comparison: the snapping mass of a bucket [a1, b1] against
    the one of [a2, b2] inside it, at the same t, when the two identities hold
    that make K the exact ratio in both tails (t below a1, t above b1); in
    between the difference is a square ((t − a1)², (t − b1)²) or a concave
    quadratic nonnegative at both ends. *)
Lemma snap_mass_widen : forall a1 b1 a2 b2 K t, 0 < a1 <= a2 -> a2 < b2 -> b2 <= b1 -> 0 < t ->
  K * (/ a2 - / b2) = / a1 - / b1 -> K * (b2 - a2) = b1 - a1 ->
  snap_mass a1 b1 t <= K * snap_mass a2 b2 t.
Proof.
  intros a1 b1 a2 b2 K t Ha Hab Hb Ht Hid1 Hid2.
  assert (HK : 1 <= K).
  { assert (H : (b2 - a2) <= K * (b2 - a2)) by lra. nra. }
  assert (H1 : 0 < a1 < b1) by lra. assert (H2 : 0 < a2 < b2) by lra.
  destruct (Rle_lt_dec t a1) as [T1|T1].
  { rewrite (snap_mass_low a1 b1 t H1 (conj Ht T1)), (snap_mass_low a2 b2 t H2 (conj Ht (Rle_trans _ _ _ T1 (proj2 Ha)))).
    replace (K * (t / a2 - t / b2)) with (t * (K * (/ a2 - / b2))) by (field; lra).
    rewrite Hid1. right. unfold Rdiv. ring. }
  destruct (Rle_lt_dec t a2) as [T2|T2].
  { assert (M1 : a1 <= t <= b1) by lra.
    rewrite (snap_mass_mid a1 b1 t H1 M1), (snap_mass_low a2 b2 t H2 (conj Ht T2)).
    replace (K * (t / a2 - t / b2)) with (t * (K * (/ a2 - / b2))) by (field; lra).
    rewrite Hid1.
    assert (Hsq : 0 <= (t - a1) * (t - a1) / (a1 * t)).
    { apply Rmult_le_pos; [nra|left; apply Rinv_0_lt_compat; nra]. }
    assert (Heq : (t - a1) * (t - a1) / (a1 * t) = t * (/ a1 - / b1) - (2 - a1 / t - t / b1)) by (field; lra).
    lra. }
  destruct (Rle_lt_dec b1 t) as [T5|T5].
  { assert (M2 : b2 <= t) by lra.
    rewrite (snap_mass_high a1 b1 t H1 T5), (snap_mass_high a2 b2 t H2 M2).
    replace (K * (b2 / t - a2 / t)) with (K * (b2 - a2) / t) by (field; lra).
    rewrite Hid2. right. unfold Rdiv. ring. }
  destruct (Rle_lt_dec b2 t) as [T4|T4].
  { assert (M1 : a1 <= t <= b1) by lra.
    rewrite (snap_mass_mid a1 b1 t H1 M1), (snap_mass_high a2 b2 t H2 T4).
    replace (K * (b2 / t - a2 / t)) with (K * (b2 - a2) / t) by (field; lra).
    rewrite Hid2.
    assert (Hsq : 0 <= (t - b1) * (t - b1) / (b1 * t)).
    { apply Rmult_le_pos; [nra|left; apply Rinv_0_lt_compat; nra]. }
    assert (Heq : (t - b1) * (t - b1) / (b1 * t) = (b1 - a1) / t - (2 - a1 / t - t / b1)) by (field; lra).
    lra. }
  (* the middle: both masses straddle u = 1; a concave quadratic in t, nonnegative at both ends *)
  assert (M1 : a1 <= t <= b1) by lra. assert (M2 : a2 <= t <= b2) by lra.
  rewrite (snap_mass_mid a1 b1 t H1 M1), (snap_mass_mid a2 b2 t H2 M2).
  set (A := K / b2 - / b1).
  set (g := fun s => 2 * (K - 1) * s - (K * a2 - a1) - A * (s * s)).
  assert (HA : 0 <= A).
  { unfold A. assert (/ b1 <= / b2) by (apply Rinv_le_contravar; lra).
    assert (/ b2 <= K / b2) by (unfold Rdiv; assert (0 < / b2) by (apply Rinv_0_lt_compat; lra); nra). lra. }
  assert (Ga : g a2 = (a2 - a1) * (a2 - a1) / a1).
  { unfold g, A.
    replace (K / b2) with (K * / b2) by (unfold Rdiv; ring).
    assert (HKb : K * / b2 = K * / a2 - (/ a1 - / b1)) by (rewrite <- Hid1; ring).
    rewrite HKb. field. lra. }
  assert (Gb : g b2 = (b1 - b2) * (b1 - b2) / b1).
  { unfold g, A.
    assert (HKa : K * a2 = K * b2 - (b1 - a1)) by (rewrite <- Hid2; ring).
    rewrite HKa. field. lra. }
  assert (Hlag : g t * (b2 - a2) = g a2 * (b2 - t) + g b2 * (t - a2) + A * (t - a2) * (b2 - t) * (b2 - a2))
    by (unfold g; ring).
  assert (Pa : 0 <= g a2) by (rewrite Ga; apply Rmult_le_pos; [apply Rle_0_sqr|left; apply Rinv_0_lt_compat; lra]).
  assert (Pb : 0 <= g b2) by (rewrite Gb; apply Rmult_le_pos; [apply Rle_0_sqr|left; apply Rinv_0_lt_compat; lra]).
  assert (P3 : 0 <= A * (t - a2) * (b2 - t) * (b2 - a2)).
  { repeat apply Rmult_le_pos; lra. }
  assert (Pg : 0 <= g t).
  { assert (0 <= g t * (b2 - a2)) by (rewrite Hlag; assert (0 <= g a2 * (b2 - t)) by (apply Rmult_le_pos; lra);
      assert (0 <= g b2 * (t - a2)) by (apply Rmult_le_pos; lra); lra).
    destruct (Rle_or_lt 0 (g t)) as [|Hn]; [assumption|].
    assert (g t * (b2 - a2) < 0 * (b2 - a2)) by (apply Rmult_lt_compat_r; lra). lra. }
  assert (Heq : g t / t = K * (2 - a2 / t - t / b2) - (2 - a1 / t - t / b1)) by (unfold g, A; field; lra).
  assert (0 <= g t / t) by (apply Rmult_le_pos; [exact Pg|left; apply Rinv_0_lt_compat; exact Ht]).
  lra.
Qed.

Section SnapRatio.

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
Notation snap_sum := (snap_sum prec emin choice lnf).
Notation pipeline_ok := (pipeline_ok prec emin choice lnf mu).
Notation snap_output_prob := (snap_output_prob prec emin choice lnf pr).
Notation outer_lo := (outer_lo prec mu).
Notation outer_hi := (outer_hi prec mu).
Notation inner_lo := (inner_lo prec mu).
Notation inner_hi := (inner_hi prec mu).

Let Hprec0 : (0 < prec)%Z.
Proof. lia. Qed.

(** How far the widenings can move an end e of the sum's interval. *)
Definition disp (x e : R) : R := eta * Rabs e + M * (Rabs (e - x) + eta * Rabs e).

Lemma abs_shift : forall w e x, Rabs (w - e) <= eta * Rabs e -> Rabs (w - x) <= Rabs (e - x) + eta * Rabs e.
Proof.
  intros w e x H. replace (w - x) with ((w - e) + (e - x)) by ring.
  eapply Rle_trans; [apply Rabs_triang|lra].
Qed.

(** Two widenings (by η, then by M after subtracting x), each down or up, move an
    end e by at most [disp x e]: the outer and the inner ends alike ([ends_near]). *)
Lemma widen2_near : forall up up' x e, Rabs (widen up' M (widen up eta e - x) - (e - x)) <= disp x e.
Proof.
  intros up up' x e. unfold disp.
  assert (Hm := noise_mu_nonneg prec mu Hmu). assert (He := eta_nonneg prec).
  assert (H1 := widen_near up eta e He). assert (H2 := abs_shift _ _ x H1).
  assert (H3 := widen_near up' M (widen up eta e - x) Hm).
  assert (M * Rabs (widen up eta e - x) <= M * (Rabs (e - x) + eta * Rabs e)) by (apply Rmult_le_compat_l; lra).
  replace (widen up' M (widen up eta e - x) - (e - x))
    with ((widen up' M (widen up eta e - x) - (widen up eta e - x)) + (widen up eta e - e)) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. lra.
Qed.

Lemma ends_near : forall x e,
  e - x - disp x e <= outer_lo x e /\ outer_hi x e <= e - x + disp x e /\
  inner_lo x e <= e - x + disp x e /\ e - x - disp x e <= inner_hi x e.
Proof.
  intros x e.
  assert (Ol := Rabs_le_inv _ _ (widen2_near false false x e)).
  assert (Oh := Rabs_le_inv _ _ (widen2_near true true x e)).
  assert (Il := Rabs_le_inv _ _ (widen2_near true true x e)).
  assert (Ih := Rabs_le_inv _ _ (widen2_near false false x e)).
  cbn [widen] in Ol, Oh, Il, Ih.
  unfold SnapOutput.outer_lo, SnapOutput.outer_hi, SnapInterior.inner_lo, SnapInterior.inner_hi. lra.
Qed.

(** The ideal mass of the interval [a, b] of the sum, both signs, its ends
    moved by [dl] (lower ends of u) and [dh] (upper ends), the upper ends of u
    scaled by [k]. *)
Definition moved_mass (lam x a b dl dh k : R) : R :=
  ulen (exp ((a - x + dl) / lam)) (exp ((b - x + dh) / lam) * k) +
  ulen (exp ((x - b + dl) / lam)) (exp ((x - a + dh) / lam) * k).

Theorem output_prob_upper_mass : forall lam x a b delta (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x -> (forall w, P w -> a <= w <= b) ->
  disp x a <= delta -> disp x b <= delta ->
  normal_min <= exp ((a - x - delta) / lam) -> normal_min <= exp ((x - b - delta) / lam) ->
  snap_output_prob lam x P <= / 2 * moved_mass lam x a b (- delta) delta (/ (1 - 2 * eta)).
Proof.
  intros lam x a b delta P [Hl Hok] Fx HP Ha Hb H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  destruct (ends_near x a) as (Lo & _). destruct (ends_near x b) as (_ & Hi & _).
  unfold snap_output_prob, moved_mass. rewrite Rmult_plus_distr_l.
  apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - apply Rle_trans with (pr (fun U => (a - x + - delta) / lam <= ln (ustar prec emin U) <= (b - x + delta) / lam)).
    2: { apply (ustar_ln_upper_ulen prec emin Hprec pr Hpr).
         replace ((a - x + - delta) / lam) with ((a - x - delta) / lam) by (field; lra). exact H1. }
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    destruct (outer_interval prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar prec emin U) x a b
                (or_introl eq_refl) Hla Hu Hp Fx (HP _ HPU)) as [O1 O2].
    rewrite Rmult_1_l in O1, O2. fold (outer_lo x a) in O1. fold (outer_hi x b) in O2.
    split; [apply div_lam_le|apply le_div_lam]; try exact Hlam; lra.
  - apply Rle_trans with (pr (fun U => (x - b + - delta) / lam <= ln (ustar prec emin U) <= (x - a + delta) / lam)).
    2: { apply (ustar_ln_upper_ulen prec emin Hprec pr Hpr).
         replace ((x - b + - delta) / lam) with ((x - b - delta) / lam) by (field; lra). exact H2. }
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    destruct (outer_interval prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar prec emin U) x a b
                (or_intror eq_refl) Hla Hu Hp Fx (HP _ HPU)) as [O1 O2].
    fold (outer_lo x a) in O1. fold (outer_hi x b) in O2.
    split; [apply div_lam_le|apply le_div_lam]; try exact Hlam; lra.
Qed.

(** The narrowed mass: ends moved inward by delta, the lower ends of u scaled by [k]. *)
Definition narrowed_mass (lam x a b delta k : R) : R :=
  ulen (exp ((a - x + delta) / lam) * k) (exp ((b - x - delta) / lam)) +
  ulen (exp ((x - b + delta) / lam) * k) (exp ((x - a - delta) / lam)).

Lemma mul_div_lam : forall lam p q, 0 < lam -> p / lam <= q -> p <= lam * q.
Proof.
  intros lam p q Hl H. apply (Rmult_le_compat_l lam) in H; [|lra].
  replace (lam * (p / lam)) with p in H by (field; lra). exact H.
Qed.

Lemma mul_div_lam_r : forall lam p q, 0 < lam -> q <= p / lam -> lam * q <= p.
Proof.
  intros lam p q Hl H. apply (Rmult_le_compat_l lam) in H; [|lra].
  replace (lam * (p / lam)) with p in H by (field; lra). exact H.
Qed.

Lemma widen_strict : forall up m v v', 0 <= m -> v < v' -> widen up m v < widen up m v'.
Proof.
  intros up m v v' Hm H. assert (Hp : 0 < / (1 + m)) by (apply Rinv_0_lt_compat; lra).
  destruct up; cbn [widen]; unfold widen_lo, widen_hi, Rdiv.
  - apply Rmax_lub_lt.
    + apply Rlt_le_trans with (v' * / (1 + m)); [apply Rmult_lt_compat_r; lra|apply Rmax_l].
    + apply Rlt_le_trans with (v' * (1 + m)); [apply Rmult_lt_compat_r; lra|apply Rmax_r].
  - apply Rmin_glb_lt.
    + apply Rle_lt_trans with (v * / (1 + m)); [apply Rmin_l|]. apply Rmult_lt_compat_r; lra.
    + apply Rle_lt_trans with (v * (1 + m)); [apply Rmin_r|]. apply Rmult_lt_compat_r; lra.
Qed.

(** Strictly inside the inner interval, the rounded sum is strictly inside
    [a, b]: enough for a half-open bucket, whatever the tie rule. *)
Lemma inner_open : forall s lam u x a b, s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd prec emin choice lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  inner_lo x a < s * (lam * ln u) < inner_hi x b ->
  a < rnd prec emin choice (x + s * rnd prec emin choice (rnd prec emin choice lam * lnf u)) < b.
Proof.
  intros s lam u x a b Hs Hla Hu Hp Fx [C1 C2].
  assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  set (c := s * (lam * ln u)) in *.
  assert (Hc : c <= s * (lam * ln u) <= c) by (unfold c; lra).
  destruct (inner_interval prec emin Hprec0 choice lnf mu Hmu s lam u x
              (widen_lo eta (x + widen_lo M c)) (widen_hi eta (x + widen_hi M c)) c c
              Hs Hla Hu Hp Fx Hc (Rle_refl _) (Rle_refl _)) as [W1 W2].
  assert (Ia : a <= widen_lo eta (x + widen_lo M (inner_lo x a))) by (apply (inner_lo_ok prec mu Hmu); lra).
  assert (Ib : widen_hi eta (x + widen_hi M (inner_hi x b)) <= b) by (apply (inner_hi_ok prec mu Hmu); lra).
  assert (Sa : widen_lo eta (x + widen_lo M (inner_lo x a)) < widen_lo eta (x + widen_lo M c)).
  { apply (widen_strict false); [exact He|]. assert (widen_lo M (inner_lo x a) < widen_lo M c)
      by (apply (widen_strict false); assumption). lra. }
  assert (Sb : widen_hi eta (x + widen_hi M c) < widen_hi eta (x + widen_hi M (inner_hi x b))).
  { apply (widen_strict true); [exact He|]. assert (widen_hi M c < widen_hi M (inner_hi x b))
      by (apply (widen_strict true); assumption). lra. }
  lra.
Qed.

Theorem output_prob_lower_mass : forall lam x a b delta (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x -> (forall w, a < w < b -> P w) ->
  disp x a < delta -> disp x b < delta ->
  normal_min <= exp ((a - x + delta) / lam) -> normal_min <= exp ((x - b + delta) / lam) ->
  / 2 * narrowed_mass lam x a b delta (/ (1 - 2 * eta)) <= snap_output_prob lam x P.
Proof.
  intros lam x a b delta P [Hl Hok] Fx HP Ha Hb H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  destruct (ends_near x a) as (_ & _ & Lo & _). destruct (ends_near x b) as (_ & _ & _ & Hi).
  unfold snap_output_prob, narrowed_mass. rewrite Rmult_plus_distr_l.
  apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - apply Rle_trans with (pr (fun U => (a - x + delta) / lam <= ln (ustar prec emin U) <= (b - x - delta) / lam)).
    { apply (ustar_ln_lower_ulen prec emin Hprec pr Hpr). exact H1. }
    apply (uprob_mono pr Hpr). intros U HU [L1 L2]. destruct (Hok U HU) as [Hu Hp]. apply HP.
    apply mul_div_lam in L1; [|exact Hlam]. apply mul_div_lam_r in L2; [|exact Hlam].
    apply (inner_open 1 lam (ustar prec emin U) x a b (or_introl eq_refl) Hla Hu Hp Fx).
    rewrite Rmult_1_l. lra.
  - apply Rle_trans with (pr (fun U => (x - b + delta) / lam <= ln (ustar prec emin U) <= (x - a - delta) / lam)).
    { apply (ustar_ln_lower_ulen prec emin Hprec pr Hpr). exact H2. }
    apply (uprob_mono pr Hpr). intros U HU [L1 L2]. destruct (Hok U HU) as [Hu Hp]. apply HP.
    apply mul_div_lam in L1; [|exact Hlam]. apply mul_div_lam_r in L2; [|exact Hlam].
    apply (inner_open (-1) lam (ustar prec emin U) x a b (or_intror eq_refl) Hla Hu Hp Fx).
    lra.
Qed.

(** ** Step C, reduced to one inequality of ideal masses
    The moved and narrowed masses are the ideal snapping masses ([snap_mass],
    Noise/SnapBound.v, both signs) of the bucket with its ends e^(a/λ), e^(b/λ)
    moved out or in by E = e^(δ/λ)·k; the ideal ratio moves x to x′ at a factor
    e^(|x − x′|/λ).  [output_ratio_of_mass_bound] takes the comparison of the
    widened bucket's mass with the narrowed one's at one point as a premise;
    [snap_mass_widen] proves it with K = (E²β − α)/(β − E²α). *)

Lemma ulen_mono : forall a b a' b', a' <= a -> b <= b' -> ulen a b <= ulen a' b'.
Proof. intros a b a' b' Ha Hb. ulen_cases; lra. Qed.

Lemma div_k_le : forall p k, 0 < p -> 1 <= k -> p / k <= p.
Proof.
  intros p k Hp Hk. apply (Rmult_le_reg_r k); [lra|].
  replace (p / k * k) with p by (field; lra). nra.
Qed.

Lemma div_k_le' : forall p k, 0 < p -> 0 < k <= 1 -> p <= p / k.
Proof.
  intros p k Hp Hk. apply (Rmult_le_reg_r k); [lra|].
  replace (p / k * k) with p by (field; lra). nra.
Qed.

Lemma exp_div_lam : forall p q lam, 0 < lam -> exp ((p - q) / lam) = exp (p / lam) / exp (q / lam).
Proof.
  intros p q lam Hl. replace ((p - q) / lam) with (p / lam + - (q / lam)) by (field; lra).
  rewrite exp_plus, exp_Ropp. reflexivity.
Qed.

Lemma moved_le_snap_mass : forall lam x a b delta k, 0 < lam -> 1 <= k ->
  moved_mass lam x a b (- delta) delta k <=
    snap_mass (exp ((a - delta) / lam) / k) (exp ((b + delta) / lam) * k) (exp (x / lam)).
Proof.
  intros lam x a b delta k Hl Hk. unfold moved_mass, snap_mass.
  assert (Ex := exp_pos (x / lam)). assert (Ea := exp_pos ((a - delta) / lam)).
  assert (Eb := exp_pos ((b + delta) / lam)).
  replace ((a - x + - delta) / lam) with (((a - delta) - x) / lam) by (field; lra).
  replace ((b - x + delta) / lam) with (((b + delta) - x) / lam) by (field; lra).
  replace ((x - b + - delta) / lam) with ((x - (b + delta)) / lam) by (field; lra).
  replace ((x - a + delta) / lam) with ((x - (a - delta)) / lam) by (field; lra).
  rewrite (exp_div_lam (a - delta) x lam Hl), (exp_div_lam (b + delta) x lam Hl),
    (exp_div_lam x (b + delta) lam Hl), (exp_div_lam x (a - delta) lam Hl).
  apply Rplus_le_compat; apply ulen_mono.
  - replace (exp ((a - delta) / lam) / k / exp (x / lam)) with (exp ((a - delta) / lam) / exp (x / lam) / k)
      by (field; lra).
    apply div_k_le; [apply Rdiv_lt_0_compat; assumption|exact Hk].
  - right. field. lra.
  - replace (exp (x / lam) / (exp ((b + delta) / lam) * k)) with (exp (x / lam) / exp ((b + delta) / lam) / k)
      by (field; lra).
    apply div_k_le; [apply Rdiv_lt_0_compat; assumption|exact Hk].
  - right. field. lra.
Qed.

Lemma snap_mass_le_narrowed : forall lam x a b delta k, 0 < lam -> 1 <= k ->
  snap_mass (exp ((a + delta) / lam) * k) (exp ((b - delta) / lam) / k) (exp (x / lam)) <=
    narrowed_mass lam x a b delta k.
Proof.
  intros lam x a b delta k Hl Hk. unfold narrowed_mass, snap_mass.
  assert (Ex := exp_pos (x / lam)). assert (Ea := exp_pos ((a + delta) / lam)).
  assert (Eb := exp_pos ((b - delta) / lam)).
  replace ((a - x + delta) / lam) with (((a + delta) - x) / lam) by (field; lra).
  replace ((b - x - delta) / lam) with (((b - delta) - x) / lam) by (field; lra).
  replace ((x - b + delta) / lam) with ((x - (b - delta)) / lam) by (field; lra).
  replace ((x - a - delta) / lam) with ((x - (a + delta)) / lam) by (field; lra).
  rewrite (exp_div_lam (a + delta) x lam Hl), (exp_div_lam (b - delta) x lam Hl),
    (exp_div_lam x (b - delta) lam Hl), (exp_div_lam x (a + delta) lam Hl).
  apply Rplus_le_compat; apply ulen_mono.
  - right. field. lra.
  - replace (exp ((b - delta) / lam) / k / exp (x / lam)) with (exp ((b - delta) / lam) / exp (x / lam) / k)
      by (field; lra).
    apply div_k_le; [apply Rdiv_lt_0_compat; assumption|exact Hk].
  - right. field. lra.
  - replace (exp (x / lam) / (exp ((a + delta) / lam) * k)) with (exp (x / lam) / exp ((a + delta) / lam) / k)
      by (field; lra).
    apply div_k_le; [apply Rdiv_lt_0_compat; assumption|exact Hk].
Qed.

(** The ratio of an output's probabilities between x and x′, given the
    comparison (the last premise) of the ideal masses of the widened and the
    narrowed bucket at x′: the bound is |x − x′|/λ + ln K. *)
Theorem output_ratio_of_mass_bound : forall lam x x' a b delta K (P : R -> Prop),
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  (forall w, P w -> a <= w <= b) -> (forall w, a < w < b -> P w) -> a <= b -> 0 <= delta -> 0 <= K ->
  disp x a <= delta -> disp x b <= delta -> disp x' a < delta -> disp x' b < delta ->
  normal_min <= exp ((a - x - delta) / lam) -> normal_min <= exp ((x - b - delta) / lam) ->
  normal_min <= exp ((a - x' + delta) / lam) -> normal_min <= exp ((x' - b + delta) / lam) ->
  snap_mass (exp ((a - delta) / lam) / / (1 - 2 * eta)) (exp ((b + delta) / lam) * / (1 - 2 * eta)) (exp (x' / lam))
    <= K * snap_mass (exp ((a + delta) / lam) * / (1 - 2 * eta)) (exp ((b - delta) / lam) / / (1 - 2 * eta))
                     (exp (x' / lam)) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * K * snap_output_prob lam x' P.
Proof.
  intros lam x x' a b delta K P Hok Fx Fx' HP1 HP2 Hab Hd HK0 Ha Hb Ha' Hb' H1 H2 H3 H4 HK.
  assert (Hlam : 0 < lam) by (destruct Hok as [Hl _]; assert (Hn := normal_min_pos prec emin); lra).
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hk : 1 <= / (1 - 2 * eta)) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
  assert (U := output_prob_upper_mass lam x a b delta P Hok Fx HP1 Ha Hb H1 H2).
  assert (L := output_prob_lower_mass lam x' a b delta P Hok Fx' HP2 Ha' Hb' H3 H4).
  assert (M1 := moved_le_snap_mass lam x a b delta (/ (1 - 2 * eta)) Hlam Hk).
  assert (M2 := snap_mass_le_narrowed lam x' a b delta (/ (1 - 2 * eta)) Hlam Hk).
  set (al := exp ((a - delta) / lam) / / (1 - 2 * eta)) in *.
  set (be := exp ((b + delta) / lam) * / (1 - 2 * eta)) in *.
  assert (Hab' : 0 < al < be).
  { assert (E1 := exp_pos ((a - delta) / lam)).
    assert (E12 : exp ((a - delta) / lam) <= exp ((b + delta) / lam)).
    { apply exp_mono. unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hlam|lra]. }
    unfold al, be. unfold Rdiv. rewrite Rinv_inv. split; [apply Rmult_lt_0_compat; lra|].
    assert (exp ((a - delta) / lam) * (1 - 2 * eta) < exp ((a - delta) / lam))
      by (assert (0 < exp ((a - delta) / lam) * eta) by (apply Rmult_lt_0_compat; lra); lra).
    assert (exp ((b + delta) / lam) <= exp ((b + delta) / lam) * / (1 - 2 * eta))
      by (assert (exp ((b + delta) / lam) * 1 <= exp ((b + delta) / lam) * / (1 - 2 * eta))
            by (apply Rmult_le_compat_l; [left; apply exp_pos|exact Hk]); lra).
    lra. }
  assert (R := snap_mass_ratio al be (exp (x' / lam)) (exp (x / lam)) Hab' (exp_pos _) (exp_pos _)).
  assert (Hmax : Rmax (exp (x / lam) / exp (x' / lam)) (exp (x' / lam) / exp (x / lam)) = exp (Rabs (x - x') / lam)).
  { replace (x / lam) with (/ lam * x) by (unfold Rdiv; ring).
    replace (x' / lam) with (/ lam * x') by (unfold Rdiv; ring).
    rewrite (exp_ratio_max (/ lam) x' x) by (left; apply Rinv_0_lt_compat; exact Hlam).
    rewrite Rabs_minus_sym. unfold Rdiv. rewrite Rmult_comm. reflexivity. }
  rewrite Hmax in R.
  set (e := exp (Rabs (x - x') / lam)) in *. assert (He0 : 0 < e) by apply exp_pos.
  set (m1 := snap_mass al be (exp (x / lam))) in *.
  set (m1' := snap_mass al be (exp (x' / lam))) in *.
  set (m2 := snap_mass (exp ((a + delta) / lam) * / (1 - 2 * eta)) (exp ((b - delta) / lam) / / (1 - 2 * eta))
               (exp (x' / lam))) in *.
  set (pu := snap_output_prob lam x P) in *. set (pl := snap_output_prob lam x' P) in *.
  assert (S1 : e * m1' <= e * (K * m2)) by (apply Rmult_le_compat_l; lra).
  assert (S2 : e * K * m2 <= e * K * narrowed_mass lam x' a b delta (/ (1 - 2 * eta)))
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact M2]).
  assert (S3 : e * K * (/ 2 * narrowed_mass lam x' a b delta (/ (1 - 2 * eta))) <= e * K * pl)
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact L]).
  lra.
Qed.

(** ** The ratio for one output
    E = e^(δ/λ)/(1 − 2η) is how far (as a factor of u) the widenings and U*'s
    bracket move the bucket's ends; K = (E²β − α)/(β − E²α), α = e^(a/λ),
    β = e^(b/λ), is the exact ratio of the widened and narrowed ideal masses in
    the tails and bounds it everywhere ([snap_mass_widen]). *)
Definition ratio_E (lam delta : R) : R := exp (delta / lam) / (1 - 2 * eta).

Definition ratio_K (lam a b delta : R) : R :=
  (ratio_E lam delta * ratio_E lam delta * exp (b / lam) - exp (a / lam)) /
  (exp (b / lam) - ratio_E lam delta * ratio_E lam delta * exp (a / lam)).

Theorem output_ratio : forall lam x x' a b delta (P : R -> Prop),
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  (forall w, P w -> a <= w <= b) -> (forall w, a < w < b -> P w) -> a <= b -> 0 <= delta ->
  disp x a <= delta -> disp x b <= delta -> disp x' a < delta -> disp x' b < delta ->
  normal_min <= exp ((a - x - delta) / lam) -> normal_min <= exp ((x - b - delta) / lam) ->
  normal_min <= exp ((a - x' + delta) / lam) -> normal_min <= exp ((x' - b + delta) / lam) ->
  ratio_E lam delta * ratio_E lam delta * exp (a / lam) < exp (b / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * ratio_K lam a b delta * snap_output_prob lam x' P.
Proof.
  intros lam x x' a b delta P Hok Fx Fx' HP1 HP2 Hab Hd Ha Hb Ha' Hb' H1 H2 H3 H4 HE.
  assert (Hlam : 0 < lam) by (destruct Hok as [Hl _]; assert (Hn := normal_min_pos prec emin); lra).
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  set (E := ratio_E lam delta) in *.
  assert (HE1 : 1 <= E).
  { unfold E, ratio_E. assert (Hx : 1 <= exp (delta / lam)).
    { rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
    apply Rle_trans with (exp (delta / lam)); [exact Hx|]. apply div_k_le'; lra. }
  set (al := exp (a / lam)) in *. set (be := exp (b / lam)) in *.
  assert (Hal : 0 < al) by apply exp_pos. assert (Hbe : 0 < be) by apply exp_pos.
  assert (Hden : 0 < be - E * E * al) by lra.
  apply (output_ratio_of_mass_bound lam x x' a b delta); try assumption.
  - unfold ratio_K. fold E al be. apply Rlt_le, Rdiv_lt_0_compat; [|exact Hden].
    assert (HE2 : 1 <= E * E) by (assert (1 * 1 <= E * E) by (apply Rmult_le_compat; lra); lra).
    assert (be <= E * E * be) by (assert (1 * be <= E * E * be) by (apply Rmult_le_compat_r; lra); lra).
    assert (al <= E * E * al) by (assert (1 * al <= E * E * al) by (apply Rmult_le_compat_r; lra); lra). lra.
  - assert (Ex : exp (delta / lam) = E * (1 - 2 * eta)) by (unfold E, ratio_E; field; lra).
    replace (exp ((a - delta) / lam) / / (1 - 2 * eta)) with (al / E)
      by (rewrite exp_div_lam by exact Hlam; fold al; rewrite Ex; field; split; lra).
    replace (exp ((b + delta) / lam) * / (1 - 2 * eta)) with (be * E)
      by (replace ((b + delta) / lam) with (b / lam + delta / lam) by (field; lra); rewrite exp_plus; fold be;
          rewrite Ex; field; lra).
    replace (exp ((a + delta) / lam) * / (1 - 2 * eta)) with (al * E)
      by (replace ((a + delta) / lam) with (a / lam + delta / lam) by (field; lra); rewrite exp_plus; fold al;
          rewrite Ex; field; lra).
    replace (exp ((b - delta) / lam) / / (1 - 2 * eta)) with (be / E)
      by (rewrite exp_div_lam by exact Hlam; fold be; rewrite Ex; field; split; lra).
    unfold ratio_K. fold E al be.
    apply snap_mass_widen.
    + split; [apply Rdiv_lt_0_compat; lra|]. apply Rle_trans with al; [apply div_k_le; lra|nra].
    + apply (Rmult_lt_reg_r E); [lra|]. replace (be / E * E) with be by (field; lra). nra.
    + apply Rle_trans with be; [apply div_k_le; lra|nra].
    + apply exp_pos.
    + field. split; [lra|]. split; [lra|]. lra.
    + field. split; lra.
Qed.

(** An interior output kΛ of the float mechanism (exact rounding to the grid by
    the tie rule, clamp to [−B, B]): its bucket [(k − ½)Λ, (k + ½)Λ], half-open
    by the tie rule, lies between the open and the closed interval. *)
Theorem interior_ratio : forall t grid B k lam x x' delta,
  0 < grid -> - B < grid * IZR k < B ->
  pipeline_ok lam -> generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  0 <= delta ->
  disp x ((IZR k - / 2) * grid) <= delta -> disp x ((IZR k + / 2) * grid) <= delta ->
  disp x' ((IZR k - / 2) * grid) < delta -> disp x' ((IZR k + / 2) * grid) < delta ->
  normal_min <= exp (((IZR k - / 2) * grid - x - delta) / lam) ->
  normal_min <= exp ((x - (IZR k + / 2) * grid - delta) / lam) ->
  normal_min <= exp (((IZR k - / 2) * grid - x' + delta) / lam) ->
  normal_min <= exp ((x' - (IZR k + / 2) * grid + delta) / lam) ->
  ratio_E lam delta * ratio_E lam delta * exp ((IZR k - / 2) * grid / lam) < exp ((IZR k + / 2) * grid / lam) ->
  snap_output_prob lam x (fun w => float_snap t grid B w = grid * IZR k) <=
    exp (Rabs (x - x') / lam) * ratio_K lam ((IZR k - / 2) * grid) ((IZR k + / 2) * grid) delta *
    snap_output_prob lam x' (fun w => float_snap t grid B w = grid * IZR k).
Proof.
  intros t grid B k lam x x' delta Hg Hk Hok Fx Fx' Hd Ha Hb Ha' Hb' H1 H2 H3 H4 HE.
  apply output_ratio; try assumption.
  - intros w Hw. apply (float_snap_interior_iff t grid B k w Hg Hk) in Hw. destruct t; cbn in Hw; lra.
  - intros w Hw. apply (float_snap_interior_iff t grid B k w Hg Hk). destruct t; cbn; lra.
  - nra.
Qed.

End SnapRatio.
