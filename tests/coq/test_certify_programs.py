"""Real Coq: a shipped program (every point of its sweep) and a shipped noise pipeline are
certified; the other shipped programs and pipelines are read from their committed
certificates (Coq checked them when `make prove` made them; tests/coq/test_committed_certificates.py
checks they are current, so they are not proved again here, for CI's time)."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from shipped import Proved

from obligations.certify import allowlist
from obligations.certify.run import load_specs
from obligations.models import load

REPO = Path(__file__).resolve().parent.parent.parent
PROVED_HERE = ["online_model", "snapping_clamped"]     # shared with test_program_inputs, test_pipelines


def test_a_program_and_a_pipeline_are_proved(shipped_proof: Callable[[str], Proved]) -> None:
    """Each spec proved once for the suite (tests/shipped.py): others read the same certificates."""
    results: dict[str, dict[str, Any]] = {}
    for stem in PROVED_HERE:
        p = shipped_proof(stem)
        assert p.returncode == 0, p.stderr
        assert set(p.results) == {s.name for s in load_specs([REPO / "mechanisms" / f"{stem}.yaml"])}
        for name, o in p.results.items():
            assert o["verdict"] == "proved", (name, o["message"])
            record = json.loads((p.out / f"{name}.json").read_text())
            assert record["verdict"] == "proved" and (p.out / f"{name}.v").exists()
            assert set(record["assumptions"]) <= allowlist.REALS
        results.update(p.results)
    assert results["online_model_k2"]["statement"] == (
        "dp_prog online_model_k2_deltas online_model_k2_inputs online_model_k2_prog online_model_k2_nslots "
        "(ln (943 / 292)) 0")
    assert results["snapping_clamped"]["theorem"] == "snapping_clamped_dp"


OTHERS = [f.stem for f in sorted((REPO / "mechanisms").glob("*.yaml"))
          if load(f).kind in {"program", "pipeline"} and f.stem not in PROVED_HERE]


@pytest.mark.parametrize("stem", OTHERS)
def test_the_other_shipped_programs_and_pipelines_have_proved_certificates(stem: str) -> None:
    for s in load_specs([REPO / "mechanisms" / f"{stem}.yaml"]):
        record = json.loads((REPO / "certificates" / f"{s.name}.json").read_text())
        assert record["verdict"] == "proved", s.name
        assert set(record["assumptions"]) <= allowlist.REALS, (s.name, record["assumptions"])
