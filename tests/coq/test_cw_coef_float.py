"""The coefficient recursion of K runs on the same database in floats rounded one way
(theories/Accountant/CWCoefCheck.v) against the product table's CW definition.

The 5-ary example of docs/profiles.md (Pr[y = x] = 17/25, else 2/25; priors 1/2, 1/2 on {0, 1}
against {2, 3}), K = 6 runs, t = (19/4)^6 = e^eps: delta(eps) = 0.16017596352 (both orders).
Rounded up, the recursion proves (eps, 0.1602)-CW-privacy; rounded down it refutes 0.1601; the
claim (eps, 0.1601), a bracket below the true value, is refused by coqc.  Two coqc runs of a few
seconds; the proofs rest on the reals' axioms and the primitive floats' specifications."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from coqrun import assumption_blocks, coqc, one_audit

from obligations.certify import allowlist
from obligations.prover.coq import assumption_names

REPO = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.coq

PROOF = r"""From Coq Require Import List QArith Qreals Reals Lra.
From Coq Require Floats.PrimFloat.
From Obligations.Finite Require Import Mechanism Compose CW.
From Obligations.Accountant Require Import CWCoefCheck.
Import ListNotations.
Local Open Scope R_scope.

Definition rr5 : fmech := FMech 5 5
  [[17#25; 2#25; 2#25; 2#25; 2#25]; [2#25; 17#25; 2#25; 2#25; 2#25]; [2#25; 2#25; 17#25; 2#25; 2#25];
   [2#25; 2#25; 2#25; 17#25; 2#25]; [2#25; 2#25; 2#25; 2#25; 17#25]]%Q.
Definition f : list Q := [1#2; 1#2; 0; 0; 0]%Q.
Definition f' : list Q := [0; 0; 1#2; 1#2; 0]%Q.
Definition sw : list (nat * nat) := [(0, 1); (2, 3)]%nat.
Module Tau. Import Coq.Floats.PrimFloat. Definition tau : float := 0x1p-60%float. End Tau.
Definition tau := Tau.tau.
Definition t : Q := 47045881#4096.   (* (19/4)^6 *)

Lemma t_exp : Q2R t = exp (ln (Q2R t)).
Proof. rewrite exp_ln; [reflexivity|unfold Q2R, t; cbn [Qnum Qden]; lra]. Qed.

Theorem rr5_dp : cw_dp (fmech_power rr5 6) f f' (ln (Q2R t)) (Q2R (DELTA)).
Proof.
  apply (cw_coef_dp_of_check rr5 (2#25) (17#2) sw tau 6 f f' t (DELTA)); [rewrite <- t_exp; apply Rle_refl|].
  vm_cast_no_check (eq_refl true).
Qed.

Theorem rr5_refuted : ~ cw_dp (fmech_power rr5 6) f f' (ln (Q2R t)) (Q2R (REFUTED)).
Proof.
  apply (cw_coef_not_dp_of_check rr5 (2#25) (17#2) sw tau 6 f f' t (REFUTED) false);
    [rewrite <- t_exp; apply Rle_refl|].
  vm_cast_no_check (eq_refl true).
Qed.
Set Printing Width 100000.
Print Assumptions rr5_dp.
Print Assumptions rr5_refuted.
"""


def _coqc(tmp_path: Path, delta: str, refuted: str) -> subprocess.CompletedProcess[str]:
    # one print of both theorems' assumptions (their union): one traversal of what they share
    text = one_audit(PROOF.replace("DELTA", delta).replace("REFUTED", refuted), ("rr5_dp", "rr5_refuted"))
    return coqc(tmp_path, "coef_float", text)


def test_bracket_proves_and_refutes(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "1602#10000", "1601#10000")
    assert done.returncode == 0, done.stderr
    (block,) = assumption_blocks(done.stdout)
    names = assumption_names(block, "rr5_dp, rr5_refuted")
    full, unresolved = allowlist.full_names(names, allowlist.REALS | allowlist.PRIMITIVE)
    assert names and not unresolved and allowlist.refused(full, uses_interval=True) == []


def test_a_delta_below_the_true_value_is_refused(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "1601#10000", "1600#10000")
    assert done.returncode != 0
    theorem = "Theorem rr5_dp : cw_dp (fmech_power rr5 6) f f' (ln (Q2R t)) (Q2R (DELTA))."
    line = 1 + PROOF.splitlines().index(theorem) + 4
    assert f"line {line}," in done.stderr and "check_coef_dp" in done.stderr      # rr5_dp's Qed
