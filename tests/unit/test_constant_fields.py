"""A field that takes a rational constant (δ, a tolerance, σ) given a name instead is a spec
error naming the file and the field (exit 2), for every form that reads one: it was an internal
error (a KeyError from evaluating an unknown name)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.errors import SpecError
from obligations.models import load

REPO = Path(__file__).resolve().parents[2]


def edited(tmp_path: Path, source: str, edit: Any) -> Path:
    data = yaml.safe_load((REPO / source).read_text())
    edit(data)
    path = tmp_path / Path(source).name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    for part in (REPO / source).parent.glob("*.yaml"):  # a chain reads its parts beside it
        if not (tmp_path / part.name).exists():
            (tmp_path / part.name).write_text(part.read_text())
    return path


@pytest.mark.parametrize(("source", "field", "edit"), [
    ("tests/specs/additive/dgauss_2_2_runs_pure.yaml", "claim.delta", lambda d: d["claim"].update(delta="q")),
    ("tests/specs/additive/dgauss_2_2_runs_pure.yaml", "claim.tolerance",
     lambda d: d.update(claim={"tolerance": "zz", "delta": "1/100"})),
    ("tests/specs/additive/dgauss_2_2_runs_pure.yaml", "additive.discrete_gaussian.sigma",
     lambda d: d["additive"]["discrete_gaussian"].update(sigma="s")),
    ("tests/specs/chain/rr3_chain_low.yaml", "claim.delta", lambda d: d["claim"].update(delta="d")),
    ("mechanisms/rounded_laplace.yaml", "claim.delta", lambda d: d["claim"].update(delta="d")),
])
def test_a_name_where_a_constant_is_needed_is_a_spec_error(tmp_path: Path, source: str, field: str, edit: Any) -> None:
    path = edited(tmp_path, source, edit)
    with pytest.raises(SpecError) as info:
        load(path)
    assert info.value.field == field and "unknown name" in str(info.value) and path.name in str(info.value)
