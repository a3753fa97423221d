"""Figures of snapping against Laplace (seed 003): error distributions, expected error
against epsilon and against the offset of f(D) in its grid cell, and the clamping bias.
The numbers are the closed forms and exact sums of `analysis/utility.py`; the dashed
lines are the bounds Coq certifies (Noise/SnapUtility.v): on every sample
|Snap - Lap| <= Λ/2 when no clamp binds, hence E|Snap - f(D)| <= lambda + Λ/2."""
from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

from obligations.analysis import utility as U  # noqa: E402
from obligations.noise.utility_instance import Instance  # noqa: E402


def write(inst: Instance, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    figures = [(_distributions(inst), "errors"), (_against_epsilon(inst), "vs_epsilon"),
               (_against_offset(inst), "vs_offset"), (_tails(inst), "tails")]
    if inst.bound is not None:
        figures.append((_bias(inst), "clamping_bias"))
    written = []
    for fig, kind in figures:
        for ext in ("png", "svg"):
            path = out_dir / f"{inst.name}_{kind}.{ext}"
            fig.savefig(path, dpi=120, bbox_inches="tight")
            written.append(path)
        plt.close(fig)
    return written


def _distributions(inst: Instance):  # type: ignore[no-untyped-def]
    """Error densities of Laplace and error masses of snapping, f(D) a quarter cell off the grid."""
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharey=False)
    for ax, factor in zip(axes, (0.5, 1.0, 2.0), strict=False):
        lam = inst.lam / factor
        grid = U.note_grid(lam) if factor != 1.0 else inst.grid
        c = 0.25 * grid
        xs = [lam * (-6 + 12 * i / 400) for i in range(401)]
        ax.plot(xs, [math.exp(-abs(x) / lam) / (2 * lam) for x in xs], color="tab:blue",
                label="Laplace: density of M - f(D)")
        ks = range(-int(6 * lam / grid) - 2, int(6 * lam / grid) + 3)
        errs = [k * grid - c for k in ks]
        probs = [U.laplace_cdf((k + 0.5) * grid - c, lam) - U.laplace_cdf((k - 0.5) * grid - c, lam) for k in ks]
        ax.vlines(errs, 0, [p / grid for p in probs], color="tab:red", lw=3,
                  label="snapping: Pr[M - f(D) = e] / Λ")
        ax.set_title(f"eps = {inst.sensitivity / lam:.3g}: λ = {lam:.3g}, Λ = {grid:.3g}, f(D) = Λ/4", fontsize=9)
        ax.set_xlabel("error M - f(D)")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{inst.name}: error distributions (no clamp binding)", fontsize=10)
    return fig


def _against_epsilon(inst: Instance):  # type: ignore[no-untyped-def]
    """E|error| against epsilon, lambda = Δ/epsilon and the note's Λ (smallest power of two >= λ)."""
    eps0 = inst.sensitivity / inst.lam
    eps = [eps0 * 10 ** (-1 + 2 * i / 300) for i in range(301)]
    lams = [inst.sensitivity / e for e in eps]
    grids = [U.note_grid(lam) for lam in lams]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.plot(eps, lams, color="tab:blue", label="Laplace: λ = Δ/ε")
    ax.plot(eps, [U.expected_error(g, lam, 0.5) for g, lam in zip(grids, lams, strict=False)], color="tab:red",
            label="snapping, f(D) half-way: (Λ/2)coth(r/2)")
    ax.plot(eps, [U.expected_error(g, lam, 0.0) for g, lam in zip(grids, lams, strict=False)], color="tab:orange",
            label="snapping, f(D) on the grid: Λ/(2 sinh(r/2))")
    ax.plot(eps, [float(U.averaged_expr(g / lam, g)) for g, lam in zip(grids, lams, strict=False)], color="tab:green",
            label="snapping, averaged over the offset")
    ax.plot(eps, [lam + g / 2 for g, lam in zip(grids, lams, strict=False)], "k--", lw=1,
            label="certified: λ + Λ/2 (|Snap - Lap| <= Λ/2)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("E|M(D) - f(D)|")
    ax.set_title(f"{inst.name}: expected error, Δ = {inst.sensitivity:.3g}, Λ = 2^⌈log2 λ⌉", fontsize=10)
    ax.legend(fontsize=7)
    return fig


def _against_offset(inst: Instance):  # type: ignore[no-untyped-def]
    thetas = [-0.5 + i / 200 for i in range(201)]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.plot(thetas, [U.expected_error(inst.grid, inst.lam, t) for t in thetas], color="tab:red",
            label="snapping: E|Snap - f(D)|")
    ax.axhline(inst.lam, color="tab:blue", label="Laplace: λ")
    ax.axhline(inst.lam + inst.grid / 2, color="k", ls="--", lw=1, label="certified: λ + Λ/2")
    avg = float(U.averaged_expr(inst.grid / inst.lam, inst.grid))
    ax.axhline(avg, color="tab:green", ls=":", label=f"snapping averaged over the offset: {avg:.4g}")
    ax.set_xlabel("offset θ = (f(D) - nearest grid point) / Λ")
    ax.set_ylabel("E|M(D) - f(D)|")
    ax.set_title(f"{inst.name}: λ = {inst.lam:.4g}, Λ = {inst.grid:.4g}, r = {inst.grid / inst.lam:.4g}",
                 fontsize=10)
    ax.legend(fontsize=7)
    return fig


def _bias(inst: Instance):  # type: ignore[no-untyped-def]
    """Clamped snapping: bias E[M] - f(D) and E|M - f(D)| against f(D) - B."""
    assert inst.bound is not None
    b, lam = inst.bound, inst.lam
    ds = [-4 * lam + 10 * lam * i / 300 for i in range(301)]
    outs = [U.clamped_outputs(inst.grid, lam, b, b + d) for d in ds]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.plot(ds, [o.bias(b + d) for o, d in zip(outs, ds, strict=False)], color="tab:purple",
            label="snapping: bias E[M] - f(D)")
    ax.plot(ds, [o.expected_error(b + d) for o, d in zip(outs, ds, strict=False)], color="tab:red",
            label="snapping: E|M - f(D)| (clamped)")
    ax.axhline(lam, color="tab:blue", label="Laplace (unclamped): λ")
    ax.plot(ds, [max(0.0, d) for d in ds], "k:", lw=1, label="|bias| >= f(D) - B")
    inner = [d for d in ds if d > 0]
    ax.plot(inner, [d + inst.grid / 2 for d in inner], "k--", lw=1,
            label="certified: |Snap - Lap| <= f(D) - B + Λ/2 (case 2, inner clamp binds)")
    ax.set_xlabel("f(D) - B")
    ax.set_ylabel("error")
    ax.set_title(f"{inst.name}: clamping to [-B, B], B = {b:.4g}, λ = {lam:.4g}, Λ = {inst.grid:.4g}", fontsize=10)
    ax.legend(fontsize=7)
    return fig


def _tails(inst: Instance):  # type: ignore[no-untyped-def]
    """Pr[|M(D) - f(D)| > alpha] against alpha: exact (computed) and the bound Coq certifies
    for snapping (snap_accuracy: e^(-(alpha - Λ/2)/λ), for all parameters)."""
    lam, grid = inst.lam, inst.grid
    alphas = [grid / 2 + 8 * lam * i / 400 for i in range(401)]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.plot(alphas, [U.tail_laplace(lam, a) for a in alphas], color="tab:blue", label="Laplace: e^(-α/λ)")
    ax.plot(alphas, [U.tail_unclamped(grid, lam, 0.0, a) for a in alphas], color="tab:orange",
            label="snapping, f(D) on the grid (exact)")
    ax.plot(alphas, [U.tail_unclamped(grid, lam, 0.5 * grid, a) for a in alphas], color="tab:red",
            label="snapping, f(D) half-way (exact)")
    ax.plot(alphas, [math.exp(-(a - grid / 2) / lam) for a in alphas], "k--", lw=1,
            label="certified for snapping: e^(-(α - Λ/2)/λ)")
    ax.set_yscale("log")
    ax.set_xlabel("α")
    ax.set_ylabel("Pr[|M(D) - f(D)| > α]")
    ax.set_title(f"{inst.name}: tails, λ = {lam:.4g}, Λ = {grid:.4g} (no clamp binding)", fontsize=10)
    ax.legend(fontsize=7)
    return fig
