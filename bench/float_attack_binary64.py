"""Mironov's attack on real binary64: STATISTICS, NOT PROOFS (printed, never asserted).

Samples a mechanism with numpy on two neighbouring query values x = 0 and x' = 1 and reports
the fraction of the outputs drawn on x that no draw on x' can produce: an observer who sees
such an output knows the input was x, so that fraction of the probability mass carries
ε = ∞.  Two samplers, both as numpy computes them in binary64 (round to nearest even):

- textbook Laplace, inverse CDF: x + S·λ·ln u, u = 1 - random() on (0, 1], S = ±1;
- snapping (Mironov): clamp_B(Λ·round((clamp_B(x) + S·λ·ln u)/Λ)), Λ = 2^⌈log2 λ⌉.

Whether an output y can come from x' is decided exactly for this numpy build: every step
is monotone in u (numpy's log is assumed monotone), so for each sign a binary search over
the 2^62 bit patterns of u in (0, 1] finds the u whose run lands nearest y, and y is
reachable iff that run gives y exactly (the `control` column runs the same search on
outputs drawn on x' itself: it must print 1.0000).  The fraction over the samples estimates the
probability mass; its standard error is printed.  The exact, Coq-checked counterpart in a
small format is `tests/specs/floating/laplace_textbook_p8.yaml` (docs/floating-point.md).

    python bench/float_attack_binary64.py [SAMPLES] [LAMBDA]
"""
from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable

import numpy as np

ONE_BITS = int(np.float64(1.0).view(np.int64))
Mechanism = Callable[[float, np.ndarray, np.ndarray], np.ndarray]


def laplace(lam: float) -> Mechanism:
    def run(x: float, s: np.ndarray, u: np.ndarray) -> np.ndarray:
        return np.float64(x) + s * (np.float64(lam) * np.log(u))
    return run


def snapping(lam: float, bound: float) -> Mechanism:
    grid = 2.0 ** math.ceil(math.log2(lam))

    def run(x: float, s: np.ndarray, u: np.ndarray) -> np.ndarray:
        v = np.clip(np.float64(x), -bound, bound) + s * (np.float64(lam) * np.log(u))
        return np.clip(grid * np.round(v / grid), -bound, bound)   # np.round: ties to even
    return run


def reachable(run: Mechanism, x: float, y: np.ndarray) -> np.ndarray:
    """Whether some u in (0, 1] and sign give exactly y on input x (vectorised bisection)."""
    hit = np.zeros(y.shape, dtype=bool)
    for sign in (1.0, -1.0):
        s = np.full(y.shape, sign)
        # run(u) is increasing in u for S = +1, decreasing for S = -1: search the first
        # bit pattern whose output is >= y (S = +1) or <= y (S = -1)
        lo = np.ones(y.shape, dtype=np.int64)                 # the smallest subnormal
        hi = np.full(y.shape, ONE_BITS, dtype=np.int64)       # 1.0
        while np.any(lo < hi):
            mid = lo + (hi - lo) // 2
            out = run(x, s, mid.view(np.float64))
            past = out >= y if sign > 0 else out <= y
            hi = np.where(past, mid, hi)
            lo = np.where(past, lo, mid + 1)
        hit |= run(x, s, lo.view(np.float64)) == y
    return hit


def attack(name: str, run: Mechanism, n: int, rng: np.random.Generator) -> None:
    t0 = time.perf_counter()
    u = 1.0 - rng.random(n)
    s = rng.choice([-1.0, 1.0], n)
    y = run(0.0, s, u)
    only = ~reachable(run, 1.0, y)
    frac = only.mean()
    se = math.sqrt(frac * (1 - frac) / n)
    distinct = len(np.unique(y))
    # the search's own control: every output drawn on x' must be found reachable from x'
    control = reachable(run, 1.0, run(1.0, s, u)).mean()
    print(f"{name:<34} {n:>8} {distinct:>9} {int(only.sum()):>9} {frac:>10.4f} {se:>8.4f} {control:>8.4f} "
          f"{time.perf_counter() - t0:>6.1f}")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    lam = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    rng = np.random.default_rng(20121016)
    print(f"Mironov's attack in binary64 (numpy {np.__version__}): x = 0 against x' = 1, lambda = {lam}")
    print("statistics over samples, not proofs: 'only x' = outputs drawn on x that x' never produces")
    print(f"{'sampler':<34} {'samples':>8} {'distinct':>9} {'only x':>9} {'fraction':>10} {'s.e.':>8} "
          f"{'control':>8} {'sec':>6}")
    attack("textbook Laplace x + S*lam*ln u", laplace(lam), n, rng)
    attack("snapping, B = 2^10", snapping(lam, 1024.0), n, rng)


if __name__ == "__main__":
    main()
