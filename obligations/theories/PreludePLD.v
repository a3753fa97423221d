(** * Prelude for generated files that certify a k-fold composition by its PLD

    The finite prelude, the interval arithmetic on primitive floats of coq-interval
    (the module [I] of Finite/PLDCheck.v), the PLD library and the KOV bound (Finite/KOV.v). *)
From Coq Require Export List ZArith QArith Qreals Reals.
From Interval Require Export Float.Primitive_ops Interval.Float_full Interval.Interval Real.Xreal.
From Obligations Require Export Prelude.
From Obligations.Core Require Export RealFacts.
From Obligations.Finite Require Export Family TGeom RR PLD PLDCheck PLDTwo KOV.
