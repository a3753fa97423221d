"""`obligations schema` is a JSON Schema editors can use: valid itself, every `$ref`
resolvable, every shipped and test spec valid against it, and a misspelt field refused."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from obligations.cli import main

REPO = Path(__file__).resolve().parents[2]
SPECS = sorted([*REPO.glob("mechanisms/*.yaml"), *REPO.glob("tests/specs/**/*.yaml")])


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["schema"]) == 0
    schema = json.loads(out.getvalue())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_there_are_specs_to_check() -> None:
    assert len(SPECS) > 30


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_spec_is_valid_against_the_schema(validator: jsonschema.Draft202012Validator, path: Path) -> None:
    errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text()))]
    assert errors == []


def _rr() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((REPO / "mechanisms" / "randomized_response.yaml").read_text())
    return data


def test_a_misspelt_field_is_refused(validator: jsonschema.Draft202012Validator) -> None:
    data = _rr()
    data["neighbors"] = data.pop("neighbours")
    assert not validator.is_valid(data)


def test_a_claim_of_the_wrong_type_is_refused(validator: jsonschema.Draft202012Validator) -> None:
    data = _rr()
    data["claim"] = ["ln(3)", "0"]
    assert not validator.is_valid(data)
