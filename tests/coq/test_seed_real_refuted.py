"""Float/SnapSeedRealRefuted.v with real Coq: the seed's (12, 2) in the form with real inputs
(`snap64_constant`) is false near Lambda = lambda in binary64, from two witnesses whose four threshold
samples each are run through the pipeline in Coq; the theorems rest on the reals' axioms and the
primitive operations `interval` computes with; and the first is not slack in the wrong direction: its
key inequality against the constant (13, 2) (an allowance of 1688.8 eta, above the excess of about
1604 eta) is refused at its `interval`.  Two coqc runs, a few seconds each."""
from __future__ import annotations

import subprocess
from pathlib import Path

from obligations.certify import allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

SOURCE = THEORIES / "Float" / "SnapSeedRealRefuted.v"
STATEMENTS = {
    "snap_binary64_seed_constant_real_false":
        "forall rho0 beta0 : R, (rho0 <= 1)%R -> (beta0 <= 129)%R -> ~ snap64_constant rho0 beta0 12 2",
    "snap_binary64_seed_constant_real_false_105":
        "forall rho0 beta0 : R, (rho0 <= 21 / 20)%R -> (beta0 <= 257)%R -> ~ snap64_constant rho0 beta0 12 2",
}


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    v = tmp_path / f"{name}.v"
    v.write_text(text, encoding="utf-8")
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_refutations_state_the_negation_and_use_allowed_axioms(tmp_path: Path) -> None:
    typed = "".join(f"Definition stated_{i} : {s} := {n}.\n" for i, (n, s) in enumerate(STATEMENTS.items()))
    done = _coqc(tmp_path, "RealRefuted", (
        "From Coq Require Import Reals.\n"
        "From Obligations.Float Require Import SnapSeed64 SnapSeedRealRefuted.\n"
        "Local Open Scope R_scope.\nSet Printing Width 100000.\n" + typed +
        "Definition audit_all := (stated_0, stated_1).\nPrint Assumptions audit_all.\n"))
    assert done.returncode == 0, done.stderr + done.stdout
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS | allowlist.PRIMITIVE)
    assert names and not unresolved and allowlist.refused(full, uses_interval=True) == []


def test_the_key_inequality_against_a_larger_constant_is_refused(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    slope = "12 * eta 53 * (w1_bound / w1_lam)"
    assert text.count(slope) == 1
    start = text.index("Lemma w1_key")
    line = text.count("\n", 0, text.index("interval with (i_prec 200)", start)) + 1
    done = _coqc(tmp_path, "RealRefuted13", text.replace(slope, slope.replace("12", "13")))
    out = done.stderr + done.stdout
    assert done.returncode != 0 and f"line {line}," in out and "Numerical evaluation failed" in out, out
