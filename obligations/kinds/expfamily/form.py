"""The spec form of a mechanism calibrated with e^eps and named by its parameters (a
library family, `theories/Finite/GeomExp.v`): no table, no formula, the family's
parameters only."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import Field, StrictInt

from obligations.kinds.finite.form import Claim, Distance, Number, Strict


class Geometric(Strict):
    """The truncated geometric over {0..n} with alpha = e^(-epsilon), as DP libraries calibrate it."""

    epsilon: Number = Field(description="exact real >= 0: 1, 1/2, ln(2); the noise is alpha = exp(-epsilon)")
    n: StrictInt = Field(ge=1, le=10**6, description="n >= 1: inputs and outputs are 0..n")


class ExpFamilySpec(Strict):
    """A mechanism calibrated with e^eps, given by its family and parameters."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the mechanism, e.g. geometric_eps1")
    description: str = ""
    geometric: Geometric
    neighbours: Union[Literal["adjacent"], Distance]
    claim: Claim
