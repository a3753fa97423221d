"""The spec file format (schema_version 1), as pydantic models.

These models check the shape of a spec; `load` checks its meaning
(expressions, names, that rows are distributions) and reports every problem
with the file and the field.
"""
from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictBool, StrictInt, StrictStr, model_validator

# Strict: YAML's true/yes/on must not become the number 1 or the label "1".
Number = Union[StrictInt, StrictFloat, StrictStr]
Label = Union[StrictStr, StrictInt]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Range(Strict):
    """The integers lo, lo+1, ..., hi (both included); bounds may use integer parameters."""

    range: tuple[Number, Number] = Field(description="[lo, hi], inclusive, e.g. [0, \"n\"]")


class Case(Strict):
    """One piece of a piecewise formula: `value` where `when` holds."""

    when: str = Field(description="condition over x, y and the parameters, e.g. \"y == 0\"")
    value: Number


class Otherwise(Strict):
    otherwise: Number = Field(description="the value where no earlier case holds")


class Piecewise(Strict):
    cases: list[Union[Case, Otherwise]] = Field(min_length=1)

    @model_validator(mode="after")
    def _last_is_otherwise(self) -> "Piecewise":
        kinds = [isinstance(c, Otherwise) for c in self.cases]
        if not kinds[-1] or any(kinds[:-1]):
            raise ValueError("the last case, and only the last, must be 'otherwise'")
        return self


class Pairs(Strict):
    """Explicit neighbours: unordered pairs of input labels."""

    pairs: list[tuple[Label, Label]] = Field(min_length=1)


class Distance(Strict):
    """Integer-labelled inputs at distance at most d are neighbours (sensitivity d)."""

    distance: StrictInt = Field(ge=1, description="d >= 1: inputs x, x' with |x - x'| <= d are neighbours")


class Claim(Strict):
    epsilon: Number = Field(description="exact expression: ln(3), -ln(alpha), 1, 1/2, 2*ln(3)")
    delta: Number = Field(default="0", description="exact rational: 0, 1/100, 0.0705")


class ProfileRequest(Strict):
    """Points of the privacy profile to certify from both sides (with `make prove`)."""

    epsilons: list[Number] = Field(default_factory=list,
                                   description="the ε to certify; empty: 0 and every breakpoint")
    compose: list[int] = Field(default_factory=lambda: [1],
                               description="k-fold compositions to profile, e.g. [1, 3]")


class Composition(Strict):
    """The claim is about the mechanism run `runs` times on the same input, with independent noise."""

    runs: StrictInt = Field(ge=1, description="K >= 1: the claim is about the K-fold composition")
    same_database: Optional[StrictBool] = Field(
        default=None, description="with 'cw': true, one database drawn once and seen by all K runs "
        "(streaming CW-privacy, Σ_x f(x)·M(x)^⊗K)")


class CW(Strict):
    """CW-privacy (seed 001 §1.2): the database is drawn from `prior`, its scrubbed
    version alt(X) from `alt_prior`; the claim is about M' = [f_D·M, f_D'·M]."""

    prior: dict[str, Number] = Field(description="input label -> probability (missing: 0)")
    alt_prior: dict[str, Number] = Field(description="input label -> probability (missing: 0)")


class Spec(Strict):
    """A finite mechanism and a differential-privacy claim about it."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the mechanism, e.g. randomized_response")
    description: str = ""
    parameters: dict[str, Number] = Field(
        default_factory=dict, description="named exact constants, e.g. {alpha: 1/2, n: 50}")
    inputs: Union[list[Label], Range]
    outputs: Union[list[Label], Range]
    table: Optional[dict[str, list[Number]]] = Field(
        default=None, description="input label -> probabilities of the outputs, in order")
    formula: Optional[Union[str, Piecewise]] = Field(
        default=None, description="Pr[M(x) = y] over input value x and output value y")
    distribution: Literal["full", "sub"] = Field(
        default="full", description="full: rows sum to 1; sub: rows sum to at most 1")
    neighbours: Union[Literal["all", "adjacent"], Pairs, Distance]
    claim: Claim
    profile: Optional[ProfileRequest] = None
    cw: Optional[CW] = None
    composition: Optional[Composition] = Field(
        default=None, description="the claim about the K-fold composition (exactly, by the privacy-loss "
        "distribution, when the product table is too large)")
    route: Literal["auto", "table", "family"] = Field(
        default="auto", description="how a formula's claim is proved: by its table, as an instance of a "
        "library family (theories/Finite/TGeom.v, RR.v), or auto (the family for tables over 10 000 entries)")

    @model_validator(mode="after")
    def _one_form(self) -> "Spec":
        if (self.table is None) == (self.formula is None):
            raise ValueError("give exactly one of 'table' and 'formula'")
        return self
