(** * Prelude for generated files that certify compositions with the accountant

    The PLD prelude and the accountant's library: bounds with
    rounded loss keys (Accountant/PLDBound.v, PairKeys.v), convolution powers in floats
    rounded down (Below.v, DownFloat.v), the weights (Weights.v) and the theorems for one
    mechanism run k times (ComposeCheck.v) and for chains of different ones (Chain.v,
    ChainCheck.v). *)
From Obligations Require Export PreludePLD.
From Obligations.Accountant Require Export Below DownFloat PLDBound PairKeys Weights ComposeCheck Chain ChainCheck.
