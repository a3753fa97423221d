"""The KOV sum in Python (obligations/kinds/finite/kov.py): the hints Coq checks, against the
external values of tests/data/reference/kov_ln3.json and the curve `region --compose` prints."""
from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from obligations.analysis.compose import kov_curve
from obligations.kinds.finite.kov import Exponent, KovClaim, claims_for, kov_delta, render_kov, rr_ratio

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference" / "kov_ln3.json"
LN3 = Exponent(Fraction(3), log=True)


def test_kov_sum_matches_the_reference_points() -> None:
    data = json.loads(REFERENCE.read_text())
    seen = 0
    for case in data["cases"]:
        k = case["k"]
        for point in case["kov_points"]:
            m = k - 2 * point["i"]                      # ε_i = (k − 2i) ln 3, e^ε_i = 3^m
            exact = Fraction(point["delta"])
            got = kov_delta(LN3, k, Exponent(Fraction(3) ** m, log=True))
            with mpmath.workdps(50):
                assert abs(got - mpmath.mpf(exact.numerator) / exact.denominator) < mpmath.mpf(10) ** -30
            seen += 1
    assert seen > 30


@pytest.mark.parametrize("eps0, k, eps", [(1.0, 100, 10.0), (0.5, 10, 0.25), (float(mpmath.log(3)), 10, 2.0)])
def test_kov_sum_is_the_curve_region_prints(eps0: float, k: int, eps: float) -> None:
    e0 = Exponent(Fraction(eps0)) if eps0 != float(mpmath.log(3)) else LN3
    assert float(kov_delta(e0, k, Exponent(Fraction(eps)))) == pytest.approx(kov_curve(eps0, 0.0, k).delta(eps),
                                                                             rel=1e-9)


def test_claims_bracket_the_sum_and_randomized_response_reaches_the_lower_end() -> None:
    e0 = Exponent(Fraction(1))
    (c,) = claims_for(e0, 100, [Exponent(Fraction(10))])
    exact = kov_delta(e0, 100, Exponent(Fraction(10)))
    assert float(c.lower) < exact < float(c.upper) and c.upper - c.lower <= Fraction(1, 10 ** 5)
    r = rr_ratio(e0)
    assert 0 < math.e - float(r) < 1e-11      # the rational randomized response, just below e
    assert kov_delta(Exponent(r, log=True), 100, Exponent(Fraction(10))) > float(c.lower)
    assert rr_ratio(LN3) == 3


def test_render_refuses_what_the_intervals_cannot_evaluate() -> None:
    claim = KovClaim(Exponent(Fraction(1)), Fraction(1, 2), Fraction(1, 4))
    with pytest.raises(ValueError, match="Coq identifier"):
        render_kov("bad name", LN3, 10, [claim])
    with pytest.raises(ValueError, match="eps0 > 0"):
        render_kov("k", Exponent(Fraction(0)), 10, [claim])
    with pytest.raises(ValueError, match="below 700"):
        render_kov("k", Exponent(Fraction(1)), 1000, [claim])
    with pytest.raises(ValueError, match="positive"):
        Exponent(Fraction(0), log=True)


def test_render_states_the_claim_for_every_mechanism() -> None:
    text = render_kov("k10", LN3, 10, claims_for(LN3, 10, [Exponent(Fraction(9), log=True)]))
    assert "forall (nb : nat -> nat -> bool) (M : fmech)" in text or "(nb : nat -> nat -> bool) (M : fmech) :" in text
    assert "dp nb (fmech_power M 10) (ln (Q2R (9 # 1)))" in text
    assert "krr_fmech (3 # 4) 2" in text and "Admitted" not in text
