"""The exact output distribution of binary snapping with Mironov's sampler U*, in a small format.

The mechanism is `float_snap` of theories/Float/SnapFloatDP.v (seed 004, Definition 3):
out = clamp_B(Λ·⌊w⌉_Λ), w = fl(x + s·fl(fl(λ)·LN(u))), s = ±1 with probability ½ each,
u = U* (a uniform U of (0, 1] rounded down to the format: each float u of (0, 1) has the
length of [u, succ u), the smallest also (0, u), the largest below 1 also up to 1).  The
format is Flocq's FLT(emin, p) (no overflow: Coq's `rnd`), every operation rounded to
nearest with ties to even, LN correctly rounded, the rounding to the grid exact with ties
up (toward +∞) or down.

Every float is an integer number of *units* 2^emin.  For one input x and one sign the
output is a monotone function of u (each step is monotone), so the set of samples giving
"grid index ≥ k" is a prefix or suffix of the sorted samples, found by bisection in the
sorted noise values: each output's probability is an exact integer count of units / 2.
`brute_distribution` runs the pipeline sample by sample, to check the bisection.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import mpmath

Ties = Literal["up", "down"]


def _ulp(n: int, prec: int) -> int:
    """The spacing of the floats at |n| (units), 1 in the subnormal range (n = 0 too)."""
    return 1 << max(0, abs(n).bit_length() - prec)


def round_units(num: int, shift: int, prec: int) -> int:
    """num·2^-shift units (shift ≥ 0) rounded to nearest, ties to even, in FLT(emin, prec)."""
    if num == 0:
        return 0
    a = abs(num)
    k = max(0, a.bit_length() - shift - prec)   # the exponent of the ulp, in units
    d = shift + k
    q = a >> d
    if d > 0:
        r, half = a & ((1 << d) - 1), 1 << (d - 1)
        if r > half or (r == half and q & 1):
            q += 1
    return (q << k) if num > 0 else -(q << k)


def succ(n: int, prec: int) -> int:
    return -pred(-n, prec) if n < 0 else n + _ulp(n, prec)


def pred(n: int, prec: int) -> int:
    if n <= 0:
        return -succ(-n, prec)
    return n - _ulp(n - 1, prec)    # below a power of two the spacing halves


def _mantissa_even(n: int, prec: int) -> bool:
    a = abs(n)
    return (a >> max(0, a.bit_length() - prec)) & 1 == 0


@dataclass(frozen=True)
class Format:
    """FLT(emin, prec): x = m·2^e with |m| < 2^prec, e ≥ emin (Flocq's `emin`: the exponent of
    the smallest subnormal's unit).  η = 2^-prec, normal_min = 2^(emin+prec-1)."""

    prec: int
    emin: int

    def __post_init__(self) -> None:
        if self.prec < 2 or -self.emin <= self.prec:
            raise ValueError(f"need prec >= 2 and normal_min <= 1/2 (got prec {self.prec}, emin {self.emin})")

    @property
    def one(self) -> int:
        return 1 << -self.emin

    @property
    def eta(self) -> Fraction:
        return Fraction(1, 2 ** self.prec)

    @property
    def normal_min(self) -> Fraction:
        return Fraction(2) ** (self.emin + self.prec - 1)

    def units(self, x: Fraction) -> int:
        """x as units; an error unless x is a float of the format."""
        v = Fraction(x) * self.one
        if v.denominator != 1 or round_units(v.numerator, 0, self.prec) != v.numerator:
            raise ValueError(f"{x} is not a float of precision {self.prec}, emin {self.emin}")
        return v.numerator

    def round(self, x: Fraction) -> int:
        """fl(x) in units (nearest, ties to even), for a rational x."""
        v = Fraction(x) * self.one
        shift = max(1, 2 * self.prec + v.denominator.bit_length() - v.numerator.bit_length() + 2)
        # num/2^shift is v truncated; a sticky bit keeps ties and near-ties apart
        num, rem = divmod(abs(v.numerator) << (shift + 1), v.denominator)
        num = num | (1 if rem else 0)
        r = round_units(num, shift + 1, self.prec)
        return -r if v < 0 else r

    def value(self, n: int) -> Fraction:
        return Fraction(n, self.one)

    def floats_in(self, lo: Fraction, hi: Fraction) -> list[int]:
        """Every float in [lo, hi], increasing, in units."""
        pos = list(self._positive_upto(Fraction(max(abs(lo), abs(hi)))))
        lo_u, hi_u = Fraction(lo) * self.one, Fraction(hi) * self.one
        allv = [-n for n in reversed(pos)] + [0] + pos
        return [n for n in allv if lo_u <= n <= hi_u]

    def _positive_upto(self, hi: Fraction) -> Iterator[int]:
        lim = hi * self.one
        n = 1
        while n <= lim:
            yield n
            n = succ(n, self.prec)

    def ustar(self) -> list[int]:
        """The floats of (0, 1), increasing, in units: U*'s outcomes."""
        out: list[int] = []
        n = 1
        while n < self.one:
            out.append(n)
            n = succ(n, self.prec)
        return out


def correctly_rounded_ln(fmt: Format, u: int, bits: int = 0) -> int:
    """round(ln(u·2^emin)) in units, decided by an mpmath bracket (retried with more bits when the
    bracket straddles a rounding boundary: ln of a rational ≠ 1 never lies on one)."""
    bits = bits or 2 * fmt.prec - fmt.emin + 64
    while True:
        with mpmath.workprec(bits):
            y = mpmath.log(mpmath.mpf(u) * mpmath.mpf(2) ** fmt.emin)
            ends = [_units_of(fmt, y * (1 + s * mpmath.mpf(2) ** (8 - bits))) for s in (1, -1)]
        a, b = (round_units(num, shift, fmt.prec) for num, shift in ends)
        if a == b:
            return a
        bits *= 2


def _units_of(fmt: Format, y: mpmath.mpf) -> tuple[int, int]:
    """An mpf as num·2^-shift units."""
    sign, man, exp, _ = y._mpf_
    e = int(exp) - fmt.emin
    num = int(man) << e if e >= 0 else int(man)
    num = -num if sign else num
    return num, (-e if e < 0 else 0)


def ln_table(fmt: Format, us: Sequence[int]) -> list[int]:
    """LN(u) for every u, correctly rounded: ln u = ln m + e·ln 2 (u = m·2^e) in fixed point with
    2^-F accuracy, each bracket's two ends rounded; where they differ, mpmath decides."""
    frac = 2 * fmt.prec - fmt.emin + 40
    with mpmath.workprec(frac + 40):
        ln2 = int(mpmath.nint(mpmath.log(2) * mpmath.mpf(2) ** frac))
        mant: dict[int, int] = {}
        out = []
        for u in us:
            k = max(0, u.bit_length() - fmt.prec)
            m, e = u >> k, k + fmt.emin
            if m not in mant:
                mant[m] = int(mpmath.nint(mpmath.log(m) * mpmath.mpf(2) ** frac))
            v = mant[m] + e * ln2                  # error ≤ (1 + |e|)/2 of 2^-frac
            slack = abs(e) + 2
            shift = frac + fmt.emin
            a, b = round_units(v - slack, shift, fmt.prec), round_units(v + slack, shift, fmt.prec)
            out.append(a if a == b else correctly_rounded_ln(fmt, u))
    return out


@dataclass(frozen=True)
class Snapping:
    """The mechanism's parameters: λ (rounded to the format in the noise, exact in the bound),
    the grid Λ (its half a whole number of units), the clamp B, the tie rule of the grid."""

    fmt: Format
    lam: Fraction
    grid: Fraction
    bound: Fraction
    ties: Ties = "up"

    @property
    def g(self) -> int:
        """The first grid index at or above B."""
        return math.ceil(self.bound / self.grid)


@dataclass
class Tables:
    """What every input needs: the samples, their masses' cumulative starts, the sorted noise."""

    snap: Snapping
    us: list[int]
    starts: list[int]                    # starts[i]: where U* starts giving us[i] (units); starts[N] = 1
    noise: list[int]                     # fl(fl(λ)·LN(u)), nondecreasing
    lnf: list[int]
    thresholds: dict[int, tuple[int, bool]] = field(default_factory=dict)


def tables(snap: Snapping) -> Tables:
    fmt = snap.fmt
    us = fmt.ustar()
    lnf = ln_table(fmt, us)
    lam_f = fmt.round(snap.lam)
    noise = [round_units(lam_f * v, -fmt.emin, fmt.prec) for v in lnf]
    if any(a > b for a, b in zip(noise, noise[1:], strict=False)):
        raise AssertionError("the noise is not monotone in u")
    starts = [0] + us[1:] + [fmt.one]
    t = Tables(snap, us, starts, noise, lnf)
    for k in range(-snap.g + 1, snap.g + 1):
        t.thresholds[k] = _threshold(snap, k)
    return t


def _threshold(snap: Snapping, k: int) -> tuple[int, bool]:
    """(D, inclusive): the grid index of fl(v) is ≥ k iff 2v ≥ D (inclusive) or 2v > D, v in units.
    Index ≥ k iff w ≥ (k - ½)Λ (ties up) or w > (k - ½)Λ (ties down); for a float w that is
    w ≥ F, F the first float at or beyond the edge; fl(v) ≥ F iff v is above the midpoint of
    pred F and F (at it when ties to even go to F)."""
    fmt = snap.fmt
    edge = (k - Fraction(1, 2)) * snap.grid * fmt.one
    if edge.denominator != 1:
        raise ValueError("half the grid must be a whole number of units")
    e = edge.numerator
    f = fmt.round(Fraction(e, fmt.one))
    if f < e or (snap.ties == "down" and f == e):
        f = succ(f, fmt.prec)
    p = pred(f, fmt.prec)
    return p + f, _mantissa_even(f, fmt.prec)


def counts(t: Tables, x: int) -> dict[int, int]:
    """Output (grid index in [-g, g], ±g meaning ±B) -> 2·Pr[output | x] in units."""
    g = t.snap.g
    one = t.snap.fmt.one
    # mass (units) of the samples whose grid index is >= k, per sign
    ge: dict[int, int] = {-g: 2 * one}
    for k in range(-g + 1, g + 1):
        d, inclusive = t.thresholds[k]
        tt = d - 2 * x
        lo = -((-tt) // 2) if inclusive else tt // 2 + 1      # s = +1: noise >= lo
        i = bisect_left(t.noise, lo)
        tm = 2 * x - d
        hi = tm // 2 if inclusive else -((-tm) // 2) - 1       # s = -1: noise <= hi
        j = bisect_right(t.noise, hi)
        ge[k] = (one - t.starts[i]) + t.starts[j]
    ge[g + 1] = 0
    return {k: ge[k] - ge[k + 1] for k in range(-g, g + 1) if ge[k] - ge[k + 1]}


def brute_distribution(t: Tables, x: int) -> dict[int, int]:
    """The same counts, running the pipeline at every sample (a check of `counts`)."""
    snap, fmt = t.snap, t.snap.fmt
    lam_grid = snap.grid * fmt.one
    out: dict[int, int] = {}
    for i, nz in enumerate(t.noise):
        mass = t.starts[i + 1] - t.starts[i]
        for s in (1, -1):
            w = round_units(x + s * nz, 0, fmt.prec)
            q = Fraction(w) / lam_grid + Fraction(1, 2)
            k = math.floor(q) if snap.ties == "up" else math.ceil(q) - 1
            k = max(-snap.g, min(snap.g, k))
            out[k] = out.get(k, 0) + mass
    return out


@dataclass(frozen=True)
class Loss:
    """The largest privacy loss over neighbouring inputs and outputs, with its witness."""

    value: float                       # ln(num/den) (inf when den = 0)
    x: Fraction
    x_prime: Fraction
    output: Fraction
    num: Fraction                      # Pr[output | x]
    den: Fraction                      # Pr[output | x']


def distributions(t: Tables, xs: Sequence[int]) -> list[dict[int, int]]:
    return [counts(t, x) for x in xs]


def output_value(snap: Snapping, k: int) -> Fraction:
    return max(-snap.bound, min(snap.bound, k * snap.grid))


def max_loss(t: Tables, xs: Sequence[int], dists: Sequence[dict[int, int]],
             dist: Fraction = Fraction(1)) -> Loss:
    """max ln(Pr[o | x]/Pr[o | x']) over |x − x'| ≤ dist and outputs o, exactly (integer ratios
    compared by cross-multiplication; a sliding-window minimum per output)."""
    fmt, snap = t.snap.fmt, t.snap
    width = int(dist * fmt.one)
    best: tuple[int, int, int, int, int] | None = None     # (num, den, i, j, k)
    for k in range(-snap.g, snap.g + 1):
        col = [d.get(k, 0) for d in dists]
        for i, j in _window_minima(xs, col, width):
            if col[i] == 0:
                continue
            if best is None or col[i] * best[1] > best[0] * col[j]:
                best = (col[i], col[j], i, j, k)
    assert best is not None
    num, den, i, j, k = best
    unit = Fraction(1, 2 * fmt.one)
    value = math.inf if den == 0 else float(mpmath.log(mpmath.mpf(num) / den))
    return Loss(value, fmt.value(xs[i]), fmt.value(xs[j]), output_value(snap, k), num * unit, den * unit)


def _window_minima(xs: Sequence[int], col: Sequence[int], width: int) -> Iterator[tuple[int, int]]:
    """For each i, (i, j) with j the index of the least col[j] over xs[j] within width of xs[i]."""
    dq: deque[int] = deque()
    hi = 0
    lo = 0
    for i, x in enumerate(xs):
        while hi < len(xs) and xs[hi] <= x + width:
            while dq and col[dq[-1]] >= col[hi]:
                dq.pop()
            dq.append(hi)
            hi += 1
        while xs[lo] < x - width:
            lo += 1
        while dq[0] < lo:
            dq.popleft()
        yield i, dq[0]


@dataclass(frozen=True)
class Excess:
    """max over |x − x'| ≤ dist and outputs of ln(Pr[o | x]/Pr[o | x']) − |x − x'|/λ."""

    value: float
    x: Fraction
    x_prime: Fraction
    output: Fraction
    num: Fraction
    den: Fraction


def max_excess(t: Tables, xs: Sequence[int], dists: Sequence[dict[int, int]],
               dist: Fraction = Fraction(1)) -> Excess:
    """Screened in floating point (two sliding minima: ln c − x/λ over x' ≤ x, ln c + x/λ over
    x' ≥ x), the winner recomputed with mpmath; inf when some output has probability 0 from x'."""
    fmt, snap = t.snap.fmt, t.snap
    width = int(dist * fmt.one)
    inv = float(1 / (snap.lam * fmt.one))
    best: tuple[float, int, int, int] | None = None
    for k in range(-snap.g, snap.g + 1):
        col = [d.get(k, 0) for d in dists]
        lc = [math.log(c) if c else -math.inf for c in col]
        a = [v - x * inv for v, x in zip(lc, xs, strict=False)]
        b = [v + x * inv for v, x in zip(lc, xs, strict=False)]
        for arr, left in ((a, True), (b, False)):
            for i, j in _half_window_minima(xs, arr, width, left):
                if col[i] == 0:
                    continue
                v = math.inf if col[j] == 0 else arr[i] - arr[j]
                if best is None or v > best[0]:
                    best = (v, i, j, k)
    assert best is not None
    _, i, j, k = best
    col = [dists[i].get(k, 0), dists[j].get(k, 0)]
    unit = Fraction(1, 2 * fmt.one)
    if col[1] == 0:
        value = math.inf
    else:
        with mpmath.workprec(200):
            scale = snap.lam * fmt.one
            gap = mpmath.mpf(abs(xs[i] - xs[j])) * scale.denominator / scale.numerator
            value = float(mpmath.log(mpmath.mpf(col[0]) / col[1]) - gap)
    return Excess(value, fmt.value(xs[i]), fmt.value(xs[j]), output_value(snap, k), col[0] * unit, col[1] * unit)


def _half_window_minima(xs: Sequence[int], arr: Sequence[float], width: int,
                        left: bool) -> Iterator[tuple[int, int]]:
    """(i, argmin of arr over xs[j] in [xs[i] − width, xs[i]]) (left) or [xs[i], xs[i] + width]."""
    if not left:
        rev = list(reversed(xs))
        for i, j in _half_window_minima([-x for x in rev], list(reversed(arr)), width, True):
            yield len(xs) - 1 - i, len(xs) - 1 - j
        return
    dq: deque[int] = deque()
    lo = 0
    for i, x in enumerate(xs):
        while dq and arr[dq[-1]] >= arr[i]:
            dq.pop()
        dq.append(i)
        while xs[lo] < x - width:
            lo += 1
        while dq[0] < lo:
            dq.popleft()
        yield i, dq[0]


@dataclass(frozen=True)
class Premises:
    """`float_snap_dp`'s hypotheses (SnapFloatDP.v) at these parameters, computed as the Coq
    statement writes them, with mu = η (a correctly rounded log) and δ just above the
    displacement η(B + Λ) + M(2B + Λ + η(B + Λ)), M = (1 + η)²(1 + mu) − 1."""

    delta: Fraction
    lam_normal: bool        # pipeline_ok: λ ≥ normal_min
    product_normal: bool    # pipeline_ok: normal_min ≤ |fl(λ)·LN(u)| at every sample
    ln_normal: bool         # ln u normal at every sample (ln_rel_of_correct's premise)
    hrange: bool            # normal_min ≤ e^(−(2B + Λ + δ)/λ)
    he: bool                # E² < e^(Λ/λ), E = e^(δ/λ)/(1 − 2η)
    ln_k: float             # ln snap_K = ln((E²r − 1)/(r − E²)), r = e^(Λ/λ) (nan when HE fails)

    @property
    def all_hold(self) -> bool:
        return self.lam_normal and self.product_normal and self.ln_normal and self.hrange and self.he


def premises(t: Tables, slack: Fraction = Fraction(1, 2 ** 40)) -> Premises:
    snap, fmt = t.snap, t.snap.fmt
    eta, lam, grid, b = fmt.eta, snap.lam, snap.grid, snap.bound
    m = (1 + eta) ** 2 * (1 + eta) - 1
    delta = (eta * (b + grid) + m * (2 * b + grid + eta * (b + grid))) * (1 + slack)
    nmin_units = fmt.normal_min * fmt.one
    lam_f = fmt.round(lam)
    # the product before its rounding, in units²: |λ_f·LN(u)| ≥ normal_min·one²
    product_normal = min(abs(lam_f * v) for v in t.lnf) >= nmin_units * fmt.one
    # LN rounds ln monotonely and normal_min is a float: |LN(u)| ≥ normal_min when ln u is normal
    # (the converse can fail only where ln u rounds up onto normal_min)
    ln_normal = all(abs(v) >= nmin_units for v in t.lnf)
    with mpmath.workprec(200):
        def mp(q: Fraction) -> Any:
            return mpmath.mpf(q.numerator) / q.denominator
        hrange = mpmath.log(mp(fmt.normal_min)) <= -mp(2 * b + grid + delta) / mp(lam)
        e2 = mpmath.exp(2 * mp(delta) / mp(lam)) / (1 - 2 * mp(eta)) ** 2
        r = mpmath.exp(mp(grid) / mp(lam))
        he = e2 < r
        ln_k = float(mpmath.log((e2 * r - 1) / (r - e2))) if he else math.nan
    return Premises(delta, lam >= fmt.normal_min, product_normal, ln_normal, bool(hrange), bool(he), ln_k)


def seed_bound(snap: Snapping) -> float:
    """Seed 004's ε + 12Bεη + 2η, ε = 1/λ."""
    eps, eta = 1 / snap.lam, snap.fmt.eta
    return float(eps + 12 * snap.bound * eps * eta + 2 * eta)


def mironov_bound(snap: Snapping) -> float:
    """Mironov's 1/λ + 2^−49·B/λ with 2^−49 = 16·2^−53 read as 16η: ε + 16Bεη."""
    eps, eta = 1 / snap.lam, snap.fmt.eta
    return float(eps + 16 * snap.bound * eps * eta)
