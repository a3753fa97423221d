(** * Prelude: the one import of every generated refutation by a ratio against a union of products of tails

    A program refuted under continuous Laplace noise by an event whose probability from one
    input exceeds e^(c·ε) times the other's, the neighbour's tapes into the event covered by
    one product of tails per piece of a pivot position's line ([not_rdp_of_rcover],
    Laplace/RatioCover.v): exports [PreludeLaplaceRatio] (the symbolic run, the box's leaves)
    and the cover's lemma and leaf tactic [rrcover] (Laplace/RunCover.v).  Requiring it brings
    mathcomp-analysis's axioms (the allow-list admits them for these files only, as for
    [PreludeLaplace]). *)
From Obligations Require Export PreludeLaplaceRatio.
From Obligations.Laplace Require Export RatioCover RunCover.
