"""Messages a person can act on: the branch of a union the spec meant, the field a misspelt
one resembles, and YAML's numbers and booleans where text was meant."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import yaml

from obligations.cli import main

REPO = Path(__file__).resolve().parents[2]


def check(tmp_path: Path, text: str) -> tuple[int, str]:
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["check", str(spec)])
    return code, err.getvalue()


def shipped(name: str) -> str:
    return (REPO / "mechanisms" / f"{name}.yaml").read_text()


def test_unknown_distribution_names_the_one_it_resembles_in_one_line(tmp_path: Path) -> None:
    code, err = check(tmp_path, shipped("above_threshold").replace("tgeom: {alpha: alpha_t", "tgoem: {alpha: alpha_t"))
    assert code == 2
    assert err.strip().splitlines() == [
        f"obligations: {tmp_path / 'spec.yaml'}: program.body[0].sample.from.tgoem: unknown field; "
        "did you mean 'tgeom'? (see `obligations schema`) (read as a program spec)"]


def test_neighbors_is_taken_for_neighbours(tmp_path: Path) -> None:
    code, err = check(tmp_path, shipped("randomized_response").replace("\nneighbours:", "\nneighbors:"))
    assert code == 2
    assert "neighbors: unknown field; did you mean 'neighbours'?" in err
    assert "Field required" not in err


def test_a_number_as_a_table_key_says_to_quote_it(tmp_path: Path) -> None:
    data: dict[str, Any] = yaml.safe_load(shipped("randomized_response"))
    data.update(inputs=["0", "1"], table={"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]})
    text = yaml.safe_dump(data, sort_keys=False).replace("'0':", "0:").replace("'1':", "1:")
    code, err = check(tmp_path, text)
    assert code == 2 and "YAML reads 0 as a number: quote it, '0'" in err


def test_yes_as_a_description_says_it_is_a_boolean(tmp_path: Path) -> None:
    data: dict[str, Any] = yaml.safe_load(shipped("randomized_response"))
    data["description"] = "@@"
    code, err = check(tmp_path, yaml.safe_dump(data, sort_keys=False).replace("'@@'", "yes").replace("@@", "yes"))
    assert code == 2
    assert "description: Input should be a valid string (YAML reads this as the boolean True" in err


def test_verify_of_a_spec_says_what_to_run() -> None:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["verify", str(REPO / "mechanisms" / "randomized_response.yaml")])
    assert code == 2
    assert "is a spec, not a certificate: `obligations prove" in err.getvalue()
