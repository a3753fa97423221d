"""How far numpy.log is from the correctly rounded logarithm, in ulps, on u drawn as
diffprivlib's Snapping draws it (Mironov's U*: every float of (0, 1), weighted by the interval
it stands for).  diffprivlib falls back to numpy.log when crlibm is absent (crlibm 1.0.3 does
not build on Python 3.11), so this is the logarithm its users run.  Printed, not asserted.

    python bench/numpy_log_ulps.py [SAMPLES] [SEED]

The reference is mpmath's log at 120 bits, rounded to binary64; the error is
|numpy.log(u) - log(u)| / ulp(numpy.log(u)).
"""
from __future__ import annotations

import math
import random
import sys
import time

import mpmath
import numpy as np


def u_star(rnd: random.Random) -> float:
    """diffprivlib's `_uniform_sampler`: a geometric exponent and 52 uniform significand bits."""
    mantissa = 1 << 52 | rnd.getrandbits(52)
    exponent = -53
    x = 0
    while not x:
        x = rnd.getrandbits(32)
        exponent += x.bit_length() - 32
    return math.ldexp(mantissa, exponent)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 2012)
    mpmath.mp.prec = 120
    t0 = time.perf_counter()
    worst, worst_u, wrong = 0.0, 0.0, 0
    for _ in range(n):
        u = u_star(rnd)
        got = float(np.log(u))
        exact = mpmath.log(mpmath.mpf(u))
        rn = float(exact)  # mpmath rounds to nearest when converting to float
        if got != rn:
            wrong += 1
        err = float(abs(mpmath.mpf(got) - exact) / math.ulp(got)) if got else 0.0
        if err > worst:
            worst, worst_u = err, u
    print(f"numpy {np.__version__}, {n} samples of U*, {time.perf_counter() - t0:.1f} s")
    print(f"largest error {worst:.3f} ulp (at u = {worst_u!r})")
    print(f"not correctly rounded: {wrong} ({100 * wrong / n:.3f} %)")


if __name__ == "__main__":
    main()
