(** * The aligned run over the reals, one statement at a time

    What a generated proof of [good_run] under continuous noise is made of,
    as Coupling/AlignTactics.v's lemmas are for the discrete route: the
    meaning of each statement of the aligned run ([pexec], RealRelational.v)
    on a state not halted ([px_*]), a conditional both runs decide alike or
    differently, a loop crossed with an invariant ([loop_cases]), void runs
    staying void ([pexec_void_mono]), and the comparisons the semantics
    decides on the reals read back as propositions ([rltb_true] ...), so
    that a leaf closes by [lra] where the discrete route uses [lia]. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
From Obligations.Laplace Require Import RealTape RealRelational.
Import ListNotations.
Local Open Scope Z_scope.

(** ** Comparisons on the reals, as propositions *)

Lemma rltb_true (x y : R) : rltb x y = true <-> (x < y)%R.
Proof. unfold rltb. destruct (Rlt_dec x y); split; intros H; congruence || contradiction. Qed.

Lemma rltb_false (x y : R) : rltb x y = false <-> (y <= x)%R.
Proof. unfold rltb. destruct (Rlt_dec x y); split; intros H; try discriminate; try reflexivity; lra. Qed.

Lemma rleb_true (x y : R) : rleb x y = true <-> (x <= y)%R.
Proof. unfold rleb. destruct (Rle_dec x y); split; intros H; congruence || contradiction. Qed.

Lemma rleb_false (x y : R) : rleb x y = false <-> (y < x)%R.
Proof. unfold rleb. destruct (Rle_dec x y); split; intros H; try discriminate; try reflexivity; lra. Qed.

Lemma reqb_true (x y : R) : reqb x y = true <-> x = y.
Proof. unfold reqb. destruct (Req_EM_T x y); split; intros H; congruence || contradiction. Qed.

Lemma reqb_false (x y : R) : reqb x y = false <-> x <> y.
Proof. unfold reqb. destruct (Req_EM_T x y); split; intros H; congruence || (try reflexivity; contradiction). Qed.

(** ** Loops and void runs *)

Lemma pfor_invariant (step : nat -> pstate -> pstate) (x sb : nat) (n : nat)
    (Inv : nat -> pstate -> Prop) (Fin : pstate -> Prop) :
  (forall a ps, pvoid ps = true -> pvoid (step a ps) = true) ->
  (forall j a ps, (j < n)%nat -> Inv j ps -> rhalted (pl ps) = false ->
     let ps' := step a (pboth (rset x (IZR (Z.of_nat j))) ps) in
     (Inv (S j) ps' /\ rhalted (pl ps') = false) \/ (Fin ps' /\ rhalted (pl ps') = true) \/
     pvoid ps' = true) ->
  forall m j a ps, (j + m = n)%nat -> Inv j ps -> rhalted (pl ps) = false ->
  let r := pfor step x sb a (Z.of_nat j) m ps in
  (Inv n r /\ rhalted (pl r) = false) \/ (Fin r /\ rhalted (pl r) = true) \/ pvoid r = true.
Proof.
  intros Hv Hs. induction m as [|m IH]; intros j a ps Hj Hi Hh r; subst r; cbn [pfor].
  - replace n with j by lia. left. auto.
  - rewrite Hh. replace (Z.succ (Z.of_nat j)) with (Z.of_nat (S j)) by lia.
    destruct (Hs j a ps ltac:(lia) Hi Hh) as [[Hi' Hh']|[[Hf Hh']|Hv']].
    + apply IH; [lia|exact Hi'|exact Hh'].
    + rewrite pfor_halted by exact Hh'. right; left. auto.
    + right; right. apply (pfor_mono _ (fun ps => pvoid ps = true)); [|intros; exact H|exact Hv'].
      intros; apply Hv; assumption.
Qed.

Lemma pexec_void_mono v sh W o tr ctr (s : stmt) : forall a site ps, pvoid ps = true ->
  pvoid (pexec v sh W o tr ctr s a site ps) = true.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a site ps H;
    cbn [pexec]; destruct (rhalted (pl ps)); try exact H;
    cbn [pvoid passign pboth pemit psample]; rewrite ?H; try reflexivity.
  - apply IHs2, IHs1, H.
  - destruct d; cbn [pvoid psample pboth]; rewrite ?H; reflexivity.
  - unfold pvoid_if. rewrite H.
    destruct (Bool.eqb _ _); [destruct (rbeval _ _); [apply IHs1|apply IHs2]; reflexivity|reflexivity].
  - apply (pfor_mono _ (fun ps => pvoid ps = true)); [|intros; exact H0|exact H].
    intros a' ps' H'. apply IHs, H'.
Qed.

(** ** A loop, one iteration at a time

    A generated proof unrolls a loop of fixed count with these laws rather than by
    computing [pfor]: computing it nests the state of every iteration inside the next
    one's (the loop's argument is the previous iteration, not yet executed), and each
    copy is rewritten and re-checked by the kernel ([Qed] of AboveThreshold on two
    answers, measured alternately: 79.7 s of CPU, against 0.8 s one iteration at a time). *)
Lemma pfor_unroll (step : nat -> pstate -> pstate) (x sb a : nat) (i : Z) (n : nat) (ps : pstate) :
  rhalted (pl ps) = false ->
  pfor step x sb a i (S n) ps = pfor step x sb (a + sb) (Z.succ i) n (step a (pboth (rset x (IZR i)) ps)).
Proof. intros H. cbn [pfor]. rewrite H. reflexivity. Qed.

Lemma pfor_end (step : nat -> pstate -> pstate) (x sb a : nat) (i : Z) (ps : pstate) :
  pfor step x sb a i O ps = ps.
Proof. reflexivity. Qed.

(** ** One statement of the aligned run, on a state not halted *)
Section Steps.
Variables (v : nat -> R) (sh : nat -> rstate -> rstate -> Z) (W : Z) (o : list roval) (tr : list bool)
  (ctr : bool).
Notation px := (pexec v sh W o tr ctr).

Lemma px_seq s1 s2 a site ps : rhalted (pl ps) = false ->
  px (SSeq s1 s2) a site ps = px s2 (a + size s1) (site + nsites s1) (px s1 a site ps).
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_skip a site ps : px SSkip a site ps = ps.
Proof. cbn [pexec]. destruct (rhalted (pl ps)); reflexivity. Qed.

Lemma px_assign x e a site ps : rhalted (pl ps) = false -> px (SAssign x e) a site ps = passign x e ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_sample x num den c a site ps : rhalted (pl ps) = false ->
  px (SSample x (DGeom num den c)) a site ps = psample v sh W a site x num den c ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_out e a site ps : rhalted (pl ps) = false ->
  px (SOut e) a site ps =
  pemit o (ROVal (raeval (renv (pl ps)) e)) (ROVal (raeval (renv (pa ps)) e)) ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_top a site ps : rhalted (pl ps) = false -> px STop a site ps = pemit o ROTop ROTop ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_bot a site ps : rhalted (pl ps) = false -> px SBot a site ps = pemit o ROBot ROBot ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_stop a site ps : rhalted (pl ps) = false -> px SStop a site ps = pboth rstop ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_for x n body a site ps : rhalted (pl ps) = false ->
  px (SFor x n body) a site ps = pfor (fun a' ps' => px body a' site ps') x (size body) a 0 n ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

(** A conditional both runs decide alike ... *)
Lemma px_if_same c s1 s2 a site ps (b : bool) : rhalted (pl ps) = false ->
  rbeval (renv (pl ps)) c = b -> rbeval (renv (pa ps)) c = b ->
  px (SIf c s1 s2) a site ps =
  if b then px s1 a site (mkps (rbranch true (pl ps)) (rbranch true (pa ps)) (pw ps) (pacc ps) (pbad ps)
                            (pvoid_if tr ctr b ps))
  else px s2 (a + size s1) (site + nsites s1)
         (mkps (rbranch false (pl ps)) (rbranch false (pa ps)) (pw ps) (pacc ps) (pbad ps)
            (pvoid_if tr ctr b ps)).
Proof. intros H Hl Ha. cbn [pexec]. rewrite H, Hl, Ha. destruct b; reflexivity. Qed.

(** ... and differently. *)
Lemma px_if_diff c s1 s2 a site ps (b : bool) : rhalted (pl ps) = false ->
  rbeval (renv (pl ps)) c = b -> rbeval (renv (pa ps)) c = negb b ->
  px (SIf c s1 s2) a site ps =
  mkps (if b then rexec v s1 a (rbranch true (pl ps)) else rexec v s2 (a + size s1) (rbranch false (pl ps)))
       (if b then rexec v s2 (a + size s1) (rbranch false (pa ps)) else rexec v s1 a (rbranch true (pa ps)))
       (pw ps) (pacc ps) (pbad ps || negb (quiet s1 && quiet s2)) (pvoid_if tr ctr b ps).
Proof. intros H Hl Ha. cbn [pexec]. rewrite H, Hl, Ha. destruct b; reflexivity. Qed.

(** A conditional whose left decision the branch prophecy refutes: void, whatever the aligned
    run decides. *)
Lemma px_if_void c s1 s2 a site ps : rhalted (pl ps) = false ->
  pvoid_if tr ctr (rbeval (renv (pl ps)) c) ps = true -> pvoid (px (SIf c s1 s2) a site ps) = true.
Proof.
  intros H Hv. cbn [pexec]. rewrite H.
  destruct (Bool.eqb _ _); [destruct (rbeval _ c); apply pexec_void_mono; exact Hv|exact Hv].
Qed.

(** A loop crossed with an invariant: after every iteration the invariant, or halted in the
    post-condition, or void. *)
Lemma loop_cases x k body a site ps (Inv : nat -> pstate -> Prop) (Fin : pstate -> Prop) :
  (forall j a' ps, (j < k)%nat -> Inv j ps -> rhalted (pl ps) = false ->
     let ps' := px body a' site (pboth (rset x (IZR (Z.of_nat j))) ps) in
     (Inv (S j) ps' /\ rhalted (pl ps') = false) \/ (Fin ps' /\ rhalted (pl ps') = true) \/
     pvoid ps' = true) ->
  Inv 0%nat ps -> rhalted (pl ps) = false ->
  let r := px (SFor x k body) a site ps in
  (Inv k r /\ rhalted (pl r) = false) \/ (Fin r /\ rhalted (pl r) = true) \/ pvoid r = true.
Proof.
  intros Hs Hi Hh r. subst r. rewrite px_for by exact Hh. change 0%Z with (Z.of_nat 0).
  apply (pfor_invariant _ x (size body) k Inv Fin); try assumption; [|lia].
  intros a' ps' H. apply pexec_void_mono, H.
Qed.

End Steps.

Lemma pstate_eta (ps : pstate) : ps = mkps (pl ps) (pa ps) (pw ps) (pacc ps) (pbad ps) (pvoid ps).
Proof. destruct ps; reflexivity. Qed.
