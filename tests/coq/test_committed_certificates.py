"""The committed certificates are current: every field `verify` re-derives from the spec
matches and each .v is the render with the recorded proofs (no Coq run needed for that;
`make prove` would reuse every one of them)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from obligations.certify import certificate as cert
from obligations.certify.outcome import Settings
from obligations.certify.record import compare
from obligations.certify.run import unfold
from obligations.certify.verify import _derived_spec

REPO = Path(__file__).resolve().parent.parent.parent
CERTS = sorted((REPO / "certificates").glob("*.json"))


def test_every_shipped_spec_has_a_certificate() -> None:
    from obligations.certify.run import load_specs
    names = {p.stem for p in CERTS}
    assert {s.name for s in load_specs([REPO / "mechanisms", REPO / "mechanisms" / "refuted"])} <= names


@pytest.mark.parametrize("path", CERTS, ids=[p.stem for p in CERTS])
def test_committed_certificate_matches_its_spec(path: Path) -> None:
    record = json.loads(path.read_text())
    assert cert.is_sealed(record)
    u = unfold(_derived_spec(record, path, None))
    assert compare(record, u, Settings(), path.with_suffix(".v")) == []
