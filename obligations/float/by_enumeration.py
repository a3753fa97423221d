"""Route: a noise pipeline run in a small binary floating-point format, enumerated exactly in
Python (`analysis.py`, `arith.py`) and again by Coq with Flocq (`theories/Float/`); the claim
is checked on the table of output bit patterns.  Template `floating.v.j2`, and the certified
ln table `ln_table.v.j2` as a shared module."""
from __future__ import annotations

from obligations.analysis.finite import has_distinct_neighbours, plan
from obligations.analysis.finite_report import describe_table, table_witness
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness, witness_text
from obligations.core.spec import MechanismSpec
from obligations.core.templates import Rendered
from obligations.float.analysis import FloatMechanism, FloatPipeline, one_sided, tabulate_floating
from obligations.float.document import render_floating


class ByEnumeration(Route[MechanismSpec, FloatMechanism]):
    name = "by enumeration in the format"

    def analyse(self, spec: MechanismSpec) -> Analysed[FloatMechanism]:
        mech = tabulate_floating(spec)
        return Analysed(mech, one_sided(mech, plan(mech, _vacuity(mech))))

    def render(self, spec: MechanismSpec, a: Analysed[FloatMechanism]) -> Rendered:
        return render_floating(a.mechanism, a.plan)

    def witness(self, u: Unfolded[MechanismSpec, FloatMechanism]) -> Witness | None:
        return table_witness(u.plan, u.mechanism)

    def describe(self, u: Unfolded[MechanismSpec, FloatMechanism]) -> Description:
        m = u.mechanism
        item, table_lines = describe_table(u, u.mechanism)
        item["outputs"] = list(m.outputs)
        item["ln_table_entries"] = len(m.sampler)
        w = self.witness(u)
        if w is not None:
            item["witness"] = witness_text(w)
        lines = [f"{u.spec.name} ({u.spec.path}): {summary(u.spec)}",
                 f"  {len(m.outputs)} output bit patterns, {len(m.sampler)} distinct values of u"]
        if "witness" in item:
            lines.append(f"  {item['witness']}")
        return item, lines + table_lines


def summary(spec: MechanismSpec) -> str:
    pipe: FloatPipeline = spec.program
    sampler = f"u on 2^{pipe.grid_bits} points" if pipe.sampler == "grid" else "u from U*, every float in (0, 1)"
    return (f"floating-point pipeline (precision {pipe.fmt.precision}, emax {pipe.fmt.emax}, "
            f"{sampler}), claim ({spec.epsilon_text}, 0)-DP over {pipe.claim_domain}")


def _vacuity(mech: FloatMechanism) -> tuple[str, ...]:
    """Why the claim holds for any pipeline, if it does: no two listed query values are
    within the sensitivity of each other, so no pair of inputs is compared."""
    if has_distinct_neighbours(mech):
        return ()
    pipe: FloatPipeline = mech.spec.program
    return (f"no two of the query values {', '.join(map(str, pipe.inputs))} are within the sensitivity "
            f"{pipe.sensitivity} of each other: the claim holds for any mechanism",)


BY_ENUMERATION = ByEnumeration()
