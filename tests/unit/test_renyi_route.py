"""The discrete Gaussian's (ε, δ) claims by one Rényi moment (obligations/table/by_renyi.py): the
order chosen is a rational near the best real order whose bound, in exact arithmetic, is within
a hair of ρ-zCDP's in full; the route takes only the claims its bound proves (not one just below
the real-order bound), and the accountant keeps every other claim (its certificates unchanged)."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from obligations.certify.run import unfold
from obligations.core.obligation import Verdict
from obligations.models import load
from obligations.table.by_renyi import BY_RENYI, LOSS, best_order, coq_exponent, exponent, proves, vertex

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "tests" / "specs" / "additive"


@pytest.mark.parametrize(("rho_k", "eps"),
                         [(F(20), F(60)), (F(1, 50), F(3)), (F(20000), F(40012)), (F(7, 3), F(11, 2)),
                          (F(20000), F(20960)), (F(20), F(4622, 100)),
                          (F(10 ** 7, 3), F(10 ** 7 + 12345, 3) + F(1, 7))])
def test_the_order_is_a_short_rational_as_good_as_the_best_real_one(rho_k: F, eps: F) -> None:
    """The exponent is Kρ(a − vertex)² above −(ε − Kρ)²/4Kρ, the least over real a > 1: the
    chosen order's is within LOSS of it, at least as good as every integer order, and no
    rational with a smaller denominator near the vertex does as well."""
    b = best_order(rho_k, eps)
    least = -(eps - rho_k) ** 2 / (4 * rho_k)
    assert b.order > 1 and b.exponent == exponent(rho_k, eps, b.order)
    assert exponent(rho_k, eps, vertex(rho_k, eps)) == least <= b.exponent <= least + LOSS
    assert all(b.exponent <= exponent(rho_k, eps, a) for a in range(2, 2000))
    shorter = vertex(rho_k, eps).limit_denominator(b.order.denominator - 1) if b.order.denominator > 1 else None
    assert shorter is None or exponent(rho_k, eps, shorter) > least + LOSS


def test_no_order_helps_at_or_below_k_rho() -> None:
    """ε ≤ Kρ: every order's bound is at least 1, so nothing below 1 is taken."""
    b = best_order(F(20000), F(20000))
    assert b.exponent > 0 and not proves(b, F(999, 1000), (b.exponent.numerator, b.exponent.denominator))


def test_the_exponent_coq_computes_is_the_exponent() -> None:
    """`coq_exponent` mirrors Coq's unreduced Q arithmetic: same value, for the size check."""
    v, a, eps = F(25), F(128, 125), F(20960)
    num, den = coq_exponent(v, 1, 10 ** 6, a, eps)
    assert F(num, den) == exponent(F(10 ** 6) / (2 * v), eps, a) == F(-1152, 100)


def test_a_million_runs_take_the_renyi_route() -> None:
    """(20960, 10⁻⁵): the order 128/125 is the vertex itself, the bound e^−11.52 ≈ 9.9295·10⁻⁶;
    integer orders needed ε = 40012 at this δ."""
    u = unfold(load((SPECS / "dgauss_5_million_runs_renyi.yaml").relative_to(REPO)))
    assert u.route is BY_RENYI and u.plan.expected == Verdict.PROVED
    assert "order 128/125" in u.plan.notes[0] and math.isclose(u.plan.delta_at_claim_float, math.exp(-11.52))
    text = u.rendered.text
    assert "Theorem dgauss_5_million_runs_renyi_dp : zdp dgauss_5_million_runs_renyi 1 1000000 (20960) (1 / 100000)." \
        in text and "zdp_dgauss_qorder dgauss_5_million_runs_renyi_v 1 1000000 (128 # 125) (20960 # 1)" in text


@pytest.mark.parametrize("spec", ["dgauss_5_1000_runs_low.yaml", "dgauss_5_1000_runs_at_delta.yaml",
                                  "dlap_half_1000_runs_low.yaml"])
def test_claims_the_bound_does_not_reach_keep_the_accountant(spec: str) -> None:
    """(40, 1e-5) at 1000 runs is false (and the real-order bound needs ε ≥ 20 + 2√(20·ln 10⁵)
    ≈ 50.35); the smallest ε at δ needs both sides; the discrete Laplace has no Rényi route."""
    data = load((SPECS / spec).relative_to(REPO))
    assert not BY_RENYI.applies(data) or BY_RENYI.analyse(data) is None


@pytest.mark.parametrize(("eps", "delta"), [("20960", "9929504/1000000000000"),   # e^-11.52 = 9.92950431e-6
                                            ("20959", "1/100000")])                # least ε: 20959.70
def test_a_claim_just_below_the_real_order_bound_is_not_taken(tmp_path: Path, eps: str, delta: str) -> None:
    text = (SPECS / "dgauss_5_million_runs_renyi.yaml").read_text()
    low = tmp_path / "low.yaml"
    low.write_text(text.replace("epsilon: 20960, delta: 1/100000", f"epsilon: {eps}, delta: {delta}"))
    assert BY_RENYI.analyse(load(str(low))) is None


def test_the_margin_and_the_float_range() -> None:
    """Just above the bound by less than the accountant's relative margin: not taken (Coq's
    interval may not clear it); a δ below the normal floats, or an exponent whose numerator Coq
    cannot make a float: not taken."""
    b = best_order(F(20000), F(20960))
    bound = F(99295043058, 10 ** 16)           # e^-11.52 = 9.9295043058...e-6, rounded down
    assert proves(b, bound * (1 + F(1, 10 ** 8)), (-1152, 100))
    assert not proves(b, bound * (1 + F(1, 10 ** 10)), (-1152, 100))
    assert not proves(best_order(F(20000), F(10 ** 6)), F(1, 2 ** 1030), (-1, 1))
    assert not proves(b, F(1, 100000), (-(2 ** 1001), 1))


@pytest.mark.parametrize(("eps", "taken"), [("230349/100", True), ("230348/100", False)])
def test_the_accountants_hint_is_where_the_route_starts(tmp_path: Path, eps: str, taken: bool) -> None:
    """10⁵ runs at δ = 10⁻⁵: the accountant's refusal says "every epsilon above 2303.49"
    (tests/unit/test_additive.py); the route takes 2303.49 and not 2303.48."""
    text = (SPECS / "dgauss_5_million_runs_renyi.yaml").read_text()
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("runs: 1000000", "runs: 100000").replace("epsilon: 20960", f"epsilon: {eps}"))
    assert (BY_RENYI.analyse(load(str(spec))) is not None) is taken
