"""Refutation under continuous Laplace noise, with real Coq (RealRefute.v's not_rdp_of_rbox,
RunSym.v's rrun): `prove` refutes the shipped badsparsevector1 with continuous noise for every
stream length (its failure at length 2: an event with a box of positive probability from one
input, impossible from its neighbour), its audit naming only allowed axioms; the file it
renders, with a neighbour that reaches the event put in place of the witness's, is refused in
the neighbour's run.  badpartialsum is refuted by a ratio (RealRatio.v's not_rdp_of_rratio);
the same file claiming (2 eps)-DP, which holds, is refused at the exponents' comparison.
badsparsevector3 is refuted by a ratio against a union of products of tails cut on the
threshold's noise (RatioCover.v's not_rdp_of_rcover); the same file claiming (3/2 eps)-DP, which
holds at its length 2 (each answer's noise moved by 1 costs 3/4), is refused at the comparison
of the products' exponents.
The refutation is read from the certificate Coq made of the spec
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
BPS = REPO / "mechanisms" / "checkdp" / "badpartialsum_laplace.yaml"
BSV3 = REPO / "mechanisms" / "checkdp" / "badsparsevector3_laplace.yaml"


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


def test_prove_refutes_badpartialsum_by_a_ratio() -> None:
    """An event possible from both inputs (RealRatio.v's not_rdp_of_rratio): the released value
    >= 0, on the box [1/8, 3/8] from q = (0), only with the noise >= 1 from q' = (-1)."""
    out, results = committed.results(BPS)
    assert results["badpartialsum_laplace"]["verdict"] == "refuted"
    record: dict[str, Any] = json.loads((out / "badpartialsum_laplace.json").read_text())
    assert record["verdict"] == "refuted" and record["uses_analysis"] is True
    assert record["theorems"] == [{"name": "badpartialsum_laplace_not_rdp_all_k", "statement":
                                   "~ rdp_all_k badpartialsum_laplace_nb badpartialsum_laplace_prog 4 1"}]
    w = record["witness"]
    assert (w["k"], w["box"], w["tails"], w["eps"]) == (1, [["1/8", "3/8"]], [">= 1"], "4")
    assert set(record["assumptions"]) <= allowlist.REALS | allowlist.ANALYSIS


def test_a_true_claim_is_not_refuted_by_the_ratio(tmp_path: Path) -> None:
    """The same file claiming (2 eps)-DP, which badpartialsum satisfies (sum + Lap(1/(2 eps))):
    Coq refuses it at the comparison of the exponents (3/4 + 2 < 2 is false), the tails and
    the box being what they were."""
    spec, = load_specs([BPS])
    text = unfold(spec).rendered.text
    assert text.count(" 4 1%R") == 3
    done = _coqc(tmp_path, text.replace(" 4 1%R", " 4 2%R"))
    assert done.returncode != 0 and "Axioms:" not in done.stdout
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if "cbn [rbox_exp rcyl_exp" in line)
    failed = re.search(r"line (\d+),", done.stderr)
    assert failed is not None and int(failed.group(1)) == last + 1, done.stderr   # the exponents' comparison


def test_prove_refutes_badsparsevector3_by_a_ratio_against_pieces() -> None:
    """From q' = (-1, 1) the event (1, 0) needs the answers' noise beyond the threshold's by 1
    (a region no product of tails holds): cut on the threshold's noise (position 0), six
    products, each of exponent at least 5/4 > 31/128 + 1."""
    out, results = committed.results(BSV3)
    assert results["badsparsevector3_laplace"]["verdict"] == "refuted"
    record: dict[str, Any] = json.loads((out / "badsparsevector3_laplace.json").read_text())
    assert record["verdict"] == "refuted" and record["uses_analysis"] is True
    assert record["theorems"] == [{"name": "badsparsevector3_laplace_not_rdp_all_k", "statement":
                                   "~ rdp_all_k badsparsevector3_laplace_nb badsparsevector3_laplace_prog 6 1"}]
    w = record["witness"]
    assert (w["k"], w["x"], w["x_prime"], w["pivot"], len(w["pieces"])) == (2, [0, 0, 0], [0, -1, 1], 0, 6)
    assert set(record["assumptions"]) <= allowlist.REALS | allowlist.ANALYSIS


def test_a_true_claim_is_not_refuted_by_the_pieces(tmp_path: Path) -> None:
    """The same file claiming (3/2 eps)-DP, which badsparsevector3 satisfies at length 2: Coq
    refuses it at the comparison of the products' exponents (31/128 + 3/2 < 5/4 is false), the
    box and the cover being what they were (the file's CPU up to there: about 6 s)."""
    text = (committed.TEST_CERTS / "badsparsevector3_laplace.v").read_text()
    assert text.count(" 6 1%R") == 3
    done = _coqc(tmp_path, text.replace(" 6 1%R", " 6 (3/2)%R"))
    assert done.returncode != 0 and "Axioms:" not in done.stdout
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if "cbn [rbox_exp rcyl_exp" in line)
    failed = re.search(r"line (\d+),", done.stderr)
    assert failed is not None and int(failed.group(1)) == last + 1, done.stderr   # the exponents' comparison
