"""Real Coq: a vacuous claim is still certified (it is true) but the user is warned and
the certificate says why it holds for any mechanism."""
from __future__ import annotations

import json
from pathlib import Path

import committed
import inprocess

REPO = Path(__file__).resolve().parent.parent.parent


def test_vacuous_claims_are_flagged(tmp_path: Path) -> None:
    # a table, a program and an every-k program: the flag is recorded the same way for every
    # model (certify/record.py); the analysis flags the floating-point and pipeline cases too
    # (tests/unit/test_vacuous.py), whose proofs are the long ones
    specs = [REPO / "tests" / "specs" / "vacuous" / f for f in (
        "self_pairs.yaml", "program_all_public.yaml", "all_k_sensitivity_zero.yaml")]
    run = inprocess.cli("prove", *map(str, specs), "--out", str(tmp_path), "--build", str(tmp_path / "b"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("WARNING: vacuous claim") >= len(specs)
    assert len(list(tmp_path.glob("*.json"))) == len(specs)
    for record in (json.loads(p.read_text()) for p in tmp_path.glob("*.json")):
        assert record["verdict"] == "proved" and record["vacuous"], record["name"]
    for path in tmp_path.glob("*.json"):   # verify re-derives the flag and its reason from the spec
        assert committed.rederived(path) == [], path.name
