"""The witnesses on the noise as a snapping spec unfolds them: the theorems the generated file
states (the claim `_dp` still last), the pairing map `show` prints and the docs' worked example
of it, and nothing of it for a claim that is refuted. No Coq here."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.models import load
from obligations.noise.coupling import coupling_text
from obligations.noise.document import render

REPO = Path(__file__).resolve().parents[2]
UNCLAMPED = REPO / "mechanisms" / "snapping_unclamped.yaml"
CLAMPED = REPO / "mechanisms" / "snapping_clamped.yaml"
INSTANCE = REPO / "mechanisms" / "snapping_unclamped_instance.yaml"       # eps = 1/2, lam = 1/4, sensitivity 1
HALF_EPS = REPO / "tests" / "specs" / "pipelines" / "snapping_half_epsilon.yaml"
DOCS = REPO / "docs" / "snapping.md"


@functools.cache
def unfolded(path: Path) -> Any:
    """Each spec analysed once for the whole file (the pipelines' sympy tables take seconds)."""
    return unfold(load(path))


def test_unclamped_states_the_lifting_every_event_and_the_distribution_before_the_claim() -> None:
    theorems = render(unfolded(UNCLAMPED).mechanism).theorems
    assert theorems == tuple("snapping_unclamped_" + t for t in (
        "dp_events", "lifting", "total", "noise_lifting", "dp_every_event", "branch_lifting",
        "distribution", "events_limit", "dp"))


def test_clamped_has_finitely_many_outputs_so_no_limit_theorem() -> None:
    rendered = render(unfolded(CLAMPED).mechanism)
    assert rendered.theorems[-1] == "snapping_clamped_dp"
    assert "snapping_clamped_noise_lifting" in rendered.theorems
    assert not any(t.endswith("_events_limit") for t in rendered.theorems)
    assert "(clamped_outputs B lam)) = 1." in rendered.text
    assert "(mirror_left eps (clamp B fa - clamp B fa')) (mirror_right eps (clamp B fa - clamp B fa'))" in rendered.text


def test_a_refuted_claim_gets_no_witnesses() -> None:
    u = unfolded(HALF_EPS)
    assert render(u.mechanism).theorems == ("snapping_half_epsilon_not_dp",)
    assert coupling_text(u.mechanism) == ""


def test_show_prints_the_pairing_map_piece_by_piece(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(INSTANCE)]) == 0
    out = capsys.readouterr().out
    assert "mirror coupling, delta = 0 (snapping_unclamped_instance_noise_lifting)" in out
    assert "(u, s0),  u ∈ (p, 1]  ↦ (p/u, -s0)   moves (p, 1] onto [p, 1) of the other sign" in out
    assert "worst neighbours |d| = Δ: p = e^(-1/2) ≈ 0.606531\n" in out
    assert "delta = 1 - e^(-1/2) (snapping_unclamped_instance_branch_lifting)" in out


def test_the_docs_worked_example_is_what_show_prints() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    m = re.search(r"<!-- witnesses: snapping_unclamped_instance -->\n```text\n(.*?)\n```", docs, re.S)
    assert m is not None, "the worked example is missing from docs/snapping.md"
    assert m.group(1) == coupling_text(unfolded(INSTANCE).mechanism)

