"""The forms of the noise model: a noise pipeline compared with Laplace (recognised by its
`distance_to_laplace` claim) and a noise pipeline's DP claim."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from obligations.core.checker import refuse_accuracy
from obligations.core.model import Form, Route
from obligations.noise import spec, utility_spec
from obligations.noise.against_laplace import AGAINST_LAPLACE
from obligations.noise.by_cases import BY_CASES
from obligations.noise.spec import PipelineFile, PipelineSpec
from obligations.noise.utility_spec import DistanceFile, DistanceSpec

WITH_LAPLACE = "; a noise pipeline is compared with Laplace by claim: {distance_to_laplace: pointwise}"


class UtilityForm(Form[DistanceSpec]):
    kind = "utility"
    title = "noise pipeline compared with Laplace"
    schema = DistanceFile
    noun = "a comparison with Laplace"
    routes: Sequence[Route[DistanceSpec, Any]] = (AGAINST_LAPLACE,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return utility_spec.is_distance(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> DistanceSpec:
        if "pipeline" in data:
            refuse_accuracy(data, file, "a noise pipeline", WITH_LAPLACE)
        return utility_spec.check(data, file, sha256)

    def summary(self, s: DistanceSpec) -> str:
        return f"noise pipeline, claim: {s.claim.text()}"


class PipelineForm(Form[PipelineSpec]):
    kind = "pipeline"
    title = "noise pipeline"
    schema = PipelineFile
    noun = "a noise pipeline"
    routes: Sequence[Route[PipelineSpec, Any]] = (BY_CASES,)

    def recognises(self, data: Mapping[str, Any]) -> bool:
        return spec.is_pipeline(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> PipelineSpec:
        refuse_accuracy(data, file, "a noise pipeline", WITH_LAPLACE)
        return spec.check(dict(data), file, sha256)

    def summary(self, s: PipelineSpec) -> str:
        return f"noise pipeline, claim ({s.epsilon_text}, 0)-DP"


FORMS: tuple[Form[Any], ...] = (UtilityForm(), PipelineForm())
