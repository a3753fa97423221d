"""The discrete Laplace's pure DP (obligations/table/by_pure.py): K runs are exactly
(K·Δ·ln(1/α), 0)-DP, so a claim with δ = 0 is proved above that ε and refuted below it, by the
density ratio and not by the accountant (whose bound never reaches 0); the discrete Gaussian
is pure DP for no ε, and every such claim is refuted at the output of K copies of −m, the least
m whose ratio e^(K·(2m + 1)/2v) is above e^ε."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.analysis import finite
from obligations.certify.run import unfold
from obligations.core.obligation import Verdict
from obligations.models import load
from obligations.table.by_pure import BY_GAUSS_PURE, BY_PURE, decide, decide_gauss, exact_epsilon

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "tests" / "specs" / "additive"


def spec_file(tmp_path: Path, noise: dict[str, Any], runs: int, eps: str, delta: str = "0",
              sensitivity: int = 1) -> Path:
    data = {"schema_version": 1, "name": "pure_case", "additive": {**noise, "sensitivity": sensitivity, "runs": runs},
            "claim": {"epsilon": eps, "delta": delta}}
    path = tmp_path / "pure_case.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def unfolded(path: Path) -> Any:
    return unfold(load(path))


@pytest.mark.parametrize(("stem", "verdict", "library"), [
    ("dlap_half_3_runs_pure", Verdict.PROVED, "zdp_dlap_pure_dec"),
    ("dlap_half_3_runs_impure", Verdict.REFUTED, "not_zdp_dlap_pure_dec")])
def test_delta_zero_goes_to_the_pure_route(stem: str, verdict: Verdict, library: str) -> None:
    u = unfolded((SPECS / f"{stem}.yaml").relative_to(REPO))
    assert u.route is BY_PURE and u.plan.expected == verdict
    assert u.rendered.theorems == (f"{stem}_{'dp' if verdict == Verdict.PROVED else 'refuted'}",)
    assert library in u.rendered.text and "Require Import PreludePure." in u.rendered.text
    assert "3*ln(2) = 2.079441542" in u.plan.notes[0]
    assert u.plan.tight_epsilon == "3*ln(2)"


@pytest.mark.parametrize(("alpha", "runs", "sensitivity"), [(F(1, 2), 3, 1), (F(2, 3), 5, 2), (F(9, 10), 40, 3)])
def test_the_verdict_flips_at_the_exact_epsilon(tmp_path: Path, alpha: F, runs: int, sensitivity: int) -> None:
    """Just above K·Δ·ln(1/α) proved, just below refuted, with e^ε ≤ U < (1/α)^(K·Δ)."""
    exact = runs * sensitivity * math.log(1 / alpha)
    for eps, proved in ((F(exact).limit_denominator(10 ** 6) + F(1, 10 ** 5), True),
                        (F(exact).limit_denominator(10 ** 6) - F(1, 10 ** 5), False)):
        path = spec_file(tmp_path, {"discrete_laplace": {"alpha": str(alpha)}}, runs, str(eps),
                         sensitivity=sensitivity)
        spec = load(path)
        assert math.isclose(exact_epsilon(spec), exact)
        check = decide(spec)
        assert check is not None and (check.upper is None) == proved
        power = (1 / alpha) ** (runs * sensitivity)
        assert check.power == power
        if check.upper is not None:
            assert math.exp(eps) <= check.upper < power


def test_the_pure_route_leaves_delta_above_zero_to_the_others(tmp_path: Path) -> None:
    path = spec_file(tmp_path, {"discrete_laplace": {"alpha": "1/2"}}, 3, "3", delta="1/100000")
    assert not BY_PURE.applies(load(path))


def test_a_claim_the_taylor_sums_cannot_separate_falls_to_the_accountant_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(finite, "TAYLOR_TERMS", 1)
    u = unfolded(spec_file(tmp_path, {"discrete_laplace": {"alpha": "1/2"}}, 3, "2080/1000"))
    assert u.route is not BY_PURE and u.plan.expected == Verdict.UNDECIDED
    note = next(n for n in u.plan.notes if n.startswith("delta = 0"))
    assert "3*ln(2)" in note and "never proves delta = 0" in note


def test_the_discrete_gaussian_is_never_pure_dp(tmp_path: Path) -> None:
    u = unfolded(spec_file(tmp_path, {"discrete_gaussian": {"sigma": "2"}}, 2, "3"))
    assert u.route is BY_GAUSS_PURE and u.plan.expected == Verdict.REFUTED
    note = next(n for n in u.plan.notes if n.startswith("delta = 0"))
    assert "(eps, 0)-DP for no eps" in note and "2 copies of -6" in note and "e^(13/4)" in note
    assert "not_zdp_dgauss_pure_dec" in u.rendered.text and "Require Import PreludePure." in u.rendered.text
    assert u.witness() is not None and u.witness()["x_prime"] == "1"


@pytest.mark.parametrize(("sigma", "runs", "eps", "exp_eps"), [
    ("2", 2, "3", None), ("5", 1, "1/10", None), ("5", 1000, "900", None), ("1/3", 7, "0", None),
    ("2", 2, "ln(7)", 7), ("3/2", 4, "2*ln(3)", 9)])
def test_the_gaussian_output_is_the_least_that_refutes(tmp_path: Path, sigma: str, runs: int, eps: str,
                                                       exp_eps: int | None) -> None:
    """K·(2m + 1)/2v above ε (e^ε ≤ 1 + that, when e^ε is rational), and not at m − 1: even at a
    large ε (where the accountant's lower end of δ is 0 in floats) the claim is refuted."""
    check = decide_gauss(load(spec_file(tmp_path, {"discrete_gaussian": {"sigma": sigma}}, runs, eps)))
    assert check is not None
    v = F(sigma) ** 2

    def refutes(m: int) -> bool:
        ratio = runs * F(2 * m + 1) / (2 * v)
        return ratio > check.eps if check.eps is not None else check.exact is not None and check.exact <= 1 + ratio
    assert check.m >= 0 and refutes(check.m) and (check.m == 0 or not refutes(check.m - 1))
    assert check.exact == exp_eps


def test_a_gaussian_epsilon_without_a_rational_exponential_is_left_to_the_accountant(tmp_path: Path) -> None:
    assert decide_gauss(load(spec_file(tmp_path, {"discrete_gaussian": {"sigma": "2"}}, 2, "exp(1)"))) is None


@pytest.mark.parametrize(("eps", "verdict", "library"), [
    ("3*ln(2)", Verdict.PROVED, "zdp_dlap_pure_exp"), ("ln(7)", Verdict.REFUTED, "not_zdp_dlap_pure_exp")])
def test_a_logarithm_epsilon_is_compared_exactly(tmp_path: Path, eps: str, verdict: Verdict, library: str) -> None:
    """e^ε rational: the least ε itself, 3·ln 2, is proved (e^ε = 8 = (1/α)^3), ln 7 refuted."""
    u = unfolded(spec_file(tmp_path, {"discrete_laplace": {"alpha": "1/2"}}, 3, eps))
    assert u.route is BY_PURE and u.plan.expected == verdict
    assert library in u.rendered.text and "exp_exact" in u.rendered.text
    assert "exactly: e^eps = " in u.plan.notes[0]
