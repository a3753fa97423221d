(** * Prelude for generated files about snapping in a binary format over a range, an input inside a bucket in pieces
    Everything of PreludeBinary.v, and the binary64 bound for all parameters of a range with the two
    refinements and an input inside a bucket taken piece by piece ([snap_binary64_two_split_ab],
    SnapTwoSidedPieces64.v; no B ≥ λ), stated as SnapSeed64.v's [snap64_constant]: what the generator
    uses for a range claim that neither [snap_binary64_dp_wide_ab] nor [snap_binary64_two_ab] reaches.
    A prelude of its own, so that the other binary64 certificates keep their library. *)
From Obligations Require Export PreludeBinary.
From Obligations.Float Require Export SnapTwoSided64 SnapTwoSidedPieces64.
