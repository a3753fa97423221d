"""The spec form of a mechanism calibrated with e^eps and named by its parameters (a
library family, `theories/Finite/GeomExp.v`): no table, no formula, the family's
parameters only."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt, model_validator

from obligations.core.vocabulary import Claim, Distance, Label, Number, Pairs, Range, Strict


class Geometric(Strict):
    """The truncated geometric over {0..n} with alpha = e^(-epsilon), as DP libraries calibrate it."""

    epsilon: Number = Field(description="exact real >= 0: 1, 1/2, ln(2); the noise is alpha = exp(-epsilon)")
    n: StrictInt = Field(ge=1, le=10**6, description="n >= 1: inputs and outputs are 0..n")


class Exponential(Strict):
    """The exponential mechanism: output y with probability proportional to e^(coefficient * score(x, y))."""

    coefficient: Number = Field(description="exact real c >= 0 (libraries take epsilon / (2 * sensitivity)): "
                                "1/2, ln(3)/2")
    scores: dict[str, list[Number]] = Field(description="input label -> the rational scores of the outputs, in order")


class ExpFamilySpec(Strict):
    """A mechanism calibrated with e^eps, given by its family and parameters."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the mechanism, e.g. geometric_eps1")
    description: str = ""
    inputs: list[Label] | Range | None = Field(default=None, description="the exponential's inputs")
    outputs: list[Label] | Range | None = Field(default=None, description="the exponential's outputs")
    geometric: Geometric | None = None
    exponential: Exponential | None = None
    neighbours: Literal["all", "adjacent"] | Pairs | Distance
    claim: Claim

    @model_validator(mode="after")
    def _one_family(self) -> ExpFamilySpec:
        if (self.geometric is None) == (self.exponential is None):
            raise ValueError("give exactly one of 'geometric' and 'exponential'")
        if self.exponential is not None and (self.inputs is None or self.outputs is None):
            raise ValueError("the exponential mechanism needs 'inputs' and 'outputs'")
        if self.geometric is not None and (self.inputs is not None or self.outputs is not None):
            raise ValueError("the geometric's inputs and outputs are 0..n: no 'inputs' or 'outputs'")
        return self
