"""The axioms a certificate may rest on (documented in README.md, "Axioms").

- The standard library's classical real numbers: every statement about R uses them.
- When e^ε is irrational, the `interval` tactic computes with primitive 63-bit
  integers and floats, whose specifications are axioms of the standard library.
Anything else, an `Admitted` lemma above all (it shows up as an axiom under
its own name), is refused.
"""
from __future__ import annotations

REALS = frozenset({
    "ClassicalDedekindReals.sig_not_dec",
    "ClassicalDedekindReals.sig_forall_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
    "Classical_Prop.classic",
})

# Module prefixes of the primitive integer and float specifications.
PRIMITIVE_PREFIXES = ("PrimInt63.", "Uint63.", "PrimFloat.", "FloatAxioms.", "SpecFloat.")


def refused(assumptions: list[str], uses_interval: bool) -> list[str]:
    """The assumptions outside the allow-list."""
    bad = []
    for a in assumptions:
        if a in REALS:
            continue
        if uses_interval and a.startswith(PRIMITIVE_PREFIXES):
            continue
        bad.append(a)
    return bad
