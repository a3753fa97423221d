"""Privacy regions and exact δ(ε) curves of finite mechanisms (seed 001).

For neighbours x, x' write p = M(x), q = M(x') and t = e^ε.  The hockey-stick
divergence δ_{x,x'}(t) = Σ_y max(0, p_y − t·q_y) is the maximum, over output
sets S, of P(S) − t·Q(S); the maximising S at t is {y : p_y > t·q_y}, a prefix
of the outputs sorted by likelihood ratio.  So δ_{x,x'} is the upper envelope
of the lines a − t·b given by those prefixes, and the mechanism's curve
δ(t) = max over ordered neighbour pairs is the upper envelope of all of them:
piecewise a − e^ε·b, with breakpoints ε_i = ln t_i where two lines cross.

(Seed 001 writes δ_i = max_S {Σ_S Pr[M(x) = y] e^{ε_i} Σ_S Pr[M(x) = y]}: a
minus sign is missing and the second sum is over M(x'), not M(x).)

The privacy region R(M, x, x') of seed 001 is the convex set whose lower-left
boundary is given by the same lines: M is (ε, δ)-DP iff R(M) ⊆ R(ε, δ), i.e.
iff δ ≥ δ(ε) (seed 001, Theorem 2).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from obligations.analysis.finite import FiniteMechanism


@dataclass(frozen=True)
class Line:
    """δ = a − t·b: the output set S of pair (x, x') has P(S) = a, Q(S) = b."""

    a: Fraction
    b: Fraction
    pair: tuple[int, int] | None = None
    outputs: tuple[int, ...] = ()

    def at(self, t: Fraction) -> Fraction:
        return self.a - t * self.b


@dataclass(frozen=True)
class Piece:
    """On e^ε ∈ [t_lo, t_hi] (t_hi None: up to ∞), δ(ε) = a − e^ε·b."""

    t_lo: Fraction
    t_hi: Fraction | None
    line: Line


@dataclass(frozen=True)
class Curve:
    """The exact δ(ε) curve for ε ≥ 0 (t = e^ε ≥ 1)."""

    pieces: tuple[Piece, ...]

    @property
    def breakpoints(self) -> tuple[Fraction, ...]:
        """The values t_i = e^{ε_i} > 1 where the curve changes piece."""
        return tuple(p.t_lo for p in self.pieces if p.t_lo > 1)

    @property
    def t_zero(self) -> Fraction | None:
        """The smallest e^ε with δ = 0 (None: δ > 0 for every finite ε)."""
        last = self.pieces[-1].line
        if last.b == 0 and last.a > 0:
            return None
        for p in self.pieces:
            if p.line.a == 0 and p.line.b == 0:
                return p.t_lo
        return None  # unreachable: the zero line ends every curve with finite ε

    def delta(self, t: Fraction) -> Fraction:
        """δ at e^ε = t (t ≥ 1), exactly."""
        return max(p.line.at(t) for p in self.pieces)

    def piece_at(self, t: Fraction) -> Piece:
        for p in self.pieces:
            if p.t_lo <= t and (p.t_hi is None or t <= p.t_hi):
                return p
        return self.pieces[-1]


def pair_lines(p: Sequence[Fraction], q: Sequence[Fraction], pair: tuple[int, int] | None = None) -> list[Line]:
    """The lines of the output-set prefixes sorted by likelihood ratio p/q (∞ first)."""
    ys = [y for y in range(len(p)) if p[y] > 0]
    ys.sort(key=lambda y: (0, Fraction(0)) if q[y] == 0 else (1, -(p[y] / q[y])))
    lines = [Line(Fraction(0), Fraction(0), pair, ())]
    a, b, outs = Fraction(0), Fraction(0), []
    for y in ys:
        a, b = a + p[y], b + q[y]
        outs.append(y)
        lines.append(Line(a, b, pair, tuple(sorted(outs))))
    return lines


def envelope(lines: Sequence[Line], t_min: Fraction = Fraction(1)) -> Curve:
    """The upper envelope of lines a − t·b on [t_min, ∞), exactly."""
    best: dict[Fraction, Line] = {}
    for ln in lines:  # for each slope keep the highest line
        if ln.b not in best or ln.a > best[ln.b].a:
            best[ln.b] = ln
    ordered = sorted(best.values(), key=lambda ln: -ln.b)  # slopes −b increasing
    hull: list[Line] = []
    for ln in ordered:
        while len(hull) >= 2 and _cross(hull[-2], ln) <= _cross(hull[-2], hull[-1]):
            hull.pop()
        hull.append(ln)
    pieces = []
    for i, ln in enumerate(hull):
        lo = t_min if i == 0 else max(t_min, _cross(hull[i - 1], ln))
        hi = _cross(ln, hull[i + 1]) if i + 1 < len(hull) else None
        if hi is None or hi > lo:
            pieces.append(Piece(lo, hi, ln))
    return Curve(tuple(pieces))


def _cross(l1: Line, l2: Line) -> Fraction:
    """Where a1 − t·b1 = a2 − t·b2 (b1 > b2)."""
    return (l1.a - l2.a) / (l1.b - l2.b)


def curve(m: FiniteMechanism) -> Curve:
    """δ(ε) of a finite mechanism: the envelope over ordered neighbour pairs."""
    lines: list[Line] = []
    for x, x2 in m.pairs:
        lines += pair_lines(m.rows[x], m.rows[x2], (x, x2))
    return envelope(lines)
