"""The table/formula form of the table model (schema_version 1), as pydantic models,
written in the vocabulary of `core/vocabulary.py`.

These models check the shape of a spec; `table/spec.py` checks its meaning
(expressions, names, that rows are distributions) and reports every problem
with the file and the field.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool, StrictInt, model_validator

from obligations.core.vocabulary import Distance, Label, Number, Pairs, Piecewise, Range, Strict


class Claim(Strict):
    """(ε, δ)-DP, or with `tolerance` the smallest ε at δ (certified from both sides)."""

    epsilon: Number | None = Field(default=None, description="exact expression: ln(3), -ln(alpha), 1, 1/2, "
                                   "2*ln(3); omitted with `tolerance`")
    delta: Number = Field(default="0", description="exact rational: 0, 1/100, 0.0705")
    tolerance: Number | None = Field(default=None, description="instead of epsilon: the claim is the smallest "
                                     "epsilon (a multiple of this rational) with (epsilon, delta)-DP, certified "
                                     "with (epsilon - tolerance, delta) refuted")


class ProfileRequest(Strict):
    """Points of the privacy profile to certify from both sides (with `make prove`)."""

    epsilons: list[Number] = Field(default_factory=list,
                                   description="the ε to certify; empty: 0 and every breakpoint")
    compose: list[int] = Field(default_factory=lambda: [1],
                               description="k-fold compositions to profile, e.g. [1, 3]")


class Composition(Strict):
    """The claim is about the mechanism run `runs` times on the same input, with independent noise."""

    runs: StrictInt = Field(ge=1, description="K >= 1: the claim is about the K-fold composition")
    same_database: StrictBool | None = Field(
        default=None, description="with 'cw': true, one database drawn once and seen by all K runs "
        "(streaming CW-privacy, Σ_x f(x)·M(x)^⊗K)")


class Subsample(Strict):
    """Poisson subsampling: the input `without` is the batch without the protected record, every
    other input the batch with it; the record is kept with probability `rate`."""

    rate: Number = Field(description="q in (0, 1]: the probability that the record is in the batch")
    without: Label = Field(description="the input label of the batch without the record")


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
    inputs: list[Label] | Range
    outputs: list[Label] | Range
    table: dict[str, list[Number]] | None = Field(
        default=None, description="input label -> probabilities of the outputs, in order")
    formula: str | Piecewise | None = Field(
        default=None, description="Pr[M(x) = y] over input value x and output value y")
    distribution: Literal["full", "sub"] = Field(
        default="full", description="full: rows sum to 1; sub: rows sum to at most 1")
    neighbours: Literal["all", "adjacent", "add_remove"] | Pairs | Distance
    claim: Claim
    profile: ProfileRequest | None = None
    cw: CW | None = None
    composition: Composition | None = Field(
        default=None, description="the claim about the K-fold composition (exactly, by the privacy-loss "
        "distribution, when the product table is too large)")
    subsample: Subsample | None = Field(
        default=None, description="the claim is about the Poisson-subsampled mechanism, add/remove "
        "neighbours (with 'neighbours: add_remove')")
    route: Literal["auto", "table", "family"] = Field(
        default="auto", description="how a formula's claim is proved: by its table, as an instance of a "
        "library family (theories/Finite/TGeom.v, RR.v), or auto (the family for tables over 10 000 entries)")

    @model_validator(mode="after")
    def _one_form(self) -> Spec:
        if (self.table is None) == (self.formula is None):
            raise ValueError("give exactly one of 'table' and 'formula'")
        return self
