"""Finite mechanisms: exact output distributions, the tight ε, and the plan for Coq.

Python computes everything exactly (Fractions, sympy for e^ε) to decide
which way to go: a proof (with the rational bound L ≤ e^ε the checker needs)
or a refutation (with its witness).  Coq then checks whichever it is.
"""
from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy

from obligations.core import expr as E
from obligations.core.obligation import (
    ExpLowerBound,
    ExpUpperBound,
    HockeyStickCheck,
    Obligation,
    Plan,
    PointwiseCheck,
    RowsAreDistributions,
    TaylorHint,
    Verdict,
    Witness,
)
from obligations.core.spec import (
    MAX_COMPOSED_OUTPUTS,
    MechanismSpec,
    neighbour_distance,
    neighbour_removed,
    too_many_outputs,
)
from obligations.errors import SpecError

Row = tuple[Fraction, ...]
DIGITS = (6, 15, 30, 60, 120)  # precisions tried for an irrational e^ε


@dataclass(frozen=True)
class FiniteMechanism:
    """The exact table of a spec, with its ordered neighbour pairs (x ≠ x')."""

    spec: MechanismSpec
    rows: tuple[Row, ...]
    pairs: tuple[tuple[int, int], ...]
    base_rows: tuple[Row, ...] = ()  # the table of the spec, before CW mixing and composition
    inputs: tuple[str, ...] = ()     # labels of the rows
    outputs: tuple[str, ...] = ()    # labels of the columns, when the analysis found them (programs)

    def input_label(self, x: int) -> str:
        return self.inputs[x] if self.inputs else self.spec.inputs.labels[x]

    def output_label(self, y: int) -> str:
        return self.outputs[y] if self.outputs else output_label(self.spec, y)


def single_run(spec: MechanismSpec) -> FiniteMechanism:
    """The table of one run of a composed claim, without CW mixing: tabulated once for the
    routes that ask in turn (basic composition, then the PLD), not once each."""
    last = getattr(_SINGLE, "last", None)
    if last is None or last[0] is not spec:
        last = (spec, tabulate(replace(spec, compose=1, cw=None)))
        _SINGLE.last = last
    return last[1]


_SINGLE = threading.local()   # (the spec, its single run's table): one entry a thread


def tabulate(spec: MechanismSpec) -> FiniteMechanism:
    """Compute every entry exactly and check that each row is a (sub-)distribution."""
    rows = _table_rows(spec) if spec.table is not None else _formula_rows(spec)
    for x, row in enumerate(rows):
        _check_row(spec, x, row)
    if spec.subsample is not None:   # every analysis sees the subsampled table (Coq's fmech_subsample)
        rows = subsample_rows(rows, *spec.subsample)
    mech, labels, pairs = rows, spec.inputs.labels, neighbour_pairs(spec)
    if spec.compose > 1:
        # A composed claim beyond this is the accountant's (table/by_accountant.py): never build it.
        if too_many_outputs(spec.outputs.size, spec.compose):
            raise SpecError(spec.path, "composition.runs", f"the {spec.compose}-fold product table has "
                            f"{spec.outputs.size}^{spec.compose} outputs; at most {MAX_COMPOSED_OUTPUTS}")
        mech = power_rows(mech, spec.compose)
    if spec.cw is not None:  # after the power: one database for all runs (Coq's `_chain`)
        mech, labels, pairs = cw_rows(mech, *spec.cw), CW_INPUTS, ((0, 1), (1, 0))
    return FiniteMechanism(spec, mech, pairs, rows, labels)


def subsample_rows(rows: Sequence[Row], q: Fraction, e: int) -> tuple[Row, ...]:
    """Coq's `fmech_subsample q e`: row x ≠ e is q·M(x) + (1 − q)·M(e), row e is M(e)."""
    return tuple(tuple(r) if x == e else tuple(q * a + (1 - q) * b for a, b in zip(r, rows[e], strict=True))
                 for x, r in enumerate(rows))


CW_INPUTS = ("D", "alt")


def cw_rows(rows: Sequence[Row], prior: Sequence[Fraction], alt: Sequence[Fraction]) -> tuple[Row, ...]:
    """Seed 001 §1.2: M' = [f_D·M, f_D'·M], in the order of Coq's `fmech_cw`.  Given the
    rows of a K-fold composition, this is Σ_x f(x)·M(x)^⊗K: the same database for all runs."""
    def mix(f: Sequence[Fraction]) -> Row:
        return tuple(sum((f[x] * rows[x][y] for x in range(len(rows))), Fraction(0))
                     for y in range(len(rows[0])))
    return (mix(prior), mix(alt))


def power_rows(rows: Sequence[Row], k: int) -> tuple[Row, ...]:
    """Rows of the k-fold composition, in the output order of Coq's `fmech_power`:
    output y1 * m^(k-1) + rest pairs y1 of the first run with `rest` of the others."""
    out: tuple[Row, ...] = tuple((Fraction(1),) for _ in rows)
    for _ in range(k):
        out = tuple(tuple(p * q for p in r for q in rk) for r, rk in zip(rows, out, strict=False))
    return out


def output_label(spec: MechanismSpec, y: int) -> str:
    """The label of output y (for a composition: each run's label, comma-separated)."""
    m, labels = spec.outputs.size, []
    for i in reversed(range(spec.compose)):
        digit, y = divmod(y, m ** i)
        labels.append(spec.outputs.labels[digit])
    return ",".join(labels)


def _table_rows(spec: MechanismSpec) -> tuple[Row, ...]:
    rows = []
    for label, exprs in zip(spec.inputs.labels, spec.table or (), strict=False):
        row = []
        for j, e in enumerate(exprs):
            try:
                row.append(Fraction(E.compile_exact(e)(spec.parameters)))
            except E.ExprError as exc:
                raise SpecError(spec.path, f"table.{label}[{j}]", str(exc)) from None
        rows.append(tuple(row))
    return tuple(rows)


def _formula_rows(spec: MechanismSpec) -> tuple[Row, ...]:
    pieces = [(None if p.when is None else E.compile_exact(p.when), E.compile_exact(p.value), p)
              for p in spec.formula or ()]
    env: dict[str, Fraction] = dict(spec.parameters)
    rows = []
    for xv in spec.inputs.values or ():
        row = []
        for yv in spec.outputs.values or ():
            env["x"], env["y"] = Fraction(xv), Fraction(yv)
            row.append(_piece_value(spec, pieces, env, xv, yv))
        rows.append(tuple(row))
    return tuple(rows)


def _piece_value(spec: MechanismSpec, pieces: list[Any], env: dict[str, Fraction], xv: int, yv: int) -> Fraction:
    for when, value, piece in pieces:
        try:
            if when is None or when(env):
                return Fraction(value(env))
        except E.ExprError as exc:
            raise SpecError(spec.path, piece.field, f"at x = {xv}, y = {yv}: {exc}") from None
    raise AssertionError("the last piece is 'otherwise'")  # guaranteed by the model


def _check_row(spec: MechanismSpec, x: int, row: Row) -> None:
    label = spec.inputs.labels[x]
    field = f"table.{label}" if spec.table is not None else "formula"
    for y, p in enumerate(row):
        if p < 0:
            raise SpecError(spec.path, field, f"row {label!r}: Pr[M({label}) = {spec.outputs.labels[y]}]"
                            f" = {p} is negative")
    total = sum(row, Fraction(0))
    if spec.distribution == "full" and total != 1:
        raise SpecError(spec.path, field, f"row {label!r} sums to {total}, not 1 "
                        "(set 'distribution: sub' for a sub-distribution)")
    if spec.distribution == "sub" and total > 1:
        raise SpecError(spec.path, field, f"row {label!r} sums to {total}, more than 1")


def neighbour_pairs(spec: Any) -> tuple[tuple[int, int], ...]:
    """Ordered pairs (x, x') of distinct neighbours, as Coq's relation gives them."""
    n = spec.inputs.size
    nb = spec.neighbours
    if nb == "all":
        pairs: Iterable[tuple[int, int]] = ((a, b) for a in range(n) for b in range(n))
    elif nb == "adjacent":
        pairs = [p for i in range(n - 1) for p in ((i, i + 1), (i + 1, i))]
    elif (d := neighbour_distance(nb)) is not None:   # |x - x'| <= d (kinds/finite/spec.py)
        pairs = [(a, b) for a in range(n) for b in range(max(0, a - d), min(n, a + d + 1))]
    elif (e := neighbour_removed(nb)) is not None:    # add/remove: e against every other input
        pairs = [p for a in range(n) for p in ((a, e), (e, a))]
    else:
        pairs = [p for a, b in nb for p in ((a, b), (b, a))]
    return tuple(sorted({(a, b) for a, b in pairs if a != b}))


# ---------------------------------------------------------------- vacuous claims

def has_distinct_neighbours(m: FiniteMechanism) -> bool:
    """Whether some neighbouring inputs x, x' of the mechanism have x ≠ x'."""
    return any(a != b for a, b in m.pairs)


def rows_all_zero(m: FiniteMechanism) -> bool:
    """Whether every row is all-zero (a sub-distribution that never outputs anything)."""
    return all(p == 0 for row in m.rows for p in row)


def vacuity(m: FiniteMechanism) -> tuple[str, ...]:
    """Why the claim holds whatever the mechanism does, if it does: plain sentences
    for `Plan.vacuous`, empty when the claim says something."""
    reasons: list[str] = []
    if not has_distinct_neighbours(m):
        reasons.append("no two distinct inputs are neighbours: the claim holds for any mechanism")
    if rows_all_zero(m):
        reasons.append("every row is zero, so every event has probability 0 on every input: "
                       "the claim holds for any ε and δ ≥ 0")
    return tuple(reasons)


# ---------------------------------------------------------------- privacy loss

def hockey(rx: Sequence[Fraction], rx2: Sequence[Fraction], bound: Fraction) -> Fraction:
    """Σ_y max(0, M(x)(y) − bound · M(x')(y)), as Coq's checker computes it."""
    return sum((p - bound * q for p, q in zip(rx, rx2, strict=False) if p > bound * q), Fraction(0))


def max_ratio(m: FiniteMechanism) -> Fraction | None:
    """max over neighbours and outputs of M(x)(y) / M(x')(y); None when it is infinite."""
    best = Fraction(1)
    for a, b in m.pairs:
        for p, q in zip(m.rows[a], m.rows[b], strict=False):
            if p > 0 and q == 0:
                return None
            if p > 0 and p > best * q:
                best = p / q
    return best


def epsilon_value(spec: MechanismSpec) -> sympy.Expr:
    return E.to_sympy(spec.epsilon, spec.parameters)


def exp_bounds(eps: sympy.Expr, digits: int) -> tuple[Fraction, Fraction, int]:
    """Rationals L < e^ε < U at distance at least 10^-digits, and the bits interval needs."""
    # evalf counts significant digits: add e^ε's integer digits, or the bounds past them are noise
    whole = max(0, int(sympy.ceiling(sympy.N(eps, 30) / sympy.log(10).evalf(30))))
    value = sympy.exp(eps).evalf(digits + 20 + whole)
    scaled = value * sympy.Integer(10) ** digits
    lo = int(sympy.floor(scaled)) - 1
    hi = int(sympy.ceiling(scaled)) + 1
    scale = 10 ** digits
    magnitude = max(1, int(sympy.ceiling(sympy.log(value + 1, 2))))
    bits = max(53, int(digits * 3.33) + magnitude + 20)
    return Fraction(lo, scale), Fraction(hi, scale), bits


TAYLOR_TERMS = 80   # beyond this many terms the bound is left to interval


def taylor_hint(eps: sympy.Expr, bound: Fraction, upper: bool) -> TaylorHint | None:
    """For a rational ε ≥ 0, the split and number of terms with which the Taylor bounds of
    `Core/ExpTaylor.v` reach `bound` (below e^ε, or above it if `upper`); None otherwise.
    The same sums as Coq's `qseries`, in exact fractions."""
    if not (eps.is_Rational and eps >= 0):
        return None
    x = Fraction(int(eps.p), int(eps.q))
    split = max(1, math.ceil(x))
    y = x / split
    term, total = Fraction(1), Fraction(1)        # degree 0
    for degree in range(1, 2 * TAYLOR_TERMS + 2):
        term = term * (-y if upper else y) / degree
        total += term
        if not upper and total ** split >= bound:
            return TaylorHint(x, split, degree)
        if upper and degree % 2 == 1 and total > 0 and (1 / total) ** split <= bound:
            return TaylorHint(x, split, degree // 2)
    return None


def worst_pair(m: FiniteMechanism, bound: Fraction) -> tuple[Fraction, tuple[int, int] | None]:
    """The largest hockey-stick sum over neighbour pairs at e^ε = bound, and its pair."""
    best, arg = Fraction(0), None
    for a, b in m.pairs:
        h = hockey(m.rows[a], m.rows[b], bound)
        if h > best:
            best, arg = h, (a, b)
    return best, arg


def witness(m: FiniteMechanism, pair: tuple[int, int], bound: Fraction) -> Witness:
    a, b = pair
    outs = tuple(y for y, (p, q) in enumerate(zip(m.rows[a], m.rows[b], strict=False)) if p > bound * q)
    return Witness(a, b, outs, sum((m.rows[a][y] for y in outs), Fraction(0)),
                   sum((m.rows[b][y] for y in outs), Fraction(0)), bound)


def plan(m: FiniteMechanism, vacuous: tuple[str, ...] | None = None) -> Plan:
    """Decide, exactly, whether the claim holds, and list what Coq must check; `vacuous`
    (the kind's reasons the claim holds for any mechanism) defaults to the table's."""
    spec = m.spec
    eps = epsilon_value(spec)
    e_exact = sympy.exp(eps)
    rows_ok = RowsAreDistributions("full" if spec.distribution == "full" else "sub")
    ratio = max_ratio(m)
    tight = "oo" if ratio is None else ("0" if ratio == 1 else f"ln({ratio})")
    tight_f = math.inf if ratio is None else math.log(ratio)
    vacuous = vacuity(m) if vacuous is None else vacuous
    if e_exact.is_Rational:
        e = Fraction(int(e_exact.p), int(e_exact.q))
        worst, pair = worst_pair(m, e)
        common: dict[str, Any] = dict(tight_epsilon=tight, tight_epsilon_float=tight_f,
                      delta_at_claim=str(worst), delta_at_claim_float=float(worst), vacuous=vacuous)
        if worst <= spec.delta:
            return Plan(Verdict.PROVED, (rows_ok, ExpLowerBound(e, "exact"), _check(e, spec.delta)), **common)
        assert pair is not None
        return Plan(Verdict.REFUTED, (rows_ok, ExpUpperBound(e, "exact"), witness(m, pair, e)), **common)
    delta_float = _delta_float(m, eps)
    common = dict(tight_epsilon=tight, tight_epsilon_float=tight_f, delta_at_claim=None,
                  delta_at_claim_float=delta_float, vacuous=vacuous)
    for digits in DIGITS:
        lo, hi, bits = exp_bounds(eps, digits)
        lo = max(lo, Fraction(1))  # ε ≥ 0, and the diagonal x = x' needs L ≥ 1
        if worst_pair(m, lo)[0] <= spec.delta:
            hint = taylor_hint(eps, lo, upper=False)
            lower = (ExpLowerBound(lo, "taylor", bits, hint) if hint else ExpLowerBound(lo, "interval", bits))
            return Plan(Verdict.PROVED, (rows_ok, lower, _check(lo, spec.delta)), **common)
        worst_hi, pair = worst_pair(m, hi)
        if worst_hi > spec.delta:
            assert pair is not None
            hint = taylor_hint(eps, hi, upper=True)
            upper = (ExpUpperBound(hi, "taylor", bits, hint) if hint else ExpUpperBound(hi, "interval", bits))
            return Plan(Verdict.REFUTED, (rows_ok, upper, witness(m, pair, hi)), **common)
    return Plan(Verdict.UNDECIDED, (rows_ok,), **common,
                notes=(f"δ(ε) is within 10^-{DIGITS[-1]} of the claimed δ; not decided",))


def _delta_float(m: FiniteMechanism, eps: sympy.Expr) -> float:
    """δ at an irrational e^ε, to double precision (for display only)."""
    value = sympy.exp(eps).evalf(40)
    approx = Fraction(int(sympy.floor(value * sympy.Integer(10) ** 30)), 10 ** 30)
    return float(worst_pair(m, approx)[0])


def _check(bound: Fraction, delta: Fraction) -> Obligation:
    return PointwiseCheck(bound) if delta == 0 else HockeyStickCheck(bound, delta)
