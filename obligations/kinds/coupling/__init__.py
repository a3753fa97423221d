"""All-k programs: ε-DP for every stream length and every ε, by randomness alignment
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
import time
from typing import Any, Mapping, Optional

from obligations.core.document import DocumentBuilder
from obligations.core.obligation import Plan, Verdict
from obligations.core.spec import read
from obligations.core.templates import Rendered
from obligations.kinds.base import Unfolded
from obligations.kinds.coupling import analysis as A
from obligations.kinds.coupling.document import PRELUDE, render, render_rnm
from obligations.kinds.coupling.spec import CouplingSpec, CouplingSpecModel, check, is_all_k
from obligations.kinds.program.spec import check_program, expand as expand_program


class CouplingKind:
    name = "coupling"
    title = "program for every stream length"
    form = CouplingSpecModel
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return is_all_k(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> CouplingSpec:
        return check(data, file, sha256)

    def expand(self, spec: CouplingSpec) -> list[Any]:
        """The spec; and when no alignment is found, its fallback's finite claims after it."""
        if spec.fallback is None or isinstance(_search(spec), A.Alignment):
            return [spec]
        data, file, sha = read(spec.fallback)
        return [spec, *expand_program(check_program(data, file, sha))]

    def derive(self, spec: CouplingSpec, derived: Mapping[str, Any]) -> CouplingSpec:
        raise ValueError("an all-k claim has no derived claims")

    def analyse(self, spec: CouplingSpec) -> Unfolded:
        t0 = time.perf_counter()
        found = _search(spec)
        t1 = time.perf_counter()
        if isinstance(found, A.Alignment):
            s = A.shape(spec)
            if isinstance(s, A.RnmShape):
                rendered = render_rnm(spec, s, found)
                note = f"alignment: the winner's noise shifted by {found.top_text()}; cost {found.cost}·ε"
            else:
                assert isinstance(s, A.Shape)
                rendered = render(spec, s, found)
                note = (f"alignment: threshold noise shifted by {found.dt}, the query noise of ⊤ answers by "
                        f"{found.top_text()}; cost {found.cost}·ε")
            plan = _plan(Verdict.PROVED, (note,), _vacuity(spec))
        else:
            more = f"; falling back to enumeration at small k: {spec.fallback}" if spec.fallback else \
                "; no fallback spec to enumerate (give `fallback:`)"
            plan = _plan(Verdict.UNDECIDED, (_reason(found) + more,))
            rendered = Rendered(spec.name, DocumentBuilder().build(spec.name, "", PRELUDE), ())
        return Unfolded(spec, found, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return None

    def summary(self, spec: CouplingSpec) -> str:
        return f"program over a stream of any length, claim ({spec.epsilon_text}, 0)-DP by alignment"

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        item: dict[str, Any] = {"name": u.spec.name, "expected": u.plan.expected, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems),
                                "obligations": [{"name": s.name, "statement": s.statement}
                                                for s in u.rendered.document.slots]}
        lines = [f"{u.spec.name} ({u.spec.path}): claim ({u.spec.epsilon_text}, 0)-DP",
                 *(f"  {n}" for n in u.plan.notes),
                 *(f"  obligation {s.name} : {s.statement}" for s in u.rendered.document.slots)]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: CouplingSpec) -> None:
        return None


def _search(spec: CouplingSpec) -> A.Search | A.Outside:
    s = A.shape(spec)
    if isinstance(s, A.Outside):
        return s
    return A.search_rnm(s) if isinstance(s, A.RnmShape) else A.search(s)


def _reason(found: A.Search | A.Outside) -> str:
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


COUPLING = CouplingKind()
