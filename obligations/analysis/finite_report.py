"""What a claim about a finite table says when it is shown (`show`) or refuted (the witness),
for every model whose mechanism is a finite table: tables and formulas, programs,
floating-point pipelines."""
from __future__ import annotations

from typing import Any

import sympy

from obligations.analysis.finite import FiniteMechanism, epsilon_value
from obligations.core import obligation as ob
from obligations.core.model import Description, Unfolded, Witness
from obligations.core.obligation import Plan
from obligations.core.spec import MechanismSpec


def table_witness(plan: Plan, table: FiniteMechanism) -> Witness | None:
    """The witness of a refuted claim about a finite table (tables, formulas, programs)."""
    w = next((o for o in plan.obligations if isinstance(o, ob.Witness)), None)
    if w is None:
        return None
    spec = table.spec
    e = sympy.exp(epsilon_value(spec))
    e_float = float(e.evalf(30))
    rhs = e_float * float(w.pr_x2) + float(spec.delta)
    return {
        "x": table.input_label(w.x), "x_prime": table.input_label(w.x2),
        "outputs": [table.output_label(y) for y in w.outputs],
        "pr_x": str(w.pr_x), "pr_x_prime": str(w.pr_x2),
        "exp_epsilon": str(e) if e.is_Rational else f"{e_float:.12g}",
        "exp_epsilon_upper_bound": str(w.bound), "delta": str(spec.delta),
        "bound": f"{rhs:.12g}", "violation": f"{float(w.pr_x) - rhs:.12g}",
    }


def describe_table(u: Unfolded[MechanismSpec, Any], table: FiniteMechanism | None) -> Description:
    """`show` for a claim about a finite table: the plan's verdict and obligations (a witness
    names the table's inputs and outputs by their labels)."""
    s = u.spec
    item: dict[str, Any] = {
        "name": s.name, "expected": u.plan.expected, "tight_epsilon": u.plan.tight_epsilon,
        "delta_at_claim": u.plan.delta_at_claim or f"{u.plan.delta_at_claim_float:.12g}",
        "obligations": [describe_obligation(o, table) for o in u.plan.obligations],
        "theorems": list(u.rendered.theorems)}
    lines = [f"{s.name} ({s.path}): claim ({s.epsilon_text}, {s.delta_text})-DP",
             f"  tight epsilon {item['tight_epsilon']}; delta at the claimed epsilon "
             f"{item['delta_at_claim']}; Python expects: {u.plan.expected}"]
    lines += [f"  {k}. {d}" for k, d in enumerate(item["obligations"], 1)]
    return item, lines


def describe_obligation(o: object, mech: FiniteMechanism | None) -> str:
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
    if isinstance(o, ob.StreamClassCheck):
        side = (f"> {o.delta} for the rows in order {'(D, alt)' if o.direction == 0 else '(alt, D)'}, their loss "
                "event the witness" if o.refute else f"<= {o.delta} for both orders of the rows")
        return (f"hs(t), t = {o.t}, of {o.runs} runs on the same database summed over {o.classes} classes of "
                f"output sequences {side} (vm_compute; classes_le ties the classes to the product table)")
    if isinstance(o, ob.StreamCoefCheck):
        side = (f"> {o.delta} for the rows in order {'(D, alt)' if o.direction == 0 else '(alt, D)'} (floats "
                "rounded down, the dropped mass subtracted), their loss event the witness" if o.refute
                else f"<= {o.delta} for both orders of the rows (floats rounded up, the dropped mass added)")
        return (f"hs(t), t = {o.t}, of {o.runs} runs of randomized response on the same database by the "
                f"coefficient recursion, coefficients below 2^{o.tau_exp} dropped, {side} (vm_compute; "
                "hs_stream_gk ties it to the product table)")
    if isinstance(o, ob.StreamGroupCheck):
        side = (f"> {o.delta} for the rows in order {'(D, alt)' if o.direction == 0 else '(alt, D)'} (floats "
                "rounded down), their loss event the witness" if o.refute
                else f"<= {o.delta} for both orders of the rows (floats rounded up)")
        return (f"hs(t), t = {o.t}, of {o.runs} runs of randomized response on the same database summed by "
                f"counts of outputs in the pairs {o.pairs[:2]} and {o.pairs[2:]}, {side} (vm_compute; "
                "hs_stream_blocks ties it to the product table)")
    if isinstance(o, (ob.AccountantCheck, ob.Witness)):
        assert mech is not None, "a witness is on a table"
        return _on_table(o, mech)
    return repr(o)


def _on_table(o: ob.AccountantCheck | ob.Witness, mech: FiniteMechanism) -> str:
    """An obligation whose words name the table's inputs and outputs."""
    if isinstance(o, ob.AccountantCheck):
        keys = "exact" if o.exact else "rounded to either side"
        said = [f"every pair's loss keys of base {o.base} (stride {o.stride}, {keys}) and PLD ({o.plds} distinct) "
                f"checked (vm_compute); the {o.runs}-fold powers in floats rounded down"]
        said += [f"delta({e}) <= {d}" for e, d in o.proved]
        said += [f"delta({e}) > {d}, witness x = {mech.input_label(o.x)}, x' = {mech.input_label(o.x2)}, "
                 "S = their loss event" for e, d in o.refuted]
        return "; ".join(said)
    outs = ", ".join(mech.output_label(y) for y in o.outputs)
    return (f"witness: x = {mech.input_label(o.x)}, x' = {mech.input_label(o.x2)}, S = {{{outs}}}: {o.pr_x} > "
            f"{o.bound} * {o.pr_x2} + {mech.spec.delta} (vm_compute)")
