"""Figures of a privacy profile: the region R(M) with the tangent lines of the
chosen (ε, δ) points (like seed 001's Figure 1), and the δ(ε) curve.

What each figure draws is also what its legend says: points are called
"certified" only when Coq proved the upper claim and refuted the lower one.
The tests read the drawn data back from the figure objects."""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.transforms import blended_transform_factory  # noqa: E402

from obligations.analysis.compose import kov_curve  # noqa: E402
from obligations.certify.profiles import Point, Profile  # noqa: E402
from obligations.core import expr as E  # noqa: E402

GRID = 400  # ε steps of the δ(ε) curves (the breakpoints are added exactly)
MAX_BREAK_LINES = 30


def region_vertices(prof: Profile) -> list[tuple[float, float]]:
    """Lower-left boundary of (the convex hull of) R(M), from (0, 1) to (1, 0):
    (Pr[M(x) ∈ S], Pr[M(x') ∉ S]) = (1 − a, b) for the envelope's lines, the tightest
    output sets, and their mirror images for the swapped pair; the region is symmetric
    about (½, ½). The corners (0, 1) and (1, 0) (S = ∅ and S = every output) always
    belong to R(M); when supports differ no line of the envelope reaches them."""
    pts = {(1.0 - float(p.line.a), float(p.line.b)) for p in prof.curve.pieces}
    pts |= {(float(p.line.b), 1.0 - float(p.line.a)) for p in prof.curve.pieces}  # the swapped pair
    pts |= {(0.0, 1.0), (1.0, 0.0)}
    return sorted(pts, key=lambda v: (v[0], -v[1]))  # a decreasing boundary: at equal x, higher first


def write(prof: Profile, out_dir: Path, log_delta: bool = False) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = prof.spec.name + (f"_k{prof.compose}" if prof.compose > 1 else "")
    written = []
    for fig, kind in ((region_figure(prof), "region"), (delta_figure(prof, log_delta), "delta")):
        for ext in ("png", "svg"):
            path = out_dir / f"{stem}_{kind}.{ext}"
            fig.savefig(path, dpi=120, bbox_inches="tight")
            written.append(path)
        plt.close(fig)
    return written


@dataclass(frozen=True)
class Claim:
    """The spec's own claim, drawn when the figure is of the mechanism it is about."""

    epsilon_text: str
    epsilon: float
    delta: Fraction


def claim_of(prof: Profile) -> Claim | None:
    """The spec's claim, if the profile is of the mechanism it is about (not of a K-fold
    composition the spec does not claim anything for)."""
    spec = prof.spec
    if prof.compose != spec.compose:
        return None
    eps = float(E.to_sympy(spec.epsilon, spec.parameters).evalf(20))
    return Claim(spec.epsilon_text, eps, spec.delta)


def status(p: Point) -> str:
    """'certified' (every proof as expected), 'failed' (some proof not), or 'computed' (no proof run)."""
    if not p.proofs:
        return "computed"
    return "certified" if all(o.verdict == want for o, want in zip(p.proofs, p.expected, strict=False)) else "failed"


POINT_LABELS = {
    "certified": "certified by Coq: (ε, δ) proved, just below refuted",
    "failed": "NOT certified: a proof did not go as expected",
    "computed": "exact δ at chosen ε (computed, not certified)",
}
POINT_STYLE: dict[str, dict[str, Any]] = {"certified": dict(color="black", marker="o"),
               "failed": dict(color="tab:red", marker="X"),
               "computed": dict(facecolors="none", edgecolors="black", marker="o")}


def _title(prof: Profile, what: str) -> str:
    return f"{what} of {prof.spec.name}" + (f" ({prof.compose}-fold)" if prof.compose > 1 else "")


def region_figure(prof: Profile) -> Figure:
    fig, ax = plt.subplots(figsize=(5, 5))
    lower = region_vertices(prof)
    upper = [(1 - x, 1 - y) for x, y in lower]  # point reflection, traversed from (1, 0) back to (0, 1)
    poly = lower + upper
    ax.fill([x for x, _ in poly], [y for _, y in poly], color="tab:blue", alpha=0.3, label="R(M)")
    for p in prof.points:
        _tangents(ax, _exp(p.epsilon_float), float(p.upper), dict(lw=0.8),
                  f"ε = {p.epsilon}, δ = {float(p.upper):.4g} ({status(p)})")
    claim = claim_of(prof)
    if claim is not None:
        _tangents(ax, _exp(claim.epsilon), float(claim.delta), dict(lw=1.2, ls="--", color="black"),
                  f"claimed R(ε, δ): ε = {claim.epsilon_text}, δ = {claim.delta}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("Pr[M(x) ∈ S]")
    ax.set_ylabel("Pr[M(x') ∉ S]")
    ax.set_title(_title(prof, "Privacy region"))
    ax.legend(fontsize=7, loc="upper right")
    return fig


def _exp(eps: float) -> float:
    """e^ε for drawing a line of slope e^ε (beyond 1e300 the line is the axis anyway)."""
    return math.exp(min(eps, 690.0))


def _tangents(ax, e: float, d: float, style: dict[str, Any], label: str) -> None:  # type: ignore[no-untyped-def]
    """The two lines bounding R(ε, δ): px + e^ε py = 1 − δ and e^ε px + py = 1 − δ."""
    xs = [0.0, 1.0]
    line, = ax.plot(xs, [(1 - d - x) / e for x in xs], **style)
    ax.plot(xs, [(1 - d) - e * x for x in xs], **{**style, "color": line.get_color()}, label=label)


def epsilon_range(prof: Profile) -> float:
    """The right end of the δ(ε) figure: past the last breakpoint, every point and the claim."""
    t_end = prof.curve.t_zero or max(prof.curve.breakpoints or (Fraction(4),))
    claim = claim_of(prof)
    ends = [_ln(t_end)] + [p.epsilon_float for p in prof.points]
    return max(max(ends) * 1.2, (claim.epsilon * 1.2 if claim else 0.0), 0.5)


def delta_figure(prof: Profile, log_delta: bool = False) -> Figure:
    """δ(ε) exactly (evaluated on a grid that contains the breakpoints), the chosen points, the
    KOV bound as a curve for compositions, and the spec's claim. With `log_delta`, δ on a log
    axis: where δ = 0 the curves stop, and a claim with δ = 0 is marked on the ε axis."""
    fig, ax = plt.subplots(figsize=(6, 4))
    eps_max = epsilon_range(prof)
    grid = delta_grid(prof, eps_max)
    shown = _shown(log_delta)
    ax.plot([e for e, _ in grid], [shown(float(prof.curve.delta(t))) for _, t in grid], label="exact δ(ε)")
    if len(prof.curve.breakpoints) <= MAX_BREAK_LINES:   # beyond, they would grey the whole figure
        for t in prof.curve.breakpoints:
            ax.axvline(_ln(t), color="grey", lw=0.5, ls=":")
    for kind in ("certified", "failed", "computed"):
        pts = [p for p in prof.points if status(p) == kind and shown(float(p.upper)) == shown(float(p.upper))]
        if pts:
            ax.scatter([p.epsilon_float for p in pts], [float(p.upper) for p in pts], zorder=3, s=16,
                       label=POINT_LABELS[kind], **POINT_STYLE[kind])
    if prof.kov_t0 is not None:
        t0 = prof.kov_t0
        kc = kov_curve(_ln(t0), 0.0, prof.compose)
        ax.plot([e for e, _ in grid], [shown(kc.delta(e)) for e, _ in grid], color="tab:red", ls="--",
                label=f"KOV bound: any {prof.compose}-fold composition of (ln({t0}), 0)-DP mechanisms")
    claim = claim_of(prof)
    if claim is not None:
        _mark_claim(ax, claim, log_delta)
    ax.set_xlabel("ε")
    ax.set_ylabel("δ (log scale)" if log_delta else "δ")
    if log_delta:
        ax.set_yscale("log")
    ax.set_title(_title(prof, "δ(ε)"))
    ax.legend(fontsize=7)
    return fig


def delta_grid(prof: Profile, eps_max: float) -> list[tuple[float, Fraction]]:
    """(ε, e^ε) on [0, eps_max]: GRID steps and every breakpoint, at which e^ε is the exact t
    (read back from a float, e^ln(8) is a hair below 8 and δ a spurious 1e-17 on a log axis)."""
    steps = {eps_max * i / GRID: Fraction(Decimal(eps_max * i / GRID).exp()) for i in range(GRID + 1)}
    steps.update({_ln(t): t for t in prof.curve.breakpoints if _ln(t) <= eps_max})   # Decimal: past 1e308 too
    return sorted(steps.items())


def _ln(t: Fraction) -> float:
    return math.log(t.numerator) - math.log(t.denominator)   # t may not fit a float


def _shown(log_delta: bool):  # type: ignore[no-untyped-def]
    """δ as drawn: on a log axis δ = 0 cannot be drawn, so it becomes NaN (a gap in the curve)."""
    return (lambda d: d if d > 0 else math.nan) if log_delta else (lambda d: d)


def _mark_claim(ax, claim: Claim, log_delta: bool) -> None:  # type: ignore[no-untyped-def]
    label = f"claim: ε = {claim.epsilon_text}, δ = {claim.delta}"
    if log_delta and claim.delta == 0:   # on the ε axis, since log 0 has no place
        ax.plot([claim.epsilon], [0.0], marker="*", ms=12, color="tab:green", ls="none", clip_on=False,
                transform=blended_transform_factory(ax.transData, ax.transAxes), zorder=4,
                label=label + " (on the ε axis)")
    else:
        ax.plot([claim.epsilon], [float(claim.delta)], marker="*", ms=12, color="tab:green", ls="none",
                zorder=4, label=label)
