"""Clamped snapping's expected error and bias (exact sums, `analysis/utility.py`) against a Monte
Carlo run of diffprivlib's `Snapping` sampler (floating point, [Mir12]; not a project dependency).

    python bench/utility_diffprivlib.py [SAMPLES]

diffprivlib works in units of the sensitivity, centred on (lower + upper)/2: B = (upper - lower)/2/Δ,
λ = 1/ε' with ε' = (ε - 2η)/(1 + 12Bη) (η the machine epsilon), Λ the smallest power of two >= λ, ties
up.  The exact sums are evaluated with those numbers.  Printed per query value: exact, Monte Carlo
mean ± standard error, and the difference in standard errors.  Nothing is asserted.

diffprivlib 0.6.6 imports scikit-learn models at package import, which fails with scikit-learn 1.9;
only its mechanisms are needed, so the package is entered without its __init__.
"""
from __future__ import annotations

import math
import sys
import types
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from obligations.analysis import utility as U  # noqa: E402


def snapping_class():  # type: ignore[no-untyped-def]
    import importlib.util
    spec = importlib.util.find_spec("diffprivlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    pkg = types.ModuleType("diffprivlib")
    pkg.__path__ = list(spec.submodule_search_locations)
    sys.modules["diffprivlib"] = pkg
    from diffprivlib.mechanisms.snapping import Snapping
    return Snapping


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    snapping = snapping_class()
    if snapping is None:
        print("diffprivlib is not installed")
        return
    eps, sens, lower, upper = 1.0, 1.0, -4.0, 4.0
    mech = snapping(epsilon=eps, sensitivity=sens, lower=lower, upper=upper, random_state=20260101)
    lam = 1.0 / mech.effective_epsilon()
    grid = 2.0 ** math.ceil(math.log2(lam))
    bound = (upper - lower) / 2 / sens
    print(f"{n} samples per value; epsilon {eps}, [lower, upper] = [{lower}, {upper}]: "
          f"lambda = {lam!r}, Lambda = {grid}, B = {bound}")
    for c in (0.0, 0.3, 2.5, 4.0, 5.0):
        out = np.array([mech.randomise(c) for _ in range(n)])
        o = U.clamped_outputs(grid, lam, bound, c)
        for label, exact, draws in (("E|M - f(D)|", o.expected_error(c), np.abs(out - c)),
                                    ("bias E[M] - f(D)", o.bias(c), out - c)):
            mean, se = float(draws.mean()), float(draws.std(ddof=1) / math.sqrt(n))
            print(f"  f(D) = {c:<4} {label:<17} exact {exact:.6f}  diffprivlib {mean:.6f} ± {se:.6f}  "
                  f"({(mean - exact) / se:+.2f} se)")


if __name__ == "__main__":
    main()
