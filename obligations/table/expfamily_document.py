"""The Coq file of a family calibrated with e^eps at the spec's parameters.
- The geometric: the library's `rgeom eps n`, its rows distributions by `rgeom_rdistr`, the
  claim proved by `rgeom_rdp_distance_le` (`rgeom_rdp_le` for adjacent inputs) or refuted by
  one output (`not_rdp_of_entry`, the ratio by `rgeom_ratio_zero`).
- The exponential mechanism: `expmech c n m scores` over the spec's scores, their sensitivity
  checked by computation, the claim proved by `expmech_rdp_le` or refuted by one output
  whose entries `interval` compares (template `expmech.v.j2`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from obligations.core import finite_terms as T
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import Renderer, comment, q_lit, strip_outer
from obligations.table.expfamily_analysis import ExpFamily, ExpMech

TEMPLATE = Path(__file__).parent / "templates" / "expfamily.v.j2"
EXPMECH_TEMPLATE = Path(__file__).parent / "templates" / "expmech.v.j2"
PRELUDE = "PreludeReal"


def theorems(name: str, verdict: Verdict) -> tuple[str, ...]:
    if verdict == Verdict.PROVED:
        return (f"{name}_rdistr", f"{name}_dp")
    if verdict == Verdict.REFUTED:
        return (f"{name}_rdistr", f"{name}_not_dp")
    return (f"{name}_rdistr",)


def render_geometric(m: ExpFamily, verdict: Verdict) -> Rendered:
    s = m.spec
    r = Renderer({}, {}, {})
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description), n=s.n, d=s.distance,
        neighbours="nb_adjacent" if s.distance == 1 else f"(nb_distance {s.distance})",
        calibration=strip_outer(r.r(s.calibration)), calibration_text=comment(s.calibration_text),
        epsilon=strip_outer(r.r(s.epsilon)), epsilon_text=comment(s.epsilon_text),
        proved=verdict == Verdict.PROVED, witness=None)
    if verdict == Verdict.REFUTED and m.witness is not None:
        w = m.witness
        ctx["witness"] = dict(x=w.x, x2=w.x2, y=w.y, ratio=f"{w.ratio:.12g}")
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(s.name, verdict))


def render_expmech(m: ExpMech, verdict: Verdict) -> Rendered:
    s = m.spec
    r = Renderer({}, {}, {})
    scores = ";\n    ".join("[" + "; ".join(q_lit(v) for v in row) + "]" for row in s.scores)
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description),
        inputs=T.domain_text(s.inputs), outputs=T.domain_text(s.outputs),
        n_in=s.inputs.size, n_out=s.outputs.size, scores=f"[{scores}]", neighbours=T.neighbours_term(s),
        calibration=strip_outer(r.r(s.calibration)), calibration_text=comment(s.calibration_text),
        sensitivity=q_lit(m.sensitivity), sensitivity_text=str(m.sensitivity),
        epsilon=strip_outer(r.r(s.epsilon)), epsilon_text=comment(s.epsilon_text),
        proved=verdict == Verdict.PROVED, witness=None)
    if verdict == Verdict.REFUTED and m.witness is not None:
        w = m.witness
        ctx["witness"] = dict(x=w.x, x2=w.x2, y=w.y, ratio=f"{w.ratio:.12g}",
                              x_text=comment(s.inputs.labels[w.x]), x2_text=comment(s.inputs.labels[w.x2]),
                              y_text=comment(s.outputs.labels[w.y]))
    return render_template(EXPMECH_TEMPLATE, s.name, ctx, PRELUDE, theorems(s.name, verdict))
