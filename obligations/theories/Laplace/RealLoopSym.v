(** * Symbolic execution of the aligned run over the reals across a loop, for every stream length

    What a generated proof of [good_run] under continuous noise is made of when
    the stream length is a variable [k]: the loop cannot unroll, so it is crossed
    with an invariant (RealAlignSteps.v's [loop_cases]), as the discrete route
    does with Coupling/AlignTactics.v.  A generated file states the invariant
    over the two runs' environments: a slot holding noise is a real, a slot
    that only ever holds whole numbers (a counter, the loop index, an answer
    read from the input) is [IZR z] for an integer [z], so that its arithmetic
    is decided by [lia] as in the discrete route; the input is [map IZR x].

    [rlsym E] runs the aligned run in [E : r = pexec ...] one statement at a
    time as RealSym.v's [rsym] does, with a normalisation that also reads the
    stream at the symbolic index [j] ([ridx_guard], [nth_map_IZR]) and folds
    sums, differences and products of [IZR] into one [IZR] ([rint_fold_in]), so
    that a whole-number slot stays of the form [IZR z]; it stops at a loop.
    [rleaf_inv intro] closes a leaf of one iteration (void, contradictory, the
    invariant again by the generated [NAME_inv_intro], or halted in the
    post-condition); [rlfinal] closes a leaf of the whole run ([good_run]).
    The tactics read the terms of the semantics only. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem InputRel.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealAlignSteps RealSym.
Import ListNotations.
Local Open Scope Z_scope.

(** ** The input, read at a symbolic index *)

Lemma nth_map_IZR (n : nat) (x : list Z) : nth n (map IZR x) 0%R = IZR (nth n x 0).
Proof. exact (map_nth IZR x 0 n). Qed.

Lemma ridx_guard (j k : nat) : (j < k)%nat ->
  ((0 <=? Z.of_nat j) && (Z.of_nat j <? Z.of_nat k))%bool = true.
Proof. intros H. apply Bool.andb_true_iff. split; [apply Z.leb_le|apply Z.ltb_lt]; lia. Qed.

Lemma rmin_IZR (a b : Z) : Rmin (IZR a) (IZR b) = IZR (Z.min a b).
Proof.
  unfold Rmin. destruct (Rle_dec (IZR a) (IZR b)) as [H|H].
  - apply le_IZR in H. rewrite Z.min_l by exact H. reflexivity.
  - assert (b < a) by (apply lt_IZR; lra). rewrite Z.min_r by lia. reflexivity.
Qed.

Lemma rmax_IZR (a b : Z) : Rmax (IZR a) (IZR b) = IZR (Z.max a b).
Proof.
  unfold Rmax. destruct (Rle_dec (IZR a) (IZR b)) as [H|H].
  - apply le_IZR in H. rewrite Z.max_r by exact H. reflexivity.
  - assert (b < a) by (apply lt_IZR; lra). rewrite Z.max_l by lia. reflexivity.
Qed.

Lemma rabs_IZR (a : Z) : Rabs (IZR a) = IZR (Z.abs a).
Proof. symmetry. apply abs_IZR. Qed.

(** A rounding down of a whole number divided by a positive constant ([//], [%] of a counter
    or an index) is the integer division. *)
Lemma rfloor_unique (r : R) (z : Z) : (IZR z <= r < IZR z + 1)%R -> rfloor r = z.
Proof.
  intros [H1 H2]. destruct (rfloor_spec r) as [G1 G2].
  assert (A : z < rfloor r + 1) by (apply lt_IZR; rewrite plus_IZR; lra).
  assert (B : rfloor r < z + 1) by (apply lt_IZR; rewrite plus_IZR; lra).
  lia.
Qed.

Lemma rfloor_div_IZR (a : Z) (d : positive) : rfloor (IZR a / IZR (Zpos d)) = a / Zpos d.
Proof.
  apply rfloor_unique.
  pose proof (Z.div_mod a (Zpos d) ltac:(lia)) as E.
  pose proof (Z.mod_pos_bound a (Zpos d) ltac:(lia)) as B.
  assert (Hd : (0 < IZR (Zpos d))%R) by (apply IZR_lt; lia).
  assert (Bm : (0 <= IZR (a mod Zpos d) < IZR (Zpos d))%R) by (split; [apply IZR_le | apply IZR_lt]; lia).
  assert (Ea : IZR a = (IZR (Zpos d) * IZR (a / Zpos d) + IZR (a mod Zpos d))%R)
    by (rewrite E at 1; rewrite plus_IZR, mult_IZR; reflexivity).
  rewrite Ea.
  replace ((IZR (Zpos d) * IZR (a / Zpos d) + IZR (a mod Zpos d)) / IZR (Zpos d))%R
    with (IZR (a / Zpos d) + IZR (a mod Zpos d) / IZR (Zpos d))%R by (field; lra).
  assert (M : (0 <= IZR (a mod Zpos d) / IZR (Zpos d) < 1)%R).
  { split.
    - unfold Rdiv. apply Rmult_le_pos; [lra|]. left. apply Rinv_0_lt_compat. exact Hd.
    - apply (Rmult_lt_reg_r (IZR (Zpos d))); [exact Hd|].
      unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r, Rmult_1_l by lra. lra. }
  lra.
Qed.

(** ** Normalising a state *)

(** Whole numbers as one [IZR]: a slot the invariant states as [IZR z] is found in that form. *)
Ltac rint_fold_in E :=
  repeat match type of E with
  | context [(IZR ?a + IZR ?b)%R] => rewrite <- (plus_IZR a b) in E
  | context [(IZR ?a - IZR ?b)%R] => rewrite <- (minus_IZR a b) in E
  | context [(IZR ?a * IZR ?b)%R] => rewrite <- (mult_IZR a b) in E
  | context [(- IZR ?a)%R] => rewrite <- (opp_IZR a) in E
  | context [Rmin (IZR ?a) (IZR ?b)] => rewrite (rmin_IZR a b) in E
  | context [Rmax (IZR ?a) (IZR ?b)] => rewrite (rmax_IZR a b) in E
  | context [Rabs (IZR ?a)] => rewrite (rabs_IZR a) in E
  | context [rfloor (IZR ?a / IZR (Zpos ?d))] => rewrite (rfloor_div_IZR a d) in E
  end.

(** The same in every hypothesis (the decided comparisons of a leaf), before [rz_hyps]. *)
Ltac rint_fold_hyps :=
  repeat match goal with
  | H : context [(IZR ?a + IZR ?b)%R] |- _ => rewrite <- (plus_IZR a b) in H
  | H : context [(IZR ?a - IZR ?b)%R] |- _ => rewrite <- (minus_IZR a b) in H
  | H : context [(IZR ?a * IZR ?b)%R] |- _ => rewrite <- (mult_IZR a b) in H
  | H : context [(- IZR ?a)%R] |- _ => rewrite <- (opp_IZR a) in H
  | H : context [Rmin (IZR ?a) (IZR ?b)] |- _ => rewrite (rmin_IZR a b) in H
  | H : context [Rmax (IZR ?a) (IZR ?b)] |- _ => rewrite (rmax_IZR a b) in H
  | H : context [Rabs (IZR ?a)] |- _ => rewrite (rabs_IZR a) in H
  | H : context [rfloor (IZR ?a / IZR (Zpos ?d))] |- _ => rewrite (rfloor_div_IZR a d) in H
  end.

(** A read of the stream at the loop's index [j] (with [j < k] in the context). *)
Ltac rint_read_in E :=
  repeat match type of E with
  | context [((0 <=? Z.of_nat ?j) && (Z.of_nat ?j <? Z.of_nat ?k))%bool] =>
      rewrite (ridx_guard j k) in E by lia
  | context [Z.to_nat (Z.of_nat ?j)] => rewrite (Nat2Z.id j) in E
  | context [nth ?n (map IZR ?x) 0%R] => rewrite (nth_map_IZR n x) in E
  end.

(** [IZR] of a sum, difference, product or opposite pushed down to the integers' atoms, in
    the goal or everywhere (nested: [IZR (a - (b + c))] too). *)
Ltac rizr_push := repeat (first [rewrite plus_IZR | rewrite minus_IZR | rewrite mult_IZR | rewrite opp_IZR]).

(** Whether a proposition is arithmetic over the reals (what [lra] reads): the state's
    equation and the other hypotheses are left alone. *)
Ltac rarith T :=
  lazymatch T with
  | Rle _ _ => idtac | Rlt _ _ => idtac | Rge _ _ => idtac | Rgt _ _ => idtac
  | @eq R _ _ => idtac
  | not ?A => rarith A
  | ?A /\ ?B => first [rarith A | rarith B]
  | ?A \/ ?B => first [rarith A | rarith B]
  end.

(** One [IZR] pushed down in [H], found by a syntactic match and rewritten at that instance:
    a [rewrite] of the bare law would try to unify its pattern with every [IZR] of [H]. *)
Ltac rizr_push1 H :=
  match type of H with
  | context [IZR (?a + ?b)] => rewrite (plus_IZR a b) in H
  | context [IZR (?a - ?b)] => rewrite (minus_IZR a b) in H
  | context [IZR (?a * ?b)] => rewrite (mult_IZR a b) in H
  | context [IZR (- ?a)] => rewrite (opp_IZR a) in H
  end.

Ltac rizr_push_goal :=
  repeat match goal with
  | |- context [IZR (?a + ?b)] => rewrite (plus_IZR a b)
  | |- context [IZR (?a - ?b)] => rewrite (minus_IZR a b)
  | |- context [IZR (?a * ?b)] => rewrite (mult_IZR a b)
  | |- context [IZR (- ?a)] => rewrite (opp_IZR a)
  end.

(** In every hypothesis arithmetic over the reals; [rizr_push_all] in the goal too. *)
Ltac rizr_push_hyps :=
  repeat match goal with
  | H : ?T |- _ => rarith T; rizr_push1 H; repeat rizr_push1 H
  end.

Ltac rizr_push_all := rizr_push_goal; rizr_push_hyps.

(** The integer part of a real: its [IZR] summands (a noise value counts 0), without the
    zeros (the integer is then the one the neighbour relation's facts name). *)
Ltac zadd x y := lazymatch x with 0%Z => y | _ => lazymatch y with 0%Z => x | _ => constr:((x + y)%Z) end end.
Ltac zsub x y :=
  lazymatch y with 0%Z => x | _ => lazymatch x with 0%Z => constr:((- y)%Z) | _ => constr:((x - y)%Z) end end.

Ltac zpart r :=
  lazymatch r with
  | IZR ?z => z
  | Rplus ?a ?b => let x := zpart a in let y := zpart b in zadd x y
  | Rminus ?a ?b => let x := zpart a in let y := zpart b in zsub x y
  | Ropp ?a => let x := zpart a in zsub 0%Z x
  | _ => constr:(0%Z)
  end.

(** A rounding down of a difference in which the noise cancels (a shift by the difference of
    two centres that read the same noisy slot, [l + q - (l + q')]): the integer it is. *)
Ltac rfloor_cancel_in E :=
  repeat match type of E with
  | context [rfloor ?r] =>
      let z := zpart r in rewrite (rfloor_of_eq r z) in E by (rizr_push; ring)
  end.

(** The rewrites after the computation; a second round only when they changed [E] (a
    computed test or index may open a redex), else it would recompute [E] for nothing. *)
Ltac rlnorm_rw E := rint_fold_in E; zground_in E; rfloor_int_in E; rfloor_cancel_in E; rint_read_in E.

Ltac rlnorm_in E :=
  rnorm_cbn E;
  tryif progress (rlnorm_rw E) then (rnorm_cbn E; rlnorm_rw E) else idtac;
  cbn [andb orb negb Bool.eqb nth Nat.add rread] in E.

(** A decided comparison, normalised as the state is. *)
Ltac rlnorm_hyp H := rnorm_cbn H; rint_fold_in H; rint_read_in H.

(** ** Comparisons of whole numbers, as integer facts (for [lia]) *)

Ltac rz_hyps :=
  repeat match goal with
  | H : (IZR ?a <= IZR ?b)%R |- _ =>
      lazymatch goal with _ : a <= b |- _ => fail | _ => pose proof (le_IZR _ _ H) end
  | H : (IZR ?a < IZR ?b)%R |- _ =>
      lazymatch goal with _ : a < b |- _ => fail | _ => pose proof (lt_IZR _ _ H) end
  | H : @eq R (IZR ?a) (IZR ?b) |- _ =>
      lazymatch goal with _ : a = b |- _ => fail | _ => pose proof (eq_IZR _ _ H) end
  | H : not (@eq R (IZR ?a) (IZR ?b)) |- _ =>
      lazymatch goal with _ : a <> b |- _ => fail
      | _ => assert (a <> b) by (intros He; apply H; rewrite He; reflexivity) end
  end.

(** The facts on the inputs (integer bounds and equalities), also over the reals (for [lra]). *)
Ltac rfacts_real :=
  repeat match goal with
  | H : (?lo <= ?e <= ?hi)%Z |- _ =>
      lazymatch goal with
      | _ : (IZR lo <= IZR e)%R |- _ => fail
      | _ => pose proof (IZR_le _ _ (proj1 H)); pose proof (IZR_le _ _ (proj2 H))
      end
  | H : @eq Z ?a ?b |- _ =>
      lazymatch goal with _ : @eq R (IZR a) (IZR b) |- _ => fail | _ => pose proof (f_equal IZR H) end
  end.

(** Absolute values of reals by cases, for [lra]. *)
Ltac rabs_split :=
  repeat match goal with
  | |- context [Rabs ?t] => unfold Rabs; destruct (Rcase_abs t)
  | H : context [Rabs ?t] |- _ => unfold Rabs in H; destruct (Rcase_abs t)
  end.

(** The integer facts (the invariant's integer atoms, the inputs' relation), also over the
    reals: an atom over the reals may need them (a cost bound reading [IZR acc]). *)
Ltac rz_lift :=
  repeat match goal with
  | H : (?a <= ?b)%Z |- _ =>
      lazymatch goal with _ : (IZR a <= IZR b)%R |- _ => fail | _ => pose proof (IZR_le _ _ H) end
  | H : (?a < ?b)%Z |- _ =>
      lazymatch goal with _ : (IZR a < IZR b)%R |- _ => fail | _ => pose proof (IZR_lt _ _ H) end
  | H : @eq Z ?a ?b |- _ =>
      lazymatch goal with _ : @eq R (IZR a) (IZR b) |- _ => fail | _ => pose proof (f_equal IZR H) end
  end.

(** Absolute values of integers by cases, so that their facts reach [lra] (a triangle
    inequality between costs and distances). *)
Ltac zabs_split :=
  repeat match goal with
  | |- context [Z.abs ?t] => destruct (Z.abs_spec t) as [[? Hz]|[? Hz]]; rewrite Hz in *; clear Hz
  | _ : context [Z.abs ?t] |- _ => destruct (Z.abs_spec t) as [[? Hz]|[? Hz]]; rewrite Hz in *; clear Hz
  end.

Ltac rlra0 := rz_lift; rizr_push_all; rabs_split; lra.

(** The second try only when an integer's absolute value was split (else it is the first
    again). *)
Ltac rlra := first [rlra0 | progress zabs_split; rlra0].

(** An integer goal read over the reals: a fact it needs may be an atom over the reals (a
    cost bound stated with the distance of two noisy slots). *)
Ltac rzr_goal :=
  lazymatch goal with
  | |- (_ <= _)%Z => apply le_IZR
  | |- (_ < _)%Z => apply lt_IZR
  | |- @eq Z _ _ => apply eq_IZR
  end.

(** A contradiction among the comparisons decided so far and the facts on the inputs. *)
Ltac rlcontra :=
  exfalso; rbool_hyps;
  first [ rlra | rint_fold_hyps; rz_hyps; lia | match goal with H : ?x <> ?y |- _ => apply H; rlra end ].

(** ** A conditional (RealSym.v's [rif], with this file's normalisation) *)

(** A run's decision of [c], computed on its state [L] alone: destructed as it is, the
    decision [rbeval (renv (pl ps)) c] is a term over the whole state of both runs, which
    every normalisation of the decision then reads again. *)
Ltac rlcond L c :=
  let t := constr:(rbeval (renv L) c) in
  eval cbn [renv rbeval raeval rread nth length app Nat.add andb orb negb Bool.eqb] in t.

(** When the runs decide differently and a branch is not quiet, the case must be
    contradictory: from the two decisions and the facts, without the state's equation [E]
    (an integer's absolute value in its cost would be split for nothing, [zabs_split]). *)
Ltac rlif E v sh W o tr ctr c s1 s2 a site ps :=
  lazymatch ps with mkps ?L ?A _ _ _ _ =>
  let cl := rlcond L c in let ca := rlcond A c in
  let Hl := fresh "Hl" in let Ha := fresh "Ha" in
  destruct cl eqn:Hl; destruct ca eqn:Ha;
  [ rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption)
  | let q := eval vm_compute in (quiet s1 && quiet s2) in
    lazymatch q with
    | false => first [ rlnorm_hyp Hl; rlnorm_hyp Ha; clear E; rlcontra
                     | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption) ]
    | true => rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption)
    end
  | let q := eval vm_compute in (quiet s1 && quiet s2) in
    lazymatch q with
    | false => first [ rlnorm_hyp Hl; rlnorm_hyp Ha; clear E; rlcontra
                     | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption) ]
    | true => rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption)
    end
  | rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption) ];
  rlnorm_hyp Hl; rlnorm_hyp Ha; rlnorm_in E
  end.

(** One statement; a loop is left to [loop_cases] (no rule for [SFor]). *)
Ltac rlsym_step E :=
  match type of E with
  | context [pexec ?v ?sh ?W ?o ?tr ?ctr ?s ?a ?site (mkps ?L ?A ?w ?acc ?b ?vd)] =>
      let ps := constr:(mkps L A w acc b vd) in
      lazymatch s with
      | SSeq _ _ => rewrite (px_seq v sh W o tr ctr _ _ a site ps) in E by reflexivity
      | SSkip => rewrite (px_skip v sh W o tr ctr a site ps) in E
      | SAssign _ _ => rewrite (px_assign v sh W o tr ctr _ _ a site ps) in E by reflexivity; rlnorm_in E
      | SSample _ (DGeom _ _ _) =>
          rewrite (px_sample v sh W o tr ctr _ _ _ _ a site ps) in E by reflexivity; rlnorm_in E
      | SOut _ => rewrite (px_out v sh W o tr ctr _ a site ps) in E by reflexivity; rlnorm_in E
      | STop => rewrite (px_top v sh W o tr ctr a site ps) in E by reflexivity; rlnorm_in E
      | SBot => rewrite (px_bot v sh W o tr ctr a site ps) in E by reflexivity; rlnorm_in E
      | SStop => rewrite (px_stop v sh W o tr ctr a site ps) in E by reflexivity; rlnorm_in E
      | SIf ?c ?s1 ?s2 => rlif E v sh W o tr ctr c s1 s2 a site ps
      end
  end.

Ltac rlsplit E :=
  match type of E with
  | context [match nth_error ?tr ?n with _ => _ end] =>
      first [ match goal with H : nth_error tr n = _ |- _ => rewrite H in E end
            | destruct (nth_error tr n) as [[|]|] eqn:? ]
  | context [if ?b then _ else _] =>
      first [ match goal with H : b = ?c |- _ => lazymatch c with true => idtac | false => idtac end;
                                                  rewrite H in E end
            | destruct b eqn:? ]
  end; rlnorm_in E.

(** Whether a void flag (a chain of [||]) holds a literal [true]. *)
Ltac rhas_true t := lazymatch t with true => idtac | ?a || ?b => first [rhas_true b | rhas_true a] end.

Ltac rlvoid_close E :=
  rewrite E; repeat apply pexec_void_mono; cbn [pvoid]; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity.

(** A void path dropped at once: the step's goal ends in [pvoid _ = true], [good_run]'s
    begins with it. *)
Ltac rlprune E :=
  lazymatch type of E with
  | context [mkps _ _ _ _ _ ?vd] =>
      tryif rhas_true vd then try (first [right; right; rlvoid_close E | left; rlvoid_close E]) else idtac
  | _ => idtac
  end.

(** A case of the state ([rlsplit]: the branch prophecy a shift reads, a computed test) is
    split before the next statement runs: run first, a conditional's decisions and the
    state it leaves carry the [match] on the prophecy, whose normalisation each later
    statement repeats, and every case of the conditional splits it again
    (adaptivesparsevector's step: [rlsym] 10.9 s, its leaves 5.8 s and its [Qed] 5.4 s of
    coqc CPU with the statement first, 5.2 s, 1.0 s and 1.7 s with the split first). *)
Ltac rlsym E := repeat (first [rlsplit E; rlprune E | rlsym_step E; rlprune E]).

(** ** The leaves *)

Ltac rlsimpl := cbn [pl pa pw pacc pbad pvoid renv rout rtr rhalted rfault roval_eqb] in *.

Ltac rlvoid := right; right; cbn [pvoid]; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity.

(** Released reals equal (RealSym.v's [rout_eq]), each by [ra] (this file's [lra]). *)
Ltac rlout_eq_with ra :=
  lazymatch goal with
  | |- _ ++ _ = _ ++ _ => f_equal; rlout_eq_with ra
  | |- _ :: _ = _ :: _ => f_equal; rlout_eq_with ra
  | |- ROVal _ = ROVal _ => apply (f_equal ROVal); ra
  | |- @eq R _ _ => ra
  | |- _ => first [reflexivity | ra]
  end.

(** An output comparison both runs agree on. *)
Ltac rlreqb_goal_with ra :=
  repeat match goal with
  | |- context [reqb ?x ?y] => replace (reqb x y) with true by (symmetry; apply reqb_true; ra)
  end.

(** One atom of an invariant or a post-condition: over the integers by [lia], over the
    reals by [ra] ([ra0] for an integer goal read over the reals). *)
Ltac rlatom_with ra ra0 :=
  first [ reflexivity | assumption | intros; reflexivity | intros; discriminate
        | lazymatch goal with
          | |- (_ <= _)%Z => first [lia | rzr_goal; ra0]
          | |- (_ < _)%Z => first [lia | rzr_goal; ra0]
          | |- @eq Z _ _ => first [lia | rzr_goal; ra0]
          | |- @eq (list roval) _ _ => rlout_eq_with ra
          | |- _ => first [lia | ra | rlout_eq_with ra]
          end ].

(** A conjunction split into its atoms, and nothing else: [split] would also try [eq_refl] on
    an equation atom, a unification of the two sides (of two output lists, of two reals) that
    may unfold far before it fails; the atom's own tactic decides it. *)
Ltac rsplit_conj := repeat match goal with |- _ /\ _ => split | |- True => exact I end.

(** An invariant's phases: the first whose every atom holds. *)
Ltac rldisj_with ra ra0 := lazymatch goal with
  | |- _ \/ _ => first [left; rsplit_conj; rlatom_with ra ra0 | right; rldisj_with ra ra0]
  | |- _ => rsplit_conj; rlatom_with ra ra0
  end.

Ltac rleaf_eq_with ra ra0 := first [rlatom_with ra ra0 | lazymatch goal with |- _ \/ _ => rldisj_with ra ra0 end].

(** On any goal: each [lra] lifts and pushes the hypotheses itself. *)
Ltac rlout_eq := rlout_eq_with rlra.
Ltac rlatom := rlatom_with rlra rlra0.
Ltac rleaf_eq := rleaf_eq_with rlra rlra0.

(** In a leaf, once [rleaf_prep] lifted and pushed the hypotheses: [lra] after pushing the
    goal alone ([rlra0], [rlra] would scan every hypothesis again for each atom). *)
Ltac rlra0_leaf := rizr_push_goal; rabs_split; lra.
Ltac rlra_leaf := first [rlra0_leaf | zabs_split; rlra0].

(** Absolute values and L1 distances read so far are non-negative (over the reals, [lra]
    knows it only if told). *)
Ltac rnonneg :=
  repeat match goal with
  | |- context [Z.abs ?t] =>
      lazymatch goal with _ : (0 <= Z.abs t)%Z |- _ => fail | _ => pose proof (Z.abs_nonneg t) end
  | _ : context [Z.abs ?t] |- _ =>
      lazymatch goal with _ : (0 <= Z.abs t)%Z |- _ => fail | _ => pose proof (Z.abs_nonneg t) end
  | |- context [l1pre ?i ?a ?b] =>
      lazymatch goal with _ : (0 <= l1pre i a b)%Z |- _ => fail
      | _ => assert (0 <= l1pre i a b)%Z by apply l1_nonneg end
  | _ : context [l1pre ?i ?a ?b] |- _ =>
      lazymatch goal with _ : (0 <= l1pre i a b)%Z |- _ => fail
      | _ => assert (0 <= l1pre i a b)%Z by apply l1_nonneg end
  end.

Ltac rleaf_prep :=
  rbool_hyps; rint_fold_hyps; rz_hyps; rnonneg; rlsimpl; rz_lift; rizr_push_hyps;
  rlreqb_goal_with rlra_leaf; cbn [negb orb andb] in *.

(** The first part of [rleaf_prep], on a leaf whose goal still reads [r] (before [subst r]
    puts the computed state in it): a [destruct] of a hypothesis re-types the goal, which
    then is the whole state of both runs, once per destructed hypothesis. *)
Ltac rleaf_pre := rbool_hyps; rint_fold_hyps; rz_hyps.

(** A leaf of one iteration: void, contradictory, the invariant at the next index (by the
    generated [intro] lemma), or halted in the post-condition. *)
Ltac rleaf_inv intro :=
  rleaf_prep;
  first [ rlvoid
        | left; split; [ apply intro; try red; rsplit_conj; rleaf_eq_with rlra_leaf rlra0_leaf | reflexivity ]
        | right; left; split; [rsplit_conj; rleaf_eq_with rlra_leaf rlra0_leaf | reflexivity]
        | exfalso; first [lia | rlra_leaf] ].

(** A leaf of the whole run: [good_run C ctr r] with [r] computed. *)
Ltac rlfinal :=
  unfold good_run; rleaf_prep; rewrite ?app_nil_l in *;
  first [ left; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity
        | exfalso; first [lia | rlra_leaf]
        | right; rsplit_conj; rleaf_eq_with rlra_leaf rlra0_leaf ].
