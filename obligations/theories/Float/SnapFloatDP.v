(** * Binary snapping is ε·|x − x′| + ln K private, for every output
    The assembly of the output cases: every output of the float mechanism is B,
    −B, or a grid point kΛ strictly between ([clamp_cases_3]); anything else has
    probability 0 from every input.  One displacement δ serves every bucket end
    (|end| ≤ B + Λ, |x| ≤ B), one range premise keeps every interval of ln u above
    the smallest normal, and the interior constant K = (E²r − 1)/(r − E²),
    r = e^(Λ/λ), E = e^(δ/λ)/(1 − 2η), bounds the clamps' E² too
    ([float_snap_dp]). *)
From Coq Require Import ZArith Reals Lra Lia Classical_Prop.
From Flocq Require Import Core.Core.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Rounding Clamp.
From Obligations.Float Require Import RelError SnapNoise SnapOuter UStarMeasure SnapOutput SnapInterior
  SnapClamp SnapRatio SnapTailRatio.

Local Open Scope R_scope.

Section SnapFloatDP.

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
Notation disp := (disp prec mu).
Notation ratio_E := (ratio_E prec).

(** The interior constant, as a function of Λ/λ and δ only. *)
Definition snap_K (lam grid delta : R) : R :=
  (ratio_E lam delta * ratio_E lam delta * exp (grid / lam) - 1) /
  (exp (grid / lam) - ratio_E lam delta * ratio_E lam delta).

Variables (t : tie) (grid B : R) (g : Z) (lam delta : R).
Hypothesis Hgrid : 0 < grid.
Hypothesis HB : 0 < B.
Hypothesis Hg : (IZR g - 1) * grid < B <= IZR g * grid.
Hypothesis Hok : pipeline_ok lam.
Hypothesis Hd0 : 0 <= delta.
(** δ exceeds every bucket end's displacement. *)
Hypothesis Hdisp : eta * (B + grid) + M * (2 * B + grid + eta * (B + grid)) < delta.
(** Every interval of ln u stays above ln of the smallest normal. *)
Hypothesis Hrange : normal_min <= exp (- (2 * B + grid + delta) / lam).
(** The widened bucket stays narrower than the grid step allows. *)
Hypothesis HE : ratio_E lam delta * ratio_E lam delta < exp (grid / lam).

Let Hlam : 0 < lam.
Proof. destruct Hok as [Hl _]. assert (Hn := normal_min_pos prec emin). lra. Qed.

Lemma disp_ok : forall x e, Rabs x <= B -> Rabs e <= B + grid -> disp x e < delta.
Proof.
  intros x e Hx He. unfold SnapRatio.disp.
  assert (Ht := eta_nonneg prec). assert (Hm := noise_mu_nonneg prec mu Hmu).
  assert (Hxe : Rabs (e - x) <= 2 * B + grid).
  { unfold Rminus. eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_Ropp. lra. }
  assert (eta * Rabs e <= eta * (B + grid)) by (apply Rmult_le_compat_l; lra).
  assert (M * (Rabs (e - x) + eta * Rabs e) <= M * (2 * B + grid + eta * (B + grid)))
    by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

Lemma range_ok : forall v, - (2 * B + grid + delta) <= v -> normal_min <= exp (v / lam).
Proof.
  intros v Hv. apply Rle_trans with (exp (- (2 * B + grid + delta) / lam)); [exact Hrange|].
  apply exp_mono. unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact Hlam|exact Hv].
Qed.

Lemma ratio_K_eq : forall a, ratio_K prec lam a (a + grid) delta = snap_K lam grid delta.
Proof.
  intros a. unfold ratio_K, snap_K.
  replace ((a + grid) / lam) with (a / lam + grid / lam) by (field; lra). rewrite exp_plus.
  assert (Ha := exp_pos (a / lam)). assert (Hr : 0 < exp (grid / lam) - ratio_E lam delta * ratio_E lam delta) by lra.
  set (A := exp (a / lam)) in *. set (r := exp (grid / lam)) in *. set (E := ratio_E lam delta) in *.
  replace (E * E * (A * r) - A) with (A * (E * E * r - 1)) by ring.
  replace (A * r - E * E * A) with (A * (r - E * E)) by ring.
  field. repeat split; apply Rgt_not_eq; lra.
Qed.

Lemma ratio_E_ge_1 : 1 <= ratio_E lam delta.
Proof.
  unfold SnapRatio.ratio_E. assert (He := eta_pos prec). assert (Hs := eta_small prec Hprec).
  assert (Hx : 1 <= exp (delta / lam)).
  { rewrite <- exp_0. apply exp_mono. unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]. }
  apply Rle_trans with (exp (delta / lam)); [exact Hx|]. apply div_k_le'; lra.
Qed.

Lemma snap_K_ge : ratio_E lam delta * ratio_E lam delta <= snap_K lam grid delta.
Proof.
  unfold snap_K. set (E2 := ratio_E lam delta * ratio_E lam delta). set (r := exp (grid / lam)).
  assert (H1 := ratio_E_ge_1). assert (HE2 : 1 <= E2) by (unfold E2; nra).
  assert (Hr : 0 < r - E2) by (unfold r, E2; lra).
  apply (Rmult_le_reg_r (r - E2)); [exact Hr|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. nra.
Qed.

Theorem float_snap_dp : forall x x' out,
  generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) x' ->
  Rabs x <= B -> Rabs x' <= B ->
  snap_output_prob lam x (fun w => float_snap t grid B w = out) <=
    exp (Rabs (x - x') / lam) * snap_K lam grid delta * snap_output_prob lam x' (fun w => float_snap t grid B w = out).
Proof.
  intros x x' out Fx Fx' Hx Hx'.
  assert (Hex := exp_pos (Rabs (x - x') / lam)).
  assert (HK := snap_K_ge). assert (H1 := ratio_E_ge_1).
  assert (HE2 : 1 <= ratio_E lam delta * ratio_E lam delta) by nra.
  assert (Hnn := snap_output_prob_nonneg prec emin choice lnf pr Hpr lam).
  assert (Hpx' := Hnn x' (fun w => float_snap t grid B w = out)).
  assert (HgB : IZR g * grid < B + grid) by lra.
  apply Rabs_le_inv in Hx. apply Rabs_le_inv in Hx'.
  destruct (Req_dec out B) as [->|NB].
  { (* output B *)
    eapply Rle_trans.
    - apply (clamp_top_ratio prec emin Hprec choice lnf mu Hmu pr Hpr t grid B g lam x x' delta Hgrid HB Hg Hok Fx Fx' Hd0).
      + left. apply disp_ok; [apply Rabs_le; lra|apply Rabs_le; lra].
      + apply disp_ok; [apply Rabs_le; lra|apply Rabs_le; lra].
      + apply range_ok; lra.
      + apply range_ok; lra.
      + apply range_ok; lra.
      + apply range_ok; lra.
    - apply Rmult_le_compat_r; [exact Hpx'|]. apply Rmult_le_compat_l; lra. }
  destruct (Req_dec out (- B)) as [->|NmB].
  { (* output −B *)
    eapply Rle_trans.
    - apply (clamp_bottom_ratio prec emin Hprec choice lnf mu Hmu pr Hpr t grid B g lam x x' delta Hgrid HB Hg Hok Fx Fx' Hd0).
      + left. apply disp_ok; [apply Rabs_le; lra|apply Rabs_le; lra].
      + apply disp_ok; [apply Rabs_le; lra|apply Rabs_le; lra].
      + apply range_ok; lra.
      + apply range_ok; lra.
      + apply range_ok; lra.
      + apply range_ok; lra.
    - apply Rmult_le_compat_r; [exact Hpx'|]. apply Rmult_le_compat_l; lra. }
  destruct (classic (exists k, out = grid * IZR k /\ - B < grid * IZR k < B)) as [[k [-> Hk]]|Hno].
  { (* an interior grid point *)
    assert (Hb : (IZR k + / 2) * grid = (IZR k - / 2) * grid + grid) by field.
    rewrite <- (ratio_K_eq ((IZR k - / 2) * grid)), <- Hb.
    apply (interior_ratio prec emin Hprec choice lnf mu Hmu pr Hpr t grid B k lam x x' delta Hgrid Hk Hok Fx Fx' Hd0).
    - left. apply disp_ok; apply Rabs_le; lra.
    - left. apply disp_ok; apply Rabs_le; lra.
    - apply disp_ok; apply Rabs_le; lra.
    - apply disp_ok; apply Rabs_le; lra.
    - apply range_ok; lra.
    - apply range_ok; lra.
    - apply range_ok; lra.
    - apply range_ok; lra.
    - rewrite Hb. replace (((IZR k - / 2) * grid + grid) / lam) with ((IZR k - / 2) * grid / lam + grid / lam)
        by (field; lra). rewrite exp_plus. assert (exp ((IZR k - / 2) * grid / lam) > 0) by apply exp_pos.
      assert (ratio_E lam delta * ratio_E lam delta * exp ((IZR k - / 2) * grid / lam) <
        exp (grid / lam) * exp ((IZR k - / 2) * grid / lam)) by (apply Rmult_lt_compat_r; lra).
      lra. }
  (* anything else is never output *)
  assert (Z : snap_output_prob lam x (fun w => float_snap t grid B w = out) = 0).
  { unfold SnapOutput.snap_output_prob.
    assert (E0 : forall s, pr (fun U => float_snap t grid B (snap_sum prec emin choice lnf lam x s U) = out) = 0).
    { intros s. apply (uprob_len pr Hpr). apply umeasure_empty. intros U _ H.
      unfold float_snap in H.
      destruct (clamp_cases_3 B (grid * IZR (round_grid t grid (snap_sum prec emin choice lnf lam x s U))) HB)
        as [C|[C|[C1 C2]]].
      - rewrite C in H. exact (NB (eq_sym H)).
      - rewrite C in H. exact (NmB (eq_sym H)).
      - apply Hno. exists (round_grid t grid (snap_sum prec emin choice lnf lam x s U)).
        rewrite C2 in C1, H. split; [symmetry; exact H|exact C1]. }
    rewrite !E0. ring. }
  rewrite Z. apply Rmult_le_pos; [|exact Hpx']. apply Rmult_le_pos; lra.
Qed.

End SnapFloatDP.
