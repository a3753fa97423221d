"""Route: the Kairouz–Oh–Viswanath bound for concrete (ε0, k), certified as a theorem about
EVERY finite mechanism that is (ε0, 0)-DP (`theories/Finite/KOV.v`: `dp_power_kov`), or refuted
by randomized response, which attains the bound.  Template `kov.v.j2`; docs/profiles.md."""
from __future__ import annotations

import math
from typing import Any

import mpmath

from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.table.kov import Exponent, kov_delta, rr_ratio
from obligations.table.kov_document import KovAnalysis, render
from obligations.table.kov_spec import KovSpec

# Below this relative distance from the KOV value the interval evaluation cannot decide.
MARGIN = 1e-9


class ByKov(Route[KovSpec, KovAnalysis]):
    name = "by KOV"

    def analyse(self, spec: KovSpec) -> Analysed[KovAnalysis]:
        a = analyse(spec)
        expected = Verdict.REFUTED if a.refute else Verdict.PROVED
        if not a.refute and float(spec.delta) < a.value * (1 + MARGIN) + 1e-15:
            expected = Verdict.UNDECIDED
        return Analysed(a, Plan(expected, (), tight_epsilon=None, tight_epsilon_float=math.nan,
                                delta_at_claim=a.value_text, delta_at_claim_float=a.value, notes=(_note(a),)))

    def render(self, spec: KovSpec, a: Analysed[KovAnalysis]) -> Rendered:
        return render(a.mechanism)

    def witness(self, u: Unfolded[KovSpec, KovAnalysis]) -> Witness | None:
        a = u.mechanism
        if not a.refute:
            return None
        k = a.spec.runs
        p = a.rr / (1 + a.rr)
        return {"mechanism": f"randomized response, keep probability {p}", "x": "0", "x_prime": "1", "runs": k,
                "event": f"loss_event: the outputs of the {k}-fold composition where Pr[x] > e^eps * Pr[x']",
                "delta": str(a.spec.delta), "delta_reached": f"{a.rr_value:.12g}",
                "text": (f"witness: randomized response with keep probability {p} (ratio {a.rr} <= e^eps0) is "
                         f"(eps0, 0)-DP; on x = 0, x' = 1 the loss event S of its {k}-fold composition has "
                         f"Pr[M(x) in S] - e^eps * Pr[M(x') in S] = {a.rr_value:.12g} > delta = {a.spec.delta}")}

    def describe(self, u: Unfolded[KovSpec, KovAnalysis]) -> Description:
        s, a = u.spec, u.mechanism
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "kov_delta": a.value_text,
                                "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): {summary(s)}", f"  {_note(a)}; Python expects: {u.plan.expected}"]
        return item, lines


def summary(spec: KovSpec) -> str:
    return (f"every ({spec.epsilon0_text}, 0)-DP mechanism run {spec.runs} times, claim "
            f"({spec.epsilon_text}, {spec.delta_text})-DP")


def analyse(spec: KovSpec) -> KovAnalysis:
    value = kov_delta(spec.epsilon0, spec.runs, spec.epsilon)
    rr = rr_ratio(spec.epsilon0)
    rr_value = kov_delta(Exponent(rr, log=True), spec.runs, spec.epsilon)
    delta = mpmath.mpf(spec.delta.numerator) / spec.delta.denominator
    refute = bool(delta < rr_value * (1 - MARGIN) - 1e-15)
    return KovAnalysis(spec, float(value), mpmath.nstr(value, 15), rr, float(rr_value), refute)


def _note(a: KovAnalysis) -> str:
    s = a.spec
    return (f"KOV value delta({s.epsilon_text}) = {a.value_text} for {s.runs} runs of any "
            f"({s.epsilon0_text}, 0)-DP mechanism (attained by randomized response)")


BY_KOV = ByKov()
