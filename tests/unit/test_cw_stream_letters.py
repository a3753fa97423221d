"""Letters of the same-database run (analysis/cw_stream.letters, theories/Finite/TypeClass.v
`check_letters`): outputs whose columns agree on the priors' supports are one block, and the
classes over the blocks still give the product table's hs.  No Coq."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest

from obligations.analysis import cw_stream
from obligations.analysis.finite import cw_rows, power_rows
from obligations.models import load, unfold
from obligations.table import by_stream

SPECS = Path("tests/specs/cw_compose")
M = 8
ROWS = [[F(13, 20) if x == y else F(1, 20) for y in range(M)] for x in range(M)]
PRIOR = [F(1, 2), F(1, 2)] + [F(0)] * (M - 2)
ALT = [F(0), F(0), F(1, 2), F(1, 2)] + [F(0)] * (M - 4)
# Input 5 (outside both supports) no longer agrees with the others on the outputs 4..7.
SKEWED = [*ROWS[:5], [F(1, 20)] * 4 + [F(1, 20), F(13, 20), F(2, 20), F(0)], *ROWS[6:]]


def product_hs(rows: list[list[F]], k: int, t: F) -> tuple[F, F]:
    """hs(t) of both orders on the product table Σ_x f(x)·M(x)^⊗k, straight from the definition."""
    p, q = cw_rows(power_rows(rows, k), PRIOR, ALT)
    return (sum((max(F(0), a - t * b) for a, b in zip(p, q, strict=True)), F(0)),
            sum((max(F(0), b - t * a) for a, b in zip(p, q, strict=True)), F(0)))


def test_the_outputs_outside_the_supports_are_one_letter() -> None:
    for rows in (ROWS, SKEWED):
        form = cw_stream.integer_form(rows, PRIOR, ALT)
        assert form.letters == ((0, 1), (1, 1), (2, 1), (3, 1), (4, 4))
        assert form.blk == (0, 1, 2, 3, 4, 4, 4, 4)


def test_distinct_columns_are_one_letter_each() -> None:
    rr5 = [[F(17, 25) if x == y else F(2, 25) for y in range(5)] for x in range(5)]
    form = cw_stream.integer_form(rr5, PRIOR[:5], ALT[:5])
    assert form.letters == tuple((y, 1) for y in range(5))
    everywhere = [F(1, M)] * M           # supports on every input: no two columns agree
    assert len(cw_stream.integer_form(ROWS, everywhere, everywhere).letters) == M
    five = [F(1, 5)] * 5 + [F(0)] * 3    # on the inputs 0..4: the outputs 5..7 agree there
    assert cw_stream.integer_form(ROWS, five, five).letters[-1] == (5, 3)


@pytest.mark.parametrize("rows", [ROWS, SKEWED], ids=["rr8", "skewed"])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_letter_classes_give_the_product_tables_hs(rows: list[list[F]], k: int) -> None:
    form = cw_stream.integer_form(rows, PRIOR, ALT)
    cls = cw_stream.classes(form, k)
    assert sum(cls.values()) == M ** k                     # every sequence counted once
    assert len(cls) <= cw_stream.class_bound(len(form.letters), k)
    for t in (F(1), F(3), F(40)):
        with mpmath.workdps(50):
            tq = mpmath.mpf(t.numerator) / t.denominator
            got = (cw_stream.hs_pair(cls, form, k, form.u, form.u2, tq),
                   cw_stream.hs_pair(cls, form, k, form.u2, form.u, tq))
            for a, b in zip(got, product_hs(rows, k, t), strict=True):
                assert abs(a - mpmath.mpf(b.numerator) / b.denominator) < mpmath.mpf(10) ** -40


def test_letters_keep_twelve_runs_of_eight_outputs_on_the_class_route() -> None:
    """12 runs: 1820 classes over 5 letters (the 8 outputs' types: 50 388, past the limit)."""
    spec = load(SPECS / "rr8_cw_stream_k6.yaml")
    assert by_stream.letter_count(spec) == 5
    assert cw_stream.class_bound(8, 12) > by_stream.MAX_CLASSES >= cw_stream.class_bound(5, 12)
    u = unfold(replace(spec, compose=12))
    assert u.route is not None and u.route.name == "by classes of output sequences"
    assert "1820 classes" in " ".join(u.plan.notes)
    assert "rr8_cw_stream_k6_letters" in u.rendered.text and "(4%nat, 4%positive)" in u.rendered.text


def test_more_runs_over_fewer_letters_are_bounded_by_the_work() -> None:
    """3 letters: K = 50 (1326 classes) stays on the class route, K = 60 (1891 classes, but
    113 460 classes × runs) goes to the composition theorem."""
    assert by_stream.within_limits(3, 50) and not by_stream.within_limits(3, 60)
    assert by_stream.within_limits(5, 16) and not by_stream.within_limits(5, 17)
