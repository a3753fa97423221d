"""Hand-written samples of the generated snapping files compile against the
library, and their final theorems rest only on the standard Reals axioms."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist as allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
REALS_AXIOMS = {"ClassicalDedekindReals.sig_not_dec", "ClassicalDedekindReals.sig_forall_dec",
                "FunctionalExtensionality.functional_extensionality_dep", "Classical_Prop.classic"}
SAMPLES = {
    "snapping_unclamped": ["snapping_unclamped_dp", "snapping_unclamped_dp_events",
                           "snapping_unclamped_lifting", "snapping_unclamped_half_refuted"],
    "snapping_clamped": ["snapping_clamped_dp", "snapping_clamped_dp_events",
                         "snapping_clamped_lifting", "snapping_clamped_case_top"],
    "snapping_numeric_down": ["snapping_down_dp", "snapping_down_u_dp"],
}


def coqc(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", *args],
                          capture_output=True, text=True, timeout=600, cwd=cwd)


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_snap_sample_compiles_with_allowed_axioms(tmp_path: Path, sample: str) -> None:
    # Compile a copy, so that no build products land in the source tree.
    shutil.copy(HERE / f"{sample}.v", tmp_path / f"{sample}.v")
    done = coqc(["-Q", str(tmp_path), "Snap", f"{sample}.v"], tmp_path)
    assert done.returncode == 0, done.stderr
    # one `Print Assumptions` of the tuple of the theorems: its assumptions are the union of
    # theirs, so all are within the reals' axioms exactly when each is (one traversal, not one each)
    audit = tmp_path / "Audit.v"
    audit.write_text(f"From Snap Require Import {sample}.\nSet Printing Width 100000.\n"
                     f"Definition audit_all := ({', '.join(SAMPLES[sample])}).\nPrint Assumptions audit_all.\n")
    done = coqc(["-Q", str(tmp_path), "Snap", audit.name], tmp_path)
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    assert names and set(names) <= REALS_AXIOMS, names
    assert allowed(names)


def allowed(printed: list[str]) -> bool:
    """Every assumption (as Print Assumptions names it) is exactly one allow-listed axiom."""
    full, unresolved = allowlist.full_names(printed, allowlist.REALS)
    return not unresolved and allowlist.refused(full, uses_interval=False) == []
