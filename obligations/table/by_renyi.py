"""The discrete Gaussian's (ε, δ) claim by one Rényi moment (`additive: {discrete_gaussian: ...}`
with `claim: {epsilon, delta}`): K runs are (ε, e^((a−1)(K·a·Δ²/2σ² − ε)))-DP at every real
order a > 1 (`zdp_dgauss_renyi_real`, Accountant/DGaussZcdp.v), so a claim whose δ is at least
that bound at some rational order is proved by a check of a few float operations whatever K is
(`zdp_dgauss_qorder`, DGaussZcdpCheck.v); the certificate states the same theorem as the
accountant's, `zdp` of the spec's noise.  The order is a rational near the parabola's vertex
(Kρ + ε)/2Kρ, where the bound is ρ-zCDP's in full, e^(−(ε − Kρ)²/4Kρ).  Only an upper bound: a
claim the bound does not reach goes to the accountant's route (both sides, a window and a
convolution power, dearer as K grows), and so does the smallest ε at δ."""
from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath

from obligations.analysis import accountant as acc
from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_lit, r_lit
from obligations.table.additive import AdditiveSpec, points_of, rational_epsilon, summary
from obligations.table.by_accountant import equation_slots
from obligations.table.chosen import Chosen, chosen, describe_plan

TEMPLATE = Path(__file__).parent / "templates" / "renyi.v.j2"
PRELUDE = "PreludeRenyi"
# The exponent given up for an order with a shorter denominator than the vertex's: δ's bound
# grows by at most e^LOSS, a thousandth of the margin Python keeps below Coq's check.
LOSS = Fraction(1, 10 ** 12)
MAX_DENOMINATOR = 10 ** 6        # past it, the closest order found so far (Kρ·(a − vertex)² lost)
FLOAT_BITS = 1000                # Coq's check divides Q's numerator and denominator as floats (iq)


@dataclass(frozen=True)
class RenyiBound:
    """The order a > 1 and the exponent (a − 1)(K·a·ρ − ε) of the bound on δ, ρ = Δ²/2σ²."""

    order: Fraction
    exponent: Fraction


def exponent(rho_k: Fraction, eps: Fraction, a: Fraction | int) -> Fraction:
    return (a - 1) * (rho_k * a - eps)


def vertex(rho_k: Fraction, eps: Fraction) -> Fraction:
    """The real order with the least exponent, −(ε − Kρ)²/4Kρ: the exponent is Kρ(a − vertex)² above it."""
    return (rho_k + eps) / (2 * rho_k)


def convergents(x: Fraction) -> Iterator[Fraction]:
    """The continued fraction's convergents of x, the last x itself: each is closer to x than
    every rational with a smaller denominator."""
    p0, q0, p1, q1 = 0, 1, 1, 0
    n, d = x.numerator, x.denominator
    while d:
        c, r = divmod(n, d)
        p0, q0, p1, q1 = p1, q1, c * p1 + p0, c * q1 + q0
        yield Fraction(p1, q1)
        n, d = d, r


def best_order(rho_k: Fraction, eps: Fraction) -> RenyiBound:
    """The order: the vertex's first convergent above 1 whose exponent is within LOSS of the
    vertex's (the shortest such denominator), else the closest one with a denominator up to
    MAX_DENOMINATOR.  For ε ≤ Kρ every order's bound exceeds 1: order 2, refused by `proves`."""
    top = vertex(rho_k, eps)
    least = exponent(rho_k, eps, top)
    order: Fraction | None = None
    for a in convergents(top):
        if a.denominator > MAX_DENOMINATOR:
            break
        if a > 1:
            order = a
            if exponent(rho_k, eps, a) - least <= LOSS:
                break
    if order is None:
        order = Fraction(2)
    return RenyiBound(order, exponent(rho_k, eps, order))


def coq_exponent(v: Fraction, delta_in: int, k: int, a: Fraction, eps: Fraction) -> tuple[int, int]:
    """qorder_exponent's numerator and denominator as Coq's Q arithmetic leaves them (it does not
    reduce): (a − 1)·(K·a·Δ²/(2v) − ε) on the reduced literals the certificate writes."""
    d = a.denominator * 2 * v.numerator                          # K·a·Δ²·/(2v)'s denominator
    x = k * a.numerator * delta_in * delta_in * v.denominator     # ... and numerator
    return (a.numerator - a.denominator) * (x * eps.denominator - eps.numerator * d), \
        a.denominator * d * eps.denominator


def proves(bound: RenyiBound, delta: Fraction, parts: tuple[int, int]) -> bool:
    """Coq's check passes: e^exponent (at 40 digits; Coq's interval is within a few ulps of it,
    and of the exponent's float when |exponent| < 800) with the accountant's relative margin is
    at most δ; δ is a normal float (the float under δ then within an ulp of it); the exponent's
    numerator and denominator as Coq computes them (`parts`, `coq_exponent`) and δ's are floats."""
    if not sys.float_info.min <= delta or not bound.order > 1:
        return False
    if max(*map(abs, parts), delta.numerator, delta.denominator).bit_length() > FLOAT_BITS:
        return False
    with mpmath.workdps(40):
        up = mpmath.exp(mpmath.mpf(bound.exponent.numerator) / bound.exponent.denominator)
        return bool(up * (1 + acc.MARGIN) <= mpmath.mpf(delta.numerator) / delta.denominator)


class ByRenyi(Route[AdditiveSpec, Chosen[RenyiBound]]):
    name = "by a Renyi moment"

    def applies(self, spec: AdditiveSpec) -> bool:
        return spec.sigma is not None and spec.tolerance is None and spec.delta > 0 and points_of(spec) is None

    def analyse(self, spec: AdditiveSpec) -> Analysed[Chosen[RenyiBound]] | None:
        eps = rational_epsilon(spec)   # None: the accountant's route refuses it, naming the field
        if eps is None or spec.sigma is None:
            return None
        v = spec.sigma * spec.sigma
        rho_k = spec.runs * Fraction(spec.sensitivity ** 2) / (2 * v)
        bound = best_order(rho_k, eps)
        if not proves(bound, spec.delta, coq_exponent(v, spec.sensitivity, spec.runs, bound.order, eps)):
            return None
        at = math.exp(float(bound.exponent))
        note = (f"the Renyi moment of order {bound.order} = {float(bound.order):.6g}: delta >= "
                f"e^({float(bound.exponent):.10g}) = {at:.6g} (rho = Delta^2/2 sigma^2 = {rho_k / spec.runs} per run, "
                f"{spec.runs} runs); an upper bound only")
        plan = Plan(Verdict.PROVED, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                    delta_at_claim_float=at, notes=(note,))
        return chosen(bound, plan, _render(spec, v, eps, bound))

    def render(self, spec: AdditiveSpec, a: Analysed[Chosen[RenyiBound]]) -> Rendered:
        return a.mechanism.rendered

    def describe(self, u: Unfolded[AdditiveSpec, Chosen[RenyiBound]]) -> Description:
        return describe_plan(u, summary(u.spec))


BY_RENYI = ByRenyi()


def _render(spec: AdditiveSpec, v: Fraction, eps: Fraction, bound: RenyiBound) -> Rendered:
    name = spec.name
    slots, slot = equation_slots(name)
    eps_r = r_lit(eps)
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description), sigma_text=str(spec.sigma), v_text=str(v), v=q_lit(v),
        k=spec.runs, delta_in=spec.sensitivity, order=q_lit(bound.order), order_text=str(bound.order),
        eps_q=q_lit(eps), delta_q=q_lit(spec.delta),
        eps_r=eps_r, delta_r=r_lit(spec.delta), eps_text=comment(spec.epsilon_text),
        delta_text=comment(spec.delta_text), eps_slot=slot("eps", eps, eps_r),
        delta_slot=slot("delta", spec.delta, r_lit(spec.delta)), theorem=f"{name}_dp")
    ctx["slots"] = list(slots.values())
    return render_template(TEMPLATE, name, ctx, PRELUDE, (f"{name}_dp",))


__all__ = ["BY_RENYI", "RenyiBound", "best_order", "coq_exponent", "proves", "vertex"]
