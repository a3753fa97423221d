"""Real Coq: a clamped snapping instance whose sensitivity exceeds 2B (B = 1/4, Λ = 1,
Δ = 3, ε = 1).  Clamped query values are at most 2B = 1/2 apart, so the tight ε is 1/2:
the claim 1/2 is proved (through `snap_dp_clamped_2b`), 49/100 is refuted with a witness.  Read
from the certificates Coq made of the two specs (tests/certificates/, `make test-certificates`;
tests/coq/test_committed_certificates.py keeps them current): proving them again cost ~15 s CPU,
and the pipeline route's prove and a refused edit run Coq in tests/coq/test_pipelines.py."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import committed
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = ["tests/specs/pipelines_clamp/snapping_clamp_wide.yaml",
         "tests/specs/pipelines_clamp/snapping_clamp_wide_tightened.yaml"]
STATEMENT = ("forall fa fa' : R, Rabs (fa - fa') <= 3 -> forall y p p' : R, "
             "snap_prob ({name} fa) y p -> snap_prob ({name} fa') y p' -> "
             "p <= exp ({claim}) * p'")


def unqualified(statement: str) -> str:
    """The statement as Coq prints it, without module qualifiers (Snapping.snap_prob)."""
    return re.sub(r"\b[A-Z][A-Za-z0-9_]*\.", "", statement)


@pytest.fixture(scope="module")
def run() -> tuple[Path, dict[str, Any]]:
    return committed.results(*SPECS)       # one proved, one refuted


def test_true_tight_epsilon_is_proved(run: tuple[Path, dict[str, Any]]) -> None:
    out, results = run
    o = results["snapping_clamp_wide"]
    assert (o["verdict"], o["tight_epsilon"]) == ("proved", "1/2")
    assert unqualified(o["statement"]) == STATEMENT.format(name="snapping_clamp_wide", claim="1 / 2")
    record = json.loads((out / "snapping_clamp_wide.json").read_text())
    assert record["verdict"] == "proved" and record["analysis"]["tight_epsilon"] == "1/2"
    names = [t["name"] for t in record["theorems"]]
    assert names == ["snapping_clamp_wide_" + t for t in (
        "dp_events", "lifting", "total", "noise_lifting", "dp_every_event", "branch_lifting", "distribution", "dp")]
    # the mirror coupling needs only |clamp fa - clamp fa'| <= 2B, not the sensitivity 3
    lifting = unqualified(next(t["statement"] for t in record["theorems"]
                               if t["name"] == "snapping_clamp_wide_noise_lifting"))
    assert lifting.startswith("forall fa fa' : R, Rabs (fa - fa') <= 3 ->")
    assert "(exp (1 / 2)) 0 noise_pr noise_pr" in lifting
    v = (out / "snapping_clamp_wide.v").read_text()
    assert "eapply snap_dp_clamped_2b;" in v and "eps * (2 * B) <= (1 / 2)" in v


def test_claim_below_is_refuted_with_a_witness(run: tuple[Path, dict[str, Any]]) -> None:
    out, results = run
    o = results["snapping_clamp_wide_tightened"]
    assert (o["verdict"], o["tight_epsilon"]) == ("refuted", "1/2")
    assert unqualified(o["statement"]) == "~ (" + STATEMENT.format(name="snapping_clamp_wide_tightened",
                                                      claim="49 / 100") + ")"
    record = json.loads((out / "snapping_clamp_wide_tightened.json").read_text())
    w = record["witness"]
    assert w is not None and record["verdict"] == "refuted"
    # f(a) = 1/4 and f(a') = -1/4 (clamped: 2B = 1/2 apart), output B: e^(-1/4)/2 against e^(-3/4)/2
    assert w["parameters"] == {"eps": "1", "lam": "1", "B": "1/4"}
    assert (w["x"], w["x_prime"], w["outputs"]) == ("f(a) = 1/4", "f(a') = -1/4", ["1/4"])   # the output B
    assert (w["pr_x"], w["pr_x_prime"], w["ratio"]) == ("e^(-1/4)/2", "e^(-3/4)/2", "e^(1/2)")
