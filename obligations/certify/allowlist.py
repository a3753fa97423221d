"""The axioms a certificate may rest on (documented in docs/certificates.md, "Axioms allow-list").

Names are Coq's full kernel names, matched exactly (never by prefix), as coqchk
prints them; `Print Assumptions` prints shorter names, which the audit maps to
full ones through coqchk's summary of the same environment.

- The standard library's classical real numbers: every statement about R uses them.
- When e^ε is irrational, the `interval` tactic computes with primitive 63-bit
  integers and floats; their operations and specifications are axioms of the
  standard library (Coq 8.16), listed here one by one.
Anything else, an `Admitted` lemma above all (it shows up as an axiom under
its own name), is refused; so is any axiom declared in a generated file or in
our library, whether or not a theorem uses it.
"""
from __future__ import annotations

from collections.abc import Iterable

REALS = frozenset({
    "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
    "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
    "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep",
    "Coq.Logic.Classical_Prop.classic",
})

# The primitive integer and float operations and their specifications (Coq 8.16).
PRIMITIVE = frozenset({
    "Coq.Floats.FloatAxioms.Leibniz.eqb_spec",
    "Coq.Floats.FloatAxioms.Prim2SF_SF2Prim",
    "Coq.Floats.FloatAxioms.Prim2SF_valid",
    "Coq.Floats.FloatAxioms.SF2Prim_Prim2SF",
    "Coq.Floats.FloatAxioms.abs_spec",
    "Coq.Floats.FloatAxioms.add_spec",
    "Coq.Floats.FloatAxioms.classify_spec",
    "Coq.Floats.FloatAxioms.compare_spec",
    "Coq.Floats.FloatAxioms.div_spec",
    "Coq.Floats.FloatAxioms.eqb_spec",
    "Coq.Floats.FloatAxioms.frshiftexp_spec",
    "Coq.Floats.FloatAxioms.ldshiftexp_spec",
    "Coq.Floats.FloatAxioms.leb_spec",
    "Coq.Floats.FloatAxioms.ltb_spec",
    "Coq.Floats.FloatAxioms.mul_spec",
    "Coq.Floats.FloatAxioms.next_down_spec",
    "Coq.Floats.FloatAxioms.next_up_spec",
    "Coq.Floats.FloatAxioms.normfr_mantissa_spec",
    "Coq.Floats.FloatAxioms.of_uint63_spec",
    "Coq.Floats.FloatAxioms.opp_spec",
    "Coq.Floats.FloatAxioms.sqrt_spec",
    "Coq.Floats.FloatAxioms.sub_spec",
    "Coq.Floats.PrimFloat.Leibniz.eqb",
    "Coq.Floats.PrimFloat.abs",
    "Coq.Floats.PrimFloat.add",
    "Coq.Floats.PrimFloat.classify",
    "Coq.Floats.PrimFloat.compare",
    "Coq.Floats.PrimFloat.div",
    "Coq.Floats.PrimFloat.eqb",
    "Coq.Floats.PrimFloat.float",
    "Coq.Floats.PrimFloat.frshiftexp",
    "Coq.Floats.PrimFloat.ldshiftexp",
    "Coq.Floats.PrimFloat.leb",
    "Coq.Floats.PrimFloat.ltb",
    "Coq.Floats.PrimFloat.mul",
    "Coq.Floats.PrimFloat.next_down",
    "Coq.Floats.PrimFloat.next_up",
    "Coq.Floats.PrimFloat.normfr_mantissa",
    "Coq.Floats.PrimFloat.of_uint63",
    "Coq.Floats.PrimFloat.opp",
    "Coq.Floats.PrimFloat.sqrt",
    "Coq.Floats.PrimFloat.sub",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.add",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.addc",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.addcarryc",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.addmuldiv",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.asr",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.compare",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.compares",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.div",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.diveucl",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.diveucl_21",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.divs",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.eqb",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.head0",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.int",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.land",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.leb",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.lesb",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.lor",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.lsl",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.lsr",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.ltb",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.ltsb",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.lxor",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.mod",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.mods",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.mul",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.mulc",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.sub",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.subc",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.subcarryc",
    "Coq.Numbers.Cyclic.Int63.PrimInt63.tail0",
    "Coq.Numbers.Cyclic.Int63.Uint63.add_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.addc_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.addcarryc_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.addmuldiv_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.compare_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.div_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.diveucl_21_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.diveucl_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.eqb_correct",
    "Coq.Numbers.Cyclic.Int63.Uint63.eqb_refl",
    "Coq.Numbers.Cyclic.Int63.Uint63.head0_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.land_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.leb_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.lor_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.lsl_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.lsr_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.ltb_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.lxor_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.mod_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.mul_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.mulc_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.of_to_Z",
    "Coq.Numbers.Cyclic.Int63.Uint63.sub_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.subc_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.subcarryc_def_spec",
    "Coq.Numbers.Cyclic.Int63.Uint63.tail0_spec",
})

# Our own namespaces: neither the library nor a generated file declares any axiom.
OWN_NAMESPACES = ("Obligations.", "Certs.")


def refused(assumptions: Iterable[str], uses_interval: bool) -> list[str]:
    """The (full) assumption names outside the allow-list."""
    allowed = REALS | PRIMITIVE if uses_interval else REALS
    return [a for a in assumptions if a not in allowed]


def own_axioms(environment_axioms: Iterable[str]) -> list[str]:
    """Axioms (or Admitted lemmas) declared in our library or a generated file."""
    return sorted(a for a in environment_axioms if a.startswith(OWN_NAMESPACES))


def full_names(printed: Iterable[str], environment_axioms: Iterable[str]) -> tuple[list[str], list[str]]:
    """Map names as `Print Assumptions` prints them to full kernel names: each must be the
    dotted suffix of exactly one axiom of the environment.  Returns (full names, unresolved)."""
    env = list(environment_axioms)
    full: list[str] = []
    unresolved: list[str] = []
    for name in printed:
        matches = [a for a in env if a == name or a.endswith("." + name)]
        if len(matches) == 1:
            full.append(matches[0])
        else:
            unresolved.append(name)
    return full, unresolved
