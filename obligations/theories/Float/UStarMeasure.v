(** * U* for any FLT format: the probability of a float interval
    Mironov's sampler U* gives each float u of (0, 1) the length of the reals
    [u, succ u) it stands for: it is the law of [ustar U], a uniform real U of
    (0, 1] rounded down to the format, the reals below the smallest positive
    float sent to it (rounding them down would give 0, whose logarithm is −∞)
    and U = 1 (a null set) to the largest float below 1.  [ustar_is_rdn]: on
    [2^emin, 1) it is the plain rounding down.  UStar.v is the executable
    version for small binary formats; this one is symbolic in prec and emin.

    The events of the float pipeline need not be intervals of U (its
    monotonicity in u is not proved), so probabilities are taken under any
    [uprob pr]: a set function on (0, 1] that is monotone and gives an interval
    its clipped length ([umeasure]).  Lebesgue measure is one; every bound below
    holds for each of them, and one exists in Coq ([uprob_inner_len]: the
    inner length), so the premise is not vacuous.  In the normal range rounding down loses less than
    one ulp, at most 2η relative ([ustar_bracket]): U(1 − 2η) ≤ ustar U ≤ U.
    Hence the probability that u lies in [a, b] is bracketed by the interval's
    length with relative factors at its ends ([ustar_prob_lower],
    [ustar_prob_upper]), and likewise for ln u in [c, d], d ≤ 0
    ([ustar_ln_lower]/[ustar_ln_upper]: e^d − e^c/(1 − 2η) ≤ Pr ≤
    e^d/(1 − 2η) − e^c); the half-lines ln u ≤ d and ln u ≥ c for the clamped
    outputs likewise. *)
From Coq Require Import ZArith Reals Lra Lia.
From Flocq Require Import Core.Core Relative.
From Obligations.Noise Require Import UniformMeasure.
From Obligations.Float Require Import RelError.

Local Open Scope R_scope.

(** The probabilities: monotone on (0, 1], an interval's clipped length. *)
Record uprob (pr : (R -> Prop) -> R) : Prop := {
  uprob_mono : forall P Q : R -> Prop, (forall U, 0 < U <= 1 -> P U -> Q U) -> pr P <= pr Q;
  uprob_len : forall P m, umeasure P m -> pr P = m
}.

Lemma uprob_ext : forall pr (P Q : R -> Prop), uprob pr ->
  (forall U, 0 < U <= 1 -> (P U <-> Q U)) -> pr P = pr Q.
Proof.
  intros pr P Q Hpr H. apply Rle_antisym; apply (uprob_mono pr Hpr); intros U HU; apply H; exact HU.
Qed.

(** Every probability is nonnegative: the empty event has length 0. *)
Lemma uprob_nonneg : forall pr (P : R -> Prop), uprob pr -> 0 <= pr P.
Proof.
  intros pr P Hpr. rewrite <- (uprob_len pr Hpr (fun _ => False) 0 (umeasure_empty _ (fun _ _ H => H))).
  apply (uprob_mono pr Hpr). intros U _ [].
Qed.

(** The premise [uprob pr] is satisfiable: the inner length (the supremum of
    the lengths of the open intervals of (0, 1) on which P holds) is monotone
    and gives an interval its clipped length. *)
Definition inner_set (P : R -> Prop) (l : R) : Prop :=
  exists a b, 0 <= a <= b /\ b <= 1 /\ (forall U, a < U < b -> P U) /\ l = b - a.

Lemma inner_set_bound : forall P, bound (inner_set P).
Proof. intros P. exists 1. intros l (a & b & Ha & Hb & _ & ->). lra. Qed.

Lemma inner_set_nonempty : forall P, exists l, inner_set P l.
Proof.
  intros P. exists 0, 0, 0. split; [lra|]. split; [lra|]. split; [intros U HU; lra|ring].
Qed.

Definition inner_len (P : R -> Prop) : R :=
  proj1_sig (completeness (inner_set P) (inner_set_bound P) (inner_set_nonempty P)).

Lemma inner_len_lub : forall P, is_lub (inner_set P) (inner_len P).
Proof. intros P. unfold inner_len. destruct completeness as [m Hm]. exact Hm. Qed.

(** An open interval inside a closed one has its ends inside too. *)
Lemma open_in_closed : forall a b lo hi, a < b -> (forall U, a < U < b -> lo <= U <= hi) ->
  lo <= a /\ b <= hi.
Proof.
  intros a b lo hi Hab H. split.
  - destruct (Rle_dec lo a) as [Hl|Hl]; [exact Hl|exfalso].
    assert (Hu := H ((a + Rmin lo b) / 2)). unfold Rmin in Hu. destruct (Rle_dec lo b).
    + assert (lo <= (a + lo) / 2) by (apply Hu; lra). lra.
    + assert (lo <= (a + b) / 2) by (apply Hu; lra). lra.
  - destruct (Rle_dec b hi) as [Hh|Hh]; [exact Hh|exfalso].
    assert (Hu := H ((b + Rmax hi a) / 2)). unfold Rmax in Hu. destruct (Rle_dec hi a).
    + assert ((b + a) / 2 <= hi) by (apply Hu; lra). lra.
    + assert ((b + hi) / 2 <= hi) by (apply Hu; lra). lra.
Qed.

Theorem uprob_inner_len : uprob inner_len.
Proof.
  split.
  - intros P Q HPQ. destruct (inner_len_lub P) as [_ HP]. apply HP.
    intros l (a & b & Ha & Hb & HU & ->). destruct (inner_len_lub Q) as [HQ _].
    apply HQ. exists a, b. split; [exact Ha|]. split; [exact Hb|]. split; [|reflexivity].
    intros U HU'. apply HPQ; [lra|]. apply HU, HU'.
  - intros P m Hm. destruct (umeasure_sandwich P m Hm) as (lo & hi & [In Out] & ->).
    destruct (inner_len_lub P) as [Hub Hlub]. apply Rle_antisym.
    + apply Hlub. intros l (a & b & Ha & Hb & HU & ->).
      destruct (Req_dec a b) as [<-|Hne]; [replace (a - a) with 0 by ring; apply Rmax_l|].
      destruct (open_in_closed a b lo hi ltac:(lra)) as [H1 H2].
      { intros U HU'. apply Out. split; [lra|]. apply HU, HU'. }
      apply Rle_trans with (hi - lo); [lra|apply Rmax_r].
    + unfold Rmax. destruct (Rle_dec 0 (hi - lo)) as [Hd|Hd].
      * destruct (Req_dec lo hi) as [<-|Hne].
        -- replace (lo - lo) with 0 by ring. apply Hub. exists 0, 0. split; [lra|]. split; [lra|].
           split; [intros U HU; lra|ring].
        -- assert (Hs : forall U, lo < U < hi -> 0 <= U <= 1).
           { intros U HU. destruct (In U HU) as [[H1 H2] _]. lra. }
           destruct (open_in_closed lo hi 0 1 ltac:(lra) Hs) as [H1 H2].
           apply Hub. exists lo, hi. split; [lra|]. split; [lra|]. split; [|reflexivity].
           intros U HU. apply (In U HU).
      * apply Hub. exists 0, 0. split; [lra|]. split; [lra|]. split; [intros U HU; lra|ring].
Qed.

Section UStarMeasure.

Variables prec emin : Z.
(** Precision at least 2 (so 2η ≤ 1/2), and 1 − η a normal float. *)
Hypothesis Hprec : (1 < prec)%Z.
Hypothesis Hemin : (emin + prec <= 0)%Z.

Local Instance ustar_prec_gt_0 : Prec_gt_0 prec.
Proof. unfold Prec_gt_0. lia. Qed.

Notation eta := (eta prec).
Notation normal_min := (normal_min prec emin).

Definition rdn (x : R) : R := round radix2 (FLT_exp emin prec) Zfloor x.

(** The smallest positive float. *)
Definition tiny : R := bpow radix2 emin.

Definition ustar (U : R) : R := Rmax tiny (Rmin (1 - eta) (rdn U)).

Lemma two_eta : 2 * eta = bpow radix2 (1 - prec).
Proof.
  unfold eta, u_ro. replace (- prec + 1)%Z with (1 - prec)%Z by ring. field.
Qed.

Lemma eta_small : 2 * eta <= / 2.
Proof.
  rewrite two_eta. replace (/ 2) with (bpow radix2 (-1)) by (cbn; unfold Z.pow_pos; cbn; field).
  apply bpow_le. lia.
Qed.

Lemma eta_pos : 0 < eta.
Proof. unfold eta, u_ro. assert (H := bpow_gt_0 radix2 (- prec + 1)). lra. Qed.

Lemma tiny_lt_normal_min : tiny < normal_min.
Proof. unfold tiny, RelError.normal_min. apply bpow_lt. lia. Qed.

Lemma tiny_pos : 0 < tiny.
Proof. apply bpow_gt_0. Qed.

Lemma normal_min_pos : 0 < normal_min.
Proof. apply bpow_gt_0. Qed.

Lemma ustar_pos : forall U, 0 < ustar U.
Proof.
  intros U. unfold ustar. apply Rlt_le_trans with tiny; [exact tiny_pos|apply Rmax_l].
Qed.

Lemma rdn_le : forall U, rdn U <= U.
Proof. intros U. unfold rdn. exact (proj1 (proj2 (round_DN_pt radix2 (FLT_exp emin prec) U))). Qed.

(** Rounding down a normal U loses less than ulp U ≤ 2η·U. *)
Lemma rdn_ge : forall U, normal_min <= U -> U * (1 - 2 * eta) <= rdn U.
Proof.
  intros U HU.
  assert (HU0 : 0 < U) by (apply Rlt_le_trans with normal_min; [exact normal_min_pos|exact HU]).
  assert (Herr := error_lt_ulp radix2 (FLT_exp emin prec) Zfloor U ltac:(lra)).
  assert (Hulp : ulp radix2 (FLT_exp emin prec) U <= Rabs U * bpow radix2 (1 - prec)).
  { apply ulp_FLT_le. rewrite Rabs_pos_eq by lra. exact HU. }
  rewrite Rabs_pos_eq in Hulp by lra. rewrite <- two_eta in Hulp.
  fold (rdn U) in Herr. assert (Hle := rdn_le U).
  rewrite Rabs_left1 in Herr by lra. nra.
Qed.

(** U* in the normal range: ustar U within a relative 2η below U. *)
Theorem ustar_bracket : forall U, normal_min <= U <= 1 -> U * (1 - 2 * eta) <= ustar U <= U.
Proof.
  intros U [HU1 HU2].
  assert (He := eta_pos). assert (Hs := eta_small).
  assert (Hl := rdn_ge U HU1). assert (Hh := rdn_le U). assert (Ht := tiny_lt_normal_min).
  unfold ustar. split.
  - apply Rle_trans with (Rmin (1 - eta) (rdn U)); [|apply Rmax_r].
    apply Rmin_glb; nra.
  - apply Rmax_lub; [lra|]. apply Rle_trans with (rdn U); [apply Rmin_r|exact Hh].
Qed.

(** Below the normal range ustar U stays below the smallest normal. *)
Lemma ustar_small : forall U, 0 < U < normal_min -> ustar U < normal_min.
Proof.
  intros U HU. assert (Ht := tiny_lt_normal_min). unfold ustar.
  apply Rmax_lub_lt; [exact Ht|]. apply Rle_lt_trans with (rdn U); [apply Rmin_r|].
  apply Rle_lt_trans with U; [apply rdn_le|lra].
Qed.

(** For U in [2^emin, 1) U* is the rounding down of U: the cap at 1 − η (the
    largest float below 1) and the floor at 2^emin act only outside. *)
Lemma ustar_is_rdn : forall U, tiny <= U < 1 -> ustar U = rdn U.
Proof.
  intros U [HU1 HU2].
  assert (Hf : generic_format radix2 (FLT_exp emin prec) (rdn U))
    by (apply generic_format_round; [apply FLT_exp_valid; unfold Prec_gt_0; lia|apply valid_rnd_DN]).
  assert (H1 : generic_format radix2 (FLT_exp emin prec) 1).
  { change 1 with (bpow radix2 0). apply generic_format_bpow. unfold FLT_exp. lia. }
  assert (Hp : pred radix2 (FLT_exp emin prec) 1 = 1 - eta).
  { change 1 with (bpow radix2 0). rewrite pred_bpow. unfold FLT_exp.
    rewrite Z.max_l by lia. unfold eta, u_ro.
    replace (- prec + 1)%Z with (1 + (0 - prec))%Z by ring. rewrite bpow_plus. change (bpow radix2 1) with 2. change (bpow radix2 0) with 1. field. }
  assert (Hle : rdn U <= 1 - eta).
  { rewrite <- Hp. apply pred_ge_gt; [apply FLT_exp_valid; unfold Prec_gt_0; lia|exact Hf|exact H1|].
    apply Rle_lt_trans with U; [apply rdn_le|exact HU2]. }
  assert (Ht : tiny <= rdn U).
  { unfold rdn. apply round_ge_generic; [apply FLT_exp_valid; unfold Prec_gt_0; lia|apply valid_rnd_DN| |exact HU1].
    apply generic_format_bpow. unfold FLT_exp. lia. }
  unfold ustar. rewrite Rmin_right by exact Hle. apply Rmax_right. exact Ht.
Qed.

Variable pr : (R -> Prop) -> R.
Hypothesis Hpr : uprob pr.

Lemma ulen_le_diff : forall a b, a <= b -> 0 <= a -> ulen a b <= b - a.
Proof. intros a b Hab Ha. ulen_cases; lra. Qed.

Lemma ulen_ge_diff : forall a b, 0 <= a -> b <= 1 -> b - a <= ulen a b.
Proof. intros a b Ha Hb. ulen_cases; lra. Qed.

(** The clipped forms: the probability that u lies in [a, b] is at most the
    clipped length of [a, b/(1 − 2η)] and at least that of [a/(1 − 2η), b];
    they are ideal masses of moved ends, the form a ratio argument uses. *)
Theorem ustar_prob_upper_ulen : forall a b, normal_min <= a ->
  pr (fun U => a <= ustar U <= b) <= ulen a (b / (1 - 2 * eta)).
Proof.
  intros a b Ha.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  rewrite <- (uprob_len pr Hpr (fun U => a <= U <= b / (1 - 2 * eta)) (ulen a (b / (1 - 2 * eta)))
    (umeasure_ivl _ Icc a (b / (1 - 2 * eta)) (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU [H1 H2].
  destruct (Rlt_le_dec U normal_min) as [Hlt|Hge].
  - exfalso. assert (Hsm := ustar_small U (conj (proj1 HU) Hlt)). lra.
  - destruct (ustar_bracket U (conj Hge (proj2 HU))) as [B1 B2]. split; [lra|].
    apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Theorem ustar_prob_lower_ulen : forall a b, normal_min <= a ->
  ulen (a / (1 - 2 * eta)) b <= pr (fun U => a <= ustar U <= b).
Proof.
  intros a b Ha.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Ha' : a <= a / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  rewrite <- (uprob_len pr Hpr (fun U => a / (1 - 2 * eta) <= U <= b) (ulen (a / (1 - 2 * eta)) b)
    (umeasure_ivl _ Icc (a / (1 - 2 * eta)) b (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU [H1 H2].
  destruct (ustar_bracket U (conj (Rle_trans _ _ _ Ha (Rle_trans _ _ _ Ha' H1)) (proj2 HU))) as [B1 B2].
  split; [|lra].
  apply Rle_trans with (U * (1 - 2 * eta)); [|exact B1].
  apply (Rmult_le_reg_r (/ (1 - 2 * eta))); [apply Rinv_0_lt_compat; lra|].
  rewrite Rmult_assoc, Rinv_r, Rmult_1_r by lra. exact H1.
Qed.

(** The probability that u lies in [a, b], from above: at most the length of
    [a, b/(1 − 2η)]. *)
Theorem ustar_prob_upper : forall a b, normal_min <= a <= b ->
  pr (fun U => a <= ustar U <= b) <= b / (1 - 2 * eta) - a.
Proof.
  intros a b [Ha Hab].
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Hb' : b <= b / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  apply Rle_trans with (ulen a (b / (1 - 2 * eta))); [|apply ulen_le_diff; lra].
  rewrite <- (uprob_len pr Hpr (fun U => a <= U <= b / (1 - 2 * eta)) (ulen a (b / (1 - 2 * eta)))
    (umeasure_ivl _ Icc a (b / (1 - 2 * eta)) (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU [H1 H2].
  destruct (Rlt_le_dec U normal_min) as [Hlt|Hge].
  - exfalso. assert (Hsm := ustar_small U (conj (proj1 HU) Hlt)). lra.
  - destruct (ustar_bracket U (conj Hge (proj2 HU))) as [B1 B2]. split; [lra|].
    apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

(** From below: at least the length of [a/(1 − 2η), b] for b ≤ 1. *)
Theorem ustar_prob_lower : forall a b, normal_min <= a -> b <= 1 ->
  b - a / (1 - 2 * eta) <= pr (fun U => a <= ustar U <= b).
Proof.
  intros a b Ha Hb.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Ha' : a <= a / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  apply Rle_trans with (ulen (a / (1 - 2 * eta)) b); [apply ulen_ge_diff; lra|].
  rewrite <- (uprob_len pr Hpr (fun U => a / (1 - 2 * eta) <= U <= b) (ulen (a / (1 - 2 * eta)) b)
    (umeasure_ivl _ Icc (a / (1 - 2 * eta)) b (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU [H1 H2].
  destruct (ustar_bracket U (conj (Rle_trans _ _ _ Ha (Rle_trans _ _ _ Ha' H1)) (proj2 HU))) as [B1 B2].
  split; [|lra].
  apply Rle_trans with (U * (1 - 2 * eta)); [|exact B1].
  apply (Rmult_le_reg_r (/ (1 - 2 * eta))); [apply Rinv_0_lt_compat; lra|].
  rewrite Rmult_assoc, Rinv_r, Rmult_1_r by lra. exact H1.
Qed.

(** The half-lines, for the clamped outputs. *)
Theorem ustar_prob_below_upper : forall b, normal_min <= b ->
  pr (fun U => ustar U <= b) <= b / (1 - 2 * eta).
Proof.
  intros b Hb.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Hb' : b <= b / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  apply Rle_trans with (ulen_to (b / (1 - 2 * eta))); [|unfold ulen_to; split_minmax; lra].
  rewrite <- (uprob_len pr Hpr (fun U => U <= b / (1 - 2 * eta)) (ulen_to (b / (1 - 2 * eta)))
    (umeasure_ivl _ Iic 0 (b / (1 - 2 * eta)) (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H.
  destruct (Rlt_le_dec U normal_min) as [Hlt|Hge]; [lra|].
  destruct (ustar_bracket U (conj Hge (proj2 HU))) as [B1 B2].
  apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Theorem ustar_prob_below_lower : forall b, tiny <= b -> b <= 1 ->
  b <= pr (fun U => ustar U <= b).
Proof.
  intros b Hb Hb1.
  apply Rle_trans with (ulen_to b); [unfold ulen_to; split_minmax; lra|].
  rewrite <- (uprob_len pr Hpr (fun U => U <= b) (ulen_to b) (umeasure_ivl _ Iic 0 b (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H. unfold ustar.
  apply Rmax_lub; [exact Hb|]. apply Rle_trans with (rdn U); [apply Rmin_r|].
  apply Rle_trans with U; [apply rdn_le|exact H].
Qed.

Theorem ustar_prob_above_upper : forall a, normal_min <= a <= 1 ->
  pr (fun U => a <= ustar U) <= 1 - a.
Proof.
  intros a [Ha Ha1]. assert (Hn := normal_min_pos).
  apply Rle_trans with (ulen_from a); [|unfold ulen_from; split_minmax; lra].
  rewrite <- (uprob_len pr Hpr (fun U => a <= U) (ulen_from a) (umeasure_ivl _ Ici a 0 (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H.
  destruct (Rlt_le_dec U normal_min) as [Hlt|Hge].
  - exfalso. assert (Hsm := ustar_small U (conj (proj1 HU) Hlt)). lra.
  - destruct (ustar_bracket U (conj Hge (proj2 HU))). lra.
Qed.

Theorem ustar_prob_above_lower : forall a, normal_min <= a ->
  1 - a / (1 - 2 * eta) <= pr (fun U => a <= ustar U).
Proof.
  intros a Ha.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Ha' : a <= a / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  apply Rle_trans with (ulen_from (a / (1 - 2 * eta))); [unfold ulen_from; split_minmax; lra|].
  rewrite <- (uprob_len pr Hpr (fun U => a / (1 - 2 * eta) <= U) (ulen_from (a / (1 - 2 * eta)))
    (umeasure_ivl _ Ici (a / (1 - 2 * eta)) 0 (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H1.
  destruct (ustar_bracket U (conj (Rle_trans _ _ _ Ha (Rle_trans _ _ _ Ha' H1)) (proj2 HU))) as [B1 B2].
  apply Rle_trans with (U * (1 - 2 * eta)); [|exact B1].
  apply (Rmult_le_reg_r (/ (1 - 2 * eta))); [apply Rinv_0_lt_compat; lra|].
  rewrite Rmult_assoc, Rinv_r, Rmult_1_r by lra. exact H1.
Qed.

Lemma exp_mono : forall x y, x <= y -> exp x <= exp y.
Proof.
  intros x y [H| ->]; [left; apply exp_increasing, H|right; reflexivity].
Qed.

Lemma ln_mono : forall x y, 0 < x -> x <= y -> ln x <= ln y.
Proof.
  intros x y Hx [H| ->]; [left; apply ln_increasing; [exact Hx|exact H]|right; reflexivity].
Qed.

(** The logarithm of the sample: ln is monotone on u > 0, so ln u in [c, d]
    is u in [e^c, e^d]. *)
Lemma ln_ustar_iff : forall c d U, c <= ln (ustar U) <= d <-> exp c <= ustar U <= exp d.
Proof.
  intros c d U. assert (Hp := ustar_pos U). split; intros [H1 H2].
  - split; [rewrite <- (exp_ln (ustar U)) by exact Hp; apply exp_mono; exact H1|].
    rewrite <- (exp_ln (ustar U)) by exact Hp. apply exp_mono. exact H2.
  - split; [rewrite <- (ln_exp c); apply ln_mono; [apply exp_pos|exact H1]|].
    rewrite <- (ln_exp d). apply ln_mono; [exact Hp|exact H2].
Qed.

Theorem ustar_ln_upper : forall c d, normal_min <= exp c -> c <= d ->
  pr (fun U => c <= ln (ustar U) <= d) <= exp d / (1 - 2 * eta) - exp c.
Proof.
  intros c d Hc Hcd.
  rewrite (uprob_ext pr _ (fun U => exp c <= ustar U <= exp d) Hpr (fun U _ => ln_ustar_iff c d U)).
  apply ustar_prob_upper. split; [exact Hc|]. apply exp_mono. exact Hcd.
Qed.

Theorem ustar_ln_lower : forall c d, normal_min <= exp c -> d <= 0 ->
  exp d - exp c / (1 - 2 * eta) <= pr (fun U => c <= ln (ustar U) <= d).
Proof.
  intros c d Hc Hd.
  rewrite (uprob_ext pr _ (fun U => exp c <= ustar U <= exp d) Hpr (fun U _ => ln_ustar_iff c d U)).
  apply ustar_prob_lower; [exact Hc|]. rewrite <- exp_0. apply exp_mono. exact Hd.
Qed.

Lemma ln_ustar_le_iff : forall d U, ln (ustar U) <= d <-> ustar U <= exp d.
Proof.
  intros d U. assert (Hp := ustar_pos U). split; intros H.
  - rewrite <- (exp_ln (ustar U)) by exact Hp. apply exp_mono. exact H.
  - rewrite <- (ln_exp d). apply ln_mono; [exact Hp|exact H].
Qed.

Lemma ln_ustar_ge_iff : forall c U, c <= ln (ustar U) <-> exp c <= ustar U.
Proof.
  intros c U. assert (Hp := ustar_pos U). split; intros H.
  - rewrite <- (exp_ln (ustar U)) by exact Hp. apply exp_mono. exact H.
  - rewrite <- (ln_exp c). apply ln_mono; [apply exp_pos|exact H].
Qed.

Theorem ustar_ln_below_upper : forall d, normal_min <= exp d ->
  pr (fun U => ln (ustar U) <= d) <= exp d / (1 - 2 * eta).
Proof.
  intros d Hd. rewrite (uprob_ext pr _ (fun U => ustar U <= exp d) Hpr (fun U _ => ln_ustar_le_iff d U)).
  apply ustar_prob_below_upper. exact Hd.
Qed.

Theorem ustar_ln_below_lower : forall d, normal_min <= exp d -> d <= 0 ->
  exp d <= pr (fun U => ln (ustar U) <= d).
Proof.
  intros d Hd Hd0. assert (Ht := tiny_lt_normal_min).
  rewrite (uprob_ext pr _ (fun U => ustar U <= exp d) Hpr (fun U _ => ln_ustar_le_iff d U)).
  apply ustar_prob_below_lower; [lra|]. rewrite <- exp_0. apply exp_mono. exact Hd0.
Qed.

Theorem ustar_ln_above_upper : forall c, normal_min <= exp c -> c <= 0 ->
  pr (fun U => c <= ln (ustar U)) <= 1 - exp c.
Proof.
  intros c Hc Hc0. rewrite (uprob_ext pr _ (fun U => exp c <= ustar U) Hpr (fun U _ => ln_ustar_ge_iff c U)).
  apply ustar_prob_above_upper. split; [exact Hc|]. rewrite <- exp_0. apply exp_mono. exact Hc0.
Qed.

Theorem ustar_ln_above_lower : forall c, normal_min <= exp c ->
  1 - exp c / (1 - 2 * eta) <= pr (fun U => c <= ln (ustar U)).
Proof.
  intros c Hc. rewrite (uprob_ext pr _ (fun U => exp c <= ustar U) Hpr (fun U _ => ln_ustar_ge_iff c U)).
  apply ustar_prob_above_lower. exact Hc.
Qed.

Theorem ustar_ln_upper_ulen : forall c d, normal_min <= exp c ->
  pr (fun U => c <= ln (ustar U) <= d) <= ulen (exp c) (exp d / (1 - 2 * eta)).
Proof.
  intros c d Hc.
  rewrite (uprob_ext pr _ (fun U => exp c <= ustar U <= exp d) Hpr (fun U _ => ln_ustar_iff c d U)).
  apply ustar_prob_upper_ulen. exact Hc.
Qed.

Theorem ustar_ln_lower_ulen : forall c d, normal_min <= exp c ->
  ulen (exp c / (1 - 2 * eta)) (exp d) <= pr (fun U => c <= ln (ustar U) <= d).
Proof.
  intros c d Hc.
  rewrite (uprob_ext pr _ (fun U => exp c <= ustar U <= exp d) Hpr (fun U _ => ln_ustar_iff c d U)).
  apply ustar_prob_lower_ulen. exact Hc.
Qed.

(** The half-lines in clipped form, for the ratio of the clamped outputs. *)
Theorem ustar_ln_above_upper_ulen : forall c, normal_min <= exp c ->
  pr (fun U => c <= ln (ustar U)) <= ulen_from (exp c).
Proof.
  intros c Hc. assert (Hn := normal_min_pos).
  rewrite (uprob_ext pr _ (fun U => exp c <= ustar U) Hpr (fun U _ => ln_ustar_ge_iff c U)).
  rewrite <- (uprob_len pr Hpr (fun U => exp c <= U) (ulen_from (exp c))
    (umeasure_ivl _ Ici (exp c) 0 (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H.
  destruct (Rlt_le_dec U normal_min) as [Hlt|Hge].
  - exfalso. assert (Hsm := ustar_small U (conj (proj1 HU) Hlt)). lra.
  - destruct (ustar_bracket U (conj Hge (proj2 HU))). lra.
Qed.

Theorem ustar_ln_above_lower_ulen : forall c, normal_min <= exp c ->
  ulen_from (exp c / (1 - 2 * eta)) <= pr (fun U => c <= ln (ustar U)).
Proof.
  intros c Hc.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Ha' : exp c <= exp c / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  rewrite (uprob_ext pr _ (fun U => exp c <= ustar U) Hpr (fun U _ => ln_ustar_ge_iff c U)).
  rewrite <- (uprob_len pr Hpr (fun U => exp c / (1 - 2 * eta) <= U) (ulen_from (exp c / (1 - 2 * eta)))
    (umeasure_ivl _ Ici (exp c / (1 - 2 * eta)) 0 (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H1.
  destruct (ustar_bracket U (conj (Rle_trans _ _ _ Hc (Rle_trans _ _ _ Ha' H1)) (proj2 HU))) as [B1 B2].
  apply Rle_trans with (U * (1 - 2 * eta)); [|exact B1].
  apply (Rmult_le_reg_r (/ (1 - 2 * eta))); [apply Rinv_0_lt_compat; lra|].
  rewrite Rmult_assoc, Rinv_r, Rmult_1_r by lra. exact H1.
Qed.

Theorem ustar_ln_below_upper_ulen : forall d, normal_min <= exp d ->
  pr (fun U => ln (ustar U) <= d) <= ulen_to (exp d / (1 - 2 * eta)).
Proof.
  intros d Hd.
  assert (He := eta_pos). assert (Hs := eta_small). assert (Hn := normal_min_pos).
  assert (Hb' : exp d <= exp d / (1 - 2 * eta)).
  { apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. field_simplify; [nra|lra]. }
  rewrite (uprob_ext pr _ (fun U => ustar U <= exp d) Hpr (fun U _ => ln_ustar_le_iff d U)).
  rewrite <- (uprob_len pr Hpr (fun U => U <= exp d / (1 - 2 * eta)) (ulen_to (exp d / (1 - 2 * eta)))
    (umeasure_ivl _ Iic 0 (exp d / (1 - 2 * eta)) (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H.
  destruct (Rlt_le_dec U normal_min) as [Hlt|Hge]; [lra|].
  destruct (ustar_bracket U (conj Hge (proj2 HU))) as [B1 B2].
  apply (Rmult_le_reg_r (1 - 2 * eta)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Theorem ustar_ln_below_lower_ulen : forall d, normal_min <= exp d ->
  ulen_to (exp d) <= pr (fun U => ln (ustar U) <= d).
Proof.
  intros d Hd. assert (Ht := tiny_lt_normal_min).
  rewrite (uprob_ext pr _ (fun U => ustar U <= exp d) Hpr (fun U _ => ln_ustar_le_iff d U)).
  rewrite <- (uprob_len pr Hpr (fun U => U <= exp d) (ulen_to (exp d))
    (umeasure_ivl _ Iic 0 (exp d) (fun U _ => iff_refl _))).
  apply (uprob_mono pr Hpr). intros U HU H. unfold ustar.
  apply Rmax_lub; [lra|]. apply Rle_trans with (rdn U); [apply Rmin_r|].
  apply Rle_trans with U; [apply rdn_le|exact H].
Qed.

End UStarMeasure.
