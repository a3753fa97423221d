"""Chains of different mechanisms (`compose: [{spec: a.yaml, runs: 10}, ...]`), certified by
the accountant (`theories/Accountant/Chain.v`, `ChainCheck.v`): every mechanism's loss keys
(one base for all) and PLDs checked exactly for every pair of neighbours, each PLD raised to
its run count in floats rounded down and the powers convolved; (ε, δ)-DP of
`fmech_chain (chain_of groups) n` proved (`dp_chain_acc`) or refuted with a pair and the
chain's loss event (`not_dp_chain_acc`); or the smallest ε at δ to a tolerance.  Template
`chain.v.j2`.

Non-adaptive: the mechanisms are fixed in advance and each sees the same input.  Adaptive
composition (a mechanism chosen after seeing earlier outputs) is the route of `adaptive: true`
(`adaptive.py`, by a dominating pair per part); for pure DP the KOV bound (`kov:` specs) covers
it for every mechanism."""
from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from obligations import __version__
from obligations.analysis import accountant as acc
from obligations.analysis.finite import FiniteMechanism, tabulate
from obligations.core import expr as E
from obligations.core.finite_terms import domain_text, neighbours_term
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.obligation import AccountantCheck, Plan, RowsAreDistributions, Verdict
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_list, q_lit, r_lit, rows_literal
from obligations.errors import SpecError
from obligations.table.by_accountant import (
    PRELUDE,
    Claim,
    _exp_text,
    claim_fields,
    claim_item,
    equation_slots,
    refuting_check,
    tolerance_claims,
)
from obligations.table.chain_spec import ChainSpec
from obligations.table.chosen import Chosen, chosen, describe_plan

TEMPLATE = Path(__file__).parent / "templates" / "chain.v.j2"


class ByChainAccountant(Route[ChainSpec, Chosen[FiniteMechanism]]):
    name = "by the accountant over the chain"

    def applies(self, spec: ChainSpec) -> bool:
        return not spec.adaptive

    def analyse(self, spec: ChainSpec) -> Analysed[Chosen[FiniteMechanism]]:
        return analyse(spec)

    def render(self, spec: ChainSpec, a: Analysed[Chosen[FiniteMechanism]]) -> Rendered:
        return a.mechanism.rendered

    def witness(self, u: Unfolded[ChainSpec, Chosen[FiniteMechanism]]) -> Witness | None:
        return loss_witness(u, "the chain", lambda x, x2: (
            f"witness: x = {x}, x' = {x2}, S = the loss event of the chain (outputs o with "
            f"Pr[M(x) = o] > e^eps * Pr[M(x') = o]): "))

    def describe(self, u: Unfolded[ChainSpec, Chosen[FiniteMechanism]]) -> Description:
        return describe_plan(u, summary(u.spec))


def loss_witness(u: Unfolded[ChainSpec, Chosen[FiniteMechanism]], chain: str,
                 lead: Callable[[str, str], str]) -> Witness | None:
    """The pair and the loss event of the fixed chain that refutes the claim (`chain` names it in
    the event, `lead` says the pair and the event), else None."""
    check = refuting_check(u.plan)
    if check is None:
        return None
    eps, delta = check.refuted[0]
    labels = u.spec.parts[0][0].inputs.labels
    x, x2 = labels[check.x], labels[check.x2]
    return {"x": x, "x_prime": x2, "runs": check.runs, "exp_epsilon": _exp_text(eps), "delta": str(delta),
            "event": f"loss_event: the outputs of {chain} where Pr[x] > e^eps * Pr[x']",
            "text": lead(x, x2) + f"Pr[M(x) in S] - e^eps * Pr[M(x') in S] = delta(eps) > delta = {delta}"}


def summary(spec: ChainSpec) -> str:
    parts = ", ".join(f"{m.name} x {k}" for m, k in spec.parts)
    return f"chain {parts}, claim ({spec.epsilon_text}, {spec.delta_text})-DP"


BY_CHAIN_ACCOUNTANT = ByChainAccountant()


def build(spec: ChainSpec) -> tuple[acc.Accountant, list[FiniteMechanism]]:
    tables = [tabulate(m) for m, _ in spec.parts]
    try:
        a = acc.chain_accountant([(t.base_rows, k) for t, (_, k) in zip(tables, spec.parts, strict=True)],
                                 tables[0].pairs)
    except acc.AccountantError as exc:
        raise SpecError(spec.path, "compose", str(exc)) from None
    return a, tables


def _eps(spec: ChainSpec) -> Fraction:
    value = E.to_sympy(spec.epsilon, {})
    if not value.is_Rational or value < 0:
        raise SpecError(spec.path, "claim.epsilon", f"the accountant takes a rational epsilon >= 0, not {value}")
    return Fraction(int(value.p), int(value.q))


def analyse(spec: ChainSpec) -> Analysed[Chosen[FiniteMechanism]]:
    """The claims (their side of the bracket, or the smallest epsilon at delta), the plan, and
    the document stating them."""
    a, tables = build(spec)
    notes = [f"{spec.runs} runs in all: " + ", ".join(f"{m.name} {k} times" for m, k in spec.parts)
             + "; non-adaptive (each mechanism fixed in advance, all on the same input)"]
    if spec.tolerance is not None:
        claims, note = tolerance_claims(spec.path, spec.name, spec.delta, spec.tolerance, a, a)
        notes.append(note)
        expected = Verdict.PROVED
    else:
        eps = _eps(spec)
        up = a.upper(float(eps)) * (1 + acc.MARGIN) + acc.TINY
        lo, _ = a.lower(float(eps))
        refute = float(spec.delta) < lo * (1 - acc.MARGIN)
        expected = Verdict.REFUTED if refute else (Verdict.PROVED if float(spec.delta) >= up else Verdict.UNDECIDED)
        claims = [Claim(eps, spec.delta, refute, r_lit(eps), f"{spec.name}_refuted" if refute else f"{spec.name}_dp",
                        spec.epsilon_text)]
        notes.append(f"delta({eps}) of the chain lies in [{lo:.12g}, {up:.12g}] (the accountant's bracket)")
    refuting = [c for c in claims if c.refute]
    x, x2 = a.lower(float(refuting[0].eps))[1] if refuting else next(iter(a.lows))
    check = AccountantCheck(a.keying.base, a.keying.stride, a.keying.exact, spec.runs, len(a.ups),
                            tuple((c.eps, c.delta) for c in claims if not c.refute),
                            tuple((c.eps, c.delta) for c in refuting), x, x2)
    plan = Plan(expected, (RowsAreDistributions("full"), check), tight_epsilon=None, tight_epsilon_float=math.nan,
                delta_at_claim=None, delta_at_claim_float=a.upper(float(claims[0].eps)), notes=tuple(notes))
    return chosen(tables[0], plan, _render(spec, a, tables, claims, x, x2))


def combo_term(c: acc.Combo) -> str:
    """A combination of PLDs as Coq's list of (offset, masses)."""
    return "; ".join(f"(({p.offset})%Z, {q_list(list(p.masses))})" for p in c)


def combo_terms(name: str, a: acc.Accountant, tables: list[FiniteMechanism], x: int,
                x2: int) -> tuple[list[acc.Combo], list[str], str]:
    """The accountant's combinations, their names in the file, and the term of the pair (x, x2)'s
    combination (a name, or the combination itself when it is not one of them)."""
    lo_combo = a.lows.get((x, x2)) or tuple(acc.pair_pld(a.keying, t.base_rows[x], t.base_rows[x2], False)
                                            for t in tables)
    combos = list(a.ups)
    combo_names = [f"{name}_combo{i}" for i in range(len(combos))]
    return combos, combo_names, (combo_names[combos.index(lo_combo)] if lo_combo in combos
                                 else f"[{combo_term(lo_combo)}]")


def keys_text(a: acc.Accountant) -> str:
    return "every loss a power of b" if a.keying.exact else "losses rounded up to powers of b"


def _render(spec: ChainSpec, a: acc.Accountant, tables: list[FiniteMechanism], claims: list[Claim],
            x: int, x2: int) -> Rendered:
    name = spec.name
    first = spec.parts[0][0]
    combos, combo_names, lo_term = combo_terms(name, a, tables, x, x2)
    slots, slot = equation_slots(name)
    up_items: list[str] = []
    lo_items: list[str] = []
    proved: list[dict[str, Any]] = []
    refuted: list[dict[str, Any]] = []
    for c in claims:
        z0 = acc.pivot_key(a.keying, c.eps)
        target = lo_items if c.refute else up_items
        claim = claim_fields(c, z0, len(target), slot)
        target.append(claim_item(c, z0))
        (refuted if c.refute else proved).append(claim)
    parts = [dict(name=f"{name}_m{i}", runs=k, n_out=m.outputs.size, outputs=domain_text(m.outputs),
                  rows=rows_literal(t.base_rows), comment=comment(f"{m.name}, from {Path(m.path).name}"))
             for i, ((m, k), t) in enumerate(zip(spec.parts, tables, strict=False))]
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), inputs=domain_text(first.inputs), n_in=first.inputs.size,
        parts=parts, groups="; ".join(f"({p['name']}, {p['runs']}%nat)" for p in parts),
        b=q_lit(a.keying.base), b_text=str(a.keying.base), d=a.keying.stride,
        keys_text=keys_text(a),
        combos=[combo_term(c) for c in combos], combo_names="; ".join(combo_names),
        neighbours=neighbours_term(first), refutations=bool(refuted), lo_term=lo_term,
        lo_ref=f"{name}_lo" if refuted else combo_names[0], x=x, x2=x2,
        x_label=comment(first.inputs.labels[x]), x2_label=comment(first.inputs.labels[x2]),
        up_claims="; ".join(up_items), lo_claims="; ".join(lo_items),
        slots=list(slots.values()), proved=proved, refuted=refuted)
    theorems = tuple(c.theorem for c in reversed(claims))
    return render_template(TEMPLATE, name, ctx, PRELUDE, theorems)



__all__ = ["BY_CHAIN_ACCOUNTANT", "analyse", "build", "summary"]
