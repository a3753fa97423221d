"""Continuous Laplace noise at a fixed stream length, with real Coq: `prove` certifies
AboveThreshold on two answers (mechanisms/above_threshold_laplace_k1.yaml claimed at stream length
2) as `rdp_prog` over the reals, the record saying the noise and the length and the audit admitting
mathcomp-analysis's axioms by exact name; the certificate Coq made of the shipped spec (one
answer) says the same (read, tests/coq/test_committed_certificates.py keeps it current); a false
claim (eps/8) reaching Coq with the true claim's alignment is not proved; and RealSym.v's generic
tactics do not prove the aligned run good at a cost below the alignment's (a hand-written file,
tests/coq/laplace/above_threshold_spec_good.v).  The claim at length 2 is read from the certificate
Coq made of it (tests/specs/laplace/above_threshold_laplace_k2.yaml, in tests/certificates/):
proving it again here cost ~23 s CPU."""
from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import committed
import pytest

from obligations.certify import allowlist
from obligations.certify.outcome import Settings
from obligations.certify.run import load_specs, run_coq, unfold
from obligations.program.align import render_laplace
from obligations.program.align.route import Found
from obligations.prover.coq import Coq

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parents[2]
THEORIES = REPO / "obligations" / "theories"
SPEC = REPO / "mechanisms" / "above_threshold_laplace_k1.yaml"
SOURCE = Path(__file__).resolve().parent / "laplace" / "above_threshold_spec_good.v"


def test_the_shipped_certificate_states_the_claim_over_the_reals() -> None:
    record: dict[str, Any] = json.loads((REPO / "certificates" / "above_threshold_laplace_k1.json").read_text())
    assert record["verdict"] == "proved"
    assert record["claim"]["noise"] == "laplace" and record["claim"]["stream_length"] == 1
    assert record["uses_analysis"] is True and record["uses_interval"] is False
    assert record["theorems"] == [{"name": "above_threshold_laplace_k1_dp", "statement":
                                   "rdp_prog above_threshold_laplace_k1_nb (above_threshold_laplace_k1_prog 1) 4 1"}]
    _analysis_axioms_only(record)


def _analysis_axioms_only(record: dict[str, Any]) -> None:
    assumptions = set(record["assumptions"])
    assert allowlist.ANALYSIS <= assumptions and assumptions <= allowlist.REALS | allowlist.ANALYSIS
    assert allowlist.refused(assumptions, uses_interval=False) != []   # only a continuous claim admits them


@pytest.mark.usefixtures("no_goal_replay")   # what coqc refused: tests/coq/conftest.py
def test_a_false_claim_with_the_true_alignment_is_not_proved(tmp_path: Path) -> None:
    """eps/8 claimed (the answer's noise Lap(4/eps) makes the mechanism no better than
    eps/4): the alignment of the eps claim rendered for it, Coq refuses."""
    spec, = load_specs([SPEC])
    u = unfold(spec)
    assert isinstance(u.mechanism, Found)
    false = replace(u.spec, factor=Fraction(1, 8))
    rendered = render_laplace.render(false, u.mechanism.alignment)
    assert "4 (1 / 8)%R." in rendered.text
    outcome, audit = run_coq(replace(u, spec=false, rendered=rendered),
                             Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"


def test_a_cost_below_the_alignments_is_not_proved(tmp_path: Path) -> None:
    coq = Coq(THEORIES)
    vfile = tmp_path / SOURCE.name
    vfile.write_text(SOURCE.read_text().replace("CLAIM_C", "3"))
    coq.build_theories(needed=coq.closure_of_texts([vfile.read_text()]))
    done = subprocess.run(["coqc", *coq.load_path(), "-Q", str(tmp_path), "Certs", str(vfile)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "Axioms:" not in done.stdout


def test_prove_certifies_the_claim_at_length_2() -> None:
    spec = REPO / "tests" / "specs" / "laplace" / "above_threshold_laplace_k2.yaml"
    assert spec.read_text().split("schema_version", 1)[1] == SPEC.read_text().split("schema_version", 1)[1].replace(
        "claim: {stream_length: 1}", "claim: {stream_length: 2}").replace("_k1", "_k2").replace(
        "AboveThreshold on one answer,", "AboveThreshold on two answers,")   # the shipped spec at length 2
    out, results = committed.results(spec)
    assert results["above_threshold_laplace_k2"]["verdict"] == "proved"
    record: dict[str, Any] = json.loads((out / "above_threshold_laplace_k2.json").read_text())
    assert record["verdict"] == "proved" and record["claim"]["stream_length"] == 2
    assert record["claim"]["noise"] == "laplace" and record["uses_analysis"] is True
    assert record["theorems"] == [{"name": "above_threshold_laplace_k2_dp", "statement":
                                   "rdp_prog above_threshold_laplace_k2_nb (above_threshold_laplace_k2_prog 2) 4 1"}]
    _analysis_axioms_only(record)
    assert results["above_threshold_laplace_k2"]["claim"].endswith("under laplace noise")
