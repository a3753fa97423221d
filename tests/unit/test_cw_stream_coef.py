"""The coefficient DP for K runs on the same database (analysis/cw_coef.py, a measurement
for bench/cw_stream_coef.py): it gives the class sums' hs (analysis/cw_stream.py, which
the product table checks) with far fewer states, and its bracket holds the exact value
when small coefficients are dropped.  No Coq."""
from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest

from obligations.analysis import cw_coef, cw_stream

ROWS5 = [[F(17, 25) if x == y else F(2, 25) for y in range(5)] for x in range(5)]
ROWS8 = [[F(13, 20) if x == y else F(1, 20) for y in range(8)] for x in range(8)]
PRIOR = [F(1, 2), F(1, 2), F(0), F(0), F(0)]
ALT = [F(0), F(0), F(1, 2), F(1, 2), F(0)]


def pad(g: list[F], m: int) -> list[F]:
    return g + [F(0)] * (m - len(g))


@pytest.mark.parametrize("rows", [ROWS5, ROWS8], ids=["rr5", "rr8"])
@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("eps_per_run", [math.log(19 / 4), 1.0])
def test_coefficients_give_the_class_sums(rows: list[list[F]], k: int, eps_per_run: float) -> None:
    m = len(rows)
    f, f2 = pad(PRIOR, m), pad(ALT, m)
    eps = k * eps_per_run
    with mpmath.workdps(40):
        want = cw_stream.stream_delta(rows, f, f2, k, mpmath.mpf(eps))
    for (g, g2), exact in zip(((f, f2), (f2, f)), want, strict=True):
        for symmetric in (True, False):
            got = cw_coef.coef_hs(rows, g, g2, k, eps, tau=0.0, symmetric=symmetric)
            assert got.lower == got.estimate == got.upper             # nothing dropped: no slack
            assert got.estimate == pytest.approx(float(exact), rel=1e-10, abs=1e-15)


def test_bracket_holds_the_exact_value_with_fewer_states_than_classes() -> None:
    k, eps = 16, 16 * math.log(19 / 4)
    with mpmath.workdps(40):
        exact = float(cw_stream.stream_delta(ROWS5, PRIOR, ALT, k, mpmath.mpf(eps))[0])
    got = cw_coef.coef_hs(ROWS5, PRIOR, ALT, k, eps, tau=1e-9)
    assert got.lower < got.upper                                       # something was dropped
    assert got.lower <= exact * (1 + 1e-12) and exact <= got.upper * (1 + 1e-12)
    assert got.upper - got.lower < 1e-6 * exact
    # the classes keep every type at every step: sum_j C(j + 4, 4) states over the 16 steps
    assert got.state_steps * 20 < sum(cw_stream.class_bound(5, j) for j in range(1, k + 1))


def test_not_randomized_response_is_refused() -> None:
    rows = [row[:] for row in ROWS5]
    rows[1][2], rows[1][3] = F(3, 25), F(1, 25)
    with pytest.raises(ValueError, match="row 1, output 2"):
        cw_coef.coef_hs(rows, PRIOR, ALT, 3, 1.0)
