(** * Prelude for generated files that decide the discrete Laplace's pure DP

    The base prelude and Accountant/DLapPure.v (its theorems [zdp_dlap_pure_dec],
    [not_zdp_dlap_pure_dec] and the rational checks they run), with what they state:
    [zdp], [zpr], [dlap]; none of the accountant's convolutions. *)
From Obligations Require Export Prelude.
From Obligations.Accountant Require Export NoiseDP DLaplace DLapPure.
