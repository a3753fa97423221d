"""A witness against Mironov's constant for a log within k >= 2 ulps at Lambda = 2 lambda, binary64 inputs
(theories/Float/SnapUlpsKRefuted.v; docs/snap_tight.md, section 5).

`snap64_constant_ulps k` (SnapSeedUlps.v) quantifies over every log within k ulps of ln on the floats
of (0, 1).  For k >= 2 the log of SnapUlpsKRefuted.v, `lnadv_k`, is DN(ln u) shifted k - 1 floats down
below s1, and from s1 on the median of (DN(ln u) shifted k - 1 floats down, a float F, UP(ln u) shifted
k - 1 floats up): between the two shifted roundings, so within k ulps, and monotone in u (a switch from
"k - 1 floats up" straight to "k - 1 floats down" would not be: the median goes through F).  Below
e^F (ln u + k ulps < F) it is the up-shifted one, above it the down-shifted one.  At the four
thresholds of a pair it is what `bench/snap_real_inputs.py --faithful-ulps` chooses: the closer
input's bucket widened, the farther one's narrowed.  The script searches float inputs near -B, then
prints every number the Coq file needs: the four samples u1 >= u2 (closer x), u3 >= u4 (farther x'),
the log's float L, the product's float N and the sum's float t at each (each inequality strict,
checked here exactly), the choice of s1 and F, the pipeline run forwards at each sample with this log
(mpmath for ln at 400 bits), and the excess, exact and as Coq brackets it (U*'s factor 1/(1 - 2 eta)).

    python bench/snap_ulps_witness.py [samples] [k] [B] [output] [rho] [lambda]
      (defaults 300 2 1031/4 128 2 and lambda = 1 - 1048577*2^-53: Lambda = rho*lambda; rho `pow2`: the
      power of two at or above lambda, the libraries' grid)
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


def steps(f: int, n: int, up: bool) -> int:
    for _ in range(n):
        f = succ(f, FMT.prec) if up else pred(f, FMT.prec)
    return f


def threshold(mech: T.Mechanism, x: int, k: int, mode: str, ulps: int) -> tuple[int, int, int]:
    """Sign -1, "index >= k": (N, L, V) in units: the product <= N, the log <= L, u <= V.  Mode dn (the log
    is DN(ln u) shifted ulps - 1 floats down): log <= L iff ln u < succ^ulps L; mode up (UP shifted up):
    iff ln u <= pred^(ulps - 1) L."""
    c, inc = mech.edge(k)
    n = T.last_at_or_below(FMT, x - c, inc)
    m1, inc1 = T.boundary_le(FMT, n)
    hi = T.last_at_or_below(FMT, m1 * ONE / mech.lam_f, inc1)
    m2 = steps(hi, ulps, True) if mode == "dn" else steps(hi, ulps - 1, False)
    return n, hi, T.floor_exp(FMT, Fraction(m2, ONE))


def prob(mech: T.Mechanism, x: int, out: int, modes: tuple[str, str], ulps: int) -> Fraction:
    v = threshold(mech, x, out, modes[0], ulps)[2]
    v2 = threshold(mech, x, out + 1, modes[1], ulps)[2]
    return Fraction(succ(v, FMT.prec) - succ(v2, FMT.prec), ONE) / 2


def g(mech: T.Mechanism, x: int, out: int, close: bool, ulps: int) -> mpmath.mpf:
    modes = ("dn", "up") if close else ("up", "dn")
    with mpmath.workprec(200):
        p = prob(mech, x, out, modes, ulps)
        return mpmath.log(mpmath.mpf(p.numerator) / p.denominator) - mpmath.mpf(x) / ONE / (
            mpmath.mpf(mech.lam.numerator) / mech.lam.denominator)


def search(mech: T.Mechanism, out: int, ulps: int, n: int) -> tuple[int, int]:
    rng = random.Random(5)
    b = mech.bound
    xs = sorted({FMT.round(Fraction(math.floor((-b + 2 * Fraction(rng.getrandbits(60), 2 ** 60)) * ONE), ONE))
                 for _ in range(n)})
    best: tuple[mpmath.mpf, int, int] | None = None
    low: tuple[mpmath.mpf, int] | None = None
    for x in xs:                                  # the farther input x' < x comes first
        gc, gf = g(mech, x, out, True, ulps), g(mech, x, out, False, ulps)
        if low is not None and (best is None or gc - low[0] > best[0]):
            best = (gc - low[0], x, low[1])
        if low is None or gf < low[0]:
            low = (gf, x)
    assert best is not None
    return best[1], best[2]


def ln_units(u: int) -> mpmath.mpf:
    return mpmath.log(mpmath.mpf(u) / ONE) * ONE


def dn_up(u: int) -> tuple[int, int]:
    """DN(ln u), UP(ln u) in units (ln u of a float u in (0, 1) is never a float)."""
    with mpmath.workprec(400):
        y = ln_units(u)
        q = Fraction(int(mpmath.floor(y * 2 ** 80)), 2 ** 80)
    d = T.floor_float(FMT, q)
    return d, succ(d, FMT.prec)


def lnadv_k(u: int, s1: int, f: int, ulps: int) -> int:
    """The log of SnapUlpsKRefuted.v in units: DN shifted down below s1, else the median with F."""
    d, up = dn_up(u)
    a, b = steps(d, ulps - 1, False), steps(up, ulps - 1, True)
    return a if u < s1 else max(a, min(f, b))


def forward(mech: T.Mechanism, x: int, u: int, s1: int, f: int, ulps: int) -> int:
    """The grid index of fl(x - fl(lam * lnadv_k(u))), sign -1, run forwards."""
    ell = lnadv_k(u, s1, f, ulps)
    n = FMT.round(Fraction(mech.lam_f * ell, ONE * ONE))
    w = Fraction(FMT.round(Fraction(x - n, ONE)), ONE)
    return math.floor(w / mech.grid + Fraction(1, 2))      # ties up


def main(n: int, ulps: int, bound: Fraction, out: int, rho: Fraction | None, lam: Fraction = LAM) -> None:
    grid = rho * lam if rho is not None else Fraction(2) ** math.ceil(math.log2(lam))
    mech = T.Mechanism(FMT, lam, grid, bound, "up")
    x, xf = search(mech, out, ulps, n)
    print(f"lambda = {lam}, Lambda = {grid} = {float(grid / lam):.6g} lambda, B = {bound}, output {out}, k = {ulps}")
    print(f"x = {me(Fraction(x, ONE))} ~ {float(Fraction(x, ONE))}, "
          f"x' = {me(Fraction(xf, ONE))} ~ {float(Fraction(xf, ONE))}")
    rows = []
    # (name, input, edge, mode, side): ge = "index >= edge holds at V", lt = "fails at succ V"
    for name, xi, k, mode, side in (("u1", x, out, "dn", "ge"), ("u2", x, out + 1, "up", "lt"),
                                    ("u3", xf, out, "up", "lt"), ("u4", xf, out + 1, "dn", "ge")):
        nn, hi, v = threshold(mech, xi, k, mode, ulps)
        t0 = T.first_at_or_above(FMT, (k - Fraction(1, 2)) * grid * ONE, True)   # ties up
        if side == "ge":
            u, L, N, t = v, hi, nn, t0
            assert mech.lam * Fraction(L, ONE) < Fraction(N + succ(N, 53), 2 * ONE)
            assert Fraction(xi, ONE) - Fraction(N, ONE) > Fraction(t + pred(t, 53), 2 * ONE)
            assert (k - Fraction(1, 2)) * grid <= Fraction(t, ONE)
        else:
            u, L, N, t = succ(v, 53), succ(hi, 53), succ(nn, 53), pred(t0, 53)
            assert mech.lam * Fraction(L, ONE) > Fraction(N + pred(N, 53), 2 * ONE)
            assert Fraction(xi, ONE) - Fraction(N, ONE) < Fraction(t + succ(t, 53), 2 * ONE)
            assert Fraction(t, ONE) < (k - Fraction(1, 2)) * grid
        # the log's side, strict: dn: ln u < succ^k L (so DN shifted down <= L); up: ln u > pred^k L
        with mpmath.workprec(400):
            y = ln_units(u)
            if mode == "dn":
                assert y < steps(L, ulps, True)
            else:
                assert y > steps(L, ulps, False)
        rows.append((name, u, L, N, t, mode))
        print(f"{name}: edge {k}, mode {mode}, u = {me(Fraction(u, ONE))}, L = {me(Fraction(L, ONE))}, "
              f"N = {me(Fraction(N, ONE))}, t = {me(Fraction(t, ONE))}")
    u1, u2, u3, u4 = (r[1] for r in rows)
    assert u4 < u2 and u4 < u3 and max(u2, u3) < u1
    # s1 = u2 if u2 <= u3 (then u4 < s1), else u3; F: a float between the far input's L at u3 and the
    # close input's L at u1 (the median is >= min(F, UP-shifted) at u2, u3, <= max(F, DN-shifted) at u1).
    s1 = min(u2, u3)
    l1, l3 = rows[0][2], rows[2][2]
    assert rows[1][2] <= l1 and l3 < l1
    f = FMT.round(Fraction(l1 + max(l3, rows[1][2]), 2 * ONE))
    f = T.floor_float(FMT, Fraction(f))
    assert max(l3, rows[1][2]) <= f <= l1, (l3, f, l1)
    print(f"s1 = {me(Fraction(s1, ONE))} (= u{2 if u2 <= u3 else 3}), "
          f"F = {me(Fraction(f, ONE))} ~ {float(Fraction(f, ONE))}")
    with mpmath.workprec(400):
        for name, u, L, _, _, mode in rows:
            val = lnadv_k(u, s1, f, ulps)
            assert (val <= L) if mode == "dn" else (val >= L), name
            print(f"  lnadv_k({name}) = {me(Fraction(val, ONE))} {'<=' if mode == 'dn' else '>='} L")
        e_f = mpmath.exp(mpmath.mpf(f) / ONE) * ONE
        print(f"  e^F between: u3 < e^F <= u1: {u3 < e_f <= u1}; u2 < e^F: {u2 < e_f}")
        assert u3 < e_f <= u1 and u2 < e_f
    # forwards: index >= edge at u1 (x), not at u2 for edge+1 ... as the Coq lemmas state
    assert forward(mech, x, u1, s1, f, ulps) >= out and forward(mech, x, u2, s1, f, ulps) < out + 1
    assert forward(mech, xf, u3, s1, f, ulps) < out and forward(mech, xf, u4, s1, f, ulps) >= out + 1
    # and the other side of each threshold: the search's probabilities are this log's exactly (it is monotone)
    assert forward(mech, x, succ(u1, 53), s1, f, ulps) < out
    assert forward(mech, x, pred(u2, 53), s1, f, ulps) >= out + 1
    assert forward(mech, xf, pred(u3, 53), s1, f, ulps) >= out
    assert forward(mech, xf, succ(u4, 53), s1, f, ulps) < out + 1
    print("forwards: index(x, u1) >= out > index(x, succ u1), index(x, pred u2) > out >= index(x, u2), "
          "index(x', pred u3) >= out > index(x', u3), index(x', u4) > out >= index(x', succ u4)")
    with mpmath.workprec(300):
        eta = mpmath.mpf(2) ** -53
        pc = (mpmath.mpf(u1) - mpmath.mpf(u2) / (1 - 2 * eta)) / ONE / 2
        pf = (mpmath.mpf(u3) / (1 - 2 * eta) - mpmath.mpf(u4)) / ONE / 2
        dq = Fraction(x - xf, ONE) / mech.lam
        d = mpmath.mpf(dq.numerator) / dq.denominator
        exc = (mpmath.log(pc / pf) - d) / eta
        beta = mpmath.mpf(bound.numerator) / bound.denominator / (mpmath.mpf(lam.numerator) / lam.denominator)
        print(f"bracketed excess {mpmath.nstr(exc, 10)} eta; Mironov 16 beta = {mpmath.nstr(16 * beta, 8)} "
              f"(ratio {mpmath.nstr(exc / (16 * beta), 5)}); seed 12 beta + 2 = {mpmath.nstr(12 * beta + 2, 8)}")
        pcx, pfx = prob(mech, x, out, ("dn", "up"), ulps), prob(mech, xf, out, ("up", "dn"), ulps)
        q = pcx / pfx
        exact = mpmath.log(mpmath.mpf(q.numerator) / q.denominator) - d
        print(f"exact excess {mpmath.nstr(exact / eta, 10)} eta; Pr[out | x] = {pcx}, Pr[out | x'] = {pfx}")
        for a in (16, 20, 21, 24):
            print(f"  against a = {a}: key margin {mpmath.nstr(exc - a * beta, 6)} eta")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 300, int(args[1]) if len(args) > 1 else 2,
         Fraction(args[2]) if len(args) > 2 else Fraction(1031, 4), int(args[3]) if len(args) > 3 else 128,
         (None if args[4] == "pow2" else Fraction(args[4])) if len(args) > 4 else Fraction(2),
         Fraction(args[5]) if len(args) > 5 else LAM)
