"""The search for a refutation under continuous Laplace noise (the zero case of
`Laplace/RealRefute.v`'s `not_rdp_of_rbox`): inputs x, x' related by the spec's relation, a
sequence of outputs S and a box of tapes (an interval of positive width per tape position)
such that every tape in the box runs the program on x into S, and no tape at all runs it on
x' into S.  Then Pr[p(x) ∈ S] is at least the box's probability, positive, and
Pr[p(x') ∈ S] = 0: no factor e^(c·ε) covers the ratio, whatever c.

The program is executed symbolically over the reals, as Coq's `RunSym.v` does: a value is a
linear form in the tape positions (the inputs are whole numbers), a comparison of such forms
splits the run in two, and a path is the conjunction of the linear constraints it took.  A
path is feasible when its constraints have a real solution (Fourier–Motzkin elimination,
exact over the rationals, strict and non-strict inequalities kept apart).  The box is a cube
around a point of the open region of a path of x whose outputs do not depend on the noise:
its half-width keeps every constraint of the path strict.  x' never reaches S when every
feasible path of x' whose outputs can equal S becomes infeasible once they do.  Programs
this does not cover (a product of two noisy values, min, max or an absolute value, which
`RunSym.v`'s leaves do not read, a stream read at a noisy index) raise `Unsupported`: nothing
is proposed.  Python proposes;
Coq re-runs both sides and decides.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from obligations.program import spec as P
from obligations.program.align import sem as S
from obligations.program.align.spec import MAX_STREAM_LENGTH, AlignSpec, DGeom
from obligations.program.refute.tape import layout
from obligations.program.refute.witness import neighbours

Lin = tuple[int, ...]          # the coefficients of the tape positions, then the constant (whole numbers:
                               # the inputs are, and the program adds, subtracts and multiplies by constants)
ROut = str | Lin               # "top", "bot" or a released real
Tail = tuple[bool, Fraction] | None   # a tape position's tail: (True, t) at least t, (False, t) at most t


@dataclass(frozen=True)
class Half:
    """A released real at least (`ge`) or at most `u` (an event of the ratio case)."""

    ge: bool
    u: Fraction

    def __str__(self) -> str:
        return (">= " if self.ge else "<= ") + str(self.u)


Event = tuple[S.OVal | Half | None, ...]   # released sequences: None at a position stands for any value
STREAM_VALUES = (0, 1, -1)
PUBLIC_VALUES = (0, 1, -1, 2)
MAX_PATHS = 4096               # paths of one run (Coq's symbolic run splits on every comparison)


class Unsupported(Exception):
    """A construct outside the linear fragment the search executes."""


@dataclass(frozen=True)
class Atom:
    """lin(t) > 0 when strict, else lin(t) >= 0."""

    lin: Lin
    strict: bool


@dataclass
class SymState:
    env: list[Lin]
    out: list[ROut] = field(default_factory=list)
    conds: list[Atom] = field(default_factory=list)
    halted: bool = False

    def copy(self) -> SymState:
        return SymState(list(self.env), list(self.out), list(self.conds), self.halted)


@dataclass(frozen=True)
class RealWitness:
    """A refutation by an event impossible from the neighbour, at stream length k."""

    k: int
    x: tuple[int, ...]
    x2: tuple[int, ...]
    event: Event                               # the released sequence (None: any value there)
    box: tuple[tuple[Fraction, Fraction], ...]  # [l_i, h_i] per tape position, l_i < h_i
    paths: int                                 # paths of the run on x' (Coq splits on each)
    ratio: Ratio | None = None                 # the ratio case (ratio.py); None: x' never reaches S


@dataclass(frozen=True)
class Ratio:
    """What the ratio case adds to a witness: the far end of each interval of the box, the
    tails from x', one ε, and the exponents A and B per unit of ε (the box's lower bound
    P(ε)·e^(−ε·A), the tails' upper bound e^(−ε·B))."""

    far: tuple[Fraction, ...]
    tails: tuple[Tail, ...]
    eps: Fraction
    a: Fraction
    b: Fraction
    # a cover (cover.py): the pivot position, the cuts of its line, and one product of tails per
    # piece (`tails` is then the first, `b` the least exponent); None: one product, `tails`
    pivot: int | None = None
    cuts: tuple[Fraction, ...] = ()
    pieces: tuple[tuple[Tail, ...], ...] = ()


# ---------------------------------------------------------------- linear forms

def lin_const(m: int, c: int) -> Lin:
    return (*([0] * m), c)


def lin_is_const(v: Lin) -> bool:
    return not any(v[:-1])


def lin_add(u: Lin, v: Lin, s: int = 1) -> Lin:
    return tuple(a + s * b for a, b in zip(u, v, strict=True))


def lin_scale(u: Lin, c: int) -> Lin:
    return tuple(c * a for a in u)


# ---------------------------------------------------------------- symbolic execution

class SymExec:
    """The program at stream length k run symbolically on input x (`RealTape.v`'s rexec)."""

    def __init__(self, spec: AlignSpec, k: int) -> None:
        self.ctx = S.Ctx(spec.nvars, spec.npub, k)
        self.spec, self.m = spec, len(layout(self.ctx, spec.body))
        self.count = 0

    def paths(self, x: Sequence[int]) -> list[SymState]:
        st = SymState([lin_const(self.m, 0)] * self.spec.nvars + [lin_const(self.m, z) for z in x])
        self.count = 0
        return list(self._block(self.spec.body, 0, st))

    def _read(self, st: SymState, i: int) -> Lin:
        return st.env[i] if 0 <= i < len(st.env) else lin_const(self.m, 0)

    def _write(self, st: SymState, i: int, v: Lin) -> None:
        while len(st.env) <= i:
            st.env.append(lin_const(self.m, 0))
        st.env[i] = v

    def aeval(self, st: SymState, a: P.AExp) -> Lin:
        if isinstance(a, P.AConst):
            return lin_const(self.m, a.z)
        if isinstance(a, P.AVar):
            return self._read(st, a.x)
        if isinstance(a, P.AIdx):
            i = self._known(self.aeval(st, a.i), "a stream read at a noisy index")
            j = i
            return self._read(st, self.ctx.base(a.base) + j) if 0 <= j < self.ctx.length(a.length) \
                else lin_const(self.m, 0)
        if isinstance(a, P.ABin):
            u, v = self.aeval(st, a.a), self.aeval(st, a.b)
            if a.op in ("add", "sub"):
                return lin_add(u, v, 1 if a.op == "add" else -1)
            if a.op == "mul":
                if lin_is_const(u):
                    return lin_scale(v, u[-1])
                if lin_is_const(v):
                    return lin_scale(u, v[-1])
                raise Unsupported("a product of two noisy values")
            raise Unsupported(f"{a.op}: RunSym.v's leaves (lra) do not read Rmin or Rmax")
        if isinstance(a, P.AAbs):
            raise Unsupported("abs: RunSym.v's leaves (lra) do not read Rabs")
        u0 = self._known(self.aeval(st, a.a), "a rounding")
        return lin_const(self.m, u0 // a.d if a.op == "div" else u0 % a.d)   # rounding down, as rfloor

    @staticmethod
    def _known(v: Lin, what: str) -> int:
        if not lin_is_const(v):
            raise Unsupported(f"{what} of a noisy value")
        return v[-1]

    def bcases(self, st: SymState, b: P.BExp) -> list[tuple[list[Atom], bool]]:
        """The cases of a condition: constraints on the tape and the value in each."""
        if isinstance(b, P.BConst):
            return [([], b.value)]
        if isinstance(b, P.BNot):
            return [(c, not v) for c, v in self.bcases(st, b.b)]
        if isinstance(b, P.BBin):
            out = []
            for (c1, v1), (c2, v2) in itertools.product(self.bcases(st, b.b), self.bcases(st, b.c)):
                out.append((c1 + c2, (v1 and v2) if b.op == "and" else (v1 or v2)))
            return out
        d = lin_add(self.aeval(st, b.b), self.aeval(st, b.a), -1)     # b - a
        if lin_is_const(d):
            c = d[-1]
            return [([], c > 0 if b.op == "lt" else c >= 0 if b.op == "le" else c == 0)]
        nd = lin_scale(d, -1)
        if b.op == "lt":
            return [([Atom(d, True)], True), ([Atom(nd, False)], False)]
        if b.op == "le":
            return [([Atom(d, False)], True), ([Atom(nd, True)], False)]
        return [([Atom(d, False), Atom(nd, False)], True), ([Atom(d, True)], False), ([Atom(nd, True)], False)]

    def _block(self, stmts: Sequence[P.Stmt], a: int, st: SymState) -> Iterator[SymState]:
        if not stmts or st.halted:
            yield st
            return
        s = stmts[0]
        for st2 in self._stmt(s, a, st):
            yield from self._block(stmts[1:], a + S.size(self.ctx, s), st2)

    def _stmt(self, s: P.Stmt, a: int, st: SymState) -> Iterator[SymState]:
        if isinstance(s, P.SIf):
            for conds, v in self.bcases(st, s.b):
                nxt = st.copy()
                nxt.conds += conds
                if conds and not feasible(nxt.conds, self.m):
                    continue
                self.count += 1
                if self.count > MAX_PATHS:
                    raise Unsupported(f"more than {MAX_PATHS} paths")
                yield from self._block(s.then if v else s.orelse, a if v else a + S.size(self.ctx, s.then), nxt)
            return
        if isinstance(s, P.SFor):
            yield from self._loop(s, 0, a, st)
            return
        st = st.copy()
        if isinstance(s, P.SAssign):
            self._write(st, s.x, self.aeval(st, s.a))
        elif isinstance(s, P.SSample):
            d = s.d
            assert isinstance(d, DGeom)
            unit = tuple(int(i == a) for i in range(self.m + 1))
            self._write(st, s.x, lin_add(self.aeval(st, d.center), unit))
        elif isinstance(s, P.SOut):
            st.out.append(self.aeval(st, s.a))
        elif s.kind in ("top", "bot"):
            st.out.append(s.kind)
        elif s.kind == "stop":
            st.halted = True
        yield st

    def _loop(self, s: P.SFor, i: int, a: int, st: SymState) -> Iterator[SymState]:
        if i == self.ctx.length(s.n) or st.halted:
            yield st
            return
        st = st.copy()
        self._write(st, s.x, lin_const(self.m, i))
        sb = S.size(self.ctx, s.body)
        for st2 in self._block(s.body, a + i * sb, st):
            yield from self._loop(s, i + 1, a, st2)


# ---------------------------------------------------------------- linear feasibility

def eliminate(rows: list[Atom], j: int) -> list[Atom]:
    """Fourier–Motzkin: the constraints on the other positions implied by `rows`."""
    pos = [r for r in rows if r.lin[j] > 0]
    neg = [r for r in rows if r.lin[j] < 0]
    out = {r for r in rows if r.lin[j] == 0}
    for p, n in itertools.product(pos, neg):
        lin = lin_add(lin_scale(p.lin, -n.lin[j]), lin_scale(n.lin, p.lin[j]))
        out.add(Atom(lin_normal(lin), p.strict or n.strict))
    return sorted(out, key=repr)


def lin_normal(lin: Lin) -> Lin:
    g = math.gcd(*lin)
    return lin if g <= 1 else tuple(c // g for c in lin)


def feasible(atoms: Sequence[Atom], m: int) -> bool:
    rows = [Atom(lin_normal(a.lin), a.strict) for a in atoms]
    for j in range(m):
        rows = eliminate(rows, j)
    return all(r.lin[-1] > 0 if r.strict else r.lin[-1] >= 0 for r in rows)


def _simplest(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """A simple rational strictly between lo and hi (None: unbounded): 0, a whole number, or
    the fraction of least denominator."""
    if (lo is None or lo < 0) and (hi is None or hi > 0):
        return Fraction(0)
    if hi is None:
        assert lo is not None
        return Fraction(math.floor(lo) + 1)
    if lo is None:
        return Fraction(math.ceil(hi) - 1)
    den = 1
    while True:
        n = math.floor(lo * den) + 1
        if Fraction(n, den) < hi:
            return Fraction(n, den)
        den += 1


def interior(atoms: Sequence[Atom], m: int) -> tuple[Fraction, ...] | None:
    """A point where every constraint holds strictly, or None (the open region is empty)."""
    return region_point(atoms, m, True, _simplest)


def region_point(atoms: Sequence[Atom], m: int, strict: bool,
                 pick: Callable[[Fraction | None, Fraction | None], Fraction]) -> tuple[Fraction, ...] | None:
    """A point of the region (open when `strict`, else closed), or None when it is empty:
    Fourier-Motzkin down to no position, then each position in turn `pick`ed between the bounds
    the earlier ones leave it (None: unbounded that way)."""
    stages = [[Atom(lin_normal(a.lin), strict) for a in atoms]]
    for j in reversed(range(m)):
        stages.append(eliminate(stages[-1], j))
    if not all(r.lin[-1] > 0 if strict else r.lin[-1] >= 0 for r in stages[-1]):
        return None
    point: list[Fraction] = []
    for j in range(m):             # stages[m - j] bounds positions 0..j
        lo: Fraction | None = None
        hi: Fraction | None = None
        for r in stages[m - j - 1]:
            c = r.lin[j]
            if c == 0:
                continue
            rest = sum((r.lin[i] * point[i] for i in range(j)), Fraction(r.lin[-1]))
            bound = -rest / c
            if c > 0:
                lo = bound if lo is None else max(lo, bound)
            else:
                hi = bound if hi is None else min(hi, bound)
        point.append(pick(lo, hi))
    return tuple(point)


Row = tuple[tuple[int, ...], bool]   # an atom as (lin, strict), hashable and cheap to compare


def eliminate_rows(rows: set[Row], j: int) -> set[Row]:
    """Fourier–Motzkin on rows (`real._eliminate` without its sorting, which the search's
    inner loop cannot afford)."""
    pos = [r for r in rows if r[0][j] > 0]
    neg = [r for r in rows if r[0][j] < 0]
    out = {r for r in rows if r[0][j] == 0}
    for (pl, ps), (nl, ns) in itertools.product(pos, neg):
        lin = lin_add(lin_scale(pl, -nl[j]), lin_scale(nl, pl[j]))
        out.add((lin_normal(lin), ps or ns))
    return out


def position_bounds(atoms: Sequence[Atom], j: int, m: int) -> tuple[Fraction | None, Fraction | None] | None:
    """The least and greatest value of position j on the region (None: unbounded), or None
    when the region is empty (Fourier–Motzkin: every other position eliminated)."""
    rows = {(lin_normal(a.lin), a.strict) for a in atoms}
    for i in range(m):
        if i != j:
            rows = eliminate_rows(rows, i)
    lo: Fraction | None = None
    hi: Fraction | None = None
    for lin, strict in rows:
        c = lin[j]
        if c == 0:
            if lin[-1] < 0 or (strict and lin[-1] == 0):
                return None
            continue
        bound = Fraction(-lin[-1], c)
        if c > 0:
            lo = bound if lo is None else max(lo, bound)
        else:
            hi = bound if hi is None else min(hi, bound)
    if lo is not None and hi is not None and lo > hi:
        return None
    return lo, hi


def tail_of(lo: Fraction | None, hi: Fraction | None) -> Tail:
    if lo is not None and lo > 0:
        return (True, lo)
    if hi is not None and hi < 0:
        return (False, hi)
    return None


def _value(lin: Lin, point: Sequence[Fraction]) -> Fraction:
    return sum((c * t for c, t in zip(lin, point, strict=False)), Fraction(lin[-1]))


def half_width(atoms: Sequence[Atom], point: Sequence[Fraction]) -> Fraction:
    """A power of 2 below half the distance, in the sup norm, from the point to each
    constraint's boundary: the cube of that half-width keeps every constraint strict."""
    d = Fraction(1)
    for a in atoms:
        norm = sum(abs(c) for c in a.lin[:-1])
        if norm:
            d = min(d, _value(a.lin, point) / (2 * norm))
    w = Fraction(1)
    while w > d:
        w /= 2
    return w


# ---------------------------------------------------------------- the search

def pinned_event(out: Sequence[ROut]) -> Event:
    """The event a path's outputs pin down: each output that does not depend on the noise,
    and any value (None) in place of one that does."""
    return tuple(o if isinstance(o, str) else o[-1] if lin_is_const(o) else None for o in out)


def reaches(paths: Sequence[SymState], event: Event, m: int) -> bool:
    """Whether some tape runs into `event` (a path whose outputs can equal it)."""
    for st in paths:
        if len(st.out) != len(event):
            continue
        extra: list[Atom] = []
        ok = True
        for o, e in zip(st.out, event, strict=True):
            if e is None:
                continue
            if isinstance(o, str) or isinstance(e, str):
                ok = o == e
            else:
                assert isinstance(e, int)      # the zero case pins values (half-lines: ratio.py)
                diff = lin_add(o, lin_const(m, e), -1)
                extra += [Atom(diff, False), Atom(lin_scale(diff, -1), False)]
            if not ok:
                break
        if ok and (not extra or feasible(st.conds + extra, m)):   # a path kept is feasible
            return True
    return False


def input_vectors(spec: AlignSpec, k: int) -> Iterator[tuple[int, ...]]:
    for pub in itertools.product(PUBLIC_VALUES, repeat=spec.npub):
        for s in itertools.product(STREAM_VALUES, repeat=k):
            yield pub + s


def lengths(spec: AlignSpec) -> tuple[int, ...]:
    """The claim's length, or for a claim about every length the lengths tried (the
    cheapest refutation first: Coq's run splits on every comparison)."""
    return (spec.length,) if spec.length is not None else tuple(range(1, MAX_STREAM_LENGTH + 1))


def search(spec: AlignSpec) -> RealWitness | None:
    """The first witness in the order of the stream length, then the inputs; None when none
    is found or the program is outside the fragment."""
    try:
        for k in lengths(spec):
            found = _search_k(spec, k)
            if found is not None:
                return found
    except Unsupported:
        return None
    return None


def _search_k(spec: AlignSpec, k: int) -> RealWitness | None:
    ex = SymExec(spec, k)
    cache: dict[tuple[int, ...], list[SymState]] = {}

    def runs(x: tuple[int, ...]) -> list[SymState]:
        if x not in cache:
            cache[x] = ex.paths(x)
        return cache[x]

    reached: dict[tuple[tuple[int, ...], Event], bool] = {}
    npub = spec.npub
    for x in input_vectors(spec, k):
        boxes = _boxes(runs(x), ex.m)
        for s2 in neighbours(spec.relation.kind, spec.relation.delta, x[npub:]) if boxes else ():
            x2 = x[:npub] + s2
            for event, box in boxes:
                key = (x2, event)
                if key not in reached:
                    reached[key] = reaches(runs(x2), event, ex.m)
                if not reached[key]:
                    return RealWitness(k, x, x2, event, box, len(runs(x2)))
    return None


def _boxes(paths: Sequence[SymState], m: int) -> list[tuple[Event, tuple[tuple[Fraction, Fraction], ...]]]:
    """Per event a path pins down, a box of tapes running into it (the first path with an
    open region)."""
    out: dict[Event, tuple[tuple[Fraction, Fraction], ...]] = {}
    for st in paths:
        event = pinned_event(st.out)
        if event in out:
            continue
        point = interior(st.conds, m)
        if point is None:
            continue
        w = half_width(st.conds, point)
        out[event] = tuple((t - w, t + w) for t in point)
    return list(out.items())
