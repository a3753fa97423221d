"""The two refinements of the Coq bound that docs/snap_tight.md section 7 names, as arithmetic (not
proved): per-end, per-input displacements (an end e of a bucket moves by mu*|e - x| for the input x,
at most mu*(B + |e|) for the input the ratio is moved from) and U*'s factor 1/(1 - 2 eta) at one end
per sign (the upper end of u only, for the upper bound; the lower end only, for the lower bound).
For one output and the input x' the bound is the ratio of the widened two-sided ideal mass to the
narrowed one at x' (snap_mass_widen's comparison, with different ends per sign), ln K/eta maximised
over the output and x' on a grid; mpmath at 60 digits, a correctly rounded log (mu = (1 + eta)^2 - 1).

    python bench/snap_refined_bound.py 1.62 2        the least B/lambda where the seed's (12, 2) and
                                                     Mironov's (16, 0) follow, per rho = Lambda/lambda
    python bench/snap_refined_bound.py --coq 1.62 2  the same for the K that theories/Float/SnapTwoSidedDP.v's
                                                     float_snap_dp_two proves (its hypotheses' bounds, not
                                                     the pointwise maximum above)
    python bench/snap_refined_bound.py --coq-pointwise 1.62 2
                                                     --coq with the input inside a bucket compared at its
                                                     own t (not proved: docs/snap_tight.md, section 7)
    python bench/snap_refined_bound.py --coq --ulps=1 1.95 1.99
                                                     --coq for a log within k ulps (float_snap_dp_two_log,
                                                     SnapTwoSidedLog.v: mu = 2k*eta/(1 - 2k*eta) in place of eta,
                                                     tight_mu = (1 + eta)(1 + mu) - 1)
    python bench/snap_refined_bound.py --coq-split=8 1.62 2
                                                     --coq with the input inside a bucket in n = 8 pieces, the
                                                     K that SnapTwoSidedPieces.v's float_snap_dp_two_split proves
                                                     (its piece conditions at their bounds)

What it says (docs/snap_tight.md, section 7): the clamped outputs keep an intercept of about
(2 rho + 2)*eta (one threshold, both inputs' displacements up to mu*(2B + Lambda/2), U* once), so the
constants follow only from B of about lambda/2; below, SnapSmallClampRefuted.v refutes them at
B = 3 lambda/16 (the seed's) and lambda/4 (Mironov's).
"""
from __future__ import annotations

import sys

import mpmath as mp

mp.mp.dps = 60
ETA = mp.mpf(2) ** -53
MU = (1 + ETA) ** 2 - 1
K2 = 1 / (1 - 2 * ETA)


def ulps_mu(k: int) -> mp.mpf:
    """tight_mu (SnapTight.v) for a log within k ulps: (1 + eta)(1 + 2k*eta/(1 - 2k*eta)) - 1 (~ (1 + 2k)*eta)."""
    return (1 + ETA) * (1 + 2 * k * ETA / (1 - 2 * k * ETA)) - 1


def ulen(a: mp.mpf, b: mp.mpf) -> mp.mpf:
    """The length of [a, b] clipped to [0, 1]."""
    return max(min(b, mp.mpf(1)) - max(a, mp.mpf(0)), mp.mpf(0))


def interior(grid: mp.mpf, bound: mp.mpf, k: int, xp: mp.mpf) -> mp.mpf:
    """ln K/eta for the bucket k (lambda = 1) at the input x' (the narrowed side)."""
    e1, e2 = (k - mp.mpf(1) / 2) * grid, (k + mp.mpf(1) / 2) * grid
    d1, d2 = MU * (bound + abs(e1)), MU * (bound + abs(e2))
    n1, n2 = MU * abs(e1 - xp), MU * abs(e2 - xp)
    e = mp.exp
    wide = ulen(e(e1 - d1 - xp), e(e2 + d2 - xp) * K2) + ulen(e(xp - e2 - d2), e(xp - e1 + d1) * K2)
    narrow = ulen(e(e1 + n1 - xp) * K2, e(e2 - n2 - xp)) + ulen(e(xp - e2 + n2) * K2, e(xp - e1 - n1))
    return mp.log(wide / narrow) / ETA


def top(grid: mp.mpf, bound: mp.mpf, xp: mp.mpf) -> mp.mpf:
    """ln K/eta for the clamped output B (the bottom one is its mirror image)."""
    g = int(mp.ceil(bound / grid))
    edge = (g - mp.mpf(1) / 2) * grid
    d, n = MU * (bound + abs(edge)), MU * abs(edge - xp)
    e = mp.exp
    wide = ulen(mp.mpf(0), e(xp - edge + d) * K2) + ulen(e(edge - d - xp), mp.mpf(1))
    narrow = ulen(mp.mpf(0), e(xp - edge - n)) + ulen(e(edge + n - xp) * K2, mp.mpf(1))
    return mp.log(wide / narrow) / ETA


def worst(rho: float, beta: float, points: int = 25) -> float:
    """The largest ln K/eta over the clamped output and the interior buckets nearest the ends and 0."""
    grid, bound = mp.mpf(rho), mp.mpf(beta)
    g = int(mp.ceil(bound / grid))
    xs = [-bound + 2 * bound * i / (points - 1) for i in range(points)]
    ks = [k for k in range(-g, g + 1) if abs(k * grid) < bound]
    ks = sorted(set(ks[:3] + ks[-3:] + [k for k in ks if abs(k) <= 1]))
    best = max(top(grid, bound, x) for x in xs)
    for k in ks:
        best = max(best, max(interior(grid, bound, k, x) for x in xs))
    return float(best)


def _ratios(p: mp.mpf, big_q: mp.mpf, r: mp.mpf) -> list[mp.mpf]:
    """The least K of each of SnapTwoSidedCond.v's four conditions (cond_tail_low, cond_point_lower,
    cond_point_upper, cond_tail_high) at the displacement factors p, Q and the narrowed width R."""
    q = 1 - 2 * ETA
    return [(p / q - 1 / (big_q * r)) / (1 - 1 / (r * q)),
            (2 - q / p - 1 / (q * big_q * r)) / (1 - 1 / (q * q * r)),
            (2 - 1 / (p * r * q) - q / big_q) / (1 - 1 / (q * q * r)),
            (big_q * r / q - 1 / p) / (r - 1 / q)]


def inside_pointwise(grid: mp.mpf, t_d: mp.mpf, err: mp.mpf, points: int = 200) -> mp.mpf:
    """The largest ratio for an input x' inside a bucket (lambda = 1, the bucket [0, grid]) compared at its
    own t only: the other input's displacements at their bound mu*tight_D at both ends (as the theorem
    has them), x''s own mu*(|e - x'| + err) per end (their sum mu*(grid + 2 err), not each end's
    mu*(grid + 2 err) as two_in has it)."""
    d, e = MU * t_d, mp.exp
    best = mp.mpf(0)
    for i in range(points + 1):
        xp = grid * i / points
        n1, n2 = MU * (xp + err), MU * (grid - xp + err)
        wide = ulen(e(-d - xp), e(grid + d - xp) * K2) + ulen(e(xp - grid - d), e(xp + d) * K2)
        narrow = ulen(e(n1 - xp) * K2, e(grid - n2 - xp)) + ulen(e(xp - grid + n2) * K2, e(xp - n1))
        best = max(best, wide / narrow)
    return best


def _centre(p: mp.mpf, big_q: mp.mpf, r: mp.mpf, s: mp.mpf) -> mp.mpf:
    """The least K of SnapTwoSidedMid.v's cond_centre at the point s (in units of the narrowed lower end
    e^(A/lambda)): both masses in their centre, 2 - 1/(p s) - s/(Q R) <= K (2 - 1/(q s) - s/(q R))."""
    q = 1 - 2 * ETA
    return (2 - 1 / (p * s) - s / (big_q * r)) / (2 - 1 / (q * s) - s / (q * r))


def inside_split(grid: mp.mpf, t_d: mp.mpf, err: mp.mpf, r_0i: mp.mpf, n: int) -> mp.mpf:
    """The largest K of float_snap_dp_two_split's piece conditions (the slack sl -> 0): x' inside a bucket
    of width at most W = grid + 2 err, at t between R^((j-1)/n) and R^(j/n) (piece j), has its own
    displacements at most mu*j*W/n (lower end) and mu*(n - j + 1)*W/n (upper end), the other input's mu*t_d;
    piece 1 also meets the low tail and the point 1/q, piece n the high tail and the point R q, and every
    piece the centre condition at its ends R^((j-1)/n), R^(j/n) that are not 1/q or R q."""
    e, width = mp.exp, grid + 2 * err
    ks = []
    for j in range(1, n + 1):
        p_j, q_j = e(MU * (t_d + j * width / n)), e(MU * (t_d + (n - j + 1) * width / n))
        four = _ratios(p_j, q_j, r_0i)
        ks += four[:2] if j == 1 else [_centre(p_j, q_j, r_0i, r_0i ** (mp.mpf(j - 1) / n))]
        ks += four[2:] if j == n else [_centre(p_j, q_j, r_0i, r_0i ** (mp.mpf(j) / n))]
    return max(ks)


def coq_route(rho: float, beta: float, pointwise: bool = False, split: int = 0) -> float:
    """ln K/eta for float_snap_dp_two (lambda = 1, the slack sl -> 0): the largest of its hypotheses'
    K, with two_err, two_near, two_in, two_clamp, tight_D and tight_W as SnapTwoSidedDP.v defines them.
    pointwise: the input inside a bucket compared at its own t (`inside_pointwise`) instead of the four
    conditions over the whole t-range (not proved); split = n > 0: the input inside a bucket in n pieces
    (`inside_split`, float_snap_dp_two_split's conditions)."""
    grid, bound, tiny = mp.mpf(rho), mp.mpf(beta), mp.mpf(2) ** -1074
    err = 2 * ETA * (bound + grid / 2) + tiny
    t_d = 2 * bound + grid / 2 + err
    t_w = grid - 2 * ETA * (2 * bound + grid) - 2 * tiny
    near = bound + max(bound - grid / 2 + err, mp.mpf(0))
    inside = t_d + grid + 2 * err
    clamp = bound + (int(mp.ceil(bound / grid)) - mp.mpf(1) / 2) * grid + err
    e = mp.exp
    p_n, p_f, p_i = e(MU * 2 * near), e(MU * 2 * t_d), e(MU * inside)
    r_0, r_0i = e(t_w - MU * (near + t_d)), e(t_w - MU * (grid + 2 * err))
    below, above = _ratios(p_n, p_f, r_0)[:2], _ratios(p_f, p_n, r_0)[2:]
    if split:
        ins = [inside_split(grid, t_d, err, r_0i, split)]
    else:
        ins = [inside_pointwise(grid, t_d, err)] if pointwise else _ratios(p_i, p_i, r_0i)
    ks = below + above + ins + [e(MU * 2 * clamp) / (1 - 2 * ETA)]
    return float(mp.log(max(ks)) / ETA)


BETAS = [0.05 * j for j in range(1, 41)] + [3, 5, 8, 11, 20, 50, 100, 200, 353]


def least(res: list[tuple[float, float]], a: float, b: float) -> float | None:
    """The least beta on the grid from which every larger one fits a*beta + b (None: none does)."""
    bad = [beta for beta, e in res if e > a * beta + b]
    if not bad:
        return BETAS[0]
    return None if max(bad) == BETAS[-1] else min(beta for beta in BETAS if beta > max(bad))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--ulps=")]
    for a in sys.argv[1:]:
        if a.startswith("--ulps="):
            MU = ulps_mu(int(a.split("=")[1]))
    bound_of = {"--coq": coq_route, "--coq-pointwise": lambda r, b: coq_route(r, b, True)}.get(args[0] if args else "",
                                                                                               worst)
    if args and args[0].startswith("--coq-split="):
        pieces = int(args[0].split("=")[1])
        bound_of = lambda r, b: coq_route(r, b, split=pieces)  # noqa: E731
    for arg in [a for a in args if not a.startswith("--")] or ["1.62", "2"]:
        rho = float(arg)
        res = [(beta, bound_of(rho, beta)) for beta in BETAS]
        print(f"rho = {rho}: the seed's (12, 2) from beta = {least(res, 12, 2)}, Mironov's (16, 0) from "
              f"beta = {least(res, 16, 0)}; slope at beta = 353: {res[-1][1] / 353:.3f}")
