"""Snapping's expected error and tails: the closed forms against a Monte Carlo run of a plain
numpy sampler (ideal arithmetic: u uniform on (0, 1], S = ±1, Y = S·λ·ln u, output
Λ·round((f(D) + Y)/Λ), clamped when B is given), and sympy's exact derivation timed.

    python bench/utility_montecarlo.py [SAMPLES]

Printed: per (λ, Λ, f(D)) the closed form, the Monte Carlo mean with its standard error and the
difference in standard errors; the same for the tail Pr[|M - f(D)| > α] and for clamped snapping
(expected error and bias, from the exact finite sums).  Nothing here is asserted: a difference of
more than about 4 standard errors would say the formulas are wrong.
"""
from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.analysis import utility as U  # noqa: E402


def sample(rng: np.random.Generator, n: int, lam: float, grid: float, c: float, bound: float | None) -> np.ndarray:
    u = 1.0 - rng.random(n)                      # (0, 1]
    s = rng.choice([-1.0, 1.0], n)
    cc = c if bound is None else min(max(c, -bound), bound)
    out = grid * np.floor((cc + s * lam * np.log(u)) / grid + 0.5)     # ties up
    return out if bound is None else np.clip(out, -bound, bound)


def row(label: str, exact: float, draws: np.ndarray) -> str:
    mean, se = float(draws.mean()), float(draws.std(ddof=1) / math.sqrt(len(draws)))
    z = (mean - exact) / se if se > 0 else 0.0
    return f"  {label:<44} exact {exact:.6f}  MC {mean:.6f} ± {se:.6f}  ({z:+.2f} se)"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    rng = np.random.default_rng(20260101)
    print(f"{n} samples per line; numpy {np.__version__}")
    for lam, grid in ((1.0, 1.0), (0.75, 1.0), (1.3, 2.0)):
        print(f"lambda = {lam}, Lambda = {grid}, r = {grid / lam:.4g}")
        for theta in (0.0, 0.25, 0.5):
            c = theta * grid + 3 * grid
            out = sample(rng, n, lam, grid, c, None)
            print(row(f"E|Snap - f(D)|, theta = {theta}", U.expected_error(grid, lam, theta), np.abs(out - c)))
            alpha = 1.5 * lam
            print(row(f"Pr[|Snap - f(D)| > {alpha:.3g}], theta = {theta}", U.tail_unclamped(grid, lam, c, alpha),
                      (np.abs(out - c) > alpha).astype(float)))
    lam, grid, bound = 1.0, 1.0, 4.0
    print(f"clamped: lambda = {lam}, Lambda = {grid}, B = {bound}")
    for d in (-1.0, 0.0, 1.0, 2.5):
        c = bound + d
        out = sample(rng, n, lam, grid, c, bound)
        o = U.clamped_outputs(grid, lam, bound, c)
        print(row(f"E|Snap - f(D)|, f(D) - B = {d}", o.expected_error(c), np.abs(out - c)))
        print(row(f"bias E[Snap] - f(D), f(D) - B = {d}", o.bias(c), out - c))
    t0 = time.perf_counter()
    zeros = U.derive()
    print(f"sympy derivation ({time.perf_counter() - t0:.1f} s): " + ", ".join(f"{k}: {v}" for k, v in zeros.items()))


if __name__ == "__main__":
    main()
