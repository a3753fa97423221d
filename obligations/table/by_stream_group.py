"""A CW claim about K runs of randomized response on the same database whose prior lies on one
pair of inputs and whose alternative prior on another: certified exactly, from either side, by
the sum grouped by block counts (`theories/Accountant/CWGroupCheck.v`).

For such priors hs(t) of the rows depends on a sequence of K outputs only through its counts of
the four inputs (`hs_stream_blocks`): a sum over the counts a, b of outputs in the two pairs, each
group decided whole (0, or a closed form by the binomial theorem) where its terms agree in sign,
else row by row.  Coq evaluates it in floats rounded up (to prove: both orders of the rows at
1 ≤ t ≤ e^ε, one when an involution of the inputs swaps the priors) or down (to refute: the
violating order at t ≥ e^ε).  t is a dyadic rational of T_BITS significant bits: the check divides
the priors by t entry by entry, and the 850-bit e^ε of 200 runs costs the re-check a third more.
The route is tried before the coefficient recursion (table/by_stream_coef.py), which it
replaces where the shape fits (cheaper: no dropped mass, K = 200 within the re-check's minute),
and after the theorem's route, whose cheaper certificate keeps the claims its bound proves.
Python's floats (`predict`) only predict the verdict."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy

from obligations.analysis.finite import FiniteMechanism, epsilon_value, exp_bounds
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import ExpBound, ExpLowerBound, ExpUpperBound, StreamGroupCheck
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import q_lit
from obligations.errors import SpecError
from obligations.table import by_stream, by_stream_coef
from obligations.table.members import describe_finite

TEMPLATE = Path(__file__).parent / "templates" / "stream_group.v.j2"
# coqchk redoes the check by plain reduction: about 50 s per side at K = 200 (docs/profiles.md).
MAX_RUNS = 200
# Significant bits of t: hs moves by at most |Δt|/t relative, 2^-60 here, far below MARGIN.
T_BITS = 60
# Python's floats predict hs(t) to about 10^-15 at K = 200 (Coq's rounded sums bracket it to
# 10^-16); closer claims are refused.
MARGIN = 1e-10
# Coq's floats must not overflow: (1 + r)^K·2^K bounds the table's largest entry.
MAX_LOG2 = 1000.0

Pairs = tuple[int, int, int, int]


@dataclass(frozen=True)
class Group:
    """The one-run table (for labels), randomized response's lo and r, the two pairs, the
    involution swapping the priors (when one is used), the check and e^ε's bound."""

    table: FiniteMechanism
    lo: Fraction
    r: Fraction
    pairs: Pairs
    sym: tuple[int, ...] | None
    check: StreamGroupCheck
    exp: ExpBound


def pairs_of(prior: tuple[Fraction, ...], alt: tuple[Fraction, ...]) -> Pairs | None:
    """Four distinct inputs x0, x1, x2, x3 with the prior zero off {x0, x1} and the alternative
    zero off {x2, x3}, as Coq's `group_shape` reads them (a support of one input is padded with
    the first input neither prior uses); None when the supports overlap or are larger."""
    n = len(prior)
    s1 = [x for x, v in enumerate(prior) if v]
    s2 = [x for x, v in enumerate(alt) if v]
    if len(s1) > 2 or len(s2) > 2 or set(s1) & set(s2) or n < 4:
        return None
    free = [x for x in range(n) if x not in s1 and x not in s2]
    while len(s1) < 2:
        s1.append(free.pop(0))
    while len(s2) < 2:
        s2.append(free.pop(0))
    return s1[0], s1[1], s2[0], s2[1]


def _shaped(spec: MechanismSpec) -> tuple[FiniteMechanism, tuple[Fraction, Fraction], Pairs] | None:
    assert spec.cw is not None
    found = by_stream_coef.rr_table(spec)
    pairs = pairs_of(*spec.cw)
    if found is None or pairs is None:
        return None
    _, (_, r) = found
    if spec.compose * (math.log2(1 + float(r)) + 1) > MAX_LOG2:
        return None
    return found[0], found[1], pairs


def applies_to(spec: MechanismSpec) -> bool:
    """A composed CW claim about randomized response with the two-pairs shape, that the class
    route leaves, within the runs the re-check redoes (the theorem's route asks, to give way
    when its bound cannot decide)."""
    return (spec.cw is not None and spec.compose > 1 and spec.derived is None and spec.compose <= MAX_RUNS
            and spec.distribution == "full"
            and not by_stream.within_limits(by_stream.letter_count(spec), spec.compose)
            and _shaped(spec) is not None)


def _log_binoms(n: int) -> np.ndarray:
    """log C(n, k), k = 0 .. n."""
    return np.array([math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1) for j in range(n + 1)])


def predict(lo: float, r: float, m: int, k: int, g: tuple[float, float], h: tuple[float, float], t: float) -> float:
    """hs(t) of the rows (Σ g·M^⊗K, Σ h·M^⊗K), g on the first pair and h on the second, in
    floats: lo^K·t·Σ_{a,b} K!/(a!·b!·(K−a−b)!)·(m−4)^(K−a−b)·Σ C(a,n0)·C(b,n2)·max(0, P − N),
    P = (g0·r^n0 + g1·r^(a−n0))/t, N = h2·r^n2 + h3·r^(b−n2), as `gk_blocks` sums it (the
    coefficients over t, as Coq's check takes them, so that no float overflows)."""
    u0, u1 = g[0] / t, g[1] / t
    lf = [math.lgamma(i + 1) for i in range(k + 1)]
    base = k * math.log(lo) + math.log(t)
    powers = r ** np.arange(k + 1, dtype=float)
    lcs = [_log_binoms(a) for a in range(k + 1)]
    total = 0.0
    for a in range(k + 1):
        p = u0 * powers[: a + 1] + u1 * powers[a::-1]
        for b in range(k + 1 - a):
            rest = k - a - b
            if rest and m == 4:
                continue
            q = h[0] * powers[: b + 1] + h[1] * powers[b::-1]
            if p.max() <= q.min():
                continue
            lw = base + lf[k] - lf[a] - lf[b] - lf[rest] + (rest * math.log(m - 4) if rest else 0.0)
            wa, wb = np.exp(lw + lcs[a]), np.exp(lcs[b])
            total += float(wa @ np.maximum(0.0, p[:, None] - q[None, :]) @ wb)
    return total


def _dyadic(x: Fraction, up: bool) -> Fraction:
    """x rounded to T_BITS significant bits, up or down."""
    e = x.numerator.bit_length() - x.denominator.bit_length() - T_BITS
    if x >= Fraction(2) ** (e + T_BITS):      # the bit lengths place x within a factor 2
        e += 1
    scaled = x / Fraction(2) ** e
    n = math.ceil(scaled) if up else math.floor(scaled)
    return n * Fraction(2) ** e


def exp_bound(eps: sympy.Expr, refute: bool) -> tuple[Fraction, ExpBound]:
    """A dyadic t of T_BITS bits, 1 ≤ t ≤ e^ε to prove (t ≥ e^ε to refute), and the obligation
    bounding e^ε by it: by the exact rational e^ε where it is one (`exp_exact` compares the
    two), else by the rational bounds of 15 digits rounded outwards."""
    e = sympy.exp(eps)
    if e.is_Rational:
        t = _dyadic(Fraction(int(e.p), int(e.q)), refute)
        t = t if refute else max(Fraction(1), t)
        return t, (ExpUpperBound(t, "exact") if refute else ExpLowerBound(t, "exact"))
    lo, hi, bits = exp_bounds(eps, 15)
    t = _dyadic(hi, True) if refute else max(Fraction(1), _dyadic(lo, False))
    return t, by_stream.bounded_exp(eps, t, bits, refute)


class ByStreamGroup(Route[MechanismSpec, Group]):
    name = "by block counts"

    def applies(self, spec: MechanismSpec) -> bool:
        return applies_to(spec)

    def analyse(self, spec: MechanismSpec) -> Analysed[Group] | None:
        assert spec.cw is not None
        found = _shaped(spec)
        if found is None:
            return None
        table, (lo, r), pairs = found
        prior, alt = spec.cw
        k = spec.compose
        eps_value = epsilon_value(spec)
        x0, x1, x2, x3 = pairs
        t_f = math.exp(float(sympy.N(eps_value, 30)))
        args = (float(lo), float(r), spec.outputs.size, k)
        sym = by_stream_coef.symmetry(prior, alt)
        first = predict(*args, (float(prior[x0]), float(prior[x1])), (float(alt[x2]), float(alt[x3])), t_f)
        second = first if sym is not None else predict(
            *args, (float(alt[x2]), float(alt[x3])), (float(prior[x0]), float(prior[x1])), t_f)
        direction = 0 if first >= second else 1
        exact = max(first, second)
        claimed = float(spec.delta)
        if abs(claimed - exact) <= MARGIN:
            raise SpecError(spec.path, "claim.delta", f"delta = {spec.delta} is within {MARGIN:g} of delta(eps) = "
                            f"{exact:.12g} of the {k} runs: too close for the floats of the grouped check")
        refute = exact > claimed
        t, exp = exp_bound(eps_value, refute)
        check = StreamGroupCheck(k, t, spec.delta, refute, direction, pairs)
        plan = by_stream.stream_plan(refute, exp, check, exact,
                                     f"{k} runs on the same database summed by counts of outputs in the pairs "
                                     f"({x0}, {x1}) and ({x2}, {x3}) (randomized response, lo = {lo}, r = {r}; "
                                     f"the product table would have {spec.outputs.size}^{k} rows): delta(eps) = "
                                     f"{exact:.12g} predicted in floats")
        return Analysed(Group(table, lo, r, pairs, sym, check, exp), plan)

    def render(self, spec: MechanismSpec, a: Analysed[Group]) -> Rendered:
        return _render(spec, a.mechanism)

    def witness(self, u: Unfolded[MechanismSpec, Group]) -> Witness | None:
        return by_stream.loss_event_witness(u.mechanism.check, u.plan.delta_at_claim_float, u.spec)

    def describe(self, u: Unfolded[MechanismSpec, Group]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_STREAM_GROUP = ByStreamGroup()


def _render(spec: MechanismSpec, s: Group) -> Rendered:
    name, check = spec.name, s.check
    ctx = by_stream.stream_context(spec, s.table.base_rows, check, s.exp)
    ctx.update(lo=q_lit(s.lo), r=q_lit(s.r), lo_text=str(s.lo), r_text=str(s.r),
               pairs=" ".join(str(x) for x in s.pairs),
               sym="; ".join(str(v) for v in s.sym) if s.sym is not None and not check.refute else None)
    theorem = f"{name}_refuted" if check.refute else f"{name}_dp"
    return render_template(TEMPLATE, name, ctx, INTERVAL_PRELUDE, (theorem,))
