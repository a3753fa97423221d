(** * The snapping mechanism: its output probabilities

    A mechanism is given as a function of the uniform sample [u ∈ (0,1]] and
    of the sign [s ∈ {+1, -1}] (the query value is applied before).  The
    probability of an output [y] is half the measure of its preimage on each
    sign ([snap_prob]): a relation, with at most one probability per output
    ([snap_prob_unique]) and one for every output when the preimages are
    intervals ([snap_prob_total]).  The rest of the snapping library builds on
    it: the per-sign preimages (SnapPreimage.v), the closed-form probabilities
    (SnapCases.v) and pure DP (SnapDP.v, [snap_dp]). *)
From Coq Require Import Reals Lra Classical.
From Obligations.Noise Require Import UniformMeasure.
Local Open Scope R_scope.

Inductive sign := SPlus | SMinus.

Definition sgn (s : sign) : R := match s with SPlus => 1 | SMinus => -1 end.

(** [p] is Pr[mech u S = y] for [u] uniform on (0,1] and [S] a fair sign. *)
Definition snap_prob (mech : R -> sign -> R) (y p : R) : Prop :=
  exists m1 m2, umeasure (fun u => mech u SPlus = y) m1 /\
                umeasure (fun u => mech u SMinus = y) m2 /\ p = / 2 * (m1 + m2).

Lemma snap_prob_intro (mech : R -> sign -> R) y m1 m2 :
  umeasure (fun u => mech u SPlus = y) m1 -> umeasure (fun u => mech u SMinus = y) m2 ->
  snap_prob mech y (/ 2 * (m1 + m2)).
Proof. intros H1 H2. exists m1, m2. auto. Qed.

Lemma snap_prob_eq (mech : R -> sign -> R) y p q : p = q -> snap_prob mech y p -> snap_prob mech y q.
Proof. intros ->. trivial. Qed.

(** The probability of an output is unique. *)
Lemma snap_prob_unique (mech : R -> sign -> R) y p q :
  snap_prob mech y p -> snap_prob mech y q -> p = q.
Proof.
  intros (m1 & m2 & H1 & H2 & ->) (n1 & n2 & G1 & G2 & ->).
  rewrite (umeasure_unique _ _ _ H1 G1), (umeasure_unique _ _ _ H2 G2). reflexivity.
Qed.

Lemma snap_prob_nonneg (mech : R -> sign -> R) y p : snap_prob mech y p -> 0 <= p.
Proof.
  intros (m1 & m2 & H1 & H2 & ->).
  pose proof (umeasure_nonneg _ _ H1). pose proof (umeasure_nonneg _ _ H2). lra.
Qed.

(** An output the mechanism never produces has probability 0. *)
Lemma snap_prob_never (mech : R -> sign -> R) y p :
  (forall u s, 0 < u <= 1 -> mech u s <> y) -> snap_prob mech y p -> p = 0.
Proof.
  intros Hn (m1 & m2 & H1 & H2 & ->).
  rewrite (umeasure_empty_eq _ _ (fun u Hu => Hn u SPlus Hu) H1).
  rewrite (umeasure_empty_eq _ _ (fun u Hu => Hn u SMinus Hu) H2). ring.
Qed.

(** ** The Laplace sample [x = c + sgn s * (ln u / r)] *)

Lemma sgn_plus_x c z : c + sgn SPlus * z = c + z.
Proof. cbn. ring. Qed.

Lemma sgn_minus_x c z : c + sgn SMinus * z = c - z.
Proof. cbn. ring. Qed.

(** ** Mechanisms that agree on (0, 1] have the same output probabilities

    The generated files define the mechanism literally from the spec's steps and
    prove that it agrees with the normal form [c + sgn s * (/ r * ln u)] that the
    case lemmas speak about; this transports their probabilities. *)
Lemma snap_prob_ext (mech mech' : R -> sign -> R) y p :
  (forall u s, 0 < u <= 1 -> mech u s = mech' u s) ->
  snap_prob mech y p -> snap_prob mech' y p.
Proof.
  intros Heq (m1 & m2 & H1 & H2 & Hp). exists m1, m2. repeat split; [| |exact Hp].
  - revert H1. apply umeasure_ext. intros u Hu. rewrite (Heq u SPlus Hu). tauto.
  - revert H2. apply umeasure_ext. intros u Hu. rewrite (Heq u SMinus Hu). tauto.
Qed.

(** ** Every output has a probability

    [snap_prob] is a relation; the DP theorems quantify over the probabilities it
    relates, so they would say nothing about an output that has none.  This lemma
    rules that out: outputs in [G] get one from the preimage measures, and any
    other value is never output (measure 0 for both signs). *)
Lemma snap_prob_total (mech : R -> sign -> R) (G : R -> Prop) :
  (forall y, G y -> exists m1 m2, umeasure (fun u => mech u SPlus = y) m1 /\
                                  umeasure (fun u => mech u SMinus = y) m2) ->
  (forall u s y, 0 < u <= 1 -> mech u s = y -> G y) ->
  forall y, exists p, snap_prob mech y p.
Proof.
  intros Hg Hrange y. destruct (Classical_Prop.classic (G y)) as [HG | HG].
  - destruct (Hg y HG) as (m1 & m2 & H1 & H2). exists (/ 2 * (m1 + m2)), m1, m2. auto.
  - exists 0, 0, 0. split; [| split].
    + left. split; [| reflexivity]. intros u Hu Hm. exact (HG (Hrange u SPlus y Hu Hm)).
    + left. split; [| reflexivity]. intros u Hu Hm. exact (HG (Hrange u SMinus y Hu Hm)).
    + lra.
Qed.
