"""The two-sided theorem's K at a binary snapping spec's concrete parameters (a hint: Coq checks it).

`float_snap_dp_two_correct` (theories/Float/SnapTwoSidedDP.v; `float_snap_dp_two_log` of
SnapTwoSidedLog.v for a log within k ulps) bounds every output's ratio by e^(|x - x'|/lambda)*K for
any K >= 1 that meets four conditions of SnapTwoSidedCond.v at the bounds of three regions (x' below
an interior bucket, above it, inside it) and the clamped outputs' factor.  This module computes, in
mpmath, the least K each of them allows (`TwoPoint.parts`) and chooses the K the certificate states,
e^(c*eta) with c a rational a little above the largest, at most the claim's room
(claim - 1/lambda)/eta.  Nothing here is trusted: the generated file proves each condition at that
K with `interval`."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from obligations.float.binary64_spec import ETA, TINY, BinarySnappingSpec, tight_distance, tight_mu, tight_width

PREC = 400
# The slack sl of float_snap_dp_two (its narrowed displacements strict) as a fraction of lambda:
# sl/lambda = 2^-100 moves ln K by about 2^-47 eta.
SLACK = Fraction(1, 2 ** 100)
# c is the least K's exponent rounded up to this step (in eta), when the claim leaves room for it...
STEP = Fraction(1, 100)
# ... and a claim within this much (in eta) of the least K is undecided: the `interval` proofs of the
# conditions need a gap to find (their precision is chosen from it).
MIN_GAP = Fraction(1, 10 ** 6)


@dataclass(frozen=True)
class TwoPoint:
    """The two-sided theorem at one spec: the least K of each region (ln K/eta, mpmath floats), the
    exponent c of the stated K = e^(c*eta), the slack, whether two_near's max is its first argument,
    and the interval precision."""
    parts: tuple[tuple[str, float], ...]   # (region, ln K/eta): below, above, inside, clamped
    needed: float                          # the largest: ln K/eta the theorem needs
    room: Fraction                         # (claim - 1/lambda)/eta: what the claim leaves for ln K
    c: Fraction                            # the certificate's K = e^(c*eta)
    sl: Fraction
    near_first: bool                       # B - Lambda/2 + two_err >= 0 (two_near's Rmax)
    bits: int
    provable: bool


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def two_err(bound: Fraction, grid: Fraction) -> Fraction:
    """SnapTwoSidedDP.v's two_err: a threshold's distance to its edge."""
    return 2 * ETA * (bound + grid / 2) + TINY


def least_k(q: mpmath.mpf, p: mpmath.mpf, big_q: mpmath.mpf, r: mpmath.mpf) -> tuple[mpmath.mpf, ...]:
    """The least K of SnapTwoSidedCond.v's cond_tail_low, cond_point_lower, cond_point_upper,
    cond_tail_high at U*'s q, the displacement factors p, Q and the narrowed width R."""
    return ((p / q - 1 / (big_q * r)) / (1 - 1 / (r * q)),
            (2 - q / p - 1 / (q * big_q * r)) / (1 - 1 / (q * q * r)),
            (2 - 1 / (p * r * q) - q / big_q) / (1 - 1 / (q * q * r)),
            (big_q * r / q - 1 / p) / (r - 1 / q))


@dataclass(frozen=True)
class _Terms:
    """SnapTwoSidedDP.v's quantities at one spec, in mpmath: lambda, Lambda, B, tight_mu, the slack,
    two_err, tight_D, tight_W and two_near."""
    lam: mpmath.mpf
    grid: mpmath.mpf
    bound: mpmath.mpf
    tmu: mpmath.mpf
    s: mpmath.mpf
    err: mpmath.mpf
    t_d: mpmath.mpf
    t_w: mpmath.mpf
    near: mpmath.mpf


def _terms(spec: BinarySnappingSpec, sl: Fraction) -> _Terms:
    grid, bound = _mp(spec.grid), _mp(spec.bound)
    err = _mp(two_err(spec.bound, spec.grid))
    return _Terms(_mp(spec.scale), grid, bound, _mp(tight_mu(spec.mu)), _mp(sl), err,
                  _mp(tight_distance(spec.bound, spec.grid)), _mp(tight_width(spec.bound, spec.grid)),
                  bound + max(bound - grid / 2 + err, mpmath.mpf(0)))


def premises_hold(spec: BinarySnappingSpec, sl: Fraction) -> bool:
    """float_snap_dp_two's premises besides K's, with room for `interval`: the narrowed buckets wider
    than U*'s factor twice (R0, R0i > 1/q^2), the buckets wider than ln 2 (e^(W/lambda) >= 2), every
    interval of ln u above ln of the smallest normal.  Without them the least K below means nothing
    (a grid much finer than lambda: the tight route's premises allow it, this theorem's do not)."""
    t = _terms(spec, sl)
    margin = mpmath.mpf(10) ** -9
    low_r = -2 * mpmath.log(1 - 2 * _mp(ETA)) + margin
    return bool((t.t_w - t.tmu * (t.near + t.t_d) - 2 * t.s) / t.lam > low_r
                and (t.t_w - t.tmu * (t.grid + 2 * t.err) - 2 * t.s) / t.lam > low_r
                and t.t_w / t.lam > mpmath.log(2) + margin
                and (t.t_d + t.tmu * t.t_d + t.s) / t.lam < 1022 * mpmath.log(2) - margin)


def regions(spec: BinarySnappingSpec, sl: Fraction) -> tuple[tuple[str, mpmath.mpf], ...]:
    """The least K of each region, with SnapTwoSidedDP.v's two_near, two_in, two_clamp, two_Pn, ..."""
    t = _terms(spec, sl)
    lam, tmu, s = t.lam, t.tmu, t.s
    inside = t.t_d + t.grid + 2 * t.err
    clamp = t.bound + (math.ceil(spec.bound / spec.grid) - mpmath.mpf(1) / 2) * t.grid + t.err
    q, e = 1 - 2 * _mp(ETA), mpmath.exp
    p_n, p_f, p_i = e((tmu * 2 * t.near + s) / lam), e((tmu * 2 * t.t_d + s) / lam), e((tmu * inside + s) / lam)
    r_0 = e((t.t_w - tmu * (t.near + t.t_d) - 2 * s) / lam)
    r_0i = e((t.t_w - tmu * (t.grid + 2 * t.err) - 2 * s) / lam)
    return (("x' below an interior bucket", max(least_k(q, p_n, p_f, r_0)[:2])),
            ("x' above it", max(least_k(q, p_f, p_n, r_0)[2:])),
            ("x' inside it", max(least_k(q, p_i, p_i, r_0i))),
            ("a clamped output", e((tmu * 2 * clamp + s) / lam) / q))


def two_point(spec: BinarySnappingSpec) -> TwoPoint:
    sl = spec.scale * SLACK
    near_first = spec.bound - spec.grid / 2 + two_err(spec.bound, spec.grid) >= 0
    room = (spec.loss - 1 / spec.scale) / ETA
    with mpmath.workprec(PREC):
        if not premises_hold(spec, sl):
            return TwoPoint((), math.inf, room, room, sl, near_first, 120, False)
        parts = tuple((name, mpmath.log(k) / _mp(ETA)) for name, k in regions(spec, sl))
        needed = max(v for _, v in parts)
        floats = tuple((name, float(v)) for name, v in parts)
        gap = _mp(room) - needed
        provable = bool(gap > _mp(MIN_GAP))
        c = _exponent(needed, room) if provable else room
        bits = 120
        if provable:
            bits = max(120, int(53 - mpmath.log(_mp(c) - needed, 2)) + 40)
    return TwoPoint(floats, float(needed), room, c, sl, near_first, bits, provable)


def _exponent(needed: mpmath.mpf, room: Fraction) -> Fraction:
    """The least K's exponent rounded up to a step above it, or the claim's room when that is closer."""
    stepped = Fraction(int(mpmath.floor(needed / _mp(STEP))) + 2) * STEP
    return min(stepped, room)
