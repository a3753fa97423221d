"""The Coq file of a comparison with Laplace: the spec's mechanism and the Laplace
mechanism, both written from the spec's noise steps on the same (u, s), and the
distance theorems, each proved by one lemma of `theories/Noise/SnapUtility.v`."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from obligations.core import expr as E
from obligations.core.document import Tactic
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, r_lit
from obligations.noise.analysis import laplace_kappa, symbols
from obligations.noise.document import TACTICS, coq_r, coq_sym, literal_noise, paren
from obligations.noise.spec import PipelineSpec
from obligations.noise.utility_spec import DistanceSpec

TEMPLATE = Path(__file__).parent / "templates" / "distance.v.j2"


def theorems(s: DistanceSpec) -> tuple[str, ...]:
    n = s.name
    if s.pipeline.out_clamp is None:
        return (f"{n}_accuracy_exact", f"{n}_accuracy", f"{n}_laplace_distance_lt_scale", f"{n}_laplace_distance")
    accuracy = (f"{n}_accuracy_near", f"{n}_laplace_near", f"{n}_accuracy_total", f"{n}_accuracy")
    return accuracy + tuple(f"{n}_laplace_distance_{k}" for k in (
        "interior_lt_scale", "inner", "inner_lt_scale", "outer_top", "outer_bottom", "bias", "interior"))


@dataclass(frozen=True)
class LaplaceScale:
    """The pipeline's noise is S·lambda·ln u with lambda > 0: lambda over the parameters'
    names (numeric parameters are Coq constants by name)."""

    named: sympy.Expr


def laplace_scale(p: PipelineSpec) -> LaplaceScale:
    """The Laplace scale of a pipeline's noise, or a SpecError (the library covers exactly this noise)."""
    laplace_kappa(p, symbols(p))        # the noise is S·lambda·ln u, lambda > 0 (at the numeric values too)
    return LaplaceScale(laplace_kappa(p, {q.name: sympy.Symbol(q.name, positive=True) for q in p.params}))


def render(s: DistanceSpec, scale: LaplaceScale) -> Rendered:
    p = s.pipeline
    symbolic, numeric = [], []
    for q in p.params:
        if q.kind == "number":
            v = q.value if q.value is not None else Fraction(0)
            numeric.append({"name": q.name, "value": r_lit(v), "text": str(v)})
        else:
            symbolic.append({"name": q.name, "rel": "<" if q.kind == "positive" else "<="})
    lam = coq_r(p.grid)
    b = coq_r(p.out_clamp) if p.out_clamp is not None else None
    noise = literal_noise(p)
    ties = "TiesUp" if p.ties == "up" else "TiesDown"
    query = "fa" if b is None else f"clamp {b} fa"
    rate = paren(coq_sym(sympy.simplify(1 / scale.named)))
    mech = f"{lam} * IZR (round_grid {ties} {lam} ({query} + {noise}))"
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description), numeric=numeric, symbolic=symbolic,
        mechanism=mech if b is None else f"clamp {b} ({mech})", noise=noise, lam=lam, B=b, clamped=b is not None,
        ties=ties, scale=paren(coq_sym(scale.named)), steps_text=comment(_steps(p)), rate=rate,
        noise_statement=f"forall u s, 0 < u <= 1 -> {noise} = sgn s * (/ {rate} * ln u)",
        noise_tactics=tuple(Tactic(t) for t in TACTICS["noise"]))
    return render_template(TEMPLATE, s.name, ctx, "PreludeSnap", theorems(s))


def _steps(p: PipelineSpec) -> str:
    parts = [st.op if st.arg is None else f"{st.op} {E.to_text(st.arg)}" for st in p.noise]
    return "u <- (0,1], S <- +-1; " + "; ".join(parts)
