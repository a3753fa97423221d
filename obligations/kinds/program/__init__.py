"""Small probabilistic programs: run exactly by the interpreter, defined in Coq by the deep
embedding (`theories/ProgramSyntax.v`, `ProgramSem.v`, `ProgramMech.v`), template `program.v.j2`."""
from __future__ import annotations

import time
from typing import Any, Mapping, Optional

from obligations.kinds.base import Unfolded, witness_text
from obligations.kinds.finite import describe_table, table_witness
from obligations.kinds.program.document import render_program
from obligations.core.spec import MechanismSpec
from obligations.kinds.program.spec import ProgramSpecModel, check_program, derive_point, expand, is_program
from obligations.analysis.finite import FiniteMechanism, plan
from obligations.kinds.program.analysis import describe_outputs, program_vacuity, tabulate_program


class ProgramKind:
    name = "program"
    title = "program"
    form = ProgramSpecModel
    profiles = True

    def claims(self, data: Mapping[str, Any]) -> bool:
        return is_program(data)

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
        spec: MechanismSpec = check_program(data, file, sha256)
        return spec

    def expand(self, spec: MechanismSpec) -> list[MechanismSpec]:
        return expand(spec)

    def derive(self, spec: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
        if "sweep" in derived:
            point: MechanismSpec = derive_point(spec, derived["sweep"])
            return point
        from obligations.kinds.finite import FINITE  # a profile point of a program's table
        return FINITE.derive(spec, derived)

    def analyse(self, spec: MechanismSpec) -> Unfolded:
        t0 = time.perf_counter()
        mech = tabulate_program(spec)   # its columns: the output sequences the runs produce
        p = plan(mech, program_vacuity(mech))
        t1 = time.perf_counter()
        rendered = render_program(mech, p)
        return Unfolded(spec, mech, p, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return table_witness(u)

    def summary(self, spec: MechanismSpec) -> str:   # outputs are known only once it runs
        return f"program over {spec.inputs.size} inputs, claim ({spec.epsilon_text}, {spec.delta_text})-DP"

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        item, table_lines = describe_table(u, coq)
        item["inputs"] = len(u.mechanism.rows)
        item["outputs"] = list(u.mechanism.outputs)
        item["output_distribution"] = list(describe_outputs(u.mechanism, limit=len(u.mechanism.rows)))
        w = table_witness(u)
        if w is not None:
            item["witness"] = witness_text(w)
        lines = [f"{u.spec.name} ({u.spec.path}): {item['inputs']} inputs, "
                 f"{len(item['outputs'])} output sequences"]
        lines += [f"  {line}" for line in item["output_distribution"][:12]]
        if item["inputs"] > 12:
            lines.append(f"  ... ({item['inputs'] - 12} more inputs; --json prints all)")
        if "witness" in item:
            lines.append(f"  {item['witness']}")
        return item, lines + table_lines

    def finite_table(self, spec: MechanismSpec) -> FiniteMechanism:
        return tabulate_program(spec)


PROGRAM = ProgramKind()
