(** * Prelude for generated files that decide pure DP of additive noise

    The base prelude, Accountant/DLapPure.v (its theorems [zdp_dlap_pure_dec],
    [not_zdp_dlap_pure_dec] and the rational checks they run) and Accountant/DGaussPure.v
    (the discrete Gaussian refuted at every ε: [not_zdp_dgauss_pure_dec]), with what they
    state: [zdp], [zpr], [dlap], [dgauss]; none of the accountant's convolutions. *)
From Obligations Require Export Prelude.
From Obligations.Accountant Require Export NoiseDP DLaplace DLapPure DGauss DGaussPure.
