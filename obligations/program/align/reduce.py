"""Drop the atoms of a mined invariant's phase that the others imply.

Mining keeps every candidate atom that holds (`acc <= 2·D` next to `acc + |r1 − l1| <= 2·D`
and `|r1 − l1| <= D`), and each is one more fact `lia` carries into every leaf of the
generated proof, as hypothesis and as goal: the leaves' `lia` calls dominate the proof's
time.  An atom implied by the others over the rationals (an exact LP: sympy's simplex)
is derived again by `lia` wherever it is needed, so dropping it keeps what the phase
states and makes it cheaper to prove and to use.  The only facts assumed besides the
phase's atoms are the ones `lia` knows too: the loop index J and every distance
|r<y> − l<y>| are non-negative, and a distance is at least the difference either way.
A `<>` atom is kept and never used as a premise.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import sympy
from sympy.solvers.simplex import InfeasibleLPError, UnboundedLPError, lpmax

if TYPE_CHECKING:    # synth imports this module
    from obligations.program.align.synth import Atom, Lin


def _linear(e: Lin, syms: dict[str, sympy.Symbol]) -> sympy.Expr:
    out: sympy.Expr = sympy.Rational(e.const.numerator, e.const.denominator)
    for n, c in e.terms:
        if n not in syms:
            syms[n] = sympy.Symbol(n)
        out += sympy.Rational(c.numerator, c.denominator) * syms[n]
    return out


def _diff(a: Atom, syms: dict[str, sympy.Symbol]) -> sympy.Expr:
    """lhs − rhs: the atom says it is <= 0 (or = 0)."""
    return sympy.expand(_linear(a.lhs, syms) - _linear(a.rhs, syms))


def _background(syms: dict[str, sympy.Symbol]) -> list[sympy.Basic]:
    facts: list[sympy.Basic] = []
    for n, s in syms.items():
        if n == "J":
            facts.append(s >= 0)
        elif n.startswith("a") and n[1:].isdigit():
            facts.append(s >= 0)
            left, right = syms.get(f"l{n[1:]}"), syms.get(f"r{n[1:]}")
            if left is not None and right is not None:
                facts += [s >= right - left, s >= left - right]
    return facts


def _constraint(a: Atom, syms: dict[str, sympy.Symbol]) -> sympy.Basic | None:
    if a.op == "<>":
        return None
    d = _diff(a, syms)
    if d.is_number:
        return None
    return sympy.Eq(d, 0) if a.op == "=" else d <= 0


def _at_most_zero(e: sympy.Expr, constraints: list[sympy.Basic]) -> bool:
    """Whether e <= 0 wherever the constraints hold (over the rationals)."""
    if e.is_number:
        return bool(e <= 0)
    try:
        best, _ = lpmax(e, constraints)
    except InfeasibleLPError:
        return True
    except UnboundedLPError:
        return False
    return bool(best <= 0)


def _implied(a: Atom, premises: Sequence[Atom]) -> bool:
    if a.op == "<>":
        return False
    syms: dict[str, sympy.Symbol] = {}
    d = _diff(a, syms)
    cons = [c for c in (_constraint(p, syms) for p in premises) if c is not None]
    cons += _background(syms)
    if not _at_most_zero(d, cons):
        return False
    return a.op != "=" or _at_most_zero(-d, cons)


def drop_implied(guard: Sequence[Atom], atoms: Sequence[Atom]) -> tuple[Atom, ...]:
    """The atoms, less each one the guard and the atoms still kept imply (the last first:
    the mined candidates grow more composite towards the end)."""
    kept = list(atoms)
    for i in reversed(range(len(kept))):
        rest = [*guard, *kept[:i], *kept[i + 1:]]
        if _implied(kept[i], rest):
            del kept[i]
    return tuple(kept)

