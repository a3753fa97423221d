(** * The aligned run over the reals: a program run on two inputs at once, the second on a shifted tape

    Coupling/Relational.v's aligned run and its laws, for the tape
    semantics over the reals (RealTape.v): the left run reads the tape [v]
    of reals, the aligned run reads at each sampling site the left value
    plus a whole-number shift [sh site L A] chosen from the two runs'
    states; [pacc] adds the shift's cost |shift|·den·(W/num) in units of
    ε/W, exactly as in the discrete route.  Same definitions and the same
    laws, proved the same way: the left run is [rexec] on [v]
    ([pexec_left]); a run not marked bad is, on the aligned side, [rexec] on
    the aligned tape ([pexec_right]); the aligned tape determines the tape
    given the prophecy ([pexec_agree]); the aligned tape differs from [v] at
    a cost [pacc] ([pexec_cost]); with the left run's true outputs and trace
    the run is never void ([pexec_void_false]). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
From Obligations.Laplace Require Import RealTape.
Import ListNotations.
Local Open Scope Z_scope.

Record pstate := mkps { pl : rstate; pa : rstate; pw : nat -> R; pacc : Z; pbad : bool; pvoid : bool }.

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

Definition upd (f : nat -> R) (a : nat) (z : R) : nat -> R := fun b => if Nat.eqb b a then z else f b.

(** The prophecy's entry at the current position agrees. *)
Definition out_ok (o : list roval) (st : rstate) (ov : roval) : bool :=
  match nth_error o (length (rout st)) with Some ov' => roval_eqb ov ov' | None => false end.

Definition tr_ok (tr : list bool) (st : rstate) (b : bool) : bool :=
  match nth_error tr (length (rtr st)) with Some b' => Bool.eqb b b' | None => false end.

Definition pinit (nvars : nat) (x x' : list Z) (v : nat -> R) : pstate :=
  mkps (rinit nvars x) (rinit nvars x') v 0 false false.

Section Pexec.

Variables (v : nat -> R) (sh : nat -> rstate -> rstate -> Z) (W : Z) (o : list roval) (tr : list bool)
  (ctr : bool).

Definition pboth (f : rstate -> rstate) (ps : pstate) : pstate :=
  mkps (f (pl ps)) (f (pa ps)) (pw ps) (pacc ps) (pbad ps) (pvoid ps).

Definition passign (x : nat) (e : aexp) (ps : pstate) : pstate :=
  mkps (rset x (raeval (renv (pl ps)) e) (pl ps)) (rset x (raeval (renv (pa ps)) e) (pa ps))
       (pw ps) (pacc ps) (pbad ps) (pvoid ps).

Definition pemit (ol oa : roval) (ps : pstate) : pstate :=
  mkps (remit ol (pl ps)) (remit oa (pa ps)) (pw ps) (pacc ps)
       (pbad ps || negb (roval_eqb ol oa)) (pvoid ps || negb (out_ok o (pl ps) ol)).

Definition psample (a site : nat) (x : nat) (num den : positive) (c : aexp) (ps : pstate) : pstate :=
  let z := sh site (pl ps) (pa ps) in
  mkps (rset x (raeval (renv (pl ps)) c + v a)%R (pl ps))
       (rset x (raeval (renv (pa ps)) c + (v a + IZR z))%R (pa ps))
       (upd (pw ps) a (v a + IZR z)%R) (pacc ps + Z.abs z * weight W num den)
       (pbad ps || negb (W mod Zpos num =? 0)) (pvoid ps).

Definition pvoid_if (bl : bool) (ps : pstate) : bool :=
  pvoid ps || (ctr && negb (tr_ok tr (pl ps) bl)).

Fixpoint pfor (step : nat -> pstate -> pstate) (x : nat) (sb a : nat) (i : Z) (n : nat) (ps : pstate)
    : pstate :=
  match n with
  | O => ps
  | S n' => pfor step x sb (a + sb) (Z.succ i) n' (if rhalted (pl ps) then ps else step a (pboth (rset x (IZR i)) ps))
  end.

Fixpoint pexec (s : stmt) (a site : nat) (ps : pstate) {struct s} : pstate :=
  if rhalted (pl ps) then ps else
  match s with
  | SSkip => ps
  | SSeq s1 s2 => pexec s2 (a + size s1) (site + nsites s1) (pexec s1 a site ps)
  | SAssign x e => passign x e ps
  | SSample x (DGeom num den c) => psample a site x num den c ps
  | SSample _ _ => pboth rfail ps
  | SIf b s1 s2 =>
      let bl := rbeval (renv (pl ps)) b in
      let ba := rbeval (renv (pa ps)) b in
      let vd := pvoid_if bl ps in
      if Bool.eqb bl ba then
        if bl then pexec s1 a site (mkps (rbranch true (pl ps)) (rbranch true (pa ps)) (pw ps) (pacc ps) (pbad ps) vd)
        else pexec s2 (a + size s1) (site + nsites s1)
               (mkps (rbranch false (pl ps)) (rbranch false (pa ps)) (pw ps) (pacc ps) (pbad ps) vd)
      else
        mkps (if bl then rexec v s1 a (rbranch true (pl ps)) else rexec v s2 (a + size s1) (rbranch false (pl ps)))
             (if ba then rexec v s1 a (rbranch true (pa ps)) else rexec v s2 (a + size s1) (rbranch false (pa ps)))
             (pw ps) (pacc ps) (pbad ps || negb (quiet s1 && quiet s2)) vd
  | SFor x n body => pfor (fun a' ps' => pexec body a' site ps') x (size body) a 0 n ps
  | SOut e => pemit (ROVal (raeval (renv (pl ps)) e)) (ROVal (raeval (renv (pa ps)) e)) ps
  | STop => pemit ROTop ROTop ps
  | SBot => pemit ROBot ROBot ps
  | SStop => pboth rstop ps
  end.

(** ** The left run is [rexec] *)

Lemma pfor_halted (step : nat -> pstate -> pstate) (x sb a : nat) (i : Z) (n : nat) (ps : pstate) :
  rhalted (pl ps) = true -> pfor step x sb a i n ps = ps.
Proof. revert a i. induction n as [|n IH]; intros a i H; cbn [pfor]; [reflexivity|]. rewrite H. apply IH, H. Qed.

Lemma pexec_halted (s : stmt) (a site : nat) (ps : pstate) : rhalted (pl ps) = true -> pexec s a site ps = ps.
Proof. intros H. destruct s; cbn [pexec]; rewrite H; reflexivity. Qed.

Lemma pexec_left (s : stmt) : forall a site ps, pl (pexec s a site ps) = rexec v s a (pl ps).
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps; cbn [pexec rexec]; destruct (rhalted (pl ps)) eqn:Hh; try reflexivity.
  - rewrite IHs2, IHs1. reflexivity.
  - destruct d; reflexivity.
  - destruct (rbeval (renv (pl ps)) c), (rbeval (renv (pa ps)) c); cbn [Bool.eqb];
      rewrite ?IHs1, ?IHs2; reflexivity.
  - revert a ps Hh. generalize 0%Z. induction n as [|n IHn]; intros i a ps Hh; cbn [pfor rfor]; [reflexivity|].
    rewrite Hh. destruct (rhalted (rexec v s a (rset x (IZR i) (pl ps)))) eqn:Hh'.
    + rewrite pfor_halted, rfor_halted by (cbn [pl]; rewrite ?IHs; exact Hh'). rewrite IHs. reflexivity.
    + rewrite IHn by (rewrite IHs; exact Hh'). rewrite IHs. reflexivity.
Qed.

(** ** Flags only go up *)

Lemma pfor_mono (step : nat -> pstate -> pstate) (P : pstate -> Prop) (x sb a : nat) (i : Z) (n : nat) :
  (forall a ps, P ps -> P (step a ps)) -> (forall x z ps, P ps -> P (pboth (rset x z) ps)) ->
  forall ps, P ps -> P (pfor step x sb a i n ps).
Proof.
  intros Hs Hb. revert a i. induction n as [|n IH]; intros a i ps H; cbn [pfor]; [exact H|].
  apply IH. destruct (rhalted (pl ps)); [exact H|]. apply Hs, Hb, H.
Qed.

Lemma pexec_bad_mono (s : stmt) : forall a site ps, pbad ps = true -> pbad (pexec s a site ps) = true.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps H; cbn [pexec]; destruct (rhalted (pl ps)); try exact H;
    cbn [pbad passign pboth pemit psample]; rewrite ?H; try reflexivity.
  - apply IHs2, IHs1, H.
  - destruct d; cbn [pbad psample pboth]; rewrite ?H; reflexivity.
  - destruct (Bool.eqb _ _); [destruct (rbeval _ _); [apply IHs1|apply IHs2]; first [exact H|reflexivity]|].
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
  destruct (rhalted (pl ps)); [reflexivity|]. rewrite Hs by lia. reflexivity.
Qed.

Lemma pexec_pw (s : stmt) : forall a site ps b, (b < a \/ a + size s <= b)%nat ->
  pw (pexec s a site ps) b = pw ps b.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps b Hb; cbn [pexec]; destruct (rhalted (pl ps)); try reflexivity;
    cbn [size] in Hb.
  - rewrite IHs2 by lia. apply IHs1. lia.
  - destruct d; cbn [psample pboth pw]; try reflexivity. unfold upd.
    destruct (Nat.eqb_spec b a); [lia|reflexivity].
  - destruct (Bool.eqb _ _); [|reflexivity]. destruct (rbeval _ _); [rewrite IHs1 by lia|rewrite IHs2 by lia];
      reflexivity.
  - apply pfor_pw; [|lia]. intros a' ps' H1 H2. apply IHs. exact H1.
Qed.

(** ** The aligned side is [rexec] on the aligned tape *)

Definition synced (ps : pstate) : Prop := rhalted (pl ps) = rhalted (pa ps).

Lemma rexec_quiet_halted (u : nat -> R) (s : stmt) : quiet s = true ->
  forall a st, rhalted (rexec u s a st) = rhalted st.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros Hq a st;
    cbn [rexec]; destruct (rhalted st) eqn:H; try reflexivity;
    cbn [quiet] in Hq; try discriminate; try exact H.
  - apply andb_prop in Hq as [H1 H2]. rewrite IHs2, IHs1; assumption.
  - apply andb_prop in Hq as [H1 H2].
    destruct (rbeval _ _); [rewrite IHs1|rewrite IHs2]; try assumption; reflexivity.
  - revert a st H. generalize 0%Z. induction n as [|n IHn]; intros i a st H; cbn [rfor]; [exact H|].
    rewrite H. rewrite IHn; [reflexivity|]. rewrite IHs by exact Hq. exact H.
Qed.

Lemma rexec_quiet_tape (u u' : nat -> R) (s : stmt) : quiet s = true ->
  forall a a' st, rexec u s a st = rexec u' s a' st.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros Hq a a' st;
    cbn [rexec]; destruct (rhalted st); try reflexivity;
    cbn [quiet] in Hq; try discriminate.
  - apply andb_prop in Hq as [H1 H2]. rewrite (IHs1 H1 a a'). apply IHs2, H2.
  - apply andb_prop in Hq as [H1 H2]. destruct (rbeval _ _); [apply IHs1|apply IHs2]; assumption.
  - revert a a' st. generalize 0%Z. induction n as [|n IHn]; intros i a a' st; cbn [rfor]; [reflexivity|].
    destruct (rhalted st); [apply IHn|]. rewrite (IHs Hq a a'). apply IHn.
Qed.

Lemma pfor_right (step : nat -> pstate -> pstate) (tstep : nat -> rstate -> rstate) (x sb : nat) (n : nat) :
  forall a i ps (w : nat -> R),
  (forall a' ps', (a <= a')%nat -> (a' + sb <= a + n * sb)%nat -> pbad (step a' ps') = false -> synced ps' ->
     (forall b, (a' <= b < a' + sb)%nat -> w b = pw (step a' ps') b) ->
     pa (step a' ps') = tstep a' (pa ps') /\ synced (step a' ps')) ->
  (forall a' ps' b, (b < a' \/ a' + sb <= b)%nat -> pw (step a' ps') b = pw ps' b) ->
  (forall a' ps', pbad ps' = true -> pbad (step a' ps') = true) ->
  pbad (pfor step x sb a i n ps) = false -> synced ps ->
  (forall b, (a <= b < a + n * sb)%nat -> w b = pw (pfor step x sb a i n ps) b) ->
  pa (pfor step x sb a i n ps) = rfor tstep x sb a i n (pa ps) /\ synced (pfor step x sb a i n ps).
Proof.
  induction n as [|n IH]; intros a i ps w Hs Hpw Hbad Hb Hsy Hw; cbn [pfor rfor] in *; [split; [reflexivity|exact Hsy]|].
  destruct (rhalted (pl ps)) eqn:Hh.
  - assert (Ha : rhalted (pa ps) = true) by (unfold synced in Hsy; congruence).
    rewrite Ha. rewrite pfor_halted, rfor_halted by assumption. split; [reflexivity|exact Hsy].
  - assert (Ha : rhalted (pa ps) = false) by (unfold synced in Hsy; congruence). rewrite Ha.
    set (ps1 := step a (pboth (rset x (IZR i)) ps)).
    assert (Hb1 : pbad ps1 = false).
    { destruct (pbad ps1) eqn:E; [|reflexivity].
      rewrite <- Hb. symmetry. apply (pfor_mono _ (fun ps => pbad ps = true)); [|intros; exact H|exact E].
      intros; apply Hbad; assumption. }
    assert (Hsy0 : synced (pboth (rset x (IZR i)) ps)) by exact Hsy.
    destruct (Hs a (pboth (rset x (IZR i)) ps) ltac:(lia) ltac:(lia) Hb1 Hsy0) as [Hr Hsy1].
    { intros b Hb'. rewrite Hw by lia. fold ps1. apply pfor_pw; [|lia].
      intros a' ps' H1 H2. apply Hpw. lia. }
    fold ps1 in Hr, Hsy1. cbn [pboth pa] in Hr.
    destruct (IH (a + sb)%nat (Z.succ i) ps1 w) as [Hr' Hsy']; try assumption.
    + intros a' ps' H1 H2. apply Hs; lia.
    + intros b Hb'. apply Hw. lia.
    + rewrite Hr', Hr. split; [reflexivity|exact Hsy'].
Qed.

Lemma pexec_right (s : stmt) : forall a site ps (w : nat -> R),
  pbad (pexec s a site ps) = false -> synced ps ->
  (forall b, (a <= b < a + size s)%nat -> w b = pw (pexec s a site ps) b) ->
  pa (pexec s a site ps) = rexec w s a (pa ps) /\ synced (pexec s a site ps).
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps w Hb Hsy Hw; cbn [pexec rexec] in *; cbn [size] in Hw;
    destruct (rhalted (pl ps)) eqn:Hh;
    try (assert (Ha : rhalted (pa ps) = true) by (unfold synced in Hsy; congruence); rewrite Ha;
         split; [reflexivity|exact Hsy]);
    assert (Ha : rhalted (pa ps) = false) by (unfold synced in Hsy; congruence); rewrite Ha;
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
    destruct (rbeval (renv (pl ps)) c) eqn:Bl, (rbeval (renv (pa ps)) c) eqn:Ba; cbn [Bool.eqb] in *.
    + destruct (IHs1 a site _ w Hb Hsy) as [H1 Hs1]; [intros b' Hb'; apply Hw; lia|].
      rewrite H1. split; [reflexivity|exact Hs1].
    + cbn [pbad orb] in Hb. apply orb_false_iff in Hb as [_ Hq]. apply negb_false_iff, andb_prop in Hq as [Q1 Q2].
      cbn [pa pl]. split; [apply rexec_quiet_tape, Q2|].
      unfold synced. cbn [pl pa]. rewrite !rexec_quiet_halted by assumption. exact Hsy.
    + cbn [pbad orb] in Hb. apply orb_false_iff in Hb as [_ Hq]. apply negb_false_iff, andb_prop in Hq as [Q1 Q2].
      cbn [pa pl]. split; [apply rexec_quiet_tape, Q1|].
      unfold synced. cbn [pl pa]. rewrite !rexec_quiet_halted by assumption. exact Hsy.
    + destruct (IHs2 (a + size s1)%nat (site + nsites s1)%nat _ w Hb Hsy) as [H2 Hs2];
        [intros b' Hb'; apply Hw; lia|].
      rewrite H2. split; [reflexivity|exact Hs2].
  - (* SFor *)
    apply (pfor_right _ _ x (size s) n a 0%Z ps w); try assumption.
    + intros a' ps' _ _ Hb' Hsy' Hw'. apply IHs; assumption.
    + intros a' ps' b' H. apply pexec_pw. exact H.
    + intros a' ps' H. apply pexec_bad_mono, H.
Qed.

(** ** With the left run's true outputs and trace, the run is never void *)

Lemma rfor_prefix (step : nat -> rstate -> rstate) (x sb : nat) (n : nat) :
  (forall a st, exists r r', rout (step a st) = rout st ++ r /\ rtr (step a st) = rtr st ++ r') ->
  forall a i st, exists r r', rout (rfor step x sb a i n st) = rout st ++ r /\ rtr (rfor step x sb a i n st) = rtr st ++ r'.
Proof.
  intros Hs. induction n as [|n IH]; intros a i st; cbn [rfor]; [exists [], []; rewrite !app_nil_r; auto|].
  destruct (IH (a + sb)%nat (Z.succ i) (if rhalted st then st else step a (rset x (IZR i) st))) as [r [r' [H1 H2]]].
  destruct (rhalted st); [exists r, r'; auto|].
  destruct (Hs a (rset x (IZR i) st)) as [q [q' [G1 G2]]]. cbn [rset rout rtr] in G1, G2.
  exists (q ++ r), (q' ++ r'). rewrite H1, H2, G1, G2, !app_assoc. auto.
Qed.

Lemma rexec_prefix (s : stmt) : forall a st,
  exists r r', rout (rexec v s a st) = rout st ++ r /\ rtr (rexec v s a st) = rtr st ++ r'.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a st; cbn [rexec];
    destruct (rhalted st); try (exists [], []; rewrite !app_nil_r; auto; fail).
  - destruct (IHs1 a st) as [q [q' [G1 G2]]]. destruct (IHs2 (a + size s1)%nat (rexec v s1 a st)) as [r [r' [H1 H2]]].
    exists (q ++ r), (q' ++ r'). rewrite H1, H2, G1, G2, !app_assoc. auto.
  - destruct d; exists [], []; cbn [rset rfail rout rtr]; rewrite !app_nil_r; auto.
  - destruct (rbeval _ _);
      [destruct (IHs1 a (rbranch true st)) as [r [r' [H1 H2]]]|destruct (IHs2 (a + size s1)%nat (rbranch false st)) as [r [r' [H1 H2]]]];
      cbn [rbranch rout rtr] in H1, H2; [exists r, ([true] ++ r')|exists r, ([false] ++ r')];
      rewrite H1, H2, !app_assoc; auto.
  - apply rfor_prefix. exact IHs.
  - exists [ROVal (raeval (renv st) e)], []. cbn. rewrite app_nil_r. auto.
  - exists [ROTop], []. cbn. rewrite app_nil_r. auto.
  - exists [ROBot], []. cbn. rewrite app_nil_r. auto.
Qed.

Lemma out_ok_true (st : rstate) (ov : roval) (r : list roval) : out_ok (rout st ++ ov :: r) st ov = true.
Proof. unfold out_ok. rewrite nth_error_app2, Nat.sub_diag by lia. cbn. apply roval_eqb_spec. reflexivity. Qed.

Lemma tr_ok_true (st : rstate) (b : bool) (r : list bool) : tr_ok (rtr st ++ b :: r) st b = true.
Proof. unfold tr_ok. rewrite nth_error_app2, Nat.sub_diag by lia. cbn. apply Bool.eqb_reflx. Qed.

Definition ext_of {A} (l l' : list A) : Prop := exists r, l' = l ++ r.

Lemma ext_of_trans {A} (l1 l2 l3 : list A) : ext_of l1 l2 -> ext_of l2 l3 -> ext_of l1 l3.
Proof. intros [r ->] [r' ->]. exists (r ++ r'). rewrite app_assoc. reflexivity. Qed.

Definition true_prophecy (st : rstate) : Prop :=
  ext_of (rout st) o /\ (ctr = true -> ext_of (rtr st) tr).

Lemma true_prophecy_back (s : stmt) (a : nat) (st : rstate) :
  true_prophecy (rexec v s a st) -> true_prophecy st.
Proof.
  intros [Ho Ht]. destruct (rexec_prefix s a st) as [r [r' [H1 H2]]]. split.
  - rewrite H1 in Ho. destruct Ho as [q Hq]. exists (r ++ q). rewrite Hq, app_assoc. reflexivity.
  - intros Hc. specialize (Ht Hc). rewrite H2 in Ht. destruct Ht as [q Hq]. exists (r' ++ q).
    rewrite Hq, app_assoc. reflexivity.
Qed.

Lemma pfor_void (step : nat -> pstate -> pstate) (tstep : nat -> rstate -> rstate) (x sb : nat) (n : nat) :
  (forall a ps, pl (step a ps) = tstep a (pl ps)) ->
  (forall a st, exists r r', rout (tstep a st) = rout st ++ r /\ rtr (tstep a st) = rtr st ++ r') ->
  (forall a ps, pvoid ps = false -> true_prophecy (tstep a (pl ps)) -> pvoid (step a ps) = false) ->
  forall a i ps, pvoid ps = false -> true_prophecy (rfor tstep x sb a i n (pl ps)) ->
  pvoid (pfor step x sb a i n ps) = false.
Proof.
  intros Hl Hp Hs. induction n as [|n IH]; intros a i ps Hv Ht; cbn [pfor rfor] in *; [exact Hv|].
  destruct (rhalted (pl ps)) eqn:Hh; [apply IH; assumption|].
  apply IH; [|rewrite Hl; exact Ht].
  apply Hs; [exact Hv|].
  revert Ht. cbn [pboth pl]. generalize (tstep a (rset x (IZR i) (pl ps))). intros st Ht.
  destruct (rfor_prefix tstep x sb n Hp (a + sb)%nat (Z.succ i) st) as [r [r' [H1 H2]]].
  destruct Ht as [Ho Htr]. split.
  - rewrite H1 in Ho. destruct Ho as [q Hq]. exists (r ++ q). rewrite Hq, app_assoc. reflexivity.
  - intros Hc. specialize (Htr Hc). rewrite H2 in Htr. destruct Htr as [q Hq]. exists (r' ++ q).
    rewrite Hq, app_assoc. reflexivity.
Qed.

Lemma pexec_void_false (s : stmt) : forall a site ps,
  pvoid ps = false -> true_prophecy (rexec v s a (pl ps)) -> pvoid (pexec s a site ps) = false.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps Hv Ht;
    cbn [pexec rexec] in *; destruct (rhalted (pl ps)); try exact Hv.
  - apply IHs2; [apply IHs1; [exact Hv|]|rewrite pexec_left; exact Ht].
    apply (true_prophecy_back s2 (a + size s1)). exact Ht.
  - destruct d; exact Hv.
  - assert (Hvd : forall bl, rbeval (renv (pl ps)) c = bl ->
      true_prophecy (rexec v (if bl then s1 else s2) (if bl then a else a + size s1) (rbranch bl (pl ps))) ->
      pvoid_if bl ps = false).
    { intros bl _ Hp. apply true_prophecy_back in Hp. destruct Hp as [_ Htr].
      unfold pvoid_if. rewrite Hv. destruct ctr; [|reflexivity]. destruct (Htr eq_refl) as [r Hr].
      cbn [rbranch rtr] in Hr. rewrite Hr, <- app_assoc. cbn [app]. rewrite tr_ok_true. reflexivity. }
    destruct (rbeval (renv (pl ps)) c) eqn:Bl, (rbeval (renv (pa ps)) c); cbn [Bool.eqb pvoid].
    + apply IHs1; [apply (Hvd true eq_refl Ht)|exact Ht].
    + apply (Hvd true eq_refl Ht).
    + apply (Hvd false eq_refl Ht).
    + apply IHs2; [apply (Hvd false eq_refl Ht)|exact Ht].
  - apply (pfor_void _ (rexec v s) x (size s) n); try assumption.
    + intros a' ps'. apply pexec_left.
    + intros a' st. apply rexec_prefix.
    + intros a' ps' Hv' Ht'. apply IHs; assumption.
  - cbn [pemit pvoid]. rewrite Hv. destruct Ht as [[r Hr] _]. cbn [remit rout] in Hr.
    rewrite Hr, <- app_assoc. cbn [app]. rewrite out_ok_true. reflexivity.
  - cbn [pemit pvoid]. rewrite Hv. destruct Ht as [[r Hr] _]. cbn [remit rout] in Hr.
    rewrite Hr, <- app_assoc. cbn [app]. rewrite out_ok_true. reflexivity.
  - cbn [pemit pvoid]. rewrite Hv. destruct Ht as [[r Hr] _]. cbn [remit rout] in Hr.
    rewrite Hr, <- app_assoc. cbn [app]. rewrite out_ok_true. reflexivity.
Qed.

End Pexec.

(** ** Injectivity: the aligned tape determines the tape, given the prophecy *)

Definition pcore (ps : pstate) : rstate * rstate * Z * bool * bool := (pl ps, pa ps, pacc ps, pbad ps, pvoid ps).

Lemma pcore_eq (ps ps' : pstate) : pcore ps = pcore ps' ->
  pl ps = pl ps' /\ pa ps = pa ps' /\ pacc ps = pacc ps' /\ pbad ps = pbad ps' /\ pvoid ps = pvoid ps'.
Proof. unfold pcore. intros H. injection H. auto. Qed.

Section Agree.

Variables (v u : nat -> R) (sh : nat -> rstate -> rstate -> Z) (W : Z) (o : list roval) (tr : list bool)
  (ctr : bool).

Definition agree_at (s : stmt) (a site : nat) (psv psu : pstate) : Prop :=
  pcore (pexec v sh W o tr ctr s a site psv) = pcore (pexec u sh W o tr ctr s a site psu) /\
  (forall b, (a <= b < a + size s)%nat -> v b = u b).

Definition fresh (f : nat -> R) (t : nat -> R) (a : nat) : Prop := forall b, (a <= b)%nat -> f b = t b.

Lemma pfor_agree (stepv stepu : nat -> pstate -> pstate) (x sb : nat) (n : nat) :
  (forall a ps b, (b < a \/ a + sb <= b)%nat -> pw (stepv a ps) b = pw ps b) ->
  (forall a ps b, (b < a \/ a + sb <= b)%nat -> pw (stepu a ps) b = pw ps b) ->
  (forall a ps, pbad ps = true -> pbad (stepv a ps) = true) ->
  (forall a psv psu, pcore psv = pcore psu -> fresh (pw psv) v a -> fresh (pw psu) u a ->
     pbad (stepv a psv) = false ->
     (forall b, (a <= b < a + sb)%nat -> pw (stepv a psv) b = pw (stepu a psu) b) ->
     pcore (stepv a psv) = pcore (stepu a psu) /\ (forall b, (a <= b < a + sb)%nat -> v b = u b)) ->
  forall a i psv psu, pcore psv = pcore psu -> fresh (pw psv) v a -> fresh (pw psu) u a ->
  pbad (pfor stepv x sb a i n psv) = false ->
  (forall b, (a <= b < a + n * sb)%nat -> pw (pfor stepv x sb a i n psv) b = pw (pfor stepu x sb a i n psu) b) ->
  pcore (pfor stepv x sb a i n psv) = pcore (pfor stepu x sb a i n psu) /\
  (forall b, (a <= b < a + n * sb)%nat -> v b = u b).
Proof.
  intros Hpv Hpu Hbad Hs. induction n as [|n IH]; intros a i psv psu Hc Hfv Hfu Hb Hw; cbn [pfor] in *.
  - split; [exact Hc|intros b Hb'; lia].
  - destruct (pcore_eq _ _ Hc) as [El [Ea [Eacc [Ebad Evoid]]]].
    destruct (rhalted (pl psv)) eqn:Hh.
    + rewrite <- El, Hh in *. rewrite !pfor_halted in * by (rewrite <- ?El; exact Hh).
      split; [exact Hc|]. intros b Hb'. rewrite <- Hfv, <- Hfu, Hw by lia. reflexivity.
    + rewrite <- El, Hh in *.
      set (qv := pboth (rset x (IZR i)) psv). set (qu := pboth (rset x (IZR i)) psu).
      assert (Hq : pcore qv = pcore qu) by (unfold qv, qu, pcore, pboth; cbn; rewrite El, Ea, Eacc, Ebad, Evoid; reflexivity).
      assert (Hb1 : pbad (stepv a qv) = false).
      { destruct (pbad (stepv a qv)) eqn:E; [|reflexivity]. rewrite <- Hb. symmetry.
        apply (pfor_mono _ (fun ps => pbad ps = true)); [|intros; exact H|exact E].
        intros; apply Hbad; assumption. }
      destruct (Hs a qv qu Hq Hfv Hfu Hb1) as [Hc1 Hv1].
      { intros b Hb'. specialize (Hw b ltac:(lia)).
        rewrite !(pfor_pw _ _ _ _ _ _ _ b) in Hw; [exact Hw| |lia| |lia];
          intros a' ps' H1 H2; [apply Hpu|apply Hpv]; lia. }
      destruct (IH (a + sb)%nat (Z.succ i) (stepv a qv) (stepu a qu) Hc1) as [Hc2 Hv2]; try assumption.
      * intros b Hb'. rewrite Hpv by lia. apply Hfv. lia.
      * intros b Hb'. rewrite Hpu by lia. apply Hfu. lia.
      * intros b Hb'. apply Hw. lia.
      * split; [exact Hc2|]. intros b Hb'. destruct (Nat.lt_ge_cases b (a + sb)); [apply Hv1|apply Hv2]; lia.
Qed.

Lemma pexec_agree (s : stmt) : forall a site psv psu,
  pcore psv = pcore psu -> fresh (pw psv) v a -> fresh (pw psu) u a ->
  pbad (pexec v sh W o tr ctr s a site psv) = false ->
  (forall b, (a <= b < a + size s)%nat ->
     pw (pexec v sh W o tr ctr s a site psv) b = pw (pexec u sh W o tr ctr s a site psu) b) ->
  agree_at s a site psv psu.
Proof.
  unfold agree_at.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ];
    intros a site [L A wv K B D] [L' A' wu K' B' D'] Hc Hfv Hfu Hb Hw;
    unfold pcore in Hc; cbn [pl pa pacc pbad pvoid] in Hc; injection Hc as <- <- <- <- <-;
    cbn [size pw] in Hw, Hfv, Hfu |- *; cbn [pexec pl] in Hb, Hw |- *; destruct (rhalted L) eqn:Hh;
    try (split; [reflexivity|intros b Hb'; rewrite <- Hfv, <- Hfu, Hw by lia; reflexivity]);
    try (split; [reflexivity|intros b Hb'; lia]).
  - (* SSeq *)
    set (q := mkps L A wv K B D) in *. set (q' := mkps L A wu K B D) in *.
    assert (Hb1 : pbad (pexec v sh W o tr ctr s1 a site q) = false).
    { destruct (pbad (pexec v sh W o tr ctr s1 a site q)) eqn:E; [|reflexivity].
      pose proof (pexec_bad_mono v sh W o tr ctr s2 (a + size s1) (site + nsites s1) _ E). congruence. }
    destruct (IHs1 a site q q' eq_refl Hfv Hfu Hb1) as [Hc1 Hv1].
    { intros b Hb'. specialize (Hw b ltac:(lia)). rewrite !(pexec_pw _ _ _ _ _ _ s2) in Hw by lia. exact Hw. }
    destruct (IHs2 (a + size s1)%nat (site + nsites s1)%nat _ _ Hc1) as [Hc2 Hv2]; try assumption.
    + intros b Hb'. rewrite pexec_pw by lia. apply Hfv. lia.
    + intros b Hb'. rewrite pexec_pw by lia. apply Hfu. lia.
    + intros b Hb'. apply Hw. lia.
    + split; [exact Hc2|]. intros b Hb'. destruct (Nat.lt_ge_cases b (a + size s1)); [apply Hv1|apply Hv2]; lia.
  - (* SSample *)
    destruct d; cbn [psample pboth pl pa pw pacc pbad pvoid] in Hw |- *;
      try (split; [reflexivity|intros b Hb'; rewrite <- Hfv, <- Hfu, Hw by lia; reflexivity]).
    specialize (Hw a ltac:(lia)). cbn [psample pw] in Hw. unfold upd in Hw. rewrite Nat.eqb_refl in Hw.
    assert (Hva : v a = u a) by lra.
    split; [|intros b Hb'; replace b with a by lia; exact Hva].
    unfold pcore; cbn [pl pa pacc pbad pvoid]. unfold psample; cbn [pl pa pacc pbad pvoid]. rewrite Hva. reflexivity.
  - (* SIf *)
    cbn [pa] in Hb, Hw |- *. unfold pvoid_if in Hb, Hw |- *. cbn [pl pvoid] in Hb, Hw |- *.
    destruct (rbeval (renv L) c) eqn:Bl, (rbeval (renv A) c) eqn:Ba;
      cbn [Bool.eqb pw pbad pacc pvoid pl pa] in Hb, Hw |- *.
    + match goal with |- context [pexec v sh W o tr ctr s1 a site ?P] =>
      match goal with |- context [pexec u sh W o tr ctr s1 a site ?Q] =>
        destruct (IHs1 a site P Q eq_refl Hfv Hfu Hb) as [Hc1 Hv1]; [intros b Hb'; apply Hw; lia|] end end.
      split; [exact Hc1|]. intros b Hb'. destruct (Nat.lt_ge_cases b (a + size s1)); [apply Hv1; lia|].
      specialize (Hw b ltac:(lia)). rewrite !pexec_pw in Hw by lia. cbn [pw] in Hw.
      rewrite <- Hfv, <- Hfu by lia. exact Hw.
    + apply orb_false_iff in Hb as [_ Hq]. apply negb_false_iff, andb_prop in Hq as [Q1 Q2].
      split; [|intros b Hb'; rewrite <- Hfv, <- Hfu, Hw by lia; reflexivity].
      unfold pcore; cbn [pl pa pacc pbad pvoid].
      rewrite (rexec_quiet_tape v u s1 Q1 a a), (rexec_quiet_tape v u s2 Q2 (a + size s1) (a + size s1)). reflexivity.
    + apply orb_false_iff in Hb as [_ Hq]. apply negb_false_iff, andb_prop in Hq as [Q1 Q2].
      split; [|intros b Hb'; rewrite <- Hfv, <- Hfu, Hw by lia; reflexivity].
      unfold pcore; cbn [pl pa pacc pbad pvoid].
      rewrite (rexec_quiet_tape v u s1 Q1 a a), (rexec_quiet_tape v u s2 Q2 (a + size s1) (a + size s1)). reflexivity.
    + match goal with |- context [pexec v sh W o tr ctr s2 _ _ ?P] =>
      match goal with |- context [pexec u sh W o tr ctr s2 _ _ ?Q] =>
        destruct (IHs2 (a + size s1)%nat (site + nsites s1)%nat P Q eq_refl) as [Hc2 Hv2]; try assumption end end.
      * intros b Hb'. apply Hfv. lia.
      * intros b Hb'. apply Hfu. lia.
      * intros b Hb'. apply Hw. lia.
      * split; [exact Hc2|]. intros b Hb'. destruct (Nat.lt_ge_cases b (a + size s1)); [|apply Hv2; lia].
        specialize (Hw b ltac:(lia)). rewrite !pexec_pw in Hw by lia. cbn [pw] in Hw.
        rewrite <- Hfv, <- Hfu by lia. exact Hw.
  - (* SFor *)
    apply (pfor_agree _ _ x (size s) n); try assumption.
    + intros a' ps b H. apply pexec_pw. exact H.
    + intros a' ps b H. apply pexec_pw. exact H.
    + intros a' ps H. apply pexec_bad_mono, H.
    + intros a' psv psu Hc' Hfv' Hfu' Hb' Hw'. apply IHs; assumption.
    + reflexivity.
Qed.

End Agree.

(** ** The cost of the aligned tape *)

Local Open Scope R_scope.

(** Σ f b over the positions [a .. a + n - 1]. *)
Definition isum (f : nat -> R) (a n : nat) : R := fold_right Rplus 0 (map f (seq a n)).

Lemma isum_app (f : nat -> R) (a n m : nat) : isum f a (n + m) = isum f a n + isum f (a + n) m.
Proof.
  unfold isum. rewrite seq_app, map_app, fold_right_app. generalize (fold_right Rplus 0 (map f (seq (a + n) m))).
  intros r. induction (map f (seq a n)) as [|y l IH]; cbn [fold_right]; [ring|]. rewrite IH. ring.
Qed.

Lemma isum_ext (f g : nat -> R) (a n : nat) :
  (forall b, (a <= b < a + n)%nat -> f b = g b) -> isum f a n = isum g a n.
Proof.
  unfold isum. intros H. f_equal. apply map_ext_in. intros b Hb. apply in_seq in Hb. apply H. lia.
Qed.

Lemma isum_zero (f : nat -> R) (a n : nat) : (forall b, (a <= b < a + n)%nat -> f b = 0) -> isum f a n = 0.
Proof.
  intros H. rewrite (isum_ext f (fun _ => 0)) by exact H. unfold isum. clear.
  induction (seq a n) as [|b l IH]; cbn [map fold_right]; [reflexivity|]. rewrite IH. ring.
Qed.

Definition dflt : positive * positive := (1%positive, 1%positive).

(** The global layout [lay] has the statement's layout at [a]. *)
Definition slice (lay : list (positive * positive)) (a : nat) (s : stmt) : Prop :=
  forall t, (t < size s)%nat -> nth (a + t) lay dflt = nth t (layout s) dflt.

Lemma slice_app1 (lay : list (positive * positive)) (a : nat) (s1 s2 : stmt) :
  (forall t, (t < size s1 + size s2)%nat -> nth (a + t) lay dflt = nth t (layout s1 ++ layout s2) dflt) ->
  slice lay a s1.
Proof.
  intros H t Ht. rewrite H by lia. rewrite app_nth1 by (rewrite size_layout; exact Ht). reflexivity.
Qed.

Lemma slice_app2 (lay : list (positive * positive)) (a : nat) (s1 s2 : stmt) :
  (forall t, (t < size s1 + size s2)%nat -> nth (a + t) lay dflt = nth t (layout s1 ++ layout s2) dflt) ->
  slice lay (a + size s1) s2.
Proof.
  intros H t Ht. rewrite <- Nat.add_assoc, H by lia. rewrite app_nth2 by (rewrite size_layout; lia).
  rewrite size_layout. f_equal. lia.
Qed.

Lemma nth_concat_repeat {A} (l : list A) (n j t : nat) (d : A) :
  (j < n)%nat -> (t < length l)%nat -> nth (j * length l + t) (concat (repeat l n)) d = nth t l d.
Proof.
  revert j. induction n as [|n IH]; intros j Hj Ht; [lia|]. cbn [repeat concat].
  destruct j as [|j].
  - rewrite app_nth1 by lia. reflexivity.
  - rewrite app_nth2 by (cbn; nia). replace (S j * length l + t - length l)%nat with (j * length l + t)%nat by nia.
    apply IH; lia.
Qed.

Lemma slice_for (lay : list (positive * positive)) (a : nat) (x n : nat) (body : stmt) (j : nat) :
  slice lay a (SFor x n body) -> (j < n)%nat -> slice lay (a + j * size body) body.
Proof.
  intros H Hj t Ht. cbn [size layout] in H.
  assert (Hlt : (j * size body + t < n * size body)%nat).
  { pose proof (Nat.mul_le_mono_r (S j) n (size body) Hj). cbn [Nat.mul] in H0. lia. }
  rewrite <- Nat.add_assoc, H by exact Hlt.
  rewrite <- size_layout. apply nth_concat_repeat; [exact Hj|rewrite size_layout; exact Ht].
Qed.

Section Cost.

Variables (v : nat -> R) (sh : nat -> rstate -> rstate -> Z) (W : Z) (o : list roval) (tr : list bool)
  (ctr : bool) (eps : R) (lay : list (positive * positive)).
Hypothesis HW : (0 < W)%Z.

Definition pcost (ps : pstate) (a n : nat) : R :=
  isum (fun b => rate eps (nth b lay dflt) * Rabs (pw ps b - v b)) a n.

Lemma pcost_fresh (ps : pstate) (a n : nat) : fresh (pw ps) v a -> pcost ps a n = 0.
Proof.
  intros H. apply isum_zero. intros b Hb. rewrite H by lia. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. ring.
Qed.

Lemma pcost_zero (ps : pstate) (a n : nat) :
  (forall b, (a <= b < a + n)%nat -> pw ps b = v b) -> pcost ps a n = 0.
Proof.
  intros H. apply isum_zero. intros b Hb. rewrite H by lia. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. ring.
Qed.

Lemma pcost_ext (ps ps' : pstate) (a n : nat) :
  (forall b, (a <= b < a + n)%nat -> pw ps b = pw ps' b) -> pcost ps a n = pcost ps' a n.
Proof. intros H. apply isum_ext. intros b Hb. rewrite H by exact Hb. reflexivity. Qed.

Lemma pfor_cost (step : nat -> pstate -> pstate) (x sb : nat) (n a0 : nat) :
  (forall a ps b, (b < a \/ a + sb <= b)%nat -> pw (step a ps) b = pw ps b) ->
  (forall a ps, pbad ps = true -> pbad (step a ps) = true) ->
  (forall m ps, (m < n)%nat -> fresh (pw ps) v (a0 + m * sb) -> pbad (step (a0 + m * sb)%nat ps) = false ->
     pcost (step (a0 + m * sb)%nat ps) (a0 + m * sb) sb
     = eps / IZR W * IZR (pacc (step (a0 + m * sb)%nat ps) - pacc ps)) ->
  forall j m i ps, (m + j = n)%nat -> fresh (pw ps) v (a0 + m * sb) ->
  pbad (pfor step x sb (a0 + m * sb) i j ps) = false ->
  pcost (pfor step x sb (a0 + m * sb) i j ps) (a0 + m * sb) (j * sb)
  = eps / IZR W * IZR (pacc (pfor step x sb (a0 + m * sb) i j ps) - pacc ps).
Proof.
  intros Hpw Hbad Hs. assert (HW0 : IZR W <> 0) by (apply not_0_IZR; lia).
  induction j as [|j IH]; intros m i ps Hj Hf Hb; cbn [pfor] in *.
  - unfold pcost, isum. cbn. rewrite Z.sub_diag. cbn. field. exact HW0.
  - replace (a0 + m * sb + sb)%nat with (a0 + S m * sb)%nat in * by (cbn; lia).
    destruct (rhalted (pl ps)) eqn:Hh.
    + rewrite pfor_halted by exact Hh. rewrite pcost_fresh by exact Hf. rewrite Z.sub_diag. cbn. field. exact HW0.
    + set (ps1 := step (a0 + m * sb)%nat (pboth (rset x (IZR i)) ps)) in *.
      assert (Hb1 : pbad ps1 = false).
      { destruct (pbad ps1) eqn:E; [|reflexivity]. rewrite <- Hb. symmetry.
        apply (pfor_mono _ (fun ps => pbad ps = true)); [|intros; exact H|exact E]. intros; apply Hbad; assumption. }
      replace (S j * sb)%nat with (sb + j * sb)%nat by lia. unfold pcost. rewrite isum_app.
      replace (a0 + m * sb + sb)%nat with (a0 + S m * sb)%nat by (cbn; lia).
      fold (pcost (pfor step x sb (a0 + S m * sb) (Z.succ i) j ps1) (a0 + m * sb) sb).
      fold (pcost (pfor step x sb (a0 + S m * sb) (Z.succ i) j ps1) (a0 + S m * sb) (j * sb)).
      rewrite IH; [| lia | | exact Hb].
      2:{ intros b Hb'. unfold ps1. rewrite Hpw by (cbn in Hb'; lia). apply Hf. cbn in Hb'. lia. }
      rewrite (pcost_ext _ ps1).
      2:{ intros b Hb'. apply pfor_pw; [|left; cbn; lia]. intros a' ps' H1 H2. apply Hpw. lia. }
      unfold ps1. rewrite (Hs m (pboth (rset x (IZR i)) ps)); [| lia | exact Hf | exact Hb1].
      cbn [pboth pacc]. rewrite !minus_IZR. field. exact HW0.
Qed.

Lemma pexec_cost (s : stmt) : forall a site ps,
  slice lay a s -> fresh (pw ps) v a -> pbad (pexec v sh W o tr ctr s a site ps) = false ->
  pcost (pexec v sh W o tr ctr s a site ps) a (size s)
  = eps / IZR W * IZR (pacc (pexec v sh W o tr ctr s a site ps) - pacc ps).
Proof.
  assert (HW0 : IZR W <> 0) by (apply not_0_IZR; lia).
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ];
    intros a site ps Hsl Hf Hb; cbn [pexec size] in Hb |- *; destruct (rhalted (pl ps)) eqn:Hh;
    try (rewrite pcost_fresh by exact Hf; rewrite Z.sub_diag; cbn; field; exact HW0).
  - (* SSeq *)
    assert (Hb1 : pbad (pexec v sh W o tr ctr s1 a site ps) = false).
    { destruct (pbad (pexec v sh W o tr ctr s1 a site ps)) eqn:E; [|reflexivity].
      pose proof (pexec_bad_mono v sh W o tr ctr s2 (a + size s1) (site + nsites s1) _ E). congruence. }
    cbn [layout] in Hsl.
    unfold pcost. rewrite isum_app. fold (pcost (pexec v sh W o tr ctr s2 (a + size s1) (site + nsites s1) (pexec v sh W o tr ctr s1 a site ps)) a (size s1)).
    fold (pcost (pexec v sh W o tr ctr s2 (a + size s1) (site + nsites s1) (pexec v sh W o tr ctr s1 a site ps)) (a + size s1) (size s2)).
    rewrite IHs2; [| apply (slice_app2 _ _ _ _ Hsl) | | exact Hb].
    2:{ intros b Hb'. rewrite pexec_pw by lia. apply Hf. lia. }
    rewrite (pcost_ext _ (pexec v sh W o tr ctr s1 a site ps)) by (intros b Hb'; apply pexec_pw; lia).
    rewrite IHs1; [| apply (slice_app1 _ _ _ _ Hsl) | exact Hf | exact Hb1].
    rewrite !minus_IZR. field. exact HW0.
  - (* SSample *)
    destruct d; cbn [psample pboth pacc pw pbad] in Hb |- *;
      try (rewrite (pcost_fresh _ a 1) by exact Hf; rewrite Z.sub_diag; cbn; field; exact HW0).
    unfold psample in Hb |- *. cbn [pacc pw pbad] in Hb |- *.
    apply orb_false_iff in Hb as [_ Hm]. apply negb_false_iff, Z.eqb_eq in Hm.
    unfold pcost, isum. cbn [seq map fold_right pw]. unfold upd. rewrite Nat.eqb_refl.
    specialize (Hsl 0%nat ltac:(cbn; lia)). rewrite Nat.add_0_r in Hsl. rewrite Hsl. cbn [layout nth scale].
    unfold rate, weight. cbn [fst snd].
    set (z := sh site (pl ps) (pa ps)).
    replace (v a + IZR z - v a) with (IZR z) by ring. rewrite <- abs_IZR. replace (pacc ps + Z.abs z * (Z.pos den * (W / Z.pos num)) - pacc ps)%Z
      with (Z.abs z * (Z.pos den * (W / Z.pos num)))%Z by lia.
    pose proof (Z.div_exact W (Zpos num) ltac:(lia)) as [_ Hd]. specialize (Hd Hm).
    set (q := (W / Z.pos num)%Z) in *. rewrite Hd at 1. rewrite !mult_IZR.
    assert (Hq : IZR q <> 0) by (apply not_0_IZR; intros E; rewrite E in Hd; lia).
    field. split; [exact Hq|apply not_0_IZR; lia].
  - (* SIf *)
    cbn [layout] in Hsl.
    destruct (rbeval (renv (pl ps)) c) eqn:Bl, (rbeval (renv (pa ps)) c) eqn:Ba; cbn [Bool.eqb] in Hb |- *.
    + unfold pcost. rewrite isum_app.
      match goal with |- context [pexec v sh W o tr ctr s1 a site ?P] =>
        fold (pcost (pexec v sh W o tr ctr s1 a site P) a (size s1));
        fold (pcost (pexec v sh W o tr ctr s1 a site P) (a + size s1) (size s2));
        rewrite (pcost_zero (pexec v sh W o tr ctr s1 a site P) (a + size s1));
        [rewrite IHs1; [| apply (slice_app1 _ _ _ _ Hsl) | exact Hf | exact Hb]; cbn [pacc]; ring|] end.
      intros b Hb'. rewrite pexec_pw by lia. apply Hf. lia.
    + rewrite pcost_fresh by exact Hf. cbn [pacc]. rewrite Z.sub_diag. cbn. field. exact HW0.
    + rewrite pcost_fresh by exact Hf. cbn [pacc]. rewrite Z.sub_diag. cbn. field. exact HW0.
    + unfold pcost. rewrite isum_app.
      match goal with |- context [pexec v sh W o tr ctr s2 _ _ ?P] =>
        fold (pcost (pexec v sh W o tr ctr s2 (a + size s1) (site + nsites s1) P) a (size s1));
        fold (pcost (pexec v sh W o tr ctr s2 (a + size s1) (site + nsites s1) P) (a + size s1) (size s2));
        rewrite (pcost_zero (pexec v sh W o tr ctr s2 (a + size s1) (site + nsites s1) P) a (size s1));
        [rewrite IHs2; [| apply (slice_app2 _ _ _ _ Hsl) | | exact Hb]; [cbn [pacc]; ring|] |] end.
      * intros b Hb'. apply Hf. lia.
      * intros b Hb'. rewrite pexec_pw by lia. apply Hf. lia.
  - (* SFor *)
    assert (Hstep : forall m ps', (m < n)%nat -> fresh (pw ps') v (a + m * size s) ->
      pbad (pexec v sh W o tr ctr s (a + m * size s) site ps') = false ->
      pcost (pexec v sh W o tr ctr s (a + m * size s) site ps') (a + m * size s) (size s)
      = eps / IZR W * IZR (pacc (pexec v sh W o tr ctr s (a + m * size s) site ps') - pacc ps')).
    { intros m ps' Hm Hf' Hb'. apply IHs; [apply (slice_for _ _ x n); assumption|exact Hf'|exact Hb']. }
    pose proof (pfor_cost (fun a' ps' => pexec v sh W o tr ctr s a' site ps') x (size s) n a
      (fun a' ps' b H => pexec_pw v sh W o tr ctr s a' site ps' b H)
      (fun a' ps' H => pexec_bad_mono v sh W o tr ctr s a' site ps' H) Hstep n 0 0%Z ps ltac:(lia)) as H.
    rewrite Nat.mul_0_l, Nat.add_0_r in H. apply H; assumption.
Qed.

End Cost.
