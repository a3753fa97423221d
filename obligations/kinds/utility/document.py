"""The Coq file of a comparison with Laplace: the spec's mechanism and the Laplace
mechanism, both written from the spec's noise steps on the same (u, s), and the
distance theorems, each proved by one lemma of `theories/Noise/SnapUtility.v`."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy


from obligations import __version__
from obligations.core import expr as E
from obligations.core.document import Tactic
from obligations.core.templates import Rendered, render as render_template
from obligations.core.terms import comment, r_lit
from obligations.kinds.pipeline.analysis import laplace_kappa, symbols
from obligations.kinds.pipeline.document import TACTICS, _paren, coq_r, coq_sym
from obligations.kinds.pipeline.spec import PipelineSpec
from obligations.kinds.utility.spec import DistanceSpec

TEMPLATE = Path(__file__).with_name("distance.v.j2")


def theorems(s: DistanceSpec) -> tuple[str, ...]:
    n = s.name
    if s.pipeline.out_clamp is None:
        return (f"{n}_accuracy_exact", f"{n}_accuracy", f"{n}_laplace_distance_lt_scale", f"{n}_laplace_distance")
    accuracy = (f"{n}_accuracy_near", f"{n}_laplace_near", f"{n}_accuracy_total", f"{n}_accuracy")
    return accuracy + tuple(f"{n}_laplace_distance_{k}" for k in (
        "interior_lt_scale", "inner", "inner_lt_scale", "outer_top", "outer_bottom", "bias", "interior"))


def render(s: DistanceSpec) -> Rendered:
    p = s.pipeline
    laplace_kappa(p, symbols(p))        # the noise is S·lambda·ln u, lambda > 0 (else a SpecError)
    symbolic, numeric = [], []
    for q in p.params:
        if q.kind == "number":
            v = q.value if q.value is not None else Fraction(0)
            numeric.append({"name": q.name, "value": r_lit(v), "text": str(v)})
        else:
            symbolic.append({"name": q.name, "rel": "<" if q.kind == "positive" else "<="})
    lam = coq_r(p.grid)
    b = coq_r(p.out_clamp) if p.out_clamp is not None else None
    noise = _literal_noise(p)
    ties = "TiesUp" if p.ties == "up" else "TiesDown"
    query = "fa" if b is None else f"clamp {b} fa"
    rate = _paren(coq_sym(sympy.simplify(1 / _named_scale(p))))
    mech = f"{lam} * IZR (round_grid {ties} {lam} ({query} + {noise}))"
    ctx: dict[str, Any] = dict(
        name=s.name, version=__version__, spec_path=comment(Path(s.path).name), spec_sha=s.sha256,
        description=comment(s.description or s.name), numeric=numeric, symbolic=symbolic,
        mechanism=mech if b is None else f"clamp {b} ({mech})", noise=noise, lam=lam, B=b, clamped=b is not None,
        ties=ties, scale=_paren(coq_sym(_named_scale(p))), steps_text=comment(_steps(p)), rate=rate,
        noise_statement=f"forall u s, 0 < u <= 1 -> {noise} = sgn s * (/ {rate} * ln u)",
        noise_tactics=tuple(Tactic(t) for t in TACTICS["noise"]))
    return render_template(TEMPLATE, s.name, ctx, "PreludeSnap", theorems(s))


def _named_scale(p: PipelineSpec) -> sympy.Expr:
    """lambda over the parameters' names (numeric parameters are Coq constants by name)."""
    env = {q.name: sympy.Symbol(q.name, positive=True) for q in p.params}
    return laplace_kappa(p, env)


def _literal_noise(p: PipelineSpec) -> str:
    """The noise exactly as the spec's steps build it from u and the sign s."""
    y = "u"
    for st in p.noise:
        if st.op in ("ln", "exp") or st.arg is None:
            y = f"{st.op} {_paren(y)}" if st.op != "sign" else f"sgn s * {_paren(y)}"
        elif st.op == "scale":
            y = f"{coq_r(st.arg)} * {_paren(y)}"
        else:
            y = f"{_paren(y)} + {coq_r(st.arg)}"
    return _paren(y)


def _steps(p: PipelineSpec) -> str:
    parts = [st.op if st.arg is None else f"{st.op} {E.to_text(st.arg)}" for st in p.noise]
    return "u <- (0,1], S <- +-1; " + "; ".join(parts)
