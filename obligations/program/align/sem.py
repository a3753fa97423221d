"""The tape semantics and the aligned run in Python, for the search (Coupling/TapeSem.v and
Coupling/Relational.v are the meaning; nothing here is trusted).

A tape maps positions to integers; a statement run from position a owns the positions
a .. a + size(s) - 1 exactly as in Coq, so the positions a run reads, and the shifts the
aligned run logs, are the ones Coq will reason about.  `prun` runs the left and the
aligned run together and records, at the head of each loop iteration, the two
environments and the cost so far (the samples the invariant is mined from).
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from obligations.program import spec as P
from obligations.program.align.spec import K_LENGTH, STREAM_BASE, DGeom

OVal = str | int          # "top", "bot" or an integer
Tape = Callable[[int], int]


@dataclass
class TState:
    env: list[int]
    out: list[OVal] = field(default_factory=list)
    tr: list[bool] = field(default_factory=list)
    halted: bool = False

    def copy(self) -> TState:
        return TState(list(self.env), list(self.out), list(self.tr), self.halted)

    def write(self, x: int, v: int) -> None:
        while len(self.env) <= x:
            self.env.append(0)
        self.env[x] = v

    def read(self, x: int) -> int:
        return self.env[x] if 0 <= x < len(self.env) else 0


class Ctx:
    """The program's layout: the variables' count, the stream's base slot, the stream length."""

    def __init__(self, nvars: int, npub: int, k: int) -> None:
        self.nvars, self.npub, self.k = nvars, npub, k

    def base(self, b: int) -> int:
        return self.nvars + self.npub if b == STREAM_BASE else b

    def length(self, n: int) -> int:
        return self.k if n == K_LENGTH else n


def aeval(c: Ctx, st: TState, a: P.AExp) -> int:
    if isinstance(a, P.AConst):
        return a.z
    if isinstance(a, P.AVar):
        return st.read(a.x)
    if isinstance(a, P.AIdx):
        i = aeval(c, st, a.i)
        return st.read(c.base(a.base) + i) if 0 <= i < c.length(a.length) else 0
    if isinstance(a, P.AAbs):
        return abs(aeval(c, st, a.a))
    if isinstance(a, P.ADivC):
        u = aeval(c, st, a.a)
        return u // a.d if a.op == "div" else u % a.d
    u, v = aeval(c, st, a.a), aeval(c, st, a.b)
    return _BINARY[a.op](u, v)   # a table of functions: a dict of all five results cost a third of aeval


_BINARY: dict[str, Callable[[int, int], int]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "min": min, "max": max}


def beval(c: Ctx, st: TState, b: P.BExp) -> bool:
    if isinstance(b, P.BConst):
        return b.value
    if isinstance(b, P.BNot):
        return not beval(c, st, b.b)
    if isinstance(b, P.BBin):
        return (beval(c, st, b.b) and beval(c, st, b.c)) if b.op == "and" else (beval(c, st, b.b) or beval(c, st, b.c))
    u, v = aeval(c, st, b.a), aeval(c, st, b.b)
    return u < v if b.op == "lt" else u <= v if b.op == "le" else u == v


# (id of a block, stream length) -> (the block, kept alive so the id is not reused; its size)
_SIZES: dict[tuple[int, int], tuple[object, int]] = {}


def size(c: Ctx, s: P.Stmt | Sequence[P.Stmt]) -> int:
    """The tape positions s owns; remembered per block, as every statement of a run asks
    (hashing a frozen statement walks it all, so the key is the block's identity)."""
    key = (id(s), c.k)
    hit = _SIZES.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    n = _size(c, s)
    _SIZES[key] = (s, n)
    return n


def _size(c: Ctx, s: P.Stmt | Sequence[P.Stmt]) -> int:
    if not isinstance(s, (P.SAssign, P.SSample, P.SIf, P.SFor, P.SOut, P.SSimple)):
        return sum(size(c, t) for t in s)
    if isinstance(s, P.SSample):
        return 1
    if isinstance(s, P.SIf):
        return size(c, s.then) + size(c, s.orelse)
    if isinstance(s, P.SFor):
        return c.length(s.n) * size(c, s.body)
    return 0


_NSITES: dict[int, tuple[object, int]] = {}   # id -> (the block, kept alive; its count)


def nsites(s: P.Stmt | Sequence[P.Stmt]) -> int:
    """The sampling sites in s (remembered per block, like `size`)."""
    hit = _NSITES.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    n = _nsites(s)
    _NSITES[id(s)] = (s, n)
    return n


def _nsites(s: P.Stmt | Sequence[P.Stmt]) -> int:
    if not isinstance(s, (P.SAssign, P.SSample, P.SIf, P.SFor, P.SOut, P.SSimple)):
        return sum(nsites(t) for t in s)
    if isinstance(s, P.SSample):
        return 1
    if isinstance(s, P.SIf):
        return nsites(s.then) + nsites(s.orelse)
    if isinstance(s, P.SFor):
        return nsites(s.body)
    return 0


def quiet(s: P.Stmt | Sequence[P.Stmt]) -> bool:
    if not isinstance(s, (P.SAssign, P.SSample, P.SIf, P.SFor, P.SOut, P.SSimple)):
        return all(quiet(t) for t in s)
    if isinstance(s, P.SAssign):
        return True
    if isinstance(s, P.SIf):
        return quiet(s.then) and quiet(s.orelse)
    if isinstance(s, P.SFor):
        return quiet(s.body)
    return isinstance(s, P.SSimple) and s.kind == "skip"


def texec(c: Ctx, tape: Tape, stmts: Sequence[P.Stmt], a: int, st: TState) -> None:
    """Run a block in place (the left run's meaning; also each side of a divergent branch)."""
    for s in stmts:
        if st.halted:
            return
        if isinstance(s, P.SAssign):
            st.write(s.x, aeval(c, st, s.a))
        elif isinstance(s, P.SSample):
            d = s.d
            assert isinstance(d, DGeom)
            st.write(s.x, aeval(c, st, d.center) + tape(a))
        elif isinstance(s, P.SIf):
            b = beval(c, st, s.b)
            st.tr.append(b)
            texec(c, tape, s.then if b else s.orelse, a if b else a + size(c, s.then), st)
        elif isinstance(s, P.SFor):
            sb = size(c, s.body)
            for i in range(c.length(s.n)):
                if st.halted:
                    break
                st.write(s.x, i)
                texec(c, tape, s.body, a + i * sb, st)
        elif isinstance(s, P.SOut):
            st.out.append(aeval(c, st, s.a))
        elif s.kind in ("top", "bot"):
            st.out.append(s.kind)
        elif s.kind == "stop":
            st.halted = True
        a += size(c, s)


ShiftFn = Callable[[int, TState, TState], int]   # site, left state, aligned state -> shift


@dataclass
class Head:
    """The two runs at the head of a loop iteration (before the loop variable is set)."""

    j: int
    left: list[int]
    right: list[int]
    acc: int


@dataclass
class PState:
    left: TState
    right: TState
    acc: int = 0
    bad: str | None = None     # why the aligned run failed (first reason)
    heads: list[Head] = field(default_factory=list)
    halted_at: int | None = None   # iteration at which the loop stopped


def prun(  # noqa: C901 (one case per statement, as pexec)
    c: Ctx, tape: Tape, shift: ShiftFn, weights: Callable[[DGeom], int], stmts: Sequence[P.Stmt],
         a: int, site: int, ps: PState) -> None:
    """The aligned run of a block in place (Relational.v's pexec, without the prophecy checks:
    the search always uses the left run's own outputs and trace)."""
    for s in stmts:
        if ps.left.halted:
            return
        L, A = ps.left, ps.right
        if isinstance(s, P.SAssign):
            L.write(s.x, aeval(c, L, s.a))
            A.write(s.x, aeval(c, A, s.a))
        elif isinstance(s, P.SSample):
            d = s.d
            assert isinstance(d, DGeom)
            z = shift(site, L, A)
            ps.acc += abs(z) * weights(d)
            lv = aeval(c, L, d.center) + tape(a)
            av = aeval(c, A, d.center) + tape(a) + z
            L.write(s.x, lv)
            A.write(s.x, av)
        elif isinstance(s, P.SIf):
            bl, ba = beval(c, L, s.b), beval(c, A, s.b)
            L.tr.append(bl)
            A.tr.append(ba)
            if bl == ba:
                if bl:
                    prun(c, tape, shift, weights, s.then, a, site, ps)
                else:
                    prun(c, tape, shift, weights, s.orelse, a + size(c, s.then), site + nsites(s.then), ps)
            else:
                if not (quiet(s.then) and quiet(s.orelse)) and ps.bad is None:
                    ps.bad = ("the two runs take different branches of a condition whose branches sample, "
                              "release or stop")
                texec(c, tape, s.then if bl else s.orelse, a if bl else a + size(c, s.then), L)
                texec(c, tape, s.then if ba else s.orelse, a if ba else a + size(c, s.then), A)
        elif isinstance(s, P.SFor):
            sb = size(c, s.body)
            for i in range(c.length(s.n)):
                if L.halted:
                    ps.halted_at = i
                    break
                ps.heads.append(Head(i, list(L.env), list(A.env), ps.acc))
                L.write(s.x, i)
                A.write(s.x, i)
                prun(c, tape, shift, weights, s.body, a + i * sb, site, ps)
            else:
                if not L.halted:
                    ps.heads.append(Head(c.length(s.n), list(L.env), list(A.env), ps.acc))
        elif isinstance(s, P.SOut):
            lv, av = aeval(c, L, s.a), aeval(c, A, s.a)
            if lv != av and ps.bad is None:
                ps.bad = "the two runs release different values"
            L.out.append(lv)
            A.out.append(av)
        elif s.kind in ("top", "bot"):
            L.out.append(s.kind)
            A.out.append(s.kind)
        elif s.kind == "stop":
            L.halted = A.halted = True
        a += size(c, s)
        site += nsites(s)
