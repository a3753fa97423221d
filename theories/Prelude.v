(** * Prelude: the one import of every generated file *)
From Coq Require Export List QArith Qreals Reals Lra.
From Obligations Require Export Sums Mechanism Neighbours DP Checker CheckerSound Refutation ExpBounds.
Export ListNotations.
