"""A CW claim about K runs on the same database when its classes of output sequences are too
many for Coq (table/by_stream.py): certified by the streaming composition theorem.

The same database released K times is (ε, δ)-CW-private when the K-fold composition M^⊗K is
(ε, δ)-DP over the support pairs x ∈ supp f, x' ∈ supp f' (joint convexity of the
hockey-stick divergence, `cw_stream_of_dp`).  That DP bound comes from the accountant
(`theories/Accountant/`): the pairs' privacy-loss distributions raised to the K-th power in
floats rounded down; `cw_stream_acc` joins the two.  The theorem bounds δ(ε) from above
only: a claim below its bound is undecided here, never refuted.  Python's floats
(analysis/accountant.py) only predict the verdict."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from obligations import __version__
from obligations.analysis import accountant as acc
from obligations.analysis import cw_stream
from obligations.analysis.finite import FiniteMechanism, epsilon_value, tabulate
from obligations.core import finite_terms as T
from obligations.core.document import Tactic
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import AccountantCheck, Plan, RowsAreDistributions, Verdict
from obligations.core.spec import MechanismSpec
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_list, q_lit, r_lit, rows_literal, strip_outer
from obligations.errors import SpecError
from obligations.table import by_stream, by_stream_coef, by_stream_group
from obligations.table.members import describe_finite

TEMPLATE = Path(__file__).parent / "templates" / "stream_theorem.v.j2"
PRELUDE = "PreludeAcc"
LE_TACTICS = (Tactic("unfold Q2R; simpl; lra."),)
INTERVAL_TACTICS = (Tactic("unfold Q2R; simpl; interval."), Tactic("unfold Q2R; simpl; interval with (i_prec 120)."))
TAU = "tau100"
MAX_RUNS = 1_000_000
DIGITS = 9      # an irrational epsilon is checked at a rational 10^-9 below it


def support_pairs(prior: tuple[Fraction, ...], alt: tuple[Fraction, ...]) -> tuple[tuple[int, int], ...]:
    """Coq's `supp_nb f f'` as ordered pairs of distinct inputs: x in supp f, x' in supp f', either order."""
    n = len(prior)
    return tuple(sorted({p for x in range(n) for x2 in range(n) if prior[x] > 0 and alt[x2] > 0 and x != x2
                         for p in ((x, x2), (x2, x))}))


@dataclass(frozen=True)
class Theorem:
    """The single run's table, the accountant of the support pairs and the rational ε₀ ≤ ε it checks."""

    table: FiniteMechanism
    accountant: acc.Accountant
    eps: Fraction
    exact: bool         # ε₀ = ε


def _refuse(spec: MechanismSpec, field: str, why: str) -> SpecError:
    return SpecError(spec.path, field, why)


def _epsilon_below(spec: MechanismSpec) -> tuple[Fraction, bool]:
    """A rational ε₀ ≤ ε the accountant checks (e^ε₀ an interval from it), and whether ε₀ = ε;
    an irrational ε (K·ln(19/4)) is cut to 10^-DIGITS below."""
    value = epsilon_value(spec)
    if value.is_Rational:
        eps = Fraction(int(value.p), int(value.q))
        exact = True
    else:
        eps = Fraction(math.floor(sympy.N(value * 10 ** DIGITS, 60)), 10 ** DIGITS)
        exact = False
    if eps < 0 or not value.is_real:
        raise _refuse(spec, "claim.epsilon", f"epsilon = {value}: the composition theorem takes epsilon >= 0")
    return eps, exact


class ByStreamTheorem(Route[MechanismSpec, Theorem]):
    name = "by the streaming composition theorem"

    def applies(self, spec: MechanismSpec) -> bool:
        """A composed CW claim whose classes of output sequences the class route refuses."""
        return (spec.cw is not None and spec.compose > 1 and spec.derived is None
                and not by_stream.within_limits(by_stream.letter_count(spec), spec.compose))

    def analyse(self, spec: MechanismSpec) -> Analysed[Theorem] | None:
        assert spec.cw is not None
        if spec.distribution != "full":
            raise _refuse(spec, "distribution", "the accountant needs rows that are distributions (sum 1)")
        if spec.compose > MAX_RUNS:
            raise _refuse(spec, "composition.runs", f"{spec.compose} runs: at most {MAX_RUNS}")
        eps, exact = _epsilon_below(spec)
        base = tabulate(replace(spec, compose=1))
        pairs = support_pairs(*spec.cw)
        if not pairs:
            raise _refuse(spec, "cw.alt_prior", "the priors' supports are one and the same input: no pair "
                          "to compose (the two rows are equal)")
        try:
            a = acc.accountant(base.base_rows, pairs, spec.compose)
        except acc.AccountantError as exc:
            raise _refuse(spec, "composition.runs", str(exc)) from None
        up = a.upper(float(eps)) * (1 + acc.MARGIN) + acc.TINY
        k, m = spec.compose, spec.outputs.size
        notes = [f"{k} runs on the same database by the composition theorem: DP of the {k}-fold composition "
                 f"over the {len(pairs)} ordered support pairs, delta({eps}) <= {up:.12g} (the accountant; "
                 f"the {m}^{k}-row table and its up to {cw_stream.class_bound(m, k)} classes are not built)"]
        if float(spec.delta) >= up:
            expected = Verdict.PROVED
        elif by_stream_group.applies_to(spec) or by_stream_coef.applies_to(spec):
            return None         # the bound cannot decide: an exact route (both sides) can
        else:
            expected = Verdict.UNDECIDED
            notes.append(f"delta = {spec.delta} is below the theorem's bound {up:.12g}: the theorem bounds "
                         "delta(eps) from above only, so the claim is neither proved nor refuted")
        x, x2 = pairs[0]
        check = AccountantCheck(a.keying.base, a.keying.stride, a.keying.exact, k, len(a.ups),
                                ((eps, spec.delta),), (), x, x2)
        plan = Plan(expected, (RowsAreDistributions("full"), check), tight_epsilon=None,
                    tight_epsilon_float=math.nan, delta_at_claim=None, delta_at_claim_float=up, notes=tuple(notes))
        return Analysed(Theorem(base, a, eps, exact), plan)

    def render(self, spec: MechanismSpec, a: Analysed[Theorem]) -> Rendered:
        return _render(spec, a.mechanism)

    def witness(self, u: Unfolded[MechanismSpec, Theorem]) -> Witness | None:
        return None

    def describe(self, u: Unfolded[MechanismSpec, Theorem]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_STREAM_THEOREM = ByStreamTheorem()


def _render(spec: MechanismSpec, s: Theorem) -> Rendered:
    assert spec.cw is not None
    renderer = T.renderer(spec)
    name, a, eps = spec.name, s.accountant, s.eps
    prior, alt = spec.cw
    ups = [c[0] for c in a.ups]
    eps_r = strip_outer(renderer.r(spec.epsilon))
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), inputs=T.domain_text(spec.inputs),
        outputs=T.domain_text(spec.outputs), n_in=spec.inputs.size, n_out=spec.outputs.size,
        parameters=T.parameters(spec), formula=T.formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(s.table.base_rows) if spec.formula is None else None, k=spec.compose,
        prior="; ".join(q_lit(v) for v in prior), alt="; ".join(q_lit(v) for v in alt),
        b=q_lit(a.keying.base), b_text=str(a.keying.base), d=a.keying.stride,
        keys_text="every loss a power of b" if a.keying.exact else "losses rounded up to powers of b",
        plds=[dict(offset=p.offset, masses=q_list(list(p.masses))) for p in ups],
        pld_names="; ".join(f"{name}_pld{i}" for i in range(len(ups))),
        eps_q=q_lit(eps), delta_q=q_lit(spec.delta), z0=acc.pivot_key(a.keying, eps), tau=TAU,
        eps_r=eps_r, delta_r=r_lit(spec.delta), epsilon_text=comment(spec.epsilon_text),
        delta_text=comment(spec.delta_text),
        eps_below=str(eps), eps_exact=s.exact,
        eps_slot=(f"{name}_eps0", f"(Q2R {q_lit(eps)} <= {eps_r})%R", LE_TACTICS if s.exact else INTERVAL_TACTICS),
        delta_slot=(f"{name}_delta0", f"(Q2R {q_lit(spec.delta)} = {r_lit(spec.delta)})%R", by_stream.EQ_TACTICS))
    return render_template(TEMPLATE, name, ctx, PRELUDE, (f"{name}_dp",))
