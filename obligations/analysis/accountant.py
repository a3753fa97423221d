"""The accountant's numbers: loss keys of neighbouring pairs, the k-fold privacy-loss
distribution in floats rounded down exactly as Coq computes it (theories/Accountant/
DownFloat.v), brackets of δ(ε), and the smallest ε at a given δ.

Every ordered pair (x, x') of neighbours gets loss keys: output y with P(y) = M(x)(y) > 0
has the key z with P(y) = b^z·Q(y) when every loss ratio is a power of one base b
("exact"), else the key rounded up (P(y) ≤ b^z·Q(y), for the upper bound) or down (for
the lower bound) on a grid of base b.  A pair's PLD is the P-mass per key, at keys
offset, offset + d, ... (stride d).  Its k-fold power is computed by squaring, every
product and sum rounded down and clamped at 0, masses below `tau` dropped at both ends,
so that each computed mass is at most the exact one; then for t = e^ε

    Σ L_i·w_i  ≤  δ_pair(ε)  ≤  Σ L_i·w_i + (1 − Σ L_i),   w_i = max(0, 1 − e^ε·b^(−z_i)).

The same floats come out of Coq's computation (IEEE binary64, the same order of
operations); Python's values only choose the claims Coq is asked to check, with a
margin for the weights, which Coq computes in interval arithmetic.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from typing import Protocol

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Row = Sequence[Fraction]

TAU = 2.0 ** -100        # masses dropped at the ends of a window (Coq's `tau`)
MARGIN = 1e-9            # relative margin between Python's bracket and the claims Coq checks
TINY = 1e-300            # absolute margin (a bracket end at 0)
MAX_KEY_RANGE = 4000     # keys of one run's PLD (a finer grid would not be computed)
# Float products of one window's convolutions (Python's and then Coq's): the windows of a K-fold
# power grow like √K, so this bounds the time of an analysis whatever K (about 15 s here).
MAX_PRODUCTS = 10 ** 9


class AccountantError(ValueError):
    """A mechanism the accountant cannot take (the message says why, for a person)."""


@dataclass(frozen=True)
class Keying:
    """Loss keys of base b > 1 and stride d; `exact`: every loss ratio is a power of b."""

    base: Fraction
    stride: int
    exact: bool

    @property
    def log_base(self) -> float:
        return math.log(self.base.numerator) - math.log(self.base.denominator)


@dataclass(frozen=True)
class PairPld:
    """P-masses at the keys offset, offset + d, ... of one ordered pair."""

    offset: int
    masses: tuple[Fraction, ...]


# ---------------------------------------------------------------------------------------------
# Loss keys

def _factor(n: int, primes: list[int]) -> dict[int, int]:
    """Exponents of n over small primes (found by trial division, extended as needed)."""
    out: dict[int, int] = {}
    p = 2
    while n > 1 and p * p <= n and p < 1_000_000:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        out[n] = out.get(n, 0) + 1
    for q in out:
        if q not in primes:
            primes.append(q)
    return out


def _exponents(r: Fraction, primes: list[int]) -> dict[int, int]:
    num, den = _factor(r.numerator, primes), _factor(r.denominator, primes)
    out = dict(num)
    for p, e in den.items():
        out[p] = out.get(p, 0) - e
    return {p: e for p, e in out.items() if e}


def loss_ratios(rows: Sequence[Row], pairs: Sequence[tuple[int, int]]) -> set[Fraction]:
    """P(y)/Q(y) over the ordered pairs and their outputs with P(y) > 0; an output with
    P(y) > 0 = Q(y) (an infinite loss) is refused."""
    ratios: set[Fraction] = set()
    for x, x2 in pairs:
        for y, (p, q) in enumerate(zip(rows[x], rows[x2], strict=False)):
            if p == 0:
                continue
            if q == 0:
                raise AccountantError(f"output {y} has probability {p} under input {x} and 0 under its "
                                      f"neighbour {x2}: an infinite privacy loss, whose mass the accountant "
                                      "does not carry")
            ratios.add(p / q)
    return ratios


def find_keying(rows: Sequence[Row], pairs: Sequence[tuple[int, int]], runs: int) -> Keying:
    """The exact keying when every loss ratio is an integer power of one rational base,
    else a grid fine enough for `runs` runs (with keys rounded to either side)."""
    return _keying_of(loss_ratios(rows, pairs), [rows], pairs, runs)


def _keying_of(ratios: set[Fraction], tables: Sequence[Sequence[Row]], pairs: Sequence[tuple[int, int]],
               runs: int) -> Keying:
    primes: list[int] = []
    vectors = {r: _exponents(r, primes) for r in ratios}
    nonzero = [v for v in vectors.values() if v]
    if not nonzero:
        return Keying(Fraction(2), 1, True)
    first = nonzero[0]
    g0 = reduce(math.gcd, first.values())
    direction = {p: e // g0 for p, e in first.items()}
    coeffs: dict[Fraction, int] = {}
    for r, v in vectors.items():
        if not v:
            coeffs[r] = 0
            continue
        if set(v) != set(direction):
            return _grid_keying(ratios, runs)
        c = {v[p] // direction[p] for p in direction if v[p] % direction[p] == 0}
        if len(c) != 1 or any(v[p] % direction[p] for p in direction):
            return _grid_keying(ratios, runs)
        coeffs[r] = c.pop()
    g = reduce(math.gcd, (abs(c) for c in coeffs.values() if c))
    base = Fraction(1)
    for p, e in direction.items():
        base *= Fraction(p) ** (e * g)
    sign = 1 if base > 1 else -1
    if base < 1:
        base = 1 / base
    keys = {r: sign * c // g for r, c in coeffs.items()}
    stride = 0
    for rows in tables:
        for x, x2 in pairs:
            zs = sorted({keys[p / q] for p, q in zip(rows[x], rows[x2], strict=False) if p > 0})
            stride = reduce(math.gcd, (z - zs[0] for z in zs), stride)
    return Keying(base, stride or 1, True)


def _grid_keying(ratios: set[Fraction], runs: int) -> Keying:
    """Ratios that are not powers of one base: a grid b = 1 + 1/n on which the k-fold
    window stays computable (about 4000 keys); the rounding widens the bracket."""
    spread = max(abs(math.log(r.numerator) - math.log(r.denominator)) for r in ratios)
    width = 4000 / (24 * math.sqrt(runs))       # keys a run may span for a window of about 4000
    step = max(spread / max(width, 1.0), 1e-6)
    n = max(1, int(1 / (math.exp(step) - 1)))
    return Keying(Fraction(n + 1, n), 1, False)


def _key(keying: Keying, ratio: Fraction, up: bool) -> int:
    """The key of a loss ratio: exact, or the smallest z with ratio ≤ b^z (up), the largest
    with b^z ≤ ratio (down)."""
    b = keying.base
    guess = (math.log(ratio.numerator) - math.log(ratio.denominator)) / keying.log_base
    z = math.floor(guess) if up else math.ceil(guess)
    if up:
        while ratio > b ** z:
            z += 1
        while ratio <= b ** (z - 1):
            z -= 1
    else:
        while b ** z > ratio:
            z -= 1
        while b ** (z + 1) <= ratio:
            z += 1
    return z


def pair_pld(keying: Keying, p_row: Row, q_row: Row, up: bool) -> PairPld:
    """The PLD of one ordered pair with its keys on the `up` side (exact keys: both sides)."""
    keyed: list[tuple[int, Fraction]] = [(_key(keying, p / q, up), p)
                                         for p, q in zip(p_row, q_row, strict=True) if p > 0]
    if not keyed:
        return PairPld(0, (Fraction(0),))
    lo, hi = min(z for z, _ in keyed), max(z for z, _ in keyed)
    d = keying.stride
    if (hi - lo) // d + 1 > MAX_KEY_RANGE:
        raise AccountantError(f"one run's losses span {(hi - lo) // d + 1} keys of base {keying.base}; "
                              f"at most {MAX_KEY_RANGE}")
    masses = [Fraction(0)] * ((hi - lo) // d + 1)
    for z, p in keyed:
        masses[(z - lo) // d] += p
    return PairPld(lo, tuple(masses))


# ---------------------------------------------------------------------------------------------
# The k-fold power in floats rounded down, as DownFloat.v computes it

def _clamp(a: Floats) -> Floats:
    return np.where(a >= 0.0, a, 0.0)


def _down(a: Floats) -> Floats:
    return _clamp(np.nextafter(a, -np.inf))


def float_lower(q: Fraction) -> float:
    """Coq's `flower (iq q)`: the interval quotient's lower end, clamped at 0."""
    def dn(n: int) -> float:
        f = float(n)
        return f if int(f) <= n else math.nextafter(f, -math.inf)

    def up(n: int) -> float:
        f = float(n)
        return f if int(f) >= n else math.nextafter(f, math.inf)
    if q <= 0:
        return 0.0
    return max(0.0, math.nextafter(dn(q.numerator) / up(q.denominator), -math.inf))


def fconv(b_list: Floats, d_list: Floats) -> Floats:
    """`fconv`: the convolution with every product and sum rounded down, in Coq's order."""
    acc: Floats = np.zeros(0)
    for b in b_list[::-1]:
        acc = np.concatenate(([0.0], acc))
        m = _down(b * d_list)
        n = min(len(acc), len(d_list))
        out = acc.copy() if len(acc) >= len(d_list) else np.concatenate((acc, m[len(acc):]))
        out[:n] = _down(acc[:n] + m[:n])
        acc = out
    return acc


def _fdadd(a: Floats, b: Floats) -> Floats:
    """TreeConv.v's `fdadd`: the pointwise rounded-down sum; past the shorter list, the longer one's masses."""
    n = min(len(a), len(b))
    longer = a if len(a) >= len(b) else b
    return np.concatenate((_down(a[:n] + b[:n]), longer[n:]))


def tconv(b_list: Floats, d_list: Floats) -> Floats:
    """TreeConv.v's `tconv`: the halves of the left factor convolved with the right one and added,
    the second shifted by the first's length (`fadd_at`), down to single masses (`faxpy b D []`)."""
    if len(b_list) == 0:
        return np.zeros(0)
    if len(b_list) == 1:
        return _down(b_list[0] * d_list)
    h = len(b_list) // 2
    lo = tconv(b_list[:h], d_list)
    hi = tconv(b_list[h:], d_list)
    head = lo[:h] if len(lo) >= h else np.concatenate((lo, np.zeros(h - len(lo))))
    return np.concatenate((head, _fdadd(lo[h:], hi)))


TREE_CUT = 700           # TreeConv.v's `tcut`: the tree for left factors of at most this many masses


def hconv(b_list: Floats, d_list: Floats) -> Floats:
    """TreeConv.v's `hconv`: `tconv` for a left factor of at most TREE_CUT masses, else `fconv`."""
    return tconv(b_list, d_list) if len(b_list) <= TREE_CUT else fconv(b_list, d_list)


def trim(tau: float, stride: int, offset: int, masses: Floats) -> tuple[int, Floats]:
    """`trim`: masses below tau dropped at both ends."""
    big = np.nonzero(masses >= tau)[0]
    if len(big) == 0:
        return offset + stride * len(masses), masses[:0]
    first, last = int(big[0]), int(big[-1])
    return offset + stride * first, masses[first:last + 1]


@dataclass(frozen=True)
class Window:
    """The k-fold PLD in floats: masses[i] at key offset + stride·i."""

    offset: int
    stride: int
    masses: Floats

    def keys(self) -> npt.NDArray[np.int64]:
        return self.offset + self.stride * np.arange(len(self.masses), dtype=np.int64)


class Budget:
    """The float products left to one window's convolutions (`MAX_PRODUCTS`): refused before the
    convolution that would exceed it, so the time spent is bounded."""

    def __init__(self, runs: int) -> None:
        self.runs = runs
        self.left = MAX_PRODUCTS

    def spend(self, a: Floats, b: Floats) -> None:
        self.left -= len(a) * len(b)
        if self.left < 0:
            raise AccountantError(
                f"the {self.runs}-fold privacy-loss distribution needs more than {MAX_PRODUCTS:.0e} float "
                f"products to compute (its window reaches {max(len(a), len(b))} masses and grows like the square "
                f"root of the runs): fewer runs")


def fpow(pld: PairPld, stride: int, runs: int, tau: float = TAU, tree: bool = False) -> Window:
    """`fpow`: the runs-fold power by squaring (binary digits, most significant first); `tree`:
    TreeConv.v's `tpow`, the same with `hconv`.  Refused (AccountantError) past `MAX_PRODUCTS`."""
    if runs < 1:
        raise ValueError("runs >= 1")
    conv = hconv if tree else fconv
    budget = Budget(runs)
    base = np.array([float_lower(q) for q in pld.masses])
    offset, masses = pld.offset, base
    for bit in bin(runs)[3:]:
        budget.spend(masses, masses)
        offset, masses = trim(tau, stride, 2 * offset, conv(masses, masses))
        if bit == "1":
            budget.spend(base, masses)
            offset, masses = trim(tau, stride, pld.offset + offset, conv(base, masses))
    return Window(offset, stride, masses)


# ---------------------------------------------------------------------------------------------
# δ(ε) brackets

@dataclass(frozen=True)
class Bracket:
    """δ(ε) of one PLD's k-fold power lies in [lower, upper] (Python's floats)."""

    lower: float
    upper: float


def bracket(window: Window, keying: Keying, eps: float) -> Bracket:
    """Σ L_i·w_i and that plus 1 − Σ L_i, w_i = max(0, 1 − e^(ε − z_i·ln b))."""
    if len(window.masses) == 0:
        return Bracket(0.0, 1.0)
    arg = eps - window.keys().astype(np.float64) * keying.log_base
    weights = np.where(arg >= 0.0, 0.0, -np.expm1(np.minimum(arg, 0.0)))
    lower = math.fsum((window.masses * weights).tolist())
    missed = max(0.0, 1.0 - math.fsum(window.masses.tolist()))
    # Coq totals the window in intervals: each of its n additions may lose an ulp of 1
    return Bracket(lower, lower + missed + len(window.masses) * 2.0 ** -50)


def pivot_key(keying: Keying, eps: Fraction) -> int:
    """The key where e^ε·b^(−z) is nearest 1: where Coq takes its one exponential."""
    return round(float(eps) / keying.log_base)


Combo = tuple[PairPld, ...]    # one PLD per group of a chain (one group: a mechanism run k times)


def _one() -> Window:
    """The unit window [1] at key 0 (`flower (iq 1)`)."""
    return Window(0, 1, np.array([float_lower(Fraction(1))]))


@dataclass
class Accountant:
    """The composition of finite mechanisms over their neighbour pairs: groups of runs
    (`runs[g]` runs of group g's mechanism, in order); a pair's PLDs are a combo, one per group."""

    keying: Keying
    runs: tuple[int, ...]
    ups: list[Combo]                            # every pair's up-rounded combo is one of these
    lows: dict[tuple[int, int], Combo]          # one pair per distinct down-rounded combo
    tau: float = TAU
    pair_ups: dict[tuple[int, int], Combo] = field(default_factory=dict)   # each pair's up-rounded combo
    tree: bool = False                          # powers by `tpow` (TreeConv.v), one group only
    _windows: dict[Combo, Window] = field(default_factory=dict)

    def window(self, combo: Combo) -> Window:
        """One group: `fpow` (ComposeCheck's `pld_window`); a chain: ChainCheck's `combo_window`,
        the groups' powers convolved from the last one back, from the unit [1]."""
        if combo not in self._windows:
            d = self.keying.stride
            if len(self.runs) == 1:
                self._windows[combo] = fpow(combo[0], d, self.runs[0], self.tau, self.tree)
            else:
                acc_w = _one()
                budget = Budget(sum(self.runs))
                for pld, k in reversed(list(zip(combo, self.runs, strict=False))):
                    w = fpow(pld, d, k, self.tau)
                    budget.spend(w.masses, acc_w.masses)
                    offset, masses = trim(self.tau, d, w.offset + acc_w.offset, fconv(w.masses, acc_w.masses))
                    acc_w = Window(offset, d, masses)
                self._windows[combo] = Window(acc_w.offset, d, acc_w.masses)
        return self._windows[combo]

    def prepare(self) -> Accountant:
        """Every window the brackets read, computed now: a refusal (`MAX_PRODUCTS`) comes here,
        where the caller names the spec's field, not from a later bracket."""
        for combo in [*self.ups, *self.lows.values()]:
            self.window(combo)
        return self

    def upper(self, eps: float) -> float:
        """The certified upper end: the largest over the combos of [ups]."""
        return max(bracket(self.window(c), self.keying, eps).upper for c in self.ups)

    def lower(self, eps: float) -> tuple[float, tuple[int, int]]:
        """The largest lower end over the pairs, and that pair."""
        best: tuple[float, tuple[int, int]] | None = None
        for pair, combo in self.lows.items():
            lo = bracket(self.window(combo), self.keying, eps).lower
            if best is None or lo > best[0]:
                best = (lo, pair)
        assert best is not None
        return best


def chain_accountant(groups: Sequence[tuple[Sequence[Row], int]], pairs: Sequence[tuple[int, int]],
                     tau: float = TAU) -> Accountant:
    """Groups (rows, runs) on the same inputs and neighbour pairs: one keying for all their
    loss ratios, each pair's combo of PLDs (the distinct up-rounded combos first found first)."""
    pairs = [(x, x2) for x, x2 in pairs if x != x2]
    if not pairs:
        raise AccountantError("no two distinct inputs are neighbours")
    if any(k < 1 for _, k in groups):
        raise AccountantError("every mechanism runs at least once")
    ratios: set[Fraction] = set()
    for rows, _ in groups:
        ratios |= loss_ratios(rows, pairs)
    keying = _keying_of(ratios, [rows for rows, _ in groups], pairs, sum(k for _, k in groups))
    ups: list[Combo] = []
    lows: dict[tuple[int, int], Combo] = {}
    pair_ups: dict[tuple[int, int], Combo] = {}
    seen_low: set[Combo] = set()
    for x, x2 in pairs:
        up = tuple(pair_pld(keying, rows[x], rows[x2], True) for rows, _ in groups)
        pair_ups[(x, x2)] = up
        if up not in ups:
            ups.append(up)
        low = up if keying.exact else tuple(pair_pld(keying, rows[x], rows[x2], False) for rows, _ in groups)
        if low not in seen_low:   # one pair per distinct combo is enough for the lower bound
            seen_low.add(low)
            lows[(x, x2)] = low
    return Accountant(keying, tuple(k for _, k in groups), ups, lows, tau, pair_ups=pair_ups).prepare()


def accountant(rows: Sequence[Row], pairs: Sequence[tuple[int, int]], runs: int, tau: float = TAU) -> Accountant:
    """One mechanism run `runs` times."""
    return chain_accountant([(rows, runs)], pairs, tau)


# ---------------------------------------------------------------------------------------------
# Claims: δ to a few digits, ε at δ

def round_up(x: float, digits: int) -> Fraction:
    """The smallest decimal with `digits` significant digits that is ≥ x (x ≥ 0)."""
    if x <= 0:
        return Fraction(0)
    e = math.floor(math.log10(x)) - digits + 1
    scale = Fraction(10) ** e
    n = math.ceil(Fraction(x) / scale)
    return n * scale


def round_down(x: float, digits: int) -> Fraction:
    """The largest decimal with `digits` significant digits that is ≤ x (0 if x ≤ 0)."""
    if x <= 0:
        return Fraction(0)
    e = math.floor(math.log10(x)) - digits + 1
    scale = Fraction(10) ** e
    n = math.floor(Fraction(x) / scale)
    return n * scale


class Bracketing(Protocol):
    """What the claims are chosen from: δ(ε)'s certified upper end, its lower end and that pair."""

    def upper(self, eps: float) -> float: ...

    def lower(self, eps: float) -> tuple[float, tuple[int, int]]: ...


def claim_bounds(acc: Bracketing, eps: Fraction, digits: int = 6) -> tuple[Fraction, Fraction | None]:
    """(up, lo): δ(ε) ≤ up to prove, δ(ε) > lo to refute (None when the lower bound is 0),
    rounded outwards to `digits` significant digits past the margin."""
    up = acc.upper(float(eps))
    lo, _ = acc.lower(float(eps))
    upper = min(Fraction(1), round_up(up * (1 + MARGIN) + TINY, digits))
    lower_f = lo * (1 - MARGIN) - TINY
    return upper, (round_down(lower_f, digits) if lower_f > 0 else None)


def epsilon_at(acc: Bracketing, delta: float, tol: Fraction, eps_max: float = 1e7) -> Fraction | None:
    """The smallest ε on the grid tol·N whose certified upper end (with the margin) is at
    most δ, or None if none is below eps_max."""
    def ok(n: int) -> bool:
        return acc.upper(float(n * tol)) * (1 + MARGIN) + TINY <= delta
    hi = 1
    while not ok(hi):
        hi *= 2
        if float(hi * tol) > eps_max:
            return None
    lo = 0
    if ok(lo):
        return Fraction(0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi * tol


# How many times the grid of `at_delta` is halved before the bracket is judged wider than the tolerance.
REFINE = 10


@dataclass(frozen=True)
class AtDelta:
    """The smallest ε at δ to a tolerance: δ(eps) ≤ δ by the upper end; below = eps − tolerance
    (None when negative), whose lower end of δ is `lower`; `refutes` when that is above δ."""
    eps: Fraction
    below: Fraction | None
    lower: float
    refutes: bool


def at_delta(up: Bracketing, low: Bracketing, delta: float, tol: Fraction,
             eps_max: float = 1e7) -> AtDelta | None:
    """ε on the grid of tol with `up` proving (ε, δ) and `low` refuting (ε − tol, δ). When the grid
    point falls inside the bracket (the lower end at ε − tol not above δ), the grid is halved: ε
    found on tol/2^j moves down towards the upper end's own ε, ε − tol below the lower end's, and
    the two still bracket the smallest ε to tol. The last attempt is returned when none refutes
    (the bracket is wider than the tolerance); None when no ε up to eps_max has δ(ε) ≤ δ."""
    last: AtDelta | None = None
    for j in range(REFINE + 1):
        eps = epsilon_at(up, delta, tol / 2 ** j, eps_max)
        if eps is None:
            return None
        below = eps - tol
        if below < 0:
            return AtDelta(eps, None, 0.0, False)
        lo, _ = low.lower(float(below))
        last = AtDelta(eps, below, lo, lo * (1 - MARGIN) - TINY > delta)
        if last.refutes:
            return last
    return last
