"""`obligations region` of an `additive:` spec (certify/accountant_profile.py): the certified
bracket of δ(ε) at chosen ε, the smallest ε at chosen δ, the table, the discrete Gaussian's
integer-order Rényi bound beside them (marked as an upper bound only), the JSON, the claim a
certificate of the points states, and the refusals (exit 2 naming the option or field).  No
Coq here (tests/coq/test_gauss_one_window.py certifies a profile); small specs, in-process."""
from __future__ import annotations

import contextlib
import io
import json
import math
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.errors import SpecError
from obligations.models import derive, load

GAUSS: dict[str, Any] = {
    "schema_version": 1, "name": "dgauss_2_10_runs", "description": "sigma 2, sensitivity 1, 10 runs",
    "additive": {"discrete_gaussian": {"sigma": 2}, "sensitivity": 1, "runs": 10},
    "claim": {"epsilon": 5, "delta": "1/100"}}
LAPLACE: dict[str, Any] = {
    "schema_version": 1, "name": "dlap_half_10_runs", "description": "alpha 1/2, sensitivity 1, 10 runs",
    "additive": {"discrete_laplace": {"alpha": "1/2"}, "sensitivity": 1, "runs": 10},
    "claim": {"epsilon": 5, "delta": "1/100"}}


def write(tmp_path: Path, spec: dict[str, Any], **additive: object) -> Path:
    """The spec with `additive` fields changed, as a file."""
    data = {**spec, "additive": {**spec["additive"], **additive}}
    path = tmp_path / f"{data['name']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_the_gaussian_region_prints_the_bracket_and_the_renyi_bound_beside_it(tmp_path: Path) -> None:
    code, out, err = run("region", str(write(tmp_path, GAUSS)), "--epsilon", "5", "--delta", "1/1000")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("dgauss_2_10_runs, 10 runs of discrete Gaussian, sigma = 2, sensitivity 1: "
                               "delta(eps) certified in a bracket by the accountant")
    assert "  eps = 5: delta in [0.00304428, 0.00304428]" in lines
    assert "  delta = 0.001: smallest eps to 1/100 is 5.6 (delta(5.6) in [0.000985258, 0.000985258])" in lines
    # K·ρ = 10·1/(2·4) = 5/4: at ε = 5 the best order is (Kρ + ε)/2Kρ = 5/2, δ ≤ e^(−(ε − Kρ)²/4Kρ)
    # = e^(−45/16); at δ = 10^-3 the least ε is Kρ + 2√(Kρ ln 1000), at the order 1 + √(ln 1000/Kρ)
    assert f"    eps = 5: delta <= {math.exp(-45 / 16):.6g} (order 2.5; the bracket's upper end: 0.00304428)" \
        in lines
    at, order = 1.25 + 2 * math.sqrt(1.25 * math.log(1000)), 1 + math.sqrt(math.log(1000) / 1.25)
    assert f"    delta = 0.001: eps <= {at:.6g} (order {order:.6g}; the bracket's: 5.6)" in lines
    assert any(line.startswith("  Renyi bound at real orders") and "an upper bound only" in line for line in lines)
    assert "  smallest eps with delta(eps) <= delta (eps a multiple of the tolerance shown; Renyi eps" in out
    assert (f"         0.1   2.57      1/100  [0.0995347, 0.0995347]  {1.25 + 2 * math.sqrt(1.25 * math.log(10)):.6g} "
            f"({1 + math.sqrt(math.log(10) / 1.25):.4g})") in lines


def test_the_gaussian_region_as_json_gives_the_claims_exactly(tmp_path: Path) -> None:
    code, out, err = run("region", str(write(tmp_path, GAUSS)), "--epsilon", "5", "--delta", "1/1000", "--json")
    assert code == 0, err
    prof = json.loads(out)
    assert (prof["method"], prof["compose"], prof["certificate"]) == ("accountant", 10, None)
    at_eps, at_delta = prof["points"]
    assert (at_eps["proved_delta"], at_eps["refuted_delta"]) == ("76107/25000000", "304427/100000000")
    assert at_eps["renyi"] == {"order": 2.5, "epsilon": 5.0, "delta": math.exp(-45 / 16), "given": "epsilon",
                               "exponent": "-45/16"}
    assert (at_delta["epsilon"], at_delta["at_delta"], at_delta["tolerance"]) == ("28/5", "1/1000", "1/100")
    assert at_delta["delta_upper"] <= 1e-3 and at_delta["renyi"]["given"] == "delta"
    assert len(prof["table"]) == 10 and all("renyi" in row for row in prof["table"])


def test_the_laplace_region_brackets_the_exact_delta(tmp_path: Path) -> None:
    """Sensitivity 1: every loss is ±ln 2, P-mass 2/3 on +, so δ(ε) of 10 runs is a binomial sum."""
    code, out, err = run("region", str(write(tmp_path, LAPLACE)), "--epsilon", "5", "--epsilon", "7", "--json")
    assert code == 0, err
    prof = json.loads(out)

    def exact(eps: float) -> float:
        return math.fsum(math.comb(10, j) * (2 / 3) ** j * (1 / 3) ** (10 - j)
                         * max(0.0, 1 - math.exp(eps) * 2.0 ** -(2 * j - 10)) for j in range(11))
    for point, eps in zip(prof["points"], (5, 7), strict=True):
        assert point["delta_lower"] <= exact(eps) * (1 + 1e-12) and exact(eps) <= point["delta_upper"]
        assert F(point["proved_delta"]) >= F(exact(eps))
    assert prof["points"][1]["refuted_delta"] is None   # 10 runs are (10 ln 2, 0)-DP: nothing to refute at 7
    assert "renyi" not in prof["points"][0]
    code, out, _ = run("region", str(write(tmp_path, LAPLACE)), "--delta", "1/1000")
    assert code == 0 and "Renyi" not in out
    assert "  delta = 0.001: smallest eps to 1/100 is 6.88" in out


def test_compose_says_the_runs_of_a_one_run_spec(tmp_path: Path) -> None:
    code, out, err = run("region", str(write(tmp_path, GAUSS, runs=1)), "--compose", "10", "--epsilon", "5")
    assert code == 0, err
    assert "dgauss_2_10_runs, 10 runs of discrete Gaussian" in out and "eps = 5: delta in [0.00304428" in out
    code, out, err = run("region", str(write(tmp_path, GAUSS)), "--compose", "10", "--epsilon", "5")
    assert code == 0 and "10 runs of" in out, err


@pytest.mark.parametrize("args,words", [
    (("--compose", "20"), "--compose 20 conflicts with additive.runs = 10"),
    (("--compose", "0"), "--compose must be between 1 and"),
    (("--delta", "0"), "--delta must be in (0, 1)"),
    (("--delta", "1/2", "--tolerance", "2"), "--tolerance must be in (0, 1]"),
    (("--delta", "x"), "--delta x: expected a rational"),
    (("--epsilon", "ln(3)"), "--epsilon ln(3): the accountant takes a rational epsilon"),
    (("--digits", "0"), "--digits must be between 1 and 17"),
])
def test_bad_options_are_refused_naming_them(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    code, _, err = run("region", str(write(tmp_path, GAUSS)), *args)
    assert code == 2 and words in err, err


def test_runs_past_the_budget_are_refused_naming_where_the_runs_came_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`MAX_PRODUCTS` applies as for `prove`: refused before the convolution that would exceed it
    (a small budget stands for the real one)."""
    from obligations.analysis import accountant as acc
    monkeypatch.setattr(acc, "MAX_PRODUCTS", 10 ** 4)
    spec = write(tmp_path, GAUSS, runs=1000)
    code, _, err = run("region", str(spec), "--epsilon", "40")
    assert code == 2 and f"{spec}: additive.runs: the 1000-fold privacy-loss distribution needs more" in err, err
    spec = write(tmp_path, GAUSS, runs=1)
    code, _, err = run("region", str(spec), "--compose", "1000", "--epsilon", "40")
    assert code == 2 and f"{spec}: --compose: the 1000-fold privacy-loss distribution" in err, err


def test_a_certificate_of_points_states_them_all_in_one_theorem(tmp_path: Path) -> None:
    """What `--certify` asks Coq (the same theorems `prove` uses, `zdp_gauss_acc` and
    `not_zdp_gauss_acc`), and the record `verify` derives it from again."""
    spec = load(write(tmp_path, GAUSS, runs=1))
    record = {"name": "dg_k10_profile_x", "compose": 10,
              "points": [["5", "76107/25000000", "304427/100000000"], ["28/5", "1/1000", None]]}
    u = unfold(derive(spec, record))
    assert u.rendered.theorems == ("dg_k10_profile_x_profile",)
    text = u.rendered.text
    assert ("Theorem dg_k10_profile_x_profile :\n  zdp dg_k10_profile_x 1 10 (5) (76107 / 25000000) /\\\n"
            "  ~ zdp dg_k10_profile_x 1 10 (5) (304427 / 100000000) /\\\n"
            "  zdp dg_k10_profile_x 1 10 ((28 / 5)) (1 / 1000).") in text
    assert text.count("pose proof (zdp_gauss_acc ") == 2 and text.count("pose proof (not_zdp_gauss_acc ") == 1
    assert u.spec.derived == record and u.spec.runs == 10
    with pytest.raises(SpecError, match="derived claim dg_k10_profile_x"):
        derive(spec, dict(record, points=[["5", "1/2", "3/4"]]))   # lower above upper
    with pytest.raises(ValueError, match="not a profile of this spec"):
        derive(spec, {"name": "dg", "epsilon": "5", "delta": "1/2", "compose": 10})
