"""The same database released K times (seed 001's streaming CW-privacy), by classes of
output sequences instead of the m^K-row product table.

Row i of the same-database K-fold mechanism gives the output sequence ys the probability
Σ_x g_i(x)·Π_k M(x)(y_k): it depends on ys only through its likelihood vector
(Π_k M(x)(y_k))_x, so sequences with the same vector (the same type, at least) form one
class.  `classes` computes them step by step exactly as Coq's `run` does
(`theories/Finite/TypeClass.v`): integer vectors over the common denominator D^K, the
number of sequences of each.  The rows read the vector only at the priors' supports, so
outputs whose columns agree there are one letter (y, w) of the run (`letters`): b blocks
give at most C(K+b-1, b-1) classes instead of C(K+m-1, m-1).  Everything here is a
prediction; Coq checks the same sums.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

Row = Sequence[Fraction]


Letter = tuple[int, int]


@dataclass(frozen=True)
class IntegerForm:
    """The table as A / D and the priors as u / F, u2 / F (integers), as Coq's checks read them;
    the letters (y, w) and each output's letter (`blk`), as Coq's `check_letters` reads them."""

    A: tuple[tuple[int, ...], ...]
    D: int
    u: tuple[int, ...]
    u2: tuple[int, ...]
    F: int
    letters: tuple[Letter, ...]
    blk: tuple[int, ...]


def letters(A: Sequence[Sequence[int]], support: Sequence[int]) -> tuple[tuple[Letter, ...], tuple[int, ...]]:
    """Blocks of outputs whose columns agree on the inputs `support`, in order of their first
    output: the letters (first output, size) and every output's block."""
    first: dict[tuple[int, ...], int] = {}
    blk: list[int] = []
    sizes: list[int] = []
    reps: list[int] = []
    for y in range(len(A[0])):
        column = tuple(A[x][y] for x in support)
        if column not in first:
            first[column] = len(reps)
            reps.append(y)
            sizes.append(0)
        blk.append(first[column])
        sizes[first[column]] += 1
    return tuple(zip(reps, sizes, strict=True)), tuple(blk)


def integer_form(rows: Sequence[Row], prior: Row, alt: Row) -> IntegerForm:
    D = math.lcm(*(q.denominator for row in rows for q in row))
    F = math.lcm(*(q.denominator for q in (*prior, *alt)))
    A = tuple(tuple(int(q * D) for q in row) for row in rows)
    support = [x for x in range(len(rows)) if prior[x] != 0 or alt[x] != 0]    # Coq's supp2
    lets, blk = letters(A, support)
    return IntegerForm(A, D, tuple(int(q * F) for q in prior), tuple(int(q * F) for q in alt), F, lets, blk)


def class_bound(m: int, k: int) -> int:
    """The number of types of k outputs among m (or of k letters among m): at most this many classes."""
    return math.comb(k + m - 1, m - 1)


def blocks(rows: Sequence[Row], prior: Row, alt: Row) -> int:
    """How many letters the run of the priors' rows needs."""
    return len(integer_form(rows, prior, alt).letters)


Classes = dict[tuple[int, ...], int]


def classes(form: IntegerForm, k: int) -> Classes:
    """Likelihood vector (over D^k) -> number of sequences of k outputs with it."""
    n = len(form.A)
    states: Classes = {tuple([1] * n): 1}
    for _ in range(k):
        nxt: Classes = {}
        for v, count in states.items():
            for y, size in form.letters:
                w = tuple(form.A[x][y] * v[x] for x in range(n))
                nxt[w] = nxt.get(w, 0) + count * size
        states = nxt
    return states


def zdot(u: Sequence[int], v: Sequence[int]) -> int:
    return sum(a * b for a, b in zip(u, v, strict=True))


def hs_pair(cls: Classes, form: IntegerForm, k: int, u: Sequence[int], u2: Sequence[int],
            t: mpmath.mpf) -> mpmath.mpf:
    """hs(t) = Σ_classes N · max(0, p − t·q) of the ordered pair of rows with weights u, u2."""
    scale = mpmath.mpf(form.F) * mpmath.mpf(form.D) ** k
    total = mpmath.mpf(0)
    for v, count in cls.items():
        gap = zdot(u, v) - t * zdot(u2, v)
        if gap > 0:
            total += count * gap
    return total / scale


def stream_delta(rows: Sequence[Row], prior: Row, alt: Row, k: int, eps: mpmath.mpf,
                 dps: int = 40) -> tuple[mpmath.mpf, mpmath.mpf]:
    """δ(ε) of K runs on the same database, for (database, scrubbed) and the other order."""
    form = integer_form(rows, prior, alt)
    cls = classes(form, k)
    with mpmath.workdps(dps):
        t = mpmath.exp(eps)
        return hs_pair(cls, form, k, form.u, form.u2, t), hs_pair(cls, form, k, form.u2, form.u, t)


def pld_power_delta(p: Row, q: Row, k: int, t: mpmath.mpf) -> mpmath.mpf:
    """hs(t) of the k-fold product of the pair of rows (p, q): their privacy-loss
    distribution (ratio -> (P-mass, Q-mass)), convolved k times."""
    one: dict[Fraction, tuple[Fraction, Fraction]] = {}
    for a, b in zip(p, q, strict=True):
        if a == 0 and b == 0:
            continue
        key = a / b if b != 0 else Fraction(-1)          # -1: infinite loss
        pa, qb = one.get(key, (Fraction(0), Fraction(0)))
        one[key] = (pa + a, qb + b)
    dist = {Fraction(1): (mpmath.mpf(1), mpmath.mpf(1))}
    for _ in range(k):
        nxt: dict[Fraction, tuple[mpmath.mpf, mpmath.mpf]] = {}
        for r1, (p1, q1) in dist.items():
            for r2, (p2, q2) in one.items():
                key = Fraction(-1) if r1 < 0 or r2 < 0 else r1 * r2
                pp, qq = nxt.get(key, (mpmath.mpf(0), mpmath.mpf(0)))
                nxt[key] = (pp + p1 * mpmath.mpf(p2.numerator) / p2.denominator,
                            qq + q1 * mpmath.mpf(q2.numerator) / q2.denominator)
        dist = nxt
    return mpmath.fsum(max(mpmath.mpf(0), pm - t * qm) for pm, qm in dist.values())


def fresh_delta(rows: Sequence[Row], prior: Row, alt: Row, k: int, eps: mpmath.mpf) -> mpmath.mpf:
    """δ(ε) of k releases each on a fresh database: the k-fold product of the mixture [f·M, f'·M]."""
    mix = [tuple(sum((g[x] * rows[x][y] for x in range(len(rows))), Fraction(0)) for y in range(len(rows[0])))
           for g in (prior, alt)]
    t = mpmath.exp(eps)
    return max(pld_power_delta(mix[0], mix[1], k, t), pld_power_delta(mix[1], mix[0], k, t))


def theorem_delta(rows: Sequence[Row], prior: Row, alt: Row, k: int, eps: mpmath.mpf) -> mpmath.mpf:
    """The composition theorem's δ (`cw_stream_of_dp`): the worst pair x in supp f,
    x' in supp f' of the k-fold product M(x)^⊗k against M(x')^⊗k, both orders."""
    t = mpmath.exp(eps)
    pairs = [(x, x2) for x in range(len(rows)) for x2 in range(len(rows)) if prior[x] > 0 and alt[x2] > 0]
    return max(max(pld_power_delta(rows[x], rows[x2], k, t), pld_power_delta(rows[x2], rows[x], k, t))
               for x, x2 in pairs)
