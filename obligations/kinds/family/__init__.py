"""Families: formula specs with symbolic parameters, proved for every parameter value the
constraints allow by instantiating a library theorem (`theories/Finite/Family.v`,
`TGeom.v`, `RR.v`), after Coq proves the spec's formula equal to the family's, case by
case.  Template `family.v.j2`; numeric instances of formula specs take the same route
(`instance.py`, used by the finite kind)."""
from __future__ import annotations

import time
from typing import Any, Mapping, Optional

from obligations.core.obligation import ExpUpperBound, Witness
from obligations.kinds import vacuous as V
from obligations.kinds.base import Unfolded
from obligations.kinds.family import analysis as A
from obligations.kinds.family import spec as family_spec
from obligations.kinds.family.document import Route, render
from obligations.kinds.family.form import FamilyFile
from obligations.kinds.family.spec import FamilySpec


class FamilyKind:
    name = "family"
    title = "formula with symbolic parameters"
    form = FamilyFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return family_spec.is_family(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> FamilySpec:
        return family_spec.check(dict(data), file, sha256)

    def expand(self, spec: FamilySpec) -> list[FamilySpec]:
        return [spec]

    def derive(self, spec: FamilySpec, derived: Mapping[str, Any]) -> FamilySpec:
        raise ValueError("a family has no derived claims")

    def analyse(self, spec: FamilySpec) -> Unfolded:
        t0 = time.perf_counter()
        fa, plan = A.analyse(spec)
        plan = V.flagged(plan, V.family(spec.inputs, spec.neighbours))
        t1 = time.perf_counter()
        route = Route(spec.name, spec.description, spec.path, spec.sha256, spec.types, spec.constants,
                      tuple((p.name, p.constraint) for p in spec.symbols),
                      (*spec.inputs, *spec.outputs), spec.formula, spec.neighbours, spec.epsilon,
                      spec.epsilon_text)
        refute = None
        if fa.instance is not None:
            upper = next(o for o in plan.obligations if isinstance(o, ExpUpperBound))
            w = next(o for o in plan.obligations if isinstance(o, Witness))
            refute = (fa.instance, upper, w)
        rendered = render(route, fa.match, refute=refute, proved=plan.expected == "proved")
        return Unfolded(spec, fa, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        fa: A.FamilyAnalysis = u.mechanism
        if fa.instance is None or fa.table is None:
            return None
        from obligations.kinds.finite import table_witness   # the instance's table, as the finite kind reads it
        inst = Unfolded(fa.table.spec, fa.table, u.plan, u.rendered, {})
        w = table_witness(inst)
        if w is not None:
            w["parameters"] = {k: str(v) for k, v in fa.instance.items() if k in {p.name for p in fa.spec.symbols}}
        return w

    def summary(self, spec: FamilySpec) -> str:
        return (f"family over {', '.join(p.name for p in spec.symbols)}, "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP for every parameter value")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s, fa = u.spec, u.mechanism
        item: dict[str, Any] = {
            "name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
            "family": fa.match.family.name, "binding": dict(fa.match.binding),
            "constraints": [p.constraint.text(p.name) for p in s.symbols if p.constraint],
            "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, {s.delta_text})-DP for "
                 + ", ".join(item["constraints"]),
                 f"  the library's {item['family']} ({fa.match.family.title}) with "
                 + ", ".join(f"{f} = {v}" for f, v in fa.match.binding)
                 + f"; its epsilon {u.plan.tight_epsilon}; Python expects: {u.plan.expected}"]
        lines += [f"  note: {n}" for n in u.plan.notes]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: FamilySpec) -> None:
        return None


FAMILY = FamilyKind()
