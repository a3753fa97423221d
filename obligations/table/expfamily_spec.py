"""A mechanism calibrated with e^eps named by its family's parameters, checked into an
`ExpFamilySpec`: the calibration and the claim are exact reals parsed by the whitelist of
`core/expr.py` (nothing from the file reaches `sympify`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import ClaimsDp
from obligations.core.model import parse
from obligations.core.spec import Domain, check_epsilon
from obligations.core.vocabulary import Number
from obligations.errors import SpecError
from obligations.table.calibrated_formula import unsupported
from obligations.table.expfamily_form import ExpFamilySpec as Form
from obligations.table.spec import DomainChecker

DIGITS = 60


@dataclass(frozen=True)
class ExpFamilySpec(ClaimsDp):
    """A family calibrated with e^eps at the spec's parameters, and a pure-DP claim: the
    truncated geometric over {0..n} with alpha = e^(-eps) (`family == "geometric"`), or the
    exponential mechanism with weights e^(c * score) over a score table ("exponential")."""

    path: str
    sha256: str
    name: str
    description: str
    family: str                      # "geometric" or "exponential"
    calibration: E.Expr              # geometric: eps of alpha = e^(-eps); exponential: c
    calibration_text: str
    calibration_value: sympy.Expr
    n: int                           # geometric: outputs 0..n; exponential: unused (0)
    distance: int                    # geometric: neighbours |x - x'| <= distance (adjacent: 1)
    # As the other kinds record it: "all", "adjacent", "distance:d", or index pairs.
    neighbours: str | tuple[tuple[int, int], ...]
    epsilon: E.Expr
    epsilon_text: str
    epsilon_value: sympy.Expr
    delta: Fraction
    delta_text: str
    kind: str = "expfamily"
    derived: Mapping[str, Any] | None = None
    parameters: Mapping[str, Fraction] = field(default_factory=dict)   # none: the family's are its own fields
    inputs: Domain = Domain(())      # exponential: its inputs and outputs
    outputs: Domain = Domain(())
    scores: tuple[tuple[Fraction, ...], ...] = ()
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()


MAX_SCORES = 10_000   # the scores are checked by computation, once


def claims(data: Mapping[str, Any]) -> bool:
    return "geometric" in data or "exponential" in data


def _real(file: str, field: str, text: Number) -> tuple[E.Expr, sympy.Expr]:
    try:
        e = E.parse(text)
        t = E.typecheck(e, {}, allow_real=True)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    if t == E.BOOL:
        raise SpecError(file, field, "expected a number, got a condition")
    bad = unsupported(e)
    if bad:
        raise SpecError(file, field, f"{bad} is not supported here: rationals, + - * /, integer powers, "
                        "exp and ln")
    try:
        return e, E.to_sympy(e, {})
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None


def check(data: Any, file: str, sha256: str = "") -> ExpFamilySpec:
    form = parse(Form, data, file)
    Checker(file).name(form.name)
    eps, eps_value = _real(file, "claim.epsilon", form.claim.epsilon)
    check_epsilon(file, "claim.epsilon", eps, {})
    _, delta = _real(file, "claim.delta", form.claim.delta)
    if delta != 0:
        raise SpecError(file, "claim.delta", "a mechanism calibrated with e^eps is checked for pure DP "
                        "(delta 0) only: its proof is a pointwise bound M(x)(y) <= e^eps M(x')(y)")
    claim = dict(epsilon=eps, epsilon_text=str(form.claim.epsilon), epsilon_value=eps_value,
                 delta=Fraction(0), delta_text=str(form.claim.delta))
    if form.exponential is not None:
        return _exponential(form, file, sha256, claim)
    g = form.geometric
    assert g is not None
    cal, cal_value = _real(file, "geometric.epsilon", g.epsilon)
    check_epsilon(file, "geometric.epsilon", cal, {})
    if sympy.N(cal_value, DIGITS) <= 0:
        raise SpecError(file, "geometric.epsilon", f"epsilon = {cal_value} must be positive: "
                        "alpha = exp(-epsilon) < 1")
    if form.neighbours not in ("adjacent",) and not hasattr(form.neighbours, "distance"):
        raise SpecError(file, "neighbours", "the geometric takes neighbours: adjacent or {distance: d}")
    distance = 1 if isinstance(form.neighbours, str) else form.neighbours.distance
    return ExpFamilySpec(
        path=file, sha256=sha256, name=form.name, description=form.description, family="geometric",
        calibration=cal, calibration_text=str(g.epsilon), calibration_value=cal_value, n=g.n,
        distance=distance, neighbours="adjacent" if isinstance(form.neighbours, str) else f"distance:{distance}",
        **claim)


def _exponential(form: Form, file: str, sha256: str, claim: dict[str, Any]) -> ExpFamilySpec:
    x = form.exponential
    assert x is not None
    cal, cal_value = _real(file, "exponential.coefficient", x.coefficient)
    n = sympy.N(cal_value, DIGITS)
    if not n.is_real or n < 0:
        raise SpecError(file, "exponential.coefficient", f"the coefficient {cal_value} must be a real >= 0")
    # The table form's checks of inputs, outputs, rows and neighbours (labels, ranges, pairs).
    c = DomainChecker(file)
    inputs = c.domain("inputs", form.inputs, {}, {})
    outputs = c.domain("outputs", form.outputs, {}, {})
    if inputs.size * outputs.size > MAX_SCORES:
        raise SpecError(file, "outputs", f"{inputs.size} inputs x {outputs.size} outputs: at most {MAX_SCORES} scores")
    rows = []
    for label, row in c.rows("exponential.scores", x.scores, inputs, outputs, "scores"):
        values = []
        for j, text in enumerate(row):
            field_name = f"exponential.scores.{label}[{j}]"
            e = c.expression(field_name, text, {})
            values.append(c.value(field_name, e, {}))
        rows.append(tuple(values))
    return ExpFamilySpec(
        path=file, sha256=sha256, name=form.name, description=form.description, family="exponential",
        calibration=cal, calibration_text=str(x.coefficient), calibration_value=cal_value, n=0, distance=0,
        neighbours=c.neighbours(form.neighbours, inputs), inputs=inputs, outputs=outputs, scores=tuple(rows), **claim)
