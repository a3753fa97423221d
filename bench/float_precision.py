"""The exact epsilon of snapping run in binary floats, by precision p (printed, not asserted).

The same enumeration Coq runs (obligations.kinds.floating.analysis); the rows of
docs/floating-point.md.  Usage: python bench/float_precision.py [p_min p_max]
"""
from __future__ import annotations

import math
import sys
import time
from fractions import Fraction

from obligations.kinds.floating import arith as A
from obligations.kinds.floating.analysis import FStep, distribution, grid_sampler, ln_table


def tight(p: int, ties: str, m: int = 12, b: int = 4) -> tuple[Fraction | float, int]:
    fmt = A.Format(p, 16)
    sampler = grid_sampler(fmt, m)
    ln = ln_table(fmt, sampler)
    bound, one = A.float_of_int(fmt, b), A.float_of_int(fmt, 1)
    steps = [FStep("ln"), FStep("scale", one), FStep("sign"), FStep("add_query", bound),
             FStep("round", j=0, ties=ties), FStep("clamp", bound)]
    rows = {x: distribution(fmt, steps, sampler, ln, x) for x in range(-b, b + 1)}
    worst: Fraction | float = Fraction(1)
    for x, d in rows.items():
        for x2 in (x - 1, x + 1):
            if x2 not in rows:
                continue
            for o, pr in d.items():
                other = rows[x2].get(o, Fraction(0))
                worst = math.inf if other == 0 else max(worst, pr / other)
    return worst, len(sampler)


def main() -> None:
    lo, hi = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (6, 12)
    print("p   ties  |u values|  exact e^eps   eps      seconds")
    for p in range(lo, hi + 1):
        for ties in ("up", "even"):
            t0 = time.perf_counter()
            r, n = tight(p, ties)
            eps = math.inf if r == math.inf else math.log(r)
            print(f"{p:<3} {ties:<5} {n:<11} {str(r):<12} {eps:<8.4f} {time.perf_counter() - t0:.1f}")


if __name__ == "__main__":
    main()
