"""Seed 004's constant against the exact loss of binary snapping with U*, in small formats
(printed figures, nothing asserted).

For each precision p, a grid of noise scales λ in [1, 2] (ε = 1/λ, Λ the power of two at or
above λ, as the seed prescribes) and clamps B in the small-format analogue of Mironov's range
λ < B < 2^(p−7)·λ, the format's emin is chosen so that float_snap_dp's Hrange holds with 3
binades to spare (the subnormal tail out of reach).  Every float input in [−B, B], every
output, every pair within 1: the exact max loss L (obligations/analysis/ustar_snapping.py).
Printed per p: the largest ratio (L − ε)/(12Bεη + 2η) (the seed's excess), (L − ε)/(16Bεη)
(Mironov's 2^−49·B/λ read as 16η·B/λ), (L − ε)/ln K (float_snap_dp's constant), with the
witness of the largest seed ratio; a ratio above 1 would refute that bound.
(Scaling λ by a power of two, with emin shifted alike, gives the same losses: λ in [1, 2]
covers every λ.)

    python bench/ustar_seed_constant.py [p ...] [--ties down] [--dense]
    python bench/ustar_seed_constant.py --scan p lam,lam,... top   # every float B in (λ, top·λ)
    python bench/ustar_seed_constant.py --succ p step              # λ = 1 + k·step·2^(1−p), B = succ λ
"""
from __future__ import annotations

import math
import sys
import time
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.analysis import ustar_snapping as U  # noqa: E402


def grid_for(lam: Fraction) -> Fraction:
    g = Fraction(1)
    while g < lam:
        g *= 2
    return g


def emin_for(p: int, lam: Fraction, bound: Fraction, grid: Fraction) -> int:
    binades = math.ceil(float((2 * bound + grid) / lam) / math.log(2)) + 3
    return -max(2 * p, binades + p)


def lams(p: int, dense: bool) -> list[Fraction]:
    step = 1 if dense and p <= 8 else max(1, 2 ** (p - 1) // 16)
    out = [Fraction(2 ** (p - 1) + a, 2 ** (p - 1)) for a in range(0, 2 ** (p - 1), step)]
    return out + [2 - Fraction(1, 2 ** (p - 2)), Fraction(2)]


def bounds(p: int, lam: Fraction) -> list[Fraction]:
    big = U.Format(p, -400)
    top = 2 ** (p - 7) * lam
    cands = [Fraction(U.succ(big.units(lam), p), big.one), lam * Fraction(9, 8), lam * Fraction(3, 2),
             lam * 2, lam * 4, lam * 8, Fraction(U.pred(big.units(top), p), big.one)]
    out = sorted({Fraction(big.round(b), big.one) for b in cands})
    return [b for b in out if lam < b < top]


def one(p: int, lam: Fraction, bound: Fraction, ties: U.Ties) -> dict:
    grid = grid_for(lam)
    snap = U.Snapping(U.Format(p, emin_for(p, lam, bound, grid)), lam, grid, bound, ties)
    t = U.tables(snap)
    xs = snap.fmt.floats_in(-bound, bound)
    loss = U.max_loss(t, xs, U.distributions(t, xs))
    prem = U.premises(t)
    eps, eta = float(1 / lam), 2.0 ** -p
    over = loss.value - eps
    return {"snap": snap, "loss": loss, "prem": prem, "inputs": len(xs), "samples": len(t.us),
            "seed": over / (12 * float(bound) * eps * eta + 2 * eta),
            "mironov": over / (16 * float(bound) * eps * eta), "lnk": over / prem.ln_k}


def scan(p: int, lam_list: list[Fraction], top: Fraction) -> None:
    """The seed's ratio at every float B in (λ, top·λ) (and below 2^(p−7)·λ), the largest printed."""
    big = U.Format(p, -400)
    t0 = time.perf_counter()
    rows = []
    for lam in lam_list:
        b = U.succ(big.units(lam), p)
        while Fraction(b, big.one) < min(top, Fraction(2 ** (p - 7))) * lam:
            rows.append(one(p, lam, Fraction(b, big.one), "up"))
            b = U.succ(b, p)
    best = max(rows, key=lambda r: r["seed"])
    s, lo = best["snap"], best["loss"]
    print(f"p = {p}, {len(rows)} runs ({time.perf_counter() - t0:.1f}s, all premises: "
          f"{all(r['prem'].all_hold for r in rows)}): max seed ratio {best['seed']:.4f} at λ = {s.lam}, "
          f"B = {s.bound}: x = {lo.x}, x' = {lo.x_prime}, out {lo.output}, Pr {lo.num} vs {lo.den}, "
          f"L = {lo.value:.6f} (seed bound {U.seed_bound(s):.6f}); max Mironov {max(r['mironov'] for r in rows):.4f}, "
          f"max /lnK {max(r['lnk'] for r in rows):.4f}")


def every_lambda(p: int, step: int) -> None:
    """Every step-th float λ in (1, 2] with B the float just above it."""
    big = U.Format(p, -400)
    lam_list = [Fraction(2 ** (p - 1) + a, 2 ** (p - 1)) for a in range(1, 2 ** (p - 1) + 1, step)]
    rows = [one(p, lam, Fraction(U.succ(big.units(lam), p), big.one), "up") for lam in lam_list]
    best = max(rows, key=lambda r: r["seed"])
    print(f"p = {p}, {len(rows)} runs: max seed ratio {best['seed']:.4f} at λ = {best['snap'].lam}, "
          f"B = {best['snap'].bound}; max Mironov {max(r['mironov'] for r in rows):.4f}, "
          f"max /lnK {max(r['lnk'] for r in rows):.4f}")


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--succ":
        every_lambda(int(argv[1]), int(argv[2]))
        return
    if argv and argv[0] == "--scan":
        scan(int(argv[1]), [Fraction(a) for a in argv[2].split(",")], Fraction(argv[3]))
        return
    ties: U.Ties = "down" if "--ties" in argv and argv[argv.index("--ties") + 1] == "down" else "up"
    dense = "--dense" in argv
    ps = [int(a) for a in argv if a.isdigit()] or [8, 9, 10]
    print(f"ties {ties}; ratio = (max loss − ε)/(the bound's excess over ε)")
    print(f"{'p':>3} {'runs':>5} {'all premises':>12} {'max seed':>9} {'max Mironov':>11} {'max /lnK':>9} "
          f"{'time':>7}  witness of the max seed ratio")
    for p in ps:
        t0 = time.perf_counter()
        rows = [one(p, lam, b, ties) for lam in lams(p, dense) for b in bounds(p, lam)]
        best = max(rows, key=lambda r: r["seed"])
        s, lo = best["snap"], best["loss"]
        print(f"{p:>3} {len(rows):>5} {sum(r['prem'].all_hold for r in rows):>12} {best['seed']:>9.4f} "
              f"{max(r['mironov'] for r in rows):>11.4f} {max(r['lnk'] for r in rows):>9.4f} "
              f"{time.perf_counter() - t0:>6.1f}s  λ = {s.lam}, Λ = {s.grid}, B = {s.bound}, emin = {s.fmt.emin}: "
              f"x = {lo.x}, x' = {lo.x_prime}, out {lo.output}, Pr {lo.num} vs {lo.den}, "
              f"L = {lo.value:.6f}, seed bound {U.seed_bound(s):.6f}")


if __name__ == "__main__":
    main(sys.argv[1:])
