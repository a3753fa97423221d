"""analysis/snap_thresholds.py: one output's exact probability by inverting the pipeline's steps,
against the sample-by-sample enumeration of analysis/ustar_snapping.py in small formats (every input
and output of a few parameter sets, both tie rules), and in binary64 the ideal Laplace masses it
approximates within the proved bound."""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from obligations.analysis import snap_thresholds as T
from obligations.analysis import ustar_snapping as U

CASES = [
    (8, -26, Fraction(1), Fraction(1), Fraction(3, 2), "up"),
    (9, -24, Fraction(3, 4), Fraction(1), Fraction(3), "up"),
    (10, -21, Fraction(5, 4), Fraction(2), Fraction(4), "down"),
    (6, -12, Fraction(7, 5), Fraction(2), Fraction(5), "down"),
]


@pytest.mark.parametrize("p, emin, lam, grid, bound, ties", CASES)
def test_thresholds_match_the_enumeration(p: int, emin: int, lam: Fraction, grid: Fraction, bound: Fraction,
                                          ties: U.Ties) -> None:
    fmt = U.Format(p, emin)
    t = U.tables(U.Snapping(fmt, lam, grid, bound, ties))
    mech = T.Mechanism(fmt, lam, grid, bound, ties)
    xs = fmt.floats_in(-bound, bound)
    for x in xs[:: max(1, len(xs) // 40)]:
        counts = U.counts(t, x)
        for k in range(-mech.g, mech.g + 1):
            assert mech.prob(x, k) == Fraction(counts.get(k, 0), 2 * fmt.one), (x, k)


def test_binary64_masses_are_the_ideal_ones_within_the_proved_bound() -> None:
    """lambda = 1, Lambda = 2, B = 100: every output's probability from x = -100 is the Laplace mass
    of its bucket within e^(+-ln K) (ln K of float_snap_dp_tight, about 1062 eta here)."""
    fmt = U.Format(53, -1074)
    mech = T.Mechanism(fmt, Fraction(1), Fraction(2), Fraction(100), "up")
    x = fmt.units(Fraction(-100))
    eta = 2.0 ** -53
    with mpmath.workprec(200):
        for k in (-49, -20, 0, 25, 49):
            lo, hi = (k - mpmath.mpf(1) / 2) * 2, (k + mpmath.mpf(1) / 2) * 2
            ideal = (mpmath.exp(-(lo + 100)) - mpmath.exp(-(hi + 100))) / 2
            p = mech.prob(x, k)
            ratio = mpmath.mpf(p.numerator) / p.denominator / ideal
            assert abs(float(mpmath.log(ratio))) < 1100 * eta, k


def test_excess_is_the_loss_above_the_distance() -> None:
    fmt = U.Format(53, -1074)
    mech = T.Mechanism(fmt, Fraction(1), Fraction(2), Fraction(100), "up")
    x, x2 = fmt.units(Fraction(-99)), fmt.units(Fraction(-100))
    e = T.excess(mech, x, x2, 49)      # the closer input first: about |x - x'|/lambda, the excess tiny
    assert abs(e) < 1100 * 2.0 ** -53 and math.isfinite(e)
