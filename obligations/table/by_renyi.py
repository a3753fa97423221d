"""The discrete Gaussian's (ε, δ) claim by one Rényi moment (`additive: {discrete_gaussian: ...}`
with `claim: {epsilon, delta}`): K runs are (ε, e^((a−1)(K·a·Δ²/2σ² − ε)))-DP at every integer
order a ≥ 2 (`zdp_dgauss_renyi`, Accountant/DGaussRenyi.v), so a claim whose δ is at least that
bound at some order is proved by a check of a few float operations whatever K is
(`zdp_dgauss_renyi_check`, DGaussRenyiCheck.v); the certificate states the same theorem as the
accountant's, `zdp` of the spec's noise.  Only an upper bound: a claim the bound does not reach
goes to the accountant's route (both sides, a window and a convolution power, dearer as K grows),
and so does the smallest ε at δ.  Integer orders only: where the best order is close to 1 (many
runs) the bound is up to twice the ε that real orders would give."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
class RenyiBound:
    """The order a and the exponent (a − 1)(K·a·ρ − ε) of the bound on δ, ρ = Δ²/2σ²."""

    order: int
    exponent: Fraction


def exponent(rho_k: Fraction, eps: Fraction, a: int) -> Fraction:
    return (a - 1) * (rho_k * a - eps)


def best_order(rho_k: Fraction, eps: Fraction) -> RenyiBound:
    """The integer order a ≥ 2 with the least exponent: the parabola's vertex is at (Kρ + ε)/2Kρ."""
    vertex = (rho_k + eps) / (2 * rho_k)
    candidates = {max(2, math.floor(vertex)), max(2, math.ceil(vertex))}
    a = min(candidates, key=lambda c: (exponent(rho_k, eps, c), c))
    return RenyiBound(a, exponent(rho_k, eps, a))


def proves(bound: RenyiBound, delta: Fraction) -> bool:
    """e^exponent ≤ δ with the accountant's relative margin (Coq's interval must fall below δ's float)."""
    if delta <= 0:
        return False
    x = float(bound.exponent)
    return math.log(delta) - x >= acc.MARGIN * max(1.0, abs(x))


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
        if not proves(bound, spec.delta):
            return None
        note = (f"the Renyi moment of order {bound.order}: delta >= e^({bound.exponent}) "
                f"= {math.exp(float(bound.exponent)):.6g} (rho = Delta^2/2 sigma^2 = {rho_k / spec.runs} per run, "
                f"{spec.runs} runs); an upper bound only")
        plan = Plan(Verdict.PROVED, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                    delta_at_claim_float=math.exp(float(bound.exponent)), notes=(note,))
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
        k=spec.runs, delta_in=spec.sensitivity, order=bound.order, eps_q=q_lit(eps), delta_q=q_lit(spec.delta),
        eps_r=eps_r, delta_r=r_lit(spec.delta), eps_text=comment(spec.epsilon_text),
        delta_text=comment(spec.delta_text), eps_slot=slot("eps", eps, eps_r),
        delta_slot=slot("delta", spec.delta, r_lit(spec.delta)), theorem=f"{name}_dp")
    ctx["slots"] = list(slots.values())
    return render_template(TEMPLATE, name, ctx, PRELUDE, (f"{name}_dp",))


__all__ = ["BY_RENYI", "RenyiBound", "best_order"]
