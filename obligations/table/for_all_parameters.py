"""Route: a formula over symbolic parameters, proved for every parameter value the
constraints allow by instantiating a library theorem (`theories/Finite/Family.v`, `TGeom.v`,
`RR.v`) after Coq proves the spec's formula equal to the family's, case by case; or refuted
at a numeric instance with its table's witness.  Template `family.v.j2` (shared with the
numeric instances of `by_family.py`)."""
from __future__ import annotations

from typing import Any

from obligations.analysis import vacuous as V
from obligations.analysis.finite_report import table_witness
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import ExpUpperBound, Verdict
from obligations.core.obligation import Witness as WitnessObligation
from obligations.core.templates import Rendered
from obligations.table import family_analysis as A
from obligations.table.family_document import FamilyTemplate, render
from obligations.table.family_spec import FamilySpec


class ForAllParameters(Route[FamilySpec, A.FamilyAnalysis]):
    name = "for all parameters"

    def analyse(self, spec: FamilySpec) -> Analysed[A.FamilyAnalysis]:
        fa, plan = A.analyse(spec)
        return Analysed(fa, V.flagged(plan, V.family(spec.inputs, spec.neighbours)))

    def render(self, spec: FamilySpec, a: Analysed[A.FamilyAnalysis]) -> Rendered:
        fa, plan = a.mechanism, a.plan
        t = FamilyTemplate(spec.name, spec.description, spec.path, spec.sha256, spec.types, spec.constants,
                           tuple((p.name, p.constraint) for p in spec.symbols),
                           (*spec.inputs, *spec.outputs), spec.formula, spec.neighbours, spec.epsilon,
                           spec.epsilon_text)
        refute = None
        if fa.instance is not None:
            upper = next(o for o in plan.obligations if isinstance(o, ExpUpperBound))
            w = next(o for o in plan.obligations if isinstance(o, WitnessObligation))
            refute = (fa.instance, upper, w)
        return render(t, fa.match, refute=refute, proved=plan.expected == Verdict.PROVED)

    def witness(self, u: Unfolded[FamilySpec, A.FamilyAnalysis]) -> Witness | None:
        fa = u.mechanism
        if fa.instance is None or fa.table is None:
            return None
        w = table_witness(u.plan, fa.table)   # the instance's table, as a table's claim reads it
        if w is not None:
            w["parameters"] = {k: str(v) for k, v in fa.instance.items() if k in {p.name for p in fa.spec.symbols}}
        return w

    def describe(self, u: Unfolded[FamilySpec, A.FamilyAnalysis]) -> Description:
        s, fa = u.spec, u.mechanism
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
                "family": fa.match.family.name, "binding": dict(fa.match.binding),
                "constraints": [p.constraint.text(p.name) for p in s.symbols if p.constraint],
                "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, {s.delta_text})-DP for "
                 + ", ".join(item["constraints"]),
                 f"  the library's {item['family']} ({fa.match.family.title}) with "
                 + ", ".join(f"{f} = {v}" for f, v in fa.match.binding)
                 + f"; its epsilon {u.plan.tight_epsilon}; Python expects: {u.plan.expected}"]
        lines += [f"  note: {n}" for n in u.plan.notes]
        return item, lines


FOR_ALL_PARAMETERS = ForAllParameters()
