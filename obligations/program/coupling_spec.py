"""All-k program specs: a program over a query stream of any length, with untruncated
two-sided geometric noise whose scale is given in units of 1/ε, claimed ε-DP for every
stream length k and every ε > 0 (`claim: {for_all_k: true}`).

The body uses the statements of the program kind (`sample`, `assign`, `if`, `for`,
`output`, `top`, `bot`, `stop`, `skip`) with one distribution, `geometric: {scale: s,
center: e}`: e + Z, Pr[Z = z] ∝ e^(−ε·|z|/s) (Lap(s/ε) in geometric form).  The single
input is a stream `{stream: k, sensitivity: Δ}`: its length is the universally
quantified k.  Lowering gives the program kind's IR (`kinds/program/spec.py`) with
variables in slots 0.., the stream after them (`STREAM_BASE`, `K_LENGTH` mark where the
renderer writes the stream's first slot and k).
Expressions go through `expr.parse` (an ast whitelist); nothing is evaluated.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import Dp, ForAllK
from obligations.core.model import parse
from obligations.core.vocabulary import Number
from obligations.program import spec as P
from obligations.program.spec import Assign, ForHead, Output, Strict

IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}\Z")
MAX_STATEMENTS = 200
MAX_SENSITIVITY = 64   # the search takes about 2 s at 64 (linear in it)
K_LENGTH = -1      # SFor count and AIdx length standing for the stream length k
STREAM_BASE = -2   # AIdx base standing for the stream's first slot (after the variables)


class GeometricDist(Strict):
    """center + Z with Pr[Z = z] ∝ e^(−ε·|z|/scale): Lap(scale/ε) in geometric form."""

    scale: Number = Field(description="positive rational s: the noise is Lap(s/ε) in geometric form")
    center: str


class CouplingDistribution(Strict):
    geometric: GeometricDist


class CSampleBody(Strict):
    var: str
    from_: CouplingDistribution = Field(alias="from")


class CSample(Strict):
    sample: CSampleBody


class CIf(Strict):
    if_: str = Field(alias="if", description="condition")
    then: list[CStatement] = Field(default_factory=list)
    else_: list[CStatement] = Field(default_factory=list, alias="else")


class CFor(Strict):
    for_: ForHead = Field(alias="for")
    do: list[CStatement]


CStatement = Literal["top", "bot", "stop", "skip"] | CSample | Assign | CIf | CFor | Output
CIf.model_rebuild()
CFor.model_rebuild()


class StreamInput(Strict):
    """The query stream: its length is k, for every k; neighbours differ by at most Δ per entry."""

    stream: Literal["k"] = Field(description="always k: the claim is for every stream length")
    sensitivity: Number


class CouplingProgram(Strict):
    inputs: dict[str, StreamInput] = Field(min_length=1, max_length=1)
    body: list[CStatement] = Field(min_length=1)


class AllKClaim(Strict):
    """ε-DP (δ = 0) for every stream length k and every ε > 0; the noise scales are in units of 1/ε."""

    for_all_k: Literal[True]


class CouplingSpecModel(Strict):
    """A program over a stream of any length, claimed ε-DP for all k and all ε by alignment."""

    schema_version: Literal[1]
    name: str
    description: str = ""
    parameters: dict[str, Number] = Field(default_factory=dict)
    program: CouplingProgram
    claim: AllKClaim
    fallback: str | None = Field(default=None, description=(
        "a finite program spec (path relative to this file) the tool enumerates at small k "
        "when no alignment is found"))


def is_all_k(data: Any) -> bool:
    claim = data.get("claim") if isinstance(data, dict) else None
    return isinstance(data, dict) and "program" in data and isinstance(claim, dict) and "for_all_k" in claim


# ---------------------------------------------------------------- the checked spec


@dataclass(frozen=True)
class DGeom:
    """The IR of `geometric`: scale num/den, at `center`."""

    num: int
    den: int
    center: P.AExp


@dataclass(frozen=True)
class CouplingSpec:
    """A checked all-k spec.  Attribute names shared with MechanismSpec are those the
    pipeline and certificates read (path, sha256, name, claim texts, neighbours)."""

    path: str
    sha256: str
    name: str
    description: str
    stream: str
    delta_q: int                         # Δ, the sensitivity of each stream entry
    body: tuple[P.Stmt, ...]
    slot_names: tuple[str, ...]          # the variables, in slot order
    params: Mapping[str, Fraction]
    fallback: str | None              # the fallback spec's path, resolved
    epsilon_text: str = "every eps > 0, every stream length k"
    delta: Fraction = Fraction(0)
    delta_text: str = "0"
    derived: Mapping[str, Any] | None = None
    profile_compose: tuple[int, ...] = ()
    profile_epsilons: tuple[str, ...] = ()
    kind: str = "coupling"

    @property
    def neighbours(self) -> str:
        return f"|{self.stream}_i - {self.stream}'_i| <= {self.delta_q} for every i"

    @property
    def claim(self) -> ForAllK:
        return ForAllK(Dp(self.epsilon_text, self.delta_text, self.neighbours))

    @property
    def nvars(self) -> int:
        return len(self.slot_names)


def check(data: Mapping[str, Any], file: str, sha256: str) -> CouplingSpec:
    model = parse(CouplingSpecModel, data, file)
    return _Lower(model, file).spec(sha256)


class _Lower(Checker):
    """Names, types and the lowering to the IR; every error names the field."""

    def __init__(self, model: CouplingSpecModel, file: str) -> None:
        super().__init__(file)
        self.model = model
        self.params: dict[str, Fraction] = {}
        self.slots: list[str] = []
        self.count = 0
        (self.stream, comp), = model.program.inputs.items()
        self.comp = comp

    def ident(self, field_: str, name: str) -> None:
        if not IDENT.match(name) or name in E.FUNCTIONS or name in ("True", "False", "k") \
                or __import__("keyword").iskeyword(name):
            raise self.fail(field_, f"{name!r}: a name starts with a letter and has only letters, digits "
                            "and '_' (not a keyword, a function name or k)")

    def spec(self, sha256: str) -> CouplingSpec:
        m = self.model
        for name, text in m.parameters.items():
            self.ident(f"parameters.{name}", name)
            self.params[name] = self.const(f"parameters.{name}", text)
        self.ident(f"program.inputs.{self.stream}", self.stream)
        if self.stream in self.params:
            raise self.fail(f"program.inputs.{self.stream}", f"{self.stream!r} is also a parameter")
        delta = self.const(f"program.inputs.{self.stream}.sensitivity", self.comp.sensitivity)
        if delta.denominator != 1 or delta < 0:
            raise self.fail(f"program.inputs.{self.stream}.sensitivity", f"{delta}: a non-negative integer")
        if delta > MAX_SENSITIVITY:   # the alignment search runs over every shift up to it
            raise self.fail(f"program.inputs.{self.stream}.sensitivity",
                            f"{delta}: at most {MAX_SENSITIVITY} (the alignment search tries every difference "
                            "up to the sensitivity; scale the queries instead)")
        body = self.block("program.body", m.program.body, depth=0)
        fallback = None
        if m.fallback is not None:
            fb = Path(self.file).parent / m.fallback
            if not fb.is_file():
                raise self.fail("fallback", f"{m.fallback}: no such file (a path relative to the spec)")
            fallback = str(fb)
        return CouplingSpec(self.file, sha256, m.name, m.description, self.stream, int(delta), body,
                            tuple(self.slots), dict(self.params), fallback)

    def const(self, field_: str, text: Any) -> Fraction:
        try:
            e = E.parse(text)
            return Fraction(E.compile_exact(e)(dict(self.params)))
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None
        except KeyError as exc:
            raise self.fail(field_, f"{exc.args[0]!r} is not a parameter") from None

    def slot(self, field_: str, name: str, *, write: bool) -> int:
        self.ident(field_, name)
        if name in self.params:
            raise self.fail(field_, f"{name!r} is a parameter, not a variable")
        if name == self.stream:
            raise self.fail(field_, f"{name!r} is the stream: read it with "
                            f"`for: {{var: i, in: {name}, value: a}}`")
        if name not in self.slots:
            if not write:
                raise self.fail(field_, f"{name!r} is not defined")
            self.slots.append(name)
        return self.slots.index(name)

    def block(self, field_: str, stmts: list[Any], depth: int) -> tuple[P.Stmt, ...]:
        return tuple(self.stmt(f"{field_}[{i}]", s, depth) for i, s in enumerate(stmts))

    def stmt(self, field_: str, s: Any, depth: int) -> P.Stmt:
        self.count += 1
        if self.count > MAX_STATEMENTS:
            raise self.fail(field_, f"more than {MAX_STATEMENTS} statements")
        if isinstance(s, str):
            return P.SSimple(s)
        if isinstance(s, CSample):
            g = s.sample.from_.geometric
            scale = self.const(f"{field_}.sample.from.geometric.scale", g.scale)
            if scale <= 0:
                raise self.fail(f"{field_}.sample.from.geometric.scale", f"{scale}: the scale must be positive")
            center = self.aexp(f"{field_}.sample.from.geometric.center", g.center)
            x = self.slot(f"{field_}.sample.var", s.sample.var, write=True)
            return P.SSample(x, DGeom(scale.numerator, scale.denominator, center))  # type: ignore[arg-type]
        if isinstance(s, Assign):
            a = self.aexp(f"{field_}.assign.value", s.assign.value)
            return P.SAssign(self.slot(f"{field_}.assign.var", s.assign.var, write=True), a)
        if isinstance(s, CIf):
            b = self.bexp(f"{field_}.if", s.if_)
            return P.SIf(b, self.block(f"{field_}.then", s.then, depth), self.block(f"{field_}.else", s.else_, depth))
        if isinstance(s, CFor):
            return self.loop(field_, s, depth)
        if isinstance(s, Output):
            return P.SOut(self.aexp(f"{field_}.output", s.output))
        raise self.fail(field_, f"unknown statement {s!r}")

    def loop(self, field_: str, s: CFor, depth: int) -> P.Stmt:
        head = s.for_
        if head.in_ != self.stream or head.value is None:
            raise self.fail(f"{field_}.for", f"a loop runs over the stream: `for: {{var: i, in: {self.stream}, "
                            "value: a}` (a loop whose bound is not the stream length is outside the fragment)")
        if depth > 0:
            raise self.fail(f"{field_}.for", "nested loops are outside the fragment the alignment covers")
        i = self.slot(f"{field_}.for.var", head.var, write=True)
        v = self.slot(f"{field_}.for.value", head.value, write=True)
        pre = P.SAssign(v, P.AIdx(STREAM_BASE, K_LENGTH, P.AVar(i)))
        return P.SFor(i, K_LENGTH, (pre, *self.block(f"{field_}.do", s.do, depth + 1)))

    def expr(self, field_: str, text: Any, want: str) -> E.Expr:
        types = {n: (E.INT if v.denominator == 1 else E.RAT) for n, v in self.params.items()}
        types.update({n: E.INT for n in self.slots})
        e, t = self.typed(field_, text, types, allow_real=False)
        if t != want:
            raise self.fail(field_, "expected a condition" if want == E.BOOL else
                            "expected an integer expression (+ - * min max abs, no division)")
        return e

    def aexp(self, field_: str, text: Any) -> P.AExp:
        try:
            return self.lower_a(self.expr(field_, text, E.INT))
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None

    def bexp(self, field_: str, text: Any) -> P.BExp:
        try:
            return self.lower_b(self.expr(field_, text, E.BOOL))
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None

    def lower_a(self, e: E.Expr) -> P.AExp:
        if isinstance(e, E.Num):
            if e.value.denominator != 1:
                raise E.ExprError(f"{e.value}: program values are integers")
            return P.AConst(int(e.value))
        if isinstance(e, E.Var):
            if e.name in self.params:
                v = self.params[e.name]
                if v.denominator != 1:
                    raise E.ExprError(f"parameter {e.name} = {v} is not an integer")
                return P.AConst(int(v))
            return P.AVar(self.slots.index(e.name))
        if isinstance(e, E.Neg):
            return P.ABin("sub", P.AConst(0), self.lower_a(e.operand))
        if isinstance(e, E.BinOp) and e.op in ("+", "-", "*"):
            return P.ABin({"+": "add", "-": "sub", "*": "mul"}[e.op], self.lower_a(e.left), self.lower_a(e.right))
        if isinstance(e, E.Call) and e.fn in ("min", "max"):
            return P.ABin(e.fn, self.lower_a(e.args[0]), self.lower_a(e.args[1]))
        if isinstance(e, E.Call) and e.fn == "abs":
            return P.AAbs(self.lower_a(e.args[0]))
        raise E.ExprError(f"{E.to_text(e)}: outside the program language (+ - * min max abs on integers; "
                          "no division)")

    def lower_b(self, e: E.Expr) -> P.BExp:
        if isinstance(e, E.BoolConst):
            return P.BConst(e.value)
        if isinstance(e, E.Not):
            return P.BNot(self.lower_b(e.operand))
        if isinstance(e, E.BoolOp):
            parts = [self.lower_b(v) for v in e.values]
            out = parts[-1]
            for p in reversed(parts[:-1]):
                out = P.BBin(e.op, p, out)
            return out
        if isinstance(e, E.Compare):
            a, b = self.lower_a(e.left), self.lower_a(e.right)
            table: dict[str, P.BExp] = {"<": P.BCmp("lt", a, b), "<=": P.BCmp("le", a, b),
                                        "==": P.BCmp("eq", a, b), ">": P.BCmp("lt", b, a),
                                        ">=": P.BCmp("le", b, a), "!=": P.BNot(P.BCmp("eq", a, b))}
            return table[e.op]
        raise E.ExprError(f"{E.to_text(e)} is not a condition")
