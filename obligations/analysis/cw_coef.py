"""The same database released K times, by coefficient vectors instead of classes: a
measurement of the design that would bring K = 50 and K = 200 within reach of Coq.

hs(t) of the rows (Σ_x f(x)·M(x)^⊗K, Σ_x f'(x)·M(x)^⊗K) is G_K(c) with the coefficients
c_x = f(x) − t·f'(x) and, for any c,

    G_k(c) = Σ_{ys of length k} max(0, Σ_x c_x · Π_i M(x)(y_i)),
    G_0(c) = max(0, Σ_x c_x),   G_{k+1}(c) = Σ_y G_k(c ⊙ M(·)(y)),   G_k(λc) = λ·G_k(c) (λ ≥ 0).

So a state is a coefficient vector, one step multiplies it by each column, and states
that are positive multiples of one another merge (homogeneity): fewer states than
classes, whose merging needs equal likelihood vectors.  With r the largest ratio
M(x)(y)/M(x')(y), k steps still to go and S+ (S−) the sum of the positive (negative)
coefficients, a state is decided early:
- S+·r^k ≤ S−: every continuation ends below 0, G_k(c) = 0 (dropped, exactly);
- S−·r^k ≤ S+: every continuation ends at or above 0, G_k(c) = S+ − S− (rows are
  distributions), exactly;
- a coefficient of magnitude below `tau` is set to 0, which moves G_k by at most its
  magnitude (a positive one down, a negative one up): the bracket's slack.
For k-ary randomized response (Pr[y = x] = hi, else lo, r = hi/lo) a column multiplies
c by lo and coordinate y by r, so c = λ·(s_x·r^{n_x})_x with integer exponents n_x:
a state is its exponent vector up to a common shift (and up to permuting inputs with
equal s_x, which randomized response cannot tell apart), and λ a scalar.
Floats in log space: a prediction, not a certificate (nothing here is checked by Coq).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

Key = tuple[int | None, ...]


@dataclass(frozen=True)
class CoefResult:
    """hs(t) of one ordered pair of rows: the estimate, its bracket from the dropped
    coefficients, the most states alive after one step and the states summed over the steps."""

    estimate: float
    lower: float
    upper: float
    max_states: int
    state_steps: int


def rr_parameters(rows: Sequence[Sequence[Fraction]]) -> tuple[Fraction, Fraction]:
    """(hi, lo) of k-ary randomized response: Pr[y = x] = hi, every other output lo."""
    hi, lo = rows[0][0], rows[0][1 % len(rows)]
    for x, row in enumerate(rows):
        for y, q in enumerate(row):
            if q != (hi if x == y else lo):
                raise ValueError(f"not randomized response: row {x}, output {y}")
    if not 0 < lo < hi:
        raise ValueError("randomized response needs 0 < lo < hi")
    return hi, lo


def _logsum(values: Sequence[float]) -> float:
    top = max(values)
    return top + math.log(math.fsum(math.exp(v - top) for v in values))


def _canonical(n: list[int | None], groups: Sequence[Sequence[int]]) -> tuple[Key, int]:
    """Exponents shifted to minimum 0 (the shift returned) and sorted within each group of
    interchangeable inputs (None, a dropped coefficient, last)."""
    live = [v for v in n if v is not None]
    shift = min(live)
    out: list[int | None] = [None if v is None else v - shift for v in n]
    for g in groups:
        vals = sorted((out[i] for i in g), key=lambda v: (v is None, v if v is not None else 0))
        for i, v in zip(g, vals, strict=True):
            out[i] = v
    return tuple(out), shift


@dataclass
class _Run:
    """The fixed data of one DP and its running totals (exact part and the two slacks)."""

    sign: list[int]
    lmag: list[float]
    lr: float
    ltau: float
    groups: list[list[int]]
    exact: float = 0.0
    slack_lo: float = 0.0
    slack_up: float = 0.0

    def drop_small(self, n: list[int | None], mag: list[float | None]) -> None:
        """Coefficients below tau set to 0, each magnitude into the slack on its side."""
        for i, v in enumerate(mag):
            if v is not None and v < self.ltau:
                if self.sign[i] > 0:
                    self.slack_up += math.exp(v)
                else:
                    self.slack_lo += math.exp(v)
                n[i], mag[i] = None, None

    def decided(self, mag: list[float | None], rem: int) -> bool:
        """Whether the state's G is known (0, or S+ − S−, added to the exact part)."""
        pos = [v for i, v in enumerate(mag) if v is not None and self.sign[i] > 0]
        neg = [v for i, v in enumerate(mag) if v is not None and self.sign[i] < 0]
        if not pos:
            return True
        sp = _logsum(pos)
        if not neg:
            self.exact += math.exp(sp)
            return True
        sn = _logsum(neg)
        if sp + rem * self.lr <= sn:
            return True
        if sn + rem * self.lr <= sp:
            self.exact += math.exp(sp) - math.exp(sn)
            return True
        return False

    def extend(self, key: Key, lam: float, y: int | None, lw: float, rem: int,
               nxt: dict[Key, list[float]]) -> None:
        """The state (key, lam) times the column of letter y (log weight lw), into nxt unless decided."""
        n = list(key)
        if y is not None and n[y] is not None:
            n[y] = (n[y] or 0) + 1
        mag: list[float | None] = [None if v is None else lam + lw + self.lmag[i] + v * self.lr
                                   for i, v in enumerate(n)]
        self.drop_small(n, mag)
        if not self.decided(mag, rem):
            ckey, shift = _canonical(n, self.groups)
            nxt.setdefault(ckey, []).append(lam + lw + shift * self.lr)


def coef_hs(rows: Sequence[Sequence[Fraction]], g: Sequence[Fraction], g2: Sequence[Fraction], k: int,
            eps: float, tau: float = 1e-14, symmetric: bool = True) -> CoefResult:
    """hs(e^eps) of the rows (Σ g·M^⊗k, Σ g2·M^⊗k), M randomized response, by the coefficient DP."""
    hi, lo = rr_parameters(rows)
    m = len(rows)
    t = mpmath.exp(mpmath.mpf(eps))
    sup = [x for x in range(m) if g[x] != 0 or g2[x] != 0]
    coef = [mpmath.mpf(g[x].numerator) / g[x].denominator - t * mpmath.mpf(g2[x].numerator) / g2[x].denominator
            for x in sup]
    sign = [1 if c > 0 else -1 for c in coef]
    lmag = [float(mpmath.log(abs(c))) for c in coef]
    by: dict[tuple[int, float], list[int]] = {}
    for i in range(len(sup)):
        by.setdefault((sign[i], lmag[i]), []).append(i)
    groups = [v for v in by.values() if len(v) > 1] if symmetric else []
    run = _Run(sign, lmag, math.log(hi / lo), math.log(tau) if tau > 0 else -math.inf, groups)
    llo, outside = math.log(lo), m - len(sup)     # outputs off the supports: one letter of this size
    letters: list[tuple[int | None, float]] = [(i, llo) for i in range(len(sup))]
    if outside:
        letters.append((None, llo + math.log(outside)))
    states: dict[Key, float] = {tuple(0 for _ in sup): 0.0}
    max_states, steps = 0, 0
    for step in range(k):
        nxt: dict[Key, list[float]] = {}
        for key, lam in states.items():
            for y, lw in letters:
                run.extend(key, lam, y, lw, k - step - 1, nxt)
        states = {key: _logsum(ls) for key, ls in nxt.items()}
        max_states = max(max_states, len(states))
        steps += len(states)
    assert not states                   # with no step left every state is decided
    return CoefResult(run.exact, run.exact - run.slack_lo, run.exact + run.slack_up, max_states, steps)
