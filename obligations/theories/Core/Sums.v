(** * Finite sums over lists, in [R] and in [Q]

    Probabilities of events are finite sums.  The statements of the theory use
    sums in [R]; the reflective checkers compute sums in [Q] (reduced after every
    addition, so that denominators do not grow multiplicatively).  This file
    relates the two.  Every generic lemma about these sums is here. *)
From Coq Require Import List QArith Qreals Reals Lra.
From Obligations.Core Require Import RealFacts.
Import ListNotations.

(** Sum of a list of reals. *)
Definition rsum (l : list R) : R := fold_right Rplus 0%R l.

(** Addition over the lcm of the denominators: one gcd of the two
    denominators ([Pos.ggcd] also returns the cofactors), no gcd of the big
    numerator, and a denominator that never exceeds the lcm of those seen. *)
Definition qplus_lcm (x y : Q) : Q :=
  let '(g, (dx, dy)) := Pos.ggcd (Qden x) (Qden y) in
  (Zpos dy * Qnum x + Zpos dx * Qnum y) # (g * dx * dy).

Lemma qplus_lcm_correct (x y : Q) : qplus_lcm x y == x + y.
Proof.
  destruct x as [nx dx0], y as [ny dy0]. unfold qplus_lcm; cbn [Qden Qnum].
  pose proof (Pos.ggcd_correct_divisors dx0 dy0) as H.
  destruct (Pos.ggcd dx0 dy0) as [g [dx dy]]. destruct H as [Hx Hy]. subst dx0 dy0.
  unfold Qeq, Qplus, Qnum, Qden. rewrite ?Pos2Z.inj_mul. ring.
Qed.

(** Sum of a list of rationals. *)
Definition qsum (l : list Q) : Q := fold_right qplus_lcm 0%Q l.

Lemma rsum_nil : rsum [] = 0%R.
Proof. reflexivity. Qed.

Lemma rsum_cons (a : R) (l : list R) : rsum (a :: l) = (a + rsum l)%R.
Proof. reflexivity. Qed.

Lemma rsum_app (l1 l2 : list R) : rsum (l1 ++ l2) = (rsum l1 + rsum l2)%R.
Proof.
  induction l1 as [|a l1 IH]; cbn [app].
  - rewrite rsum_nil. lra.
  - rewrite !rsum_cons, IH. lra.
Qed.

Lemma rsum_le {A} (f g : A -> R) (l : list A) :
  (forall a, In a l -> f a <= g a)%R -> (rsum (map f l) <= rsum (map g l))%R.
Proof.
  induction l as [|a l IH]; intros Hfg; cbn [map].
  - lra.
  - rewrite !rsum_cons.
    apply Rplus_le_compat.
    + apply Hfg. now left.
    + apply IH. intros b Hb. apply Hfg. now right.
Qed.

Lemma rsum_nonneg {A} (f : A -> R) (l : list A) :
  (forall a, In a l -> 0 <= f a)%R -> (0 <= rsum (map f l))%R.
Proof.
  intros Hf.
  replace 0%R with (rsum (map (fun _ => 0%R) l)).
  - now apply rsum_le.
  - induction l as [|a l IH]; cbn [map]; [reflexivity|].
    rewrite rsum_cons, IH; [lra|].
    intros b Hb. apply Hf. now right.
Qed.

Lemma rsum_plus {A} (f g : A -> R) (l : list A) :
  rsum (map (fun a => f a + g a)%R l) = (rsum (map f l) + rsum (map g l))%R.
Proof.
  induction l as [|a l IH]; cbn [map].
  - rewrite rsum_nil. lra.
  - rewrite !rsum_cons, IH. lra.
Qed.

Lemma rsum_scal {A} (c : R) (f : A -> R) (l : list A) :
  rsum (map (fun a => c * f a)%R l) = (c * rsum (map f l))%R.
Proof.
  induction l as [|a l IH]; cbn [map].
  - rewrite rsum_nil. lra.
  - rewrite !rsum_cons, IH. lra.
Qed.

Lemma rsum_minus {A} (f g : A -> R) (l : list A) :
  rsum (map (fun a => f a - g a)%R l) = (rsum (map f l) - rsum (map g l))%R.
Proof.
  induction l as [|a l IH]; cbn [map].
  - rewrite rsum_nil. lra.
  - rewrite !rsum_cons, IH. lra.
Qed.

(** ** Sums of a function over a list *)

Lemma rsum_map_nil {A} (f : A -> R) : rsum (map f []) = 0%R.
Proof. reflexivity. Qed.

Lemma rsum_map_cons {A} (f : A -> R) (a : A) (l : list A) : rsum (map f (a :: l)) = (f a + rsum (map f l))%R.
Proof. reflexivity. Qed.

Lemma rsum_map_app {A} (f : A -> R) (l1 l2 : list A) :
  rsum (map f (l1 ++ l2)) = (rsum (map f l1) + rsum (map f l2))%R.
Proof. rewrite map_app. apply rsum_app. Qed.

Lemma rsum_map_map {A B} (f : B -> R) (phi : A -> B) (l : list A) :
  rsum (map f (map phi l)) = rsum (map (fun a => f (phi a)) l).
Proof. rewrite map_map. reflexivity. Qed.

Lemma rsum_map_nonneg {A} (f : A -> R) (l : list A) : (forall a, 0 <= f a)%R -> (0 <= rsum (map f l))%R.
Proof. intros Hf. apply rsum_nonneg. intros a _. apply Hf. Qed.

(** Sums of functions that agree on the list are equal. *)
Lemma rsum_ext_in {A} (f g : A -> R) (l : list A) :
  (forall a, In a l -> f a = g a) -> rsum (map f l) = rsum (map g l).
Proof. intros Hfg. f_equal. apply map_ext_in, Hfg. Qed.

Lemma rsum_zero {B} (f : B -> R) (l : list B) :
  (forall a, In a l -> f a = 0%R) -> rsum (map f l) = 0%R.
Proof.
  induction l as [|a l IH]; intros H; [reflexivity|].
  cbn [map]. rewrite rsum_cons, (H a (or_introl eq_refl)), IH; [ring|].
  intros b Hb. apply H. right. exact Hb.
Qed.

(** A sum over pairs is a double sum, in either order. *)
Lemma rsum_prod {B} (f : B * B -> R) (l1 l2 : list B) :
  rsum (map f (list_prod l1 l2)) = rsum (map (fun a => rsum (map (fun b => f (a, b)) l2)) l1).
Proof.
  induction l1 as [|a l1 IH]; [reflexivity|].
  change (list_prod (a :: l1) l2) with (map (fun y => (a, y)) l2 ++ list_prod l1 l2).
  rewrite map_app, rsum_app, map_map, IH. cbn [map]. rewrite rsum_cons. reflexivity.
Qed.

Lemma rsum_swap {B} (f : B -> B -> R) (l1 l2 : list B) :
  rsum (map (fun a => rsum (map (fun b => f a b) l2)) l1) =
  rsum (map (fun b => rsum (map (fun a => f a b) l1)) l2).
Proof.
  induction l1 as [|a l1 IH]; cbn [map].
  - rewrite rsum_nil. symmetry. apply rsum_zero. intros; apply rsum_nil.
  - rewrite rsum_cons, IH.
    rewrite <- (rsum_plus (fun b => f a b) (fun b => rsum (map (fun a0 => f a0 b) l1))).
    reflexivity.
Qed.

(** A sum with one non-zero term, over a duplicate-free list. *)
Lemma rsum_single {A : Type} (eqA : forall x y : A, {x = y} + {x <> y})
    (f : A -> R) (l : list A) (a0 : A) :
  NoDup l -> In a0 l -> (forall a, a <> a0 -> f a = 0%R) -> rsum (map f l) = f a0.
Proof.
  intros Hnd. induction Hnd as [|a l Hnot Hnd IH]; intros Hin Hf; [destruct Hin|].
  cbn [map]. rewrite rsum_cons. destruct (eqA a a0) as [->|Hne].
  - rewrite rsum_zero; [ring|]. intros b Hb. apply Hf. intros ->. exact (Hnot Hb).
  - rewrite (Hf a Hne), IH; [ring| |exact Hf].
    destruct Hin as [->|H]; [contradiction|exact H].
Qed.

Lemma qsum_nil : qsum [] = 0%Q.
Proof. reflexivity. Qed.

Lemma qsum_cons (a : Q) (l : list Q) : qsum (a :: l) = qplus_lcm a (qsum l).
Proof. reflexivity. Qed.

Lemma qsum_correct (l : list Q) : Q2R (qsum l) = rsum (map Q2R l).
Proof.
  induction l as [|a l IH]; cbn [map].
  - rewrite qsum_nil, rsum_nil. apply q2r_0.
  - rewrite qsum_cons, rsum_cons, <- IH.
    rewrite (Qeq_eqR _ _ (qplus_lcm_correct a (qsum l))). apply Q2R_plus.
Qed.

(** ** Sums of a function over a list, in [Q] *)

(** Plain [Qplus]: for proofs about a list of terms, not for computing. *)
Definition qsumf {B} (l : list B) (f : B -> Q) : Q := fold_right (fun b acc => f b + acc) 0 l.

Lemma qsumf_ext {B} (l : list B) f g : (forall b, f b == g b) -> qsumf l f == qsumf l g.
Proof. intros H. induction l as [|b l IH]; cbn; [reflexivity|]. rewrite H, IH. reflexivity. Qed.

Lemma rsum_q2r {B} (l : list B) (f : B -> Q) :
  rsum (map (fun b => Q2R (f b)) l) = Q2R (qsumf l f).
Proof.
  induction l as [|b l IH]; cbn [map qsumf fold_right].
  - rewrite rsum_nil. symmetry. apply q2r_0.
  - rewrite rsum_cons, IH, Q2R_plus. reflexivity.
Qed.
