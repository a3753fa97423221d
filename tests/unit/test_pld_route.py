"""A composed claim (`composition: {runs: K}`) too large for the product table goes by the
PLD route (obligations/kinds/finite/pld_route.py): what it predicts and renders, and what it
refuses (exit 2 naming the field) before Coq runs."""
from __future__ import annotations

import contextlib
import io
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.analysis.finite import tabulate
from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import PowerPldCheck, Verdict
from obligations.errors import SpecError
from obligations.models import check as check_spec
from obligations.models import load, witness
from obligations.table.by_pld import exact_delta

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "mechanisms" / "truncated_geometric_1000_runs.yaml"
LOW = REPO / "tests" / "specs" / "composition" / "geometric_10_runs_delta_low.yaml"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def spec_data(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    return data


def test_shipped_claim_is_predicted_proved_without_the_product_table() -> None:
    u = unfold(load(SHIPPED.relative_to(REPO)))
    assert u.plan.expected == Verdict.PROVED
    check = next(o for o in u.plan.obligations if isinstance(o, PowerPldCheck))
    assert (check.base, check.runs, check.refute) == (2, 1000, False)
    assert abs(u.plan.delta_at_claim_float - 0.0111579088161) < 1e-12
    text = u.rendered.text
    assert "Require Import PreludePLD." in text
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
    assert float(w["delta_exact"]) > 0.2307
    assert "loss_event geometric_10_runs_delta_low 0 1 (exp (3))" in u.rendered.text


def test_show_names_the_pair_of_a_refuted_composed_claim() -> None:
    """`show` words the PLD check on the single run's table: the witness pair by its labels."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", str(LOW.relative_to(REPO))]) == 0
    assert ("the 10-fold PLD's delta(eps) > 2307/10000, witness x = 0, x' = 1, S = their loss event"
            in out.getvalue())


def test_exact_delta_matches_the_two_atom_curve() -> None:
    assert abs(exact_delta(Fraction(2), 10, Fraction(3)) - 0.230771174421909) < 1e-14


def _three_losses(d: dict[str, Any]) -> None:
    """3-ary randomized response: ratios 2, 1/2 and 1 between two rows."""
    d.pop("formula"), d.pop("parameters")
    d["inputs"], d["outputs"] = ["a", "b", "c"], ["a", "b", "c"]
    d["table"] = {"a": ["1/2", "1/4", "1/4"], "b": ["1/4", "1/2", "1/4"], "c": ["1/4", "1/4", "1/2"]}
    d["neighbours"] = "all"


REFUSED = {
    "three-loss-values": (_three_losses, "composition.runs", "exactly two"),
    "irrational-epsilon": (lambda d: d["claim"].update(epsilon="ln(20)"), "claim.epsilon", "rational"),
    "beyond-binary64": (lambda d: d["composition"].update(runs=1100), "composition.runs", "binary64"),
    "with-profile": (lambda d: d.update(profile={"compose": [1]}), "composition", "profile"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_the_route_cannot_do_is_refused_naming_the_field(tmp_path: Path, case: str) -> None:
    edit, field, words = REFUSED[case]
    data = spec_data(LOW)
    edit(data)
    spec = tmp_path / f"{case}.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("check", str(spec))
    assert code == 2, err
    assert f"{spec}: {field}:" in err and words in err


def test_small_compositions_keep_the_product_table() -> None:
    """6^4 = 1296 outputs: the product table's route, as before (its certificates stay valid)."""
    data = spec_data(LOW)
    data["composition"]["runs"] = 4
    u = unfold(check_spec(data, str(LOW), ""))
    assert "PreludePLD" not in u.rendered.text


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
