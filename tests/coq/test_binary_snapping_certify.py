"""Binary snapping: the shipped diffprivlib spec's file compiles (float_snap_dp_tight
instantiated at binary64, its decidable premises proved by interval/lra, the pipeline's range from
lambda >= 2^-968 and the correctly rounded log) with only allow-listed axioms, and the theorem it
prints is the user's epsilon = 1 with U*'s measure as its only hypothesis; with numpy.log (a log
within 1 ulp) the same epsilon is undecided by Python, and that file forced through Coq is refused
at the claim's inequality (Coq, not Python, decides); diffprivlib's own rounding (Python's float %)
is refuted: the file of mechanisms/refuted/diffprivlib_snapping_as_shipped.yaml compiles and states that
no epsilon holds.  The two shipped specs are read from the certificates Coq made of them (about
12 s CPU a file, most of it the audit's `Print Assumptions` over the library); the undecided file
goes to coqc now."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import committed
import pytest
from coqrun import coqc

from obligations.certify import allowlist
from obligations.core.obligation import Verdict
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path("mechanisms/diffprivlib_snapping.yaml")
USER_EPS = Path("tests/specs/binary64/diffprivlib_snapping_user_eps.yaml")
AS_SHIPPED = Path("mechanisms/refuted/diffprivlib_snapping_as_shipped.yaml")


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, name, text)


def test_shipped_spec_states_the_theorem_with_allowed_axioms(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read from the certificate Coq made of the shipped spec (tests/committed.py)."""
    monkeypatch.chdir(REPO)
    u = unfold(load(SHIPPED))
    assert u.plan.expected == Verdict.PROVED and u.rendered.uses_interval()
    _, results = committed.results(SHIPPED)
    assert results[u.spec.name]["verdict"] == "proved"
    record = committed.record(u.spec.name, REPO / "certificates")
    stated = record["theorems"][-1]["statement"]
    assert "Rabs (x - x') <= 1 ->" in stated and "exp diffprivlib_snapping_eps *" in stated
    # only U*'s measure is assumed; the log is the correctly rounded ln
    assert "pipeline_ok" not in stated
    assert stated.startswith("forall (choice : Z -> bool) (pr : (R -> Prop) -> R), uprob pr -> forall x x' out : R,")
    assert "(fun v : R => rnd 53 (-1074) choice (ln v)) pr diffprivlib_snapping_lam x " in stated
    assert record["uses_interval"] is True and allowlist.refused(record["assumptions"], uses_interval=True) == []


def test_claim_below_the_theorem_is_undecided_and_coq_refuses_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    u = unfold(load(USER_EPS))
    assert u.plan.expected == Verdict.UNDECIDED and "undecided" in u.plan.notes[0]
    run = _coqc(tmp_path, u.spec.name, u.rendered.text)
    assert run.returncode != 0
    # the failure is in the proof of the claim's inequality, the last lemma before the failing line
    line = int(re.search(r"line (\d+),", run.stderr).group(1))
    lemmas = [t for t in u.rendered.text.splitlines()[:line] if t.startswith("Lemma ")]
    assert lemmas[-1].startswith("Lemma diffprivlib_snapping_user_eps_claim :"), run.stderr


def test_diffprivlibs_own_rounding_is_refuted_by_coq(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read from the certificate Coq made of the shipped spec (tests/committed.py)."""
    monkeypatch.chdir(REPO)
    u = unfold(load(AS_SHIPPED))
    assert u.plan.expected == Verdict.REFUTED
    _, results = committed.results(AS_SHIPPED)
    assert results[u.spec.name]["verdict"] == "refuted"
    record = committed.record(u.spec.name, REPO / "certificates")
    (theorem,) = record["theorems"]
    assert theorem["name"] == "diffprivlib_snapping_as_shipped_not_dp"
    stated = theorem["statement"]
    assert stated.startswith("forall pr : (R -> Prop) -> R, uprob pr -> ~")
    assert "dl_prob pr diffprivlib_snapping_as_shipped_lam diffprivlib_snapping_as_shipped_grid" in stated
    assert allowlist.refused(record["assumptions"], uses_interval=True) == []
