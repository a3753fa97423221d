(** * Dilation lifting of set functions (seed 000, Definitions 3 and 6)

    Dilation.v states Definitions 3/6 for sub-distributions with a finite
    support.  The noise of the snapping mechanism is continuous, so here the
    distributions are set functions [mu : (X -> Prop) -> R] (such as
    [noise_pr], NoiseLaw.v) and the witnesses [muL], [muR] are set functions on
    pairs.  [set_lifting_with Psi w delta mu1 mu2 muL muR] says that [muL],
    [muR] witness [mu1 Psi^(ε,δ) mu2] with [w = e^ε]:

    1. [π1 muL = mu1] and [π2 muR = mu2] (on every set);
    2. the supports lie in [Psi]: the pairs outside [Psi] have measure 0;
    3. [muL E <= w * muR E + delta] for every set [E] of pairs (Definition 2's
       dilation with the event [E] itself; see Dilation.v for why the seed's
       scaled event [e^(-ε) E] does not belong here).

    [set_lifting] asks for witnesses that are sub-probability outer measures
    ([set_subdistr]).  [set_lifting_events] is what the lifting is for: a set
    [F1] whose points are [Psi]-related only to points of [F2] has
    [mu1 F1 <= w * mu2 F2 + delta]. *)
From Coq Require Import Reals Lra Classical.
From Obligations.Noise Require Import NoiseLaw.
Local Open Scope R_scope.

Section SetLifting.
Context {X Y : Type}.

Definition set_lifting_with (Psi : X -> Y -> Prop) (w delta : R)
    (mu1 : (X -> Prop) -> R) (mu2 : (Y -> Prop) -> R) (muL muR : (X * Y -> Prop) -> R) : Prop :=
  (forall P, muL (fun xy => P (fst xy)) = mu1 P) /\
  (forall Q, muR (fun xy => Q (snd xy)) = mu2 Q) /\
  muL (fun xy => ~ Psi (fst xy) (snd xy)) = 0 /\
  muR (fun xy => ~ Psi (fst xy) (snd xy)) = 0 /\
  (forall E, muL E <= w * muR E + delta).

(** Definitions 3/6: [mu1 Psi^(eps, delta) mu2]. *)
Definition set_lifting (Psi : X -> Y -> Prop) (eps delta : R)
    (mu1 : (X -> Prop) -> R) (mu2 : (Y -> Prop) -> R) : Prop :=
  exists muL muR, set_subdistr muL /\ set_subdistr muR /\
    set_lifting_with Psi (exp eps) delta mu1 mu2 muL muR.

(** The fundamental property: events related through [Psi]. *)
Lemma set_lifting_events (Psi : X -> Y -> Prop) w delta mu1 mu2 muL muR (F1 : X -> Prop) (F2 : Y -> Prop) :
  set_subdistr muL -> set_lifting_with Psi w delta mu1 mu2 muL muR ->
  (forall x y, Psi x y -> F1 x -> F2 y) ->
  mu1 F1 <= w * mu2 F2 + delta.
Proof.
  intros (_ & _ & Hsub & _) (HL & HR & SL & _ & Hdil) HF.
  rewrite <- HL, <- HR.
  apply Rle_trans with (muL (fun xy => F2 (snd xy)) + muL (fun xy => ~ Psi (fst xy) (snd xy))).
  - apply Hsub. intros [x y] Hx. cbn [fst snd] in *.
    destruct (classic (Psi x y)) as [H|H]; [left; exact (HF x y H Hx)|right; exact H].
  - rewrite SL, Rplus_0_r. apply Hdil.
Qed.

(** A larger relation, or a larger [w] or [delta], keeps the lifting. *)
Lemma set_lifting_with_weaken (Psi Psi' : X -> Y -> Prop) w w' delta delta' mu1 mu2 muL muR :
  set_subdistr muL -> set_subdistr muR ->
  (forall x y, Psi x y -> Psi' x y) -> w <= w' -> delta <= delta' ->
  set_lifting_with Psi w delta mu1 mu2 muL muR -> set_lifting_with Psi' w' delta' mu1 mu2 muL muR.
Proof.
  intros (HnL & HmL & _) (HnR & HmR & _) HPsi Hw Hd (HL & HR & SL & SR & Hdil).
  split; [exact HL|split; [exact HR|split; [|split]]].
  - apply Rle_antisym; [|apply HnL].
    rewrite <- SL. apply HmL. intros xy H HP. apply H, HPsi, HP.
  - apply Rle_antisym; [|apply HnR].
    rewrite <- SR. apply HmR. intros xy H HP. apply H, HPsi, HP.
  - intros E. pose proof (Hdil E). pose proof (HnR E). nra.
Qed.

End SetLifting.
