"""KOV claims: the Kairouz–Oh–Viswanath bound for concrete (ε0, k), certified as a theorem about
EVERY finite mechanism that is (ε0, 0)-DP (`theories/Finite/KOV.v`: `dp_power_kov`), or refuted
by randomized response, which attains the bound.  Template `kov.v.j2`; docs/profiles.md."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Optional

import mpmath

from obligations.core.obligation import Plan, Verdict
from obligations.kinds.base import Unfolded
from obligations.kinds.finite.kov import Exponent, kov_delta, rr_ratio
from obligations.kinds.kov import spec as kov_spec
from obligations.kinds.kov.document import KovAnalysis, render
from obligations.kinds.kov.spec import KovFile, KovSpec

# Below this relative distance from the KOV value the interval evaluation cannot decide.
MARGIN = 1e-9


class KovKind:
    name = "kov"
    title = "KOV bound for every (epsilon0, 0)-DP mechanism run k times"
    form = KovFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return kov_spec.is_kov(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> KovSpec:
        return kov_spec.check(data, file, sha256)

    def expand(self, spec: KovSpec) -> list[KovSpec]:
        return [spec]

    def derive(self, spec: KovSpec, derived: Mapping[str, Any]) -> KovSpec:
        raise ValueError("a KOV claim has no derived claims")

    def analyse(self, spec: KovSpec) -> Unfolded:
        t0 = time.perf_counter()
        a = analyse(spec)
        expected = Verdict.REFUTED if a.refute else Verdict.PROVED
        if not a.refute and float(spec.delta) < a.value * (1 + MARGIN) + 1e-15:
            expected = Verdict.UNDECIDED
        plan = Plan(expected, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=a.value_text,
                    delta_at_claim_float=a.value, notes=(_note(a),))
        t1 = time.perf_counter()
        rendered = render(a)
        return Unfolded(spec, a, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        a: KovAnalysis = u.mechanism
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

    def summary(self, spec: KovSpec) -> str:
        return (f"every ({spec.epsilon0_text}, 0)-DP mechanism run {spec.runs} times, claim "
                f"({spec.epsilon_text}, {spec.delta_text})-DP")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s, a = u.spec, u.mechanism
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "kov_delta": a.value_text,
                                "notes": list(u.plan.notes), "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): {self.summary(s)}", f"  {_note(a)}; Python expects: {u.plan.expected}"]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: KovSpec) -> None:
        return None


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


KOV = KovKind()

__all__ = ["KOV", "KovKind"]
