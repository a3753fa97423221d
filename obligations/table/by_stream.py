"""A CW claim about K runs on the same database (`cw:` with `composition: {runs: K,
same_database: true}`), certified by classes of output sequences
(`theories/Finite/TypeClass.v`) instead of the m^K-row product table.

The mechanism is Σ_x f(x)·M(x)^⊗K against Σ_x f'(x)·M(x)^⊗K.  Coq groups the K-fold
output sequences into classes of equal likelihood vectors (at most the C(K+b-1, b-1)
types over the b letters: blocks of outputs whose columns agree on the priors' supports),
counts them step by step (`run`), and sums hs(t) over the classes at a rational
1 ≤ t ≤ e^ε (to prove, both orders of the rows) or t ≥ e^ε (to refute, the violating
order, with the loss event as witness); `classes_le` (proved once for every K) ties the
sums to the product table.  Python's δ(ε) (`analysis/cw_stream.py`) only predicts the
verdict."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

import mpmath
import sympy

from obligations.analysis import cw_stream
from obligations.analysis.finite import FiniteMechanism, epsilon_value, exp_bounds, tabulate, taylor_hint
from obligations.core import finite_terms as T
from obligations.core.document import Tactic
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import (
    ExpBound,
    ExpLowerBound,
    ExpUpperBound,
    Plan,
    RowsAreDistributions,
    StreamClassCheck,
    StreamCoefCheck,
    StreamGroupCheck,
    Verdict,
)
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_lit, r_lit, rows_literal, strip_outer, z_lit
from obligations.errors import SpecError
from obligations.table.members import describe_finite

TEMPLATE = Path(__file__).parent / "templates" / "stream.v.j2"
# The cost grows with the classes, and coqchk (no VM) redoes the sums by plain reduction: 5
# outputs, K = 12 (1820 classes): coqc 17 s, coqchk 186 s wall on the loaded machine; K = 20
# (10 626): coqchk past its 600 s.  Beyond this many, refuse rather than run into the timeout.
MAX_CLASSES = 5_000
# Fewer letters let K grow at the same count of classes, but coqchk's sums grow with the
# integers' bits (K·log2 D): 3 letters, K = 50, 1326 classes took coqchk 191 s.  So also
# classes × runs at most this (5 outputs, K = 16: 77 520; 3 letters, K = 50: 66 300).
MAX_WORK = 80_000
# and the likelihood vectors grow with K (K·log2 D bits each): the same bound on K.
MAX_RUNS = 200
DIGITS = (15, 30, 60)
EQ_TACTICS = (Tactic("unfold Q2R; simpl; lra."), Tactic("unfold Q2R; simpl; field."))


@dataclass(frozen=True)
class Stream:
    """The one-run mixture (for labels), the integer form Coq reads, the check and e^ε's bound."""

    table: FiniteMechanism
    form: cw_stream.IntegerForm
    check: StreamClassCheck
    exp: ExpBound


def _refuse(spec: MechanismSpec, why: str) -> SpecError:
    return SpecError(spec.path, "composition.runs", why)


def within_limits(b: int, k: int) -> bool:
    """Whether Coq evaluates the classes of k runs over b letters (beyond: the composition
    theorem's route, table/by_stream_theorem.py)."""
    classes = cw_stream.class_bound(b, k)
    return k <= MAX_RUNS and classes <= MAX_CLASSES and classes * k <= MAX_WORK


def letter_count(spec: MechanismSpec) -> int:
    """The letters of a CW spec's run (the outputs when its table is bad: `analyse` says why)."""
    assert spec.cw is not None
    try:
        rows = tabulate(replace(spec, compose=1)).base_rows
    except SpecError:
        return spec.outputs.size
    return cw_stream.blocks(rows, *spec.cw)


class ByStream(Route[MechanismSpec, Stream]):
    name = "by classes of output sequences"

    def applies(self, spec: MechanismSpec) -> bool:
        """A composed CW claim (the spec's own claim, not a profile point) within the limits."""
        return (spec.cw is not None and spec.compose > 1 and spec.derived is None
                and within_limits(letter_count(spec), spec.compose))

    def analyse(self, spec: MechanismSpec) -> Analysed[Stream]:
        assert spec.cw is not None
        if spec.distribution != "full":
            raise _refuse(spec, "the rows are sub-distributions (the route needs distributions)")
        k, m = spec.compose, spec.outputs.size
        eps_value = epsilon_value(spec)
        table = tabulate(replace(spec, compose=1))          # the one-run mixture, for labels
        form = cw_stream.integer_form(table.base_rows, *spec.cw)
        bound = cw_stream.class_bound(len(form.letters), k)
        cls = cw_stream.classes(form, k)
        with mpmath.workdps(50):
            e = mpmath.exp(mpmath.mpf(str(sympy.N(eps_value, 60))))
            deltas = (cw_stream.hs_pair(cls, form, k, form.u, form.u2, e),
                      cw_stream.hs_pair(cls, form, k, form.u2, form.u, e))
            claimed = mpmath.mpf(spec.delta.numerator) / spec.delta.denominator
            refute = bool(max(deltas) > claimed)
            direction = 0 if deltas[0] >= deltas[1] else 1
        t, exp = _exp_bound(spec, eps_value, refute, cls, form, direction, claimed)
        check = StreamClassCheck(k, len(cls), t, spec.delta, refute, direction)
        exact = float(max(deltas))
        plan = stream_plan(refute, exp, check, exact,
                           f"{k} runs on the same database by {len(cls)} classes of output sequences "
                           f"(at most {bound} types over {len(form.letters)} letters; the product table "
                           f"would have {m}^{k} rows): delta(eps) = {exact:.12g}")
        return Analysed(Stream(table, form, check, exp), plan)

    def render(self, spec: MechanismSpec, a: Analysed[Stream]) -> Rendered:
        return _render(spec, a.mechanism)

    def witness(self, u: Unfolded[MechanismSpec, Stream]) -> Witness | None:
        return loss_event_witness(u.mechanism.check, u.plan.delta_at_claim_float, u.spec)

    def describe(self, u: Unfolded[MechanismSpec, Stream]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_STREAM = ByStream()


class RunsCheck(Protocol):
    """What a same-database check says of its rows: refuted or not, which order, how many runs."""

    @property
    def refute(self) -> bool: ...
    @property
    def direction(self) -> int: ...
    @property
    def runs(self) -> int: ...
    @property
    def t(self) -> Fraction: ...


def loss_event_witness(check: RunsCheck, delta_exact: float, spec: MechanismSpec) -> Witness | None:
    """The ordered pair of rows and the loss event of a refuted same-database claim."""
    if not check.refute:
        return None
    first, second = ("D", "alt") if check.direction == 0 else ("alt", "D")   # D: the prior's row
    exact = f"{delta_exact:.12g}"
    return {"x": first, "x_prime": second, "runs": check.runs,
            "event": (f"loss_event: the output sequences of the {check.runs} runs where "
                      f"Pr[{first}] > e^eps * Pr[{second}]"),
            "delta": str(spec.delta), "delta_exact": exact,
            "text": (f"witness: the rows {first} and {second} (D: the database drawn from the prior, alt: "
                     f"its scrubbed version), S = their loss event over the {check.runs} runs on the same "
                     f"database: Pr[{first} in S] - e^eps * Pr[{second} in S] = delta(eps) = {exact} "
                     f"> delta = {spec.delta}")}


def stream_plan(refute: bool, exp: ExpBound, check: StreamClassCheck | StreamCoefCheck | StreamGroupCheck,
                exact: float,
                note: str) -> Plan:
    """The plan of a same-database stream claim: the rows, e^ε's bound and the check; δ(ε)
    computed in floats (a prediction the check decides)."""
    return Plan(Verdict.REFUTED if refute else Verdict.PROVED, (RowsAreDistributions("full"), exp, check),
                tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                delta_at_claim_float=exact, notes=(note,))


def rational_exp(eps: sympy.Expr, refute: bool) -> tuple[Fraction, ExpBound] | None:
    """e^ε itself and its exact obligation when it is rational (ε = ln(19/4)), else None."""
    e = sympy.exp(eps)
    if not e.is_Rational:
        return None
    t = Fraction(int(e.p), int(e.q))
    return t, (ExpUpperBound(t, "exact") if refute else ExpLowerBound(t, "exact"))


def bounded_exp(eps: sympy.Expr, t: Fraction, bits: int, refute: bool) -> ExpBound:
    """t ≤ e^ε (to prove) or t ≥ e^ε (to refute), by a Taylor hint where one serves, else by
    interval arithmetic at `bits`."""
    hint = taylor_hint(eps, t, upper=refute)
    if refute:
        return ExpUpperBound(t, "taylor", bits, hint) if hint else ExpUpperBound(t, "interval", bits)
    return ExpLowerBound(t, "taylor", bits, hint) if hint else ExpLowerBound(t, "interval", bits)


def _exp_bound(spec: MechanismSpec, eps: sympy.Expr, refute: bool, cls: cw_stream.Classes,
               form: cw_stream.IntegerForm, direction: int, claimed: mpmath.mpf) -> tuple[Fraction, ExpBound]:
    """The rational t (1 ≤ t ≤ e^ε to prove, t ≥ e^ε to refute) whose check passes, and the
    obligation bounding e^ε by it."""
    k = spec.compose
    exact = rational_exp(eps, refute)
    if exact is not None:
        return exact
    for digits in DIGITS:
        lo, hi, bits = exp_bounds(eps, digits)
        t = hi if refute else max(Fraction(1), lo)    # t ≥ 1 gives ε ≥ 0 in Coq
        with mpmath.workdps(60):
            tq = mpmath.mpf(t.numerator) / t.denominator
            values = [cw_stream.hs_pair(cls, form, k, a, b, tq) for a, b in ((form.u, form.u2), (form.u2, form.u))]
        if (values[direction] > claimed) if refute else (max(values) <= claimed):
            return t, bounded_exp(eps, t, bits, refute)
    raise SpecError(spec.path, "claim.delta", f"delta = {spec.delta} is within 10^-{DIGITS[-1]} of delta(eps) "
                    f"of the {k} runs: too close to decide with a rational bound on e^eps")


def stream_context(spec: MechanismSpec, rows: tuple[tuple[Fraction, ...], ...], check: RunsCheck,
                   exp: ExpBound) -> dict[str, Any]:
    """What both same-database templates read: the spec's header and table, the priors, the
    claim, the check's t and order, and e^eps's obligation."""
    renderer = T.renderer(spec)
    name = spec.name
    epsilon = strip_outer(renderer.r(spec.epsilon))
    delta = r_lit(spec.delta)
    assert spec.cw is not None
    prior, alt = spec.cw
    slots = {"delta": (f"{name}_delta", f"(Q2R {q_lit(spec.delta)} = {delta})%R", EQ_TACTICS)}
    o = dict(kind="exp_upper" if check.refute else "exp_lower", upper=check.refute, bound=q_lit(check.t),
             method=exp.method, bits=exp.precision_bits, taylor=exp.taylor, decimal=f"{float(check.t):.6g}")
    return dict(
        **header(name, spec.path, spec.sha256, spec.description), inputs=T.domain_text(spec.inputs),
        outputs=T.domain_text(spec.outputs), n_in=spec.inputs.size, n_out=spec.outputs.size,
        parameters=T.parameters(spec), formula=T.formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(rows) if spec.formula is None else None, k=spec.compose,
        prior="; ".join(q_lit(v) for v in prior), alt="; ".join(q_lit(v) for v in alt),
        t_q=q_lit(check.t), t_text=str(check.t), delta_q=q_lit(spec.delta), refute=check.refute,
        dir="true" if check.direction == 1 else "false",
        pair_text="rows (D, alt)" if check.direction == 0 else "rows (alt, D)",
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text), delta=delta,
        delta_text=comment(spec.delta_text), slots=slots, exp=exp_obligation(name, o, epsilon))


def _render(spec: MechanismSpec, s: Stream) -> Rendered:
    name, check, form = spec.name, s.check, s.form
    ctx = stream_context(spec, s.table.base_rows, check, s.exp)
    ctx.update(
        a_rows=";\n   ".join("[" + "; ".join(z_lit(a) for a in row) + "]" for row in form.A),
        d=z_lit(form.D), f=z_lit(form.F), u="; ".join(z_lit(a) for a in form.u),
        u2="; ".join(z_lit(a) for a in form.u2), class_bound=cw_stream.class_bound(len(form.letters), spec.compose),
        letters="; ".join(f"({y}%nat, {w}%positive)" for y, w in form.letters), n_letters=len(form.letters),
        blk="; ".join(str(j) for j in form.blk))
    theorem = f"{name}_refuted" if check.refute else f"{name}_dp"
    return render_template(TEMPLATE, name, ctx, "Prelude", (theorem,), (INTERVAL_PRELUDE,))
