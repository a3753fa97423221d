"""Float/SnapSeed64.v and SnapSeedUlps.v with real Coq: the seed's (12, 2) and Mironov's (16, 0)
for a wide grid, and the same route for a logarithm within k ulps, rest only on the reals'
axioms, and their corollaries are not slack: the seed's with 10λ ≤ B in place of 11λ ≤ B, and
Mironov's with a 1-ulp log with 94λ ≤ B in place of 95λ ≤ B, are refused at the constant's
inequality.  A few coqc runs, a few seconds each."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

THEOREMS = ["snap_binary64_dp_wide", "snap_binary64_dp_wide_ab", "snap64_constant_weaken",
            "snap_binary64_seed_constant", "snap_binary64_seed_constant_175", "snap_binary64_seed_constant_165",
            "snap_binary64_mironov_constant", "snap_binary64_mironov_constant_15", "snap_binary64_mironov_constant_12",
            "snap_binary64_mironov_constant_112", "snap_binary64_mironov_constant_111"]
ULPS_THEOREMS = ["snap_binary64_dp_wide_log", "snap_binary64_dp_wide_ulps", "snap_binary64_dp_wide_ulps_ab",
                 "snap_binary64_mironov_constant_1ulp"]

SEED = THEORIES / "Float" / "SnapSeed64.v"
ULPS = THEORIES / "Float" / "SnapSeedUlps.v"


def _coqc(tmp_path: Path, source: Path, body: str) -> subprocess.CompletedProcess[str]:
    """body after the library file's own imports (and the file itself)."""
    text = source.read_text(encoding="utf-8")
    header = text[text.index("From Coq Require"):text.index("Local Open Scope R_scope.")]
    v = tmp_path / f"Wide{source.stem}.v"
    v.write_text(header + f"From Obligations.Float Require Import {source.stem}.\n"
                 "Local Open Scope R_scope.\nSet Printing Width 100000.\n" + body)
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("source, theorems", [(SEED, THEOREMS), (ULPS, ULPS_THEOREMS)], ids=["seed64", "ulps"])
def test_wide_grid_constants_use_only_the_reals_axioms(tmp_path: Path, source: Path, theorems: list[str]) -> None:
    done = _coqc(tmp_path, source, f"Definition audit_all := ({', '.join(theorems)}).\nPrint Assumptions audit_all.\n")
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


@pytest.mark.parametrize("source, name, at, below, why", [
    (SEED, "snap_binary64_seed_constant", "(19 / 10) 11 12 2", "(19 / 10) 10 12 2", "11c − 2 > (12 − 8c)·10"),
    (ULPS, "snap_binary64_mironov_constant_1ulp", "(199 / 100) 95 16 0", "(199 / 100) 94 16 0", "14c > (16 − 12c)·94"),
], ids=["seed_below_eleven_lambda", "mironov_1ulp_below_ninety_five_lambda"])
def test_corollary_refused_just_below_its_range(tmp_path: Path, source: Path, name: str, at: str, below: str,
                                                why: str) -> None:
    """The corollary as written compiles again under another name; with the range's lower end
    one lambda lower, lra refuses the constant's inequality (why: the inequality that fails)."""
    text = source.read_text(encoding="utf-8")
    start = text.index(f"Corollary {name} ")
    corollary = text[start:text.index("Qed.", start) + 4]
    weaker = corollary.replace(name, "constant_below").replace(at, below)
    assert weaker.count(below) == 2
    assert _coqc(tmp_path, source, corollary.replace(name, "constant_again")).returncode == 0
    refused = _coqc(tmp_path, source, weaker)
    assert refused.returncode != 0 and "Cannot find witness" in refused.stderr, why
