"""Exact K-fold composition by the PLD (theories/Finite/PLD*.v), with real Coq: a small
composition proved and refuted from both sides, a false claim not proved, and the
assumptions of every theorem allow-listed.  Cheap: 10 runs of the 1/2-geometric over {0..5}
(the 1000-fold target over {0..100} is bench/composition_pld.py)."""
from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path

from coqrun import assumption_blocks, coqc, one_audit

from obligations.certify import allowlist
from obligations.prover.coq import assumption_names
from obligations.table.pld import PldClaim, claims_for, render_tgeom_power, two_point_delta


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, name, text, logical="T")


def test_small_composition_is_proved_and_refuted(tmp_path: Path) -> None:
    claims = claims_for(Fraction(1, 2), 10, [1, 3])
    assert all(c.lower > 0 for c in claims)
    text = one_audit(render_tgeom_power("g10", Fraction(1, 2), 5, 10, claims), ("g10_dp_0", "g10_refuted_0"))
    done = _coqc(tmp_path, "g10", text)
    assert done.returncode == 0, done.stderr + done.stdout[-2000:]
    (block,) = assumption_blocks(done.stdout)   # the first (eps, upper)-DP and its refutation, at once
    names = assumption_names(block, "g10")
    full, unresolved = allowlist.full_names(names, allowlist.REALS | allowlist.PRIMITIVE)
    assert not unresolved and allowlist.refused(full, uses_interval=True) == []


def test_false_claim_is_not_proved(tmp_path: Path) -> None:
    """δ below the exact δ(3) of the 10-fold composition: the interval check fails, coqc stops."""
    exact = two_point_delta(Fraction(2, 3), 2, 10, 3)
    below = Fraction(int(exact * 10 ** 6), 10 ** 6) - Fraction(1, 10 ** 4)
    done = _coqc(tmp_path, "g10f", render_tgeom_power("g10f", Fraction(1, 2), 5, 10,
                                                         [PldClaim(3, below, below / 2)]))
    assert done.returncode != 0
    assert "pld_checks" in done.stderr   # stopped at the interval check, not elsewhere


def test_hs_is_determined_by_the_pld_on_the_reals_alone(pld_assumptions: dict[str, list[str]]) -> None:
    """The library theorem (hs of the k-fold composition = the PLD's convolution power) rests on
    the real numbers' axioms only; the floats enter with the interval evaluation (one coqc run
    shared with test_kov_certify.py, with dp_power_kov and dp_power_kov_check: tests/coq/conftest.py)."""
    exact = assumption_names(pld_assumptions["exact"], "pld")
    floats = assumption_names(pld_assumptions["floats"], "pld")
    full, unresolved = allowlist.full_names(exact, allowlist.REALS)
    assert not unresolved and allowlist.refused(full, uses_interval=False) == []
    assert any("FloatAxioms" in n for n in floats) and not any("FloatAxioms" in n for n in exact)
