"""The spec vocabulary every model's forms are written in (schema_version 1), as pydantic
models: numbers and labels that YAML cannot turn into something else, strict fields,
ranges, piecewise formulas, neighbour relations and the (ε, δ) claim.

These models check the shape of a spec; each form's checks (`core/checker.py` and the
model's own) check its meaning and report every problem with the file and the field.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, model_validator

# Strict: YAML's true/yes/on must not become the number 1 or the label "1".
Number = StrictInt | StrictFloat | StrictStr
Label = StrictStr | StrictInt


class Strict(BaseModel):
    """No unknown field (a misspelling is an error), no mutation."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Aliased(Strict):
    """Strict, with fields that may be given by their alias (`if`, `for`, `from`, `in`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


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
    cases: list[Case | Otherwise] = Field(min_length=1)

    @model_validator(mode="after")
    def _last_is_otherwise(self) -> Piecewise:
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


Neighbours = Literal["all", "adjacent"] | Pairs | Distance


class Claim(Strict):
    epsilon: Number = Field(description="exact expression: ln(3), -ln(alpha), 1, 1/2, 2*ln(3)")
    delta: Number = Field(default="0", description="exact rational: 0, 1/100, 0.0705")
