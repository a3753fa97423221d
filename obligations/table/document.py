"""The Coq file of a finite-mechanism claim: mechanism from the spec, then the obligations."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from obligations.analysis.finite import FiniteMechanism
from obligations.core import finite_terms as T
from obligations.core.obligation import Plan, Verdict
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_lit, r_lit, rows_literal, strip_outer

TEMPLATE = Path(__file__).parent / "templates" / "finite.v.j2"


def render(m: FiniteMechanism, plan: Plan) -> Rendered:
    spec = m.spec
    renderer = T.renderer(spec)
    obligations = [T.obligation(o) for o in plan.obligations]
    neighbours = T.neighbours_term(spec)
    exp = next((o for o in obligations if o["kind"] in ("exp_lower", "exp_upper")), None)
    main = next((o for o in obligations if o["kind"] in ("pointwise", "hockey", "witness")), None)
    if main is not None:
        main["delta_q"] = q_lit(spec.delta)
        main["check"], main["bridge"] = T.check_term(main, neighbours, spec.name)
    name = spec.name
    theorem = f"{name}_not_dp" if plan.expected == Verdict.REFUTED else f"{name}_dp"
    epsilon = strip_outer(renderer.r(spec.epsilon))
    if exp is not None:
        exp = exp_obligation(name, exp, epsilon)
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description),
        inputs=T.domain_text(spec.inputs) if spec.cw is None else
        "0 = D (the database, drawn from the prior), 1 = alt (its scrubbed version); "
        "the table's inputs: " + T.domain_text(spec.inputs), outputs=T.domain_text(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size,
        parameters=T.parameters(spec),
        formula=T.formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(m.base_rows) if spec.formula is None else None,
        base=_chain(spec)[0][0], chain=_chain(spec)[1:],
        neighbours=neighbours, exp=exp, main=main,
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text),
        delta=r_lit(spec.delta), delta_q=q_lit(spec.delta), delta_text=comment(spec.delta_text),
        theorem=theorem, distr="distr" if spec.distribution == "full" else "subdistr",
    )
    theorems: tuple[str, ...] = (f"{name}_{'distr' if spec.distribution == 'full' else 'subdistr'}",)
    if plan.expected in (Verdict.PROVED, Verdict.REFUTED):
        theorems += (theorem,)
    return render_template(TEMPLATE, name, ctx, "Prelude", theorems, (INTERVAL_PRELUDE,))


def _chain(spec: MechanismSpec) -> list[tuple[str, str, str]]:
    """The definitions from the spec's table to the mechanism the claim is about:
    (name, body, comment); the first one's body is the table or formula.

    With CW-privacy and a K-fold composition the power comes first and the prior
    mixture last, `fmech_cw (fmech_power M K) f f'` = Σ_x f(x)·M(x)^⊗K: one
    database, drawn once, seen by all K runs (Finite/CW.v, `fmech_cw_power_entry`).
    The other order would draw a fresh database for every run."""
    stages = [("table", "", "")]
    if spec.compose > 1:
        stages.append(("power", f"fmech_power {{prev}} {spec.compose}",
                       f"The mechanism run {spec.compose} times on the same input, with independent noise."))
    if spec.cw is not None:
        prior, alt = (", ".join(q_lit(v) for v in f) for f in spec.cw)
        same = (f" Both are drawn once: all {spec.compose} runs see the same database."
                if spec.compose > 1 else "")
        stages.append(("cw", f"fmech_cw {{prev}} [{prior.replace(', ', '; ')}] [{alt.replace(', ', '; ')}]",
                       "CW-privacy: input 0 is the database drawn from the prior, input 1 its "
                       "scrubbed version drawn from the alternative prior." + same))
    names = [f"{spec.name}_{tag}" for tag, _, _ in stages[:-1]] + [spec.name]
    chain = [(names[0], "", "")]
    for i, (_, body, text) in enumerate(stages[1:], 1):
        chain.append((names[i], body.format(prev=names[i - 1]), text))
    return chain


