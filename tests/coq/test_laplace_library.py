"""The continuous Laplace library with real Coq: the Laplace mechanism written as a program with
continuous noise is proved by rdp_of_shift, the tape-level theorem (tests/coq/laplace/laplace_mechanism.v);
CheckDP's sparsevector's claim for every stream length follows from its aligned run being good alone
(sparsevector_all_k_pieces.v: RunFibers.v's measurable pieces); coqchk accepts them, and their
assumptions resolve to exact names that the allow-list admits for a continuous-noise claim only.
(rdp_of_aligned, the alignment route's theorem, is what every certificate of that route applies:
tests/coq/test_laplace_fixed_length.py proves AboveThreshold through `prove`; the Laplace mechanism
proved by hand through it, and AboveThreshold on one answer by RealAlignSteps.v's steps and
TapeFibers.v, are in bench/laplace/, compiled by bench/laplace_hand_proofs.py.)"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist
from obligations.prover.coq import Coq, StageResult, assumption_names

pytestmark = pytest.mark.coq

THEORIES = Path(__file__).resolve().parents[2] / "obligations" / "theories"
EXAMPLES = Path(__file__).resolve().parent / "laplace"


EXAMPLES_PROVED = [("laplace_mechanism.v", "lapmech_dp", "ProgAlign.v")]
PIECES = "sparsevector_all_k_pieces.v"


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[str]], StageResult, list[Path]]:
    """The example proofs compiled (what each printed from its `Axioms:` on), then one coqchk of
    them (the library they load is checked by coqchk once per compiled library, by the first
    `prove` of the run: tests/coq/test_tamper.py's, on a fresh machine)."""
    tmp = tmp_path_factory.mktemp("laplace")
    coq = Coq(THEORIES)
    vfiles = [tmp / name for name in (*(e for e, _, _ in EXAMPLES_PROVED), PIECES)]
    for vfile in vfiles:
        shutil.copy(EXAMPLES / vfile.name, vfile)
    library = coq.closure_of_texts([v.read_text() for v in vfiles])
    coq.build_theories(needed=library)
    printed = {}
    for vfile in vfiles:
        done = subprocess.run(["coqc", *coq.load_path(), "-Q", str(tmp), "Certs", str(vfile)],
                              cwd=tmp, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        printed[vfile.name] = done.stdout[done.stdout.index("Axioms:"):].splitlines()
    return printed, coq.check(vfiles, library=False), library


def test_laplace_mechanism_program_proved_and_audited(
        examples: tuple[dict[str, list[str]], StageResult, list[Path]]) -> None:
    """The Laplace mechanism proved by rdp_of_shift: coqchk accepts it, and its assumptions are
    the analysis axioms admitted for continuous noise."""
    printed, checked, _ = examples
    assert checked.status == "ok", checked.message
    coq = Coq(THEORIES)
    for example, theorem, uses in EXAMPLES_PROVED:
        assert any(v.name == uses for v in coq.closure_of_texts([(EXAMPLES / example).read_text()]))
        full, unresolved = allowlist.full_names(assumption_names(printed[example], theorem), checked.axioms)
        assert unresolved == []
        assert set(allowlist.ANALYSIS) <= set(full)
        assert allowlist.refused(full, uses_interval=False, uses_analysis=True) == []
        assert sorted(allowlist.refused(full, uses_interval=False)) == sorted(allowlist.ANALYSIS)


def test_measurable_pieces_for_every_stream_length(
        examples: tuple[dict[str, list[str]], StageResult, list[Path]]) -> None:
    """RunFibers.v proves the measurable pieces once for every program: CheckDP's sparsevector
    (the alignment on the branch prophecy) is eps-DP for every stream length as soon as its
    aligned run is void or good (sparsevector_all_k_pieces.v: no measurability duty left, none
    depending on the length), on the analysis axioms admitted for continuous noise only."""
    printed, checked, library = examples
    assert "RunFibers.v" in {v.name for v in library}
    assert checked.status == "ok", checked.message
    full, unresolved = allowlist.full_names(assumption_names(printed[PIECES], "sparsevector_all_k_dp_of_good"),
                                            checked.axioms)
    assert unresolved == []
    assert allowlist.refused(full, uses_interval=False, uses_analysis=True) == []
    assert sorted(allowlist.refused(full, uses_interval=False)) == sorted(allowlist.ANALYSIS)
