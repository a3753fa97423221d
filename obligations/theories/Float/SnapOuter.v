(** * The outer and inner intervals of a snapping output
    If the rounded sum w = fl(x + s·y) of a query value x and the noise
    y = fl(fl(λ)·LN(u)) lies in [a, b] (for an output kΛ of the exact rounding
    to the grid, [a, b] is its bucket [kΛ − Λ/2, kΛ + Λ/2]), then s·λ·ln u lies
    in an interval computed from a, b, x alone ([outer_interval]).  The sum's
    rounding enters as the widening of [a, b] by one factor (1+η): an additive
    η·|w| in the position, as docs/binary64.md explains; the noise's as a
    widening by (1+η)²(1+mu).  The sum needs no range premise: the query value x
    is a float, and a sum of two floats below the normal range is exact
    ([rnd_plus_rel_within]), so cancellation costs nothing.  [inner_interval] is the converse direction: an
    interval of s·λ·ln u whose images stay inside [a, b].  [outer_below],
    [outer_above], [inner_below] and [inner_above] are the one-sided forms for
    the clamped outputs ±B. *)
From Coq Require Import ZArith Reals Lra.
From Flocq Require Import Core.Core Relative Plus_error.
From Obligations.Float Require Import RelError SnapNoise.

Section SnapOuter.

Local Open Scope R_scope.

Lemma rel_within_sym : forall mu x y, 0 <= mu -> rel_within mu x y -> rel_within mu y x.
Proof.
  intros mu x y Hmu (d & [Hl Hh] & ->).
  assert (Hp : 0 < / (1 + mu)) by (apply Rinv_0_lt_compat; lra).
  assert (Hd : 0 < d) by lra.
  exists (/ d). split; [split|].
  - apply Rinv_le_contravar; lra.
  - rewrite <- (Rinv_inv (1 + mu)). apply Rinv_le_contravar; lra.
  - field. lra.
Qed.

Lemma rel_within_neg : forall mu x y, rel_within mu x y -> rel_within mu (- x) (- y).
Proof. intros mu x y (d & Hd & ->). exists d. split; [exact Hd|ring]. Qed.

Variables prec emin : Z.
Hypothesis Hprec : (0 < prec)%Z.
Variable choice : Z -> bool.
Variable lnf : R -> R.
Variable mu : R.
Hypothesis Hmu : 0 <= mu.

Notation eta := (eta prec).
Notation rnd := (rnd prec emin choice).
Notation normal_min := (normal_min prec emin).

(** The noise's relative error, as [noise_rel_within] gives it. *)
Definition noise_mu : R := (1 + eta) * (1 + eta) * (1 + mu) - 1.

Lemma noise_mu_nonneg : 0 <= noise_mu.
Proof. assert (He := eta_nonneg prec). unfold noise_mu. nra. Qed.

(** The rounded sum of two floats is within a factor [1/(1+η), 1+η] of the
    exact one on the whole range: exact below the normal range. *)
Lemma rnd_plus_rel_within : forall x y,
  generic_format radix2 (FLT_exp emin prec) x -> generic_format radix2 (FLT_exp emin prec) y ->
  rel_within eta (x + y) (rnd (x + y)).
Proof.
  intros x y Fx Fy.
  destruct (FLT_plus_error_N_ex radix2 emin prec (prec_gt_0_ := Hprec) choice x y Fx Fy) as (e & He & Hr).
  assert (Hu := eta_nonneg prec). unfold eta in Hu.
  assert (Hq : u_ro radix2 prec / (1 + u_ro radix2 prec) <= u_ro radix2 prec)
    by apply u_rod1pu_ro_le_u_ro.
  exists (1 + e). split; [split|].
  - apply Rabs_le_inv in He. destruct He as [He _].
    assert (Hid : / (1 + eta) = 1 - u_ro radix2 prec / (1 + u_ro radix2 prec))
      by (unfold eta; field; lra).
    rewrite Hid. lra.
  - apply Rabs_le_inv in He. unfold eta. lra.
  - unfold rnd. exact Hr.
Qed.

(** The noise is a float; so is its negation. *)
Lemma signed_noise_format : forall s v, s = 1 \/ s = -1 ->
  generic_format radix2 (FLT_exp emin prec) (s * rnd v).
Proof.
  intros s v Hs.
  assert (F : generic_format radix2 (FLT_exp emin prec) (rnd v)).
  { apply generic_format_round; [apply FLT_exp_valid; exact Hprec|apply valid_rnd_N]. }
  destruct Hs as [-> | ->].
  - rewrite Rmult_1_l. exact F.
  - replace (-1 * rnd v) with (- rnd v) by ring. apply generic_format_opp. exact F.
Qed.

(** s = 1 or s = −1: the sign drawn by the mechanism. *)
Theorem outer_interval : forall (s lam u x a b : R), s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  a <= rnd (x + s * rnd (rnd lam * lnf u)) <= b ->
  widen_lo noise_mu (widen_lo eta a - x) <= s * (lam * ln u) <= widen_hi noise_mu (widen_hi eta b - x).
Proof.
  intros s lam u x a b Hs Hl Hu Hp Hw Hab.
  assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg).
  set (y := rnd (rnd lam * lnf u)) in *.
  (* the sum before its rounding *)
  assert (Ht : widen_lo eta a <= x + s * y <= widen_hi eta b).
  { apply (rel_within_widen eta a b (rnd (x + s * y))); [exact He|exact Hab|].
    apply rel_within_sym; [exact He|]. apply rnd_plus_rel_within; [exact Hw|apply signed_noise_format, Hs]. }
  assert (Hz : widen_lo eta a - x <= s * y <= widen_hi eta b - x) by lra.
  (* the noise before its three roundings *)
  assert (Hn : rel_within noise_mu (lam * ln u) y) by (apply noise_rel_within; assumption).
  assert (Hsn : rel_within noise_mu (s * y) (s * (lam * ln u))).
  { apply rel_within_sym; [exact Hm|].
    destruct Hs as [-> | ->].
    - rewrite !Rmult_1_l. exact Hn.
    - replace (-1 * (lam * ln u)) with (- (lam * ln u)) by ring.
      replace (-1 * y) with (- y) by ring. apply rel_within_neg, Hn. }
  exact (rel_within_widen noise_mu _ _ (s * y) _ Hm Hz Hsn).
Qed.

(** The inner interval, forward: if s·λ·ln u lies in [c, d] and the widened
    images of that interval stay inside [a, b], the rounded sum does too. *)
Theorem inner_interval : forall (s lam u x a b c d : R), s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  c <= s * (lam * ln u) <= d ->
  a <= widen_lo eta (x + widen_lo noise_mu c) -> widen_hi eta (x + widen_hi noise_mu d) <= b ->
  a <= rnd (x + s * rnd (rnd lam * lnf u)) <= b.
Proof.
  intros s lam u x a b c d Hs Hl Hu Hp Hw Hcd Ha Hb.
  assert (He := eta_nonneg prec). assert (Hm := noise_mu_nonneg).
  set (y := rnd (rnd lam * lnf u)) in *.
  assert (Hn : rel_within noise_mu (lam * ln u) y) by (apply noise_rel_within; assumption).
  assert (Hsn : rel_within noise_mu (s * (lam * ln u)) (s * y)).
  { destruct Hs as [-> | ->].
    - rewrite !Rmult_1_l. exact Hn.
    - replace (-1 * (lam * ln u)) with (- (lam * ln u)) by ring.
      replace (-1 * y) with (- y) by ring. apply rel_within_neg, Hn. }
  assert (Hz := rel_within_widen noise_mu c d _ _ Hm Hcd Hsn).
  assert (Ht : x + widen_lo noise_mu c <= x + s * y <= x + widen_hi noise_mu d) by lra.
  assert (Hr : rel_within eta (x + s * y) (rnd (x + s * y)))
    by (apply rnd_plus_rel_within; [exact Hw|apply signed_noise_format, Hs]).
  assert (Hw' := rel_within_widen eta _ _ _ _ He Ht Hr). lra.
Qed.

(** The clamp cases: output −B needs only the upper end (w ≤ b), output B only
    the lower end (a ≤ w); the same widenings, one side each. *)
Theorem outer_below : forall (s lam u x b : R), s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  rnd (x + s * rnd (rnd lam * lnf u)) <= b ->
  s * (lam * ln u) <= widen_hi noise_mu (widen_hi eta b - x).
Proof.
  intros s lam u x b Hs Hl Hu Hp Hw Hb.
  set (w := rnd (x + s * rnd (rnd lam * lnf u))) in *.
  assert (Hab : Rmin w b <= w <= b) by (split; [apply Rmin_l|exact Hb]).
  exact (proj2 (outer_interval s lam u x (Rmin w b) b Hs Hl Hu Hp Hw Hab)).
Qed.

Theorem outer_above : forall (s lam u x a : R), s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  a <= rnd (x + s * rnd (rnd lam * lnf u)) ->
  widen_lo noise_mu (widen_lo eta a - x) <= s * (lam * ln u).
Proof.
  intros s lam u x a Hs Hl Hu Hp Hw Ha.
  set (w := rnd (x + s * rnd (rnd lam * lnf u))) in *.
  assert (Hab : a <= w <= Rmax w a) by (split; [exact Ha|apply Rmax_l]).
  exact (proj1 (outer_interval s lam u x a (Rmax w a) Hs Hl Hu Hp Hw Hab)).
Qed.

(** The one-sided inner forms: an upper end of s·λ·ln u whose widened image
    stays at or below b keeps the rounded sum at or below b (output −B); a
    lower end whose image stays at or above a keeps it at or above a (B). *)
Theorem inner_below : forall (s lam u x b d : R), s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  s * (lam * ln u) <= d -> widen_hi eta (x + widen_hi noise_mu d) <= b ->
  rnd (x + s * rnd (rnd lam * lnf u)) <= b.
Proof.
  intros s lam u x b d Hs Hl Hu Hp Hw Hd Hb.
  set (c := s * (lam * ln u)).
  assert (Hcd : c <= s * (lam * ln u) <= d) by (unfold c; lra).
  exact (proj2 (inner_interval s lam u x _ b c d Hs Hl Hu Hp Hw Hcd (Rle_refl _) Hb)).
Qed.

Theorem inner_above : forall (s lam u x a c : R), s = 1 \/ s = -1 ->
  normal_min <= Rabs lam -> rel_within mu (ln u) (lnf u) ->
  normal_min <= Rabs (rnd lam * lnf u) ->
  generic_format radix2 (FLT_exp emin prec) x ->
  c <= s * (lam * ln u) -> a <= widen_lo eta (x + widen_lo noise_mu c) ->
  a <= rnd (x + s * rnd (rnd lam * lnf u)).
Proof.
  intros s lam u x a c Hs Hl Hu Hp Hw Hc Ha.
  set (d := s * (lam * ln u)).
  assert (Hcd : c <= s * (lam * ln u) <= d) by (unfold d; lra).
  exact (proj1 (inner_interval s lam u x a _ c d Hs Hl Hu Hp Hw Hcd Ha (Rle_refl _))).
Qed.

End SnapOuter.
