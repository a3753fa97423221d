"""`region` for compositions the product table cannot carry, ε at a given δ, and additive
noise over Z (`additive:` specs, run K times): the accountant's profile (`table/by_accountant.py`,
`table/additive.py`, `analysis/accountant.py`).  Both go through one path: a `Source` says where
the bracket comes from and how the certificate's claim is derived.

The curve is not exact rationals here but a certified bracket: at each ε, δ(ε) lies in
[lower, upper] where Coq can prove (ε, upper)-DP and refute (ε, lower)-DP.  The default
table gives, for δ = 10^-1 ... 10^-10, the smallest ε on the tolerance's grid with δ(ε) ≤ δ;
`--epsilon` adds points at chosen ε and `--delta` the smallest ε at chosen δ.  `--certify`
proves every point in one Coq file whose one theorem states them all (one audit, one
coqchk), named NAME_kK_profile.  For the discrete Gaussian the Rényi bound at the best real
order (`zdp_dgauss_renyi_real`; what `prove`'s Rényi route proves at a rational order near it)
is printed beside the bracket, as an upper bound only."""
from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from obligations.analysis import accountant as acc
from obligations.certify.outcome import Outcome, Settings
from obligations.certify.run import prove_many, unfold
from obligations.core import expr as E
from obligations.core.spec import MechanismSpec
from obligations.errors import SpecError, UsageError
from obligations.models import form_of
from obligations.table import additive
from obligations.table.additive import AdditiveSpec
from obligations.table.by_accountant import build, derive_points
from obligations.table.by_renyi import best_order

TABLE_DELTAS = tuple(Fraction(1, 10 ** j) for j in range(1, 11))
TOLERANCES = (1, 2, 5, 10, 20, 50, 100)   # multiples of the tolerance tried when a bracket is too wide


@dataclass
class AccPoint:
    """At ε: δ(ε) in [lower, upper] (Python's floats); the claims Coq checks: (ε, up)-DP
    proved (None: not claimed) and (ε, lo)-DP refuted (None: not claimed)."""

    epsilon: Fraction
    lower: float
    upper: float
    up: Fraction | None
    lo: Fraction | None
    delta: Fraction | None = None       # a "smallest ε at δ" point: this δ
    tolerance: Fraction | None = None   # ... to this tolerance (ε − tolerance is refuted)

    def to_json(self) -> dict[str, Any]:
        return {"epsilon": str(self.epsilon), "epsilon_float": float(self.epsilon), "delta_lower": self.lower,
                "delta_upper": self.upper, "proved_delta": None if self.up is None else str(self.up),
                "refuted_delta": None if self.lo is None else str(self.lo),
                "at_delta": None if self.delta is None else str(self.delta),
                "tolerance": None if self.tolerance is None else str(self.tolerance)}


@dataclass(frozen=True)
class RenyiPoint:
    """The discrete Gaussian's Rényi bound beside a point: δ ≤ e^exponent at ε (at the route's
    rational order, `by_renyi.best_order`), or the least ε whose bound reaches δ (at the best real
    order); an upper bound only (`zdp_dgauss_renyi_real`)."""

    order: float
    epsilon: float
    delta: float
    at_delta: bool               # the least ε at a given δ (else: δ's bound at a given ε)
    exponent: Fraction | None    # at a given ε: δ ≤ e^exponent, exactly

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order, "epsilon": self.epsilon, "delta": self.delta,
                "given": "delta" if self.at_delta else "epsilon",
                "exponent": None if self.exponent is None else str(self.exponent)}


@dataclass(frozen=True)
class Source:
    """Where a profile's bracket comes from: δ(ε)'s bracketing, the accountants behind it (their
    windows draw the region), the header's words, and the claim a certificate of points states."""

    bracketing: acc.Bracketing
    parts: tuple[acc.Accountant, ...]
    what: str                       # "1000-fold composition", "1000 runs of the discrete Gaussian ..."
    keys: str                       # the loss keys, said
    keying: dict[str, Any]
    plds: int
    derive: Callable[[str, list[list[str | None]]], Any]
    rho_k: Fraction | None = None   # the discrete Gaussian's K·ρ: its Rényi bound is shown too

    def renyi(self, point: AccPoint) -> RenyiPoint | None:
        """The Rényi bound beside the point (the discrete Gaussian only)."""
        if self.rho_k is None:
            return None
        if point.delta is not None:
            eps, order = additive.renyi_epsilon(self.rho_k, point.delta)
            return RenyiPoint(order, eps, float(point.delta), True, None)
        bound = best_order(self.rho_k, point.epsilon)
        return RenyiPoint(float(bound.order), float(point.epsilon), math.exp(min(0.0, float(bound.exponent))), False,
                          bound.exponent)

    def point_json(self, point: AccPoint) -> dict[str, Any]:
        """The point, and beside it the Rényi bound when there is one."""
        r = self.renyi(point)
        return {**point.to_json(), **({"renyi": r.to_json()} if r is not None else {})}


@dataclass
class AccProfile:
    spec: Any                       # a table or formula spec, or an additive spec
    compose: int
    source: Source
    points: list[AccPoint]
    table: list[AccPoint]
    outcome: Outcome | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def accountant(self) -> acc.Bracketing:
        return self.source.bracketing

    @property
    def certified(self) -> bool:
        return self.outcome is not None and self.outcome.verdict == "proved"

    def to_json(self) -> dict[str, Any]:
        src = self.source
        return {"name": self.spec.name, "compose": self.compose, "method": "accountant", "what": src.what,
                "keying": src.keying, "plds": src.plds, "points": [src.point_json(p) for p in self.points],
                "table": [src.point_json(p) for p in self.table], "notes": self.notes,
                "certificate": None if self.outcome is None else {
                    "verdict": self.outcome.verdict, "certificate": self.outcome.certificate,
                    "theorem": self.outcome.theorem, "statement": self.outcome.statement}}


def _eps_value(spec: Any, text: str) -> Fraction:
    try:
        value = E.to_sympy(E.parse(text), getattr(spec, "parameters", {}))
    except E.ExprError as exc:
        raise UsageError(f"--epsilon {text}: {exc}") from None
    if not value.is_Rational or value < 0:
        raise UsageError(f"--epsilon {text}: the accountant takes a rational epsilon >= 0")
    return Fraction(int(value.p), int(value.q))


def point_at(a: acc.Bracketing, eps: Fraction, digits: int) -> AccPoint:
    upper = a.upper(float(eps))
    lower, _ = a.lower(float(eps))
    up = min(Fraction(1), acc.round_up(upper * (1 + acc.MARGIN) + acc.TINY, digits))
    lo_f = lower * (1 - acc.MARGIN) - acc.TINY
    return AccPoint(eps, lower, upper, up, acc.round_down(lo_f, digits) if lo_f > 0 else None)


def point_at_delta(a: acc.Bracketing, delta: Fraction, tol: Fraction) -> AccPoint | None:
    """The smallest ε on the grid of tol (or of a coarser multiple, when the bracket cannot tell
    δ(ε − tol) > δ) with δ(ε) ≤ δ; None if no ε up to 2000 has."""
    for m in TOLERANCES:
        t = tol * m
        eps = acc.epsilon_at(a, float(delta), t)
        if eps is None:
            return None
        below = eps - t
        lower, _ = a.lower(float(max(below, Fraction(0))))
        if below < 0 or lower * (1 - acc.MARGIN) - acc.TINY > float(delta):
            return AccPoint(eps, a.lower(float(eps))[0], a.upper(float(eps)), delta, None, delta, t)
    return None


def acc_profile(spec: Any, compose: int, epsilons: Sequence[str], deltas: Sequence[Fraction],
                tolerance: Fraction, digits: int) -> AccProfile:
    """The accountant's profile of the spec run `compose` times: a table or formula's table, or
    an additive spec's noise (`compose` replaces its runs)."""
    src = additive_source(spec, compose) if isinstance(spec, AdditiveSpec) else finite_source(spec, compose)
    return _profile(spec, compose, src, epsilons, deltas, tolerance, digits)


def finite_source(spec: MechanismSpec, compose: int) -> Source:
    table = form_of(spec).finite_table(replace(spec, compose=1))
    a = build(replace(spec, compose=compose), table)
    k = a.keying
    keys = "every loss a power of b" if k.exact else "losses rounded to a grid of b (a wider bracket)"
    return Source(a, (a,), f"{compose}-fold composition",
                  f"loss keys of base b = {k.base}, stride {k.stride}, {keys}; {len(a.ups)} distinct PLDs",
                  {"base": str(k.base), "stride": k.stride, "exact": k.exact}, len(a.ups),
                  lambda name, points: derive_points(spec, name, compose, points))


def additive_source(spec: AdditiveSpec, runs: int) -> Source:
    """The additive spec's noise run `runs` times (a refusal past the budget names the runs)."""
    run = replace(spec, runs=runs)
    got = additive.accounting(run, "additive.runs" if runs == spec.runs else "--compose")
    k = got.parts[0].keying
    keying = ({"base": str(k.base), "stride": k.stride, "exact": k.exact} if spec.sigma is None else
              {"log_base": str(got.base), "stride": "2t for shift size t", "exact": True})
    return Source(got.bracketing, got.parts, f"{runs} runs of {spec.noise_text}, sensitivity {spec.sensitivity}",
                  got.keys, keying, got.plds_count,
                  lambda name, points: additive.derive_points(spec, name, runs, points), additive.renyi_rho_k(run))


def _profile(spec: Any, compose: int, src: Source, epsilons: Sequence[str], deltas: Sequence[Fraction],
             tolerance: Fraction, digits: int) -> AccProfile:
    a = src.bracketing
    points = [point_at(a, _eps_value(spec, e), digits) for e in epsilons]
    notes: list[str] = []
    for d in deltas:
        p = point_at_delta(a, d, tolerance)
        if p is None:
            notes.append(f"no epsilon up to 10^7 has delta(eps) <= {d}")
        else:
            points.append(p)
    rows = []
    for d in TABLE_DELTAS:
        p = point_at_delta(a, d, tolerance)
        if p is not None:
            rows.append(p)
    return AccProfile(spec, compose, src, points, rows, notes=notes)


def profile_points(prof: AccProfile) -> list[list[str | None]]:
    """What the certificate claims: [ε, up, lo] per point; a smallest-ε point gives two."""
    out: list[list[str | None]] = []
    for p in prof.points or prof.table:
        if p.delta is not None and p.tolerance is not None:
            out.append([str(p.epsilon), str(p.delta), None])
            if p.epsilon - p.tolerance >= 0:
                out.append([str(p.epsilon - p.tolerance), None, str(p.delta)])
        else:
            out.append([str(p.epsilon), None if p.up is None else str(p.up), None if p.lo is None else str(p.lo)])
    return out


def certify(prof: AccProfile, settings: Settings) -> None:
    """One Coq file for every point (the table's, when no point was asked for)."""
    points = profile_points(prof)
    digest = hashlib.sha256(repr(points).encode()).hexdigest()[:8]
    name = f"{prof.spec.name}_k{prof.compose}_profile_{digest}"
    try:
        derived = prof.source.derive(name, points)
    except SpecError as exc:
        raise UsageError(str(exc)) from None
    prof.outcome = prove_many([unfold(derived)], settings)[0]


def _dec(x: float, digits: int) -> str:
    return f"{x:.{digits}g}"


def lines(prof: AccProfile, digits: int = 6, exact: bool = False) -> list[str]:
    """The profile as text: the accountant's keys, then points and the (δ, ε) table."""
    src = prof.source
    out = [f"{prof.spec.name}, {src.what}: delta(eps) certified in a bracket by the accountant ({src.keys})"]

    def show(p: AccPoint) -> str:
        eps = str(p.epsilon) if exact else _dec(float(p.epsilon), digits)
        text = f"eps = {eps}: delta in [{_dec(p.lower, digits)}, {_dec(p.upper, digits)}]"
        if p.delta is not None:
            text = (f"delta = {_dec(float(p.delta), digits)}: smallest eps to {p.tolerance} is {eps} "
                    f"(delta({eps}) in [{_dec(p.lower, digits)}, {_dec(p.upper, digits)}])")
        elif exact and p.up is not None:
            text += f"; claims: ({p.epsilon}, {p.up}) and not ({p.epsilon}, {p.lo})"
        return "  " + text
    out += [show(p) for p in prof.points]
    if prof.table:
        renyi = src.rho_k is not None
        out.append("  smallest eps with delta(eps) <= delta (eps a multiple of the tolerance shown"
                   + ("; Renyi eps: the Renyi bound's at the best real order, an upper bound only):"
                      if renyi else "):"))
        w = max(len(_dec(float(p.epsilon), digits)) for p in prof.table)
        head = f"    {'delta':>8}  {'eps':>{w}}  tolerance  delta(eps) in"
        out.append(head + ("  Renyi eps (order)" if renyi else ""))
        for p in prof.table:
            assert p.delta is not None
            row = (f"    {_dec(float(p.delta), 3):>8}  {_dec(float(p.epsilon), digits):>{w}}  "
                   f"{str(p.tolerance):>9}  [{_dec(p.lower, digits)}, {_dec(p.upper, digits)}]")
            r = src.renyi(p)
            out.append(row + (f"  {_dec(r.epsilon, digits)} ({r.order:.4g})" if r is not None else ""))
    out += _renyi_lines(prof, digits)
    out += [f"  note: {n}" for n in prof.notes]
    o = prof.outcome
    if o is not None:
        what = "every point" if prof.points else "the table"
        out.append(f"  Coq: {o.verdict.upper()} {what} ({len(profile_points(prof))} points, one theorem "
                   f"{o.theorem}); certificate: {o.certificate}" if o.verdict == "proved" else
                   f"  Coq: {o.verdict.upper()}: {o.message}")
    return out


def _renyi_lines(prof: AccProfile, digits: int) -> list[str]:
    """The discrete Gaussian's Rényi bound beside each asked point, marked as a looser upper bound."""
    bounds = [(p, r) for p in prof.points if (r := prof.source.renyi(p)) is not None]
    if not bounds:
        return []
    out = ["  Renyi bound at real orders a > 1 (delta <= e^((a-1)(K a Delta^2/2 sigma^2 - eps)), "
           "zdp_dgauss_renyi_real; an upper bound only, not the bracket):"]
    for p, r in bounds:
        if r.at_delta:
            out.append(f"    delta = {_dec(r.delta, digits)}: eps <= {_dec(r.epsilon, digits)} (order {r.order:.6g}; "
                       f"the bracket's: {_dec(float(p.epsilon), digits)})")
        else:
            out.append(f"    eps = {_dec(r.epsilon, digits)}: delta <= {_dec(r.delta, digits)} (order {r.order:.6g}; "
                       f"the bracket's upper end: {_dec(p.upper, digits)})")
    return out


def epsilon_span(prof: AccProfile) -> tuple[float, float]:
    """Where δ(ε) moves: from δ ≈ 1 − 10^-3 to a lower end of 10^-14 (what the δ figure shows;
    the upper end stays above the mass the floats missed)."""
    a = prof.accountant

    def first_below(delta: float, value: Callable[[float], float]) -> float:
        lo, hi = 0.0, 1.0
        while value(hi) > delta and hi < 1e6:
            hi *= 2
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if value(mid) <= delta else (mid, hi)
        return hi
    start = first_below(1 - 1e-3, a.upper)
    end = first_below(1e-14, lambda e: a.lower(e)[0])
    pad = 0.05 * (end - start) if end > start else 1.0
    return max(0.0, start - pad), end + pad


def curve(prof: AccProfile, n: int = 300) -> list[tuple[float, float, float]]:
    """(ε, lower, upper) on n points of the span."""
    lo, hi = epsilon_span(prof)
    a = prof.accountant
    out = []
    for i in range(n + 1):
        e = lo + (hi - lo) * i / n
        out.append((e, a.lower(e)[0], a.upper(e)))
    return out


def renyi_curve(prof: AccProfile, epsilons: Sequence[float]) -> list[float] | None:
    """The discrete Gaussian's Rényi bound on δ at each ε, at the route's order (None for other noise)."""
    rho_k = prof.source.rho_k
    if rho_k is None:
        return None
    return [math.exp(min(0.0, float(best_order(rho_k, Fraction(e)).exponent))) for e in epsilons]


def tradeoff(prof: AccProfile) -> list[tuple[float, float]]:
    """The lower-left boundary of the privacy region of the worst pair, as
    (log10 P(not S), log10 Q(S)) for the loss events S = {loss ≥ z}, z over the keys of its
    window (as `plot.region_vertices` draws (1 − a, b)): P(not S) is the window's lower tail
    and Q(S) = Σ_S P·b^(−z), summed in logs since it falls far below the float range.  Only
    thresholds inside the window are drawn: where P(not S) would need the masses below 2^-100
    that the window dropped, the boundary is not computed."""
    lo, hi = epsilon_span(prof)
    a, pld = max(((a, p) for a in prof.source.parts for p in a.ups),
                 key=lambda ap: bracket_upper(ap[0], ap[1], (lo + hi) / 2))
    w = a.window(pld)
    lb = a.keying.log_base
    items = [(m, z) for m, z in zip(w.masses.tolist(), w.keys().tolist(), strict=False) if m > 0]
    below = [0.0]
    for m, _ in items:
        below.append(below[-1] + m)                   # below[i]: the mass under items[i]'s key
    pts: list[tuple[float, float]] = []
    logq = -math.inf
    for i in range(len(items) - 1, 0, -1):
        m, z = items[i]
        logq = _logadd(logq, math.log(m) - z * lb)
        pts.append((math.log10(below[i]), min(0.0, logq / math.log(10))))
    return pts


def _logadd(x: float, y: float) -> float:
    top = max(x, y)
    if top == -math.inf:
        return top
    return top + math.log(math.exp(x - top) + math.exp(y - top))


def bracket_upper(a: acc.Accountant, combo: acc.Combo, eps: float) -> float:
    return acc.bracket(a.window(combo), a.keying, eps).upper
