(** AboveThreshold on one answer with continuous Laplace noise, proved ε-DP for every ε > 0
    and every event on outputs ([rdp_prog]) by [rdp_of_aligned]: the aligned run is void or
    good ([at1_good], above_threshold_one_query_steps.v) and the pieces of the alignment are
    measurable, from the shifts computed on a tape (the threshold's by 1, the answer's by
    1 + q - q' when the left run's test passes, else 0) and TapeFibers.v's lemmas: no hand
    proof of measurability. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealAlignSteps.
From Obligations.Laplace Require Import TapeMeasure ProgAlign TapeFibers RealAlignSound.
From Certs Require Import above_threshold_one_query_steps.
Import ListNotations.
Local Open Scope Z_scope.

(** Neighbours: the same threshold, answers at most 1 apart. *)
Definition at1_nb (x x' : list Z) : Prop :=
  exists T q q', x = [T; q] /\ x' = [T; q'] /\ Z.abs (q - q') <= 1.

Lemma rfloor_add_sub (x : R) (z : Z) : rfloor (x + IZR z - x) = z.
Proof. replace (x + IZR z - x)%R with (IZR z) by ring. apply rfloor_IZR. Qed.

(** The aligned run's shifts on a tape: 1, and 1 + q - q' exactly when the left run's test passes. *)
Lemma at1_zshift (T q q' : Z) (v : list R) :
  zshift at1 2 4 true at1_shf [T; q] [T; q'] v =
  [1; if rleb (IZR T + rtape v 0) (IZR q + rtape v 1) then 1 + q - q' else 0].
Proof.
  unfold zshift, aligned_run, left_run, proph_tr, at1.
  cbn [size Nat.add seq map rexec rhalted rinit repeat app renv rbeval raeval rread nth rset rwrite rout rtr
       rbranch remit].
  cbn [pexec pinit pl rhalted psample renv rread raeval nth rwrite rset].
  destruct (rleb (IZR T + rtape v 0) (IZR q + rtape v 1)) eqn:Hb;
  cbn [at1_shf rout rtr remit rbranch app nth_error pexec pinit rinit repeat map size nsites Nat.add pl pa pw
       psample rhalted renv rread raeval rbeval nth rwrite rset pemit pboth upd Nat.eqb].
  all: rewrite ?Hb; repeat match goal with |- context [rleb ?a ?b] => destruct (rleb a b) end;
    cbn [Bool.eqb pexec pemit pboth pw pl upd Nat.eqb rhalted rbranch rset rinit remit];
    rewrite !rfloor_add_sub; try reflexivity.
  all: rewrite <- (rfloor_IZR (1 + q - q')), minus_IZR, plus_IZR; reflexivity.
Qed.

Theorem at1_dp : rdp_prog at1_nb at1 2 1.
Proof.
  replace 1%R with (IZR 4 / IZR 4)%R by field.
  rewrite Rstruct.RdivE by (apply (ssrbool.introN eqtype.eqP); change (IZR 4 <> IZR 0); apply not_0_IZR; discriminate).
  apply (@rdp_of_aligned at1_nb at1 2 4 4 true at1_shf); [reflexivity | lia | |].
  - intros x x' (T & q & q' & -> & -> & Hq) v o tr. exact (at1_good T q q' v o tr Hq).
  - intros e x x' z (T & q & q' & -> & -> & _).
    revert z. change (mfibers (fun w : measure.Measurable.sort (tape Rstruct.real_realType (seq.size (scales e at1))) =>
                       zshift at1 2 4 true at1_shf [T; q] [T; q'] (tl w))).
    eapply mfibers_ext; [intros w; apply at1_zshift|].
    apply mfibers_cons; [apply mfibers_cst|]. apply mfibers_cons; [|apply mfibers_cst].
    apply mfibers_if; [|apply mfibers_cst..].
    apply measurable_rleb; apply measurable_rplus; (apply measurable_rcst || apply measurable_rtape).
Qed.

Local Set Printing Width 100000.
Print Assumptions at1_dp.
