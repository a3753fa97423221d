(** AboveThreshold on one answer with continuous noise: the aligned run is void or good for
    every input pair, real tape and prophecy, proved with RealAlignSteps.v's step lemmas
    (sampling, a conditional both runs decide alike or differently) and [lra] on the real
    comparisons — the hypothesis [Hgood] of [rdp_of_aligned], in the form a generator would
    discharge it.  (The measurability hypothesis is not proved here.)

    T_bar := T + Lap(2/ε); eta := q + Lap(4/ε); release 1 if T_bar <= eta, else 0.
    Slots: 0 T_bar, 1 eta, 2 T, 3 q.  The shift: the threshold by 1; the answer by
    1 + q - q' when the branch prophecy says the test passes, else 0; cost at most 4 in units
    of ε/4 (ε-DP). *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require Import TapeSem.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealAlignSteps.
Import ListNotations.
Local Open Scope Z_scope.

Definition at1 : stmt :=
  SSeq (SSample 0 (DGeom 2 1 (AVar 2)))
       (SSeq (SSample 1 (DGeom 4 1 (AVar 3)))
             (SIf (BLe (AVar 0) (AVar 1)) (SOut (AConst 1)) (SOut (AConst 0)))).

Definition at1_shf (o : list roval) (tr : list bool) (site : nat) (L A : rstate) : Z :=
  match site with
  | O => 1
  | S O => match nth_error tr 0 with
           | Some true => rfloor (1 + rread (renv L) 3 - rread (renv A) 3)%R
           | _ => 0
           end
  | _ => 0
  end.

Lemma reqb_refl (r : R) : reqb r r = true.
Proof. apply reqb_true. reflexivity. Qed.

(** A leaf: the release, then void (the prophecy disagrees) or good (same outputs, cost). *)
Ltac leaf :=
  rewrite px_out by reflexivity;
  unfold good_run, pemit, pvoid_if, tr_ok, out_ok, rset, remit, rbranch;
  cbn [pl pa pw pacc pbad pvoid renv rout rtr rwrite raeval rread nth length roval_eqb app];
  repeat match goal with H : nth_error _ _ = _ |- _ => rewrite H end;
  rewrite ?reqb_refl; cbn [Bool.eqb andb orb negb];
  right; repeat split; try reflexivity; lia.

Lemma at1_good (T q q' : Z) (v : nat -> R) o tr : Z.abs (q - q') <= 1 ->
  good_run 4 true (pexec v (at1_shf o tr) 4 o tr true at1 0 0 (pinit 2 [T; q] [T; q'] v)).
Proof.
  intros Hq. unfold at1.
  rewrite px_seq, px_sample by reflexivity. rewrite px_seq, px_sample by reflexivity.
  unfold psample, pinit, rinit.
  cbn [at1_shf psample pl pa pw pacc pbad pvoid pinit rinit renv rread rset rwrite repeat app map nth
       raeval size nsites Nat.add].
  change (weight 4 2 1) with 2. change (weight 4 4 1) with 1.
  change (4 mod Z.pos 2 =? 0) with true. change (4 mod Z.pos 4 =? 0) with true.
  cbn [negb orb].
  unfold rset. cbn [rwrite renv rout rtr rhalted rfault].
  set (l0 := (IZR T + v 0%nat)%R). set (l1 := (IZR q + v 1%nat)%R).
  assert (Hs : rfloor (1 + IZR q - IZR q')%R = 1 + q - q').
  { rewrite <- (rfloor_IZR (1 + q - q')). f_equal. rewrite minus_IZR, plus_IZR. reflexivity. }
  destruct (nth_error tr 0) as [[|]|] eqn:Htr; rewrite ?Hs.
  - (* the prophecy says the test passes: the answer moves by 1 + q - q' *)
    destruct (rleb l0 l1) eqn:Hl.
    + rewrite (px_if_same _ _ _ _ _ _ _ _ _ _ _ _ true); [| reflexivity | unfold rset; cbn [pl renv rwrite rbeval raeval rread nth]; exact Hl |].
      2:{ unfold rset. cbn [pl pa renv rwrite rbeval raeval rread nth]. apply rleb_true. apply rleb_true in Hl.
          unfold l0, l1 in Hl. rewrite minus_IZR, plus_IZR. lra. }
      leaf.
    + (* the left run fails the test the prophecy says it passes: void *)
      left. apply px_if_void; [reflexivity|].
      unfold pvoid_if, tr_ok, rset. cbn [pl pvoid rtr length rbeval renv rwrite raeval rread nth].
      rewrite Hl, Htr. reflexivity.
  - (* the prophecy says the test fails: the answer stays *)
    destruct (rleb l0 l1) eqn:Hl.
    + left. apply px_if_void; [reflexivity|].
      unfold pvoid_if, tr_ok, rset. cbn [pl pvoid rtr length rbeval renv rwrite raeval rread nth].
      rewrite Hl, Htr. reflexivity.
    + rewrite (px_if_same _ _ _ _ _ _ _ _ _ _ _ _ false); [| reflexivity | unfold rset; cbn [pl renv rwrite rbeval raeval rread nth]; exact Hl |].
      2:{ unfold rset. cbn [pl pa renv rwrite rbeval raeval rread nth]. apply rleb_false. apply rleb_false in Hl.
          unfold l0, l1 in Hl. apply Z.abs_le in Hq. destruct Hq as [Hq1 Hq2].
          apply IZR_le in Hq1, Hq2. rewrite minus_IZR in Hq1, Hq2. rewrite opp_IZR in Hq1. lra. }
      leaf.
  - (* no prophecy of the branch: void *)
    left. apply px_if_void; [reflexivity|].
    unfold pvoid_if, tr_ok, rset. cbn [pl pvoid rtr length]. rewrite Htr. cbn [andb negb orb].
    reflexivity.
Qed.

Local Set Printing Width 100000.
Print Assumptions at1_good.
