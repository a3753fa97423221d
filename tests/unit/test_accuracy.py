"""Accuracy claims (no Coq): the YAML form and its errors, the exact error table and the
verdict Python expects, the Coq document's theorems, and the comparison with Laplace."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.errors import SpecError
from obligations.models import check, load, unfold

REPO = Path(__file__).resolve().parent.parent.parent
GEOMETRIC = REPO / "mechanisms" / "truncated_geometric_accuracy.yaml"


def data(**claim: Any) -> dict[str, Any]:
    d = yaml.safe_load(GEOMETRIC.read_text())
    if claim:
        d["claim"] = claim
    return d


@pytest.mark.parametrize("claim,field,words", [
    ({"accuracy": {"alpha": 0, "beta": "1/6"}}, "claim.accuracy.alpha", "must be positive"),
    ({"accuracy": {"alpha": "-1", "beta": "1/6"}}, "claim.accuracy.alpha", "must be positive"),
    ({"accuracy": {"alpha": 2, "beta": "3/2"}}, "claim.accuracy.beta", "not in [0, 1]"),
    ({"accuracy": {"alpha": 2, "beta": "-1/2"}}, "claim.accuracy.beta", "not in [0, 1]"),
    ({"accuracy": {"alpha": 2}}, "claim.accuracy.beta", "required"),
    ({"accuracy": {"alpha": "ln(2)", "beta": "1/2"}}, "claim.accuracy.alpha", ""),
    ({"expected_error": {"at_most": "-1"}}, "claim.expected_error.at_most", "negative"),
    ({"accuracy": {"alpha": 2, "beta": "1/6"}, "expected_error": {"at_most": 1}}, "claim", "exactly one"),
    ({"accuracy": {"alpha": 2, "beta": "1/6", "gamma": 1}}, "claim.accuracy.gamma", "unknown field"),
])
def test_bad_accuracy_claims_name_the_field(claim: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SpecError) as exc:
        check(data(**claim), "spec.yaml")
    assert exc.value.field == field and words in str(exc.value)
    assert exc.value.exit_code == 2


def test_accuracy_claims_on_kinds_without_them_are_refused() -> None:
    pipeline = yaml.safe_load((REPO / "mechanisms" / "snapping_unclamped.yaml").read_text())
    pipeline["claim"] = {"accuracy": {"alpha": 1, "beta": "1/2"}}
    with pytest.raises(SpecError, match="distance_to_laplace") as exc:
        check(pipeline, "p.yaml")
    assert exc.value.field == "claim.accuracy"
    program = yaml.safe_load((REPO / "mechanisms" / "above_threshold.yaml").read_text())
    program["claim"] = {"expected_error": {"at_most": 1}}
    with pytest.raises(SpecError) as exc:
        check(program, "q.yaml")
    assert exc.value.field == "claim.expected_error" and "program" in str(exc.value)
    labels = yaml.safe_load((REPO / "mechanisms" / "randomized_response.yaml").read_text())
    labels.pop("profile")
    labels["claim"] = {"accuracy": {"alpha": 1, "beta": "1/2"}}
    with pytest.raises(SpecError, match="integer values") as exc:
        check(labels, "r.yaml")
    assert exc.value.field == "inputs"


def test_the_error_table_is_exact() -> None:
    u = unfold(load(GEOMETRIC))
    t = u.mechanism
    # away from the ends Pr[|Z| > 2] = 2·(1/2)^3 / (3/2) = 1/6; at the ends the truncation halves it
    assert t.tail == tuple(Fraction(1, 12) if x in (0, 1, 2, 8, 9, 10) else Fraction(1, 6) for x in range(11))
    assert t.expected[5] == Fraction(31, 24) and t.expected[0] == Fraction(341, 512)
    assert u.plan.expected == "proved"
    assert u.rendered.theorems == ("truncated_geometric_accuracy_distr", "truncated_geometric_accuracy_accurate")
    assert "check_accuracy truncated_geometric_accuracy" in u.rendered.text


def test_a_false_claim_is_refuted_with_the_input_and_its_exact_probability() -> None:
    u = unfold(check(data(accuracy={"alpha": 2, "beta": "1/10"}), str(GEOMETRIC)))
    assert u.plan.expected == "refuted" and u.mechanism.witness == 3
    assert u.rendered.theorems[-2:] == ("truncated_geometric_accuracy_inaccuracy_at",
                                        "truncated_geometric_accuracy_not_accurate")
    assert "= Q2R (1 # 6)" in u.rendered.text
    tight = unfold(check(data(accuracy={"alpha": 2, "beta": "1/6"}), str(GEOMETRIC)))
    assert tight.plan.expected == "proved"          # the worst input exactly at beta
    e = unfold(check(data(expected_error={"at_most": "31/24"}), str(GEOMETRIC)))
    assert e.plan.expected == "proved" and e.rendered.theorems[-1].endswith("_expected_error_le")
    below = unfold(check(data(expected_error={"at_most": "30/24"}), str(GEOMETRIC)))
    assert below.plan.expected == "refuted" and below.mechanism.witness == 5


def test_distance_to_laplace_checks_the_pipeline_and_its_claim() -> None:
    d = yaml.safe_load((REPO / "mechanisms" / "snapping_laplace_distance.yaml").read_text())
    u = unfold(check(d, "d.yaml"))
    assert u.rendered.theorems[-1] == "snapping_laplace_distance_laplace_distance_interior"
    assert "snap_lap_dist_inner" in u.rendered.text
    with pytest.raises(SpecError) as exc:
        check({**d, "claim": {"distance_to_laplace": "expected"}}, "d.yaml")
    assert exc.value.field == "claim.distance_to_laplace"
    with pytest.raises(SpecError) as exc:
        check({**d, "claim": {"distance_to_laplace": "pointwise", "epsilon": 1}}, "d.yaml")
    assert exc.value.field == "claim.epsilon"
    steps = list(d["pipeline"]["steps"])
    steps[1] = {"scale": "-1/eps"}
    with pytest.raises(SpecError) as exc:
        unfold(check({**d, "pipeline": {**d["pipeline"], "steps": steps}}, "d.yaml"))
    assert exc.value.field == "pipeline.steps"
