"""Real Coq on program specs: the buggy variants are refused with their witness (or
certified where the tool finds them private: read from the certificates Coq made of them),
a program certificate re-verifies from its sweep point, and Coq does not take Python's
word for it.

The shipped program mechanisms (mechanisms/online_model.yaml, ...) are certified
by tests/coq/test_certify_programs.py, every sweep point."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

from obligations.certify.outcome import Settings
from obligations.certify.run import load_specs, run_coq, unfold
from obligations.core.document import Document

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "tests" / "unit"))
from test_program import VERDICTS  # noqa: E402  (the verdicts Python expects)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args)


# The sweep points read here, one per behaviour, from the certificates Coq made of every point
# (tests/committed.py; Python's verdict on every point of every variant is checked without
# Coq by tests/unit/test_program.py; the shipped programs' every point by
# tests/coq/test_certify_programs.py): refuted at ln 2 (noisy value), at a finite ratio and
# with an output one side never reaches (no query noise), proved up to k = 3 and refuted at
# k = 4 (no cutoff), refuted and then re-verified (noisy max's value).
POINTS = {"at_noisy_value": [1], "at_no_query_noise": [1, 2], "at_no_cutoff": [3, 4], "rnm_value": [2]}
PROGRAMS = REPO / "tests" / "specs" / "programs"


@pytest.fixture(scope="module")
def buggy() -> tuple[Path, dict[str, dict[str, Any]]]:
    out, results = committed.results(*sorted(PROGRAMS.glob("*.yaml")))
    wanted = {f"{n}_k{k}" for n, ks in POINTS.items() for k in ks}
    return out, {n: o for n, o in results.items() if n in wanted}


def test_buggy_variants_get_the_verdicts_python_expects(buggy: tuple[Path, dict[str, Any]]) -> None:
    out, results = buggy
    names = {s.name for s in load_specs([PROGRAMS])}
    assert set(results) == {f"{n}_k{k}" for n, ks in POINTS.items() for k in ks} and set(results) <= names
    assert {VERDICTS[n][1] for n in results} == {"proved", "refuted"}
    for name, o in results.items():
        want = VERDICTS[name][1]
        assert o["verdict"] == want, (name, o["message"])
        if want == "refuted":
            assert o["statement"].startswith(f"~ dp_prog {name}_deltas {name}_inputs {name}_prog"), o
            w = o["witness"]
            assert w["x"].startswith("q=(") and w["x_prime"].startswith("q=(") and w["outputs"]
            assert float(w["violation"]) > 0
        else:
            assert o["statement"].startswith(f"dp_prog {name}_deltas"), o
        record = json.loads((out / f"{name}.json").read_text())
        assert record["derived"]["sweep"] == {"k": name.rsplit("_k", 1)[1]}


def test_no_query_noise_witness_has_probability_zero_on_one_side(buggy: tuple[Path, dict[str, Any]]) -> None:
    w = buggy[1]["at_no_query_noise_k2"]["witness"]
    assert w["pr_x_prime"] == "0" and w["outputs"] == ["⊥ ⊤"]


def test_program_certificate_verifies_and_detects_edits(buggy: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, _ = buggy
    name = "rnm_value_k2"
    for ext in (".json", ".v"):
        shutil.copy(out / f"{name}{ext}", tmp_path / f"{name}{ext}")
    spec = str(PROGRAMS / "report_noisy_max_value.yaml")       # the copy's relative spec path is gone
    # verify's route-dependent half agrees (its Coq half is route-independent: committed.rederived)
    assert committed.rederived(tmp_path / f"{name}.json", Path(spec)) == []
    v = tmp_path / f"{name}.v"
    v.write_text(v.read_text().replace("(DTGeom (1 # 2)", "(DTGeom (1 # 3)", 1))
    run = cli("verify", str(tmp_path / f"{name}.json"), "--spec", spec, "--build", str(tmp_path / "b2"))
    assert run.returncode == 1 and "is not the file the spec renders to" in run.stdout


def test_coq_refuses_a_wrong_hint(tmp_path: Path) -> None:
    """Python's bound is only a hint: a bound below the tight one makes Coq's check fail."""
    u = next(unfold(s) for s in load_specs([REPO / "mechanisms" / "online_model.yaml"])
             if s.name == "online_model_k2")
    forged = u.rendered.text.replace("(943 # 292)", "(3 # 1)")
    assert forged != u.rendered.text
    doc = Document.verbatim(u.rendered.module, forged)
    outcome, audit = run_coq(replace(u, rendered=replace(u.rendered, document=doc)),
                              Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"
    assert "online_model_k2_checked" in outcome.message
