"""Which library family a table or formula is a member of (`analysis/families.py`): the family
route proves such a claim by instantiating the family's theorem, and `show` says it for every
route of a table or formula."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from obligations.analysis import families as F
from obligations.analysis.finite import FiniteMechanism, Row, tabulate
from obligations.analysis.finite_report import describe_table
from obligations.core import expr as E
from obligations.core.model import Description, Unfolded
from obligations.core.spec import MechanismSpec


def family_of(spec: MechanismSpec) -> F.Match | None:
    """The library family whose member the spec's formula is, at the spec's parameters."""
    if (spec.formula is None or spec.compose != 1 or spec.cw is not None or spec.distribution != "full"
            or not isinstance(spec.neighbours, str) or spec.inputs.values is None or spec.outputs.values is None):
        return None
    pieces = [(None if p.when is None else E.compile_exact(p.when), E.compile_exact(p.value))
              for p in spec.formula]

    def pmf(env: F.Values, x: int, y: int) -> Fraction:
        full = dict(env, x=Fraction(x), y=Fraction(y))
        return next(Fraction(v(full)) for w, v in pieces if w is None or w(full))

    ins, outs = spec.inputs.values, spec.outputs.values
    match = F.find(spec.parameter_types, pmf, lambda env: (ins[0], ins[-1], outs[0], outs[-1]),
                   [dict(spec.parameters)], spec.neighbours)
    if match is None:
        return None
    fv = match.family_values(spec.parameters)
    if not all(c.holds(fv[f], fv) for f, c in match.family.conditions):
        return None
    return match


def table_member(spec: MechanismSpec) -> tuple[F.Match, dict[str, Fraction], tuple[Row, ...]] | None:
    """The family whose member the spec's explicit table is (seed 002's threshold tables), its
    parameters' values and the table."""
    if (spec.table is None or spec.compose != 1 or spec.cw is not None
            or spec.distribution != "full" or not isinstance(spec.neighbours, str)):
        return None
    rows = tabulate(spec).base_rows
    found = F.table_member(rows, spec.neighbours)
    if found is None:
        return None
    family, values = found
    return F.Match(family, tuple((f, f) for f, _ in family.params)), values, rows


def member_line(spec: MechanismSpec) -> str | None:
    """A line for `show`: the library family a table or formula is a member of."""
    if spec.table is not None:
        found = table_member(spec)
        if found is None:
            return None
        match, values, _ = found
    else:
        m = family_of(spec)
        if m is None:
            return None
        match, values = m, m.family_values(spec.parameters)
    return (f"a member of the library's {match.family.name} ({match.family.title}) with "
            + ", ".join(f"{k} = {v}" for k, v in values.items())
            + " (route: family proves it by instantiating the family's theorem)")


def describe_finite(u: Unfolded[MechanismSpec, Any], table: FiniteMechanism | None) -> Description:
    """`show` for every route of a table or formula: the plan (on the route's table, if it has
    one), and the library family the table is a member of, if any."""
    item, lines = describe_table(u, table)
    member = member_line(u.spec)
    if member is not None:
        item["family"] = member
        lines.insert(1, f"  {member}")
    return item, lines
