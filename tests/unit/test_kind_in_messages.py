"""Spec errors say which kind of spec the file was read as, and a field that belongs to another
kind says which; three messages that misled (a comma in a number, exp in a family's formula,
'did you mean' the name itself)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from obligations.cli import main

REPO = Path(__file__).resolve().parents[2]

PIPELINE = """schema_version: 1
name: pipe
parameters: {eps: positive}
pipeline: {steps: [ln, {scale: "1/eps"}, sign, {add_query: {}}, {round: {grid: 1}}], sensitivity: 1}
claim: {epsilon: eps}
"""


def check(tmp_path: Path, text: str) -> tuple[int, str]:
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["check", str(spec)])
    return code, err.getvalue().strip()


def shipped(name: str) -> str:
    return (REPO / "mechanisms" / f"{name}.yaml").read_text()


def test_the_pipeline_itself_is_accepted(tmp_path: Path) -> None:
    assert check(tmp_path, PIPELINE)[0] == 0


@pytest.mark.parametrize("text, field, owner, reader", [
    (PIPELINE + "neighbours: every_pair\n", "neighbours", "table or formula", "noise pipeline"),
    (shipped("report_noisy_max_all_k") + "neighbours: all\n", "neighbours", "table or formula",
     "program for every stream length"),
    (shipped("randomized_response").replace('claim: {epsilon: "ln(3)", delta: "0"}', "claim: {for_all_k: true}"),
     "claim.for_all_k", "program", "table or formula"),
])
def test_a_field_of_another_kind_names_that_kind(tmp_path: Path, text: str, field: str, owner: str,
                                                 reader: str) -> None:
    code, err = check(tmp_path, text)
    assert code == 2
    assert f"spec.yaml: {field}: unknown field here; it is a field of {owner} specs" in err
    assert f"(read as a {reader}" in err
    assert "did you mean" not in err    # the name is right, the kind is not


def test_an_unknown_field_of_no_kind_still_names_the_kind_read(tmp_path: Path) -> None:
    code, err = check(tmp_path, PIPELINE + "frobnicate: 1\n")
    assert code == 2
    assert err.endswith("spec.yaml: frobnicate: unknown field (see `obligations schema`) "
                        "(read as a noise pipeline spec)")


def test_other_errors_name_the_kind_too(tmp_path: Path) -> None:
    code, err = check(tmp_path, PIPELINE.replace("sensitivity: 1", "sensitivity: -1"))
    assert code == 2 and "spec.yaml: pipeline.sensitivity: " in err and "(read as a noise pipeline spec)" in err


def test_a_comma_in_a_number_says_what_yaml_read(tmp_path: Path) -> None:
    code, err = check(tmp_path, shipped("randomized_response").replace(
        'claim: {epsilon: "ln(3)", delta: "0"}', "claim: {epsilon: 1,1}"))
    assert code == 2
    assert "spec.yaml: claim: 1 is not a field name" in err and "1.1 or '11/10'" in err
    assert "Keys should be strings" not in err


def test_exp_in_a_family_formula_says_it_is_not_allowed_there(tmp_path: Path) -> None:
    code, err = check(tmp_path, """schema_version: 1
name: rr_fam_exp
parameters:
  k: {integer: ">= 2"}
  eps: {range: "(0, 5]"}
inputs: {range: [0, k - 1]}
outputs: {range: [0, k - 1]}
formula: "exp(eps)/(exp(eps) + k - 1) if x == y else 1/(exp(eps) + k - 1)"
neighbours: all
claim: {epsilon: "eps"}
""")
    assert code == 2
    assert "spec.yaml: formula: exp and ln are not allowed in a formula with symbolic parameters" in err
    assert "the values of a formula" not in err    # the old message said they were allowed there
    assert "(read as a formula with symbolic parameters spec)" in err
