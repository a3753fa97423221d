"""The seed's constant against real inputs in binary64: a search, and its witness checked two ways
(printed figures, nothing asserted; docs/snap_tight.md, section 5).

The Coq statements of the seed's (12, 2) (`snap64_constant` of theories/Float/SnapSeed64.v) take the
inputs x, x' as any reals in [-B, B].  Off the float lattice the product's threshold
T = first float at or beyond c* - x is free for each input, so the lattice model of section 4 allows
about 6.3 per eta*D/lambda at Lambda near lambda, above the seed's 6 per eta*D/lambda for large B.

For one output k the excess of a pair splits: ln Pr[k | x] - ln Pr[k | x'] - (x - x')/lambda =
g(x) - g(x') with g(x) = ln Pr[k | x] - x/lambda (x closer to the bucket than x'), so a search needs
one exact probability per input, not per pair: `--search` samples real inputs near -B (dyadic, 60
random bits), keeps the best pair, then climbs each input alone (x to raise g, x' to lower it).
Every probability is exact (obligations/analysis/snap_thresholds.py).  `--check` recomputes the
witness below and runs the pipeline forwards at each threshold sample V and at succ V (ln rounded
from a 4p-bit evaluation, every other step exact): the thresholds must separate the bucket.

    python bench/snap_real_inputs.py --check
    python bench/snap_real_inputs.py --faithful 1500
      (the same parameters with a log within 1 ulp chosen against the claim: at each threshold it
      rounds ln u down or up, whichever widens the closer input's bucket and narrows the farther's)
    python bench/snap_real_inputs.py --faithful-ulps 300 1,2,3
      (the same with float inputs, a log within k ulps against the claim, and at Lambda = 2 lambda; one
      monotone log does all four thresholds: lnadv_k of theories/Float/SnapUlpsKRefuted.v, checked
      forwards by bench/snap_ulps_witness.py)
    python bench/snap_real_inputs.py --search 1048577 8 7/4 2 3000 1500 one [floats]
      (lambda = 1 - j*2^-53, B = 2^(e-1) + dB, output g - back, samples, climbing steps, the grid:
      one (Lambda = 1), lam (Lambda = lambda) or rho (Lambda = rho*lambda); `floats`: float inputs only)
"""
from __future__ import annotations

import math
import random
import sys
import time
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

# The witnesses (theories/Float/SnapSeedRealRefuted.v): lambda = 1 - 1048577*2^-53 (a float), then
# (Lambda, B, output index, x, x'): Lambda = 1 (the power of two at or above lambda, the libraries'
# grid) with B = 519/4, and Lambda = 1.05 lambda with B = 1031/4; two real inputs near -B each.
LAM = Fraction(9007199253692415, 2 ** 53)
WITNESSES = [
    (Fraction(1), Fraction(519, 4), 128,
     Fraction(-667600578954239577719425932922893223, 2 ** 112),
     Fraction(-10725785627697329202128951141300252345, 2 ** 116)),
    (Fraction(21, 20) * LAM, Fraction(1031, 4), 244,
     Fraction(-2662003362040506043538708153400258853, 2 ** 113),
     Fraction(-10658317048078384677967526071559295433, 2 ** 115)),
]
GRID, BOUND, OUT, X_CLOSE, X_FAR = WITNESSES[0]


def to_mpf(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def g_value(mech: T.Mechanism, k: int, x: int) -> mpmath.mpf | None:
    p = mech.prob(x, k)
    if p <= 0:
        return None
    with mpmath.workprec(200):
        return mpmath.log(to_mpf(p)) - to_mpf(Fraction(x, ONE) / mech.lam)


def excess_eta(mech: T.Mechanism, k: int, x_close: int, x_far: int) -> float:
    gc, gf = g_value(mech, k, x_close), g_value(mech, k, x_far)
    assert gc is not None and gf is not None
    return float((gc - gf) * mpmath.mpf(2) ** 53)


def climb(mech: T.Mechanism, k: int, x: int, up: bool, steps: int, rng: random.Random, lo: int, hi: int,
          scale: float, floats: bool = False) -> int:
    best = g_value(mech, k, x)
    assert best is not None
    for _ in range(steps):
        nx = x + math.floor(Fraction(scale * 10 ** rng.uniform(-4, 1) * rng.uniform(-1, 1)) * ONE)
        nx = FMT.round(Fraction(nx, ONE)) if floats else nx
        if not lo <= nx <= hi:
            continue
        v = g_value(mech, k, nx)
        if v is not None and (v > best if up else v < best):
            best, x = v, nx
    return x


def grid_of(lam: Fraction, grid_mode: str) -> Fraction:
    """one: Lambda = 1; lam: Lambda = lambda; a number rho: Lambda = rho*lambda (exact)."""
    if grid_mode == "one":
        return Fraction(1)
    return lam if grid_mode == "lam" else Fraction(grid_mode) * lam


def search(j: int, e: int, dB: Fraction, back: int, n: int, steps: int, grid_mode: str, floats: bool) -> None:
    lam = 1 - Fraction(j, 2 ** 53)
    bound = 2 ** (e - 1) + dB
    mech = T.Mechanism(FMT, lam, grid_of(lam, grid_mode), bound, "up")
    k = mech.g - back
    rng = random.Random(7)

    def near(x: int) -> int:
        return FMT.round(Fraction(x, ONE)) if floats else x

    xs = sorted({near(math.floor((-bound + 2 * Fraction(rng.getrandbits(60), 2 ** 60)) * ONE)) for _ in range(n)})
    best: tuple[mpmath.mpf, int, int] | None = None
    low: tuple[int, mpmath.mpf] | None = None
    for x in xs:                                   # x' < x: the farther input comes first
        g = g_value(mech, k, x)
        if g is None:
            continue
        if low is not None and (best is None or g - low[1] > best[0]):
            best = (g - low[1], low[0], x)
        if low is None or g < low[1]:
            low = (x, g)
    assert best is not None
    _, x_far, x_close = best
    scale = 2.0 ** (e + 1 - 52)                    # the spacing of the floats at the distance 2B
    x_close = climb(mech, k, x_close, True, steps, rng, x_far + 1, bound * ONE, scale, floats)
    x_far = climb(mech, k, x_far, False, steps, rng, -bound * ONE, x_close - 1, scale, floats)
    exc = excess_eta(mech, k, x_close, x_far)
    beta = float(bound / lam)
    print(f"lambda = {lam}, Lambda = {mech.grid}, B = {bound}, output {k}: excess {exc:.2f} eta, "
          f"{exc / (12 * beta + 2):.5f} of the seed's, {exc / (16 * beta):.5f} of Mironov's")
    print(f"  x = {Fraction(x_close, ONE)}, x' = {Fraction(x_far, ONE)}")


def forward_prob(mech: T.Mechanism, x: int, k: int) -> Fraction:
    """Pr[output k | x] for a bucket above both inputs' reach with the sign +1, from the thresholds
    of the sign -1, each checked by running the pipeline forwards at V and succ V."""
    total = Fraction(0)
    for kk, sgn in ((k, 1), (k + 1, -1)):
        assert mech.chain(x, kk, 1).prob == 0
        v = mech.chain(x, kk, -1).sample
        assert v is not None
        assert T.forward_index(mech, x, v, -1) >= kk > T.forward_index(mech, x, succ(v, FMT.prec), -1)
        total += sgn * Fraction(succ(v, FMT.prec), ONE)
    return total / 2


def check() -> None:
    for grid, bound, out, x_close, x_far in WITNESSES:
        mech = T.Mechanism(FMT, LAM, grid, bound, "up")
        probs = []
        for x in (x_close, x_far):
            xu = x * ONE
            assert xu.denominator == 1 and -bound <= x <= bound
            p = forward_prob(mech, int(xu), out)
            assert p == mech.prob(int(xu), out)
            probs.append(p)
        with mpmath.workprec(300):
            exc = (mpmath.log(to_mpf(probs[0] / probs[1])) - to_mpf((x_close - x_far) / LAM)) * mpmath.mpf(2) ** 53
            beta = to_mpf(bound / LAM)
            print(f"Lambda = {grid}, B = {bound}: Pr[{out} | x] = {probs[0]}, Pr[{out} | x'] = {probs[1]}")
            seed = 12 * beta + 2
            print(f"  excess {mpmath.nstr(exc, 10)} eta against the seed's 12 beta + 2 = {mpmath.nstr(seed, 10)} "
                  f"(ratio {mpmath.nstr(exc / seed, 6)}), Mironov's 16 beta = {mpmath.nstr(16 * beta, 10)}")


def faithful_tail(mech: T.Mechanism, x: int, k: int, mode: str, ulps: int = 1) -> Fraction:
    """Pr[grid index >= k | x, sign -1] when the log rounds ln u to nearest ("rn"), down ("dn") or up
    ("up") near this threshold: the last two are within 1 ulp, so a log within 1 ulp may choose either
    at each threshold (a faithful log chosen against the claim).  With `ulps` = k the log goes k - 1
    floats further the same way (DN then k - 1 floats down, UP then k - 1 floats up): within k ulps."""
    fmt = mech.fmt
    c, inc = mech.edge(k)
    n = T.last_at_or_below(fmt, x - c, inc)
    m1, inc1 = T.boundary_le(fmt, n)
    hi = T.last_at_or_below(fmt, m1 * ONE / mech.lam_f, inc1)        # the log's float threshold L
    if mode == "rn":
        m2, _ = T.boundary_le(fmt, hi)
    else:                                        # DN(ln u) <= L iff ln u < succ L; UP(ln u) <= L iff ln u <= L
        m2 = Fraction(_step(hi, ulps if mode == "dn" else ulps - 1, mode == "dn"))
    return Fraction(succ(T.floor_exp(fmt, m2 / ONE), FMT.prec), ONE)


def _step(f: int, k: int, up: bool) -> int:
    for _ in range(k):
        f = succ(f, FMT.prec) if up else pred(f, FMT.prec)
    return f


def faithful(n: int) -> None:
    """The witnesses' parameters with a log within 1 ulp chosen against the claim: the closer input's
    bucket widened at both ends (down at its near end, up at its far end), the farther one's narrowed;
    the best pair of n random real (then float) inputs near -B, and the witnesses' own pairs."""
    modes = {"close": ("dn", "up"), "far": ("up", "dn"), "rn": ("rn", "rn")}

    def g(mech: T.Mechanism, x: int, k: int, role: str) -> mpmath.mpf:
        near, far = modes[role]
        p = (faithful_tail(mech, x, k, near) - faithful_tail(mech, x, k + 1, far)) / 2
        with mpmath.workprec(200):
            return mpmath.log(to_mpf(p)) - to_mpf(Fraction(x, ONE) / mech.lam)

    for grid, bound, out, x_close, x_far in WITNESSES:
        mech = T.Mechanism(FMT, LAM, grid, bound, "up")
        beta = to_mpf(bound / LAM)
        pairs: list[tuple[str, mpmath.mpf]] = []
        for role_c, role_f in (("rn", "rn"), ("close", "far")):
            exc = g(mech, int(x_close * ONE), out, role_c) - g(mech, int(x_far * ONE), out, role_f)
            pairs.append((f"the witness's pair, log {'to nearest' if role_c == 'rn' else 'within 1 ulp'}", exc))
        for floats in (False, True):
            rng = random.Random(3)
            xs = sorted({math.floor((-bound + 2 * Fraction(rng.getrandbits(60), 2 ** 60)) * ONE) for _ in range(n)})
            if floats:
                xs = sorted({FMT.round(Fraction(x, ONE)) for x in xs})
            best: mpmath.mpf | None = None
            low: mpmath.mpf | None = None
            for x in xs:                       # the farther input x' < x comes first
                gc, gf = g(mech, x, out, "close"), g(mech, x, out, "far")
                if low is not None and (best is None or gc - low > best):
                    best = gc - low
                if low is None or gf < low:
                    low = gf
            assert best is not None
            pairs.append((f"{n} random {'float' if floats else 'real'} inputs, log within 1 ulp", best))
        for label, exc in pairs:
            e = exc * mpmath.mpf(2) ** 53
            print(f"Lambda = {float(grid):.6g}, B = {bound}, {label}: excess {float(e):.1f} eta, "
                  f"{float(e / (12 * beta + 2)):.4f} of the seed's, {float(e / (16 * beta)):.4f} of Mironov's")


def _g_ulps(mech: T.Mechanism, x: int, out: int, k: int, close: bool) -> mpmath.mpf:
    """ln Pr[out | x] - x/lambda, the log within k ulps widening (close) or narrowing the bucket."""
    near, far = ("dn", "up") if close else ("up", "dn")
    p = (faithful_tail(mech, x, out, near, k) - faithful_tail(mech, x, out + 1, far, k)) / 2
    with mpmath.workprec(200):
        return mpmath.log(to_mpf(p)) - to_mpf(Fraction(x, ONE) / mech.lam)


def faithful_ulps(n: int, ks: list[int]) -> None:
    """The excess a log within k ulps chosen against the claim reaches, k = 1, 2, ..., float inputs
    near -B (n random, the best pair), at the witnesses' grids and at Lambda = 2 lambda, the grid
    where the routes' slope (4 + 8k)(r + 1)/(r - 1) is least: is the dependence on k real there?"""
    grids = [(g, b, o) for g, b, o, _, _ in WITNESSES] + [(2 * LAM, Fraction(1031, 4), 128),
                                                         (2 * LAM, Fraction(519, 4), 64)]
    for grid, bound, out in grids:
        mech = T.Mechanism(FMT, LAM, grid, bound, "up")
        beta = to_mpf(bound / LAM)
        rng = random.Random(5)
        xs = sorted({FMT.round(Fraction(math.floor((-bound + 2 * Fraction(rng.getrandbits(60), 2 ** 60)) * ONE),
                                        ONE)) for _ in range(n)})
        for k in ks:
            best: mpmath.mpf | None = None
            low: mpmath.mpf | None = None
            for x in xs:
                gc, gf = _g_ulps(mech, x, out, k, True), _g_ulps(mech, x, out, k, False)
                if low is not None and (best is None or gc - low > best):
                    best = gc - low
                if low is None or gf < low:
                    low = gf
            assert best is not None
            e = best * mpmath.mpf(2) ** 53
            print(f"Lambda = {float(grid / LAM):.4g} lambda, B = {bound}, output {out}, k = {k}: excess "
                  f"{float(e):.1f} eta, {float(e / (12 * beta + 2)):.4f} of the seed's, "
                  f"{float(e / (16 * beta)):.4f} of Mironov's", flush=True)


def main(argv: list[str]) -> None:
    t0 = time.perf_counter()
    if argv and argv[0] == "--check":
        check()
    elif argv and argv[0] == "--faithful":
        faithful(int(argv[1]) if len(argv) > 1 else 1500)
    elif argv and argv[0] == "--faithful-ulps":
        faithful_ulps(int(argv[1]), [int(k) for k in argv[2].split(",")])
    elif argv and argv[0] == "--search":
        j, e, dB, back, n, steps, grid_mode = argv[1:8]
        search(int(j), int(e), Fraction(dB), int(back), int(n), int(steps), grid_mode, argv[8:] == ["floats"])
    else:
        print(__doc__)
        return
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
