(** * Convolution powers in floats rounded down, summed as a tree

    [fconv] (DownFloat.v) adds the products of an entry one after the other: each rounded-down
    addition loses up to an ulp of the growing partial sum, so an entry of a convolution of n
    masses loses about n/2 ulps of itself.  [tconv] splits the left factor in halves, convolves
    each half with the right factor and adds the two results, shifted by the first half's
    length ([fadd_at]): an entry is then a sum of about log2 n rounded additions of partial
    sums, and loses about that many ulps.  At 1000 runs of the discrete Gaussian with σ = 5 the
    mass the floats miss falls about eight-fold.  The result is still below the exact
    convolution ([tconv_below]), and [tpow] (powers by squaring with [tconv] for windows of up
    to [tcut] masses, [fconv] beyond, as [fpow] does with [fconv]) below the exact power
    ([tpow_ok]). *)
From Coq Require Import List ZArith PArith Reals Lra Lia.
From Interval Require Import Float.Primitive_ops Float.Sig Float.Basic Interval.Float_full Interval.Interval Real.Xreal.
From Obligations.Finite Require Import PLD PLDCheck.
From Obligations.Accountant Require Import Below DownFloat.
Import ListNotations.

Local Open Scope R_scope.

(** ** Adding two lists of floats, the second shifted *)

(** The pointwise rounded-down sum; where one list has ended, the other one's masses. *)
Fixpoint fdadd (L1 L2 : list F.type) : list F.type :=
  match L1, L2 with
  | [], _ => L2
  | _, [] => L1
  | a :: L1', b :: L2' => fcons (F.add_DN prec a b) (fdadd L1' L2')
  end.

(** [L1] plus [L2] moved [h] keys on: the first [h] masses of [L1] are kept as they are. *)
Fixpoint fadd_at (h : nat) (L1 L2 : list F.type) : list F.type :=
  match h with
  | O => fdadd L1 L2
  | S h' => match L1 with
            | [] => F.zero :: fadd_at h' [] L2
            | a :: L1' => a :: fadd_at h' L1' L2
            end
  end.

Lemma fdadd_lo (L1 L2 : list F.type) :
  Forall fval L1 -> Forall fval L2 -> Forall2 lo (fdadd L1 L2) (dadd Rplus (toRs L1) (toRs L2)).
Proof.
  intros H1. revert L2. induction H1 as [|a L1 Ha H1 IH]; intros L2 H2; cbn [fdadd toRs map dadd].
  - apply fvals_lo, H2.
  - destruct H2 as [|b L2 Hb H2]; cbn [map dadd].
    + apply fvals_lo. constructor; assumption.
    + rewrite fcons_eq. constructor; [|apply IH, H2].
      change (fclamp (F.add_DN prec a b)) with (fadd a b). apply fadd_lo; apply fval_lo; assumption.
Qed.

Lemma fadd_at_lo (h : nat) (L1 L2 : list F.type) :
  Forall fval L1 -> Forall fval L2 ->
  Forall2 lo (fadd_at h L1 L2) (dadd Rplus (toRs L1) (repeat 0 h ++ toRs L2)).
Proof.
  revert L1. induction h as [|h IH]; intros L1 H1 H2; cbn [fadd_at repeat app].
  - apply fdadd_lo; assumption.
  - destruct H1 as [|a L1 Ha H1]; cbn [map dadd].
    + constructor; [apply lo_zero; lra|]. specialize (IH [] (Forall_nil _) H2). cbn [toRs map dadd] in IH.
      destruct (repeat 0 h ++ toRs L2); exact IH.
    + constructor; [apply lo_weaken with (F.toR a); [apply fval_lo, Ha|lra]|]. apply IH; assumption.
Qed.

Lemma ev_app (d o : Z) (L1 L2 : list R) (g : Z -> R) :
  ev d o (L1 ++ L2) g = ev d o L1 g + ev d (o + d * Z.of_nat (length L1)) L2 g.
Proof.
  revert o. induction L1 as [|a L1 IH]; intros o; cbn [app ev length].
  - replace (o + d * Z.of_nat 0)%Z with o by lia. ring.
  - rewrite IH. replace (o + d + d * Z.of_nat (length L1))%Z with (o + d * Z.of_nat (S (length L1)))%Z by lia. ring.
Qed.

Lemma ev_repeat0 (d o : Z) (h : nat) (g : Z -> R) : ev d o (repeat 0 h) g = 0.
Proof. revert o. induction h as [|h IH]; intros o; cbn [repeat ev]; [reflexivity|]. rewrite IH. ring. Qed.

(** The convolution of [B1 ++ B2] integrates as that of [B1] plus that of [B2] moved on. *)
Lemma ev_conv_app (d o : Z) (B1 B2 D : list R) (g : Z -> R) :
  ev d o (conv Rplus Rmult 0 (B1 ++ B2) D) g =
  ev d o (conv Rplus Rmult 0 B1 D) g + ev d (o + d * Z.of_nat (length B1)) (conv Rplus Rmult 0 B2 D) g.
Proof.
  pose proof (ev_conv d o 0 (B1 ++ B2) D g) as E. pose proof (ev_conv d o 0 B1 D g) as E1.
  pose proof (ev_conv d (o + d * Z.of_nat (length B1)) 0 B2 D g) as E2. rewrite Z.add_0_r in E, E1, E2.
  rewrite E, E1, E2, ev_app. reflexivity.
Qed.

(** ** The tree convolution *)

(** [fuel] bounds the depth (a list of length below 2^fuel is split down to single masses);
    past it, [fconv]: soundness does not depend on it. *)
Fixpoint tconv (fuel : nat) (B D : list F.type) : list F.type :=
  match fuel with
  | O => fconv B D
  | S fuel' =>
      match B with
      | [] => []
      | [b] => faxpy b D []
      | _ :: _ :: _ =>
          let h := Nat.div2 (length B) in
          fadd_at h (tconv fuel' (firstn h B) D) (tconv fuel' (skipn h B) D)
      end
  end.

Lemma fconv_below (d o : Z) (B D : list F.type) :
  Forall fval B -> Forall fval D ->
  Forall fval (fconv B D) /\ below d o (toRs (fconv B D)) o (conv Rplus Rmult 0 (toRs B) (toRs D)).
Proof.
  intros HB HD. pose proof (fconv_lo _ _ _ _ (fvals_lo _ HB) (fvals_lo _ HD)) as H.
  split; [exact (lo_fvals _ _ H)|apply lo_below, H].
Qed.

Lemma tconv_below (fuel : nat) (d : Z) (B D : list F.type) :
  Forall fval B -> Forall fval D ->
  Forall fval (tconv fuel B D) /\
  forall o, below d o (toRs (tconv fuel B D)) o (conv Rplus Rmult 0 (toRs B) (toRs D)).
Proof.
  revert B. induction fuel as [|fuel IH]; intros B HB HD; cbn [tconv].
  - split; [apply (fconv_below d 0 B D HB HD)|intros o; apply fconv_below; assumption].
  - destruct B as [|b [|b' B']] eqn:EB.
    + split; [constructor|intros o; apply below_refl].
    + inversion HB as [|? ? Hb _]; subst.
      pose proof (faxpy_lo b (F.toR b) D [] (toRs D) [] (fval_lo _ Hb) (fvals_lo _ HD) (Forall2_nil _)) as H.
      split; [exact (lo_fvals _ _ H)|]. intros o. eapply below_trans; [apply lo_below, H|].
      apply below_ev_eq. intros g. cbn [toRs map conv]. rewrite !ev_dadd. cbn [ev]. ring.
    + rewrite <- EB in *. set (h := Nat.div2 (length B)).
      assert (H1 : Forall fval (firstn h B)) by (rewrite <- (firstn_skipn h B) in HB; apply Forall_app in HB; apply HB).
      assert (H2 : Forall fval (skipn h B)) by (rewrite <- (firstn_skipn h B) in HB; apply Forall_app in HB; apply HB).
      destruct (IH _ H1 HD) as [F1 B1]. destruct (IH _ H2 HD) as [F2 B2].
      pose proof (fadd_at_lo h _ _ F1 F2) as Hs.
      assert (Hh : length (firstn h B) = h) by (apply firstn_length_le; unfold h; apply Nat.div2_decr; lia).
      split; [exact (lo_fvals _ _ Hs)|]. intros o. eapply below_trans; [apply lo_below, Hs|].
      intros g Hg. rewrite ev_dadd, ev_app, ev_repeat0, repeat_length.
      assert (E : toRs B = toRs (firstn h B) ++ toRs (skipn h B))
        by (unfold toRs; rewrite <- map_app; f_equal; symmetry; apply firstn_skipn).
      rewrite E.
      assert (El : length (toRs (firstn h B)) = h) by (unfold toRs; rewrite map_length; exact Hh).
      rewrite ev_conv_app, El.
      specialize (B1 o g Hg). specialize (B2 (o + d * Z.of_nat h)%Z g Hg). lra.
Qed.

(** ** Powers by squaring with the tree convolution *)

(** Depth enough for windows of up to 2^20 masses. *)
Definition tfuel : nat := 20.

(** The tree for left factors of at most [tcut] masses, [fconv] beyond.  A lazy re-check (coqchk)
    pays more per multiply-add for the tree (its lists of partial sums are built and then read
    again), and the rounding the tree saves matters most in the first steps of a power, whose
    losses the later squarings multiply: at 1000 runs of σ = 5 the tree up to 700 masses keeps
    most of the gain for a sixth of the multiply-adds. *)
Definition tcut : nat := 700.

Definition hconv (B D : list F.type) : list F.type :=
  if Nat.leb (length B) tcut then tconv tfuel B D else fconv B D.

Lemma hconv_below (d : Z) (B D : list F.type) :
  Forall fval B -> Forall fval D ->
  Forall fval (hconv B D) /\ forall o, below d o (toRs (hconv B D)) o (conv Rplus Rmult 0 (toRs B) (toRs D)).
Proof.
  intros HB HD. unfold hconv. destruct (Nat.leb _ _); [apply tconv_below; assumption|].
  split; [apply (fconv_below d 0 B D HB HD)|intros o; apply fconv_below; assumption].
Qed.

Section Power.
Variables (tau : F.type) (d oB : Z) (FB : list F.type).

Definition tsq (w : Z * list F.type) : Z * list F.type :=
  trim tau d (fst w + fst w)%Z (hconv (snd w) (snd w)).

Definition tstep (w : Z * list F.type) : Z * list F.type :=
  trim tau d (oB + fst w)%Z (hconv FB (snd w)).

Fixpoint tpow (p : positive) : Z * list F.type :=
  match p with
  | xH => (oB, FB)
  | xO p' => tsq (tpow p')
  | xI p' => tstep (tsq (tpow p'))
  end.

Variable RB : list R.
Hypothesis HB : Forall2 lo FB RB.

Lemma tsq_ok (k : nat) (w : Z * list F.type) : pow_ok d oB RB k w -> pow_ok d oB RB (k + k) (tsq w).
Proof.
  intros [H1 H2]. unfold tsq. destruct (hconv_below d _ _ H1 H1) as [Hf Hc].
  destruct (trim_below tau d (fst w + fst w) _ Hf) as [H3 H4]. split; [exact H3|].
  eapply below_trans; [exact H4|]. eapply below_trans; [apply Hc|].
  eapply below_trans.
  - apply below_conv; [apply fvals_nonneg, H1|apply nonneg_cpow, (rb_nonneg FB RB HB)|exact H2|exact H2].
  - apply below_ev_eq. intros g. rewrite cpow_add_ev. reflexivity.
Qed.

Lemma tstep_ok (k : nat) (w : Z * list F.type) : pow_ok d oB RB k w -> pow_ok d oB RB (S k) (tstep w).
Proof.
  intros [H1 H2]. unfold tstep. pose proof (lo_fvals _ _ HB) as HF.
  destruct (hconv_below d _ _ HF H1) as [Hf Hc].
  destruct (trim_below tau d (oB + fst w) _ Hf) as [H3 H4]. split; [exact H3|].
  eapply below_trans; [exact H4|]. eapply below_trans; [apply Hc|].
  replace (Z.of_nat (S k) * oB)%Z with (oB + Z.of_nat k * oB)%Z by lia. cbn [cpow].
  apply below_conv; [apply fvals_nonneg, HF|apply nonneg_cpow, (rb_nonneg FB RB HB)|apply lo_below, HB|exact H2].
Qed.

Lemma tpow_ok (p : positive) : pow_ok d oB RB (Pos.to_nat p) (tpow p).
Proof.
  induction p as [p IH|p IH|]; cbn [tpow].
  - rewrite Pos2Nat.inj_xI. replace (S (2 * Pos.to_nat p)) with (S (Pos.to_nat p + Pos.to_nat p)) by lia.
    apply tstep_ok, tsq_ok, IH.
  - rewrite Pos2Nat.inj_xO. replace (2 * Pos.to_nat p)%nat with (Pos.to_nat p + Pos.to_nat p)%nat by lia.
    apply tsq_ok, IH.
  - exact (fpow_ok tau d oB FB RB HB 1).
Qed.

End Power.
