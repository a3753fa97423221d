"""The accountant's numbers (obligations/analysis/accountant.py): loss keys, the k-fold PLD in
floats rounded down as Coq computes it, brackets of δ(ε) against the exact curve of small
compositions, and the smallest ε at δ."""
from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from obligations.analysis import accountant as acc
from obligations.analysis.compose import composed_curve

RR3 = [[F(2, 3), F(1, 6), F(1, 6)], [F(1, 6), F(2, 3), F(1, 6)], [F(1, 6), F(1, 6), F(2, 3)]]
ALL3 = [(i, j) for i in range(3) for j in range(3) if i != j]


def geometric(n: int, alpha: F = F(1, 2)) -> list[list[F]]:
    def pr(x: int, y: int) -> F:
        if y == 0:
            return alpha ** x / (1 + alpha)
        if y == n:
            return alpha ** (n - x) / (1 + alpha)
        return (1 - alpha) / (1 + alpha) * alpha ** abs(y - x)
    return [[pr(x, y) for y in range(n + 1)] for x in range(n + 1)]


def adjacent(n: int) -> list[tuple[int, int]]:
    return [p for i in range(n - 1) for p in ((i, i + 1), (i + 1, i))]


# Loss ratios 2, 3 and 3/8 (and their inverses): not powers of one base (the grid route).
MIXED = [[F(6, 12), F(3, 12), F(3, 12)], [F(3, 12), F(1, 12), F(8, 12)]]


def test_randomized_response_has_exact_keys_of_base_4() -> None:
    k = acc.find_keying(RR3, ALL3, 1000)
    assert (k.base, k.stride, k.exact) == (4, 1, True)
    assert acc.pair_pld(k, RR3[0], RR3[1], True) == acc.PairPld(-1, (F(1, 6), F(1, 6), F(2, 3)))


def test_the_geometric_has_two_keys_two_apart() -> None:
    rows = geometric(5)
    k = acc.find_keying(rows, adjacent(6), 10)
    assert (k.base, k.stride, k.exact) == (2, 2, True)
    pld = acc.pair_pld(k, rows[0], rows[1], True)
    assert pld.offset == -1 and sum(pld.masses) == 1 and len(pld.masses) == 2


def test_ratios_of_two_bases_are_rounded_to_a_grid_on_either_side() -> None:
    k = acc.find_keying(MIXED, [(0, 1), (1, 0)], 5)
    assert not k.exact and k.base > 1
    up, down = acc.pair_pld(k, MIXED[0], MIXED[1], True), acc.pair_pld(k, MIXED[0], MIXED[1], False)
    assert sum(up.masses) == sum(down.masses) == 1
    assert up.offset + len(up.masses) >= down.offset + len(down.masses)   # keys rounded up sit higher


def test_an_infinite_loss_is_refused() -> None:
    rows = [[F(1, 2), F(1, 2)], [F(1), F(0)]]
    with pytest.raises(acc.AccountantError, match="infinite privacy loss"):
        acc.accountant(rows, [(0, 1), (1, 0)], 5)


def test_floats_of_rationals_are_coqs_lower_ends() -> None:
    """`flower (iq q)` computed by Coq: 1/6 one ulp down; a numerator beyond 2^53 rounded down first."""
    assert acc.float_lower(F(1, 6)).hex() == "0x1.5555555555554p-3"
    assert acc.float_lower(F(123456789012345678901, 10 ** 24)).hex() == "0x1.02e85be180b72p-13"


def test_a_rounded_down_convolution_is_coqs() -> None:
    """`fsq` of randomized response's PLD, as `Eval vm_compute` printed it."""
    b = np.array([acc.float_lower(q) for q in (F(1, 6), F(1, 6), F(2, 3))])
    got = acc.fconv(b, b).tolist()
    coq = [0.027777777777777759, 0.055555555555555518, 0.24999999999999978, 0.22222222222222207, 0.4444444444444442]
    assert got == coq


def test_the_window_of_1000_runs_is_coqs_and_small() -> None:
    """Coq's window: offset 209, 546 masses (of 2001 keys)."""
    a = acc.accountant(RR3, ALL3, 1000)
    w = a.window(a.ups[0])
    assert (w.offset, len(w.masses)) == (209, 546)
    assert all(m >= 0 for m in w.masses.tolist()) and math.fsum(w.masses.tolist()) <= 1


@pytest.mark.parametrize("rows,pairs,runs", [(RR3, ALL3, 7), (geometric(4), adjacent(5), 9),
                                             (MIXED, [(0, 1), (1, 0)], 4)])
def test_the_bracket_holds_the_exact_delta(rows: list[list[F]], pairs: list[tuple[int, int]], runs: int) -> None:
    a = acc.accountant(rows, pairs, runs)
    exact = composed_curve(rows, pairs, runs)
    for eps in (0.0, 0.5, 1.0, 2.0, 4.0):
        t = F(math.exp(eps))
        d = float(exact.delta(t))
        lower, _ = a.lower(eps)
        assert lower <= d * (1 + 1e-12) + 1e-15
        assert d <= a.upper(eps) * (1 + 1e-12) + 1e-15
        if a.keying.exact:   # exact keys: the bracket is the rounding's, about 1e-13 wide
            assert a.upper(eps) - lower < 1e-11


def test_claims_lie_outside_the_bracket() -> None:
    a = acc.accountant(RR3, ALL3, 1000)
    up, lo = acc.claim_bounds(a, F(837))
    assert lo is not None and float(lo) < a.lower(837.0)[0] <= a.upper(837.0) < float(up)
    assert up - lo < F(1, 10 ** 10)


def test_the_smallest_epsilon_at_delta_is_on_the_grid() -> None:
    a = acc.accountant(RR3, ALL3, 1000)
    tol = F(1, 100)
    eps = acc.epsilon_at(a, 1e-5, tol)
    assert eps is not None and (eps / tol).denominator == 1
    assert a.upper(float(eps)) <= 1e-5 < a.lower(float(eps - tol))[0]
    assert eps == F(16629, 20)


@pytest.mark.parametrize("x,digits,down,up", [(0.000123456, 3, F(123, 10 ** 6), F(124, 10 ** 6)),
                                                (0.5, 2, F(1, 2), F(1, 2)), (0.0, 3, F(0), F(0))])
def test_decimal_rounding_is_outward(x: float, digits: int, down: F, up: F) -> None:
    assert acc.round_down(x, digits) == down and acc.round_up(x, digits) == up
