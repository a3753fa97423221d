"""The hints for `snap_binary64_dp_wide_ab` (theories/Float/SnapSeed64.v): for a grid
rho0*lambda <= Lambda <= 2 lambda and a clamp beta0*lambda <= B <= 353 lambda the loss is at most
|x - x'|/lambda + a*eta*B/lambda + b*eta when some r0, c meet

    1.0002 < r0 <= e^(rho0 - 10^-4),   1.0002*(r0 + 1) <= c*(r0 - 1.0002),
    8c <= a,   11c - b <= (a - 8c)*beta0.

Python picks r0 just below e^(rho0 - 10^-4) (Coq checks it with a Taylor bound) and the least c
at six decimals; whether the constants follow is then exact arithmetic, which Coq redoes (lra)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

SLACK = Fraction(10002, 10000)    # the theorem's 1.0002 (the roundings of the threshold's width)
SHIFT = Fraction(1, 10000)        # rho0 - 10^-4: the narrowest bucket's width over lambda
DIGITS = 10 ** 6


@dataclass(frozen=True)
class WideHints:
    """r0 <= e^(rho0 - 10^-4) and the factor c >= SLACK*(r0 + 1)/(r0 - SLACK) it gives."""
    r0: Fraction
    c: Fraction
    exponent: Fraction            # rho0 - 10^-4, the rational Coq's Taylor bound is taken at

    def fits(self, a: Fraction, b: Fraction, beta0: Fraction) -> bool:
        """The constants (a, b) follow for B >= beta0*lambda."""
        return 8 * self.c <= a and 11 * self.c - b <= (a - 8 * self.c) * beta0


def hints(rho0: Fraction) -> WideHints:
    """r0 a thousandth below e^(rho0 - 10^-4) rounded down (the Taylor bound of degree 16 is far
    closer); c the least multiple of 10^-6 at or above SLACK*(r0 + 1)/(r0 - SLACK)."""
    exponent = rho0 - SHIFT
    r0 = Fraction(math.floor(math.exp(exponent) * 1000) - 1, 1000)
    c = Fraction(math.ceil(SLACK * (r0 + 1) / (r0 - SLACK) * DIGITS), DIGITS)
    return WideHints(r0, c, exponent)


def least_beta0(h: WideHints, a: Fraction, b: Fraction) -> Fraction | None:
    """The smallest beta0 at which (a, b) follows (None: the slope 8c is above a)."""
    if 8 * h.c > a or (8 * h.c == a and 11 * h.c > b):
        return None
    if 11 * h.c <= b:
        return Fraction(0)
    return (11 * h.c - b) / (a - 8 * h.c)


# SnapSeed64.v's corollaries: (rho0, beta0) of each range the constant is proved in (Lambda <= 2 lambda,
# B <= 353 lambda); the range form reaches any (rho0, beta0) that `least_beta0` allows.
SEED_RANGES = ((Fraction(19, 10), Fraction(11)), (Fraction(7, 4), Fraction(22)), (Fraction(33, 20), Fraction(75)))
MIRONOV_RANGES = ((Fraction(19, 10), Fraction(3)), (Fraction(3, 2), Fraction(6)), (Fraction(6, 5), Fraction(19)),
                  (Fraction(28, 25), Fraction(91)), (Fraction(111, 100), Fraction(175)))


# theories/Float/SnapSeedRealRefuted.v: with real inputs, ties up and a correctly rounded log the seed's
# (12, 2) is false near Lambda = lambda; each (rho0, beta0, theorem) refutes snap64_constant r b' 12 2
# for every r <= rho0 and b' <= beta0, and so every smaller constant over a range that holds them.
REFUTED_SEED = ((Fraction(1), Fraction(129), "snap_binary64_seed_constant_real_false"),
                (Fraction(21, 20), Fraction(257), "snap_binary64_seed_constant_real_false_105"))


def refuting_theorem(rho0: Fraction, beta0: Fraction | None, a: Fraction, b: Fraction) -> str | None:
    """The library theorem refuting the claim (a, b) over rho0*lambda <= Lambda <= 2 lambda and
    beta0*lambda <= B <= 353 lambda (None: 0 < B), for real inputs, ties up and a correctly rounded log."""
    if a > 12 or b > 2:
        return None
    low = Fraction(0) if beta0 is None else beta0
    return next((name for r, top, name in REFUTED_SEED if rho0 <= r and low <= top), None)


def refuted_text(name: str) -> str:
    return (f"and it is false: {name} (theories/Float/SnapSeedRealRefuted.v) refutes it for real inputs "
            "with ties up")


def _ranges_text(ranges: tuple[tuple[Fraction, Fraction], ...]) -> str:
    return ", ".join(f"Lambda >= {float(r):g} lambda and B >= {b} lambda" for r, b in ranges)


PROVED_RANGES = (f"the seed's (12, 2): {_ranges_text(SEED_RANGES)}; Mironov's (16, 0): "
                 f"{_ranges_text(MIRONOV_RANGES)} (all with Lambda <= 2 lambda, B <= 353 lambda; "
                 "theories/Float/SnapSeed64.v)")


def in_ranges(ranges: tuple[tuple[Fraction, Fraction], ...], rho: Fraction, beta: Fraction) -> bool:
    """Lambda = rho*lambda, B = beta*lambda inside one of the ranges."""
    return rho <= 2 and beta <= 353 and any(rho >= r and beta >= b for r, b in ranges)
