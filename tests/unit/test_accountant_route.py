"""Composed claims beyond the product table, the smallest ε at δ and profile points go by the
accountant (obligations/table/by_accountant.py): what it predicts and renders, and what
it refuses (exit 2 naming the field) before Coq runs."""
from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.analysis.finite import tabulate
from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import AccountantCheck, Verdict
from obligations.errors import SpecError
from obligations.models import check as check_spec
from obligations.models import load, witness

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "mechanisms" / "truncated_geometric_1000_runs.yaml"
LOW = REPO / "tests" / "specs" / "composition" / "geometric_10_runs_delta_low.yaml"
RR3 = {"schema_version": 1, "name": "rr3_50_runs", "inputs": ["a", "b", "c"], "outputs": ["a", "b", "c"],
       "table": {"a": ["2/3", "1/6", "1/6"], "b": ["1/6", "2/3", "1/6"], "c": ["1/6", "1/6", "2/3"]},
       "neighbours": "all", "composition": {"runs": 50}, "claim": {"epsilon": "55", "delta": "0.01"}}


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def spec_data(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    return data


def check(o: Any) -> AccountantCheck:
    found = next(x for x in o.plan.obligations if isinstance(x, AccountantCheck))
    assert isinstance(found, AccountantCheck)
    return found


def test_shipped_claim_is_predicted_proved_without_the_product_table() -> None:
    u = unfold(load(SHIPPED.relative_to(REPO)))
    assert u.plan.expected == Verdict.PROVED
    c = check(u)
    assert (c.base, c.stride, c.exact, c.runs, c.plds) == (2, 2, True, 1000, 1)
    assert abs(u.plan.delta_at_claim_float - 0.0111579088161) < 1e-9
    text = u.rendered.text
    assert "Require Import PreludeAcc." in text
    assert ("Theorem truncated_geometric_1000_runs_dp : dp nb_adjacent truncated_geometric_1000_runs (277) (7 / 625)."
            in text)
    assert "Definition truncated_geometric_1000_runs : fmech := fmech_power truncated_geometric_1000_runs_table 1000." \
        in text
    assert u.rendered.theorems == ("truncated_geometric_1000_runs_dp",) and u.rendered.uses_interval()


def test_delta_below_the_exact_one_is_predicted_refuted_with_a_witness() -> None:
    u = unfold(load(LOW.relative_to(REPO)))
    assert u.plan.expected == Verdict.REFUTED
    assert u.rendered.theorems == ("geometric_10_runs_delta_low_refuted",)
    w = witness(u)
    assert w is not None and (w["x"], w["x_prime"], w["runs"]) == ("0", "1", 10)
    assert float(w["delta_upper"]) > 0.2307
    assert "loss_event geometric_10_runs_delta_low 0 1 (exp (3))" in u.rendered.text


def test_three_loss_values_go_by_the_accountant() -> None:
    """3-ary randomized response: losses 4, 1 and 1/4 (the two-value route could not)."""
    u = unfold(check_spec(RR3, "rr3.yaml", ""))
    c = check(u)
    assert (c.base, c.stride, c.exact) == (4, 1, True) and u.plan.expected == Verdict.PROVED


def test_the_smallest_epsilon_at_delta_proves_one_and_refutes_one_below() -> None:
    data = dict(RR3, claim={"delta": "1/100000", "tolerance": "1/100"})
    u = unfold(check_spec(data, "rr3.yaml", ""))
    c = check(u)
    assert u.plan.expected == Verdict.PROVED
    ((eps, d),) = c.proved
    ((below, d2),) = c.refuted
    assert d == d2 == pytest.approx(1e-5) and eps - below == pytest.approx(0.01)
    assert u.rendered.theorems == ("rr3_50_runs_below", "rr3_50_runs_dp")
    assert any("smallest epsilon" in n for n in u.plan.notes)


def test_a_delta_inside_the_bracket_is_undecided() -> None:
    exact = unfold(check_spec(RR3, "rr3.yaml", "")).plan.delta_at_claim_float
    data = dict(RR3, claim={"epsilon": "55", "delta": f"{exact:.17f}"})
    assert unfold(check_spec(data, "rr3.yaml", "")).plan.expected == Verdict.UNDECIDED


def _table(d: dict[str, Any], rows: dict[str, list[str]]) -> None:
    d.pop("formula"), d.pop("parameters")
    d["inputs"], d["outputs"] = list(rows), [str(i) for i in range(len(rows["a"]))]
    d["table"] = rows
    d["neighbours"] = "all"


Edit = Callable[[dict[str, Any]], None]
REFUSED: dict[str, tuple[Edit, str, str]] = {
    "infinite-loss": (lambda d: _table(d, {"a": ["1/2", "1/8", "1/8", "1/8", "1/8"], "b": ["1", "0", "0", "0", "0"]}),
                      "composition.runs", "infinite"),
    "irrational-epsilon": (lambda d: d["claim"].update(epsilon="ln(20)"), "claim.epsilon", "rational"),
    "no-runs": (lambda d: d["composition"].update(runs=0), "composition.runs", "greater than or equal to 1"),
    "negative-runs": (lambda d: d["composition"].update(runs=-3), "composition.runs", "greater than or equal"),
    "with-profile": (lambda d: d.update(profile={"compose": [1]}), "composition", "profile"),
    "tolerance-and-epsilon": (lambda d: d["claim"].update(tolerance="1/100"), "claim.tolerance", "not both"),
    "tolerance-zero": (lambda d: d["claim"].update(tolerance="0", epsilon=None), "claim.tolerance", "(0, 1]"),
    "tolerance-delta-zero": (lambda d: d["claim"].update(tolerance="1/100", epsilon=None, delta="0"),
                             "claim.delta", "(0, 1)"),
    "no-epsilon": (lambda d: d["claim"].pop("epsilon"), "claim.epsilon", "tolerance"),
    "sub-distribution": (lambda d: (_table(d, {"a": ["1/2", "1/8", "1/8", "1/8"], "b": ["1/8", "1/2", "1/8", "1/8"]}),
                                    d.update(distribution="sub")), "distribution", "distributions"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_the_route_cannot_do_is_refused_naming_the_field(tmp_path: Path, case: str) -> None:
    edit, field, words = REFUSED[case]
    data = spec_data(LOW)
    edit(data)
    if data["claim"].get("epsilon", "") is None:
        data["claim"].pop("epsilon")
    spec = tmp_path / f"{case}.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("check", str(spec))
    assert code == 2, err
    assert f"{spec}: {field}:" in err and words in err, err


def test_small_compositions_keep_the_product_table() -> None:
    """6^4 = 1296 outputs: the product table's route, as before (its certificates stay valid)."""
    data = spec_data(LOW)
    data["composition"]["runs"] = 4
    u = unfold(check_spec(data, str(LOW), ""))
    assert "PreludeAcc" not in u.rendered.text


@pytest.mark.parametrize("spec", ["krr_eps1", "truncated_geometric_accuracy"])
def test_kinds_without_composed_claims_refuse_the_field(tmp_path: Path, spec: str) -> None:
    """A calibrated table or an accuracy claim would otherwise be certified for one run."""
    data = spec_data(REPO / "mechanisms" / f"{spec}.yaml")
    data["composition"] = {"runs": 3}
    path = tmp_path / f"{spec}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("check", str(path))
    assert code == 2 and f"{path}: composition:" in err, err


def test_the_product_table_of_a_large_composition_is_never_built() -> None:
    """The table route (profiles, `region`) refuses it instead of exhausting memory."""
    with pytest.raises(SpecError, match="composition.runs"):
        tabulate(load(SHIPPED.relative_to(REPO)))


def test_region_of_a_large_composition_prints_a_decimal_table(tmp_path: Path) -> None:
    spec = tmp_path / "rr3.yaml"
    spec.write_text(yaml.safe_dump(RR3, sort_keys=False))
    code, out, err = run("region", str(spec), "--compose", "1000", "--delta", "1/100000", "--epsilon", "837")
    assert code == 0, err
    assert "eps = 837: delta in [4.48734e-06, 4.48734e-06]" in out
    assert "delta = 1e-05: smallest eps to 1/100 is 831.45" in out
    assert "smallest eps with delta(eps) <= delta" in out and len(out.splitlines()) < 20
    code, out, _ = run("region", str(spec), "--compose", "1000", "--epsilon", "837", "--json")
    data = json.loads(out)
    assert data["method"] == "accountant" and data["points"][0]["proved_delta"] == "89747/20000000000"   # 4.48735e-06


@pytest.mark.parametrize("args,words", [(("--delta", "0"), "--delta must be in (0, 1)"),
                                        (("--delta", "1/2", "--tolerance", "2"), "--tolerance"),
                                        (("--delta", "x"), "expected a rational"),
                                        (("--compose", "0"), "--compose")])
def test_region_refuses_bad_accountant_options(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    spec = tmp_path / "rr3.yaml"
    spec.write_text(yaml.safe_dump(RR3, sort_keys=False))
    code, _, err = run("region", str(spec), *args)
    assert code == 2 and words in err, err
