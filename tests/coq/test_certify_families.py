"""Real Coq: families proved once for every parameter value, instances by instantiation,
and a false family claim refuted at a numeric instance with its witness (the family proved
here, the others read from the certificates Coq made of them).

- the truncated α-geometric over {0..n} for every 0 < α < 1 and n ≥ 1: (−ln α, 0)-DP and
  rows that are distributions (the library's `tgeom_dp_le`, `tgeom_distr`);
- n = 10 000 at α = ½, from its formula, without a table (the family route);
- the family claimed (ln 3/2, 0)-DP for every α: false at α = ½ (ε = ln 2), refuted there.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

REPO = Path(__file__).resolve().parent.parent.parent


LIVE = REPO / "mechanisms" / "truncated_geometric_family.yaml"    # the family route, proved here
SHIPPED = [REPO / "mechanisms" / "truncated_geometric_n10000.yaml"]
READ = [REPO / "tests" / "specs" / "families" / f"{n}.yaml"
        for n in ("tgeom_eps_ln_3o2", "tgeom_variant", "tgeom_n10_beyond_case_split")]
Run = tuple[committed.Folders, dict[str, Any]]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The family proved now; the other claims read from the certificates Coq made of them
    (tests/committed.py)."""
    out = tmp_path_factory.mktemp("families")
    done = inprocess.cli("prove", str(LIVE), "--out", str(out), "--build", str(out / "build"), "--json")
    assert done.returncode == 0, done.stderr
    results = {o["name"]: o for o in json.loads(done.stdout)["results"]}
    shipped, from_shipped = committed.results(*SHIPPED)
    tests, from_tests = committed.results(*READ)
    results |= from_shipped | from_tests
    assert set(results) == {s.stem for s in [LIVE, *SHIPPED, *READ]}
    return committed.Folders(out, shipped, tests), results


def test_the_truncated_geometric_for_every_alpha_and_n(run: Run) -> None:
    tmp_path, results = run
    o = results["truncated_geometric_family"]
    assert o["verdict"] == "proved", o["message"]
    cert = json.loads((tmp_path / "truncated_geometric_family.json").read_text())
    statements = {t["name"]: t["statement"] for t in cert["theorems"]}
    assert statements["truncated_geometric_family_dp"] == (
        "forall (p_alpha : Q) (p_n : Z), (0 < p_alpha < 1)%Q -> (1 <= p_n)%Z -> "
        "dp nb_adjacent (truncated_geometric_family p_alpha p_n) (- ln (Q2R p_alpha)) 0")
    assert statements["truncated_geometric_family_distr"].endswith("distr (truncated_geometric_family p_alpha p_n)")
    assert [p["obligation"] for p in cert["proofs"]][0] == "truncated_geometric_family_is_family"


def test_n_10000_by_instantiation(run: Run) -> None:
    tmp_path, results = run
    o = results["truncated_geometric_n10000"]
    assert o["verdict"] == "proved", o["message"]
    v = (tmp_path / "truncated_geometric_n10000.v").read_text()
    assert "fmech_z 0%Z 10000%Z 0%Z 10000%Z truncated_geometric_n10000_pmf" in v and "tabulate_z" not in v


def test_a_family_claim_below_its_epsilon_is_refuted_with_a_witness(run: Run) -> None:
    tmp_path, results = run
    o = results["tgeom_eps_ln_3o2"]
    assert o["verdict"] == "refuted"
    assert o["witness"]["parameters"] == {"alpha": "1/2", "n": "1"}
    assert (o["witness"]["pr_x"], o["witness"]["pr_x_prime"], o["witness"]["outputs"]) == ("2/3", "1/3", ["0"])
    cert = json.loads((tmp_path / "tgeom_eps_ln_3o2.json").read_text())
    assert cert["theorems"][0]["statement"].startswith("~ (forall (p_alpha : Q) (p_n : Z), (0 < p_alpha < 1)%Q")


def test_a_composed_claim_by_basic_composition(tmp_path: Path) -> None:
    done = inprocess.cli("region", "mechanisms/randomized_response.yaml", "--compose", "3", "--epsilon", "ln(27)",
                           "--certify", "--out", str(tmp_path), "--build", str(tmp_path / "build"))
    assert done.returncode == 0, done.stderr
    cert = json.loads((tmp_path / "randomized_response_k3_eps_ln_27_ub.json").read_text())
    statements = {t["name"]: t["statement"] for t in cert["theorems"]}
    assert statements == {
        "randomized_response_k3_eps_ln_27_ub_single_dp":
            "dp nb_all randomized_response_k3_eps_ln_27_ub_table (ln (Q2R 3)) (Q2R 0)",
        "randomized_response_k3_eps_ln_27_ub_dp": "dp nb_all randomized_response_k3_eps_ln_27_ub (ln 27) 0"}
    v = (tmp_path / "randomized_response_k3_eps_ln_27_ub.v").read_text()
    assert "dp_power_basic_q" in v and "fmech_power randomized_response_k3_eps_ln_27_ub_table 3" in v


def test_the_family_written_another_way(run: Run) -> None:
    tmp_path, results = run
    o = results["tgeom_variant"]
    assert o["verdict"] == "proved", o["message"]
    cert = json.loads((tmp_path / "tgeom_variant.json").read_text())
    assert cert["proofs"][0]["tactic"].endswith("family_cases_field.")
    assert cert["theorems"][-1]["statement"].endswith(
        "dp nb_adjacent (tgeom_variant p_alpha p_n) (ln (Q2R (1 / p_alpha))) 0")


def test_an_instance_beyond_the_case_split_falls_back_to_its_table(run: Run) -> None:
    tmp_path, results = run
    o = results["tgeom_n10_beyond_case_split"]
    assert o["verdict"] == "proved", o["message"]
    cert = json.loads((tmp_path / "tgeom_n10_beyond_case_split.json").read_text())
    facts = next(p for p in cert["proofs"] if p["obligation"] == "tgeom_n10_beyond_case_split_facts")
    assert "family_cases_field" in facts["tried"][0]            # the family's proof, tried first, failed
    assert facts["tactic"].startswith("split; [apply distr_of_check")   # the table's proof
    assert [t["name"] for t in cert["theorems"]] == ["tgeom_n10_beyond_case_split_distr",
                                                      "tgeom_n10_beyond_case_split_dp"]
