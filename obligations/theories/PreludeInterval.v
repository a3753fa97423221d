(** * Prelude for generated files that bound e^ε with [interval] *)
From Interval Require Export Tactic.
From Obligations Require Export Prelude.
