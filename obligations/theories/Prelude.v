(** * Prelude: the one import of every generated file *)
From Coq Require Export List QArith Qabs Qminmax Qreals Reals Lra ZArith.
From Obligations.Core Require Export Sums ExpBounds.
From Obligations.Finite Require Export Mechanism Neighbours DP Checker CheckerSound Refutation Compose Adjacent Region.
From Obligations.Program Require Export ProgramSyntax Dist ProgramSem ProgramMech.
Export ListNotations.

(* Scopes: generated files write rationals without [%Q] (the rows of a table,
   the priors of [fmech_cw], [L # d]), so they rely on [Q_scope] being open.
   It is: importing [QArith], exported above, opens it.  The prelude opens no
   scope itself (opening [Q_scope] again would reorder the scope stack that
   generated files and the audit print statements with), and library files
   open theirs only locally. *)
