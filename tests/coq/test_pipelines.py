"""Real Coq: the snapping mechanism certified for all parameter values, a claim below
the truth refuted with a witness, and a certificate whose case lemma was edited refused."""
from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest
from shipped import Proved

REPO = Path(__file__).resolve().parent.parent.parent
REFUTED = "tests/specs/pipelines/snapping_half_epsilon.yaml"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args)


@pytest.fixture(scope="module")
def clamped(shipped_proof: Callable[[str], Proved]) -> tuple[Path, dict[str, Any]]:
    """mechanisms/snapping_clamped.yaml, proved once for the suite."""
    p = shipped_proof("snapping_clamped")
    assert p.returncode == 0, p.stderr
    return p.out, p.results


@pytest.fixture(scope="module")
def refuted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("snapping")
    done = cli("prove", REFUTED, "--out", str(out), "--build", str(out / "build"), "--json")
    assert done.returncode == 1, done.stderr
    return out, {o["name"]: o for o in json.loads(done.stdout)["results"]}


def test_clamped_snapping_is_dp_for_all_parameters(clamped: tuple[Path, dict[str, Any]]) -> None:
    out, results = clamped
    o = results["snapping_clamped"]
    assert o["verdict"] == "proved"
    # the theorem quantifies over every eps, lam, B > 0 and sens >= 0, about the spec's own pipeline
    assert o["statement"].startswith("forall eps : R, 0 < eps -> forall lam : R, 0 < lam -> "
                                     "forall B : R, 0 < B -> forall sens : R, 0 <= sens ->")
    assert "snap_prob (snapping_clamped eps lam B fa) y p" in o["statement"]
    assert o["statement"].endswith("p <= exp (eps * sens) * p'")
    record = json.loads((out / "snapping_clamped.json").read_text())
    assert [t["name"] for t in record["theorems"]] == [
        "snapping_clamped_dp_events", "snapping_clamped_lifting", "snapping_clamped_total",
        "snapping_clamped_noise_lifting", "snapping_clamped_dp_every_event", "snapping_clamped_branch_lifting",
        "snapping_clamped_distribution", "snapping_clamped_dp"]
    stated = {t["name"]: t["statement"] for t in record["theorems"]}
    # the witnesses of Definition 3 on the noise: the mirror coupling with delta = 0 ...
    assert ("(exp (eps * sens)) 0 noise_pr noise_pr (mirror_left eps (clamp B fa - clamp B fa')) "
            "(mirror_right eps (clamp B fa - clamp B fa'))") in stated["snapping_clamped_noise_lifting"]
    # ... and seed 000's per-branch pairing, with delta = 1 - e^(-claim)
    assert "(1 - exp (- (eps * sens))) uouter uouter" in stated["snapping_clamped_branch_lifting"]
    assert stated["snapping_clamped_dp_every_event"].endswith(
        "forall F : R -> Prop, snap_pr (snapping_clamped eps lam B fa) F <= "
        "exp (eps * sens) * snap_pr (snapping_clamped eps lam B fa') F")
    assert stated["snapping_clamped_distribution"].endswith("(clamped_outputs B lam)) = 1")
    assert set(record["assumptions"]) <= {
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
        "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}
    proved = {p["obligation"]: p["tactic"] for p in record["proofs"]}
    assert proved["snapping_clamped_pre_top_plus"] == "snap_preimage snap_pre_top_up_plus."
    assert "snapping_clamped_case_bottom_far" in proved
    text = (out / "snapping_clamped.v").read_text()
    assert "Admitted" not in text and "Axiom" not in text


def test_half_epsilon_is_refuted_with_parameters_output_and_probabilities(
        refuted: tuple[Path, dict[str, Any]]) -> None:
    out, results = refuted
    o = results["snapping_half_epsilon"]
    assert o["verdict"] == "refuted"
    assert o["statement"].startswith("~ (forall fa fa' : R, Rabs (fa - fa') <= sens ->")
    w = o["witness"]
    assert w["parameters"] == {"eps": "1", "lam": "1", "sens": "1"}
    assert (w["x"], w["x_prime"], w["outputs"]) == ("f(a) = 0", "f(a') = 1", ["-1"])   # Λ·(-1)
    assert float(w["pr_x_float"]) > 1.6 * float(w["pr_x_prime_float"])   # ratio e > e^(1/2)
    assert (w["pr_x"], w["pr_x_prime"], w["ratio"]) == ("(-1 + e)*e^(-3/2)/2", "(-1 + e)*e^(-5/2)/2", "e")
    record = json.loads((out / "snapping_half_epsilon.json").read_text())
    assert record["verdict"] == "refuted" and record["witness"] == w


def test_verify_accepts_the_certificate_and_refuses_an_edited_case(clamped: tuple[Path, dict[str, Any]],
                                                                   tmp_path: Path) -> None:
    out, _ = clamped
    # verify's route-dependent half agrees with the honest certificate (committed.rederived: its
    # Coq half repeats the proof); the edited case is refused before Coq runs
    assert committed.rederived(out / "snapping_clamped.json") == []
    bad = tmp_path / "bad"
    shutil.copytree(out, bad, ignore=shutil.ignore_patterns("build"))
    v = bad / "snapping_clamped.v"
    text = v.read_text()
    # weaken one case lemma's statement (its proof would still be accepted by Coq)
    edited = text.replace("(/ 2 * (2 - exp (eps * ((IZR k - / 2) * lam - clamp B fa))",
                          "(/ 3 * (2 - exp (eps * ((IZR k - / 2) * lam - clamp B fa))", 1)
    assert edited != text
    v.write_text(edited)
    failed = cli("verify", str(bad / "snapping_clamped.json"), "--spec", "mechanisms/snapping_clamped.yaml",
                 "--build", str(tmp_path / "b2"))
    assert failed.returncode == 1
    assert "FAILED" in failed.stdout and "is not the file the spec renders to" in failed.stdout
