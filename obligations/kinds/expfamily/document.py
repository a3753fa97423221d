"""The Coq file of a geometric calibrated with e^eps: the mechanism is the library's
`rgeom eps n` at the spec's parameters, its rows are distributions by `rgeom_rdistr`, and the
claim is proved by `rgeom_rdp_distance_le` (or `rgeom_rdp_le` for adjacent inputs) or refuted
by one output (`not_rdp_of_entry`, the ratio by `rgeom_ratio_zero`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from obligations import __version__
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered, render as render_template
from obligations.core.terms import Renderer, comment, strip_outer
from obligations.kinds.expfamily.analysis import ExpFamily

TEMPLATE = Path(__file__).with_name("expfamily.v.j2")
PRELUDE = "PreludeReal"


def theorems(name: str, verdict: Verdict) -> tuple[str, ...]:
    if verdict == Verdict.PROVED:
        return (f"{name}_rdistr", f"{name}_dp")
    if verdict == Verdict.REFUTED:
        return (f"{name}_rdistr", f"{name}_not_dp")
    return (f"{name}_rdistr",)


def render(m: ExpFamily, verdict: Verdict) -> Rendered:
    s = m.spec
    r = Renderer({}, {}, {})
    ctx: dict[str, Any] = dict(
        name=s.name, version=__version__, spec_path=comment(Path(s.path).name), spec_sha=s.sha256,
        description=comment(s.description or s.name), n=s.n, d=s.distance,
        neighbours="nb_adjacent" if s.distance == 1 else f"(nb_distance {s.distance})",
        calibration=strip_outer(r.r(s.calibration)), calibration_text=comment(s.calibration_text),
        epsilon=strip_outer(r.r(s.epsilon)), epsilon_text=comment(s.epsilon_text),
        proved=verdict == Verdict.PROVED, witness=None)
    if verdict == Verdict.REFUTED and m.witness is not None:
        w = m.witness
        ctx["witness"] = dict(x=w.x, x2=w.x2, y=w.y, ratio=f"{w.ratio:.12g}")
    return render_template(TEMPLATE, s.name, ctx, PRELUDE, theorems(s.name, verdict))
