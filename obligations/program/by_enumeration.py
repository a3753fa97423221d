"""Route: a small probabilistic program over finite inputs, run exactly by the interpreter on
every input (`analysis.py`) and defined in Coq by the deep embedding (`theories/Program/
ProgramSyntax.v`, `ProgramSem.v`, `ProgramMech.v`), whose semantics Coq computes itself;
the claim is then checked on the table of output sequences.  Template `program.v.j2`."""
from __future__ import annotations

from obligations.analysis.finite import plan
from obligations.analysis.finite_report import describe_table, table_witness
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness, witness_text
from obligations.core.spec import MechanismSpec
from obligations.core.templates import Rendered
from obligations.program.analysis import ProgramMechanism, describe_outputs, program_vacuity, tabulate_program
from obligations.program.document import render_program


class ByEnumeration(Route[MechanismSpec, ProgramMechanism]):
    name = "by enumeration"

    def analyse(self, spec: MechanismSpec) -> Analysed[ProgramMechanism]:
        mech = tabulate_program(spec)   # its columns: the output sequences the runs produce
        return Analysed(mech, plan(mech, program_vacuity(mech)))

    def render(self, spec: MechanismSpec, a: Analysed[ProgramMechanism]) -> Rendered:
        return render_program(a.mechanism, a.plan)

    def witness(self, u: Unfolded[MechanismSpec, ProgramMechanism]) -> Witness | None:
        return table_witness(u.plan, u.mechanism)

    def describe(self, u: Unfolded[MechanismSpec, ProgramMechanism]) -> Description:
        item, table_lines = describe_table(u, u.mechanism)
        item["inputs"] = len(u.mechanism.rows)
        item["outputs"] = list(u.mechanism.outputs)
        item["output_distribution"] = list(describe_outputs(u.mechanism, limit=len(u.mechanism.rows)))
        w = self.witness(u)
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


BY_ENUMERATION = ByEnumeration()

__all__ = ["BY_ENUMERATION", "ByEnumeration"]
