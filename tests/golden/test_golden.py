"""The rendered Coq files of every shipped and test spec, against committed copies.

Regenerate after an intended change with `make golden`
(`pytest tests/golden --regen-golden`) and review the diff.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from obligations.certify.run import unfold
from obligations.models import load

REPO = Path(__file__).resolve().parent.parent.parent
EXPECTED = Path(__file__).resolve().parent / "expected"
SPECS = sorted((REPO / "mechanisms").glob("*.yaml")) + sorted((REPO / "tests" / "specs").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "pipelines").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "calibrated").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "distance").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "composition").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "kov").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "cw_compose").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "binary64").glob("*.yaml"))


def _is_program(path: Path) -> bool:
    return path.read_text().find("\nprogram:") >= 0


# Program specs (issue 4) stand for one claim per sweep point: one golden file each.
PROGRAM_SPECS = [p for p in SPECS if _is_program(p)] + sorted((REPO / "tests" / "specs" / "programs").glob("*.yaml")) \
    + sorted((REPO / "tests" / "specs" / "sweep").glob("*.yaml"))   # sweeps of the other kinds (core/sweep.py)
SPECS = [p for p in SPECS if not _is_program(p)]


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.stem)
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


@pytest.mark.parametrize("spec", PROGRAM_SPECS, ids=lambda p: p.stem)
def test_program_renders_match_golden(spec: Path, request: pytest.FixtureRequest) -> None:
    from obligations.certify.run import load_specs
    for point in load_specs([spec.relative_to(REPO)]):
        text = unfold(point).rendered.text
        golden = EXPECTED / f"{point.name}.v"
        if request.config.getoption("--regen-golden"):
            golden.write_text(text)
        assert golden.exists(), f"no golden file {golden}: run `make golden`"
        assert text == golden.read_text(), f"{spec} renders differently from {golden} (make golden to accept)"
