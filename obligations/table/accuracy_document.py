"""The Coq file of an accuracy claim: the mechanism from the spec (as the finite kind
writes it), its query and output values, one boolean check, and the theorems."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from obligations.core import finite_terms as T
from obligations.core.obligation import Verdict
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_list, q_lit, r_lit, rows_literal, z_lit
from obligations.table.accuracy_analysis import ErrorTable

TEMPLATE = Path(__file__).parent / "templates" / "accuracy.v.j2"


def theorems(t: ErrorTable) -> tuple[str, ...]:
    """What the certificate rests on, the claim (or its negation) last."""
    s, refuted = t.spec, t.verdict == Verdict.REFUTED
    distr = f"{s.name}_{'distr' if s.mech.distribution == 'full' else 'subdistr'}"
    if s.form == "accuracy":
        return (distr, f"{s.name}_inaccuracy_at", f"{s.name}_not_accurate") if refuted else \
               (distr, f"{s.name}_accurate")
    return (distr, f"{s.name}_expected_error_exact",
            f"{s.name}_expected_error_not_le" if refuted else f"{s.name}_expected_error_le")


def render(t: ErrorTable) -> Rendered:
    s, m = t.spec, t.spec.mech
    renderer = T.renderer(m)
    refuted = t.verdict == Verdict.REFUTED
    ctx: dict[str, Any] = dict(
        **header(s.name, s.path, s.sha256, s.description),
        inputs=T.domain_text(m.inputs), outputs=T.domain_text(m.outputs),
        n_in=m.inputs.size, n_out=m.outputs.size, parameters=T.parameters(m),
        formula=T.formula(m, renderer) if m.formula is not None else None,
        rows=rows_literal(t.table.rows) if m.formula is None else None,
        x_lo=z_lit(m.inputs.lo), y_lo=z_lit(m.outputs.lo), form=s.form, refuted=refuted,
        distr="distr" if m.distribution == "full" else "subdistr",
        distr_word="distribution" if m.distribution == "full" else "sub-distribution",
        values=q_list(t.expected),
    )
    if s.form == "accuracy":
        assert s.alpha is not None and s.beta is not None
        ctx.update(alpha=q_lit(s.alpha), beta=r_lit(s.beta), beta_q=q_lit(s.beta),
                   alpha_text=comment(s.texts[0]), beta_text=comment(s.texts[1]), worst=str(t.worst_tail))
    else:
        assert s.bound is not None
        ctx.update(bound=r_lit(s.bound), bound_q=q_lit(s.bound), bound_text=comment(s.texts[0]))
    if t.witness is not None:
        p = t.tail[t.witness] if s.form == "accuracy" else t.expected[t.witness]
        ctx.update(witness=t.witness, witness_value=t.value(t.witness), witness_p=str(p), witness_p_q=q_lit(p))
    return render_template(TEMPLATE, s.name, ctx, "Prelude", theorems(t))
