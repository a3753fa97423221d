(** * Symbolic execution of the aligned run over the reals, for a fixed stream length

    A generated file proves [good_run] (RealAlignRun.v) of the aligned run of
    a program whose loops have a fixed count, under continuous noise: the
    loop unrolls, so no invariant is needed.  [rsym E] runs the aligned run in
    a hypothesis [E : r = pexec ...] one statement at a time (RealAlignSteps.v's
    [px_*]), normalising the state after each ([rnorm_in]: the environments
    computed, a rounding down of an integer-valued real read as that integer,
    the ground integer tests decided) and splitting on every condition and
    prophecy entry, dropping at once the cases the two runs' comparisons
    contradict ([lra]).  [rfinal] closes the leaves: void, contradictory, or
    not bad with the same outputs and a cost within the claim ([lra] on the
    released reals, [lia] on the cost).  The tactics read the terms of the
    semantics only, never the way a generator prints them. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem InputRel.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealAlignSteps.
Import ListNotations.
Local Open Scope Z_scope.

(** ** Integer-valued reals read back as integers *)

Lemma rfloor_of_eq (r : R) (z : Z) : r = IZR z -> rfloor r = z.
Proof. intros ->. apply rfloor_IZR. Qed.

(** The integer a real built of [IZR], sums, differences, products and opposites stands
    for; fails on any other real (a noise value). *)
Ltac zterm r :=
  lazymatch r with
  | IZR ?z => z
  | R0 => constr:(0%Z)
  | R1 => constr:(1%Z)
  | Rplus ?a ?b => let x := zterm a in let y := zterm b in constr:((x + y)%Z)
  | Rminus ?a ?b => let x := zterm a in let y := zterm b in constr:((x - y)%Z)
  | Rmult ?a ?b => let x := zterm a in let y := zterm b in constr:((x * y)%Z)
  | Ropp ?a => let x := zterm a in constr:((- x)%Z)
  end.

Ltac izr_push := rewrite ?plus_IZR, ?minus_IZR, ?mult_IZR, ?opp_IZR.

(** Every [rfloor r] of [E] whose [r] is integer-valued, replaced by the integer. *)
Ltac rfloor_int_in E :=
  repeat match type of E with
  | context [rfloor ?r] =>
      let z := zterm r in
      rewrite (rfloor_of_eq r z) in E by (izr_push; ring)
  end.

(** Ground integer tests and conversions, computed. *)
Ltac zground_in E :=
  repeat match type of E with
  | context [Z.succ ?z] =>
      let b := eval vm_compute in (Z.succ z) in
      lazymatch b with Zpos _ => change (Z.succ z) with b in E | Z0 => change (Z.succ z) with b in E end
  | context [Z.of_nat ?n] =>
      let b := eval vm_compute in (Z.of_nat n) in
      lazymatch b with Zpos _ => change (Z.of_nat n) with b in E | Z0 => change (Z.of_nat n) with b in E end
  | context [Z.to_nat ?z] =>
      let b := eval vm_compute in (Z.to_nat z) in
      lazymatch b with O => change (Z.to_nat z) with b in E | S _ => change (Z.to_nat z) with b in E end
  | context [(?x <=? ?y)%Z] =>
      let b := eval vm_compute in (x <=? y)%Z in
      lazymatch b with true => change (x <=? y)%Z with true in E | false => change (x <=? y)%Z with false in E end
  | context [(?x <? ?y)%Z] =>
      let b := eval vm_compute in (x <? y)%Z in
      lazymatch b with true => change (x <? y)%Z with true in E | false => change (x <? y)%Z with false in E end
  | context [(?W mod Z.pos ?n =? 0)%Z] =>
      let b := eval vm_compute in (W mod Z.pos n =? 0)%Z in change (W mod Z.pos n =? 0)%Z with b in E
  | context [weight ?W ?n ?d] => let b := eval vm_compute in (weight W n d) in change (weight W n d) with b in E
  end.

(** ** Normalising a state *)

Ltac rnorm_cbn E :=
  unfold pboth, passign, psample, pemit, pvoid_if, tr_ok, out_ok, rset, remit, rbranch, rstop in E;
  cbn [rexec rfor pboth passign psample pemit pvoid_if tr_ok out_ok rset remit rbranch rstop
       pl pa pw pacc pbad pvoid renv rout rtr rhalted rfault
       rwrite raeval rbeval rread nth length app Nat.add size nsites quiet andb orb negb Bool.eqb] in E.

Ltac rnorm_in E :=
  rnorm_cbn E; zground_in E; rfloor_int_in E; rnorm_cbn E; zground_in E; rfloor_int_in E;
  cbn [andb orb negb Bool.eqb nth Nat.add rread] in E.

(** ** Comparisons as propositions *)

Ltac rbool_hyps :=
  repeat match goal with
  | H : (_ || _)%bool = true |- _ => apply Bool.orb_true_iff in H
  | H : (_ || _)%bool = false |- _ => apply Bool.orb_false_iff in H
  | H : (_ && _)%bool = true |- _ => apply Bool.andb_true_iff in H
  | H : (_ && _)%bool = false |- _ => apply Bool.andb_false_iff in H
  | H : negb _ = true |- _ => apply Bool.negb_true_iff in H
  | H : negb _ = false |- _ => apply Bool.negb_false_iff in H
  | H : _ /\ _ |- _ => destruct H
  | H : rleb _ _ = true |- _ => apply rleb_true in H
  | H : rleb _ _ = false |- _ => apply rleb_false in H
  | H : rltb _ _ = true |- _ => apply rltb_true in H
  | H : rltb _ _ = false |- _ => apply rltb_false in H
  | H : reqb _ _ = true |- _ => apply reqb_true in H
  | H : reqb _ _ = false |- _ => apply reqb_false in H
  | H : _ \/ _ |- _ => destruct H
  end.

Ltac izr_push_all := rewrite ?plus_IZR, ?minus_IZR, ?mult_IZR, ?opp_IZR in *.

(** A contradiction among the comparisons decided so far (and the facts on the inputs). *)
Ltac rcontra :=
  exfalso; rbool_hyps; izr_push_all; first
    [ lra
    | match goal with H : ?x <> ?y |- _ => apply H; lra end ].

(** ** A conditional

    Split on the two runs' decisions.  When they differ and a branch is not quiet, the
    case must be contradictory; when they differ and both are quiet, each run executes its
    own branch alone. *)
Ltac rif E v sh W o tr ctr c s1 s2 a site ps :=
  let Hl := fresh "Hl" in let Ha := fresh "Ha" in
  destruct (rbeval (renv (pl ps)) c) eqn:Hl; destruct (rbeval (renv (pa ps)) c) eqn:Ha;
  [ rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption)
  | let q := eval vm_compute in (quiet s1 && quiet s2) in
    lazymatch q with
    | false => first [ rnorm_cbn Hl; rnorm_cbn Ha; rcontra
                     | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption) ]
    | true => rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps true) in E by (reflexivity || assumption)
    end
  | let q := eval vm_compute in (quiet s1 && quiet s2) in
    lazymatch q with
    | false => first [ rnorm_cbn Hl; rnorm_cbn Ha; rcontra
                     | rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption) ]
    | true => rewrite (px_if_diff v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption)
    end
  | rewrite (px_if_same v sh W o tr ctr c s1 s2 a site ps false) in E by (reflexivity || assumption) ];
  rnorm_cbn Hl; rnorm_cbn Ha; rnorm_in E.

(** One statement of the aligned run in [E : r = pexec ...], on a computed state; a loop
    ([pfor], left folded by [rnorm_cbn]) one iteration at a time, once its state is
    computed ([pfor_unroll]: computing [pfor] would nest each iteration's unexecuted
    state inside the next one's, and the kernel re-checks every copy). *)
Ltac rsym_step E :=
  match type of E with
  | context [pexec ?v ?sh ?W ?o ?tr ?ctr ?s ?a ?site (mkps ?L ?A ?w ?acc ?b ?vd)] =>
      let ps := constr:(mkps L A w acc b vd) in
      lazymatch s with
      | SSeq _ _ => rewrite (px_seq v sh W o tr ctr _ _ a site ps) in E by reflexivity
      | SSkip => rewrite (px_skip v sh W o tr ctr a site ps) in E
      | SAssign _ _ => rewrite (px_assign v sh W o tr ctr _ _ a site ps) in E by reflexivity; rnorm_in E
      | SSample _ (DGeom _ _ _) => rewrite (px_sample v sh W o tr ctr _ _ _ _ a site ps) in E by reflexivity; rnorm_in E
      | SOut _ => rewrite (px_out v sh W o tr ctr _ a site ps) in E by reflexivity; rnorm_in E
      | STop => rewrite (px_top v sh W o tr ctr a site ps) in E by reflexivity; rnorm_in E
      | SBot => rewrite (px_bot v sh W o tr ctr a site ps) in E by reflexivity; rnorm_in E
      | SStop => rewrite (px_stop v sh W o tr ctr a site ps) in E by reflexivity; rnorm_in E
      | SFor _ _ _ => rewrite (px_for v sh W o tr ctr _ _ _ a site ps) in E by reflexivity; rnorm_in E
      | SIf ?c ?s1 ?s2 => rif E v sh W o tr ctr c s1 s2 a site ps
      end
  | context [pexec _ _ _ _ _ _ _ _ _ (mkps _ _ _ _ _ _)] => rewrite pexec_halted in E by reflexivity; rnorm_in E
  | context [pfor ?step ?x ?sb ?a ?i ?n (mkps ?L ?A ?w ?acc ?b ?vd)] =>
      let ps := constr:(mkps L A w acc b vd) in
      lazymatch n with
      | O => rewrite (pfor_end step x sb a i ps) in E
      | S ?m =>
          first [ rewrite (pfor_unroll step x sb a i m ps) in E by reflexivity
                | rewrite (pfor_halted step x sb a i n ps) in E by reflexivity ];
          rnorm_in E
      end
  end.

(** A prophecy entry the shift reads, or a condition left in the state: split on it. *)
Ltac rsplit E :=
  match type of E with
  | context [match nth_error ?tr ?n with _ => _ end] => destruct (nth_error tr n) as [[|]|] eqn:?
  | context [if ?b then _ else _] => destruct b eqn:?
  end; rnorm_in E.

Ltac rprune E :=
  lazymatch type of E with
  | context [mkps _ _ _ _ _ (_ || true)] =>
      try (subst; unfold good_run; left; cbn [pvoid]; rewrite ?Bool.orb_true_r; reflexivity)
  | _ => idtac
  end.

Ltac rsym E := repeat (first [rsym_step E | rsplit E; rprune E]).

(** ** The leaves *)

(** Released reals equal: the same prefix, then values equal by [lra]. *)
Ltac rout_eq :=
  lazymatch goal with
  | |- _ ++ _ = _ ++ _ => f_equal; rout_eq
  | |- _ :: _ = _ :: _ => f_equal; rout_eq
  | |- ROVal _ = ROVal _ => f_equal; izr_push_all; lra
  | |- _ => first [reflexivity | izr_push_all; lra]
  end.

(** An output comparison both runs agree on. *)
Ltac reqb_goal :=
  repeat match goal with
  | |- context [reqb ?x ?y] => replace (reqb x y) with true by (symmetry; apply reqb_true; izr_push_all; lra)
  end.

Ltac rfinal :=
  unfold good_run; cbn [pl pa pw pacc pbad pvoid renv rout rtr rhalted rfault roval_eqb] in *;
  rewrite ?app_nil_l in *;
  cbn [length] in *;
  first [ left; rewrite ?Bool.orb_true_r, ?Bool.orb_true_l; reflexivity
        | rcontra
        | right; reqb_goal; cbn [negb orb andb]; repeat split;
          first [reflexivity | intros; reflexivity | intros; discriminate | rout_eq | lia] ].

(** ** The inputs of a fixed length, as variables *)

Lemma rel_each_cons (lo hi a b : Z) (l l' : list Z) :
  rel_each lo hi (a :: l) (b :: l') <-> lo <= b - a <= hi /\ rel_each lo hi l l'.
Proof.
  unfold rel_each. split; [intros H; inversion H; subst; split; assumption|].
  intros [H1 H2]. constructor; assumption.
Qed.

Lemma rel_each_nil (lo hi : Z) : rel_each lo hi [] [] <-> True.
Proof. unfold rel_each. split; [intros _; exact I|intros _; constructor]. Qed.

Lemma rel_each_length (lo hi : Z) (l l' : list Z) : rel_each lo hi l l' -> length l' = length l.
Proof. unfold rel_each. intros H. induction H as [|a b l l' _ _ IH]; cbn [length]; congruence. Qed.

(** [nb_input npub k (rel_each lo hi) x x'] with [k] fixed: both inputs have [npub + k]
    entries, so a proof destructs them into variables; [rfacts_each] then reads the answers'
    differences off the relation, as integer facts and as real ones (for [lra]). *)
Lemma nb_input_each_length (npub k : nat) (lo hi : Z) (x x' : list Z) :
  nb_input npub k (rel_each lo hi) x x' -> length x = (npub + k)%nat /\ length x' = (npub + k)%nat.
Proof.
  intros [Hl [Hp Hr]]. split; [exact Hl|].
  apply rel_each_length in Hr. rewrite !skipn_length in Hr.
  assert (Hf : length (firstn npub x) = length (firstn npub x')) by (rewrite Hp; reflexivity).
  rewrite !firstn_length in Hf. lia.
Qed.

Ltac rfacts_each :=
  repeat match goal with
  | H : rel_each _ _ (_ :: _) (_ :: _) |- _ => apply rel_each_cons in H; destruct H
  | H : rel_each _ _ [] [] |- _ => clear H
  | H : (?lo <= ?e <= ?hi)%Z |- _ =>
      lazymatch goal with
      | _ : (IZR lo <= IZR e)%R |- _ => fail
      | _ => pose proof (IZR_le _ _ (proj1 H)); pose proof (IZR_le _ _ (proj2 H))
      end
  end.
