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
    # (tests/unit/test_vacuous.py), whose proofs are the long ones.  The table is proved now (the
    # warning `prove` prints); the program and the every-k program are read from the certificates
    # Coq made of them (tests/certificates/, tests/committed.py: proving them cost ~8 s CPU).
    live = REPO / "tests" / "specs" / "vacuous" / "self_pairs.yaml"
    read = [REPO / "tests" / "specs" / "vacuous" / f
            for f in ("program_all_public.yaml", "all_k_sensitivity_zero.yaml")]
    run = inprocess.cli("prove", str(live), "--out", str(tmp_path), "--build", str(tmp_path / "b"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("WARNING: vacuous claim") >= 1
    folder, results = committed.results(*read)
    assert len(results) == len(read) and all(o["vacuous"] for o in results.values())
    paths = [*tmp_path.glob("*.json"), *(folder / f"{name}.json" for name in results)]
    assert len(paths) == 1 + len(read)
    for record in (json.loads(p.read_text()) for p in paths):
        assert record["verdict"] == "proved" and record["vacuous"], record["name"]
    for path in paths:   # verify re-derives the flag and its reason from the spec
        assert committed.rederived(path) == [], path.name
