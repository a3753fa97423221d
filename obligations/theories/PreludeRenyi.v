(** * Prelude for generated files that certify the discrete Gaussian by one Rényi moment

    The base prelude and the check of Accountant/DGaussRenyiCheck.v (with what it states:
    [zdp], [dgauss]); none of the accountant's convolutions. *)
From Obligations Require Export Prelude.
From Obligations.Accountant Require Export NoiseDP DGauss DGaussRenyiCheck.
