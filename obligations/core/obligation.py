"""Proof obligations: what unfolding a claim asks Coq to check.

Each obligation is a small frozen value.  Numbers in them (bounds on e^ε,
witnesses) are hints that help Coq prove the statement; none of them is the
statement, which the renderer builds from the spec alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Literal

Method = Literal["exact", "interval", "taylor"]


@dataclass(frozen=True)
class TaylorHint:
    """How Coq bounds e^x for a rational x ≥ 0: as (e^(x/split))^split, with the Taylor
    series to `terms` terms (a lower bound) or the alternating series of e^(-x/split) to
    degree 2·terms + 1 (an upper bound).  A hint: Coq checks x = ε and the inequality."""

    x: Fraction
    split: int
    terms: int


@dataclass(frozen=True)
class RowsAreDistributions:
    """Every row is non-negative and sums to 1 ("full") or to at most 1 ("sub")."""

    kind: Literal["full", "sub"]


@dataclass(frozen=True)
class ExpLowerBound:
    """bound ≤ e^ε; exact when e^ε is rational (then bound = e^ε), else by the Taylor
    series when ε is rational, else by interval."""

    bound: Fraction
    method: Method
    precision_bits: int = 53
    taylor: TaylorHint | None = None


@dataclass(frozen=True)
class ExpUpperBound:
    """e^ε ≤ bound."""

    bound: Fraction
    method: Method
    precision_bits: int = 53
    taylor: TaylorHint | None = None


# e^ε bounded on either side: below to prove a claim, above to refute one.
ExpBound = ExpLowerBound | ExpUpperBound


@dataclass(frozen=True)
class PointwiseCheck:
    """M(x)(y) ≤ bound · M(x')(y) for all neighbours x, x' and outputs y."""

    bound: Fraction


@dataclass(frozen=True)
class HockeyStickCheck:
    """Σ_y max(0, M(x)(y) − bound · M(x')(y)) ≤ delta for all neighbours."""

    bound: Fraction
    delta: Fraction


@dataclass(frozen=True)
class Witness:
    """Neighbours x, x' and an output set S with Pr[M(x) ∈ S] > e^ε · Pr[M(x') ∈ S] + δ."""

    x: int
    x2: int
    outputs: tuple[int, ...]
    pr_x: Fraction
    pr_x2: Fraction
    bound: Fraction  # U ≥ e^ε used in the check


@dataclass(frozen=True)
class AccountantCheck:
    """The K-fold composition by the accountant: every pair's loss keys of base b (stride d,
    exact or rounded) and its PLD checked exactly, the K-th powers in floats rounded down;
    δ(ε) ≤ δ proved at each (ε, δ) of `proved`, δ(ε) > δ at each of `refuted` with the pair
    (x, x2) and its loss event as witness."""

    base: Fraction
    stride: int
    exact: bool
    runs: int
    plds: int
    proved: tuple[tuple[Fraction, Fraction], ...]
    refuted: tuple[tuple[Fraction, Fraction], ...]
    x: int
    x2: int


@dataclass(frozen=True)
class StreamClassCheck:
    """hs(t) of K runs on the same database, summed over the classes of output sequences:
    ≤ delta for both orders of the rows at 1 ≤ t ≤ e^ε, or > delta for order `direction`
    (0: database then scrubbed, 1: the other) at t ≥ e^ε."""

    runs: int
    classes: int
    t: Fraction
    delta: Fraction
    refute: bool
    direction: int


@dataclass(frozen=True)
class StreamCoefCheck:
    """hs(t) of K runs of randomized response on the same database by the coefficient
    recursion in floats rounded one way (coefficients whose mass is below 2^tau_exp dropped
    into the bound): ≤ delta for both orders of the rows at 1 ≤ t ≤ e^ε (rounded up), or
    > delta for order `direction` (0: database then scrubbed, 1: the other) at t ≥ e^ε
    (rounded down)."""

    runs: int
    t: Fraction
    delta: Fraction
    refute: bool
    direction: int
    tau_exp: int


@dataclass(frozen=True)
class StreamGroupCheck:
    """hs(t) of K runs of randomized response on the same database, a prior on one pair of
    inputs against an alternative on another, by the sum grouped by block counts in floats
    rounded one way: ≤ delta for both orders of the rows at 1 ≤ t ≤ e^ε (rounded up; one order
    when an involution swaps the priors), or > delta for order `direction` at t ≥ e^ε
    (rounded down)."""

    runs: int
    t: Fraction
    delta: Fraction
    refute: bool
    direction: int
    pairs: tuple[int, int, int, int]


Obligation = (RowsAreDistributions | ExpLowerBound | ExpUpperBound | PointwiseCheck | HockeyStickCheck | Witness
              | AccountantCheck | StreamClassCheck | StreamCoefCheck | StreamGroupCheck)


class Verdict(str, Enum):
    """The one verdict vocabulary, from analysis (the verdict Python expects: proved,
    refuted or undecided) to Coq's outcome, certificates and the CLI."""

    PROVED = "proved"        # Coq proved the claim
    REFUTED = "refuted"      # Coq proved its negation, with a witness
    UNPROVED = "unproved"    # Coq did not accept the file (the goal it stopped at is shown)
    TIMEOUT = "timeout"      # a prover stage ran out of time
    UNDECIDED = "undecided"  # the analysis could not tell (nothing was sent to Coq)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Plan:
    """What unfolding found: the verdict Python expects and the obligations for Coq."""

    expected: Verdict
    obligations: tuple[Obligation, ...]
    tight_epsilon: str | None        # exact text, "oo" when supports differ
    tight_epsilon_float: float
    delta_at_claim: str | None       # exact text when e^ε is rational
    delta_at_claim_float: float
    notes: tuple[str, ...] = field(default_factory=tuple)
    # Why the claim holds whatever the mechanism is (no two distinct inputs are
    # neighbours, every row is zero): plain sentences; empty when it says something.
    vacuous: tuple[str, ...] = ()
