"""`neighbours: {distance: d}`: integer inputs at distance at most d are neighbours."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.analysis.finite import neighbour_pairs
from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.models import check, load, unfold

REPO = Path(__file__).resolve().parent.parent.parent
SPEC = REPO / "tests" / "specs" / "distance" / "tgeom_distance2.yaml"


def _spec(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(SPEC.read_text())
    data.update(changes)
    return data


def test_the_pairs_are_those_at_distance_at_most_d() -> None:
    spec = check(_spec(parameters={"alpha": "1/2", "n": 3}), "d.yaml")
    assert spec.neighbours == "distance:2"
    assert set(neighbour_pairs(spec)) == {(a, b) for a in range(4) for b in range(4) if 0 < abs(a - b) <= 2}


def test_the_claim_for_distance_2_is_twice_the_sensitivity_1_epsilon() -> None:
    u = unfold(load(SPEC))
    assert u.plan.expected == Verdict.PROVED and u.plan.tight_epsilon == "ln(4)"
    assert "dp (nb_distance 2) tgeom_distance2 (2 * (ln 2)) 0" in u.rendered.text


def test_a_claim_too_small_for_the_distance_is_refuted() -> None:
    u = unfold(load(SPEC.with_name("tgeom_distance2_claim_ln2.yaml")))
    assert u.plan.expected == Verdict.REFUTED


def test_a_distance_needs_integer_inputs() -> None:
    data = _spec(inputs=["a", "b", "c", "d", "e", "f"])
    data["table"] = {k: ["1/6"] * 6 for k in "abcdef"}
    del data["formula"]
    data["outputs"] = {"range": [0, 5]}
    with pytest.raises(SpecError, match="neighbours.distance"):
        check(data, "d.yaml")


@pytest.mark.parametrize("d", [0, -1, "2"])
def test_a_distance_is_a_positive_integer(d: Any) -> None:
    with pytest.raises(SpecError, match="neighbours"):
        check(_spec(neighbours={"distance": d}), "d.yaml")


def test_a_large_instance_at_distance_2_is_the_library_family_at_distance_2() -> None:
    u = unfold(load(SPEC.with_name("tgeom_distance2_n10000.yaml")))
    assert u.plan.expected == Verdict.PROVED and u.plan.tight_epsilon == "ln(4)"
    text = u.rendered.text
    assert "tgeom_dp_distance_le" in text and "(nb_distance 2)" in text and "tabulate_z" not in text


def test_a_claim_below_the_distance_epsilon_is_refused_on_the_family_route() -> None:
    data = yaml.safe_load(SPEC.with_name("tgeom_distance2_n10000.yaml").read_text())
    data["claim"] = {"epsilon": "ln(2)"}
    with pytest.raises(SpecError, match="below the family's epsilon ln\\(4\\)"):
        unfold(check(data, "d.yaml"))


def test_the_family_for_all_alpha_and_n_at_distance_2() -> None:
    u = unfold(load(SPEC.with_name("tgeom_family_distance2.yaml")))
    assert u.plan.expected == Verdict.PROVED
    assert "tgeom_dp_distance_le" in u.rendered.text and "bound_exp_pow _ 2" in u.rendered.text
    assert "dp (nb_distance 2) (tgeom_family_distance2 p_alpha p_n)" in u.rendered.text


def test_the_family_at_distance_2_claimed_at_the_sensitivity_1_epsilon_is_refuted() -> None:
    u = unfold(load(SPEC.with_name("tgeom_family_distance2_claim_ln.yaml")))
    assert u.plan.expected == Verdict.REFUTED
