"""The committed certificates are current: every field `verify` re-derives from the spec
matches and each .v is the render with the recorded proofs (no Coq run needed for that;
`make prove` would reuse every one of them).  The same for the test specs' certificates in
tests/certificates/ (`make test-certificates`), which the Coq tests read (tests/committed.py)."""
from __future__ import annotations

import json
from pathlib import Path

import committed
import pytest

from obligations.certify import allowlist
from obligations.certify import certificate as cert
from obligations.certify.outcome import Settings
from obligations.certify.record import compare
from obligations.certify.run import unfold
from obligations.certify.verify import _derived_spec

REPO = Path(__file__).resolve().parent.parent.parent
CERTS = sorted((REPO / "certificates").glob("*.json"))
TEST_CERTS = sorted(committed.TEST_CERTS.glob("*.json"))


def test_every_shipped_spec_has_a_certificate() -> None:
    from obligations.certify.run import load_specs
    names = {p.stem for p in CERTS}
    assert {s.name for s in load_specs([REPO / "mechanisms", REPO / "mechanisms" / "refuted"])} <= names


def test_every_listed_test_spec_has_a_certificate_and_no_other() -> None:
    """(Its profile's points too, for a spec with a profile.)"""
    assert committed.listed_claims() == {p.stem for p in TEST_CERTS}


@pytest.mark.parametrize("path", CERTS + TEST_CERTS,
                         ids=[p.stem for p in CERTS] + [f"tests/{p.stem}" for p in TEST_CERTS])
def test_committed_certificate_matches_its_spec(path: Path) -> None:
    record = json.loads(path.read_text())
    assert cert.is_sealed(record)
    u = unfold(_derived_spec(record, path, None))
    assert compare(record, u, Settings(), path.with_suffix(".v")) == []
    # what Coq printed when it made the file passes today's allow-list
    assert allowlist.refused(record["assumptions"], record.get("uses_interval") is True,
                             record.get("uses_analysis") is True) == []


def test_a_library_change_stales_only_the_certificates_that_load_the_file(tmp_path: Path) -> None:
    """The library hash a certificate records covers the library files its .v loads: an
    edit to a file it does not load (a Laplace file, for a table) leaves it current, an edit
    to one it loads makes it stale; so a change to one concept re-makes only its certificates."""
    import shutil
    theories = tmp_path / "theories"
    shutil.copytree(Settings().theories, theories, ignore=shutil.ignore_patterns("*.vo*", "*.glob", ".*"))
    path = REPO / "certificates" / "randomized_response.json"
    record = json.loads(path.read_text())
    u = unfold(_derived_spec(record, path, None))
    settings = Settings(theories=theories)
    assert compare(record, u, settings, path.with_suffix(".v")) == []
    with (theories / "Laplace" / "RealSym.v").open("a") as f:
        f.write("\n(* an edit elsewhere *)\n")
    assert compare(record, u, settings, path.with_suffix(".v")) == []
    with (theories / "Core" / "SubDistr.v").open("a") as f:
        f.write("\n(* an edit to a file it loads *)\n")
    assert [p.split(":")[0] for p in compare(record, u, settings, path.with_suffix(".v"))] == ["library_sha256"]
