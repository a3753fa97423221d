"""All-k program specs: a program over a query stream of any length, with untruncated
two-sided geometric noise whose scale is given in units of 1/ε, claimed ε-DP for every
stream length k and every ε > 0 (`claim: {for_all_k: true}`).

The body uses the statements of the program kind (`sample`, `assign`, `if`, `for`,
`output`, `top`, `bot`, `stop`, `skip`) with one distribution, `geometric: {scale: s,
center: e}`: e + Z, Pr[Z = z] ∝ e^(−ε·|z|/s) (Lap(s/ε) in geometric form).  The single
input is a stream `{stream: k, sensitivity: Δ}`: its length is the universally
quantified k.  Lowering gives the program kind's IR (`program/spec.py`) with
variables in slots 0.., the stream after them (`STREAM_BASE`, `K_LENGTH` mark where the
renderer writes the stream's first slot and k).  The reading is the generic alignment
route's (`align/spec.py`, `StreamLower`) restricted to this language, with this route's
words in its messages.
Expressions go through `expr.parse` (an ast whitelist); nothing is evaluated.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from obligations.core.claims import Dp, ForAllK
from obligations.core.model import parse
from obligations.core.vocabulary import Number
from obligations.program import spec as P
from obligations.program.align.spec import Statements, StreamLower
from obligations.program.spec import Assign, ForHead, Output, Strict

MAX_SENSITIVITY = 64   # the search takes about 2 s at 64 (linear in it)


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


# ---------------------------------------------------------------- the checked spec


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


class _Lower(StreamLower):
    """The generic route's reading (`align/spec.py`) of this route's narrower language: one
    stream with a sensitivity, geometric sites, no `//` and `%`, its own words for a loop
    outside the fragment."""

    forms = Statements(CSample, CIf, CFor, Output)
    integer_hint = " (+ - * min max abs, no division)"
    language = "+ - * min max abs on integers; no division"
    divides = False
    loop_outside = ("a loop runs over the stream: `for: {{var: i, in: {stream}, value: a}}` (a loop whose bound is "
                    "not the stream length is outside the fragment)")
    nested_outside = "nested loops are outside the fragment the alignment covers"

    def __init__(self, model: CouplingSpecModel, file: str) -> None:
        super().__init__(file)
        self.model = model
        (self.stream, comp), = model.program.inputs.items()
        self.comp = comp

    def spec(self, sha256: str) -> CouplingSpec:
        m = self.model
        self.parameters(m.parameters)
        f = f"program.inputs.{self.stream}"
        self.input_name(f, self.stream)
        delta = self.const(f"{f}.sensitivity", self.comp.sensitivity)
        if delta.denominator != 1 or delta < 0:
            raise self.fail(f"{f}.sensitivity", f"{delta}: a non-negative integer")
        if delta > MAX_SENSITIVITY:   # the alignment search runs over every shift up to it
            raise self.fail(f"{f}.sensitivity",
                            f"{delta}: at most {MAX_SENSITIVITY} (the alignment search tries every difference "
                            "up to the sensitivity; scale the queries instead)")
        body = self.block("program.body", m.program.body, depth=0)
        return CouplingSpec(self.file, sha256, m.name, m.description, self.stream, int(delta), body,
                            tuple(self.slots), dict(self.params), self.fallback(m.fallback))

    def distribution(self, field_: str, d: CouplingDistribution) -> tuple[str, GeometricDist]:
        return "geometric", d.geometric
