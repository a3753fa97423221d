(** * Prelude: the one import of every generated refutation of an every-k claim

    Exports the standard library those files use, the program syntax, the tape
    semantics, the neighbour relations and the certified counterexamples
    (Coupling/Refute.v: balls of noise vectors bracket the two probabilities). *)
From Coq Require Export List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Export RealFacts Sums Audit.
From Obligations.Program Require Export ProgramSyntax ProgramSem.
From Obligations.Coupling Require Export LubSum Geometric Product Alignment TapeSem InputRel Bracket RatDens
  Refute Prune.
Export ListNotations.
