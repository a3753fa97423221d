(** * CheckDP's sparsevector under continuous Laplace noise, eps-DP for every stream length

    Written by hand in the shape the route renders (obligations/program/align/laplace_all_k.v.j2):
    the program of mechanisms/checkdp/sparsevector_laplace.yaml (NN = 3), the alignment the
    discrete route proves (the noisy threshold moved by 1, an answer at or above it by 1 plus the
    difference of centres, on the branch prophecy) and its mined loop invariant, with the noise
    slots (T_bar, eta_2) real and the whole-number slots (count, i, qi) [IZR] of integers.
    [rlsym] / [rleaf_inv] / [rlfinal] (Laplace/RealLoopSym.v) cross the loop with the invariant;
    [rdp_all_k_of_aligned] and [zshift_mfibers] give the claim for every stream length k. *)
From Obligations Require Import PreludeLaplaceAll.
Local Open Scope Z_scope.

Definition sparsevector_all_k_body (k : nat) : stmt :=
  (SSeq
    (SAssign 3 (AIdx 6 k (AVar 2)))
    (SSeq
      (SSample 4 (DGeom 12 1 (AVar 3)))
      (SIf (BLe (AVar 0) (AVar 4))
        (SSeq
          (SOut (AConst 1))
          (SSeq
            (SAssign 1 (AAdd (AVar 1) (AConst 1)))
            (SIf (BLe (AConst 3) (AVar 1))
              SStop
              SSkip)))
        (SOut (AConst 0))))).

Definition sparsevector_all_k_prog (k : nat) : stmt :=
  (SSeq
    (SSample 0 (DGeom 2 1 (AVar 5)))
    (SSeq
      (SAssign 1 (AConst 0))
      (SFor 2 k (sparsevector_all_k_body k)))).

Definition sparsevector_all_k_nb (k : nat) : list Z -> list Z -> Prop := nb_input 1 k (rel_each (-1) 1).

Definition sparsevector_all_k_shift (o : list roval) (tr : list bool) (site : nat) (L A : rstate) : Z :=
  match site with
  | 0%nat => 1
  | 1%nat => match nth_error tr (length (rtr L)) with
             | Some true => rfloor (IZR 1 + (raeval (renv L) (AVar 3) - raeval (renv A) (AVar 3)))%R
             | Some false => 0 | None => 0 end
  | _ => 0
  end.

Definition sparsevector_all_k_arith (o : list roval) (x x' : list Z) (j : nat)
    (l0 : R) (l1 l2 l3 : Z) (l4 r0 : R) (r1 r2 r3 : Z) (r4 : R) (acc : Z) : Prop :=
  (r0 = l0 + 1)%R /\ (r1 = l1)%Z /\ (
    ((Z.of_nat j) = 0 /\ l1 = 0 /\ acc <= 6)%Z \/
    (1 <= (Z.of_nat j) /\ 0 <= l1 /\ l1 <= 2 /\ l1 <= (Z.of_nat j) /\ acc <= 2 * l1 + 6)%Z).

Definition sparsevector_all_k_inv (x x' : list Z) (o : list roval) (j : nat) (ps : pstate) : Prop :=
  exists (l0 : R) (l1 l2 l3 : Z) (l4 r0 : R) (r1 r2 r3 : Z) (r4 : R) OL OA TL TA,
    pl ps = mkrs ([l0; IZR l1; IZR l2; IZR l3; l4] ++ map IZR x) OL TL false false /\
    pa ps = mkrs ([r0; IZR r1; IZR r2; IZR r3; r4] ++ map IZR x') OA TA false false /\
    pbad ps = false /\ OL = OA /\ TL = TA /\
    sparsevector_all_k_arith o x x' j l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 (pacc ps).

Lemma sparsevector_all_k_inv_intro (x x' : list Z) (o : list roval) (j : nat) (l0 : R) (l1 l2 l3 : Z) (l4 r0 : R) (r1 r2 r3 : Z) (r4 : R) OL OA TL TA w acc bd vd :
  bd = false -> OL = OA -> TL = TA -> sparsevector_all_k_arith o x x' j l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 acc ->
  sparsevector_all_k_inv x x' o j (mkps (mkrs (l0 :: IZR l1 :: IZR l2 :: IZR l3 :: l4 :: map IZR x) OL TL false false)
    (mkrs (r0 :: IZR r1 :: IZR r2 :: IZR r3 :: r4 :: map IZR x') OA TA false false) w acc bd vd).
Proof.
  intros. exists l0, l1, l2, l3, l4, r0, r1, r2, r3, r4, OL, OA, TL, TA.
  split; [reflexivity|]. split; [reflexivity|]. repeat (split; [assumption|]). assumption.
Qed.

Definition sparsevector_all_k_post (ps : pstate) : Prop :=
  pbad ps = false /\ rout (pa ps) = rout (pl ps) /\ (true = true -> rtr (pa ps) = rtr (pl ps)) /\
  (pacc ps <= 12)%Z.

Lemma sparsevector_all_k_step (k : nat) (x x' : list Z) v o tr j a ps :
  sparsevector_all_k_nb k x x' -> (j < k)%nat -> sparsevector_all_k_inv x x' o j ps -> rhalted (pl ps) = false ->
  let ps' := pexec v (sparsevector_all_k_shift o tr) 12 o tr true (sparsevector_all_k_body k) a 1
               (pboth (rset 2 (IZR (Z.of_nat j))) ps) in
  (sparsevector_all_k_inv x x' o (S j) ps' /\ rhalted (pl ps') = false) \/
  (sparsevector_all_k_post ps' /\ rhalted (pl ps') = true) \/ pvoid ps' = true.
Proof.
  intros Hnb Hj [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [OL [OA [TL [TA [HL [HA [Hb [HO [HT Hi]]]]]]]]]]]]]]]]]]] _ ps'.
  pose proof (nb_input_pub _ _ _ _ _ 0 Hnb ltac:(lia)) as Hp0.
  pose proof (nb_input_each _ _ _ _ _ _ j Hnb Hj) as Hd. cbn [Nat.add] in Hd. rfacts_real.
  destruct ps as [L A w acc bd vd]. cbn [pl pa pbad pacc] in *. subst L A bd OA TA.
  unfold sparsevector_all_k_arith in Hi. unfold sparsevector_all_k_post.
  destruct Hi as [He0 [He1 Hi]]. subst r0 r1.
  unfold sparsevector_all_k_body in ps'; remember ps' as r eqn:E; subst ps'; unfold sparsevector_all_k_shift in E.
  rlnorm_in E. rlsym E.
  all: subst r; rleaf_inv sparsevector_all_k_inv_intro.
Qed.

Lemma sparsevector_all_k_good (k : nat) (x x' : list Z) v o tr : sparsevector_all_k_nb k x x' ->
  good_run 12 true (pexec v (sparsevector_all_k_shift o tr) 12 o tr true (sparsevector_all_k_prog k) 0 0 (pinit 5 x x' v)).
Proof.
  intros Hnb.
  pose proof (nb_input_pub _ _ _ _ _ 0 Hnb ltac:(lia)) as Hp0. rfacts_real.
  remember (pexec v (sparsevector_all_k_shift o tr) 12 o tr true (sparsevector_all_k_prog k) 0 0 (pinit 5 x x' v)) as r eqn:E.
  unfold sparsevector_all_k_prog, pinit, rinit in E. cbn [repeat app] in E.
  rlsym E. cbn [sparsevector_all_k_shift] in E. rlnorm_in E.
  match type of E with context [pexec ?lv ?lsh ?lW ?lo ?ltr ?lctr (SFor ?lx ?ln ?lbody) ?la ?lsite ?lps] =>
    destruct (loop_cases lv lsh lW lo ltr lctr lx ln lbody la lsite lps (sparsevector_all_k_inv x x' o) sparsevector_all_k_post)
      as [[Hi Hh]|[[Hfin Hh]|Hv]];
    [| | | set (rl := pexec lv lsh lW lo ltr lctr (SFor lx ln lbody) la lsite lps) in *..] end.
  - intros j a' ps Hj Hi Hh. exact (sparsevector_all_k_step k x x' v o tr j a' ps Hnb Hj Hi Hh).
  - unfold sparsevector_all_k_inv, sparsevector_all_k_arith. do 14 eexists. split; [reflexivity|]. split; [reflexivity|].
    repeat split; cbn [pacc pbad]; try reflexivity; first [lia | lra | left; lia].
  - reflexivity.
  - destruct Hi as [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [OL [OA [TL [TA [HL [HA [Hb [HO [HT Hi]]]]]]]]]]]]]]]]]]].
    rewrite (pstate_eta rl), HL, HA, Hb in E. subst OA TA. unfold sparsevector_all_k_arith in Hi.
    destruct Hi as [He0 [He1 Hi]]. subst r0 r1.
    unfold sparsevector_all_k_shift in E.
    rlsym E; subst r; rlfinal.
  - rewrite ?pexec_halted in E by exact Hh. subst r. unfold good_run. right. exact Hfin.
  - left. rewrite E. repeat (first [exact Hv | apply pexec_void_mono]).
Qed.

Theorem sparsevector_all_k_dp_all_k : rdp_all_k sparsevector_all_k_nb sparsevector_all_k_prog 5 1%R.
Proof.
  replace (1)%R with (IZR 12 / IZR 12)%R by (field; lra).
  rewrite Rstruct.RdivE by (apply (ssrbool.introN eqtype.eqP); change (IZR 12 <> IZR 0); apply not_0_IZR; discriminate).
  apply (@rdp_all_k_of_aligned sparsevector_all_k_nb sparsevector_all_k_prog 5 12 12 true (fun _ => sparsevector_all_k_shift));
    [lia | intros k; reflexivity | intros k x x' Hnb v o tr; exact (sparsevector_all_k_good k x x' v o tr Hnb) |].
  intros k e x x' z _. revert z.
  apply zshift_mfibers. unfold sparsevector_all_k_shift. mshift.
Qed.

Local Set Printing Width 100000.
Print Assumptions sparsevector_all_k_dp_all_k.
