"""One output's exact probability under binary snapping with U*, in any FLT format (binary64 too).

The mechanism is the one of `ustar_snapping` (`float_snap` of theories/Float/SnapFloatDP.v):
w = fl(x + s·fl(fl(λ)·LN(u))), out = clamp_B(Λ·⌊w⌉_Λ), u from U*, LN correctly rounded, every
rounding to nearest with ties to even.  Instead of running the pipeline at every sample, each
step is inverted: every step is monotone, so "the grid index of w is ≥ k" is, for one sign,
a threshold on u, and the threshold is found by walking the steps backwards with exact
rationals (the rounding boundary of each step: the midpoint between two consecutive floats,
included when the tie goes to the larger float):

  s = +1:  x + n ≥ c*  ⟺  n ≥ N  ⟺  fl(λ)·ℓ ≥ m(N)  ⟺  ℓ ≥ L  ⟺  ln u ≥ m(L)  ⟺  u ≥ V,
  s = −1:  the mirror (n ≤ N, ℓ ≤ L, u ≤ V),

with N, L floats (the first float at or beyond the real threshold), m(·) the rounding
boundary and V = ⌈e^m(L)⌉ (or ⌊·⌋) a float: Pr[u ≥ V] = 1 − V under U*, Pr[u ≤ V] = succ V.
e^m is never a float (m ≠ 0 is dyadic), so only V needs more than rational arithmetic: mpmath,
at a precision that separates e^m from the rounding boundaries (retried with more bits).
The thresholds are exposed (`Threshold`): they are what the tight bound (docs/snap_tight.md)
reasons about.  Checked against `ustar_snapping`'s enumeration in small formats
(tests/unit/test_snap_thresholds.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import mpmath

from obligations.analysis.ustar_snapping import Format, pred, round_units, succ

Ties = Literal["up", "down"]


def _even(n: int, prec: int) -> bool:
    """The float n (units) has an even significand (0 counts as even)."""
    a = abs(n)
    return (a >> max(0, a.bit_length() - prec)) & 1 == 0


def floor_float(fmt: Format, q: Fraction) -> int:
    """The largest float ≤ q (units in, units out: q is a rational number of units)."""
    f = fmt.round(q / fmt.one)
    return f if f <= q else pred(f, fmt.prec)


def ceil_float(fmt: Format, q: Fraction) -> int:
    f = fmt.round(q / fmt.one)
    return f if f >= q else succ(f, fmt.prec)


def first_at_or_above(fmt: Format, q: Fraction, inclusive: bool) -> int:
    """The least float n with n ≥ q (inclusive) or n > q."""
    f = ceil_float(fmt, q)
    return succ(f, fmt.prec) if (not inclusive and f == q) else f


def last_at_or_below(fmt: Format, q: Fraction, inclusive: bool) -> int:
    f = floor_float(fmt, q)
    return pred(f, fmt.prec) if (not inclusive and f == q) else f


def boundary_ge(fmt: Format, f: int) -> tuple[Fraction, bool]:
    """{y : fl(y) ≥ f} = [m, ∞) (True) or (m, ∞) (False), m between pred f and f."""
    p = pred(f, fmt.prec)
    return Fraction(p + f, 2), _even(f, fmt.prec)


def boundary_le(fmt: Format, f: int) -> tuple[Fraction, bool]:
    """{y : fl(y) ≤ f} = (−∞, m] (True) or (−∞, m) (False)."""
    s = succ(f, fmt.prec)
    return Fraction(f + s, 2), _even(f, fmt.prec)


def _mpf_fraction(y: mpmath.mpf) -> Fraction:
    man, exp = y.man_exp
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _exp_float(fmt: Format, m: Fraction, up: bool) -> int:
    """⌈e^m⌉ (up) or ⌊e^m⌋ in the format, in units, for a dyadic m ≠ 0 (m in real units)."""
    bits = fmt.prec + 64 + max(0, -fmt.emin).bit_length()
    while True:
        with mpmath.workprec(bits):
            y = mpmath.exp(mpmath.mpf(m.numerator) / m.denominator) * mpmath.mpf(2) ** (-fmt.emin)
            rel = mpmath.mpf(2) ** (16 - bits)
            lo, hi = y * (1 - rel), y * (1 + rel)
            lo_q, hi_q = _mpf_fraction(lo), _mpf_fraction(hi)
        if up:
            a, b = ceil_float(fmt, lo_q), ceil_float(fmt, hi_q)
        else:
            a, b = floor_float(fmt, lo_q), floor_float(fmt, hi_q)
        if a == b:
            return a
        bits *= 2


@dataclass(frozen=True)
class Threshold:
    """One sign's threshold chain for "the rounded sum is ≥ c*" (or > c*) from input x:
    the noise's float threshold N, the logarithm's float threshold L, the boundary m of ln u,
    the sample's float threshold V and the probability (a fraction of U's mass)."""

    sign: int
    noise: int | None        # N (units); None when no sample / every sample qualifies
    log: int | None          # L (units)
    ln_edge: Fraction | None  # m(L), in real units
    sample: int | None       # V (units)
    prob: Fraction


@dataclass(frozen=True)
class Mechanism:
    """Binary snapping's parameters: the format, λ (rounded to the format in the noise), Λ, B,
    the tie rule of the grid."""

    fmt: Format
    lam: Fraction
    grid: Fraction
    bound: Fraction
    ties: Ties = "up"

    @property
    def g(self) -> int:
        return math.ceil(self.bound / self.grid)

    @property
    def lam_f(self) -> int:
        return self.fmt.round(self.lam)

    def edge(self, k: int) -> tuple[Fraction, bool]:
        """The real threshold c* of "grid index of fl(v) ≥ k": fl(v) ≥ F iff v ≥ c* (True) or
        v > c*, F the first float at or beyond (k − ½)Λ (beyond it for ties down)."""
        fmt = self.fmt
        e = (k - Fraction(1, 2)) * self.grid * fmt.one
        f = first_at_or_above(fmt, e, self.ties == "up")
        return boundary_ge(fmt, f)

    def chain(self, x: int, k: int, sign: int) -> Threshold:
        """Pr[grid index of w ≥ k | x, sign] with its thresholds (x in units)."""
        fmt = self.fmt
        one = fmt.one
        c, inc = self.edge(k)
        lam_f = self.lam_f
        if sign == 1:
            n = first_at_or_above(fmt, c - x, inc)           # n ≥ N
            if n > 0:
                return Threshold(1, n, None, None, None, Fraction(0))
            m1, inc1 = boundary_ge(fmt, n)                   # λf·ℓ ≥ m1
            lo = first_at_or_above(fmt, m1 * one / lam_f, inc1)   # ℓ ≥ L
            if lo > 0:
                return Threshold(1, n, lo, None, None, Fraction(0))
            m2, _ = boundary_ge(fmt, lo)                     # ln u ≥ m2 (never equal)
            if m2 >= 0:
                return Threshold(1, n, lo, m2 / one, None, Fraction(0))
            v = _exp_float(fmt, m2 / one, up=True)          # u ≥ V
            top = pred(one, fmt.prec)
            if v > top:
                p = Fraction(0)
            elif v <= 1:
                p = Fraction(1)
            else:
                p = 1 - Fraction(v, one)
            return Threshold(1, n, lo, m2 / one, v, p)
        n = last_at_or_below(fmt, x - c, inc)                # n ≤ N
        if n >= 0:
            return Threshold(-1, n, None, None, None, Fraction(1))
        m1, inc1 = boundary_le(fmt, n)                       # λf·ℓ ≤ m1
        hi = last_at_or_below(fmt, m1 * one / lam_f, inc1)   # ℓ ≤ L
        if hi >= 0:
            return Threshold(-1, n, hi, None, None, Fraction(1))
        m2, _ = boundary_le(fmt, hi)                         # ln u ≤ m2
        if m2 >= 0:
            return Threshold(-1, n, hi, m2 / one, None, Fraction(1))
        v = _exp_float(fmt, m2 / one, up=False)             # u ≤ V
        top = pred(one, fmt.prec)
        if v < 1:
            p = Fraction(0)
        elif v >= top:
            p = Fraction(1)
        else:
            p = Fraction(succ(v, fmt.prec), one)
        return Threshold(-1, n, hi, m2 / one, v, p)

    def at_least(self, x: int, k: int) -> Fraction:
        """Pr[grid index ≥ k | x], both signs (½ each); 1 for k ≤ −g + 0, 0 above g."""
        if k <= -self.g:
            return Fraction(1)
        if k > self.g:
            return Fraction(0)
        return (self.chain(x, k, 1).prob + self.chain(x, k, -1).prob) / 2

    def prob(self, x: int, k: int) -> Fraction:
        """Pr[output index k | x], k in [−g, g] (±g: the clamps ±B)."""
        return self.at_least(x, k) - self.at_least(x, k + 1)

    def output(self, k: int) -> Fraction:
        return max(-self.bound, min(self.bound, k * self.grid))


def excess(mech: Mechanism, x: int, x2: int, k: int) -> float:
    """ln(Pr[k | x]/Pr[k | x2]) − |x − x2|/λ (inf when Pr[k | x2] = 0 < Pr[k | x])."""
    a, b = mech.prob(x, k), mech.prob(x2, k)
    if b == 0:
        return math.inf if a > 0 else -math.inf
    if a == 0:
        return -math.inf
    with mpmath.workprec(200):
        d = Fraction(abs(x - x2), mech.fmt.one) / mech.lam
        return float(mpmath.log(mpmath.mpf(a.numerator) * b.denominator / (mpmath.mpf(a.denominator) * b.numerator))
                     - mpmath.mpf(d.numerator) / d.denominator)


def round_check(fmt: Format, q: Fraction) -> int:
    """fl(q) in units, for tests."""
    return round_units(q.numerator, 0, fmt.prec) if q.denominator == 1 else fmt.round(q / fmt.one)


def ln_rounded(fmt: Format, u: int) -> int:
    """fl(ln u) in units for a float u of (0, 1) (units): ln u is transcendental for u ≠ 1, so
    a 4·prec-bit evaluation plus the format's width never lands on a rounding boundary."""
    bits = 4 * fmt.prec + max(0, -fmt.emin).bit_length() + 64
    with mpmath.workprec(bits):
        y = mpmath.log(mpmath.mpf(u) * mpmath.mpf(2) ** fmt.emin)
        q = _mpf_fraction(abs(y))
    return fmt.round(-q if y < 0 else q)


def forward_index(mech: Mechanism, x: int, u: int, sign: int) -> int:
    """The grid index of w = fl(x + s·fl(λ·fl(ln u))) for one sample u (units), run forwards:
    an independent check of the thresholds `chain` finds by walking backwards."""
    fmt = mech.fmt
    one = fmt.one
    ell = ln_rounded(fmt, u)
    n = fmt.round(Fraction(mech.lam_f * ell, one * one))
    w = Fraction(fmt.round(Fraction(x + sign * n, one)), one)
    q = w / mech.grid + Fraction(1, 2)
    k = math.floor(q)
    return k - 1 if (mech.ties == "down" and q == k) else k


def floor_exp(fmt: Format, m: Fraction) -> int:
    """⌊e^m⌋ in the format, in units, for a dyadic m ≠ 0 (the sample threshold of ln u ≤ m)."""
    return _exp_float(fmt, m, up=False)
