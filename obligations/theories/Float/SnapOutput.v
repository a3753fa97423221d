(** * The probability of one snapping output, bracketed
    The float pipeline of seed 004 with U* ([ustar], UStarMeasure.v) as its
    sample: the rounded sum w = fl(x + s·fl(fl(λ)·LN(u))), u = ustar U.  An
    output's event P on w lies between an inner interval [a', b'] and an outer
    one [a, b] (for an interior output kΛ: its bucket, the inner one just below
    its half-open upper end).  The outer interval of s·λ·ln u
    ([outer_interval]) divided by ±λ is an interval of ln u, whose probability
    the measure layer bounds from above ([sign_prob_upper]); an interval of ln u
    whose image stays inside [a', b'] ([inner_interval]) bounds it from below
    ([sign_prob_lower]).  Both signs are drawn with probability 1/2 and are
    added before any ratio is taken, as in the ideal proof (one sign alone has
    an unbounded ratio when x sits just above a bucket edge):
    [output_prob_upper], [output_prob_lower].  The range premises are those of
    the pieces, for every sample: λ normal and positive, the product
    fl(λ)·LN(u) normal, LN within a relative mu of ln; and the far end of the
    interval of ln u above ln of the smallest normal (the subnormal tail of U*
    has no relative bracket). *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core.
From Obligations.Noise Require Import UniformMeasure.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure.

Local Open Scope R_scope.

Section SnapOutput.

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
Notation M := (noise_mu prec mu).
Notation ustar := (ustar prec emin).

Let Hprec0 : (0 < prec)%Z.
Proof. lia. Qed.

(** The rounded sum for the sample U and the sign s. *)
Definition snap_sum (lam x s U : R) : R := rnd (x + s * rnd (rnd lam * lnf (ustar U))).

(** The range premises, at every sample. *)
Definition pipeline_ok (lam : R) : Prop :=
  normal_min <= lam /\
  forall U, 0 < U <= 1 ->
    rel_within mu (ln (ustar U)) (lnf (ustar U)) /\ normal_min <= Rabs (rnd lam * lnf (ustar U)).

(** The outer interval of s·λ·ln u for w in [a, b]. *)
Definition outer_lo (x a : R) : R := widen_lo M (widen_lo eta a - x).
Definition outer_hi (x b : R) : R := widen_hi M (widen_hi eta b - x).

Lemma outer_lo_le_hi : forall x a b, a <= b -> outer_lo x a <= outer_hi x b.
Proof.
  intros x a b Hab. unfold outer_lo, outer_hi.
  assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  assert (H1 := widen_lo_le eta a He). assert (H2 := widen_hi_ge eta b He).
  assert (H3 := widen_lo_le M (widen_lo eta a - x) Hm). assert (H4 := widen_hi_ge M (widen_hi eta b - x) Hm).
  lra.
Qed.

Lemma ln_ustar_nonpos : forall U, ln (ustar U) <= 0.
Proof.
  intros U. rewrite <- ln_1. apply ln_mono; [apply ustar_pos; lia|].
  unfold UStarMeasure.ustar. apply Rmax_lub.
  - unfold tiny. change 1 with (bpow radix2 0). apply bpow_le. lia.
  - apply Rle_trans with (1 - eta); [apply Rmin_l|]. assert (He := eta_nonneg prec). lra.
Qed.

(** Pr[c ≤ ln u ≤ d], d clipped at 0 (ln u ≤ 0 always), and 0 for an empty interval. *)
Lemma ustar_ln_upper_clip : forall c d, normal_min <= exp c ->
  pr (fun U => c <= ln (ustar U) <= d) <= Rmax 0 (exp (Rmin d 0) / (1 - 2 * eta) - exp c).
Proof.
  intros c d Hc.
  rewrite (uprob_ext pr _ (fun U => c <= ln (ustar U) <= Rmin d 0) Hpr).
  2: { intros U _. assert (H0 := ln_ustar_nonpos U). split; intros [H1 H2]; split; try lra.
       - apply Rmin_glb; lra.
       - apply Rle_trans with (Rmin d 0); [exact H2|apply Rmin_l]. }
  destruct (Rle_lt_dec c (Rmin d 0)) as [Hcd|Hcd].
  - apply Rle_trans with (exp (Rmin d 0) / (1 - 2 * eta) - exp c); [|apply Rmax_r].
    apply ustar_ln_upper; [exact Hprec|exact Hpr|exact Hc|exact Hcd].
  - rewrite (uprob_len pr Hpr _ 0); [apply Rmax_l|].
    apply umeasure_empty. intros U _ [H1 H2]. lra.
Qed.

(** One sign, from above: w in [a, b] puts ln u in the outer interval over ±λ. *)
Theorem sign_prob_upper_plus : forall lam x a b (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x ->
  (forall w, P w -> a <= w <= b) -> normal_min <= exp (outer_lo x a / lam) ->
  pr (fun U => P (snap_sum lam x 1 U)) <=
    Rmax 0 (exp (Rmin (outer_hi x b / lam) 0) / (1 - 2 * eta) - exp (outer_lo x a / lam)).
Proof.
  intros lam x a b P [Hl Hok] Fx HP Hc.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  eapply Rle_trans; [|apply ustar_ln_upper_clip; exact Hc].
  apply (uprob_mono pr Hpr). intros U HU HPU.
  destruct (Hok U HU) as [Hu Hp].
  assert (Hw := HP _ HPU). unfold snap_sum in Hw.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  destruct (outer_interval prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar U) x a b
              (or_introl eq_refl) Hla Hu Hp Fx Hw) as [O1 O2].
  rewrite Rmult_1_l in O1, O2. fold (outer_lo x a) in O1. fold (outer_hi x b) in O2.
  split.
  - apply (Rmult_le_reg_l lam); [exact Hlam|]. unfold Rdiv.
    rewrite <- Rmult_assoc, (Rmult_comm lam (outer_lo x a)), Rmult_assoc, Rinv_r, Rmult_1_r by lra. exact O1.
  - apply (Rmult_le_reg_l lam); [exact Hlam|]. unfold Rdiv.
    rewrite <- Rmult_assoc, (Rmult_comm lam (outer_hi x b)), Rmult_assoc, Rinv_r, Rmult_1_r by lra. exact O2.
Qed.

Theorem sign_prob_upper_minus : forall lam x a b (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x ->
  (forall w, P w -> a <= w <= b) -> normal_min <= exp (- outer_hi x b / lam) ->
  pr (fun U => P (snap_sum lam x (-1) U)) <=
    Rmax 0 (exp (Rmin (- outer_lo x a / lam) 0) / (1 - 2 * eta) - exp (- outer_hi x b / lam)).
Proof.
  intros lam x a b P [Hl Hok] Fx HP Hc.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  eapply Rle_trans; [|apply ustar_ln_upper_clip; exact Hc].
  apply (uprob_mono pr Hpr). intros U HU HPU.
  destruct (Hok U HU) as [Hu Hp].
  assert (Hw := HP _ HPU). unfold snap_sum in Hw.
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  destruct (outer_interval prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar U) x a b
              (or_intror eq_refl) Hla Hu Hp Fx Hw) as [O1 O2].
  fold (outer_lo x a) in O1. fold (outer_hi x b) in O2.
  split.
  - apply (Rmult_le_reg_l lam); [exact Hlam|]. unfold Rdiv.
    replace (lam * (- outer_hi x b * / lam)) with (- outer_hi x b) by (field; lra). lra.
  - apply (Rmult_le_reg_l lam); [exact Hlam|]. unfold Rdiv.
    replace (lam * (- outer_lo x a * / lam)) with (- outer_lo x a) by (field; lra). lra.
Qed.

(** One sign, from below: an interval [c, d] of ln u whose image stays in
    [a', b'] (the inner conditions on s·λ·c and s·λ·d). *)
Theorem sign_prob_lower_plus : forall lam x a b c d (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x ->
  (forall w, a <= w <= b -> P w) -> normal_min <= exp c -> d <= 0 ->
  a <= widen_lo eta (x + widen_lo M (lam * c)) -> widen_hi eta (x + widen_hi M (lam * d)) <= b ->
  exp d - exp c / (1 - 2 * eta) <= pr (fun U => P (snap_sum lam x 1 U)).
Proof.
  intros lam x a b c d P [Hl Hok] Fx HP Hc Hd Ha Hb.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  eapply Rle_trans; [apply ustar_ln_lower; [exact Hprec|exact Hpr|exact Hc|exact Hd]|].
  apply (uprob_mono pr Hpr). intros U HU [H1 H2].
  destruct (Hok U HU) as [Hu Hp].
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  apply HP. unfold snap_sum.
  apply (inner_interval prec emin Hprec0 choice lnf mu Hmu 1 lam (ustar U) x a b (lam * c) (lam * d)
           (or_introl eq_refl) Hla Hu Hp Fx); [|exact Ha|exact Hb].
  rewrite Rmult_1_l. split; apply Rmult_le_compat_l; lra.
Qed.

Theorem sign_prob_lower_minus : forall lam x a b c d (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x ->
  (forall w, a <= w <= b -> P w) -> normal_min <= exp c -> d <= 0 ->
  a <= widen_lo eta (x + widen_lo M (- (lam * d))) -> widen_hi eta (x + widen_hi M (- (lam * c))) <= b ->
  exp d - exp c / (1 - 2 * eta) <= pr (fun U => P (snap_sum lam x (-1) U)).
Proof.
  intros lam x a b c d P [Hl Hok] Fx HP Hc Hd Ha Hb.
  assert (Hn := normal_min_pos prec emin). assert (Hlam : 0 < lam) by lra.
  eapply Rle_trans; [apply ustar_ln_lower; [exact Hprec|exact Hpr|exact Hc|exact Hd]|].
  apply (uprob_mono pr Hpr). intros U HU [H1 H2].
  destruct (Hok U HU) as [Hu Hp].
  assert (Hla : normal_min <= Rabs lam) by (rewrite Rabs_pos_eq; lra).
  apply HP. unfold snap_sum.
  apply (inner_interval prec emin Hprec0 choice lnf mu Hmu (-1) lam (ustar U) x a b
           (- (lam * d)) (- (lam * c)) (or_intror eq_refl) Hla Hu Hp Fx); [|exact Ha|exact Hb].
  assert (lam * c <= lam * ln (ustar U)) by (apply Rmult_le_compat_l; lra).
  assert (lam * ln (ustar U) <= lam * d) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

(** Both signs, each drawn with probability 1/2. *)
Definition snap_output_prob (lam x : R) (P : R -> Prop) : R :=
  / 2 * pr (fun U => P (snap_sum lam x 1 U)) + / 2 * pr (fun U => P (snap_sum lam x (-1) U)).

(** The upper bound of one output's probability, an explicit real expression
    in x, the outer interval [a, b], λ, η and mu. *)
Definition output_upper (lam x a b : R) : R :=
  / 2 * Rmax 0 (exp (Rmin (outer_hi x b / lam) 0) / (1 - 2 * eta) - exp (outer_lo x a / lam)) +
  / 2 * Rmax 0 (exp (Rmin (- outer_lo x a / lam) 0) / (1 - 2 * eta) - exp (- outer_hi x b / lam)).

Theorem output_prob_upper : forall lam x a b (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x ->
  (forall w, P w -> a <= w <= b) ->
  normal_min <= exp (outer_lo x a / lam) -> normal_min <= exp (- outer_hi x b / lam) ->
  snap_output_prob lam x P <= output_upper lam x a b.
Proof.
  intros lam x a b P Hok Fx HP H1 H2. unfold snap_output_prob, output_upper.
  assert (A := sign_prob_upper_plus lam x a b P Hok Fx HP H1).
  assert (B := sign_prob_upper_minus lam x a b P Hok Fx HP H2).
  lra.
Qed.

(** The lower bound: one interval of ln u per sign ([c1, d1] for s = 1, [c2, d2]
    for s = −1) that the inner conditions keep in [a, b]. *)
Theorem output_prob_lower : forall lam x a b c1 d1 c2 d2 (P : R -> Prop), pipeline_ok lam ->
  generic_format radix2 (FLT_exp emin prec) x ->
  (forall w, a <= w <= b -> P w) ->
  normal_min <= exp c1 -> d1 <= 0 -> normal_min <= exp c2 -> d2 <= 0 ->
  a <= widen_lo eta (x + widen_lo M (lam * c1)) -> widen_hi eta (x + widen_hi M (lam * d1)) <= b ->
  a <= widen_lo eta (x + widen_lo M (- (lam * d2))) -> widen_hi eta (x + widen_hi M (- (lam * c2))) <= b ->
  / 2 * (exp d1 - exp c1 / (1 - 2 * eta)) + / 2 * (exp d2 - exp c2 / (1 - 2 * eta)) <=
    snap_output_prob lam x P.
Proof.
  intros lam x a b c1 d1 c2 d2 P Hok Fx HP Hc1 Hd1 Hc2 Hd2 Ha1 Hb1 Ha2 Hb2. unfold snap_output_prob.
  assert (A := sign_prob_lower_plus lam x a b c1 d1 P Hok Fx HP Hc1 Hd1 Ha1 Hb1).
  assert (B := sign_prob_lower_minus lam x a b c2 d2 P Hok Fx HP Hc2 Hd2 Ha2 Hb2).
  lra.
Qed.

End SnapOutput.

(** An output's probability is nonnegative, for every probability [uprob pr]. *)
Lemma snap_output_prob_nonneg (prec emin : Z) (choice : Z -> bool) (lnf : R -> R) (pr : (R -> Prop) -> R) :
  uprob pr -> forall lam x (P : R -> Prop), 0 <= snap_output_prob prec emin choice lnf pr lam x P.
Proof.
  intros Hpr lam x P. unfold snap_output_prob.
  assert (Z1 := uprob_nonneg pr (fun U => P (snap_sum prec emin choice lnf lam x 1 U)) Hpr).
  assert (Z2 := uprob_nonneg pr (fun U => P (snap_sum prec emin choice lnf lam x (-1) U)) Hpr). lra.
Qed.
