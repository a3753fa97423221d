(** * The uniform measure on (0,1], restricted to intervals

    The snapping mechanism draws [u] uniformly from (0,1]; every event it
    needs is an interval of [u].  Its probability is the length of the
    interval clipped to (0,1], so no measure theory is needed: [umeasure P m]
    says that on (0,1] the predicate [P] is one interval (or empty) and [m] is
    its clipped length.  [umeasure_unique] makes [m] a function of [P]. *)
From Coq Require Import Reals Lra.
Local Open Scope R_scope.

(** Length of the interval from [a] to [b] intersected with (0,1]; whether
    the endpoints belong to it does not matter. *)
Definition ulen (a b : R) : R := Rmax 0 (Rmin b 1 - Rmax a 0).

(** Length of [a, ∞) ∩ (0,1]. *)
Definition ulen_from (a : R) : R := Rmax 0 (1 - Rmax a 0).

(** Length of (0, b] ∩ (0,1]. *)
Definition ulen_to (b : R) : R := Rmax 0 (Rmin b 1).

(** Kinds of intervals: bounded ones use both endpoints, half-lines one. *)
Inductive ivl := Ico | Ioc | Icc | Ioo | Ici | Ioi | Iic | Iio.

Definition in_ivl (i : ivl) (a b x : R) : Prop :=
  match i with
  | Ico => a <= x < b
  | Ioc => a < x <= b
  | Icc => a <= x <= b
  | Ioo => a < x < b
  | Ici => a <= x
  | Ioi => a < x
  | Iic => x <= b
  | Iio => x < b
  end.

(** Clipped length of an interval of kind [i]. *)
Definition ivl_len (i : ivl) (a b : R) : R :=
  match i with
  | Ici | Ioi => ulen_from a
  | Iic | Iio => ulen_to b
  | _ => ulen a b
  end.

(** [P] is, on (0,1], empty (measure 0) or one interval of clipped length [m]. *)
Definition umeasure (P : R -> Prop) (m : R) : Prop :=
  ((forall u, 0 < u <= 1 -> ~ P u) /\ m = 0) \/
  (exists i a b, (forall u, 0 < u <= 1 -> (P u <-> in_ivl i a b u)) /\ m = ivl_len i a b).

(** ** Basic facts about [ulen] *)

(** Case analysis on every [Rmax]/[Rmin], innermost first (so that the case
    hypotheses mention no [Rmax]/[Rmin] themselves). *)
Ltac no_minmax t :=
  lazymatch t with context [Rmax _ _] => fail | context [Rmin _ _] => fail | _ => idtac end.

Ltac split_minmax :=
  repeat match goal with
  | |- context [Rmax ?x ?y] => no_minmax x; no_minmax y;
      let H := fresh "Hm" in destruct (Rle_or_lt x y) as [H|H];
      [rewrite (Rmax_right x y H) | rewrite (Rmax_left x y (Rlt_le _ _ H))]
  | |- context [Rmin ?x ?y] => no_minmax x; no_minmax y;
      let H := fresh "Hm" in destruct (Rle_or_lt x y) as [H|H];
      [rewrite (Rmin_left x y H) | rewrite (Rmin_right x y (Rlt_le _ _ H))]
  end.

Ltac ulen_cases := unfold ulen, ulen_from, ulen_to; split_minmax.

Lemma ulen_nonneg a b : 0 <= ulen a b.
Proof. unfold ulen. apply Rmax_l. Qed.

Lemma ulen_from_nonneg a : 0 <= ulen_from a.
Proof. unfold ulen_from. apply Rmax_l. Qed.

Lemma ulen_to_nonneg b : 0 <= ulen_to b.
Proof. unfold ulen_to. apply Rmax_l. Qed.

Lemma ivl_len_nonneg i a b : 0 <= ivl_len i a b.
Proof.
  destruct i; cbn; auto using ulen_nonneg, ulen_from_nonneg, ulen_to_nonneg.
Qed.

Lemma ulen_le_1 a b : ulen a b <= 1.
Proof. ulen_cases; lra. Qed.

(** Evaluation of [ulen] according to where the endpoints lie. *)
Lemma ulen_inside a b : 0 <= a <= b -> b <= 1 -> ulen a b = b - a.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_straddle a b : 0 <= a <= 1 -> 1 <= b -> ulen a b = 1 - a.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_above a b : 1 <= a -> ulen a b = 0.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_below a b : b <= 0 -> ulen a b = 0.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_empty a b : b <= a -> ulen a b = 0.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_from_inside a : 0 <= a <= 1 -> ulen_from a = 1 - a.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_from_above a : 1 <= a -> ulen_from a = 0.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_from_below a : a <= 0 -> ulen_from a = 1.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_to_inside b : 0 <= b <= 1 -> ulen_to b = b.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_to_above b : 1 <= b -> ulen_to b = 1.
Proof. intros. ulen_cases; lra. Qed.

Lemma ulen_to_below b : b <= 0 -> ulen_to b = 0.
Proof. intros. ulen_cases; lra. Qed.

(** ** Well-definedness of [umeasure] *)

(** [S] contains the open interval (lo, hi) and lies in [lo, hi]. *)
Definition sandwiched (S : R -> Prop) (lo hi : R) : Prop :=
  (forall u, lo < u < hi -> S u) /\ (forall u, S u -> lo <= u <= hi).

(** The length of a sandwiched set does not depend on the sandwich: the
    open part pins both endpoints down, and a set squeezed into one point
    cannot contain an open interval. *)
Lemma sandwiched_len_unique S lo1 hi1 lo2 hi2 :
  sandwiched S lo1 hi1 -> sandwiched S lo2 hi2 ->
  Rmax 0 (hi1 - lo1) = Rmax 0 (hi2 - lo2).
Proof.
  intros [In1 Out1] [In2 Out2].
  assert (Hthin : forall lo hi lo' hi',
    (forall u, lo < u < hi -> S u) -> (forall u, S u -> lo' <= u <= hi') ->
    lo < hi -> lo' < hi').
  { intros lo hi lo' hi' In Out Hlt.
    pose proof (Out (lo + (hi - lo) / 3) ltac:(apply In; lra)).
    pose proof (Out (lo + 2 * (hi - lo) / 3) ltac:(apply In; lra)). lra. }
  destruct (Rlt_le_dec lo1 hi1) as [H1|H1]; destruct (Rlt_le_dec lo2 hi2) as [H2|H2].
  - (* both proper: the endpoints agree *)
    assert (lo1 = lo2).
    { destruct (Rtotal_order lo1 lo2) as [Hl|[Hl|Hl]]; [|exact Hl|].
      - pose proof (Out2 ((lo1 + Rmin lo2 hi1) / 2)
          ltac:(apply In1; unfold Rmin; destruct Rle_dec; lra)).
        unfold Rmin in *; destruct Rle_dec; lra.
      - pose proof (Out1 ((lo2 + Rmin lo1 hi2) / 2)
          ltac:(apply In2; unfold Rmin; destruct Rle_dec; lra)).
        unfold Rmin in *; destruct Rle_dec; lra. }
    assert (hi1 = hi2).
    { destruct (Rtotal_order hi1 hi2) as [Hl|[Hl|Hl]]; [|exact Hl|].
      - pose proof (Out1 ((hi2 + Rmax hi1 lo2) / 2)
          ltac:(apply In2; unfold Rmax; destruct Rle_dec; lra)).
        unfold Rmax in *; destruct Rle_dec; lra.
      - pose proof (Out2 ((hi1 + Rmax hi2 lo1) / 2)
          ltac:(apply In1; unfold Rmax; destruct Rle_dec; lra)).
        unfold Rmax in *; destruct Rle_dec; lra. }
    subst; reflexivity.
  - exfalso. pose proof (Hthin lo1 hi1 lo2 hi2 In1 Out2 H1). lra.
  - exfalso. pose proof (Hthin lo2 hi2 lo1 hi1 In2 Out1 H2). lra.
  - rewrite !Rmax_left by lra. reflexivity.
Qed.

(** The clipped part of an interval is sandwiched between its clipped
    endpoints, and its clipped length is the length of that sandwich. *)
Lemma ivl_sandwich i a b :
  exists lo hi,
    sandwiched (fun u => 0 < u <= 1 /\ in_ivl i a b u) lo hi /\
    ivl_len i a b = Rmax 0 (hi - lo).
Proof.
  destruct i.
  1-4: exists (Rmax a 0), (Rmin b 1); split; [|reflexivity];
    split; intros u Hu; cbn in *;
    unfold Rmax, Rmin in *; repeat destruct Rle_dec; lra.
  1-2: exists (Rmax a 0), 1; split; [|reflexivity];
    split; intros u Hu; cbn in *;
    unfold Rmax in *; repeat destruct Rle_dec; lra.
  1-2: exists 0, (Rmin b 1); split; [|cbn; unfold ulen_to; f_equal; ring];
    split; intros u Hu; cbn in *;
    unfold Rmin in *; repeat destruct Rle_dec; lra.
Qed.

(** The empty set, seen as a sandwich of length 0. *)
Lemma empty_sandwich (P : R -> Prop) :
  (forall u, 0 < u <= 1 -> ~ P u) ->
  sandwiched (fun u => 0 < u <= 1 /\ P u) 0 0 /\ 0 = Rmax 0 (0 - 0).
Proof.
  intros H. split.
  - split; intros u Hu; [lra|]. exfalso. destruct Hu as [Hu HP]. exact (H u Hu HP).
  - rewrite Rminus_0_r, Rmax_left; lra.
Qed.

Lemma umeasure_sandwich P m :
  umeasure P m ->
  exists lo hi, sandwiched (fun u => 0 < u <= 1 /\ P u) lo hi /\ m = Rmax 0 (hi - lo).
Proof.
  intros [[HP ->]|(i & a & b & HP & ->)].
  - exists 0, 0. now apply empty_sandwich.
  - destruct (ivl_sandwich i a b) as (lo & hi & [In Out] & Hlen).
    exists lo, hi. split; [|exact Hlen]. split.
    + intros u Hu. pose proof (In u Hu) as [H1 H2]. split; [exact H1|]. now apply HP.
    + intros u [H1 H2]. apply Out. split; [exact H1|]. now apply HP.
Qed.

(** The measure is well defined. *)
Lemma umeasure_unique P m1 m2 : umeasure P m1 -> umeasure P m2 -> m1 = m2.
Proof.
  intros H1 H2.
  destruct (umeasure_sandwich P m1 H1) as (lo1 & hi1 & S1 & ->).
  destruct (umeasure_sandwich P m2 H2) as (lo2 & hi2 & S2 & ->).
  exact (sandwiched_len_unique _ _ _ _ _ S1 S2).
Qed.

Lemma umeasure_nonneg P m : umeasure P m -> 0 <= m.
Proof.
  intros [[_ ->]|(i & a & b & _ & ->)]; [lra|apply ivl_len_nonneg].
Qed.

Lemma umeasure_empty (P : R -> Prop) : (forall u, 0 < u <= 1 -> ~ P u) -> umeasure P 0.
Proof. intros H. left. split; [exact H|reflexivity]. Qed.

(** An event that never happens on (0,1] has measure 0, whatever form it was given in. *)
Lemma umeasure_empty_eq P m : (forall u, 0 < u <= 1 -> ~ P u) -> umeasure P m -> m = 0.
Proof. intros H Hm. exact (umeasure_unique P m 0 Hm (umeasure_empty P H)). Qed.

(** Measures only depend on [P] on (0,1]. *)
Lemma umeasure_ext (P Q : R -> Prop) m :
  (forall u, 0 < u <= 1 -> (P u <-> Q u)) -> umeasure P m -> umeasure Q m.
Proof.
  intros HPQ [[HP ->]|(i & a & b & HP & ->)].
  - left. split; [|reflexivity]. intros u Hu HQ. apply (HP u Hu). now apply HPQ.
  - right. exists i, a, b. split; [|reflexivity].
    intros u Hu. rewrite <- HPQ by exact Hu. now apply HP.
Qed.

(** Introduction forms, one per interval kind used by the snapping mechanism. *)
Lemma umeasure_ivl (P : R -> Prop) i a b :
  (forall u, 0 < u <= 1 -> (P u <-> in_ivl i a b u)) -> umeasure P (ivl_len i a b).
Proof. intros H. right. exists i, a, b. split; [exact H|reflexivity]. Qed.

Lemma umeasure_Ico (P : R -> Prop) a b :
  (forall u, 0 < u <= 1 -> (P u <-> a <= u < b)) -> umeasure P (ulen a b).
Proof. intros H. exact (umeasure_ivl P Ico a b H). Qed.

Lemma umeasure_Ioc (P : R -> Prop) a b :
  (forall u, 0 < u <= 1 -> (P u <-> a < u <= b)) -> umeasure P (ulen a b).
Proof. intros H. exact (umeasure_ivl P Ioc a b H). Qed.

Lemma umeasure_Ici (P : R -> Prop) a :
  (forall u, 0 < u <= 1 -> (P u <-> a <= u)) -> umeasure P (ulen_from a).
Proof. intros H. exact (umeasure_ivl P Ici a 0 H). Qed.

Lemma umeasure_Ioi (P : R -> Prop) a :
  (forall u, 0 < u <= 1 -> (P u <-> a < u)) -> umeasure P (ulen_from a).
Proof. intros H. exact (umeasure_ivl P Ioi a 0 H). Qed.

Lemma umeasure_Iic (P : R -> Prop) b :
  (forall u, 0 < u <= 1 -> (P u <-> u <= b)) -> umeasure P (ulen_to b).
Proof. intros H. exact (umeasure_ivl P Iic 0 b H). Qed.

Lemma umeasure_Iio (P : R -> Prop) b :
  (forall u, 0 < u <= 1 -> (P u <-> u < b)) -> umeasure P (ulen_to b).
Proof. intros H. exact (umeasure_ivl P Iio 0 b H). Qed.

(** ** Scaling an interval by [s] *)

(** Stretching ([s >= 1]) multiplies the clipped length by at most [s]. *)
Lemma ulen_scale_ge1 s a b : 1 <= s -> 0 <= a -> ulen (s * a) (s * b) <= s * ulen a b.
Proof. intros Hs Ha. ulen_cases; nra. Qed.

(** Shrinking ([s <= 1]) can pull mass in from above 1: the bound needs the
    additive term [1 - s]. *)
Lemma ulen_scale_le1 s a b :
  0 < s <= 1 -> 0 <= a -> ulen (s * a) (s * b) <= s * ulen a b + (1 - s).
Proof. intros Hs Ha. ulen_cases; nra. Qed.

(** Seed 000's per-sign step "Pr[u ∈ I] <= e^ε Pr[u ∈ e^(-ε) I]" is false
    once the interval reaches above 1: with [I = [4,5)] and the factor
    [s = 1/10] (so [e^|ln s| = 10]), the shrunk interval has length 1/10
    while [10 * ulen 4 5 = 0]. *)
Lemma ulen_scale_counterexample :
  ulen (/ 10 * 4) (/ 10 * 5) = / 10 /\ ulen 4 5 = 0 /\
  ulen (/ 10 * 4) (/ 10 * 5) > 10 * ulen 4 5.
Proof.
  assert (H1 : ulen (/ 10 * 4) (/ 10 * 5) = / 10) by (ulen_cases; lra).
  assert (H2 : ulen 4 5 = 0) by (ulen_cases; lra).
  rewrite H1, H2. repeat split; lra.
Qed.

(** The same, as the negation of the general per-sign bound. *)
Lemma ulen_scale_per_sign_false :
  ~ (forall s a b, 0 < s -> 0 <= a -> ulen (s * a) (s * b) <= Rmax s (/ s) * ulen a b).
Proof.
  intros H. specialize (H (/ 10) 4 5 ltac:(lra) ltac:(lra)).
  destruct ulen_scale_counterexample as (H1 & H2 & _).
  rewrite H1, H2, Rmult_0_r in H. lra.
Qed.
