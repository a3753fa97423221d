"""Read from the certificates Coq made (tests/committed.py): neighbours at distance d
(sensitivity beyond 1).  The truncated 1/2-geometric over {0..5} is (2 ln 2, 0)-DP for counts
at distance at most 2, and its sensitivity-1 epsilon ln 2 is refused there with a witness at
distance 2; n = 10 000 at distance 2, and the family for every alpha and n at distance 2, by
the library's tgeom_dp_distance_le."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import committed
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = REPO / "tests" / "specs" / "distance"


NAMES = ("tgeom_distance2", "tgeom_distance2_claim_ln2", "tgeom_distance2_n10000", "tgeom_family_distance2")
Run = tuple[Path, dict[str, Any]]


@pytest.fixture(scope="module")
def run() -> Run:
    """Every spec of this file, read from the certificates Coq made of them (tests/committed.py)."""
    out, results = committed.results(*(SPECS / f"{n}.yaml" for n in NAMES))
    assert set(results) == set(NAMES)
    return out, results


def test_distance_2_is_proved_at_twice_the_epsilon(run: Run) -> None:
    tmp_path, results = run
    assert results["tgeom_distance2"]["verdict"] == "proved", results["tgeom_distance2"]["message"]
    cert = json.loads((tmp_path / "tgeom_distance2.json").read_text())
    assert cert["theorems"][-1]["statement"] == "dp (nb_distance 2) tgeom_distance2 (2 * ln 2) 0"
    assert cert["claim"]["neighbours"] == "distance:2"


def test_a_claim_too_small_for_the_distance_is_refused(run: Run) -> None:
    o = run[1]["tgeom_distance2_claim_ln2"]
    assert o["verdict"] == "refuted"
    w = o["witness"]
    assert (w["x"], w["x_prime"], w["outputs"], w["pr_x"], w["pr_x_prime"]) == ("0", "2", ["0"], "2/3", "1/6")


def test_distance_2_at_n_10000_by_the_library_lemma(run: Run) -> None:
    tmp_path, results = run
    assert results["tgeom_distance2_n10000"]["verdict"] == "proved", results["tgeom_distance2_n10000"]["message"]
    cert = json.loads((tmp_path / "tgeom_distance2_n10000.json").read_text())
    assert cert["theorems"][-1]["statement"] == "dp (nb_distance 2) tgeom_distance2_n10000 (2 * ln 2) 0"
    assert "tgeom_dp_distance_le" in cert["proofs"][-1]["tactic"]     # the family's proof, not the table's


def test_the_family_at_distance_2_for_every_alpha_and_n(run: Run) -> None:
    tmp_path, results = run
    assert results["tgeom_family_distance2"]["verdict"] == "proved", results["tgeom_family_distance2"]["message"]
    cert = json.loads((tmp_path / "tgeom_family_distance2.json").read_text())
    assert cert["theorems"][-1]["statement"] == (
        "forall (p_alpha : Q) (p_n : Z), (0 < p_alpha < 1)%Q -> (1 <= p_n)%Z -> "
        "dp (nb_distance 2) (tgeom_family_distance2 p_alpha p_n) (-2 * ln (Q2R p_alpha)) 0")
