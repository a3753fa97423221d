"""The hand-written library: its main theorems rest only on allowed axioms."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from coqrun import coqc

from obligations.certify import allowlist as allowlist
from obligations.core.resources import THEORIES
from obligations.prover.coq import assumption_names

REPO = Path(__file__).resolve().parent.parent.parent
THEOREMS = ["dp_of_check_pointwise", "dp_of_check_hockey", "not_dp_of_witness",
            "distr_of_check", "check_pointwise_of_adjacent", "dp_iff_region_within",
            "tgeom_distr", "krr_dp_le", "dp_power_basic_q",    # families and basic composition
            "tgeom_dp_distance", "krr_exp_rdp", "rdp_of_brackets",   # distance d, tables of reals
            "rgeom_rdp_distance", "rgeom_rdistr",                     # the geometric with alpha = e^(-eps)
            "expmech_rdp", "expmech_rdistr",                          # the exponential mechanism
            "rdp_of_brackets_delta", "not_rdp_of_bracket_set",        # delta > 0 on brackets
            "dp_prog_of_dp", "not_dp_prog_of_not_dp", "dp_prog_of_check_pointwise",   # programs
            "dp_prog_of_check_hockey_at", "not_dp_prog_of_witness_at",
            "exec_for_unroll", "exec_seq", "exec_mass", "dprob_compact"]


def test_library_theorems_use_only_allowed_axioms(tmp_path: Path) -> None:
    """One `Print Assumptions` of the tuple of all the theorems: its assumptions are the union
    of theirs (one traversal of the library instead of one per theorem, 2 s instead of 15)."""
    v = tmp_path / "Audit.v"
    v.write_text("From Obligations Require Import PreludeReal.\nSet Printing Width 100000.\n"
                 f"Definition audit_all := ({', '.join('@' + t for t in THEOREMS)}).\n"   # @: no implicits to infer
                 "Print Assumptions audit_all.\n")
    done = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    assert names and allowed(names)


def allowed(printed: list[str]) -> bool:
    """Every assumption (as Print Assumptions names it) is exactly one allow-listed axiom."""
    full, unresolved = allowlist.full_names(printed, allowlist.REALS)
    return not unresolved and allowlist.refused(full, uses_interval=False) == []


def test_generated_snapping_dp_states_snap_dp(tmp_path: Path) -> None:
    """A generated snapping file's NAME_dp is the library's snap_dp (Noise/SnapDP.v) written out:
    it type-checks as [snap_dp NAME sensitivity claim] as it is (the `Check` after the file's
    last line, in the same coqc run: a second file requiring it loaded the libraries again)."""
    name = "snapping_clamped_instance"
    text = (REPO / "certificates" / f"{name}.v").read_text()
    assert "From Obligations Require Import PreludeSnap.\n" in text     # snap_dp's prelude
    (tmp_path / f"{name}.v").write_text(text + f"\nCheck ({name}_dp : snap_dp {name} 2 2).\n")
    done = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", "-Q", str(tmp_path), "Certs", f"{name}.v"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def _coqc(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, "Taylor", "From Obligations Require Import Prelude.\n" + body)


def test_taylor_bounds_on_exp_split_a_large_epsilon(tmp_path: Path) -> None:
    """e^2.9 = 18.174145...: bounded on both sides as (e^(2.9/3))^3, without interval."""
    done = _coqc(tmp_path, (
        "Lemma lo : (Q2R (18174145 # 1000000) <= exp (29/10))%R.\n"
        "Proof. exp_taylor_lower (29 # 10) 3%nat 14%nat. Qed.\n"
        "Lemma hi : (exp (29/10) <= Q2R (18174146 # 1000000))%R.\n"
        "Proof. exp_taylor_upper (29 # 10) 3%nat 7%nat. Qed.\n"
        "Set Printing Width 100000.\nPrint Assumptions lo.\nPrint Assumptions hi.\n"))
    assert done.returncode == 0, done.stderr + done.stdout
    blocks = done.stdout.split("Axioms:")[1:]
    assert len(blocks) == 2
    for block in blocks:   # the reals' axioms only: no primitive floats, no interval
        names = assumption_names(("Axioms:" + block).splitlines(), "taylor")
        assert names and allowed(names)


@pytest.mark.parametrize("lemma", [
    "Lemma f : (Q2R (18174146 # 1000000) <= exp (29/10))%R.\nProof. exp_taylor_lower (29 # 10) 3%nat 40%nat. Qed.\n",
    "Lemma f : (exp (29/10) <= Q2R (18174145 # 1000000))%R.\nProof. exp_taylor_upper (29 # 10) 3%nat 40%nat. Qed.\n",
    # a true bound (1.6 <= e^(1/2) = 1.6487...), but the hint names another epsilon
    "Lemma f : (Q2R (16 # 10) <= exp (1/2))%R.\nProof. exp_taylor_lower (1 # 1) 1%nat 10%nat. Qed.\n",
])
def test_taylor_bounds_refuse_a_false_bound_or_another_epsilon(tmp_path: Path, lemma: str) -> None:
    done = _coqc(tmp_path, lemma)
    assert done.returncode != 0 and "Error" in done.stderr + done.stdout
