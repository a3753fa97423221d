"""Float/SnapSeedUlps.v with real Coq: the wide-grid route for a logarithm within k ulps rests only on
the reals' axioms, and Mironov's (16, 0) with a 1-ulp log is not slack: the same proof with 94λ ≤ B in
place of 95λ ≤ B is refused at the constant's inequality.  Two coqc runs, a few seconds."""
from __future__ import annotations

import subprocess
from pathlib import Path

from obligations.certify import allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

THEOREMS = ["snap_binary64_dp_wide_log", "snap_binary64_dp_wide_ulps", "snap_binary64_dp_wide_ulps_ab",
            "snap_binary64_mironov_constant_1ulp"]

SOURCE = THEORIES / "Float" / "SnapSeedUlps.v"


def _coqc(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """body after SnapSeedUlps.v's own imports (and SnapSeedUlps itself)."""
    source = SOURCE.read_text(encoding="utf-8")
    header = source[source.index("From Coq Require"):source.index("Local Open Scope R_scope.")]
    v = tmp_path / "WideUlps.v"
    v.write_text(header + "From Obligations.Float Require Import SnapSeedUlps.\n"
                 "Local Open Scope R_scope.\nSet Printing Width 100000.\n" + body)
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300)


def test_log_ulps_wide_grid_uses_only_the_reals_axioms(tmp_path: Path) -> None:
    done = _coqc(tmp_path, f"Definition audit_ulps := ({', '.join(THEOREMS)}).\nPrint Assumptions audit_ulps.\n")
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_ulps")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


def test_mironov_one_ulp_refused_below_ninety_five_lambda(tmp_path: Path) -> None:
    source = SOURCE.read_text(encoding="utf-8")
    start = source.index("Corollary snap_binary64_mironov_constant_1ulp ")
    corollary = source[start:source.index("Qed.", start) + 4]
    weaker = corollary.replace("snap_binary64_mironov_constant_1ulp", "mironov_1ulp_at_94")
    weaker = weaker.replace("(199 / 100) 95 16 0", "(199 / 100) 94 16 0")
    assert weaker.count("(199 / 100) 94 16 0") == 2
    again = corollary.replace("snap_binary64_mironov_constant_1ulp", "mironov_1ulp_again")
    assert _coqc(tmp_path, again).returncode == 0
    refused = _coqc(tmp_path, weaker)
    assert refused.returncode != 0 and "Cannot find witness" in refused.stderr   # lra: 14c > (16 − 12c)·94
