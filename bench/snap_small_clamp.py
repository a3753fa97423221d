"""Small clamps B << lambda: the seed's (12, 2) and Mironov's (16, 0) are false in binary64 (printed
figures, nothing asserted; docs/snap_tight.md, section 5 "Small clamps").

With B < Lambda/2 the outputs are -B, 0 and B, and B is output exactly when the sign -1's rounded sum
reaches the first float at or above Lambda/2: for the samples u <= V(x) below one threshold
(obligations/analysis/snap_thresholds.py walks it backwards).  V(x) is a step function of x: it moves
when the noise threshold N = the last float at or below x - c* moves by one float, and then by one or
two or three floats of U* (at lambda = 1: N near 1, one float of N is 2*eta, u near e^-1 has a
relative spacing of 1.36*eta; at lambda ~ 1.921 the log's threshold moves by two floats as well).
Two inputs on either side of such a step, one ulp apart, differ in probability by a factor up to
about 1 + 2.9*eta (lambda = 1) or 1 + 4.9*eta (lambda ~ 1.921) while the seed allows
2*eta + 12*eta*B/lambda and Mironov 16*eta*B/lambda: both are false for small enough B/lambda
(Mironov states lambda < B; the seed and `snap64_constant` any B).

    python bench/snap_small_clamp.py --scan 2000       the largest excess found per (lambda, Lambda, B)
    python bench/snap_small_clamp.py --check           the eight witnesses of SnapSmallClampRefuted.v
    python bench/snap_small_clamp.py --scan-range N SEED LO HI
                                                       N random steps with x/lambda in [LO, HI] at lambda ~ 1.921,
                                                       Lambda = 2 lambda: the widest B each constant is false at
    python bench/snap_small_clamp.py --search N SEED LO HI [RHO WIDTH STEPS]
                                                       N random (lambda, run of WIDTH steps) with |x|/lambda in
                                                       [LO, HI], Lambda = RHO lambda (default 2, one step): every
                                                       pair across 1..STEPS steps, the largest excess per 0.01 of
                                                       |x'|/lambda, float inputs and real inputs 2^-110 off the
                                                       steps, against the first-order caps (below), and the widest
                                                       range each constant is refuted over
    python bench/snap_small_clamp.py --long N SEED LO HI WIDTH
                                                       N random lambda just above 2/(1 + beta) (beta in [LO, HI]):
                                                       the best pair of a run of WIDTH steps from |x| = beta lambda,
                                                       in one pass (g_j = ln Pr[B | step j] + j kappa, kappa the noise
                                                       float over lambda: the best pair is max g_j1 - g_j2 + kappa)
    python bench/snap_small_clamp.py --middle N SEED LO HI
                                                       the same for the middle output 0 (two thresholds)

Why the search stops (first order; docs/snap_tight.md section 5 "Small clamps"): for B < lambda <= Lambda the
outputs are -B, 0 and B only.  B's probability is succ V / 2, one threshold; one step of x moves the noise
threshold N by one float (relative spacing <= 2 eta), the log's threshold L ~ 1 + |x|/lambda by at most
ceil(2 L) = 2 floats of 2 eta (L in [1, 2)), so ln u by at most 4 eta, and u ~ e^-L in [1/4, 3/8) by at most
ceil(8 u) = 3 floats of eta/2: one step's excess is at most 1.5 eta/u ~ 1.5 e^(1 + |x|/lambda) eta (`cap_eta`),
less |x - x'|/lambda (an ulp of x over lambda for floats).  A pair m steps apart pays m - 1 floats of N over
lambda and collects each threshold's rounding once at each end: at most ulp_N/lambda + ulp_L + ulp_u/u, about
2 L + 2 + e^L/2 eta for reals, 6.77 eta at most, and 6.23 eta for floats (`cap_any_eta`).  So no pair refutes
Mironov's 16 beta from beta ~ 0.389 (floats), 0.423 (reals), nor the seed's 12 beta + 2 from ~ 0.352, 0.397.
The middle output's probability is above 0.3 and its thresholds move by a few floats of U* per step.
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

# theories/Float/SnapSmallClampRefuted.v: lambda = 8651856398750854*2^-52 (~ 1.921), Lambda = 2 lambda;
# (B, x, x', the claim (a, b)); the inputs are binary64 floats one ulp apart, x' the farther from Lambda/2.
LAM = Fraction(8651856398750854, 2 ** 52)
WITNESSES = [
    (Fraction(6488892299063141, 2 ** 54), Fraction(-4510821348273242, 2 ** 54), Fraction(-4510821348273243, 2 ** 54),
     12, 2),
    (LAM / 4, Fraction(-8057256445428266, 2 ** 54), Fraction(-8057256445428267, 2 ** 54), 16, 0),
    # the seed's wider one (--scan-range 4000 23 -0.31 -0.2): to beta0 = 0.245
    (Fraction(8478819270775837, 2 ** 54), Fraction(-8433329091849474, 2 ** 54), Fraction(-8433329091849475, 2 ** 54),
     12, 2),
]
# Mironov's widest, at another lambda (a scan of 30 random even significands): lambda ~ 1.511, to B = lambda/3
LAM_MT = Fraction(6804446347951172, 2 ** 52)
WITNESS_MT = (Fraction(4536297565300782, 2 ** 53), Fraction(-8996229157737794, 2 ** 54),
              Fraction(-8996229157737795, 2 ** 54), 16, 0)

# Pairs several steps apart (`small_clamp_false_g`, found by --search with runs of steps): (prefix, lambda, B, x, x',
# a, b, beta0, floats, Pr[B | x] and Pr[B | x'] in 2^-55); the sum of x and its noise threshold at c* (floats: the
# tie, lambda's significand even) or 2^-110 above it (reals), x' just below a later step.
WITNESSES_PAIRS = [
    # Mironov's to beta0 = 0.38, binary64 floats 1961 steps apart
    ("mf", Fraction(6832853291606282, 2 ** 52), Fraction(10385937003241550, 2 ** 54),
     Fraction(-638953105497683037668774489620480, 2 ** 110), Fraction(-638953105498812972800883237584896, 2 ** 110),
     16, 0, Fraction(19, 50), True, 4790988573566913, 4790988573564161),
    # the seed's to beta0 = 0.34, the same floats
    ("sf", Fraction(6832853291606282, 2 ** 52), Fraction(9292680476584544, 2 ** 54),
     Fraction(-638953105497683037668774489620480, 2 ** 110), Fraction(-638953105498812972800883237584896, 2 ** 110),
     12, 2, Fraction(17, 50), True, 4790988573566913, 4790988573564161),
    # Mironov's to beta0 = 0.415, reals 878 steps apart
    ("mr", Fraction(6645623350636014, 2 ** 52), Fraction(11031734762055784, 2 ** 54),
     Fraction(-738293643596848068926587797503999, 2 ** 110), Fraction(-738293643597353625006357899902977, 2 ** 110),
     16, 0, Fraction(83, 200), False, 4507461474169748, 4507461474168555),
    # the seed's to beta0 = 0.3875, the same reals
    ("sr", Fraction(6645623350636014, 2 ** 52), Fraction(10300716193485822, 2 ** 54),
     Fraction(-738293643596848068926587797503999, 2 ** 110), Fraction(-738293643597353625006357899902977, 2 ** 110),
     12, 2, Fraction(31, 80), False, 4507461474169748, 4507461474168555),
]


def top_prob(mech: T.Mechanism, x: int) -> Fraction:
    """Pr[output B | x] for B < Lambda/2: the sign -1 alone (the sign +1 stays at or below x <= B)."""
    assert mech.g == 1 and 2 * mech.bound < mech.grid
    assert mech.chain(x, 1, 1).prob == 0
    return mech.chain(x, 1, -1).prob / 2


def checked_top_prob(mech: T.Mechanism, x: int) -> Fraction:
    """`top_prob`, its sample threshold V checked by running the pipeline forwards at V and succ V."""
    v = mech.chain(x, 1, -1).sample
    assert v is not None
    assert T.forward_index(mech, x, v, -1) >= 1 > T.forward_index(mech, x, succ(v, FMT.prec), -1)
    p = top_prob(mech, x)
    assert p == Fraction(succ(v, FMT.prec), ONE) / 2
    return p


def excess_eta(mech: T.Mechanism, x: int, x_far: int) -> float:
    """ln(Pr[B | x]/Pr[B | x']) - |x - x'|/lambda, in units of eta."""
    r = top_prob(mech, x) / top_prob(mech, x_far)
    with mpmath.workprec(300):
        d = Fraction(abs(x - x_far), ONE) / mech.lam
        e = mpmath.log(mpmath.mpf(r.numerator) / r.denominator) - mpmath.mpf(d.numerator) / d.denominator
        return float(e * mpmath.mpf(2) ** 53)


def best_step(lam: Fraction, grid: Fraction, bound: Fraction, n: int, rng: random.Random) -> tuple[float, int, int]:
    """The largest excess over n random steps of V(x): x = c* + f for a float f, x' the float below x."""
    mech = T.Mechanism(FMT, lam, grid, bound, "up")
    c, _ = mech.edge(1)
    lo = T.first_at_or_above(FMT, -bound * ONE - c, True)
    hi = T.last_at_or_below(FMT, bound * ONE - c, True)
    best = (float("-inf"), 0, 0)
    for _ in range(n):
        f = T.floor_float(FMT, Fraction(lo + rng.randrange(max(1, hi - lo))))
        x = c + f
        if x.denominator != 1 or not -bound * ONE < x - 1 < x <= bound * ONE:
            continue
        x_int = int(x)
        far = pred(x_int, FMT.prec)     # a float: x is one (x - c* = f), the float below is in the cell below
        if FMT.round(Fraction(x_int, ONE)) != x_int:
            continue
        best = max(best, (excess_eta(mech, x_int, far), x_int, far))
    return best


def scan(n: int) -> None:
    rng = random.Random(1)
    for lam in (Fraction(1), LAM):
        for rho in (Fraction(2), Fraction(3, 2), Fraction(1)):
            for beta in (Fraction(1, 64), Fraction(1, 16), Fraction(1, 8), Fraction(3, 16), Fraction(1, 4)):
                if 2 * beta >= rho:
                    continue
                bound = Fraction(T.ceil_float(FMT, beta * lam * ONE), ONE)
                e, _, _ = best_step(lam, rho * lam, bound, n, rng)
                print(f"lambda = {float(lam):.4f}, Lambda = {rho} lambda, B = {beta} lambda: excess {e:.4f} eta, "
                      f"float inputs one ulp apart; seed's 12B/lambda + 2 = {float(12 * bound / lam + 2):.4f}, "
                      f"Mironov's 16B/lambda = {float(16 * bound / lam):.4f}")


def check() -> None:
    for lam, (bound, x, x_far, a, b) in [(LAM, w) for w in WITNESSES] + [(LAM_MT, WITNESS_MT)]:
        mech = T.Mechanism(FMT, lam, 2 * lam, bound, "up")
        xi, fi = int(x * ONE), int(x_far * ONE)
        assert FMT.round(x) == xi and FMT.round(x_far) == fi and pred(xi, FMT.prec) == fi
        pc, pf = checked_top_prob(mech, xi), checked_top_prob(mech, fi)
        print(f"B = {bound}: x = {x}, x' = {x_far} (floats, one ulp apart); Pr[B | x] = {pc}, "
              f"Pr[B | x'] = {pf}; excess {excess_eta(mech, xi, fi):.4f} eta against ({a}, {b}): "
              f"{float(a * bound / lam + b):.4f} eta")
    for _, lam, bound, x, x_far, a, b, beta0, floats, _, _ in WITNESSES_PAIRS:
        mech = T.Mechanism(FMT, lam, 2 * lam, bound, "up")
        xi, fi = int(x * ONE), int(x_far * ONE)
        pc, pf = checked_top_prob(mech, xi), checked_top_prob(mech, fi)
        print(f"lambda = {lam}, B = {bound} (>= {beta0} lambda): {'floats' if floats else 'reals'} x = {x}, "
              f"x' = {x_far}; Pr[B | x] = {pc}, Pr[B | x'] = {pf}; excess {excess_eta(mech, xi, fi):.4f} eta "
              f"against ({a}, {b}): {float(a * bound / lam + b):.4f} eta")


REAL_GAP = 2 ** (1074 - 110)    # the real inputs' distance from the threshold, 2^-110, in units


def step_pair(mech: T.Mechanism, n: int, real: bool) -> tuple[int, int]:
    """The two inputs on either side of the step of the noise threshold at the float n < 0 (the sum x + |n| reaches
    c*, x' + |n| does not): reals c* + n +- 2^-110, or the first float at or above c* + n and the float below."""
    c, _ = mech.edge(1)
    t = c + n
    assert t.denominator == 1
    if real:
        return int(t) + REAL_GAP, int(t) - REAL_GAP
    x = T.first_at_or_above(FMT, t, True)
    return x, pred(x, FMT.prec)


def cap_any_eta(beta: float, rho: Fraction = Fraction(2), floats: bool = False) -> float:
    """The first-order cap of the clamped output's excess (in eta) for any pair of inputs whose closer one is at
    |x|/lambda = beta: each of the three thresholds' roundings at most one float, ulp_T/lambda (T ~ lambda L the
    noise's, L ~ rho/2 + beta), ulp_L and ulp_u/u (u ~ e^-L); the pair's distance cancels the rest.  Floats pay
    ulp(x)/lambda more: the largest over lambda in [1, 2) (the rest scales), where T's and x's binades decide."""
    big_l = float(rho) / 2 + beta
    u = math.exp(-big_l)
    rest = 2.0 ** (math.floor(math.log2(big_l)) + 1) + 2.0 ** (math.floor(math.log2(u)) + 1) / u

    def at(lam: float) -> float:
        ulp_t = 2.0 ** (math.floor(math.log2(lam * big_l)) + 1)
        ulp_x = 2.0 ** (math.floor(math.log2(lam * beta)) + 1) if floats and beta > 0 else 0.0
        return (ulp_t - ulp_x) / lam + rest

    if not floats:
        return 2 * big_l + rest
    edges = [2.0 ** k / big_l for k in range(0, 3)] + [2.0 ** k / beta for k in range(-3, 2)] if beta > 0 else []
    grid = [1 + i / 2000 for i in range(2000)] + [e * (1 + 1e-9) for e in edges if 1 <= e < 2]
    return max(at(lam) for lam in grid)


def cap_eta(beta: float, rho: Fraction = Fraction(2)) -> float:
    """The first-order cap of one step's excess (in eta) from inputs at |x|/lambda = beta, Lambda = rho lambda:
    the log's threshold L ~ rho/2 + beta moves by k_L <= ceil(2 L / ulp_L) of its floats (ulp_L = 2^(j+1) eta
    for L in [2^j, 2^(j+1)); the noise's threshold by one float, at most 2 eta relative), u ~ e^-L by
    k_u <= ceil(k_L ulp_L u / ulp_u) floats (ulp_u = 2^(i+1) eta for u in [2^i, 2^(i+1))): k_u ulp_u / u."""
    big_l = float(rho) / 2 + beta
    u = math.exp(-big_l)
    ulp_l = 2.0 ** (math.floor(math.log2(big_l)) + 1)
    ulp_u = 2.0 ** (math.floor(math.log2(u)) + 1)
    k_l = math.ceil(2 * big_l / ulp_l)
    return math.ceil(k_l * ulp_l * u / ulp_u) * ulp_u / u


Row = tuple[str, int, float, float, int, int, int, int]


def window_pairs(mech: T.Mechanism, n0: int, width: int, steps: int) -> list[tuple[str, float, int, int, int]]:
    """Every pair across 1..steps consecutive steps of the noise threshold from the float n0 < 0 on (width steps in
    all): (kind, excess, m, x, x'), x' < x; reals 2^-110 off the steps, floats the first at or above c* + n and the
    float below the m-th step (x' + |n| just below c*, x + |n| at it: the tie, lambda's significand even)."""
    c, _ = mech.edge(1)
    ns = [n0]
    for _ in range(width):
        ns.append(pred(ns[-1], FMT.prec))
    probs = [top_prob(mech, int(c + n) + REAL_GAP) for n in ns]
    firsts = [T.first_at_or_above(FMT, c + n, True) for n in ns]
    out: list[tuple[str, float, int, int, int]] = []
    with mpmath.workprec(200):
        logs = [mpmath.log(mpmath.mpf(p.numerator) / p.denominator) for p in probs]
        inv = 1 / (mpmath.mpf(mech.lam.numerator) / mech.lam.denominator * ONE)
        for j in range(width):
            for m in range(1, min(width - j, steps) + 1):
                for kind in ("float", "real"):
                    if kind == "real":
                        x, far = int(c + ns[j]) + REAL_GAP, int(c + ns[j + m - 1]) - REAL_GAP
                    else:
                        x, far = firsts[j], pred(firsts[j + m - 1], FMT.prec)
                        if far < c + ns[j + m]:
                            continue
                    e = (logs[j] - logs[j + m] - (x - far) * inv) * mpmath.mpf(2) ** 53
                    out.append((kind, float(e), m, x, far))
    return out


def search(n: int, seed: int, lo: float, hi: float, rho: Fraction, width: int = 1, steps: int = 1) -> list[Row]:
    """Random lambda (an even significand; two in three with the noise threshold in [2, 4), where one float of it
    moves L by up to two floats) and random runs of `width` steps with |x|/lambda in [lo, hi]: every pair across
    1..`steps` steps, the best excess per 0.01 of |x'|/lambda."""
    rng = random.Random(seed)
    best: dict[tuple[str, int], tuple[float, float, int, int, int, int]] = {}
    for i in range(n):
        b = lo + (hi - lo) * rng.random()
        low = 2 / (float(rho) / 2 + b) if i % 3 else 1.0
        sig = 2 * rng.randrange(int(min(low, 1.999) * 2 ** 51), 2 ** 52)
        lam = Fraction(sig, 2 ** 52)
        mech = T.Mechanism(FMT, lam, rho * lam, lam * rho * Fraction(49, 100), "up")
        c, _ = mech.edge(1)
        n0 = T.floor_float(FMT, -(c + Fraction(b) * lam * ONE))
        for kind, e, m, x, far in window_pairs(mech, n0, width, steps):
            beta = float(Fraction(-far, ONE) / lam)
            key = (kind, int(beta * 100))
            if e > best.get(key, (-math.inf,))[0]:
                best[key] = (e, beta, m, sig, x, far)
    return [(k[0], k[1], *v) for k, v in sorted(best.items())]


def reach(rows: list[Row], a: int, b: int) -> dict[str, tuple[float, Row]]:
    """Per kind, the row refuting (a, b) over the widest range: B from |x'| up to (excess - b)*lambda/a."""
    out: dict[str, tuple[float, Row]] = {}
    for row in rows:
        r = (row[2] - b) / a
        if r >= row[3] and r > out.get(row[0], (-math.inf,))[0]:
            out[row[0]] = (r, row)
    return out


def print_search(rows: list[Row], rho: Fraction) -> None:
    for kind, _, e, beta, m, sig, x, far in rows:
        cap = cap_any_eta(beta, rho, kind == "float")
        print(f"{kind:5s} |x'| = {beta:.5f} lambda: excess {e:.4f} eta over {m} step(s) (one-step cap "
              f"{cap_eta(beta, rho):.3f}, any pair {cap:.3f}); Mironov's 16 beta to "
              f"{e / 16:.5f}, the seed's to {(e - 2) / 12:.5f}; lambda = {sig}*2^-52, x = {x}, x' = {far} (units)")
    for name, a, b in (("Mironov's (16, 0)", 16, 0), ("the seed's (12, 2)", 12, 2)):
        for kind, (r, row) in sorted(reach(rows, a, b).items()):
            print(f"{name} false with {kind} inputs up to beta0 = {r:.5f} (|x'| = {row[3]:.5f} lambda, "
                  f"excess {row[2]:.4f} eta over {row[4]} step(s))")


def best_pair_of_run(mech: T.Mechanism, n0: int, width: int) -> tuple[float, int, int]:
    """The pair of a run of `width` steps from the noise float n0 < 0 with the largest excess for real inputs:
    (excess in eta, j1, j2), x 2^-110 above step j1, x' 2^-110 below step j2 - 1 (so past j2 - 1 steps)."""
    c, _ = mech.edge(1)
    n = n0
    ulp_n = n0 - pred(n0, FMT.prec)
    with mpmath.workprec(160):
        kappa = mpmath.mpf(ulp_n) / ONE / (mpmath.mpf(mech.lam.numerator) / mech.lam.denominator)
        best: tuple[mpmath.mpf, int, int] = (mpmath.mpf(-1), 0, 0)
        top: tuple[mpmath.mpf, int] = (mpmath.mpf("-inf"), 0)
        for j in range(width):
            p = top_prob(mech, int(c + n) + REAL_GAP)
            g = mpmath.log(mpmath.mpf(p.numerator) / p.denominator) + j * kappa
            if j > 0 and top[0] - g > best[0]:
                best = (top[0] - g, top[1], j)
            if g > top[0]:
                top = (g, j)
            n = pred(n, FMT.prec)
        return float((best[0] + kappa) * mpmath.mpf(2) ** 53), best[1], best[2]


def long_runs(n: int, seed: int, lo: float, hi: float, width: int) -> None:
    """Random lambda with the noise threshold just above 2 (lambda in [2/(1 + beta), 1.03 * 2/(1 + beta))): the best
    pair of each run, real inputs and the floats at the same steps (the first float at or above c* + n_j1 and the
    float below c* + n_(j2 - 1)), each against both constants."""
    rng = random.Random(seed)
    for _ in range(n):
        b = lo + (hi - lo) * rng.random()
        sig = 2 * rng.randrange(int(2 / (1 + b) * 2 ** 51), int(2 / (1 + b) * 1.03 * 2 ** 51))
        lam = Fraction(sig, 2 ** 52)
        mech = T.Mechanism(FMT, lam, 2 * lam, lam * Fraction(99, 100), "up")
        c, _ = mech.edge(1)
        n0 = T.floor_float(FMT, -(c + Fraction(b) * lam * ONE))
        e, j1, j2 = best_pair_of_run(mech, n0, width)
        n1, n2 = n0, n0
        for _ in range(j1):
            n1 = pred(n1, FMT.prec)
        for _ in range(j2 - 1):
            n2 = pred(n2, FMT.prec)
        xf = T.first_at_or_above(FMT, c + n1, True)
        ff = pred(T.first_at_or_above(FMT, c + n2, True), FMT.prec)
        ef = excess_eta(mech, xf, ff)
        beta = float(Fraction(-(int(c + n2) - REAL_GAP), ONE) / lam)
        print(f"lambda = {sig}*2^-52, |x'| = {beta:.5f} lambda, {j2 - j1} steps: reals {e:.4f} eta (Mironov's to "
              f"{e / 16:.4f}, the seed's to {(e - 2) / 12:.4f}), floats {ef:.4f} eta ({ef / 16:.4f}, "
              f"{(ef - 2) / 12:.4f}); floats x = {xf}, x' = {ff} (units)")


def middle(n: int, seed: int, lo: float, hi: float) -> None:
    """The middle output 0 at Lambda = 2 lambda: float inputs one ulp apart at a random step of either threshold
    (the sign -1's toward Lambda/2, the sign +1's toward -Lambda/2), the larger of the two ratios."""
    rng = random.Random(seed)
    best: dict[int, float] = {}
    for i in range(n):
        b = lo + (hi - lo) * rng.random()
        lam = Fraction(2 * rng.randrange(2 ** 51, 2 ** 52), 2 ** 52)
        mech = T.Mechanism(FMT, lam, 2 * lam, lam * Fraction(99, 100), "up")
        k = 1 if i % 2 == 0 else 0
        c, _ = mech.edge(k)
        x0 = Fraction(b) * lam * ONE
        if k == 1:     # sign -1: x + |n| >= c*, n the noise threshold
            nf = T.floor_float(FMT, -(c + x0))
            x = T.first_at_or_above(FMT, c + nf, True)
        else:          # sign +1: x - |n| >= c* (c* ~ -Lambda/2)
            nf = T.ceil_float(FMT, x0 * -1 - c)
            x = T.first_at_or_above(FMT, c + nf, True)
        far = pred(x, FMT.prec)
        if not -mech.bound * ONE < far < x < 0:
            continue
        p, q = mech.prob(x, 0), mech.prob(far, 0)
        with mpmath.workprec(300):
            d = mpmath.mpf(Fraction(x - far, ONE).numerator) / Fraction(x - far, ONE).denominator / float(lam)
            r = abs(mpmath.log(mpmath.mpf(p.numerator) * q.denominator / (mpmath.mpf(p.denominator) * q.numerator)))
            e = float((r - d) * mpmath.mpf(2) ** 53)
        key = int(float(Fraction(-far, ONE) / lam) * 100)
        best[key] = max(best.get(key, -math.inf), e)
    for key in sorted(best):
        print(f"middle output 0, |x'| in [{key / 100:.2f}, {(key + 1) / 100:.2f}) lambda: excess {best[key]:.4f} eta; "
              f"Mironov's 16 beta = {0.16 * key:.2f}, the seed's 12 beta + 2 = {0.12 * key + 2:.2f}")


def scan_range(n: int, seed: int, lo_x: Fraction, hi_x: Fraction) -> None:
    """The witnesses with the largest excess at lambda ~ 1.921, Lambda = 2 lambda: an excess e refutes
    Mironov's for every B from |x'| to e*lambda/16 (the seed's: to (e - 2)*lambda/12) when |x'| is below."""
    rng = random.Random(seed)
    lam = LAM
    bound = Fraction(T.ceil_float(FMT, Fraction(9, 10) * lam * ONE), ONE)   # any B < Lambda/2: the same steps
    mech = T.Mechanism(FMT, lam, 2 * lam, bound, "up")
    c, _ = mech.edge(1)
    lo = T.first_at_or_above(FMT, lo_x * lam * ONE - c, True)
    hi = T.last_at_or_below(FMT, hi_x * lam * ONE - c, True)
    found: list[tuple[float, float, int]] = []
    for _ in range(n):
        x = c + T.floor_float(FMT, Fraction(lo + rng.randrange(max(1, hi - lo))))
        if x.denominator != 1 or FMT.round(Fraction(int(x), ONE)) != int(x):
            continue
        far = pred(int(x), FMT.prec)
        found.append((excess_eta(mech, int(x), far), float(Fraction(abs(far), ONE) / lam), int(x)))
    for label, top in (("Mironov's (16, 0)", lambda e: e / 16), ("the seed's (12, 2)", lambda e: (e - 2) / 12)):
        e, r, x = max((f for f in found if top(f[0]) > f[1]), key=lambda f: top(f[0]))
        print(f"{label}: false up to B = {top(e):.5f} lambda (excess {e:.4f} eta, |x'| = {r:.5f} lambda), "
              f"x = {Fraction(x, ONE)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--search"]:
        n_, seed_, lo_, hi_ = sys.argv[2:6]
        rho_ = Fraction(sys.argv[6]) if len(sys.argv) > 6 else Fraction(2)
        width_, steps_ = (int(sys.argv[7]), int(sys.argv[8])) if len(sys.argv) > 8 else (1, 1)
        print_search(search(int(n_), int(seed_), float(lo_), float(hi_), rho_, width_, steps_), rho_)
    elif sys.argv[1:2] == ["--long"]:
        n_, seed_, lo_, hi_, width_ = sys.argv[2:7]
        long_runs(int(n_), int(seed_), float(lo_), float(hi_), int(width_))
    elif sys.argv[1:2] == ["--middle"]:
        n_, seed_, lo_, hi_ = sys.argv[2:6]
        middle(int(n_), int(seed_), float(lo_), float(hi_))
    elif sys.argv[1:2] == ["--scan-range"]:
        n_, seed_, lo_, hi_ = sys.argv[2:6]
        scan_range(int(n_), int(seed_), Fraction(lo_), Fraction(hi_))
    elif sys.argv[1:2] == ["--scan"]:
        scan(int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
    else:
        check()
