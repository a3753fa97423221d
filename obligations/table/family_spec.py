"""Family specs: a formula over symbolic parameters with constraints, checked.

`parameters: {alpha: {range: "(0, 1)"}, n: {integer: ">= 1"}}` makes alpha a
rational symbol in (0, 1) and n an integer symbol ≥ 1; constants may sit beside
them.  Every problem is a SpecError naming the file and the field.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from obligations.analysis.families import Constraint
from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import ClaimsDp
from obligations.core.model import parse
from obligations.core.spec import Piece
from obligations.core.vocabulary import Distance, Number
from obligations.errors import SpecError
from obligations.table.family_form import FamilyFile, IntegerConstraint, RangeConstraint


def is_family(data: Any) -> bool:
    """A formula spec with at least one constrained (symbolic) parameter."""
    params = data.get("parameters") if isinstance(data, dict) else None
    return (isinstance(data, dict) and "formula" in data and isinstance(params, dict)
            and any(isinstance(v, dict) for v in params.values()))


@dataclass(frozen=True)
class Param:
    name: str
    type: str                             # E.INT or E.RAT
    value: Fraction | None = None      # a constant
    constraint: Constraint | None = None  # a symbol

    @property
    def symbolic(self) -> bool:
        return self.constraint is not None


@dataclass(frozen=True)
class FamilySpec(ClaimsDp):
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
    derived: Mapping[str, Any] | None = None
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
    return FamilyChecker(file, sha256, parse(FamilyFile, data, file)).run()


_INTERVAL = re.compile(r"^\s*([(\[])(.*)([)\]])\s*$", re.S)
_BOUND = re.compile(r"^\s*(>=|>)(.*)$", re.S)


class FamilyChecker(Checker):
    condition_example = "\"y == 0\""

    def __init__(self, file: str, sha256: str, f: FamilyFile) -> None:
        super().__init__(file)
        self.sha256, self.f = sha256, f

    def run(self) -> FamilySpec:
        f = self.f
        self.name(f.name)
        params = self.symbols()
        types = {p.name: p.type for p in params}
        inputs = self.range("inputs", f.inputs.range, types)
        outputs = self.range("outputs", f.outputs.range, types)
        formula = self.formula(types)
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

    def formula(self, types: Mapping[str, str]) -> tuple[Piece, ...]:
        try:
            return self.pieces(self.f.formula, types)
        except SpecError as exc:
            if "is not exact" not in exc.message:
                raise
            # the generic message lists where exp and ln are allowed, a formula's values among them
            raise self.fail(exc.field, "exp and ln are not allowed in a formula with symbolic parameters "
                            "(a family: its values are rational in the parameters); they are in a table or "
                            "formula with numeric parameters, and the expfamily kind takes a geometric or "
                            "k-ary randomized response calibrated with e^eps by its parameters "
                            "(docs/calibrated.md)") from None

    def symbols(self) -> tuple[Param, ...]:
        out: list[Param] = []
        types: dict[str, str] = {}
        values: dict[str, Fraction] = {}
        for name, given in self.f.parameters.items():
            field = f"parameters.{name}"
            self.parameter_name(field, name)
            if isinstance(given, RangeConstraint):
                p = Param(name, E.RAT, constraint=self.interval(f"{field}.range", given.range, types))
            elif isinstance(given, IntegerConstraint):
                p = Param(name, E.INT, constraint=self.lower_bound(f"{field}.integer", given.integer, types))
            else:
                e = self.expression(field, given, types)
                if E.names(e) - set(values):
                    raise self.fail(field, "a constant may use earlier constants only")
                v = self.value(field, e, values)
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
