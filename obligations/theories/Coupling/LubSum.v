(** * Sums of non-negative families over any type, as least upper bounds

    A probability over a countable space (noise vectors in Z^n) is the sum of a
    non-negative family.  Rather than series and Fubini, the sum is the least
    upper bound of the finite sums over duplicate-free lists.  Reindexing along
    an injective map is then immediate: the image of a duplicate-free list is
    duplicate-free.

    [tsum1 f] is that least upper bound with every finite sum capped at 1, so
    that it always exists (the standard library's [completeness]); when every
    finite sum of [f] is at most 1 ([sum_le f 1], the case of a probability),
    the cap never bites and [tsum1 f] is the sum of [f] ([tsum1_lub]). *)
From Coq Require Import List Reals Lra.
From Obligations.Core Require Import Sums SubDistr.
Import ListNotations.
Local Open Scope R_scope.

(** Every finite sum of [f] over distinct points is at most [b]. *)
Definition sum_le {A} (f : A -> R) (b : R) : Prop := forall l, NoDup l -> rsum (map f l) <= b.

(** For a non-negative family, [sum_le f 1] is the core notion [subdistr_all] (Core/SubDistr.v). *)
Lemma sum_le_iff_subdistr_all {A} (f : A -> R) : (forall a, 0 <= f a) -> sum_le f 1 <-> subdistr_all f.
Proof.
  intros Hf. split; intros H l Hnd; [split; [intros a _; apply Hf|apply (H l Hnd)]|apply (H l Hnd)].
Qed.

(** A finite sum over distinct points whose non-zero terms all lie in [L] is
    at most the sum over [L] (non-negative terms). *)
Lemma rsum_map_sub {A} (f : A -> R) (l L : list A) :
  (forall a, 0 <= f a) -> NoDup l -> (forall a, In a l -> f a <> 0 -> In a L) ->
  rsum (map f l) <= rsum (map f L).
Proof.
  intros Hf. revert L. induction l as [|a l IH]; intros L Hnd Hin.
  - rewrite rsum_map_nil. apply rsum_map_nonneg, Hf.
  - apply NoDup_cons_iff in Hnd as [Ha Hnd]. rewrite rsum_map_cons.
    destruct (Req_EM_T (f a) 0) as [H0|H0].
    + rewrite H0, Rplus_0_l. apply IH; [exact Hnd|]. intros b Hb. apply Hin. now right.
    + destruct (in_split a L (Hin a (or_introl eq_refl) H0)) as [L1 [L2 ->]].
      rewrite rsum_map_app, rsum_map_cons.
      enough (rsum (map f l) <= rsum (map f (L1 ++ L2))) by (rewrite rsum_map_app in H; lra).
      apply IH; [exact Hnd|]. intros b Hb Hfb.
      assert (Hab : b <> a) by (intros ->; contradiction).
      specialize (Hin b (or_intror Hb) Hfb). apply in_app_iff in Hin as [H|[H|H]];
        apply in_app_iff; [left; exact H|congruence|right; exact H].
Qed.

(** The image of a duplicate-free list under a map injective on it. *)
Lemma nodup_map_on {A B} (phi : A -> B) (l : list A) :
  (forall a b, In a l -> In b l -> phi a = phi b -> a = b) -> NoDup l -> NoDup (map phi l).
Proof.
  induction l as [|a l IH]; intros Hinj Hnd; cbn [map]; [constructor|].
  apply NoDup_cons_iff in Hnd as [Ha Hnd]. constructor.
  - intros Hin. apply in_map_iff in Hin as [b [Hb Hbl]].
    assert (b = a) as -> by (apply Hinj; [now right|now left|exact Hb]). contradiction.
  - apply IH; [|exact Hnd]. intros b c Hb Hc. apply Hinj; now right.
Qed.

(** ** The capped least upper bound *)

Definition capped_sums {A} (f : A -> R) (r : R) : Prop :=
  exists l, NoDup l /\ r = Rmin 1 (rsum (map f l)).

Lemma capped_sums_bound {A} (f : A -> R) : bound (capped_sums f).
Proof. exists 1. intros r [l [_ ->]]. apply Rmin_l. Qed.

Lemma capped_sums_inhabited {A} (f : A -> R) : exists r, capped_sums f r.
Proof. exists (Rmin 1 (rsum (map f []))). exists []. split; [constructor|reflexivity]. Qed.

(** The sum of [f], its finite sums capped at 1. *)
Definition tsum1 {A} (f : A -> R) : R :=
  proj1_sig (completeness (capped_sums f) (capped_sums_bound f) (capped_sums_inhabited f)).

Lemma tsum1_is_lub {A} (f : A -> R) : is_lub (capped_sums f) (tsum1 f).
Proof. unfold tsum1. destruct completeness as [m Hm]. exact Hm. Qed.

(** A finite sum at most 1 is below [tsum1]. *)
Lemma tsum1_ge {A} (f : A -> R) (l : list A) : NoDup l -> rsum (map f l) <= 1 -> rsum (map f l) <= tsum1 f.
Proof.
  intros Hnd H1. destruct (tsum1_is_lub f) as [Hub _].
  replace (rsum (map f l)) with (Rmin 1 (rsum (map f l))) by (apply Rmin_right; exact H1).
  apply Hub. exists l. split; [exact Hnd|reflexivity].
Qed.

(** [tsum1 f] is at most any bound of the finite sums. *)
Lemma tsum1_le {A} (f : A -> R) (b : R) : sum_le f b -> tsum1 f <= b.
Proof.
  intros Hb. destruct (tsum1_is_lub f) as [_ Hlub]. apply Hlub.
  intros r [l [Hnd ->]]. eapply Rle_trans; [apply Rmin_r|]. apply Hb, Hnd.
Qed.

Lemma tsum1_le_1 {A} (f : A -> R) : tsum1 f <= 1.
Proof.
  destruct (tsum1_is_lub f) as [_ Hlub]. apply Hlub. intros r [l [_ ->]]. apply Rmin_l.
Qed.

Lemma tsum1_nonneg {A} (f : A -> R) : 0 <= tsum1 f.
Proof.
  destruct (tsum1_is_lub f) as [Hub _]. eapply Rle_trans; [|apply Hub; exists []; split; [constructor|reflexivity]].
  rewrite rsum_map_nil. unfold Rmin. destruct Rle_dec; lra.
Qed.

(** When the finite sums are at most 1, [tsum1 f] is their least upper bound:
    the sum of [f]. *)
Lemma tsum1_lub {A} (f : A -> R) :
  sum_le f 1 -> is_lub (fun r => exists l, NoDup l /\ r = rsum (map f l)) (tsum1 f).
Proof.
  intros H1. split.
  - intros r [l [Hnd ->]]. apply tsum1_ge; [exact Hnd|apply H1, Hnd].
  - intros b Hb. destruct (tsum1_is_lub f) as [_ Hlub]. apply Hlub.
    intros r [l [Hnd ->]]. rewrite Rmin_right by (apply H1, Hnd). apply Hb. exists l. auto.
Qed.

(** Pointwise comparison of families whose sums exist. *)
Lemma tsum1_mono {A} (f g : A -> R) : (forall a, f a <= g a) -> sum_le g 1 -> tsum1 f <= tsum1 g.
Proof.
  intros Hfg Hg. apply tsum1_le. intros l Hnd.
  eapply Rle_trans; [apply rsum_le; intros a _; apply Hfg|]. apply tsum1_ge; [exact Hnd|apply Hg, Hnd].
Qed.
