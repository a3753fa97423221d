(** * Prelude for generated files about tables of reals (entries with exp and ln)

    Exports [PreludeInterval] (the brackets of the entries are proved with
    [interval]), the real tables of RealTable.v and the families calibrated
    with e^ε of ExpFamilies.v, GeomExp.v and ExpMech.v. *)
From Coq Require Export Lia.
From Obligations Require Export PreludeInterval.
From Obligations.Finite Require Export RealTable ExpFamilies GeomExp ExpMech.

(** [rcases_below x]: split a goal with [x < n] (n a numeral) into the cases x = 0 .. n − 1. *)
Ltac rcases_below x := repeat (destruct x as [|x]; [|try lia]).

(** Hypotheses [0 < exp a] for every [exp a] of the goal. *)
Ltac exp_facts :=
  repeat match goal with
  | |- context [exp ?a] =>
      lazymatch goal with _ : (0 < exp a)%R |- _ => fail | _ => pose proof (exp_pos a) end
  end.

(** [t <> 0] for a positive real expression: by [lra] over the [exp] atoms, else by [interval]. *)
Ltac real_nonzero := apply Rgt_not_eq; unfold Rgt; first [exp_facts; lra | interval].

(** [0 <= t] for a product or quotient of positive terms (sums of [exp] and positive
    rationals), else by [interval]. *)
Ltac real_nonneg :=
  first [ exp_facts; unfold Rdiv;
          repeat first [apply Rmult_le_pos | apply Rlt_le, Rinv_0_lt_compat]; lra
        | interval ].

(** Close an equation of real expressions with exp and ln by [field]; its side conditions
    (denominators other than 0) by [real_nonzero]. *)
Ltac real_field := rewrite ?exp_0; field; repeat split; try real_nonzero.
