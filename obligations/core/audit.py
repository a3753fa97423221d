"""The audit every generated file ends with: each theorem's statement (`Check`) and
the axioms it rests on (`Print Assumptions`), printed by coqc while it compiles the
file, between markers (library `Core/Audit.v`) that the prover reads back."""
from __future__ import annotations

from collections.abc import Sequence

STATEMENT, ASSUMPTIONS, END = "audit_statement", "audit_assumptions", "audit_end"
MARKERS = (STATEMENT, ASSUMPTIONS, END)


def audit_tail(theorems: Sequence[str]) -> str:
    """The Coq text that prints the audit of `theorems`, in order.  Statements are
    printed with the reals' scope on top and on one line each."""
    lines = ["", "(** ** The audit: what coqc prints of each theorem (its statement, the axioms it rests on) *)",
             "Local Open Scope R_scope.", "Local Set Printing Width 100000."]
    for t in theorems:
        lines += [f"Check {STATEMENT}.", f"Check {t}.", f"Check {ASSUMPTIONS}.", f"Print Assumptions {t}."]
    lines.append(f"Check {END}.")
    return "\n".join(lines) + "\n"
