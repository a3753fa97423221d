"""The Coq file of a table of real entries: the table of reals from the spec, the
rational brackets and their `interval` proofs, the row sums by `field`, and the claim
by the family (`krr_exp`), by the brackets' check, or refuted by a bracket witness."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from obligations.core import expr as E
from obligations.core import finite_terms as T
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import Renderer, comment, q_lit, r_lit, strip_outer
from obligations.table.calibrated_analysis import BITS, PRECISION, Calibrated
from obligations.table.calibrated_spec import CalibratedSpec

TEMPLATE = Path(__file__).parent / "templates" / "calibrated.v.j2"
PRELUDE = "PreludeReal"


def theorems(c: Calibrated, verdict: Verdict) -> tuple[str, ...]:
    name = c.spec.name
    if verdict == Verdict.PROVED:
        return (f"{name}_rdistr", f"{name}_dp")
    if verdict == Verdict.REFUTED:
        return (f"{name}_rdistr", f"{name}_not_dp")
    return (f"{name}_rdistr",)


def _rows(rows: list[list[str]]) -> str:
    inner = ";\n    ".join("[" + "; ".join(row) + "]" for row in rows)
    return f"[{inner}]"


class _EntryRenderer(Renderer):
    """Integer powers as `pow` with a literal exponent: `field` and `interval` read `a ^ 3`,
    and `field` cannot read `powerRZ a 3`."""

    def r(self, e: E.Expr) -> str:
        if isinstance(e, E.BinOp) and e.op == "**":
            k = int(E.compile_exact(e.right)(self.values))
            power = f"({self.r(e.left)} ^ {abs(k)})"
            return power if k >= 0 else f"(/ {power})"
        return super().r(e)


def render(c: Calibrated, verdict: Verdict) -> Rendered:
    s = c.spec
    r = _EntryRenderer(s.parameter_types, {}, s.parameters)
    epsilon = strip_outer(r.r(s.epsilon))
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description),
        inputs=T.domain_text(s.inputs), outputs=T.domain_text(s.outputs),
        n_in=s.inputs.size, n_out=s.outputs.size,
        rows=_real_rows(r, s),
        lo=_rows([[q_lit(v) for v in row] for row in c.brackets.lo]),
        hi=_rows([[q_lit(v) for v in row] for row in c.brackets.hi]),
        precision=PRECISION, bits=BITS, neighbours=T.neighbours_term(s), epsilon=epsilon,
        epsilon_text=comment(s.epsilon_text), family=None, lower=None, witness=None, exp=None,
        delta=None, set_witness=None, formula=comment(s.formula))
    if c.family is not None and verdict == Verdict.PROVED:
        ctx["family"] = {"k": c.family.k}
    elif c.lower is not None and verdict == Verdict.PROVED:
        ctx["lower"] = True
        ctx["exp"] = _exp(s.name, False, c.lower, epsilon)
        if s.delta != 0:
            ctx["delta"] = dict(q=q_lit(s.delta), r=r_lit(s.delta), text=comment(s.delta_text))
    elif c.set_witness is not None and verdict == Verdict.REFUTED:
        w2 = c.set_witness
        ys = "; ".join(f"{y}%nat" for y in w2.ys)
        ctx["set_witness"] = dict(x=w2.x, x2=w2.x2, ys=f"[{ys}]", x_text=comment(c.input_label(w2.x)),
                                  x2_text=comment(c.input_label(w2.x2)),
                                  ys_text=comment(", ".join(c.output_label(y) for y in w2.ys)),
                                  excess=f"{w2.excess:.6g}")
        ctx["delta"] = dict(q=q_lit(s.delta), r=r_lit(s.delta), text=comment(s.delta_text))
        ctx["exp"] = _exp(s.name, True, w2.upper, epsilon)
    elif c.witness is not None and verdict == Verdict.REFUTED:
        w = c.witness
        ctx["witness"] = dict(x=w.x, x2=w.x2, y=w.y, x_text=comment(c.input_label(w.x)),
                              x2_text=comment(c.input_label(w.x2)), y_text=comment(c.output_label(w.y)),
                              ratio=f"{w.ratio:.6g}")
        ctx["exp"] = _exp(s.name, True, w.upper, epsilon)
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(c, verdict))


def _real_rows(r: Renderer, s: CalibratedSpec) -> str:
    # Q_scope is open in generated files: every entry is marked as a real.
    return _rows([[f"({strip_outer(r.r(e))})%R" for e in row] for row in s.entries])


def _exp(name: str, upper: bool, bound: Any, epsilon: str) -> dict[str, Any]:
    o = dict(kind="exp_upper" if upper else "exp_lower", upper=upper, bound=q_lit(bound), method="interval",
             bits=PRECISION, taylor=None, decimal=T.decimal(bound))
    return exp_obligation(name, o, epsilon)
