"""Floating-point pipeline specs: the snapping family's steps executed in a binary format.

    floating:
      format: {precision: 8, emax: 16}        # or binary16 / binary32 / binary64
      uniform: {grid: 12}                      # u = k/2^12, k = 1..2^12 (rounded to the format)
      steps: [ln, {scale: "1"}, sign, {add_query: {clamp: "4"}}, {round: {grid: "1", ties: up}}, {clamp: "4"}]
      inputs: {from: -4, to: 4}               # the query values compared (integers), or a list
      sensitivity: 1
    claim: {epsilon: "ln(3)"}

Every check below runs before any computation; nothing here computes the mechanism.
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, StrictInt

from obligations.core import expr as E
from obligations.core.model import parse
from obligations.core.names import coq_name_problem
from obligations.core.spec import Domain, MechanismSpec, check_epsilon
from obligations.core.vocabulary import Claim, Number, Strict
from obligations.errors import SpecError
from obligations.float import arith as A
from obligations.float.analysis import FloatPipeline, FStep, trace, ustar_size

NAMED_FORMATS = {"binary16": (11, 16), "binary32": (24, 128), "binary64": (53, 1024)}
# Limits of the exact enumeration (measured: bench/float_scaling.py).
MAX_PRECISION = 24
MAX_GRID_BITS = 14
MAX_INPUTS = 64


class FormatForm(Strict):
    precision: StrictInt = Field(description="p: bits of the significand, the implicit one included")
    emax: StrictInt = Field(description="the exponent range: finite floats are below 2^emax")


class UniformForm(Strict):
    grid: StrictInt | None = Field(default=None, description="m: u = k/2^m for k = 1..2^m, each with "
                                      "probability 2^-m")
    ustar: Literal["down"] | None = Field(default=None, description="Mironov's U*: every float u in (0, 1), "
                                             "with probability the length of [u, next float) (a uniform real "
                                             "rounded down)")


class ScaleStep(Strict):
    scale: Number = Field(description="multiply by this constant (rounded to the format)")


class AddQueryForm(Strict):
    clamp: Number | None = Field(default=None, description="clamp the query value to [-B, B] first")


class AddQueryStep(Strict):
    add_query: AddQueryForm


class RoundForm(Strict):
    grid: Number = Field(description="Λ: a power of two")
    ties: Literal["up", "even"] = Field(default="up", description="ties toward +∞ (up) or to even")


class RoundStep(Strict):
    round: RoundForm


class ClampStep(Strict):
    clamp: Number = Field(description="clamp to [-B, B]")


StepForm = Literal["ln", "sign"] | ScaleStep | AddQueryStep | RoundStep | ClampStep


class RangeForm(Strict):
    from_: StrictInt = Field(alias="from")
    to: StrictInt


class FloatingForm(Strict):
    format: Literal["binary16", "binary32", "binary64"] | FormatForm
    uniform: UniformForm
    steps: list[StepForm] = Field(min_length=1, max_length=16)
    inputs: RangeForm | list[StrictInt] = Field(description="the query values compared (integers)")
    sensitivity: StrictInt = Field(description="Δ: inputs within Δ of each other are neighbours")


class FloatingFile(Strict):
    """A noise pipeline run in binary floating point, and a pure DP claim about it."""

    schema_version: Literal[1]
    name: str
    description: str = ""
    floating: FloatingForm
    claim: Claim


def is_floating(data: Any) -> bool:
    return isinstance(data, dict) and "floating" in data


def check(data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
    f = parse(FloatingFile, data, file)
    problem = coq_name_problem(f.name)
    if problem:
        raise SpecError(file, "name", problem)
    pipe = _pipeline(f.floating, file)
    try:
        eps = E.parse(f.claim.epsilon)
        E.typecheck(eps, {}, allow_real=True)
        dexpr = E.parse(f.claim.delta)
        E.typecheck(dexpr, {}, allow_real=False)
        delta = E.compile_exact(dexpr)({})
    except E.ExprError as exc:
        raise SpecError(file, "claim", str(exc)) from None
    check_epsilon(file, "claim.epsilon", eps, {})
    if delta != 0:
        raise SpecError(file, "claim.delta", "floating-point pipelines are certified for pure DP "
                        "(delta: 0); their exact epsilon is computed")
    labels = tuple(str(x) for x in pipe.inputs)
    return MechanismSpec(
        kind="floating", path=file, sha256=sha256, name=f.name, description=f.description,
        parameters={}, parameter_types={}, inputs=Domain(labels, pipe.inputs),
        outputs=Domain(("(not yet enumerated)",)), table=None, formula=None, distribution="full",
        neighbours="componentwise", epsilon=eps, epsilon_text=str(f.claim.epsilon),
        delta=Fraction(0), delta_text=str(f.claim.delta), program=pipe, domain=pipe.claim_domain)


def _constant(text: Any, file: str, where: str) -> Fraction:
    try:
        return E.exact_constant(text)
    except E.ExprError as exc:
        raise SpecError(file, where, f"{exc} (an exact rational constant)") from None


def _representable(fmt: A.Format, value: Fraction, file: str, where: str) -> A.Float:
    f = A.from_fraction_exact(fmt, value)
    if f is None:
        raise SpecError(file, where, f"{value} is not representable in the format (precision "
                        f"{fmt.precision}, emax {fmt.emax}): choose a value the format holds exactly")
    return f


def _pipeline(f: FloatingForm, file: str) -> FloatPipeline:
    p, emax = NAMED_FORMATS[f.format] if isinstance(f.format, str) else (f.format.precision, f.format.emax)
    if not 2 <= p <= MAX_PRECISION:
        raise SpecError(file, "floating.format.precision", f"precision {p} is outside 2..{MAX_PRECISION} "
                        "(the exact enumeration's limit)")
    if not p < emax <= 1024:
        raise SpecError(file, "floating.format.emax", f"emax {emax} must exceed the precision {p} "
                        "and be at most 1024")
    fmt = A.Format(p, emax)
    if (f.uniform.grid is None) == (f.uniform.ustar is None):
        raise SpecError(file, "floating.uniform", "give one sampler: {grid: m} or {ustar: down}")
    if f.uniform.grid is not None:
        m = f.uniform.grid
        if not 1 <= m <= MAX_GRID_BITS:
            raise SpecError(file, "floating.uniform.grid", f"grid bits {m} outside 1..{MAX_GRID_BITS} "
                            "(2^m sampler outcomes are enumerated)")
        if -m < fmt.emin:
            raise SpecError(file, "floating.uniform.grid", f"2^-{m} is below the format's smallest float "
                            f"(2^{fmt.emin}): it would round to 0, whose logarithm is -inf")
    else:
        m = 0
        if ustar_size(fmt) > 2 ** MAX_GRID_BITS:
            raise SpecError(file, "floating.uniform.ustar", f"the format has {ustar_size(fmt)} floats in "
                            f"(0, 1), beyond the {2 ** MAX_GRID_BITS} sampler outcomes enumerated")
    steps, texts = _steps(f, fmt, file)
    count = f.inputs.to - f.inputs.from_ + 1 if isinstance(f.inputs, RangeForm) else len(f.inputs)
    if not 2 <= count <= MAX_INPUTS:   # before the range is built: {from: -1e9, to: 1e9} is 2e9 values
        raise SpecError(file, "floating.inputs", f"{count} query values; give 2..{MAX_INPUTS} distinct ones")
    inputs = tuple(range(f.inputs.from_, f.inputs.to + 1)) if isinstance(f.inputs, RangeForm) \
        else tuple(f.inputs)
    if len(set(inputs)) != len(inputs):
        raise SpecError(file, "floating.inputs", f"give 2..{MAX_INPUTS} distinct query values")
    for i, x in enumerate(inputs):
        _representable(fmt, Fraction(x), file, f"floating.inputs[{i}]")
    if f.sensitivity < 1:
        raise SpecError(file, "floating.sensitivity", "the sensitivity is a positive integer")
    _check_range(fmt, m, steps, inputs, file)
    return FloatPipeline(fmt, m, steps, texts, inputs, f.sensitivity, "grid" if m else "ustar")


def _steps(f: FloatingForm, fmt: A.Format, file: str) -> tuple[tuple[FStep, ...], tuple[str, ...]]:  # noqa: C901 (one branch per node kind)
    out: list[FStep] = []
    texts: list[str] = []
    if f.steps[0] != "ln":
        raise SpecError(file, "floating.steps[0]", "the first step is ln (the steps act on u's logarithm)")
    for i, st in enumerate(f.steps):
        where = f"floating.steps[{i}]"
        if st == "ln":
            if i:
                raise SpecError(file, where, "ln comes once, first")
            out.append(FStep("ln"))
            texts.append("ln")
        elif st == "sign":
            out.append(FStep("sign"))
            texts.append("sign")
        elif isinstance(st, ScaleStep):
            c = _constant(st.scale, file, where + ".scale")
            if c == 0:
                raise SpecError(file, where + ".scale", "scale by a nonzero constant")
            out.append(FStep("scale", A.round_fraction(fmt, c)))
            texts.append(f"scale {st.scale}")
        elif isinstance(st, AddQueryStep):
            b = None
            if st.add_query.clamp is not None:
                bv = _constant(st.add_query.clamp, file, where + ".add_query.clamp")
                if bv <= 0:
                    raise SpecError(file, where + ".add_query.clamp", "the clamp bound is positive")
                b = _representable(fmt, bv, file, where + ".add_query.clamp")
            out.append(FStep("add_query", b))
            texts.append("add_query" + (f" (clamped to ±{st.add_query.clamp})" if b else ""))
        elif isinstance(st, RoundStep):
            g = _constant(st.round.grid, file, where + ".round.grid")
            j = _log2(g)
            if j is None:
                raise SpecError(file, where + ".round.grid", f"the grid {g} is not a power of two "
                                "(an exact rounding to it needs one, as in Mironov's snapping)")
            _representable(fmt, g, file, where + ".round.grid")
            out.append(FStep("round", j=j, ties=st.round.ties))
            texts.append(f"round to {st.round.grid} (ties {st.round.ties})")
        else:
            bv = _constant(st.clamp, file, where + ".clamp")
            if bv <= 0:
                raise SpecError(file, where + ".clamp", "the clamp bound is positive")
            out.append(FStep("clamp", _representable(fmt, bv, file, where + ".clamp")))
            texts.append(f"clamp to ±{st.clamp}")
    if not any(s.op == "add_query" for s in out):
        raise SpecError(file, "floating.steps", "no add_query step: the output does not depend on the input")
    return tuple(out), tuple(texts)


def _log2(g: Fraction) -> int | None:
    if g <= 0:
        return None
    n, d = g.numerator, g.denominator
    if d == 1 and n & (n - 1) == 0:
        return n.bit_length() - 1
    if n == 1 and d & (d - 1) == 0:
        return -(d.bit_length() - 1)
    return None


def _check_range(fmt: A.Format, m: int, steps: tuple[FStep, ...], inputs: tuple[int, ...], file: str) -> None:
    """No value of any run overflows to an infinity, decided exactly: every step is monotone
    in u (ln, a scaling, adding q, the roundings and the clamps all are), so each
    intermediate value is extreme at the smallest or the largest sampled u, and running
    those two draws for every input and sign, in the format, finds any overflow there is."""
    extremes = (A.round_fraction(fmt, Fraction(1, 2 ** m)), A.round_fraction(fmt, Fraction(1))) if m \
        else (A.Float("finite", False, 1, fmt.emin), A.round_fraction(fmt, 1 - fmt.eta))
    ln = {u: A.correctly_rounded_ln(fmt, u) for u in extremes}
    for x in inputs:
        q = A.float_of_int(fmt, x)
        for u in extremes:
            for sign in (True, False):
                for i, v in enumerate(trace(fmt, steps, ln, q, sign, u)):
                    if v.kind == "inf":
                        raise SpecError(file, "floating.format.emax", _overflow_text(fmt, i, x, u))


def _overflow_text(fmt: A.Format, i: int, x: int, u: A.Float) -> str:
    return (f"floating.steps[{i}] overflows to an infinity (query value {x}, u = {u.label()}): a value "
            f"reaches 2^{fmt.emax}, beyond the format's largest finite float; raise emax")
