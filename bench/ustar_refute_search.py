"""Search for a refutation of the seed's (12, 2) and Mironov's (16, 0) in small FLT formats
(printed figures, nothing asserted; docs/snap_tight.md, "Refutation search").

The claim searched against is the one `float_snap_dp_tight_correct` (SnapTight.v) has the shape of:
for every FLT(p, emin), every float λ, every grid λ ≤ Λ ≤ 2λ, every clamp B with that theorem's
premises (Hdisp, Hrange, HE at δ just above tight_mu·tight_D), every tie rule and every pair of real
inputs in [−B, B], ln(Pr[o | x]/Pr[o | x']) ≤ |x − x'|/λ + (a·B/λ + b)·η.  A parameter set with a
larger excess refutes (a, b) "for any FLT format".  Inputs: the floats of precision p (`float`) or
of precision p + 3 (`real`: reals of [−B, B] off the mechanism's float lattice).  Every output's
probability is exact (obligations/analysis/ustar_snapping.py); the ratio printed is the excess over
(12β + 2)η (seed) and over 16βη (Mironov), β = B/λ; above 1 refutes.

    python bench/ustar_refute_search.py P [P ...] [--lams N] [--real] [--ties down] [--grids all]

(--lams N: λ = 1 + k/N of [1, 2), or --lam X: that λ only; --grids all: also Λ ∈ {λ, succ λ,
1.25λ, 1.5λ, 2λ}, besides the power of two at or above λ; --near β,n: only the n clamps with B/λ
nearest β.)  Figures in docs/snap_tight.md, §5 (its p = 7 reals row is Λ ∈ {3/2, 15/8} of
`7 --lam 3/2 --grids all --real --near 3.25,14`).
"""
from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import mpmath  # noqa: E402

from obligations.analysis import ustar_snapping as U  # noqa: E402


def mp(q: Fraction) -> Any:
    return mpmath.mpf(q.numerator) / q.denominator


def tight_premises(p: int, emin: int, lam: Fraction, grid: Fraction, bound: Fraction) -> tuple[bool, float]:
    """Hdisp (δ = tight_mu·tight_D·(1 + 2^−40)), Hrange and HE of float_snap_dp_tight_correct, and ln tight_K."""
    eta, tiny = Fraction(1, 2 ** p), Fraction(2) ** emin
    mu = (1 + eta) * (1 + eta) - 1
    d = 2 * bound + grid / 2 + 2 * eta * (bound + grid / 2) + tiny
    w = grid - 2 * eta * (2 * bound + grid) - 2 * tiny
    delta = mu * d * (1 + Fraction(1, 2 ** 40))
    with mpmath.workprec(200):
        hrange = mpmath.log(mpmath.mpf(2) ** (emin + p - 1)) <= -mp(d + delta) / mp(lam)
        e2 = (mpmath.exp(mp(delta) / mp(lam)) / (1 - 2 * mp(eta))) ** 2
        r = mpmath.exp(mp(w) / mp(lam))
        he = w > 0 and e2 < r
        lnk = float(mpmath.log((e2 * r - 1) / (r - e2))) if he else math.nan
    return bool(hrange and he and lam >= Fraction(2) ** (emin + 2 * p)), lnk


def emin_for(p: int, lam: Fraction, bound: Fraction, grid: Fraction) -> int:
    binades = math.ceil(float((2 * bound + grid) / lam) * 1.01 / math.log(2)) + 2
    return -max(2 * p + 2, binades + p + 1)


def grids(p: int, lam: Fraction, mode: str) -> list[Fraction]:
    two = Fraction(1)
    while two < lam:
        two *= 2
    if mode == "p2":
        return [two]
    big = U.Format(p, -400)
    cands = {two, lam, 2 * lam, Fraction(big.round(lam * Fraction(5, 4)), big.one),
             Fraction(big.round(lam * Fraction(3, 2)), big.one), Fraction(U.succ(big.units(lam), p), big.one)}
    return sorted(g for g in cands if lam <= g <= 2 * lam)


def bounds(p: int, lam: Fraction) -> list[Fraction]:
    """Clamps above λ, increasing: the float after λ, and around every power of two (its
    predecessor, itself, its successor) and every quarter of a binade (B near a power of two puts
    the top bucket across it: the worst case of docs/snap_tight.md §4)."""
    big = U.Format(p, -400)
    out = {Fraction(U.succ(big.units(lam), p), big.one)}
    two = Fraction(1)
    while two <= 2 ** p * lam:
        for c in (two, two * Fraction(5, 4), two * Fraction(3, 2), two * Fraction(7, 4)):
            n = big.units(c)
            out |= {Fraction(v, big.one) for v in (U.pred(n, p), n, U.succ(n, p))}
        two *= 2
    return sorted(b for b in out if b > lam)


def near(bs: list[Fraction], lam: Fraction, argv: list[str]) -> list[Fraction]:
    """With --near β,n: the n clamps whose B/λ is nearest β, increasing; else all."""
    if "--near" not in argv:
        return bs
    beta, n = argv[argv.index("--near") + 1].split(",")
    return sorted(sorted(bs, key=lambda b: abs(float(b / lam) - float(beta)))[:int(n)])


def one(p: int, lam: Fraction, grid: Fraction, bound: Fraction, ties: U.Ties, real: bool) -> dict[str, Any] | None:
    emin = emin_for(p, lam, bound, grid)
    ok, lnk = tight_premises(p, emin, lam, grid, bound)
    if not ok:
        return None
    snap = U.Snapping(U.Format(p, emin), lam, grid, bound, ties)
    t = U.tables(snap)
    xs = U.Format(p + 3 if real else p, emin).floats_in(-bound, bound)
    ex = U.max_excess(t, xs, U.distributions(t, xs), dist=2 * bound)
    eta, beta = 2.0 ** -p, float(bound / lam)
    return {"p": p, "lam": lam, "grid": grid, "B": bound, "ties": ties, "ex": ex,
            "seed": ex.value / ((12 * beta + 2) * eta), "mir": ex.value / (16 * beta * eta),
            "lnk": ex.value / lnk, "exeta": ex.value / eta, "beta": beta}


def main(argv: list[str]) -> None:
    values = {i + 1 for i, a in enumerate(argv) if a in ("--lams", "--ties", "--grids", "--lam", "--near")}
    ps = [int(a) for i, a in enumerate(argv) if a.isdigit() and i not in values]
    nl = int(argv[argv.index("--lams") + 1]) if "--lams" in argv else 8
    real = "--real" in argv
    ties: U.Ties = "down" if "--ties" in argv else "up"
    mode = "all" if "--grids" in argv else "p2"
    for p in ps:
        t0 = time.perf_counter()
        step = max(1, 2 ** (p - 1) // nl)
        lams = [Fraction(2 ** (p - 1) + a, 2 ** (p - 1)) for a in range(0, 2 ** (p - 1), step)]
        if "--lam" in argv:
            lams = [Fraction(argv[argv.index("--lam") + 1])]
        rows = []
        for lam in lams:
            for grid in grids(p, lam, mode):
                for bound in near(bounds(p, lam), lam, argv):
                    r = one(p, lam, grid, bound, ties, real)
                    if r is None:
                        break
                    rows.append(r)
        if not rows:
            print(f"p = {p}: no parameter set meets the premises")
            continue
        for key in ("seed", "mir"):
            best = max(rows, key=lambda r: r[key])
            ex = best["ex"]
            print(f"p = {p} {'real' if real else 'float'} ties {ties} grids {mode}: {len(rows)} sets "
                  f"({time.perf_counter() - t0:.0f}s); max {key} ratio {best[key]:.4f} "
                  f"(seed {best['seed']:.4f}, Mironov {best['mir']:.4f}, /lnK {best['lnk']:.3f}) at λ = {best['lam']}, "
                  f"Λ = {best['grid']}, B = {best['B']} (β {best['beta']:.3f}): x = {ex.x}, x' = {ex.x_prime}, "
                  f"out {ex.output}, Pr {ex.num} vs {ex.den}, excess {best['exeta']:.3f}η", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
