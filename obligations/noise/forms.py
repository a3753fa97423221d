"""The forms of the noise model: a noise pipeline compared with Laplace (recognised by its
`distance_to_laplace` claim) and a noise pipeline's DP claim."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from obligations.core.checker import refuse_accuracy
from obligations.core.model import Form
from obligations.noise import spec, utility_spec
from obligations.noise.against_laplace import AGAINST_LAPLACE
from obligations.noise.by_cases import BY_CASES
from obligations.noise.spec import PipelineFile, PipelineSpec
from obligations.noise.utility_spec import DistanceFile, DistanceSpec

WITH_LAPLACE = "; a noise pipeline is compared with Laplace by claim: {distance_to_laplace: pointwise}"


def _check_distance(data: Mapping[str, Any], file: str, sha256: str) -> DistanceSpec:
    if "pipeline" in data:
        refuse_accuracy(data, file, "a noise pipeline", WITH_LAPLACE)
    return utility_spec.check(data, file, sha256)


def _check_pipeline(data: Mapping[str, Any], file: str, sha256: str) -> PipelineSpec:
    refuse_accuracy(data, file, "a noise pipeline", WITH_LAPLACE)
    return spec.check(dict(data), file, sha256)


def _distance(s: DistanceSpec) -> str:
    return f"noise pipeline, claim: {s.claim.text()}"


def _pipeline(s: PipelineSpec) -> str:
    return f"noise pipeline, claim ({s.epsilon_text}, 0)-DP"


FORMS: tuple[Form[Any], ...] = (
    Form("utility", "noise pipeline compared with Laplace", DistanceFile, utility_spec.is_distance,
         _check_distance, _distance, (AGAINST_LAPLACE,), noun="a comparison with Laplace"),
    Form("pipeline", "noise pipeline", PipelineFile, spec.is_pipeline, _check_pipeline, _pipeline, (BY_CASES,),
         noun="a noise pipeline"),
)
