"""Snapping against Laplace (seed 003 §3.1): a noise pipeline compared, sample by sample,
with the Laplace mechanism on the same noise.  The distance theorems hold for all
parameter values (`theories/Noise/SnapUtility.v`), template `distance.v.j2`."""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Optional

from obligations.core.obligation import Plan, Verdict
from obligations.kinds.base import Unfolded
from obligations.kinds.utility import spec as dist_spec
from obligations.kinds.utility.document import render
from obligations.kinds.utility.instance import Instance, instance, report
from obligations.kinds.utility.spec import DistanceFile, DistanceSpec


class UtilityKind:
    name = "utility"
    title = "noise pipeline compared with Laplace"
    form = DistanceFile
    profiles = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        return dist_spec.is_distance(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> DistanceSpec:
        return dist_spec.check(data, file, sha256)

    def expand(self, spec: DistanceSpec) -> list[DistanceSpec]:
        return [spec]

    def derive(self, spec: DistanceSpec, derived: Mapping[str, Any]) -> DistanceSpec:
        raise ValueError("a comparison with Laplace has no derived claims")

    def analyse(self, spec: DistanceSpec) -> Unfolded:
        t0 = time.perf_counter()
        rendered = render(spec)
        # Nothing to decide: the theorems hold for all parameter values, Coq checks them.
        p = Plan(expected=Verdict.PROVED, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
                 delta_at_claim=None, delta_at_claim_float=math.nan)
        return Unfolded(spec, None, p, rendered, {"render": time.perf_counter() - t0})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return None

    def summary(self, spec: DistanceSpec) -> str:
        return f"noise pipeline, claim: {spec.claim_text}"

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        s = u.spec
        item: dict[str, Any] = {"name": s.name, "expected": u.plan.expected, "claim": s.claim_record,
                                "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim {s.claim_text}",
                 f"  theorems: {', '.join(item['theorems'])}"]
        if coq:
            item["coq"] = u.rendered.text
            lines.append(u.rendered.text)
        return item, lines

    def finite_table(self, spec: DistanceSpec) -> None:
        return None


UTILITY = UtilityKind()

__all__ = ["UTILITY", "Instance", "instance", "report"]
