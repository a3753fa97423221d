"""The accuracy Coq certifies against OpenDP's accuracy helpers (PyPI `opendp`, the `compare` extra).

    python bench/utility_opendp.py

- Laplace: OpenDP's `laplacian_scale_to_accuracy(λ, β)` gives the a with Pr[|Y| >= a] = β; the library
  proves Pr[|Y| <= a] = 1 - e^(-a/λ) exactly (`laplace_near`, Noise/SnapAccuracy.v), i.e. β = e^(-a/λ).
  Printed: OpenDP's a, the certified β at that a, and the difference to OpenDP's β.
- The truncated 1/2-geometric mechanism (the discrete Laplace of scale 1/ln 2, truncated to {0..10}):
  the exact tails Pr[|M(x) - x| > a] that `truncated_geometric_accuracy` certifies by reflection, at an
  interior input (where truncation does not change the tail), against OpenDP's
  `discrete_laplacian_scale_to_accuracy` (its tolerance is for Pr[|Y| >= tolerance], so the certified
  alpha is tolerance - 1).
Nothing is asserted; without opendp the script says so and stops.
"""
from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.models import load, unfold  # noqa: E402


def main() -> None:
    try:
        import opendp.prelude as dp
    except ImportError:
        print("opendp is not installed: pip install 'obligations[compare]'")
        return
    print("Laplace: scale, beta, OpenDP accuracy a, certified Pr[|Y| > a] = e^(-a/scale), difference")
    worst = 0.0
    for scale in (0.25, 1.0, 3.0, 10.0):
        for beta in (0.5, 0.1, 0.05, 0.01, 1e-6):
            a = dp.laplacian_scale_to_accuracy(scale, beta)
            certified = math.exp(-a / scale)
            worst = max(worst, abs(certified - beta) / beta)
            print(f"  {scale:>6} {beta:>8g} {a:>14.10f} {certified:.15g} {certified - beta:+.3g}")
    print(f"  largest relative difference: {worst:.3g}")
    u = unfold(load(REPO / "mechanisms" / "truncated_geometric_accuracy.yaml"))
    rows, x = u.mechanism.table.rows, 5
    scale = 1 / math.log(2)
    print("truncated 1/2-geometric over {0..10}, input 5: alpha, certified-exact Pr[|M(x) - x| > alpha], "
          "OpenDP tolerance at that beta (expect alpha + 1)")
    for alpha in range(0, 5):
        tail = sum((p for y, p in enumerate(rows[x]) if abs(y - x) > alpha), Fraction(0))
        tol = dp.discrete_laplacian_scale_to_accuracy(scale, float(tail))
        print(f"  {alpha}  {str(tail):>6} = {float(tail):.6f}  OpenDP {tol:.9f}")
    print(f"  (the spec's claim: Pr[|M(x) - x| > 2] <= 1/6 on every input; its certificate: "
          f"{u.rendered.theorems[-1]})")


if __name__ == "__main__":
    main()
