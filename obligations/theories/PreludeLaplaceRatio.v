(** * Prelude: the one import of every generated refutation by a ratio under continuous Laplace noise

    A program refuted at a fixed stream length by an event of positive probability from both
    inputs, whose probability from one input exceeds e^(c·ε) times the other's at some ε
    ([not_rdp_of_rratio], RealRatio.v): exports [PreludeLaplaceRefute] (the symbolic run
    [rrun]), the ratio's lemma and the leaves' tactic [rrtail] (RunTails.v).  Requiring it
    brings mathcomp-analysis's axioms (the allow-list admits them for these files only, as for
    [PreludeLaplace]). *)
From Obligations Require Export PreludeLaplaceRefute.
From Obligations.Laplace Require Export RealRatio RunTails.
