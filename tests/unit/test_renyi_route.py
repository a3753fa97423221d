"""The discrete Gaussian's (ε, δ) claims by one Rényi moment (obligations/table/by_renyi.py): the
order chosen is the best integer one, the route takes only the claims its bound proves, and the
accountant keeps every other claim (its certificates unchanged)."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from obligations.certify.run import unfold
from obligations.core.obligation import Verdict
from obligations.models import load
from obligations.table.by_renyi import BY_RENYI, best_order, exponent

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "tests" / "specs" / "additive"


@pytest.mark.parametrize(("rho_k", "eps"),
                         [(F(20), F(60)), (F(1, 50), F(3)), (F(20000), F(40012)), (F(7, 3), F(11, 2))])
def test_the_order_is_the_best_integer_one(rho_k: F, eps: F) -> None:
    b = best_order(rho_k, eps)
    assert b.order >= 2 and b.exponent == exponent(rho_k, eps, b.order)
    assert all(b.exponent <= exponent(rho_k, eps, a) for a in range(2, 2000))


def test_a_million_runs_take_the_renyi_route() -> None:
    u = unfold(load((SPECS / "dgauss_5_million_runs_renyi.yaml").relative_to(REPO)))
    assert u.route is BY_RENYI and u.plan.expected == Verdict.PROVED
    assert "order 2" in u.plan.notes[0] and math.isclose(u.plan.delta_at_claim_float, math.exp(-12))
    text = u.rendered.text
    assert "Theorem dgauss_5_million_runs_renyi_dp : zdp dgauss_5_million_runs_renyi 1 1000000 (40012) (1 / 100000)." \
        in text and "zdp_dgauss_renyi_check dgauss_5_million_runs_renyi_v 1 1000000 2 (40012 # 1)" in text


@pytest.mark.parametrize("spec", ["dgauss_5_1000_runs_low.yaml", "dgauss_5_1000_runs_at_delta.yaml",
                                  "dlap_half_1000_runs_low.yaml"])
def test_claims_the_bound_does_not_reach_keep_the_accountant(spec: str) -> None:
    """(40, 1e-5) at 1000 runs is false (the bound is e^(40 - 40) = 1 at the best order); the
    smallest ε at δ needs both sides; the discrete Laplace has no Rényi route."""
    data = load((SPECS / spec).relative_to(REPO))
    assert not BY_RENYI.applies(data) or BY_RENYI.analyse(data) is None


def test_a_delta_just_below_the_bound_is_not_taken(tmp_path: Path) -> None:
    text = (SPECS / "dgauss_5_million_runs_renyi.yaml").read_text()
    low = tmp_path / "low.yaml"
    low.write_text(text.replace("delta: 1/100000", "delta: 6144212/1000000000000"))   # e^-12 = 6.1442124e-6
    assert BY_RENYI.analyse(load(str(low))) is None
