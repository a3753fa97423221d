"""Drop the atoms of a mined invariant's phase that the others imply.

Mining keeps every candidate atom that holds (`acc <= 2·D` next to `acc + |r1 − l1| <= 2·D`
and `|r1 − l1| <= D`), and each is one more fact `lia` carries into every leaf of the
generated proof, as hypothesis and as goal: the leaves' `lia` calls dominate the proof's
time.  An atom implied by the others over the rationals is derived again by `lia`
wherever it is needed, so dropping it keeps what the phase states and makes it cheaper
to prove and to use.  The implication is decided exactly: the atom's slack maximised
under the others by a small simplex over fractions (Bland's rule, two phases).  The
only facts assumed besides the phase's atoms are ones `lia` knows too: the loop index J
and every distance |r<y> − l<y>| are non-negative, and a distance is at least the
difference either way.  A `<>` atom is kept and never used as a premise.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol, TypeVar


class _Linear(Protocol):
    """Σ coef·name + const (synth.Lin: synth imports this module, so it is named by shape)."""

    @property
    def terms(self) -> tuple[tuple[str, Fraction], ...]: ...

    @property
    def const(self) -> Fraction: ...


class Atom(Protocol):
    """lhs op rhs with op in = <= <> (synth.Atom)."""

    @property
    def op(self) -> str: ...

    @property
    def lhs(self) -> _Linear: ...

    @property
    def rhs(self) -> _Linear: ...


A = TypeVar("A", bound=Atom)

Row = tuple[dict[str, Fraction], Fraction]      # Σ coef·name <= bound
_ZERO = Fraction(0)


def _pivot(t: list[list[Fraction]], basis: list[int], r: int, col: int) -> None:
    p = t[r][col]
    t[r] = [v / p for v in t[r]]
    for i, row in enumerate(t):
        f = row[col]
        if i != r and f:
            t[i] = [a - f * b for a, b in zip(row, t[r], strict=True)]
    basis[r] = col


def _optimise(t: list[list[Fraction]], basis: list[int], obj: list[Fraction], cols: range) -> Fraction | None:
    """Maximise obj over the tableau from its feasible basis: the optimum, or None if unbounded."""
    while True:
        cb = [obj[b] for b in basis]
        enter = next((j for j in cols if j not in basis and
                      obj[j] - sum(cb[i] * t[i][j] for i in range(len(t)) if t[i][j]) > 0), None)
        if enter is None:
            return sum((cb[i] * t[i][-1] for i in range(len(t))), _ZERO)
        best: tuple[Fraction, int, int] | None = None
        for i, row in enumerate(t):
            if row[enter] > 0:
                key = (row[-1] / row[enter], basis[i], i)
                best = key if best is None or key[:2] < best[:2] else best
        if best is None:
            return None
        _pivot(t, basis, best[2], enter)


class Infeasible:
    """The rows have no solution."""


INFEASIBLE = Infeasible()


def lp_max(objective: dict[str, Fraction], rows: Sequence[Row]) -> Fraction | None | Infeasible:
    """max Σ objective·x subject to the rows, x free: the optimum, None if unbounded,
    INFEASIBLE if the rows have no solution."""
    names = sorted({n for c, _ in rows for n in c} | set(objective))
    n, m = len(names), len(rows)
    art = 2 * n + m
    t = []
    for i, (c, b) in enumerate(rows):
        a = [c.get(x, _ZERO) for x in names]
        t.append([*a, *(-v for v in a), *(Fraction(int(i == k)) for k in range(m)), Fraction(-1), b])
    basis = list(range(2 * n, 2 * n + m))
    if m and min(b for _, b in rows) < 0:
        _pivot(t, basis, min(range(m), key=lambda i: rows[i][1]), art)
        phase1 = [_ZERO] * art + [Fraction(-1)]
        got = _optimise(t, basis, phase1, range(art + 1))
        if got is None or got < 0:
            return INFEASIBLE
        if art in basis:
            r = basis.index(art)
            col = next((j for j in range(art) if t[r][j]), None)
            if col is not None:
                _pivot(t, basis, r, col)
    cs = [objective.get(x, _ZERO) for x in names]
    return _optimise(t, basis, [*cs, *(-v for v in cs), *([_ZERO] * (m + 1))], range(art))


def _diff(a: Atom) -> Row:
    """lhs − rhs as (linear part, −constant): the atom says linear part <= −constant (or =)."""
    coef: dict[str, Fraction] = {}
    for n, c in a.lhs.terms:
        coef[n] = coef.get(n, _ZERO) + c
    for n, c in a.rhs.terms:
        coef[n] = coef.get(n, _ZERO) - c
    return {n: c for n, c in coef.items() if c}, a.rhs.const - a.lhs.const


def _rows(a: Atom) -> list[Row]:
    if a.op == "<>":
        return []
    c, b = _diff(a)
    return [(c, b)] if a.op == "<=" else [(c, b), ({n: -v for n, v in c.items()}, -b)]


def _background(names: set[str]) -> list[Row]:
    one = Fraction(1)
    facts: list[Row] = []
    for n in names:
        if n == "J":
            facts.append(({n: -one}, _ZERO))
        elif n.startswith("a") and n[1:].isdigit():
            facts.append(({n: -one}, _ZERO))
            left, right = f"l{n[1:]}", f"r{n[1:]}"
            facts += [({right: one, left: -one, n: -one}, _ZERO), ({left: one, right: -one, n: -one}, _ZERO)]
    return facts


def _at_most(c: dict[str, Fraction], bound: Fraction, rows: list[Row]) -> bool:
    """Whether Σ c·x <= bound wherever the rows hold."""
    if not c:
        return _ZERO <= bound
    best = lp_max(c, rows)
    return isinstance(best, Infeasible) or (best is not None and best <= bound)


def _implied(a: Atom, premises: Sequence[Atom]) -> bool:
    if a.op == "<>":
        return False
    rows = [r for p in premises for r in _rows(p)]
    names = {n for c, _ in rows for n in c} | set(_diff(a)[0])
    rows += _background(names)
    return all(_at_most(c, b, rows) for c, b in _rows(a))


def drop_implied(guard: Sequence[Atom], atoms: Sequence[A]) -> tuple[A, ...]:
    """The atoms, less each one the guard and the atoms still kept imply (the last first:
    the mined candidates grow more composite towards the end)."""
    kept = list(atoms)
    for i in reversed(range(len(kept))):
        if _implied(kept[i], [*guard, *kept[:i], *kept[i + 1:]]):
            del kept[i]
    return tuple(kept)
