"""The hint for Coq's Taylor bounds on e^ε (Core/ExpTaylor.v): reached with the fewest
terms, only for a rational ε ≥ 0, and computed with the same sums Coq computes."""
from __future__ import annotations

import math
from fractions import Fraction

import sympy

from obligations.analysis.finite import taylor_hint


def test_lower_bound_at_one_needs_nine_terms() -> None:
    hint = taylor_hint(sympy.Integer(1), Fraction(67957, 25000), upper=False)
    assert hint is not None and (hint.x, hint.split, hint.terms) == (1, 1, 9)
    partial = sum(Fraction(1, math.factorial(i)) for i in range(9))   # degree 8 falls short
    assert partial < Fraction(67957, 25000) <= partial + Fraction(1, math.factorial(9))


def test_upper_bound_uses_an_odd_alternating_sum() -> None:
    hint = taylor_hint(sympy.Rational(1, 2), Fraction(16488, 10000), upper=True)
    assert hint is not None and hint.split == 1
    alt = sum(Fraction(-1, 2) ** i / math.factorial(i) for i in range(2 * hint.terms + 2))
    assert 0 < alt <= math.exp(-0.5) and 1 / alt <= Fraction(16488, 10000)


def test_large_epsilon_is_split() -> None:
    hint = taylor_hint(sympy.Rational(29, 10), Fraction(18174, 1000), upper=False)
    assert hint is not None and hint.split == 3


def test_no_hint_for_an_irrational_or_negative_epsilon() -> None:
    assert taylor_hint(sympy.sqrt(2), Fraction(4), upper=False) is None
    assert taylor_hint(sympy.Integer(-1), Fraction(1, 3), upper=False) is None


def test_a_bound_on_the_wrong_side_gets_no_hint() -> None:
    # e^1 > 2.72 is false: no number of terms reaches it
    assert taylor_hint(sympy.Integer(1), Fraction(272, 100), upper=False) is None
