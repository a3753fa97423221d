(** * PreludeSnap: the one import of every generated snapping file

    Exports the reals, [Zfloor]/[Zceil], the Core library (generic facts,
    finite sums, sub-distributions, the core DP notion) and the Noise library
    (the snapping mechanism), opens [R_scope], and defines the tactics the
    generated files call:

    - [snap_side]: closes a side condition ([0 < eps], [0 < u], a case
      hypothesis, ...) by [assumption] or [lra], unfolding numeric constants
      of type [R] if needed;
    - [snap_preimage L]: proves a per-sign preimage lemma
      [... -> 0 < u <= 1 -> (mech c u s = y <-> bounds on u)] by the
      [snap_pre_*] lemma [L] of SnapPreimage.v;
    - [snap_grid]: proves that every output is a grid point (or [±B]);
    - [snap_measure H]: proves [umeasure (fun u => mech c u s = y) (len)] from
      the preimage lemma [H];
    - [snap_case L Hplus Hminus]: proves [snap_prob (mech c) y p] for a closed
      form [p] from the two preimage lemmas, by the [snap_case_*] lemma [L];
    - [snap_dp_unclamped_tac Hp Hm Hg] and
      [snap_dp_clamped_tac Hp Hm Htp Htm Hbp Hbm Hg]: apply the generic DP
      theorems once the goal has been reduced to their hypotheses.

    The generator names the library lemma of each preimage and case (it knows
    the tie rule, the sign and the case); [apply] checks the choice.  No
    tactic chooses a lemma from how a statement is written. *)
From Coq Require Export List Reals Lra ZArith.
From Flocq Require Export Raux.
From Obligations.Core Require Export RealFacts Lists Sums SubDistr Privacy Audit.
From Obligations.Noise Require Export UniformMeasure Rounding Laplace Clamp SnapBound Snapping
  SnapPreimage SnapCases SnapDP Dilation SnapUtility SnapAccuracy
  UniformOuter NoiseLaw SetLifting Mirror BranchCoupling SnapEvents.
Export ListNotations.

(* Deliberately exported: generated snapping files are written in [R_scope]
   (parameters, query values, probabilities and their bounds are reals written
   without [%R]), so [R_scope] is the innermost open scope for every file that
   imports this prelude.  Library files open it only locally. *)
Open Scope R_scope.

(** Unfold the constants of type [R] in the goal (numeric instances written
    as [Definition eps : R := 1]). *)
Ltac snap_unfold_consts :=
  repeat match goal with
  | |- context [?x] => is_const x; let T := type of x in unify T R; progress unfold x
  end.

Ltac snap_side :=
  first
  [ assumption
  | lra
  | (split; snap_side)
  | (snap_unfold_consts; lra)
  | (snap_unfold_consts; split; lra) ].

(** The head constant of an application. *)
Ltac snap_head t := lazymatch t with ?f _ => snap_head f | _ => t end.

Ltac snap_unfold_mech_in_goal :=
  lazymatch goal with
  | |- (?lhs = _ <-> _) => let h := snap_head lhs in unfold h
  end.

(** [L]: the preimage lemma of SnapPreimage.v for the tie rule, the sign and
    the output (grid point, [B] or [-B]) of the goal, as the generator names it. *)
Ltac snap_preimage L :=
  intros;
  snap_unfold_mech_in_goal;
  apply L;
  snap_side.

Ltac snap_grid :=
  intros;
  match goal with
  | H : ?lhs = _ |- _ =>
      let h := snap_head lhs in unfold h in H;
      first
      [ exact (snap_grid_any _ _ _ _ H)
      | solve [refine (snap_grid_clamped _ _ _ _ _ _ H); snap_side] ]
  end.

(** [H] must be the preimage lemma of the goal's sign and output. *)
Ltac snap_measure H :=
  let u := fresh "u" in
  let Hu := fresh "Hu" in
  lazymatch goal with
  | |- umeasure _ (ulen _ _) =>
      first
      [ solve [apply umeasure_Ico; intros u Hu; cbv beta; apply H; snap_side]
      | solve [apply umeasure_Ioc; intros u Hu; cbv beta; apply H; snap_side] ]
  | |- umeasure _ (ulen_from _) =>
      first
      [ solve [apply umeasure_Ici; intros u Hu; cbv beta; apply H; snap_side]
      | solve [apply umeasure_Ioi; intros u Hu; cbv beta; apply H; snap_side] ]
  | |- umeasure _ (ulen_to _) =>
      first
      [ solve [apply umeasure_Iic; intros u Hu; cbv beta; apply H; snap_side]
      | solve [apply umeasure_Iio; intros u Hu; cbv beta; apply H; snap_side] ]
  end.

(** Side goals of a case lemma: the plus preimage lemma for the [SPlus]
    measure, the minus one for [SMinus], [snap_side] for the rest. *)
Ltac snap_case_goals Hp Hm :=
  lazymatch goal with
  | |- umeasure ?P _ =>
      lazymatch P with
      | context [SPlus] => snap_measure Hp
      | context [SMinus] => snap_measure Hm
      end
  | _ => snap_side
  end.

(** [L]: the case lemma of SnapCases.v, as the generator names it. *)
Ltac snap_case L Hp Hm :=
  intros;
  eapply L;
  snap_case_goals Hp Hm.

(** Goal: the DP statement of the unclamped mechanism; [Hp], [Hm] the
    preimage lemmas, [Hg] the grid lemma (given first: it fixes [lam]). *)
Ltac snap_dp_unclamped_tac Hp Hm Hg :=
  eapply snap_dp_unclamped; [ | | | | | exact Hg ];
  [ snap_side | snap_side | snap_side
  | intros; snap_measure Hp
  | intros; snap_measure Hm ].

(** The same, clamped: interior, top and bottom preimage lemmas, then the
    output lemma. *)
Ltac snap_dp_clamped_tac Hp Hm Htp Htm Hbp Hbm Hg :=
  eapply snap_dp_clamped; [ | | | | | | | | | | exact Hg ];
  [ snap_side | snap_side | snap_side | snap_side
  | intros; snap_measure Hp
  | intros; snap_measure Hm
  | intros; snap_measure Htp
  | intros; snap_measure Htm
  | intros; snap_measure Hbp
  | intros; snap_measure Hbm ].
