"""Accuracy claims: the YAML form and its checks.

An accuracy spec is a finite mechanism (a table or a formula over integer ranges, as
the finite kind reads it) whose claim is about its error instead of its privacy:

    claim: {accuracy: {alpha: 2, beta: 1/10}}     # Pr[|M(x) - x| > alpha] <= beta, every x
    claim: {expected_error: {at_most: 3/4}}        # E|M(x) - x| <= 3/4, every x

The query value of input x is x itself and output y stands for the value y, so the
error is |y - x|.  Every problem is a SpecError naming the file and the field.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, model_validator

from obligations.core import expr as E
from obligations.core.checker import ACCURACY_CLAIMS
from obligations.core.claims import Accuracy, Claim, ExpectedError
from obligations.core.model import parse
from obligations.core.spec import MechanismSpec
from obligations.core.vocabulary import Number, Pairs, Strict
from obligations.table.form import Spec
from obligations.table.spec import TableChecker

CLAIM_KEYS = ACCURACY_CLAIMS


class AlphaBeta(Strict):
    """(alpha, beta)-accuracy: on every input, Pr[|M(x) - x| > alpha] <= beta."""

    alpha: Number = Field(description="the error allowed, an exact positive number, e.g. 2")
    beta: Number = Field(description="the probability allowed, an exact number in [0, 1], e.g. 1/10")


class AtMost(Strict):
    """On every input, E|M(x) - x| <= at_most."""

    at_most: Number = Field(description="an exact nonnegative number, e.g. 3/4")


class AccuracyClaim(Strict):
    accuracy: AlphaBeta | None = None
    expected_error: AtMost | None = None

    @model_validator(mode="after")
    def _one_claim(self) -> AccuracyClaim:
        if (self.accuracy is None) == (self.expected_error is None):
            raise ValueError("give exactly one of 'accuracy' and 'expected_error'")
        return self


class AccuracyFile(Spec):
    """A finite mechanism over integer ranges and an accuracy claim about it."""

    neighbours: Literal["all", "adjacent"] | Pairs | None = Field(  # type: ignore[assignment]
        default=None, description="not used by an accuracy claim")
    claim: AccuracyClaim  # type: ignore[assignment]


@dataclass(frozen=True)
class AccuracySpec:
    """A checked accuracy spec: the finite mechanism (`mech`, with a placeholder privacy
    claim that nothing reads) and the accuracy claim."""

    path: str
    sha256: str
    name: str
    description: str
    mech: MechanismSpec
    form: str                           # "accuracy" or "expected_error"
    alpha: Fraction | None = None
    beta: Fraction | None = None
    bound: Fraction | None = None    # expected_error.at_most
    texts: tuple[str, ...] = ()         # the claim's numbers as written
    derived: Mapping[str, Any] | None = None
    profile_compose: tuple[int, ...] = ()
    kind: str = "accuracy"

    @property
    def claim(self) -> Claim:
        if self.form == "accuracy":
            return Accuracy(self.texts[0], self.texts[1])
        return ExpectedError(self.texts[0])


def is_accuracy(data: Any) -> bool:
    claim = data.get("claim") if isinstance(data, dict) else None
    return isinstance(claim, dict) and any(k in claim for k in CLAIM_KEYS)


def check(data: Mapping[str, Any], file: str, sha256: str) -> AccuracySpec:
    return AccuracyChecker(file, sha256, parse(AccuracyFile, dict(data), file)).accuracy()


class AccuracyChecker(TableChecker):
    """The table form's checks of the mechanism, then the accuracy claim's."""

    spec: AccuracyFile

    def accuracy(self) -> AccuracySpec:
        s = self.spec
        if s.cw is not None:
            raise self.fail("cw", "an accuracy claim is about the mechanism itself, not its CW variant")
        if s.profile is not None:
            raise self.fail("profile", "privacy profiles go with privacy claims, not accuracy claims")
        if s.composition is not None:
            raise self.fail("composition", "an accuracy claim is about one run of the mechanism")
        params, types = self.run_names()
        inputs = self.domain("inputs", s.inputs, params, types)
        outputs = self.domain("outputs", s.outputs, params, types)
        for field, d in (("inputs", inputs), ("outputs", outputs)):
            if d.values is None:
                raise self.fail(field, "an accuracy claim needs integer values ({range: [lo, hi]}): "
                                "the query value is the input value and the error is |output - input|")
        table = self.table(inputs, outputs, types) if s.table is not None else None
        formula = self.formula(inputs, outputs, types) if s.formula is not None else None
        zero = E.parse("0")
        mech = MechanismSpec(
            path=self.file, sha256=self.sha256, name=s.name, description=s.description,
            parameters=params, parameter_types=types, inputs=inputs, outputs=outputs,
            table=table, formula=formula, distribution=s.distribution, neighbours="all",
            epsilon=zero, epsilon_text="0", delta=Fraction(0), delta_text="0")
        common: dict[str, Any] = dict(path=self.file, sha256=self.sha256, name=s.name,
                                      description=s.description, mech=mech)
        if s.claim.accuracy is not None:
            a, b = s.claim.accuracy.alpha, s.claim.accuracy.beta
            alpha = self.number("claim.accuracy.alpha", a, params, types)
            beta = self.number("claim.accuracy.beta", b, params, types)
            if alpha <= 0:
                raise self.fail("claim.accuracy.alpha", f"alpha = {alpha} must be positive")
            if not 0 <= beta <= 1:
                raise self.fail("claim.accuracy.beta", f"beta = {beta} is not in [0, 1]")
            return AccuracySpec(**common, form="accuracy", alpha=alpha, beta=beta, texts=(str(a), str(b)))
        assert s.claim.expected_error is not None
        t = s.claim.expected_error.at_most
        bound = self.number("claim.expected_error.at_most", t, params, types)
        if bound < 0:
            raise self.fail("claim.expected_error.at_most", f"at_most = {bound} is negative")
        return AccuracySpec(**common, form="expected_error", bound=bound, texts=(str(t),))

    def number(self, field: str, text: Number, params: Mapping[str, Fraction],
               types: Mapping[str, str]) -> Fraction:
        return self.value(field, self.expression(field, text, types), params)
