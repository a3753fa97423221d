(** * Prelude: the one import of every generated file about continuous Laplace noise

    A program at a fixed stream length, proved by the alignment route over the
    reals: exports the standard library those files use, the program syntax,
    the neighbour relations, the semantics over the reals, the aligned run,
    its soundness theorem ([rdp_of_aligned]) and the tactics of the symbolic
    execution ([rsym], [rfinal]) and of the measurable pieces
    ([zshift_mfibers] and [mshift], RunFibers.v; FiberSym.v's
    [mfibers_zshift]).  Requiring it brings mathcomp-analysis's axioms (the
    allow-list admits them for these files only). *)
From Coq Require Export List ZArith Bool Reals Lia Lra.
From Obligations.Core Require Export Audit.
From Obligations.Program Require Export ProgramSyntax.
From Obligations.Coupling Require Export TapeSem InputRel.
From Obligations.Laplace Require Export RealTape RealRelational RealAlignRun RealAlignSteps RealSym.
From Obligations.Laplace Require Export TapeMeasure ProgAlign TapeFibers FiberSym RealAlignSound RunFibers RealRefute.
Export ListNotations.
