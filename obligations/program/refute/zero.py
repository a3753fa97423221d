"""The first pass of the search: violations at the zero noise vector.

The event is S = {p(x, 0)}, the outputs of the run on x with no noise, bracketed below by
the zero vector's density alone (ball of radius 0).  If no noise vector of weight at most
M (e^(c·ε) = r^M, r = q/p) makes the run on x' output the same sequence, then Pr[p(x') ∈ S]
is at most the mass outside the ball of radius M, about N·r^(−M−1) (N the vectors of weight
M + 1), and the violation holds once r is large enough: the search only has to find x, x'
and check that no cheap noise reproduces the outputs on x'.  That check is a depth-first
search over tape prefixes: the run reads its tape in increasing order, and a prefix whose
outputs already leave S prunes every tape that extends it.

Candidate inputs: for short streams every stream of values −1..1 and every neighbour; for
longer ones (the classical sparse-vector counterexamples need k ≈ 4·(scale ratio) + 1)
streams of two values, k − 1 equal answers then one, each a public value plus a small
offset or an offset next to a constant the program compares with, against the uniformly
shifted stream (or one answer moved, for relations that move one).  A heuristic: Coq
checks whatever it proposes.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from obligations.program import spec as P
from obligations.program.align.spec import AlignSpec
from obligations.program.refute.tape import Out, Program
from obligations.program.refute.witness import Budget, Witness, ball_size, base_L, neighbours

if TYPE_CHECKING:
    from obligations.program.refute.tape import Bracket, Eps

SHORT = 3                    # streams up to this length: every stream and every neighbour
KMAX = 7
PUBLIC = (0, 5, -5, 1)


class _Past(Exception):
    """The run asked for a tape position beyond the prefix being extended."""

    def __init__(self, a: int) -> None:
        self.a = a


class _Prefix(Sequence[int]):
    """A tape whose first positions are fixed; reading further raises `_Past`."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def __len__(self) -> int:
        return 1 << 30

    def __getitem__(self, a: Any) -> Any:
        if a < len(self.values):
            return self.values[a]
        raise _Past(a)


def min_weight(prog: Program, x: Sequence[int], target: Out, ns: Sequence[int], budget: int,
               limit: int = 200_000, work: Budget | None = None, first: bool = False) -> int | None:
    """The least weight Σ n_i·|v_i| ≤ budget of a tape v with p(x, v) = target; None if there
    is none; -1 when the search gave up (more than `limit` partial runs).  `first`: the weight
    of the first such tape found, not the least (the search only asks whether there is one)."""
    best: list[int | None] = [None]
    count = [0]

    def go(values: list[int], weight: int) -> bool:
        count[0] += 1
        if count[0] > limit:
            return False
        emitted, a = _partial(prog, x, values)
        if a is None:
            if emitted == target and (best[0] is None or weight < best[0]):
                best[0] = weight
                return not first
            return True
        if emitted != target[:len(emitted)]:
            return True
        cap = (budget if best[0] is None else best[0] - 1) - weight
        if cap < 0:
            return True
        pad = values + [0] * (a - len(values))
        n = ns[a]
        h = cap // n
        for z in sorted(range(-h, h + 1), key=abs):
            if not go(pad + [z], weight + n * abs(z)):
                return False
        return True

    done = go([], 0)
    if work is not None:
        work.spend(count[0])
    return best[0] if done or (first and best[0] is not None) else -1


def _partial(prog: Program, x: Sequence[int], values: list[int]) -> tuple[Out, int | None]:
    """The outputs so far and the position asked for next (None: the run is complete)."""
    from obligations.program.refute import fast as F
    st = F.State([0] * prog.spec.nvars + list(x))
    try:
        prog._compiled(st, _Prefix(values), 0)
    except _Past as past:
        return tuple(st.out), past.a
    return tuple(st.out), None


def _aconsts(e: P.AExp, out: set[int]) -> None:
    if isinstance(e, P.AConst):
        out.add(e.z)
    for f in ("a", "b", "i"):
        sub = getattr(e, f, None)
        if sub is not None and not isinstance(sub, (int, str)):
            _aconsts(sub, out)


def _bconsts(e: P.BExp, out: set[int]) -> None:
    if isinstance(e, P.BCmp):
        _aconsts(e.a, out)
        _aconsts(e.b, out)
    elif isinstance(e, P.BNot):
        _bconsts(e.b, out)
    elif isinstance(e, P.BBin):
        _bconsts(e.b, out)
        _bconsts(e.c, out)


def constants(body: Sequence[P.Stmt]) -> set[int]:
    """The integer constants of the program's comparisons."""
    out: set[int] = set()
    for st in body:
        if isinstance(st, P.SIf):
            _bconsts(st.b, out)
            out |= constants((*st.then, *st.orelse))
        elif isinstance(st, P.SFor):
            out |= constants(st.body)
    return out


def candidates(spec: AlignSpec, k: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    kind, d = spec.relation.kind, spec.relation.delta
    pubs = list(itertools.product(PUBLIC, repeat=spec.npub))
    if k <= SHORT:
        for pub in pubs:
            for s in itertools.product((-1, 0, 1), repeat=k):
                for s2 in neighbours(kind, d, s):
                    yield pub + s, pub + s2
        return
    offs = sorted({-1, 0, 1} | {c + e for c in constants(spec.body) if c for e in (-1, 0, 1)}, key=abs)
    base = pubs[0][0] if spec.npub else 0
    for pub in pubs:
        base = pub[0] if pub else 0
        for a, b in itertools.product(offs, repeat=2):
            s = (base + a,) * (k - 1) + (base + b,)
            for s2 in _shifts(kind, d, s):
                yield pub + s, pub + s2


def _shifts(kind: str, d: int, s: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    if kind in ("one", "l1"):
        for i in (len(s) - 1, 0):
            for e in (d, -d):
                yield tuple(v + e if j == i else v for j, v in enumerate(s))
        return
    ups = {"each": (d, -d), "monotone": (d, -d), "increasing": (d,), "decreasing": (-d,)}[kind]
    for e in ups:
        yield tuple(v + e for v in s)


def shells(ns: Sequence[int], R: int) -> list[int]:
    """N(e) for e = 0..R: the number of vectors of weight exactly e."""
    counts = [1] + [0] * R
    for n in ns:
        nxt = [0] * (R + 1)
        for e, c in enumerate(counts):
            if c:
                for z in range(0, (R - e) // n + 1):
                    nxt[e + n * z] += c * (1 if z == 0 else 2)
        counts = nxt
    return counts


def zero_bracket(eps: Eps, ns: Sequence[int], M: int, R2: int) -> Bracket:
    """`bracket_check` at the zero vector (R = 0, in S) against a ball of radius R2 none of
    whose vectors the run on x' maps into S: every vector counts in zN."""
    from fractions import Fraction

    from obligations.program.refute.tape import Bracket, cnum_cden
    p, q = eps.p, eps.q
    zN = sum(c * p ** e * q ** (R2 - e) for e, c in enumerate(shells(ns, R2)))
    cn, cd = cnum_cden(eps, ns)
    holds = q ** M * (cd * q ** R2 - cn * zN) < p ** M * cn * q ** R2
    return Bracket(Fraction(cn, cd), 1 - Fraction(cn * zN, cd * q ** R2), holds)


def search_zero(spec: AlignSpec, work: Budget, kmax: int = KMAX) -> Witness | None:
    from obligations.program.refute.tape import Eps, bracket
    for k in range(1, kmax + 1):
        prog = Program(spec, k)
        L = base_L(spec, prog.scales)
        M = int(spec.factor * L)
        ns = Eps(L, 1, 2).exps(prog.scales)
        assert ns is not None
        zero = [0] * len(ns)
        seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        for x, x2 in candidates(spec, k):
            if work.exhausted():
                return None
            if (x, x2) in seen:
                continue
            seen.add((x, x2))
            o = prog.run(x, zero)
            work.spend(2)
            if prog.run(x2, zero) == o or min_weight(prog, x2, o, ns, M, work=work, first=True) is not None:
                continue
            for j in range(1, 64):
                eps = Eps(L, 1, 2 ** j)
                b = zero_bracket(eps, ns, M, M)
                if b.holds:
                    break
            else:
                continue
            size = ball_size(ns, M, 10 ** 9)
            if size <= 20_000 and not bracket(prog, x, x2, frozenset([o]), eps, M, 0, M).holds:
                continue       # the shortcut disagrees with the exact computation: not proposed
            return Witness(k, x, x2, (o,), eps, M, 0, M, b, 1 + size)
    return None
