"""Privacy profiles: the exact δ(ε) curve of a finite mechanism (or of its
k-fold composition), and Coq certificates of chosen points from both sides.

For each ε the tool certifies (ε, δ⁺)-DP and refutes (ε, δ⁻)-DP with
δ⁻ < δ(ε) ≤ δ⁺: exact δ⁺ = δ(ε) when e^ε is rational (δ⁻ = δ − γ), and a
12-digit bracket when it is not.  Both are ordinary derived claims, proved or
refuted by the same pipeline (`certify.run.prove_many`, re-checked by one coqchk run).
"""
from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from obligations import models
from obligations.analysis.compose import composed_curve, cw_composed_curve, kov
from obligations.analysis.finite import FiniteMechanism, exp_bounds
from obligations.analysis.region import Curve, curve
from obligations.certify.outcome import Outcome, Settings
from obligations.certify.run import prove_many, unfold
from obligations.core import expr as E
from obligations.core.spec import MechanismSpec, derive
from obligations.models import Unfolded

DIGITS = 12              # δ brackets when e^ε is irrational
GAMMA = Fraction(1, 10**9)  # how far below an exact δ(ε) the refuted claim is


@dataclass
class Point:
    epsilon: str                     # as the user (or the breakpoint list) wrote it
    epsilon_float: float
    delta: Fraction | None        # exact δ(ε) when e^ε is rational
    delta_float: float
    upper: Fraction                  # certified: (ε, upper)-DP
    lower: Fraction | None        # refuted: not (ε, lower)-DP (None when δ(ε) = 0)
    proofs: list[Outcome] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)  # per proof: "proved" or "refuted"
    closed_form: str | None = None  # δ(ε) = a − e^ε·b exactly, when e^ε is irrational

    def to_json(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "epsilon_float": self.epsilon_float,
                "delta": None if self.delta is None else str(self.delta),
                "delta_float": self.delta_float, "delta_upper": str(self.upper),
                "delta_lower": None if self.lower is None else str(self.lower),
                "delta_closed_form": self.closed_form,
                "certificates": [{"claim": o.claim, "verdict": o.verdict, "certificate": o.certificate,
                                  "statement": o.statement} for o in self.proofs]}


@dataclass
class Profile:
    spec: MechanismSpec
    compose: int
    curve: Curve
    points: list[Point]
    kov: list[tuple[str, float, float, float]] = field(default_factory=list)  # ε, ε float, KOV δ, exact δ
    kov_t0: Fraction | None = None  # e^ε0 of the one-run mechanism the KOV bound starts from

    def to_json(self) -> dict[str, Any]:
        return {"name": self.spec.name, "compose": self.compose,
                "breakpoints": [{"epsilon": ln_text(t), "epsilon_float": math.log(t)}
                                for t in self.curve.breakpoints],
                "pieces": [piece_json(p) for p in self.curve.pieces],
                "epsilon_zero": None if self.curve.t_zero is None else ln_text(self.curve.t_zero),
                "points": [p.to_json() for p in self.points],
                "kov": [{"epsilon": e, "epsilon_float": f, "kov_delta": k, "exact_delta": d}
                        for e, f, k, d in self.kov]}


def ln_text(t: Fraction) -> str:
    return "0" if t == 1 else f"ln({t})"


def piece_json(p: Any) -> dict[str, Any]:
    return {"from": ln_text(p.t_lo), "to": None if p.t_hi is None else ln_text(p.t_hi),
            "a": str(p.line.a), "b": str(p.line.b), "delta": f"{p.line.a} - e^eps * {p.line.b}"}


def mechanism_curve(spec: MechanismSpec, compose: int, table: FiniteMechanism | None = None) -> Curve:
    """The exact δ(ε) of the spec's table (`table`, if the analysis already made it) run `compose` times."""
    m = table if table is not None else models.form_of(spec).finite_table(spec)
    if compose == 1:
        return curve(m)
    if spec.cw is not None:  # one database for all runs: Σ_x f(x)·M(x)^⊗k, not (Σ_x f(x)·M(x))^⊗k
        return cw_composed_curve(m.base_rows, *spec.cw, compose)
    return composed_curve(m.rows, m.pairs, compose)


def profile(spec: MechanismSpec, epsilons: Sequence[str], compose: int = 1,
            table: FiniteMechanism | None = None) -> Profile:
    """The curve and the (not yet certified) points at `epsilons` (default: 0 and the breakpoints);
    `table`: the spec's table, if the analysis already made it."""
    table = table if table is not None else models.form_of(spec).finite_table(spec)
    c = mechanism_curve(spec, compose, table)
    if epsilons:
        points = [_point(spec, c, text) for text in epsilons]
    else:   # the breakpoints are known exactly: no need to read back ln(t) (t may have 500 digits)
        points = [_exact_point(c, t) for t in [Fraction(1), *c.breakpoints]]
    prof = Profile(spec, compose, c, points)
    # KOV bounds compositions of (ε0, δ0)-DP mechanisms run on the same input; under
    # CW-privacy the k runs share one draw of the database, which is no such composition
    # of the mixture (its exact curve can lie above KOV's), so there is nothing to compare.
    if compose > 1 and spec.cw is None:
        base = mechanism_curve(spec, 1, table)
        if base.t_zero is not None and base.t_zero > 1:
            prof.kov_t0 = base.t_zero
            eps0 = sympy.log(sympy.Rational(base.t_zero.numerator, base.t_zero.denominator))
            for e_i, d_i in kov(eps0, Fraction(0), compose):
                t = sympy.exp(e_i)
                exact = c.delta(Fraction(int(t.p), int(t.q))) if t.is_Rational else math.nan
                prof.kov.append((str(e_i).replace("log", "ln"), float(e_i), float(d_i), float(exact)))
    return prof


def _exact_point(c: Curve, t: Fraction) -> Point:
    """The point ε = ln t for a rational t ≥ 1 (e^ε = t exactly)."""
    d = c.delta(t)
    lower = None if d == 0 else d - min(GAMMA, d / 2)
    eps_float = math.log(t.numerator) - math.log(t.denominator)   # t may not fit a float
    return Point(ln_text(t), eps_float, d, float(d), d, lower)


def _point(spec: MechanismSpec, c: Curve, text: str) -> Point:
    eps = E.to_sympy(E.parse(text), spec.parameters)
    e = sympy.exp(eps)
    if e.is_Rational:
        t = Fraction(int(e.p), int(e.q))
        d = c.delta(t)
        lower = None if d == 0 else d - min(GAMMA, d / 2)
        return Point(text, float(eps.evalf(20)), d, float(d), d, lower)
    lo, hi, _ = exp_bounds(eps, 30)
    scale = 10 ** DIGITS
    upper = Fraction(math.ceil(c.delta(lo) * scale), scale)
    below = Fraction(math.floor(c.delta(hi) * scale) - 1, scale)
    lower = below if below >= 0 and c.delta(hi) > 0 else None
    mid = float((c.delta(lo) + c.delta(hi)) / 2)
    return Point(text, float(eps.evalf(20)), None, mid, upper, lower, closed_form=closed_form(c, lo, hi, text))


def closed_form(c: Curve, lo: Fraction, hi: Fraction, eps_text: str) -> str | None:
    """δ(ε) = a − e^ε·b exactly, for an irrational e^ε in (lo, hi): the curve's piece there (None if
    a breakpoint lies between the brackets, which 30 digits make only theoretical)."""
    piece = c.piece_at(lo)
    if c.piece_at(hi) is not piece:
        return None
    a, b = piece.line.a, piece.line.b
    text = eps_text.strip()
    e = "e" if text == "1" else f"e^{text}" if text.isalnum() else f"e^({text})"
    if b == 0:
        return str(a)
    scaled = e if b == 1 else f"{e}·{b}"
    return f"-{scaled}" if a == 0 else f"{a} - {scaled}"


def certify(prof: Profile, settings: Settings) -> None:
    """Prove (ε, δ⁺) and refute (ε, δ⁻) for every point, with the ordinary pipeline; the
    certificates are named by the point: NAME[_kK]_eps_<ε>_ub and _lb."""
    certify_many([prof], settings)


def certify_many(profs: Sequence[Profile], settings: Settings) -> None:
    """`certify` for several profiles at once: with `settings.jobs` > 1 their claims are
    compiled side by side; each profile's files are still re-checked by one coqchk run."""
    claims: list[tuple[Point, Unfolded]] = []
    batches: list[int] = []
    for n, prof in enumerate(profs):
        for p in prof.points:
            for side, delta in point_sides(p):
                name = point_name(prof.spec.name, prof.compose, p.epsilon, side)
                derived = derive(prof.spec, name=name, epsilon=p.epsilon, delta=delta, compose=prof.compose)
                claims.append((p, unfold(derived)))
                batches.append(n)
                p.expected.append("proved" if side == "ub" else "refuted")
    for (p, _), outcome in zip(claims, prove_many([u for _, u in claims], settings, batches), strict=False):
        p.proofs.append(outcome)


def point_sides(p: Point) -> list[tuple[str, Fraction]]:
    """The claims of a point: its upper δ proved ("ub"), its lower δ refuted ("lb") when it has one."""
    return [("ub", p.upper)] + ([("lb", p.lower)] if p.lower is not None else [])


def point_name(spec_name: str, compose: int, epsilon: str, side: str) -> str:
    """A point's certificate name: NAME[_kK]_eps_<ε>_ub or _lb."""
    suffix = f"_k{compose}" if compose > 1 else ""
    return f"{spec_name}{suffix}_eps_{epsilon_slug(epsilon)}_{side}"


# How each character of an ε expression is written in a certificate's name (an identifier).
_SLUG = {"/": "o", "*": "x", "-": "m", ".": "p", "+": "a", "(": "_", ")": "_", " ": ""}


def epsilon_slug(text: str) -> str:
    """ε as part of a certificate's name: `ln(3)` -> `ln_3`, `ln(27/8)` -> `ln_27o8`, `1/2` -> `1o2`,
    so that certificates of different points never share a name (a later run at another ε must
    not overwrite this one)."""
    slug = "".join(_SLUG.get(c, c) for c in text)
    return re.sub("_+", "_", slug).strip("_")


def certified(prof: Profile) -> bool:
    """Every upper claim proved and every lower claim refuted."""
    return all(o.verdict == want for p in prof.points for o, want in zip(p.proofs, p.expected, strict=False))
