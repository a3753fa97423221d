"""Float/SnapSeed64.v with real Coq: the seed's (12, 2) and Mironov's (16, 0) for a wide grid rest
only on the reals' axioms, and the seed's corollary is not slack: the same proof with 10λ ≤ B in
place of 11λ ≤ B is refused at the constant's inequality.  Two coqc runs, a few seconds."""
from __future__ import annotations

import subprocess
from pathlib import Path

from obligations.certify import allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

THEOREMS = ["snap_binary64_dp_wide", "snap_binary64_dp_wide_ab", "snap64_constant_weaken",
            "snap_binary64_seed_constant", "snap_binary64_seed_constant_175", "snap_binary64_seed_constant_165",
            "snap_binary64_mironov_constant", "snap_binary64_mironov_constant_15", "snap_binary64_mironov_constant_12"]


SOURCE = THEORIES / "Float" / "SnapSeed64.v"


def _coqc(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """body after SnapSeed64.v's own imports (and SnapSeed64 itself)."""
    source = SOURCE.read_text(encoding="utf-8")
    header = source[source.index("From Coq Require"):source.index("Local Open Scope R_scope.")]
    v = tmp_path / "Wide.v"
    v.write_text(header + "From Obligations.Float Require Import SnapSeed64.\n"
                 "Local Open Scope R_scope.\nSet Printing Width 100000.\n" + body)
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300)


def test_wide_grid_constants_use_only_the_reals_axioms(tmp_path: Path) -> None:
    done = _coqc(tmp_path, f"Definition audit_all := ({', '.join(THEOREMS)}).\nPrint Assumptions audit_all.\n")
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


def test_seed_constant_refused_below_eleven_lambda(tmp_path: Path) -> None:
    source = SOURCE.read_text(encoding="utf-8")
    start = source.index("Corollary snap_binary64_seed_constant ")
    corollary = source[start:source.index("Qed.", start) + 4]
    weaker = corollary.replace("snap_binary64_seed_constant", "seed_constant_at_ten")
    weaker = weaker.replace("(19 / 10) 11 12 2", "(19 / 10) 10 12 2")
    assert weaker.count("(19 / 10) 10 12 2") == 2
    assert _coqc(tmp_path, corollary.replace("snap_binary64_seed_constant", "seed_constant_again")).returncode == 0
    refused = _coqc(tmp_path, weaker)
    assert refused.returncode != 0 and "Cannot find witness" in refused.stderr   # lra: 11c − 2 > (12 − 8c)·10
