"""Noise pipelines run in a binary floating-point format: enumerated exactly, in Python
(`analysis.py`) and again in Coq with Flocq (`theories/Float/`), template `floating.v.j2`."""
from __future__ import annotations

import time
from typing import Any, Mapping, Optional

from obligations.analysis.finite import has_distinct_neighbours, plan
from obligations.core.spec import MechanismSpec
from obligations.kinds.base import Unfolded, witness_text
from obligations.kinds.finite import describe_table, table_witness
from obligations.kinds.floating import spec as F
from obligations.kinds.floating.analysis import FloatMechanism, one_sided, tabulate_floating
from obligations.kinds.floating.document import render_floating


class FloatingKind:
    name = "floating"
    title = "floating-point pipeline"
    form = F.FloatingFile
    profiles = True

    def claims(self, data: Mapping[str, Any]) -> bool:
        return F.is_floating(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
        return F.check(data, file, sha256)

    def expand(self, spec: MechanismSpec) -> list[MechanismSpec]:
        return [spec]

    def derive(self, spec: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
        from obligations.kinds.finite import FINITE  # a profile point of the table
        result: MechanismSpec = FINITE.derive(spec, derived)
        return result

    def analyse(self, spec: MechanismSpec) -> Unfolded:
        t0 = time.perf_counter()
        mech = tabulate_floating(spec)
        p = one_sided(mech, plan(mech, _vacuity(mech)))
        t1 = time.perf_counter()
        rendered = render_floating(mech, p)
        return Unfolded(spec, mech, p, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return table_witness(u)

    def summary(self, spec: MechanismSpec) -> str:
        pipe = spec.program
        return (f"floating-point pipeline (precision {pipe.fmt.precision}, emax {pipe.fmt.emax}, "
                f"{_sampler_text(pipe)}), claim ({spec.epsilon_text}, 0)-DP over {pipe.claim_domain}")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        m: FloatMechanism = u.mechanism
        item, table_lines = describe_table(u, coq)
        item["outputs"] = list(m.outputs)
        item["ln_table_entries"] = len(m.sampler)
        w = table_witness(u)
        if w is not None:
            item["witness"] = witness_text(w)
        lines = [f"{u.spec.name} ({u.spec.path}): {self.summary(u.spec)}",
                 f"  {len(m.outputs)} output bit patterns, {len(m.sampler)} distinct values of u"]
        if "witness" in item:
            lines.append(f"  {item['witness']}")
        return item, lines + table_lines

    def finite_table(self, spec: MechanismSpec) -> FloatMechanism:
        return tabulate_floating(spec)


def _sampler_text(pipe: F.FloatPipeline) -> str:
    return f"u on 2^{pipe.grid_bits} points" if pipe.sampler == "grid" else "u from U*, every float in (0, 1)"


def _vacuity(mech: FloatMechanism) -> tuple[str, ...]:
    """Why the claim holds for any pipeline, if it does: no two listed query values are
    within the sensitivity of each other, so no pair of inputs is compared."""
    if has_distinct_neighbours(mech):
        return ()
    pipe = mech.spec.program
    return (f"no two of the query values {', '.join(map(str, pipe.inputs))} are within the sensitivity "
            f"{pipe.sensitivity} of each other: the claim holds for any mechanism",)


FLOATING = FloatingKind()
