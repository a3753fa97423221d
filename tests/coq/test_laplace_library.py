"""The continuous Laplace library with real Coq: the Laplace mechanism written as a program with
continuous noise is proved by rdp_of_shift, the tape-level theorem (tests/coq/laplace/laplace_mechanism.v);
coqchk accepts it, and its assumptions resolve to exact names that the allow-list admits for a
continuous-noise claim only.  CheckDP's sparsevector's claim for every stream length follows from
its aligned run being good alone (RunFibers.v's measurable pieces): the certificate Coq made of
mechanisms/checkdp/sparsevector_laplace.yaml (tests/certificates/) discharges them with
`zshift_mfibers` and `mshift`; the hand-written file that showed it first,
bench/laplace/sparsevector_all_k_pieces.v, is compiled by bench/laplace_hand_proofs.py (~12 s CPU).
(rdp_of_aligned, the alignment route's theorem, is what every certificate of that route applies:
tests/coq/test_laplace_fixed_length.py proves AboveThreshold through `prove`; the Laplace mechanism
proved by hand through it, and AboveThreshold on one answer by RealAlignSteps.v's steps and
TapeFibers.v, are in bench/laplace/, compiled by bench/laplace_hand_proofs.py.)"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import committed
import pytest

from obligations.certify import allowlist
from obligations.prover.coq import Coq, StageResult, assumption_names

pytestmark = pytest.mark.coq

THEORIES = Path(__file__).resolve().parents[2] / "obligations" / "theories"
EXAMPLES = Path(__file__).resolve().parent / "laplace"


EXAMPLES_PROVED = [("laplace_mechanism.v", "lapmech_dp", "ProgAlign.v")]
ALL_K = "sparsevector_laplace"      # its certificate, tests/certificates/ (tests/committed.py)


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[str]], StageResult, list[Path]]:
    """The example proofs compiled (what each printed from its `Axioms:` on), then one coqchk of
    them (the library they load is checked by coqchk once per compiled library, by the first
    `prove` of the run: tests/coq/test_tamper.py's, on a fresh machine)."""
    tmp = tmp_path_factory.mktemp("laplace")
    coq = Coq(THEORIES)
    vfiles = [tmp / e for e, _, _ in EXAMPLES_PROVED]
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


def test_measurable_pieces_for_every_stream_length() -> None:
    """RunFibers.v proves the measurable pieces once for every program: CheckDP's sparsevector
    (the alignment on the branch prophecy) is eps-DP for every stream length as soon as its
    aligned run is void or good (no measurability duty left but the shift function's, which
    `mshift` closes, none depending on the length), on the analysis axioms admitted for
    continuous noise only: what the certificate Coq made of it proves and rests on."""
    record = committed.record(ALL_K)
    assert record["verdict"] == "proved"
    text = (committed.TEST_CERTS / f"{ALL_K}.v").read_text()
    assert "apply zshift_mfibers." in text and "mshift." in text
    assert "RunFibers.v" in {v.name for v in Coq(THEORIES).closure_of_texts([text])}
    assert allowlist.refused(record["assumptions"], uses_interval=False, uses_analysis=True) == []
    assert sorted(allowlist.refused(record["assumptions"], uses_interval=False)) == sorted(allowlist.ANALYSIS)
