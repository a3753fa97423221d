(** * Prelude: the one import of every generated refutation under continuous Laplace noise

    A program refuted at a fixed stream length by an event reachable from one input on a box
    of tapes and impossible from its neighbour ([not_rdp_of_rbox], RealRefute.v): exports
    [PreludeLaplace] and the symbolic run of one program over the reals ([rrun], [rrleaf],
    RunSym.v).  Requiring it brings mathcomp-analysis's axioms (the allow-list admits them for
    these files only, as for [PreludeLaplace]). *)
From Obligations Require Export PreludeLaplace.
From Obligations.Laplace Require Export RunSym.
