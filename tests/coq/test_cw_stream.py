"""Real Coq: a CW claim about K runs on the SAME database (`composition: {runs: K,
same_database: true}`) is certified by classes of output sequences (table/by_stream.py,
theories/Finite/TypeClass.v), without the 5^12-row product table.

5-ary randomized response, priors ½/½ on {0, 1} against {2, 3}, 12 releases: at
ε = 12·ln(19/4), where 12 releases on fresh databases are (ε, 0)-private, the same
database has δ(ε) = 0.11934; (ε, 3/25) is proved and (ε, 0) refuted with the loss event.
Beyond the classes (20 releases, 10 626 > 5000), the composition theorem with the accountant
(table/by_stream_theorem.py, theories/Accountant/CWStreamAcc.v) proves (30, 19/100), in the
same `prove` run.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "cw_compose"

pytestmark = pytest.mark.coq


def unqualified(statement: str) -> str:
    return re.sub(r"\b[A-Z][A-Za-z0-9_]*\.", "", statement)


@pytest.fixture(scope="module")
def proved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str], dict[str, Any]]:
    out = tmp_path_factory.mktemp("cw_stream")
    done = subprocess.run([sys.executable, "-m", "obligations", "prove", str(SPECS / "rr5_cw_stream_k12.yaml"),
                           str(SPECS / "rr5_cw_stream_k12_fresh.yaml"),
                           str(SPECS / "rr5_cw_stream_k20_theorem.yaml"), "--out", str(out),
                           "--build", str(out / "build"), "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=1800)
    return out, done, json.loads(done.stdout) if done.stdout.strip() else {}


def test_the_claim_is_proved_and_the_fresh_database_value_refuted(
        proved: tuple[Path, subprocess.CompletedProcess[str], dict[str, Any]]) -> None:
    out, done, result = proved
    assert done.returncode == 1, done.stderr          # one refuted: exit 1
    by_name = {o["name"]: o for o in result["results"]}
    ok, bad = by_name["rr5_cw_stream_k12"], by_name["rr5_cw_stream_k12_fresh"]
    assert ok["verdict"] == "proved"
    assert unqualified(ok["statement"]) == "dp nb_all rr5_cw_stream_k12 (12 * ln (19 / 4)) (3 / 25)"
    assert bad["verdict"] == "refuted"
    assert unqualified(bad["statement"]) == "~ dp nb_all rr5_cw_stream_k12_fresh (12 * ln (19 / 4)) 0"
    record = json.loads((out / "rr5_cw_stream_k12_fresh.json").read_text())
    assert record["witness"]["runs"] == 12 and record["witness"]["delta_exact"].startswith("0.11934")


def test_beyond_the_classes_the_theorem_proves(
        proved: tuple[Path, subprocess.CompletedProcess[str], dict[str, Any]]) -> None:
    out, _, result = proved
    by_name = {o["name"]: o for o in result["results"]}
    ok = by_name["rr5_cw_stream_k20_theorem"]
    assert ok["verdict"] == "proved"
    assert unqualified(ok["statement"]) == "dp nb_all rr5_cw_stream_k20_theorem 30 (19 / 100)"
    v = (out / "rr5_cw_stream_k20_theorem.v").read_text()
    assert ("Definition rr5_cw_stream_k20_theorem : fmech :=\n  fmech_cw (fmech_power "
            "rr5_cw_stream_k20_theorem_table 20) rr5_cw_stream_k20_theorem_prior "
            "rr5_cw_stream_k20_theorem_alt_prior.") in v
    assert "cw_stream_acc" in v and "supp_nb" in v


def test_the_certified_mechanism_is_the_same_database_power(
        proved: tuple[Path, subprocess.CompletedProcess[str], dict[str, Any]]) -> None:
    out, _, _ = proved
    v = (out / "rr5_cw_stream_k12.v").read_text()
    assert ("Definition rr5_cw_stream_k12 : fmech :=\n  fmech_cw (fmech_power rr5_cw_stream_k12_table 12) "
            "rr5_cw_stream_k12_prior rr5_cw_stream_k12_alt_prior.") in v
    assert "cw_stream_dp_of_check" in v


def test_verify_rechecks_the_three(proved: tuple[Path, subprocess.CompletedProcess[str], dict[str, Any]]) -> None:
    out, _, _ = proved
    done = subprocess.run([sys.executable, "-m", "obligations", "verify", str(out / "rr5_cw_stream_k12.json"),
                           str(out / "rr5_cw_stream_k12_fresh.json"), str(out / "rr5_cw_stream_k20_theorem.json"),
                           "--build", str(out / "vbuild")],
                          cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
