(** * The aligned run: a program run on two inputs at once, the second on a shifted tape

    [pexec] runs a program on the input [x] with the tape [v] (the left run,
    exactly [texec]: [pexec_left]) and on the neighbour [x'] (the aligned
    run) together, statement by statement.  At a sampling statement of site
    [site] (sites numbered in the order they are written), the aligned run
    reads the left run's tape value plus a shift [sh site L A] chosen from
    the two runs' states at that point; the shifted value is recorded in the
    aligned tape [pw], and [pacc] adds the shift's cost |shift|·den·(W/num)
    (the cost in units of ε/W: [W] is a common multiple of the scales'
    numerators, else the run is marked bad).

    A conditional both runs decide alike runs its branch on both; decided
    differently, each run takes its own branch alone, which is allowed
    ([pbad] stays false) only when neither branch samples, releases or stops
    ([quiet]).  A release compares the two values ([pbad] when they differ).

    The shift may also read the left run's final outputs [o] and branch
    decisions [tr] (a prophecy); [pexec] checks each release (and, when
    [ctr], each branch decision) of the left run against them and marks the
    run [pvoid] at the first disagreement.  With the left run's true outputs
    and trace it never is ([pexec_void_false]).

    What is proved here, once: the left run is [texec] on [v]
    ([pexec_left]); a run not marked bad is, on the aligned side, [texec] on
    the aligned tape ([pexec_right]); the map from [v] to the aligned tape is
    injective given the prophecy ([pexec_agree]); and the aligned tape
    differs from [v] at a cost [pacc] ([pexec_cost]).  AlignSound.v puts
    them together. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import LubSum Geometric Product TapeSem.
Import ListNotations.
Local Open Scope Z_scope.

Record pstate := mkps { pl : tstate; pa : tstate; pw : nat -> Z; pacc : Z; pbad : bool; pvoid : bool }.

(** The sampling sites of a statement. *)
Fixpoint nsites (s : stmt) : nat :=
  match s with
  | SSample _ _ => 1
  | SSeq s1 s2 | SIf _ s1 s2 => nsites s1 + nsites s2
  | SFor _ _ body => nsites body
  | _ => 0
  end.

(** Neither samples, releases nor stops. *)
Fixpoint quiet (s : stmt) : bool :=
  match s with
  | SSkip | SAssign _ _ => true
  | SSeq s1 s2 | SIf _ s1 s2 => quiet s1 && quiet s2
  | SFor _ _ body => quiet body
  | _ => false
  end.

(** The cost of a shift by 1 at the scale num/den, in units of ε/W. *)
Definition weight (W : Z) (num den : positive) : Z := Zpos den * (W / Zpos num).

Definition upd (f : nat -> Z) (a : nat) (z : Z) : nat -> Z := fun b => if Nat.eqb b a then z else f b.

(** The prophecy's entry at the current position agrees. *)
Definition out_ok (o : list oval) (st : tstate) (ov : oval) : bool :=
  match nth_error o (length (tout st)) with Some ov' => oval_eqb ov ov' | None => false end.

Definition tr_ok (tr : list bool) (st : tstate) (b : bool) : bool :=
  match nth_error tr (length (ttr st)) with Some b' => Bool.eqb b b' | None => false end.

Definition pinit (nvars : nat) (x x' : list Z) (v : nat -> Z) : pstate :=
  mkps (tinit nvars x) (tinit nvars x') v 0 false false.

Section Pexec.

Variables (v : nat -> Z) (sh : nat -> tstate -> tstate -> Z) (W : Z) (o : list oval) (tr : list bool)
  (ctr : bool).

Definition pboth (f : tstate -> tstate) (ps : pstate) : pstate :=
  mkps (f (pl ps)) (f (pa ps)) (pw ps) (pacc ps) (pbad ps) (pvoid ps).

Definition passign (x : nat) (e : aexp) (ps : pstate) : pstate :=
  mkps (tset x (aeval (tenv (pl ps)) e) (pl ps)) (tset x (aeval (tenv (pa ps)) e) (pa ps))
       (pw ps) (pacc ps) (pbad ps) (pvoid ps).

Definition pemit (ol oa : oval) (ps : pstate) : pstate :=
  mkps (temit ol (pl ps)) (temit oa (pa ps)) (pw ps) (pacc ps)
       (pbad ps || negb (oval_eqb ol oa)) (pvoid ps || negb (out_ok o (pl ps) ol)).

Definition psample (a site : nat) (x : nat) (num den : positive) (c : aexp) (ps : pstate) : pstate :=
  let z := sh site (pl ps) (pa ps) in
  mkps (tset x (aeval (tenv (pl ps)) c + v a) (pl ps))
       (tset x (aeval (tenv (pa ps)) c + (v a + z)) (pa ps))
       (upd (pw ps) a (v a + z)) (pacc ps + Z.abs z * weight W num den)
       (pbad ps || negb (W mod Zpos num =? 0)) (pvoid ps).

Definition pvoid_if (bl : bool) (ps : pstate) : bool :=
  pvoid ps || (ctr && negb (tr_ok tr (pl ps) bl)).

Fixpoint pfor (step : nat -> pstate -> pstate) (x : nat) (sb a : nat) (i : Z) (n : nat) (ps : pstate)
    : pstate :=
  match n with
  | O => ps
  | S n' => pfor step x sb (a + sb) (Z.succ i) n' (if thalted (pl ps) then ps else step a (pboth (tset x i) ps))
  end.

Fixpoint pexec (s : stmt) (a site : nat) (ps : pstate) {struct s} : pstate :=
  if thalted (pl ps) then ps else
  match s with
  | SSkip => ps
  | SSeq s1 s2 => pexec s2 (a + size s1) (site + nsites s1) (pexec s1 a site ps)
  | SAssign x e => passign x e ps
  | SSample x (DGeom num den c) => psample a site x num den c ps
  | SSample _ _ => pboth tfail ps
  | SIf b s1 s2 =>
      let bl := beval (tenv (pl ps)) b in
      let ba := beval (tenv (pa ps)) b in
      let vd := pvoid_if bl ps in
      if Bool.eqb bl ba then
        if bl then pexec s1 a site (mkps (tbranch true (pl ps)) (tbranch true (pa ps)) (pw ps) (pacc ps) (pbad ps) vd)
        else pexec s2 (a + size s1) (site + nsites s1)
               (mkps (tbranch false (pl ps)) (tbranch false (pa ps)) (pw ps) (pacc ps) (pbad ps) vd)
      else
        mkps (if bl then texec v s1 a (tbranch true (pl ps)) else texec v s2 (a + size s1) (tbranch false (pl ps)))
             (if ba then texec v s1 a (tbranch true (pa ps)) else texec v s2 (a + size s1) (tbranch false (pa ps)))
             (pw ps) (pacc ps) (pbad ps || negb (quiet s1 && quiet s2)) vd
  | SFor x n body => pfor (fun a' ps' => pexec body a' site ps') x (size body) a 0 n ps
  | SOut e => pemit (OVal (aeval (tenv (pl ps)) e)) (OVal (aeval (tenv (pa ps)) e)) ps
  | STop => pemit OTop OTop ps
  | SBot => pemit OBot OBot ps
  | SStop => pboth tstop ps
  end.

(** ** The left run is [texec] *)

Lemma pfor_halted (step : nat -> pstate -> pstate) (x sb a : nat) (i : Z) (n : nat) (ps : pstate) :
  thalted (pl ps) = true -> pfor step x sb a i n ps = ps.
Proof. revert a i. induction n as [|n IH]; intros a i H; cbn [pfor]; [reflexivity|]. rewrite H. apply IH, H. Qed.

Lemma pexec_halted (s : stmt) (a site : nat) (ps : pstate) : thalted (pl ps) = true -> pexec s a site ps = ps.
Proof. intros H. destruct s; cbn [pexec]; rewrite H; reflexivity. Qed.

Lemma pexec_left (s : stmt) : forall a site ps, pl (pexec s a site ps) = texec v s a (pl ps).
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps; cbn [pexec texec]; destruct (thalted (pl ps)) eqn:Hh; try reflexivity.
  - rewrite IHs2, IHs1. reflexivity.
  - destruct d; reflexivity.
  - destruct (beval (tenv (pl ps)) c), (beval (tenv (pa ps)) c); cbn [Bool.eqb];
      rewrite ?IHs1, ?IHs2; reflexivity.
  - revert a ps Hh. generalize 0%Z. induction n as [|n IHn]; intros i a ps Hh; cbn [pfor tfor]; [reflexivity|].
    rewrite Hh. destruct (thalted (texec v s a (tset x i (pl ps)))) eqn:Hh'.
    + rewrite pfor_halted, tfor_halted by (cbn [pl]; rewrite ?IHs; exact Hh'). rewrite IHs. reflexivity.
    + rewrite IHn by (rewrite IHs; exact Hh'). rewrite IHs. reflexivity.
Qed.

(** ** Flags only go up *)

Lemma pfor_mono (step : nat -> pstate -> pstate) (P : pstate -> Prop) (x sb a : nat) (i : Z) (n : nat) :
  (forall a ps, P ps -> P (step a ps)) -> (forall x z ps, P ps -> P (pboth (tset x z) ps)) ->
  forall ps, P ps -> P (pfor step x sb a i n ps).
Proof.
  intros Hs Hb. revert a i. induction n as [|n IH]; intros a i ps H; cbn [pfor]; [exact H|].
  apply IH. destruct (thalted (pl ps)); [exact H|]. apply Hs, Hb, H.
Qed.

Lemma pexec_bad_mono (s : stmt) : forall a site ps, pbad ps = true -> pbad (pexec s a site ps) = true.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps H; cbn [pexec]; destruct (thalted (pl ps)); try exact H;
    cbn [pbad passign pboth pemit psample]; rewrite ?H; try reflexivity.
  - apply IHs2, IHs1, H.
  - destruct d; cbn [pbad psample pboth]; rewrite ?H; reflexivity.
  - destruct (Bool.eqb _ _); [destruct (beval _ _); [apply IHs1|apply IHs2]; first [exact H|reflexivity]|].
    cbn [pbad]. rewrite ?H. reflexivity.
  - apply (pfor_mono _ (fun ps => pbad ps = true)); [|intros; exact H0|exact H].
    intros a' ps' H'. apply IHs, H'.
Qed.

(** ** The aligned tape changes only at the statement's own positions *)

Lemma pfor_pw (step : nat -> pstate -> pstate) (x sb : nat) (n : nat) :
  forall a i ps b, (forall a' ps', (b < a' \/ a' + sb <= b)%nat -> (a <= a')%nat -> pw (step a' ps') b = pw ps' b) ->
  (b < a \/ a + n * sb <= b)%nat -> pw (pfor step x sb a i n ps) b = pw ps b.
Proof.
  induction n as [|n IH]; intros a i ps b Hs Hb; cbn [pfor]; [reflexivity|].
  rewrite IH; [| intros a' ps' H1 H2; apply Hs; lia | lia].
  destruct (thalted (pl ps)); [reflexivity|]. rewrite Hs by lia. reflexivity.
Qed.

Lemma pexec_pw (s : stmt) : forall a site ps b, (b < a \/ a + size s <= b)%nat ->
  pw (pexec s a site ps) b = pw ps b.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps b Hb; cbn [pexec]; destruct (thalted (pl ps)); try reflexivity;
    cbn [size] in Hb.
  - rewrite IHs2 by lia. apply IHs1. lia.
  - destruct d; cbn [psample pboth pw]; try reflexivity. unfold upd.
    destruct (Nat.eqb_spec b a); [lia|reflexivity].
  - destruct (Bool.eqb _ _); [|reflexivity]. destruct (beval _ _); [rewrite IHs1 by lia|rewrite IHs2 by lia];
      reflexivity.
  - apply pfor_pw; [|lia]. intros a' ps' H1 H2. apply IHs. exact H1.
Qed.

(** ** The aligned side is [texec] on the aligned tape *)

Definition synced (ps : pstate) : Prop := thalted (pl ps) = thalted (pa ps).

Lemma texec_quiet_halted (u : nat -> Z) (s : stmt) : quiet s = true ->
  forall a st, thalted (texec u s a st) = thalted st.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros Hq a st;
    cbn [texec]; destruct (thalted st) eqn:H; try reflexivity;
    cbn [quiet] in Hq; try discriminate; try exact H.
  - apply andb_prop in Hq as [H1 H2]. rewrite IHs2, IHs1; assumption.
  - apply andb_prop in Hq as [H1 H2].
    destruct (beval _ _); [rewrite IHs1|rewrite IHs2]; try assumption; reflexivity.
  - revert a st H. generalize 0%Z. induction n as [|n IHn]; intros i a st H; cbn [tfor]; [exact H|].
    rewrite H. rewrite IHn; [reflexivity|]. rewrite IHs by exact Hq. exact H.
Qed.

Lemma texec_quiet_tape (u u' : nat -> Z) (s : stmt) : quiet s = true ->
  forall a a' st, texec u s a st = texec u' s a' st.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros Hq a a' st;
    cbn [texec]; destruct (thalted st); try reflexivity;
    cbn [quiet] in Hq; try discriminate.
  - apply andb_prop in Hq as [H1 H2]. rewrite (IHs1 H1 a a'). apply IHs2, H2.
  - apply andb_prop in Hq as [H1 H2]. destruct (beval _ _); [apply IHs1|apply IHs2]; assumption.
  - revert a a' st. generalize 0%Z. induction n as [|n IHn]; intros i a a' st; cbn [tfor]; [reflexivity|].
    destruct (thalted st); [apply IHn|]. rewrite (IHs Hq a a'). apply IHn.
Qed.

Lemma pfor_right (step : nat -> pstate -> pstate) (tstep : nat -> tstate -> tstate) (x sb : nat) (n : nat) :
  forall a i ps (w : nat -> Z),
  (forall a' ps', (a <= a')%nat -> (a' + sb <= a + n * sb)%nat -> pbad (step a' ps') = false -> synced ps' ->
     (forall b, (a' <= b < a' + sb)%nat -> w b = pw (step a' ps') b) ->
     pa (step a' ps') = tstep a' (pa ps') /\ synced (step a' ps')) ->
  (forall a' ps' b, (b < a' \/ a' + sb <= b)%nat -> pw (step a' ps') b = pw ps' b) ->
  (forall a' ps', pbad ps' = true -> pbad (step a' ps') = true) ->
  pbad (pfor step x sb a i n ps) = false -> synced ps ->
  (forall b, (a <= b < a + n * sb)%nat -> w b = pw (pfor step x sb a i n ps) b) ->
  pa (pfor step x sb a i n ps) = tfor tstep x sb a i n (pa ps) /\ synced (pfor step x sb a i n ps).
Proof.
  induction n as [|n IH]; intros a i ps w Hs Hpw Hbad Hb Hsy Hw; cbn [pfor tfor] in *; [split; [reflexivity|exact Hsy]|].
  destruct (thalted (pl ps)) eqn:Hh.
  - assert (Ha : thalted (pa ps) = true) by (unfold synced in Hsy; congruence).
    rewrite Ha. rewrite pfor_halted, tfor_halted by assumption. split; [reflexivity|exact Hsy].
  - assert (Ha : thalted (pa ps) = false) by (unfold synced in Hsy; congruence). rewrite Ha.
    set (ps1 := step a (pboth (tset x i) ps)).
    assert (Hb1 : pbad ps1 = false).
    { destruct (pbad ps1) eqn:E; [|reflexivity].
      rewrite <- Hb. symmetry. apply (pfor_mono _ (fun ps => pbad ps = true)); [|intros; exact H|exact E].
      intros; apply Hbad; assumption. }
    assert (Hsy0 : synced (pboth (tset x i) ps)) by exact Hsy.
    destruct (Hs a (pboth (tset x i) ps) ltac:(lia) ltac:(lia) Hb1 Hsy0) as [Hr Hsy1].
    { intros b Hb'. rewrite Hw by lia. fold ps1. apply pfor_pw; [|lia].
      intros a' ps' H1 H2. apply Hpw. lia. }
    fold ps1 in Hr, Hsy1. cbn [pboth pa] in Hr.
    destruct (IH (a + sb)%nat (Z.succ i) ps1 w) as [Hr' Hsy']; try assumption.
    + intros a' ps' H1 H2. apply Hs; lia.
    + intros b Hb'. apply Hw. lia.
    + rewrite Hr', Hr. split; [reflexivity|exact Hsy'].
Qed.

Lemma pexec_right (s : stmt) : forall a site ps (w : nat -> Z),
  pbad (pexec s a site ps) = false -> synced ps ->
  (forall b, (a <= b < a + size s)%nat -> w b = pw (pexec s a site ps) b) ->
  pa (pexec s a site ps) = texec w s a (pa ps) /\ synced (pexec s a site ps).
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps w Hb Hsy Hw; cbn [pexec texec] in *; cbn [size] in Hw;
    destruct (thalted (pl ps)) eqn:Hh;
    try (assert (Ha : thalted (pa ps) = true) by (unfold synced in Hsy; congruence); rewrite Ha;
         split; [reflexivity|exact Hsy]);
    assert (Ha : thalted (pa ps) = false) by (unfold synced in Hsy; congruence); rewrite Ha;
    try (split; [reflexivity|first [exact Hsy|reflexivity]]).
  - (* SSeq *)
    set (ps1 := pexec s1 a site ps) in *.
    assert (Hb1 : pbad ps1 = false).
    { destruct (pbad ps1) eqn:E; [|reflexivity]. rewrite <- Hb. symmetry. apply pexec_bad_mono, E. }
    destruct (IHs1 a site ps w Hb1 Hsy) as [H1 Hs1].
    { intros b Hb'. rewrite Hw by lia. apply pexec_pw. lia. }
    fold ps1 in H1, Hs1.
    destruct (IHs2 (a + size s1)%nat (site + nsites s1)%nat ps1 w Hb Hs1) as [H2 Hs2].
    { intros b Hb'. apply Hw. lia. }
    rewrite H2, H1. split; [reflexivity|exact Hs2].
  - (* SSample *)
    destruct d; cbn [psample pboth pa pl pw] in *; try (split; [reflexivity|unfold synced; reflexivity]).
    split; [|exact Hsy]. rewrite (Hw a ltac:(lia)). unfold upd. rewrite Nat.eqb_refl. reflexivity.
  - (* SIf *)
    destruct (beval (tenv (pl ps)) c) eqn:Bl, (beval (tenv (pa ps)) c) eqn:Ba; cbn [Bool.eqb] in *.
    + destruct (IHs1 a site _ w Hb Hsy) as [H1 Hs1]; [intros b' Hb'; apply Hw; lia|].
      rewrite H1. split; [reflexivity|exact Hs1].
    + cbn [pbad orb] in Hb. apply orb_false_iff in Hb as [_ Hq]. apply negb_false_iff, andb_prop in Hq as [Q1 Q2].
      cbn [pa pl]. split; [apply texec_quiet_tape, Q2|].
      unfold synced. cbn [pl pa]. rewrite !texec_quiet_halted by assumption. exact Hsy.
    + cbn [pbad orb] in Hb. apply orb_false_iff in Hb as [_ Hq]. apply negb_false_iff, andb_prop in Hq as [Q1 Q2].
      cbn [pa pl]. split; [apply texec_quiet_tape, Q1|].
      unfold synced. cbn [pl pa]. rewrite !texec_quiet_halted by assumption. exact Hsy.
    + destruct (IHs2 (a + size s1)%nat (site + nsites s1)%nat _ w Hb Hsy) as [H2 Hs2];
        [intros b' Hb'; apply Hw; lia|].
      rewrite H2. split; [reflexivity|exact Hs2].
  - (* SFor *)
    apply (pfor_right _ _ x (size s) n a 0%Z ps w); try assumption.
    + intros a' ps' _ _ Hb' Hsy' Hw'. apply IHs; assumption.
    + intros a' ps' b' H. apply pexec_pw. exact H.
    + intros a' ps' H. apply pexec_bad_mono, H.
Qed.

End Pexec.
