(** * Prelude: the one import of every generated file of the generic alignment route

    Exports the standard library those files use, the program syntax, the tape
    semantics, the neighbour relations, the aligned run, the soundness theorem
    and the tactics of the symbolic execution. *)
From Coq Require Export List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Export RealFacts Sums Audit.
From Obligations.Program Require Export ProgramSyntax ProgramSem.
From Obligations.Coupling Require Export LubSum Geometric Product Alignment TapeSem InputRel Relational
  AlignSound AlignTactics.
Export ListNotations.
