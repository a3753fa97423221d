"""The output distributions of a finite mechanism (a table, a formula, a program for one stream
length) for one pair of neighbours, side by side (`obligations show --plot`): the pair of a
refutation's witness with its output set S marked, else the pair where the privacy loss is
largest.  The tests read the drawn bars and the marked outputs back from the figure."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.container import BarContainer  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Polygon, Rectangle  # noqa: E402

from obligations import models  # noqa: E402
from obligations.analysis.finite import FiniteMechanism  # noqa: E402
from obligations.core.obligation import Verdict, Witness  # noqa: E402
from obligations.errors import UsageError  # noqa: E402

WITNESS_LABEL = "witness event S"
WITNESS_GID = "witness"          # the shaded outputs' id (in the SVG too)


@dataclass(frozen=True)
class Picture:
    """What the figure draws: the pair, both rows, and the witness's outputs (if refuted)."""

    name: str
    x: str
    x2: str
    outputs: tuple[str, ...]
    row_x: tuple[Fraction, ...]
    row_x2: tuple[Fraction, ...]
    marked: tuple[int, ...]     # the outputs of the witness event S (refutations only)


def picture(u: models.Unfolded) -> Picture:
    """The pair to draw and its rows; a spec without a finite table is refused (exit 2)."""
    m = u.mechanism if isinstance(u.mechanism, FiniteMechanism) else _table(u)
    w = next((o for o in u.plan.obligations if isinstance(o, Witness)), None)
    if u.plan.expected == Verdict.REFUTED and w is not None and max(w.x, w.x2) < len(m.rows):
        pair, marked = (w.x, w.x2), w.outputs
    else:
        pair, marked = _largest_loss(m), ()
    a, b = pair
    return Picture(u.spec.name, m.input_label(a), m.input_label(b),
                   tuple(m.output_label(y) for y in range(len(m.rows[a]))), m.rows[a], m.rows[b], tuple(marked))


def _table(u: models.Unfolded) -> FiniteMechanism:
    form = models.form_of(u.spec)
    m = form.finite_table(u.spec)
    if not isinstance(m, FiniteMechanism) or not m.pairs:
        raise UsageError(f"{u.spec.path}: show --plot draws the output distributions of a finite mechanism "
                         f"(a table, a formula, a program for one stream length); this is a {form.title} spec")
    return m


def _largest_loss(m: FiniteMechanism) -> tuple[int, int]:
    """The neighbour pair with the largest M(x)(y) / M(x')(y) (infinite first: supports differ)."""
    def loss(pair: tuple[int, int]) -> tuple[int, Fraction]:
        a, b = pair
        ratios = [(1, Fraction(0)) if q == 0 else (0, p / q)
                  for p, q in zip(m.rows[a], m.rows[b], strict=False) if p > 0]
        return max(ratios, default=(0, Fraction(0)))
    return max(m.pairs, key=loss)


def figure(p: Picture) -> Figure:
    n = len(p.outputs)
    fig, ax = plt.subplots(figsize=(max(6.0, min(0.35 * n + 2, 24.0)), 4.0))
    xs = list(range(n))
    width = 0.4
    ax.bar([i - width / 2 for i in xs], [float(v) for v in p.row_x], width, label=f"Pr[M(x) = y], x = {p.x}")
    ax.bar([i + width / 2 for i in xs], [float(v) for v in p.row_x2], width, label=f"Pr[M(x') = y], x' = {p.x2}")
    for k, y in enumerate(p.marked):
        span = ax.axvspan(y - 0.5, y + 0.5, color="tab:red", alpha=0.15, label=WITNESS_LABEL if k == 0 else None)
        span.set_gid(WITNESS_GID)
    step = max(1, n // 40)   # at most about 40 labels on the axis
    ax.set_xticks(xs[::step], [p.outputs[i] for i in xs[::step]], rotation=90 if n > 12 else 0)
    ax.set_xlabel("output y")
    ax.set_ylabel("probability")
    ax.set_title(f"{p.name}: output distributions of the neighbours x = {p.x}, x' = {p.x2}"
                 + (" (refuted: the witness event marked)" if p.marked else ""))
    ax.legend()
    return fig


def write(u: models.Unfolded, out_dir: Path) -> list[Path]:
    fig = figure(picture(u))
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for ext in ("png", "svg"):
        path = out_dir / f"{u.spec.name}_outputs.{ext}"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        written.append(path)
    plt.close(fig)
    return written


def bars(fig: Figure) -> dict[str, list[float]]:
    """The drawn heights of each bar series, by its legend label (what the tests read back)."""
    ax = fig.axes[0]
    return {str(c.get_label()): [float(r.get_height()) for r in c.patches]
            for c in ax.containers if isinstance(c, BarContainer)}


def marked(fig: Figure) -> list[tuple[float, float]]:
    """The x extent of each shaded witness output (output y is drawn at y: y ± ½)."""
    out: list[tuple[float, float]] = []
    for patch in fig.axes[0].patches:
        if patch.get_gid() != WITNESS_GID:
            continue
        if isinstance(patch, Rectangle):     # axvspan's shape from matplotlib 3.9
            x0 = float(patch.get_x())
            out.append((x0, x0 + float(patch.get_width())))
        elif isinstance(patch, Polygon):     # and before
            xs = [float(v[0]) for v in patch.get_xy()]
            out.append((min(xs), max(xs)))
    return sorted(out)
