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

import yaml

REPO = Path(__file__).resolve().parent.parent.parent
LOW = REPO / "tests" / "specs" / "composition" / "geometric_10_runs_delta_low.yaml"


def prove(spec: Path, out: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    done = subprocess.run([sys.executable, "-m", "obligations", "prove", str(spec), "--out", str(out),
                           "--build", str(out / "build")], cwd=REPO, capture_output=True, text=True, timeout=600)
    cert = out / f"{spec.stem}.json"
    return done, json.loads(cert.read_text()) if cert.exists() else {}


def test_delta_just_below_the_exact_one_is_refuted_with_its_witness(tmp_path: Path) -> None:
    done, cert = prove(LOW, tmp_path)
    assert done.returncode == 1, done.stderr + done.stdout
    assert cert["verdict"] == "refuted"
    (theorem,) = cert["theorems"]
    assert theorem["statement"].startswith(
        "let L := loss_event geometric_10_runs_delta_low 0 1 (exp 3) in")
    assert theorem["statement"].endswith("~ dp nb_adjacent geometric_10_runs_delta_low 3 (2307 / 10000)")
    assert (cert["witness"]["x"], cert["witness"]["x_prime"]) == ("0", "1")
    assert "FloatAxioms" in " ".join(cert["assumptions"])   # the interval evaluation, allow-listed


def test_delta_just_above_the_exact_one_is_proved(tmp_path: Path) -> None:
    data = yaml.safe_load(LOW.read_text())
    data["name"], data["claim"]["delta"] = "geometric_10_runs", "0.2308"
    spec = tmp_path / "geometric_10_runs.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    done, cert = prove(spec, tmp_path / "out")
    assert done.returncode == 0, done.stderr + done.stdout
    (theorem,) = cert["theorems"]
    assert theorem["statement"] == "dp nb_adjacent geometric_10_runs 3 (577 / 2500)"
