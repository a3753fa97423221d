(** * Prelude for generated files that certify the discrete Gaussian by one Rényi moment

    The base prelude and the checks of Accountant/DGaussZcdpCheck.v (a rational order, what the
    route calls) and Accountant/DGaussRenyiCheck.v (integer orders), with what they state:
    [zdp], [dgauss]; none of the accountant's convolutions. *)
From Obligations Require Export Prelude.
From Obligations.Accountant Require Export NoiseDP DGauss DGaussRenyiCheck DGaussZcdpCheck.
