(** * The rounding of the sum as a threshold that does not depend on the input
    The rounded sum w = fl(v) of the query value and the noise is in a bucket
    [e₁, e₂) of the grid iff v is between two reals that depend on the bucket
    only: rounding is monotone, so "fl(v) ≥ e" (ties up) or "fl(v) > e" (ties
    down) holds above a threshold [thr t e] and fails below it ([thr_below],
    [thr_above]); the threshold is the least upper bound of the v where it
    fails, within 2η|e| + 2^emin of e ([thr_near]).  An input x and its
    neighbour x′ see the same thresholds: the sum's rounding moves a bucket,
    by the same amount for both, and costs them no ratio.  (SnapOuter.v
    charges it as a widening of the bucket by η|end| at each end and input.)
    [bucket_thr], [top_thr], [bottom_thr]: the events of an interior output and
    of the clamped outputs ±B of [float_snap] on the unrounded sum. *)
From Coq Require Import ZArith Reals Lra Lia Classical_Prop.
From Flocq Require Import Core.Core Relative.
From Obligations.Noise Require Import Rounding.
From Obligations.Float Require Import RelError UStarMeasure SnapInterior SnapClamp.

Local Open Scope R_scope.

Section SnapThreshold.

Variables prec emin : Z.
Hypothesis Hprec : (1 < prec)%Z.
Variable choice : Z -> bool.

Notation eta := (eta prec).
Notation rnd := (rnd prec emin choice).

Local Instance thr_prec_gt_0 : Prec_gt_0 prec.
Proof. unfold Prec_gt_0. lia. Qed.

Let Hprec0 : (0 < prec)%Z.
Proof. lia. Qed.

Let tiny_pos : 0 < bpow radix2 emin.
Proof. apply bpow_gt_0. Qed.

Let eta_quarter : 0 < eta <= / 4.
Proof.
  assert (H := eta_small prec Hprec). assert (H0 := eta_pos prec). lra.
Qed.

(** Rounding to nearest, absolutely: within η|v| + 2^emin/2 of v on the whole line. *)
Lemma rnd_abs_err : forall v, Rabs (rnd v - v) <= eta * Rabs v + / 2 * bpow radix2 emin.
Proof.
  intros v. destruct (error_N_FLT radix2 emin prec Hprec0 choice v) as (e & t & He & Ht & _ & Hr).
  unfold RelError.rnd. rewrite Hr. replace (v * (1 + e) + t - v) with (v * e + t) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. rewrite Rabs_mult.
  assert (Hu : / 2 * bpow radix2 (- prec + 1) = eta).
  { unfold RelError.eta, u_ro. replace (- prec + 1)%Z with (1 - prec)%Z by ring. reflexivity. }
  rewrite Hu in He.
  assert (Rabs v * Rabs e <= Rabs v * eta) by (apply Rmult_le_compat_l; [apply Rabs_pos|exact He]).
  lra.
Qed.

(** "fl(v) < e" (ties up) or "fl(v) ≤ e" (ties down): what fails above the threshold. *)
Definition thr_set (t : tie) (e v : R) : Prop :=
  match t with TiesUp => rnd v < e | TiesDown => rnd v <= e end.

Lemma thr_set_mono : forall t e v v', v' <= v -> thr_set t e v -> thr_set t e v'.
Proof.
  intros t e v v' H Hs.
  assert (Hr : rnd v' <= rnd v) by (apply round_le; [apply FLT_exp_valid; exact thr_prec_gt_0|apply valid_rnd_N|exact H]).
  destruct t; cbn [thr_set] in *; lra.
Qed.

Lemma thr_far_above : forall t e v, e + 2 * eta * Rabs e + bpow radix2 emin < v -> ~ thr_set t e v.
Proof.
  intros t e v H Hs. assert (Hr := rnd_abs_err v). apply Rabs_le_inv in Hr.
  assert (He0 : 0 <= Rabs e) by apply Rabs_pos.
  assert (He1 : 0 <= eta * Rabs e) by (apply Rmult_le_pos; lra).
  assert (Hv : Rabs v <= Rabs e + (v - e)).
  { replace v with (e + (v - e)) at 1 by ring. eapply Rle_trans; [apply Rabs_triang|].
    rewrite (Rabs_pos_eq (v - e)); lra. }
  assert (Hc : e < rnd v).
  { assert (eta * Rabs v <= eta * (Rabs e + (v - e))) by (apply Rmult_le_compat_l; lra).
    assert (eta * (v - e) <= / 4 * (v - e)) by (apply Rmult_le_compat_r; lra).
    assert (eta * Rabs e <= / 4 * Rabs e) by (apply Rmult_le_compat_r; lra).
    lra. }
  destruct t; cbn [thr_set] in Hs; lra.
Qed.

Lemma thr_far_below : forall t e v, v < e - 2 * eta * Rabs e - bpow radix2 emin -> thr_set t e v.
Proof.
  intros t e v H. assert (Hr := rnd_abs_err v). apply Rabs_le_inv in Hr.
  assert (He0 : 0 <= Rabs e) by apply Rabs_pos.
  assert (He1 : 0 <= eta * Rabs e) by (apply Rmult_le_pos; lra).
  assert (Hv : Rabs v <= Rabs e + (e - v)).
  { replace v with (e - (e - v)) at 1 by ring. unfold Rminus at 1. eapply Rle_trans; [apply Rabs_triang|].
    rewrite Rabs_Ropp, (Rabs_pos_eq (e - v)); lra. }
  assert (Hc : rnd v < e).
  { assert (eta * Rabs v <= eta * (Rabs e + (e - v))) by (apply Rmult_le_compat_l; lra).
    assert (eta * (e - v) <= / 4 * (e - v)) by (apply Rmult_le_compat_r; lra).
    assert (eta * Rabs e <= / 4 * Rabs e) by (apply Rmult_le_compat_r; lra).
    lra. }
  destruct t; cbn [thr_set]; lra.
Qed.

Lemma thr_bound : forall t e, bound (thr_set t e).
Proof.
  intros t e. exists (e + 2 * eta * Rabs e + bpow radix2 emin). intros v Hv.
  destruct (Rle_lt_dec v (e + 2 * eta * Rabs e + bpow radix2 emin)) as [H|H]; [exact H|].
  exfalso. exact (thr_far_above t e v H Hv).
Qed.

Lemma thr_nonempty : forall t e, exists v, thr_set t e v.
Proof. intros t e. exists (e - 2 * eta * Rabs e - bpow radix2 emin - 1). apply thr_far_below. lra. Qed.

(** The threshold of bucket edge e under tie rule t. *)
Definition thr (t : tie) (e : R) : R :=
  proj1_sig (completeness (thr_set t e) (thr_bound t e) (thr_nonempty t e)).

Lemma thr_lub : forall t e, is_lub (thr_set t e) (thr t e).
Proof. intros t e. unfold thr. destruct completeness as [m Hm]. exact Hm. Qed.

Theorem thr_below : forall t e v, v < thr t e -> thr_set t e v.
Proof.
  intros t e v H. destruct (classic (thr_set t e v)) as [Hs|Hs]; [exact Hs|exfalso].
  destruct (thr_lub t e) as [_ Hl].
  assert (Hub : is_upper_bound (thr_set t e) v).
  { intros w Hw. destruct (Rle_lt_dec w v) as [Hle|Hlt]; [exact Hle|].
    exfalso. apply Hs. apply thr_set_mono with w; [lra|exact Hw]. }
  assert (thr t e <= v) by (apply Hl; exact Hub). lra.
Qed.

Theorem thr_above : forall t e v, thr t e < v -> ~ thr_set t e v.
Proof.
  intros t e v H Hs. destruct (thr_lub t e) as [Hu _].
  assert (v <= thr t e) by (apply Hu; exact Hs). lra.
Qed.

Theorem thr_near : forall t e, Rabs (thr t e - e) <= 2 * eta * Rabs e + bpow radix2 emin.
Proof.
  intros t e. destruct (thr_lub t e) as [Hu Hl]. apply Rabs_le. split.
  - destruct (Rle_lt_dec (e - 2 * eta * Rabs e - bpow radix2 emin) (thr t e)) as [H|H]; [lra|exfalso].
    set (v := (thr t e + (e - 2 * eta * Rabs e - bpow radix2 emin)) / 2).
    assert (Hv : thr_set t e v) by (apply thr_far_below; unfold v; lra).
    assert (v <= thr t e) by (apply Hu; exact Hv). unfold v in *. lra.
  - assert (thr t e <= e + 2 * eta * Rabs e + bpow radix2 emin).
    { apply Hl. intros w Hw.
      destruct (Rle_lt_dec w (e + 2 * eta * Rabs e + bpow radix2 emin)) as [H|H]; [exact H|].
      exfalso. exact (thr_far_above t e w H Hw). }
    lra.
Qed.

(** ** The outputs' events on the unrounded sum *)

Theorem bucket_thr : forall t grid k v,
  (in_bucket t grid k (rnd v) -> thr t ((IZR k - / 2) * grid) <= v <= thr t ((IZR k + / 2) * grid)) /\
  (thr t ((IZR k - / 2) * grid) < v < thr t ((IZR k + / 2) * grid) -> in_bucket t grid k (rnd v)).
Proof.
  intros t grid k v. set (e1 := (IZR k - / 2) * grid). set (e2 := (IZR k + / 2) * grid). split.
  - intros Hb. split.
    + destruct (Rle_lt_dec (thr t e1) v) as [H|H]; [exact H|exfalso].
      apply thr_below in H. destruct t; cbn [thr_set in_bucket] in H, Hb; fold e1 e2 in Hb; lra.
    + destruct (Rle_lt_dec v (thr t e2)) as [H|H]; [exact H|exfalso].
      apply (thr_above t e2 v H). destruct t; cbn [thr_set]; cbn [in_bucket] in Hb; fold e1 e2 in Hb; lra.
  - intros [H1 H2]. apply thr_above in H1. apply thr_below in H2.
    destruct t; cbn [thr_set in_bucket] in *; fold e1 e2; apply Rnot_lt_le in H1 || apply Rnot_le_lt in H1; lra.
Qed.

(** Output B: fl(v) ≥ e (ties up) or > e (ties down), e = (g − ½)Λ. *)
Definition top_event (t : tie) (e w : R) : Prop :=
  match t with TiesUp => e <= w | TiesDown => e < w end.

Theorem top_thr : forall t e v,
  (top_event t e (rnd v) -> thr t e <= v) /\ (thr t e < v -> top_event t e (rnd v)).
Proof.
  intros t e v. split.
  - intros Hb. destruct (Rle_lt_dec (thr t e) v) as [H|H]; [exact H|exfalso].
    apply thr_below in H. destruct t; cbn [thr_set top_event] in H, Hb; lra.
  - intros H. apply thr_above in H. destruct t; cbn [thr_set top_event] in *; [apply Rnot_lt_le in H|apply Rnot_le_lt in H]; lra.
Qed.

(** Output −B: fl(v) < e (ties up) or ≤ e (ties down), e = (−g + ½)Λ: the threshold's own set. *)
Theorem bottom_thr : forall t e v,
  (thr_set t e v -> v <= thr t e) /\ (v < thr t e -> thr_set t e v).
Proof.
  intros t e v. split.
  - intros Hs. destruct (Rle_lt_dec v (thr t e)) as [H|H]; [exact H|exfalso]. exact (thr_above t e v H Hs).
  - apply thr_below.
Qed.

Lemma float_snap_top_event : forall t grid B g w, 0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid ->
  (float_snap t grid B w = B <-> top_event t ((IZR g - / 2) * grid) w).
Proof.
  intros t grid B g w Hg HB Hgb. rewrite (float_snap_top_iff t grid B g w Hg HB Hgb).
  destruct t; reflexivity.
Qed.

Lemma float_snap_bottom_event : forall t grid B g v, 0 < grid -> 0 < B -> (IZR g - 1) * grid < B <= IZR g * grid ->
  (float_snap t grid B (rnd v) = - B <-> thr_set t ((- IZR g + / 2) * grid) v).
Proof.
  intros t grid B g v Hg HB Hgb. rewrite (float_snap_bottom_iff t grid B g (rnd v) Hg HB Hgb).
  destruct t; reflexivity.
Qed.

End SnapThreshold.
