(** * Randomness alignment, proved once, for events

    A mechanism driven by a noise vector [v] drawn from [dens ts] is a map
    [run : list Z -> O] from noise vectors to outputs; [prob_event ts run S] is
    Pr[run(v) ∈ S] for an event [S] on outputs (a set of outputs, as a boolean
    test).  The alignment lemma: if for every noise vector [v] of the right
    length the shifted vector [v + shift (run v)] makes the run on the
    neighbour [run'] produce the same output, and the shift costs at most ε,
    then Pr[run(v) ∈ S] ≤ e^ε · Pr[run'(v) ∈ S] for EVERY event S.

    The shift may depend on the output (that is what lets AboveThreshold align
    the query that answered ⊤ differently from the others); the map
    [v ↦ v + shift (run v)] is then injective because the output, hence the
    shift, can be read back from the aligned run.  The general form
    [tsum1_align] takes any map injective on the support. *)
From Coq Require Import List Reals ZArith Lia Lra.
From Obligations.Core Require Import RealFacts Sums.
From Obligations.Coupling Require Import LubSum Geometric Product.
Import ListNotations.
Local Open Scope R_scope.

Lemma rsum_map_filter {A} (f : A -> R) (P : A -> bool) (l : list A) :
  (forall a, P a = false -> f a = 0) -> rsum (map f l) = rsum (map f (filter P l)).
Proof.
  intros H0. induction l as [|a l IH]; cbn [filter]; [reflexivity|].
  destruct (P a) eqn:E; rewrite !rsum_map_cons, IH; [reflexivity|]. rewrite (H0 a E). ring.
Qed.

(** A map injective on the support, under which [f] is bounded by [c·g]. *)
Lemma tsum1_align {A} (f g : A -> R) (P : A -> bool) (phi : A -> A) (c : R) :
  (forall a, 0 <= f a) -> sum_le g 1 -> 0 <= c ->
  (forall a, P a = false -> f a = 0) ->
  (forall a b, P a = true -> P b = true -> phi a = phi b -> a = b) ->
  (forall a, P a = true -> f a <= c * g (phi a)) ->
  tsum1 f <= c * tsum1 g.
Proof.
  intros Hf Hg Hc H0 Hinj Hle. apply tsum1_le. intros l Hnd.
  rewrite (rsum_map_filter f P l H0).
  set (l' := filter P l).
  assert (HP : forall a, In a l' -> P a = true) by (intros a Ha; apply filter_In in Ha; tauto).
  assert (Hnd' : NoDup (map phi l')).
  { apply nodup_map_on; [|apply NoDup_filter, Hnd].
    intros a b Ha Hb. apply Hinj; [apply HP, Ha|apply HP, Hb]. }
  eapply Rle_trans; [apply (rsum_le _ (fun a => c * g (phi a))); intros a Ha; apply Hle, HP, Ha|].
  rewrite rsum_scal, <- rsum_map_map. apply Rmult_le_compat_l; [exact Hc|].
  apply tsum1_ge; [exact Hnd'|apply Hg, Hnd'].
Qed.

(** ** Mechanisms driven by a noise vector *)

Definition indicator (b : bool) : R := if b then 1 else 0.

(** Pr[run(v) ∈ S] for v drawn from [dens ts]. *)
Definition prob_event {O} (ts : list R) (run : list Z -> O) (S : O -> bool) : R :=
  tsum1 (fun v => dens ts v * indicator (S (run v))).

Lemma prob_event_sum_le {O} (ts : list R) (run : list Z -> O) (S : O -> bool) :
  rates_pos ts -> sum_le (fun v => dens ts v * indicator (S (run v))) 1.
Proof.
  intros Hts l Hnd. eapply Rle_trans; [|apply (dens_sum_le ts Hts l Hnd)].
  apply rsum_le. intros v _. pose proof (dens_nonneg ts v Hts).
  unfold indicator; destruct (S (run v)); lra.
Qed.

(** [prob_event] is the sum of the family: the least upper bound of its
    finite sums (the cap at 1 of [tsum1] never bites). *)
Lemma prob_event_lub {O} (ts : list R) (run : list Z -> O) (S : O -> bool) :
  rates_pos ts ->
  is_lub (fun r => exists l, NoDup l /\ r = rsum (map (fun v => dens ts v * indicator (S (run v))) l))
         (prob_event ts run S).
Proof. intros Hts. apply tsum1_lub, prob_event_sum_le, Hts. Qed.

(** The alignment lemma. *)
Theorem alignment_event {O} (ts : list R) (run run' : list Z -> O) (shift : O -> list Z) (eps : R) :
  rates_pos ts ->
  (forall v, length v = length ts -> run' (vadd v (shift (run v))) = run v) ->
  (forall v, length v = length ts -> cost ts (shift (run v)) <= eps) ->
  forall S, prob_event ts run S <= exp eps * prob_event ts run' S.
Proof.
  intros Hts Hpres Hcost S. unfold prob_event.
  apply (tsum1_align _ _ (fun v => Nat.eqb (length v) (length ts)) (fun v => vadd v (shift (run v)))).
  - intros v. pose proof (dens_nonneg ts v Hts). unfold indicator; destruct (S (run v)); lra.
  - apply prob_event_sum_le, Hts.
  - apply Rlt_le, exp_pos.
  - intros v Hv. apply Nat.eqb_neq in Hv. rewrite dens_length by exact Hv. ring.
  - intros a b Ha Hb Hab. apply Nat.eqb_eq in Ha, Hb.
    assert (Hr : run a = run b) by (rewrite <- (Hpres a Ha), <- (Hpres b Hb), Hab; reflexivity).
    rewrite Hr in Hab. exact (vadd_inj _ _ _ Hab).
  - intros v Hv. apply Nat.eqb_eq in Hv. rewrite (Hpres v Hv).
    pose proof (dens_shift ts v (shift (run v)) Hts).
    pose proof (proj2 (exp_le_iff (cost ts (shift (run v))) eps) (Hcost v Hv)).
    pose proof (dens_nonneg ts (vadd v (shift (run v))) Hts).
    unfold indicator; destruct (S (run v)); nra.
Qed.
