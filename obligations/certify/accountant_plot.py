"""Figures of the accountant's profile (`region` of a large composition): δ(ε) on a log
axis over the range where it moves, with its certified bracket and points, and the
privacy region in log10 coordinates, where a K-fold composition's region, which fills
the whole unit square on linear axes, shows its boundary."""
from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from obligations.certify.accountant_profile import AccProfile, curve, renyi_curve, tradeoff  # noqa: E402

FLOOR = 1e-16   # the log axes' lower end


def write(prof: AccProfile, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{prof.spec.name}_k{prof.compose}"
    written = []
    for fig, kind in ((region_figure(prof), "region"), (delta_figure(prof), "delta")):
        for ext in ("png", "svg"):
            path = out_dir / f"{stem}_{kind}.{ext}"
            fig.savefig(path, dpi=120, bbox_inches="tight")
            written.append(path)
        plt.close(fig)
    return written


def delta_figure(prof: AccProfile) -> Figure:
    fig, ax = plt.subplots(figsize=(6, 4))
    pts = curve(prof)
    eps = [e for e, _, _ in pts]
    ax.plot(eps, [max(u, FLOOR) for _, _, u in pts], color="tab:blue", label="δ(ε), upper end of the bracket")
    ax.plot(eps, [max(lo, FLOOR) for _, lo, _ in pts], color="tab:blue", ls=":", lw=0.8,
            label="lower end (the bracket's width: the mass the floats missed)")
    renyi = renyi_curve(prof, eps)
    if renyi is not None:
        ax.plot(eps, [max(r, FLOOR) for r in renyi], color="tab:orange", ls="--", lw=0.9,
                label="Rényi bound at real orders (an upper bound only)")
    shown = prof.points or prof.table
    label = ("certified by Coq: (ε, upper) proved, lower refuted" if prof.certified
             else "computed, not certified")
    if shown:
        ax.scatter([float(p.epsilon) for p in shown], [max(p.upper, FLOOR) for p in shown], zorder=3, s=16,
                   color="black" if prof.certified else "none", edgecolors="black", label=label)
    ax.set_yscale("log")
    ax.set_ylim(FLOOR, 2)
    ax.set_xlabel("ε")
    ax.set_ylabel("δ (log scale)")
    ax.set_title(f"δ(ε) of {prof.spec.name} ({prof.source.what})", fontsize=9)
    ax.legend(fontsize=7)
    return fig


def region_figure(prof: AccProfile) -> Figure:
    """The region's lower-left boundary and its mirror image in log10 coordinates (a large
    composition's boundary runs at probabilities like 10^-100, where linear axes show a full
    square); between the two computed pieces, the part no window holds, dotted."""
    fig, ax = plt.subplots(figsize=(5, 5))
    pts = tradeoff(prof)
    if pts:
        xs, ys = [x for x, _ in pts], [y for _, y in pts]
        ax.plot(xs, ys, color="tab:blue", label="boundary of R(M) (loss events S = {loss ≥ z})")
        ax.plot(ys, xs, color="tab:blue", ls="--", lw=0.8, label="its mirror (the swapped pair)")
        ax.plot([xs[-1], ys[-1]], [ys[-1], xs[-1]], color="grey", ls=":", lw=0.8,
                label=f"not computed (masses below 2^{math.log2(prof.source.parts[0].tau):.0f} dropped)")
        low = min(min(xs), min(ys))
        ax.set_xlim(low * 1.02, 0.5)
        ax.set_ylim(low * 1.02, 0.5)
    ax.set_xlabel("log10 Pr[M(x) ∈ S]")
    ax.set_ylabel("log10 Pr[M(x') ∉ S]")
    ax.set_title(f"Privacy region of {prof.spec.name} ({prof.source.what}), log10 axes", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    return fig
