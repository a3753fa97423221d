(** * Sub-distributions: the law of a mechanism's output, in every model

    A discrete sub-distribution is a mass function [mu : B -> R] read on a list
    [univ] of the points of its support; a point listed twice counts twice, so
    a weighted list is its own support.  Events are boolean predicates.
    [pr_on univ mu E] is Pr[mu ∈ E]; [subdistr_on univ mu] says that [mu] is a
    sub-distribution (non-negative, total mass at most 1) and [distr_on univ mu]
    a distribution (total mass exactly 1).  On a type with infinitely many
    points (noise vectors in Z^n), a sub-distribution is a function whose every
    restriction to finitely many distinct points is one ([subdistr_all]).

    Every model's semantics is an instance, stated beside its definition:
    - finite tables: [pr_is_pr_on], [subdistr_iff_subdistr_on], [distr_iff_distr_on]
      (Finite/Mechanism.v); tables of reals: [rpr_is_pr_on], [rdistr_iff_distr_on]
      (Finite/RealTable.v);
    - programs: a weighted list [d : dist A] ([rprob_is_pr_on], [dist_subdistr_on],
      Program/Dist.v);
    - noise vectors: [sum_le_iff_subdistr_all] (Coupling/LubSum.v) and the product
      of two-sided geometric densities [dens_subdistr_all] (Coupling/Product.v).
    The snapping and floating-point pipelines give probabilities to intervals
    (and sets) of the uniform sample u (Noise/UniformMeasure.v, Float/UStarMeasure.v),
    not to finitely many points: they are not discrete. *)
From Coq Require Import Reals Lra List.
From Obligations.Core Require Import Sums.
Import ListNotations.
Local Open Scope R_scope.

(** Pr[mu ∈ E], the support read on [univ]. *)
Definition pr_on {B} (univ : list B) (mu : B -> R) (E : B -> bool) : R :=
  rsum (map (fun a => if E a then mu a else 0) univ).

(** Non-negative, total mass at most 1. *)
Definition subdistr_on {B} (univ : list B) (mu : B -> R) : Prop :=
  (forall a, In a univ -> 0 <= mu a) /\ pr_on univ mu (fun _ => true) <= 1.

(** Non-negative, total mass exactly 1. *)
Definition distr_on {B} (univ : list B) (mu : B -> R) : Prop :=
  (forall a, In a univ -> 0 <= mu a) /\ pr_on univ mu (fun _ => true) = 1.

(** On any type: every restriction to finitely many distinct points. *)
Definition subdistr_all {B} (mu : B -> R) : Prop := forall l, NoDup l -> subdistr_on l mu.

Lemma distr_on_subdistr_on {B} (univ : list B) (mu : B -> R) : distr_on univ mu -> subdistr_on univ mu.
Proof. intros [Hnn Hsum]. split; [exact Hnn|]. rewrite Hsum. apply Rle_refl. Qed.

Lemma pr_on_ext {B} (univ : list B) (mu : B -> R) (E E' : B -> bool) :
  (forall a, In a univ -> E a = E' a) -> pr_on univ mu E = pr_on univ mu E'.
Proof. intros H. apply rsum_ext_in. intros a Ha. rewrite (H a Ha). reflexivity. Qed.

Lemma pr_on_nonneg {B} (univ : list B) (mu : B -> R) (E : B -> bool) :
  (forall a, In a univ -> 0 <= mu a) -> 0 <= pr_on univ mu E.
Proof.
  intros Hnn. apply rsum_nonneg. intros a Ha. destruct (E a); [apply Hnn, Ha|apply Rle_refl].
Qed.

(** An event has at most the total mass: at most 1 for a sub-distribution. *)
Lemma pr_on_le_total {B} (univ : list B) (mu : B -> R) (E : B -> bool) :
  (forall a, In a univ -> 0 <= mu a) -> pr_on univ mu E <= pr_on univ mu (fun _ => true).
Proof.
  intros Hnn. apply rsum_le. intros a Ha. destruct (E a); [apply Rle_refl|apply Hnn, Ha].
Qed.

Lemma subdistr_on_pr_le_1 {B} (univ : list B) (mu : B -> R) (E : B -> bool) :
  subdistr_on univ mu -> pr_on univ mu E <= 1.
Proof. intros [Hnn Hle]. eapply Rle_trans; [apply pr_on_le_total, Hnn|exact Hle]. Qed.

(** On pairs, the probability of an event is a double sum. *)
Lemma pr_on_prod {A : Type} (mu : A * A -> R) (E : A * A -> bool) (univ : list A) :
  pr_on (list_prod univ univ) mu E =
  rsum (map (fun a => rsum (map (fun b => if E (a, b) then mu (a, b) else 0) univ)) univ).
Proof. unfold pr_on. rewrite rsum_prod. reflexivity. Qed.
