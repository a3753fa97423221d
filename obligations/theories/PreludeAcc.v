(** * Prelude for generated files that certify compositions with the accountant

    The PLD prelude and the accountant's library: bounds with
    rounded loss keys (Accountant/PLDBound.v, PairKeys.v), convolution powers in floats
    rounded down (Below.v, DownFloat.v), the weights (Weights.v) and the theorems for one
    mechanism run k times (ComposeCheck.v), for chains of different ones (Chain.v,
    ChainCheck.v) and for additive noise over Z, infinite support (NoiseBox.v, NoiseDP.v,
    NoiseCheck.v; the discrete Laplace, DLaplace.v; the discrete Gaussian, DGauss.v and
    GaussCheck.v); Poisson subsampling of a table (Finite/Subsample.v); adaptive composition
    of finite rounds bounded by dominating pairs (Finite/Dominate.v, Adaptive.v, AdaptiveCheck.v). *)
From Obligations Require Export PreludePLD.
From Obligations.Accountant Require Export Below DownFloat PLDBound PairKeys Weights ComposeCheck Chain ChainCheck.
From Obligations.Accountant Require Export NoiseBox NoiseDP NoiseCheck DLaplace DGauss GaussCheck.
From Obligations.Finite Require Export Subsample Dominate.
From Obligations.Accountant Require Export Adaptive AdaptiveCheck.
