"""The family form: a formula spec whose parameters are symbols with constraints."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from obligations.core.vocabulary import Claim, Distance, Number, Piecewise, Range, Strict


class RangeConstraint(Strict):
    """A rational parameter in an interval; bounds may use earlier parameters."""

    range: str = Field(description='an interval, e.g. "(0, 1)", "(0, 1/2]" or "[1/k, 1)"')


class IntegerConstraint(Strict):
    """An integer parameter from a bound on."""

    integer: str = Field(description='a lower bound, e.g. ">= 1" or "> 0"')


Parameter = RangeConstraint | IntegerConstraint | Number


class FamilyFile(Strict):
    """A formula with symbolic parameters and a DP claim for every parameter value allowed."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the family, e.g. truncated_geometric_family")
    description: str = ""
    parameters: dict[str, Parameter] = Field(
        description="name -> {range: \"(0, 1)\"}, {integer: \">= 1\"} or an exact constant")
    inputs: Range
    outputs: Range
    formula: str | Piecewise = Field(description="Pr[M(x) = y] over input value x and output value y")
    distribution: Literal["full"] = Field(default="full", description="rows sum to 1")
    neighbours: Literal["all", "adjacent"] | Distance
    claim: Claim
