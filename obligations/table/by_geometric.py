"""Route: the truncated geometric over {0..n} with alpha = e^(-eps), given by its parameters
(`geometric: {epsilon, n}`), proved as an instance of `rgeom_rdp_distance`
(`theories/Finite/GeomExp.v`, for every eps >= 0, n and d): n = 10 000 costs what n = 100
does.  Template `expfamily.v.j2`; docs/calibrated.md."""
from __future__ import annotations

from typing import Any

from obligations.analysis import vacuous as V
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness, plan_description
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered
from obligations.table.expfamily_analysis import ExpFamily, geometric
from obligations.table.expfamily_document import render_geometric
from obligations.table.expfamily_spec import ExpFamilySpec


class ByGeometric(Route[ExpFamilySpec, ExpFamily]):
    name = "family rgeom"

    def applies(self, spec: ExpFamilySpec) -> bool:
        return spec.family == "geometric"

    def analyse(self, spec: ExpFamilySpec) -> Analysed[ExpFamily]:
        m, plan = geometric(spec)
        return Analysed(m, V.flagged(plan, V.geometric(spec.n, spec.distance)))

    def render(self, spec: ExpFamilySpec, a: Analysed[ExpFamily]) -> Rendered:
        return render_geometric(a.mechanism, a.plan.expected)

    def witness(self, u: Unfolded[ExpFamilySpec, ExpFamily]) -> Witness | None:
        w = u.mechanism.witness
        if w is None or u.plan.expected != Verdict.REFUTED:
            return None
        return {"text": (f"witness: x = {w.x}, x' = {w.x2}, S = {{{w.y}}}: Pr[M(x) in S] = "
                         f"e^({w.x2}*eps) * Pr[M(x') in S], e^({w.x2}*eps) ~ {w.ratio:.12g} > e^claim"),
                "x": str(w.x), "x_prime": str(w.x2), "outputs": [str(w.y)],
                "ratio": f"exp({w.x2}*({u.spec.calibration_text}))", "delta": "0"}

    def describe(self, u: Unfolded[ExpFamilySpec, ExpFamily]) -> Description:
        return describe_exp_family(u, self.name)


def describe_exp_family(u: Unfolded[ExpFamilySpec, Any], how: str) -> Description:
    s = u.spec
    return plan_description(u, f"claim ({s.epsilon_text}, {s.delta_text})-DP",
                            f"tight epsilon ~ {u.plan.tight_epsilon}; route: {how}",
                            tight_epsilon=u.plan.tight_epsilon, route=how)


BY_GEOMETRIC = ByGeometric()
