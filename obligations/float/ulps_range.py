"""A range with a log within k ulps proved by `snap_binary64_dp_wide_ulps_ab` (theories/Float/SnapSeedUlps.v):
for a grid rho0*lambda <= Lambda <= 2 lambda and a clamp beta0*lambda <= B <= 353 lambda the library's
`snap64_constant_ulps k rho0 beta0 a b` holds when the hints r0, c of `wide_grid.hints` (the same premises
as SnapSeed64.v's: 1.0002 < r0 <= e^(rho0 - 10^-4), 1.0002*(r0 + 1) <= c*(r0 - 1.0002)) meet

    (4 + 8k)*c <= a,   (4k + 10)*c - b <= (a - (4 + 8k)*c)*beta0.

The slope (4 + 8k)*c is above 12*1.31 for every k >= 1, so Mironov's 16 is reached for k = 1 only where
the grid is nearly 2 lambda (c <= 4/3: e^(rho0 - 10^-4) >= 7.0006, rho0 >= 1.946) and the seed's 12 never.
Whether the constants follow is exact arithmetic, which Coq redoes (lra)."""
from __future__ import annotations

from fractions import Fraction

from obligations.float.wide_grid import WideHints

MAX_ULPS = 2 ** 20      # the theorem's premise k <= 2^20


def slope(k: int, h: WideHints) -> Fraction:
    """The theorem's factor of eta*B/lambda, (4 + 8k)*c."""
    return (4 + 8 * k) * h.c


def offset(k: int, h: WideHints) -> Fraction:
    """The theorem's factor of eta, (4k + 10)*c."""
    return (4 * k + 10) * h.c


def fits(k: int, h: WideHints, a: Fraction, b: Fraction, beta0: Fraction) -> bool:
    """The claim (a, b) follows for B >= beta0*lambda (the theorem's premises on k, a, b, beta0)."""
    return (1 <= k <= MAX_ULPS and beta0 > 0 and slope(k, h) <= a
            and offset(k, h) - b <= (a - slope(k, h)) * beta0)


def least_beta0(k: int, h: WideHints, a: Fraction, b: Fraction) -> Fraction | None:
    """The smallest beta0 at which (a, b) follows (None: the slope is at or above a and b does not cover the
    offset)."""
    if offset(k, h) <= b and slope(k, h) <= a:
        return Fraction(0)
    if slope(k, h) >= a:
        return None
    return (offset(k, h) - b) / (a - slope(k, h))
