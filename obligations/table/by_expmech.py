"""Route: the exponential mechanism over a score table (`exponential: {coefficient,
scores}`), an instance of `expmech_rdp` (`theories/Finite/ExpMech.v`: (2·c·Δ, 0)-DP for every
table of sensitivity Δ); refuted by the pair and output of the largest ratio, compared by
interval.  Template `expmech.v.j2`; docs/calibrated.md."""
from __future__ import annotations

from obligations.analysis import vacuous as V
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered
from obligations.table.by_geometric import describe_exp_family
from obligations.table.expfamily_analysis import ExpMech, exponential
from obligations.table.expfamily_document import render_expmech
from obligations.table.expfamily_spec import ExpFamilySpec


class ByExpMech(Route[ExpFamilySpec, ExpMech]):
    name = "family expmech"

    def applies(self, spec: ExpFamilySpec) -> bool:
        return spec.family == "exponential"

    def analyse(self, spec: ExpFamilySpec) -> Analysed[ExpMech]:
        m, plan = exponential(spec)
        return Analysed(m, V.flagged(plan, V.without_pairs(spec)))

    def render(self, spec: ExpFamilySpec, a: Analysed[ExpMech]) -> Rendered:
        return render_expmech(a.mechanism, a.plan.expected)

    def witness(self, u: Unfolded[ExpFamilySpec, ExpMech]) -> Witness | None:
        w = u.mechanism.witness
        if w is None or u.plan.expected != Verdict.REFUTED:
            return None
        s = u.spec
        x, x2, y = s.inputs.labels[w.x], s.inputs.labels[w.x2], s.outputs.labels[w.y]
        return {"text": (f"witness: x = {x}, x' = {x2}, S = {{{y}}}: Pr[M(x) in S] / Pr[M(x') in S] "
                         f"~ {w.ratio:.12g} > e^claim (the entries compared by interval)"),
                "x": x, "x_prime": x2, "outputs": [y], "ratio": f"{w.ratio:.12g}", "delta": "0"}

    def describe(self, u: Unfolded[ExpFamilySpec, ExpMech]) -> Description:
        return describe_exp_family(u, self.name)


BY_EXPMECH = ByExpMech()
