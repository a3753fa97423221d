(** * The snapping mechanism: closed-form output probabilities

    From the measures of the per-sign preimages (SnapPreimage.v), the
    probability of a grid output [k * lam] depends on where [c] lies with
    respect to the bucket of [k] ([snap_case_below], [snap_case_bucket],
    [snap_case_above]); the clamped outputs [B] and [-B] have the closed forms
    [snap_case_top_*] and [snap_case_bot_*]. *)
From Coq Require Import Reals Lra ZArith.
From Obligations.Core Require Import RealFacts.
From Obligations.Noise Require Import UniformMeasure Snapping.
Local Open Scope R_scope.

(** ** Grid outputs *)

Section Cases.
Variables (mech : R -> sign -> R) (r lam c : R) (k : Z).
Hypotheses (Hr : 0 < r) (Hl : 0 < lam).

Let Hplus := umeasure (fun u => mech u SPlus = lam * IZR k)
  (ulen (exp (r * ((IZR k - / 2) * lam - c))) (exp (r * ((IZR k + / 2) * lam - c)))).
Let Hminus := umeasure (fun u => mech u SMinus = lam * IZR k)
  (ulen (exp (r * (c - (IZR k + / 2) * lam))) (exp (r * (c - (IZR k - / 2) * lam)))).

(** The bucket of [k] lies below [c]. *)
Lemma snap_case_below : (IZR k + / 2) * lam <= c -> Hplus -> Hminus ->
  snap_prob mech (lam * IZR k)
    (/ 2 * (exp (r * ((IZR k + / 2) * lam - c)) - exp (r * ((IZR k - / 2) * lam - c)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_inside, ulen_above.
  - ring.
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_iff; nra].
  - apply exp_le_1. nra.
Qed.

(** [c] lies in the bucket of [k]. *)
Lemma snap_case_bucket : (IZR k - / 2) * lam <= c <= (IZR k + / 2) * lam -> Hplus -> Hminus ->
  snap_prob mech (lam * IZR k)
    (/ 2 * (2 - exp (r * ((IZR k - / 2) * lam - c)) - exp (r * (c - (IZR k + / 2) * lam)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite !ulen_straddle.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
Qed.

(** The bucket of [k] lies above [c]. *)
Lemma snap_case_above : c <= (IZR k - / 2) * lam -> Hplus -> Hminus ->
  snap_prob mech (lam * IZR k)
    (/ 2 * (exp (r * (c - (IZR k - / 2) * lam)) - exp (r * (c - (IZR k + / 2) * lam)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_above, ulen_inside.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_iff; nra].
  - apply exp_le_1. nra.
  - apply exp_ge_1. nra.
Qed.

End Cases.

(** ** The clamped outputs [B] and [-B] *)

Section TailCases.
Variables (mech : R -> sign -> R) (r c g y : R).
Hypothesis Hr : 0 < r.

(** Output [B] ([g = (Zceil (B / lam) - 1/2) lam]), in general and in closed form. *)
Lemma snap_case_top :
  umeasure (fun u => mech u SPlus = y) (ulen_from (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_to (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (ulen_from (exp (r * (g - c))) + ulen_to (exp (r * (c - g))))).
Proof. apply snap_prob_intro. Qed.

Lemma snap_case_top_far : c <= g ->
  umeasure (fun u => mech u SPlus = y) (ulen_from (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_to (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * exp (r * (c - g))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_from_above, ulen_to_inside.
  - ring.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
  - apply exp_ge_1. nra.
Qed.

Lemma snap_case_top_near : g <= c ->
  umeasure (fun u => mech u SPlus = y) (ulen_from (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_to (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (2 - exp (r * (g - c)))).
Proof.
  intros Hc H1 H2. eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H1 H2)].
  rewrite ulen_from_inside, ulen_to_above.
  - ring.
  - apply exp_ge_1. nra.
  - split; [apply exp_nonneg|apply exp_le_1; nra].
Qed.

End TailCases.

(** Output [-B] ([g = (Zfloor (- B / lam) + 1/2) lam]) is output [B] mirrored: the two
    signs swapped ([snap_mirror]) and [c], [g] exchanged. *)

Definition snap_mirror (mech : R -> sign -> R) : R -> sign -> R :=
  fun u s => mech u (match s with SPlus => SMinus | SMinus => SPlus end).

Lemma snap_prob_mirror (mech : R -> sign -> R) (y p : R) : snap_prob (snap_mirror mech) y p -> snap_prob mech y p.
Proof.
  intros (m1 & m2 & H1 & H2 & ->).
  eapply snap_prob_eq; [|exact (snap_prob_intro _ _ _ _ H2 H1)]. ring.
Qed.

Section BottomCases.
Variables (mech : R -> sign -> R) (r c g y : R).
Hypothesis Hr : 0 < r.

Lemma snap_case_bot :
  umeasure (fun u => mech u SPlus = y) (ulen_to (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_from (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (ulen_to (exp (r * (g - c))) + ulen_from (exp (r * (c - g))))).
Proof. apply snap_prob_intro. Qed.

Lemma snap_case_bot_far : g <= c ->
  umeasure (fun u => mech u SPlus = y) (ulen_to (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_from (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * exp (r * (g - c))).
Proof. intros Hc H1 H2. exact (snap_prob_mirror _ _ _ (snap_case_top_far (snap_mirror mech) r g c y Hr Hc H2 H1)). Qed.

Lemma snap_case_bot_near : c <= g ->
  umeasure (fun u => mech u SPlus = y) (ulen_to (exp (r * (g - c)))) ->
  umeasure (fun u => mech u SMinus = y) (ulen_from (exp (r * (c - g)))) ->
  snap_prob mech y (/ 2 * (2 - exp (r * (c - g)))).
Proof. intros Hc H1 H2. exact (snap_prob_mirror _ _ _ (snap_case_top_near (snap_mirror mech) r g c y Hr Hc H2 H1)). Qed.

End BottomCases.
