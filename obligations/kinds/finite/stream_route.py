"""A CW claim about K runs on the same database (`cw:` with `composition: {runs: K,
same_database: true}`), certified by classes of output sequences
(`theories/Finite/TypeClass.v`) instead of the m^K-row product table.

The mechanism is Σ_x f(x)·M(x)^⊗K against Σ_x f'(x)·M(x)^⊗K.  Coq groups the K-fold
output sequences into classes of equal likelihood vectors (at most the C(K+m-1, m-1)
types), counts them step by step (`run`), and sums hs(t) over the classes at a rational
t ≤ e^ε (to prove, both orders of the rows) or t ≥ e^ε (to refute, the violating order,
with the loss event as witness); `classes_le` (proved once for every K) ties the sums to
the product table.  Python's δ(ε) (`analysis/cw_stream.py`) only predicts the verdict."""
from __future__ import annotations

import math
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional, Union

import mpmath
import sympy

from obligations import __version__
from obligations.analysis import cw_stream
from obligations.analysis.finite import FiniteMechanism, epsilon_value, exp_bounds, tabulate, taylor_hint
from obligations.core.document import Tactic
from obligations.core.obligation import (ExpLowerBound, ExpUpperBound, Plan, RowsAreDistributions,
                                         StreamClassCheck, Verdict)
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, exp_obligation, render as render_template
from obligations.core.terms import comment, q_lit, r_lit, rows_literal, strip_outer, z_lit
from obligations.errors import SpecError
from obligations.kinds.base import Unfolded
from obligations.kinds.finite.document import _domain, _formula, _parameters, _renderer

TEMPLATE = Path(__file__).with_name("stream.v.j2")
# vm_compute's cost grows with the classes (5 outputs, K = 20: 10 626 classes, about 3 s of
# one core, paid again at Qed); beyond this many, refuse rather than run for minutes.
MAX_CLASSES = 12_000
DIGITS = (15, 30, 60)
EQ_TACTICS = (Tactic("unfold Q2R; simpl; lra."), Tactic("unfold Q2R; simpl; field."))


def applies(spec: MechanismSpec) -> bool:
    """A composed CW claim (the spec's own claim, not a profile point)."""
    return spec.cw is not None and spec.compose > 1 and spec.derived is None


def _refuse(spec: MechanismSpec, why: str) -> SpecError:
    return SpecError(spec.path, "composition.runs", why)


def unfold(spec: MechanismSpec) -> Optional[Unfolded]:
    if not applies(spec):
        return None
    assert spec.cw is not None
    if spec.distribution != "full":
        raise _refuse(spec, "the rows are sub-distributions (the route needs distributions)")
    k, m = spec.compose, spec.outputs.size
    bound = cw_stream.class_bound(m, k)
    if bound > MAX_CLASSES:
        raise _refuse(spec, f"{k} runs of {m} outputs have up to C({k + m - 1}, {m - 1}) = {bound} classes of "
                      f"output sequences; Coq evaluates at most {MAX_CLASSES}")
    eps_value = epsilon_value(spec)
    t0 = time.perf_counter()
    base = tabulate(replace(spec, compose=1))          # the one-run mixture, for labels
    rows = base.base_rows
    prior, alt = spec.cw
    form = cw_stream.integer_form(rows, prior, alt)
    cls = cw_stream.classes(form, k)
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(str(sympy.N(eps_value, 60))))
        deltas = (cw_stream.hs_pair(cls, form, k, form.u, form.u2, e),
                  cw_stream.hs_pair(cls, form, k, form.u2, form.u, e))
        claimed = mpmath.mpf(spec.delta.numerator) / spec.delta.denominator
        refute = max(deltas) > claimed
        direction = 0 if deltas[0] >= deltas[1] else 1
    t, exp = _exp_bound(spec, eps_value, refute, cls, form, k, direction, claimed)
    check = StreamClassCheck(k, len(cls), t, spec.delta, refute, direction)
    exact = float(max(deltas))
    plan = Plan(Verdict.REFUTED if refute else Verdict.PROVED, (RowsAreDistributions("full"), exp, check),
                tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None, delta_at_claim_float=exact,
                notes=(f"{k} runs on the same database by {len(cls)} classes of output sequences "
                       f"(at most {bound} types; the product table would have {m}^{k} rows): "
                       f"delta(eps) = {exact:.12g}",))
    t1 = time.perf_counter()
    rendered = _render(spec, base, form, check, exp)
    return Unfolded(spec, base, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})


def _exp_bound(spec: MechanismSpec, eps: sympy.Expr, refute: bool, cls: cw_stream.Classes,
               form: cw_stream.IntegerForm, k: int, direction: int, claimed: mpmath.mpf) -> tuple[Fraction, Union[ExpLowerBound, ExpUpperBound]]:
    """The rational t (below e^ε to prove, above it to refute) whose check passes, and its
    ExpLowerBound/ExpUpperBound obligation."""
    e = sympy.exp(eps)
    if e.is_Rational:
        t = Fraction(int(e.p), int(e.q))
        return t, (ExpUpperBound(t, "exact") if refute else ExpLowerBound(t, "exact"))
    for digits in DIGITS:
        lo, hi, bits = exp_bounds(eps, digits)
        t = hi if refute else max(Fraction(1), lo)   # t ≥ 1 gives ε ≥ 0 in Coq
        with mpmath.workdps(60):
            tq = mpmath.mpf(t.numerator) / t.denominator
            pairs = ((form.u, form.u2), (form.u2, form.u))
            values = [cw_stream.hs_pair(cls, form, k, a, b, tq) for a, b in pairs]
        ok = values[direction] > claimed if refute else max(values) <= claimed
        if ok:
            hint = taylor_hint(eps, t, upper=refute)
            if refute:
                return t, ExpUpperBound(t, "taylor", bits, hint) if hint else ExpUpperBound(t, "interval", bits)
            return t, ExpLowerBound(t, "taylor", bits, hint) if hint else ExpLowerBound(t, "interval", bits)
    raise SpecError(spec.path, "claim.delta", f"delta = {spec.delta} is within 10^-{DIGITS[-1]} of delta(eps) "
                    f"of the {k} runs: too close to decide with a rational bound on e^eps")


def witness(u: Unfolded) -> Optional[dict[str, Any]]:
    """The ordered pair of rows and the loss event of a refuted same-database claim."""
    check = next((o for o in u.plan.obligations if isinstance(o, StreamClassCheck)), None)
    if check is None or not check.refute:
        return None
    first, second = ("D", "alt") if check.direction == 0 else ("alt", "D")   # D: the prior's row
    exact = f"{u.plan.delta_at_claim_float:.12g}"
    return {"x": first, "x_prime": second, "runs": check.runs,
            "event": f"loss_event: the output sequences of the {check.runs} runs where Pr[{first}] > e^eps * Pr[{second}]",
            "delta": str(u.spec.delta), "delta_exact": exact,
            "text": (f"witness: the rows {first} and {second} (D: database from the prior, alt: scrubbed), "
                     f"S = their loss event over the "
                     f"{check.runs} runs on the same database: Pr[{first} in S] - e^eps * Pr[{second} in S] = "
                     f"delta(eps) = {exact} > delta = {u.spec.delta}")}


def describe(o: StreamClassCheck) -> str:
    side = (f"> {o.delta} for the rows in order {'(D, alt)' if o.direction == 0 else '(alt, D)'}, the loss event as witness"
            if o.refute else f"<= {o.delta} for both orders of the rows")
    return (f"hs(t), t = {o.t}, of {o.runs} runs on the same database summed over {o.classes} classes of output "
            f"sequences {side} (vm_compute; classes_le ties the classes to the product table)")


def _render(spec: MechanismSpec, base: FiniteMechanism, form: cw_stream.IntegerForm, check: StreamClassCheck,
            exp: Any):  # noqa: ANN401
    renderer = _renderer(spec)
    name = spec.name
    epsilon = strip_outer(renderer.r(spec.epsilon))
    delta = r_lit(spec.delta)
    assert spec.cw is not None
    prior, alt = spec.cw
    slots = {"delta": (f"{name}_delta", f"(Q2R {q_lit(spec.delta)} = {delta})%R", EQ_TACTICS)}
    o = dict(kind="exp_upper" if check.refute else "exp_lower", upper=check.refute, bound=q_lit(check.t),
             method=exp.method, bits=getattr(exp, "precision_bits", 0), taylor=getattr(exp, "taylor", None),
             decimal=f"{float(check.t):.6g}")
    pair_text = "rows (D, alt)" if check.direction == 0 else "rows (alt, D)"
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), inputs=_domain(spec.inputs), outputs=_domain(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size, parameters=_parameters(spec),
        formula=_formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(base.base_rows) if spec.formula is None else None, k=spec.compose,
        prior="; ".join(q_lit(v) for v in prior), alt="; ".join(q_lit(v) for v in alt),
        a_rows=";\n   ".join("[" + "; ".join(z_lit(a) for a in row) + "]" for row in form.A),
        d=z_lit(form.D), f=z_lit(form.F), u="; ".join(z_lit(a) for a in form.u),
        u2="; ".join(z_lit(a) for a in form.u2), class_bound=cw_stream.class_bound(spec.outputs.size, spec.compose),
        t_q=q_lit(check.t), t_text=str(check.t), delta_q=q_lit(spec.delta), refute=check.refute,
        dir="true" if check.direction == 1 else "false", pair_text=pair_text,
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text), delta=delta,
        delta_text=comment(spec.delta_text), slots=slots, exp=exp_obligation(name, o, epsilon))
    theorem = f"{name}_refuted" if check.refute else f"{name}_dp"
    return render_template(TEMPLATE, name, ctx, "Prelude", (theorem,), (INTERVAL_PRELUDE,))
