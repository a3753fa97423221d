"""50 releases of 5-ary randomized response on the same database, exactly from both sides, by
coefficient vectors (table/by_stream_coef.py, theories/Accountant/CWCoefCheck.v): the files the
route renders go to coqc.  At ε = 50·ln(19/4), δ(ε) = 0.0325344960163: (ε, 0.0326) is proved
(mechanisms/rr5_cw_stream_50_runs.yaml, one order of the rows and the symmetry of the priors),
(ε, 0.0325) refuted (mechanisms/refuted/rr5_cw_stream_50_runs_below.yaml, rounding down, the
dropped mass subtracted), and the proof of the false claim (ε, 0.0325) is refused by coqc.  Each
theorem rests on the reals' axioms and the primitive floats' specifications only.  The proof and
the refutation are read from the certificates Coq made of the shipped specs (`make prove`;
tests/coq/test_committed_certificates.py keeps them current): compiling both again cost ~18 s CPU;
the refused proof is compiled here.  (coqc only: coqchk's re-check of each file takes minutes,
measured in docs/profiles.md.)  The shipped specs' priors lie on two pairs of inputs, so their
certificates are the grouped route's (table/by_stream_group.py, same theorems); the refused proof
is rendered by the coefficient route, the grouped one given no runs."""
from __future__ import annotations

import subprocess
from pathlib import Path

import committed
import pytest
from coqrun import coqc

from obligations.certify import allowlist
from obligations.models import load, unfold
from obligations.table import by_stream_group

REPO = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.coq

PROVED = REPO / "mechanisms" / "rr5_cw_stream_50_runs.yaml"
REFUTED = REPO / "mechanisms" / "refuted" / "rr5_cw_stream_50_runs_below.yaml"


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, name, text, timeout=600)


def test_proved_and_refuted_from_both_sides() -> None:
    for path, verdict, theorem, statement in (
            (PROVED, "proved", "rr5_cw_stream_50_runs_dp",
             "dp nb_all rr5_cw_stream_50_runs (50 * ln (19 / 4)) (163 / 5000)"),
            (REFUTED, "refuted", "rr5_cw_stream_50_runs_below_refuted",
             "~ dp nb_all rr5_cw_stream_50_runs_below (50 * ln (19 / 4)) (13 / 400)")):
        folder, results = committed.results(path)
        assert results[path.stem]["verdict"] == verdict
        record = committed.record(path.stem, folder)
        assert record["theorems"] == [{"name": theorem, "statement": statement}]
        assert record["assumptions"] and record["uses_interval"] is True
        assert set(record["assumptions"]) <= allowlist.REALS | allowlist.PRIMITIVE
        assert allowlist.refused(record["assumptions"], uses_interval=True) == []


def test_the_proof_of_a_false_claim_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The proved file with δ = 13/400 < δ(ε): the check rounded up exceeds it, coqc stops at its Qed."""
    monkeypatch.setattr(by_stream_group, "MAX_RUNS", 1)
    text = unfold(load(PROVED)).rendered.text
    assert "check_coef_dp_sym" in text
    forged = text.replace("(163 # 5000)", "(13 # 400)").replace("(163 / 5000)", "(13 / 400)")
    assert forged != text
    done = _coqc(tmp_path, "rr5_cw_stream_50_runs", forged)
    assert done.returncode != 0
    assert "rr5_cw_stream_50_runs_coef" in done.stderr or "check_coef_dp_sym" in done.stderr
