"""Route: a formula with numeric parameters (or an explicit table) that is a member of a
library family, proved by instantiating the family's theorem (`theories/Finite/Family.v`,
`TGeom.v`, `RR.v`) instead of computing the table: the same certificate as the table route
(`NAME_distr`, `NAME_dp`, same statements), and n = 500 or n = 10 000 costs the seconds of
n = 5.

Tried first for a table or formula: with `route: table` never, with `route: family` always
(a spec error if no family is the formula or the claim is below the family's ε), with
`route: auto` (the default) when a family is the formula, the claim is at least the
family's ε and the table has more than AUTO_ENTRIES entries."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy

from obligations.analysis import families as F
from obligations.analysis.finite import Row, epsilon_value, exp_bounds, taylor_hint
from obligations.core import expr as E
from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import ExpLowerBound, Plan, Verdict
from obligations.core.spec import MechanismSpec
from obligations.core.templates import Rendered
from obligations.errors import SpecError
from obligations.table.family_document import FamilyTemplate, render
from obligations.table.members import describe_finite, family_of, table_member

AUTO_ENTRIES = 10_000


@dataclass(frozen=True)
class Instance:
    """The family the spec is a member of, its parameters' values and the bound on e^ε."""

    match: F.Match
    values: dict[str, Fraction]
    exp: ExpLowerBound
    rows: tuple[Row, ...] | None    # an explicit table, compared with the family's entry by entry


def bound_obligation(spec: MechanismSpec, bound: Fraction) -> ExpLowerBound | None:
    """How Coq proves bound ≤ e^ε (None: the claim is below the family's ε)."""
    eps = epsilon_value(spec)
    e = sympy.exp(eps)
    if e.is_Rational:
        return ExpLowerBound(bound, "exact") if Fraction(int(e.p), int(e.q)) >= bound else None
    if e.evalf(60) <= sympy.Rational(bound.numerator, bound.denominator):
        return None
    bits = exp_bounds(eps, 30)[2]
    hint = taylor_hint(eps, bound, upper=False)
    return ExpLowerBound(bound, "taylor", bits, hint) if hint else ExpLowerBound(bound, "interval", bits)


class ByFamily(Route[MechanismSpec, Instance]):
    name = "by family"

    def applies(self, spec: MechanismSpec) -> bool:
        # A profile's curve is computed from the table (and certified on it).
        return not (spec.route == "table" or (spec.table is not None and spec.route != "family")
                    or spec.profile_compose or spec.tolerance is not None or spec.subsample is not None)

    def analyse(self, spec: MechanismSpec) -> Analysed[Instance] | None:
        rows: tuple[Row, ...] | None = None
        match: F.Match | None = None
        values: dict[str, Fraction] | None = None
        if spec.table is not None:
            found = table_member(spec)
            if found is not None:
                match, values, rows = found
        else:
            match = family_of(spec)
            values = match.family_values(spec.parameters) if match is not None else None
        exp = None
        bound = Fraction(1)
        if match is not None and values is not None:
            bound = match.family.bound(values)
            exp = bound_obligation(spec, bound)
        if spec.route == "family" and (match is None or exp is None):
            what = "table" if spec.table is not None else "formula at these parameters"
            why = (f"no library family is this {what} ({F.catalogue()})" if match is None
                   else f"the claim is below the family's epsilon ln({bound}): the family route proves "
                        "claims at or above it (route: table refutes this one with a witness)")
            raise SpecError(spec.path, "route", why)
        if match is None or exp is None or values is None or (
                spec.route == "auto" and spec.inputs.size * spec.outputs.size <= AUTO_ENTRIES):
            return None
        plan = Plan(Verdict.PROVED, (exp,), tight_epsilon=f"ln({bound})" if bound != 1 else "0",
                    tight_epsilon_float=math.log(bound), delta_at_claim="0", delta_at_claim_float=0.0,
                    notes=(f"an instance of the library's {match.family.name} with "
                           + ", ".join(f"{f} = {v}" for f, v in values.items())
                           + ": proved by instantiation" + (", the table compared with the family's entry by "
                                                            "entry" if spec.table is not None else ", no table"),))
        return Analysed(Instance(match, values, exp, rows), plan)

    def render(self, spec: MechanismSpec, a: Analysed[Instance]) -> Rendered:
        i = a.mechanism
        if spec.table is not None:
            bounds: tuple[int, ...] = (0, spec.inputs.size - 1, 0, spec.outputs.size - 1)
        else:
            ins, outs = spec.inputs.values or (0,), spec.outputs.values or (0,)
            bounds = (ins[0], ins[-1], outs[0], outs[-1])
        x0, x1, y0, y1 = (E.Num(Fraction(v)) for v in bounds)
        t = FamilyTemplate(spec.name, spec.description, spec.path, spec.sha256, spec.parameter_types,
                           spec.parameters, (), (x0, x1, y0, y1), spec.formula or (), str(spec.neighbours),
                           spec.epsilon, spec.epsilon_text)
        return render(t, i.match, exp=i.exp, table=i.rows, values=i.values if i.rows is not None else None,
                      fallback=i.rows is None)

    def describe(self, u: Unfolded[MechanismSpec, Instance]) -> Description:
        return describe_finite(u, None)


BY_FAMILY = ByFamily()
