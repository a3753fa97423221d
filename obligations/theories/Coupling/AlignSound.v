(** * The soundness of alignment for programs, proved once

    [dp_of_aligned]: if, for all related inputs [x, x'], every tape and every
    prophecy, the aligned run ([pexec], Relational.v) of the program with the
    shift function [shf o tr] is void or
    - not bad (the two runs took the same branches, except where both
      branches are quiet, and released equal values),
    - releases the same outputs (and, when [ctr], takes the same branches),
    - at a cost [pacc] of at most [C] (in units of ε/W),
    then the program is (C/W·ε)-DP between [x] and [x'] for every ε > 0 and
    every event on outputs ([dp_prog]).

    The proof: the map from a tape [v] to the aligned tape (built by the run
    of [v] with the left run's own outputs and trace as the prophecy) makes
    the neighbour's run produce the left run's output ([pexec_right]), costs
    at most C/W·ε in the density ([pexec_cost], [dens_shift]), and is
    injective ([pexec_agree]: from the aligned tape the neighbour's run gives
    back the prophecy, from which the tape is read back position by
    position); [tsum1_align] sums the pointwise bound. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product Alignment TapeSem Relational.
Import ListNotations.
Local Open Scope R_scope.

Lemma cost_seq (ts : list R) (g : nat -> Z) (a : nat) :
  cost ts (map g (seq a (length ts))) = isum (fun b => nth (b - a) ts 0 * IZR (Z.abs (g b))) a (length ts).
Proof.
  revert a. induction ts as [|t ts IH]; intros a; [reflexivity|].
  cbn [length seq map cost]. rewrite IH. unfold isum. cbn [seq map fold_right].
  rewrite Nat.sub_diag. cbn [nth]. f_equal. f_equal. apply map_ext_in. intros b Hb. apply in_seq in Hb.
  replace (b - a)%nat with (S (b - S a)) by lia. reflexivity.
Qed.

Lemma nth_rates (eps : R) (p : stmt) (b : nat) :
  (b < size p)%nat -> nth b (rates eps p) 0 = rate eps (nth b (layout p) dflt).
Proof.
  intros H. unfold rates. rewrite nth_indep with (d' := rate eps dflt) by (rewrite map_length, size_layout; exact H).
  apply map_nth.
Qed.

Lemma nth_vadd (v s : list Z) (b : nat) : (b < length v)%nat -> (b < length s)%nat ->
  nth b (vadd v s) 0%Z = (nth b v 0 + nth b s 0)%Z.
Proof.
  revert s b. induction v as [|z v IH]; intros [|d s] b Hv Hs; cbn [length] in *; try lia.
  destruct b as [|b]; cbn [vadd nth]; [reflexivity|]. apply IH; lia.
Qed.

Lemma nth_map_seq (f : nat -> Z) (n b : nat) : (b < n)%nat -> nth b (map f (seq 0 n)) 0%Z = f b.
Proof.
  intros H. rewrite (nth_indep _ _ (f 0%nat)) by (rewrite map_length, seq_length; exact H).
  rewrite map_nth, seq_nth by exact H. reflexivity.
Qed.

Lemma vadd_map (v : list Z) (f : nat -> Z) :
  vadd v (map (fun b => f b - tape v b)%Z (seq 0 (length v))) = map f (seq 0 (length v)).
Proof.
  apply nth_ext with (d := 0%Z) (d' := 0%Z); rewrite ?vadd_length, ?map_length, ?seq_length; [reflexivity|].
  intros b Hb. rewrite nth_vadd by (rewrite ?map_length, ?seq_length; exact Hb).
  rewrite !nth_map_seq by exact Hb. unfold tape. lia.
Qed.

Section Sound.

Variables (nb : list Z -> list Z -> Prop) (p : stmt) (nvars : nat) (W C : Z) (ctr : bool)
  (shf : list oval -> list bool -> nat -> tstate -> tstate -> Z).

Definition good_run (ps : pstate) : Prop :=
  pvoid ps = true \/
  (pbad ps = false /\ tout (pa ps) = tout (pl ps) /\ (ctr = true -> ttr (pa ps) = ttr (pl ps)) /\
   (pacc ps <= C)%Z).

(** The left run, its prophecy, the aligned run, the aligned tape. *)
Definition left_run (x : list Z) (v : list Z) : tstate := texec (tape v) p 0 (tinit nvars x).

Definition proph_tr (st : tstate) : list bool := if ctr then ttr st else [].

Definition aligned_run (x x' v : list Z) : pstate :=
  let st := left_run x v in
  pexec (tape v) (shf (tout st) (proph_tr st)) W (tout st) (proph_tr st) ctr p 0 0 (pinit nvars x x' (tape v)).

Definition aligned_tape (x x' v : list Z) : list Z := map (pw (aligned_run x x' v)) (seq 0 (size p)).

Hypothesis Hgeom : geom_only p = true.
Hypothesis HW : (0 < W)%Z.

Lemma aligned_void (x x' v : list Z) : pvoid (aligned_run x x' v) = false.
Proof.
  unfold aligned_run. apply pexec_void_false; [reflexivity|]. cbn [pinit pl]. fold (left_run x v). split.
  - exists []. rewrite app_nil_r. reflexivity.
  - intros Hc. unfold proph_tr. rewrite Hc. exists []. rewrite app_nil_r. reflexivity.
Qed.

Lemma tape_aligned (x x' v : list Z) (b : nat) :
  (b < size p)%nat -> tape (aligned_tape x x' v) b = pw (aligned_run x x' v) b.
Proof.
  intros H. unfold tape, aligned_tape. rewrite nth_indep with (d' := pw (aligned_run x x' v) 0%nat)
    by (rewrite map_length, seq_length; exact H).
  rewrite map_nth, seq_nth by exact H. reflexivity.
Qed.

Lemma aligned_right (x x' v : list Z) : pbad (aligned_run x x' v) = false ->
  pa (aligned_run x x' v) = texec (tape (aligned_tape x x' v)) p 0 (tinit nvars x').
Proof.
  intros Hb. unfold aligned_run in *.
  destruct (pexec_right _ _ _ _ _ _ p 0 0 (pinit nvars x x' (tape v)) (tape (aligned_tape x x' v)) Hb)
    as [H _]; [reflexivity| |exact H].
  intros b Hb'. apply tape_aligned. lia.
Qed.

Hypothesis Hgood : forall x x', nb x x' -> forall (v : nat -> Z) o tr,
  good_run (pexec v (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' v)).

Lemma aligned_good (x x' v : list Z) : nb x x' ->
  pbad (aligned_run x x' v) = false /\ tout (pa (aligned_run x x' v)) = tout (pl (aligned_run x x' v)) /\
  (ctr = true -> ttr (pa (aligned_run x x' v)) = ttr (pl (aligned_run x x' v))) /\
  (pacc (aligned_run x x' v) <= C)%Z.
Proof.
  intros Hnb. destruct (Hgood x x' Hnb (tape v) (tout (left_run x v)) (proph_tr (left_run x v))) as [Hv|H];
    [|exact H].
  exfalso. pose proof (aligned_void x x' v) as H0. unfold aligned_run in H0. congruence.
Qed.

Lemma aligned_left (x x' v : list Z) : pl (aligned_run x x' v) = left_run x v.
Proof. unfold aligned_run. rewrite pexec_left. reflexivity. Qed.

Lemma aligned_out (x x' v : list Z) : nb x x' ->
  tape_run p nvars x' (aligned_tape x x' v) = tape_run p nvars x v.
Proof.
  intros Hnb. destruct (aligned_good x x' v Hnb) as [Hb [Ho _]].
  rewrite !tape_run_some by exact Hgeom. f_equal.
  rewrite <- aligned_right by exact Hb. rewrite Ho, aligned_left. reflexivity.
Qed.

Lemma aligned_cost (eps : R) (x x' v : list Z) : 0 < eps -> nb x x' ->
  cost (rates eps p) (map (fun b => pw (aligned_run x x' v) b - tape v b)%Z (seq 0 (size p)))
  <= IZR C / IZR W * eps.
Proof.
  intros He Hnb. destruct (aligned_good x x' v Hnb) as [Hb [_ [_ Hc]]].
  rewrite <- (rates_length eps p) at 1. rewrite cost_seq, rates_length.
  assert (E : isum (fun b => nth (b - 0) (rates eps p) 0 * IZR (Z.abs (pw (aligned_run x x' v) b - tape v b)))
                0 (size p) = pcost (tape v) eps (layout p) (aligned_run x x' v) 0 (size p)).
  { apply isum_ext. intros b Hb'. rewrite Nat.sub_0_r, nth_rates by lia. reflexivity. }
  rewrite E. unfold aligned_run. rewrite pexec_cost; [| exact HW | | | exact Hb].
  - cbn [pinit pacc]. rewrite Z.sub_0_r.
    assert (HW' : 0 < IZR W) by (apply IZR_lt; exact HW).
    apply IZR_le in Hc. replace (IZR C / IZR W * eps) with (eps / IZR W * IZR C) by (field; lra).
    apply Rmult_le_compat_l; [unfold Rdiv; apply Rmult_le_pos; [lra|apply Rlt_le, Rinv_0_lt_compat, HW']|exact Hc].
  - intros t Ht. reflexivity.
  - intros b _. reflexivity.
Qed.

Lemma aligned_inj (x x' v u : list Z) : nb x x' -> length v = size p -> length u = size p ->
  aligned_tape x x' v = aligned_tape x x' u -> v = u.
Proof.
  intros Hnb Hv Hu Heq.
  destruct (aligned_good x x' v Hnb) as [Hbv [Hov [Htv _]]].
  destruct (aligned_good x x' u Hnb) as [Hbu [Hou [Htu _]]].
  assert (Ha : pa (aligned_run x x' v) = pa (aligned_run x x' u))
    by (rewrite !aligned_right by assumption; rewrite Heq; reflexivity).
  assert (Eo : tout (left_run x v) = tout (left_run x u))
    by (rewrite <- (aligned_left x x' v), <- (aligned_left x x' u), <- Hov, <- Hou, Ha; reflexivity).
  assert (Et : proph_tr (left_run x v) = proph_tr (left_run x u)).
  { unfold proph_tr. destruct ctr eqn:Hc; [|reflexivity].
    rewrite <- (aligned_left x x' v), <- (aligned_left x x' u), <- Htv, <- Htu, Ha by reflexivity.
    reflexivity. }
  set (o := tout (left_run x v)) in *. set (tr := proph_tr (left_run x v)) in *.
  assert (Ru : aligned_run x x' u = pexec (tape u) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (tape u))).
  { unfold aligned_run. rewrite <- Eo, <- Et. reflexivity. }
  assert (Hw : forall b, (0 <= b < 0 + size p)%nat ->
    pw (pexec (tape v) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (tape v))) b =
    pw (pexec (tape u) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (tape u))) b).
  { assert (Rv : aligned_run x x' v = pexec (tape v) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (tape v)))
      by reflexivity.
    intros b Hb. rewrite <- Ru, <- Rv. rewrite <- !tape_aligned by lia. rewrite Heq. reflexivity. }
  destruct (pexec_agree (tape v) (tape u) _ W _ _ ctr p 0 0 (pinit nvars x x' (tape v)) (pinit nvars x x' (tape u))
    eq_refl (fun b _ => eq_refl) (fun b _ => eq_refl) Hbv Hw) as [_ Hvu].
  apply nth_ext with (d := 0%Z) (d' := 0%Z); [congruence|].
  intros b Hb. apply (Hvu b). lia.
Qed.

(** The theorem. *)
Theorem dp_of_aligned : dp_prog nb p nvars (IZR C / IZR W).
Proof.
  intros eps He x x' Hnb S. unfold prog_prob, prob_event.
  set (ts := rates eps p).
  assert (Hts : rates_pos ts) by apply (rates_pos_eps _ _ He).
  apply (tsum1_align _ _ (fun v => Nat.eqb (length v) (size p)) (aligned_tape x x')).
  - intros v. pose proof (dens_nonneg ts v Hts). unfold indicator; destruct (S _); lra.
  - apply prob_event_sum_le, Hts.
  - apply Rlt_le, exp_pos.
  - intros v Hv. apply Nat.eqb_neq in Hv. rewrite dens_length by (unfold ts; rewrite rates_length; exact Hv). ring.
  - intros v u Hv Hu H. apply Nat.eqb_eq in Hv, Hu. exact (aligned_inj x x' v u Hnb Hv Hu H).
  - intros v Hv. apply Nat.eqb_eq in Hv. rewrite (aligned_out x x' v Hnb).
    set (sh := map (fun b => pw (aligned_run x x' v) b - tape v b)%Z (seq 0 (size p))).
    assert (Ev : vadd v sh = aligned_tape x x' v) by (unfold sh, aligned_tape; rewrite <- Hv; apply vadd_map).
    pose proof (dens_shift ts v sh Hts) as Hd. rewrite Ev in Hd.
    pose proof (proj2 (exp_le_iff _ _) (aligned_cost eps x x' v He Hnb)) as Hc. fold ts sh in Hc.
    pose proof (dens_nonneg ts (aligned_tape x x' v) Hts).
    unfold indicator; destruct (S _); nra.
Qed.

End Sound.
