"""Claims as typed values: what a spec claims, as a certificate records it (`record`) and a
run reports it (`text`).  Every checked spec has a `claim`; certify reads nothing else of
it to say what was proved.

The records are those certificates have always carried: `verify` compares them, so a
claim type never changes the record of a claim that was already certified.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar


class Claim(ABC):
    """A claim about a mechanism (or about every mechanism of a class)."""

    # The table of a run's summary the claim is listed in, and whether that table has the
    # columns of a finite mechanism's DP (the smallest eps for delta = 0, delta at the claimed eps)
    group: ClassVar[str] = "DP claims"
    measured: ClassVar[bool] = True

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The certificate's `claim` field."""

    @abstractmethod
    def text(self) -> str:
        """One line for a run's report."""


@dataclass(frozen=True)
class Dp(Claim):
    """(ε, δ)-differential privacy for the neighbours the spec names."""

    epsilon: str
    delta: str
    neighbours: str    # "all", "adjacent", "distance:d", "pairs" or the spec's own words
    domain: str | None = None   # the inputs the claim is about, when not all of them (floating point)

    def record(self) -> dict[str, Any]:
        record = {"epsilon": self.epsilon, "delta": self.delta, "neighbours": self.neighbours}
        return record if self.domain is None else {**record, "domain": self.domain}

    def text(self) -> str:
        return f"({ln(self.epsilon)}, {ln(self.delta)})-DP" + ("" if self.domain is None else f" over {self.domain}")


def ln(text: str) -> str:
    """A spec's expression as a run reports it: `log`, which specs accept for ln, said as ln
    (the record keeps the spec's own words)."""
    return re.sub(r"\blog\(", "ln(", text)


@dataclass(frozen=True)
class Composition(Claim):
    """The claim about the mechanism run `runs` times on the same input, independent noise
    (recorded as its DP claim: the certificate's `derived` field or the spec says the runs)."""

    dp: Dp
    runs: int

    def record(self) -> dict[str, Any]:
        return self.dp.record()

    def text(self) -> str:
        return self.dp.text()


@dataclass(frozen=True)
class ForAllK(Claim):
    """ε-DP for every stream length k (and every ε: the noise is in units of 1/ε).  `noise`
    names a continuous law ("laplace"); None is the discrete Laplace, which the records of
    certified claims have always meant and so do not name."""

    group: ClassVar[str] = "DP for every stream length"
    measured: ClassVar[bool] = False

    dp: Dp
    noise: str | None = None

    def record(self) -> dict[str, Any]:
        return self.dp.record() if self.noise is None else {**self.dp.record(), "noise": self.noise}

    def text(self) -> str:
        return self.dp.text() + ("" if self.noise is None else f" under {self.noise} noise")


@dataclass(frozen=True)
class AtLength(Claim):
    """ε-DP of a program over a stream of one length (every ε: the noise is in units of 1/ε),
    under the noise `noise` names ("laplace": continuous)."""

    group: ClassVar[str] = "DP at a fixed stream length"
    measured: ClassVar[bool] = False

    dp: Dp
    length: int
    noise: str

    def record(self) -> dict[str, Any]:
        return {**self.dp.record(), "stream_length": self.length, "noise": self.noise}

    def text(self) -> str:
        return f"{self.dp.text()} under {self.noise} noise"


@dataclass(frozen=True)
class ForEveryMechanism(Claim):
    """A DP claim about every mechanism of a class (the KOV bound: every (ε0, 0)-DP one run
    `runs` times); `about` says the class as the certificate records it."""

    group: ClassVar[str] = "DP of every mechanism of a class"
    measured: ClassVar[bool] = False

    dp: Dp
    key: str         # the record's key naming the class: "kov"
    about: str

    def record(self) -> dict[str, Any]:
        return {**self.dp.record(), self.key: self.about}

    def text(self) -> str:
        return self.dp.text()


@dataclass(frozen=True)
class Accuracy(Claim):
    """(α, β)-accuracy of the query `query`: Pr[|M(x) - x| > α] <= β on every input."""

    group: ClassVar[str] = "accuracy"
    measured: ClassVar[bool] = False

    alpha: str
    beta: str
    query: str = "input value"

    def record(self) -> dict[str, Any]:
        return {"accuracy": {"alpha": self.alpha, "beta": self.beta}, "query": self.query}

    def text(self) -> str:
        return f"({self.alpha}, {self.beta})-accuracy: Pr[|M(x) - x| > {self.alpha}] <= {self.beta}"


@dataclass(frozen=True)
class ExpectedError(Claim):
    """E|M(x) - x| <= at_most on every input."""

    group: ClassVar[str] = "accuracy"
    measured: ClassVar[bool] = False

    at_most: str
    query: str = "input value"

    def record(self) -> dict[str, Any]:
        return {"expected_error": {"at_most": self.at_most}, "query": self.query}

    def text(self) -> str:
        return f"expected error E|M(x) - x| <= {self.at_most}"


@dataclass(frozen=True)
class DistanceToLaplace(Claim):
    """The distance of a noise pipeline's output to Laplace's on the same noise, case by case."""

    group: ClassVar[str] = "distance to Laplace"
    measured: ClassVar[bool] = False

    how: str = "pointwise"

    def record(self) -> dict[str, Any]:
        return {"distance_to_laplace": self.how}

    def text(self) -> str:
        return "distance to Laplace on the same noise, case by case (seed 003 §3.1)"


@dataclass(frozen=True)
class Loss(Claim):
    """A bound on the privacy loss stated by a formula (binary64 snapping): recorded as the
    DP claim it amounts to plus the setting (`key`: what the formula is about)."""

    group: ClassVar[str] = "privacy loss bounds"
    measured: ClassVar[bool] = False

    dp: Dp
    key: str
    setting: str
    said: str | None = None   # the line a run reports (default: the DP claim's)

    def record(self) -> dict[str, Any]:
        return {**self.dp.record(), self.key: self.setting}

    def text(self) -> str:
        return self.said if self.said is not None else self.dp.text()


def dp(epsilon: str, delta: str, neighbours: object, domain: str | None = None) -> Dp:
    """The DP claim as a spec states it; explicit pairs of neighbours are recorded as "pairs"."""
    return Dp(epsilon, delta, neighbours if isinstance(neighbours, str) else "pairs", domain)


class ClaimsDp:
    """A checked spec whose claim is (ε, δ)-DP for its neighbours, as written."""

    epsilon_text: str
    delta_text: str
    neighbours: Any

    @property
    def claim(self) -> Claim:
        return dp(self.epsilon_text, self.delta_text, self.neighbours)


@dataclass(frozen=True)
class DpOf(Claim):
    """(ε, δ)-DP of a mechanism the record also names in its own words (additive noise over Z,
    a chain of mechanisms and their files): the DP claim plus `key: about`."""

    dp: Dp
    key: str
    about: Any

    def record(self) -> dict[str, Any]:
        return {**self.dp.record(), self.key: self.about}

    def text(self) -> str:
        return self.dp.text()
