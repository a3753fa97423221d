"""KOV claims: the YAML form and its checks.

    kov: {epsilon0: "ln(3)", runs: 10}
    claim: {epsilon: "2*ln(3)", delta: "0.745"}

claims that the `runs`-fold composition of EVERY finite mechanism that is (epsilon0, 0)-DP
(rows distributions, a symmetric neighbour relation) is (epsilon, delta)-DP.  An exponent is
a rational, ln(q) or m*ln(q) (q rational, m a whole number): Coq then knows e^eps exactly or
brackets it with intervals.  Every problem is a SpecError naming the file and the field."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, StrictInt

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import Dp, ForEveryMechanism
from obligations.core.model import parse
from obligations.core.vocabulary import Number, Strict
from obligations.errors import SpecError
from obligations.table.kov import MAX_RUNS_TIMES_EPS0, Exponent

MAX_RUNS = 2000   # the convolution power has runs + 1 masses; Coq evaluates runs^2 / 2 interval products


class KovBody(Strict):
    """The one mechanism's epsilon0 (delta0 = 0) and how often it runs."""

    epsilon0: Number = Field(description="epsilon0 > 0: a rational, ln(q) or m*ln(q), e.g. \"ln(3)\" or 1")
    runs: StrictInt = Field(description="k >= 1: the number of runs, each on the same input")


class KovClaimForm(Strict):
    epsilon: Number = Field(description="epsilon >= 0: a rational, ln(q) or m*ln(q)")
    delta: Number = Field(description="an exact number in [0, 1], e.g. 0.745 or 3/8")


class KovFile(Strict):
    """The Kairouz–Oh–Viswanath bound: a claim about every (epsilon0, 0)-DP finite mechanism run k times."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the claim, e.g. kov_ln3_10_runs")
    description: str = ""
    kov: KovBody
    claim: KovClaimForm


@dataclass(frozen=True)
class KovSpec:
    path: str
    sha256: str
    name: str
    description: str
    epsilon0: Exponent
    epsilon0_text: str
    runs: int
    epsilon: Exponent
    epsilon_text: str
    delta: Fraction
    delta_text: str
    kind: str = "kov"
    derived: Mapping[str, Any] | None = None
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()

    @property
    def claim(self) -> ForEveryMechanism:
        """About every (epsilon0, 0)-DP mechanism, not one table."""
        return ForEveryMechanism(Dp(self.epsilon_text, self.delta_text, "any symmetric"), "kov",
                                 f"every ({self.epsilon0_text}, 0)-DP finite mechanism, {self.runs} runs")


def is_kov(data: Mapping[str, Any]) -> bool:
    return "kov" in data


def check(data: Any, file: str, sha256: str = "") -> KovSpec:
    spec = parse(KovFile, data, file)
    Checker(file).name(spec.name)
    eps0 = exponent(file, "kov.epsilon0", spec.kov.epsilon0)
    if eps0.mp() <= 1:
        raise SpecError(file, "kov.epsilon0", f"epsilon0 = {spec.kov.epsilon0} must be > 0 (the bound "
                        "splits each output by the ratio e^epsilon0 > 1)")
    runs = spec.kov.runs
    if not 1 <= runs <= MAX_RUNS:
        raise SpecError(file, "kov.runs", f"runs = {runs} must be in [1, {MAX_RUNS}]")
    if runs * float(eps0.log_value()) >= MAX_RUNS_TIMES_EPS0:
        raise SpecError(file, "kov.runs", f"runs * epsilon0 = {runs} * {spec.kov.epsilon0} must stay below "
                        f"{MAX_RUNS_TIMES_EPS0}: e^(runs * epsilon0) must be a binary64 number for the "
                        "interval evaluation")
    eps = exponent(file, "claim.epsilon", spec.claim.epsilon)
    if eps.mp() < 1:
        raise SpecError(file, "claim.epsilon", f"epsilon = {spec.claim.epsilon} is negative")
    if float(eps.log_value()) > MAX_RUNS_TIMES_EPS0:
        raise SpecError(file, "claim.epsilon", f"epsilon = {spec.claim.epsilon} is beyond the binary64 range")
    delta = _delta(file, spec.claim.delta)
    return KovSpec(path=file, sha256=sha256, name=spec.name, description=spec.description, epsilon0=eps0,
                   epsilon0_text=str(spec.kov.epsilon0), runs=runs, epsilon=eps,
                   epsilon_text=str(spec.claim.epsilon), delta=delta, delta_text=str(spec.claim.delta))


def exponent(file: str, field: str, text: Any) -> Exponent:
    """A rational, ln(q) or m*ln(q), parsed by the whitelist of core/expr.py (never evaluated)."""
    try:
        e = E.parse(text)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    q = _rational(e)
    if q is not None:
        return Exponent(q)
    factor = Fraction(1)
    if isinstance(e, E.BinOp) and e.op == "*" and isinstance(e.left, E.Num):
        factor, e = e.left.value, e.right
    if (isinstance(e, E.Call) and e.fn == "ln" and isinstance(e.args[0], E.Num) and e.args[0].value > 0
            and factor.denominator == 1 and 0 <= factor <= 10_000):
        return Exponent(e.args[0].value ** int(factor), log=True)
    raise SpecError(file, field, f"{text!r}: give a rational, ln(q) or m*ln(q) with q > 0 rational and m a "
                    "whole number (Coq then knows e^epsilon exactly or brackets it)")


def _delta(file: str, text: Any) -> Fraction:
    try:
        e = E.parse(text)
    except E.ExprError as exc:
        raise SpecError(file, "claim.delta", str(exc)) from None
    d = _rational(e)
    if d is None:
        raise SpecError(file, "claim.delta", f"{text!r} is not an exact rational number")
    if not 0 <= d <= 1:
        raise SpecError(file, "claim.delta", f"delta = {d} is not in [0, 1]")
    return d


def _rational(e: E.Expr) -> Fraction | None:
    if isinstance(e, E.Num):
        return e.value
    if isinstance(e, E.BinOp) and e.op == "/" and isinstance(e.left, E.Num) and isinstance(e.right, E.Num) \
            and e.right.value != 0:
        return e.left.value / e.right.value
    return None
