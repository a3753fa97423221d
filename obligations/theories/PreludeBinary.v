(** * Prelude for generated files about snapping in a binary format, for all inputs
    The relative-error semantics and the assembled bounds [float_snap_dp] and
    [float_snap_dp_tight] (SnapTight.v: the sum's rounding as a threshold; any
    FLT format, any tie rule; its range premises are hypotheses), its closed form
    in binary64 for all parameters in range [snap_binary64_dp], the seed's and Mironov's
    constants where the grid is wide (SnapSeed64.v, with [exp_taylor_lower] of ExpBounds.v for
    its hint r0), Flocq's formats, and [interval] (which decides the premises at concrete parameters). *)
From Interval Require Export Tactic.
From Flocq Require Export Core.Core.
From Obligations.Core Require Export RealFacts Audit ExpTaylor ExpBounds.
From Obligations.Noise Require Export Rounding Clamp.
From Obligations.Float Require Export RelError SnapNoise UStarMeasure SnapOutput SnapInterior SnapRatio
  SnapFloatDP SnapPipeline SnapBinary64 SnapThreshold SnapTight SnapTight64 SnapSeed64.
