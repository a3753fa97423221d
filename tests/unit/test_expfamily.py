"""The geometric calibrated with alpha = e^(-eps), given by its parameters
(`geometric: {epsilon, n}`): what Python proposes (proved as the library's `rgeom`, refuted
with the witness x = 0, x' = min(d, n), S = {0}, undecided in between), that n = 10 000
renders as n = 100 does, and bad input refused before Coq (exit 2, file and field)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from inprocess import cli

from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.models import check, load, unfold

REPO = Path(__file__).resolve().parent.parent.parent
GEOM = REPO / "mechanisms" / "geometric_eps1.yaml"
SPECS = REPO / "tests" / "specs" / "calibrated"


def _geom(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(GEOM.read_text())
    data.update(changes)
    return data


def test_the_shipped_geometric_is_an_instance_of_the_library_family() -> None:
    u = unfold(load(GEOM))
    assert u.spec.kind == "expfamily"
    assert u.plan.expected == Verdict.PROVED and u.plan.tight_epsilon == "1"
    text = u.rendered.text
    assert "Definition geometric_eps1 : rmech := rgeom (1) (Z.to_nat 100)." in text
    assert "apply rgeom_rdp_le" in text and "interval with" not in text
    assert u.rendered.theorems == ("geometric_eps1_rdistr", "geometric_eps1_dp")


def test_n_10000_renders_as_n_100_does() -> None:
    small = unfold(load(GEOM)).rendered.text
    large = unfold(load(SPECS / "geometric_eps1_n10000.yaml")).rendered.text
    assert large.replace("geometric_eps1_n10000", "geometric_eps1").count("\n") == small.count("\n")
    assert "(Z.to_nat 10000)" in large and "10001" not in large


def test_a_claim_below_eps_is_refuted_at_output_0() -> None:
    u = unfold(load(SPECS / "geometric_eps1_claim_0_99.yaml"))
    assert u.plan.expected == Verdict.REFUTED
    w = u.mechanism.witness
    assert (w.x, w.x2, w.y) == (0, 1, 0) and abs(w.ratio - 2.718281828459045) < 1e-12
    assert "not_rdp_of_entry" in u.rendered.text and "rgeom_ratio_zero" in u.rendered.text


def test_sensitivity_d_multiplies_eps_and_its_witness_is_d_apart() -> None:
    u = unfold(load(SPECS / "geometric_ln2_distance3.yaml"))
    assert u.plan.expected == Verdict.PROVED
    assert "rgeom_rdp_distance_le" in u.rendered.text and "(nb_distance 3)" in u.rendered.text
    low = unfold(check(_geom(neighbours={"distance": 3}, claim={"epsilon": "2.9"}), "g.yaml"))
    assert low.plan.expected == Verdict.REFUTED and low.mechanism.witness.x2 == 3


def test_beyond_n_the_claim_between_n_eps_and_d_eps_is_undecided() -> None:
    data = _geom(geometric={"epsilon": 1, "n": 2}, neighbours={"distance": 5}, claim={"epsilon": 3})
    u = unfold(check(data, "g.yaml"))
    assert u.plan.expected == Verdict.UNDECIDED
    assert unfold(check({**data, "claim": {"epsilon": "19/10"}}, "g.yaml")).plan.expected == Verdict.REFUTED
    assert unfold(check({**data, "claim": {"epsilon": 5}}, "g.yaml")).plan.expected == Verdict.PROVED


def test_a_claim_equal_to_eps_written_otherwise_is_proved() -> None:
    u = unfold(check(_geom(geometric={"epsilon": "ln(2)", "n": 5}, claim={"epsilon": "-ln(1/2)"}), "g.yaml"))
    assert u.plan.expected == Verdict.PROVED


@pytest.mark.parametrize("changes, field, words", [
    ({"geometric": {"epsilon": "abs(1)", "n": 5}}, "geometric.epsilon", "abs(...) is not supported"),
    ({"geometric": {"epsilon": 0, "n": 5}}, "geometric.epsilon", "must be positive"),
    ({"geometric": {"epsilon": "__import__('os')", "n": 5}}, "geometric.epsilon", ""),
    ({"geometric": {"epsilon": 1, "n": 0}}, "geometric.n", ""),
    ({"claim": {"epsilon": 1, "delta": "1/100"}}, "claim.delta", "pure DP"),
    ({"neighbours": "all"}, "neighbours", ""),
    ({"name": "Definition"}, "name", ""),
])
def test_bad_input_names_the_field(changes: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SpecError) as err:
        check(_geom(**changes), "g.yaml")
    assert err.value.field.startswith(field) and words in str(err.value)


def test_bad_input_exits_2_before_coq(tmp_path: Path) -> None:
    spec = tmp_path / "g.yaml"
    spec.write_text(yaml.safe_dump(_geom(geometric={"epsilon": "exp(x)", "n": 5})))
    done = cli("prove", str(spec), "--out", str(tmp_path / "o"), "--build", str(tmp_path / "b"))
    assert done.returncode == 2 and str(spec) in done.stderr and "geometric.epsilon" in done.stderr
    assert not (tmp_path / "b").exists()


# ---------------------------------------------------------------- the exponential mechanism

EXPM = REPO / "mechanisms" / "exponential_mechanism_scores.yaml"


def _expm(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(EXPM.read_text())
    data.update(changes)
    return data


def test_the_exponential_mechanism_claim_equal_to_2_c_delta_is_proved() -> None:
    u = unfold(load(EXPM))
    assert u.spec.kind == "expfamily" and u.spec.family == "exponential"
    assert u.plan.expected == Verdict.PROVED
    assert u.mechanism.sensitivity == 1 and u.mechanism.bound == 1
    assert abs(u.plan.tight_epsilon_float - 0.6608152966) < 1e-9   # the table's exact epsilon, below 2c*Delta
    text = u.rendered.text
    assert "expmech (1 / 2) 4 4 exponential_mechanism_scores_scores" in text
    assert "apply (expmech_rdp_le _ _ _ _ _ (1 # 1))" in text and "check_sensitivity_sound" in text


def test_the_same_table_as_exp_entries_is_the_bracket_route_and_its_tight_epsilon() -> None:
    brackets = unfold(load(REPO / "mechanisms" / "exponential_mechanism.yaml"))
    scores = unfold(load(EXPM))
    assert brackets.spec.kind == "calibrated"
    assert abs(brackets.plan.tight_epsilon_float - scores.plan.tight_epsilon_float) < 1e-9


def test_an_exponential_claim_below_its_exact_epsilon_is_refuted_at_the_largest_ratio() -> None:
    u = unfold(load(SPECS / "exponential_mechanism_scores_claim_half.yaml"))
    assert u.plan.expected == Verdict.REFUTED
    w = u.mechanism.witness
    assert (w.x, w.x2, w.y) == (0, 1, 0) and abs(w.ratio - 1.93637040735) < 1e-9
    assert "not_rdp_of_entry" in u.rendered.text


def test_an_exponential_claim_between_its_exact_epsilon_and_2_c_delta_is_undecided() -> None:
    u = unfold(check(_expm(claim={"epsilon": "4/5"}), "e.yaml"))
    assert u.plan.expected == Verdict.UNDECIDED
    assert u.rendered.theorems == ("exponential_mechanism_scores_rdistr",)


def test_the_sensitivity_is_over_the_neighbours_and_the_coefficient_may_be_real() -> None:
    data = _expm(neighbours="all", exponential={"coefficient": "ln(3)/2", "scores": _expm()["exponential"]["scores"]},
                 claim={"epsilon": "3*ln(3)"})
    u = unfold(check(data, "e.yaml"))
    assert u.mechanism.sensitivity == 3 and u.plan.expected == Verdict.PROVED
    assert "nb_all" in u.rendered.text


@pytest.mark.parametrize("changes, field, words", [
    ({"exponential": {"coefficient": "1/2", "scores": {"0": ["exp(1)", 0, 0, 0]}}}, "exponential.scores", ""),
    ({"exponential": {"coefficient": "-1/2", "scores": {}}}, "exponential.coefficient", ">= 0"),
    ({"exponential": {"coefficient": "abs(-1)", "scores": {}}}, "exponential.coefficient", "abs(...)"),
    ({"exponential": {"coefficient": "1/2", "scores": {"0": [0, 1, 2, 3]}}}, "exponential.scores", "no row"),
    ({"exponential": {"coefficient": "1/2", "scores": {str(i): [0, 1] for i in range(4)}}},
     "exponential.scores.0", "2 scores for 4 outputs"),
    ({"geometric": {"epsilon": 1, "n": 3}}, "", "exactly one"),
])
def test_bad_exponential_input_names_the_field(changes: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SpecError) as err:
        check(_expm(**changes), "e.yaml")
    assert err.value.field.startswith(field) and words in str(err.value)
