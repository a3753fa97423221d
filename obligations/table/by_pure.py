"""The discrete Laplace's pure DP (`additive: {discrete_laplace: ...}` with `claim: {epsilon,
delta: 0}`): each run's density ratio between inputs at distance at most Δ is at most α^(−Δ),
attained by an output at or below both inputs, so K runs are exactly (K·Δ·ln(1/α), 0)-DP.  Coq
(Accountant/DLapPure.v) proves (ε, 0)-DP when (1/α)^(K·Δ) ≤ e^ε (`zdp_dlap_pure_dec`, e^ε
bounded below by a Taylor sum) and refutes it when e^ε ≤ U < (1/α)^(K·Δ) (`not_zdp_dlap_pure_dec`,
e^ε bounded above by an alternating sum; the event {all K outputs 0} on inputs 0 and Δ).  The
route is tried before the accountant's, whose bound counts the noise outside its window and so
never reaches δ = 0; a claim too close to the exact ε for the Taylor sums goes on to it.

The discrete Gaussian is (ε, 0)-DP for no ε: one run's ratio Pr[−m]/Pr[−m − 1] is
e^((2m + 1)/2v), so on inputs 0 and 1 the output of K copies of −m refutes every ε below
K·(2m + 1)/2v (Accountant/DGaussPure.v, `not_zdp_dgauss_pure_dec`; with e^ε rational, such as
ε = ln 7, e^ε ≤ 1 + K·(2m + 1)/2v, `not_zdp_dgauss_pure_exp_dec`).  Python picks the least m."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from obligations.analysis.finite import taylor_hint
from obligations.core import expr as E
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import Renderer, comment, q_lit, r_lit, strip_outer
from obligations.table.additive import AdditiveSpec, points_of, rational_epsilon, summary
from obligations.table.by_accountant import equation_slots
from obligations.table.chosen import Chosen, chosen, describe_plan

TEMPLATE = Path(__file__).parent / "templates" / "pure.v.j2"
GAUSS_TEMPLATE = Path(__file__).parent / "templates" / "pure_gauss.v.j2"
PRELUDE = "PreludePure"
MAX_POWER = 4096     # (1/α)^(K·Δ) is a rational Coq computes: past this exponent, the accountant's route


@dataclass(frozen=True)
class PureCheck:
    """What Coq's check runs: e^ε against q = (1/α)^(K·Δ), e^ε as (e^(ε/split))^split with
    `terms` terms; `upper` (refuting) the bound U with e^ε ≤ U < q, else None.  When e^ε is
    rational (ε = 3·ln 2), `exact` is e^ε itself, compared with q exactly (no Taylor sums)."""

    eps: Fraction | None
    power: Fraction
    split: int
    terms: int
    upper: Fraction | None
    exact: Fraction | None = None

    @property
    def refutes(self) -> bool:
        return self.upper is not None if self.exact is None else self.exact < self.power


def exact_epsilon(spec: AdditiveSpec) -> float:
    """K·Δ·ln(1/α): the least ε of K runs' pure DP."""
    assert spec.alpha is not None
    return spec.runs * spec.sensitivity * (math.log(spec.alpha.denominator) - math.log(spec.alpha.numerator))


def _tight(spec: AdditiveSpec) -> str:
    assert spec.alpha is not None
    return f"{spec.runs * spec.sensitivity}*ln({1 / spec.alpha})"


def simple_between(lo: Fraction, hi: Fraction) -> Fraction:
    """A rational in [lo, hi) with a power-of-two denominator (short to write), lo < hi."""
    scale = 1
    while True:
        u = Fraction(math.ceil(lo * scale), scale)
        if u < hi:
            return u
        scale *= 2


def decide(spec: AdditiveSpec) -> PureCheck | None:
    """The check that proves or refutes the claim, or None when the route does not decide it."""
    if spec.alpha is None or spec.runs * spec.sensitivity > MAX_POWER:
        return None
    power = (1 / spec.alpha) ** (spec.runs * spec.sensitivity)
    eps = rational_epsilon(spec)
    if eps is None:
        e = sympy.exp(E.to_sympy(spec.epsilon, {}))
        if not e.is_Rational:
            return None
        return PureCheck(None, power, 0, 0, None, Fraction(int(e.p), int(e.q)))
    x = sympy.Rational(eps.numerator, eps.denominator)
    lower = taylor_hint(x, power, upper=False)
    if lower is not None:
        return PureCheck(eps, power, lower.split, lower.terms, None)
    upper = taylor_hint(x, power, upper=True)
    if upper is None:
        return None
    at = _alternating(eps / upper.split, upper.terms) ** upper.split
    if not at < power:
        return None
    return PureCheck(eps, power, upper.split, upper.terms, simple_between(at, power))


def _alternating(y: Fraction, n: int) -> Fraction:
    """1 / (e^(−y)'s alternating partial sum to degree 2n + 1), as Coq's exp_upper_check."""
    term, total = Fraction(1), Fraction(1)
    for degree in range(1, 2 * n + 2):
        term = term * -y / degree
        total += term
    return 1 / total


class ByPure(Route[AdditiveSpec, Chosen[PureCheck]]):
    name = "by the density ratio (pure DP)"

    def applies(self, spec: AdditiveSpec) -> bool:
        return spec.alpha is not None and spec.delta == 0 and spec.tolerance is None and points_of(spec) is None

    def analyse(self, spec: AdditiveSpec) -> Analysed[Chosen[PureCheck]] | None:
        check = decide(spec)
        if check is None:
            return None
        refute = check.refutes
        how = (f"e^eps <= {check.upper} < (1/alpha)^(K*Delta)" if check.upper is not None
               else "e^eps < (1/alpha)^(K*Delta)" if refute else "(1/alpha)^(K*Delta) <= e^eps")
        if check.exact is not None:
            how += f", exactly: e^eps = {_short(check.exact)}"
        note = (f"pure DP: the density ratio of {spec.runs} runs is at most (1/alpha)^(K*Delta) = "
                f"{_short(check.power)}, attained (all outputs 0, inputs 0 and {spec.sensitivity}); the least "
                f"epsilon is K*Delta*ln(1/alpha) = {_tight(spec)} = {exact_epsilon(spec):.10g}; {how}")
        plan = Plan(Verdict.REFUTED if refute else Verdict.PROVED, (), tight_epsilon=_tight(spec),
                    tight_epsilon_float=exact_epsilon(spec), delta_at_claim=None,
                    delta_at_claim_float=math.nan, notes=(note,))
        return chosen(check, plan, _render(spec, check))

    def render(self, spec: AdditiveSpec, a: Analysed[Chosen[PureCheck]]) -> Rendered:
        return a.mechanism.rendered

    def witness(self, u: Unfolded[AdditiveSpec, Chosen[PureCheck]]) -> Witness | None:
        if u.plan.expected != Verdict.REFUTED:
            return None
        k, d = u.spec.runs, u.spec.sensitivity
        zeros = ", ".join(["0"] * min(k, 4)) + (", ..." if k > 4 else "")
        return {"x": "0", "x_prime": str(d), "runs": k, "delta": "0",
                "event": f"zeros_set: the one output vector of {k} zeros",
                "text": (f"witness: x = 0, x' = {d}, S = {{({zeros})}}: "
                         f"Pr[M(x) in S] = (1/alpha)^(K*Delta) * Pr[M(x') in S] > e^eps * Pr[M(x') in S]")}

    def describe(self, u: Unfolded[AdditiveSpec, Chosen[PureCheck]]) -> Description:
        return describe_plan(u, summary(u.spec))


BY_PURE = ByPure()


@dataclass(frozen=True)
class GaussPureCheck:
    """The output −m whose ratio refutes: ε < K·(2m + 1)/2v (`eps` rational), or, when e^ε is
    the rational `exact`, e^ε ≤ 1 + K·(2m + 1)/2v."""

    m: int
    eps: Fraction | None
    exact: Fraction | None

    def ratio(self, spec: AdditiveSpec) -> Fraction:
        assert spec.sigma is not None
        return spec.runs * Fraction(2 * self.m + 1) / (2 * spec.sigma * spec.sigma)


def decide_gauss(spec: AdditiveSpec) -> GaussPureCheck | None:
    """The least m ≥ 0 whose output refutes (ε, 0)-DP, or None for an ε whose e^ε is not rational."""
    assert spec.sigma is not None
    two_v_over_k = 2 * spec.sigma * spec.sigma / spec.runs
    eps = rational_epsilon(spec)
    if eps is not None:
        # the least m with 2m + 1 > 2v·ε/K
        return GaussPureCheck(max(0, math.floor((two_v_over_k * eps - 1) / 2) + 1), eps, None)
    e = sympy.exp(E.to_sympy(spec.epsilon, {}))
    if not e.is_Rational:
        return None
    exact = Fraction(int(e.p), int(e.q))
    # the least m with 2m + 1 ≥ 2v·(e^ε − 1)/K
    return GaussPureCheck(max(0, math.ceil((two_v_over_k * (exact - 1) - 1) / 2)), None, exact)


class ByGaussPure(Route[AdditiveSpec, Chosen[GaussPureCheck]]):
    name = "by the density ratio (the discrete Gaussian is pure DP for no epsilon)"

    def applies(self, spec: AdditiveSpec) -> bool:
        return spec.sigma is not None and spec.delta == 0 and spec.tolerance is None and points_of(spec) is None

    def analyse(self, spec: AdditiveSpec) -> Analysed[Chosen[GaussPureCheck]] | None:
        check = decide_gauss(spec)
        if check is None:
            return None
        ratio = check.ratio(spec)
        note = (f"delta = 0: the discrete Gaussian is (eps, 0)-DP for no eps (one run's ratio "
                f"Pr[-m]/Pr[-m-1] = e^((2m+1)/2v) grows without bound); refuted at the output of {spec.runs} "
                f"copies of -{check.m} on inputs 0 and 1, ratio e^({_short(ratio)}) = e^{float(ratio):.10g}")
        plan = Plan(Verdict.REFUTED, (), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                    delta_at_claim_float=math.nan, notes=(note,))
        return chosen(check, plan, _render_gauss(spec, check))

    def render(self, spec: AdditiveSpec, a: Analysed[Chosen[GaussPureCheck]]) -> Rendered:
        return a.mechanism.rendered

    def witness(self, u: Unfolded[AdditiveSpec, Chosen[GaussPureCheck]]) -> Witness | None:
        k, m = u.spec.runs, u.mechanism.analysis.m
        shown = ", ".join([f"-{m}"] * min(k, 4)) + (", ..." if k > 4 else "")
        return {"x": "0", "x_prime": "1", "runs": k, "delta": "0",
                "event": f"point_set: the one output vector of {k} copies of -{m}",
                "text": (f"witness: x = 0, x' = 1, S = {{({shown})}}: Pr[M(x) in S] = "
                         f"e^({_short(u.mechanism.analysis.ratio(u.spec))}) * Pr[M(x') in S] > e^eps * Pr[M(x') in S]")}

    def describe(self, u: Unfolded[AdditiveSpec, Chosen[GaussPureCheck]]) -> Description:
        return describe_plan(u, summary(u.spec))


BY_GAUSS_PURE = ByGaussPure()


def _short(q: Fraction) -> str:
    text = str(q)
    return text if len(text) <= 40 else f"{float(q):.10g}"


def _render(spec: AdditiveSpec, check: PureCheck) -> Rendered:
    assert spec.alpha is not None
    name = spec.name
    slots, slot = equation_slots(name)
    refute = check.refutes
    theorem = f"{name}_refuted" if refute else f"{name}_dp"
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description), alpha=q_lit(spec.alpha),
        alpha_text=str(spec.alpha), k=spec.runs, delta_in=spec.sensitivity, eps_text=comment(spec.epsilon_text),
        power_text=_short(check.power), split=check.split, terms=check.terms,
        upper=q_lit(check.upper) if check.upper is not None else "", upper_text=str(check.upper), refute=refute,
        theorem=theorem, exp=None)
    if check.eps is not None:
        eps_r = r_lit(check.eps)
        ctx.update(eps_q=q_lit(check.eps), eps_r=eps_r, eps_slot=slot("eps", check.eps, eps_r))
    else:
        assert check.exact is not None
        eps_r = strip_outer(Renderer({}, {}, {}).r(spec.epsilon))
        ctx.update(eps_r=eps_r, bound=q_lit(check.exact), bound_text=_short(check.exact),
                   exp=exp_obligation(name, {"upper": refute, "bound": q_lit(check.exact), "method": "exact",
                                             "bits": 53}, eps_r))
    ctx["slots"] = list(slots.values())
    return render_template(TEMPLATE, name, ctx, PRELUDE, (theorem,))


def _render_gauss(spec: AdditiveSpec, check: GaussPureCheck) -> Rendered:
    assert spec.sigma is not None
    name = spec.name
    slots, slot = equation_slots(name)
    theorem = f"{name}_refuted"
    v = spec.sigma * spec.sigma
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description), v=q_lit(v), v_text=str(v),
        sigma_text=str(spec.sigma), k=spec.runs, delta_in=spec.sensitivity, m=check.m,
        ratio_text=_short(check.ratio(spec)), eps_text=comment(spec.epsilon_text), theorem=theorem, exp=None)
    if check.eps is not None:
        eps_r = r_lit(check.eps)
        ctx.update(eps_q=q_lit(check.eps), eps_r=eps_r, eps_slot=slot("eps", check.eps, eps_r),
                   library="not_zdp_dgauss_pure_dec")
    else:
        assert check.exact is not None
        eps_r = strip_outer(Renderer({}, {}, {}).r(spec.epsilon))
        ctx.update(eps_r=eps_r, bound=q_lit(check.exact), library="not_zdp_dgauss_pure_exp_dec",
                   exp=exp_obligation(name, {"upper": True, "bound": q_lit(check.exact), "method": "exact",
                                             "bits": 53}, eps_r))
    ctx["slots"] = list(slots.values())
    return render_template(GAUSS_TEMPLATE, name, ctx, PRELUDE, (theorem,))


__all__ = ["BY_GAUSS_PURE", "BY_PURE", "GaussPureCheck", "PureCheck", "decide", "decide_gauss", "exact_epsilon"]
