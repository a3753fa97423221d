"""Vacuous claims (no Coq): a claim that holds whatever the mechanism does — no two
distinct inputs are neighbours, or every row is zero — is flagged in the plan
(`Plan.vacuous`), and no shipped mechanism is."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from obligations.analysis.finite import has_distinct_neighbours, rows_all_zero
from obligations.certify.run import load_specs, unfold
from obligations.core.spec import MechanismSpec
from obligations.models import form_of

REPO = Path(__file__).resolve().parents[2]
VACUOUS = REPO / "tests" / "specs" / "vacuous"

# spec name -> a word the reason must contain
CASES = {
    "vac_all_public": "public",             # the only input is public
    "vac_sensitivity_zero": "sensitivity 0",  # the only input has sensitivity 0
    "vac_single_input": "no two distinct inputs",
    "vac_sub_zero_rows": "every row is zero",
    "vac_self_pairs": "no two distinct inputs",  # neighbours: pairs (x, x) only
    # the routes that do not tabulate a finite mechanism (analysis/vacuous.py), and floating point
    "vac_all_k_sensitivity_zero": "sensitivity is 0",    # a stream of any length
    "vac_calibrated_single": "no two distinct inputs",   # a table of real entries
    "vac_expmech_single": "no two distinct inputs",      # the exponential mechanism
    "vac_pipeline_sensitivity_zero": "sensitivity is 0",  # a noise pipeline
    "vac_floating_far": "no two of the query values -1, 1 are within the sensitivity 1",
}


def _spec(name: str) -> MechanismSpec:
    return next(s for s in load_specs([VACUOUS]) if s.name == name)


def test_every_case_has_a_spec() -> None:
    assert {s.name for s in load_specs([VACUOUS])} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_vacuous_claim_is_flagged(name: str) -> None:
    u = unfold(_spec(name))
    assert u.plan.vacuous, name
    assert all(isinstance(r, str) and r for r in u.plan.vacuous)
    assert any(CASES[name] in r for r in u.plan.vacuous), u.plan.vacuous


@pytest.mark.parametrize("name", ["vac_all_public", "vac_sensitivity_zero", "vac_single_input",
                                  "vac_self_pairs"])
def test_no_distinct_neighbours(name: str) -> None:
    spec = _spec(name)
    m = form_of(spec).finite_table(spec)
    assert not has_distinct_neighbours(m)
    assert not rows_all_zero(m)


def test_zero_rows_have_distinct_neighbours() -> None:
    spec = _spec("vac_sub_zero_rows")
    m = form_of(spec).finite_table(spec)
    assert has_distinct_neighbours(m) and rows_all_zero(m)
    assert len(unfold(_spec("vac_sub_zero_rows")).plan.vacuous) == 1


def test_a_public_input_next_to_a_private_one_is_not_vacuous() -> None:
    """online_model's t is public, but d is private: not vacuous."""
    u = unfold(next(s for s in load_specs([REPO / "mechanisms" / "online_model.yaml"])))
    assert u.plan.vacuous == ()


def test_shipped_mechanisms_are_not_vacuous() -> None:
    """From the committed certificates, whose `vacuous` field is today's analysis of their
    spec (tests/coq/test_committed_certificates.py re-derives every field), so the shipped
    specs are not analysed again here."""
    names = {s.name for s in load_specs([REPO / "mechanisms"])}
    records = {n: json.loads((REPO / "certificates" / f"{n}.json").read_text()) for n in names}
    assert records and all("vacuous" in r for r in records.values())
    assert {n: r["vacuous"] for n, r in records.items() if r["vacuous"]} == {}
