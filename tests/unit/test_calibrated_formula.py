"""Formulas whose pieces call exp or ln: tabulated into the table of exact reals of the
calibrated kind (the piece that holds at (x, y), x and y replaced by their values), routed to
that kind, and bad formulas refused before Coq (exit 2, file and field)."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import sympy
import yaml
from inprocess import cli

from obligations.core import expr as E
from obligations.core.obligation import Verdict
from obligations.models import check, load, unfold
from obligations.table.calibrated_formula import has_real_formula

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "calibrated"
KRR = SPECS / "krr_formula_k3.yaml"
GEOM = SPECS / "geometric_formula_eps1.yaml"


def _data(path: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    data.update(changes)
    return data


def _otherwise(value: str, when: str = "y == x", first: str = "exp(eps)/(exp(eps) + k - 1)") -> dict[str, Any]:
    return {"cases": [{"when": when, "value": first}, {"otherwise": value}]}


def test_the_krr_formula_is_tabulated_into_exact_reals_and_is_the_family() -> None:
    u = unfold(load(KRR))
    assert u.spec.kind == "calibrated"
    e = sympy.E
    assert [[sympy.simplify(v - (e / (e + 2) if x == y else 1 / (e + 2))) for y, v in enumerate(row)]
            for x, row in enumerate(u.spec.values)] == [[0] * 3] * 3
    assert all(not (E.names(c) & {"x", "y"}) for row in u.spec.entries for c in row)
    assert u.plan.expected == Verdict.PROVED and u.mechanism.family is not None and u.mechanism.family.k == 3
    assert "(exp 1) / (((exp 1) + 3) - 1)" in u.rendered.text and "krr_exp_rdp" in u.rendered.text
    assert "(exp(eps) / ((exp(eps) + k) - 1)) if y == x; otherwise (1 / ((exp(eps) + k) - 1))" in u.rendered.text


def test_the_krr_formula_claimed_below_its_epsilon_is_refuted_by_the_brackets() -> None:
    u = unfold(load(SPECS / "krr_formula_k3_claim_0_9.yaml"))
    assert u.plan.expected == Verdict.REFUTED
    w = u.mechanism.witness
    assert (w.x, w.x2, w.y) == (0, 1, 0) and w.ratio == pytest.approx(float(sympy.E))


def test_abs_of_the_point_is_folded_and_the_geometric_goes_by_the_brackets() -> None:
    u = unfold(load(GEOM))
    assert u.plan.expected == Verdict.PROVED and u.mechanism.lower is not None
    assert float(u.plan.tight_epsilon) == pytest.approx(1)
    assert "Rabs" not in u.rendered.text and "((exp (- 1)) ^ 3)" in u.rendered.text and "powerRZ" not in u.rendered.text
    # entry (1, 3): the interior piece, alpha^|3 - 1| = e^-2
    want = (1 - sympy.exp(-1)) / (1 + sympy.exp(-1)) * sympy.exp(-2)
    assert sympy.simplify(u.spec.values[1][3] - want) == 0


@pytest.mark.parametrize("claim, verdict", [("1", Verdict.UNDECIDED), ("9/10", Verdict.REFUTED)])
def test_the_geometric_formula_at_or_below_its_epsilon(claim: str, verdict: Verdict) -> None:
    # the tie is no family the calibrated kind recognises (the geometric's family is `geometric:`)
    u = unfold(check(_data(GEOM, claim={"epsilon": claim}), "g.yaml"))
    assert u.plan.expected == verdict


def test_routing_only_a_formula_with_exp_or_ln_in_a_value_is_calibrated() -> None:
    assert has_real_formula({"formula": "exp(1)/(exp(1) + 1)"})
    assert has_real_formula(_data(KRR))
    assert not has_real_formula({"formula": "1/2"})
    assert not has_real_formula({"formula": {"cases": [{"when": "x == y", "value": "1/2"}, {"otherwise": "1/2"}]}})
    rational = _data(KRR, formula="1/3", parameters={})
    assert check(rational, "r.yaml").kind == "finite"
    assert check(_data(KRR, formula="1/3 + 0 * ln(2)"), "r.yaml").kind == "calibrated"


def _run_check(tmp_path: Path, data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    spec = tmp_path / "bad.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    return cli("check", str(spec))


@pytest.mark.parametrize("formula, field, message", [
    (_otherwise("2/(exp(eps) + k - 1)"), "formula", "at x = 0: the row sums to"),
    (_otherwise("1/(exp(eps) - exp(eps))"), "formula.cases[1].otherwise", "at x = 0, y = 1: division by zero"),
    (_otherwise("1/(exp(eps) + k - 1)", first="exp(eps)/(exp(eps) + k - 1) / (x - y)"), "formula.cases[0].value",
     "at x = 0, y = 0: division by zero"),
    (_otherwise("(1 - exp(eps))/(exp(eps) + k - 1)"), "formula.cases[1].otherwise", "is negative"),
    (_otherwise("abs(1/(exp(eps) + k - 1))"), "formula.cases[1].otherwise", "abs of a term with exp or ln"),
    (_otherwise("1/(exp(eps) + k - 1)", when="exp(eps) > x"), "formula.cases[0].when", "not in its conditions"),
    (_otherwise("1/(exp(eps) + k - 1)", when="1/(x - y) > 0 or x == y"), "formula.cases[0].when",
     "at x = 0, y = 0: division by zero"),
])
def test_bad_formulas_are_refused_naming_the_field(tmp_path: Path, formula: dict[str, Any], field: str,
                                                   message: str) -> None:
    done = _run_check(tmp_path, _data(KRR, formula=formula))
    assert done.returncode == 2, done
    assert f"bad.yaml: {field}:" in done.stderr and message in done.stderr, done.stderr
