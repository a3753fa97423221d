"""K runs of a CW mechanism on the same database, by classes of output sequences
(analysis/cw_stream.py, the route table/by_stream.py): the class sums agree with the
product table, the known values of 5-ary randomized response come out, and the spec
claim `composition: {runs: K, same_database: true}` refuses what it cannot mean.  No Coq."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest

from obligations.analysis import cw_stream
from obligations.analysis.finite import cw_rows, power_rows
from obligations.errors import SpecError
from obligations.models import load

SPECS = Path("tests/specs/cw_compose")
ROWS = [[F(17, 25) if x == y else F(2, 25) for y in range(5)] for x in range(5)]
PRIOR = [F(1, 2), F(1, 2), F(0), F(0), F(0)]
ALT = [F(0), F(0), F(1, 2), F(1, 2), F(0)]


def product_hs(k: int, t: F) -> tuple[F, F]:
    """hs(t) of both orders on the product table Σ_x f(x)·M(x)^⊗k, straight from the definition."""
    p, q = cw_rows(power_rows(ROWS, k), PRIOR, ALT)
    return (sum((max(F(0), a - t * b) for a, b in zip(p, q, strict=True)), F(0)),
            sum((max(F(0), b - t * a) for a, b in zip(p, q, strict=True)), F(0)))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("t", [F(1), F(19, 4), F(293, 8), F(100)])
def test_classes_give_the_product_tables_hs(k: int, t: F) -> None:
    form = cw_stream.integer_form(ROWS, PRIOR, ALT)
    cls = cw_stream.classes(form, k)
    assert sum(cls.values()) == 5 ** k                     # every sequence in exactly one class
    with mpmath.workdps(50):
        got = (cw_stream.hs_pair(cls, form, k, form.u, form.u2, mpmath.mpf(t.numerator) / t.denominator),
               cw_stream.hs_pair(cls, form, k, form.u2, form.u, mpmath.mpf(t.numerator) / t.denominator))
        for a, b in zip(got, product_hs(k, t), strict=True):
            assert abs(a - mpmath.mpf(b.numerator) / b.denominator) < mpmath.mpf(10) ** -40


def test_classes_are_the_types() -> None:
    """5 distinct columns: one class per type, C(K + 4, 4) of them."""
    form = cw_stream.integer_form(ROWS, PRIOR, ALT)
    for k in (2, 6, 12):
        assert len(cw_stream.classes(form, k)) == cw_stream.class_bound(5, k) == math.comb(k + 4, 4)


def test_two_releases_values() -> None:
    """ln(293/8): delta 0; 2 ln(19/4), the fresh database's epsilon: delta 9/50."""
    with mpmath.workdps(50):
        assert max(cw_stream.stream_delta(ROWS, PRIOR, ALT, 2, mpmath.log(mpmath.mpf(293) / 8))) < 1e-30
        d = cw_stream.stream_delta(ROWS, PRIOR, ALT, 2, 2 * mpmath.log(mpmath.mpf(19) / 4))
        assert abs(d[0] - mpmath.mpf(9) / 50) < 1e-30 and abs(d[1] - mpmath.mpf(9) / 50) < 1e-30
        assert cw_stream.fresh_delta(ROWS, PRIOR, ALT, 2, 2 * mpmath.log(mpmath.mpf(19) / 4)) < 1e-30


def test_theorem_bounds_the_same_database() -> None:
    """The composition theorem's delta (worst support pair) is at least the exact one."""
    for k in (1, 3, 8):
        eps = k * mpmath.log(mpmath.mpf(19) / 4)
        exact = max(cw_stream.stream_delta(ROWS, PRIOR, ALT, k, eps))
        assert cw_stream.theorem_delta(ROWS, PRIOR, ALT, k, eps) >= exact


def write(tmp_path: Path, composition: str, cw: bool = True, prior: str = '{"0": "1/2", "1": "1/2"}') -> Path:
    text = (SPECS / "rr5_cw_stream_k12.yaml").read_text()
    text = text.replace("composition: {runs: 12, same_database: true}", composition)
    text = text.replace('prior: {"0": "1/2", "1": "1/2"}', f"prior: {prior}")
    if not cw:
        text = text.split("cw:")[0] + "neighbours: all\n" + text.split("neighbours: all\n")[1]
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    return path


def test_the_shipped_claims_take_the_stream_route() -> None:
    from obligations.models import unfold
    for name, verdict in (("rr5_cw_stream_k12", "proved"), ("rr5_cw_stream_k12_fresh", "refuted")):
        u = unfold(load(SPECS / f"{name}.yaml"))
        assert u.route is not None and u.route.name == "by classes of output sequences"
        assert str(u.plan.expected) == verdict
        assert "check_stream_" in u.rendered.text and "fmech_power" in u.rendered.text


@pytest.mark.parametrize("composition, cw, field", [
    ("composition: {runs: 12}", True, "composition.same_database"),
    ("composition: {runs: 12, same_database: false}", True, "composition.same_database"),
    ("composition: {runs: 12, same_database: true}", False, "composition.same_database"),
])
def test_refused_naming_the_field(tmp_path: Path, composition: str, cw: bool, field: str) -> None:
    from obligations.models import unfold
    with pytest.raises(SpecError) as exc:
        unfold(load(write(tmp_path, composition, cw)))
    assert exc.value.field == field


@pytest.mark.parametrize("prior, field", [
    ('{"0": "1/2", "1": "1/3"}', "cw.prior"),
    ('{"0": "1/2", "9": "1/2"}', "cw.prior.9"),
])
def test_bad_priors(tmp_path: Path, prior: str, field: str) -> None:
    with pytest.raises(SpecError) as exc:
        load(write(tmp_path, "composition: {runs: 12, same_database: true}", prior=prior))
    assert exc.value.field == field
