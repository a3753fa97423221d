"""The exact epsilon of snapping run in binary floats, by precision p (printed, not asserted).

Snapping with lambda = 1, Lambda = 1, B = 4 over the query values -4..4 (Δ = 1), emax 16, for
three samplers: u on the grid k/2^12 with ties up and with ties to even in the rounding to
the grid, and Mironov's U* (every float in (0, 1), ties up).  The same enumeration Coq runs
(obligations.float.analysis); the rows of docs/floating-point.md.  With --plot the
table is also drawn (e^eps against p, the ideal values as lines) into build/float_precision.png
and .svg (matplotlib, the `plot` extra).

    python bench/float_precision.py [p_min p_max] [--plot]
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

from obligations.float import arith as A  # noqa: E402
from obligations.float.analysis import FStep, distribution, grid_sampler, ln_table, ustar_sampler  # noqa: E402

Ratio = Fraction | float
SAMPLERS = (("grid 2^12, ties up", "up", 12), ("grid 2^12, ties even", "even", 12), ("U*, ties up", "up", 0))


def tight(p: int, ties: str, m: int, b: int = 4) -> tuple[Ratio, int]:
    """e^eps (exact) and the number of distinct u; m = 0 is U*."""
    fmt = A.Format(p, 16)
    sampler = grid_sampler(fmt, m) if m else ustar_sampler(fmt)
    ln = ln_table(fmt, sampler)
    bound, one = A.float_of_int(fmt, b), A.float_of_int(fmt, 1)
    steps = [FStep("ln"), FStep("scale", one), FStep("sign"), FStep("add_query", bound),
             FStep("round", j=0, ties=ties), FStep("clamp", bound)]
    rows = {x: distribution(fmt, steps, sampler, ln, x) for x in range(-b, b + 1)}
    worst: Ratio = Fraction(1)
    for x, d in rows.items():
        for x2 in (x - 1, x + 1):
            if x2 not in rows:
                continue
            for o, pr in d.items():
                other = rows[x2].get(o, Fraction(0))
                worst = math.inf if other == 0 else max(worst, pr / other)
    return worst, len(sampler)


def plot(results: dict[str, list[tuple[int, Ratio]]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for (label, pts), marker in zip(results.items(), "os^", strict=False):
        ax.plot([p for p, _ in pts], [float(r) for _, r in pts], marker=marker, label=label)
    ax.set_xticks(sorted({p for pts in results.values() for p, _ in pts}))
    ax.set_ylim(2.6, None)
    ax.axhline(3, color="grey", linestyle="--", linewidth=1)
    ax.text(ax.get_xlim()[0], 3.01, " ideal arithmetic, u on 2^12 points: e^eps = 3", fontsize=8, va="bottom")
    ax.axhline(math.e, color="grey", linestyle=":", linewidth=1)
    ax.text(ax.get_xlim()[0], math.e - 0.01, " ideal, continuous u: e^eps = e", fontsize=8, va="top")
    ax.set_xlabel("precision p (bits of significand), emax 16")
    ax.set_ylabel("exact e^eps (certifiable)")
    ax.set_title("Snapping (lambda = 1, Lambda = 1, B = 4) run in binary floats")
    ax.legend(fontsize=8)
    out = REPO / "build"
    out.mkdir(exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(out / f"float_precision.{ext}", dpi=120, bbox_inches="tight")
    print(f"plot: {out / 'float_precision.png'} and .svg")


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--plot"]
    lo, hi = (int(args[0]), int(args[1])) if len(args) == 2 else (6, 12)
    print("p   sampler               |u values|  exact e^eps   eps      seconds")
    results: dict[str, list[tuple[int, Ratio]]] = {label: [] for label, _, _ in SAMPLERS}
    for p in range(lo, hi + 1):
        for label, ties, m in SAMPLERS:
            t0 = time.perf_counter()
            r, n = tight(p, ties, m)
            eps = math.inf if r == math.inf else math.log(r)
            results[label].append((p, r))
            print(f"{p:<3} {label:<21} {n:<11} {str(r):<13} {eps:<8.4f} {time.perf_counter() - t0:.1f}",
                  flush=True)
    if "--plot" in sys.argv:
        plot(results)


if __name__ == "__main__":
    main()
