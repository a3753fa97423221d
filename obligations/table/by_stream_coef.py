"""A CW claim about K runs of randomized response on the same database, beyond the classes
of output sequences (table/by_stream.py): certified exactly, from either side, by the
coefficient recursion (`theories/Accountant/CWCoefCheck.v`).

hs(t) of the rows (Σ_x f(x)·M(x)^⊗K, Σ_x f'(x)·M(x)^⊗K) is G_K(c) at c = f − t·f'
(`hs_stream_gk`).  For randomized response (Pr[y = x] = lo·r, every other output lo) every
state of the recursion is a weight times a vector of integer exponents of r; Coq runs it
in floats rounded up (to prove, both orders of the rows at 1 ≤ t ≤ e^ε) or down (to refute,
the violating order at t ≥ e^ε), decides states early, and drops coefficients whose mass is
below 2^TAU_EXP (or a coarser threshold of TAU_LADDER when the claim leaves room) into the
bound on the safe side.  The route is tried after the theorem's
(table/by_stream_theorem.py) has nothing to prove: a claim the theorem's upper bound proves
keeps that cheaper certificate, and after the grouped sum's (table/by_stream_group.py), which
takes the priors on two pairs of inputs.  Python's log-space floats (analysis/cw_coef.py) only
predict the verdict."""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import sympy

from obligations.analysis import cw_coef
from obligations.analysis.finite import FiniteMechanism, epsilon_value, exp_bounds, tabulate
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import (
    ExpBound,
    StreamCoefCheck,
)
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import q_lit
from obligations.errors import SpecError
from obligations.table import by_stream
from obligations.table.members import describe_finite

TEMPLATE = Path(__file__).parent / "templates" / "stream_coef.v.j2"
# The re-check redoes the recursion by plain reduction (coqchk has no VM): 5 outputs, K = 50,
# about 6 000 state-steps per run; beyond this many runs the claim goes to the theorem's route.
MAX_RUNS = 50
TAU_EXP = -47           # coefficients whose mass is below 2^-47 are dropped into the bound
PREDICT_TAU = 2.0 ** TAU_EXP
# Coarser drops when the claim leaves room: fewer states for the re-check to redo (K = 50:
# 6 250 state-steps at 2^-47, about 4 000 at 2^-27), as long as the predicted slack of the
# bound the check needs, taken SAFETY times, stays short of the claim.
TAU_LADDER = (-27, -34, -40)
SAFETY = 4.0
# Python's floats predict hs(t) to about 10^-11 at K = 50; closer claims are refused.
MARGIN = 1e-9


@dataclass(frozen=True)
class Coef:
    """The one-run table (for labels), randomized response's lo and r, the swaps of inputs
    the priors cannot tell apart, the check and e^ε's bound."""

    table: FiniteMechanism
    lo: Fraction
    r: Fraction
    swaps: tuple[tuple[int, int], ...]
    sym: tuple[int, ...] | None         # an involution swapping the priors: one order proves both
    check: StreamCoefCheck
    exp: ExpBound


def rr_form(rows: tuple[tuple[Fraction, ...], ...]) -> tuple[Fraction, Fraction] | None:
    """(lo, r) when the rows are randomized response (as many outputs as inputs, Pr[y = x] =
    lo·r, every other output lo, lo > 0, r ≥ 1), as Coq's `check_rr` reads them; else None."""
    n = len(rows)
    if n < 2 or any(len(row) != n for row in rows):
        return None
    lo, hi = rows[0][1], rows[0][0]
    if lo <= 0 or hi < lo:
        return None
    if any(q != (hi if x == y else lo) for x, row in enumerate(rows) for y, q in enumerate(row)):
        return None
    return lo, hi / lo


def swaps(prior: tuple[Fraction, ...], alt: tuple[Fraction, ...]) -> tuple[tuple[int, int], ...]:
    """Pairs of inputs of equal prior weights in both priors (their coefficients are equal at
    every t, so the mechanism cannot tell the states apart): adjacent pairs of each group, as
    many passes as the group is long less one (a bubble sort of the exponents)."""
    groups: dict[tuple[Fraction, Fraction], list[int]] = {}
    for x, (a, b) in enumerate(zip(prior, alt, strict=True)):
        if a or b:
            groups.setdefault((a, b), []).append(x)
    out: list[tuple[int, int]] = []
    for g in groups.values():
        for _ in range(len(g) - 1):
            out += list(zip(g, g[1:], strict=False))
    return tuple(out)


def symmetry(prior: tuple[Fraction, ...], alt: tuple[Fraction, ...]) -> tuple[int, ...] | None:
    """An involution p of the inputs with alt = prior ∘ p and prior = alt ∘ p, as Coq's `check_sym`
    reads it (then hs of the rows (alt, D) is that of (D, alt): one run proves both orders); None
    when there is none (greedy: each input paired with the first free one that fits)."""
    n = len(prior)
    p: list[int | None] = [None] * n
    for x in range(n):
        if p[x] is not None:
            continue
        match = next((y for y in range(x, n) if p[y] is None and prior[y] == alt[x] and alt[y] == prior[x]), None)
        if match is None:
            return None
        p[x], p[match] = match, x
    return tuple(v for v in p if v is not None)


def rr_table(spec: MechanismSpec) -> tuple[FiniteMechanism, tuple[Fraction, Fraction]] | None:
    """The one-run table and its (lo, r) when it is randomized response; else None."""
    try:
        table = tabulate(replace(spec, compose=1))
    except SpecError:
        return None
    form = rr_form(table.base_rows)
    return None if form is None else (table, form)


def applies_to(spec: MechanismSpec) -> bool:
    """A composed CW claim about randomized response that the class route leaves, within the
    runs this route re-checks (the theorem's route asks, to give way when it cannot decide)."""
    return (spec.cw is not None and spec.compose > 1 and spec.derived is None and spec.compose <= MAX_RUNS
            and spec.distribution == "full"
            and not by_stream.within_limits(by_stream.letter_count(spec), spec.compose)
            and rr_table(spec) is not None)


class ByStreamCoef(Route[MechanismSpec, Coef]):
    name = "by coefficient vectors"

    def applies(self, spec: MechanismSpec) -> bool:
        return applies_to(spec)

    def analyse(self, spec: MechanismSpec) -> Analysed[Coef] | None:
        assert spec.cw is not None
        found = rr_table(spec)
        if found is None:
            return None
        table, (lo, r) = found
        prior, alt = spec.cw
        k = spec.compose
        eps_value = epsilon_value(spec)
        rows = table.base_rows
        eps_f = float(sympy.N(eps_value, 30))
        pair = (cw_coef.coef_hs(rows, prior, alt, k, eps_f, tau=PREDICT_TAU),
                cw_coef.coef_hs(rows, alt, prior, k, eps_f, tau=PREDICT_TAU))
        direction = 0 if pair[0].estimate >= pair[1].estimate else 1
        exact = pair[direction].estimate
        claimed = float(spec.delta)
        if abs(claimed - exact) <= MARGIN:
            raise SpecError(spec.path, "claim.delta", f"delta = {spec.delta} is within {MARGIN:g} of delta(eps) = "
                            f"{exact:.12g} of the {k} runs: too close for the floats of the coefficient check")
        refute = exact > claimed
        t, exp = _exp_bound(eps_value, refute)
        # the orders of the rows the check runs: the violating one to refute; to prove, one when a
        # symmetry swaps the priors, else both
        both = ((prior, alt, pair[0].estimate), (alt, prior, pair[1].estimate))
        orders = (both[direction],) if refute else both[:1] if symmetry(prior, alt) is not None else both
        tau_exp = _tau_exp(rows, orders, k, eps_f, claimed, refute)
        check = StreamCoefCheck(k, t, spec.delta, refute, direction, tau_exp)
        plan = by_stream.stream_plan(refute, exp, check, exact,
                                     f"{k} runs on the same database by coefficient vectors (randomized "
                                     f"response, lo = {lo}, r = {r}; the product table would have "
                                     f"{spec.outputs.size}^{k} rows): delta(eps) = {exact:.12g}, bracket "
                                     f"[{pair[direction].lower:.12g}, {pair[direction].upper:.12g}] "
                                     "predicted in floats")
        return Analysed(Coef(table, lo, r, swaps(prior, alt), symmetry(prior, alt), check, exp), plan)

    def render(self, spec: MechanismSpec, a: Analysed[Coef]) -> Rendered:
        return _render(spec, a.mechanism)

    def witness(self, u: Unfolded[MechanismSpec, Coef]) -> Witness | None:
        return by_stream.loss_event_witness(u.mechanism.check, u.plan.delta_at_claim_float, u.spec)

    def describe(self, u: Unfolded[MechanismSpec, Coef]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_STREAM_COEF = ByStreamCoef()


Order = tuple[tuple[Fraction, ...], tuple[Fraction, ...], float]


def _tau_exp(rows: tuple[tuple[Fraction, ...], ...], orders: tuple[Order, ...], k: int, eps_f: float,
             claimed: float, refute: bool) -> int:
    """The coarsest drop threshold of TAU_LADDER whose predicted bracket, its width taken SAFETY
    times from the estimate at 2^TAU_EXP, clears the claim for every order (g, g', that estimate)
    the check runs; TAU_EXP when none does.  The whole width on either side: Coq's run rounded
    down charges every dropped coefficient to its debt and loses the states it finishes, where
    Python's lower end counts only the dropped negative ones."""
    for e in TAU_LADDER:
        widths = [(est, SAFETY * (run.upper - run.lower))
                  for g, g2, est in orders for run in (cw_coef.coef_hs(rows, g, g2, k, eps_f, tau=2.0 ** e),)]
        if all(est - w > claimed if refute else est + w < claimed for est, w in widths):
            return e
    return TAU_EXP


def _exp_bound(eps: sympy.Expr, refute: bool) -> tuple[Fraction, ExpBound]:
    """The rational t (1 ≤ t ≤ e^ε to prove, t ≥ e^ε to refute) and the obligation bounding e^ε by it
    (hs moves by at most |Δt|/t relative: 10^-15 below the margin)."""
    exact = by_stream.rational_exp(eps, refute)
    if exact is not None:
        return exact
    lo, hi, bits = exp_bounds(eps, 15)
    t = hi if refute else max(Fraction(1), lo)
    return t, by_stream.bounded_exp(eps, t, bits, refute)


def _render(spec: MechanismSpec, s: Coef) -> Rendered:
    name, check = spec.name, s.check
    ctx = by_stream.stream_context(spec, s.table.base_rows, check, s.exp)
    ctx.update(lo=q_lit(s.lo), r=q_lit(s.r), lo_text=str(s.lo), r_text=str(s.r),
               swaps="; ".join(f"({a}, {b})" for a, b in s.swaps), tau_exp=check.tau_exp,
               sym="; ".join(str(v) for v in s.sym) if s.sym is not None and not check.refute else None)
    theorem = f"{name}_refuted" if check.refute else f"{name}_dp"
    return render_template(TEMPLATE, name, ctx, INTERVAL_PRELUDE, (theorem,))
