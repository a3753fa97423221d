"""Exact composition of finite mechanisms through privacy-loss distributions.

Running mechanisms one after another on the same database and releasing each
output as it comes ("streaming" composition, non-adaptive) gives the product
distributions P₁⊗…⊗P_k and Q₁⊗…⊗Q_k for neighbours x, x'.  Their hockey-stick
divergence depends only on the privacy-loss distribution (PLD): for each value
r of the likelihood ratio p/q, the P- and Q-mass of the outputs with that ratio.
PLDs of a product multiply: ratios multiply, masses multiply.  We keep ratios
as exponent vectors over primes and masses as integers over one common
denominator, so k-fold composition (by repeated squaring) is exact and needs
no gcd.  The δ(ε) curve of the composition is then an envelope of lines, as
for a single mechanism (`region`).

Adaptive composition (each mechanism chosen after seeing earlier outputs) is
bounded by Kairouz–Oh–Viswanath's optimal composition theorem, `kov`, which
holds for any (ε0, δ0)-DP mechanisms; the exact curve of a concrete mechanism
lies on or below it.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from obligations.analysis.region import Curve, Line, envelope, pair_lines
from obligations.errors import UsageError

INFINITE = ("inf",)
Key = tuple[Any, ...]  # exponent vector over PRIMES, or INFINITE


@dataclass(frozen=True)
class PLD:
    """masses[key] = (P, Q): integer masses over the common denominator `den`."""

    masses: dict[Key, tuple[int, int]]
    den: int
    primes: tuple[int, ...]


def pld(p: Sequence[Fraction], q: Sequence[Fraction], primes: tuple[int, ...]) -> PLD:
    """The privacy-loss distribution of the pair (p, q); outputs with p = 0 never count."""
    den = math.lcm(*(v.denominator for v in list(p) + list(q)))
    masses: dict[Key, tuple[int, int]] = {}
    for py, qy in zip(p, q, strict=False):
        if py == 0:
            continue
        key = INFINITE if qy == 0 else _exponents(py / qy, primes)
        P, Q = masses.get(key, (0, 0))
        masses[key] = (P + int(py * den), Q + int(qy * den))
    # the smallest common denominator: the masses of a ratio class are often
    # much simpler than the outputs' probabilities (keeps composed integers small)
    g = math.gcd(den, *(m for pq in masses.values() for m in pq))
    return PLD({k: (P // g, Q // g) for k, (P, Q) in masses.items()}, den // g, primes)


def primes_of(rows: Sequence[Sequence[Fraction]]) -> tuple[int, ...]:
    """Every prime of every numerator and denominator (ratios factor over them)."""
    found: set[int] = set()
    for row in rows:
        for v in row:
            for n in (v.numerator, v.denominator):
                if n > 1:
                    found |= set(sympy.factorint(n))
    return tuple(sorted(found))


def _exponents(r: Fraction, primes: tuple[int, ...]) -> Key:
    exps = []
    num, den = r.numerator, r.denominator
    for pr in primes:
        e = 0
        while num % pr == 0:
            num //= pr
            e += 1
        while den % pr == 0:
            den //= pr
            e -= 1
        exps.append(e)
    assert num == 1 and den == 1, "the primes cover every ratio"
    return tuple(exps)


def product(a: PLD, b: PLD) -> PLD:
    out: dict[Key, tuple[int, int]] = {}
    for ka, (pa, qa) in a.masses.items():
        for kb, (pb, qb) in b.masses.items():
            key = INFINITE if INFINITE in (ka, kb) else tuple(x + y for x, y in zip(ka, kb, strict=False))
            P, Q = out.get(key, (0, 0))
            out[key] = (P + pa * pb, Q + qa * qb)
    return PLD(out, a.den * b.den, a.primes)


def power(a: PLD, k: int) -> PLD:
    """The k-fold product, by repeated squaring."""
    result = PLD({tuple(0 for _ in a.primes): (1, 1)}, 1, a.primes)
    base = a
    while k:
        if k & 1:
            result = product(result, base)
        k >>= 1
        if k:
            base = product(base, base)
    return result


def ratio(key: Key, primes: tuple[int, ...]) -> Fraction | None:
    if key == INFINITE:
        return None
    num = den = 1
    for pr, e in zip(primes, key, strict=False):
        if e > 0:
            num *= pr ** e
        elif e < 0:
            den *= pr ** (-e)
    return Fraction(num, den)


def lines(d: PLD, pair: tuple[int, int] | None = None) -> list[Line]:
    """The prefix lines of a PLD, ratios in decreasing order."""
    logs = {k: (math.inf if k == INFINITE else sum(e * math.log(pr) for pr, e in zip(d.primes, k, strict=False)))
            for k in d.masses}

    def cmp(k1: Key, k2: Key) -> int:  # exact, decreasing ratio; floats only to skip big ints
        if abs(logs[k1] - logs[k2]) > 1e-9 or math.inf in (logs[k1], logs[k2]):
            return -1 if logs[k1] > logs[k2] else (1 if logs[k1] < logs[k2] else 0)
        r1, r2 = ratio(k1, d.primes), ratio(k2, d.primes)
        return -1 if r1 > r2 else (1 if r1 < r2 else 0)  # type: ignore[operator]

    out = [Line(Fraction(0), Fraction(0), pair)]
    a = b = 0
    for k in sorted(d.masses, key=functools.cmp_to_key(cmp)):
        P, Q = d.masses[k]
        a, b = a + P, b + Q
        out.append(Line(Fraction(a, d.den), Fraction(b, d.den), pair))
    return out


def composed_curve(rows: Sequence[Sequence[Fraction]], pairs: Sequence[tuple[int, int]], k: int) -> Curve:
    """δ(ε) of the k-fold composition of a mechanism, over ordered neighbour pairs.

    Not for the rows of a CW mixture: running Σ_x f(x)·M(x) k times would draw a
    fresh database for every run; see `cw_composed_curve`."""
    primes = primes_of(rows)
    seen: dict[frozenset[tuple[Key, Fraction, Fraction]], tuple[PLD, tuple[int, int]]] = {}
    for x, x2 in pairs:  # pairs with the same PLD compose to the same curve
        d = pld(rows[x], rows[x2], primes)
        canonical = frozenset((k, Fraction(P, d.den), Fraction(Q, d.den)) for k, (P, Q) in d.masses.items())
        seen.setdefault(canonical, (d, (x, x2)))
    all_lines: list[Line] = []
    for d, pair in seen.values():
        all_lines += lines(power(d, k), pair)
    return envelope(all_lines)


MAX_CW_TYPES = 20_000  # output types of a CW composition (C(k + m - 1, m - 1) for m outputs)


def cw_composed_curve(rows: Sequence[Sequence[Fraction]], prior: Sequence[Fraction],
                      alt: Sequence[Fraction], k: int) -> Curve:
    """δ(ε) of the k-fold composition under CW-privacy: Σ_x f(x)·M(x)^⊗k against
    Σ_x f'(x)·M(x)^⊗k, the database drawn once and seen by all k runs (Coq's
    `fmech_cw (fmech_power M k) f f'`).

    A mixture of products is not a product, so privacy-loss distributions do not
    compose here.  But under every M(x)^⊗k a sequence's probability depends only on
    how often each output occurs in it (its type), so both rows, and their ratio,
    do too: the curve is computed exactly over the C(k + m − 1, m − 1) types, each
    weighted by its number of sequences."""
    m = len(rows[0])
    n_types = math.comb(k + m - 1, m - 1)
    if n_types > MAX_CW_TYPES:
        raise UsageError(f"the {k}-fold composition under CW-privacy has {n_types} output types "
                         f"({m} outputs); at most {MAX_CW_TYPES} are computed")
    xs = [x for x in range(len(rows)) if prior[x] != 0 or alt[x] != 0]
    p_row: list[Fraction] = []
    q_row: list[Fraction] = []
    for counts in _types(m, k):
        sequences = math.factorial(k)
        for c in counts:
            sequences //= math.factorial(c)
        p = q = Fraction(0)
        for x in xs:
            run = Fraction(1)
            for y, c in enumerate(counts):
                if c:
                    run *= rows[x][y] ** c
            p += prior[x] * run
            q += alt[x] * run
        p_row.append(sequences * p)
        q_row.append(sequences * q)
    lines = pair_lines(p_row, q_row, (0, 1)) + pair_lines(q_row, p_row, (1, 0))
    return envelope([Line(ln.a, ln.b, ln.pair) for ln in lines])


def _types(m: int, k: int) -> list[tuple[int, ...]]:
    """Every (c_0, ..., c_{m-1}) of non-negative integers summing to k."""
    if m == 1:
        return [(k,)]
    return [(c,) + rest for c in range(k, -1, -1) for rest in _types(m - 1, k - c)]


def heterogeneous_curve(mechanisms: Sequence[Sequence[Sequence[Fraction]]],
                        pairs: Sequence[tuple[int, int]]) -> Curve:
    """δ(ε) of running different mechanisms (same inputs) one after another."""
    primes = tuple(sorted(set().union(*(primes_of(rows) for rows in mechanisms))))
    all_lines: list[Line] = []
    for x, x2 in pairs:
        d = functools.reduce(product, (pld(rows[x], rows[x2], primes) for rows in mechanisms))
        all_lines += lines(d, (x, x2))
    return envelope(all_lines)


def kov(eps0: sympy.Expr, delta0: Fraction, k: int) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """Kairouz–Oh–Viswanath: the k-fold composition of (ε0, δ0)-DP mechanisms is
    (ε_i, 1 − (1 − δ0)^k (1 − δ_i))-DP with ε_i = (k − 2i)ε0 and
    δ_i = Σ_{l<i} C(k, l)(e^{(k−l)ε0} − e^{(k−2i+l)ε0}) / (1 + e^{ε0})^k, i = 0..⌊k/2⌋;
    the bound is optimal over all such mechanisms (attained by randomized response)."""
    e = sympy.exp(eps0)
    out = []
    for i in range(k // 2 + 1):
        di = sum((sympy.binomial(k, j) * (e ** (k - j) - e ** (k - 2 * i + j)) for j in range(i)),
                 sympy.Integer(0)) / (1 + e) ** k
        total = 1 - (1 - sympy.Rational(delta0.numerator, delta0.denominator)) ** k * (1 - di)
        out.append(((k - 2 * i) * eps0, sympy.nsimplify(sympy.simplify(total)) if e.is_Rational else total))
    return out


def kov_curve(eps0: float, delta0: float, k: int) -> KovCurve:
    """The Kairouz–Oh–Viswanath bound at every ε ≥ 0, not only at its points ε_i, in floats (for figures).

    The bound is attained by k-fold randomized response with e^ε0 = p/(1 − p) (`kov`), so between
    the ε_i it is that mechanism's hockey-stick divergence: with j the number of "flips", the outputs
    have P-mass C(k,j)p^(k−j)(1−p)^j, Q-mass C(k,j)p^j(1−p)^(k−j) and privacy loss (k − 2j)ε0, and
    δ(ε) = 1 − (1 − δ0)^k·(1 − Σ_{(k−2j)ε0 > ε} (P_j − e^ε·Q_j)), linear in e^ε between the ε_i.
    Masses are summed in log space so that k in the thousands neither overflows nor underflows."""
    if eps0 <= 0 or k < 1:
        raise UsageError(f"the KOV curve needs eps0 > 0 and k >= 1 (got {eps0}, {k})")
    log_norm = k * math.log1p(math.exp(-eps0)) + k * eps0   # log (1 + e^ε0)^k
    log_c = [math.lgamma(k + 1) - math.lgamma(j + 1) - math.lgamma(k - j + 1) for j in range(k + 1)]
    p_prefix, log_q_prefix = [0.0], [-math.inf]             # over j < i, i = 0..k+1
    for j in range(k + 1):
        p_prefix.append(p_prefix[-1] + math.exp(log_c[j] + (k - j) * eps0 - log_norm))
        log_q_prefix.append(_logaddexp(log_q_prefix[-1], log_c[j] + j * eps0 - log_norm))
    return KovCurve(eps0, delta0, k, tuple(p_prefix), tuple(log_q_prefix))


@dataclass(frozen=True)
class KovCurve:
    eps0: float
    delta0: float
    k: int
    p_prefix: tuple[float, ...]       # Σ_{j<i} P_j
    log_q_prefix: tuple[float, ...]   # log Σ_{j<i} Q_j

    def delta(self, eps: float) -> float:
        i = min(self.k + 1, max(0, math.ceil((self.k - eps / self.eps0) / 2)))  # j < i: loss > ε
        d = min(1.0, max(0.0, self.p_prefix[i] - math.exp(eps + self.log_q_prefix[i]))) if i else 0.0
        # 1 − (1 − δ0)^k·(1 − d), written so that a tiny d survives (a log-δ axis shows it)
        return d + (1 - d) * -math.expm1(self.k * math.log1p(-self.delta0))


def _logaddexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    hi, lo = max(a, b), min(a, b)
    return hi + math.log1p(math.exp(lo - hi))
