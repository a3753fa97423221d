"""Real Coq: a shipped noise pipeline is certified; the shipped programs (online_model at every
point of its sweep) and the other pipelines are read from their committed certificates (Coq
checked them when `make prove` made them; tests/coq/test_committed_certificates.py checks they are
current, so they are not proved again here, for CI's time: online_model's four points cost ~25 s
CPU).  tests/coq/test_program_inputs.py compiles online_model_k1's file with coqc and has Coq
refuse it with an input vector missing or added."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import committed
import pytest
import yaml
from shipped import Proved

from obligations.certify import allowlist
from obligations.certify.run import load_specs
from obligations.models import form_for

REPO = Path(__file__).resolve().parent.parent.parent
PROVED_HERE = ["snapping_clamped"]     # shared with test_pipelines
READ = ["online_model"]                # online_model_k1's file: tests/coq/test_program_inputs.py


def test_a_program_and_a_pipeline_are_proved(shipped_proof: Callable[[str], Proved]) -> None:
    """The pipeline proved once for the suite (tests/shipped.py: test_pipelines reads the same
    certificates), the program's sweep read from the certificates `make prove` made."""
    results: dict[str, dict[str, Any]] = {}
    for stem in PROVED_HERE + READ:
        spec = REPO / "mechanisms" / f"{stem}.yaml"
        if stem in PROVED_HERE:
            p = shipped_proof(stem)
            assert p.returncode == 0, p.stderr
            out, found = p.out, p.results
        else:
            out, found = committed.results(spec)
        assert set(found) == {s.name for s in load_specs([spec])}
        for name, o in found.items():
            assert o["verdict"] == "proved", (name, o["message"])
            record = json.loads((out / f"{name}.json").read_text())
            assert record["verdict"] == "proved" and (out / f"{name}.v").exists()
            assert set(record["assumptions"]) <= allowlist.REALS
        results.update(found)
    assert results["online_model_k2"]["statement"] == (
        "dp_prog online_model_k2_deltas online_model_k2_inputs online_model_k2_prog online_model_k2_nslots "
        "(ln (943 / 292)) 0")
    assert results["snapping_clamped"]["theorem"] == "snapping_clamped_dp"


# The kind of each shipped spec from the form that reads it, without checking it: a full `load`
# of every shipped spec, at collection in each xdist worker, cost ~3.5 s of CPU a worker.
OTHERS = [f.stem for f in sorted((REPO / "mechanisms").glob("*.yaml"))
          if form_for(yaml.safe_load(f.read_text())).kind in {"program", "pipeline"}
          and f.stem not in PROVED_HERE + READ]


@pytest.mark.parametrize("stem", OTHERS)
def test_the_other_shipped_programs_and_pipelines_have_proved_certificates(stem: str) -> None:
    for s in load_specs([REPO / "mechanisms" / f"{stem}.yaml"]):
        record = json.loads((REPO / "certificates" / f"{s.name}.json").read_text())
        assert record["verdict"] == "proved", s.name
        assert set(record["assumptions"]) <= allowlist.REALS, (s.name, record["assumptions"])
