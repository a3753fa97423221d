"""Route: snapping against Laplace (seed 003 §3.1), a noise pipeline compared, sample by sample,
with the Laplace mechanism on the same noise.  The distance theorems hold for all parameter
values (`theories/Noise/SnapUtility.v`): nothing to decide, Coq checks them.  The analysis is
the Laplace scale of the pipeline's noise, which the template writes.  Template `distance.v.j2`."""
from __future__ import annotations

import math

from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import Plan, Verdict
from obligations.core.templates import Rendered
from obligations.noise.utility_document import LaplaceScale, laplace_scale, render
from obligations.noise.utility_spec import DistanceSpec


class AgainstLaplace(Route[DistanceSpec, LaplaceScale]):
    name = "against Laplace"

    def analyse(self, spec: DistanceSpec) -> Analysed[LaplaceScale]:
        # Nothing to decide: the theorems hold for all parameter values, Coq checks them.
        return Analysed(laplace_scale(spec.pipeline), Plan(
            expected=Verdict.PROVED, obligations=(), tight_epsilon=None, tight_epsilon_float=math.nan,
            delta_at_claim=None, delta_at_claim_float=math.nan))

    def render(self, spec: DistanceSpec, a: Analysed[LaplaceScale]) -> Rendered:
        return render(spec, a.mechanism)

    def describe(self, u: Unfolded[DistanceSpec, LaplaceScale]) -> Description:
        s = u.spec
        item = {"name": s.name, "expected": u.plan.expected, "claim": s.claim.record(),
                "theorems": list(u.rendered.theorems)}
        lines = [f"{s.name} ({s.path}): claim {s.claim.text()}", f"  theorems: {', '.join(item['theorems'])}"]
        return item, lines


AGAINST_LAPLACE = AgainstLaplace()
