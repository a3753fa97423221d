"""A `derived` field a certificate's spec cannot have (an adversary's edit, the JSON's hash
recomputed) is refused by `verify` with a message that says what is wrong, before Coq runs."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from inprocess import cli

from obligations.certify import certificate as cert

REPO = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("name, derived", [
    ("randomized_response", {"sweep": {"k": "2"}}),                           # finite: no sweep
    ("randomized_response", {"epsilon": "ln(2)"}),                           # a profile point, cut short
    ("snapping_p6_ustar", {"name": "x", "epsilon": "1", "delta": "0", "k": 1}),  # floating
])
def test_a_derived_field_the_spec_cannot_have_is_refused(tmp_path: Path, name: str, derived: dict[str, object]) -> None:
    (tmp_path / "certificates").mkdir()
    shutil.copytree(REPO / "mechanisms", tmp_path / "mechanisms")
    for suffix in (".json", ".v"):
        shutil.copy(REPO / "certificates" / f"{name}{suffix}", tmp_path / "certificates")
    path = tmp_path / "certificates" / f"{name}.json"
    record = json.loads(path.read_text())
    record["derived"] = derived
    cert.write(path, {k: v for k, v in record.items() if k != "certificate_sha256"})
    run = cli("verify", str(path), "--build", str(tmp_path / "b"))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAILED" in run.stdout
    assert "cannot re-derive the claim: derived: " in run.stdout
    assert "is not a point of this spec's profile" in run.stdout
    assert not (tmp_path / "b").exists()   # refused before Coq ran
