(** * Programs with continuous Laplace noise: the tape semantics over the reals

    The syntax of Program/ProgramSyntax.v and the tape layout of
    Coupling/TapeSem.v (a statement run from position [a] owns the positions
    [a .. a + size s - 1], one per sampling statement and loop iteration),
    run over the reals: the variables hold reals, and a sampling statement
    [SSample x (DGeom num den c)] reads the position [a] of a tape of reals
    and sets [x] to [c + tape a].  With continuous noise that position is
    Laplace of scale num/(den·ε) (Laplace/ProgAlign.v gives the law of the
    tape); the same statement under the discrete semantics is the two-sided
    geometric of rate ε·den/num, so one program text has both meanings and the
    spec's noise field says which one a certificate claims.

    Expressions are evaluated over the reals: constants and inputs are the
    integers they are, [+ - * min max abs] are the real operations, a
    division or remainder by a positive constant rounds the quotient down
    ([rfloor]), and an index into a stream is rounded down too.  Comparisons
    are decided on the reals.  Released values are reals ([roval]).  A
    sampling statement of a finite distribution faults, as in TapeSem.v. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
Import ListNotations.
Local Open Scope R_scope.

(** One released value: ⊤, ⊥ or a real. *)
Inductive roval := ROTop | ROBot | ROVal (r : R).

Record rstate := mkrs { renv : list R; rout : list roval; rtr : list bool; rhalted : bool; rfault : bool }.

(** Slots beyond the end read [0]; writing beyond the end pads with zeros. *)
Definition rread (e : list R) (x : nat) : R := nth x e 0.

Fixpoint rwrite (e : list R) (x : nat) (v : R) : list R :=
  match e, x with
  | [], O => [v]
  | [], S x' => 0 :: rwrite [] x' v
  | _ :: e', O => v :: e'
  | z :: e', S x' => z :: rwrite e' x' v
  end.

(** The largest integer at most [r]. *)
Definition rfloor (r : R) : Z := (up r - 1)%Z.

Lemma rfloor_spec (r : R) : IZR (rfloor r) <= r < IZR (rfloor r) + 1.
Proof.
  unfold rfloor. destruct (archimed r) as [H1 H2]. rewrite minus_IZR. lra.
Qed.

Fixpoint raeval (e : list R) (a : aexp) : R :=
  match a with
  | AConst z => IZR z
  | AVar x => rread e x
  | AIdx base len i =>
      let k := rfloor (raeval e i) in
      if (0 <=? k)%Z && (k <? Z.of_nat len)%Z then rread e (base + Z.to_nat k) else 0
  | AAdd a b => raeval e a + raeval e b
  | ASub a b => raeval e a - raeval e b
  | AMul a b => raeval e a * raeval e b
  | AMin a b => Rmin (raeval e a) (raeval e b)
  | AMax a b => Rmax (raeval e a) (raeval e b)
  | AAbs a => Rabs (raeval e a)
  | ADiv a d => IZR (rfloor (raeval e a / IZR (Zpos d)))
  | AMod a d => raeval e a - IZR (Zpos d) * IZR (rfloor (raeval e a / IZR (Zpos d)))
  end.

Definition rltb (x y : R) : bool := if Rlt_dec x y then true else false.
Definition rleb (x y : R) : bool := if Rle_dec x y then true else false.
Definition reqb (x y : R) : bool := if Req_EM_T x y then true else false.

Fixpoint rbeval (e : list R) (b : bexp) : bool :=
  match b with
  | BTrue => true
  | BFalse => false
  | BLt a c => rltb (raeval e a) (raeval e c)
  | BLe a c => rleb (raeval e a) (raeval e c)
  | BEq a c => reqb (raeval e a) (raeval e c)
  | BNot b => negb (rbeval e b)
  | BAnd b c => rbeval e b && rbeval e c
  | BOr b c => rbeval e b || rbeval e c
  end.

Definition rset (x : nat) (v : R) (st : rstate) : rstate :=
  mkrs (rwrite (renv st) x v) (rout st) (rtr st) (rhalted st) (rfault st).

Definition remit (o : roval) (st : rstate) : rstate :=
  mkrs (renv st) (rout st ++ [o]) (rtr st) (rhalted st) (rfault st).

Definition rbranch (b : bool) (st : rstate) : rstate :=
  mkrs (renv st) (rout st) (rtr st ++ [b]) (rhalted st) (rfault st).

Definition rstop (st : rstate) : rstate := mkrs (renv st) (rout st) (rtr st) true (rfault st).

Definition rfail (st : rstate) : rstate := mkrs (renv st) (rout st) (rtr st) true true.

(** [n] iterations from counter value [i], the first owning the positions
    from [a], each [sb] positions; a halted state is left alone. *)
Fixpoint rfor (step : nat -> rstate -> rstate) (x : nat) (sb a : nat) (i : Z) (n : nat) (st : rstate)
    : rstate :=
  match n with
  | O => st
  | S n' => rfor step x sb (a + sb) (Z.succ i) n' (if rhalted st then st else step a (rset x (IZR i) st))
  end.

Fixpoint rexec (v : nat -> R) (s : stmt) (a : nat) (st : rstate) {struct s} : rstate :=
  if rhalted st then st else
  match s with
  | SSkip => st
  | SSeq s1 s2 => rexec v s2 (a + size s1) (rexec v s1 a st)
  | SAssign x e => rset x (raeval (renv st) e) st
  | SSample x (DGeom _ _ c) => rset x (raeval (renv st) c + v a) st
  | SSample _ _ => rfail st
  | SIf b s1 s2 =>
      if rbeval (renv st) b then rexec v s1 a (rbranch true st)
      else rexec v s2 (a + size s1) (rbranch false st)
  | SFor x n body => rfor (rexec v body) x (size body) a 0%Z n st
  | SOut e => remit (ROVal (raeval (renv st) e)) st
  | STop => remit ROTop st
  | SBot => remit ROBot st
  | SStop => rstop st
  end.

(** The program's variables (zero) and then the input. *)
Definition rinit (nvars : nat) (x : list Z) : rstate :=
  mkrs (repeat 0 nvars ++ map IZR x) [] [] false false.

(** The tape as a function of positions (0 beyond its end). *)
Definition rtape (v : list R) : nat -> R := fun a => nth a v 0.

(** The run on the input [x] and the tape [v]: the outputs, or [None] on a fault. *)
Definition rtape_run (p : stmt) (nvars : nat) (x : list Z) (v : list R) : option (list roval) :=
  let st := rexec (rtape v) p 0 (rinit nvars x) in
  if rfault st then None else Some (rout st).

Definition roval_eqb (o o' : roval) : bool :=
  match o, o' with
  | ROTop, ROTop | ROBot, ROBot => true
  | ROVal r, ROVal r' => reqb r r'
  | _, _ => false
  end.

Lemma roval_eqb_spec (o o' : roval) : roval_eqb o o' = true <-> o = o'.
Proof.
  destruct o as [| |r], o' as [| |r']; cbn; split; intros H; try discriminate; try reflexivity.
  - unfold reqb in H. destruct (Req_EM_T r r') as [E|E]; [rewrite E; reflexivity|discriminate].
  - injection H as E. unfold reqb. destruct (Req_EM_T r r') as [_|E']; [reflexivity|contradiction].
Qed.

(** ** Laws *)

Lemma rfor_halted (step : nat -> rstate -> rstate) (x sb a : nat) (i : Z) (n : nat) (st : rstate) :
  rhalted st = true -> rfor step x sb a i n st = st.
Proof. revert a i. induction n as [|n IH]; intros a i H; cbn [rfor]; [reflexivity|]. rewrite H. apply IH, H. Qed.

Lemma rexec_halted (v : nat -> R) (s : stmt) (a : nat) (st : rstate) :
  rhalted st = true -> rexec v s a st = st.
Proof. intros H. destruct s; cbn [rexec]; rewrite H; reflexivity. Qed.

(** A run of a program that samples only [DGeom] never faults. *)
Lemma rexec_no_fault (v : nat -> R) (s : stmt) :
  geom_only s = true -> forall a st, rfault st = false -> rfault (rexec v s a st) = false.
Proof.
  induction s; intros Hg pos st Hf; cbn [rexec]; destruct (rhalted st); try exact Hf;
    cbn [geom_only] in Hg; try exact Hf.
  - apply andb_prop in Hg as [H1 H2]. apply IHs2, IHs1; assumption.
  - destruct d; try discriminate. exact Hf.
  - apply andb_prop in Hg as [H1 H2].
    destruct (rbeval (renv st) b); [apply IHs1|apply IHs2]; assumption.
  - revert pos st Hf. generalize 0%Z. induction n as [|n IH]; intros i pos st Hf; cbn [rfor]; [exact Hf|].
    apply IH. destruct (rhalted st); [exact Hf|]. apply IHs; assumption.
Qed.

(** The run reads the tape only at the statement's own positions. *)
Lemma rexec_local (v u : nat -> R) (s : stmt) : forall a st,
  (forall b, (a <= b < a + size s)%nat -> v b = u b) -> rexec v s a st = rexec u s a st.
Proof.
  induction s as [|s1 IHs1 s2 IHs2|x e|x d|c s1 IHs1 s2 IHs2|x n s IHs|e| | | ]; intros a st H;
    cbn [rexec size] in *; destruct (rhalted st); try reflexivity.
  - rewrite (IHs1 a st) by (intros b Hb; apply H; lia). apply IHs2. intros b Hb. apply H. lia.
  - destruct d; try reflexivity. rewrite (H a) by lia. reflexivity.
  - destruct (rbeval _ _); [apply IHs1|apply IHs2]; intros b Hb; apply H; lia.
  - assert (Hn : forall j i a' st', (a <= a')%nat -> (a' + j * size s <= a + n * size s)%nat ->
      rfor (rexec v s) x (size s) a' i j st' = rfor (rexec u s) x (size s) a' i j st').
    { induction j as [|j IH]; intros i a' st' H1 H2; cbn [rfor]; [reflexivity|].
      destruct (rhalted st'); [apply IH; cbn in H2; lia|].
      rewrite (IHs a') by (intros b Hb; apply H; cbn in H2; lia). apply IH; cbn in H2; lia. }
    apply Hn; lia.
Qed.
