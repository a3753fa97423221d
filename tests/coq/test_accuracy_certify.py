"""Real Coq: an accuracy claim certified by reflection, a false one refuted with the
witness input and its exact probability, and snapping compared with Laplace on the same
noise for all parameter values."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
# Proved now: the comparison Coq cannot prove (its refusal).  Read from the certificates Coq made
# (certificates/ and tests/certificates/, tests/committed.py; ~9 s CPU to prove again): the others.
SPECS = ["tests/specs/utility/snapping_grid_not_positive.yaml"]
READ = ["tests/specs/accuracy/geometric_accuracy_too_tight.yaml",
        "tests/specs/utility/snapping_unclamped_laplace_distance.yaml"]
SHIPPED = "mechanisms/truncated_geometric_accuracy.yaml"
REALS = {"Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
         "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[committed.Folders, dict[str, Any]]:
    out = tmp_path_factory.mktemp("accuracy")
    done = cli("prove", *SPECS, "--out", str(out), "--build", str(out / "build"), "--json")
    assert done.returncode == 1, done.stderr        # not proved
    shipped_folder, shipped = committed.results(SHIPPED)
    test_folder, read = committed.results(*READ)
    results = {o["name"]: o for o in json.loads(done.stdout)["results"]} | shipped | read
    return committed.Folders(out, test_folder, shipped_folder), results


def theorems(out: committed.Folders, name: str) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in json.loads((out / f"{name}.json").read_text())["theorems"]}


def test_accuracy_is_certified_by_reflection(run: tuple[committed.Folders, dict[str, Any]]) -> None:
    out, results = run
    o = results["truncated_geometric_accuracy"]
    assert o["verdict"] == "proved"
    assert o["statement"] == ("accurate truncated_geometric_accuracy truncated_geometric_accuracy_query "
                              "truncated_geometric_accuracy_value 2 (1 / 6)")
    record = json.loads((out / "truncated_geometric_accuracy.json").read_text())
    assert record["claim"] == {"accuracy": {"alpha": "2", "beta": "1/6"}, "query": "input value"}
    assert set(record["assumptions"]) <= REALS


def test_a_false_accuracy_claim_is_refuted_with_the_exact_probability(
        run: tuple[committed.Folders, dict[str, Any]]) -> None:
    out, results = run
    o = results["geometric_accuracy_too_tight"]
    assert o["verdict"] == "refuted"
    assert o["witness"]["x"] == "3" and o["witness"]["probability"] == "1/6"
    t = theorems(out, "geometric_accuracy_too_tight")
    assert t["geometric_accuracy_too_tight_inaccuracy_at"]["statement"] == (
        "pr geometric_accuracy_too_tight 3 (far geometric_accuracy_too_tight_query "
        "geometric_accuracy_too_tight_value 2 3) = Q2R (1 # 6)")
    assert t["geometric_accuracy_too_tight_not_accurate"]["statement"].startswith("~ accurate")


def test_snapping_is_within_half_a_grid_step_of_laplace(run: tuple[committed.Folders, dict[str, Any]]) -> None:
    out, results = run
    name = "snapping_unclamped_laplace_distance"
    assert results[name]["verdict"] == "proved"
    t = theorems(out, name)
    assert t[f"{name}_laplace_distance"]["statement"] == (
        f"forall (fa u : R) (s : sign), Rabs ({name}_laplace fa u s - {name} fa u s) <= lam / 2")
    # (alpha, beta)-accuracy from the coupling, about a probability that exists
    assert t[f"{name}_accuracy"]["statement"] == (
        f"forall fa alpha p : R, lam / 2 <= alpha -> snap_event ({name} fa) (fun y : R => Rabs (y - fa) <= alpha) p "
        "-> 1 - exp (- eps * (alpha - lam / 2)) <= p")
    assert t[f"{name}_accuracy_exact"]["statement"] == (
        f"forall fa alpha : R, snap_event ({name} fa) (fun y : R => Rabs (y - fa) <= alpha) "
        "(snap_near_prob eps lam fa alpha)")
    # the two mechanisms are the spec's steps on the same u and s
    text = (out / f"{name}.v").read_text()
    noise = "(sgn s * ((1 / eps) * (ln u)))"
    assert f"Definition {name}_laplace (fa u : R) (s : sign) : R :=\n  fa + {noise}." in text
    assert f"lam * IZR (round_grid TiesDown lam (fa + {noise}))" in text


def test_the_certificates_are_what_verify_rederives(run: tuple[committed.Folders, dict[str, Any]]) -> None:
    """verify's route-dependent half (its Coq re-check repeats the proof above: committed.rederived)."""
    out, _ = run
    for name in ("geometric_accuracy_too_tight", "truncated_geometric_accuracy"):
        assert committed.rederived(out / f"{name}.json") == [], name


def test_a_comparison_coq_cannot_prove_gets_no_certificate(run: tuple[committed.Folders, dict[str, Any]]) -> None:
    out, results = run
    o = results["snapping_grid_not_positive"]
    assert o["verdict"] == "unproved" and o["certificate"] is None
    assert not (out / "snapping_grid_not_positive.json").exists()
