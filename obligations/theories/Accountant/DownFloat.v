(** * Convolution powers in floats rounded down, below the exact ones

    The masses of a k-fold privacy-loss distribution are computed in binary64 floats,
    every product and sum rounded down ([fmul], [fadd]: coq-interval's [mul_DN],
    [add_DN], clamped at 0) and small masses at either end of the list dropped
    ([trim]).  Each computed mass is then at most the exact one it stands for:
    [lo f r] says the float [f] is a real number in [0, r].  [fpow] raises a list of
    such masses to the power [p] by squaring (binary digits of [p], most significant
    first), trimming after every step; [fpow_below] proves that the result, read as
    reals, is [below] (Below.v) the exact convolution power.  The exact masses are
    ghosts: nothing exact is computed. *)
From Coq Require Import List ZArith PArith Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Float.Sig Float.Basic Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Finite Require Import PLD PLDCheck.
From Obligations.Accountant Require Import Below.
Import ListNotations.

Module F := PrimitiveFloat.

Local Open Scope R_scope.

(** [f] is a non-negative real number. *)
Definition fval (f : F.type) : Prop := F.toX f = Xreal (F.toR f) /\ 0 <= F.toR f.

(** [f] is a real number in [0, r]. *)
Definition lo (f : F.type) (r : R) : Prop := fval f /\ F.toR f <= r.

Definition toRs (L : list F.type) : list R := map F.toR L.

(** [f] if it is a number at least 0, else 0. *)
Definition fclamp (f : F.type) : F.type :=
  match F.cmp F.zero f with Xlt | Xeq => f | _ => F.zero end.

Definition fmul (x y : F.type) : F.type := fclamp (F.mul_DN prec x y).
Definition fadd (x y : F.type) : F.type := fclamp (F.add_DN prec x y).

Lemma fval_zero : fval F.zero.
Proof. unfold fval, F.toR. rewrite F.zero_correct. cbn. split; [reflexivity|lra]. Qed.

Lemma lo_zero (r : R) : 0 <= r -> lo F.zero r.
Proof. intros H. split; [exact fval_zero|]. unfold F.toR. rewrite F.zero_correct. exact H. Qed.

Lemma lo_weaken (f : F.type) (r r' : R) : lo f r -> r <= r' -> lo f r'.
Proof. intros [H1 H2] H. split; [exact H1|lra]. Qed.

Lemma fval_lo (f : F.type) : fval f -> lo f (F.toR f).
Proof. intros H. split; [exact H|lra]. Qed.

Lemma fval_real (f : F.type) : fval f -> F.classify f = Freal.
Proof.
  intros [H _]. pose proof (F.real_correct f) as R1. rewrite H in R1.
  rewrite F.classify_correct in R1. destruct (F.classify f); try discriminate. reflexivity.
Qed.

Lemma fval_valid_lb (f : F.type) : fval f -> F.valid_lb f = true.
Proof. intros H. rewrite F.valid_lb_correct, (fval_real f H). reflexivity. Qed.

Lemma fclamp_lo (f : F.type) (r : R) :
  F.valid_lb f = true -> le_lower (F.toX f) (Xreal r) -> 0 <= r -> lo (fclamp f) r.
Proof.
  intros Hv Hl Hr. unfold fclamp. rewrite F.cmp_correct.
  replace (F.classify F.zero) with Freal by reflexivity.
  destruct (F.classify f) eqn:Hc.
  - pose proof (F.real_correct f) as R1. rewrite F.classify_correct, Hc in R1.
    destruct (F.toX f) as [|v] eqn:Hx; [discriminate|]. rewrite F.zero_correct. cbn [Xcmp].
    destruct (Raux.Rcompare_spec 0 v) as [H|H|H].
    + split; [|unfold F.toR; rewrite Hx; cbn; unfold le_lower, le_upper in Hl; cbn in Hl; lra].
      split; unfold F.toR; rewrite Hx; cbn; [reflexivity|lra].
    + split; [|unfold F.toR; rewrite Hx; cbn; unfold le_lower, le_upper in Hl; cbn in Hl; lra].
      split; unfold F.toR; rewrite Hx; cbn; [reflexivity|lra].
    + apply lo_zero, Hr.
  - apply lo_zero, Hr.
  - apply lo_zero, Hr.
  - rewrite F.valid_lb_correct, Hc in Hv. discriminate.
Qed.

Lemma fval_toX (f : F.type) : fval f -> F.toX f = Xreal (F.toR f).
Proof. intros [H _]. exact H. Qed.

(** ** Rounding either way

    [rnd up f r]: the float [f] bounds the non-negative real [r] from above ([up]; the
    bound may be lost to NaN or +∞, which every later comparison then fails) or from
    below ([lo]).  One operation per arithmetic step, rounded the way [up] says. *)
Definition rnd (up : bool) (f : F.type) (r : R) : Prop :=
  if up then 0 <= r /\ F.valid_ub f = true /\ le_upper (Xreal r) (F.toX f) else lo f r.

Definition fmulr (up : bool) (x y : F.type) : F.type := if up then F.mul_UP prec x y else fmul x y.
Definition faddr (up : bool) (x y : F.type) : F.type := if up then F.add_UP prec x y else fadd x y.
(** x − y, with [y] rounded the other way; below 0 when rounded down gives 0. *)
Definition fsubr (up : bool) (x y : F.type) : F.type := if up then F.sub_UP prec x y else fclamp (F.sub_DN prec x y).

Lemma rnd_nonneg (up : bool) (f : F.type) (r : R) : rnd up f r -> 0 <= r.
Proof. destruct up; [intros [H _]; exact H|intros [[_ H0] H1]; lra]. Qed.

Lemma rnd_zero (up : bool) : rnd up F.zero 0.
Proof.
  destruct up; [|apply lo_zero; lra]. split; [lra|]. split.
  - rewrite F.valid_ub_correct. reflexivity.
  - rewrite F.zero_correct. cbn. lra.
Qed.

(** NaN bounds every non-negative real from above, 0 from below. *)
Definition fnone (up : bool) : F.type := if up then F.nan else F.zero.

Lemma rnd_none (up : bool) (r : R) : 0 <= r -> rnd up (fnone up) r.
Proof.
  intros Hr. destruct up; [|apply lo_zero, Hr]. cbn [fnone]. split; [exact Hr|split].
  - rewrite F.valid_ub_correct, F.nan_correct. reflexivity.
  - pose proof (F.real_correct F.nan) as R1. rewrite F.classify_correct, F.nan_correct in R1.
    destruct (F.toX F.nan); [exact I|discriminate].
Qed.

Lemma rnd_up_real (f : F.type) (r : R) : rnd true f r -> F.toX f = Xnan \/ (F.toX f = Xreal (F.toR f) /\ r <= F.toR f).
Proof.
  intros [_ [_ H]]. unfold F.toR. destruct (F.toX f) as [|v]; [left; reflexivity|right]. cbn in H |- *. split; [reflexivity|exact H].
Qed.

Lemma rnd_up_non_neg (f : F.type) (r : R) : rnd true f r -> F.is_non_neg f.
Proof.
  intros H. pose proof H as [Hr [Hv _]]. split; [exact Hv|]. destruct (rnd_up_real f r H) as [E|[E Hl]]; rewrite E; [exact I|lra].
Qed.

Lemma fmul_rnd (up : bool) (x y : F.type) (a b : R) : rnd up x a -> rnd up y b -> rnd up (fmulr up x y) (a * b).
Proof.
  destruct up.
  - intros Hx Hy. pose proof (rnd_nonneg true x a Hx) as Ha. pose proof (rnd_nonneg true y b Hy) as Hb.
    destruct (F.mul_UP_correct prec x y) as [Hv Hu]; [left; split; eapply rnd_up_non_neg; eassumption|].
    split; [apply Rmult_le_pos; assumption|split; [exact Hv|]]. cbn [fmulr].
    destruct (rnd_up_real x a Hx) as [Ex|[Ex Hxa]], (rnd_up_real y b Hy) as [Ey|[Ey Hyb]];
      rewrite ?Ex, ?Ey in Hu; cbn [Xmul Xbind2 Xlift2] in Hu;
      destruct (F.toX (F.mul_UP prec x y)) as [|v]; try exact I; try contradiction.
    cbn in Hu |- *. apply Rle_trans with (F.toR x * F.toR y); [apply Rmult_le_compat; assumption|exact Hu].
  - intros [[Ex Px] Ha] [[Ey Py] Hb]. cbn [fmulr]. destruct (F.mul_DN_correct prec x y) as [Hv Hl].
    { left. unfold F.is_non_neg_real. rewrite Ex, Ey. split; assumption. }
    rewrite Ex, Ey in Hl. cbn [Xbind2 Xlift2] in Hl.
    apply lo_weaken with (F.toR x * F.toR y); [|apply Rmult_le_compat; assumption].
    apply fclamp_lo; [exact Hv|exact Hl|apply Rmult_le_pos; assumption].
Qed.

Lemma fadd_rnd (up : bool) (x y : F.type) (a b : R) : rnd up x a -> rnd up y b -> rnd up (faddr up x y) (a + b).
Proof.
  destruct up.
  - intros Hx Hy. pose proof (rnd_nonneg true x a Hx) as Ha. pose proof (rnd_nonneg true y b Hy) as Hb.
    destruct (F.add_UP_correct prec x y (proj1 (proj2 Hx)) (proj1 (proj2 Hy))) as [Hv Hu].
    split; [lra|split; [exact Hv|]]. cbn [faddr].
    destruct (rnd_up_real x a Hx) as [Ex|[Ex Hxa]], (rnd_up_real y b Hy) as [Ey|[Ey Hyb]];
      rewrite ?Ex, ?Ey in Hu; cbn [Xadd Xbind2 Xlift2] in Hu;
      destruct (F.toX (F.add_UP prec x y)) as [|v]; try exact I; try contradiction.
    cbn in Hu |- *. lra.
  - intros Hx' Hy'. pose proof (fval_valid_lb x (proj1 Hx')) as Vx. pose proof (fval_valid_lb y (proj1 Hy')) as Vy.
    destruct Hx' as [[Ex Px] Ha], Hy' as [[Ey Py] Hb]. cbn [faddr].
    destruct (F.add_DN_correct prec x y Vx Vy) as [Hv Hl].
    rewrite Ex, Ey in Hl. cbn [Xbind2 Xlift2] in Hl.
    apply lo_weaken with (F.toR x + F.toR y); [|lra].
    apply fclamp_lo; [exact Hv|exact Hl|lra].
Qed.

Lemma fsub_rnd (up : bool) (x y : F.type) (a b : R) :
  rnd up x a -> rnd (negb up) y b -> b <= a -> rnd up (fsubr up x y) (a - b).
Proof.
  destruct up; cbn [negb fsubr].
  - intros Hx [[Ey Py] Hb] Hab. pose proof (fval_valid_lb y (conj Ey Py)) as Vy.
    destruct (F.sub_UP_correct prec x y (proj1 (proj2 Hx)) Vy) as [Hv Hu].
    split; [lra|split; [exact Hv|]].
    destruct (rnd_up_real x a Hx) as [Ex|[Ex Hxa]]; rewrite ?Ex, Ey in Hu; cbn [Xsub Xbind2 Xlift2] in Hu;
      destruct (F.toX (F.sub_UP prec x y)) as [|v]; try exact I; try contradiction.
    cbn in Hu |- *. lra.
  - intros [[Ex Px] Ha] Hy Hab. pose proof (fval_valid_lb x (conj Ex Px)) as Vx.
    destruct (F.sub_DN_correct prec x y Vx (proj1 (proj2 Hy))) as [Hv Hl].
    apply fclamp_lo; [exact Hv| |lra].
    destruct (rnd_up_real y b Hy) as [Ey|[Ey Hyb]]; rewrite Ex, ?Ey in Hl; cbn [Xsub Xbind2 Xlift2] in Hl.
    + unfold le_lower, le_upper in *. destruct (F.toX (F.sub_DN prec x y)); cbn in Hl |- *; [exact I|contradiction].
    + unfold le_lower, le_upper in *. destruct (F.toX (F.sub_DN prec x y)); cbn in Hl |- *; [exact I|lra].
Qed.

Lemma fmul_lo (x y : F.type) (a b : R) : lo x a -> lo y b -> lo (fmul x y) (a * b).
Proof. exact (fmul_rnd false x y a b). Qed.

Lemma fadd_lo (x y : F.type) (a b : R) : lo x a -> lo y b -> lo (fadd x y) (a + b).
Proof. exact (fadd_rnd false x y a b). Qed.

(** [x ≤ y] as floats, both numbers. *)
Definition fle (x y : F.type) : bool := match F.cmp x y with Xlt | Xeq => true | _ => false end.
Definition flt (x y : F.type) : bool := match F.cmp x y with Xlt => true | _ => false end.

Lemma fcmp_real (x y : F.type) (c : Xcomparison) :
  F.cmp x y = c -> c = Xlt \/ c = Xeq -> F.toX y = Xreal (F.toR y) -> F.valid_ub x = true ->
  F.toX x = Xreal (F.toR x) /\ Xcmp (Xreal (F.toR x)) (Xreal (F.toR y)) = c.
Proof.
  intros H Hc Ey Vx. rewrite F.cmp_correct in H. rewrite F.valid_ub_correct in Vx.
  pose proof (F.real_correct y) as Ry. rewrite Ey, F.classify_correct in Ry.
  destruct (F.classify y) eqn:Cy; try discriminate.
  pose proof (F.real_correct x) as Rx. rewrite F.classify_correct in Rx.
  destruct (F.classify x) eqn:Cx; try discriminate; try (destruct Hc; subst c; discriminate).
  unfold F.toR in *. destruct (F.toX x); [discriminate|]. rewrite Ey in H. split; [reflexivity|exact H].
Qed.

(** An upper bound of a at most a lower bound of b: a ≤ b. *)
Lemma fle_rnd (x y : F.type) (a b : R) : rnd true x a -> rnd false y b -> fle x y = true -> a <= b.
Proof.
  intros Hx [[Ey Py] Hb] H. unfold fle in H. destruct (F.cmp x y) eqn:C; try discriminate;
    destruct (fcmp_real x y _ C ltac:(auto) Ey (proj1 (proj2 Hx))) as [Ex Hc];
    destruct (rnd_up_real x a Hx) as [E|[_ Ha]]; try congruence; cbn [Xcmp] in Hc;
    destruct (Raux.Rcompare_spec (F.toR x) (F.toR y)); try discriminate; lra.
Qed.

(** An upper bound of a below a lower bound of b: a < b. *)
Lemma flt_rnd (x y : F.type) (a b : R) : rnd true x a -> rnd false y b -> flt x y = true -> a < b.
Proof.
  intros Hx [[Ey Py] Hb] H. unfold flt in H. destruct (F.cmp x y) eqn:C; try discriminate.
  destruct (fcmp_real x y _ C ltac:(auto) Ey (proj1 (proj2 Hx))) as [Ex Hc].
  destruct (rnd_up_real x a Hx) as [E|[_ Ha]]; [congruence|]. cbn [Xcmp] in Hc.
  destruct (Raux.Rcompare_spec (F.toR x) (F.toR y)); try discriminate; lra.
Qed.

(** A float lower bound of a real that an interval contains. *)
Definition flower (xi : I.type) : F.type := fclamp (I.lower xi).

Lemma flower_lo (xi : I.type) (r : R) : has xi r -> 0 <= r -> lo (flower xi) r.
Proof.
  intros H Hr. unfold flower. destruct xi as [|l u]; cbn [I.lower].
  - apply fclamp_lo; [|unfold le_lower, le_upper|exact Hr].
    + rewrite F.valid_lb_correct, F.nan_correct. reflexivity.
    + pose proof (F.real_correct F.nan) as R1. rewrite F.classify_correct, F.nan_correct in R1.
      destruct (F.toX F.nan); [exact I|discriminate].
  - unfold has in H. cbn [I.convert] in H.
    destruct (F.valid_lb l) eqn:Hl; [|cbn in H; destruct H; lra].
    destruct (F.valid_ub u) eqn:Hu; [|cbn in H; destruct H; lra].
    cbn in H. destruct H as [H _]. apply fclamp_lo; [exact Hl| |exact Hr].
    unfold le_lower, le_upper. destruct (F.toX l); cbn; [exact I|lra].
Qed.

(** The end of an interval on the side [up] says, as a bound of a non-negative real it contains. *)
Definition fbnd (up : bool) (xi : I.type) : F.type := if up then I.upper xi else flower xi.

Lemma fbnd_rnd (up : bool) (xi : I.type) (r : R) : has xi r -> 0 <= r -> rnd up (fbnd up xi) r.
Proof.
  intros H Hr. destruct up; [|apply flower_lo; assumption]. split; [exact Hr|]. cbn [fbnd].
  destruct xi as [|l u]; cbn [I.upper].
  - split; [rewrite F.valid_ub_correct, F.nan_correct; reflexivity|].
    pose proof (F.real_correct F.nan) as R1. rewrite F.classify_correct, F.nan_correct in R1.
    destruct (F.toX F.nan); [exact I|discriminate].
  - unfold has in H. cbn [I.convert] in H.
    destruct (F.valid_lb l) eqn:Hl; [|cbn in H; destruct H; lra].
    destruct (F.valid_ub u) eqn:Hu; [|cbn in H; destruct H; lra].
    cbn in H. destruct H as [_ H]. split; [reflexivity|]. destruct (F.toX u); cbn; [exact I|exact H].
Qed.

(** ** Lists of masses *)

(** [fclamp s :: k], [s] evaluated as the cell is built.  A lazy reducer (coqchk has no virtual
    machine) would otherwise leave each entry of a convolution an unevaluated sum of products
    until a comparison needs it, and so hold every product of every squaring in memory at once
    (memory growing with the square of the window); forcing each entry as its list cell is built
    keeps one list per squaring.  One comparison both clamps and forces: the lazy reducer pays
    for each, once per multiply-add. *)
Definition fcons (s : F.type) (k : list F.type) : list F.type :=
  match F.cmp F.zero s with Xlt | Xeq => s :: k | _ => F.zero :: k end.

Lemma fcons_eq (s : F.type) (k : list F.type) : fcons s k = fclamp s :: k.
Proof. unfold fcons, fclamp. destruct (F.cmp F.zero s); reflexivity. Qed.

(** [acc + b·D], as [dadd] adds [map (b ·) D] to [acc]; each entry evaluated as its cell is built. *)
Fixpoint faxpy (b : F.type) (D acc : list F.type) : list F.type :=
  match D with
  | [] => acc
  | e :: D' =>
      match acc with
      | [] => fcons (F.mul_DN prec b e) (faxpy b D' [])
      | a :: acc' => fcons (F.add_DN prec a (fmul b e)) (faxpy b D' acc')
      end
  end.

Fixpoint fconv (B D : list F.type) : list F.type :=
  match B with
  | [] => []
  | b :: B' => faxpy b D (F.zero :: fconv B' D)
  end.

Lemma dadd_nil_r {A} (add : A -> A -> A) (l : list A) : dadd add l [] = l.
Proof. destruct l; reflexivity. Qed.

Lemma faxpy_lo (b : F.type) (rb : R) (D acc : list F.type) (RD Racc : list R) :
  lo b rb -> Forall2 lo D RD -> Forall2 lo acc Racc ->
  Forall2 lo (faxpy b D acc) (dadd Rplus (map (Rmult rb) RD) Racc).
Proof.
  intros Hb HD. revert acc Racc. induction HD as [|e r D RD He HD IH]; intros acc Racc Hacc; cbn [faxpy map].
  - exact Hacc.
  - destruct Hacc as [|a ra acc Racc Ha Hacc]; rewrite fcons_eq.
    + cbn [dadd]. change (fclamp (F.mul_DN prec b e)) with (fmul b e). constructor; [apply fmul_lo; assumption|].
      rewrite <- (dadd_nil_r Rplus (map (Rmult rb) RD)). apply IH. constructor.
    + cbn [dadd]. change (fclamp (F.add_DN prec a (fmul b e))) with (fadd a (fmul b e)). constructor; [|apply IH, Hacc].
      rewrite Rplus_comm. apply fadd_lo; [exact Ha|apply fmul_lo; assumption].
Qed.

Lemma fconv_lo (B D : list F.type) (RB RD : list R) :
  Forall2 lo B RB -> Forall2 lo D RD -> Forall2 lo (fconv B D) (conv Rplus Rmult 0 RB RD).
Proof.
  intros HB HD. induction HB as [|b rb B RB Hb HB IH]; cbn [fconv conv]; [constructor|].
  apply faxpy_lo; [exact Hb|exact HD|]. constructor; [apply lo_zero; lra|exact IH].
Qed.

Lemma lo_fvals (L : list F.type) (RL : list R) : Forall2 lo L RL -> Forall fval L.
Proof. intros H. induction H; constructor; [apply H|assumption]. Qed.

Lemma fvals_lo (L : list F.type) : Forall fval L -> Forall2 lo L (toRs L).
Proof. intros H. induction H; constructor; [apply fval_lo|]; assumption. Qed.

Lemma fvals_nonneg (L : list F.type) : Forall fval L -> nonneg (toRs L).
Proof. intros H. induction H as [|f L Hf H IH]; constructor; [apply Hf|exact IH]. Qed.

Lemma lo_below (d o : Z) (L : list F.type) (RL : list R) : Forall2 lo L RL -> below d o (toRs L) o RL.
Proof.
  intros H. apply below_pointwise. induction H as [|f r L RL Hf H IH]; constructor; [apply Hf|exact IH].
Qed.

(** ** Dropping small masses at the ends *)

Definition fsmall (tau f : F.type) : bool := match F.cmp f tau with Xlt => true | _ => false end.

Fixpoint trim_head (tau : F.type) (d o : Z) (L : list F.type) : Z * list F.type :=
  match L with
  | f :: L' => if fsmall tau f then trim_head tau d (o + d)%Z L' else (o, L)
  | [] => (o, [])
  end.

Fixpoint trim_tail (tau : F.type) (L : list F.type) : list F.type :=
  match L with
  | [] => []
  | f :: L' =>
      match trim_tail tau L' with
      | [] => if fsmall tau f then [] else [f]
      | r => f :: r
      end
  end.

Definition trim (tau : F.type) (d o : Z) (L : list F.type) : Z * list F.type :=
  let '(o', L') := trim_head tau d o L in (o', trim_tail tau L').

Lemma trim_head_below (tau : F.type) (d o : Z) (L : list F.type) :
  Forall fval L ->
  Forall fval (snd (trim_head tau d o L)) /\ below d (fst (trim_head tau d o L)) (toRs (snd (trim_head tau d o L))) o (toRs L).
Proof.
  revert o. induction L as [|f L IH]; intros o H; cbn [trim_head].
  - split; [constructor|apply below_refl].
  - inversion H as [|? ? Hf HL]; subst. destruct (fsmall tau f).
    + destruct (IH (o + d)%Z HL) as [H1 H2]. split; [exact H1|].
      eapply below_trans; [exact H2|]. apply below_skip_head, Hf.
    + split; [exact H|apply below_refl].
Qed.

Lemma trim_tail_prefix (tau : F.type) (L : list F.type) : exists R, L = trim_tail tau L ++ R.
Proof.
  induction L as [|f L [R IH]]; cbn [trim_tail]; [exists []; reflexivity|].
  destruct (trim_tail tau L) as [|g r] eqn:E.
  - destruct (fsmall tau f); [exists (f :: L); reflexivity|exists L; reflexivity].
  - exists R. rewrite IH at 1. reflexivity.
Qed.

Lemma trim_tail_below (tau : F.type) (d o : Z) (L : list F.type) :
  Forall fval L -> Forall fval (trim_tail tau L) /\ below d o (toRs (trim_tail tau L)) o (toRs L).
Proof.
  intros H. destruct (trim_tail_prefix tau L) as [R E].
  assert (H' : Forall fval (trim_tail tau L ++ R)) by (rewrite <- E; exact H).
  apply Forall_app in H' as [H1 H2]. split; [exact H1|].
  assert (E' : toRs L = toRs (trim_tail tau L) ++ toRs R) by (unfold toRs; rewrite E at 1; apply map_app).
  rewrite E'. apply below_prefix, fvals_nonneg, H2.
Qed.

Lemma trim_below (tau : F.type) (d o : Z) (L : list F.type) :
  Forall fval L -> Forall fval (snd (trim tau d o L)) /\ below d (fst (trim tau d o L)) (toRs (snd (trim tau d o L))) o (toRs L).
Proof.
  intros H. unfold trim. pose proof (trim_head_below tau d o L H) as [H1 H2].
  destruct (trim_head tau d o L) as [o' L']. cbn [fst snd] in *.
  destruct (trim_tail_below tau d o' L' H1) as [H3 H4]. split; [exact H3|].
  eapply below_trans; eassumption.
Qed.

(** ** Powers by squaring *)

Section Power.
Variables (tau : F.type) (d oB : Z) (FB : list F.type).

Definition fsq (w : Z * list F.type) : Z * list F.type :=
  trim tau d (fst w + fst w)%Z (fconv (snd w) (snd w)).

Definition fstep (w : Z * list F.type) : Z * list F.type :=
  trim tau d (oB + fst w)%Z (fconv FB (snd w)).

Fixpoint fpow (p : positive) : Z * list F.type :=
  match p with
  | xH => (oB, FB)
  | xO p' => fsq (fpow p')
  | xI p' => fstep (fsq (fpow p'))
  end.

Variable RB : list R.
Hypothesis HB : Forall2 lo FB RB.

Definition pow_ok (k : nat) (w : Z * list F.type) : Prop :=
  Forall fval (snd w) /\ below d (fst w) (toRs (snd w)) (Z.of_nat k * oB) (cpow Rplus Rmult 0 RB 1 k).

Lemma rb_nonneg : nonneg RB.
Proof.
  induction HB as [|f r FB' RB' Hf H IH]; [apply Forall_nil|apply Forall_cons; [|exact (IH H)]].
  destruct Hf as [[_ H0] H1]. lra.
Qed.

Lemma fsq_ok (k : nat) (w : Z * list F.type) : pow_ok k w -> pow_ok (k + k) (fsq w).
Proof.
  intros [H1 H2]. unfold fsq. pose proof (fconv_lo _ _ _ _ (fvals_lo _ H1) (fvals_lo _ H1)) as Hc.
  destruct (trim_below tau d (fst w + fst w) _ (lo_fvals _ _ Hc)) as [H3 H4]. split; [exact H3|].
  eapply below_trans; [exact H4|]. eapply below_trans; [apply lo_below, Hc|].
  eapply below_trans.
  - apply below_conv; [apply fvals_nonneg, H1|apply nonneg_cpow, rb_nonneg|exact H2|exact H2].
  - apply below_ev_eq. intros h. rewrite cpow_add_ev. reflexivity.
Qed.

Lemma fstep_ok (k : nat) (w : Z * list F.type) : pow_ok k w -> pow_ok (S k) (fstep w).
Proof.
  intros [H1 H2]. unfold fstep. pose proof (fconv_lo _ _ _ _ HB (fvals_lo _ H1)) as Hc.
  destruct (trim_below tau d (oB + fst w) _ (lo_fvals _ _ Hc)) as [H3 H4]. split; [exact H3|].
  eapply below_trans; [exact H4|]. eapply below_trans; [apply lo_below, Hc|].
  replace (Z.of_nat (S k) * oB)%Z with (oB + Z.of_nat k * oB)%Z by lia. cbn [cpow].
  apply below_conv; [apply rb_nonneg|apply nonneg_cpow, rb_nonneg|apply below_refl|exact H2].
Qed.

Lemma fpow_ok (p : positive) : pow_ok (Pos.to_nat p) (fpow p).
Proof.
  induction p as [p IH|p IH|]; cbn [fpow].
  - rewrite Pos2Nat.inj_xI. replace (S (2 * Pos.to_nat p)) with (S (Pos.to_nat p + Pos.to_nat p)) by lia.
    apply fstep_ok, fsq_ok, IH.
  - rewrite Pos2Nat.inj_xO. replace (2 * Pos.to_nat p)%nat with (Pos.to_nat p + Pos.to_nat p)%nat by lia.
    apply fsq_ok, IH.
  - split; [apply lo_fvals with RB, HB|]. cbn [fst snd]. rewrite Pos2Nat.inj_1.
    eapply below_trans; [apply lo_below, HB|]. apply below_ev_eq. intros h.
    replace (Z.of_nat 1 * oB)%Z with (oB + 0)%Z by lia. cbn [cpow].
    rewrite ev_conv. apply ev_ext. intros z. cbn [ev]. rewrite Z.add_0_r. ring.
Qed.

End Power.
