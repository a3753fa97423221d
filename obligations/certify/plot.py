"""Figures of a privacy profile: the region R(M) with the tangent lines of the
certified (ε, δ) points (like seed 001's Figure 1), and the δ(ε) curve."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

from obligations.certify.profiles import Profile  # noqa: E402


def region_vertices(prof: Profile) -> list[tuple[float, float]]:
    """Lower-left boundary of (the convex hull of) R(M): (Pr[M(x) ∈ S], Pr[M(x') ∉ S]) =
    (1 − a, b) for the envelope's lines, the tightest output sets, and their mirror images
    for the swapped pair; the region is symmetric about (½, ½)."""
    pts = {(1.0 - float(p.line.a), float(p.line.b)) for p in prof.curve.pieces}
    pts |= {(float(p.line.b), 1.0 - float(p.line.a)) for p in prof.curve.pieces}  # the swapped pair
    return sorted(pts)


def write(prof: Profile, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = prof.spec.name + (f"_k{prof.compose}" if prof.compose > 1 else "")
    written = []
    for fig, kind in ((_region_figure(prof), "region"), (_delta_figure(prof), "delta")):
        for ext in ("png", "svg"):
            path = out_dir / f"{stem}_{kind}.{ext}"
            fig.savefig(path, dpi=120, bbox_inches="tight")
            written.append(path)
        plt.close(fig)
    return written


def _region_figure(prof: Profile):  # type: ignore[no-untyped-def]
    fig, ax = plt.subplots(figsize=(5, 5))
    lower = region_vertices(prof)
    upper = [(1 - x, 1 - y) for x, y in lower]  # point reflection, traversed back to (0, 1)
    poly = lower + upper
    ax.fill([x for x, _ in poly], [y for _, y in poly], color="tab:blue", alpha=0.3, label="R(M)")
    xs = [0.0, 1.0]
    for p in prof.points:
        e, d = math.exp(p.epsilon_float), float(p.upper)
        # the two tangent lines of R(ε, δ): px + e^ε py = 1 − δ and e^ε px + py = 1 − δ
        ax.plot(xs, [(1 - d - x) / e for x in xs], lw=0.8)
        ax.plot(xs, [(1 - d) - e * x for x in xs], lw=0.8, color=ax.lines[-1].get_color(),
                label=f"ε = {p.epsilon}, δ = {float(p.upper):.4g}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("Pr[M(x) ∈ S]")
    ax.set_ylabel("Pr[M(x') ∉ S]")
    ax.set_title(f"Privacy region of {prof.spec.name}" + (f" ({prof.compose}-fold)" if prof.compose > 1 else ""))
    ax.legend(fontsize=7, loc="upper right")
    return fig


def _delta_figure(prof: Profile):  # type: ignore[no-untyped-def]
    fig, ax = plt.subplots(figsize=(6, 4))
    t_end = prof.curve.t_zero or max(prof.curve.breakpoints or (Fraction(4),))
    eps_max = max(math.log(float(t_end)) * 1.2, max((p.epsilon_float for p in prof.points), default=1.0), 0.5)
    grid = [eps_max * i / 400 for i in range(401)]
    ax.plot(grid, [float(prof.curve.delta(Fraction(math.exp(e)))) for e in grid], label="exact δ(ε)")
    for t in prof.curve.breakpoints:
        ax.axvline(math.log(t), color="grey", lw=0.5, ls=":")
    ax.scatter([p.epsilon_float for p in prof.points], [float(p.upper) for p in prof.points],
               color="black", zorder=3, s=12, label="certified points")
    if prof.kov:
        ax.scatter([f for _, f, _, _ in prof.kov], [k for _, _, k, _ in prof.kov],
                   marker="x", color="tab:red", label="KOV bound")
    ax.set_xlabel("ε")
    ax.set_ylabel("δ")
    ax.set_title(f"δ(ε) of {prof.spec.name}" + (f" ({prof.compose}-fold)" if prof.compose > 1 else ""))
    ax.legend(fontsize=8)
    return fig
