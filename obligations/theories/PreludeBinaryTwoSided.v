(** * Prelude for generated files about snapping in binary64 at concrete parameters, by the two refinements
    Everything of PreludeBinary.v, and the two-sided theorem with K a parameter: [float_snap_dp_two_correct]
    (SnapTwoSidedDP.v: U*'s factor at one end per sign, each input's own distance to each end; a correctly
    rounded logarithm) and [float_snap_dp_two_log] (SnapTwoSidedLog.v: a logarithm within a relative mu).
    What the generator uses for a concrete claim that [float_snap_dp_tight]'s K does not reach.  A prelude of
    its own, so that the other binary64 certificates keep their library. *)
From Obligations Require Export PreludeBinary.
From Obligations.Float Require Export SnapTwoSidedRatio SnapTwoSidedCond SnapTwoSidedDP SnapTwoSidedLog.
