"""Which variables of a program depend on its noise, for the measurability check of programs
with continuous Laplace noise.

Over the reals the generated proof must show that the tapes on which the aligned run does a
given thing form a measurable set.  The library (`theories/Laplace/TapeMeasurable.v` and
mathcomp-analysis 0.6.0) covers sums, differences, products, min, max, absolute values and
comparisons of values computed from the tape, and conditions by cases; it has no lemma for
rounding down a real, so `//` and `%` of a value that depends on the noise are refused.
The dependence is over-approximated (any assignment reading a noisy variable, or made under
a condition reading one, makes its variable noisy), so a refusal may be stricter than
needed but never lets a floor of noise through."""
from __future__ import annotations

from obligations.program import spec as P


def reads(a: P.AExp) -> frozenset[int]:
    """The slots an arithmetic expression reads."""
    if isinstance(a, P.AVar):
        return frozenset((a.x,))
    if isinstance(a, P.AIdx):
        return reads(a.i)
    if isinstance(a, P.ABin):
        return reads(a.a) | reads(a.b)
    if isinstance(a, (P.AAbs, P.ADivC)):
        return reads(a.a)
    return frozenset()


def reads_b(b: P.BExp) -> frozenset[int]:
    """The slots a condition reads."""
    if isinstance(b, P.BCmp):
        return reads(b.a) | reads(b.b)
    if isinstance(b, P.BNot):
        return reads_b(b.b)
    if isinstance(b, P.BBin):
        return reads_b(b.b) | reads_b(b.c)
    return frozenset()


def noisy_slots(body: tuple[P.Stmt, ...]) -> frozenset[int]:
    """The slots whose value may depend on the noise: to a fixpoint (the loop carries values
    from one iteration to the next)."""
    noisy: set[int] = set()
    while True:
        before = len(noisy)
        _walk(body, False, noisy)
        if len(noisy) == before:
            return frozenset(noisy)


def _walk(stmts: tuple[P.Stmt, ...], guarded: bool, noisy: set[int]) -> None:
    """One pass; `guarded`: under a condition that reads a noisy slot."""
    for s in stmts:
        if isinstance(s, P.SSample):
            noisy.add(s.x)
        elif isinstance(s, P.SAssign) and (guarded or reads(s.a) & noisy):
            noisy.add(s.x)
        elif isinstance(s, P.SIf):
            g = guarded or bool(reads_b(s.b) & noisy)
            _walk(s.then, g, noisy)
            _walk(s.orelse, g, noisy)
        elif isinstance(s, P.SFor):
            _walk(s.body, guarded, noisy)


def whole_slots(body: tuple[P.Stmt, ...], nvars: int) -> frozenset[int]:
    """The variables that only ever hold whole numbers over the reals: never sampled, and
    assigned only expressions whose value is a whole number when these variables' are (to a
    fixpoint, from all of them down).  Unlike `noisy_slots`, a condition on noise does not
    matter here: a counter raised when a noisy test passes still holds whole numbers.  The
    proof for every stream length states these slots as `IZR z` so that `lia` decides their
    arithmetic."""
    whole = set(range(nvars)) - _sampled(body)
    while True:
        drop = {x for x, a in _assigns(body) if x in whole and not _whole(a, whole, nvars)}
        if not drop:
            return frozenset(whole)
        whole -= drop


def _whole(a: P.AExp, whole: set[int], nvars: int) -> bool:
    """The expression's value is a whole number when the slots in `whole` hold whole numbers
    (the inputs and the loop's reads of the stream are integers; `//` rounds down)."""
    if isinstance(a, P.AConst):
        return True
    if isinstance(a, P.AVar):
        return a.x >= nvars or a.x in whole
    if isinstance(a, P.AIdx):   # a read of the stream (an input); 0 out of range
        return a.base < 0 or a.base >= nvars
    if isinstance(a, P.ABin):
        return _whole(a.a, whole, nvars) and _whole(a.b, whole, nvars)
    if isinstance(a, P.AAbs):
        return _whole(a.a, whole, nvars)
    if isinstance(a, P.ADivC):
        return a.op == "div" or _whole(a.a, whole, nvars)
    return False


def _sampled(body: tuple[P.Stmt, ...]) -> set[int]:
    return {s.x for s in P.statements(body) if isinstance(s, P.SSample)}


def _assigns(body: tuple[P.Stmt, ...]) -> list[tuple[int, P.AExp]]:
    return [(s.x, s.a) for s in P.statements(body) if isinstance(s, P.SAssign)]
