"""Binary snapping with real Coq: the shipped diffprivlib spec's file compiles (float_snap_dp_tight
instantiated at binary64, its decidable premises proved by interval/lra, the pipeline's range from
lambda >= 2^-968 and the correctly rounded log) with only allow-listed axioms, and the theorem it
prints is the user's epsilon = 1 with U*'s measure as its only hypothesis; with numpy.log (a log
within 1 ulp) the same epsilon is undecided by Python, and that file forced through Coq is refused
at the claim's inequality (Coq, not Python, decides); diffprivlib's own rounding (Python's float %)
is refuted: the file of mechanisms/refuted/diffprivlib_snapping_as_shipped.yaml compiles and states that
no epsilon holds.  About 12 s CPU a file, most of it the audit's `Print Assumptions` over the library."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist
from obligations.core.obligation import Verdict
from obligations.core.resources import THEORIES
from obligations.models import load, unfold
from obligations.prover.coq import assumption_names

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path("mechanisms/diffprivlib_snapping.yaml")
USER_EPS = Path("tests/specs/binary64/diffprivlib_snapping_user_eps.yaml")
AS_SHIPPED = Path("mechanisms/refuted/diffprivlib_snapping_as_shipped.yaml")


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / f"{name}.v").write_text(text)
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", f"{name}.v"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_shipped_spec_compiles_with_allowed_axioms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    u = unfold(load(SHIPPED))
    assert u.plan.expected == Verdict.PROVED
    run = _coqc(tmp_path, u.spec.name, u.rendered.text)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Rabs (x - x') <= 1 ->" in run.stdout and "exp diffprivlib_snapping_eps *" in run.stdout
    # the statement coqc prints: only U*'s measure is assumed; the log is the correctly rounded ln
    stated = run.stdout.split("diffprivlib_snapping_dp\n", 1)[1].split("audit_assumptions", 1)[0]
    assert "pipeline_ok" not in stated
    assert stated.split(", uprob pr -> forall x x' out : R,")[0].strip() == \
        ": forall (choice : Z -> bool) (pr : (R -> Prop) -> R)"
    assert "(fun v : R => rnd 53 (-1074) choice (ln v)) pr diffprivlib_snapping_lam x " in stated
    block = ("Axioms:" + run.stdout.split("Axioms:")[1]).splitlines()
    full, unresolved = allowlist.full_names(assumption_names(block, u.spec.name),
                                            allowlist.REALS | allowlist.PRIMITIVE)
    assert not unresolved and allowlist.refused(full, uses_interval=True) == []
    assert u.rendered.uses_interval()


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


def test_diffprivlibs_own_rounding_is_refuted_by_coq(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    u = unfold(load(AS_SHIPPED))
    assert u.plan.expected == Verdict.REFUTED
    run = _coqc(tmp_path, u.spec.name, u.rendered.text)
    assert run.returncode == 0, run.stdout + run.stderr
    stated = run.stdout.split("diffprivlib_snapping_as_shipped_not_dp\n", 1)[1].split("audit_assumptions", 1)[0]
    assert "forall pr : (R -> Prop) -> R," in stated and "~" in stated
    assert "dl_prob pr diffprivlib_snapping_as_shipped_lam diffprivlib_snapping_as_shipped_grid" in stated
    block = ("Axioms:" + run.stdout.split("Axioms:")[1]).splitlines()
    full, unresolved = allowlist.full_names(assumption_names(block, u.spec.name),
                                            allowlist.REALS | allowlist.PRIMITIVE)
    assert not unresolved and allowlist.refused(full, uses_interval=True) == []
