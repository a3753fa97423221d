"""`obligations show --plot DIR`: the output distributions of a neighbour pair of a table or a
program, the witness event of a refutation marked; read back from the figure (not the pixels)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the figures need the plot extra (matplotlib)")

import matplotlib.pyplot as plt  # noqa: E402

from obligations.certify import output_plot as P  # noqa: E402
from obligations.certify.run import load_specs  # noqa: E402
from obligations.cli import main  # noqa: E402
from obligations.models import load, unfold  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _close_figures():  # type: ignore[no-untyped-def]
    yield
    plt.close("all")


def show(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["show", *argv])
    return code, out.getvalue(), err.getvalue()


def test_a_refutation_marks_its_witness_event() -> None:
    p = P.picture(unfold(load(REPO / "tests" / "specs" / "rr_tightened.yaml")))   # (ln 2, 0) claimed, ln 3 true
    assert (p.x, p.x2, p.outputs, p.marked) == ("+", "-", ("Y", "N"), (0,))
    fig = P.figure(p)
    assert P.bars(fig) == {"Pr[M(x) = y], x = +": [0.75, 0.25], "Pr[M(x') = y], x' = -": [0.25, 0.75]}
    assert P.marked(fig) == [(-0.5, 0.5)]          # output Y, drawn at 0
    assert P.WITNESS_LABEL in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def test_a_proved_claim_draws_the_pair_of_largest_loss_unmarked() -> None:
    p = P.picture(unfold(load(REPO / "mechanisms" / "truncated_geometric.yaml")))
    fig = P.figure(p)
    drawn = list(P.bars(fig).values())
    assert P.marked(fig) == [] and len(drawn) == 2
    assert drawn == [[float(v) for v in p.row_x], [float(v) for v in p.row_x2]]
    assert all(abs(sum(row) - 1) < 1e-12 for row in drawn)
    assert p.x != p.x2


def test_a_program_for_one_stream_length_is_drawn() -> None:
    point = load_specs([REPO / "mechanisms" / "report_noisy_max.yaml"])[1]       # k = 2
    p = P.picture(unfold(point))
    assert p.x.startswith("q=(") and len(p.outputs) == 2     # the index of the max of two answers
    assert sum(p.row_x) == 1 and sum(p.row_x2) == 1        # exact rows


def test_the_cli_writes_png_and_svg(tmp_path: Path) -> None:
    code, out, _ = show(str(REPO / "tests" / "specs" / "rr_tightened.yaml"), "--plot", str(tmp_path))
    assert code == 0
    png, svg = tmp_path / "rr_tightened_outputs.png", tmp_path / "rr_tightened_outputs.svg"
    assert f"figure: {png}" in out and f"figure: {svg}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'id="witness"' in svg.read_text()


def test_a_spec_without_a_finite_table_is_refused(tmp_path: Path) -> None:
    code, _, err = show(str(REPO / "mechanisms" / "snapping_clamped.yaml"), "--plot", str(tmp_path))
    assert code == 2 and "show --plot draws the output distributions of a finite mechanism" in err
    assert "noise pipeline" in err and not list(tmp_path.iterdir())
