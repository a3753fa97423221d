"""`region` for compositions the product table cannot carry, and ε at a given δ: the
accountant's profile (`table/by_accountant.py`, `analysis/accountant.py`).

The curve is not exact rationals here but a certified bracket: at each ε, δ(ε) lies in
[lower, upper] where Coq can prove (ε, upper)-DP and refute (ε, lower)-DP.  The default
table gives, for δ = 10^-1 ... 10^-10, the smallest ε on the tolerance's grid with δ(ε) ≤ δ;
`--epsilon` adds points at chosen ε and `--delta` the smallest ε at chosen δ.  `--certify`
proves every point in one Coq file whose one theorem states them all (one audit, one
coqchk), named NAME_kK_profile."""
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
from obligations.table.by_accountant import build, derive_points

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


@dataclass
class AccProfile:
    spec: MechanismSpec
    compose: int
    accountant: acc.Accountant
    points: list[AccPoint]
    table: list[AccPoint]
    outcome: Outcome | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def certified(self) -> bool:
        return self.outcome is not None and self.outcome.verdict == "proved"

    def to_json(self) -> dict[str, Any]:
        k = self.accountant.keying
        return {"name": self.spec.name, "compose": self.compose, "method": "accountant",
                "keying": {"base": str(k.base), "stride": k.stride, "exact": k.exact},
                "plds": len(self.accountant.ups), "points": [p.to_json() for p in self.points],
                "table": [p.to_json() for p in self.table], "notes": self.notes,
                "certificate": None if self.outcome is None else {
                    "verdict": self.outcome.verdict, "certificate": self.outcome.certificate,
                    "theorem": self.outcome.theorem, "statement": self.outcome.statement}}


def _eps_value(spec: MechanismSpec, text: str) -> Fraction:
    try:
        value = E.to_sympy(E.parse(text), spec.parameters)
    except E.ExprError as exc:
        raise UsageError(f"--epsilon {text}: {exc}") from None
    if not value.is_Rational or value < 0:
        raise UsageError(f"--epsilon {text}: the accountant takes a rational epsilon >= 0")
    return Fraction(int(value.p), int(value.q))


def point_at(a: acc.Accountant, eps: Fraction, digits: int) -> AccPoint:
    upper = a.upper(float(eps))
    lower, _ = a.lower(float(eps))
    up = min(Fraction(1), acc.round_up(upper * (1 + acc.MARGIN) + acc.TINY, digits))
    lo_f = lower * (1 - acc.MARGIN) - acc.TINY
    return AccPoint(eps, lower, upper, up, acc.round_down(lo_f, digits) if lo_f > 0 else None)


def point_at_delta(a: acc.Accountant, delta: Fraction, tol: Fraction) -> AccPoint | None:
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


def acc_profile(spec: MechanismSpec, compose: int, epsilons: Sequence[str], deltas: Sequence[Fraction],
                tolerance: Fraction, digits: int) -> AccProfile:
    """The accountant's profile of the spec's table run `compose` times."""
    table = form_of(spec).finite_table(replace(spec, compose=1))
    a = build(replace(spec, compose=compose), table)
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
    return AccProfile(spec, compose, a, points, rows, notes=notes)


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
        derived = derive_points(prof.spec, name, prof.compose, points)
    except SpecError as exc:
        raise UsageError(str(exc)) from None
    prof.outcome = prove_many([unfold(derived)], settings)[0]


def _dec(x: float, digits: int) -> str:
    return f"{x:.{digits}g}"


def lines(prof: AccProfile, digits: int = 6, exact: bool = False) -> list[str]:
    """The profile as text: the accountant's keys, then points and the (δ, ε) table."""
    a = prof.accountant
    k = a.keying
    keys = "every loss a power of b" if k.exact else "losses rounded to a grid of b (a wider bracket)"
    out = [f"{prof.spec.name}, {prof.compose}-fold composition: delta(eps) certified in a bracket by the "
           f"accountant (loss keys of base b = {k.base}, stride {k.stride}, {keys}; {len(a.ups)} distinct PLDs)"]

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
        out.append("  smallest eps with delta(eps) <= delta (eps a multiple of the tolerance shown):")
        w = max(len(_dec(float(p.epsilon), digits)) for p in prof.table)
        out.append(f"    {'delta':>8}  {'eps':>{w}}  tolerance  delta(eps) in")
        for p in prof.table:
            assert p.delta is not None
            out.append(f"    {_dec(float(p.delta), 3):>8}  {_dec(float(p.epsilon), digits):>{w}}  "
                       f"{str(p.tolerance):>9}  [{_dec(p.lower, digits)}, {_dec(p.upper, digits)}]")
    out += [f"  note: {n}" for n in prof.notes]
    o = prof.outcome
    if o is not None:
        what = "every point" if prof.points else "the table"
        out.append(f"  Coq: {o.verdict.upper()} {what} ({len(profile_points(prof))} points, one theorem "
                   f"{o.theorem}); certificate: {o.certificate}" if o.verdict == "proved" else
                   f"  Coq: {o.verdict.upper()}: {o.message}")
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


def tradeoff(prof: AccProfile) -> list[tuple[float, float]]:
    """The lower-left boundary of the privacy region of the worst pair, as
    (log10 P(not S), log10 Q(S)) for the loss events S = {loss ≥ z}, z over the keys of its
    window (as `plot.region_vertices` draws (1 − a, b)): P(not S) is the window's lower tail
    and Q(S) = Σ_S P·b^(−z), summed in logs since it falls far below the float range.  Only
    thresholds inside the window are drawn: where P(not S) would need the masses below 2^-100
    that the window dropped, the boundary is not computed."""
    a = prof.accountant
    lo, hi = epsilon_span(prof)
    pld = max(a.ups, key=lambda p: bracket_upper(a, p, (lo + hi) / 2))
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
