"""The exact curve of a K-fold composition from its two-atom PLD (obligations/kinds/finite/pld.py)
against the product table itself, and the renderer's refusals."""
from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest

from obligations.table.pld import PldClaim, bracket, claims_for, render_tgeom_power, two_point_delta

# Seed 002's truncated 1/2-geometric over {0..5} (mechanisms/truncated_geometric.yaml).
TABLE = [[Fraction(s) for s in row.split()] for row in (
    "2/3 1/6 1/12 1/24 1/48 1/48", "1/3 1/3 1/6 1/12 1/24 1/24", "1/6 1/6 1/3 1/6 1/12 1/12",
    "1/12 1/12 1/6 1/3 1/6 1/6", "1/24 1/24 1/12 1/6 1/3 1/3", "1/48 1/48 1/24 1/12 1/6 2/3")]


def product_hs(x: int, x2: int, runs: int, eps: float) -> mpmath.mpf:
    t = mpmath.exp(eps)
    total = mpmath.mpf(0)
    for ys in itertools.product(range(6), repeat=runs):
        p = q = Fraction(1)
        for y in ys:
            p *= TABLE[x][y]
            q *= TABLE[x2][y]
        gap = mpmath.mpf(p.numerator) / p.denominator - t * mpmath.mpf(q.numerator) / q.denominator
        total += max(mpmath.mpf(0), gap)
    return total


@pytest.mark.parametrize("pair", [(2, 3), (3, 2), (0, 1), (5, 4)])
@pytest.mark.parametrize("eps", [0.0, 0.5, 1.0, 2.0])
def test_pld_curve_is_the_product_tables(pair: tuple[int, int], eps: float) -> None:
    exact = product_hs(pair[0], pair[1], 3, eps)
    assert abs(two_point_delta(Fraction(2, 3), 2, 3, eps) - exact) < mpmath.mpf(10) ** -12


def test_bracket_encloses() -> None:
    d = two_point_delta(Fraction(2, 3), 2, 1000, 277)
    lo, up = bracket(d)
    assert mpmath.mpf(lo.numerator) / lo.denominator < d < mpmath.mpf(up.numerator) / up.denominator
    assert (lo, up) == (Fraction(111, 10000), Fraction(112, 10000))


def test_claims_for_the_issue_target() -> None:
    (c,) = claims_for(Fraction(1, 2), 1000, [277])
    assert c == PldClaim(277, Fraction(112, 10000), Fraction(111, 10000))


@pytest.mark.parametrize("name", ["1x", "a b", "x\nLemma", ""])
def test_render_refuses_a_bad_name(name: str) -> None:
    with pytest.raises(ValueError):
        render_tgeom_power(name, Fraction(1, 2), 5, 3, [PldClaim(1, Fraction(1), Fraction(0))])


def test_render_refuses_a_base_other_than_one_over_b() -> None:
    with pytest.raises(ValueError):
        render_tgeom_power("g", Fraction(2, 3), 5, 3, [PldClaim(1, Fraction(1), Fraction(0))])
