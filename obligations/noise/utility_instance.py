"""A noise pipeline at numbers: the Laplace scale, the grid, the clamp and the
sensitivity, for the utility figures and tables (`obligations utility`)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from obligations.analysis import utility as U
from obligations.errors import UsageError
from obligations.noise.analysis import laplace_kappa, to_sym
from obligations.noise.spec import PipelineSpec
from obligations.noise.utility_spec import DistanceSpec


@dataclass(frozen=True)
class Instance:
    name: str
    lam: float                     # the Laplace scale lambda (noise S·lambda·ln u)
    grid: float                    # Λ
    bound: float | None         # B, or None without clamping
    sensitivity: float             # Δ (epsilon = Δ / lambda in the figures against epsilon)


def instance(spec: Any, at: Mapping[str, Fraction]) -> Instance:
    """The numbers of a pipeline spec (or a comparison with Laplace), with the symbolic
    parameters set by `at`; a UsageError names what is missing or wrong."""
    p = spec.pipeline if isinstance(spec, DistanceSpec) else spec
    if not isinstance(p, PipelineSpec):
        raise UsageError(f"{spec.path}: utility compares a noise pipeline with Laplace; this spec has none")
    names = {q.name for q in p.params}
    unknown = sorted(set(at) - names)
    if unknown:
        raise UsageError(f"--at {unknown[0]}: the spec has no parameter {unknown[0]!r}")
    env: dict[str, sympy.Expr] = {}
    for q in p.params:
        if q.kind == "number":
            assert q.value is not None
            env[q.name] = sympy.Rational(q.value.numerator, q.value.denominator)
        elif q.name in at:
            v = at[q.name]
            if v < 0 or (q.kind == "positive" and v == 0):
                raise UsageError(f"--at {q.name}={v}: the parameter is {q.kind}")
            env[q.name] = sympy.Rational(v.numerator, v.denominator)
        else:
            raise UsageError(f"{p.path}: the parameter {q.name!r} is symbolic: give it a value with "
                             f"--at {q.name}=VALUE")
    lam = _positive("the Laplace scale", laplace_kappa(p, env))
    grid = _positive("the grid", to_sym(p.grid, env))
    bound = _positive("the clamp B", to_sym(p.out_clamp, env)) if p.out_clamp is not None else None
    return Instance(p.name, lam, grid, bound, _positive("the sensitivity", to_sym(p.sensitivity, env)))


def _positive(what: str, e: sympy.Expr) -> float:
    v = float(e)
    if not (v > 0 and math.isfinite(v)):
        raise UsageError(f"{what} is {e} at these values; it must be positive")
    return v


def report(inst: Instance) -> list[str]:
    """The expected errors and a few tails, as text (ideal arithmetic, exact formulas)."""
    lam, grid = inst.lam, inst.grid
    r = grid / lam
    on, half = U.expected_error(grid, lam, 0.0), U.expected_error(grid, lam, 0.5)
    avg = float(U.averaged_expr(r, grid))
    lines = [f"{inst.name}: Laplace scale λ = {lam:.6g}, grid Λ = {grid:.6g}, r = Λ/λ = {r:.6g}"
             + (f", clamp B = {inst.bound:.6g}" if inst.bound is not None else ""),
             "expected absolute error E|M(D) - f(D)| (no clamp binding; computed, closed forms):",
             f"  Laplace                         λ                  = {lam:.6g}",
             f"  snapping, f(D) on the grid      Λ/(2 sinh(r/2))    = {on:.6g}  ({on / lam:.4f} λ)",
             f"  snapping, f(D) half-way         (Λ/2) coth(r/2)    = {half:.6g}  ({half / lam:.4f} λ)",
             f"  snapping, averaged over f(D)    Λ/4 + (2λ²/Λ)(1 - e^(-r/2)) = {avg:.6g}  ({avg / lam:.4f} λ)",
             f"  certified pointwise |Snap - Lap| <= Λ/2 = {grid / 2:.6g}, so E|Snap - f(D)| <= λ + Λ/2 = "
             f"{lam + grid / 2:.6g}",
             "tails Pr[|M(D) - f(D)| > alpha] (f(D) on the grid / half-way; Laplace e^(-alpha/λ)):"]
    for mult in (1, 2, 3):
        alpha = mult * lam
        on_tail, half_tail = U.tail_unclamped(grid, lam, 0.0, alpha), U.tail_unclamped(grid, lam, 0.5 * grid, alpha)
        lines.append(f"  alpha = {mult}λ = {alpha:.6g}: Laplace {U.tail_laplace(lam, alpha):.6g}, snapping "
                     f"{on_tail:.6g} / {half_tail:.6g}")
    if inst.bound is not None:
        b = inst.bound
        lines.append("clamping (cases 3 and 4): f(D) - B, bias E[M] - f(D), E|M - f(D)|, Pr[|M - f(D)| > λ]:")
        for d in (-2 * lam, -lam, 0.0, lam, 2 * lam, 4 * lam):
            o = U.clamped_outputs(grid, lam, b, b + d)
            lines.append(f"  {d:+.4g}: bias {o.bias(b + d):+.6g}, E|err| {o.expected_error(b + d):.6g}, "
                         f"tail {o.tail(b + d, lam):.6g}")
    return lines
