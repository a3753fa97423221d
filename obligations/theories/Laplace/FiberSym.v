(** * The pieces of an alignment at a fixed stream length, computed

    [rdp_of_aligned] (RealAlignSound.v) asks that every fiber of the map
    from a tape to its whole-number shifts ([zshift]) be measurable.  At a
    fixed stream length the aligned run is a finite computation, so a
    generated proof computes that map on a symbolic tape ([lazy]: a list of
    roundings down, the comparisons of noisy values left where the run makes
    them) and [mfib] closes the duty by TapeFibers.v's lemmas alone: it
    splits the tapes on one comparison found in the computed map
    ([mfibers_split]: on each side the comparison is replaced by its value
    and the map computed again), a constant or a rounding down of a sum of
    tape values and constants is measurable (read as TapeFibers.v's [rexp]
    and closed by one lemma), a list is taken element by element.  The
    tactics read the terms of the semantics only. *)
From Coq Require Import List ZArith Bool Reals Lia Lra.
From Obligations.Program Require Import ProgramSyntax.
From Obligations.Coupling Require TapeSem.
From Obligations.Laplace Require Import RealTape RealRelational RealAlignRun RealSym TapeMeasure TapeFibers.
From mathcomp.classical Require classical_sets.
From mathcomp.analysis Require measure.

(** The semantics' functions a computed map is reduced by ([lazy]: it shares the states a
    run copies, where [cbn] ran for minutes). *)
Ltac fred :=
  lazy beta iota zeta delta [zshift aligned_run left_run proph_tr seq.map seq.iota List.seq List.map
    rexec rfor pexec pfor pboth passign psample pemit pvoid_if tr_ok out_ok rset remit rbranch rstop rfail
    pinit rinit pl pa pw pacc pbad pvoid renv rout rtr rhalted rfault upd
    rwrite raeval rbeval rread List.nth List.nth_error List.length List.app Nat.add Nat.eqb Nat.mul
    TapeSem.size RealRelational.nsites andb orb negb Bool.eqb List.repeat List.tl roval_eqb].

Ltac fred_in E :=
  lazy beta iota zeta delta [zshift aligned_run left_run proph_tr seq.map seq.iota List.seq List.map
    rexec rfor pexec pfor pboth passign psample pemit pvoid_if tr_ok out_ok rset remit rbranch rstop rfail
    pinit rinit pl pa pw pacc pbad pvoid renv rout rtr rhalted rfault upd
    rwrite raeval rbeval rread List.nth List.nth_error List.length List.app Nat.add Nat.eqb Nat.mul
    TapeSem.size RealRelational.nsites andb orb negb Bool.eqb List.repeat List.tl roval_eqb] in E.

(** Ground integer tests computed: RealSym.v's [zground_in], but never on a term holding a
    real (computing a rounding down of a real does not terminate). *)
Ltac zclosed t := lazymatch t with context [rfloor _] => fail | _ => idtac end.

Ltac fground E :=
  repeat match type of E with
  | context [Z.of_nat ?n] => zclosed n;
      let b := eval vm_compute in (Z.of_nat n) in
      lazymatch b with Zpos _ => change (Z.of_nat n) with b in E | Z0 => change (Z.of_nat n) with b in E end
  | context [Z.to_nat ?z] => zclosed z;
      let b := eval vm_compute in (Z.to_nat z) in
      lazymatch b with O => change (Z.to_nat z) with b in E | S _ => change (Z.to_nat z) with b in E end
  | context [(?x <=? ?y)%Z] => zclosed x; zclosed y;
      let b := eval vm_compute in (x <=? y)%Z in
      lazymatch b with true => change (x <=? y)%Z with true in E | false => change (x <=? y)%Z with false in E end
  | context [(?x <? ?y)%Z] => zclosed x; zclosed y;
      let b := eval vm_compute in (x <? y)%Z in
      lazymatch b with true => change (x <? y)%Z with true in E | false => change (x <? y)%Z with false in E end
  | context [weight ?W ?n ?d] =>
      let b := eval vm_compute in (weight W n d) in
      lazymatch b with Zpos _ => change (weight W n d) with b in E | Z0 => change (weight W n d) with b in E end
  end.

(** The computed map at a tape [w] on the left of [l = ?g w]: the semantics reduced, then
    RealSym.v's normalisation (ground integer tests, integer-valued roundings down). *)
Ltac fnorm :=
  fred;
  lazymatch goal with
  | |- ?l = _ => let t := fresh "t" in let E := fresh "E" in
      remember l as t eqn:E; do 2 (rfloor_int_in E; fground E; fred_in E); subst t
  end.

(** A real of tape values and constants by sums and differences, read as an [rexp]
    (TapeFibers.v) from the function [f] of the tape it is: measurability then follows from one
    lemma by conversion, never by unifying a lemma per operation with the measure types. *)
Ltac rreify f :=
  lazymatch f with
  | (fun w => Rplus (@?a w) (@?b w)) => let x := rreify a in let y := rreify b in constr:(RPlus x y)
  | (fun w => Rminus (@?a w) (@?b w)) => let x := rreify a in let y := rreify b in constr:(RMinus x y)
  | (fun w => rtape (tl w) ?i) => constr:(RTape i)
  | (fun w => ?c) => constr:(RCst c)
  end.

(** One comparison of noisy values in the computed map [f]. *)
Ltac fcond f :=
  lazymatch type of f with ?T -> _ =>
  constr:(fun w : T => ltac:(
    let t := eval cbv beta in (f w) in
    match t with
    | context [rleb ?a ?b] => exact (rleb a b)
    | context [rltb ?a ?b] => exact (rltb a b)
    | context [reqb ?a ?b] => exact (reqb a b)
    end))
  end.

(** The measurable condition [b] (a comparison found by [fcond]). *)
Ltac mcond b :=
  lazymatch b with
  | (fun w => rleb (@?a w) (@?c w)) =>
      let x := rreify a in let y := rreify c in exact (measurable_rden_leb _ x y)
  | (fun w => rltb (@?a w) (@?c w)) =>
      let x := rreify a in let y := rreify c in exact (measurable_rden_ltb _ x y)
  | (fun w => reqb (@?a w) (@?c w)) =>
      let x := rreify a in let y := rreify c in exact (measurable_rden_eqb _ x y)
  end.

Ltac mfib :=
  lazymatch goal with
  | |- @mfibers ?S ?n ?A ?f =>
      first
        [ lazymatch f with (fun _ => ?c) => apply (mfibers_cst S n c) end
        | lazymatch f with (fun w => cons _ _) => apply mfibers_cons; mfib end
        | lazymatch f with
          | (fun w => rfloor (@?r w)) => let e := rreify r in exact (mfibers_rden_floor _ e)
          end
        | let b := fcond f in
          eapply (@mfibers_split S n A b f);
          [ mcond b
          | let w := fresh "w" in let Hb := fresh "Hb" in
            intros w Hb; cbv beta in Hb |- *; rewrite ?Hb; fnorm; reflexivity
          | let w := fresh "w" in let Hb := fresh "Hb" in
            intros w Hb; cbv beta in Hb |- *; rewrite ?Hb; fnorm; reflexivity
          | mfib | mfib ] ]
  end.

(** The duty of [rdp_of_aligned] at given inputs: the computed map, then [mfib]. *)
Ltac mfibers_zshift :=
  lazymatch goal with
  | |- forall z, measure.measurable (classical_sets.mkset (fun w => @?f w = z)) =>
      change (mfibers f); eapply mfibers_ext; [intros ?; fnorm; reflexivity | mfib]
  end.
