"""Continuous noise at a fixed stream length, with real Coq: RealSym.v's generic tactics prove
the aligned run of AboveThreshold on one answer, written as a spec lowers it (a loop over a
stream of length 1), void or good within the claimed cost, on the reals' axioms alone; the same
file claiming a cost below the alignment's (3 instead of 4 units of eps/4) is not proved."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist
from obligations.prover.coq import Coq, assumption_names

pytestmark = pytest.mark.coq

THEORIES = Path(__file__).resolve().parents[2] / "obligations" / "theories"
SOURCE = Path(__file__).resolve().parent / "laplace" / "above_threshold_spec_good.v"


def _compile(coq: Coq, tmp_path: Path, claim: int) -> tuple[Path, list[Path], subprocess.CompletedProcess[str]]:
    vfile = tmp_path / SOURCE.name
    vfile.write_text(SOURCE.read_text().replace("CLAIM_C", str(claim)))
    library = coq.closure_of_texts([vfile.read_text()])
    assert "RealSym.v" in {v.name for v in library}
    coq.build_theories(needed=library)
    done = subprocess.run(["coqc", *coq.load_path(), "-Q", str(tmp_path), "Certs", str(vfile)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    return vfile, library, done


def test_generic_tactics_prove_the_aligned_run_good(tmp_path: Path) -> None:
    coq = Coq(THEORIES)
    vfile, library, done = _compile(coq, tmp_path, 4)
    assert done.returncode == 0, done.stderr[-2000:]
    names = assumption_names(done.stdout[done.stdout.index("Axioms:"):].splitlines(), "at1s_good")
    checked = coq.check([vfile], library)
    assert checked.status == "ok", checked.message
    full, unresolved = allowlist.full_names(names, checked.axioms)
    assert full and unresolved == []
    assert allowlist.refused(full, uses_interval=False) == []


def test_a_cost_below_the_alignments_is_not_proved(tmp_path: Path) -> None:
    _, _, done = _compile(Coq(THEORIES), tmp_path, 3)
    assert done.returncode != 0
    assert "Axioms:" not in done.stdout
