"""Tables calibrated with e^eps: entries are exact reals built from rationals, exp and ln
(k-ary randomized response with keep probability e^eps/(e^eps + k - 1), the exponential
mechanism).  Proved as an instance of a family proved for every eps (`krr_exp`,
`theories/Finite/ExpFamilies.v`), or from rational brackets of the entries that `interval`
proves (`theories/Finite/RealTable.v`); refuted when the brackets show a violation.
A formula whose values call exp or ln is tabulated into such a table (`formula.py`).
Template `calibrated.v.j2`; docs/calibrated.md."""
from __future__ import annotations

import time
from typing import Any, Mapping, Optional

from obligations.core.obligation import Verdict
from obligations.kinds import vacuous as V
from obligations.kinds.base import Unfolded
from obligations.kinds.calibrated import analysis as A
from obligations.kinds.calibrated import spec as calibrated_spec
from obligations.kinds.calibrated.document import render
from obligations.kinds.calibrated.spec import CalibratedSpec
from obligations.kinds.finite.form import Spec


class CalibratedKind:
    name = "calibrated"
    title = "table or formula with entries in exp and ln"
    form = Spec
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return calibrated_spec.claims(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> CalibratedSpec:
        return calibrated_spec.check(dict(data), file, sha256)

    def expand(self, spec: CalibratedSpec) -> list[CalibratedSpec]:
        return [spec]

    def derive(self, spec: CalibratedSpec, derived: Mapping[str, Any]) -> CalibratedSpec:
        raise ValueError("a table with exp or ln entries has no derived claims")

    def analyse(self, spec: CalibratedSpec) -> Unfolded:
        t0 = time.perf_counter()
        c, plan = A.analyse(spec)
        plan = V.flagged(plan, V.without_pairs(spec))
        t1 = time.perf_counter()
        rendered = render(c, plan.expected)
        return Unfolded(spec, c, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        c: A.Calibrated = u.mechanism
        if c.set_witness is not None and u.plan.expected == Verdict.REFUTED:
            sw = c.set_witness
            outs = [c.output_label(y) for y in sw.ys]
            return {"text": (f"witness: x = {c.input_label(sw.x)}, x' = {c.input_label(sw.x2)}, "
                             f"S = {{{', '.join(outs)}}}: Pr[M(x) in S] - e^eps * Pr[M(x') in S] ~ "
                             f"{sw.excess:.12g} > delta = {c.spec.delta_text} (on the brackets)"),
                    "x": c.input_label(sw.x), "x_prime": c.input_label(sw.x2), "outputs": outs,
                    "exp_epsilon_upper_bound": str(sw.upper), "delta": str(c.spec.delta)}
        w = c.witness
        if w is None or u.plan.expected != Verdict.REFUTED:
            return None
        lo, hi = c.brackets.lo[w.x][w.y], c.brackets.hi[w.x2][w.y]
        return {"text": (f"witness: x = {c.input_label(w.x)}, x' = {c.input_label(w.x2)}, "
                         f"S = {{{c.output_label(w.y)}}}: Pr[M(x) in S] >= {float(lo):.12g} > "
                         f"e^eps * Pr[M(x') in S] (<= {float(w.upper):.12g} * {float(hi):.12g}); "
                         f"M(x)(y) / M(x')(y) ~ {w.ratio:.12g}"),
                "x": c.input_label(w.x), "x_prime": c.input_label(w.x2), "outputs": [c.output_label(w.y)],
                "pr_x_lower": str(lo), "pr_x_prime_upper": str(hi), "exp_epsilon_upper_bound": str(w.upper),
                "delta": "0"}

    def summary(self, spec: CalibratedSpec) -> str:
        return (f"{spec.inputs.size} inputs x {spec.outputs.size} outputs, entries with exp/ln, "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s, c = u.spec, u.mechanism
        route = ("family krr_exp" if c.family is not None else
                 "brackets" if c.lower is not None else
                 "bracket witness" if c.witness is not None or c.set_witness is not None else "none")
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
                                "route": route, "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, {s.delta_text})-DP",
                 f"  tight epsilon ~ {u.plan.tight_epsilon}; route: {route}; Python expects: {u.plan.expected}"]
        lines += [f"  note: {n}" for n in u.plan.notes]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: CalibratedSpec) -> None:
        return None


CALIBRATED = CalibratedKind()

__all__ = ["CALIBRATED", "CalibratedKind"]
