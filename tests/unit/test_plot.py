"""The δ(ε) and R(M) figures, read back from the figure objects: what is drawn, and what its legend says."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.path import Path as Polygon  # noqa: E402

from obligations.certify import plot  # noqa: E402
from obligations.certify.outcome import Outcome  # noqa: E402
from obligations.certify.profiles import Profile, profile  # noqa: E402
from obligations.cli import main  # noqa: E402
from obligations.models import load  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
RR = REPO / "mechanisms" / "randomized_response.yaml"
GEO = REPO / "mechanisms" / "truncated_geometric.yaml"

# Output 0 only from input 0, output 2 only from input 1: δ(ε) = 1/2 for every ε.
DIFFERENT_SUPPORTS = """\
schema_version: 1
name: half_disclosed
description: each input reveals itself half of the time
inputs: {range: [0, 1]}
outputs: {range: [0, 2]}
table:
  "0": ["1/2", "1/2", "0"]
  "1": ["0", "1/2", "1/2"]
neighbours: adjacent
claim: {epsilon: "ln(2)", delta: "1/2"}
"""


@pytest.fixture(autouse=True)
def _close_figures():  # type: ignore[no-untyped-def]
    yield
    plt.close("all")


def labels(fig) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def line(fig, prefix: str):  # type: ignore[no-untyped-def]
    found = [ln for ln in fig.axes[0].get_lines() if str(ln.get_label()).startswith(prefix)]
    assert len(found) == 1, [ln.get_label() for ln in fig.axes[0].get_lines()]
    return found[0]


def fake_outcomes(prof: Profile, verdicts: list[str]) -> None:
    """Verdicts as certify() would attach them (the labelling is under test here, not Coq)."""
    for p in prof.points:
        p.proofs, p.expected = [], []
        for side, verdict in zip(("ub", "lb"), verdicts, strict=False):
            p.proofs.append(Outcome(name=f"x_{side}", spec="s", verdict=verdict, claim=side))  # type: ignore[arg-type]
            p.expected.append("proved" if side == "ub" else "refuted")


def test_points_are_called_certified_only_when_coq_certified_them() -> None:
    prof = profile(load(RR), [])
    assert labels(plot.delta_figure(prof)).count("exact δ at chosen ε (computed, not certified)") == 1
    assert not any("certified by Coq" in t for t in labels(plot.delta_figure(prof)))
    fake_outcomes(prof, ["proved", "refuted"])
    assert plot.POINT_LABELS["certified"] in labels(plot.delta_figure(prof))
    fake_outcomes(prof, ["proved", "proved"])   # the claim just below δ(ε) was proved: something is wrong
    shown = labels(plot.delta_figure(prof))
    assert plot.POINT_LABELS["failed"] in shown and plot.POINT_LABELS["certified"] not in shown


def test_region_of_randomized_response_is_its_exact_polygon() -> None:
    fig = plot.region_figure(profile(load(RR), []))
    poly = [tuple(v) for v in fig.axes[0].patches[0].get_xy()]
    assert poly[:3] == [(0.0, 1.0), (0.25, 0.25), (1.0, 0.0)]          # lower-left boundary
    assert poly[3:6] == [(1.0, 0.0), (0.75, 0.75), (0.0, 1.0)]         # its point reflection


def test_region_keeps_its_corners_when_supports_differ(tmp_path: Path) -> None:
    spec = tmp_path / "half.yaml"
    spec.write_text(DIFFERENT_SUPPORTS)
    prof = profile(load(spec), [])
    assert plot.region_vertices(prof) == [(0.0, 1.0), (0.0, 0.5), (0.5, 0.0), (1.0, 0.0)]
    region = Polygon(plot.region_figure(prof).axes[0].patches[0].get_xy())
    # S = every output / no output: always in R(M); so are the points near those corners
    for inside in [(0.9, 0.05), (0.05, 0.9), (0.5, 0.5)]:
        assert region.contains_point(inside), inside
    for outside in [(0.1, 0.1), (0.95, 0.99)]:
        assert not region.contains_point(outside), outside


def test_kov_bound_is_a_curve_through_its_points_and_above_the_exact_curve() -> None:
    prof = profile(load(GEO), [], compose=3)
    fig = plot.delta_figure(prof)
    kov = line(fig, "KOV bound")
    exact = line(fig, "exact δ(ε)")
    xs, ys = kov.get_xdata(), kov.get_ydata()
    assert len(xs) > 100 and list(xs) == list(exact.get_xdata())
    for _, eps_i, kov_delta, _ in prof.kov:               # through every point of the theorem
        j = min(range(len(xs)), key=lambda n: abs(xs[n] - eps_i))
        assert abs(xs[j] - eps_i) < 1e-9 and ys[j] == pytest.approx(kov_delta, abs=1e-12)
    assert all(k >= e - 1e-12 for k, e in zip(ys, exact.get_ydata(), strict=False))
    assert "3-fold composition of (ln(2), 0)-DP" in kov.get_label()


def test_log_delta_axis_draws_no_zero_and_marks_a_zero_delta_claim_on_the_axis() -> None:
    fig = plot.delta_figure(profile(load(RR), []), log_delta=True)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    ys = line(fig, "exact δ(ε)").get_ydata()
    assert all(y > 0 or math.isnan(y) for y in ys) and any(math.isnan(y) for y in ys)  # δ = 0 past ln 3
    claim = line(fig, "claim")
    assert claim.get_label() == "claim: ε = ln(3), δ = 0 (on the ε axis)"
    assert claim.get_xdata()[0] == pytest.approx(math.log(3)) and claim.get_ydata()[0] == 0.0


def test_claimed_point_is_marked_only_on_the_mechanism_it_is_about(tmp_path: Path) -> None:
    spec = tmp_path / "half.yaml"
    spec.write_text(DIFFERENT_SUPPORTS)
    fig = plot.delta_figure(profile(load(spec), []))
    claim = line(fig, "claim")
    assert (claim.get_xdata()[0], claim.get_ydata()[0]) == pytest.approx((math.log(2), 0.5))
    assert claim.get_label() == "claim: ε = ln(2), δ = 1/2"
    assert "claimed R(ε, δ): ε = ln(2), δ = 1/2" in labels(plot.region_figure(profile(load(spec), [])))
    composed = profile(load(GEO), [], compose=2)    # the spec claims nothing about two runs
    assert not any(t.startswith("claim") for t in labels(plot.delta_figure(composed)))


def test_delta_grid_holds_the_breakpoints_exactly() -> None:
    prof = profile(load(GEO), [], compose=3)
    grid = dict(plot.delta_grid(prof, 3.0))
    assert set(prof.curve.breakpoints) <= set(grid.values())
    assert grid[max(grid)] > 20                      # e^3


def test_log_delta_needs_a_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["region", str(RR), "--log-delta"]) == 2
    assert "use it with --plot DIR" in capsys.readouterr().err


def test_written_files(tmp_path: Path) -> None:
    written = plot.write(profile(load(RR), []), tmp_path, log_delta=True)
    assert sorted(p.name for p in written) == sorted(f"randomized_response_{k}.{e}"
                                                     for k in ("region", "delta") for e in ("png", "svg"))
    assert all(p.stat().st_size > 1000 for p in written)
