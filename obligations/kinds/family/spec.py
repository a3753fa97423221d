"""Family specs: a formula over symbolic parameters with constraints, checked.

`parameters: {alpha: {range: "(0, 1)"}, n: {integer: ">= 1"}}` makes alpha a
rational symbol in (0, 1) and n an integer symbol ≥ 1; constants may sit beside
them.  Every problem is a SpecError naming the file and the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Optional

from pydantic import ValidationError

from obligations.analysis.families import Constraint
from obligations.core import expr as E
from obligations.core.names import coq_name_problem, spec_name_problem
from obligations.core.spec import INDEX_VARS, Piece, validation_error
from obligations.errors import SpecError
from obligations.kinds.finite.form import Distance, Number, Otherwise
from obligations.kinds.family.form import FamilyFile, IntegerConstraint, RangeConstraint


def is_family(data: Any) -> bool:
    """A formula spec with at least one constrained (symbolic) parameter."""
    params = data.get("parameters") if isinstance(data, dict) else None
    return (isinstance(data, dict) and "formula" in data and isinstance(params, dict)
            and any(isinstance(v, dict) for v in params.values()))


@dataclass(frozen=True)
class Param:
    name: str
    type: str                             # E.INT or E.RAT
    value: Optional[Fraction] = None      # a constant
    constraint: Optional[Constraint] = None  # a symbol

    @property
    def symbolic(self) -> bool:
        return self.constraint is not None


@dataclass(frozen=True)
class FamilySpec:
    path: str
    sha256: str
    name: str
    description: str
    params: tuple[Param, ...]
    inputs: tuple[E.Expr, E.Expr]
    outputs: tuple[E.Expr, E.Expr]
    formula: tuple[Piece, ...]
    distribution: str
    neighbours: str
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    derived: Optional[Mapping[str, Any]] = None
    profile_compose: tuple[int, ...] = ()
    kind: str = "family"

    @property
    def types(self) -> dict[str, str]:
        return {p.name: p.type for p in self.params}

    @property
    def constants(self) -> dict[str, Fraction]:
        return {p.name: p.value for p in self.params if p.value is not None}

    @property
    def symbols(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.symbolic)


def check(data: Any, file: str, sha256: str) -> FamilySpec:
    try:
        f = FamilyFile.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, FamilyFile) from None
    return _Checker(file, sha256, f).run()


_INTERVAL = re.compile(r"^\s*([(\[])(.*)([)\]])\s*$", re.S)
_BOUND = re.compile(r"^\s*(>=|>)(.*)$", re.S)


class _Checker:
    def __init__(self, file: str, sha256: str, f: FamilyFile) -> None:
        self.file, self.sha256, self.f = file, sha256, f

    def fail(self, field: str, message: str) -> SpecError:
        return SpecError(self.file, field, message)

    def expression(self, field: str, text: Number, types: Mapping[str, str], *,
                   allow_real: bool = False, want: Optional[str] = None) -> E.Expr:
        try:
            e = E.parse(text)
            t = E.typecheck(e, types, allow_real=allow_real)
        except E.ExprError as exc:
            raise self.fail(field, str(exc)) from None
        if want == E.BOOL and t != E.BOOL:
            raise self.fail(field, "expected a condition, e.g. \"y == 0\"")
        if want != E.BOOL and t == E.BOOL:
            raise self.fail(field, "expected a number, got a condition")
        if want == E.INT and t != E.INT:
            raise self.fail(field, "expected an integer expression")
        return e

    def run(self) -> FamilySpec:
        f = self.f
        problem = spec_name_problem(f.name)
        if problem:
            raise self.fail("name", problem)
        params = self.parameters()
        types = {p.name: p.type for p in params}
        inputs = self.range("inputs", f.inputs.range, types)
        outputs = self.range("outputs", f.outputs.range, types)
        formula = self.formula(dict(types, x=E.INT, y=E.INT))
        eps = self.expression("claim.epsilon", f.claim.epsilon, types, allow_real=True)
        delta_e = self.expression("claim.delta", f.claim.delta, {})
        delta = Fraction(E.compile_exact(delta_e)({}))
        if delta != 0:
            raise self.fail("claim.delta", "a family's claim is pure DP (delta: 0): the library "
                            "theorems are pointwise bounds on the privacy loss")
        return FamilySpec(
            path=self.file, sha256=self.sha256, name=f.name, description=f.description,
            params=params, inputs=inputs, outputs=outputs, formula=formula,
            distribution=f.distribution,
            neighbours=f"distance:{f.neighbours.distance}" if isinstance(f.neighbours, Distance) else f.neighbours,
            epsilon=eps,
            epsilon_text=str(f.claim.epsilon), delta=delta, delta_text=str(f.claim.delta))

    def parameters(self) -> tuple[Param, ...]:
        out: list[Param] = []
        types: dict[str, str] = {}
        values: dict[str, Fraction] = {}
        for name, given in self.f.parameters.items():
            field = f"parameters.{name}"
            problem = coq_name_problem(name)
            if problem or name in INDEX_VARS or name in E.FUNCTIONS or name in E.FUNCTION_SYNONYMS:
                raise self.fail(field, problem or f"{name!r} is reserved (x and y are the row and "
                                "column values; ln, exp, abs, min, max are functions)")
            if isinstance(given, RangeConstraint):
                p = Param(name, E.RAT, constraint=self.interval(f"{field}.range", given.range, types))
            elif isinstance(given, IntegerConstraint):
                p = Param(name, E.INT, constraint=self.lower_bound(f"{field}.integer", given.integer, types))
            else:
                e = self.expression(field, given, types)
                if E.names(e) - set(values):
                    raise self.fail(field, "a constant may use earlier constants only")
                try:
                    v = Fraction(E.compile_exact(e)(values))
                except E.ExprError as exc:
                    raise self.fail(field, str(exc)) from None
                values[name] = v
                p = Param(name, E.INT if v.denominator == 1 else E.RAT, value=v)
            types[name] = p.type
            out.append(p)
        if not any(p.symbolic for p in out):
            raise self.fail("parameters", "no parameter is symbolic")
        return tuple(out)

    def interval(self, field: str, text: str, types: Mapping[str, str]) -> Constraint:
        m = _INTERVAL.match(text)
        parts = _split_top(m.group(2)) if m else []
        if not m or len(parts) != 2:
            raise self.fail(field, f"{text!r} is not an interval: write \"(0, 1)\", \"(0, 1/2]\" or \"[1/k, 1)\"")
        lo = self.expression(field, parts[0], types)
        hi = self.expression(field, parts[1], types)
        return Constraint("range", lo, hi, m.group(1) == "(", m.group(3) == ")")

    def lower_bound(self, field: str, text: str, types: Mapping[str, str]) -> Constraint:
        m = _BOUND.match(text)
        if not m:
            raise self.fail(field, f"{text!r} is not a bound: write \">= 1\" or \"> 0\"")
        lo = self.expression(field, m.group(2), types, want=E.INT)
        if m.group(1) == ">":
            lo = E.BinOp("+", lo, E.Num(Fraction(1)))
        return Constraint("integer", lo)

    def range(self, field: str, bounds: tuple[Number, Number], types: Mapping[str, str]) -> tuple[E.Expr, E.Expr]:
        return (self.expression(f"{field}.range[0]", bounds[0], types, want=E.INT),
                self.expression(f"{field}.range[1]", bounds[1], types, want=E.INT))

    def formula(self, env: Mapping[str, str]) -> tuple[Piece, ...]:
        f = self.f.formula
        if isinstance(f, str):
            return (Piece(None, self.expression("formula", f, env), "formula"),)
        pieces = []
        for k, case in enumerate(f.cases):
            field = f"formula.cases[{k}]"
            if isinstance(case, Otherwise):
                pieces.append(Piece(None, self.expression(f"{field}.otherwise", case.otherwise, env), field))
            else:
                pieces.append(Piece(self.expression(f"{field}.when", case.when, env, want=E.BOOL),
                                    self.expression(f"{field}.value", case.value, env), field))
        return tuple(pieces)


def _split_top(text: str) -> list[str]:
    """Split at commas outside parentheses: "min(a, b), 1" -> ["min(a, b)", "1"]."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]
