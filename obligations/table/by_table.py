"""Route: a claim about a table or formula proved on its table, tabulated exactly and checked
in Coq by reflection (`theories/Finite/Mechanism.v`, `Checker.v`), template `finite.v.j2`.
The route every table or formula claim falls back to."""
from __future__ import annotations

from obligations.analysis.finite import FiniteMechanism, plan, tabulate
from obligations.analysis.finite_report import table_witness
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.spec import MechanismSpec
from obligations.core.templates import Rendered
from obligations.table.document import render
from obligations.table.members import describe_finite


class ByTable(Route[MechanismSpec, FiniteMechanism]):
    name = "by table"

    def analyse(self, spec: MechanismSpec) -> Analysed[FiniteMechanism]:
        mech = tabulate(spec)
        return Analysed(mech, plan(mech))

    def render(self, spec: MechanismSpec, a: Analysed[FiniteMechanism]) -> Rendered:
        return render(a.mechanism, a.plan)

    def witness(self, u: Unfolded[MechanismSpec, FiniteMechanism]) -> Witness | None:
        return table_witness(u.plan, u.mechanism)

    def describe(self, u: Unfolded[MechanismSpec, FiniteMechanism]) -> Description:
        return describe_finite(u, u.mechanism)


BY_TABLE = ByTable()
