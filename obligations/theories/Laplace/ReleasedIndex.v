(** * The released index read from the output prophecy, over the reals

    Report-noisy-max's alignment moves the noise of the answer whose index the
    program releases after the loop: the shift at the loop's sampling site
    compares the loop index with the value the output prophecy [o] (the left
    run's outputs) says is released ([released_at]).  Over the reals a
    released value is a real, and a prophecy is any list of them: the value
    at the released position is a whole number or it is not
    ([released_cases]).  A generated invariant states its phases for a
    whole-number prophecy [w] only (the phases read [w]
    as an integer, so their arithmetic stays with [lia]); when the prophecy
    is not a whole number the invariant holds trivially
    ([released_noint_absurd]) and the run is void at its output, which
    releases a whole number ([released_out_noint]).  [rreleased_final]
    decides that output check at a leaf of the whole run.  The measurable
    side is RunReleased.v. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealSym RealLoopSym.
Import ListNotations.
Local Open Scope Z_scope.

(** The prophecy's [n]-th released value is the real [r]. *)
Definition released_at (o : list roval) (n : nat) (r : R) : bool :=
  match nth_error o n with Some (ROVal w) => reqb r w | _ => false end.

(** The prophecy's [n]-th released value is not a whole number (or not a real, or absent). *)
Definition released_noint (o : list roval) (n : nat) : Prop :=
  match nth_error o n with Some (ROVal w) => forall z, w <> IZR z | _ => True end.

Lemma released_cases (o : list roval) (n : nat) :
  (exists z, nth_error o n = Some (ROVal (IZR z))) \/ released_noint o n.
Proof.
  unfold released_noint. destruct (nth_error o n) as [[| |w]|]; try (right; exact I).
  destruct (Req_dec w (IZR (rfloor w))) as [e|ne].
  - left. exists (rfloor w). rewrite <- e. reflexivity.
  - right. intros z ez. apply ne. rewrite ez, rfloor_IZR. reflexivity.
Qed.

Lemma released_int_same (o : list roval) (n : nat) (w w' : Z) :
  nth_error o n = Some (ROVal (IZR w)) -> nth_error o n = Some (ROVal (IZR w')) -> w' = w.
Proof. intros H H'. rewrite H in H'. injection H' as H'. symmetry. apply eq_IZR, H'. Qed.

Lemma released_noint_absurd (o : list roval) (n : nat) (w : Z) (P : Prop) :
  released_noint o n -> nth_error o n = Some (ROVal (IZR w)) -> P.
Proof. unfold released_noint. intros Hn H. rewrite H in Hn. destruct (Hn w eq_refl). Qed.

(** The output check of a whole number against a prophecy that is not one fails (in the form
    [rlsimpl] leaves it). *)
Lemma released_out_noint (o : list roval) (n : nat) (z : Z) :
  released_noint o n ->
  match nth_error o n with Some (ROVal r') => reqb (IZR z) r' | _ => false end = false.
Proof.
  unfold released_noint. destruct (nth_error o n) as [[| |w]|]; intros Hn; try reflexivity.
  unfold reqb. destruct (Req_EM_T (IZR z) w) as [e|_]; [|reflexivity].
  destruct (Hn z (eq_sym e)).
Qed.

(** A leaf of the whole run: the output check against the prophecy, decided. *)
Ltac rreleased_final :=
  rlsimpl;
  repeat match goal with
  | Hn : released_noint ?o ?n |- context [nth_error ?o ?n] => rewrite (released_out_noint o n _ Hn)
  | H : nth_error ?o ?n = _ |- context [nth_error ?o ?n] => rewrite H; rlsimpl
  | |- context [reqb (IZR ?a) (IZR ?b)] => destruct (reqb (IZR a) (IZR b)) eqn:?
  end.

(** One atom of a phase: over the integers by [lia], over the reals by [lra] (the hypotheses'
    [IZR] pushed down once per leaf, [rizr_push_hyps]); [rlatom_released] also reads an integer
    atom over the reals (a cost bound read with noisy slots). *)
Ltac rlatom_released_z :=
  first [ reflexivity | assumption
        | lazymatch goal with
          | |- (_ <= _)%Z => lia
          | |- (_ < _)%Z => lia
          | |- @eq Z _ _ => lia
          | |- not (@eq Z _ _) => lia
          | |- (_ <= _)%R => rizr_push; first [lra | rabs_split; lra]
          | |- (_ < _)%R => rizr_push; first [lra | rabs_split; lra]
          | |- @eq R _ _ => rizr_push; first [lra | rabs_split; lra]
          | |- _ => first [lia | rlra]
          end ].

Ltac rlatom_released :=
  first [ rlatom_released_z
        | lazymatch goal with
          | |- (_ <= _)%Z => rzr_goal; rlra0
          | |- (_ < _)%Z => rzr_goal; rlra0
          | |- @eq Z _ _ => rzr_goal; rlra0
          end ].

(** An invariant's phases: the first whose every atom holds by [atom] (never an atom tried on
    the whole disjunction); RealLoopSym.v's [rldisj_with] with the atom's tactic given whole,
    under its own name so that the prelude exporting both shadows neither. *)
Ltac rldisj_by atom :=
  lazymatch goal with
  | |- _ \/ _ => first [left; rsplit_conj; atom | right; rldisj_by atom]
  | |- _ => rsplit_conj; atom
  end.

(** First with integer atoms over the integers only (a phase's guards fail at once), then with
    the reals as well. *)
Ltac rldisj_released := first [rldisj_by rlatom_released_z | rldisj_by rlatom_released].

(** A hypothesis split into its conjunctions and disjunctions, and nothing else (the phases at
    the current index, a premise of a leaf's goal): [rbool_hyps] would scan every hypothesis
    again after each [destruct]. *)
Ltac rsplit_hyp H :=
  lazymatch type of H with
  | _ /\ _ => let A := fresh "Hp" in let B := fresh "Hp" in destruct H as [A B]; rsplit_hyp A; rsplit_hyp B
  | _ \/ _ => let A := fresh "Hp" in destruct H as [A|A]; rsplit_hyp A
  | _ => idtac
  end.

(** A leaf of one iteration under a whole-number prophecy [w] (the generated [intro] lemma
    takes it first, then the phases), the phases at the current index still a premise of the
    goal (the step reverts them).  The leaf's comparisons are read and [IZR] pushed down once
    ([rleaf_prep]; the generated step destructs them before it puts the computed state in the
    goal, [rleaf_pre]), a void leaf closed, and the leaf's way out chosen once: the invariant
    at the next index (the [intro] lemma applied once, its unification with the computed
    state done once), or halted in the post-condition, or none; whether the left run halted
    is read before either (a literal once computed).  Only then the phases at the current
    index are split, in the goal the [intro] lemma leaves (the next index's phases: small);
    each is contradictory over the integers, or proves the next phases with integer atoms
    over the integers, or is contradictory over the reals, or proves them reading integer
    atoms over the reals (the costliest try last). *)
Ltac rleaf_inv_released intro :=
  match goal with
  | Ho : nth_error _ _ = Some (ROVal (IZR ?w)) |- _ =>
      rleaf_prep; let Hp := fresh "Hp" in intros Hp;
      first [ rlvoid
            | left; split; [ | reflexivity ]; apply (intro w);
              [ rsplit_hyp Hp; first [ exfalso; lia | red; rldisj_by rlatom_released_z | exfalso; rlra
                                     | red; rldisj_by rlatom_released ]
              | first [reflexivity | assumption] ..]
            | right; left; split; [ | reflexivity ];
              rsplit_hyp Hp; first [exfalso; lia | rsplit_conj; rleaf_eq | exfalso; rlra]
            | exfalso; rsplit_hyp Hp; first [lia | rlra] ]
  end.

(** The invariant before the loop, under a whole-number prophecy [w]: the loop index is 0, so
    the released index is ahead of it or behind it ([0 <= w] or not). *)
Ltac rreleased_init w := first [rldisj_released | destruct (Z.le_gt_cases 0 w); rldisj_released].
