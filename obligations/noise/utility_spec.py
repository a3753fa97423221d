"""The pointwise comparison of a noise pipeline (the snapping mechanism) with the Laplace
mechanism on the same noise (seed 003 §3.1):

    claim: {distance_to_laplace: pointwise}

The pipeline is read and checked exactly as the pipeline kind reads it; only the claim
differs.  Every problem is a SpecError naming the file and the field.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from obligations.core.claims import DistanceToLaplace
from obligations.core.vocabulary import Strict
from obligations.errors import SpecError
from obligations.noise import CLAIM_KEY
from obligations.noise import spec as pipeline_spec
from obligations.noise.spec import PipelineFile, PipelineSpec


class DistanceClaim(Strict):
    distance_to_laplace: Literal["pointwise"] = Field(
        description="pointwise: |Laplace - snapping| on the same noise, case by case (seed 003 §3.1)")


class DistanceFile(PipelineFile):
    """A noise pipeline and the claim that compares it with Laplace noise, sample by sample."""

    claim: DistanceClaim  # type: ignore[assignment]


@dataclass(frozen=True)
class DistanceSpec:
    path: str
    sha256: str
    name: str
    description: str
    pipeline: PipelineSpec
    derived: Mapping[str, Any] | None = None
    profile_compose: tuple[int, ...] = ()
    kind: str = "utility"

    @property
    def claim(self) -> DistanceToLaplace:
        return DistanceToLaplace("pointwise")


def is_distance(data: Any) -> bool:
    claim = data.get("claim") if isinstance(data, dict) else None
    return isinstance(claim, dict) and CLAIM_KEY in claim


def check(data: Mapping[str, Any], file: str, sha256: str) -> DistanceSpec:
    claim = data["claim"]
    if "pipeline" not in data:
        raise SpecError(file, f"claim.{CLAIM_KEY}", "a comparison with Laplace needs a noise pipeline "
                        "(pipeline: {steps: [...]})")
    if set(claim) != {CLAIM_KEY}:
        other = sorted(set(claim) - {CLAIM_KEY})[0]
        raise SpecError(file, f"claim.{other}", f"{CLAIM_KEY} is a claim of its own: no {other!r} beside it")
    if claim[CLAIM_KEY] != "pointwise":
        raise SpecError(file, f"claim.{CLAIM_KEY}", f"expected 'pointwise', got {claim[CLAIM_KEY]!r}")
    # The pipeline's own checks, with a privacy claim that nothing reads.
    p = pipeline_spec.check({**data, "claim": {"epsilon": "0"}}, file, sha256)
    return DistanceSpec(path=file, sha256=sha256, name=p.name, description=p.description, pipeline=p)
