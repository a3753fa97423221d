(** * Prelude: the one import of every generated file *)
From Coq Require Export List QArith Qabs Qminmax Qreals Reals Lra ZArith.
From Obligations Require Export Sums Mechanism Neighbours DP Checker CheckerSound Refutation ExpBounds Compose Adjacent Region
  ProgramSyntax Dist ProgramSem ProgramMech.
Export ListNotations.
