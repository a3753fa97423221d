(** * CheckDP's noisymax under continuous Laplace noise, eps-DP for every stream length

    Written by hand in the shape the route renders (obligations/program/align/laplace_all_k.v.j2;
    kept equal to what it renders for mechanisms/checkdp/noisymax_laplace.yaml, without the audit)
    for a shift reading the released index: the program of mechanisms/checkdp/noisymax.yaml
    with a [laplace:] site, the alignment the discrete route proves (the answer whose index is
    released moved by 1 plus the difference of centres, on the output prophecy) and its mined
    loop invariant, its phases stated for a whole-number prophecy [w] (Laplace/ReleasedIndex.v);
    the pieces by [zshift_mfibers_released] (Laplace/RunReleased.v). *)
From Obligations Require Import PreludeLaplaceAll.
Local Open Scope Z_scope.

(** ** The program, as the spec defines it, for a stream of any length k

    Syntax: Program/ProgramSyntax.v; semantics over the reals, every sampling site drawing
    continuous Laplace noise: Laplace/RealTape.v, Laplace/ProgAlign.v.
    Slots: 0 = bq, 1 = best, 2 = i, 3 = qi, 4 = eta; then the input: q (the stream, length k). *)
Definition noisymax_laplace_body (k : nat) : stmt :=
  (SSeq
    (SAssign 3 (AIdx 5 k (AVar 2)))
    (SSeq
      (SSample 4 (DGeom 2 1 (AVar 3)))
      (SIf (BOr (BLt (AVar 0) (AVar 4)) (BEq (AVar 2) (AConst 0)))
        (SSeq
          (SAssign 1 (AVar 2))
          (SAssign 0 (AVar 4)))
        SSkip))).

Definition noisymax_laplace_prog (k : nat) : stmt :=
  (SSeq
    (SAssign 0 (AConst 0))
    (SSeq
      (SAssign 1 (AConst 0))
      (SSeq
        (SFor 2 k (noisymax_laplace_body k))
        (SOut (AVar 1))))).

(** Neighbouring inputs: |q_i - q'_i| <= 1 for every i. *)
Definition noisymax_laplace_nb (k : nat) : list Z -> list Z -> Prop := nb_input 0 k (rel_each (-1) 1).

(** ** The alignment found by the tool (a hint: Coq checks everything below)

site 0: 1 + (center - center') if the index is the released value, else 0
    Shifts are whole numbers (a difference of centres rounded down); costs in units of
    eps/2; the claim allows 2. *)
Definition noisymax_laplace_shift (o : list roval) (tr : list bool) (site : nat) (L A : rstate) : Z :=
  match site with
  | 0%nat => if released_at o 0 (raeval (renv L) (AVar 2)) then rfloor (IZR 1 + (raeval (renv L) (AVar 3) - raeval (renv A) (AVar 3)))%R else 0
  | _ => 0
  end.

(** The loop invariant (mined from runs; l_i / r_i: slot i of the left / aligned run).  A slot
    that holds noise is a real; a slot that only ever holds whole numbers (best, i, qi) is
    the real [IZR] of an integer, its arithmetic over the integers. *)
(** Under the output prophecy: the phases, for a released value [w] that is a whole number
    (before, at and after the index it names; or the left run will not release it); a
    prophecy that is not a whole number leaves the run void at its output. *)
Definition noisymax_laplace_phases (w : Z) (x x' : list Z) (j : nat) (l0 : R) (l1 : Z) (l2 : Z) (l3 : Z) (l4 : R) (r0 : R) (r1 : Z) (r2 : Z) (r3 : Z) (r4 : R) (acc : Z) : Prop :=
  ((((Z.of_nat j) = 0)%Z /\ ((Z.of_nat j) <= w)%Z /\ (r0 = l0)%R /\ (l0 = 0)%R /\ (r1 = l1)%Z /\ (l1 = 0)%Z /\ (acc = 0)%Z) \/
    ((1 <= (Z.of_nat j))%Z /\ ((Z.of_nat j) <= w)%Z /\ (acc = 0)%Z /\ (l0 + (-1) <= r0)%R /\ (r0 <= l0 + 1)%R /\ (0 <= l1)%Z /\ (l1 + 1 <= (Z.of_nat j))%Z) \/
    ((1 <= (Z.of_nat j))%Z /\ (w + 1 <= (Z.of_nat j))%Z /\ (r0 = l0 + 1)%R /\ (r1 = l1)%Z /\ (l1 = w)%Z /\ (0 <= l1)%Z /\ (acc <= 2)%Z) \/
    ((w + 1 <= (Z.of_nat j))%Z /\ (l1 <> w)%Z /\ (acc <= 2)%Z)).

Definition noisymax_laplace_arith (o : list roval) (x x' : list Z) (j : nat) (l0 : R) (l1 : Z) (l2 : Z) (l3 : Z) (l4 : R) (r0 : R) (r1 : Z) (r2 : Z) (r3 : Z) (r4 : R) (acc : Z) : Prop :=
  forall w : Z, nth_error o 0 = Some (ROVal (IZR w)) -> noisymax_laplace_phases w x x' j l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 acc.

Definition noisymax_laplace_inv (x x' : list Z) (o : list roval) (j : nat) (ps : pstate) : Prop :=
  exists (l0 : R) (l1 : Z) (l2 : Z) (l3 : Z) (l4 : R) (r0 : R) (r1 : Z) (r2 : Z) (r3 : Z) (r4 : R) TL TA,
    pl ps = mkrs ([l0; IZR l1; IZR l2; IZR l3; l4] ++ map IZR x) [] TL false false /\
    pa ps = mkrs ([r0; IZR r1; IZR r2; IZR r3; r4] ++ map IZR x') [] TA false false /\
    pbad ps = false /\
    noisymax_laplace_arith o x x' j l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 (pacc ps).

(** The invariant at a state of the shape a leaf of the step reaches: under a whole-number
    prophecy [w], from its phases; under any other, at once. *)
Lemma noisymax_laplace_inv_intro (w : Z) (x x' : list Z) (o : list roval) (j : nat) (l0 : R) (l1 : Z) (l2 : Z) (l3 : Z) (l4 : R) (r0 : R) (r1 : Z) (r2 : Z) (r3 : Z) (r4 : R) TL TA pw acc bd vd :
  noisymax_laplace_phases w x x' j l0 l1 l2 l3 l4 r0 r1 r2 r3 r4 acc -> nth_error o 0 = Some (ROVal (IZR w)) ->
  bd = false ->
  noisymax_laplace_inv x x' o j (mkps (mkrs (l0 :: IZR l1 :: IZR l2 :: IZR l3 :: l4 :: map IZR x) [] TL false false)
    (mkrs (r0 :: IZR r1 :: IZR r2 :: IZR r3 :: r4 :: map IZR x') [] TA false false) pw acc bd vd).
Proof.
  intros Hp Ho. intros. exists l0, l1, l2, l3, l4, r0, r1, r2, r3, r4, TL, TA.
  split; [reflexivity|]. split; [reflexivity|]. repeat (split; [assumption|]).
  intros w' Hw. rewrite (released_int_same o 0 w w' Ho Hw). exact Hp.
Qed.

Lemma noisymax_laplace_inv_free (x x' : list Z) (o : list roval) (j : nat) (l0 : R) (l1 : Z) (l2 : Z) (l3 : Z) (l4 : R) (r0 : R) (r1 : Z) (r2 : Z) (r3 : Z) (r4 : R) TL TA pw acc bd vd :
  released_noint o 0 -> bd = false ->
  noisymax_laplace_inv x x' o j (mkps (mkrs (l0 :: IZR l1 :: IZR l2 :: IZR l3 :: l4 :: map IZR x) [] TL false false)
    (mkrs (r0 :: IZR r1 :: IZR r2 :: IZR r3 :: r4 :: map IZR x') [] TA false false) pw acc bd vd).
Proof.
  intros Hn. intros. exists l0, l1, l2, l3, l4, r0, r1, r2, r3, r4, TL, TA.
  split; [reflexivity|]. split; [reflexivity|]. repeat (split; [assumption|]).
  intros w' Hw. exact (released_noint_absurd o 0 w' _ Hn Hw).
Qed.

Definition noisymax_laplace_post (ps : pstate) : Prop :=
  pbad ps = false /\ rout (pa ps) = rout (pl ps) /\ (false = true -> rtr (pa ps) = rtr (pl ps)) /\
  (pacc ps <= 2)%Z.

(** ** One iteration of the loop keeps the invariant (symbolic execution over the reals) *)
Lemma noisymax_laplace_step (k : nat) (x x' : list Z) v o tr j a ps :
  noisymax_laplace_nb k x x' -> (j < k)%nat -> noisymax_laplace_inv x x' o j ps -> rhalted (pl ps) = false ->
  let ps' := pexec v (noisymax_laplace_shift o tr) 2 o tr false (noisymax_laplace_body k) a 0
               (pboth (rset 2 (IZR (Z.of_nat j))) ps) in
  (noisymax_laplace_inv x x' o (S j) ps' /\ rhalted (pl ps') = false) \/
  (noisymax_laplace_post ps' /\ rhalted (pl ps') = true) \/ pvoid ps' = true.
Proof.
  intros Hnb Hj [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [TL [TA [HL [HA [Hb Hi]]]]]]]]]]]]]]] _ ps'.
  pose proof (nb_input_each _ _ _ _ _ _ j Hnb Hj) as Hd. cbn [Nat.add] in Hd.
  rfacts_real.
  destruct ps as [L A w acc bd vd]. cbn [pl pa pbad pacc] in *. subst L A bd.
  unfold noisymax_laplace_arith in Hi. unfold noisymax_laplace_post.
  unfold noisymax_laplace_body in ps'; remember ps' as r eqn:E; subst ps'; unfold noisymax_laplace_shift in E.
  destruct (released_cases o 0) as [[wo Ho]|Hn].
  { specialize (Hi wo Ho). unfold noisymax_laplace_phases in Hi. try unfold released_at in E. rewrite ?Ho in E.
    revert Hi.
    rlnorm_in E. rlsym E.
    all: subst r; rleaf_inv_released noisymax_laplace_inv_intro. }
  { rlnorm_in E. rlsym E.
    all: subst r; rleaf_inv noisymax_laplace_inv_free. }
Qed.

(** ** The aligned run of the whole program is void or good, for every input pair, real tape
    and prophecy *)
Lemma noisymax_laplace_good (k : nat) (x x' : list Z) v o tr : noisymax_laplace_nb k x x' ->
  good_run 2 false (pexec v (noisymax_laplace_shift o tr) 2 o tr false (noisymax_laplace_prog k) 0 0 (pinit 5 x x' v)).
Proof.
  intros Hnb.
  rfacts_real.
  remember (pexec v (noisymax_laplace_shift o tr) 2 o tr false (noisymax_laplace_prog k) 0 0 (pinit 5 x x' v)) as r eqn:E.
  unfold noisymax_laplace_prog, pinit, rinit in E. cbn [repeat app] in E.
  rlsym E. cbn [noisymax_laplace_shift] in E. rlnorm_in E.
  match type of E with context [pexec ?lv ?lsh ?lW ?lo ?ltr ?lctr (SFor ?lx ?ln ?lbody) ?la ?lsite ?lps] =>
    destruct (loop_cases lv lsh lW lo ltr lctr lx ln lbody la lsite lps (noisymax_laplace_inv x x' o) noisymax_laplace_post)
      as [[Hi Hh]|[[Hfin Hh]|Hv]];
    [| | | set (rl := pexec lv lsh lW lo ltr lctr (SFor lx ln lbody) la lsite lps) in *..] end.
  - intros j a' ps Hj Hi Hh. exact (noisymax_laplace_step k x x' v o tr j a' ps Hnb Hj Hi Hh).
  - unfold noisymax_laplace_inv, noisymax_laplace_arith. do 12 eexists. split; [reflexivity|]. split; [reflexivity|].
    repeat split; cbn [pacc pbad]; rewrite ?l1pre_0;
      first [intros wo Ho; unfold noisymax_laplace_phases; rreleased_init wo | rleaf_eq].
  - reflexivity.
  - destruct Hi as [l0 [l1 [l2 [l3 [l4 [r0 [r1 [r2 [r3 [r4 [TL [TA [HL [HA [Hb Hi]]]]]]]]]]]]]]].
    rewrite (pstate_eta rl), HL, HA, Hb in E. unfold noisymax_laplace_arith in Hi.
    unfold noisymax_laplace_shift in E.
    destruct (released_cases o 0) as [[wo Ho]|Hn];
      [specialize (Hi wo Ho); unfold noisymax_laplace_phases in Hi|];
      rlsym E; subst r; rreleased_final; rlfinal.
  - rewrite ?pexec_halted in E by exact Hh. subst r. unfold good_run. right. exact Hfin.
  - left. rewrite E. repeat (first [exact Hv | apply pexec_void_mono]).
Qed.

(** ** The claim: (1·eps)-DP for every stream length k, every eps > 0 and every set
    of outputs, under continuous Laplace noise

    [rdp_all_k_of_aligned] (RealAlignSound.v) from the aligned run above and the measurable
    pieces: [zshift_mfibers] (RunFibers.v, proved once for every program and length) given
    that the shift function has measurable fibers on measurable states ([mshift]); a
    shift reading the released index: [zshift_mfibers_released] and [mshift_released]
    (RunReleased.v), the left run's released values being measurable. *)
Theorem noisymax_laplace_dp_all_k : rdp_all_k noisymax_laplace_nb noisymax_laplace_prog 5 1%R.
Proof.
  replace (1)%R with (IZR 2 / IZR 2)%R by (field; lra).
  rewrite Rstruct.RdivE by (apply (ssrbool.introN eqtype.eqP); change (IZR 2 <> IZR 0); apply not_0_IZR; discriminate).
  apply (@rdp_all_k_of_aligned noisymax_laplace_nb noisymax_laplace_prog 5 2 2 false (fun _ => noisymax_laplace_shift));
    [lia | intros k; reflexivity | intros k x x' Hnb v o tr; exact (noisymax_laplace_good k x x' v o tr Hnb) |].
  intros k e x x' z _. revert z.
  apply zshift_mfibers_released. unfold noisymax_laplace_shift. mshift_released.
Qed.
