(** * Prelude: the one import of every generated file about continuous Laplace noise for every stream length

    [PreludeLaplace] and the tactics that cross a loop with an invariant over the
    reals (Laplace/RealLoopSym.v), and the measurable output prophecy a shift reading the
    released index needs (Laplace/ReleasedIndex.v, Laplace/RunReleased.v).  Requiring it brings mathcomp-analysis's axioms
    (the allow-list admits them for these files only). *)
From Obligations Require Export PreludeLaplace.
From Obligations.Laplace Require Export RealLoopSym.
From Obligations.Laplace Require Export ReleasedIndex RunReleased.
