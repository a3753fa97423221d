(** * Tactics and lemmas the generated all-k proofs use

    A generated file proves that the aligned run ([pexec], Relational.v) of
    its program is good ([good_run], AlignSound.v) for every input pair,
    tape and prophecy.  It does so by symbolic execution: [psym E] runs the
    aligned run in a hypothesis [E : r = pexec ...] one statement at a time
    ([px_*]: the statement's meaning on a state not halted), normalising the
    state after each ([pnorm_in]) and splitting on every condition, prophecy
    entry and comparison of the two runs ([psplit]), dropping at once the
    branches that are void or contradictory ([pprune]).  A loop is crossed
    with an invariant ([loop_cases], from [pfor_invariant]); the leaves are
    closed by [pleaf] (the invariant or the post-condition, by [lia]). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax ProgramSem.
From Obligations.Coupling Require Import TapeSem Relational AlignSound InputRel.
Import ListNotations.
Local Open Scope Z_scope.

Lemma pfor_invariant (step : nat -> pstate -> pstate) (x sb : nat) (n : nat)
    (Inv : nat -> pstate -> Prop) (Fin : pstate -> Prop) :
  (forall a ps, pvoid ps = true -> pvoid (step a ps) = true) ->
  (forall j a ps, (j < n)%nat -> Inv j ps -> thalted (pl ps) = false ->
     (Inv (S j) (step a (pboth (tset x (Z.of_nat j)) ps)) /\ thalted (pl (step a (pboth (tset x (Z.of_nat j)) ps))) = false) \/
     (Fin (step a (pboth (tset x (Z.of_nat j)) ps)) /\ thalted (pl (step a (pboth (tset x (Z.of_nat j)) ps))) = true) \/
     pvoid (step a (pboth (tset x (Z.of_nat j)) ps)) = true) ->
  forall m j a ps, (j + m = n)%nat -> Inv j ps -> thalted (pl ps) = false ->
  let r := pfor step x sb a (Z.of_nat j) m ps in
  (Inv n r /\ thalted (pl r) = false) \/ (Fin r /\ thalted (pl r) = true) \/ pvoid r = true.
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
    cbn [pexec]; destruct (thalted (pl ps)); try exact H;
    cbn [pvoid passign pboth pemit psample]; rewrite ?H; try reflexivity.
  - apply IHs2, IHs1, H.
  - destruct d; cbn [pvoid psample pboth]; rewrite ?H; reflexivity.
  - unfold pvoid_if. rewrite H. destruct (Bool.eqb _ _); [destruct (beval _ _); [apply IHs1|apply IHs2]; reflexivity|reflexivity].
  - apply (pfor_mono _ (fun ps => pvoid ps = true)); [|intros; exact H0|exact H].
    intros a' ps' H'. apply IHs, H'.
Qed.

(** ** One statement of the aligned run, on a state not halted *)
Section Steps.
Variables (v : nat -> Z) (sh : nat -> tstate -> tstate -> Z) (W : Z) (o : list oval) (tr : list bool) (ctr : bool).
Notation px := (pexec v sh W o tr ctr).

Lemma px_seq s1 s2 a site ps : thalted (pl ps) = false ->
  px (SSeq s1 s2) a site ps = px s2 (a + size s1) (site + nsites s1) (px s1 a site ps).
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_skip a site ps : px SSkip a site ps = ps.
Proof. cbn [pexec]. destruct (thalted (pl ps)); reflexivity. Qed.

Lemma px_assign x e a site ps : thalted (pl ps) = false -> px (SAssign x e) a site ps = passign x e ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_sample x num den c a site ps : thalted (pl ps) = false ->
  px (SSample x (DGeom num den c)) a site ps = psample v sh W a site x num den c ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_out e a site ps : thalted (pl ps) = false ->
  px (SOut e) a site ps = pemit o (OVal (aeval (tenv (pl ps)) e)) (OVal (aeval (tenv (pa ps)) e)) ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_top a site ps : thalted (pl ps) = false -> px STop a site ps = pemit o OTop OTop ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_bot a site ps : thalted (pl ps) = false -> px SBot a site ps = pemit o OBot OBot ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_stop a site ps : thalted (pl ps) = false -> px SStop a site ps = pboth tstop ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

Lemma px_if c s1 s2 a site ps : thalted (pl ps) = false ->
  px (SIf c s1 s2) a site ps =
  if Bool.eqb (beval (tenv (pl ps)) c) (beval (tenv (pa ps)) c) then
    if beval (tenv (pl ps)) c
    then px s1 a site (mkps (tbranch true (pl ps)) (tbranch true (pa ps)) (pw ps) (pacc ps) (pbad ps)
                        (pvoid_if tr ctr (beval (tenv (pl ps)) c) ps))
    else px s2 (a + size s1) (site + nsites s1)
           (mkps (tbranch false (pl ps)) (tbranch false (pa ps)) (pw ps) (pacc ps) (pbad ps)
              (pvoid_if tr ctr (beval (tenv (pl ps)) c) ps))
  else
    mkps (if beval (tenv (pl ps)) c then texec v s1 a (tbranch true (pl ps))
          else texec v s2 (a + size s1) (tbranch false (pl ps)))
         (if beval (tenv (pa ps)) c then texec v s1 a (tbranch true (pa ps))
          else texec v s2 (a + size s1) (tbranch false (pa ps)))
         (pw ps) (pacc ps) (pbad ps || negb (quiet s1 && quiet s2)) (pvoid_if tr ctr (beval (tenv (pl ps)) c) ps).
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

(** A conditional both runs decide alike ... *)
Lemma px_if_same c s1 s2 a site ps (b : bool) : thalted (pl ps) = false ->
  beval (tenv (pl ps)) c = b -> beval (tenv (pa ps)) c = b ->
  px (SIf c s1 s2) a site ps =
  if b then px s1 a site (mkps (tbranch true (pl ps)) (tbranch true (pa ps)) (pw ps) (pacc ps) (pbad ps)
                            (pvoid_if tr ctr b ps))
  else px s2 (a + size s1) (site + nsites s1)
         (mkps (tbranch false (pl ps)) (tbranch false (pa ps)) (pw ps) (pacc ps) (pbad ps) (pvoid_if tr ctr b ps)).
Proof. intros H Hl Ha. cbn [pexec]. rewrite H, Hl, Ha. destruct b; reflexivity. Qed.

(** ... and differently. *)
Lemma px_if_diff c s1 s2 a site ps (b : bool) : thalted (pl ps) = false ->
  beval (tenv (pl ps)) c = b -> beval (tenv (pa ps)) c = negb b ->
  px (SIf c s1 s2) a site ps =
  mkps (if b then texec v s1 a (tbranch true (pl ps)) else texec v s2 (a + size s1) (tbranch false (pl ps)))
       (if b then texec v s2 (a + size s1) (tbranch false (pa ps)) else texec v s1 a (tbranch true (pa ps)))
       (pw ps) (pacc ps) (pbad ps || negb (quiet s1 && quiet s2)) (pvoid_if tr ctr b ps).
Proof. intros H Hl Ha. cbn [pexec]. rewrite H, Hl, Ha. destruct b; reflexivity. Qed.

End Steps.

Lemma idx_guard (j k : nat) : (j < k)%nat ->
  ((0 <=? Z.of_nat j)%Z && (Z.of_nat j <? Z.of_nat k)%Z)%bool = true.
Proof. intros H. apply Bool.andb_true_iff. split; [apply Z.leb_le|apply Z.ltb_lt]; lia. Qed.

(** The names a normalisation unfolds: the state operations, the tape semantics (the
    runs of branches the two runs decide differently), the evaluation of expressions. *)
Ltac pnorm_cbn E :=
  unfold pboth, passign, psample, pemit, pvoid_if, tr_ok, out_ok, tset, temit, tbranch, tstop in E;
  cbn [texec tfor pboth passign psample pemit pvoid_if tr_ok out_ok tset temit tbranch tstop
       pl pa pw pacc pbad pvoid tenv tout ttr thalted tfault
       write aeval beval read nth app Nat.add size nsites quiet andb orb negb Bool.eqb] in E.

Ltac pnorm_in E :=
  pnorm_cbn E; pnorm_cbn E;
  repeat match type of E with
  | context [((0 <=? Z.of_nat ?j)%Z && (Z.of_nat ?j <? Z.of_nat ?k)%Z)%bool] =>
      rewrite (idx_guard j k) in E by lia
  | context [Z.to_nat (Z.of_nat ?j)] => rewrite (Nat2Z.id j) in E
  | context [(?W mod Z.pos ?n =? 0)%Z] =>
      let b := eval vm_compute in (W mod Z.pos n =? 0)%Z in change (W mod Z.pos n =? 0)%Z with b in E
  | context [weight ?W ?n ?d] => let b := eval vm_compute in (weight W n d) in change (weight W n d) with b in E
  end;
  cbn [andb orb negb Bool.eqb nth Nat.add] in E.

Ltac zbool_hyps :=
  repeat match goal with
  | H : (_ || _)%bool = true |- _ => apply Bool.orb_true_iff in H
  | H : (_ || _)%bool = false |- _ => apply Bool.orb_false_iff in H
  | H : (_ && _)%bool = true |- _ => apply Bool.andb_true_iff in H
  | H : (_ && _)%bool = false |- _ => apply Bool.andb_false_iff in H
  | H : negb _ = true |- _ => apply Bool.negb_true_iff in H
  | H : negb _ = false |- _ => apply Bool.negb_false_iff in H
  | H : _ /\ _ |- _ => let H1 := fresh H in let H2 := fresh H in
                        pose proof (proj1 H) as H1; pose proof (proj2 H) as H2; clear H
  | H : (_ <=? _)%Z = true \/ _ |- _ => destruct H
  | H : (_ <? _)%Z = true \/ _ |- _ => destruct H
  | H : (_ =? _)%Z = true \/ _ |- _ => destruct H
  | H : (_ <=? _)%Z = false \/ _ |- _ => destruct H
  | H : (_ <? _)%Z = false \/ _ |- _ => destruct H
  | H : (_ =? _)%Z = false \/ _ |- _ => destruct H
  | H : (_ <=? _)%Z = true |- _ => apply Z.leb_le in H
  | H : (_ <=? _)%Z = false |- _ => apply Z.leb_gt in H
  | H : (_ <? _)%Z = true |- _ => apply Z.ltb_lt in H
  | H : (_ <? _)%Z = false |- _ => apply Z.ltb_ge in H
  | H : (_ =? _)%Z = true |- _ => apply Z.eqb_eq in H
  | H : (_ =? _)%Z = false |- _ => apply Z.eqb_neq in H
  end.

(** A conditional: split on the two runs' decisions (normalised to integer tests).  When
    they differ and a branch is not quiet, the case must be contradictory ([lia]); when they
    differ and both are quiet, each run executes its own branch alone. *)
Ltac pif E v sh W o tr ctr c s1 s2 a site ps :=
  let Hl := fresh "Hl" in let Ha := fresh "Ha" in
  destruct (beval (tenv (pl ps)) c) eqn:Hl; destruct (beval (tenv (pa ps)) c) eqn:Ha;
  [ rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption)
  | let q := eval vm_compute in (quiet s1 && quiet s2) in
    lazymatch q with
    | false => first [ exfalso; pnorm_cbn Hl; pnorm_cbn Ha; zbool_hyps; lia
                     | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption) ]
    | true => rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption)
    end
  | let q := eval vm_compute in (quiet s1 && quiet s2) in
    lazymatch q with
    | false => first [ exfalso; pnorm_cbn Hl; pnorm_cbn Ha; zbool_hyps; lia
                     | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption) ]
    | true => rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption)
    end
  | rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption) ];
  pnorm_cbn Hl; pnorm_cbn Ha; pnorm_in E.

(** A condition as it reads on a state, normalised as [pnorm_cbn] normalises it; fails on a
    condition with a guarded read (an index into the input: [pnorm_in] rewrites its guard). *)
Ltac pcond_nf t :=
  let b := eval cbn [beval aeval read nth tenv pl pa andb orb negb] in t in
  lazymatch b with context [if (0 <=? _)%Z && _ then _ else _] => fail | _ => b end.

(** The path is void now (the left run's decision is not the prophesied one): closed
    before its state is normalised, which for runs that went separate ways unfolds the
    tape semantics of both branches. *)
Ltac pvoid_now E :=
  first [right; right | left];
  rewrite E; repeat apply pexec_void_mono;
  unfold pvoid_if, tr_ok; cbn [pvoid pl ttr];
  repeat match goal with H : nth_error ?l ?n = _ |- context [nth_error ?l ?n] => rewrite H end;
  cbn [Bool.eqb andb orb negb]; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity.

(** [pif] on the conditions' normal forms [bl] (left) and [ba] (aligned): the case split is
    on them, not on [beval] of the whole state, so the decisions need no normalisation; when
    the two are the same term (a counter the invariant makes equal in both runs, substituted)
    one split, not four of which two are contradictory; a path on which the runs decide
    differently is dropped as void, or as contradictory, before its state is normalised. *)
Ltac pif_nf E v sh W o tr ctr c s1 s2 a site ps bl ba :=
  let Hl := fresh "Hl" in let Ha := fresh "Ha" in
  tryif constr_eq bl ba then
    destruct bl eqn:Hl;
    [ rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps true eq_refl Hl Hl) in E
    | rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps false eq_refl Hl Hl) in E ];
    pnorm_in E
  else
    let q := eval vm_compute in (quiet s1 && quiet s2) in
    destruct bl eqn:Hl; destruct ba eqn:Ha;
    [ rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps true eq_refl Hl Ha) in E; pnorm_in E
    | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true eq_refl Hl Ha) in E;
      first [ solve [pvoid_now E] | lazymatch q with false => exfalso; zbool_hyps; lia end | pnorm_in E ]
    | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false eq_refl Hl Ha) in E;
      first [ solve [pvoid_now E] | lazymatch q with false => exfalso; zbool_hyps; lia end | pnorm_in E ]
    | rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps false eq_refl Hl Ha) in E; pnorm_in E ].

(** Run the aligned run in [E : r = pexec ...] one statement at a time. *)
Ltac psym_step E :=
  match type of E with
  | context [pexec ?v ?sh ?W ?o ?tr ?ctr ?s ?a ?site (mkps ?L ?A ?w ?acc ?b ?vd)] =>
      let ps := constr:(mkps L A w acc b vd) in
      lazymatch s with
      | SSeq _ _ => rewrite (px_seq v sh W o tr ctr _ _ a site ps) in E by reflexivity
      | SSkip => rewrite (px_skip v sh W o tr ctr a site ps) in E
      | SAssign _ _ => rewrite (px_assign v sh W o tr ctr _ _ a site ps) in E by reflexivity; pnorm_in E
      | SSample _ (DGeom _ _ _) => rewrite (px_sample v sh W o tr ctr _ _ _ _ a site ps) in E by reflexivity; pnorm_in E
      | SOut _ => rewrite (px_out v sh W o tr ctr _ a site ps) in E by reflexivity; pnorm_in E
      | STop => rewrite (px_top v sh W o tr ctr a site ps) in E by reflexivity; pnorm_in E
      | SBot => rewrite (px_bot v sh W o tr ctr a site ps) in E by reflexivity; pnorm_in E
      | SStop => rewrite (px_stop v sh W o tr ctr a site ps) in E by reflexivity; pnorm_in E
      | SIf ?c ?s1 ?s2 =>
          first [ let bl := pcond_nf (beval (tenv (pl ps)) c) in let ba := pcond_nf (beval (tenv (pa ps)) c) in
                  pif_nf E v sh W o tr ctr c s1 s2 a site ps bl ba
                | pif E v sh W o tr ctr c s1 s2 a site ps ]
      end
  end.

(** [t] is not read by the state's void flag alone (it occurs elsewhere in the state, or
    not in its void flag). *)
Ltac not_void_only E t :=
  lazymatch type of E with
  | context [mkps ?L ?A ?w ?acc ?bd ?vd] =>
      lazymatch constr:((L, A, w, acc, bd)) with
      | context [t] => idtac
      | _ => lazymatch vd with context [t] => fail | _ => idtac end
      end
  | _ => idtac
  end.

(** Split on a prophecy entry or a test; never on one only the void flag reads: such a path
    is kept whole until a leaf needs its void flag ([pvoid_split]), instead of being
    tripled at every prophecy entry a test compares with.  [psym] splits as soon as the
    state reads the entry or test (a conditional on a shifted sample is then decided on
    the shift's case, and a path void by the prophecy is dropped before the rest of the
    body runs on it); an entry or test split before, read again by a later statement, is
    rewritten by that split's equation, not split a second time. *)
Ltac psplit E :=
  match type of E with
  | context [match nth_error ?tr ?n with _ => _ end] =>
      first [ match goal with H : nth_error tr n = _ |- _ => rewrite H in E end
            | not_void_only E (nth_error tr n); destruct (nth_error tr n) as [[|]|] eqn:? ]
  | context [if ?b then _ else _] =>
      first [ match goal with H : b = ?c |- _ => lazymatch c with true => idtac | false => idtac end;
                                                  rewrite H in E end
            | not_void_only E b; destruct b eqn:? ]
  end; cbn [Bool.eqb andb orb negb eqb] in E.

(** Whether a void flag (a chain of [||]) holds a literal [true]. *)
Ltac has_true t := lazymatch t with true => idtac | ?a || ?b => first [has_true b | has_true a] end.

Ltac pvoid_close E :=
  rewrite E; repeat apply pexec_void_mono; cbn [pvoid]; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity.

(** Drop a void path at once (after any statement, not only after a split): the step's goal
    ends in [pvoid _ = true], [good_run]'s begins with it. *)
Ltac pprune E :=
  lazymatch type of E with
  | context [mkps _ _ _ _ _ ?vd] =>
      tryif has_true vd then try (first [right; right; pvoid_close E | left; pvoid_close E]) else idtac
  | _ => idtac
  end.

Ltac psym E := repeat (first [psplit E; pprune E | psym_step E; pprune E]).

Ltac zbool_goal :=
  repeat match goal with
  | |- context [(?x =? ?y)%Z] => replace (x =? y)%Z with true by (symmetry; apply Z.eqb_eq; lia)
  end.

Ltac pleaf_simpl := cbn [pl pa pw pacc pbad pvoid tenv tout ttr thalted tfault oval_eqb orb andb negb] in *.

Ltac pleaf_void := right; right; cbn [pvoid]; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity.

Lemma px_for v sh W o tr ctr x n body a site ps : thalted (pl ps) = false ->
  pexec v sh W o tr ctr (SFor x n body) a site ps =
  pfor (fun a' ps' => pexec v sh W o tr ctr body a' site ps') x (size body) a 0 n ps.
Proof. intros H. cbn [pexec]. rewrite H. reflexivity. Qed.

(** Two runs' outputs equal: the same prefix, then values equal by [lia] (a blind
    [repeat f_equal] would also split [a - b = c - d] into [a = c] and [b = d]). *)
Ltac pout_eq :=
  lazymatch goal with
  | |- _ ++ _ = _ ++ _ => f_equal; pout_eq
  | |- _ :: _ = _ :: _ => f_equal; pout_eq
  | |- OVal _ = OVal _ => f_equal; lia
  | |- _ => first [reflexivity | lia]
  end.

(** An invariant's phases, as a goal: the first phase [lia] proves (one [lia] per phase,
    over its conjunction, instead of one over the whole disjunction, which [lia] would turn
    into clauses, or one per atom, each of which translates the whole context again:
    noisymax's leaves 3.7-4.9 -> 2.8-3.4 s CPU, its step's Qed 2.1-2.6 -> 1.8-2.1 s). *)
Ltac pdisj := lazymatch goal with
  | |- _ \/ _ => first [left; lia | right; pdisj]
  | |- _ => lia
  end.

Ltac pleaf_eq := first [reflexivity | assumption | intros; reflexivity | intros; discriminate
  | lazymatch goal with |- _ \/ _ => pdisj end
  | repeat f_equal; lia | intros; repeat f_equal; lia | lia | pout_eq].

(** The invariant's phases as hypothesis [H]: one leaf each, so that the leaf's [lia]
    calls carry atoms, not a disjunction (which [lia] turns into clauses, a product of
    the phases' sizes, computed again without the VM by coqchk).  Worth it with many
    phases (an output prophecy's four: noisymax's coqchk 35 s -> 5 s CPU); with two, the
    doubled leaves cost more (adaptivesparsevector's coqc 24 s -> 96 s CPU): the
    generator asks for it by the number of phases. *)
Ltac pphases H := repeat lazymatch type of H with _ \/ _ => destruct H as [H|H] end.

(** A leaf void by a prophecy entry [psym] did not split on: split it here, where the goal
    is the small void flag. *)
Ltac pvoid_split :=
  right; right; cbn [pvoid]; repeat (first
    [ rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity
    | match goal with
      | H : nth_error ?l ?n = _ |- context [nth_error ?l ?n] => rewrite H; cbn [Bool.eqb andb orb negb oval_eqb]
      | |- context [match nth_error ?tr ?n with _ => _ end] =>
          destruct (nth_error tr n) as [[| |?]|] eqn:?; cbn [Bool.eqb andb orb negb oval_eqb]
      end ]).

(** The invariant's witnesses read off the two states (their variables, then their outputs
    and traces by unification): a leaf's goals carry no evars for its variables, which every
    later tactic would have to look through. *)
Ltac pexists_env l := lazymatch l with ?h :: ?t => exists h; pexists_env t | _ => idtac end.

Ltac pwitness :=
  lazymatch goal with
  | |- context [mkts ?envl _ _ false false = mkts _ _ _ _ _ /\ mkts ?enva _ _ false false = mkts _ _ _ _ _ /\ _] =>
      pexists_env envl; pexists_env enva
  end;
  repeat match goal with |- ex _ => eexists end.

(** Close a leaf: void, contradictory, or the goal's invariant/post-condition with lia. *)
Ltac pleaf :=
  zbool_hyps; pleaf_simpl; zbool_goal;
  first [ pleaf_void
        | left; split;
          [ first [pwitness | repeat match goal with |- ex _ => eexists end];
            (* the two states first: they instantiate every other witness *)
            split; [reflexivity|]; split; [reflexivity|]; repeat split; pleaf_eq
          | reflexivity ]
        | right; left; split; [repeat split; pleaf_eq | reflexivity]
        | exfalso; lia
        | solve [pvoid_split] ].

(** Rewrite the goal's prophecy entries by the hypotheses fixing them, then reduce the
    matches they decide. *)
Ltac pnth_goal := repeat match goal with
  | H : nth_error ?o ?n = _ |- context [nth_error ?o ?n] => rewrite H
  end; cbn beta iota.

(** [pleaf] for a step whose goal keeps the invariant folded: the invariant is [intro]
    (the generated [NAME_inv_intro]) applied, its premises (the flags, the two runs'
    outputs and traces equal, the arithmetic unfolded) proved as [pleaf] proves them. *)
Ltac pleaf_inv intro :=
  zbool_hyps; pleaf_simpl; zbool_goal;
  first [ pleaf_void
        | left; split; [ apply intro; try red; pnth_goal; repeat split; pleaf_eq | reflexivity ]
        | right; left; split; [repeat split; pleaf_eq | reflexivity]
        | exfalso; lia
        | solve [pvoid_split] ].

(** [zbool_hyps] without its case splits: a disjunction of tests stays one hypothesis,
    which [lia] reads as it is (its boolean tests too), so a leaf is not doubled at each
    test a conditional or the void flag joined with [||]. *)
Ltac zbool_props :=
  repeat match goal with
  | H : (_ || _)%bool = true |- _ => apply Bool.orb_true_iff in H
  | H : (_ && _)%bool = true |- _ => apply Bool.andb_true_iff in H
  | H : (_ && _)%bool = false |- _ => apply Bool.andb_false_iff in H
  | H : (_ || _)%bool = false |- _ => apply Bool.orb_false_iff in H
  | H : negb _ = true |- _ => apply Bool.negb_true_iff in H
  | H : negb _ = false |- _ => apply Bool.negb_false_iff in H
  | H : _ /\ _ |- _ => let H1 := fresh H in let H2 := fresh H in
                        pose proof (proj1 H) as H1; pose proof (proj2 H) as H2; clear H
  | H : (_ <=? _)%Z = true |- _ => apply Z.leb_le in H
  | H : (_ <=? _)%Z = false |- _ => apply Z.leb_gt in H
  | H : (_ <? _)%Z = true |- _ => apply Z.ltb_lt in H
  | H : (_ <? _)%Z = false |- _ => apply Z.ltb_ge in H
  | H : (_ =? _)%Z = true |- _ => apply Z.eqb_eq in H
  | H : (_ =? _)%Z = false |- _ => apply Z.eqb_neq in H
  end.

(** [pleaf_inv] on a leaf whose disjunctions of tests are kept whole ([zbool_props]): one
    leaf where [pleaf_inv] makes one per case, when one phase of the invariant holds in
    every case; else [pleaf_inv] (which splits them).  The generated step splits the
    leaves' tests and phases before [subst r], where the goal reads r, not the computed
    state (a case split's proof term abstracts the goal): noisymax's coqc 9.2-10.0 ->
    4.9-5.0 s CPU, its coqchk 4.7-4.9 -> 2.4-3.6 s. *)
Ltac pleaf_inv_whole intro :=
  first [ zbool_props; pleaf_simpl; zbool_goal;
          first [ pleaf_void
                | left; split; [ apply intro; try red; pnth_goal; repeat split; pleaf_eq | reflexivity ]
                | right; left; split; [repeat split; pleaf_eq | reflexivity]
                | exfalso; lia
                | solve [pvoid_split] ]
        | pleaf_inv intro ].

Lemma loop_cases v sh W o tr ctr x k body a site ps (Inv : nat -> pstate -> Prop) (Fin : pstate -> Prop) :
  (forall j a' ps, (j < k)%nat -> Inv j ps -> thalted (pl ps) = false ->
     let ps' := pexec v sh W o tr ctr body a' site (pboth (tset x (Z.of_nat j)) ps) in
     (Inv (S j) ps' /\ thalted (pl ps') = false) \/ (Fin ps' /\ thalted (pl ps') = true) \/ pvoid ps' = true) ->
  Inv 0%nat ps -> thalted (pl ps) = false ->
  let r := pexec v sh W o tr ctr (SFor x k body) a site ps in
  (Inv k r /\ thalted (pl r) = false) \/ (Fin r /\ thalted (pl r) = true) \/ pvoid r = true.
Proof.
  intros Hs Hi Hh r. subst r. rewrite px_for by exact Hh. change 0%Z with (Z.of_nat 0).
  apply (pfor_invariant _ x (size body) k Inv Fin); try assumption; [|lia].
  intros a' ps' H. apply pexec_void_mono, H.
Qed.

Lemma pstate_eta (ps : pstate) : ps = mkps (pl ps) (pa ps) (pw ps) (pacc ps) (pbad ps) (pvoid ps).
Proof. destruct ps; reflexivity. Qed.

(** Close the final goal [good_run W ctr r] with [r] a computed state. *)
Ltac pfinal :=
  unfold good_run; pleaf_simpl; rewrite ?app_nil_l in *; cbn [length] in *;
  repeat match goal with
  | H : nth_error ?o ?n = _ |- context [nth_error ?o ?n] => rewrite H
  end;
  cbn [oval_eqb negb orb andb] in *;
  repeat match goal with
  | |- context [match nth_error ?o ?n with _ => _ end] => destruct (nth_error o n) as [[| |?]|] eqn:?
  | |- context [(?x =? ?y)%Z] => destruct (Z.eqb_spec x y)
  end;
  cbn [oval_eqb negb orb andb] in *; zbool_hyps;
  first [ left; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity
        | exfalso; lia
        | right; repeat split; first [reflexivity | assumption | intros; reflexivity | intros; discriminate
                                      | repeat f_equal; lia | lia | pout_eq] ].
