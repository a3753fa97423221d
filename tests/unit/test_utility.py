"""Snapping against Laplace (seed 003), no Coq: the closed forms of the expected error
against the reference values computed outside the project, the series they come from,
tails, clamped output distributions, and `obligations utility`."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import sympy
from inprocess import cli

from obligations.analysis import utility as U

REPO = Path(__file__).resolve().parent.parent.parent
CASES = [(1.0, 1.0), (1.0, 0.75), (2.0, 1.1), (0.5, 0.26), (4.0, 3.9)]   # (Λ, λ), λ <= Λ < 2λ and beyond


def on_grid(grid: float, lam: float) -> float:        # the reference values, as the issue gives them
    return grid / (2 * math.sinh(grid / lam / 2))


def half_way(grid: float, lam: float) -> float:
    return grid / 2 / math.tanh(grid / lam / 2)


def averaged(grid: float, lam: float) -> float:
    return grid / 4 + 2 * lam ** 2 / grid * (1 - math.exp(-grid / (2 * lam)))


@pytest.mark.parametrize("grid,lam", CASES)
def test_closed_form_gives_the_reference_values(grid: float, lam: float) -> None:
    assert U.expected_error(grid, lam, 0.0) == pytest.approx(on_grid(grid, lam), rel=1e-12)
    assert U.expected_error(grid, lam, 0.5) == pytest.approx(half_way(grid, lam), rel=1e-12)
    assert U.expected_error(grid, lam, -0.5) == pytest.approx(half_way(grid, lam), rel=1e-12)
    n = 4000   # the midpoint rule over the offset
    mean = sum(U.expected_error(grid, lam, -0.5 + (i + 0.5) / n) for i in range(n)) / n
    assert mean == pytest.approx(averaged(grid, lam), rel=1e-6)
    assert float(U.averaged_expr(sympy.Float(grid / lam), sympy.Float(grid))) == pytest.approx(averaged(grid, lam))


@pytest.mark.parametrize("grid,lam", CASES)
@pytest.mark.parametrize("c", [0.0, 0.1, 0.37, 0.5, -0.2, 3.3])
def test_closed_form_is_the_sum_over_the_outputs(grid: float, lam: float, c: float) -> None:
    theta = (c - grid * round(c / grid)) / grid
    assert U.expected_error(grid, lam, theta) == pytest.approx(U.expected_error_series(grid, lam, c), rel=1e-9)


def test_sympy_derives_the_closed_form_and_the_reference_values_exactly() -> None:
    assert all(v == 0 for v in U.derive().values())


def test_a_wrong_closed_form_is_caught() -> None:
    # the test above can fail: Λ / sinh(r/2) (a factor 2 off) is not the on-grid value
    wrong = U.GRID / sympy.sinh(U.R / 2) - U.on_grid_expr()
    assert sympy.simplify(wrong.rewrite(sympy.exp)) != 0
    assert U.expected_error(1.0, 1.0, 0.0) != pytest.approx(1 / math.sinh(0.5))


def test_worst_ratio_to_laplace_approaches_coth_1() -> None:
    # lam <= Λ < 2 lam: the half-way error over lam is (r/2) coth(r/2), largest as r -> 2
    rs = [1 + i / 1000 for i in range(1000)]
    assert U.worst_ratio(rs) < 1 / math.tanh(1) < U.worst_ratio(rs) + 1e-3
    assert 1 / math.tanh(1) == pytest.approx(1.3130352855, rel=1e-9)


@pytest.mark.parametrize("c", [0.0, 0.3, 0.5, -1.7])
@pytest.mark.parametrize("alpha", [0.4, 1.0, 2.5])
def test_tail_unclamped_is_the_sum_of_the_far_outputs(c: float, alpha: float) -> None:
    grid, lam = 1.0, 0.8
    k0 = round(c / grid)
    direct = sum(U.laplace_cdf((k + 0.5) * grid - c, lam) - U.laplace_cdf((k - 0.5) * grid - c, lam)
                 for k in range(k0 - 200, k0 + 201) if abs(k * grid - c) > alpha)
    assert U.tail_unclamped(grid, lam, c, alpha) == pytest.approx(direct, abs=1e-12)


def test_clamped_outputs_are_a_distribution_with_the_clamping_bias() -> None:
    grid, lam, b = 1.0, 1.0, 4.0
    for c in (-7.0, -4.0, 0.3, 3.9, 4.0, 6.0):
        o = U.clamped_outputs(grid, lam, b, c)
        assert sum(o.probs) == pytest.approx(1.0, abs=1e-12)
        assert min(o.probs) >= 0 and max(o.values) == b and min(o.values) == -b
    inside = U.clamped_outputs(grid, lam, 40.0, 0.3)     # far from the clamp: the unclamped error
    assert inside.expected_error(0.3) == pytest.approx(U.expected_error(grid, lam, 0.3), rel=1e-9)
    far = U.clamped_outputs(grid, lam, b, b + 3)         # case 4: every output is at most B
    assert far.bias(b + 3) < -3 and far.tail(b + 3, 2.9) == pytest.approx(1.0)
    assert far.expected_error(b + 3) == pytest.approx(-far.bias(b + 3))


def test_utility_prints_the_expected_errors_and_refuses_a_missing_value() -> None:
    done = cli("utility", "mechanisms/snapping_clamped_instance.yaml")
    assert done.returncode == 0, done.stderr
    assert "Λ/(2 sinh(r/2))" in done.stdout and "bias" in done.stdout
    missing = cli("utility", "mechanisms/snapping_clamped.yaml", "--at", "eps=1")
    assert missing.returncode == 2 and "--at lam=VALUE" in missing.stderr
    finite = cli("utility", "mechanisms/randomized_response.yaml")
    assert finite.returncode == 2 and "noise pipeline" in finite.stderr


def test_utility_writes_the_figures(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    done = cli("utility", "mechanisms/snapping_clamped_instance.yaml", "--plot", str(tmp_path))
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    for kind in ("errors", "vs_epsilon", "vs_offset", "tails", "clamping_bias"):
        assert f"snapping_clamped_instance_{kind}.png" in names and f"snapping_clamped_instance_{kind}.svg" in names
