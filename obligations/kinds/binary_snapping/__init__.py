"""Binary snapping claims: the floating-point snapping mechanism in binary64 at concrete
parameters, certified by instantiating the library's `float_snap_dp` (`theories/Float/
SnapFloatDP.v`: any FLT format, any tie rule, all inputs).  The generated file proves the
premises that are decidable at the concrete values, `pipeline_ok` from lambda >= 2^-968
(`theories/Float/SnapPipeline.v`), and keeps as hypotheses of its theorem only the sampler's
(`uprob pr`) and, for a log within k ulps, the log's error (none for a correctly rounded log).
A claim below what the theorem gives, 1/lambda + ln K, is undecided: nothing is sent to Coq.
Template `binary_snapping.v.j2`; docs/binary64.md."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Optional

import mpmath

from obligations.core.obligation import Plan, Verdict
from obligations.kinds.base import Unfolded
from obligations.kinds.binary_snapping import spec as bs_spec
from obligations.kinds.binary_snapping.cases import CaseTable, case_table
from obligations.kinds.binary_snapping.document import BinarySnappingAnalysis, render
from obligations.kinds.binary_snapping.spec import ETA, BinarySnappingFile, BinarySnappingSpec, choose_delta

# The claim must exceed the theorem's value by this much relative to it for the interval proof;
# the precision is then chosen from the gap.
MIN_GAP_BITS = 200


class BinarySnappingKind:
    name = "binary_snapping"
    title = "floating-point snapping in binary64, for all inputs (float_snap_dp)"
    form = BinarySnappingFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return bs_spec.is_binary_snapping(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> BinarySnappingSpec:
        return bs_spec.check(data, file, sha256)

    def expand(self, spec: BinarySnappingSpec) -> list[BinarySnappingSpec]:
        return [spec]

    def derive(self, spec: BinarySnappingSpec, derived: Mapping[str, Any]) -> BinarySnappingSpec:
        raise ValueError("a binary snapping claim has no derived claims")

    def analyse(self, spec: BinarySnappingSpec) -> Unfolded:
        t0 = time.perf_counter()
        a = analyse(spec)
        expected = Verdict.PROVED if a.provable else Verdict.UNDECIDED
        plan = Plan(expected, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                    delta_at_claim_float=math.nan, notes=(_note(a),))
        t1 = time.perf_counter()
        rendered = render(a)
        return Unfolded(spec, a, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return None

    def summary(self, spec: BinarySnappingSpec) -> str:
        return (f"binary64 snapping, lambda = {float(spec.scale)!r}, Lambda = {float(spec.grid)!r}, "
                f"B = {spec.bound}, ties {spec.ties}, log {spec.log_text}: claim {spec.claim_text}-DP "
                "for inputs |x|, |x'| <= B at distance <= 1")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s, a = u.spec, u.mechanism
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "theorem_value": a.value_text,
                                "delta": str(a.delta), "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems)}
        table = cases(a)
        item["cases"] = table.as_dict()
        lines = [f"{s.name} ({s.path}): {self.summary(s)}", f"  {_note(a)}; Python expects: {u.plan.expected}"]
        lines += table.lines()
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: BinarySnappingSpec) -> None:
        return None


def theorem_value(spec: BinarySnappingSpec, delta: Any) -> mpmath.mpf:
    """1/lambda + ln K, K = (E^2 r - 1)/(r - E^2), r = e^(Lambda/lambda), E = e^(delta/lambda)/(1 - 2 eta)."""
    with mpmath.workprec(400):
        lam = mpmath.mpf(spec.scale.numerator) / spec.scale.denominator
        grid = mpmath.mpf(spec.grid.numerator) / spec.grid.denominator
        d = mpmath.mpf(delta.numerator) / delta.denominator
        eta = mpmath.mpf(ETA.numerator) / ETA.denominator
        e2 = (mpmath.exp(d / lam) / (1 - 2 * eta)) ** 2
        r = mpmath.exp(grid / lam)
        return 1 / lam + mpmath.log((e2 * r - 1) / (r - e2))


def analyse(spec: BinarySnappingSpec) -> BinarySnappingAnalysis:
    delta = choose_delta(spec.bound, spec.grid, spec.mu)
    g = math.ceil(spec.bound / spec.grid)
    with mpmath.workprec(400):
        value = theorem_value(spec, delta)
        claim = mpmath.mpf(spec.claim.numerator) / spec.claim.denominator
        gap = claim - value
        provable = bool(gap > 0) and bool(gap > abs(value) * mpmath.mpf(2) ** -MIN_GAP_BITS)
        bits = 60
        if provable:
            bits = max(60, int(-mpmath.log(gap / max(abs(value), 1), 2)) + 30)
        text = mpmath.nstr(value, 25)
    return BinarySnappingAnalysis(spec, delta, g, float(value), text, bits, provable)


def cases(a: BinarySnappingAnalysis) -> CaseTable:
    s = a.spec
    return case_table(s.scale, s.grid, s.bound, a.g, a.delta, s.mu, s.ulps, s.claim, a.bits)


def _note(a: BinarySnappingAnalysis) -> str:
    s = a.spec
    head = (f"float_snap_dp at lambda = {float(s.scale)!r}, Lambda = {float(s.grid)!r}, B = {s.bound}, "
            f"delta = {a.delta}: for |x - x'| <= 1 the theorem gives 1/lambda + ln K = {a.value_text}")
    if a.provable:
        return head + f" <= claim {s.claim_text}"
    return (head + f" > claim {s.claim_text}: undecided (a claim below the theorem's value is never proved; "
            "it is not refuted either)")


BINARY_SNAPPING = BinarySnappingKind()

__all__ = ["BINARY_SNAPPING", "BinarySnappingKind"]
