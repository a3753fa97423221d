"""Real Coq: the shipped mechanisms are certified, false claims are refused with
their witness, and certificates cannot be tampered with."""
from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import inprocess
import pytest
from committed import results as committed_results

from obligations.certify import allowlist

REPO = Path(__file__).resolve().parent.parent.parent


def cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args, cwd=cwd)


# The shipped finite specs this file proves end to end: the table route and a privacy profile
# (each point proved and, below it, refuted); the CW claim's profile is read from its committed
# certificates (the CW route and a CW profile are proved by tests/coq/test_cw_compose.py).  The other shipped specs are
# not proved again by the suite, for CI's time: their committed certificates, which Coq
# checked when `make prove` made them, are checked current (same render, proofs, library and
# Coq) by tests/coq/test_committed_certificates.py, so a change that could break one fails
# there until the certificates are made again; the same routes are proved here on these
# specs and on tests/specs.
PROVED_HERE = ["randomized_response_eps1", "truncated_geometric"]
COMMITTED = REPO / "certificates"


def shipped_specs() -> list[Path]:
    return [REPO / "mechanisms" / f"{n}.yaml" for n in PROVED_HERE]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("certs")
    run = cli("prove", *map(str, shipped_specs()), "--out", str(out), "--build", str(out / "build"),
              "--json")
    return out, run


@pytest.fixture(scope="module")
def refusals() -> tuple[Path, dict[str, dict[str, Any]]]:
    """The refutations of tests/specs/*.yaml, read from the certificates Coq made of them
    (tests/certificates/, `make test-certificates`; tests/coq/test_committed_certificates.py keeps
    them current): proving the six again cost ~18 s CPU.  Coq refutes one of them, rr_tightened,
    in the run `honest` shares (tests/coq/conftest.py: test_tamper, test_jobs)."""
    return committed_results(*sorted((REPO / "tests" / "specs").glob("*.yaml")))


def committed(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((COMMITTED / f"{name}.json").read_text())
    return record


def by_name(run: subprocess.CompletedProcess[str]) -> dict[str, dict[str, Any]]:
    return {o["name"]: o for o in json.loads(run.stdout)["results"]}


def test_shipped_mechanisms_are_proved(shipped: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    out, run = shipped
    assert run.returncode == 0, run.stderr
    results = by_name(run)
    from obligations.certify.run import load_specs
    assert set(results) == {s.name for s in load_specs(shipped_specs())}
    assert all(o["verdict"] == "proved" for o in results.values())
    assert results["truncated_geometric"]["statement"] == "dp nb_adjacent truncated_geometric (ln 2) 0"
    assert results["randomized_response_eps1"]["statement"] == \
        "dp nb_all randomized_response_eps1 1 (7043 / 100000)"
    for name in results:
        record = json.loads((out / f"{name}.json").read_text())
        assert record["verdict"] == "proved"
        assert (out / f"{name}.v").exists()
        dp = record["theorems"][-1]
        assert dp["name"] == f"{name}_dp"
        assert "Coq.Logic.Classical_Prop.classic" in record["assumptions"] or not record["uses_interval"]


def test_the_committed_certificates_of_finite_specs_state_their_claims() -> None:
    """What the committed certificates of the specs not proved here say (Coq's statements)."""
    assert committed("randomized_response")["theorems"][-1]["statement"] == "dp nb_all randomized_response (ln 3) 0"
    for name in ("randomized_response", "geometric_threshold", "truncated_geometric_n10000",
                 "truncated_geometric_formula", "truncated_geometric_n500"):
        record = committed(name)
        assert record["verdict"] == "proved" and record["theorems"][-1]["name"] == f"{name}_dp"
        assert allowlist.refused(record["assumptions"], record["uses_interval"]) == [], record["assumptions"]


def test_rational_epsilon_certificate_rests_on_the_reals_only(shipped: tuple[Path, Any]) -> None:
    """ε = 1: the bound on e is proved from the Taylor series, so no primitive float or integer."""
    out, _ = shipped
    record = json.loads((out / "randomized_response_eps1.json").read_text())
    assert record["uses_interval"] is False
    assert set(record["assumptions"]) <= allowlist.REALS


EXPECTED_WITNESSES = {
    "rr_eps1_delta0": ("+", "-", ["Y"], "3/4", "1/4"),
    "rr_tightened": ("+", "-", ["Y"], "3/4", "1/4"),
    "rr_eps1_delta_low": ("+", "-", ["Y"], "3/4", "1/4"),
    "geometric_buggy_table": ("2", "3", ["1"], "1/3", "1/12"),
    "geometric_wrong_sensitivity": ("0", "5", ["0", "1"], "5/6", "1/24"),
    "rr_cw_tightened": ("D", "alt", ["Y"], "7/12", "5/12"),
}


def test_false_claims_are_refused_with_witness(refusals: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    out, results = refusals
    assert set(results) == set(EXPECTED_WITNESSES)
    for name, (x, x2, outputs, p, q) in EXPECTED_WITNESSES.items():
        o = results[name]
        assert o["verdict"] == "refuted", (name, o["message"])
        assert o["statement"].startswith("~ dp "), o["statement"]
        w = o["witness"]
        assert (w["x"], w["x_prime"], w["outputs"], w["pr_x"], w["pr_x_prime"]) == (x, x2, outputs, p, q)
        assert float(w["violation"]) > 0
        record = json.loads((out / f"{name}.json").read_text())
        assert record["verdict"] == "refuted" and record["witness"] == w


def test_refusal_is_printed_plainly(honest: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """The report `prove` printed when Coq refuted rr_tightened now (`honest`, tests/coq/conftest.py)."""
    _, run = honest
    assert run.returncode == 1
    assert "REFUTED" in run.stdout
    assert "x = +, x' = -, S = {Y}: Pr[M(x) in S] = 3/4" in run.stdout


def _copy_certificate(src: Path, name: str, dst: Path) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    for ext in (".json", ".v"):
        shutil.copy(src / f"{name}{ext}", dst / f"{name}{ext}")
    return dst / f"{name}.json"


@pytest.mark.parametrize("tamper", ["v_file", "json_field", "spec"])
def test_verify_fails_on_any_edit(shipped: tuple[Path, Any], tmp_path: Path, tamper: str) -> None:
    """(verify accepts the honest certificates of this route: tests/coq/test_tamper.py.)"""
    name = "randomized_response_eps1"
    cert = _copy_certificate(shipped[0], name, tmp_path / "certs")
    spec = None
    if tamper == "v_file":
        v = cert.with_suffix(".v")
        v.write_text(v.read_text() + "(* edited *)\n")
    elif tamper == "json_field":
        record = json.loads(cert.read_text())
        record["claim"]["epsilon"] = "ln(2)"
        cert.write_text(json.dumps(record))
    else:
        spec = tmp_path / "spec.yaml"
        spec.write_text((REPO / "mechanisms" / f"{name}.yaml").read_text().replace("3/4", "0.75", 1)
                        .replace('"1/4", "3/4"]', '"0.25", "0.75"]', 1))
    args = ["verify", str(cert), "--build", str(tmp_path / "b")] + (["--spec", str(spec)] if spec else [])
    run = cli(*args)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAILED" in run.stdout


def test_second_prove_reuses_certificates(shipped: tuple[Path, Any]) -> None:
    out, _ = shipped
    run = cli("prove", *map(str, shipped_specs()), "--out", str(out), "--build", str(out / "build"),
              "--json")
    assert run.returncode == 0
    results = json.loads(run.stdout)
    assert all(o["cached"] for o in results["results"])
    assert all(c["verdict"] in ("proved", "refuted") for p in results["profiles"]
               for point in p["points"] for c in point["certificates"])


def test_shipped_profiles_are_certified_tight(shipped: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    """Every profile point: (eps, delta(eps)) proved and (eps, delta(eps) - gamma) refuted by Coq."""
    out, run = shipped
    profiles = {(p["name"], p["compose"]): p for p in json.loads(run.stdout)["profiles"]}
    assert set(profiles) == {("truncated_geometric", 1)}
    for p in profiles.values():
        for point in p["points"]:
            verdicts = [c["verdict"] for c in point["certificates"]]
            assert verdicts == (["proved", "refuted"] if point["delta_lower"] else ["proved"]), point


def test_the_committed_cw_profile_is_tight() -> None:
    """The CW claim's profile, from its committed certificates: δ(0) = 7/12 - 5/12 proved and
    just below it refuted, δ(ln(7/5)) = 0."""
    records = {n: committed(f"randomized_response_cw_eps_{n}") for n in ("0_ub", "0_lb", "ln_7o5_ub")}
    verdicts = {n: (r["verdict"], r["claim"]["delta"]) for n, r in records.items()}
    assert verdicts["0_ub"] == ("proved", "1/6") and verdicts["ln_7o5_ub"] == ("proved", "0")
    assert verdicts["0_lb"][0] == "refuted" and Fraction(verdicts["0_lb"][1]) < Fraction(1, 6)


@pytest.mark.parametrize(("name", "statement"), [
    # Kairouz-Oh-Viswanath, k = 3, i = 1
    ("randomized_response_k3_eps_ln_3_ub", "dp nb_all randomized_response_k3_eps_ln_3_ub (ln 3) (3 / 8)"),
    ("randomized_response_k3_eps_0_ub", "dp nb_all randomized_response_k3_eps_0_ub 0 (11 / 16)"),
    ("geometric_threshold_eps_ln_2_ub", "dp nb_adjacent geometric_threshold_eps_ln_2_ub (ln 2) (2 / 5)"),
    ("geometric_threshold_eps_ln_4_ub", "dp nb_adjacent geometric_threshold_eps_ln_4_ub (ln 4) 0"),
])
def test_committed_profile_points_state_the_exact_delta(name: str, statement: str) -> None:
    record = committed(name)
    assert record["verdict"] == "proved" and record["theorems"][-1]["statement"] == statement
