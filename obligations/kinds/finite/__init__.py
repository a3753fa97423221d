"""Finite mechanisms given by a table or a formula: tabulated exactly, checked in Coq by
reflection (`theories/Mechanism.v`, `Checker.v`), template `finite.v.j2`."""
from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Mapping, Optional

import sympy

from obligations.core import obligation as ob
from obligations.kinds.base import Unfolded
from obligations.kinds.finite.document import render
from obligations.core.spec import MechanismSpec, derive
from obligations.kinds.finite.spec import check_finite
from obligations.kinds.finite.form import Spec
from obligations.analysis.finite import FiniteMechanism, epsilon_value, plan, tabulate
from obligations.kinds.family import instance as family_instance
from obligations.kinds.finite import basic_composition, pld_route


class FiniteKind:
    name = "finite"
    title = "table or formula"
    form = Spec
    profiles = True

    def claims(self, data: Mapping[str, Any]) -> bool:
        return True   # the default form: its schema says what is missing

    def check(self, data: Mapping[str, Any], file: str, sha256: str) -> MechanismSpec:
        return check_finite(data, file, sha256)

    def expand(self, spec: MechanismSpec) -> list[MechanismSpec]:
        return [spec]

    def derive(self, spec: MechanismSpec, derived: Mapping[str, Any]) -> MechanismSpec:
        wanted = ("name", "epsilon", "delta", "compose")   # a point of the spec's privacy profile
        if set(derived) != set(wanted):
            raise ValueError(f"derived: {sorted(map(str, derived))} is not a point of this spec's profile "
                             f"(which records {', '.join(wanted)}); this spec has no other derived claims")
        return derive(spec, name=str(derived["name"]), epsilon=str(derived["epsilon"]),
                      delta=Fraction(str(derived["delta"])), compose=int(derived["compose"]))

    def analyse(self, spec: MechanismSpec) -> Unfolded:
        by_family = family_instance.unfold(spec)   # None: the table route
        if by_family is not None:
            return by_family
        by_basic = basic_composition.unfold(spec)  # a composed claim basic composition gives
        if by_basic is not None:
            return by_basic
        by_pld = pld_route.unfold(spec)            # a composed claim too large for the product table
        if by_pld is not None:
            return by_pld
        t0 = time.perf_counter()
        mech = tabulate(spec)
        p = plan(mech)
        t1 = time.perf_counter()
        rendered = render(mech, p)
        return Unfolded(spec, mech, p, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})

    def witness(self, u: Unfolded) -> Optional[dict[str, Any]]:
        return pld_route.witness(u) or table_witness(u)

    def summary(self, spec: MechanismSpec) -> str:
        return (f"{spec.inputs.size} inputs, {spec.outputs.size} outputs, "
                f"claim ({spec.epsilon_text}, {spec.delta_text})-DP")

    def describe(self, u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
        item, lines = describe_table(u, coq)
        member = family_instance.describe(u.spec)   # seed 002's tables are tgeom's members
        if member is not None:
            item["family"] = member
            lines.insert(1, f"  {member}")
        return item, lines

    def finite_table(self, spec: MechanismSpec) -> FiniteMechanism:
        return tabulate(spec)


FINITE = FiniteKind()


def table_witness(u: Unfolded) -> Optional[dict[str, Any]]:
    """The witness of a refuted claim about a finite table (tables, formulas, programs)."""
    w = next((o for o in u.plan.obligations if isinstance(o, ob.Witness)), None)
    if w is None:
        return None
    spec = u.spec
    e = sympy.exp(epsilon_value(spec))
    e_float = float(e.evalf(30))
    rhs = e_float * float(w.pr_x2) + float(spec.delta)
    return {
        "x": u.mechanism.input_label(w.x), "x_prime": u.mechanism.input_label(w.x2),
        "outputs": [u.mechanism.output_label(y) for y in w.outputs],
        "pr_x": str(w.pr_x), "pr_x_prime": str(w.pr_x2),
        "exp_epsilon": str(e) if e.is_Rational else f"{e_float:.12g}",
        "exp_epsilon_upper_bound": str(w.bound), "delta": str(spec.delta),
        "bound": f"{rhs:.12g}", "violation": f"{float(w.pr_x) - rhs:.12g}",
    }


def describe_table(u: Unfolded, coq: bool) -> tuple[dict[str, Any], list[str]]:
    s = u.spec
    item: dict[str, Any] = {
        "name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
        "delta_at_claim": u.plan.delta_at_claim or f"{u.plan.delta_at_claim_float:.12g}",
        "obligations": [describe_obligation(o, u.mechanism) for o in u.plan.obligations],
        "theorems": list(u.rendered.theorems)}
    lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, {s.delta_text})-DP",
             f"  tight epsilon {item['tight_epsilon']}; delta at the claimed epsilon "
             f"{item['delta_at_claim']}; Python expects: {u.plan.expected}"]
    lines += [f"  {k}. {d}" for k, d in enumerate(item["obligations"], 1)]
    if coq:
        item["coq"] = u.rendered.text
        lines.append(u.rendered.text)
    return item, lines


def describe_obligation(o: object, mech: FiniteMechanism) -> str:
    """One obligation in words; a witness names inputs and outputs by their labels, as `prove` does."""
    if isinstance(o, ob.RowsAreDistributions):
        return f"every row is a {'distribution' if o.kind == 'full' else 'sub-distribution'} (vm_compute)"
    if isinstance(o, ob.ExpLowerBound):
        return f"{o.bound} <= e^eps ({o.method})"
    if isinstance(o, ob.ExpUpperBound):
        return f"e^eps <= {o.bound} ({o.method})"
    if isinstance(o, ob.PointwiseCheck):
        return f"M(x)(y) <= {o.bound} * M(x')(y) for all neighbours and outputs (vm_compute)"
    if isinstance(o, ob.HockeyStickCheck):
        return f"sum_y max(0, M(x)(y) - {o.bound} * M(x')(y)) <= {o.delta} for all neighbours (vm_compute)"
    if isinstance(o, ob.PowerPldCheck):
        side = (f"> {o.delta}, witness x = {mech.input_label(o.x)}, x' = {mech.input_label(o.x2)}, S = their loss event"
                if o.refute else f"<= {o.delta}")
        return (f"every pair of neighbours has loss values {o.base} and 1/{o.base} (vm_compute); the {o.runs}-fold "
                f"PLD's delta(eps) {side} (intervals, vm_compute)")
    if isinstance(o, ob.Witness):
        outs = ", ".join(mech.output_label(y) for y in o.outputs)
        return (f"witness: x = {mech.input_label(o.x)}, x' = {mech.input_label(o.x2)}, S = {{{outs}}}: {o.pr_x} > "
                f"{o.bound} * {o.pr_x2} + {mech.spec.delta} (vm_compute)")
    return repr(o)
