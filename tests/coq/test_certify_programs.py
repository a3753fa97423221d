"""Real Coq: the shipped programs (every sweep point) and noise pipelines are certified
(the finite ones: tests/coq/test_certify.py; split so that two workers share the work)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from obligations.certify.run import load_specs
from obligations.kinds import load

REPO = Path(__file__).resolve().parent.parent.parent
KINDS = {"program", "pipeline"}


def specs() -> list[Path]:
    """The shipped specs of these kinds but the costly ones (tests/coq/test_certify.py: COSTLY)."""
    from test_certify import COSTLY
    return [f for f in sorted((REPO / "mechanisms").glob("*.yaml")) if load(f).kind in KINDS and f.stem not in COSTLY]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("certs")
    run = subprocess.run([sys.executable, "-m", "obligations", "prove", *map(str, specs()), "--out", str(out),
                          "--build", str(out / "build"), "--json"], cwd=REPO, capture_output=True, text=True,
                         timeout=1500)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    return out, {o["name"]: o for o in json.loads(run.stdout)["results"]}


def test_programs_and_pipelines_are_proved(shipped: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    out, results = shipped
    assert specs() and set(results) == {s.name for s in load_specs(specs())}
    for name, o in results.items():
        assert o["verdict"] == "proved", (name, o["message"])
        record = json.loads((out / f"{name}.json").read_text())
        assert record["verdict"] == "proved" and (out / f"{name}.v").exists()
        assert set(record["assumptions"]) <= {
            "Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
            "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}
    assert results["online_model_k2"]["statement"] == (
        "dp_prog online_model_k2_deltas online_model_k2_inputs online_model_k2_prog online_model_k2_nslots "
        "(ln (943 / 292)) 0")
    assert results["snapping_clamped"]["theorem"] == "snapping_clamped_dp"
