"""Float/SnapUlpsRefuted.v with real Coq: for a log within 1 ulp (`snap64_constant_ulps 1`, the form
numpy.log's guarantee takes) Mironov's (16, 0) and the seed's (12, 2) are false near Lambda = lambda in
binary64, from one witness whose inputs are binary64 floats and whose log (`lnadv`: ln rounded down,
up on an interval of u, down again) is within 1 ulp on every float of (0, 1); the theorems rest on the
reals' axioms and the primitive operations `interval` computes with; and the key inequality is not
slack in the wrong direction: against the constant (19, 0) (an allowance of about 4897 eta, above the
exact excess of about 4725 eta) it is refused at its `interval`.  Two coqc runs, about 10 s each."""
from __future__ import annotations

import subprocess
from pathlib import Path

from obligations.certify import allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

SOURCE = THEORIES / "Float" / "SnapUlpsRefuted.v"
STATEMENTS = {
    "snap_binary64_mironov_constant_ulp_false":
        "forall rho0 beta0 : R, (rho0 <= 21 / 20)%R -> (beta0 <= 257)%R -> ~ snap64_constant_ulps 1 rho0 beta0 16 0",
    "snap_binary64_seed_constant_ulp_false":
        "forall rho0 beta0 : R, (rho0 <= 21 / 20)%R -> (beta0 <= 257)%R -> ~ snap64_constant_ulps 1 rho0 beta0 12 2",
    # the witness's inputs are binary64 floats, its log within 1 ulp on every float of (0, 1)
    "v_x_format": "F64 v_x /\\ F64 v_x'",
    "lnadv_rel": "forall s1 s2 v : R, F64 v -> (0 < v < 1)%R -> "
                 "rel_within (2 * 1 * eta 53 / (1 - 2 * 1 * eta 53)) (ln v) (lnadv s1 s2 v)",
}


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    v = tmp_path / f"{name}.v"
    v.write_text(text, encoding="utf-8")
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_refutations_state_the_negation_and_use_allowed_axioms(tmp_path: Path) -> None:
    typed = "".join(f"Definition stated_{i} : {s} := {n}.\n" for i, (n, s) in enumerate(STATEMENTS.items()))
    done = _coqc(tmp_path, "UlpsRefuted", (
        "From Coq Require Import Reals.\nFrom Flocq Require Import Core.Core.\n"
        "From Obligations.Float Require Import RelError DiffprivlibRound SnapSeedUlps SnapUlpsRefuted.\n"
        "Local Open Scope R_scope.\nSet Printing Width 100000.\n" + typed +
        "Definition audit_all := (stated_0, stated_1, stated_2, stated_3).\nPrint Assumptions audit_all.\n"))
    assert done.returncode == 0, done.stderr + done.stdout
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS | allowlist.PRIMITIVE)
    assert names and not unresolved and allowlist.refused(full, uses_interval=True) == []


def test_the_key_inequality_against_a_larger_constant_is_refused(tmp_path: Path) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    slope = "16 * eta 53 * (w2_bound / w1_lam)"
    assert text.count(slope) == 1
    start = text.index("Lemma v_key16")
    line = text.count("\n", 0, text.index("interval with (i_prec 200)", start)) + 1
    done = _coqc(tmp_path, "UlpsRefuted19", text.replace(slope, slope.replace("16", "19")))
    out = done.stderr + done.stdout
    assert done.returncode != 0 and f"line {line}," in out and "Numerical evaluation failed" in out, out
