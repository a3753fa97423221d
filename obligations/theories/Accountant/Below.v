(** * Mass lists below others: the order that outward-rounded PLDs keep

    A privacy-loss distribution is a list of masses at the keys [o, o + d, o + 2d, ...]
    ([ev] of PLD.v integrates it against a function of the key).  [below d o1 L1 o2 L2]
    says that [L1] at [o1] integrates to at most what [L2] at [o2] does against every
    non-negative function: pointwise smaller masses, with some of them dropped.  That
    order is kept by convolution of non-negative lists ([below_conv]), by dropping
    masses at either end ([below_skip_head], [below_trim_tail]), and it brackets the
    integral of a function with values in [0, 1] between [ev L1 h] and
    [ev L1 h + (total of L2 − total of L1)] ([ev_below_bracket]).  [cpow_add_ev] is the
    identity that squaring a convolution power rests on. *)
From Coq Require Import List ZArith Reals Lra Lia.
From Obligations.Core Require Import RealFacts Lists Sums.
From Obligations.Finite Require Import PLD.
Import ListNotations.

Local Open Scope R_scope.

Definition nonneg (L : list R) : Prop := Forall (Rle 0) L.

Definition below (d o1 : Z) (L1 : list R) (o2 : Z) (L2 : list R) : Prop :=
  forall h : Z -> R, (forall z, 0 <= h z) -> ev d o1 L1 h <= ev d o2 L2 h.

Lemma ev_nonneg (d o : Z) (L : list R) (h : Z -> R) :
  nonneg L -> (forall z, 0 <= h z) -> 0 <= ev d o L h.
Proof.
  intros HL Hh. revert o. induction HL as [|a L Ha HL IH]; intros o; cbn [ev]; [lra|].
  specialize (IH (o + d)%Z). specialize (Hh o). nra.
Qed.

Lemma ev_mono (d o : Z) (L : list R) (h1 h2 : Z -> R) :
  nonneg L -> (forall z, h1 z <= h2 z) -> ev d o L h1 <= ev d o L h2.
Proof.
  intros HL Hh. revert o. induction HL as [|a L Ha HL IH]; intros o; cbn [ev]; [lra|].
  specialize (IH (o + d)%Z). specialize (Hh o). nra.
Qed.

Lemma ev_minus (d o : Z) (L : list R) (h1 h2 : Z -> R) :
  ev d o L (fun z => h1 z - h2 z) = ev d o L h1 - ev d o L h2.
Proof. revert o. induction L as [|a L IH]; intros o; cbn [ev]; [ring|]. rewrite IH. ring. Qed.

Lemma below_refl (d o : Z) (L : list R) : below d o L o L.
Proof. intros h _. lra. Qed.

Lemma below_trans (d o1 o2 o3 : Z) (L1 L2 L3 : list R) :
  below d o1 L1 o2 L2 -> below d o2 L2 o3 L3 -> below d o1 L1 o3 L3.
Proof. intros H1 H2 h Hh. specialize (H1 h Hh). specialize (H2 h Hh). lra. Qed.

(** Two lists with the same integrals against every function are interchangeable. *)
Lemma below_ev_eq (d o1 o2 : Z) (L1 L2 : list R) :
  (forall h, ev d o1 L1 h = ev d o2 L2 h) -> below d o1 L1 o2 L2.
Proof. intros H h _. rewrite H. lra. Qed.

(** Pointwise smaller masses at the same keys. *)
Lemma below_pointwise (d o : Z) (L1 L2 : list R) :
  Forall2 Rle L1 L2 -> below d o L1 o L2.
Proof.
  intros H h Hh. revert o. induction H as [|a b L1 L2 Hab H IH]; intros o; cbn [ev]; [lra|].
  specialize (IH (o + d)%Z). specialize (Hh o). nra.
Qed.

Lemma nonneg_conv (B D : list R) : nonneg B -> nonneg D -> nonneg (conv Rplus Rmult 0 B D).
Proof.
  intros HB HD. induction HB as [|b B Hb HB IH]; cbn [conv]; [constructor|].
  assert (Hm : nonneg (map (Rmult b) D)).
  { clear IH HB. induction HD as [|a D Ha HD IHD]; constructor; [nra|exact IHD]. }
  assert (H0 : nonneg (0 :: conv Rplus Rmult 0 B D)) by (constructor; [lra|exact IH]).
  revert Hm H0. generalize (map (Rmult b) D), (0 :: conv Rplus Rmult 0 B D). clear.
  intros l1; induction l1 as [|a l1 IHl]; intros l2 H1 H2; cbn [dadd]; [exact H2|].
  destruct l2 as [|c l2]; [exact H1|]. inversion H1; inversion H2; subst.
  constructor; [lra|apply IHl; assumption].
Qed.

Lemma nonneg_cpow (B : list R) (k : nat) : nonneg B -> nonneg (cpow Rplus Rmult 0 B 1 k).
Proof.
  intros HB. induction k as [|k IH]; cbn [cpow]; [constructor; [lra|constructor]|].
  apply nonneg_conv; assumption.
Qed.

(** Convolution keeps the order (non-negative lists: the smaller left factor, the larger
    right one). *)
Lemma below_conv (d o1 o1' o2 o2' : Z) (L1 L1' L2 L2' : list R) :
  nonneg L1 -> nonneg L2' -> below d o1 L1 o1' L1' -> below d o2 L2 o2' L2' ->
  below d (o1 + o2) (conv Rplus Rmult 0 L1 L2) (o1' + o2') (conv Rplus Rmult 0 L1' L2').
Proof.
  intros N1 N2 H1 H2 h Hh. rewrite !ev_conv.
  apply Rle_trans with (ev d o1 L1 (fun z1 => ev d o2' L2' (fun z2 => h (z1 + z2)%Z))).
  - apply ev_mono; [exact N1|]. intros z1. apply H2. intros z. apply Hh.
  - apply H1. intros z1. apply ev_nonneg; [exact N2|]. intros z. apply Hh.
Qed.

(** Dropping the first mass moves the start one key on. *)
Lemma below_skip_head (d o : Z) (a : R) (L : list R) :
  0 <= a -> below d (o + d) L o (a :: L).
Proof. intros Ha h Hh. cbn [ev]. specialize (Hh o). nra. Qed.

(** Dropping masses at the end. *)
Lemma below_prefix (d o : Z) (L1 L2 : list R) :
  nonneg L2 -> below d o L1 o (L1 ++ L2).
Proof.
  intros H2 h Hh. revert o. induction L1 as [|a L1 IH]; intros o; cbn [app ev].
  - apply ev_nonneg; assumption.
  - specialize (IH (o + d)%Z). lra.
Qed.

(** The integral of [h] with values in [0, 1] against [L2] lies between that against
    [L1] and that plus the mass [L1] misses. *)
Lemma ev_below_bracket (d o1 o2 : Z) (L1 L2 : list R) (h : Z -> R) :
  below d o1 L1 o2 L2 -> (forall z, 0 <= h z <= 1) ->
  ev d o1 L1 h <= ev d o2 L2 h <= ev d o1 L1 h + (ev d o2 L2 (fun _ => 1) - ev d o1 L1 (fun _ => 1)).
Proof.
  intros H Hh. split.
  - apply H. intros z. apply Hh.
  - pose proof (H (fun z => 1 - h z) ltac:(intros z; specialize (Hh z); lra)) as H'.
    rewrite !ev_minus in H'. lra.
Qed.

(** ** Convolution powers: [cpow (m + n)] integrates like the convolution of [cpow m]
       and [cpow n] *)

Lemma ev_unit (d o : Z) (D : list R) (h : Z -> R) :
  ev d o (conv Rplus Rmult 0 [1] D) h = ev d o D h.
Proof.
  cbn [conv]. rewrite ev_dadd, ev_scale. cbn [ev]. ring.
Qed.

Lemma cpow_add_ev (d oB : Z) (B : list R) (m n : nat) (h : Z -> R) :
  ev d (Z.of_nat (m + n) * oB) (cpow Rplus Rmult 0 B 1 (m + n)) h =
  ev d (Z.of_nat m * oB + Z.of_nat n * oB) (conv Rplus Rmult 0 (cpow Rplus Rmult 0 B 1 m) (cpow Rplus Rmult 0 B 1 n)) h.
Proof.
  revert h. induction m as [|m IH]; intros h.
  - cbn [cpow plus]. rewrite ev_unit. reflexivity.
  - cbn [cpow plus]. replace (Z.of_nat (S (m + n)) * oB)%Z with (oB + Z.of_nat (m + n) * oB)%Z by lia.
    rewrite ev_conv. rewrite ev_conv.
    replace (Z.of_nat (S m) * oB)%Z with (oB + Z.of_nat m * oB)%Z by lia. rewrite ev_conv.
    apply ev_ext. intros z1. rewrite IH, ev_conv. apply ev_ext. intros z2. apply ev_ext. intros z3.
    f_equal. lia.
Qed.

Lemma ev_const (d o : Z) (L : list R) (c : R) : ev d o L (fun _ => c) = c * ev d o L (fun _ => 1).
Proof. revert o. induction L as [|a L IH]; intros o; cbn [ev]; [ring|]. rewrite IH. ring. Qed.

(** The total mass of a convolution power is the power of the total. *)
Lemma ev_cpow_one (d oB : Z) (B : list R) (k : nat) :
  ev d (Z.of_nat k * oB) (cpow Rplus Rmult 0 B 1 k) (fun _ => 1) = (ev d oB B (fun _ => 1)) ^ k.
Proof.
  induction k as [|k IH]; cbn [cpow pow].
  - cbn [ev]. ring.
  - replace (Z.of_nat (S k) * oB)%Z with (oB + Z.of_nat k * oB)%Z by lia. rewrite ev_conv.
    rewrite (ev_ext d oB B _ (fun _ => (ev d oB B (fun _ => 1)) ^ k)) by (intros z; exact IH).
    rewrite ev_const. ring.
Qed.
