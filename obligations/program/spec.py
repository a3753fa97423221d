"""Program specs (issue 4): a mechanism written as a small probabilistic program.

A spec with a `program:` section describes its inputs (finite integer
components, each with a sensitivity or public), its parameters and a body of
statements; the tool enumerates the inputs, computes the exact distribution of
output sequences (`obligations.program.analysis`) and renders the program as a
term of the deep embedding `theories/Program/ProgramSyntax.v`, whose semantics Coq
computes itself.

This module checks the spec (pydantic for the shape, then names, types and the
caps below) and lowers the body to the IR, a mirror of the Coq syntax: variables
are slots (inputs first), expressions are integer-valued, distributions are the
named finite ones.  Expressions go through `expr.parse` (an ast whitelist): no
user string is ever evaluated.  Everything here is static: a program that
breaks a cap is refused before any input is enumerated.
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictBool

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.model import parse
from obligations.core.names import spec_name_problem
from obligations.core.spec import Domain, MechanismSpec
from obligations.core.vocabulary import Aliased, Claim, Number
from obligations.errors import SpecError

# ---------------------------------------------------------------- caps (see docs/programs.md, "Limits")

MAX_INPUT_VECTORS = 10_000   # inputs the mechanism is tabulated on
MAX_COMPONENT = 1000         # values of one input component, or one distribution's support
MAX_STREAM = 32              # length of a stream input
MAX_LOOP = 64                # iterations of one `for`
MAX_UNROLLED = 20_000        # statements executed along one path, loops unrolled
MAX_SLOTS = 256              # variables, stream elements included
MAX_PATH_BOUND = 10 ** 12    # inputs x product of the supports sampled along a path
MAX_TABLE_ENTRIES = 100_000  # entries of one sampling table
STATEMENT_KINDS = ("sample", "assign", "if", "for", "output", "top", "bot", "stop", "skip")
IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}\Z")  # \Z: `$` would accept "k\n"


# ---------------------------------------------------------------- the spec's shape


Strict = Aliased   # fields given by their alias: `if`, `else`, `for`, `in`, `from`


class InputComponent(Strict):
    """One component of the input: a value, or a stream of `stream` values, in `range`."""

    range: tuple[Number, Number] = Field(description="[lo, hi], inclusive; parameters allowed")
    stream: Number | None = Field(default=None, description="length k of a stream of query answers")
    sensitivity: Number | None = Field(
        default=None, description="neighbours differ by at most this much (in each stream element)")
    public: StrictBool = Field(default=False, description="neighbours have the same value")


class TableDist(Strict):
    """Row `key - key_lo` of `rows`; entry j is the probability of `values[0] + j`."""

    key: str = Field(description="integer expression selecting the row")
    key_range: tuple[Number, Number] = Field(description="[lo, hi] of the key: one row each")
    values: tuple[Number, Number] = Field(description="[lo, hi] of the sampled values: one entry each")
    rows: list[list[Number]]


class TGeomDist(Strict):
    """The truncated α-geometric mechanism over `range` at `center` (seed 002)."""

    alpha: Number
    center: str
    range: tuple[Number, Number]


class TwoSidedDist(Strict):
    """Noise z in `range` with Pr[z] proportional to α^|z|."""

    alpha: Number
    range: tuple[Number, Number]


class BernoulliDist(Strict):
    p: Number


class UniformDist(Strict):
    range: tuple[Number, Number]


class Distribution(Strict):
    table: TableDist | None = None
    tgeom: TGeomDist | None = None
    two_sided: TwoSidedDist | None = None
    bernoulli: BernoulliDist | None = None
    uniform: UniformDist | None = None


class SampleBody(Strict):
    var: str
    from_: Distribution = Field(alias="from")


class Sample(Strict):
    sample: SampleBody


class AssignBody(Strict):
    var: str
    value: Number


class Assign(Strict):
    assign: AssignBody


class If(Strict):
    if_: str = Field(alias="if", description="condition")
    then: list[Statement] = Field(default_factory=list)
    else_: list[Statement] = Field(default_factory=list, alias="else")


class ForHead(Strict):
    var: str = Field(description="the index, 0 .. n-1")
    in_: Number = Field(alias="in", description="a stream input's name, or a constant count")
    value: str | None = Field(default=None, description="with a stream: the variable set to its i-th element")


class For(Strict):
    for_: ForHead = Field(alias="for")
    do: list[Statement]


class Output(Strict):
    output: Number = Field(description="integer expression released as the next output")


Statement = Literal["top", "bot", "stop", "skip"] | Sample | Assign | If | For | Output
If.model_rebuild()
For.model_rebuild()


class ProgramBody(Strict):
    inputs: dict[str, InputComponent] = Field(min_length=1)
    body: list[Statement] = Field(min_length=1)


class SweepPoint(Strict):
    """One value of the swept parameters, and the claim for it."""

    model_config = ConfigDict(extra="allow", frozen=True)
    epsilon: Number | None = None
    delta: Number | None = None


class ProgramSpecModel(Strict):
    """A mechanism given as a program, and a differential-privacy claim about it."""

    schema_version: Literal[1]
    name: str
    description: str = ""
    parameters: dict[str, Number] = Field(default_factory=dict)
    program: ProgramBody
    claim: Claim | None = None
    sweep: list[SweepPoint] = Field(default_factory=list, description=(
        "one claim per point: parameter values (e.g. k: 2) and epsilon/delta; the name gets _k2"))


# ---------------------------------------------------------------- the IR (mirrors ProgramSyntax.v)


@dataclass(frozen=True)
class AConst:
    z: int


@dataclass(frozen=True)
class AVar:
    x: int


@dataclass(frozen=True)
class AIdx:
    base: int
    length: int
    i: AExp


@dataclass(frozen=True)
class ABin:
    op: str  # add sub mul min max
    a: AExp
    b: AExp


@dataclass(frozen=True)
class AAbs:
    a: AExp


@dataclass(frozen=True)
class ADivC:
    """a // d or a % d (rounding down) by a positive constant d."""

    op: str  # div mod
    a: AExp
    d: int


AExp = AConst | AVar | AIdx | ABin | AAbs | ADivC


def lower_divmod(op: str, a: AExp, d: AExp, text: str) -> AExp:
    """`a // d`, `a % d`: only by a positive constant (a divisor that could be 0 or vary is refused)."""
    if not isinstance(d, AConst):
        raise E.ExprError(f"{text}: division and remainder only by a constant (a number or a parameter), "
                          "not by a variable")
    if d.z <= 0:
        raise E.ExprError(f"{text}: the divisor must be positive")
    return ADivC("div" if op == "//" else "mod", a, d.z)


@dataclass(frozen=True)
class BConst:
    value: bool


@dataclass(frozen=True)
class BCmp:
    op: str  # lt le eq
    a: AExp
    b: AExp


@dataclass(frozen=True)
class BNot:
    b: BExp


@dataclass(frozen=True)
class BBin:
    op: str  # and or
    b: BExp
    c: BExp


BExp = BConst | BCmp | BNot | BBin


@dataclass(frozen=True)
class DTable:
    key: AExp
    key_lo: int
    val_lo: int
    rows: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class DTGeom:
    alpha: Fraction
    center: AExp
    lo: int
    hi: int


@dataclass(frozen=True)
class DTwoSided:
    alpha: Fraction
    lo: int
    hi: int


@dataclass(frozen=True)
class DBernoulli:
    p: Fraction


@dataclass(frozen=True)
class DUniform:
    lo: int
    hi: int


DExp = DTable | DTGeom | DTwoSided | DBernoulli | DUniform


@dataclass(frozen=True)
class SAssign:
    x: int
    a: AExp


@dataclass(frozen=True)
class SSample:
    x: int
    d: DExp


@dataclass(frozen=True)
class SIf:
    b: BExp
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True)
class SFor:
    x: int
    n: int
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class SOut:
    a: AExp


@dataclass(frozen=True)
class SSimple:
    kind: str  # top bot stop skip


Stmt = SAssign | SSample | SIf | SFor | SOut | SSimple


def statements(body: Sequence[Stmt]) -> list[Stmt]:
    """Every statement of a body, nested ones included, in program order."""
    out: list[Stmt] = []
    for s in body:
        out.append(s)
        if isinstance(s, SIf):
            out += statements(s.then) + statements(s.orelse)
        elif isinstance(s, SFor):
            out += statements(s.body)
    return out


def support_size(d: DExp) -> int:
    if isinstance(d, DTable):
        return max((len(r) for r in d.rows), default=0)
    if isinstance(d, (DTGeom, DTwoSided, DUniform)):
        return d.hi - d.lo + 1
    return 2


# ---------------------------------------------------------------- the checked program


@dataclass(frozen=True)
class Component:
    name: str
    lo: int
    hi: int
    length: int | None   # None: one value; else a stream of `length` values
    delta: int              # 0 for public components
    public: bool
    base: int               # first slot


@dataclass(frozen=True)
class Program:
    """A checked program: its body in the IR, its slots and its input vectors."""

    body: tuple[Stmt, ...]
    slot_names: tuple[str, ...]
    components: tuple[Component, ...]
    deltas: tuple[int, ...]                  # per input slot
    inputs: tuple[tuple[int, ...], ...]      # the input vectors, in order
    input_labels: tuple[str, ...]
    path_bound: int
    model: Any = field(default=None, compare=False, repr=False)  # ProgramSpecModel, for sweeps
    point: Mapping[str, Any] | None = None                      # the sweep point, if any

    @property
    def nslots(self) -> int:
        return len(self.slot_names)

    @property
    def n_input_slots(self) -> int:
        return len(self.deltas)


def is_program(data: Any) -> bool:
    return isinstance(data, dict) and "program" in data


def check_program(data: Mapping[str, Any], file: str, sha256: str = "") -> Any:
    """Validate a program spec; returns the MechanismSpec (of the first sweep point, if any)."""
    _check_statement_keys(data.get("program", {}).get("body") if isinstance(data.get("program"), dict)
                          else None, file, "program.body")
    model = parse(ProgramSpecModel, data, file)
    if model.claim is None and not model.sweep:
        raise SpecError(file, "claim", "a claim (epsilon, delta) is required (or one per sweep point)")
    if model.sweep:
        _distinct_points(model, file)
        return _point_spec(model, file, sha256, 0)
    return _build(model, file, sha256, {}, None, model.name, None)


def _distinct_points(model: ProgramSpecModel, file: str) -> None:
    """Two points with the same parameter values would be one claim named twice (one of them
    never checked): refused, naming the later point."""
    seen: dict[tuple[tuple[str, str], ...], int] = {}
    for i in range(len(model.sweep)):
        values = tuple(sorted((k, str(v)) for k, v in _point_values(model, file, i).items()))
        if values in seen:
            shown = ", ".join(f"{k} = {v}" for k, v in values) or "no parameter values"
            raise SpecError(file, f"sweep[{i}]", f"the same point as sweep[{seen[values]}] ({shown}): "
                            "each point is one claim (give a point's epsilon and delta once)")
        seen[values] = i


def expand(spec: Any) -> list[Any]:
    """The specs a file stands for: one per sweep point (else the spec itself)."""
    prog = getattr(spec, "program", None)
    if prog is None or not prog.model.sweep:
        return [spec]
    return [derive_point(spec, i) for i in range(len(prog.model.sweep))]


def derive_point(spec: Any, which: int | Mapping[str, Any]) -> Any:
    """The spec at one sweep point (given by its index or by its recorded values)."""
    model: ProgramSpecModel = spec.program.model
    points = [_point_values(model, spec.path, i) for i in range(len(model.sweep))]
    if isinstance(which, int):
        index = which
    else:
        wanted = {str(k): str(v) for k, v in which.items()}
        matches = [i for i, p in enumerate(points) if {k: str(v) for k, v in p.items()} == wanted]
        if not matches:
            raise SpecError(spec.path, "sweep", f"no sweep point {wanted}")
        index = matches[0]
    return _point_spec(model, spec.path, spec.sha256, index)


def _point_spec(model: ProgramSpecModel, file: str, sha256: str, index: int) -> Any:
    values = _point_values(model, file, index)
    point = model.sweep[index]
    suffix = "_".join(f"{k}{v}" if re.fullmatch(r"[0-9]+", str(v)) else f"{k}_{index}"
                      for k, v in values.items()) or str(index)
    name = f"{model.name}_{suffix}"
    out = _build(model, file, sha256, values, point, name, index)
    return replace(out, derived={"name": name, "sweep": {k: str(v) for k, v in values.items()}})


def _point_values(model: ProgramSpecModel, file: str, index: int) -> dict[str, Any]:
    extra = dict(model.sweep[index].model_extra or {})
    for k in extra:
        if k not in model.parameters:
            raise SpecError(file, f"sweep[{index}].{k}", f"{k!r} is not a parameter "
                            f"(parameters: {', '.join(model.parameters) or 'none'})")
    return extra


def _check_statement_keys(body: Any, file: str, where: str) -> None:
    """Plain messages for statements pydantic would only call 'not a valid union member'."""
    if not isinstance(body, list):
        return
    for i, s in enumerate(body):
        field_ = f"{where}[{i}]"
        if isinstance(s, str):
            if s not in ("top", "bot", "stop", "skip"):
                raise SpecError(file, field_, f"unknown statement {s!r} "
                                f"(statements: {', '.join(STATEMENT_KINDS)})")
            continue
        if not isinstance(s, dict) or not s:
            raise SpecError(file, field_, "a statement is a mapping like {assign: {var: x, value: 0}} "
                            "or one of top, bot, stop, skip")
        keys = set(s)
        head = next((k for k in ("sample", "assign", "if", "for", "output") if k in keys), None)
        if head is None:
            loops = [k for k in ("while", "loop", "repeat", "until", "goto") if k in keys]
            bad = loops[0] if loops else sorted(keys)[0]
            hint = (" (loops are `for` over a stream or a constant count: there is no unbounded loop)"
                    if bad in ("while", "loop", "repeat", "until", "goto") else "")
            raise SpecError(file, field_, f"unknown statement {bad!r}{hint} "
                            f"(statements: {', '.join(STATEMENT_KINDS)})")
        if head == "if":
            _check_statement_keys(s.get("then"), file, f"{field_}.then")
            _check_statement_keys(s.get("else"), file, f"{field_}.else")
        if head == "for":
            _check_statement_keys(s.get("do"), file, f"{field_}.do")


# ---------------------------------------------------------------- building


def _build(model: ProgramSpecModel, file: str, sha256: str, overrides: Mapping[str, Any],
           point: SweepPoint | None, name: str, index: int | None) -> Any:
    b = _Builder(file, model, overrides, index)
    problem = spec_name_problem(name)   # a sweep point's name too: it prefixes definitions
    if problem:
        raise SpecError(file, "name", problem)
    params, types = b.parameters()
    prog = b.program(params, types)
    claim = model.claim
    eps_text = point.epsilon if point is not None and point.epsilon is not None else (
        claim.epsilon if claim else None)
    delta_text = point.delta if point is not None and point.delta is not None else (
        claim.delta if claim else "0")
    cfield = f"sweep[{index}].epsilon" if point is not None and point.epsilon is not None else "claim.epsilon"
    if eps_text is None:
        raise SpecError(file, cfield, "no epsilon claimed for this sweep point")
    eps = b.epsilon(cfield, eps_text, params, types)
    dfield = f"sweep[{index}].delta" if point is not None and point.delta is not None else "claim.delta"
    delta = b.delta(dfield, delta_text, params, types)
    return MechanismSpec(
        kind="program", path=file, sha256=sha256, name=name, description=model.description,
        parameters=params, parameter_types=types,
        inputs=Domain(prog.input_labels), outputs=Domain(("(not yet enumerated)",)),
        table=None, formula=None, distribution="full", neighbours="componentwise",
        epsilon=eps, epsilon_text=str(eps_text), delta=delta, delta_text=str(delta_text),
        program=replace(prog, model=model, point=dict(overrides) if point is not None else None))


class _Builder(Checker):
    condition_example = "\"a > t\""
    integer_hint = " (program values are integers: + - * min max abs, no / or **)"

    def __init__(self, file: str, model: ProgramSpecModel, overrides: Mapping[str, Any],
                 index: int | None) -> None:
        super().__init__(file)
        self.model, self.overrides, self.index = model, overrides, index
        self.slots: list[str] = []
        self.kinds: dict[str, str] = {}   # name -> "input" | "stream" | "var" | "param"
        self.streams: dict[str, Component] = {}
        self.unrolled = 0

    def value(self, field_: str, e: E.Expr, env: Mapping[str, Fraction]) -> Fraction:
        try:
            return super().value(field_, e, env)
        except KeyError as exc:
            raise self.fail(field_, f"{exc.args[0]!r} is not a parameter: only parameters may be "
                            "used here") from None

    def const_int(self, field_: str, text: Any, params: Mapping[str, Fraction],
                  types: Mapping[str, str]) -> int:
        ptypes = {k: v for k, v in types.items() if k in params}
        v = self.value(field_, self.expression(field_, text, ptypes), params)
        if v.denominator != 1:
            raise self.fail(field_, f"{v} is not an integer")
        return int(v)

    def const_q(self, field_: str, text: Any, params: Mapping[str, Fraction],
                types: Mapping[str, str]) -> Fraction:
        ptypes = {k: v for k, v in types.items() if k in params}
        return self.value(field_, self.expression(field_, text, ptypes), params)

    def ident(self, field_: str, name: str) -> None:
        if not IDENT.match(name) or E.FUNCTIONS.get(name) or name in E.FUNCTION_SYNONYMS \
                or name in ("True", "False") or __import__("keyword").iskeyword(name):
            raise self.fail(field_, f"{name!r}: a name starts with a letter and has only letters, digits "
                            "and '_' (not a Python keyword or a function name)")

    # -- parameters
    def parameters(self) -> tuple[dict[str, Fraction], dict[str, str]]:
        params: dict[str, Fraction] = {}
        types: dict[str, str] = {}
        for name, text in self.model.parameters.items():
            field_ = f"parameters.{name}"
            self.ident(field_, name)
            if name in self.overrides:
                text = self.overrides[name]
                field_ = f"sweep[{self.index}].{name}"
            e = self.expression(field_, text, types)
            v = self.value(field_, e, params)
            params[name] = v
            types[name] = E.INT if v.denominator == 1 else E.RAT
            self.kinds[name] = "param"
        return params, types

    # -- the program
    def program(self, params: dict[str, Fraction], types: dict[str, str]) -> Program:  # noqa: C901 (one branch per node kind)
        comps: list[Component] = []
        deltas: list[int] = []
        for name, c in self.model.program.inputs.items():
            field_ = f"program.inputs.{name}"
            self.ident(field_, name)
            if name in self.kinds:
                raise self.fail(field_, f"{name!r} is also a parameter")
            lo = self.const_int(f"{field_}.range[0]", c.range[0], params, types)
            hi = self.const_int(f"{field_}.range[1]", c.range[1], params, types)
            if hi < lo:
                raise self.fail(f"{field_}.range", f"empty range [{lo}, {hi}]")
            if hi - lo + 1 > MAX_COMPONENT:
                raise self.fail(f"{field_}.range", f"{hi - lo + 1} values; at most {MAX_COMPONENT} "
                                "per input component")
            if c.public == (c.sensitivity is not None):
                raise self.fail(field_, "give exactly one of 'sensitivity: Δ' (neighbours differ by at "
                                "most Δ) and 'public: true' (neighbours agree)")
            delta = 0 if c.public else self.const_int(f"{field_}.sensitivity", c.sensitivity, params, types)
            if delta < 0:
                raise self.fail(f"{field_}.sensitivity", f"{delta} is negative")
            length = None
            if c.stream is not None:
                length = self.const_int(f"{field_}.stream", c.stream, params, types)
                if not 1 <= length <= MAX_STREAM:
                    raise self.fail(f"{field_}.stream", f"a stream of {length} values: between 1 and "
                                    f"{MAX_STREAM}")
            comp = Component(name, lo, hi, length, delta, c.public, len(self.slots))
            comps.append(comp)
            if length is None:
                self.slots.append(name)
                self.kinds[name] = "input"
                deltas.append(delta)
            else:
                self.slots.extend(f"{name}[{i}]" for i in range(length))
                self.kinds[name] = "stream"
                self.streams[name] = comp
                deltas.extend([delta] * length)
        n_vectors = 1
        for comp in comps:
            n_vectors *= (comp.hi - comp.lo + 1) ** (comp.length or 1)
            if n_vectors > MAX_INPUT_VECTORS:
                sizes = " x ".join(f"{c.hi - c.lo + 1}" + (f"^{c.length}" if c.length else "")
                                   for c in comps)
                raise self.fail("program.inputs", f"{sizes} input vectors is more than "
                                f"{MAX_INPUT_VECTORS}: the tool tabulates the mechanism on every input")
        self.params, self.types = params, dict(types)
        body = self.block("program.body", self.model.program.body, 1)
        if len(self.slots) > MAX_SLOTS:
            raise self.fail("program.body", f"{len(self.slots)} variables; at most {MAX_SLOTS}")
        bound = n_vectors * _paths(body)
        if bound > MAX_PATH_BOUND:
            raise self.fail("program.body", f"up to {bound:.3g} (input, path) pairs, more than "
                            f"{MAX_PATH_BOUND:.0e}: shorten the stream or shrink the noise ranges")
        vectors = tuple(_vectors(comps))
        labels = tuple(_input_label(comps, v) for v in vectors)
        return Program(body, tuple(self.slots), tuple(comps), tuple(deltas), vectors, labels, bound)

    def var_slot(self, field_: str, name: str, *, write: bool) -> int:
        self.ident(field_, name)
        kind = self.kinds.get(name)
        if kind == "param":
            raise self.fail(field_, f"{name!r} is a parameter, not a variable")
        if kind in ("input", "stream") and write:
            raise self.fail(field_, f"{name!r} is an input: inputs are read-only")
        if kind is None:
            if not write:
                raise self.fail(field_, f"{name!r} is not defined")
            self.kinds[name] = "var"
            self.types[name] = E.INT
            self.slots.append(name)
        return self.slots.index(name)

    def block(self, field_: str, stmts: list[Any], mult: int) -> tuple[Stmt, ...]:
        return tuple(self.stmt(f"{field_}[{i}]", s, mult) for i, s in enumerate(stmts))

    def stmt(self, field_: str, s: Any, mult: int) -> Stmt:
        self.unrolled += mult
        if self.unrolled > MAX_UNROLLED:
            raise self.fail(field_, f"more than {MAX_UNROLLED} statements with loops unrolled")
        if isinstance(s, str):
            return SSimple(s)
        if isinstance(s, Sample):
            d = self.dist(f"{field_}.sample.from", s.sample.from_)
            x = self.var_slot(f"{field_}.sample.var", s.sample.var, write=True)
            return SSample(x, d)
        if isinstance(s, Assign):
            a = self.aexp(f"{field_}.assign.value", s.assign.value)
            x = self.var_slot(f"{field_}.assign.var", s.assign.var, write=True)
            return SAssign(x, a)
        if isinstance(s, If):
            b = self.bexp(f"{field_}.if", s.if_)
            return SIf(b, self.block(f"{field_}.then", s.then, mult), self.block(f"{field_}.else", s.else_, mult))
        if isinstance(s, For):
            return self.loop(field_, s, mult)
        if isinstance(s, Output):
            return SOut(self.aexp(f"{field_}.output", s.output))
        raise self.fail(field_, f"unknown statement {s!r}")

    def loop(self, field_: str, s: For, mult: int) -> Stmt:
        head = s.for_
        over = head.in_
        stream = self.streams.get(over) if isinstance(over, str) else None
        if stream is not None:
            n = stream.length or 0
        else:
            if head.value is not None:
                raise self.fail(f"{field_}.for.value", "'value' goes with a loop over a stream input "
                                f"(streams: {', '.join(self.streams) or 'none'})")
            try:
                n = self.const_int(f"{field_}.for.in", over, self.params, self.types)
            except SpecError as exc:
                raise self.fail(f"{field_}.for.in", f"{exc.message}: a loop runs over a stream input "
                                "or a constant count (parameters only), so that it is bounded") from None
        if not 0 <= n <= MAX_LOOP:
            raise self.fail(f"{field_}.for.in", f"{n} iterations: between 0 and {MAX_LOOP}")
        x = self.var_slot(f"{field_}.for.var", head.var, write=True)
        pre: tuple[Stmt, ...] = ()
        if stream is not None and head.value is not None:
            v = self.var_slot(f"{field_}.for.value", head.value, write=True)
            pre = (SAssign(v, AIdx(stream.base, n, AVar(x))),)
        body = pre + self.block(f"{field_}.do", s.do, mult * max(n, 1))
        return SFor(x, n, body)

    # -- distributions
    def dist(self, field_: str, d: Distribution) -> DExp:  # noqa: C901 (one branch per node kind)
        given = [k for k in ("table", "tgeom", "two_sided", "bernoulli", "uniform") if getattr(d, k) is not None]
        if len(given) != 1:
            raise self.fail(field_, "give exactly one of table, tgeom, two_sided, bernoulli, uniform")
        kind = given[0]
        f = f"{field_}.{kind}"
        P, T = self.params, self.types
        if kind == "table":
            t = d.table
            assert t is not None
            key = self.aexp(f"{f}.key", t.key)
            klo = self.const_int(f"{f}.key_range[0]", t.key_range[0], P, T)
            khi = self.const_int(f"{f}.key_range[1]", t.key_range[1], P, T)
            vlo = self.const_int(f"{f}.values[0]", t.values[0], P, T)
            vhi = self.const_int(f"{f}.values[1]", t.values[1], P, T)
            if khi < klo or vhi < vlo:
                raise self.fail(f, "empty key_range or values")
            if vhi - vlo + 1 > MAX_COMPONENT or khi - klo + 1 > MAX_COMPONENT:
                raise self.fail(f, f"at most {MAX_COMPONENT} keys and values")
            if len(t.rows) != khi - klo + 1:
                raise self.fail(f"{f}.rows", f"{len(t.rows)} rows for the {khi - klo + 1} keys "
                                f"{klo}..{khi}")
            if len(t.rows) * (vhi - vlo + 1) > MAX_TABLE_ENTRIES:
                raise self.fail(f"{f}.rows", f"more than {MAX_TABLE_ENTRIES} entries")
            rows = []
            for r, row in enumerate(t.rows):
                if len(row) != vhi - vlo + 1:
                    raise self.fail(f"{f}.rows[{r}]", f"{len(row)} entries for the {vhi - vlo + 1} values "
                                    f"{vlo}..{vhi}")
                vals = tuple(self.const_q(f"{f}.rows[{r}][{j}]", v, P, T) for j, v in enumerate(row))
                for j, v in enumerate(vals):
                    if v < 0:
                        raise self.fail(f"{f}.rows[{r}][{j}]", f"probability {v} is negative")
                total = sum(vals, Fraction(0))
                if total != 1:
                    raise self.fail(f"{f}.rows[{r}]", f"row for key {klo + r} sums to {total}, not 1")
                rows.append(vals)
            return DTable(key, klo, vlo, tuple(rows))
        if kind in ("tgeom", "two_sided"):
            g = getattr(d, kind)
            alpha = self.const_q(f"{f}.alpha", g.alpha, P, T)
            if not 0 < alpha < 1:
                raise self.fail(f"{f}.alpha", f"alpha = {alpha} is not in (0, 1)")
            lo, hi = self.range(f"{f}.range", g.range)
            if kind == "tgeom":
                return DTGeom(alpha, self.aexp(f"{f}.center", g.center), lo, hi)
            return DTwoSided(alpha, lo, hi)
        if kind == "bernoulli":
            assert d.bernoulli is not None
            p = self.const_q(f"{f}.p", d.bernoulli.p, P, T)
            if not 0 <= p <= 1:
                raise self.fail(f"{f}.p", f"p = {p} is not in [0, 1]")
            return DBernoulli(p)
        assert d.uniform is not None
        lo, hi = self.range(f"{f}.range", d.uniform.range)
        return DUniform(lo, hi)

    def range(self, field_: str, r: tuple[Any, Any]) -> tuple[int, int]:
        lo = self.const_int(f"{field_}[0]", r[0], self.params, self.types)
        hi = self.const_int(f"{field_}[1]", r[1], self.params, self.types)
        if hi < lo:
            raise self.fail(field_, f"empty range [{lo}, {hi}]")
        if hi - lo + 1 > MAX_COMPONENT:
            raise self.fail(field_, f"{hi - lo + 1} values; at most {MAX_COMPONENT} per distribution")
        return lo, hi

    # -- expressions
    def _typed(self) -> dict[str, str]:
        env = dict(self.types)
        for name, kind in self.kinds.items():
            if kind in ("input", "var", "stream"):  # a stream's name is refused with a hint when lowered
                env[name] = E.INT
        return env

    def aexp(self, field_: str, text: Any) -> AExp:
        e = self.expression(field_, text, self._typed(), want=E.INT)
        try:
            return self.lower_a(e)
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None

    def bexp(self, field_: str, text: Any) -> BExp:
        e = self.expression(field_, text, self._typed(), want=E.BOOL)
        try:
            return self.lower_b(e)
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None

    def lower_a(self, e: E.Expr) -> AExp:  # noqa: C901 (one branch per node kind)
        if isinstance(e, E.Num):
            if e.value.denominator != 1:
                raise E.ExprError(f"{e.value}: program values are integers")
            return AConst(int(e.value))
        if isinstance(e, E.Var):
            kind = self.kinds.get(e.name)
            if kind == "param":
                v = self.params[e.name]
                if v.denominator != 1:
                    raise E.ExprError(f"parameter {e.name} = {v} is not an integer")
                return AConst(int(v))
            if kind == "stream":
                raise E.ExprError(f"{e.name!r} is a stream: read its elements with "
                                  f"`for: {{var: i, in: {e.name}, value: a}}`")
            return AVar(self.slots.index(e.name))
        if isinstance(e, E.Neg):
            return ABin("sub", AConst(0), self.lower_a(e.operand))
        if isinstance(e, E.BinOp) and e.op in ("//", "%"):
            return lower_divmod(e.op, self.lower_a(e.left), self.lower_a(e.right), E.to_text(e))
        if isinstance(e, E.BinOp):
            ops = {"+": "add", "-": "sub", "*": "mul"}
            if e.op not in ops:
                raise E.ExprError(f"{E.to_text(e)}: program arithmetic is + - * // % min max abs on integers "
                                  "(// and % round down, by a positive constant)")
            return ABin(ops[e.op], self.lower_a(e.left), self.lower_a(e.right))
        if isinstance(e, E.Call) and e.fn in ("min", "max"):
            return ABin(e.fn, self.lower_a(e.args[0]), self.lower_a(e.args[1]))
        if isinstance(e, E.Call) and e.fn == "abs":
            return AAbs(self.lower_a(e.args[0]))
        if isinstance(e, E.Cond):
            raise E.ExprError(f"{E.to_text(e)}: use an `if` statement")
        raise E.ExprError(f"{E.to_text(e)} is not an integer expression of the program language")

    def lower_b(self, e: E.Expr) -> BExp:
        if isinstance(e, E.BoolConst):
            return BConst(e.value)
        if isinstance(e, E.Not):
            return BNot(self.lower_b(e.operand))
        if isinstance(e, E.BoolOp):
            parts = [self.lower_b(v) for v in e.values]
            out = parts[-1]
            for p in reversed(parts[:-1]):
                out = BBin(e.op, p, out)
            return out
        if isinstance(e, E.Compare):
            a, b = self.lower_a(e.left), self.lower_a(e.right)
            table: dict[str, BExp] = {"<": BCmp("lt", a, b), "<=": BCmp("le", a, b), "==": BCmp("eq", a, b),
                    ">": BCmp("lt", b, a), ">=": BCmp("le", b, a),
                                      "!=": BNot(BCmp("eq", a, b))}
            return table[e.op]
        raise E.ExprError(f"{E.to_text(e)} is not a condition")


def _paths(block: tuple[Stmt, ...]) -> int:
    """An upper bound on the paths through a block: product of supports sampled along it."""
    total = 1
    for s in block:
        if isinstance(s, SSample):
            total *= max(1, support_size(s.d))
        elif isinstance(s, SIf):
            total *= max(_paths(s.then), _paths(s.orelse))
        elif isinstance(s, SFor):
            per = _paths(s.body)
            if per > 1 and s.n * math.log2(per) > 200:
                return 2 ** 200
            total *= per ** s.n
        if total > 2 ** 200:
            return 2 ** 200
    return total


def _vectors(comps: list[Component]) -> Iterator[tuple[int, ...]]:
    ranges = []
    for c in comps:
        ranges.extend([range(c.lo, c.hi + 1)] * (c.length or 1))
    return itertools.product(*ranges)


def _input_label(comps: list[Component] | tuple[Component, ...], v: tuple[int, ...]) -> str:
    parts = []
    for c in comps:
        if c.length is None:
            parts.append(f"{c.name}={v[c.base]}")
        else:
            parts.append(f"{c.name}=(" + ",".join(str(z) for z in v[c.base:c.base + c.length]) + ")")
    return ", ".join(parts)
