(** * Prelude for generated floating-point pipeline files
    The finite and program parts (the runs of RunsMech.v and their checkers),
    Flocq's binary formats, the pipeline semantics and the logarithm table, and
    [interval] (which proves each table entry). *)
From Interval Require Export Tactic.
From Flocq Require Export Core.Core IEEE754.BinarySingleNaN.
From Obligations Require Export Prelude.
From Obligations.Float Require Export FloatPipeline LnTable FloatDP UStar.
