"""Adaptive composition of a chain's parts (`compose: [...]` with `adaptive: true`), certified
through a dominating pair per part (`theories/Finite/Dominate.v`, `Accountant/Adaptive.v`,
`AdaptiveCheck.v`).  Template `adaptive_chain.v.j2`.

The claim is about every adaptive sequence (each round a finite mechanism chosen from the
earlier outputs) whose round of part i is, at every history and for every ordered pair of
neighbours, dominated by part i's pair (P_i, Q_i): two of part i's own rows that dominate every
ordered pair of its neighbours' rows (`dominating.py` finds them; one kernel per pair is the
witness Coq checks).  Then:
- proved: H_{e^ε} ≤ δ of the fixed chain of the pairs (P_i, Q_i), each as often as its part
  runs, is the chain accountant's bound for a two-input chain (`adp_chain_acc`);
- refuted: the fixed chain of the parts is one such sequence, and the chain accountant's
  lower side refutes it (`not_adp_chain_acc`, reusing `not_dp_chain_acc`).
Between the two (a claim δ above the fixed chain's δ(ε) and below the pairs' chain's, possible
when the parts' pairs come from different neighbours) the claim is left undecided; a part with
no dominating pair among its own pairs leaves it undecided too, saying that the non-adaptive
claim is certified without `adaptive`."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from obligations import __version__
from obligations.analysis import accountant as acc
from obligations.analysis.finite import FiniteMechanism
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
    claim_fields,
    claim_item,
    equation_slots,
    tolerance_claims,
)
from obligations.table.chain import _eps, build, combo_term, combo_terms, keys_text, loss_witness
from obligations.table.chain_spec import ChainSpec
from obligations.table.chosen import Chosen, chosen, describe_plan
from obligations.table.dominating import Kernel, NoKernel, PartPair, dominating_pair

TEMPLATE = Path(__file__).parent / "templates" / "adaptive_chain.v.j2"


class ByDominatingPairs(Route[ChainSpec, Chosen[FiniteMechanism]]):
    name = "by dominating pairs (adaptive composition)"

    def applies(self, spec: ChainSpec) -> bool:
        return spec.adaptive

    def analyse(self, spec: ChainSpec) -> Analysed[Chosen[FiniteMechanism]]:
        return analyse(spec)

    def render(self, spec: ChainSpec, a: Analysed[Chosen[FiniteMechanism]]) -> Rendered:
        return a.mechanism.rendered

    def witness(self, u: Unfolded[ChainSpec, Chosen[FiniteMechanism]]) -> Witness | None:
        return loss_witness(u, "the fixed chain of the parts", lambda x, x2: (
            f"witness: the fixed (non-adaptive) sequence of the parts, which every part's kernels "
            f"show dominated as the claim asks; x = {x}, x' = {x2}, S = its loss event: "))

    def describe(self, u: Unfolded[ChainSpec, Chosen[FiniteMechanism]]) -> Description:
        return describe_plan(u, summary(u.spec))


def summary(spec: ChainSpec) -> str:
    parts = ", ".join(f"{m.name} x {k}" for m, k in spec.parts)
    return f"adaptive chain {parts}, claim ({spec.epsilon_text}, {spec.delta_text})-DP"


BY_DOMINATING_PAIRS = ByDominatingPairs()


def _pairs(spec: ChainSpec, tables: list[FiniteMechanism]) -> list[PartPair | None]:
    """Each part's dominating pair among its own ordered pairs of neighbours, or None."""
    try:
        return [dominating_pair(t.base_rows, t.pairs) for t in tables]
    except NoKernel as exc:
        raise SpecError(spec.path, "compose", f"the kernels of a dominating pair: {exc}") from None


def _undecided(spec: ChainSpec, tables: list[FiniteMechanism], missing: list[int]) -> Analysed[Chosen[FiniteMechanism]]:
    names = ", ".join(f"compose[{i}] ({spec.parts[i][0].name})" for i in missing)
    note = (f"undecided: no shared dominating pair among its own pairs for {names}: no pair of the part's own "
            f"neighbours' rows dominates every other ordered pair, so the adaptive claim is not certified here; "
            f"the non-adaptive claim (the parts fixed in advance) is certified by the same spec without "
            f"`adaptive: true`")
    plan = Plan(Verdict.UNDECIDED, (RowsAreDistributions("full"),), tight_epsilon=None,
                tight_epsilon_float=math.nan, delta_at_claim=None, delta_at_claim_float=math.nan, notes=(note,))
    return chosen(tables[0], plan, _render(spec, tables, None, None, None, [], 0, 1))


def analyse(spec: ChainSpec) -> Analysed[Chosen[FiniteMechanism]]:
    """The parts' dominating pairs, the claims (the pairs' chain above, the fixed chain below),
    the plan, and the document stating them."""
    fixed, tables = build(spec)
    found = _pairs(spec, tables)
    missing = [i for i, p in enumerate(found) if p is None]
    if missing:
        return _undecided(spec, tables, missing)
    pairs = [p for p in found if p is not None]
    dom = _dominating_accountant(spec, tables, pairs)
    labels = spec.parts[0][0].inputs.labels
    notes = [f"{spec.runs} rounds in all: " + ", ".join(f"{m.name} {k} times" for m, k in spec.parts)
             + "; adaptive: each round may be any mechanism dominated by its part's pair",
             "dominating pairs: " + ", ".join(f"{m.name}: rows ({labels[p.x]}, {labels[p.x2]})"
                                               for (m, _), p in zip(spec.parts, pairs, strict=True))]
    if spec.tolerance is not None:
        claims = _at_delta(spec, dom, fixed, notes)
        expected = Verdict.PROVED
    else:
        eps = _eps(spec)
        up = dom.upper(float(eps)) * (1 + acc.MARGIN) + acc.TINY
        lo, _ = fixed.lower(float(eps))
        refute = float(spec.delta) < lo * (1 - acc.MARGIN)
        expected = Verdict.REFUTED if refute else (Verdict.PROVED if float(spec.delta) >= up else Verdict.UNDECIDED)
        claims = [Claim(eps, spec.delta, refute, r_lit(eps), f"{spec.name}_refuted" if refute else f"{spec.name}_dp",
                        spec.epsilon_text)]
        notes.append(f"delta({eps}) of every such adaptive sequence is at most {up:.12g} (the pairs' chain) and "
                     f"of the fixed chain of the parts at least {lo:.12g}")
    refuting = [c for c in claims if c.refute]
    x, x2 = fixed.lower(float(refuting[0].eps))[1] if refuting else (0, 1)
    check = AccountantCheck(dom.keying.base, dom.keying.stride, dom.keying.exact, spec.runs, len(dom.ups),
                            tuple((c.eps, c.delta) for c in claims if not c.refute),
                            tuple((c.eps, c.delta) for c in refuting), x, x2)
    plan = Plan(expected, (RowsAreDistributions("full"), check), tight_epsilon=None, tight_epsilon_float=math.nan,
                delta_at_claim=None, delta_at_claim_float=dom.upper(float(claims[0].eps)), notes=tuple(notes))
    return chosen(tables[0], plan, _render(spec, tables, pairs, dom, fixed, claims, x, x2))


def _dominating_accountant(spec: ChainSpec, tables: list[FiniteMechanism], pairs: list[PartPair]) -> acc.Accountant:
    """The chain accountant of the two-input tables (P_i, Q_i), each run k_i times, pair (0, 1)."""
    groups = [((t.base_rows[p.x], t.base_rows[p.x2]), k)
              for t, p, (_, k) in zip(tables, pairs, spec.parts, strict=True)]
    try:
        return acc.chain_accountant(groups, [(0, 1)])
    except acc.AccountantError as exc:
        raise SpecError(spec.path, "compose", str(exc)) from None


def _at_delta(spec: ChainSpec, dom: acc.Accountant, fixed: acc.Accountant, notes: list[str]) -> list[Claim]:
    """The smallest ε at δ to the tolerance: proved by the pairs' chain at ε, refuted by the
    fixed chain at ε − tolerance (refused when the two do not bracket it that closely)."""
    claims, note = tolerance_claims(spec.path, spec.name, spec.delta, spec.tolerance, dom, fixed)
    notes.append(note)
    return claims


def _kernel(t: Kernel) -> str:
    return "[" + "; ".join(q_list(list(col)) for col in t) + "]"


def _part(spec: ChainSpec, i: int, t: FiniteMechanism, pair: PartPair | None) -> dict[str, Any]:
    m, k = spec.parts[i]
    name = spec.name
    labels = m.inputs.labels
    part: dict[str, Any] = dict(name=f"{name}_m{i}", runs=k, n_out=m.outputs.size, outputs=domain_text(m.outputs),
                                rows=rows_literal(t.base_rows), comment=comment(f"{m.name}, from {Path(m.path).name}"))
    if pair is not None:
        part.update(dname=f"{name}_d{i}", kname=f"{name}_k{i}", x_label=comment(labels[pair.x]),
                    x2_label=comment(labels[pair.x2]), drows=rows_literal([t.base_rows[pair.x], t.base_rows[pair.x2]]),
                    kernels=";\n   ".join(f"({u}%nat, {u2}%nat, {_kernel(kt)})" for u, u2, kt in pair.kernels))
    return part


def _render(spec: ChainSpec, tables: list[FiniteMechanism], pairs: list[PartPair] | None, dom: acc.Accountant | None,
            fixed: acc.Accountant | None, claims: list[Claim], x: int, x2: int) -> Rendered:
    name = spec.name
    first = spec.parts[0][0]
    parts = [_part(spec, i, t, pairs[i] if pairs else None) for i, t in enumerate(tables)]
    slots, slot = equation_slots(name)
    proved: list[dict[str, Any]] = []
    refuted: list[dict[str, Any]] = []
    up_items: list[str] = []
    lo_items: list[str] = []
    for c in claims:
        a = fixed if c.refute else dom
        assert a is not None
        z0 = acc.pivot_key(a.keying, c.eps)
        target = lo_items if c.refute else up_items
        fields = claim_fields(c, z0, len(target), slot)
        target.append(claim_item(c, z0))
        (refuted if c.refute else proved).append(fields)
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), inputs=domain_text(first.inputs), n_in=first.inputs.size,
        parts=parts, groups="; ".join(f"({p['name']}, {p['runs']}%nat)" for p in parts),
        dominating=pairs is not None, neighbours=neighbours_term(first),
        dgroups="; ".join(f"({p['dname']}, {p['runs']}%nat)" for p in parts if "dname" in p),
        knames="; ".join(p["kname"] for p in parts if "kname" in p),
        up_claims="; ".join(up_items), lo_claims="; ".join(lo_items),
        slots=list(slots.values()), proved=proved, refuted=refuted)
    if dom is not None:
        ctx.update(db=q_lit(dom.keying.base), db_text=str(dom.keying.base), dd=dom.keying.stride,
                   dkeys_text=keys_text(dom), dcombo=combo_term(dom.ups[0]))
    if fixed is not None and refuted:
        combos, combo_names, lo_term = combo_terms(name, fixed, tables, x, x2)
        ctx.update(b=q_lit(fixed.keying.base), b_text=str(fixed.keying.base), d=fixed.keying.stride,
                   keys_text=keys_text(fixed), combos=[combo_term(c) for c in combos],
                   combo_names="; ".join(combo_names), lo_term=lo_term,
                   x=x, x2=x2, x_label=comment(first.inputs.labels[x]), x2_label=comment(first.inputs.labels[x2]))
    # undecided for want of pairs: never compiled, the file audits the parts' definition
    theorems = tuple(c.theorem for c in reversed(claims)) or (f"{name}_groups",)
    return render_template(TEMPLATE, name, ctx, PRELUDE, theorems)


__all__ = ["BY_DOMINATING_PAIRS", "analyse", "summary"]
