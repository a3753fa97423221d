(** * Finite sums over lists, in [R] and in [Q]

    Probabilities of events are finite sums.  The statements of the theory use
    sums in [R]; the reflective checkers compute sums in [Q] (reduced after every
    addition, so that denominators do not grow multiplicatively).  This file
    relates the two. *)
From Coq Require Import List QArith Qreals Reals Lra.
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

Lemma q2r_0 : Q2R 0 = 0%R.
Proof. unfold Q2R; simpl. lra. Qed.

Lemma q2r_1 : Q2R 1 = 1%R.
Proof. unfold Q2R; simpl. lra. Qed.

Lemma q2r_qred (q : Q) : Q2R (Qred q) = Q2R q.
Proof. apply Qeq_eqR, Qred_correct. Qed.

(** A map over a list, as a map over the indices of its elements. *)
Lemma map_nth_seq {A B} (g : A -> B) (l : list A) (d : A) :
  map g l = map (fun i => g (nth i l d)) (seq 0 (length l)).
Proof.
  induction l as [|a l IH]; [reflexivity|].
  cbn [length seq map nth]. f_equal.
  rewrite IH, <- seq_shift, map_map. reflexivity.
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
