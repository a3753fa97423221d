"""A formula spec with numeric parameters as an instance of a library family: the same
certificate as the table route (`NAME_distr`, `NAME_dp`, same statements), proved by
instantiating the family's theorem instead of computing the table, so that n = 500 or
n = 10 000 costs the seconds of n = 5.

The finite kind asks `unfold` first: with `route: table` never, with `route: family`
always (a spec error if no family is the formula or the claim is below the family's ε),
with `route: auto` (the default) when a family is the formula, the claim is at least the
family's ε and the table has more than AUTO_ENTRIES entries."""
from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Optional

import sympy

from obligations.analysis import families as F
from obligations.analysis.finite import epsilon_value, exp_bounds, tabulate, taylor_hint
from obligations.core import expr as E
from obligations.core.obligation import ExpLowerBound, Plan, Verdict
from obligations.core.spec import MechanismSpec
from obligations.errors import SpecError
from obligations.kinds.base import Unfolded
from obligations.kinds.family.document import Route, render

AUTO_ENTRIES = 10_000


def family_of(spec: MechanismSpec) -> Optional[F.Match]:
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


def bound_obligation(spec: MechanismSpec, bound: Fraction) -> Optional[ExpLowerBound]:
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


def table_family(spec: MechanismSpec) -> Optional[tuple[F.Match, dict[str, Fraction]]]:
    """The family whose member the spec's explicit table is (seed 002's threshold tables)."""
    if (spec.table is None or spec.compose != 1 or spec.cw is not None
            or spec.distribution != "full" or not isinstance(spec.neighbours, str)):
        return None
    found = F.table_member(tabulate(spec).base_rows, spec.neighbours)
    if found is None:
        return None
    family, values = found
    return F.Match(family, tuple((f, f) for f, _ in family.params)), values


def describe(spec: MechanismSpec) -> Optional[str]:
    """A line for `show`: the library family a table or formula is a member of."""
    if spec.table is not None:
        found = table_family(spec)
        if found is None:
            return None
        match, values = found
    else:
        m = family_of(spec)
        if m is None:
            return None
        match, values = m, m.family_values(spec.parameters)
    return (f"a member of the library's {match.family.name} ({match.family.title}) with "
            + ", ".join(f"{k} = {v}" for k, v in values.items())
            + " (route: family proves it by instantiating the family's theorem)")


def unfold(spec: MechanismSpec) -> Optional[Unfolded]:
    """The family route for this spec, or None for the table route."""
    route = getattr(spec, "route", "auto")
    # A profile's curve is computed from the table (and certified on it).
    if route == "table" or (spec.table is not None and route != "family") or spec.profile_compose:
        return None
    t0 = time.perf_counter()
    values: Optional[dict[str, Fraction]] = None
    if spec.table is not None:
        found = table_family(spec)
        match, values = found if found is not None else (None, None)
    else:
        match = family_of(spec)
        values = match.family_values(spec.parameters) if match is not None else None
    exp = None
    if match is not None and values is not None:
        bound = match.family.bound(values)
        exp = bound_obligation(spec, bound)
    if route == "family" and (match is None or exp is None):
        what = "table" if spec.table is not None else "formula at these parameters"
        why = (f"no library family is this {what} ({F.catalogue()})" if match is None
               else f"the claim is below the family's epsilon ln({bound}): the family route proves "
                    "claims at or above it (route: table refutes this one with a witness)")
        raise SpecError(spec.path, "route", why)
    if match is None or exp is None or (route == "auto" and spec.inputs.size * spec.outputs.size <= AUTO_ENTRIES):
        return None
    assert values is not None
    plan = Plan(Verdict.PROVED, (exp,), tight_epsilon=f"ln({bound})" if bound != 1 else "0",
                tight_epsilon_float=math.log(bound), delta_at_claim="0", delta_at_claim_float=0.0,
                notes=(f"an instance of the library's {match.family.name} with "
                       + ", ".join(f"{f} = {v}" for f, v in values.items())
                       + ": proved by instantiation" + (", the table compared with the family's entry by "
                                                        "entry" if spec.table is not None else ", no table"),))
    t1 = time.perf_counter()
    if spec.table is not None:
        domain = tuple(E.Num(Fraction(v)) for v in (0, spec.inputs.size - 1, 0, spec.outputs.size - 1))
    else:
        ins, outs = spec.inputs.values or (0,), spec.outputs.values or (0,)
        domain = tuple(E.Num(Fraction(v)) for v in (ins[0], ins[-1], outs[0], outs[-1]))
    r = Route(spec.name, spec.description, spec.path, spec.sha256, spec.parameter_types, spec.parameters,
              (), domain, spec.formula or (), str(spec.neighbours), spec.epsilon, spec.epsilon_text)  # type: ignore[arg-type]
    rows = tabulate(spec).base_rows if spec.table is not None else None
    rendered = render(r, match, exp=exp, table=rows, values=values if rows is not None else None,
                      fallback=rows is None)
    return Unfolded(spec, None, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})
