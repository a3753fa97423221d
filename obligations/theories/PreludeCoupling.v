(** * Prelude: the one import of every generated all-k (alignment) file

    Exports the standard library those files use, the program syntax and the
    Coupling part of the library: the two-sided geometric distribution, sums
    as least upper bounds, the alignment lemma, the tape semantics and the
    sparse-vector family's alignment. *)
From Coq Require Export List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Export RealFacts Sums Audit.
From Obligations.Program Require Export ProgramSyntax ProgramSem.
From Obligations.Coupling Require Export LubSum Geometric Product Alignment SeqTape SparseVector
  ReportNoisyMax.
Export ListNotations.
