"""δ(ε) of finite mechanisms and their compositions: this tool (exact) against
Google's dp_accounting (privacy-loss distributions, pessimistic estimate).

    python bench/regions_vs_dp_accounting.py [--max-k 1000] [--interval 1e-4]

Prints, per case and ε: our δ (exact rational arithmetic; evaluated at e^ε to
40 digits when e^ε is irrational), dp_accounting's δ, the gap (theirs − ours;
≥ 0 is the price of their pessimistic discretisation, < 0 would be unsound),
and both run times with their ratio.  dp_accounting is optional: without it
only our figures are printed.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from obligations.analysis.compose import composed_curve  # noqa: E402

EPSILONS = (0.5, 1.0, 2.0, 3.0, 5.0)
Rows = Sequence[Sequence[Fraction]]


def geometric(n: int, alpha: Fraction = Fraction(1, 2)) -> list[list[Fraction]]:
    """Seed 002's truncated alpha-geometric mechanism over {0..n}."""
    def pr(x: int, y: int) -> Fraction:
        if y == 0:
            return alpha ** x / (1 + alpha)
        if y == n:
            return alpha ** (n - x) / (1 + alpha)
        return (1 - alpha) / (1 + alpha) * alpha ** abs(y - x)
    return [[pr(x, y) for y in range(n + 1)] for x in range(n + 1)]


def adjacent(n_inputs: int) -> list[tuple[int, int]]:
    return [p for i in range(n_inputs - 1) for p in ((i, i + 1), (i + 1, i))]


def exp_fraction(eps: float) -> Fraction:
    return Fraction(str(sympy.N(sympy.exp(sympy.Float(repr(eps), 60)), 45)))


def ours(rows: Rows, pairs: list[tuple[int, int]], k: int) -> tuple[list[Fraction], float]:
    start = time.perf_counter()
    c = composed_curve(rows, pairs, k)
    deltas = [c.delta(exp_fraction(e)) for e in EPSILONS]
    return deltas, time.perf_counter() - start


def show(delta: float | Fraction) -> str:
    """δ, or 1 − δ when δ is too close to 1 for a float to tell."""
    if delta > 0.999:
        return f"1 - {float(1 - delta):.6e}"
    return f"{float(delta):.15g}"


def theirs(rows: Rows, pairs: list[tuple[int, int]], k: int, interval: float) -> tuple[list[float], float] | None:
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return None
    start = time.perf_counter()
    best = [0.0] * len(EPSILONS)
    distinct = {}
    for a, b in pairs:  # dp_accounting takes one pair at a time; skip repeated pairs as we do
        key = (tuple(rows[a]), tuple(rows[b]))
        distinct.setdefault(key, (a, b))
    for a, b in distinct.values():
        upper = {y: math.log(p) for y, p in enumerate(rows[a]) if p > 0}
        lower = {y: math.log(q) for y, q in enumerate(rows[b]) if q > 0}
        d = pld.from_two_probability_mass_functions(lower, upper, pessimistic_estimate=True,
                                                    value_discretization_interval=interval,
                                                    symmetric=False)
        composed = d.self_compose(k) if k > 1 else d
        for i, e in enumerate(EPSILONS):
            best[i] = max(best[i], composed.get_delta_for_epsilon(e))
    return best, time.perf_counter() - start


def report(name: str, rows: Rows, pairs: list[tuple[int, int]], k: int, interval: float) -> None:
    mine, t_mine = ours(rows, pairs, k)
    other = theirs(rows, pairs, k, interval)
    for i, e in enumerate(EPSILONS):
        line = f"{name:<22} {k:>5} {e:>5} {show(mine[i]):>22}"
        if other:
            gap = other[0][i] - float(mine[i])
            line += f" {show(other[0][i]):>22} {gap:>+10.2e}"
        print(line)
    timing = f"{'':<22} {'':>5} {'time':>5} {t_mine:>21.3f}s"
    if other:
        timing += f" {other[1]:>21.3f}s   ratio theirs/ours {other[1] / max(t_mine, 1e-9):.1f}x"
    print(timing)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-k", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=1e-4, help="dp_accounting's discretisation")
    args = ap.parse_args(argv)
    rr = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    print(f"{'case':<22} {'k':>5} {'eps':>5} {'ours (exact)':>22} {'dp_accounting':>22} {'gap':>10}")
    for k in (1, 10, 50):
        report("randomized response", rr, [(0, 1), (1, 0)], k, args.interval)
    for k in (1, 10, 50):
        report("geometric {0..5}", geometric(5), adjacent(6), k, args.interval)
    for k in (1, 10, 100, 1000):
        if k <= args.max_k:
            report("geometric {0..100}", geometric(100), adjacent(101), k, args.interval)
    print("\nGoal: exact values, and faster than dp_accounting at equal or better accuracy.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
