"""Composed claims by basic composition: the k-fold composition of a mechanism that is
(ln L, d0)-DP is (ε, δ)-DP when L^k ≤ e^ε and k·d0 ≤ δ (`theories/Finite/BasicComposition.v`,
`dp_power_basic_q`, itself from the adaptive theorem `dp_adaptive`).  Coq checks the single
run on its table and never builds the k-fold product table.

Used for a composed claim (a profile point, `region --compose K --certify`) whenever it
suffices: δ ≥ k · δ_1(ε/k) for the single run's δ_1.  The certificate's theorems name the
single run's lemma (`NAME_single_dp`) and its notes say the bound is basic composition's,
not the exact curve's."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from obligations.analysis.finite import (
    FiniteMechanism,
    Row,
    epsilon_value,
    exp_bounds,
    max_ratio,
    single_run,
    taylor_hint,
    worst_pair,
)
from obligations.core import finite_terms as T
from obligations.core.model import Analysed, Description, Route, Unfolded
from obligations.core.obligation import (
    ExpLowerBound,
    HockeyStickCheck,
    Plan,
    PointwiseCheck,
    RowsAreDistributions,
    Verdict,
)
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, Rendered, exp_obligation, header
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_lit, r_lit, rows_literal, strip_outer
from obligations.table.members import describe_finite

TEMPLATE = Path(__file__).parent / "templates" / "basic_composition.v.j2"
DIGITS = (15, 30, 60)


def single_run_bound(spec: MechanismSpec, k: int) -> tuple[Fraction, Fraction] | None:
    """(L, d0) with L ≤ e^(ε/k), d0 = δ/k, the single run (ln L, d0)-DP; None if basic
    composition does not suffice for the claim."""
    base = single_run(spec)
    eps_k = epsilon_value(spec) / k
    d0 = spec.delta / k
    e = sympy.exp(eps_k)
    candidates = ([Fraction(int(e.p), int(e.q))] if e.is_Rational else
                  [max(Fraction(1), exp_bounds(eps_k, digits)[0]) for digits in DIGITS])
    for bound in candidates:
        if worst_pair(base, bound)[0] <= d0:
            return bound, d0
    return None


def exp_lower(spec: MechanismSpec, lk: Fraction) -> ExpLowerBound:
    eps = epsilon_value(spec)
    e = sympy.exp(eps)
    bits = exp_bounds(eps, 30)[2]
    if e.is_Rational:
        return ExpLowerBound(lk, "exact")
    hint = taylor_hint(eps, lk, upper=False)
    return ExpLowerBound(lk, "taylor", bits, hint) if hint else ExpLowerBound(lk, "interval", bits)


@dataclass(frozen=True)
class SingleRun:
    """The single run's table and the (ln L, d0)-DP claim about it that composes to the claim."""

    table: FiniteMechanism
    bound: Fraction     # L
    d0: Fraction
    exp: ExpLowerBound  # L^k <= e^ε


class ByBasicComposition(Route[MechanismSpec, SingleRun]):
    name = "by basic composition"

    def applies(self, spec: MechanismSpec) -> bool:
        # The smallest epsilon at delta and a profile's points are the accountant's.
        return (spec.compose > 1 and spec.cw is None and spec.distribution == "full" and spec.tolerance is None
                and spec.subsample is None   # the subsampled table is the accountant's (fmech_subsample)
                and not (spec.derived is not None and "points" in spec.derived))

    def analyse(self, spec: MechanismSpec) -> Analysed[SingleRun] | None:
        """None when basic composition does not suffice (the PLD's or the product table's)."""
        k = spec.compose
        found = single_run_bound(spec, k)
        if found is None:
            return None
        bound, d0 = found
        lk = bound ** k
        exp = exp_lower(spec, lk)
        check = PointwiseCheck(bound) if d0 == 0 else HockeyStickCheck(bound, d0)
        base = single_run(spec)
        ratio = max_ratio(base)
        tight = "oo" if ratio is None else ("0" if ratio == 1 else f"ln({ratio ** k})")
        plan = Plan(Verdict.PROVED, (RowsAreDistributions("full"), exp, check), tight_epsilon=tight,
                    tight_epsilon_float=math.inf if ratio is None else k * math.log(ratio),
                    delta_at_claim=None, delta_at_claim_float=math.nan,
                    notes=(f"basic composition: {k} x (ln({bound}), {d0}) of the single run "
                           "(dp_power_basic_q); a bound, not the exact curve; no product table",))
        return Analysed(SingleRun(base, bound, d0, exp), plan)

    def render(self, spec: MechanismSpec, a: Analysed[SingleRun]) -> Rendered:
        r = a.mechanism
        return _render(spec, r.table.base_rows, r.bound, r.d0, r.exp, spec.compose)

    def describe(self, u: Unfolded[MechanismSpec, SingleRun]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_BASIC_COMPOSITION = ByBasicComposition()


def _decimal(q: Fraction) -> str:
    """A short reading of a bound that may exceed a float (3^1000)."""
    try:
        return f"{float(q):.6g}"
    except OverflowError:
        return f"1e{len(str(q.numerator)) - len(str(q.denominator))} roughly"


def _render(spec: MechanismSpec, rows: Sequence[Row], bound: Fraction, d0: Fraction, exp: ExpLowerBound,
            k: int) -> Rendered:
    renderer = T.renderer(spec)
    name = spec.name
    neighbours = T.neighbours_term(spec)
    main: dict[str, Any] = dict(kind="pointwise" if d0 == 0 else "hockey", bound=q_lit(bound), delta=q_lit(d0))
    check, bridge = T.check_term(main, neighbours, f"{name}_table")
    epsilon = strip_outer(renderer.r(spec.epsilon))
    o = dict(kind="exp_lower", upper=False, bound=q_lit(exp.bound), method=exp.method, bits=exp.precision_bits,
             taylor=exp.taylor, decimal=_decimal(exp.bound))
    ctx: dict[str, Any] = dict(
        **header(name, spec.path, spec.sha256, spec.description), inputs=T.domain_text(spec.inputs),
        outputs=T.domain_text(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size, parameters=T.parameters(spec),
        formula=T.formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(rows) if spec.formula is None else None, k=k,
        bound=q_lit(bound), bound_text=str(bound), d0=q_lit(d0), d0_text=str(d0), pointwise=d0 == 0,
        check=check, bridge=bridge, neighbours=neighbours, exp=exp_obligation(name, o, epsilon),
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text), delta=r_lit(spec.delta),
        delta_q=q_lit(spec.delta), delta_text=comment(spec.delta_text))
    return render_template(TEMPLATE, name, ctx, "Prelude", (f"{name}_single_dp", f"{name}_dp"),
                           (INTERVAL_PRELUDE,))
