"""The Coq file of a binary snapping claim (template `binary_snapping.v.j2`, prelude `PreludeBinary`)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.float.binary64_spec import BinarySnappingSpec

TEMPLATE = Path(__file__).parent / "templates" / "binary_snapping.v.j2"
REFUTATION = Path(__file__).parent / "templates" / "diffprivlib_rounding.v.j2"
PRELUDE = "PreludeBinary"


@dataclass(frozen=True)
class BinarySnappingAnalysis:
    """The hints Python chose (delta, g, the interval precision) and the theorem's value
    1/lambda + ln K for |x - x'| <= 1 (mpmath, a hint: Coq proves the claim from the
    premises alone)."""
    spec: BinarySnappingSpec
    delta: Fraction
    g: int                   # the first grid index at or above B
    value: float             # 1/lambda + ln K
    value_text: str
    bits: int                # interval precision for the claim's inequality
    provable: bool


def summary(spec: BinarySnappingSpec) -> str:
    return (f"binary64 snapping, lambda = {float(spec.scale)!r}, Lambda = {float(spec.grid)!r}, "
            f"B = {spec.bound}, ties {spec.ties}, log {spec.log_text}: claim {spec.claim_text}-DP "
            "for inputs |x|, |x'| <= B at distance <= 1")


def theorems(a: BinarySnappingAnalysis) -> tuple[str, ...]:
    return (f"{a.spec.name}_not_dp",) if a.spec.rounding == "diffprivlib" else (f"{a.spec.name}_dp",)


def mu_term(s: BinarySnappingSpec) -> str:
    if s.ulps is None:
        return "eta 53"
    return f"(2 * {s.ulps} * eta 53 / (1 - 2 * {s.ulps} * eta 53))"


def float_parts(x: Fraction) -> tuple[int, int]:
    """x = m * 2^e with |m| < 2^53, e >= -1074 (x a binary64 number), m odd unless x = 0."""
    m, e = x.numerator, 0
    d = x.denominator
    while d % 2 == 0:
        d //= 2
        e -= 1
    if d != 1:
        raise ValueError(f"{x} is not a dyadic number")
    while m and m % 2 == 0:
        m //= 2
        e += 1
    if abs(m) >= 2 ** 53 or e < -1074:
        raise ValueError(f"{x} is not a binary64 number")
    return m, e


def render(a: BinarySnappingAnalysis) -> Rendered:
    s = a.spec
    mant, exp = float_parts(s.scale)
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description), lam=r_lit(s.scale), lam_text=repr(float(s.scale)),
        eps_text=comment(s.epsilon_text), grid=r_lit(s.grid), grid_text=repr(float(s.grid)),
        grid_auto=s.grid_auto, bound=r_lit(s.bound), g=a.g, delta=r_lit(a.delta), mu=mu_term(s),
        log_text=comment(s.log_text), claim=r_lit(s.loss), claim_text=comment(s.claim_text),
        tie="TiesUp" if s.ties == "up" else "TiesDown", ties=s.ties, bits=a.bits, value=a.value_text,
        correct=s.ulps is None, lam_mant=mant, lam_exp=exp, lam_pow=2 ** abs(exp))
    if s.rounding == "diffprivlib":
        return render_template(REFUTATION, s.name, ctx, PRELUDE, theorems(a))
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(a))
