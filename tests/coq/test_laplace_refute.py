"""Refutation under continuous Laplace noise, with real Coq (RealRefute.v's not_rdp_of_rbox,
RunSym.v's rrun): `prove` refutes the shipped badsparsevector1 with continuous noise for every
stream length (its failure at length 2: an event with a box of positive probability from one
input, impossible from its neighbour), its audit naming only allowed axioms; the file it
renders, with a neighbour that reaches the event put in place of the witness's, is refused in
the neighbour's run.  The refutation is read from the certificate Coq made of the spec
(tests/certificates/, `make test-certificates`; tests/coq/test_committed_certificates.py keeps it
current): proving it again here cost ~22 s CPU.  (A hand-written threshold test on one answer,
refuted without noise in the test and refused with it, was checked here before the route
rendered these files.)"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import committed
import pytest

from obligations.certify import allowlist
from obligations.certify.run import load_specs, unfold
from obligations.program.refute.render import zlist
from obligations.prover.coq import Coq

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parents[2]
THEORIES = REPO / "obligations" / "theories"
BSV = REPO / "mechanisms" / "checkdp" / "badsparsevector1_laplace.yaml"


def _coqc(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    coq = Coq(THEORIES)
    vfile = tmp_path / "source.v"
    vfile.write_text(text)
    coq.build_theories(needed=coq.closure_of_texts([vfile.read_text()]))
    return subprocess.run(["coqc", *coq.load_path(), "-Q", str(tmp_path), "Certs", str(vfile)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_prove_refutes_badsparsevector1_for_every_length() -> None:
    out, results = committed.results(BSV)
    assert results["badsparsevector1_laplace"]["verdict"] == "refuted"
    record: dict[str, Any] = json.loads((out / "badsparsevector1_laplace.json").read_text())
    assert record["verdict"] == "refuted" and record["uses_analysis"] is True
    assert record["theorems"] == [{"name": "badsparsevector1_laplace_not_rdp_all_k", "statement":
                                   "~ rdp_all_k badsparsevector1_laplace_nb badsparsevector1_laplace_prog 6 1"}]
    assert record["witness"]["k"] == 2 and record["witness"]["box"] == [["1/4", "3/4"]]
    assumptions = set(record["assumptions"])
    assert assumptions <= allowlist.REALS | allowlist.ANALYSIS


def test_a_neighbour_reaching_the_event_is_not_refuted(tmp_path: Path) -> None:
    """The rendered file with x' = x (the event reachable from both): Coq refuses it."""
    spec, = load_specs([BSV])
    u = unfold(spec)
    text = u.rendered.text
    x, x2 = zlist(u.mechanism.x), zlist(u.mechanism.x2)
    assert text.count(x2) == 3
    done = _coqc(tmp_path, text.replace(x2, x))
    assert done.returncode != 0 and "Axioms:" not in done.stdout
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Lemma badsparsevector1_laplace_unreached"))
    end = next(i for i in range(start, len(lines)) if lines[i] == "Qed.")
    failed = re.search(r"line (\d+),", done.stderr)
    assert failed is not None and start < int(failed.group(1)) <= end + 1, done.stderr   # the neighbour's run
