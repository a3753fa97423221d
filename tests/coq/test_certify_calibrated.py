"""Real Coq: tables calibrated with e^eps (entries in exp and ln).

- k-ary randomized response at eps = 1 (keep probability e/(e + 3)): proved as an instance
  of the library's `krr_exp` (for every eps >= 0, k >= 2), without interval;
- the same table claimed (9/10, 0)-DP: refuted by rational brackets of two entries, with
  the witness x = a, x' = b, S = {a};
- the truncated geometric with alpha = e^(-1) over 0..10000: proved as an instance of the
  library's `rgeom` (for every eps >= 0, n and d), at the cost of n = 100; claimed
  (0.99, 0)-DP: refuted at x = 0, x' = 1, S = {0} (the ratio e, by `rgeom_ratio_zero`);
- the exponential mechanism over a score table: proved (1, 0)-DP = (2·c·Δ, 0) as the library's
  `expmech` (its false variant `exponential_mechanism_scores_claim_half`, refuted by `interval` on
  two unfolded entries, is left to `make golden` and the bench: ≈ 30 s of coqc).
(The exponential mechanism, proved from brackets, is certified by `make prove`; its false
variant is refuted the same way as the second test, and costs the same.)
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import committed
import pytest

REPO = Path(__file__).resolve().parent.parent.parent


Run = tuple[Path, dict[str, Any]]
# The shipped krr_eps1 and exponential_mechanism_scores are read from their committed
# certificates, the test specs from tests/certificates/ (Coq checked both when `make prove`
# and `make test-certificates` made them; test_committed_certificates checks they are
# current): proving them here again would cost CI a minute and a half.
SPECS = [REPO / "tests" / "specs" / "calibrated" / f"{n}.yaml" for n in (
    "krr_eps1_claim_0_9", "geometric_eps1_n10000", "geometric_eps1_claim_0_99", "krr_eps1_delta",
    "krr_eps1_claim_0_9_delta_1_50", "krr_formula_k3", "krr_eps1_negative_exp")]
COMMITTED = REPO / "certificates"


@pytest.fixture(scope="module")
def run() -> Run:
    """Every spec of this file, read from the certificates Coq made of them (tests/committed.py)."""
    return committed.results(*SPECS)


def test_krr_at_eps_1_is_the_library_family() -> None:
    tmp_path = COMMITTED
    cert = json.loads((tmp_path / "krr_eps1.json").read_text())
    assert cert["verdict"] == "proved"
    statements = {t["name"]: t["statement"] for t in cert["theorems"]}
    assert statements == {"krr_eps1_rdistr": "rdistr krr_eps1", "krr_eps1_dp": "rdp nb_all krr_eps1 1 0"}
    assert cert["uses_interval"] is True   # the prelude; the proofs themselves rest on the reals only
    assert not any("Float" in a or "Int63" in a for a in cert["assumptions"]), cert["assumptions"]
    v = (tmp_path / "krr_eps1.v").read_text()
    assert "(exp 1) / ((exp 1) + 3)" in v and "krr_exp_rdp" in v


def test_entries_written_with_exp_of_a_negative_number_are_the_family_too(run: Run) -> None:
    """1/(exp(-1) + 1) = e/(e + 1): Coq proves the entries equal to krr_exp's (e^(-1) read as 1/e)."""
    tmp_path, results = run
    assert results["krr_eps1_negative_exp"]["verdict"] == "proved"
    assert "krr_exp_rdp" in (tmp_path / "krr_eps1_negative_exp.v").read_text()


def test_krr_claimed_below_its_epsilon_is_refuted_with_a_witness(run: Run) -> None:
    tmp_path, results = run
    o = results["krr_eps1_claim_0_9"]
    assert o["verdict"] == "refuted"
    w = o["witness"]
    assert (w["x"], w["x_prime"], w["outputs"]) == ("a", "b", ["a"])
    cert = json.loads((tmp_path / "krr_eps1_claim_0_9.json").read_text())
    assert cert["theorems"][-1]["statement"] == "~ rdp nb_all krr_eps1_claim_0_9 (9 / 10) 0"


def test_the_geometric_with_alpha_exp_minus_eps_at_n_10000_is_the_library_family(run: Run) -> None:
    tmp_path, results = run
    o = results["geometric_eps1_n10000"]
    assert o["verdict"] == "proved"
    cert = json.loads((tmp_path / "geometric_eps1_n10000.json").read_text())
    statements = {t["name"]: t["statement"] for t in cert["theorems"]}
    assert statements == {"geometric_eps1_n10000_rdistr": "rdistr geometric_eps1_n10000",
                          "geometric_eps1_n10000_dp": "rdp nb_adjacent geometric_eps1_n10000 1 0"}
    # lra suffices: no interval in the proofs
    assert not any("Float" in a or "Int63" in a for a in cert["assumptions"]), cert["assumptions"]
    assert "rgeom (1) (Z.to_nat 10000)" in (tmp_path / "geometric_eps1_n10000.v").read_text()


def test_the_geometric_claimed_below_its_calibration_is_refuted_at_output_0(run: Run) -> None:
    tmp_path, results = run
    o = results["geometric_eps1_claim_0_99"]
    assert o["verdict"] == "refuted"
    w = o["witness"]
    assert (w["x"], w["x_prime"], w["outputs"]) == ("0", "1", ["0"])
    cert = json.loads((tmp_path / "geometric_eps1_claim_0_99.json").read_text())
    assert cert["theorems"][-1]["statement"] == "~ rdp nb_adjacent geometric_eps1_claim_0_99 (99 / 100) 0"


def test_the_exponential_mechanism_over_scores_is_proved_at_its_exact_bound_2_c_delta() -> None:
    # The claim 1 = 2 * (1/2) * 1 is a tie the brackets of the same table cannot prove.
    tmp_path = COMMITTED
    cert = json.loads((tmp_path / "exponential_mechanism_scores.json").read_text())
    assert cert["verdict"] == "proved"
    statements = {t["name"]: t["statement"] for t in cert["theorems"]}
    assert statements["exponential_mechanism_scores_dp"] == "rdp nb_adjacent exponential_mechanism_scores 1 0"
    assert "check_sensitivity_sound" in (tmp_path / "exponential_mechanism_scores.v").read_text()


def test_a_delta_claim_is_proved_by_the_hockey_stick_sum_and_a_smaller_delta_refuted_on_a_set(run: Run) -> None:
    tmp_path, verdicts = run
    assert verdicts["krr_eps1_delta"]["verdict"] == "proved"
    refuted = verdicts["krr_eps1_claim_0_9_delta_1_50"]
    assert refuted["verdict"] == "refuted"
    assert (refuted["witness"]["x"], refuted["witness"]["x_prime"], refuted["witness"]["outputs"]) == ("a", "b", ["a"])
    cert = json.loads((tmp_path / "krr_eps1_delta.json").read_text())
    assert cert["theorems"][-1]["statement"] == "rdp nb_all krr_eps1_delta (9 / 10) (1 / 20)"


def test_a_formula_with_exp_is_proved_as_the_family(run: Run) -> None:
    # k-ary RR over 0..2 written as a formula: the table of its values is the library's krr_exp
    # at eps = 1 (a claim below it is refuted by the brackets of two entries, as krr_eps1's is).
    tmp_path, verdicts = run
    assert verdicts["krr_formula_k3"]["verdict"] == "proved"
    cert = json.loads((tmp_path / "krr_formula_k3.json").read_text())
    statements = {t["name"]: t["statement"] for t in cert["theorems"]}
    assert statements["krr_formula_k3_dp"] == "rdp nb_all krr_formula_k3 1 0"
    v = (tmp_path / "krr_formula_k3.v").read_text()
    assert "(exp 1) / (((exp 1) + 3) - 1)" in v and "krr_exp_rdp" in v
