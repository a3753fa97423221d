"""The Coq file of a finite-mechanism claim: mechanism from the spec, then the obligations."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations.errors import InternalError
from obligations import __version__
from obligations.core.templates import INTERVAL_PRELUDE, Rendered, exp_obligation, render as render_template
from obligations.core.obligation import (Verdict, ExpLowerBound, ExpUpperBound, HockeyStickCheck, Plan,
                                    PointwiseCheck, RowsAreDistributions, Witness)
from obligations.core.terms import (Renderer, comment, q_lit, r_lit, rows_literal,
                                      strip_outer, z_lit)
from obligations.core import expr as E
from obligations.core.spec import Domain, MechanismSpec, neighbour_distance
from obligations.analysis.finite import FiniteMechanism



TEMPLATE = Path(__file__).with_name("finite.v.j2")


def render(m: FiniteMechanism, plan: Plan) -> Rendered:
    spec = m.spec
    renderer = _renderer(spec)
    obligations = [_obligation(o) for o in plan.obligations]
    neighbours = neighbours_term(spec)
    exp = next((o for o in obligations if o["kind"] in ("exp_lower", "exp_upper")), None)
    main = next((o for o in obligations if o["kind"] in ("pointwise", "hockey", "witness")), None)
    if main is not None:
        main["delta_q"] = q_lit(spec.delta)
        main["check"], main["bridge"] = _check_term(main, neighbours, spec.name)
    name = spec.name
    theorem = f"{name}_not_dp" if plan.expected == Verdict.REFUTED else f"{name}_dp"
    epsilon = strip_outer(renderer.r(spec.epsilon))
    if exp is not None:
        exp = exp_obligation(name, exp, epsilon)
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name),
        inputs=_domain(spec.inputs) if spec.cw is None else
        "0 = D (the database, drawn from the prior), 1 = alt (its scrubbed version); "
        "the table's inputs: " + _domain(spec.inputs), outputs=_domain(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size,
        parameters=_parameters(spec),
        formula=_formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(m.base_rows) if spec.formula is None else None,
        base=_chain(spec)[0][0], chain=_chain(spec)[1:],
        neighbours=neighbours, exp=exp, main=main,
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text),
        delta=r_lit(spec.delta), delta_q=q_lit(spec.delta), delta_text=comment(spec.delta_text),
        theorem=theorem, distr="distr" if spec.distribution == "full" else "subdistr",
    )
    theorems = (f"{name}_{'distr' if spec.distribution == 'full' else 'subdistr'}",)
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


def _renderer(spec: MechanismSpec) -> Renderer:
    coq_names = {p: f"p_{p}" for p in spec.parameters}
    coq_names.update(x="x", y="y")
    types = dict(spec.parameter_types, x=E.INT, y=E.INT)
    return Renderer(types, coq_names, spec.parameters)


def _domain(d: Domain) -> str:
    if d.values is not None:
        return f"the values {d.values[0]}..{d.values[-1]} (index i is the value {d.values[0]} + i)"
    return _labels(d.labels)


def _labels(labels: tuple[str, ...]) -> str:
    shown = [f"{i} = {comment(lab)}" for i, lab in enumerate(labels[:20])]
    if len(labels) > 20:
        shown.append(f"... {len(labels) - 1} = {comment(labels[-1])}")
    return ", ".join(shown)


def _parameters(spec: MechanismSpec) -> list[dict[str, str]]:
    out = []
    for p, v in spec.parameters.items():
        if spec.parameter_types[p] == E.INT:
            out.append(dict(name=f"p_{p}", type="Z", value=f"{z_lit(int(v))}%Z", text=comment(p)))
        else:
            out.append(dict(name=f"p_{p}", type="Q", value=q_lit(v), text=comment(p)))
    return out


def _formula(spec: MechanismSpec, r: Renderer) -> dict[str, Any]:
    pieces = list(spec.formula or ())
    body = r.q(pieces[-1].value)
    for piece in reversed(pieces[:-1]):
        assert piece.when is not None
        body = f"if {r.bool(piece.when)} then {r.q(piece.value)}\n    else {body}"
    return dict(body=body, x_lo=z_lit(spec.inputs.lo), y_lo=z_lit(spec.outputs.lo),
                text=[comment(("otherwise" if p.when is None else f"if {E.to_text(p.when)}")
                              + f": {E.to_text(p.value)}") for p in pieces])


def neighbours_term(spec: Any) -> str:
    """The Coq neighbour relation of a table spec (finite or calibrated: both carry `neighbours`)."""
    nb = spec.neighbours
    if nb == "all":
        return "nb_all"
    if nb == "adjacent":
        return "nb_adjacent"
    if (d := neighbour_distance(nb)) is not None:
        return f"(nb_distance {d})"
    # The prelude opens Q_scope: a bare numeral would be a Q, but nb_list takes nat pairs.
    pairs = "; ".join(f"({a}%nat, {b}%nat)" for a, b in nb)
    return f"(nb_list [{pairs}])"


def _obligation(o: object) -> dict[str, Any]:
    if isinstance(o, RowsAreDistributions):
        return dict(kind="rows", full=o.kind == "full")
    if isinstance(o, ExpLowerBound):
        return dict(kind="exp_lower", upper=False, bound=q_lit(o.bound), method=o.method, bits=o.precision_bits,
                    taylor=o.taylor, decimal=_decimal(o.bound))
    if isinstance(o, ExpUpperBound):
        return dict(kind="exp_upper", upper=True, bound=q_lit(o.bound), method=o.method, bits=o.precision_bits,
                    taylor=o.taylor, decimal=_decimal(o.bound))
    if isinstance(o, PointwiseCheck):
        return dict(kind="pointwise", bound=q_lit(o.bound))
    if isinstance(o, HockeyStickCheck):
        return dict(kind="hockey", bound=q_lit(o.bound), delta=q_lit(o.delta))
    if isinstance(o, Witness):
        return dict(kind="witness", x=o.x, x2=o.x2, bound=q_lit(o.bound),
                    outputs="; ".join(f"{y}%nat" for y in o.outputs),
                    outputs_text=", ".join(str(y) for y in o.outputs),
                    pr_x=str(o.pr_x), pr_x2=str(o.pr_x2))
    raise InternalError(f"no rendering for obligation {o!r}")


def _check_term(main: dict[str, Any], neighbours: str, name: str) -> tuple[str, str]:
    """The boolean check of the claim, and the step from an adjacency walk to it."""
    adjacent = neighbours == "nb_adjacent"
    if main["kind"] == "pointwise":
        if adjacent:
            return f"check_pointwise_adjacent {main['bound']} {name}", "apply check_pointwise_of_adjacent.\n    "
        return f"check_pointwise {neighbours} {main['bound']} {name}", ""
    if main["kind"] == "hockey":
        if adjacent:
            return (f"check_hockey_adjacent {main['bound']} {main['delta']} {name}",
                    "apply check_hockey_of_adjacent.\n    ")
        return f"check_hockey {neighbours} {main['bound']} {main['delta']} {name}", ""
    return (f"check_witness {neighbours} {main['bound']} {main['delta_q']} {name} {main['x']}%nat "
            f"{main['x2']}%nat (in_list [{main['outputs']}])"), ""


def _decimal(q: Fraction) -> str:
    return f"{float(q):.6g}"
