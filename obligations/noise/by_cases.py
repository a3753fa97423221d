"""Route: a noise pipeline (the snapping mechanism) for all parameter values, by its sympy case
table (`analysis.py`): one Coq lemma per case, from the library's case lemmas
(`theories/Noise/Snapping.v`, `SnapBound.v`, ...), or a refutation at a numeric instance.
Template `snapping.v.j2`."""
from __future__ import annotations

import math
from typing import Any

import sympy

from obligations.analysis import vacuous as V
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan
from obligations.core.templates import Rendered
from obligations.errors import SpecError
from obligations.noise import analysis as snap
from obligations.noise.coupling import coupling_text
from obligations.noise.document import render
from obligations.noise.spec import PipelineSpec


class ByCases(Route[PipelineSpec, snap.SnapUnfold]):
    name = "by the case table"

    def analyse(self, spec: PipelineSpec) -> Analysed[snap.SnapUnfold]:
        try:
            su = snap.unfold(spec)
        except ValueError as exc:  # sympy could not invert the noise map or decide a case
            raise SpecError(spec.path, "pipeline.steps", f"beyond what the case analysis can do: {exc}") from None
        truth = snap.ln_text(su.truth)
        try:
            truth_float = float(su.truth)
        except TypeError:
            truth_float = math.nan    # symbolic
        return Analysed(su, Plan(expected=su.expected, obligations=(), tight_epsilon=truth,
                                 tight_epsilon_float=truth_float, delta_at_claim=None,
                                 delta_at_claim_float=math.nan, notes=tuple(su.notes),
                                 vacuous=V.sensitivity_zero(spec.sensitivity, "query answers")))

    def render(self, spec: PipelineSpec, a: Analysed[snap.SnapUnfold]) -> Rendered:
        return render(a.mechanism)

    def witness(self, u: Unfolded[PipelineSpec, snap.SnapUnfold]) -> Witness | None:
        w = u.mechanism.witness
        if w is None:
            return None
        e = sympy.exp(w.claim)
        rhs = float(e) * float(w.p2)
        return {
            "parameters": w.instance, "x": f"f(a) = {w.fa}", "x_prime": f"f(a') = {w.fa2}",
            "outputs": [w.output], "pr_x": snap.math_text(snap.tidy(w.p)),
            "pr_x_prime": snap.math_text(snap.tidy(w.p2)),
            "pr_x_float": f"{float(w.p):.12g}", "pr_x_prime_float": f"{float(w.p2):.12g}",
            "ratio": snap.math_text(snap.tidy(w.ratio)), "exp_epsilon": snap.math_text(e),
            "exp_epsilon_upper_bound": None,
            "delta": "0", "bound": f"{rhs:.12g}", "violation": f"{float(w.p) - rhs:.12g}",
        }

    def describe(self, u: Unfolded[PipelineSpec, snap.SnapUnfold]) -> Description:
        s = u.spec
        item: dict[str, Any] = {
            "name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
            "delta_at_claim": u.plan.delta_at_claim or f"{u.plan.delta_at_claim_float:.12g}",
            "obligations": [], "theorems": list(u.rendered.theorems),
            "case_table": snap.case_table(u.mechanism),
            "lemmas": [{"name": x.name, "statement": x.statement, "tactics": list(x.tactics)} for x in u.lemmas]}
        lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, 0)-DP", item["case_table"],
                 f"  {len(item['lemmas'])} case-table lemmas for Coq; theorems: {', '.join(item['theorems'])}"]
        coupling = coupling_text(u.mechanism)
        if coupling:
            item["witnesses_on_noise"] = coupling
            lines.append(coupling)
        return item, lines


BY_CASES = ByCases()
