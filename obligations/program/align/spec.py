"""All-k program specs for the generic alignment route: shape, checks and lowering.

A spec claims `{for_all_k: true}` (optionally `epsilon_factor: c`: (c·ε)-DP) for a program
whose inputs are public integers (`{public: true}`: the same in both neighbours, any
value) and one stream of answers of any length k (`{stream: k, neighbours: ...}`).  The
neighbour relations (`theories/Coupling/InputRel.v`):

    sensitivity: Δ            every answer moves by at most Δ (= neighbours: {each: Δ})
    neighbours: {each: Δ}     the same
    neighbours: {one: Δ}      exactly one answer differs, by at most Δ
    neighbours: {increasing: Δ} / {decreasing: Δ}   every answer moves up (down) by 0..Δ
    neighbours: {monotone: Δ} all up or all down by 0..Δ
    neighbours: {l1: Δ}       the L1 distance of the streams is at most Δ

The body is the program language (docs/programs.md) with one noise per program, named at
each sampling site: `geometric: {scale: s, center: e}` (e + Z, Pr[Z = z] ∝ e^(−ε·|z|/s), the
discrete Laplace) or `laplace: {scale: s, center: e}` (e + V, V of density ∝ e^(−ε·|v|/s) over
the reals, `theories/Laplace/`); a program mixing them is refused; `//` and `%` by a
positive constant; `output` of one expression or a list of them (released in order).
Slots: the variables first, then the public inputs, then the stream (`STREAM_BASE`,
`K_LENGTH` mark the stream's first slot and its length k for the renderer).
Every error names the file and the field; nothing is evaluated.
"""
from __future__ import annotations

import keyword
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Literal, NamedTuple, Protocol, Union

from pydantic import Field, StrictBool, StrictInt, ValidationError

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import AtLength, Dp, ForAllK
from obligations.core.spec import validation_error
from obligations.core.vocabulary import Number
from obligations.program import spec as P
from obligations.program.align.noisy import noisy_slots, reads
from obligations.program.spec import IDENT, Assign, ForHead, Strict, lower_divmod

MAX_STATEMENTS = 200
MAX_PUBLIC = 8
K_LENGTH = -1      # SFor count and AIdx length standing for the stream length k
STREAM_BASE = -2   # AIdx base standing for the stream's first slot
# A claim at one stream length unrolls the loop and its proof splits on every comparison of noisy
# values: AboveThreshold's coqc CPU 14 s at length 2, 16 s at 3, 35 s at 4 (docs/laplace.md).
MAX_STREAM_LENGTH = 3
RELATIONS = ("each", "one", "increasing", "decreasing", "monotone", "l1")
NOISES = {"geometric": "discrete_laplace", "laplace": "laplace"}   # the site's key -> the program's noise


class GeometricDist(Strict):
    """center + Z with Pr[Z = z] ∝ e^(−ε·|z|/scale): Lap(scale/ε) in geometric form."""

    scale: Number
    center: Number


class LaplaceDist(Strict):
    """center + V, V continuous with density ∝ e^(−ε·|v|/scale): Lap(scale/ε) over the reals."""

    scale: Number
    center: Number


class ADistribution(Strict):
    """Exactly one of the two: the discrete (`geometric`) or the continuous (`laplace`) Laplace."""

    geometric: GeometricDist | None = None
    laplace: LaplaceDist | None = None


class ASampleBody(Strict):
    var: str
    from_: ADistribution = Field(alias="from")


class ASample(Strict):
    sample: ASampleBody


class AIf(Strict):
    if_: str = Field(alias="if", description="condition")
    then: list[AStatement] = Field(default_factory=list)
    else_: list[AStatement] = Field(default_factory=list, alias="else")


class AFor(Strict):
    for_: ForHead = Field(alias="for")
    do: list[AStatement]


class AOutput(Strict):
    output: Number | list[Number] = Field(description="an expression, or a list released in order")


AStatement = Union[Literal["top", "bot", "stop", "skip"], ASample, Assign, AIf, AFor, AOutput]  # noqa: UP007 (forward refs)
AIf.model_rebuild()
AFor.model_rebuild()


class Neighbours(Strict):
    each: Number | None = None
    one: Number | None = None
    increasing: Number | None = None
    decreasing: Number | None = None
    monotone: Number | None = None
    l1: Number | None = None


class AInput(Strict):
    """A public integer (`public: true`), or the stream (`stream: k`) with its neighbour relation."""

    public: StrictBool | None = None
    stream: Literal["k"] | None = None
    sensitivity: Number | None = None
    neighbours: Neighbours | None = None


class AProgram(Strict):
    inputs: dict[str, AInput] = Field(min_length=1)
    body: list[AStatement] = Field(min_length=1)


class AClaim(Strict):
    """(c·ε, 0)-DP for every stream length k (`for_all_k: true`) or at one length
    (`stream_length: n`, continuous noise), every ε > 0; the noise scales are in units of 1/ε."""

    for_all_k: Literal[True] | None = None
    stream_length: StrictInt | None = Field(default=None, description="the claim at this stream length only")
    epsilon_factor: Number = Field(default=1, description="c: the claim is (c·ε)-DP")


class ASpecModel(Strict):
    schema_version: Literal[1]
    name: str
    description: str = ""
    parameters: dict[str, Number] = Field(default_factory=dict)
    program: AProgram
    claim: AClaim
    fallback: str | None = None


@dataclass(frozen=True)
class DGeom:
    """The IR of `geometric`: scale num/den, at `center`."""

    num: int
    den: int
    center: P.AExp


@dataclass(frozen=True)
class Relation:
    """The stream's neighbour relation: kind (one of RELATIONS) and Δ."""

    kind: str
    delta: int

    def text(self, q: str) -> str:
        d = self.delta
        return {"each": f"|{q}_i - {q}'_i| <= {d} for every i",
                "one": f"{q} and {q}' differ in one answer, by at most {d}",
                "increasing": f"0 <= {q}'_i - {q}_i <= {d} for every i",
                "decreasing": f"0 <= {q}_i - {q}'_i <= {d} for every i",
                "monotone": f"0 <= {q}'_i - {q}_i <= {d} for every i, or 0 <= {q}_i - {q}'_i <= {d} for every i",
                "l1": f"sum_i |{q}_i - {q}'_i| <= {d}"}[self.kind]


@dataclass(frozen=True)
class AlignSpec:
    """A checked all-k spec.  Names shared with MechanismSpec are those the pipeline reads."""

    path: str
    sha256: str
    name: str
    description: str
    stream: str
    publics: tuple[str, ...]
    relation: Relation
    factor: Fraction                    # the claim is (factor·ε)-DP
    body: tuple[P.Stmt, ...]
    slot_names: tuple[str, ...]         # the variables, in slot order
    params: Mapping[str, Fraction]
    fallback: str | None
    delta: Fraction = Fraction(0)
    delta_text: str = "0"
    derived: Mapping[str, Any] | None = None
    profile_compose: tuple[int, ...] = ()
    profile_epsilons: tuple[str, ...] = ()
    kind: str = "align"
    noise: str = "discrete_laplace"     # or "laplace": which law every sampling site draws
    length: int | None = None           # the claim at this stream length only (None: every length)

    @property
    def continuous(self) -> bool:
        return self.noise == "laplace"

    @property
    def nvars(self) -> int:
        return len(self.slot_names)

    @property
    def npub(self) -> int:
        return len(self.publics)

    @property
    def neighbours(self) -> str:
        pub = f"; {', '.join(self.publics)} equal" if self.publics else ""
        return self.relation.text(self.stream) + pub

    @property
    def claim(self) -> ForAllK | AtLength:
        dp = Dp(self.epsilon_text, self.delta_text, self.neighbours)
        if self.length is not None:
            return AtLength(dp, self.length, self.noise)
        return ForAllK(dp, "laplace" if self.continuous else None)

    @property
    def epsilon_text(self) -> str:
        c = "" if self.factor == 1 else f"{self.factor}*"
        k = "every stream length k" if self.length is None else f"stream length {self.length}"
        return f"{c}eps for every eps > 0, {k}"

    @property
    def delta_q(self) -> int:
        return self.relation.delta


def is_all_k(data: Any) -> bool:
    claim = data.get("claim") if isinstance(data, dict) else None
    return isinstance(data, dict) and "program" in data and isinstance(claim, dict) and "for_all_k" in claim


def is_at_length(data: Any) -> bool:
    """A program claimed at one stream length (`claim: {stream_length: n}`): this route's form."""
    claim = data.get("claim") if isinstance(data, dict) else None
    return isinstance(data, dict) and "program" in data and isinstance(claim, dict) and "stream_length" in claim


def check(data: Mapping[str, Any], file: str, sha256: str) -> AlignSpec:
    try:
        model = ASpecModel.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, ASpecModel) from None
    return _Lower(model, file).spec(sha256)


def _resolve_a(a: P.AExp, nvars: int) -> P.AExp:
    """Public inputs' slots (after the variables) and the stream's base, once the variables are known."""
    if isinstance(a, P.AVar):
        return P.AVar(nvars - 100 - a.x) if a.x <= -100 else a
    if isinstance(a, P.AIdx):
        return P.AIdx(a.base, a.length, _resolve_a(a.i, nvars))
    if isinstance(a, P.ABin):
        return P.ABin(a.op, _resolve_a(a.a, nvars), _resolve_a(a.b, nvars))
    if isinstance(a, P.AAbs):
        return P.AAbs(_resolve_a(a.a, nvars))
    if isinstance(a, P.ADivC):
        return P.ADivC(a.op, _resolve_a(a.a, nvars), a.d)
    return a


def _resolve_b(b: P.BExp, nvars: int) -> P.BExp:
    if isinstance(b, P.BCmp):
        return P.BCmp(b.op, _resolve_a(b.a, nvars), _resolve_a(b.b, nvars))
    if isinstance(b, P.BNot):
        return P.BNot(_resolve_b(b.b, nvars))
    if isinstance(b, P.BBin):
        return P.BBin(b.op, _resolve_b(b.b, nvars), _resolve_b(b.c, nvars))
    return b


def _resolve(s: P.Stmt, nvars: int) -> P.Stmt:
    if isinstance(s, P.SAssign):
        return P.SAssign(s.x, _resolve_a(s.a, nvars))
    if isinstance(s, P.SSample):
        d = s.d
        assert isinstance(d, DGeom)
        return P.SSample(s.x, DGeom(d.num, d.den, _resolve_a(d.center, nvars)))  # type: ignore[arg-type]
    if isinstance(s, P.SIf):
        return P.SIf(_resolve_b(s.b, nvars), tuple(_resolve(t, nvars) for t in s.then),
                     tuple(_resolve(t, nvars) for t in s.orelse))
    if isinstance(s, P.SFor):
        return P.SFor(s.x, s.n, tuple(_resolve(t, nvars) for t in s.body))
    if isinstance(s, P.SOut):
        return P.SOut(_resolve_a(s.a, nvars))
    return s


class SiteForm(Protocol):
    """A sampling site's law as a route's spec gives it: its scale and its centre."""

    @property
    def scale(self) -> Any: ...
    @property
    def center(self) -> Any: ...


class SampleBodyForm(Protocol):
    @property
    def var(self) -> str: ...
    @property
    def from_(self) -> Any: ...


class SampleForm(Protocol):
    @property
    def sample(self) -> SampleBodyForm: ...


class IfForm(Protocol):
    @property
    def if_(self) -> str: ...
    @property
    def then(self) -> Sequence[Any]: ...
    @property
    def else_(self) -> Sequence[Any]: ...


class ForForm(Protocol):
    @property
    def for_(self) -> ForHead: ...
    @property
    def do(self) -> Sequence[Any]: ...


class OutputForm(Protocol):
    @property
    def output(self) -> Any: ...


class Statements(NamedTuple):
    """A route's statement classes (its spec's models) that the shared reader lowers."""

    sample: type[SampleForm]
    cond: type[IfForm]
    loop: type[ForForm]
    output: type[OutputForm]


class StreamLower(Checker):
    """The reading both all-k routes share (this one and the older `coupling` kind,
    `program/coupling_spec.py`): names, parameters, slots, statements, the loop over the
    stream and integer expressions lowered to the IR; every error names the field.  A
    route's subclass gives its statement classes, the law of a site and its own words."""

    forms: ClassVar[Statements]
    integer_hint = " (+ - * // % min max abs)"
    language = "+ - * // % min max abs on integers"   # what a refused expression is told
    divides = True                                    # `//` and `%` by a positive constant
    loop_outside = ("outside the fragment: a loop runs over the stream (`for: {{var: i, in: {stream}, value: a}}`), "
                    "not over {over!r}")
    nested_outside = "outside the fragment: nested loops"

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.params: dict[str, Fraction] = {}
        self.slots: list[str] = []
        self.publics: list[str] = []
        self.stream = ""
        self.count = 0
        self.loops = 0
        self.field = ""                              # the field being lowered
        self.divs: list[tuple[str, frozenset[int]]] = []   # each `//` or `%`: its field, the slots it rounds

    def ident(self, field_: str, name: str) -> None:
        if not IDENT.match(name) or name in E.FUNCTIONS or name in ("True", "False", "k") or keyword.iskeyword(name):
            raise self.fail(field_, f"{name!r}: a name starts with a letter and has only letters, digits "
                            "and '_' (not a keyword, a function name or k)")

    def parameters(self, given: Mapping[str, Any]) -> None:
        """Named exact constants, each over the earlier ones."""
        for name, text in given.items():
            self.ident(f"parameters.{name}", name)
            self.params[name] = self.const(f"parameters.{name}", text)

    def input_name(self, field_: str, name: str) -> None:
        self.ident(field_, name)
        if name in self.params:
            raise self.fail(field_, f"{name!r} is also a parameter")

    def fallback(self, given: str | None) -> str | None:
        """The fallback spec's path, resolved against this spec's folder."""
        if given is None:
            return None
        fb = Path(self.file).parent / given
        if not fb.is_file():
            raise self.fail("fallback", f"{given}: no such file (a path relative to the spec)")
        return str(fb)

    def const(self, field_: str, text: Any) -> Fraction:
        try:
            return Fraction(E.compile_exact(E.parse(text))(dict(self.params)))
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None
        except KeyError as exc:
            raise self.fail(field_, f"{exc.args[0]!r} is not a parameter") from None

    def slot(self, field_: str, name: str, *, write: bool) -> int:
        self.ident(field_, name)
        if name in self.params or name in self.publics:
            raise self.fail(field_, f"{name!r} is a {'parameter' if name in self.params else 'public input'}, "
                            "not a variable")
        if name == self.stream:
            raise self.fail(field_, f"{name!r} is the stream: read it with `for: {{var: i, in: {name}, value: a}}`")
        if name not in self.slots:
            if not write:
                raise self.fail(field_, f"{name!r} is not defined")
            self.slots.append(name)
        return self.slots.index(name)

    def block(self, field_: str, stmts: Sequence[Any], depth: int) -> tuple[P.Stmt, ...]:
        out: list[P.Stmt] = []
        for i, s in enumerate(stmts):
            out += self.stmt(f"{field_}[{i}]", s, depth)
        return tuple(out)

    def stmt(self, field_: str, s: Any, depth: int) -> list[P.Stmt]:
        self.count += 1
        if self.count > MAX_STATEMENTS:
            raise self.fail(field_, f"more than {MAX_STATEMENTS} statements")
        if isinstance(s, str):
            return [P.SSimple(s)]
        if isinstance(s, self.forms.sample):
            return [self.sample(field_, s)]
        if isinstance(s, Assign):
            a = self.aexp(f"{field_}.assign.value", s.assign.value)
            return [P.SAssign(self.slot(f"{field_}.assign.var", s.assign.var, write=True), a)]
        if isinstance(s, self.forms.cond):
            b = self.bexp(f"{field_}.if", s.if_)
            return [P.SIf(b, self.block(f"{field_}.then", s.then, depth), self.block(f"{field_}.else", s.else_, depth))]
        if isinstance(s, self.forms.loop):
            return [self.loop(field_, s, depth)]
        if isinstance(s, self.forms.output):
            items = s.output if isinstance(s.output, list) else [s.output]
            if not items:
                raise self.fail(f"{field_}.output", "an empty list releases nothing")
            return [P.SOut(self.aexp(f"{field_}.output", t)) for t in items]
        raise self.fail(field_, f"unknown statement {s!r}")

    def distribution(self, field_: str, d: Any) -> tuple[str, SiteForm]:
        """The site's law: its key (`geometric`, ...) and its scale and centre."""
        raise NotImplementedError

    def sample(self, field_: str, s: SampleForm) -> P.Stmt:
        key, g = self.distribution(f"{field_}.sample.from", s.sample.from_)
        f = f"{field_}.sample.from.{key}"
        scale = self.const(f"{f}.scale", g.scale)
        if scale <= 0:
            raise self.fail(f"{f}.scale", f"{scale}: the scale must be positive")
        center = self.aexp(f"{f}.center", g.center)
        x = self.slot(f"{field_}.sample.var", s.sample.var, write=True)
        return P.SSample(x, DGeom(scale.numerator, scale.denominator, center))  # type: ignore[arg-type]

    def loop(self, field_: str, s: ForForm, depth: int) -> P.Stmt:
        head = s.for_
        if head.in_ != self.stream or head.value is None:
            raise self.fail(f"{field_}.for", self.loop_outside.format(stream=self.stream, over=head.in_))
        if depth > 0:
            raise self.fail(f"{field_}.for", self.nested_outside)
        self.loops += 1
        i = self.slot(f"{field_}.for.var", head.var, write=True)
        v = self.slot(f"{field_}.for.value", head.value, write=True)
        pre = P.SAssign(v, P.AIdx(STREAM_BASE, K_LENGTH, P.AVar(i)))
        return P.SFor(i, K_LENGTH, (pre, *self.block(f"{field_}.do", s.do, depth + 1)))

    def expr(self, field_: str, text: Any, want: str) -> E.Expr:
        types = {n: (E.INT if v.denominator == 1 else E.RAT) for n, v in self.params.items()}
        types.update({n: E.INT for n in (*self.slots, *self.publics)})
        e, t = self.typed(field_, text, types, allow_real=False)
        if t != want:
            raise self.fail(field_, "expected a condition" if want == E.BOOL else
                            "expected an integer expression" + self.integer_hint)
        return e

    def aexp(self, field_: str, text: Any) -> P.AExp:
        self.field = field_
        try:
            return self.lower_a(self.expr(field_, text, E.INT))
        except E.ExprError as exc:
            raise self.fail(field_, str(exc)) from None

    def bexp(self, field_: str, text: Any) -> P.BExp:
        self.field = field_
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
            if e.name in self.publics:
                return P.AVar(-100 - self.publics.index(e.name))   # a public input's slot, resolved on render
            return P.AVar(self.slots.index(e.name))
        if isinstance(e, E.Neg):
            return P.ABin("sub", P.AConst(0), self.lower_a(e.operand))
        if isinstance(e, E.BinOp) and e.op in ("//", "%") and self.divides:
            left = self.lower_a(e.left)
            self.divs.append((self.field, reads(left)))
            return lower_divmod(e.op, left, self.lower_a(e.right), E.to_text(e))
        if isinstance(e, E.BinOp) and e.op in ("+", "-", "*"):
            return P.ABin({"+": "add", "-": "sub", "*": "mul"}[e.op], self.lower_a(e.left), self.lower_a(e.right))
        if isinstance(e, E.Call) and e.fn in ("min", "max"):
            return P.ABin(e.fn, self.lower_a(e.args[0]), self.lower_a(e.args[1]))
        if isinstance(e, E.Call) and e.fn == "abs":
            return P.AAbs(self.lower_a(e.args[0]))
        raise E.ExprError(f"{E.to_text(e)}: outside the program language ({self.language})")

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


class _Lower(StreamLower):
    """This route's reading: public inputs, the neighbour relation, one noise per program,
    the claim's factor and length."""

    forms = Statements(ASample, AIf, AFor, AOutput)

    def __init__(self, model: ASpecModel, file: str) -> None:
        super().__init__(file)
        self.model = model
        self.noise: tuple[str, str] | None = None   # (the program's noise, the first site's field)

    def spec(self, sha256: str) -> AlignSpec:
        m = self.model
        self.parameters(m.parameters)
        relation = self.inputs()
        factor = self.const("claim.epsilon_factor", m.claim.epsilon_factor)
        if factor <= 0:
            raise self.fail("claim.epsilon_factor", f"{factor}: a positive number")
        body = self.block("program.body", m.program.body, depth=0)
        body = tuple(_resolve(st, len(self.slots)) for st in body)
        if self.loops != 1:
            raise self.fail("program.body", "the program has one loop over the stream "
                            f"(`for: {{var: i, in: {self.stream}, value: a}}` at the top level)")
        fallback = self.fallback(m.fallback)
        noise = self.noise[0] if self.noise else "discrete_laplace"
        if fallback is not None and noise == "laplace":
            raise self.fail("fallback", "the fallback enumerates the program with geometric noise: it says "
                            "nothing of a program with continuous Laplace noise (drop `fallback:`)")
        if noise == "laplace":
            self.measurable(body)
        length = self.length(noise)
        return AlignSpec(self.file, sha256, m.name, m.description, self.stream, tuple(self.publics), relation,
                         factor, body, tuple(self.slots), dict(self.params), fallback, noise=noise, length=length)

    def length(self, noise: str) -> int | None:
        """The claim's stream length (None: every length); exactly one of the two claims."""
        c = self.model.claim
        if (c.for_all_k is None) == (c.stream_length is None):
            raise self.fail("claim", "give one of `for_all_k: true` (every stream length) and `stream_length: n`")
        if c.stream_length is None:
            return None
        if noise != "laplace":
            raise self.fail("claim.stream_length", "a claim at one stream length is for continuous Laplace noise "
                            "(`laplace:` sites); with geometric noise claim `for_all_k: true`, every length")
        if c.stream_length < 1:
            raise self.fail("claim.stream_length", f"{c.stream_length}: a stream length is at least 1")
        if c.stream_length > MAX_STREAM_LENGTH:
            raise self.fail("claim.stream_length", f"{c.stream_length}: at most {MAX_STREAM_LENGTH} for now (the "
                            "proof unrolls the loop and splits on every comparison of noisy values: its cost about "
                            "doubles with each answer, 35 s of coqc at length 4 on AboveThreshold)")
        return c.stream_length

    def measurable(self, body: tuple[P.Stmt, ...]) -> None:
        """Under continuous noise: no rounding of a noisy real (the library has no lemma for it)."""
        noisy = noisy_slots(body)
        for field_, slots in self.divs:
            if slots & noisy:
                names = ", ".join(self.slots[i] for i in sorted(slots & noisy))
                raise self.fail(field_, f"`//` or `%` of a value depending on continuous noise ({names}): the "
                                "measurability library has no lemma for rounding a real down")

    def inputs(self) -> Relation:
        relation: Relation | None = None
        for name, comp in self.model.program.inputs.items():
            f = f"program.inputs.{name}"
            self.input_name(f, name)
            if comp.public:
                if comp.stream or comp.sensitivity is not None or comp.neighbours is not None:
                    raise self.fail(f, "a public input has no stream and no neighbours: both runs see the same value")
                if len(self.publics) >= MAX_PUBLIC:
                    raise self.fail(f, f"at most {MAX_PUBLIC} public inputs")
                self.publics.append(name)
                continue
            if comp.stream != "k":
                raise self.fail(f, "an input is public (`public: true`) or the stream (`stream: k`)")
            if relation is not None:
                raise self.fail(f, f"one stream only ({self.stream!r} is the stream)")
            self.stream = name
            relation = self.relation(f, comp)
        if relation is None:
            raise self.fail("program.inputs", "no stream input (`q: {stream: k, neighbours: {each: 1}}`)")
        return relation

    def relation(self, f: str, comp: AInput) -> Relation:
        given: list[tuple[str, Any]] = []
        if comp.sensitivity is not None:
            given.append(("each", comp.sensitivity))
        if comp.neighbours is not None:
            given += [(k, v) for k in RELATIONS if (v := getattr(comp.neighbours, k)) is not None]
        if len(given) != 1:
            raise self.fail(f, "give the neighbour relation once: `sensitivity: D` or `neighbours: {R: D}` "
                            f"with R one of {', '.join(RELATIONS)}")
        kind, text = given[0]
        d = self.const(f"{f}.neighbours.{kind}", text)
        if d.denominator != 1 or d < 0:
            raise self.fail(f"{f}.neighbours.{kind}", f"{d}: a non-negative integer")
        return Relation(kind, int(d))

    def distribution(self, field_: str, d: ADistribution) -> tuple[str, GeometricDist | LaplaceDist]:
        """The site's one law; every site of a program draws the same noise (one tape semantics)."""
        given = [(k, v) for k in NOISES if (v := getattr(d, k)) is not None]
        if len(given) != 1:
            raise self.fail(field_, "give one distribution: `geometric: {scale: s, center: e}` (discrete "
                            "Laplace) or `laplace: {scale: s, center: e}` (continuous Laplace)")
        key, law = given[0]
        if self.noise is None:
            self.noise = (NOISES[key], f"{field_}.{key}")
        elif self.noise[0] != NOISES[key]:
            raise self.fail(f"{field_}.{key}", f"the program mixes noises: {self.noise[1]} draws "
                            f"{self.noise[0]}, this site {NOISES[key]} (one noise per program)")
        return key, law
