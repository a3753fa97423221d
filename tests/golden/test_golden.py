"""The rendered Coq files of every shipped and test spec, against committed copies.

Regenerate after an intended change with `make golden`
(`pytest tests/golden --regen-golden`) and review the diff.
"""
from __future__ import annotations

from pathlib import Path

import committed
import pytest

from obligations.certify.run import unfold
from obligations.models import load

REPO = Path(__file__).resolve().parent.parent.parent
EXPECTED = Path(__file__).resolve().parent / "expected"
# Every test spec (a new one is covered the day it is added; `make golden` writes its expected
# file), but those whose certificates tests/certificates/ holds: their renders, like the
# shipped specs', are their committed certificates' files, which
# tests/coq/test_committed_certificates.py compares with today's render.
CERTIFIED = {p.resolve() for p in committed.listed()}
ALL_SPECS = sorted(p for p in (REPO / "tests" / "specs").rglob("*.yaml") if p.resolve() not in CERTIFIED)


def _expands(path: Path) -> bool:
    """A sweep or a program stands for one claim per point: one golden file each."""
    text = path.read_text()
    return "\nprogram:" in text or "\nsweep:" in text


SPECS = [p for p in ALL_SPECS if not _expands(p)]
PROGRAM_SPECS = [p for p in ALL_SPECS if _expands(p)]


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: str(p.relative_to(REPO)))
def test_render_matches_golden(spec: Path, request: pytest.FixtureRequest) -> None:
    rendered = unfold(load(spec.relative_to(REPO))).rendered
    files = [(EXPECTED / f"{spec.stem}.v", rendered.text)]
    # the shared modules the file requires (the certified ln table), under their hash names
    files += [(EXPECTED / "shared" / f"{m.name}.v", m.text) for m in rendered.shared]
    for golden, text in files:
        if request.config.getoption("--regen-golden"):
            golden.parent.mkdir(exist_ok=True)
            golden.write_text(text)
        assert golden.exists(), f"no golden file {golden}: run `make golden`"
        assert text == golden.read_text(), f"{spec} renders differently from {golden} (make golden to accept)"


@pytest.mark.parametrize("spec", PROGRAM_SPECS, ids=lambda p: str(p.relative_to(REPO)))
def test_sweep_renders_match_golden(spec: Path, request: pytest.FixtureRequest) -> None:
    from obligations.certify.run import load_specs
    for point in load_specs([spec.relative_to(REPO)]):
        rendered = unfold(point).rendered   # once: unfolding a point is most of this test's time
        text = rendered.text
        # a point whose certificate tests/certificates/ holds (the fallback of an every-k spec is
        # a test spec of its own there) is compared with the certificate's file
        certified = committed.TEST_CERTS / f"{point.name}.v"
        golden = certified if certified.exists() else EXPECTED / f"{point.name}.v"
        if request.config.getoption("--regen-golden") and golden != certified:
            golden.write_text(text)
        # the shared modules of a sweep point are those of a plain spec (none so far)
        assert not rendered.shared
        assert golden.exists(), f"no golden file {golden}: run `make golden`"
        assert text == golden.read_text(), f"{spec} renders differently from {golden} (make golden to accept)"
