(** * Binary snapping, its rounding errors charged where they fall
    The bound of SnapFloatDP.v ([float_snap_dp]) widens every bucket end by
    δ ≥ η|end| + M(|end − x| + η|end|), M = (1+η)²(1+mu) − 1, for both inputs.
    Two of those charges are not losses:
    - the sum's rounding (η|end|): w = fl(v) is in a bucket iff the unrounded
      sum v is between two thresholds that depend on the bucket only
      (SnapThreshold.v), the same for x and x′;
    - the rounding of λ (one η of M): for a float λ, fl(λ) = λ.
    What is left is the noise's own error, (1+η)(1+mu) − 1 ([tight_mu]): the
    product's rounding and the logarithm's, relative to λ·|ln u|, at most
    2B + Λ/2 (+ 2η(B + Λ/2) + 2^emin) from the input ([tight_D]).  With δ above
    tight_mu·tight_D, every output's ratio is at most e^(|x − x′|/λ)·K,
    K = (E²r − 1)/(r − E²), E = e^(δ/λ)/(1 − 2η), r = e^(W/λ), W = Λ − 2η(2B + Λ)
    − 2·2^emin the narrowest a bucket's thresholds can be ([float_snap_dp_tight]).
    In binary64 with a correctly rounded log this is about 17.3·η·B/λ at Λ = λ and
    10.5·η·B/λ at Λ = 2λ, against 30.3 and 18.4 (docs/snap_tight.md).
    The inputs x, x′ need not be floats: any reals in [−B, B].
    [float_snap_dp_tight_log] and [float_snap_dp_tight_correct] state it
    without [pipeline_ok]: from λ ≥ 2^(emin + 2·prec) and the logarithm's error
    on the floats of (0, 1) (or nothing, for the correctly rounded one). *)
From Coq Require Import ZArith Reals Lra Lia Classical_Prop.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Snapping Rounding Clamp SnapBound.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure SnapOutput SnapInterior
  SnapClamp SnapRatio SnapTailRatio SnapPipeline SnapThreshold.

Local Open Scope R_scope.

(** [(E²r − 1)/(r − E²)] decreases in r above E². *)
Lemma ratio_K_anti : forall F r r', 1 <= F -> F < r -> r <= r' -> (F * r' - 1) / (r' - F) <= (F * r - 1) / (r - F).
Proof.
  intros F r r' HF Hr Hrr. apply (Rmult_le_reg_r ((r' - F) * (r - F))); [nra|].
  replace ((F * r' - 1) / (r' - F) * ((r' - F) * (r - F))) with ((F * r' - 1) * (r - F)) by (field; lra).
  replace ((F * r - 1) / (r - F) * ((r' - F) * (r - F))) with ((F * r - 1) * (r' - F)) by (field; lra).
  assert (0 <= (r' - r) * (F * F - 1)) by (apply Rmult_le_pos; nra). nra.
Qed.

Lemma ratio_K_ge : forall F r, 1 <= F -> F < r -> F <= (F * r - 1) / (r - F).
Proof.
  intros F r HF Hr. apply (Rmult_le_reg_r (r - F)); [lra|].
  replace ((F * r - 1) / (r - F) * (r - F)) with (F * r - 1) by (field; lra). nra.
Qed.

Section SnapTight.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Hypothesis Hemin : (emin + prec <= 0)%Z.
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
Notation thr := (thr prec emin Hprec choice).
Notation thr_set := (thr_set prec emin choice).
Notation ratio_E := (ratio_E prec).

Let Hprec0 : (0 < prec)%Z.
Proof. lia. Qed.

(** The noise's relative error when λ is a float: the product's and the log's. *)
Definition tight_mu : R := (1 + eta) * (1 + mu) - 1.

Lemma tight_mu_nonneg : 0 <= tight_mu.
Proof. assert (He := eta_nonneg prec). unfold tight_mu. nra. Qed.

Lemma noise_rel_float : forall lam u, format lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) -> rel_within tight_mu (lam * ln u) (rnd (rnd lam * lnf u)).
Proof.
  intros lam u Fl Hu Hp.
  assert (Hl : rnd lam = lam) by (apply round_generic; [apply valid_rnd_N|exact Fl]).
  rewrite Hl in *.
  assert (H1 : rel_within mu (lam * ln u) (lam * lnf u)).
  { destruct Hu as (d & Hd & ->). exists d. split; [exact Hd|ring]. }
  assert (H2 : rel_within eta (lam * lnf u) (rnd (lam * lnf u))) by (apply rnd_rel_within; [exact Hprec0|exact Hp]).
  assert (H := rel_within_compose mu eta _ _ _ Hmu (eta_nonneg prec) H1 H2).
  unfold tight_mu. replace ((1 + eta) * (1 + mu)) with ((1 + mu) * (1 + eta)) by ring. exact H.
Qed.

Lemma noise_rel_signed : forall s lam u, s = 1 \/ s = -1 -> format lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  rel_within tight_mu (s * (lam * ln u)) (s * rnd (rnd lam * lnf u)).
Proof.
  intros s lam u Hs Fl Hu Hp. assert (Hn := noise_rel_float lam u Fl Hu Hp).
  destruct Hs as [-> | ->].
  - rewrite !Rmult_1_l. exact Hn.
  - replace (-1 * (lam * ln u)) with (- (lam * ln u)) by ring.
    replace (-1 * rnd (rnd lam * lnf u)) with (- rnd (rnd lam * lnf u)) by ring.
    apply rel_within_neg, Hn.
Qed.

(** ** The noise's interval for a sum in [A, B′] (outer) and the converse (inner, strict) *)
Lemma tight_outer : forall s lam u x A B', s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  A <= x + s * rnd (rnd lam * lnf u) <= B' ->
  widen_lo tight_mu (A - x) <= s * (lam * ln u) <= widen_hi tight_mu (B' - x).
Proof.
  intros s lam u x A B' Hs Fl Hu Hp Hv.
  assert (Hm := tight_mu_nonneg).
  assert (Hn := noise_rel_signed s lam u Hs Fl Hu Hp).
  assert (Hz : A - x <= s * rnd (rnd lam * lnf u) <= B' - x) by lra.
  exact (rel_within_widen tight_mu _ _ _ _ Hm Hz (rel_within_sym _ _ _ Hm Hn)).
Qed.

Lemma tight_outer_above : forall s lam u x A, s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  A <= x + s * rnd (rnd lam * lnf u) -> widen_lo tight_mu (A - x) <= s * (lam * ln u).
Proof.
  intros s lam u x A Hs Fl Hu Hp Hv.
  set (v := x + s * rnd (rnd lam * lnf u)) in *.
  assert (Hab : A <= x + s * rnd (rnd lam * lnf u) <= Rmax v A) by (split; [exact Hv|apply Rmax_l]).
  exact (proj1 (tight_outer s lam u x A (Rmax v A) Hs Fl Hu Hp Hab)).
Qed.

Lemma tight_outer_below : forall s lam u x B', s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  x + s * rnd (rnd lam * lnf u) <= B' -> s * (lam * ln u) <= widen_hi tight_mu (B' - x).
Proof.
  intros s lam u x B' Hs Fl Hu Hp Hv.
  set (v := x + s * rnd (rnd lam * lnf u)) in *.
  assert (Hab : Rmin v B' <= x + s * rnd (rnd lam * lnf u) <= B') by (split; [apply Rmin_l|exact Hv]).
  exact (proj2 (tight_outer s lam u x (Rmin v B') B' Hs Fl Hu Hp Hab)).
Qed.

Lemma tight_inner_lo : forall s lam u x A, s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  widen_hi tight_mu (A - x) < s * (lam * ln u) -> A < x + s * rnd (rnd lam * lnf u).
Proof.
  intros s lam u x A Hs Fl Hu Hp H.
  assert (Hm := tight_mu_nonneg).
  assert (Hn := noise_rel_signed s lam u Hs Fl Hu Hp).
  set (c := s * (lam * ln u)) in *.
  assert (Hc : c <= c <= c) by lra.
  destruct (rel_within_widen tight_mu c c _ _ Hm Hc Hn) as [W1 _].
  assert (I1 : A - x <= widen_lo tight_mu (widen_hi tight_mu (A - x))) by (apply widen_lo_ge_of; lra).
  assert (I2 := widen_strict false tight_mu _ _ Hm H). cbn [widen] in I2. lra.
Qed.

Lemma tight_inner_hi : forall s lam u x B', s = 1 \/ s = -1 -> format lam ->
  rel_within mu (ln u) (lnf u) -> normal_min <= Rabs (rnd lam * lnf u) ->
  s * (lam * ln u) < widen_lo tight_mu (B' - x) -> x + s * rnd (rnd lam * lnf u) < B'.
Proof.
  intros s lam u x B' Hs Fl Hu Hp H.
  assert (Hm := tight_mu_nonneg).
  assert (Hn := noise_rel_signed s lam u Hs Fl Hu Hp).
  set (c := s * (lam * ln u)) in *.
  assert (Hc : c <= c <= c) by lra.
  destruct (rel_within_widen tight_mu c c _ _ Hm Hc Hn) as [_ W2].
  assert (I1 : widen_hi tight_mu (widen_lo tight_mu (B' - x)) <= B' - x) by (apply widen_hi_le_of; lra).
  assert (I2 := widen_strict true tight_mu _ _ Hm H). cbn [widen] in I2. lra.
Qed.

Lemma tight_lo_near : forall v delta, tight_mu * Rabs v <= delta -> v - delta <= widen_lo tight_mu v.
Proof. intros v delta H. assert (W := widen_near false tight_mu v tight_mu_nonneg). cbn [widen] in W. apply Rabs_le_inv in W. lra. Qed.

Lemma tight_hi_near : forall v delta, tight_mu * Rabs v <= delta -> widen_hi tight_mu v <= v + delta.
Proof. intros v delta H. assert (W := widen_near true tight_mu v tight_mu_nonneg). cbn [widen] in W. apply Rabs_le_inv in W. lra. Qed.

Lemma snap_prob_nonneg : forall lam x P, 0 <= snap_output_prob lam x P.
Proof.
  intros lam x P. unfold SnapOutput.snap_output_prob.
  assert (Z : forall Q : R -> Prop, 0 <= pr Q).
  { intros Q. rewrite <- (uprob_len pr Hpr (fun _ => False) 0 (umeasure_empty _ (fun _ _ H => H))).
    apply (uprob_mono pr Hpr). intros U _ []. }
  assert (Z1 := Z (fun U => P (SnapOutput.snap_sum prec emin choice lnf lam x 1 U))).
  assert (Z2 := Z (fun U => P (SnapOutput.snap_sum prec emin choice lnf lam x (-1) U))). lra.
Qed.

(** ** One output, an interval [A, B′] of the unrounded sum *)
Theorem tight_prob_upper : forall lam x A B' delta (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v <= B') ->
  tight_mu * Rabs (A - x) <= delta -> tight_mu * Rabs (B' - x) <= delta ->
  normal_min <= exp ((A - x - delta) / lam) -> normal_min <= exp ((x - B' - delta) / lam) ->
  snap_output_prob lam x P <= / 2 * moved_mass lam x A B' (- delta) delta (/ (1 - 2 * eta)).
Proof.
  intros lam x A B' delta P [Hl Hok] Fl HP Ha Hb H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Lo := tight_lo_near (A - x) delta Ha). assert (Hi := tight_hi_near (B' - x) delta Hb).
  unfold SnapOutput.snap_output_prob, moved_mass. rewrite Rmult_plus_distr_l.
  apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - apply Rle_trans with (pr (fun U => (A - x + - delta) / lam <= ln (ustar prec emin U) <= (B' - x + delta) / lam)).
    2: { apply (ustar_ln_upper_ulen prec emin Hprec pr Hpr).
         replace ((A - x + - delta) / lam) with ((A - x - delta) / lam) by (field; lra). exact H1. }
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum in HPU. apply HP in HPU.
    destruct (tight_outer 1 lam (ustar prec emin U) x A B' (or_introl eq_refl) Fl Hu Hp HPU) as [O1 O2].
    rewrite Rmult_1_l in O1, O2.
    split; [apply div_lam_le|apply le_div_lam]; try exact Hlam; lra.
  - apply Rle_trans with (pr (fun U => (x - B' + - delta) / lam <= ln (ustar prec emin U) <= (x - A + delta) / lam)).
    2: { apply (ustar_ln_upper_ulen prec emin Hprec pr Hpr).
         replace ((x - B' + - delta) / lam) with ((x - B' - delta) / lam) by (field; lra). exact H2. }
    apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum in HPU. apply HP in HPU.
    destruct (tight_outer (-1) lam (ustar prec emin U) x A B' (or_intror eq_refl) Fl Hu Hp HPU) as [O1 O2].
    split; [apply div_lam_le|apply le_div_lam]; try exact Hlam; lra.
Qed.

Theorem tight_prob_lower : forall lam x A B' delta (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, A < v < B' -> P (rnd v)) ->
  tight_mu * Rabs (A - x) < delta -> tight_mu * Rabs (B' - x) < delta ->
  normal_min <= exp ((A - x + delta) / lam) -> normal_min <= exp ((x - B' + delta) / lam) ->
  / 2 * narrowed_mass lam x A B' delta (/ (1 - 2 * eta)) <= snap_output_prob lam x P.
Proof.
  intros lam x A B' delta P [Hl Hok] Fl HP Ha Hb H1 H2.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (Hm := tight_mu_nonneg).
  assert (Lo : widen_hi tight_mu (A - x) < A - x + delta).
  { assert (W := widen_near true tight_mu (A - x) Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
  assert (Hi : B' - x - delta < widen_lo tight_mu (B' - x)).
  { assert (W := widen_near false tight_mu (B' - x) Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
  unfold SnapOutput.snap_output_prob, narrowed_mass. rewrite Rmult_plus_distr_l.
  apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
  - apply Rle_trans with (pr (fun U => (A - x + delta) / lam <= ln (ustar prec emin U) <= (B' - x - delta) / lam)).
    { apply (ustar_ln_lower_ulen prec emin Hprec pr Hpr). exact H1. }
    apply (uprob_mono pr Hpr). intros U HU [L1 L2]. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum. apply HP.
    apply mul_div_lam in L1; [|exact Hlam]. apply mul_div_lam_r in L2; [|exact Hlam].
    split.
    + apply (tight_inner_lo 1 lam (ustar prec emin U) x A (or_introl eq_refl) Fl Hu Hp). lra.
    + apply (tight_inner_hi 1 lam (ustar prec emin U) x B' (or_introl eq_refl) Fl Hu Hp). lra.
  - apply Rle_trans with (pr (fun U => (x - B' + delta) / lam <= ln (ustar prec emin U) <= (x - A - delta) / lam)).
    { apply (ustar_ln_lower_ulen prec emin Hprec pr Hpr). exact H2. }
    apply (uprob_mono pr Hpr). intros U HU [L1 L2]. destruct (Hok U HU) as [Hu Hp].
    unfold SnapOutput.snap_sum. apply HP.
    apply mul_div_lam in L1; [|exact Hlam]. apply mul_div_lam_r in L2; [|exact Hlam].
    split.
    + apply (tight_inner_lo (-1) lam (ustar prec emin U) x A (or_intror eq_refl) Fl Hu Hp). lra.
    + apply (tight_inner_hi (-1) lam (ustar prec emin U) x B' (or_intror eq_refl) Fl Hu Hp). lra.
Qed.

(** The ratio for an interval [A, B′] of the sum (SnapRatio.v's [output_ratio]
    with the sum's rounding out of the displacements). *)
Theorem tight_ratio : forall lam x x' A B' delta (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v <= B') -> (forall v, A < v < B' -> P (rnd v)) -> A <= B' -> 0 <= delta ->
  tight_mu * Rabs (A - x) <= delta -> tight_mu * Rabs (B' - x) <= delta ->
  tight_mu * Rabs (A - x') < delta -> tight_mu * Rabs (B' - x') < delta ->
  normal_min <= exp ((A - x - delta) / lam) -> normal_min <= exp ((x - B' - delta) / lam) ->
  normal_min <= exp ((A - x' + delta) / lam) -> normal_min <= exp ((x' - B' + delta) / lam) ->
  ratio_E lam delta * ratio_E lam delta * exp (A / lam) < exp (B' / lam) ->
  snap_output_prob lam x P <= exp (Rabs (x - x') / lam) * ratio_K prec lam A B' delta * snap_output_prob lam x' P.
Proof.
  intros lam x x' A B' delta P Hok Fl HP1 HP2 Hab Hd Ha Hb Ha' Hb' H1 H2 H3 H4 HE.
  assert (Hlam : 0 < lam) by (destruct Hok as [Hl _]; assert (Hn := normal_min_pos prec emin); lra).
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hk : 1 <= / (1 - 2 * eta)) by (rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
  assert (U := tight_prob_upper lam x A B' delta P Hok Fl HP1 Ha Hb H1 H2).
  assert (L := tight_prob_lower lam x' A B' delta P Hok Fl HP2 Ha' Hb' H3 H4).
  assert (M1 := moved_le_snap_mass lam x A B' delta (/ (1 - 2 * eta)) Hlam Hk).
  assert (M2 := snap_mass_le_narrowed lam x' A B' delta (/ (1 - 2 * eta)) Hlam Hk).
  set (E := ratio_E lam delta) in *.
  assert (HE1 : 1 <= E).
  { unfold E, SnapRatio.ratio_E. assert (Hx : 1 <= exp (delta / lam)).
    { rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
    apply Rle_trans with (exp (delta / lam)); [exact Hx|]. apply div_k_le'; lra. }
  set (al := exp (A / lam)) in *. set (be := exp (B' / lam)) in *.
  assert (Hal : 0 < al) by apply exp_pos. assert (Hbe : 0 < be) by apply exp_pos.
  assert (Hden : 0 < be - E * E * al) by lra.
  assert (Ex : exp (delta / lam) = E * (1 - 2 * eta)) by (unfold E, SnapRatio.ratio_E; field; lra).
  assert (X1 : exp ((A - delta) / lam) / / (1 - 2 * eta) = al / E)
    by (rewrite exp_div_lam by exact Hlam; fold al; rewrite Ex; field; split; lra).
  assert (X2 : exp ((B' + delta) / lam) * / (1 - 2 * eta) = be * E)
    by (replace ((B' + delta) / lam) with (B' / lam + delta / lam) by (field; lra); rewrite exp_plus; fold be;
        rewrite Ex; field; lra).
  assert (X3 : exp ((A + delta) / lam) * / (1 - 2 * eta) = al * E)
    by (replace ((A + delta) / lam) with (A / lam + delta / lam) by (field; lra); rewrite exp_plus; fold al;
        rewrite Ex; field; lra).
  assert (X4 : exp ((B' - delta) / lam) / / (1 - 2 * eta) = be / E)
    by (rewrite exp_div_lam by exact Hlam; fold be; rewrite Ex; field; split; lra).
  rewrite X1, X2 in M1. rewrite X3, X4 in M2.
  set (K := ratio_K prec lam A B' delta).
  assert (HK : K = (E * E * be - al) / (be - E * E * al)) by reflexivity.
  assert (HK0 : 0 <= K).
  { rewrite HK. apply Rlt_le, Rdiv_lt_0_compat; [|exact Hden].
    assert (HE2 : 1 <= E * E) by (assert (1 * 1 <= E * E) by (apply Rmult_le_compat; lra); lra).
    assert (be <= E * E * be) by (assert (1 * be <= E * E * be) by (apply Rmult_le_compat_r; lra); lra).
    assert (al <= E * E * al) by (assert (1 * al <= E * E * al) by (apply Rmult_le_compat_r; lra); lra).
    lra. }
  (* the widened and narrowed ideal masses at x′ *)
  assert (HE2 : 1 <= E * E) by (assert (1 * 1 <= E * E) by (apply Rmult_le_compat; lra); lra).
  assert (Hal1 : al <= al * E) by (assert (al * 1 <= al * E) by (apply Rmult_le_compat_l; lra); lra).
  assert (Hal2 : al * E <= E * E * al).
  { assert (0 <= al * E) by (apply Rmult_le_pos; lra).
    assert (1 * (al * E) <= E * (al * E)) by (apply Rmult_le_compat_r; lra). lra. }
  assert (Hbe1 : be <= be * E) by (assert (be * 1 <= be * E) by (apply Rmult_le_compat_l; lra); lra).
  assert (W : snap_mass (al / E) (be * E) (exp (x' / lam)) <= K * snap_mass (al * E) (be / E) (exp (x' / lam))).
  { rewrite HK. apply snap_mass_widen.
    + split; [apply Rdiv_lt_0_compat; lra|]. apply Rle_trans with al; [apply div_k_le; lra|lra].
    + apply (Rmult_lt_reg_r E); [lra|]. replace (be / E * E) with be by (field; lra).
      replace (al * E * E) with (E * E * al) by ring. lra.
    + apply Rle_trans with be; [apply div_k_le; lra|lra].
    + apply exp_pos.
    + field. split; [lra|]. split; [lra|]. lra.
    + field. split; lra. }
  assert (Hab' : 0 < al / E < be * E).
  { split; [apply Rdiv_lt_0_compat; lra|]. apply Rle_lt_trans with al; [apply div_k_le; lra|]. lra. }
  assert (R := snap_mass_ratio (al / E) (be * E) (exp (x' / lam)) (exp (x / lam)) Hab' (exp_pos _) (exp_pos _)).
  assert (Hmax : Rmax (exp (x / lam) / exp (x' / lam)) (exp (x' / lam) / exp (x / lam)) = exp (Rabs (x - x') / lam)).
  { replace (x / lam) with (/ lam * x) by (unfold Rdiv; ring).
    replace (x' / lam) with (/ lam * x') by (unfold Rdiv; ring).
    rewrite (exp_ratio_max (/ lam) x' x) by (left; apply Rinv_0_lt_compat; exact Hlam).
    rewrite Rabs_minus_sym. unfold Rdiv. rewrite Rmult_comm. reflexivity. }
  rewrite Hmax in R.
  set (e := exp (Rabs (x - x') / lam)) in *. assert (He0 : 0 < e) by apply exp_pos.
  set (m1 := snap_mass (al / E) (be * E) (exp (x / lam))) in *.
  set (m1' := snap_mass (al / E) (be * E) (exp (x' / lam))) in *.
  set (m2 := snap_mass (al * E) (be / E) (exp (x' / lam))) in *.
  set (pu := snap_output_prob lam x P) in *. set (pl := snap_output_prob lam x' P) in *.
  assert (S1 : e * m1' <= e * (K * m2)) by (apply Rmult_le_compat_l; lra).
  assert (S2 : e * K * m2 <= e * K * narrowed_mass lam x' A B' delta (/ (1 - 2 * eta)))
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact M2]).
  assert (S3 : e * K * (/ 2 * narrowed_mass lam x' A B' delta (/ (1 - 2 * eta))) <= e * K * pl)
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact L]).
  lra.
Qed.

(** ** The clamped outputs: P ⊆ [A, ∞) and (A, ∞) ⊆ P, and the mirror *)
Theorem tight_top_ratio : forall lam x x' A delta (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> A <= v) -> (forall v, A < v -> P (rnd v)) -> 0 <= delta ->
  tight_mu * Rabs (A - x) <= delta -> tight_mu * Rabs (A - x') < delta ->
  normal_min <= exp ((A - x - delta) / lam) -> normal_min <= exp ((x - A + delta) / lam) ->
  normal_min <= exp ((A - x' + delta) / lam) -> normal_min <= exp ((x' - A - delta) / lam) ->
  snap_output_prob lam x P <=
    exp (Rabs (x - x') / lam) * (ratio_E lam delta * ratio_E lam delta) * snap_output_prob lam x' P.
Proof.
  intros lam x x' a delta P Hok Fl HP1 HP2 Hd Ha Ha' H1 H2 H3 H4.
  destruct Hok as [Hl Hok].
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hm := tight_mu_nonneg).
  assert (Hk0 : 0 < 1 - 2 * eta) by lra.
  set (D := exp (delta / lam)).
  assert (HD : 1 <= D).
  { unfold D. rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  set (E := ratio_E lam delta).
  assert (HE : E = D / (1 - 2 * eta)) by reflexivity.
  assert (HDE : D <= E) by (rewrite HE; apply div_k_le'; lra).
  set (g := exp (a / lam)). set (t := exp (x / lam)). set (t' := exp (x' / lam)).
  assert (Hg : 0 < g) by apply exp_pos. assert (Ht : 0 < t) by apply exp_pos. assert (Ht' : 0 < t') by apply exp_pos.
  assert (Lo := tight_lo_near (a - x) delta Ha).
  assert (Li : widen_hi tight_mu (a - x') < a - x' + delta).
  { assert (W := widen_near true tight_mu (a - x') Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
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
  assert (Up : snap_output_prob lam x P <= / 2 * tail_mass SPlus (g / E) t).
  { unfold SnapOutput.snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => (a - x - delta) / lam <= ln (ustar prec emin U))).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_above 1 lam (ustar prec emin U) x a (or_introl eq_refl) Fl Hu Hp HPU).
        rewrite Rmult_1_l in O. apply div_lam_le; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr); exact H1|].
        rewrite X1. apply ulen_from_anti.
        replace (g / E / t) with (g / (t * D) * (1 - 2 * eta)) by (rewrite HE; field; split; lra).
        assert (0 < g / (t * D)) by (apply Rdiv_lt_0_compat; [|apply Rmult_lt_0_compat]; lra).
        assert (0 <= g / (t * D) * eta) by (apply Rmult_le_pos; lra). lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (x - a + delta) / lam)).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_above (-1) lam (ustar prec emin U) x a (or_intror eq_refl) Fl Hu Hp HPU).
        apply le_div_lam; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr); exact H2|].
        rewrite X2. right. f_equal. rewrite HE. field. split; lra. }
  assert (Lw : / 2 * tail_mass SPlus (g * E) t' <= snap_output_prob lam x' P).
  { unfold SnapOutput.snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => (a - x' + delta) / lam <= ln (ustar prec emin U))).
      + eapply Rle_trans; [|apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr); exact H3].
        rewrite X3. right. f_equal. rewrite HE. field. split; lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_lo 1 lam (ustar prec emin U) x' a (or_introl eq_refl) Fl Hu Hp).
        apply mul_div_lam in HL; [|exact Hlam]. lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (x' - a - delta) / lam)).
      + eapply Rle_trans; [|apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr); exact H4].
        rewrite X4. apply ulen_to_mono.
        apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; [apply Rmult_lt_0_compat|apply Rmult_le_compat_l]; lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_lo (-1) lam (ustar prec emin U) x' a (or_intror eq_refl) Fl Hu Hp).
        apply mul_div_lam_r in HL; [|exact Hlam]. lra. }
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

Theorem tight_bottom_ratio : forall lam x x' B' delta (P : R -> Prop), pipeline_ok lam -> format lam ->
  (forall v, P (rnd v) -> v <= B') -> (forall v, v < B' -> P (rnd v)) -> 0 <= delta ->
  tight_mu * Rabs (B' - x) <= delta -> tight_mu * Rabs (B' - x') < delta ->
  normal_min <= exp ((B' - x + delta) / lam) -> normal_min <= exp ((x - B' - delta) / lam) ->
  normal_min <= exp ((B' - x' - delta) / lam) -> normal_min <= exp ((x' - B' + delta) / lam) ->
  snap_output_prob lam x P <=
    exp (Rabs (x - x') / lam) * (ratio_E lam delta * ratio_E lam delta) * snap_output_prob lam x' P.
Proof.
  intros lam x x' b delta P Hok Fl HP1 HP2 Hd Hb Hb' H1 H2 H3 H4.
  destruct Hok as [Hl Hok].
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hm := tight_mu_nonneg).
  assert (Hk0 : 0 < 1 - 2 * eta) by lra.
  set (D := exp (delta / lam)).
  assert (HD : 1 <= D).
  { unfold D. rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  set (E := ratio_E lam delta).
  assert (HE : E = D / (1 - 2 * eta)) by reflexivity.
  assert (HDE : D <= E) by (rewrite HE; apply div_k_le'; lra).
  set (g := exp (b / lam)). set (t := exp (x / lam)). set (t' := exp (x' / lam)).
  assert (Hg : 0 < g) by apply exp_pos. assert (Ht : 0 < t) by apply exp_pos. assert (Ht' : 0 < t') by apply exp_pos.
  assert (Hi := tight_hi_near (b - x) delta Hb).
  assert (Ii : b - x' - delta < widen_lo tight_mu (b - x')).
  { assert (W := widen_near false tight_mu (b - x') Hm). cbn [widen] in W. apply Rabs_le_inv in W. lra. }
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
  { unfold SnapOutput.snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (b - x + delta) / lam)).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_below 1 lam (ustar prec emin U) x b (or_introl eq_refl) Fl Hu Hp HPU).
        rewrite Rmult_1_l in O. apply le_div_lam; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_below_upper_ulen prec emin Hprec pr Hpr); exact H1|].
        rewrite X1. right. f_equal. rewrite HE. field. split; lra.
    - apply Rle_trans with (pr (fun U => (x - b - delta) / lam <= ln (ustar prec emin U))).
      + apply (uprob_mono pr Hpr). intros U HU HPU. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum in HPU. apply HP1 in HPU.
        assert (O := tight_outer_below (-1) lam (ustar prec emin U) x b (or_intror eq_refl) Fl Hu Hp HPU).
        apply div_lam_le; [exact Hlam|]. lra.
      + eapply Rle_trans; [apply (ustar_ln_above_upper_ulen prec emin Hprec pr Hpr); exact H2|].
        rewrite X2. apply ulen_from_anti.
        apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; [apply Rmult_lt_0_compat|apply Rmult_le_compat_l]; lra. }
  assert (Lw : / 2 * tail_mass SMinus (g / E) t' <= snap_output_prob lam x' P).
  { unfold SnapOutput.snap_output_prob. cbn [tail_mass]. rewrite Rmult_plus_distr_l.
    apply Rplus_le_compat; apply Rmult_le_compat_l; try lra.
    - apply Rle_trans with (pr (fun U => ln (ustar prec emin U) <= (b - x' - delta) / lam)).
      + eapply Rle_trans; [|apply (ustar_ln_below_lower_ulen prec emin Hprec pr Hpr); exact H3].
        rewrite X3. apply ulen_to_mono.
        replace (g / E / t') with (g / (t' * D) * (1 - 2 * eta)) by (rewrite HE; field; split; lra).
        assert (0 < g / (t' * D)) by (apply Rdiv_lt_0_compat; [|apply Rmult_lt_0_compat]; lra).
        assert (0 <= g / (t' * D) * eta) by (apply Rmult_le_pos; lra). lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_hi 1 lam (ustar prec emin U) x' b (or_introl eq_refl) Fl Hu Hp).
        apply mul_div_lam_r in HL; [|exact Hlam]. lra.
    - apply Rle_trans with (pr (fun U => (x' - b + delta) / lam <= ln (ustar prec emin U))).
      + eapply Rle_trans; [|apply (ustar_ln_above_lower_ulen prec emin Hprec pr Hpr); exact H4].
        rewrite X4. right. f_equal. rewrite HE. field. split; lra.
      + apply (uprob_mono pr Hpr). intros U HU HL. destruct (Hok U HU) as [Hu Hp].
        unfold SnapOutput.snap_sum. apply HP2.
        apply (tight_inner_hi (-1) lam (ustar prec emin U) x' b (or_intror eq_refl) Fl Hu Hp).
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

(** ** The mechanism: every output *)

(** The farthest a bucket's threshold can be from an input in [−B, B], and the
    narrowest the thresholds of one bucket can be. *)
Definition tight_D (grid B : R) : R := 2 * B + grid / 2 + 2 * eta * (B + grid / 2) + bpow radix2 emin.
Definition tight_W (grid B : R) : R := grid - 2 * eta * (2 * B + grid) - 2 * bpow radix2 emin.

Definition tight_K (lam grid B delta : R) : R :=
  (ratio_E lam delta * ratio_E lam delta * exp (tight_W grid B / lam) - 1) /
  (exp (tight_W grid B / lam) - ratio_E lam delta * ratio_E lam delta).

Variables (t : tie) (grid B : R) (g : Z) (lam delta : R).
Hypothesis Hgrid : 0 < grid.
Hypothesis HB : 0 < B.
Hypothesis Hg : (IZR g - 1) * grid < B <= IZR g * grid.
Hypothesis Hok : pipeline_ok lam.
Hypothesis Hfl : format lam.
Hypothesis Hd0 : 0 <= delta.
(** δ exceeds the noise's displacement of every threshold, from every input. *)
Hypothesis Hdisp : tight_mu * tight_D grid B < delta.
(** Every interval of ln u stays above ln of the smallest normal. *)
Hypothesis Hrange : normal_min <= exp (- (tight_D grid B + delta) / lam).
(** The narrowest bucket stays wider than the widenings. *)
Hypothesis HE : ratio_E lam delta * ratio_E lam delta < exp (tight_W grid B / lam).

Let Hlam : 0 < lam.
Proof. destruct Hok as [Hl _]. assert (Hn := normal_min_pos prec emin). lra. Qed.

Let He : 0 < eta.
Proof. exact (eta_pos prec). Qed.

Let Hb0 : 0 < bpow radix2 emin.
Proof. apply bpow_gt_0. Qed.

Let HE1 : 1 <= ratio_E lam delta.
Proof.
  unfold SnapRatio.ratio_E. assert (Hs := eta_small prec Hprec).
  assert (Hx : 1 <= exp (delta / lam)).
  { rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  apply Rle_trans with (exp (delta / lam)); [exact Hx|]. apply div_k_le'; lra.
Qed.

(** A threshold of an edge within B + Λ/2 of 0 is within [tight_D] of every input. *)
Lemma thr_dist : forall e x, Rabs e <= B + grid / 2 -> Rabs x <= B -> Rabs (thr t e - x) <= tight_D grid B.
Proof.
  intros e x He' Hx. assert (Hn := thr_near prec emin Hprec choice t e).
  unfold tight_D. replace (thr t e - x) with ((thr t e - e) + (e - x)) by ring.
  eapply Rle_trans; [apply Rabs_triang|].
  assert (Hex : Rabs (e - x) <= Rabs e + Rabs x).
  { unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp. lra. }
  assert (2 * eta * Rabs e <= 2 * eta * (B + grid / 2)) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

Lemma disp_ok : forall e x, Rabs e <= B + grid / 2 -> Rabs x <= B -> tight_mu * Rabs (thr t e - x) < delta.
Proof.
  intros e x He' Hx. assert (H := thr_dist e x He' Hx). assert (Hm := tight_mu_nonneg).
  assert (tight_mu * Rabs (thr t e - x) <= tight_mu * tight_D grid B) by (apply Rmult_le_compat_l; lra). lra.
Qed.

Lemma range_ok : forall v, - (tight_D grid B + delta) <= v -> normal_min <= exp (v / lam).
Proof.
  intros v Hv. apply Rle_trans with (exp (- (tight_D grid B + delta) / lam)); [exact Hrange|].
  apply exp_mono. unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hlam|exact Hv].
Qed.

Lemma dist_lo : forall e x, Rabs e <= B + grid / 2 -> Rabs x <= B -> - tight_D grid B <= thr t e - x.
Proof. intros e x He' Hx. assert (H := thr_dist e x He' Hx). apply Rabs_le_inv in H. lra. Qed.

Lemma dist_hi : forall e x, Rabs e <= B + grid / 2 -> Rabs x <= B -> - tight_D grid B <= x - thr t e.
Proof. intros e x He' Hx. assert (H := thr_dist e x He' Hx). apply Rabs_le_inv in H. lra. Qed.

Lemma tight_K_ge_E2 : ratio_E lam delta * ratio_E lam delta <= tight_K lam grid B delta.
Proof. unfold tight_K. apply ratio_K_ge; [nra|exact HE]. Qed.

Lemma top_edge : Rabs ((IZR g - / 2) * grid) <= B + grid / 2.
Proof. apply Rabs_le. split; nra. Qed.

Lemma bottom_edge : Rabs ((- IZR g + / 2) * grid) <= B + grid / 2.
Proof. apply Rabs_le. split; nra. Qed.

Theorem float_snap_dp_tight : forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * tight_K lam grid B delta * snap_output_prob lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros x x' out Hx Hx'.
  assert (Hex := exp_pos (Rabs (x - x') / lam)).
  assert (HK := tight_K_ge_E2).
  assert (Hpx' := snap_prob_nonneg lam x' (fun w => float_snap t grid B w = out)).
  assert (Hm := tight_mu_nonneg).
  destruct (Req_dec out B) as [->|NB].
  { set (e := (IZR g - / 2) * grid). assert (He' : Rabs e <= B + grid / 2) by exact top_edge.
    eapply Rle_trans.
    - apply (tight_top_ratio lam x x' (thr t e) delta); try assumption.
      + intros v Hv. apply (float_snap_top_event t grid B g (rnd v) Hgrid HB Hg) in Hv.
        exact (proj1 (top_thr prec emin Hprec choice t e v) Hv).
      + intros v Hv. apply (float_snap_top_event t grid B g (rnd v) Hgrid HB Hg).
        exact (proj2 (top_thr prec emin Hprec choice t e v) Hv).
      + left. apply disp_ok; assumption.
      + apply disp_ok; assumption.
      + apply range_ok. assert (H := dist_lo e x He' Hx). lra.
      + apply range_ok. assert (H := dist_hi e x He' Hx). lra.
      + apply range_ok. assert (H := dist_lo e x' He' Hx'). lra.
      + apply range_ok. assert (H := dist_hi e x' He' Hx'). lra.
    - apply Rmult_le_compat_r; [exact Hpx'|]. apply Rmult_le_compat_l; lra. }
  destruct (Req_dec out (- B)) as [->|NmB].
  { set (e := (- IZR g + / 2) * grid). assert (He' : Rabs e <= B + grid / 2) by exact bottom_edge.
    eapply Rle_trans.
    - apply (tight_bottom_ratio lam x x' (thr t e) delta); try assumption.
      + intros v Hv. apply (float_snap_bottom_event prec emin choice t grid B g v Hgrid HB Hg) in Hv.
        exact (proj1 (bottom_thr prec emin Hprec choice t e v) Hv).
      + intros v Hv. apply (float_snap_bottom_event prec emin choice t grid B g v Hgrid HB Hg).
        exact (proj2 (bottom_thr prec emin Hprec choice t e v) Hv).
      + left. apply disp_ok; assumption.
      + apply disp_ok; assumption.
      + apply range_ok. assert (H := dist_lo e x He' Hx). lra.
      + apply range_ok. assert (H := dist_hi e x He' Hx). lra.
      + apply range_ok. assert (H := dist_lo e x' He' Hx'). lra.
      + apply range_ok. assert (H := dist_hi e x' He' Hx'). lra.
    - apply Rmult_le_compat_r; [exact Hpx'|]. apply Rmult_le_compat_l; lra. }
  destruct (classic (exists k, out = grid * IZR k /\ - B < grid * IZR k < B)) as [[k [-> Hk]]|Hno].
  { set (e1 := (IZR k - / 2) * grid). set (e2 := (IZR k + / 2) * grid).
    assert (He1 : Rabs e1 <= B + grid / 2) by (unfold e1; apply Rabs_le; split; lra).
    assert (He2 : Rabs e2 <= B + grid / 2) by (unfold e2; apply Rabs_le; split; lra).
    set (A := thr t e1). set (B' := thr t e2).
    (* the thresholds are at least W apart *)
    assert (HW : tight_W grid B <= B' - A).
    { assert (N1 := thr_near prec emin Hprec choice t e1). assert (N2 := thr_near prec emin Hprec choice t e2).
      apply Rabs_le_inv in N1. apply Rabs_le_inv in N2. fold A in N1. fold B' in N2.
      assert (2 * eta * Rabs e1 + 2 * eta * Rabs e2 <= 2 * eta * (2 * B + grid)).
      { assert (2 * eta * Rabs e1 <= 2 * eta * (B + grid / 2)) by (apply Rmult_le_compat_l; lra).
        assert (2 * eta * Rabs e2 <= 2 * eta * (B + grid / 2)) by (apply Rmult_le_compat_l; lra). lra. }
      unfold tight_W. assert (Hge : e2 - e1 = grid) by (unfold e1, e2; rewrite Rmult_plus_distr_r, Rmult_minus_distr_r; lra). lra. }
    set (E := ratio_E lam delta) in *.
    assert (HrW : E * E < exp ((B' - A) / lam)).
    { eapply Rlt_le_trans; [exact HE|]. apply exp_mono. unfold Rdiv.
      apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hlam|exact HW]. }
    assert (HWpos : 0 < B' - A).
    { assert (1 < exp ((B' - A) / lam)) by (assert (1 * 1 <= E * E) by (apply Rmult_le_compat; lra); lra).
      destruct (Rle_lt_dec (B' - A) 0) as [Hn|Hp]; [|exact Hp]. exfalso.
      assert (exp ((B' - A) / lam) <= exp 0).
      { apply exp_mono. unfold Rdiv. assert (0 < / lam) by (apply Rinv_0_lt_compat; exact Hlam).
        assert (0 <= - (B' - A) * / lam) by (apply Rmult_le_pos; lra). lra. }
      rewrite exp_0 in *. lra. }
    eapply Rle_trans.
    - apply (tight_ratio lam x x' A B' delta); try assumption.
      + intros v Hv. apply (float_snap_interior_iff t grid B k (rnd v) Hgrid Hk) in Hv.
        exact (proj1 (bucket_thr prec emin Hprec choice t grid k v) Hv).
      + intros v Hv. apply (float_snap_interior_iff t grid B k (rnd v) Hgrid Hk).
        exact (proj2 (bucket_thr prec emin Hprec choice t grid k v) Hv).
      + lra.
      + left. apply disp_ok; assumption.
      + left. apply disp_ok; assumption.
      + apply disp_ok; assumption.
      + apply disp_ok; assumption.
      + apply range_ok. assert (H := dist_lo e1 x He1 Hx). fold A in H. lra.
      + apply range_ok. assert (H := dist_hi e2 x He2 Hx). fold B' in H. lra.
      + apply range_ok. assert (H := dist_lo e1 x' He1 Hx'). fold A in H. lra.
      + apply range_ok. assert (H := dist_hi e2 x' He2 Hx'). fold B' in H. lra.
      + replace (B' / lam) with (A / lam + (B' - A) / lam) by (field; lra). rewrite exp_plus.
        assert (0 < exp (A / lam)) by apply exp_pos. fold E.
        assert (E * E * exp (A / lam) < exp ((B' - A) / lam) * exp (A / lam)) by (apply Rmult_lt_compat_r; lra).
        lra.
    - apply Rmult_le_compat_r; [exact Hpx'|]. apply Rmult_le_compat_l; [lra|].
      unfold ratio_K, tight_K. fold E.
      replace (exp (B' / lam)) with (exp (A / lam) * exp ((B' - A) / lam))
        by (rewrite <- exp_plus; f_equal; field; lra).
      assert (HA := exp_pos (A / lam)).
      assert (0 < exp (A / lam) * (exp ((B' - A) / lam) - E * E)) by (apply Rmult_lt_0_compat; lra).
      replace ((E * E * (exp (A / lam) * exp ((B' - A) / lam)) - exp (A / lam)) /
               (exp (A / lam) * exp ((B' - A) / lam) - E * E * exp (A / lam)))
        with ((E * E * exp ((B' - A) / lam) - 1) / (exp ((B' - A) / lam) - E * E))
        by (field; split; lra).
      apply ratio_K_anti; [assert (1 * 1 <= E * E) by (apply Rmult_le_compat; lra); lra|exact HE|].
      apply exp_mono. unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hlam|exact HW]. }
  (* anything else is never output *)
  assert (Z : snap_output_prob lam x (fun w => float_snap t grid B w = out) = 0).
  { unfold SnapOutput.snap_output_prob.
    assert (E0 : forall s, pr (fun U => float_snap t grid B (SnapOutput.snap_sum prec emin choice lnf lam x s U) = out) = 0).
    { intros s. apply (uprob_len pr Hpr). apply umeasure_empty. intros U _ H.
      unfold float_snap in H.
      destruct (clamp_cases_3 B (grid * IZR (round_grid t grid (SnapOutput.snap_sum prec emin choice lnf lam x s U))) HB)
        as [C|[C|[C1 C2]]].
      - rewrite C in H. exact (NB (eq_sym H)).
      - rewrite C in H. exact (NmB (eq_sym H)).
      - apply Hno. exists (round_grid t grid (SnapOutput.snap_sum prec emin choice lnf lam x s U)).
        rewrite C2 in C1, H. split; [symmetry; exact H|exact C1]. }
    rewrite !E0. ring. }
  rewrite Z. apply Rmult_le_pos; [|exact Hpx']. apply Rmult_le_pos; [lra|].
  assert (H1 : 0 < ratio_E lam delta) by lra.
  assert (0 <= ratio_E lam delta * ratio_E lam delta) by (apply Rmult_le_pos; lra). lra.
Qed.

End SnapTight.

(** ** Without [pipeline_ok]: from the logarithm's error and λ ≥ 2^(emin + 2·prec) *)
Theorem float_snap_dp_tight_log : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  forall choice lnf mu pr t grid B g lam delta,
  0 <= mu <= / 2 -> uprob pr ->
  (forall v, generic_format radix2 (FLT_exp emin prec) v -> 0 < v < 1 -> rel_within mu (ln v) (lnf v)) ->
  bpow radix2 (emin + 2 * prec) <= lam -> generic_format radix2 (FLT_exp emin prec) lam ->
  0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid -> 0 <= delta ->
  tight_mu prec mu * tight_D prec emin grid B < delta ->
  normal_min prec emin <= exp (- (tight_D prec emin grid B + delta) / lam) ->
  ratio_E prec lam delta * ratio_E prec lam delta < exp (tight_W prec emin grid B / lam) ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob prec emin choice lnf pr lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * tight_K prec emin lam grid B delta *
    snap_output_prob prec emin choice lnf pr lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros prec emin Hprec Hemin choice lnf mu pr t grid B g lam delta Hmu Hpr Hlnf Hlam Fl
    Hgrid HB Hg Hd0 Hdisp Hrange HE x x' out Hx Hx'.
  apply (float_snap_dp_tight prec emin Hprec choice lnf mu (proj1 Hmu) pr Hpr t grid B g lam delta);
    try assumption.
  exact (pipeline_ok_of_log_bpow prec emin Hprec Hemin choice lnf mu lam Hmu Hlnf Hlam).
Qed.

(** The correctly rounded logarithm of the arithmetic itself: no hypothesis on it. *)
Theorem float_snap_dp_tight_correct : forall prec emin (Hprec : (1 < prec)%Z), (emin + prec <= 0)%Z ->
  (emin + 2 * prec <= 1)%Z ->
  forall choice pr t grid B g lam delta, uprob pr ->
  bpow radix2 (emin + 2 * prec) <= lam -> generic_format radix2 (FLT_exp emin prec) lam ->
  0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid -> 0 <= delta ->
  tight_mu prec (eta prec) * tight_D prec emin grid B < delta ->
  normal_min prec emin <= exp (- (tight_D prec emin grid B + delta) / lam) ->
  ratio_E prec lam delta * ratio_E prec lam delta < exp (tight_W prec emin grid B / lam) ->
  forall x x' out, Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob prec emin choice (fun v => rnd prec emin choice (ln v)) pr lam x
    (fun w => float_snap t grid B w = out) <=
  exp (Rabs (x - x') / lam) * tight_K prec emin lam grid B delta *
    snap_output_prob prec emin choice (fun v => rnd prec emin choice (ln v)) pr lam x'
      (fun w => float_snap t grid B w = out).
Proof.
  intros prec emin Hprec Hemin Hsmall choice pr t grid B g lam delta Hpr Hlam Fl
    Hgrid HB Hg Hd0 Hdisp Hrange HE x x' out Hx Hx'.
  apply (float_snap_dp_tight prec emin Hprec choice _ (eta prec) (eta_nonneg prec) pr Hpr t grid B g lam delta);
    try assumption.
  exact (pipeline_ok_correct prec emin Hprec Hemin choice lam Hsmall Hlam).
Qed.
