"""A composed claim (`composition: {runs: K}`) certified exactly by the privacy-loss
distribution when the K-fold product table is too large (`theories/Finite/PLDTwo.v`).

Applies to a table or formula whose every ordered pair of neighbours has exactly the loss
values b and 1/b (P(y) = b·Q(y) or P(y) = Q(y)/b for every output: the truncated
1/b-geometric, randomized response, ...).  Then every pair has the same two-atom PLD and the
K-fold one is binomial: Coq checks the keys of every pair on the spec's table, evaluates the
K-th convolution power at e^ε in outward-rounded intervals and proves (ε, δ)-DP of
`fmech_power M K` (`dp_power_pld2`), or its negation with a pair of neighbours and the loss
event of the composition as witness (`not_dp_power_pld2`).  Python's exact δ(ε) (`pld.py`)
only predicts the verdict.  What the route cannot do is refused naming the field."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import sympy

from obligations.analysis.finite import FiniteMechanism, epsilon_value, single_run
from obligations.core import finite_terms as T
from obligations.core.document import Tactic
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import Plan, PowerPldCheck, RowsAreDistributions, Verdict
from obligations.core.spec import MechanismSpec, too_many_outputs
from obligations.core.templates import Rendered, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_lit, r_lit, rows_literal, strip_outer
from obligations.errors import SpecError
from obligations.table.members import describe_finite
from obligations.table.pld import two_point_delta

TEMPLATE = Path(__file__).parent / "templates" / "pld.v.j2"
PRELUDE = "PreludePLD"
# Q2R of a rational equals the spec's ε (or δ) written in R.
# b^K and b^-K must be binary64 numbers (largest exponent 1023); 2^1000 is the shipped one.
MAX_LOG2 = 1020
EQ_TACTICS = (Tactic("unfold Q2R; simpl; lra."), Tactic("unfold Q2R; simpl; field."))


def loss_base(spec: MechanismSpec, base: FiniteMechanism) -> Fraction:
    """b > 1 such that every ordered pair of neighbours has loss values exactly b and 1/b."""
    ratios: set[Fraction] = set()
    for x, x2 in base.pairs:
        for y, (p, q) in enumerate(zip(base.base_rows[x], base.base_rows[x2], strict=False)):
            if p == 0 and q == 0:
                continue
            if p == 0 or q == 0:
                raise _refuse(spec, f"output {base.output_label(y)} has probability 0 under one of the neighbours "
                              f"{base.input_label(x)}, {base.input_label(x2)} and not under the other: "
                              "an infinite privacy loss")
            ratios.add(p / q)
    b = max(ratios, default=Fraction(1))
    if b <= 1 or ratios != {b, 1 / b}:
        shown = ", ".join(str(r) for r in sorted(ratios)[:6])
        raise _refuse(spec, f"the loss ratios P(y)/Q(y) over neighbours are {{{shown}}}; the exact route "
                      "needs exactly two, b and 1/b (theories/Finite/PLDTwo.v)")
    return b


def _refuse(spec: MechanismSpec, why: str) -> SpecError:
    return SpecError(spec.path, "composition.runs",
                     f"the {spec.compose}-fold product table has {spec.outputs.size}^{spec.compose} outputs and {why}")


def exact_delta(b: Fraction, runs: int, eps: Fraction) -> mpmath.mpf:
    """δ(ε) of the K-fold composition: a pair has P-mass b/(1 + b) on the loss b."""
    with mpmath.workdps(40):
        ratio = mpmath.mpf(b.numerator) / b.denominator
        return two_point_delta(b / (1 + b), ratio, runs, mpmath.mpf(eps.numerator) / eps.denominator)


@dataclass(frozen=True)
class Pld:
    """The single run's table, its loss base b, the claim's rational ε and the check Coq runs."""

    table: FiniteMechanism
    base: Fraction
    eps: Fraction
    check: PowerPldCheck


class ByPld(Route[MechanismSpec, Pld]):
    name = "by the PLD"

    def applies(self, spec: MechanismSpec) -> bool:
        """A composed claim whose product table Coq cannot build (basic composition did not suffice)."""
        return spec.compose > 1 and spec.derived is None and too_many_outputs(spec.outputs.size, spec.compose)

    def analyse(self, spec: MechanismSpec) -> Analysed[Pld]:
        if spec.distribution != "full":
            raise _refuse(spec, "the rows are sub-distributions (the route needs distributions)")
        eps_value = epsilon_value(spec)
        if not eps_value.is_Rational or eps_value < 0:
            raise SpecError(spec.path, "claim.epsilon", f"the {spec.compose}-fold composition is certified by its "
                            f"PLD, which needs a rational epsilon >= 0, not {eps_value}")
        eps = Fraction(int(eps_value.p), int(eps_value.q))
        base = single_run(spec)
        b = loss_base(spec, base)
        if spec.compose * math.log2(b) > MAX_LOG2:
            raise _refuse(spec, f"b^K = ({b})^{spec.compose} is beyond the binary64 range of the interval evaluation")
        x, x2 = base.pairs[0]
        exact = exact_delta(b, spec.compose, eps)
        refute = mpmath.mpf(spec.delta.numerator) / spec.delta.denominator < exact
        check = PowerPldCheck(b, spec.compose, spec.delta, refute, x, x2)
        exact_text = mpmath.nstr(exact, 15)
        plan = Plan(Verdict.REFUTED if refute else Verdict.PROVED, (RowsAreDistributions("full"), check),
                    tight_epsilon=f"{spec.compose}*ln({b})", tight_epsilon_float=spec.compose * math.log(b),
                    delta_at_claim=None, delta_at_claim_float=float(exact),
                    notes=(f"exact {spec.compose}-fold composition by the PLD (loss values {b} and 1/{b}): "
                           f"delta({eps}) = {exact_text}; no product table",))
        return Analysed(Pld(base, b, eps, check), plan)

    def render(self, spec: MechanismSpec, a: Analysed[Pld]) -> Rendered:
        p = a.mechanism
        return _render(spec, p.table, p.base, p.eps, p.check)

    def witness(self, u: Unfolded[MechanismSpec, Pld]) -> Witness | None:
        """The pair of neighbours and the loss event of a refuted composed claim."""
        check = u.mechanism.check
        if not check.refute:
            return None
        m = u.mechanism.table
        eps = epsilon_value(u.spec)
        x, x2 = m.input_label(check.x), m.input_label(check.x2)
        exact = f"{u.plan.delta_at_claim_float:.12g}"
        return {"x": x, "x_prime": x2, "runs": check.runs,
                "event": f"loss_event: the outputs of the {check.runs}-fold composition where "
                         f"Pr[x] > e^eps * Pr[x']",
                "exp_epsilon": f"{float(sympy.exp(eps).evalf(30)):.12g}", "delta": str(u.spec.delta),
                "delta_exact": exact,
                "text": (f"witness: x = {x}, x' = {x2}, S = the loss event of the {check.runs}-fold composition "
                         f"(outputs with Pr[M^{check.runs}(x) = o] > e^eps * Pr[M^{check.runs}(x') = o]): "
                         f"Pr[M(x) in S] - e^eps * Pr[M(x') in S] = delta(eps) = {exact} > delta = {u.spec.delta}")}

    def describe(self, u: Unfolded[MechanismSpec, Pld]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_PLD = ByPld()


def _render(spec: MechanismSpec, base: FiniteMechanism, b: Fraction, eps: Fraction,
            check: PowerPldCheck) -> Rendered:
    renderer = T.renderer(spec)
    name = spec.name
    epsilon = strip_outer(renderer.r(spec.epsilon))
    delta = r_lit(spec.delta)
    slots = {"eps": (f"{name}_eps", f"(Q2R {q_lit(eps)} = {epsilon})%R", EQ_TACTICS),
             "delta": (f"{name}_delta", f"(Q2R {q_lit(spec.delta)} = {delta})%R", EQ_TACTICS)}
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description), inputs=T.domain_text(spec.inputs),
        outputs=T.domain_text(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size, parameters=T.parameters(spec),
        formula=T.formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(base.base_rows) if spec.formula is None else None, k=spec.compose,
        b=q_lit(b), b_text=str(b), eps_q=q_lit(eps), delta_q=q_lit(spec.delta), neighbours=T.neighbours_term(spec),
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text), delta=delta,
        delta_text=comment(spec.delta_text), refute=check.refute, x=check.x, x2=check.x2,
        x_label=comment(base.input_label(check.x)), x2_label=comment(base.input_label(check.x2)), slots=slots)
    theorem = f"{name}_refuted" if check.refute else f"{name}_dp"
    return render_template(TEMPLATE, name, ctx, PRELUDE, (theorem,))
