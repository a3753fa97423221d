"""Streaming CW-privacy of 5-ary randomized response (keep 3/5: Pr[y = x] = 17/25, else
2/25; priors 1/2, 1/2 on {0, 1} against {2, 3}) released K times: the same database, a
fresh database per release, and the composition theorem's bound, against K.

Left, ε at δ = 0 (every number a Coq theorem for every K, theories/Finite/CWCounter.v):
same database between K·ln(17/2) − ln 2 (`rr5_stream_lower`, exactly ln(((17/2)^K + 1)/2))
and K·ln(17/2) (`rr5_stream_upper`, the theorem); fresh database K·ln(19/4)
(`cw_fresh_basic` with `rr5_one`).  Right, δ at ε = K·ln(19/4), where a fresh database is
(ε, 0)-private: the same database's exact δ by classes of output sequences
(analysis/cw_stream.py; certified at K = 2 and K = 12 by tests/specs/cw_compose/), and the
theorem's δ (the worst pair x ∈ {0, 1}, x' ∈ {2, 3} of M(x)^⊗K against M(x')^⊗K).

    .venv/bin/python bench/cw_stream_curves.py [--kmax 20] [--plot docs/figures/cw_stream.svg]
"""
from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction as F

import mpmath

from obligations.analysis import cw_stream

ROWS = [[F(17, 25) if x == y else F(2, 25) for y in range(5)] for x in range(5)]
PRIOR = [F(1, 2), F(1, 2), F(0), F(0), F(0)]
ALT = [F(0), F(0), F(1, 2), F(1, 2), F(0)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kmax", type=int, default=20)
    ap.add_argument("--plot", default=None, help="write the figure (.svg or .png)")
    args = ap.parse_args()
    ks = list(range(1, args.kmax + 1))
    same_lo = [k * math.log(17 / 2) - math.log(2) for k in ks]
    same_exact = [math.log(((17 / 2) ** k + 1) / 2) for k in ks]
    theorem = [k * math.log(17 / 2) for k in ks]
    fresh = [k * math.log(19 / 4) for k in ks]
    d_same, d_thm, d_fresh = [], [], []
    print(f"{'K':>3} {'eps same':>9} {'eps fresh':>9} {'eps thm':>8} | {'delta same':>11} {'delta thm':>10} "
          f"{'classes':>7} {'s':>5}")
    for k, a, b, c in zip(ks, same_exact, fresh, theorem, strict=True):
        t0 = time.perf_counter()
        eps = k * mpmath.log(mpmath.mpf(19) / 4)
        same = max(cw_stream.stream_delta(ROWS, PRIOR, ALT, k, eps))
        thm = cw_stream.theorem_delta(ROWS, PRIOR, ALT, k, eps)
        d_same.append(float(same))
        d_thm.append(float(thm))
        d_fresh.append(float(cw_stream.fresh_delta(ROWS, PRIOR, ALT, k, eps)))
        n = len(cw_stream.classes(cw_stream.integer_form(ROWS, PRIOR, ALT), k))
        print(f"{k:>3} {a:>9.4f} {b:>9.4f} {c:>8.4f} | {float(same):>11.6f} {float(thm):>10.6f} {n:>7} "
              f"{time.perf_counter() - t0:>5.1f}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        left.plot(ks, theorem, "r--", label="theorem: K ln(17/2)")
        left.plot(ks, same_exact, "k-", label="same database (exact)")
        left.plot(ks, same_lo, "k:", label="same database, lower: K ln(17/2) - ln 2")
        left.plot(ks, fresh, "b-", label="fresh database: K ln(19/4)")
        left.set_xlabel("K releases")
        left.set_ylabel("epsilon at delta = 0")
        left.legend(fontsize=8)
        right.plot(ks, d_thm, "r--", label="theorem (worst support pair)")
        right.plot(ks, d_same, "k-o", markersize=3, label="same database (exact, by classes)")
        right.plot(ks, d_fresh, "b-", label="fresh database")
        right.set_xlabel("K releases")
        right.set_ylabel("delta at epsilon = K ln(19/4)")
        right.legend(fontsize=8)
        fig.suptitle("5-ary randomized response (keep 3/5), priors 1/2,1/2 on {0,1} vs {2,3}")
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"figure: {args.plot}")


if __name__ == "__main__":
    main()
