"""Route: a table whose entries are exact reals built from rationals, exp and ln (k-ary
randomized response with keep probability e^eps/(e^eps + k - 1), the exponential mechanism),
or a formula whose values are, tabulated.  Proved as an instance of a family proved for every
eps (`krr_exp`, `theories/Finite/ExpFamilies.v`), or from rational brackets of the entries
that `interval` proves (`theories/Finite/RealTable.v`); refuted when the brackets show a
violation.  Template `calibrated.v.j2`; docs/calibrated.md."""
from __future__ import annotations

from obligations.analysis import vacuous as V
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness, plan_description
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered
from obligations.table import calibrated_analysis as A
from obligations.table.calibrated_document import render
from obligations.table.calibrated_spec import CalibratedSpec


class ByBrackets(Route[CalibratedSpec, A.Calibrated]):
    name = "by brackets"

    def analyse(self, spec: CalibratedSpec) -> Analysed[A.Calibrated]:
        c, plan = A.analyse(spec)
        return Analysed(c, V.flagged(plan, V.without_pairs(spec)))

    def render(self, spec: CalibratedSpec, a: Analysed[A.Calibrated]) -> Rendered:
        return render(a.mechanism, a.plan.expected)

    def witness(self, u: Unfolded[CalibratedSpec, A.Calibrated]) -> Witness | None:
        c = u.mechanism
        if u.plan.expected != Verdict.REFUTED:
            return None
        if c.set_witness is not None:
            sw = c.set_witness
            outs = [c.output_label(y) for y in sw.ys]
            return {"text": (f"witness: x = {c.input_label(sw.x)}, x' = {c.input_label(sw.x2)}, "
                             f"S = {{{', '.join(outs)}}}: Pr[M(x) in S] - e^eps * Pr[M(x') in S] ~ "
                             f"{sw.excess:.12g} > delta = {c.spec.delta_text} (on the brackets)"),
                    "x": c.input_label(sw.x), "x_prime": c.input_label(sw.x2), "outputs": outs,
                    "exp_epsilon_upper_bound": str(sw.upper), "delta": str(c.spec.delta)}
        w = c.witness
        if w is None:
            return None
        lo, hi = c.brackets.lo[w.x][w.y], c.brackets.hi[w.x2][w.y]
        return {"text": (f"witness: x = {c.input_label(w.x)}, x' = {c.input_label(w.x2)}, "
                         f"S = {{{c.output_label(w.y)}}}: Pr[M(x) in S] >= {float(lo):.12g} > "
                         f"e^eps * Pr[M(x') in S] (<= {float(w.upper):.12g} * {float(hi):.12g}); "
                         f"M(x)(y) / M(x')(y) ~ {w.ratio:.12g}"),
                "x": c.input_label(w.x), "x_prime": c.input_label(w.x2), "outputs": [c.output_label(w.y)],
                "pr_x_lower": str(lo), "pr_x_prime_upper": str(hi), "exp_epsilon_upper_bound": str(w.upper),
                "delta": "0"}

    def describe(self, u: Unfolded[CalibratedSpec, A.Calibrated]) -> Description:
        s, c = u.spec, u.mechanism
        how = ("family krr_exp" if c.family is not None else
               "brackets" if c.lower is not None else
               "bracket witness" if c.witness is not None or c.set_witness is not None else "none")
        return plan_description(u, f"claim ({s.epsilon_text}, {s.delta_text})-DP",
                                f"tight epsilon ~ {u.plan.tight_epsilon}; route: {how}",
                                tight_epsilon=u.plan.tight_epsilon, route=how)


BY_BRACKETS = ByBrackets()
