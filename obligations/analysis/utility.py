"""The error of ideal snapping against Laplace (seed 003): closed forms and exact sums.

Notation: Laplace noise Y of scale `lam` (density e^(-|y|/lam) / (2 lam)), grid step `grid`
(Λ), r = Λ / lam, and the offset theta = (f(D) - the grid point nearest f(D)) / Λ in
[-1/2, 1/2].  The snapping output without clamping is Λ·round((f(D) + Y) / Λ); ties have
probability 0, so the tie rule does not matter here.

Closed forms (derived in `derive()` with sympy from the geometric series, and checked
against the reference values in tests/unit/test_utility.py):

    E|Snap - f(D)| = Λ·( cosh(theta r) / (2 sinh(r/2)) + |theta|·(1 - e^(-(1/2 - |theta|) r)) )

which is Λ / (2 sinh(r/2)) on the grid (theta = 0), (Λ/2)·coth(r/2) half-way
(|theta| = 1/2), and Λ/4 + (2 lam²/Λ)(1 - e^(-Λ/(2 lam))) averaged over theta; Laplace's
is lam.  With clamping to [-B, B] the outputs are finitely many grid points and ±B; their
probabilities are exact differences of the Laplace distribution function, and the
expected error, the clamping bias E[M] - f(D) and the tail Pr[|M - f(D)| > alpha] are
finite sums of them (`clamped_outputs`).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy

R, GRID, THETA = sympy.symbols("r Lambda theta", positive=True)
LAM = sympy.Symbol("lambda", positive=True)


# ---------------------------------------------------------------- closed forms (sympy)

def expected_error_expr(theta: sympy.Expr = THETA, r: sympy.Expr = R, grid: sympy.Expr = GRID) -> sympy.Expr:
    """E|Snap - f(D)| at offset |theta| <= 1/2, unclamped."""
    t = sympy.Abs(theta) if theta.is_nonnegative is not True else theta
    return grid * (sympy.cosh(t * r) / (2 * sympy.sinh(r / 2)) + t * (1 - sympy.exp(-(sympy.Rational(1, 2) - t) * r)))


def on_grid_expr(r: sympy.Expr = R, grid: sympy.Expr = GRID) -> sympy.Expr:
    """The reference value with f(D) on the grid: Λ / (2 sinh(r/2))."""
    return grid / (2 * sympy.sinh(r / 2))


def half_way_expr(r: sympy.Expr = R, grid: sympy.Expr = GRID) -> sympy.Expr:
    """The reference value half-way between grid points: (Λ/2)·coth(r/2)."""
    return grid / 2 * sympy.coth(r / 2)


def averaged_expr(r: sympy.Expr = R, grid: sympy.Expr = GRID) -> sympy.Expr:
    """The reference value averaged over the offset: Λ/4 + (2 lam²/Λ)(1 - e^(-Λ/(2 lam))), lam = Λ/r."""
    lam = grid / r
    return grid / 4 + 2 * lam ** 2 / grid * (1 - sympy.exp(-grid / (2 * lam)))


def derive() -> dict[str, sympy.Expr]:
    """The closed form from the series, by sympy (slow: about a minute; bench/ runs it).

    For theta in [0, 1/2] and c = theta Λ: output kΛ, k >= 1, has probability
    e^(theta r) e^(-k r) sinh(r/2), k <= -1 has e^(-theta r) e^(-|k| r) sinh(r/2), and 0 has
    1 - e^(-(1/2 - theta) r)/2 - e^(-(1/2 + theta) r)/2; E = sum |kΛ - c|·Pr[k].  Returns
    the differences to the closed form and to the three reference values (all 0)."""
    q = sympy.Symbol("q", positive=True)
    k = sympy.Symbol("k", integer=True, positive=True)

    def geo(term: sympy.Expr) -> sympy.Expr:
        s = sympy.summation(term * q ** k, (k, 1, sympy.oo))
        return s.args[0][0] if isinstance(s, sympy.Piecewise) else s   # the branch |q| < 1
    s0, s1 = geo(sympy.Integer(1)), geo(k)
    th, half = THETA, sympy.Rational(1, 2)
    series = (GRID * sympy.sinh(R / 2) * (sympy.exp(th * R) * (s1 - th * s0) + sympy.exp(-th * R) * (s1 + th * s0))
              + th * GRID * (1 - sympy.exp(-(half - th) * R) / 2 - sympy.exp(-(half + th) * R) / 2))
    series = series.subs(q, sympy.exp(-R))

    def zero(e: sympy.Expr) -> sympy.Expr:
        return sympy.simplify(sympy.expand(e.rewrite(sympy.exp)))
    closed = expected_error_expr()
    return {"series - closed form": zero(series - closed),
            "on the grid": zero(closed.subs(th, 0) - on_grid_expr()),
            "half-way": zero(closed.subs(th, half) - half_way_expr()),
            "averaged": zero(2 * sympy.integrate(closed, (th, 0, half)) - averaged_expr())}


# ---------------------------------------------------------------- numbers (floats)

def laplace_cdf(t: float, lam: float) -> float:
    """Pr[Y < t] for Laplace noise of scale lam."""
    return 0.5 * math.exp(t / lam) if t <= 0 else 1 - 0.5 * math.exp(-t / lam)


def expected_error(grid: float, lam: float, theta: float) -> float:
    """The closed form in floats."""
    r, t = grid / lam, abs(theta)
    return grid * (math.cosh(t * r) / (2 * math.sinh(r / 2)) + t * (1 - math.exp(-(0.5 - t) * r)))


def expected_error_series(grid: float, lam: float, c: float, terms: int = 400) -> float:
    """E|Snap - c| summed over the outputs kΛ, |k - round(c/Λ)| <= terms (an independent check)."""
    k0 = round(c / grid)
    total = 0.0
    for k in range(k0 - terms, k0 + terms + 1):
        p = laplace_cdf((k + 0.5) * grid - c, lam) - laplace_cdf((k - 0.5) * grid - c, lam)
        total += abs(k * grid - c) * p
    return total


def tail_unclamped(grid: float, lam: float, c: float, alpha: float) -> float:
    """Pr[|Snap - c| > alpha], unclamped: the outputs above c + alpha and below c - alpha."""
    k_hi = math.floor((c + alpha) / grid) + 1      # kΛ > c + alpha
    k_lo = math.ceil((c - alpha) / grid) - 1       # kΛ < c - alpha
    return (1 - laplace_cdf((k_hi - 0.5) * grid - c, lam)) + laplace_cdf((k_lo + 0.5) * grid - c, lam)


def tail_laplace(lam: float, alpha: float) -> float:
    """Pr[|Y| > alpha] = e^(-alpha/lam)."""
    return math.exp(-alpha / lam)


@dataclass(frozen=True)
class Outputs:
    """The output distribution of clamped snapping at query value c: values and probabilities."""

    values: tuple[float, ...]
    probs: tuple[float, ...]

    def expected_error(self, c: float) -> float:
        return sum(abs(y - c) * p for y, p in zip(self.values, self.probs, strict=False))

    def bias(self, c: float) -> float:
        """E[M] - c: what clamping adds to the (zero-mean) noise."""
        return sum(y * p for y, p in zip(self.values, self.probs, strict=False)) - c

    def tail(self, c: float, alpha: float) -> float:
        return sum(p for y, p in zip(self.values, self.probs, strict=False) if abs(y - c) > alpha)


def clamped_outputs(grid: float, lam: float, bound: float, c: float) -> Outputs:
    """clamp_B(Λ·round(clamp_B(c) + Y)): the grid points strictly inside (-B, B), and ±B
    with the mass of the two tails (round index >= ceil(B/Λ), <= floor(-B/Λ))."""
    cc = max(-bound, min(bound, c))
    top, bot = math.ceil(bound / grid), math.floor(-bound / grid)
    values: list[float] = [-bound]
    probs: list[float] = [laplace_cdf((bot + 0.5) * grid - cc, lam)]
    for k in range(bot + 1, top):
        values.append(k * grid)
        probs.append(laplace_cdf((k + 0.5) * grid - cc, lam) - laplace_cdf((k - 0.5) * grid - cc, lam))
    values.append(bound)
    probs.append(1 - laplace_cdf((top - 0.5) * grid - cc, lam))
    return Outputs(tuple(values), tuple(probs))


def laplace_expected_error_clamped(lam: float, bound: float, c: float) -> float:
    """E|clamp_B(c + Y) - c| (a clamped Laplace mechanism, for comparison): by quadrature."""
    return _integrate(lambda y: abs(max(-bound, min(bound, c + y)) - c) * math.exp(-abs(y) / lam) / (2 * lam),
                      -40 * lam, 40 * lam)


def _integrate(f: Callable[[float], float], a: float, b: float, n: int = 20000) -> float:
    h = (b - a) / n
    return h * (f(a) / 2 + sum(f(a + i * h) for i in range(1, n)) + f(b) / 2)


def note_grid(lam: float) -> float:
    """Seed 003's Λ: the smallest power of two at least lam."""
    return 2.0 ** math.ceil(math.log2(lam))


def worst_ratio(rs: Sequence[float]) -> float:
    """max over r of the half-way error over lam: (r/2)·coth(r/2)."""
    return max(r / 2 / math.tanh(r / 2) for r in rs)
