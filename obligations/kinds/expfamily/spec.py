"""A mechanism calibrated with e^eps named by its family's parameters, checked into an
`ExpFamilySpec`: the calibration and the claim are exact reals parsed by the whitelist of
`core/expr.py` (nothing from the file reaches `sympify`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Optional

import sympy
from pydantic import ValidationError

from obligations.core import expr as E
from obligations.core.names import spec_name_problem
from obligations.core.spec import check_epsilon, validation_error
from obligations.errors import SpecError
from obligations.kinds.expfamily.form import ExpFamilySpec as Form
from obligations.kinds.finite.form import Number

DIGITS = 60


@dataclass(frozen=True)
class ExpFamilySpec:
    """The truncated geometric over {0..n} with alpha = e^(-eps), and a pure-DP claim."""

    path: str
    sha256: str
    name: str
    description: str
    family: str                      # "geometric"
    calibration: E.Expr              # eps of alpha = e^(-eps)
    calibration_text: str
    calibration_value: sympy.Expr
    n: int
    distance: int                    # neighbours: |x - x'| <= distance (adjacent: 1)
    neighbours: str                  # as the other kinds record it: "adjacent" or "distance:d"
    epsilon: E.Expr
    epsilon_text: str
    epsilon_value: sympy.Expr
    delta: Fraction
    delta_text: str
    kind: str = "expfamily"
    derived: Optional[Mapping[str, Any]] = None
    parameters: Mapping[str, Fraction] = field(default_factory=dict)   # none: the family's are its own fields
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()


def claims(data: Mapping[str, Any]) -> bool:
    return "geometric" in data


def _real(file: str, field: str, text: Number) -> tuple[E.Expr, sympy.Expr]:
    try:
        e = E.parse(text)
        t = E.typecheck(e, {}, allow_real=True)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    if t == E.BOOL:
        raise SpecError(file, field, "expected a number, got a condition")
    bad = _unsupported(e)
    if bad:
        raise SpecError(file, field, f"{bad} is not supported here: rationals, + - * /, integer powers, "
                        "exp and ln")
    try:
        return e, E.to_sympy(e, {})
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None


def _unsupported(e: E.Expr) -> str:
    if isinstance(e, E.Call) and e.fn not in ("exp", "ln"):
        return f"{e.fn}(...)"
    if isinstance(e, E.Cond):
        return "'a if cond else b'"
    return next((u for u in (_unsupported(c) for c in E.children(e)) if u), "")


def check(data: Any, file: str, sha256: str = "") -> ExpFamilySpec:
    try:
        form = Form.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, Form) from None
    problem = spec_name_problem(form.name)
    if problem:
        raise SpecError(file, "name", problem)
    g = form.geometric
    cal, cal_value = _real(file, "geometric.epsilon", g.epsilon)
    check_epsilon(file, "geometric.epsilon", cal, {})
    if sympy.N(cal_value, DIGITS) <= 0:
        raise SpecError(file, "geometric.epsilon", f"epsilon = {cal_value} must be positive: "
                        "alpha = exp(-epsilon) < 1")
    eps, eps_value = _real(file, "claim.epsilon", form.claim.epsilon)
    check_epsilon(file, "claim.epsilon", eps, {})
    _, delta = _real(file, "claim.delta", form.claim.delta)
    if delta != 0:
        raise SpecError(file, "claim.delta", "the geometric calibrated with e^eps is checked for pure DP "
                        "(delta 0) only: its proof is a pointwise bound M(x)(y) <= e^eps M(x')(y)")
    distance = 1 if isinstance(form.neighbours, str) else form.neighbours.distance
    return ExpFamilySpec(
        path=file, sha256=sha256, name=form.name, description=form.description, family="geometric",
        calibration=cal, calibration_text=str(g.epsilon), calibration_value=cal_value, n=g.n,
        distance=distance, neighbours="adjacent" if isinstance(form.neighbours, str) else f"distance:{distance}",
        epsilon=eps, epsilon_text=str(form.claim.epsilon), epsilon_value=eps_value,
        delta=Fraction(0), delta_text=str(form.claim.delta))
