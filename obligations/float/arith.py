"""Exact binary floating-point arithmetic in a format (precision p, exponent bound emax),
as Flocq's `binary_float p emax` computes it: every result is the exact value rounded to
nearest, ties to even; overflow gives an infinity.  Values are kept as exact fractions;
a float is identified by its bit pattern (sign, mantissa, exponent) as Flocq's `B2SF`
gives it (`float_key` in `theories/Float/FloatPipeline.v`)."""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath


@functools.lru_cache(maxsize=4096)
def pow2(e: int) -> Fraction:
    """2^e exactly, from an integer shift (a Fraction's `**` is a hundred times slower, and
    a pipeline's enumeration asks for the same few powers millions of times)."""
    return Fraction(1 << e) if e >= 0 else Fraction(1, 1 << -e)


@dataclass(frozen=True)
class Format:
    precision: int
    emax: int

    @property
    def emin(self) -> int:
        """The exponent of the smallest subnormal's unit (Flocq's `emin`: 3 - emax - prec)."""
        return 3 - self.emax - self.precision

    @property
    def eta(self) -> Fraction:
        """The unit roundoff 2^-p."""
        return Fraction(1, 2 ** self.precision)


@dataclass(frozen=True, order=True)
class Float:
    """A float's bit pattern: `kind` is "finite", "zero", "inf" or "nan"; a finite float
    is (-1)^negative · m · 2^e with Flocq's canonical (m, e)."""

    kind: str
    negative: bool = False
    m: int = 0
    e: int = 0

    @functools.cached_property
    def value(self) -> Fraction:     # cached: an enumeration compares the same floats often
        if self.kind == "finite":
            v = Fraction(self.m << self.e) if self.e >= 0 else Fraction(self.m, 1 << -self.e)
            return -v if self.negative else v
        if self.kind == "zero":
            return Fraction(0)
        raise ValueError(f"{self.kind} has no real value")

    def label(self) -> str:
        if self.kind == "nan":
            return "NaN"
        if self.kind == "inf":
            return "-inf" if self.negative else "+inf"
        if self.kind == "zero":
            return "-0" if self.negative else "0"
        v = self.value
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


ZERO = Float("zero")
NAN = Float("nan")


def _nearest_even(num: int, den: int) -> int:
    """The integer nearest to num/den (den > 0), ties to even."""
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q % 2 == 1):
        return q + 1
    return q


def round_fraction(fmt: Format, x: Fraction, zero_negative: bool = False) -> Float:
    """x rounded to nearest even in the format (Flocq's `binary_normalize ... mode_NE`)."""
    if x == 0:
        return Float("zero", zero_negative)
    neg, a = x < 0, abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()   # 2^e <= a < 2^(e+2)
    if pow2(e) > a:
        e -= 1
    while pow2(e + 1) <= a:
        e += 1
    q = max(e - fmt.precision + 1, fmt.emin)                       # the exponent of the ulp
    scaled = a / pow2(q)
    m = _nearest_even(scaled.numerator, scaled.denominator)
    if m == 2 ** fmt.precision:
        m, q = m // 2, q + 1
    if m == 0:
        return Float("zero", neg)
    if m * pow2(q) >= pow2(fmt.emax):
        return Float("inf", neg)
    return Float("finite", neg, m, q)


def add(fmt: Format, a: Float, b: Float) -> Float:
    if a.kind == "nan" or b.kind == "nan":
        return NAN
    if a.kind == "inf" or b.kind == "inf":
        if a.kind == "inf" and b.kind == "inf" and a.negative != b.negative:
            return NAN
        return a if a.kind == "inf" else b
    s = a.value + b.value
    if s == 0:   # exact zero sum: -0 only when both are -0 (round to nearest)
        return Float("zero", a.kind == "zero" and b.kind == "zero" and a.negative and b.negative)
    return round_fraction(fmt, s)


def mul(fmt: Format, a: Float, b: Float) -> Float:
    if a.kind == "nan" or b.kind == "nan":
        return NAN
    neg = a.negative != b.negative
    if a.kind == "inf" or b.kind == "inf":
        if a.kind == "zero" or b.kind == "zero":
            return NAN
        return Float("inf", neg)
    if a.kind == "zero" or b.kind == "zero":
        return Float("zero", neg)
    return round_fraction(fmt, a.value * b.value)


def neg(a: Float) -> Float:
    return a if a.kind == "nan" else Float(a.kind, not a.negative, a.m, a.e)


def less(a: Float, b: Float) -> bool:
    """Flocq's Bltb (false when either is NaN; -0 and +0 compare equal)."""
    if a.kind == "nan" or b.kind == "nan":
        return False
    return _order(a) < _order(b)


def _order(a: Float) -> Fraction | float:
    """The value, infinities included (NaN is never ordered)."""
    if a.kind == "inf":
        return float("-inf") if a.negative else float("inf")
    return a.value


def sort_key(a: Float) -> tuple[int, Fraction | float, int]:
    """Outputs in increasing value, -0 before +0, NaN last."""
    return (1, 0, 0) if a.kind == "nan" else (0, _order(a), 0 if a.negative else 1)


def clamp(b: Float, v: Float) -> Float:
    if less(b, v):
        return b
    if less(v, neg(b)):
        return neg(b)
    return v


def round_grid(j: int, ties: str, v: Float, fmt: Format) -> Float:
    """The multiple of 2^j nearest to v, exactly (FloatPipeline.v: `round_grid_float`)."""
    if v.kind != "finite":
        return v
    t = v.m * pow2(v.e - j)
    fl_ = t.numerator // t.denominator
    frac = t - fl_
    if frac < Fraction(1, 2):
        k = fl_
    elif frac > Fraction(1, 2):
        k = fl_ + 1
    elif ties == "even":
        k = fl_ if fl_ % 2 == 0 else fl_ + 1
    else:   # toward +inf: a positive tie goes away from 0, a negative one toward 0
        k = fl_ if v.negative else fl_ + 1
    return round_fraction(fmt, Fraction(-k if v.negative else k) * pow2(j))


def correctly_rounded_ln(fmt: Format, u: Float) -> Float:
    """round(ln u) in the format, for 0 < u <= 1; an error if ln u were too close to a
    rounding boundary to decide with 4·p + 200 bits (it never is for u ≠ 1)."""
    x = u.value
    if x == 1:
        return ZERO
    bits = 4 * fmt.precision + 200
    with mpmath.workprec(bits):
        y = mpmath.log(mpmath.mpf(x.numerator) / x.denominator)
        lo, hi = _exact(y * (1 + mpmath.mpf(2) ** (10 - bits))), _exact(y * (1 - mpmath.mpf(2) ** (10 - bits)))
    a, b = round_fraction(fmt, lo), round_fraction(fmt, hi)
    if a != b:
        raise ArithmeticError(f"ln({x}) is too close to a rounding boundary")
    return a


def _exact(y: mpmath.mpf) -> Fraction:
    sign, man, exp, _ = y._mpf_
    v = Fraction(int(man)) * pow2(int(exp))
    return -v if sign else v


def neighbours(fmt: Format, f: Float) -> tuple[Fraction, Fraction]:
    """The floats just below and above a finite nonzero float (Flocq's Bpred, Bsucc values)."""
    v = f.value
    if v == 0:
        tiny = pow2(fmt.emin)
        return -tiny, tiny
    ulp_above = _ulp(fmt, v, up=True)
    ulp_below = _ulp(fmt, v, up=False)
    return v - ulp_below, v + ulp_above


def _ulp(fmt: Format, v: Fraction, up: bool) -> Fraction:
    """The gap from v to the next float in the given direction."""
    a = abs(v)
    e = 0
    while pow2(e) > a:
        e -= 1
    while pow2(e + 1) <= a:
        e += 1
    # toward 0 from a power of two the gap halves
    toward_zero = (up and v < 0) or (not up and v > 0)
    if toward_zero and a == pow2(e):
        e -= 1
    return pow2(max(e - fmt.precision + 1, fmt.emin))


def ln_bracket(x: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Dyadic lo <= ln x <= hi (x > 0) with hi - lo = 2^-bits (computed with 64 guard bits)."""
    with mpmath.workprec(bits + 64):
        y = _exact(mpmath.log(mpmath.mpf(x.numerator) / x.denominator))
    k = math.floor(y * 2 ** bits)
    return Fraction(k, 2 ** bits), Fraction(k + 1, 2 ** bits)


def float_of_int(fmt: Format, z: int) -> Float:
    return round_fraction(fmt, Fraction(z))


def from_fraction_exact(fmt: Format, x: Fraction) -> Float | None:
    """x as a float when it is representable, else None."""
    f = round_fraction(fmt, x)
    return f if f.kind in ("finite", "zero") and f.value == x else None
