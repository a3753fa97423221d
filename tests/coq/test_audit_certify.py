"""Real Coq: `obligations audit` on the shipped audit where a peer is wrong (prv_accountant 0.2.0's
bound on 50 runs of any (ln 3, 0)-DP mechanism at eps = 1, below randomized response's exact delta):
refuted with randomized response as the witness mechanism, exit 1."""
from __future__ import annotations

import json
from pathlib import Path

import inprocess
import pytest

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parent.parent.parent
PRV = REPO / "mechanisms" / "refuted" / "prv_accountant_pure_dp_ln_3_50_runs_eps_1.yaml"


def test_the_wrong_report_is_refuted(tmp_path: Path) -> None:
    done = inprocess.cli("audit", str(PRV), "--out", str(tmp_path), "--build", str(tmp_path / "build"), "--json")
    assert done.returncode == 1, done.stderr + done.stdout
    (item,) = json.loads(done.stdout)
    assert item["verdict"] == "WRONG" and item["accountant"] == "prv_accountant 0.2.0"
    cert = json.loads((tmp_path / f"{PRV.stem}.json").read_text())
    assert cert["verdict"] == "refuted"
    assert "dp nb (fmech_power M 50)" in cert["theorems"][-1]["statement"]
