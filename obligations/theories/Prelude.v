(** * Prelude: the one import of every generated file *)
From Coq Require Export List QArith Qabs Qminmax Qreals Reals Lra ZArith.
From Obligations.Core Require Export Sums ExpBounds.
From Obligations.Finite Require Export Mechanism Neighbours DP Checker CheckerSound Refutation Compose Adjacent Region.
From Obligations.Program Require Export ProgramSyntax Dist ProgramSem ProgramMech.
Export ListNotations.
