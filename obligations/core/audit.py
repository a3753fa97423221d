"""The audit every generated file ends with: each theorem's statement (`Check`) and
the axioms the theorems rest on (one `Print Assumptions`), printed by coqc while it
compiles the file, between markers (library `Core/Audit.v`) that the prover reads back.

One traversal for all the theorems: `Print Assumptions` of the tuple of them.  Coq
collects the axioms reachable from a constant's body; the tuple's body mentions the
theorems and `pair` only (an inductive with no axioms), so what it prints is exactly the
union of what each theorem's `Print Assumptions` would print, and the union is inside
the allow-list if and only if each theorem's assumptions are.  Each traversal walks the
standard library's real numbers (forcing their opaque proofs), which is most of a small
file's coqc time: once instead of once per theorem.
"""
from __future__ import annotations

from collections.abc import Sequence

STATEMENT, ASSUMPTIONS, END = "audit_statement", "audit_assumptions", "audit_end"
MARKERS = (STATEMENT, ASSUMPTIONS, END)
# The definition whose assumptions are printed: no spec can be named so (core/names.py),
# and no template's theorem ends in `_theorems`.
TUPLE = "audit_theorems"


def audit_tail(theorems: Sequence[str]) -> str:
    """The Coq text that prints the audit of `theorems`: their statements, in order, with
    the reals' scope on top and on one line each, then the assumptions of all of them."""
    if not theorems:
        raise ValueError("a generated file audits at least one theorem")
    lines = ["", "(** ** The audit: what coqc prints of each theorem's statement, and the axioms they rest on *)",
             "Local Open Scope R_scope.", "Local Set Printing Width 100000."]
    for t in theorems:
        lines += [f"Check {STATEMENT}.", f"Check {t}."]
    # `@`: a theorem with implicit arguments stands for itself, not an application of it
    lines += [f"Definition {TUPLE} := ({', '.join('@' + t for t in theorems)}).",
              f"Check {ASSUMPTIONS}.", f"Print Assumptions {TUPLE}.", f"Check {END}."]
    return "\n".join(lines) + "\n"
