"""Real Coq: the shipped programs (every sweep point) and noise pipelines are certified
(the finite ones: tests/coq/test_certify.py; split so that two workers share the work)."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shipped import Proved

from obligations.certify.run import load_specs
from obligations.models import load

REPO = Path(__file__).resolve().parent.parent.parent
KINDS = {"program", "pipeline"}


def specs() -> list[Path]:
    """The shipped specs of these kinds but the costly ones (tests/coq/test_certify.py: COSTLY)."""
    from test_certify import COSTLY
    return [f for f in sorted((REPO / "mechanisms").glob("*.yaml")) if load(f).kind in KINDS and f.stem not in COSTLY]


def test_programs_and_pipelines_are_proved(shipped_proof: Callable[[str], Proved]) -> None:
    """Each spec proved once for the suite (tests/shipped.py): others read the same certificates."""
    results: dict[str, dict[str, Any]] = {}
    assert specs()
    for spec in specs():
        p = shipped_proof(spec.stem)
        assert p.returncode == 0, p.stderr
        assert set(p.results) == {s.name for s in load_specs([spec])}
        for name, o in p.results.items():
            assert o["verdict"] == "proved", (name, o["message"])
            record = json.loads((p.out / f"{name}.json").read_text())
            assert record["verdict"] == "proved" and (p.out / f"{name}.v").exists()
            assert set(record["assumptions"]) <= {
                "Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
                "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep",
                "Coq.Logic.Classical_Prop.classic"}
        results.update(p.results)
    assert results["online_model_k2"]["statement"] == (
        "dp_prog online_model_k2_deltas online_model_k2_inputs online_model_k2_prog online_model_k2_nslots "
        "(ln (943 / 292)) 0")
    assert results["snapping_clamped"]["theorem"] == "snapping_clamped_dp"
