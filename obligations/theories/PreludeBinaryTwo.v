(** * Prelude for generated files about snapping in a binary format over a range, by the two refinements
    Everything of PreludeBinary.v, and the two refinements of the binary64 bound for all parameters of a
    range ([snap_binary64_two_ab], SnapTwoSided64.v: U*'s factor at one end per sign, each input's own
    distance to each end), stated as SnapSeed64.v's [snap64_constant]: what the generator uses for a
    range claim that SnapSeed64.v's [snap_binary64_dp_wide_ab] does not reach.  A prelude of its own, so
    that the other binary64 certificates keep their library. *)
From Obligations Require Export PreludeBinary.
From Obligations.Float Require Export SnapTwoSided64.
