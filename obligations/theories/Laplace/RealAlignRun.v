(** * The aligned tape over the reals: what the soundness of alignment needs, proved once

    Coupling/AlignSound.v's argument for the tape semantics over the reals,
    up to the measure theory (ProgAlign.v, RealAlignSound.v).  If every
    aligned run ([pexec], RealRelational.v) with the shift function
    [shf o tr] is void or good (not bad, the same outputs, and when [ctr]
    the same branches, at a cost [pacc <= C]), then for related inputs the
    map from a tape [v] to its aligned tape
    - is [v] moved by whole numbers ([zshift]: [aligned_tape_vadd]),
    - makes the neighbour's run release the left run's outputs
      ([zshift_out]),
    - costs at most C/W in units of ε ([zshift_cost]), and
    - can be read back: two tapes with the same aligned tape are equal
      ([zshift_back]). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
From Obligations.Laplace Require Import RealTape RealRelational.
Import ListNotations.
Local Open Scope R_scope.

(** Adding a vector to a list of reals (missing entries count 0). *)
Fixpoint rvadd (v d : list R) : list R :=
  match v with
  | [] => []
  | x :: v' => (x + hd 0 d) :: rvadd v' (tl d)
  end.

Lemma rvadd_length (v d : list R) : length (rvadd v d) = length v.
Proof. revert d. induction v as [|x v IH]; intros d; cbn; [reflexivity|]. rewrite IH. reflexivity. Qed.

Lemma nth_rvadd (v d : list R) (b : nat) : nth b (rvadd v d) 0 = nth b v 0 + nth b d 0 \/ (length v <= b)%nat.
Proof.
  revert d b. induction v as [|x v IH]; intros d b; [right; cbn; lia|].
  destruct b as [|b]; cbn [rvadd nth]; [left; destruct d; cbn; ring|].
  destruct (IH (tl d) b) as [H|H]; [left|right; cbn; lia]. rewrite H. destruct d; cbn; [destruct b|]; ring.
Qed.

(** The cost of whole-number shifts [z] at the positions of [lay], in units of ε. *)
Fixpoint zcost (lay : list (positive * positive)) (z : list Z) : R :=
  match lay with
  | [] => 0
  | w :: lay' => rate 1 w * Rabs (IZR (hd 0%Z z)) + zcost lay' (tl z)
  end.

Lemma zcost_seq (lay : list (positive * positive)) (g : nat -> Z) (a : nat) :
  zcost lay (map g (seq a (length lay))) =
  isum (fun b => rate 1 (nth (b - a) lay dflt) * Rabs (IZR (g b))) a (length lay).
Proof.
  revert a. induction lay as [|w lay IH]; intros a; [reflexivity|].
  cbn [length seq map zcost hd tl]. rewrite IH. unfold isum. cbn [seq map fold_right].
  rewrite Nat.sub_diag. cbn [nth]. f_equal. f_equal. apply map_ext_in. intros b Hb. apply in_seq in Hb.
  replace (b - a)%nat with (S (b - S a)) by lia. reflexivity.
Qed.

Lemma rfloor_IZR (z : Z) : rfloor (IZR z) = z.
Proof.
  unfold rfloor. rewrite <- (tech_up (IZR z) (z + 1)); [lia| |]; rewrite plus_IZR; lra.
Qed.

(** The aligned tape is the tape moved by whole numbers. *)
Lemma pexec_pw_int (v : nat -> R) sh W o tr ctr (s : stmt) : forall a site ps,
  (forall b, exists z, pw ps b = v b + IZR z) ->
  forall b, exists z, pw (pexec v sh W o tr ctr s a site ps) b = v b + IZR z.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps H;
    cbn [pexec]; destruct (rhalted (pl ps)); try exact H.
  - apply IHs2, IHs1, H.
  - destruct d; try exact H. intros b. cbn [psample pw]. unfold upd.
    destruct (Nat.eqb b a) eqn:E; [apply Nat.eqb_eq in E; subst b; eexists; reflexivity|apply H].
  - destruct (Bool.eqb _ _); [|exact H]. destruct (rbeval _ _); [apply IHs1|apply IHs2]; exact H.
  - apply (pfor_mono _ (fun ps => forall b, exists z, pw ps b = v b + IZR z)); [|intros x0 z0 ps0 Hp; exact Hp|exact H].
    intros a' ps' H'. apply IHs, H'.
Qed.

Section Sound.

Variables (nb : list Z -> list Z -> Prop) (p : stmt) (nvars : nat) (W C : Z) (ctr : bool)
  (shf : list roval -> list bool -> nat -> rstate -> rstate -> Z).

Definition good_run (ps : pstate) : Prop :=
  pvoid ps = true \/
  (pbad ps = false /\ rout (pa ps) = rout (pl ps) /\ (ctr = true -> rtr (pa ps) = rtr (pl ps)) /\
   (pacc ps <= C)%Z).

(** The left run, its prophecy, the aligned run, the aligned tape. *)
Definition left_run (x : list Z) (v : list R) : rstate := rexec (rtape v) p 0 (rinit nvars x).

Definition proph_tr (st : rstate) : list bool := if ctr then rtr st else [].

Definition aligned_run (x x' : list Z) (v : list R) : pstate :=
  let st := left_run x v in
  pexec (rtape v) (shf (rout st) (proph_tr st)) W (rout st) (proph_tr st) ctr p 0 0 (pinit nvars x x' (rtape v)).

Definition aligned_tape (x x' : list Z) (v : list R) : list R := map (pw (aligned_run x x' v)) (seq 0 (size p)).

(** The whole-number shift of each position. *)
Definition zshift (x x' : list Z) (v : list R) : list Z :=
  map (fun b => rfloor (pw (aligned_run x x' v) b - rtape v b)) (seq 0 (size p)).

Hypothesis Hgeom : geom_only p = true.
Hypothesis HW : (0 < W)%Z.

Lemma rtape_run_some (x : list Z) (v : list R) :
  rtape_run p nvars x v = Some (rout (rexec (rtape v) p 0 (rinit nvars x))).
Proof. unfold rtape_run. rewrite rexec_no_fault by (exact Hgeom || reflexivity). reflexivity. Qed.

Lemma aligned_void (x x' : list Z) (v : list R) : pvoid (aligned_run x x' v) = false.
Proof.
  unfold aligned_run. apply pexec_void_false; [reflexivity|]. cbn [pinit pl]. fold (left_run x v). split.
  - exists []. rewrite app_nil_r. reflexivity.
  - intros Hc. unfold proph_tr. rewrite Hc. exists []. rewrite app_nil_r. reflexivity.
Qed.

Lemma rtape_aligned (x x' : list Z) (v : list R) (b : nat) :
  (b < size p)%nat -> rtape (aligned_tape x x' v) b = pw (aligned_run x x' v) b.
Proof.
  intros H. unfold rtape, aligned_tape. rewrite nth_indep with (d' := pw (aligned_run x x' v) 0%nat)
    by (rewrite map_length, seq_length; exact H).
  rewrite map_nth, seq_nth by exact H. reflexivity.
Qed.

Lemma aligned_right (x x' : list Z) (v : list R) : pbad (aligned_run x x' v) = false ->
  pa (aligned_run x x' v) = rexec (rtape (aligned_tape x x' v)) p 0 (rinit nvars x').
Proof.
  intros Hb. unfold aligned_run in *.
  destruct (pexec_right _ _ _ _ _ _ p 0 0 (pinit nvars x x' (rtape v)) (rtape (aligned_tape x x' v)) Hb)
    as [H _]; [reflexivity| |exact H].
  intros b Hb'. apply rtape_aligned. lia.
Qed.

Hypothesis Hgood : forall x x', nb x x' -> forall (v : nat -> R) o tr,
  good_run (pexec v (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' v)).

Lemma aligned_good (x x' : list Z) (v : list R) : nb x x' ->
  pbad (aligned_run x x' v) = false /\ rout (pa (aligned_run x x' v)) = rout (pl (aligned_run x x' v)) /\
  (ctr = true -> rtr (pa (aligned_run x x' v)) = rtr (pl (aligned_run x x' v))) /\
  (pacc (aligned_run x x' v) <= C)%Z.
Proof.
  intros Hnb. destruct (Hgood x x' Hnb (rtape v) (rout (left_run x v)) (proph_tr (left_run x v))) as [Hv|H];
    [|exact H].
  exfalso. pose proof (aligned_void x x' v) as H0. unfold aligned_run in H0. congruence.
Qed.

Lemma aligned_left (x x' : list Z) (v : list R) : pl (aligned_run x x' v) = left_run x v.
Proof. unfold aligned_run. rewrite pexec_left. reflexivity. Qed.

Lemma aligned_out (x x' : list Z) (v : list R) : nb x x' ->
  rtape_run p nvars x' (aligned_tape x x' v) = rtape_run p nvars x v.
Proof.
  intros Hnb. destruct (aligned_good x x' v Hnb) as [Hb [Ho _]].
  rewrite !rtape_run_some. f_equal.
  rewrite <- aligned_right by exact Hb. rewrite Ho, aligned_left. reflexivity.
Qed.

Lemma aligned_tape_vadd (x x' : list Z) (v : list R) : length v = size p ->
  aligned_tape x x' v = rvadd v (map IZR (zshift x x' v)).
Proof.
  intros Hv. apply nth_ext with (d := 0) (d' := 0).
  { rewrite rvadd_length. unfold aligned_tape. rewrite map_length, seq_length. auto. }
  intros b Hb. unfold aligned_tape in Hb. rewrite map_length, seq_length in Hb.
  destruct (nth_rvadd v (map IZR (zshift x x' v)) b) as [E|E]; [|lia]. rewrite E.
  fold (rtape (aligned_tape x x' v) b). rewrite rtape_aligned by exact Hb.
  assert (Hn : nth b (map IZR (zshift x x' v)) 0 = IZR (nth b (zshift x x' v) 0%Z)) by apply (map_nth IZR).
  rewrite Hn. unfold zshift. set (g := fun b0 => rfloor (pw (aligned_run x x' v) b0 - rtape v b0)).
  rewrite (nth_indep _ _ (g 0%nat)) by (rewrite map_length, seq_length; exact Hb).
  rewrite map_nth, seq_nth by exact Hb. cbn [Nat.add]. unfold g.
  destruct (pexec_pw_int (rtape v) (shf (rout (left_run x v)) (proph_tr (left_run x v))) W
    (rout (left_run x v)) (proph_tr (left_run x v)) ctr p 0 0 (pinit nvars x x' (rtape v)))
    with (b := b) as [z Hz].
  { intros b'. exists 0%Z. cbn [pinit pw]. ring. }
  fold (aligned_run x x' v) in Hz. rewrite Hz. replace (rtape v b + IZR z - rtape v b) with (IZR z) by ring.
  rewrite rfloor_IZR. reflexivity.
Qed.

Lemma zshift_out (x x' : list Z) (v : list R) : nb x x' -> length v = size p ->
  rtape_run p nvars x' (rvadd v (map IZR (zshift x x' v))) = rtape_run p nvars x v.
Proof. intros Hnb Hv. rewrite <- aligned_tape_vadd by exact Hv. apply aligned_out, Hnb. Qed.

Lemma zshift_cost (x x' : list Z) (v : list R) : nb x x' ->
  zcost (layout p) (zshift x x' v) <= IZR C / IZR W.
Proof.
  intros Hnb. destruct (aligned_good x x' v Hnb) as [Hb [_ [_ Hc]]].
  unfold zshift. rewrite <- size_layout. rewrite zcost_seq.
  set (ps := aligned_run x x' v).
  assert (E : isum (fun b => rate 1 (nth (b - 0) (layout p) dflt) * Rabs (IZR (rfloor (pw ps b - rtape v b))))
                0 (length (layout p)) = pcost (rtape v) 1 (layout p) ps 0 (size p)).
  { rewrite size_layout. apply isum_ext. intros b Hb'. rewrite Nat.sub_0_r.
    destruct (pexec_pw_int (rtape v) (shf (rout (left_run x v)) (proph_tr (left_run x v))) W
      (rout (left_run x v)) (proph_tr (left_run x v)) ctr p 0 0 (pinit nvars x x' (rtape v)))
      with (b := b) as [z Hz].
    { intros b'. exists 0%Z. cbn [pinit pw]. ring. }
    fold (aligned_run x x' v) ps in Hz. rewrite Hz.
    replace (rtape v b + IZR z - rtape v b) with (IZR z) by ring. rewrite rfloor_IZR. reflexivity. }
  rewrite E. unfold ps, aligned_run. rewrite pexec_cost; [| exact HW | | | exact Hb].
  - cbn [pinit pacc]. rewrite Z.sub_0_r.
    assert (HW' : 0 < IZR W) by (apply IZR_lt; exact HW).
    apply IZR_le in Hc. unfold Rdiv. rewrite Rmult_1_l, Rmult_comm.
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat, HW'|exact Hc].
  - intros t Ht. reflexivity.
  - intros b _. reflexivity.
Qed.

Lemma aligned_inj (x x' : list Z) (v u : list R) : nb x x' -> length v = size p -> length u = size p ->
  aligned_tape x x' v = aligned_tape x x' u -> v = u.
Proof.
  intros Hnb Hv Hu Heq.
  destruct (aligned_good x x' v Hnb) as [Hbv [Hov [Htv _]]].
  destruct (aligned_good x x' u Hnb) as [Hbu [Hou [Htu _]]].
  assert (Ha : pa (aligned_run x x' v) = pa (aligned_run x x' u))
    by (rewrite !aligned_right by assumption; rewrite Heq; reflexivity).
  assert (Eo : rout (left_run x v) = rout (left_run x u))
    by (rewrite <- (aligned_left x x' v), <- (aligned_left x x' u), <- Hov, <- Hou, Ha; reflexivity).
  assert (Et : proph_tr (left_run x v) = proph_tr (left_run x u)).
  { unfold proph_tr. destruct ctr eqn:Hc; [|reflexivity].
    rewrite <- (aligned_left x x' v), <- (aligned_left x x' u), <- Htv, <- Htu, Ha by reflexivity.
    reflexivity. }
  set (o := rout (left_run x v)) in *. set (tr := proph_tr (left_run x v)) in *.
  assert (Ru : aligned_run x x' u = pexec (rtape u) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (rtape u))).
  { unfold aligned_run. rewrite <- Eo, <- Et. reflexivity. }
  assert (Hw : forall b, (0 <= b < 0 + size p)%nat ->
    pw (pexec (rtape v) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (rtape v))) b =
    pw (pexec (rtape u) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (rtape u))) b).
  { assert (Rv : aligned_run x x' v = pexec (rtape v) (shf o tr) W o tr ctr p 0 0 (pinit nvars x x' (rtape v)))
      by reflexivity.
    intros b Hb. rewrite <- Ru, <- Rv. rewrite <- !rtape_aligned by lia. rewrite Heq. reflexivity. }
  destruct (pexec_agree (rtape v) (rtape u) _ W _ _ ctr p 0 0 (pinit nvars x x' (rtape v)) (pinit nvars x x' (rtape u))
    eq_refl (fun b _ => eq_refl) (fun b _ => eq_refl) Hbv Hw) as [_ Hvu].
  apply nth_ext with (d := 0) (d' := 0); [congruence|].
  intros b Hb. apply (Hvu b). lia.
Qed.

Lemma zshift_back (x x' : list Z) (v u : list R) : nb x x' -> length v = size p -> length u = size p ->
  rvadd v (map IZR (zshift x x' v)) = rvadd u (map IZR (zshift x x' u)) -> zshift x x' v = zshift x x' u.
Proof.
  intros Hnb Hv Hu H. rewrite <- !aligned_tape_vadd in H by assumption.
  rewrite (aligned_inj x x' v u Hnb Hv Hu H). reflexivity.
Qed.

End Sound.
