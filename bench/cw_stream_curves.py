"""Streaming CW-privacy of 5-ary randomized response (keep 3/5: Pr[y = x] = 17/25, else
2/25; priors 1/2, 1/2 on {0, 1} against {2, 3}) released K times: the same database, a
fresh database per release, and the composition theorem's bound, against K.

Left, ε at δ = 0 (every number a Coq theorem for every K, theories/Finite/CWCounter.v):
same database between K·ln(17/2) − ln 2 (`rr5_stream_lower`, exactly ln(((17/2)^K + 1)/2))
and K·ln(17/2) (`rr5_stream_upper`, the theorem); fresh database K·ln(19/4)
(`cw_fresh_basic` with `rr5_one`).  Right, δ at ε = K·ln(19/4), where a fresh database is
(ε, 0)-private: the same database's exact δ by classes of output sequences
(analysis/cw_stream.py; certified at K = 2 and K = 12 by tests/specs/cw_compose/) up to
K = 20, beyond by the counts of the outputs 0..3 (`counts_delta`, floats in log space, the
same sums grouped by type; not certified), and the theorem's δ (the worst pair x ∈ {0, 1},
x' ∈ {2, 3} of M(x)^⊗K against M(x')^⊗K: the accountant's upper bound, which Coq certifies
by table/by_stream_theorem.py).

    .venv/bin/python bench/cw_stream_curves.py [--kmax 200] [--plot docs/figures/cw_stream.svg]
"""
from __future__ import annotations

import argparse
import math
import time
from fractions import Fraction as F

import mpmath
import numpy as np
from scipy.special import gammaln

from obligations.analysis import accountant as acc
from obligations.analysis import cw_stream
from obligations.table.by_stream_theorem import support_pairs

ROWS = [[F(17, 25) if x == y else F(2, 25) for y in range(5)] for x in range(5)]
PRIOR = [F(1, 2), F(1, 2), F(0), F(0), F(0)]
ALT = [F(0), F(0), F(1, 2), F(1, 2), F(0)]
BEYOND = (30, 40, 50, 75, 100, 150, 200)      # K past the classes: exact by counts only


def counts_delta(k: int, eps: float) -> float:
    """δ(ε) of the same database (either order: the two are mirror images) summed over the counts
    (c0, c1, c2, c3) of the outputs 0..3: the multinomial number of sequences times
    (2/25)^K/2 · max(0, r^c0 + r^c1 − e^ε (r^c2 + r^c3)), r = 17/2, in log space."""
    lr, lf = math.log(17 / 2), gammaln(np.arange(k + 1) + 1.0)
    total = 0.0
    for c0 in range(k + 1):
        for c1 in range(k + 1 - c0):
            n = k - c0 - c1
            a = float(np.logaddexp(c0 * lr, c1 * lr))
            c2, c3 = np.arange(n + 1)[:, None], np.arange(n + 1)[None, :]
            ok = c2 + c3 <= n
            b = eps + np.logaddexp(c2 * lr, c3 * lr)
            pos = ok & (a > b)
            if pos.any():
                c4 = np.where(ok, n - c2 - c3, 0)
                log_n = lf[k] - lf[c0] - lf[c1] - lf[c2] - lf[c3] - lf[c4]
                with np.errstate(divide="ignore"):     # -inf off the positive part, masked below
                    gap = a + np.log1p(-np.exp(np.minimum(b - a, 0.0)))
                total += float(np.exp(log_n + k * math.log(2 / 25) - math.log(2) + gap)[pos].sum())
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kmax", type=int, default=200)
    ap.add_argument("--plot", default=None, help="write the figure (.svg or .png)")
    args = ap.parse_args()
    ks = [k for k in (*range(1, 21), *BEYOND) if k <= args.kmax]
    same_lo = [k * math.log(17 / 2) - math.log(2) for k in ks]
    same_exact = [math.log(((17 / 2) ** k + 1) / 2) for k in ks]
    theorem = [k * math.log(17 / 2) for k in ks]
    fresh = [k * math.log(19 / 4) for k in ks]
    d_same, d_thm, d_fresh = [], [], []
    print(f"{'K':>3} {'eps same':>9} {'eps fresh':>9} {'eps thm':>8} | {'delta same':>11} {'delta thm':>10} "
          f"{'classes':>9} {'s':>5}")
    for k, a, b, c in zip(ks, same_exact, fresh, theorem, strict=True):
        t0 = time.perf_counter()
        eps = k * mpmath.log(mpmath.mpf(19) / 4)
        if k <= 20:
            same = float(max(cw_stream.stream_delta(ROWS, PRIOR, ALT, k, eps)))
            thm = float(cw_stream.theorem_delta(ROWS, PRIOR, ALT, k, eps))
            d_fresh.append(float(cw_stream.fresh_delta(ROWS, PRIOR, ALT, k, eps)))
            assert abs(counts_delta(k, float(eps)) - same) < 1e-9 * max(same, 1e-300) + 1e-15
        else:
            same = counts_delta(k, float(eps))
            thm = acc.accountant(ROWS, support_pairs(tuple(PRIOR), tuple(ALT)), k).upper(float(eps))
            d_fresh.append(0.0)      # K ln(19/4) is the fresh database's epsilon at delta 0 (cw_fresh_basic)
        d_same.append(same)
        d_thm.append(thm)
        n = cw_stream.class_bound(5, k)
        print(f"{k:>3} {a:>9.4f} {b:>9.4f} {c:>8.4f} | {float(same):>11.6g} {float(thm):>10.6g} {n:>9} "
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
        pos = [(k, d) for k, d in zip(ks, d_same, strict=True) if d > 0]     # K = 1: delta 0, off the log scale
        right.plot([k for k, _ in pos], [d for _, d in pos], "k-o", markersize=3, label="same database (exact)")
        right.plot([], [], "b-", label=f"fresh database: 0 (max {max(d_fresh):.0e}, off the scale)")
        right.set_xlabel("K releases")
        right.set_ylabel("delta at epsilon = K ln(19/4)")
        right.set_yscale("log")
        right.legend(fontsize=8)
        fig.suptitle("5-ary randomized response (keep 3/5), priors 1/2,1/2 on {0,1} vs {2,3}")
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"figure: {args.plot}")


if __name__ == "__main__":
    main()
