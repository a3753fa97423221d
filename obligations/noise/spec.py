"""Noise-pipeline specs (the snapping mechanism of seed 000): model and checks.

A pipeline draws u uniformly from (0, 1] and a sign S from {-1, +1}, applies
its `steps` to u in order (ln, exp, scale, shift, sign), adds the query value
f(a) (optionally clamped to [-B, B] first), rounds to the nearest multiple of
a grid step, and optionally clamps the result to [-B, B].  Parameters are
symbols (positive or nonnegative) or exact numbers.  Nothing here computes:
`unfold.snapping` does, after every check below has passed.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import Dp
from obligations.core.model import parse
from obligations.core.names import coq_name_problem
from obligations.core.vocabulary import Number, Strict

SYMBOLIC = ("positive", "nonnegative")
# Names the generated snapping file binds itself; a parameter may not take them.
PIPELINE_RESERVED = frozenset("""
fa fa' u s k y p ys ps sign sgn SPlus SMinus clamp ulen ulen_from ulen_to umeasure snap_prob
round_grid TiesUp TiesDown IZR Rabs exp ln e
""".split())


class Scale(Strict):
    scale: Number = Field(description="multiply by this positive expression, e.g. \"1/eps\"")


class Shift(Strict):
    shift: Number = Field(description="add this expression")


class AddQuery(Strict):
    clamp: Number | None = Field(default=None, description="clamp f(a) to [-B, B] first")


class AddQueryStep(Strict):
    add_query: AddQuery


class RoundTo(Strict):
    grid: Number = Field(description="the grid step Λ > 0")
    ties: Literal["up", "down"] = Field(default="up", description="ties toward +∞ (up) or −∞ (down)")


class RoundStep(Strict):
    round: RoundTo


class ClampStep(Strict):
    clamp: Number = Field(description="clamp to [-B, B]")


Step = Literal["ln", "exp", "sign"] | Scale | Shift | AddQueryStep | RoundStep | ClampStep


class Pipeline(Strict):
    steps: list[Step] = Field(min_length=1, max_length=32)
    sensitivity: Number = Field(description="Δ: neighbours satisfy |f(a) - f(a')| <= Δ")


class PipelineClaim(Strict):
    epsilon: Number
    delta: Number = "0"


class PipelineFile(Strict):
    """A noise-pipeline mechanism (u ~ U(0,1], S ~ ±1) and a pure DP claim about it."""

    schema_version: Literal[1]
    name: str
    description: str = ""
    parameters: dict[str, Number] = Field(
        default_factory=dict, description="name -> 'positive', 'nonnegative' or an exact number")
    pipeline: Pipeline
    claim: PipelineClaim


@dataclass(frozen=True)
class Param:
    name: str
    kind: str                       # "positive", "nonnegative" or "number"
    value: Fraction | None = None


@dataclass(frozen=True)
class NoiseStep:
    op: str                         # ln, exp, sign, scale, shift
    arg: E.Expr | None = None


@dataclass(frozen=True)
class PipelineSpec:
    """A checked pipeline spec.  Attribute names shared with MechanismSpec are the ones
    the pipeline and certificates read (path, sha256, name, claim texts, neighbours)."""

    path: str
    sha256: str
    name: str
    description: str
    params: tuple[Param, ...]
    noise: tuple[NoiseStep, ...]
    query_clamp: E.Expr | None
    grid: E.Expr
    ties: str
    out_clamp: E.Expr | None
    sensitivity: E.Expr
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    derived: Mapping[str, Any] | None = None
    profile_compose: tuple[int, ...] = ()
    kind: str = "pipeline"          # the mechanism kind (obligations.kinds) it belongs to

    @property
    def neighbours(self) -> str:
        return f"|f(a) - f(a')| <= {E.to_text(self.sensitivity)}"

    @property
    def claim(self) -> Dp:
        return Dp(self.epsilon_text, self.delta_text, self.neighbours)

    @property
    def clamped(self) -> bool:
        return self.out_clamp is not None


def is_pipeline(data: Any) -> bool:
    return isinstance(data, dict) and "pipeline" in data


def check(data: dict[str, Any], file: str, sha256: str) -> PipelineSpec:
    return PipelineChecker(file, sha256, parse(PipelineFile, data, file)).run()


# The noise steps, the query's clamp, the grid, the ties, the output's clamp.
Steps = tuple[tuple[NoiseStep, ...], E.Expr | None, E.Expr | None, str, E.Expr | None]


class PipelineChecker(Checker):
    def __init__(self, file: str, sha256: str, f: PipelineFile) -> None:
        super().__init__(file)
        self.sha256, self.f = sha256, f

    def run(self) -> PipelineSpec:
        f = self.f
        problem = coq_name_problem(f.name)
        if problem:
            raise self.fail("name", problem)
        params = self.parameters()
        types = {p.name: ("real" if p.kind != "number" else "rat") for p in params}
        noise, qclamp, grid, ties, oclamp = self.steps(types)
        sens = self.expr("pipeline.sensitivity", f.pipeline.sensitivity, types)
        eps = self.expr("claim.epsilon", f.claim.epsilon, types)
        try:
            delta = E.exact_constant(f.claim.delta)
        except E.ExprError as exc:
            raise self.fail("claim.delta", str(exc)) from None
        if delta != 0:
            raise self.fail("claim.delta", "pipelines take pure claims only (delta: 0); "
                            "the certificate states (epsilon, 0)-DP")
        assert grid is not None   # `steps` requires add_query and then round
        return PipelineSpec(
            path=self.file, sha256=self.sha256, name=f.name, description=f.description,
            params=params, noise=noise, query_clamp=qclamp, grid=grid, ties=ties, out_clamp=oclamp,
            sensitivity=sens, epsilon=eps, epsilon_text=str(f.claim.epsilon), delta=Fraction(0),
            delta_text="0")

    def parameters(self) -> tuple[Param, ...]:
        out = []
        for name, value in self.f.parameters.items():
            field = f"parameters.{name}"
            problem = coq_name_problem(name)
            if problem:
                raise self.fail(field, problem)
            if name == "delta":
                # the claim's delta is claim.delta: a parameter of that name would print
                # "(eps*delta, 0)-DP" for a sensitivity
                raise self.fail(field, "'delta' reads as the delta of an (epsilon, delta) claim; "
                                "name the query's sensitivity after what it is, e.g. 'sens: nonnegative' "
                                "and 'pipeline.sensitivity: sens'")
            if name in PIPELINE_RESERVED or name == self.f.name:
                raise self.fail(field, f"{name!r} is a name the generated Coq file uses itself")
            if value in SYMBOLIC:
                out.append(Param(name, str(value)))
                continue
            try:
                e = E.parse(value)
                if E.names(e):
                    raise E.ExprError(f"{value!r} is neither a number nor a symbol kind")
                v = E.compile_exact(e)({})
            except E.ExprError as exc:
                raise self.fail(field, f"{exc} (give 'positive', 'nonnegative' or an exact number)") from None
            if not isinstance(v, Fraction):
                raise self.fail(field, "expected a number")
            if v < 0:
                raise self.fail(field, f"{v} is negative; pipeline parameters are nonnegative")
            out.append(Param(name, "number", v))
        return tuple(out)

    def expr(self, field: str, text: Number, types: Mapping[str, str]) -> E.Expr:
        """A real expression without conditions or abs, min, max (the case analysis reads it)."""
        e, t = self.typed(field, text, types, allow_real=True)
        if t == "bool":
            raise self.fail(field, "expected a number, not a condition")
        if any(isinstance(n, (E.Cond, E.Compare, E.BoolOp)) for n in _nodes(e)):
            raise self.fail(field, "conditional expressions are not allowed here")
        if any(isinstance(n, E.Call) and n.fn in ("abs", "min", "max") for n in _nodes(e)):
            raise self.fail(field, "abs, min and max are not allowed here (use ln, exp, + - * / **)")
        return e

    def steps(self, types: Mapping[str, str]) -> Steps:  # noqa: C901 (one branch per node kind)
        noise: list[NoiseStep] = []
        qclamp: E.Expr | None = None
        grid: E.Expr | None = None
        oclamp: E.Expr | None = None
        ties = "up"
        stage = "noise"   # noise -> query -> rounded -> clamped
        for i, step in enumerate(self.f.pipeline.steps):
            field = f"pipeline.steps[{i}]"
            if isinstance(step, str):
                if stage != "noise":
                    raise self.fail(field, f"{step!r} must come before add_query (noise steps act on u)")
                noise.append(NoiseStep(step))
            elif isinstance(step, (Scale, Shift)):
                if stage != "noise":
                    raise self.fail(field, "scale/shift must come before add_query (noise steps act on u)")
                op = "scale" if isinstance(step, Scale) else "shift"
                text = step.scale if isinstance(step, Scale) else step.shift
                noise.append(NoiseStep(op, self.expr(field + "." + op, text, types)))
            elif isinstance(step, AddQueryStep):
                if stage != "noise":
                    raise self.fail(field, "add_query appears twice")
                if step.add_query.clamp is not None:
                    qclamp = self.expr(field + ".add_query.clamp", step.add_query.clamp, types)
                stage = "query"
            elif isinstance(step, RoundStep):
                if stage != "query":
                    raise self.fail(field, "round must come after add_query, once")
                grid = self.expr(field + ".round.grid", step.round.grid, types)
                ties = step.round.ties
                stage = "rounded"
            else:
                if stage != "rounded":
                    raise self.fail(field, "clamp must come after round (or use add_query: {clamp: B})")
                oclamp = self.expr(field + ".clamp", step.clamp, types)
                stage = "clamped"
        if stage in ("noise", "query"):
            raise self.fail("pipeline.steps", "a pipeline needs add_query and then round")
        if not noise:
            raise self.fail("pipeline.steps", "no noise steps before add_query")
        if (qclamp is None) != (oclamp is None) or (
                qclamp is not None and oclamp is not None and E.to_text(qclamp) != E.to_text(oclamp)):
            raise self.fail("pipeline.steps", "clamp both f(a) (add_query: {clamp: B}) and the output "
                            "(clamp: B) with the same B, or neither (seed 000 §2)")
        return tuple(noise), qclamp, grid, ties, oclamp


def _nodes(e: E.Expr) -> list[E.Expr]:
    out = [e]
    for c in E.children(e):
        out += _nodes(c)
    return out
