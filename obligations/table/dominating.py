"""Dominating pairs of a finite mechanism, found exactly (`theories/Finite/Dominate.v`).

The pair of rows (A, B) is dominated by (P, Q) when H_g(A‖B) ≤ H_g(P‖Q) for every g ≥ 0,
H_g(A‖B) = Σ_z max(0, A(z) − g·B(z)).  Coq checks a witness: a Markov kernel T with
A = T·P and B = T·Q (`kernel_fits`).  Python decides domination exactly first (both sides
are piecewise linear in g, so comparing them at 0, at every ratio where one of them bends
and beyond the last one decides it), then finds T: the identity or a relabelling of the
outputs when one fits, else an exact rational LP (`feasible_point`, the simplex method's
phase 1; about 4 s of CPU for a 10 x 10 kernel, 70 s for 20 x 20).  A kernel exists whenever
domination holds (the comparison of experiments), so the LP failing would be a bug.

A part's candidate pairs are its own ordered pairs of neighbours; the first candidate (the
largest H first) that dominates every ordered pair of neighbours is the part's pair."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

Row = Sequence[Fraction]
Kernel = tuple[tuple[Fraction, ...], ...]   # T[w][z] = T(z | w): one distribution over z per w
MAX_KERNEL_ENTRIES = 400                    # k·m variables of one LP: beyond, the search is refused


class NoKernel(ValueError):
    """The exact search cannot give a kernel (the tables are too large for the LP)."""


def hs(a: Row, b: Row, g: Fraction) -> Fraction:
    """H_g(A‖B), exactly."""
    return sum((max(Fraction(0), x - g * y) for x, y in zip(a, b, strict=True)), Fraction(0))


def _bends(*rows: tuple[Row, Row]) -> list[Fraction]:
    """Every g where one of the hockey sticks bends (A(z)/B(z)), then one beyond the last."""
    gs = {Fraction(0)} | {x / y for a, b in rows for x, y in zip(a, b, strict=True) if y > 0}
    out = sorted(gs)
    return out + [out[-1] + 1]


def dominates(p: Row, q: Row, a: Row, b: Row) -> bool:
    """Whether (A, B) is dominated by (P, Q): exact, at the bends of both sides."""
    return all(hs(a, b, g) <= hs(p, q, g) for g in _bends((p, q), (a, b)))


def _identity(k: int) -> Kernel:
    return tuple(tuple(Fraction(int(w == z)) for z in range(k)) for w in range(k))


def _relabelling(p: Row, q: Row, a: Row, b: Row) -> Kernel | None:
    """T moving output w to the output z with (A(z), B(z)) = (P(w), Q(w)), each once."""
    if len(p) != len(a):
        return None
    free: dict[tuple[Fraction, Fraction], list[int]] = {}
    for z, key in enumerate(zip(a, b, strict=True)):
        free.setdefault(key, []).append(z)
    target: list[int] = []
    for key in zip(p, q, strict=True):
        zs = free.get(key)
        if not zs:
            return None
        target.append(zs.pop(0))
    m = len(a)
    return tuple(tuple(Fraction(int(z == target[w])) for z in range(m)) for w in range(len(p)))


def _lp_kernel(p: Row, q: Row, a: Row, b: Row) -> Kernel:
    """T ≥ 0 with columns summing to 1, A = T·P and B = T·Q: an exact rational LP."""
    k, m = len(p), len(a)
    if k * m > MAX_KERNEL_ENTRIES:
        raise NoKernel(f"a kernel of {k} x {m} entries is beyond the exact search ({MAX_KERNEL_ENTRIES})")
    n_var = k * m
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for w in range(k):
        rows.append([Fraction(int(v // m == w)) for v in range(n_var)])
        rhs.append(Fraction(1))
    for target, src in ((a, p), (b, q)):
        for z in range(m):
            rows.append([src[v // m] if v % m == z else Fraction(0) for v in range(n_var)])
            rhs.append(target[z])
    vals = feasible_point(rows, rhs)
    if vals is None:
        raise NoKernel("no kernel maps the pair to the other (domination fails)")
    return tuple(tuple(vals[w * m + z] for z in range(m)) for w in range(k))


def feasible_point(rows: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction] | None:
    """A point x ≥ 0 with rows·x = rhs, or None: phase 1 of the simplex method in exact
    rationals, one artificial variable per row, Bland's rule (so it cannot cycle).  Written
    here because sympy's simplex fails on equalities alone and stalls on degenerate ones."""
    r, n = len(rows), len(rows[0]) if rows else 0
    # each row: the n variables, the r artificials, the right-hand side (made >= 0)
    t = [[*(v if rhs[i] >= 0 else -v for v in rows[i]), *(Fraction(int(j == i)) for j in range(r)), abs(rhs[i])]
         for i in range(r)]
    basis = [n + i for i in range(r)]
    # reduced costs of minimising the artificials' sum, and (last) minus its value
    cost = [-sum((t[i][j] for i in range(r)), Fraction(0)) if j < n else Fraction(0) for j in range(n + r)]
    cost.append(-sum((t[i][-1] for i in range(r)), Fraction(0)))
    while True:
        entering = next((j for j in range(n + r) if cost[j] < 0), None)
        if entering is None:
            break
        candidates = [(t[i][-1] / t[i][entering], basis[i], i) for i in range(r) if t[i][entering] > 0]
        if not candidates:   # unbounded below: impossible for a sum of non-negative artificials
            return None
        _, _, row = min(candidates)
        _pivot(t, cost, row, entering)
        basis[row] = entering
    if cost[-1] != 0:
        return None
    x = [Fraction(0)] * n
    for i, j in enumerate(basis):
        if j < n:
            x[j] = t[i][-1]
    return x


def _pivot(t: list[list[Fraction]], cost: list[Fraction], row: int, col: int) -> None:
    pv = t[row][col]
    t[row] = [v / pv for v in t[row]]
    for i, line in enumerate(t):
        f = line[col]
        if i != row and f != 0:
            t[i] = [v - f * w for v, w in zip(line, t[row], strict=True)]
    f = cost[col]
    if f != 0:
        cost[:] = [v - f * w for v, w in zip(cost, t[row], strict=True)]


def kernel(p: Row, q: Row, a: Row, b: Row) -> Kernel:
    """A kernel mapping (P, Q) to (A, B); NoKernel when there is none (or it is too large)."""
    if (tuple(p), tuple(q)) == (tuple(a), tuple(b)):
        return _identity(len(p))
    moved = _relabelling(p, q, a, b)
    if moved is not None:
        return moved
    if not dominates(p, q, a, b):
        raise NoKernel("the pair is not dominated")
    return _lp_kernel(p, q, a, b)


def kernel_fits(t: Kernel, p: Row, q: Row, a: Row, b: Row) -> bool:
    """What Coq's `kernel_fits` checks, in Python: T ≥ 0, columns ≤ 1, A = T·P, B = T·Q."""
    k, m = len(p), len(a)
    if len(t) != k or any(len(col) != m for col in t):
        return False
    if any(v < 0 for col in t for v in col) or any(sum(col) > 1 for col in t):
        return False
    return all(a[z] == sum(t[w][z] * p[w] for w in range(k)) and b[z] == sum(t[w][z] * q[w] for w in range(k))
               for z in range(m))


@dataclass(frozen=True)
class PartPair:
    """A part's dominating pair (rows x, x2 of its table) and one kernel per ordered pair."""

    x: int
    x2: int
    kernels: tuple[tuple[int, int, Kernel], ...]


def _size(rows: Sequence[Row], pair: tuple[int, int]) -> tuple[Fraction, ...]:
    """Candidates with the largest hockey stick first: H_g at g = 1, then total mass moved."""
    p, q = rows[pair[0]], rows[pair[1]]
    return (-hs(p, q, Fraction(1)), -sum((abs(x - y) for x, y in zip(p, q, strict=True)), Fraction(0)))


def dominating_pair(rows: Sequence[Row], pairs: Sequence[tuple[int, int]]) -> PartPair | None:
    """The first of the table's own ordered pairs of neighbours that dominates every one of
    them, with the kernels; None when none does."""
    for x, x2 in sorted(pairs, key=lambda pr: (_size(rows, pr), pr)):
        p, q = rows[x], rows[x2]
        if not all(dominates(p, q, rows[u], rows[u2]) for u, u2 in pairs):
            continue
        return PartPair(x, x2, tuple((u, u2, kernel(p, q, rows[u], rows[u2])) for u, u2 in pairs))
    return None


__all__ = ["Kernel", "NoKernel", "PartPair", "dominates", "dominating_pair", "feasible_point", "hs", "kernel",
           "kernel_fits"]
