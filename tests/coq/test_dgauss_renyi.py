"""Real Coq: the discrete Gaussian's Rényi bound at integer orders (Accountant/DGaussRenyi.v) says
what the docs say and rests only on allowed axioms; and Coq refuses the bound at order 1
(the hypothesis 2 <= a is needed: the instance below does not type-check without it)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from obligations.certify import allowlist as allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

pytestmark = pytest.mark.coq

STATEMENT = ("forall v : R, 0 < v -> forall (s : Z) (a : nat) (eps : R) (l : list Z), (2 <= a)%nat -> "
             "NoDup l -> rsum (map (fun z : Z => Rmax 0 (dgauss v z - exp eps * dgauss v (z + s))) l) <= "
             "exp ((INR a - 1) * (INR a * (IZR s * IZR s) / (2 * v) - eps))")


def _coqc(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    v = tmp_path / "RenyiAudit.v"
    v.write_text("From Coq Require Import ZArith Reals List.\nFrom Obligations.Accountant Require Import DGauss "
                 "DGaussRenyi.\nFrom Obligations.Core Require Import Sums.\nOpen Scope R_scope.\n"
                 "Set Printing Width 100000.\n" + body)
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300)


def test_statement_and_assumptions(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "Check dgauss_hs_renyi.\nPrint Assumptions dgauss_hs_renyi.\n")
    assert done.returncode == 0, done.stderr
    assert " ".join(done.stdout.split()).find(" ".join(STATEMENT.split())) >= 0, done.stdout
    lines = done.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(("Axioms:", "Closed under")))
    names = assumption_names(lines[start:], "dgauss_hs_renyi")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


def test_order_one_is_not_covered(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "Goal forall (v : R) (Hv : 0 < v) (s : Z) (eps : R) (l : list Z) (H : NoDup l), True.\n"
                 "intros v Hv s eps l H.\n"
                 "pose proof (dgauss_hs_renyi v Hv s 1 eps l (le_n 1) H).\nexact I.\nQed.\n")
    assert done.returncode != 0 and "le_n 1" in done.stderr
