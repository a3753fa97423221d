"""The Kairouz–Oh–Viswanath bound certified for concrete (ε0, k) (theories/Finite/KOV.v), with
real Coq: the claim about every (ε0, 0)-DP finite mechanism proved at e^ε0 = 3 (rational) and
e^ε0 = e (irrational, bracketed by intervals), refuted just below the bound with randomized
response and its loss event as the witness, a false claim not proved, and the assumptions
allow-listed.  Cheap: 10 runs (k = 100 is in bench/kov.py)."""
from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path

import committed
from coqrun import assumption_blocks, coqc, tuple_audit

from obligations.certify import allowlist
from obligations.prover.coq import assumption_names
from obligations.table.kov import Exponent, KovClaim, claims_for, kov_delta, render_kov

LN3 = Exponent(Fraction(3), log=True)


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    return coqc(tmp_path, name, text, logical="T")


def _allowed(stdout: str, module: str) -> None:
    """The assumptions of each case's first claim for every mechanism and its refutation (one
    print of all of them: their union) are allow-listed."""
    (block,) = assumption_blocks(stdout)
    full, unresolved = allowlist.full_names(assumption_names(block, module), allowlist.REALS | allowlist.PRIMITIVE)
    assert not unresolved and allowlist.refused(full, uses_interval=True) == []


# Two files' worth of claims, at e^ε0 = 3 (rational) and at e^ε0 = e (intervals), compiled as one
# file: one load of the libraries and one `Print Assumptions` of the four theorems (the
# interval proofs they share are traversed once; two coqc runs took ~14 s of CPU, one ~9 s).
KOV_CASES = {"kov10": (LN3, [Exponent(Fraction(9), log=True), Exponent(Fraction(1))]),
             "kove": (Exponent(Fraction(1)), [Exponent(Fraction(2))])}


def test_kov_is_proved_for_every_mechanism_and_refuted_below(tmp_path: Path) -> None:
    text, theorems = "", ()
    for name, (eps0, epsilons) in KOV_CASES.items():
        claims = claims_for(eps0, 10, epsilons)
        assert all(0 < c.lower < c.upper for c in claims)
        pair = (f"{name}_dp_0", f"{name}_refuted_0")
        rendered = render_kov(name, eps0, 10, claims)
        tail = "".join(f"Print Assumptions {t}.\n" for t in pair)
        assert rendered.endswith(tail)
        text, theorems = text + rendered[:-len(tail)], (*theorems, *pair)
    done = _coqc(tmp_path, "kov10", text + tuple_audit(theorems))
    assert done.returncode == 0, done.stderr + done.stdout[-2000:]
    _allowed(done.stdout, "kov10")


def test_false_claim_is_not_proved(tmp_path: Path) -> None:
    """δ below the KOV value at ε = 2 ln 3 (10 runs, ε0 = ln 3): the interval check fails."""
    eps = Exponent(Fraction(9), log=True)
    exact = kov_delta(LN3, 10, eps)
    below = Fraction(int(exact * 10 ** 6), 10 ** 6) - Fraction(1, 10 ** 4)
    done = _coqc(tmp_path, "kovf", render_kov("kovf", LN3, 10, [KovClaim(eps, below, below / 2)]))
    assert done.returncode != 0
    assert "kov_le_check kovf_r kovf_t_0 10" in done.stderr   # stopped at the interval check


def test_the_general_theorem_rests_on_the_reals_alone(pld_assumptions: dict[str, list[str]]) -> None:
    """`dp_power_kov` (every ε0-DP mechanism, the KOV sum as a real) uses no float; the floats
    enter with the interval evaluation (`dp_power_kov_check`).  (One coqc run shared with
    test_pld_certify.py, with hs_power_pld and dp_power_pld2: tests/coq/conftest.py.)"""
    exact = assumption_names(pld_assumptions["exact"], "kov")
    floats = assumption_names(pld_assumptions["floats"], "kov")
    full, unresolved = allowlist.full_names(exact, allowlist.REALS)
    assert not unresolved and allowlist.refused(full, uses_interval=False) == []
    assert any("FloatAxioms" in n for n in floats) and not any("FloatAxioms" in n for n in exact)


def test_kov_spec_below_the_bound_is_refuted_with_its_witness() -> None:
    """The spec form through `obligations prove`: ε0 = 1 (intervals), 100 runs, δ just below the
    KOV value at ε = 70 (0.0014273194): refuted, randomized response the witness (read from the
    certificate Coq made of it, tests/committed.py)."""
    spec = Path(__file__).resolve().parents[2] / "tests" / "specs" / "kov" / "kov_eps1_100_runs_delta_low.yaml"
    _, results = committed.results(spec)
    assert results[spec.stem]["verdict"] == "refuted"
    cert = committed.record(spec.stem)
    assert cert["verdict"] == "refuted" and cert["claim"]["kov"].startswith("every (1, 0)-DP")
    (theorem,) = cert["theorems"]
    assert theorem["statement"].endswith("~ (forall (nb : nat -> nat -> bool) (M : fmech), symmetric nb -> "
                                         "fmech_wf M -> distr M -> dp nb M (Q2R 1) 0 -> "
                                         "dp nb (fmech_power M 100) (Q2R 70) 0.001427)")
    assert cert["witness"]["mechanism"].startswith("randomized response")
    assert float(cert["witness"]["delta_reached"]) > 0.001427
