"""The Coq file of an all-parameters binary snapping claim (template `binary_snapping_all.v.j2`,
prelude `PreludeBinary`): the claim's constants against the library's closed form
`snap_binary64_dp_tight`, and the theorem for every lambda, Lambda, B in the proved ranges."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.float.all_parameters_spec import BinarySnappingAllSpec

TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping_all.v.j2"
PRELUDE = "PreludeBinary"


@dataclass(frozen=True)
class BinarySnappingAllAnalysis:
    """The library's constants for the spec's logarithm and whether the claim is at or above them."""
    spec: BinarySnappingAllSpec
    provable: bool


def theorems(a: BinarySnappingAllAnalysis) -> tuple[str, ...]:
    return (f"{a.spec.name}_dp",)


# The file's lemmas (after NAME_) and the tactics each proof in the template uses, in order of
# first use, the theorem last (tests/unit/test_binary_snapping_all.py reads
# the rendered file against this list).
FILE_LEMMAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mu_nonneg", ("rewrite", "lra")),
    ("mu_le", ("unfold", "rewrite", "lra")),
    ("m_max", ("unfold", "lra")),
    ("a_ok", ("unfold", "lra")),
    ("b_ok", ("unfold", "lra")),
)
# The theorem: a correctly rounded log goes through the library's `_correct` corollary (its
# premises by lia and lra), a log within k ulps through the general theorem.
DP_CORRECT = ("dp", ("intros", "assert", "lia", "eapply", "exact", "apply", "lra", "rewrite", "unfold"))
DP_ULPS = ("dp", ("intros", "eapply", "exact", "apply", "assert", "lra", "rewrite", "unfold"))


def file_lemmas(a: BinarySnappingAllAnalysis) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The lemmas the generated file has, in order, with their proofs' tactics."""
    return FILE_LEMMAS + ((DP_CORRECT if a.spec.ulps is None else DP_ULPS),)


def mu_term(s: BinarySnappingAllSpec) -> str:
    if s.ulps is None:
        return "eta 53"
    return f"2 * {s.ulps} * eta 53 / (1 - 2 * {s.ulps} * eta 53)"


def render(a: BinarySnappingAllAnalysis) -> Rendered:
    s = a.spec
    tie = {"up": "TiesUp", "down": "TiesDown"}.get(s.ties, "t")
    ties_text = "every tie rule t of the rounding to the grid" if s.ties == "any" else \
        f"ties {s.ties} in the rounding to the grid"
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description), log_text=comment(s.log_text), mu=mu_term(s),
        mu_text=comment(mu_term(s)), m=r_lit(s.m), m_text=comment(str(s.m)), a=r_lit(s.a), b=r_lit(s.b),
        a_text=comment(s.a_text), b_text=comment(s.b_text), tie=tie, ties_text=ties_text,
        tie_binder="(t : tie) " if s.ties == "any" else "", tie_intro="t " if s.ties == "any" else "",
        correct=s.ulps is None, lnf="lnf" if s.ulps is not None else "(fun v => rnd 53 (-1074) choice (ln v))")
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(a))
