"""Refutation under continuous Laplace noise, with real Coq (RealRefute.v's not_rdp_of_rbox,
RunSym.v's rrun): a threshold test on the answer without noise is refuted (an event with a
box of positive probability from one answer, impossible from its neighbour), its audit naming
only allowed axioms; the same proof of the private form (the noise in the test) is refused."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist
from obligations.prover.coq import Coq

pytestmark = pytest.mark.coq

THEORIES = Path(__file__).resolve().parents[2] / "obligations" / "theories"
SOURCE = Path(__file__).resolve().parent / "laplace" / "refute_threshold.v"
BSV = Path(__file__).resolve().parent / "laplace" / "refute_badsparsevector1_k2.v"


def _coqc(tmp_path: Path, guard: str, source: Path = SOURCE, hole: str = "GUARD") -> subprocess.CompletedProcess[str]:
    coq = Coq(THEORIES)
    vfile = tmp_path / source.name
    vfile.write_text(source.read_text().replace(hole, guard))
    coq.build_theories(needed=coq.closure_of_texts([vfile.read_text()]))
    return subprocess.run(["coqc", *coq.load_path(), "-Q", str(tmp_path), "Certs", str(vfile)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)


def _assert_allowed_axioms(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    printed = done.stdout.split("Axioms:", 1)[1]
    names = re.findall(r"^([A-Za-z_][\w.]*)", printed, flags=re.M)
    allowed = allowlist.REALS | allowlist.ANALYSIS
    assert names and all(any(a.endswith("." + n) for a in allowed) for n in names), names


def test_a_threshold_without_noise_is_refuted(tmp_path: Path) -> None:
    _assert_allowed_axioms(_coqc(tmp_path, "(BLe (AConst 0) (AVar 1))"))


def test_the_private_threshold_is_not_refuted(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "(BLe (AVar 0) (AVar 1))")
    assert done.returncode != 0
    assert "Axioms:" not in done.stdout


def test_badsparsevector1_at_length_2_is_refuted(tmp_path: Path) -> None:
    _assert_allowed_axioms(_coqc(tmp_path, "[0; 0; 1]", BSV, "NEIGHBOUR"))


def test_badsparsevector1_with_a_neighbour_reaching_the_event_is_not_refuted(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "[0; 1; 0]", BSV, "NEIGHBOUR")
    assert done.returncode != 0
    assert "Axioms:" not in done.stdout
