"""Mechanisms calibrated with e^eps given by their family and parameters, not by a table:
the truncated geometric over {0..n} with alpha = e^(-eps) (`geometric: {epsilon, n}`),
proved as an instance of `rgeom_rdp_distance` (`theories/Finite/GeomExp.v`, for every
eps >= 0, n and d), so n = 10 000 costs what n = 100 does; the exponential mechanism over a
score table (`exponential: {coefficient, scores}`), an instance of `expmech_rdp`
(`theories/Finite/ExpMech.v`, (2·c·Δ, 0)-DP for every table of sensitivity Δ).
Templates `expfamily.v.j2`, `expmech.v.j2`; docs/calibrated.md."""
from __future__ import annotations

import time
from typing import Any, Mapping, Optional

from obligations.core.obligation import Verdict
from obligations.kinds import vacuous as V
from obligations.kinds.base import Unfolded
from obligations.kinds.expfamily import analysis as A
from obligations.kinds.expfamily import spec as expfamily_spec
from obligations.kinds.expfamily.document import render
from obligations.kinds.expfamily.form import ExpFamilySpec as Form
from obligations.kinds.expfamily.spec import ExpFamilySpec


class ExpFamilyKind:
    name = "expfamily"
    title = "mechanism calibrated with e^eps, by its family's parameters"
    form = Form
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return expfamily_spec.claims(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> ExpFamilySpec:
        return expfamily_spec.check(dict(data), file, sha256)

    def expand(self, spec: ExpFamilySpec) -> list[ExpFamilySpec]:
        return [spec]

    def derive(self, spec: ExpFamilySpec, derived: Mapping[str, Any]) -> ExpFamilySpec:
        raise ValueError("a mechanism calibrated with e^eps has no derived claims")

    def analyse(self, spec: ExpFamilySpec) -> Unfolded:
        t0 = time.perf_counter()
        m, plan = A.analyse(spec)
        plan = V.flagged(plan, V.geometric(spec.n, spec.distance) if spec.family == "geometric"
                         else V.without_pairs(spec))
        t1 = time.perf_counter()
        rendered = render(m, plan.expected)
        return Unfolded(spec, m, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        m = u.mechanism
        w = m.witness
        if w is None or u.plan.expected != Verdict.REFUTED:
            return None
        s: ExpFamilySpec = u.spec
        if s.family == "exponential":
            x, x2, y = s.inputs.labels[w.x], s.inputs.labels[w.x2], s.outputs.labels[w.y]
            return {"text": (f"witness: x = {x}, x' = {x2}, S = {{{y}}}: Pr[M(x) in S] / Pr[M(x') in S] "
                             f"~ {w.ratio:.12g} > e^claim (the entries compared by interval)"),
                    "x": x, "x_prime": x2, "outputs": [y], "ratio": f"{w.ratio:.12g}", "delta": "0"}
        return {"text": (f"witness: x = {w.x}, x' = {w.x2}, S = {{{w.y}}}: Pr[M(x) in S] = "
                         f"e^({w.x2}*eps) * Pr[M(x') in S], e^({w.x2}*eps) ~ {w.ratio:.12g} > e^claim"),
                "x": str(w.x), "x_prime": str(w.x2), "outputs": [str(w.y)],
                "ratio": f"exp({w.x2}*({m.spec.calibration_text}))", "delta": "0"}

    def summary(self, spec: ExpFamilySpec) -> str:
        if spec.family == "exponential":
            return (f"exponential mechanism, {spec.inputs.size} inputs x {spec.outputs.size} outputs, weights "
                    f"exp(({spec.calibration_text}) * score), claim ({spec.epsilon_text}, {spec.delta_text})-DP")
        return (f"truncated geometric over 0..{spec.n} with alpha = exp(-({spec.calibration_text})), "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s = u.spec
        route = "family expmech" if s.family == "exponential" else "family rgeom"
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
                                "route": route, "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, {s.delta_text})-DP",
                 f"  tight epsilon ~ {u.plan.tight_epsilon}; route: {route}; Python expects: {u.plan.expected}"]
        lines += [f"  note: {n}" for n in u.plan.notes]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: ExpFamilySpec) -> None:
        return None


EXPFAMILY = ExpFamilyKind()

__all__ = ["EXPFAMILY", "ExpFamilyKind"]
