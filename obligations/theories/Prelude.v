(** * Prelude: the one import of every generated finite or program file

    Exports the standard library the generated files use and the Core,
    Finite and Program parts of the library. *)
From Coq Require Export List QArith Qabs Qminmax Qreals Reals Lra ZArith.
From Obligations.Core Require Export RealFacts Lists Sums Privacy ExpBounds Audit.
From Obligations.Finite Require Export Mechanism Neighbours DP Checker CheckerSound Refutation
  Compose CW Adjacent Region Family TGeom TGeomDistance RR BasicComposition Accuracy.
From Obligations.Program Require Export ProgramSyntax Dist ProgramSem ProgramInputs ProgramDP RunsMech ProgramMech.
Export ListNotations.

(* Scopes: generated files write rationals without [%Q] (the rows of a table,
   the priors of [fmech_cw], [L # d]), so they rely on [Q_scope] being open.
   It is: importing [QArith], exported above, opens it.  The prelude opens no
   scope itself (opening [Q_scope] again would reorder the scope stack that
   generated files and the audit print statements with), and library files
   open theirs only locally. *)
