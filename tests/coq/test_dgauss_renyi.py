"""Real Coq: the discrete Gaussian's Rényi bounds at integer orders (Accountant/DGaussRenyi.v: one
run over finite sets, and (ε, δ)-DP of K runs) and at real orders (Accountant/ThetaMax.v,
DGaussZcdp.v: kernel sums at a real shift below N(v), ρ-zCDP of K runs) say what the docs say
and rest only on allowed axioms; and the order 1 is not covered (the instances below do not
type-check: 2 <= a, or 1 < a, is needed)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from coqrun import coqc

from obligations.certify import allowlist as allowlist
from obligations.prover.coq import assumption_names

pytestmark = pytest.mark.coq

STATEMENT = ("forall v : R, 0 < v -> forall (s : Z) (a : nat) (eps : R) (l : list Z), (2 <= a)%nat -> "
             "NoDup l -> rsum (map (fun z : Z => Rmax 0 (dgauss v z - exp eps * dgauss v (z + s))) l) <= "
             "exp ((INR a - 1) * (INR a * (IZR s * IZR s) / (2 * v) - eps))")


def _coqc(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, "RenyiAudit", "From Coq Require Import ZArith Reals List Lra.\n"
                "From Obligations.Accountant Require Import DGauss DGaussRenyi.\n"
                "From Obligations.Core Require Import Sums.\nOpen Scope R_scope.\n"
                "Set Printing Width 100000.\n" + body)


KRUNS = ("forall v : R, 0 < v -> forall (Delta : Z) (K a : nat) (eps : R), (2 <= a)%nat -> zdp (dgauss v) Delta K "
         "eps (exp ((INR a - 1) * (INR K * INR a * (IZR Delta * IZR Delta) / (2 * v) - eps)))")


THETA = ("forall v : R, 0 < v -> forall (t : R) (l : list Z), NoDup l -> "
         "rsum (map (fun z : Z => dg_rkernel v (IZR z - t)) l) <= dg_norm v")
ZCDP = ("forall v : R, 0 < v -> forall (Delta : Z) (K : nat), "
        "zcdp (dgauss v) Delta K (INR K * (IZR Delta * IZR Delta / (2 * v)))")
ZCDP_DEF = ("fun (p : Z -> R) (Delta : Z) (K : nat) (rho : R) => forall x x' : Z, (Z.abs (x - x') <= Delta)%Z -> "
            "forall a : R, 1 < a -> forall l : list (list Z), NoDup l -> (forall w : list Z, In w l -> "
            "length w = K) -> zmoment p x x' a l <= exp ((a - 1) * (a * rho))")
KRUNS_REAL = ("forall v : R, 0 < v -> forall (Delta : Z) (K : nat) (a eps : R), 1 < a -> zdp (dgauss v) Delta K "
              "eps (exp ((a - 1) * (INR K * a * (IZR Delta * IZR Delta) / (2 * v) - eps)))")


def test_statement_and_assumptions(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "From Obligations.Accountant Require Import NoiseDP ThetaMax Zcdp DGaussZcdp.\n"
                 "Check dgauss_hs_renyi.\nCheck zdp_dgauss_renyi.\nCheck dg_shift_sum_le.\nCheck zcdp_dgauss.\n"
                 "Print zcdp.\nCheck zdp_dgauss_renyi_real.\n"
                 "Goal forall (v : R) (Hv : 0 < v) (Delta : Z) (K : nat) (eps : R), True.\n"
                 "intros v Hv Delta K eps.\nFail pose proof (zdp_dgauss_renyi_real v Hv Delta K 1 eps ltac:(lra)).\n"
                 "exact I.\nQed.\n"
                 "Definition all := (dgauss_hs_renyi, zdp_dgauss_renyi, zdp_dgauss_renyi_real, zdp_dgauss_zcdp_best).\n"
                 "Print Assumptions all.\n")
    # returncode 0 also says the order 1 was refused: `Fail` stops the file if its command succeeds
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    for statement in (STATEMENT, KRUNS, THETA, ZCDP, ZCDP_DEF, KRUNS_REAL):
        assert " ".join(statement.split()) in flat, (statement, done.stdout)
    lines = done.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(("Axioms:", "Closed under")))
    names = assumption_names(lines[start:], "all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []


def test_order_one_is_not_covered(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "Goal forall (v : R) (Hv : 0 < v) (s : Z) (eps : R) (l : list Z) (H : NoDup l), True.\n"
                 "intros v Hv s eps l H.\n"
                 "pose proof (dgauss_hs_renyi v Hv s 1 eps l (le_n 1) H).\nexact I.\nQed.\n")
    assert done.returncode != 0 and "le_n 1" in done.stderr


def test_the_check_passes_at_the_bound_and_fails_just_below(tmp_path: Path) -> None:
    """A million runs, sigma = 5, order 2: the bound is e^-12 = 6.1442124e-6.  The check proves
    (40012, 10^-5) and cannot prove (40012, 6.144212e-6), just below the bound; and its theorem
    says (ε, δ)-DP of the noise the accountant's route states it for.  At the real order
    a = 128/125 = 1.024, the best for ε = 20960 (ρ-zCDP in full), the rational-order check proves
    δ = 10^-5 and not 9.929504e-6, just below e^-11.52 = 9.9295043e-6; the order 1 is refused."""
    done = coqc(tmp_path, "RenyiCheck", "From Obligations Require Import PreludeRenyi.\n"
                "Goal renyi_check (25 # 1) 1 1000000 2 (40012 # 1) (1 # 100000) = true.\n"
                "Proof. vm_compute. reflexivity. Qed.\n"
                "Goal renyi_check (25 # 1) 1 1000000 2 (40012 # 1) (6144212 # 1000000000000) = false.\n"
                "Proof. vm_compute. reflexivity. Qed.\n"
                "Goal qorder_passes (25 # 1) 1 1000000 (128 # 125) (20960 # 1) (1 # 100000) = true.\n"
                "Proof. vm_compute. reflexivity. Qed.\n"
                "Goal qorder_passes (25 # 1) 1 1000000 (128 # 125) (20960 # 1) (9929504 # 1000000000000) = false.\n"
                "Proof. vm_compute. reflexivity. Qed.\n"
                "Goal qorder_passes (25 # 1) 1 1000000 1 (20960 # 1) (1 # 1) = false.\n"
                "Proof. vm_compute. reflexivity. Qed.\n"
                "Set Printing Width 100000.\nCheck zdp_dgauss_renyi_check.\nCheck zdp_dgauss_qorder.\n")
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    assert ("renyi_check v Delta K a eps delta = true -> zdp (dgauss (Q2R v)) Delta K (Q2R eps) (Q2R delta)"
            in flat), done.stdout
    assert ("qorder_passes v Delta K a eps delta = true -> zdp (dgauss (Q2R v)) Delta K (Q2R eps) (Q2R delta)"
            in flat), done.stdout
