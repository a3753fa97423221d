"""Route: binary snapping claims, the floating-point snapping mechanism in binary64 at concrete
parameters, certified by instantiating the library's `float_snap_dp_tight` (`theories/Float/
SnapTight.v`: any FLT format, any tie rule, all inputs; the sum's rounding as an input-independent
threshold, lambda a float).  The generated file proves the premises that are decidable at the
concrete values (lambda >= 2^-968, from which the pipeline's range premises follow), and keeps as
hypotheses of its theorem only the sampler's (`uprob pr`) and, for a log within k ulps, the log's
error (none for a correctly rounded log).
A claim below what the theorem gives, 1/lambda + ln K, is undecided: nothing is sent to Coq.
Template `binary_snapping.v.j2`; docs/binary64.md."""
from __future__ import annotations

import math
from typing import Any

import mpmath

from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.float.binary64_cases import CaseTable, case_table, refutation_table
from obligations.float.binary64_document import BinarySnappingAnalysis, render, summary
from obligations.float.binary64_spec import ETA, BinarySnappingSpec, choose_delta, tight_width
from obligations.float.binary64_two import fits, undecided_note
from obligations.float.wide_grid import PROVED_RANGES, SEED_RANGES, in_ranges

# The claim must exceed the theorem's value by this much relative to it for the interval proof;
# the precision is then chosen from the gap.
MIN_GAP_BITS = 200


class Binary64(Route[BinarySnappingSpec, BinarySnappingAnalysis]):
    name = "for binary64"

    def analyse(self, spec: BinarySnappingSpec) -> Analysed[BinarySnappingAnalysis] | None:
        a = analyse(spec)
        if not a.provable and fits(spec):
            return None   # the two-sided theorem's K fits the claim: binary64_two.py's route
        expected = Verdict.PROVED if a.provable else Verdict.UNDECIDED
        if spec.rounding == "diffprivlib":
            expected = Verdict.REFUTED
        return Analysed(a, Plan(expected, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                                delta_at_claim_float=math.nan, notes=(_note(a),)))

    def render(self, spec: BinarySnappingSpec, a: Analysed[BinarySnappingAnalysis]) -> Rendered:
        return render(a.mechanism)

    def witness(self, u: Unfolded[BinarySnappingSpec, BinarySnappingAnalysis]) -> Witness | None:
        if u.spec.rounding != "diffprivlib" or u.plan.expected != Verdict.REFUTED:
            return None
        return {"text": ("witness (Float/DiffprivlibRound.v, diffprivlib_not_dp): x = 0 (0.7500000000000001 scaled), "
                         "x' = 1/4 - 2^-53 (1.0 scaled), output 2^-54 (off the grid; 0.7500000000000002 unscaled): "
                         "Pr[out | x] = 2^-55 exactly (one sample u = 8509399323626886 * 2^-54, sign bit 0, "
                         "w = -1/2 + 2^-54), Pr[out | x'] = 0: no epsilon"),
                "x": "0", "x_prime": "2251799813685247/9007199254740992", "outputs": ["2^-54"],
                "pr_x": "2^-55", "pr_x_prime": "0", "delta": "0"}

    def describe(self, u: Unfolded[BinarySnappingSpec, BinarySnappingAnalysis]) -> Description:
        s, a = u.spec, u.mechanism
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "theorem_value": a.value_text,
                                "delta": str(a.delta), "notes": list(u.plan.notes),
                                "theorems": list(u.rendered.theorems)}
        table = cases(a) if s.rounding == "exact" else refutation_table()
        item["cases"] = table.as_dict()
        lines = [f"{s.name} ({s.path}): {summary(s)}", f"  {_note(a)}; Python expects: {u.plan.expected}"]
        lines += table.lines()
        return item, lines


def theorem_value(spec: BinarySnappingSpec, delta: Any) -> mpmath.mpf:
    """1/lambda + ln K, K = (E^2 r - 1)/(r - E^2), r = e^(W/lambda), W = tight_W (the narrowest
    bucket's thresholds), E = e^(delta/lambda)/(1 - 2 eta) (SnapTight.v's tight_K)."""
    width = tight_width(spec.bound, spec.grid)
    with mpmath.workprec(400):
        lam = mpmath.mpf(spec.scale.numerator) / spec.scale.denominator
        grid = mpmath.mpf(width.numerator) / width.denominator
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
        claim = mpmath.mpf(spec.loss.numerator) / spec.loss.denominator
        gap = claim - value
        provable = bool(gap > 0) and bool(gap > abs(value) * mpmath.mpf(2) ** -MIN_GAP_BITS)
        bits = 60
        if provable:
            bits = max(60, int(-mpmath.log(gap / max(abs(value), 1), 2)) + 30)
        text = mpmath.nstr(value, 25)
    return BinarySnappingAnalysis(spec, delta, g, float(value), text, bits, provable)


def cases(a: BinarySnappingAnalysis) -> CaseTable:
    s = a.spec
    return case_table(s.scale, s.grid, s.bound, a.g, a.delta, s.mu, s.ulps, s.loss, a.bits)


def _note(a: BinarySnappingAnalysis) -> str:
    s = a.spec
    if s.rounding == "diffprivlib":
        return ("diffprivlib's rounding to the grid (Python's float %) leaves the grid: the output 2^-54 has "
                "probability 2^-55 from x = 0 and 0 from x' = 1/4 - 2^-53 (|x - x'| < 1), so the mechanism is not "
                f"epsilon-DP for any epsilon (claim {s.claim_text} refuted; Float/DiffprivlibRound.v)")
    head = (f"lambda = {float(s.scale)!r}, Lambda = {float(s.grid)!r}, B = {s.bound}, "
            f"delta = {a.delta}: for |x - x'| <= 1 float_snap_dp_tight gives 1/lambda + ln K = {a.value_text}")
    if a.provable:
        return head + f" <= claim {s.claim_text}" + seed_note(s, False)
    return (head + f" > claim {s.claim_text}: undecided (a claim below the theorem's value is never proved; "
            "it is not refuted either)" + undecided_note(s) + seed_note(s, True))


def seed_note(s: BinarySnappingSpec, ranges: bool) -> str:
    """The seed's constant at these parameters against the claim, and whether SnapSeed64.v proves it
    here: diffprivlib's accounting is the seed's, but its epsilon' and lambda are rounded."""
    if s.rounding != "exact":
        return ""
    if s.ulps is not None:
        return "; the seed's and Mironov's constants are proved for a correctly rounded log only (SnapSeed64.v)"
    rho, beta = s.grid / s.scale, s.bound / s.scale
    seed = 1 / s.scale + 12 * ETA * beta + 2 * ETA
    where = ("inside" if in_ranges(SEED_RANGES, rho, beta) else "outside") + " the ranges where it is proved"
    side = "at or below" if seed <= s.loss else "above"
    text = (f"; the seed's constant here (Lambda = {float(rho):.6g} lambda, B = {float(beta):.6g} lambda, {where}) "
            f"gives 1/lambda + 12 eta B/lambda + 2 eta, {side} the claim by {float(abs(seed - s.loss) / ETA):.3g} eta")
    return text + (f". Proved for all parameters of a range: {PROVED_RANGES}" if ranges else "")


BINARY64 = Binary64()
