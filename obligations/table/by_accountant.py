"""Composed claims certified by the accountant (`theories/Accountant/`): the K-fold
composition of any finite table or formula, K into the tens of thousands, from both sides.

Coq checks, for every ordered pair of neighbours on the spec's table, the loss keys of one
base b (exact when every loss ratio is a power of b, else rounded up) and that the pair's
privacy-loss distribution is one of the listed PLDs; raises each PLD to the K-th power in
floats rounded down (by squaring; no product table, no exact masses); and proves
(ε, δ)-DP of `fmech_power M K` when the upper bound of hs(e^ε) is at most δ for every
PLD (`dp_power_acc`), or its negation with a pair and the composition's loss event when
the lower bound exceeds δ (`not_dp_power_acc`).  Python's floats (analysis/accountant.py)
only choose the claims and the pair.

Three claim shapes: a spec's (ε, δ); the smallest ε at a given δ to a tolerance
(`claim: {delta, tolerance}`: (ε, δ) proved and (ε − tol, δ) refuted); and a profile's
points (`region --compose K --certify`), one file and one theorem for all of them."""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from obligations import __version__
from obligations.analysis import accountant as acc
from obligations.analysis.finite import FiniteMechanism, epsilon_value, tabulate
from obligations.core import expr as E
from obligations.core import finite_terms as T
from obligations.core.document import Tactic
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.names import spec_name_problem
from obligations.core.obligation import AccountantCheck, Plan, RowsAreDistributions, Verdict
from obligations.core.spec import MechanismSpec, too_many_outputs
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_list, q_lit, r_lit, rows_literal, strip_outer
from obligations.errors import SpecError
from obligations.table.members import describe_finite

TEMPLATE = Path(__file__).parent / "templates" / "accountant.v.j2"
PRELUDE = "PreludeAcc"
EQ_TACTICS = (Tactic("unfold Q2R; simpl; lra."), Tactic("unfold Q2R; simpl; field."))
TAU = "tau100"
MAX_RUNS = 1_000_000


def applies(spec: MechanismSpec) -> bool:
    """A composed claim the product table cannot carry, an ε at a given δ, a profile's points, or
    a subsampled table (defined in Coq by `fmech_subsample`, composed or not)."""
    if spec.derived is not None and "points" in spec.derived:
        return True
    if spec.tolerance is not None or spec.subsample is not None:
        return True
    return spec.compose > 1 and too_many_outputs(spec.outputs.size, spec.compose)


@dataclass(frozen=True)
class Claim:
    """One statement of the file: (ε, δ)-DP proved, or refuted with the pair's loss event."""

    eps: Fraction
    delta: Fraction
    refute: bool
    eps_r: str          # ε written in R, as the statement shows it
    theorem: str
    eps_text: str       # ε as the spec (or the search) wrote it


def _refuse(spec: MechanismSpec, field: str, why: str) -> SpecError:
    return SpecError(spec.path, field, why)


def build(spec: MechanismSpec, base: FiniteMechanism) -> acc.Accountant:
    """The accountant of the spec's table and neighbours, K runs (a refusal names the field)."""
    if spec.distribution != "full":
        raise _refuse(spec, "distribution", "the accountant needs rows that are distributions (sum 1)")
    if not 1 <= spec.compose <= MAX_RUNS:
        raise _refuse(spec, "composition.runs", f"{spec.compose} runs: between 1 and {MAX_RUNS}")
    try:
        return acc.accountant(base.base_rows, base.pairs, spec.compose)
    except acc.AccountantError as exc:
        raise _refuse(spec, "composition.runs" if spec.compose > 1 else "table", str(exc)) from None


def _rational_eps(spec: MechanismSpec) -> Fraction:
    value = epsilon_value(spec)
    if not value.is_Rational or value < 0:
        raise _refuse(spec, "claim.epsilon", f"the accountant takes a rational epsilon >= 0 (e^eps is an "
                      f"interval from it), not {value}")
    return Fraction(int(value.p), int(value.q))


@dataclass(frozen=True)
class Accounted:
    """The single run's table, its accountant, the claims Coq is asked and the witness pair."""

    table: FiniteMechanism
    accountant: acc.Accountant
    claims: tuple[Claim, ...]
    x: int
    x2: int


def analyse(spec: MechanismSpec) -> Analysed[Accounted]:
    """The accountant's analysis: the claims and the verdict Python expects."""
    base = tabulate(replace(spec, compose=1))
    a = build(spec, base)
    eps_r = strip_outer(T.renderer(spec).r(spec.epsilon))
    notes: list[str] = []
    if spec.derived is not None and "points" in spec.derived:
        assert spec.derived is not None
        claims = profile_claims(spec.name, spec.derived["points"])
        expected = Verdict.PROVED
    elif spec.tolerance is not None:
        claims, note = _tolerance_claims(spec, a)
        notes.append(note)
        expected = Verdict.PROVED
    else:
        eps = _rational_eps(spec)
        up = a.upper(float(eps)) * (1 + acc.MARGIN) + acc.TINY
        lo, _ = a.lower(float(eps))
        refute = float(spec.delta) < lo * (1 - acc.MARGIN)
        if not refute and float(spec.delta) < up:
            notes.append(f"delta = {spec.delta} lies inside the certified bracket [{lo:.12g}, {up:.12g}] of "
                         f"delta({eps}): undecided")
            expected = Verdict.UNDECIDED
        else:
            expected = Verdict.REFUTED if refute else Verdict.PROVED
        theorem = f"{spec.name}_refuted" if refute else f"{spec.name}_dp"
        claims = [Claim(eps, spec.delta, refute, eps_r, theorem, spec.epsilon_text)]
        notes.append(f"delta({eps}) of the {spec.compose}-fold composition lies in [{lo:.12g}, {up:.12g}] "
                     "(the accountant's bracket); no product table")
    refuting = [c for c in claims if c.refute]
    x, x2 = _witness_pair(a, refuting)
    check = AccountantCheck(a.keying.base, a.keying.stride, a.keying.exact, spec.compose, len(a.ups),
                            tuple((c.eps, c.delta) for c in claims if not c.refute),
                            tuple((c.eps, c.delta) for c in refuting), x, x2)
    main = claims[0]
    plan = Plan(expected, (RowsAreDistributions("full"), check),
                tight_epsilon=None, tight_epsilon_float=math.nan,
                delta_at_claim=None, delta_at_claim_float=a.upper(float(main.eps)), notes=tuple(notes))
    return Analysed(Accounted(base, a, tuple(claims), x, x2), plan)


class ByAccountant(Route[MechanismSpec, Accounted]):
    name = "by the accountant"

    def applies(self, spec: MechanismSpec) -> bool:
        return applies(spec)

    def analyse(self, spec: MechanismSpec) -> Analysed[Accounted]:
        return analyse(spec)

    def render(self, spec: MechanismSpec, a: Analysed[Accounted]) -> Rendered:
        m = a.mechanism
        return _render(spec, m.table, m.accountant, list(m.claims), m.x, m.x2)

    def witness(self, u: Unfolded[MechanismSpec, Accounted]) -> Witness | None:
        return witness(u)

    def describe(self, u: Unfolded[MechanismSpec, Accounted]) -> Description:
        return describe_finite(u, u.mechanism.table)


BY_ACCOUNTANT = ByAccountant()


def _witness_pair(a: acc.Accountant, refuting: list[Claim]) -> tuple[int, int]:
    """The pair with the largest lower bound at the first refuted ε (any pair if none)."""
    if not refuting:
        return next(iter(a.lows))
    return a.lower(float(refuting[0].eps))[1]


def _tolerance_claims(spec: MechanismSpec, a: acc.Accountant) -> tuple[list[Claim], str]:
    return tolerance_claims(spec.path, spec.name, spec.delta, spec.tolerance, a, a,
                            runs=f" for {spec.compose} runs")


def tolerance_claims(path: str, name: str, delta: Fraction, tol: Fraction | None, up: acc.Bracketing,
                     low: acc.Bracketing, runs: str = "") -> tuple[list[Claim], str]:
    """The smallest ε at δ to the tolerance: (ε, δ) proved by `up`'s upper end and (ε − tol, δ)
    refuted by `low`'s lower end (the same accountant, or the fixed chain under an adaptive one);
    refused, naming the field, when no ε fits or the bracket is wider than the tolerance."""
    assert tol is not None
    if not 0 < delta < 1:
        raise SpecError(path, "claim.delta", f"the smallest epsilon at delta = {delta}: delta must be in (0, 1)")
    found = acc.at_delta(up, low, float(delta), tol)
    if found is None:
        raise SpecError(path, "claim.delta", f"no epsilon up to 10^7 has delta(eps) <= {delta}{runs}")
    if found.below is not None and not found.refutes:
        raise SpecError(path, "claim.tolerance", f"delta({found.below}) >= {found.lower:.6g} only, not above {delta} "
                        f"(the accountant's bracket): the tolerance {tol} is finer than the bracket can tell")
    claims = [Claim(found.eps, delta, False, r_lit(found.eps), f"{name}_dp", str(found.eps))]
    note = f"the smallest epsilon at delta = {delta} to {tol}: {found.eps} (= {float(found.eps):.6g})"
    if found.below is not None:
        claims.append(Claim(found.below, delta, True, r_lit(found.below), f"{name}_below", str(found.below)))
        note += f"; ({found.below}, {delta}) refuted"
    return claims, note


def profile_claims(name: str, points: Any) -> list[Claim]:
    """The points a profile derived: (ε, up) proved and (ε, lo) refuted for each (theorems
    NAME_dp_i, NAME_refuted_i); the additive route's profiles too."""
    claims: list[Claim] = []
    for i, (e, up, lo) in enumerate(points):
        eps = Fraction(str(e))
        if up is not None:
            claims.append(Claim(eps, Fraction(str(up)), False, r_lit(eps), f"{name}_dp_{i}", str(eps)))
        if lo is not None:
            claims.append(Claim(eps, Fraction(str(lo)), True, r_lit(eps), f"{name}_refuted_{i}", str(eps)))
    return claims


def profile_theorem(name: str, claims: list[Claim], statement: Callable[[Claim], str]) -> dict[str, str]:
    """The one theorem of a profile's certificate: the conjunction of its points' statements
    (`statement(c)`: the claim without its negation), proved from their theorems (a refutation's
    second part is the negation)."""
    parts = [statement(c) if not c.refute else f"~ {statement(c)}" for c in claims]
    proofs = [c.theorem if not c.refute else f"(proj2 {c.theorem})" for c in claims]
    proof = proofs[-1]
    for p in reversed(proofs[:-1]):
        proof = f"(conj {p} {proof})"
    return dict(theorem=f"{name}_profile", statement=" /\\\n  ".join(parts), proof=f"exact {proof}.")


def clean_points(path: str, field: str, points: Any) -> list[list[str | None]]:
    """A profile's points [ε, up, lo] as rationals' texts (either side may be None, not both),
    or a refusal naming `field`."""
    if not isinstance(points, (list, tuple)) or not points:
        raise SpecError(path, field, "points: a non-empty list of [epsilon, upper, lower]")
    clean: list[list[str | None]] = []
    for p in points:
        try:
            e = Fraction(str(p[0]))
            up, lo = (None if v is None else Fraction(str(v)) for v in (p[1], p[2]))
        except (TypeError, ValueError, IndexError, ZeroDivisionError):
            raise SpecError(path, field, f"point {p!r}: [epsilon, upper, lower] as rationals") from None
        if (e < 0 or (up is None and lo is None) or any(v is not None and not 0 <= v <= 1 for v in (up, lo))
                or (up is not None and lo is not None and lo >= up)):
            raise SpecError(path, field, f"point {p!r}: epsilon >= 0, 0 <= lower < upper <= 1")
        clean.append([str(e), None if up is None else str(up), None if lo is None else str(lo)])
    return clean


def profile_record(path: str, name: str, runs: int, points: Any,
                   max_runs: int = MAX_RUNS) -> tuple[list[list[str | None]], dict[str, Any]]:
    """A profile certificate's points, checked (the name, each point, the runs), and the record
    its certificate keeps: what a finite and an additive spec's `derive_points` share."""
    field = f"derived claim {name}"
    problem = spec_name_problem(name)
    if problem:
        raise SpecError(path, field, problem)
    clean = clean_points(path, field, points)
    if not 1 <= runs <= max_runs:
        raise SpecError(path, field, f"{runs} runs: between 1 and {max_runs}")
    return clean, {"name": name, "compose": runs, "points": clean}


def derive_points(spec: MechanismSpec, name: str, compose: int, points: Any) -> MechanismSpec:
    """The claim of a profile's certificate: at each point (ε, up, lo), (ε, up)-DP and not
    (ε, lo)-DP of the `compose`-fold composition (either may be None, not both)."""
    clean, record = profile_record(spec.path, name, compose, points)
    first = Fraction(str(clean[0][0]))
    return replace(spec, name=name, epsilon=E.parse(str(first)), epsilon_text=f"profile of {len(clean)} points",
                   delta=Fraction(str(clean[0][1] or clean[0][2] or 0)), delta_text="per point", compose=compose,
                   derived=record, tolerance=None)


def refuting_check(plan: Plan) -> AccountantCheck | None:
    """The accountant's check of a plan that refutes its claim (its first refuted (eps, delta)
    is the one a witness shows), else None: the routes of the accountant share it."""
    check = next((o for o in plan.obligations if isinstance(o, AccountantCheck)), None)
    if check is None or plan.expected != Verdict.REFUTED or not check.refuted:
        return None
    return check


def witness(u: Unfolded[MechanismSpec, Accounted]) -> Witness | None:
    """The pair of neighbours and the loss event of a refuted composed claim."""
    check = refuting_check(u.plan)
    if check is None:
        return None
    eps, delta = check.refuted[0]
    m = u.mechanism.table
    x, x2 = m.input_label(check.x), m.input_label(check.x2)
    bound = u.plan.delta_at_claim_float
    return {"x": x, "x_prime": x2, "runs": check.runs,
            "event": f"loss_event: the outputs of the {check.runs}-fold composition where "
                     f"Pr[x] > e^eps * Pr[x']",
            "exp_epsilon": _exp_text(eps),
            "delta": str(delta), "delta_upper": f"{bound:.12g}",
            "text": (f"witness: x = {x}, x' = {x2}, S = the loss event of the {check.runs}-fold composition "
                     f"(outputs with Pr[M^{check.runs}(x) = o] > e^eps * Pr[M^{check.runs}(x') = o]): "
                     f"Pr[M(x) in S] - e^eps * Pr[M(x') in S] = delta(eps) > delta = {delta}")}


def _exp_text(eps: Fraction) -> str:
    """e^ε to 12 digits, in scientific notation beyond the float range."""
    value = sympy.exp(sympy.Rational(eps.numerator, eps.denominator)).evalf(30)
    return str(sympy.Float(value, 12)) if float(eps) > 700 else f"{float(value):.12g}"


def _pick(i: int) -> str:
    return f"do {i} right; left; reflexivity" if i else "left; reflexivity"


Slots = dict[str, tuple[str, str, tuple[Tactic, ...]]]
Slot = Callable[[str, Fraction, str], str]


def equation_slots(name: str) -> tuple[Slots, Slot]:
    """The equations Q2R q = r of a file, one per distinct value, and a function naming them."""
    slots: Slots = {}

    def slot(kind: str, q: Fraction, r_text: str) -> str:
        key = f"{kind}{q}"
        if key not in slots:
            slots[key] = (f"{name}_{kind}{len(slots)}", f"(Q2R {q_lit(q)} = {r_text})%R", EQ_TACTICS)
        return slots[key][0]
    return slots, slot


def claim_item(c: Claim, z0: int) -> str:
    """The claim as an entry of the accountant's list in Coq: (eps, pivot key, delta)."""
    return f"(iq {q_lit(c.eps)}, ({z0})%Z, {q_lit(c.delta)})"


def claim_fields(c: Claim, z0: int, index: int, slot: Slot) -> dict[str, Any]:
    """What an accountant template says of one claim, the `index`-th of its list."""
    return dict(theorem=c.theorem, eps_q=q_lit(c.eps), delta_q=q_lit(c.delta), z0=z0, eps_r=c.eps_r,
                delta_r=r_lit(c.delta), eps_text=comment(c.eps_text), delta_text=comment(str(c.delta)),
                pick=_pick(index), eps_slot=slot("eps", c.eps, c.eps_r),
                delta_slot=slot("delta", c.delta, r_lit(c.delta)))


def _spec_rows(spec: MechanismSpec, base: FiniteMechanism) -> tuple[tuple[Fraction, ...], ...]:
    """The table as the spec wrote it (before subsampling, which Coq's `fmech_subsample` does)."""
    if spec.subsample is None:
        return base.base_rows
    return tabulate(replace(spec, compose=1, subsample=None)).base_rows


def _render(spec: MechanismSpec, base: FiniteMechanism, a: acc.Accountant, claims: list[Claim],
            x: int, x2: int) -> Rendered:
    renderer = T.renderer(spec)
    name = spec.name
    k = spec.compose
    lo_combo = a.lows.get((x, x2))
    lo_pld = lo_combo[0] if lo_combo else acc.pair_pld(a.keying, base.base_rows[x], base.base_rows[x2], False)
    ups = [c[0] for c in a.ups]
    if lo_pld in ups:            # the refuting pair's PLD first: Coq reuses its power
        ups.remove(lo_pld)
        ups.insert(0, lo_pld)
    pld_names = [f"{name}_pld{i}" for i in range(len(ups))]
    lo_term = pld_names[0] if lo_pld == ups[0] else f"(({lo_pld.offset})%Z, {q_list(list(lo_pld.masses))})"
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
    profile = None
    theorems: tuple[str, ...]
    if spec.derived is not None and "points" in spec.derived:
        profile = profile_theorem(name, claims,
                                  lambda c: f"dp {T.neighbours_term(spec)} {name} ({c.eps_r}) {r_lit(c.delta)}")
        theorems = (f"{name}_profile",)
    else:
        theorems = tuple(c.theorem for c in reversed(claims))   # the main claim last
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), inputs=T.domain_text(spec.inputs),
        outputs=T.domain_text(spec.outputs),
        n_in=spec.inputs.size, n_out=spec.outputs.size, parameters=T.parameters(spec),
        formula=T.formula(spec, renderer) if spec.formula is not None else None,
        rows=rows_literal(_spec_rows(spec, base)) if spec.formula is None else None, k=k,
        subsample=None if spec.subsample is None else dict(q=q_lit(spec.subsample[0]), e=spec.subsample[1],
                                                           q_text=str(spec.subsample[0]),
                                                           e_label=comment(base.input_label(spec.subsample[1]))),
        b=q_lit(a.keying.base), b_text=str(a.keying.base), d=a.keying.stride,
        keys_text="every loss a power of b" if a.keying.exact else "losses rounded up to powers of b",
        plds=[dict(offset=p.offset, masses=q_list(list(p.masses))) for p in ups], pld_names="; ".join(pld_names),
        neighbours=T.neighbours_term(spec), refutations=bool(refuted), lo_term=lo_term,
        lo_ref=f"{name}_lo" if refuted else pld_names[0], x=x, x2=x2,
        x_label=comment(base.input_label(x)), x2_label=comment(base.input_label(x2)),
        up_claims="; ".join(up_items), lo_claims="; ".join(lo_items), tau=TAU,
        slots=list(slots.values()), proved=proved, refuted=refuted, profile=profile)
    return render_template(TEMPLATE, name, ctx, PRELUDE, theorems)
