"""The tape semantics compiled to Python closures, for the search's many runs.

The meaning is `Coupling/TapeSem.v`'s `texec` (and `align.sem.texec`, which this agrees
with): positions are laid out statically (a statement owns `size` positions, a loop's
iteration j the j-th copy of its body's), the value sampled is center + tape[a], a
released value is appended, `stop` halts everything after it.  The closures are built
from the IR once per stream length; no text is ever evaluated.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from obligations.program import spec as P
from obligations.program.align.spec import K_LENGTH, STREAM_BASE, DGeom

OVal = str | int
Env = list[int]


class State:
    __slots__ = ("env", "out", "halted")

    def __init__(self, env: Env) -> None:
        self.env = env
        self.out: list[OVal] = []
        self.halted = False


Tape = Sequence[int]
AFn = Callable[[Env], int]
BFn = Callable[[Env], bool]
SFn = Callable[[State, Tape, int], None]


class Compiler:
    """Closures for one program layout: nvars variables, npub public values, stream length k."""

    def __init__(self, nvars: int, npub: int, k: int) -> None:
        self.base = nvars + npub
        self.k = k

    def length(self, n: int) -> int:
        return self.k if n == K_LENGTH else n

    def size(self, s: P.Stmt | Sequence[P.Stmt]) -> int:
        if isinstance(s, (list, tuple)):
            return sum(self.size(t) for t in s)
        if isinstance(s, P.SSample):
            return 1
        if isinstance(s, P.SIf):
            return self.size(s.then) + self.size(s.orelse)
        if isinstance(s, P.SFor):
            return self.length(s.n) * self.size(s.body)
        return 0

    def aexp(self, a: P.AExp) -> AFn:
        if isinstance(a, P.AConst):
            z = a.z
            return lambda e: z
        if isinstance(a, P.AVar):
            x = a.x
            return lambda e: e[x] if x < len(e) else 0
        if isinstance(a, P.AIdx):
            base = self.base if a.base == STREAM_BASE else a.base
            n, i = self.length(a.length), self.aexp(a.i)

            def idx(e: Env) -> int:
                j = i(e)
                return (e[base + j] if base + j < len(e) else 0) if 0 <= j < n else 0
            return idx
        if isinstance(a, P.AAbs):
            f = self.aexp(a.a)
            return lambda e: abs(f(e))
        if isinstance(a, P.ADivC):
            f, d = self.aexp(a.a), a.d
            if a.op == "div":
                return lambda e: f(e) // d
            return lambda e: f(e) % d
        f, g = self.aexp(a.a), self.aexp(a.b)
        op = a.op
        if op == "add":
            return lambda e: f(e) + g(e)
        if op == "sub":
            return lambda e: f(e) - g(e)
        if op == "mul":
            return lambda e: f(e) * g(e)
        if op == "min":
            return lambda e: min(f(e), g(e))
        return lambda e: max(f(e), g(e))

    def bexp(self, b: P.BExp) -> BFn:
        if isinstance(b, P.BConst):
            v = b.value
            return lambda e: v
        if isinstance(b, P.BNot):
            f = self.bexp(b.b)
            return lambda e: not f(e)
        if isinstance(b, P.BBin):
            f, g = self.bexp(b.b), self.bexp(b.c)
            if b.op == "and":
                return lambda e: f(e) and g(e)
            return lambda e: f(e) or g(e)
        ua, ub = self.aexp(b.a), self.aexp(b.b)
        if b.op == "lt":
            return lambda e: ua(e) < ub(e)
        if b.op == "le":
            return lambda e: ua(e) <= ub(e)
        return lambda e: ua(e) == ub(e)

    def block(self, stmts: Sequence[P.Stmt]) -> SFn:
        parts: list[tuple[SFn, int]] = []
        off = 0
        for s in stmts:
            parts.append((self.stmt(s), off))
            off += self.size(s)

        def run(st: State, tape: Tape, a: int) -> None:
            for f, o in parts:
                if st.halted:
                    return
                f(st, tape, a + o)
        return run

    def stmt(self, s: P.Stmt) -> SFn:
        if isinstance(s, P.SAssign):
            x, f = s.x, self.aexp(s.a)

            def assign(st: State, tape: Tape, a: int) -> None:
                st.env[x] = f(st.env)
            return assign
        if isinstance(s, P.SSample):
            return self.sample(s)
        if isinstance(s, P.SIf):
            return self.branch(s)
        if isinstance(s, P.SFor):
            return self.loop(s)
        if isinstance(s, P.SOut):
            g = self.aexp(s.a)

            def out(st: State, tape: Tape, a: int) -> None:
                st.out.append(g(st.env))
            return out
        return self.simple(s.kind)

    def sample(self, s: P.SSample) -> SFn:
        d = s.d
        assert isinstance(d, DGeom)
        x, c = s.x, self.aexp(d.center)

        def sample(st: State, tape: Tape, a: int) -> None:
            st.env[x] = c(st.env) + (tape[a] if a < len(tape) else 0)
        return sample

    def branch(self, s: P.SIf) -> SFn:
        cond, yes, no, off = self.bexp(s.b), self.block(s.then), self.block(s.orelse), self.size(s.then)

        def branch(st: State, tape: Tape, a: int) -> None:
            if cond(st.env):
                yes(st, tape, a)
            else:
                no(st, tape, a + off)
        return branch

    def loop(self, s: P.SFor) -> SFn:
        x, n, body, sb = s.x, self.length(s.n), self.block(s.body), self.size(s.body)

        def loop(st: State, tape: Tape, a: int) -> None:
            for i in range(n):
                if st.halted:
                    return
                st.env[x] = i
                body(st, tape, a + i * sb)
        return loop

    @staticmethod
    def simple(kind: str) -> SFn:
        if kind in ("top", "bot"):
            def mark(st: State, tape: Tape, a: int) -> None:
                st.out.append(kind)
            return mark
        if kind == "stop":
            def stop(st: State, tape: Tape, a: int) -> None:
                st.halted = True
            return stop
        return lambda st, tape, a: None
