(** * Audit markers

    Every generated file ends with its own audit: for each theorem, [Check]
    prints its statement and [Print Assumptions] the axioms it rests on.  The
    tool reads them in coqc's output between these markers, printed by
    [Check audit_statement.] and the like; they name nothing else, so no other
    output of the file reads as one. *)
Inductive audit_marker : Set :=
  | audit_statement
  | audit_assumptions
  | audit_end.
