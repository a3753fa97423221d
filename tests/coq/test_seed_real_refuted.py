"""Float/SnapSeedRealRefuted.v with real Coq: the seed's (12, 2) in the form with real inputs
(`snap64_constant`) is false near Lambda = lambda in binary64, from one witness whose four threshold
samples are run through the pipeline in Coq; the theorem rests on the reals' axioms and the
primitive operations `interval` computes with; and it is not slack in the wrong direction: the same
proof against the constant (13, 2) (an allowance of 1688.8 eta, above the excess of about 1604 eta) is
refused at the final `interval`.  Two coqc runs, a few seconds each."""
from __future__ import annotations

import subprocess
from pathlib import Path

from obligations.certify import allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

SOURCE = THEORIES / "Float" / "SnapSeedRealRefuted.v"
STATEMENT = ("forall rho0 beta0 : R, (rho0 <= 1)%R -> (beta0 <= 129)%R -> "
             "~ snap64_constant rho0 beta0 12 2")


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    v = tmp_path / f"{name}.v"
    v.write_text(text, encoding="utf-8")
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_refutation_states_the_negation_and_uses_allowed_axioms(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "RealRefuted", (
        "From Coq Require Import Reals.\n"
        "From Obligations.Float Require Import SnapSeed64 SnapSeedRealRefuted.\n"
        "Local Open Scope R_scope.\nSet Printing Width 100000.\n"
        f"Definition audit_all : {STATEMENT} := snap_binary64_seed_constant_real_false.\n"
        "Print Assumptions audit_all.\n"))
    assert done.returncode == 0, done.stderr + done.stdout
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS | allowlist.PRIMITIVE)
    assert names and not unresolved and allowlist.refused(full, uses_interval=True) == []


def test_the_same_proof_against_a_larger_constant_is_refused(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    claim, slope = "~ snap64_constant rho0 beta0 12 2.", "12 * eta 53 * (bound0 / lam0)"
    assert text.count(claim) == 1 and text.count(slope) == 2
    done = _coqc(tmp_path, "RealRefuted13", text.replace(claim, claim.replace("12 2", "13 2"))
                 .replace(slope, slope.replace("12", "13")))
    key = text.index("interval with (i_prec 200)")
    line = text.count("\n", 0, key) + 1
    out = done.stderr + done.stdout
    assert done.returncode != 0 and f"line {line}," in out and "Numerical evaluation failed" in out, out
