"""Continuous Laplace noise for every stream length, with real Coq: `prove` certifies CheckDP's
sparsevector (mechanisms/checkdp/sparsevector_laplace.yaml) and noisymax (noisymax_laplace.yaml,
a shift reading the released index) as `rdp_all_k` over the reals, the discrete route's
alignment and loop invariant read over the reals (render_laplace_all_k.py, Laplace/RealLoopSym.v,
Laplace/ReleasedIndex.v); the record says the noise and no stream length; and each file claiming
eps/8 (sparsevector: the threshold's shift alone costs eps/2; noisymax: the winner's shift costs
eps) is not proved.  The proofs are read from the certificates Coq made of the specs
(tests/certificates/, `make test-certificates`; tests/coq/test_committed_certificates.py keeps
them current): proving
them again here cost ~28 and ~35 s CPU.  The refused claim runs Coq on the route's file for
sparsevector, the cheaper of the two: Coq stops at the same rendered line for either (the claim's
proof rewrites the claimed factor as the alignment's cost, 1/8 = 12/12 or 2/2), after compiling the
alignment's lemmas, which are the certificate's; noisymax's took ~25 s CPU more."""
from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import committed
import pytest

from obligations.certify import allowlist
from obligations.certify.outcome import Settings
from obligations.certify.run import load_specs, run_coq, unfold
from obligations.program.align import render_laplace_all_k
from obligations.program.align.route import Found

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "mechanisms" / "checkdp" / "sparsevector_laplace.yaml"
NOISYMAX = REPO / "mechanisms" / "checkdp" / "noisymax_laplace.yaml"


def test_prove_certifies_the_claim_for_every_length() -> None:
    out, results = committed.results(SPEC)
    assert results["sparsevector_laplace"]["verdict"] == "proved"
    record: dict[str, Any] = json.loads((out / "sparsevector_laplace.json").read_text())
    assert record["verdict"] == "proved"
    assert record["claim"]["noise"] == "laplace" and "stream_length" not in record["claim"]
    assert "every stream length" in record["claim"]["epsilon"]
    assert record["uses_analysis"] is True
    assert record["theorems"] == [{"name": "sparsevector_laplace_dp_all_k", "statement":
                                   "rdp_all_k sparsevector_laplace_nb sparsevector_laplace_prog 5 1"}]
    assumptions = set(record["assumptions"])
    assert allowlist.ANALYSIS <= assumptions and assumptions <= allowlist.REALS | allowlist.ANALYSIS
    assert results["sparsevector_laplace"]["claim"].endswith("under laplace noise")   # the report's claim column


def test_noisymax_with_the_released_index_is_proved_for_every_length() -> None:
    out, results = committed.results(NOISYMAX)
    assert results["noisymax_laplace"]["verdict"] == "proved"
    record: dict[str, Any] = json.loads((out / "noisymax_laplace.json").read_text())
    assert record["verdict"] == "proved"
    assert record["claim"]["noise"] == "laplace" and "stream_length" not in record["claim"]
    assert record["theorems"] == [{"name": "noisymax_laplace_dp_all_k", "statement":
                                   "rdp_all_k noisymax_laplace_nb noisymax_laplace_prog 5 1"}]
    assumptions = set(record["assumptions"])
    assert allowlist.ANALYSIS <= assumptions and assumptions <= allowlist.REALS | allowlist.ANALYSIS


@pytest.mark.usefixtures("no_goal_replay")   # what coqc refused: tests/coq/conftest.py
def test_a_false_claim_with_the_true_alignment_is_not_proved(tmp_path: Path) -> None:
    spec, = load_specs([SPEC])
    u = unfold(spec)
    assert isinstance(u.mechanism, Found) and u.mechanism.invariant is not None
    false = replace(u.spec, factor=Fraction(1, 8))
    rendered = render_laplace_all_k.render(false, u.mechanism.alignment, u.mechanism.invariant)
    assert f"{u.spec.name}_prog 5 (1 / 8)%R." in rendered.text
    outcome, audit = run_coq(replace(u, spec=false, rendered=rendered),
                             Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"
    # stopped where the claim's proof rewrites 1/8 as the alignment's cost (12/12)
    line = rendered.text.splitlines().index("  replace ((1 / 8))%R with (IZR 12 / IZR 12)%R by (field; lra).") + 1
    assert f"in sparsevector_laplace_dp_all_k (line {line})" in outcome.message, outcome.message


def test_noisymax_false_claim_reaches_coq_at_the_same_line() -> None:
    """noisymax at eps/8 renders the alignment's cost (2/2, the winner's shift) in place of the
    claimed factor at the line where Coq refuses sparsevector's false claim (above): the cost is
    the alignment's, not the claim's, and Coq would refuse the same rewrite."""
    spec, = load_specs([NOISYMAX])
    u = unfold(spec)
    assert isinstance(u.mechanism, Found) and u.mechanism.invariant is not None
    text = render_laplace_all_k.render(replace(u.spec, factor=Fraction(1, 8)), u.mechanism.alignment,
                                       u.mechanism.invariant).text
    assert "  replace ((1 / 8))%R with (IZR 2 / IZR 2)%R by (field; lra).\n" in text
    true = (committed.TEST_CERTS / "noisymax_laplace.v").read_text()
    assert "  replace (1)%R with (IZR 2 / IZR 2)%R by (field; lra).\n" in true
