"""The grouped check of K runs on the same database (theories/Accountant/CWGroupCheck.v, on the
identity of theories/Finite/CWGroup.v): the 5-ary example of docs/profiles.md (randomized
response, Pr[y = x] = 17/25, 2/25 otherwise; priors 1/2, 1/2 on {0, 1} against {2, 3}) released
3 times, at e^eps = (19/4)^3, where delta(eps) = 0.2052.  delta = 0.206 is proved by
`cw_group_dp_sym_of_check` (one order of the rows, the priors swapped by 0 <-> 2, 1 <-> 3) and
delta = 0.205 refuted by `cw_group_not_dp_of_check`, in one file; the proof of delta = 0.205 is
refused by coqc (the check rounded up computes false).  Two coqc runs of a few seconds each."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from coqrun import coqc

pytestmark = pytest.mark.coq

HEAD = r"""From Coq Require Import List QArith Qreals Reals Lra.
From Obligations.Core Require Import RealFacts ExpBounds.
From Obligations.Finite Require Import Mechanism Compose CW.
From Obligations.Accountant Require Import CWCoefCheck CWGroupCheck.
Import ListNotations.

Definition rr5 : fmech := FMech 5 5
  [[17#25; 2#25; 2#25; 2#25; 2#25]; [2#25; 17#25; 2#25; 2#25; 2#25]; [2#25; 2#25; 17#25; 2#25; 2#25];
   [2#25; 2#25; 2#25; 17#25; 2#25]; [2#25; 2#25; 2#25; 2#25; 17#25]]%Q.
Definition f : list Q := [1#2; 1#2; 0; 0; 0]%Q.
Definition f' : list Q := [0; 0; 1#2; 1#2; 0]%Q.
Definition sym : list nat := [2; 3; 0; 1; 4]%nat.

Lemma t_lower : (Q2R (6859 # 64) <= exp (3 * ln (19 / 4)))%R.
Proof. exp_exact. Qed.
Lemma t_upper : (exp (3 * ln (19 / 4)) <= Q2R (6859 # 64))%R.
Proof. exp_exact. Qed.
"""

PROVE = r"""
Theorem rr5_3_dp : cw_dp (fmech_power rr5 3) f f' (3 * ln (19 / 4)) (Q2R (DELTA)).
Proof.
  exact (cw_group_dp_sym_of_check rr5 (2 # 25) (17 # 2) 3 sym f f' 0 1 2 3 (6859 # 64) (DELTA) _ t_lower
           ltac:(vm_cast_no_check (eq_refl true))).
Qed.
"""

REFUTE = r"""
Theorem rr5_3_refuted : ~ cw_dp (fmech_power rr5 3) f f' (3 * ln (19 / 4)) (Q2R (205 # 1000)).
Proof.
  exact (cw_group_not_dp_of_check rr5 (2 # 25) (17 # 2) 3 f f' 0 1 2 3 (6859 # 64) (205 # 1000) false _ t_upper
           ltac:(vm_cast_no_check (eq_refl true))).
Qed.
"""


def _coqc(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, "cw_group", text)


def test_three_runs_proved_above_and_refuted_below(tmp_path: Path) -> None:
    done = _coqc(tmp_path, HEAD + PROVE.replace("DELTA", "206 # 1000") + REFUTE)
    assert done.returncode == 0, done.stderr


def test_three_runs_below_delta_is_not_proved(tmp_path: Path) -> None:
    done = _coqc(tmp_path, HEAD + PROVE.replace("DELTA", "205 # 1000"))
    assert done.returncode != 0 and "check_group_dp_sym" in done.stderr     # the check computed false
