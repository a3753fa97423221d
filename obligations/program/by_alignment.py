"""Route: all-k programs, ε-DP for every stream length and every ε, by randomness alignment
checked in Coq (`theories/Coupling/`, template `svt.v.j2`).

A spec claims `{for_all_k: true}` for a program over a stream of any length with
untruncated geometric noise.  The analysis reads the program's shape (the
sparse-vector fragment, `analysis.shape`), searches an alignment (`analysis.search`)
and renders the file; when the program is outside the fragment or no alignment is
found the claim is undecided (exit 1) with the reason, and the spec's `fallback` (a
finite program spec) is enumerated at small k instead, which refutes a non-private
program with a witness.
"""
from __future__ import annotations

import math
from typing import Any

from obligations.core.document import DocumentBuilder
from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.spec import read
from obligations.core.templates import Rendered
from obligations.program import coupling_analysis as A
from obligations.program.coupling_document import PRELUDE, render, render_rnm
from obligations.program.coupling_spec import CouplingSpec
from obligations.program.spec import check_program
from obligations.program.spec import expand as expand_program

Found = A.Search | A.Outside


class ByAlignment(Route[CouplingSpec, Found]):
    name = "by alignment"

    def analyse(self, spec: CouplingSpec) -> Analysed[Found]:
        found = _search(spec)
        if isinstance(found, A.Alignment):
            s = A.shape(spec)
            if isinstance(s, A.RnmShape):
                note = f"alignment: the winner's noise shifted by {found.top_text()}; cost {found.cost}·ε"
            else:
                note = (f"alignment: threshold noise shifted by {found.dt}, the query noise of ⊤ answers by "
                        f"{found.top_text()}; cost {found.cost}·ε")
            return Analysed(found, _plan(Verdict.PROVED, (note,), _vacuity(spec)))
        more = f"; falling back to enumeration at small k: {spec.fallback}" if spec.fallback else \
            "; no fallback spec to enumerate (give `fallback:`)"
        return Analysed(found, _plan(Verdict.UNDECIDED, (_reason(found) + more,)))

    def render(self, spec: CouplingSpec, a: Analysed[Found]) -> Rendered:
        found = a.mechanism
        if not isinstance(found, A.Alignment):
            return Rendered(spec.name, DocumentBuilder().build(spec.name, "", PRELUDE), ())
        s = A.shape(spec)
        if isinstance(s, A.RnmShape):
            return render_rnm(spec, s, found)
        assert isinstance(s, A.Shape)
        return render(spec, s, found)

    def describe(self, u: Unfolded[CouplingSpec, Found]) -> Description:
        item: dict[str, Any] = {"name": u.spec.name, "expected": u.plan.expected, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems),
                                "obligations": [{"name": s.name, "statement": s.statement}
                                                for s in u.rendered.document.slots]}
        lines = [f"{u.spec.name} ({u.spec.path}): claim ({u.spec.epsilon_text}, 0)-DP",
                 *(f"  {n}" for n in u.plan.notes),
                 *(f"  obligation {s.name} : {s.statement}" for s in u.rendered.document.slots)]
        return item, lines


def fallback_claims(spec: CouplingSpec) -> list[Any]:
    """The spec; and when no alignment is found, its fallback's finite claims after it."""
    if spec.fallback is None or isinstance(_search(spec), A.Alignment):
        return [spec]
    data, file, sha = read(spec.fallback)
    return [spec, *expand_program(check_program(data, file, sha))]


def _search(spec: CouplingSpec) -> Found:
    s = A.shape(spec)
    if isinstance(s, A.Outside):
        return s
    return A.search_rnm(s) if isinstance(s, A.RnmShape) else A.search(s)


def _reason(found: Found) -> str:
    if isinstance(found, A.Outside):
        return f"outside the fragment the alignment logic covers ({found.field}): {found.message}"
    assert isinstance(found, A.NoAlignment)
    return f"no alignment found: {found.reason}"


def _plan(expected: Verdict, notes: tuple[str, ...], vacuous: tuple[str, ...] = ()) -> Plan:
    return Plan(expected=expected, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                delta_at_claim=None, delta_at_claim_float=math.nan, notes=notes, vacuous=vacuous)


def _vacuity(spec: CouplingSpec) -> tuple[str, ...]:
    """Why the claim holds for any program, if it does: neighbouring streams are equal."""
    if spec.delta_q == 0:
        return (f"the stream {spec.stream}'s sensitivity is 0, so neighbouring streams are equal: the claim "
                "holds for any program",)
    return ()


BY_ALIGNMENT = ByAlignment()
