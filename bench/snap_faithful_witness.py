"""A witness against the seed's and Mironov's constants for a log within 1 ulp, with binary64 inputs
(theories/Float/SnapUlpsRefuted.v; docs/snap_tight.md, section 5).

`snap64_constant_ulps 1` (SnapSeedUlps.v) quantifies over every log within 1 ulp of ln on the floats
of (0, 1).  The log `lnadv` of SnapUlpsRefuted.v rounds ln u down (DN) below s1 and from s2 = e^F on,
up (UP) in between: within 1 ulp everywhere, monotone (F a float).  At the four thresholds of a pair
it rounds as `bench/snap_real_inputs.py --faithful` chooses: the closer input's bucket widened, the
farther one's narrowed.  This script searches float inputs near -B at lambda = 1 - 1048577*2^-53,
Lambda = 1.05 lambda, B = 1031/4 (output 244 Lambda), then prints every number the Coq file needs:
the four samples u1 >= u2 (closer x), u3 >= u4 (farther x'), at each the log's float L, the
product's float N and the sum's float t (each inequality strict, checked here), and the pipeline run
forwards at each sample (mpmath for ln).

    python bench/snap_faithful_witness.py [samples]
"""
from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import mpmath  # noqa: E402

from obligations.analysis import snap_thresholds as T  # noqa: E402
from obligations.analysis.ustar_snapping import Format, pred, succ  # noqa: E402

FMT = Format(53, -1074)
ONE = FMT.one
LAM = Fraction(9007199253692415, 2 ** 53)
GRID = Fraction(21, 20) * LAM
BOUND = Fraction(1031, 4)
OUT = 244


def me(f: Fraction) -> tuple[int, int]:
    """f = m*2^e with 2^52 < |m| < 2^53 (float_neighbours' premise)."""
    assert f != 0
    e = 0
    while abs(f) >= 2 ** 53:
        f /= 2
        e += 1
    while abs(f) < 2 ** 52:
        f *= 2
        e -= 1
    assert f.denominator == 1 and 2 ** 52 < abs(f) < 2 ** 53, f
    return int(f), e


def threshold(mech: T.Mechanism, x: int, k: int, mode: str) -> tuple[int, int, int]:
    """Sign -1, "index >= k": (n, hi, V) in units: P <= n, l <= hi, u <= V (mode dn: ln u < succ hi;
    up: ln u <= hi)."""
    c, inc = mech.edge(k)
    n = T.last_at_or_below(FMT, x - c, inc)
    m1, inc1 = T.boundary_le(FMT, n)
    hi = T.last_at_or_below(FMT, m1 * ONE / mech.lam_f, inc1)
    m2 = Fraction(succ(hi, FMT.prec) if mode == "dn" else hi)
    return n, hi, T.floor_exp(FMT, m2 / ONE)


def prob(mech: T.Mechanism, x: int, k: int, modes: tuple[str, str]) -> Fraction:
    _, _, v = threshold(mech, x, k, modes[0])
    _, _, v2 = threshold(mech, x, k + 1, modes[1])
    return Fraction(succ(v, FMT.prec) - succ(v2, FMT.prec), ONE) / 2


def g(mech: T.Mechanism, x: int, role: str) -> mpmath.mpf:
    modes = ("dn", "up") if role == "close" else ("up", "dn")
    with mpmath.workprec(200):
        p = prob(mech, x, OUT, modes)
        return mpmath.log(mpmath.mpf(p.numerator) / p.denominator) - mpmath.mpf(x) / ONE / (
            mpmath.mpf(LAM.numerator) / LAM.denominator)


def search(n: int) -> tuple[int, int]:
    mech = T.Mechanism(FMT, LAM, GRID, BOUND, "up")
    rng = random.Random(3)
    xs = sorted({FMT.round(Fraction(math.floor((-BOUND + 2 * Fraction(rng.getrandbits(60), 2 ** 60)) * ONE), ONE))
                 for _ in range(n)})
    best: tuple[mpmath.mpf, int, int] | None = None
    low: tuple[mpmath.mpf, int] | None = None
    for x in xs:
        gc, gf = g(mech, x, "close"), g(mech, x, "far")
        if low is not None and (best is None or gc - low[0] > best[0]):
            best = (gc - low[0], x, low[1])
        if low is None or gf < low[0]:
            low = (gf, x)
    assert best is not None
    return best[1], best[2]


def ln_lt(u: int, q: Fraction) -> bool:
    with mpmath.workprec(400):
        return bool(mpmath.log(mpmath.mpf(u) / ONE) < mpmath.mpf(q.numerator) / q.denominator)


def main(n: int) -> None:
    mech = T.Mechanism(FMT, LAM, GRID, BOUND, "up")
    x, xf = search(n)
    lam = LAM
    print(f"x = {Fraction(x, ONE)} = {me(Fraction(x, ONE))}, x' = {Fraction(xf, ONE)} = {me(Fraction(xf, ONE))}")
    rows = []
    # (name, input, k, mode, side): side ge = "index >= k holds at V", lt = "index >= k fails at succ V"
    for name, xi, k, mode, side in (("u1", x, OUT, "dn", "ge"), ("u2", x, OUT + 1, "up", "lt"),
                                    ("u3", xf, OUT, "up", "lt"), ("u4", xf, OUT + 1, "dn", "ge")):
        nn, hi, v = threshold(mech, xi, k, mode)
        c, _ = mech.edge(k)
        F = T.first_at_or_above(FMT, (k - Fraction(1, 2)) * GRID * ONE, True)   # ties up: the float at or above
        if side == "ge":
            u, L, N, t = v, hi, nn, F
            # mode dn: ln u < succ L; product lam*L < N + ulp/2; sum x - N > t - ulp/2
            assert ln_lt(u, Fraction(succ(L, 53), ONE)) if mode == "dn" else ln_lt(u, Fraction(L, ONE) + 0)
            assert lam * Fraction(L, ONE) < Fraction(N + succ(N, 53), 2 * ONE)
            assert Fraction(xi, ONE) - Fraction(N, ONE) > Fraction(t + pred(t, 53), 2 * ONE)
            assert (k - Fraction(1, 2)) * GRID <= Fraction(t, ONE)
        else:
            u, L, N, t = succ(v, 53), succ(hi, 53), succ(nn, 53), pred(F, 53)
            # mode up: ln u > pred L = hi; product lam*L > N - ulp/2; sum x - N < t + ulp/2
            assert not ln_lt(u, Fraction(hi, ONE))
            assert lam * Fraction(L, ONE) > Fraction(N + pred(N, 53), 2 * ONE)
            assert Fraction(xi, ONE) - Fraction(N, ONE) < Fraction(t + succ(t, 53), 2 * ONE)
            assert Fraction(t, ONE) < (k - Fraction(1, 2)) * GRID
        rows.append((name, u, L, N, t))
        print(f"{name}: k = {k}, mode {mode}, u = {me(Fraction(u, ONE))}, L = {me(Fraction(L, ONE))}, "
              f"N = {me(Fraction(N, ONE))}, t = {me(Fraction(t, ONE))}")
    u1, u2, u3, u4 = (r[1] for r in rows)
    assert u4 < u2 < u3 < u1
    with mpmath.workprec(300):
        lo3, lo1 = mpmath.log(mpmath.mpf(u3) / ONE), mpmath.log(mpmath.mpf(u1) / ONE)
        print(f"ln u3 = {mpmath.nstr(lo3, 20)}, ln u1 = {mpmath.nstr(lo1, 20)}")
        eta = mpmath.mpf(2) ** -53
        pc = (mpmath.mpf(u1) - mpmath.mpf(u2) / (1 - 2 * eta)) / ONE / 2
        pf = (mpmath.mpf(u3) / (1 - 2 * eta) - mpmath.mpf(u4)) / ONE / 2
        d = mpmath.mpf((Fraction(x - xf, ONE) / lam).numerator) / (Fraction(x - xf, ONE) / lam).denominator
        exc = (mpmath.log(pc / pf) - d) / eta
        beta = mpmath.mpf(BOUND.numerator) / BOUND.denominator / (mpmath.mpf(LAM.numerator) / LAM.denominator)
        print(f"bracketed excess {mpmath.nstr(exc, 10)} eta; seed 12 beta + 2 = {mpmath.nstr(12 * beta + 2, 8)}, "
              f"Mironov 16 beta = {mpmath.nstr(16 * beta, 8)}")
        q = prob(mech, x, OUT, ("dn", "up")) / prob(mech, xf, OUT, ("up", "dn"))
        exact = mpmath.log(mpmath.mpf(q.numerator) / q.denominator) - d
        print(f"exact excess {mpmath.nstr(exact / eta, 10)} eta; Pr[out | x] = {prob(mech, x, OUT, ('dn', 'up'))}, "
              f"Pr[out | x'] = {prob(mech, xf, OUT, ('up', 'dn'))}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
