"""Real Coq: a composed claim (`composition: {runs: K}`) beyond the product table certified
by `obligations prove` through the PLD route, from both sides.  Cheap: 10 runs of the
1/2-geometric over {0..5} (6^10 outputs); the exact delta(3) is 0.230771...  The shipped
1000-fold spec is certified by `make prove` (its certificate is committed)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent.parent
LOW = REPO / "tests" / "specs" / "composition" / "geometric_10_runs_delta_low.yaml"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Both sides in one `prove`: the shipped-like spec with delta just below the exact one, and
    a copy with delta just above it (geometric_10_runs); their certificates, by name."""
    out = tmp_path_factory.mktemp("pld")
    data = yaml.safe_load(LOW.read_text())
    data["name"], data["claim"]["delta"] = "geometric_10_runs", "0.2308"
    high = out / "specs" / "geometric_10_runs.yaml"
    high.parent.mkdir()
    high.write_text(yaml.safe_dump(data, sort_keys=False))
    done = subprocess.run([sys.executable, "-m", "obligations", "prove", str(LOW), str(high), "--out", str(out),
                           "--build", str(out / "build")], cwd=REPO, capture_output=True, text=True, timeout=600)
    certs = {s.stem: json.loads((out / f"{s.stem}.json").read_text())
             for s in (LOW, high) if (out / f"{s.stem}.json").exists()}
    return done, certs


def test_delta_just_below_the_exact_one_is_refuted_with_its_witness(run: tuple[Any, dict[str, Any]]) -> None:
    done, certs = run
    assert done.returncode == 1, done.stderr + done.stdout
    cert = certs[LOW.stem]
    assert cert["verdict"] == "refuted"
    (theorem,) = cert["theorems"]
    assert theorem["statement"].startswith(
        "let L := loss_event geometric_10_runs_delta_low 0 1 (exp 3) in")
    assert theorem["statement"].endswith("~ dp nb_adjacent geometric_10_runs_delta_low 3 (2307 / 10000)")
    assert (cert["witness"]["x"], cert["witness"]["x_prime"]) == ("0", "1")
    assert "FloatAxioms" in " ".join(cert["assumptions"])   # the interval evaluation, allow-listed


def test_delta_just_above_the_exact_one_is_proved(run: tuple[Any, dict[str, Any]]) -> None:
    done, certs = run
    cert = certs["geometric_10_runs"]
    assert cert["verdict"] == "proved", done.stderr + done.stdout
    (theorem,) = cert["theorems"]
    assert theorem["statement"] == "dp nb_adjacent geometric_10_runs 3 (577 / 2500)"
