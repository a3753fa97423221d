"""The worst excess of binary snapping over |x - x'|/lambda, searched two ways (printed figures,
nothing asserted; docs/snap_tight.md, sections 4 and 5).

--anneal: exact binary64 probabilities (obligations/analysis/snap_thresholds.py: every threshold of the
pipeline inverted, no sampling) under simulated annealing over lambda, B, the inputs x, x' near -B and
the output near B; the ratio of the excess to the seed's 12*eta*B/lambda + 2*eta is maximised.
Lambda is the power of two at or above lambda (`p2`) or any step in [lambda, 2 lambda] (`any`).

--model: the first-order lattice model of a far bucket (thresholds rounded up to multiples of P, then
of Q, U*'s factor at its worst), its excess per eta*D/lambda maximised by hill climbing, for the
structures of section 4: `aligned` (W a multiple of P), `straddle` (W = Lambda - P/8: a bucket across
a power of two), `general` (W free), with d = x' - x free or on the inputs' own spacing.

    python bench/snap_worst_case.py --anneal p2 20 4000
    python bench/snap_worst_case.py --model 1000
"""
from __future__ import annotations

import math
import random
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import mpmath  # noqa: E402

from obligations.analysis import snap_thresholds as T  # noqa: E402
from obligations.analysis.ustar_snapping import Format  # noqa: E402

FMT = Format(53, -1074)
ETA = 2.0 ** -53


def power_of_two_at_or_above(lam: float) -> float:
    return 2.0 ** math.ceil(math.log2(lam))


def seed_ratio(lam: float, grid: float, bound: float, xf: float, d: float, back: int) -> float:
    """max over the two directions of (excess)/(12 B/lambda + 2) in units of eta, the output g - back."""
    xc = xf + d
    if not (lam < bound and -bound <= xf < xc <= bound and lam <= grid <= 2 * lam):
        return -1.0
    mech = T.Mechanism(FMT, Fraction(lam), Fraction(grid), Fraction(bound), "up")
    k = mech.g - back
    a, b = FMT.units(Fraction(xc)), FMT.units(Fraction(xf))
    best = max(T.excess(mech, a, b, k), T.excess(mech, b, a, k))
    return best / ETA / (12 * bound / lam + 2)


def anneal(mode: str, seed: int, steps: int) -> tuple[float, tuple[float, ...]]:
    rng = random.Random(seed)
    lam = rng.uniform(0.5, 1.0)
    grid = power_of_two_at_or_above(lam) if mode == "p2" else lam * rng.uniform(1, 2)
    bound = 2.0 ** rng.randint(0, 8) * (1 + rng.random() * rng.choice([1e-3, 0.01, 0.1, 1]))
    st = (lam, grid, bound, -bound + rng.random() * 0.5, rng.random(), float(rng.randint(0, 3)))
    cur = seed_ratio(st[0], st[1], st[2], st[3], st[4], int(st[5]))
    best = (cur, st)
    for i in range(steps):
        lam, grid, bound, xf, d, back = st
        r = rng.random()
        if r < 0.2:
            lam = min(1.0, max(0.5000001, lam * (1 + rng.choice([1e-3, 1e-6, 1e-9, 1e-12]) * rng.uniform(-1, 1))))
        elif r < 0.35:
            bound *= 1 + rng.choice([1e-3, 1e-6, 1e-9, 1e-12, 1e-14]) * rng.uniform(-1, 1)
        elif r < 0.6:
            xf += rng.choice([1, 2, 3, 5, 17, 1000]) * rng.choice([-1, 1]) * math.ulp(xf)
        elif r < 0.8:
            d += rng.choice([1, 2, 3, 5, 17, 1000, 10 ** 6]) * rng.choice([-1, 1]) * math.ulp(xf)
        elif r < 0.9:
            back = max(0.0, back + rng.choice([-1, 1]))
        else:
            xf = -bound + rng.random() * min(2.0, 2 * bound)
        if mode == "p2":
            grid = power_of_two_at_or_above(lam)
        elif rng.random() < 0.2:
            grid = lam * min(2.0, max(1.0, grid / lam * (1 + 0.01 * rng.uniform(-1, 1))))
        nst = (lam, grid, bound, xf, d, back)
        v = seed_ratio(lam, grid, bound, xf, d, int(back))
        temp = 0.05 * (1 - i / steps) + 1e-4
        if v > cur or rng.random() < math.exp((v - cur) / temp):
            st, cur = nst, v
            if v > best[0]:
                best = (v, nst)
    return best


def model_excess(D: Any, P: Any, Q: Any, lam: Any, W: Any, d: Any, eta: Any) -> Any:
    """ln(mass(x)/mass(x')) - d/lambda of a far bucket at distance D from the closer input x, the
    farther one at D + d: thresholds rounded up to P, then to Q, U*'s factor 1 + 2 eta at the worst ends."""
    def theta(t: Any) -> Any:
        return mpmath.ceil(mpmath.ceil(t / P) * P / lam / Q) * Q
    th = [theta(D), theta(D + W), theta(D + d), theta(D + d + W)]
    close = mpmath.e ** (-th[0]) * (1 + 2 * eta) - mpmath.e ** (-th[1])
    far = mpmath.e ** (-th[2]) - mpmath.e ** (-th[3]) * (1 + 2 * eta)
    return mpmath.log(close / far) - d / lam


def model_search(mode: str, steps: int, seed: int, grid_d: int | None) -> tuple[float, list[float]]:
    """Hill climbing of the model's excess per eta*D/lambda (binade 2^6, eta = 2^-40)."""
    mpmath.mp.prec = 200
    rng = random.Random(seed)
    eta = mpmath.mpf(2) ** -40
    e = 6
    P = Q = 2 * eta * 2 ** e

    def ev(s: tuple[Any, Any, Any, Any]) -> float:
        D, lam, W, d = s
        if not (2 ** e <= D and 2 ** e <= D / lam < 2 ** (e + 1) and D + d + W < 2 ** (e + 1)):
            return -1.0
        return float(model_excess(D, P, Q, lam, W, d, eta) / (eta * D / lam))

    best: tuple[float, list[float]] | None = None
    for _ in range(20):
        W0 = mpmath.mpf(1) if mode == "aligned" else (1 - P / 8 if mode == "straddle"
                                                       else 1 + mpmath.mpf(rng.random()) * 2 ** -10)
        d0 = mpmath.mpf(rng.randint(1, 2 ** 20)) * P / grid_d if grid_d else mpmath.mpf(rng.random())
        s = (mpmath.mpf(2) ** e * (1 + mpmath.mpf(rng.random()) * 2 ** -12),
             1 - mpmath.mpf(rng.random()) * 2 ** -12, W0, d0)
        cur = ev(s)
        for _ in range(steps):
            D, lam, W, d = s
            k, sc = rng.randrange(4), P * 10 ** rng.uniform(-3, 1)
            if k == 0:
                D += sc * rng.uniform(-1, 1)
            elif k == 1:
                lam += sc * rng.uniform(-1, 1)
            elif k == 2 and mode == "general":
                W += sc * rng.uniform(-1, 1)
            else:
                d = d + (P / grid_d * rng.choice([-1, 1, 2, -2, 3]) if grid_d else sc * rng.uniform(-1, 1))
            v = ev((D, lam, W, d))
            if v >= cur:
                s, cur = (D, lam, W, d), v
        if best is None or cur > best[0]:
            best = (cur, [float(t) for t in s])
    assert best is not None
    return best


def main(argv: list[str]) -> None:
    t0 = time.perf_counter()
    if argv and argv[0] == "--anneal":
        mode, runs, steps = argv[1], int(argv[2]), int(argv[3])
        results = sorted((anneal(mode, s, steps) for s in range(runs)), reverse=True)
        for v, (lam, grid, bound, xf, d, back) in results[:5]:
            print(f"seed ratio {v:.4f}: lambda = {lam!r}, Lambda = {grid!r}, B = {bound!r}, x = {xf!r}, "
                  f"x' = {xf + d!r}, output index g - {int(back)}")
    elif argv and argv[0] == "--model":
        steps = int(argv[1])
        for mode, grid_d in (("aligned", None), ("aligned", 2), ("straddle", None), ("straddle", 4),
                             ("general", None), ("general", 4), ("general", 2)):
            v, s = model_search(mode, steps, 1, grid_d)
            spacing = "free" if grid_d is None else f"multiples of P/{grid_d}"
            print(f"{mode:8} d {spacing:18}: excess per eta*D/lambda {v:.3f} (x 2 = {2 * v:.2f} per eta*B/lambda "
                  f"at D = 2B) at D = {s[0]:.6g}, lambda = {s[1]:.9g}, W = {s[2]:.9g}")
    else:
        print(__doc__)
        return
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
