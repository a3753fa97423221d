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
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional

import sympy

from obligations import __version__
from obligations.analysis.finite import (epsilon_value, exp_bounds, max_ratio, tabulate, taylor_hint,
                                         worst_pair)
from obligations.core.obligation import (ExpLowerBound, HockeyStickCheck, Plan, PointwiseCheck,
                                         RowsAreDistributions, Verdict)
from obligations.core.spec import MechanismSpec
from obligations.core.templates import INTERVAL_PRELUDE, exp_obligation, render as render_template
from obligations.core.terms import comment, q_lit, r_lit, rows_literal, strip_outer
from obligations.kinds.base import Unfolded
from obligations.kinds.finite.document import (_check_term, _domain, _formula, neighbours_term, _parameters,
                                               _renderer)

TEMPLATE = Path(__file__).with_name("basic_composition.v.j2")
DIGITS = (15, 30, 60)


def single_run_bound(spec: MechanismSpec, k: int) -> Optional[tuple[Fraction, Fraction]]:
    """(L, d0) with L ≤ e^(ε/k), d0 = δ/k, the single run (ln L, d0)-DP; None if basic
    composition does not suffice for the claim."""
    base = tabulate(replace(spec, compose=1, cw=None))
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


def unfold(spec: MechanismSpec) -> Optional[Unfolded]:
    """The basic-composition route for a composed claim, or None (the product table's)."""
    k = spec.compose
    if k <= 1 or spec.cw is not None or spec.distribution != "full":
        return None
    t0 = time.perf_counter()
    found = single_run_bound(spec, k)
    if found is None:
        return None
    bound, d0 = found
    lk = bound ** k
    exp = exp_lower(spec, lk)
    check = PointwiseCheck(bound) if d0 == 0 else HockeyStickCheck(bound, d0)
    base = tabulate(replace(spec, compose=1, cw=None))
    ratio = max_ratio(base)
    tight = "oo" if ratio is None else ("0" if ratio == 1 else f"ln({ratio ** k})")
    plan = Plan(Verdict.PROVED, (RowsAreDistributions("full"), exp, check), tight_epsilon=tight,
                tight_epsilon_float=math.inf if ratio is None else k * math.log(ratio),
                delta_at_claim=None, delta_at_claim_float=math.nan,
                notes=(f"basic composition: {k} x (ln({bound}), {d0}) of the single run "
                       "(dp_power_basic_q); a bound, not the exact curve; no product table",))
    t1 = time.perf_counter()
    rendered = _render(spec, base.base_rows, bound, d0, exp, k)
    return Unfolded(spec, base, plan, rendered, {"unfold": t1 - t0, "render": time.perf_counter() - t1})


def _decimal(q: Fraction) -> str:
    """A short reading of a bound that may exceed a float (3^1000)."""
    try:
        return f"{float(q):.6g}"
    except OverflowError:
        return f"1e{len(str(q.numerator)) - len(str(q.denominator))} roughly"


def _render(spec: MechanismSpec, rows: Any, bound: Fraction, d0: Fraction, exp: ExpLowerBound, k: int):  # noqa: ANN202
    renderer = _renderer(spec)
    name = spec.name
    neighbours = neighbours_term(spec)
    main: dict[str, Any] = dict(kind="pointwise" if d0 == 0 else "hockey", bound=q_lit(bound), delta=q_lit(d0))
    check, bridge = _check_term(main, neighbours, f"{name}_table")
    epsilon = strip_outer(renderer.r(spec.epsilon))
    o = dict(kind="exp_lower", upper=False, bound=q_lit(exp.bound), method=exp.method, bits=exp.precision_bits,
             taylor=exp.taylor, decimal=_decimal(exp.bound))
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), inputs=_domain(spec.inputs), outputs=_domain(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size, parameters=_parameters(spec),
        formula=_formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(rows) if spec.formula is None else None, k=k,
        bound=q_lit(bound), bound_text=str(bound), d0=q_lit(d0), d0_text=str(d0), pointwise=d0 == 0,
        check=check, bridge=bridge, neighbours=neighbours, exp=exp_obligation(name, o, epsilon),
        epsilon=epsilon, epsilon_text=comment(spec.epsilon_text), delta=r_lit(spec.delta),
        delta_q=q_lit(spec.delta), delta_text=comment(spec.delta_text))
    return render_template(TEMPLATE, name, ctx, "Prelude", (f"{name}_single_dp", f"{name}_dp"),
                           (INTERVAL_PRELUDE,))
