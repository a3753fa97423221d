"""Coq terms of a finite mechanism's spec (`MechanismSpec`), shared by the models whose
mechanism is a finite table (the table model, programs, floating-point pipelines): its
parameters, domains, formula and neighbour relation, and the obligations of a finite plan
as a template reads them."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from obligations.core import expr as E
from obligations.core.obligation import (
    ExpLowerBound,
    ExpUpperBound,
    HockeyStickCheck,
    PointwiseCheck,
    RowsAreDistributions,
    Witness,
)
from obligations.core.spec import Domain, MechanismSpec, neighbour_distance, neighbour_removed
from obligations.core.terms import Renderer, comment, q_lit, z_lit
from obligations.errors import InternalError


def renderer(spec: MechanismSpec) -> Renderer:
    coq_names = {p: f"p_{p}" for p in spec.parameters}
    coq_names.update(x="x", y="y")
    types = dict(spec.parameter_types, x=E.INT, y=E.INT)
    return Renderer(types, coq_names, spec.parameters)


def domain_text(d: Domain) -> str:
    if d.values is not None:
        return f"the values {d.values[0]}..{d.values[-1]} (index i is the value {d.values[0]} + i)"
    return labels_text(d.labels)


def labels_text(labels: tuple[str, ...]) -> str:
    shown = [f"{i} = {comment(lab)}" for i, lab in enumerate(labels[:20])]
    if len(labels) > 20:
        shown.append(f"... {len(labels) - 1} = {comment(labels[-1])}")
    return ", ".join(shown)


def parameters(spec: MechanismSpec) -> list[dict[str, str]]:
    out = []
    for p, v in spec.parameters.items():
        if spec.parameter_types[p] == E.INT:
            out.append(dict(name=f"p_{p}", type="Z", value=f"{z_lit(int(v))}%Z", text=comment(p)))
        else:
            out.append(dict(name=f"p_{p}", type="Q", value=q_lit(v), text=comment(p)))
    return out


def formula(spec: MechanismSpec, r: Renderer) -> dict[str, Any]:
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
    if (e := neighbour_removed(nb)) is not None:
        return f"(nb_remove {e})"
    # The prelude opens Q_scope: a bare numeral would be a Q, but nb_list takes nat pairs.
    pairs = "; ".join(f"({a}%nat, {b}%nat)" for a, b in nb)
    return f"(nb_list [{pairs}])"


def obligation(o: object) -> dict[str, Any]:
    if isinstance(o, RowsAreDistributions):
        return dict(kind="rows", full=o.kind == "full")
    if isinstance(o, ExpLowerBound):
        return dict(kind="exp_lower", upper=False, bound=q_lit(o.bound), method=o.method, bits=o.precision_bits,
                    taylor=o.taylor, decimal=decimal(o.bound))
    if isinstance(o, ExpUpperBound):
        return dict(kind="exp_upper", upper=True, bound=q_lit(o.bound), method=o.method, bits=o.precision_bits,
                    taylor=o.taylor, decimal=decimal(o.bound))
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


def check_term(main: dict[str, Any], neighbours: str, name: str) -> tuple[str, str]:
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


def decimal(q: Fraction) -> str:
    return f"{float(q):.6g}"
