"""The search for a refutation by a ratio under continuous Laplace noise
(`Laplace/RealRatio.v`'s `not_rdp_of_rratio`): inputs x, x' related by the spec's relation,
an event S (released values pinned, released reals on a closed half-line), a box of tapes near
0 that runs the program on x into S, and a product of tails (per tape position: anything,
[t, +oo[ with t > 0, or ]-oo, t] with t < 0) holding every tape that runs it on x' into S.
Then for every ε, Pr[p(x) ∈ S] ≥ P(ε)·e^(−ε·A) (P: the widths times ε·d/(2n) per position of
scale n/(d·ε); A = Σ m·d/n, m the far end of each interval) and Pr[p(x') ∈ S] ≤ e^(−ε·B)
(B = Σ |t|·d/n over the tails): when B − A exceeds the claim's factor c, an ε with P(ε) ≥ 1
makes the ratio exceed e^(c·ε).

The symbolic runs are `real.py`'s.  The tails come from the paths of x' that can reach S: each
path's constraints (with S's) bound each position from below or above (Fourier–Motzkin
projection), and the tail of a position is the weakest bound over the paths.  The box is put
near the point of the region of a path of x closest to 0 (each position in turn, as near 0 as
the earlier ones allow), moved towards a point of the open region so that every constraint
holds strictly on it.  When one product of tails does not compare, the neighbour's tapes are
cut on one position's line into pieces, each in its own product (cover.py, RatioCover.v).
Python proposes; Coq re-runs both sides and decides.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction

from obligations.program.align import sem as S
from obligations.program.align.spec import AlignSpec
from obligations.program.refute import cover as C
from obligations.program.refute import real as R
from obligations.program.refute.real import Half, Ratio, Tail
from obligations.program.refute.tape import layout
from obligations.program.refute.witness import neighbours

THRESHOLDS = (Fraction(0), Fraction(1), Fraction(-1))   # u of a half-line
MAX_EVENTS = 16             # half-line choices for the noisy outputs of one path
SHRINK = 12                 # the box moved 2^-1 .. 2^-SHRINK of the way to the open region's point


def _weights(spec: AlignSpec, k: int) -> list[Fraction]:
    """1/b per unit of ε for each tape position: the scale n/(d·ε) gives d/n."""
    ex = R.SymExec(spec, k)
    return [Fraction(d, n) for n, d in layout(ex.ctx, spec.body)]


def _half_atom(o: R.Lin, h: Half, m: int) -> R.Atom:
    """The released real o on the half-line h, as a closed constraint on the tape."""
    diff = R.lin_add(o, R.lin_const(m, 0))
    lin = tuple(c * h.u.denominator for c in diff[:-1]) + (diff[-1] * h.u.denominator - h.u.numerator,)
    return R.Atom(lin if h.ge else R.lin_scale(lin, -1), False)


def _event_atoms(st: R.SymState, event: R.Event, m: int) -> list[R.Atom] | None:
    """The constraints under which the path's outputs are in the event (None: never)."""
    if len(st.out) != len(event):
        return None
    atoms: list[R.Atom] = []
    for o, e in zip(st.out, event, strict=True):
        if e is None:
            continue
        if isinstance(o, str) or isinstance(e, str):
            if o != e:
                return None
        elif isinstance(e, Half):
            atoms.append(_half_atom(o, e, m))
        else:
            assert isinstance(e, int)
            if R.lin_is_const(o):          # no constraint (a constant one would close the open region)
                if o[-1] != e:
                    return None
                continue
            diff = R.lin_add(o, R.lin_const(m, e), -1)
            atoms += [R.Atom(diff, False), R.Atom(R.lin_scale(diff, -1), False)]
    return atoms


def regions(paths: Sequence[R.SymState], event: R.Event, m: int) -> list[list[R.Atom]]:
    """The constraints of each path that can run into the event, the event's included."""
    out = []
    for st in paths:
        extra = _event_atoms(st, event, m)
        if extra is not None and R.feasible(st.conds + extra, m):
            out.append(st.conds + extra)
    return out


def tails(paths: Sequence[R.SymState], event: R.Event, m: int, wts: Sequence[Fraction], need: Fraction
          ) -> tuple[Tail, ...] | None:
    """Per position, the weakest tail holding every tape that runs into the event; None when no
    path reaches it (the zero case's business) or when the tails' exponent B cannot exceed
    `need` (tails only weaken path after path: stop as soon as B is that low)."""
    cur: list[Tail] | None = None
    for st in paths:
        extra = _event_atoms(st, event, m)
        if extra is None or not R.feasible(st.conds + extra, m):
            continue
        atoms = st.conds + extra
        if cur is None:
            per = [R.position_bounds(atoms, j, m) for j in range(m)]
            cur = [None if b is None else R.tail_of(*b) for b in per]
        else:
            for j, t in enumerate(cur):
                if t is None:
                    continue                   # unbounded already: no path can make it a tail again
                b = R.position_bounds(atoms, j, m)
                assert b is not None
                lo, hi = b
                if t[0]:
                    cur[j] = (True, min(t[1], lo)) if lo is not None and lo > 0 else None
                else:
                    cur[j] = (False, max(t[1], hi)) if hi is not None and hi < 0 else None
        if exponent(cur, wts) <= need:
            return None
    return None if cur is None else tuple(cur)


def _nearest(atoms: Sequence[R.Atom], m: int) -> tuple[Fraction, ...] | None:
    """A point of the closed region, each position in turn as near 0 as the earlier allow."""
    return R.region_point(atoms, m, False, _toward_zero)


def _toward_zero(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    return lo if lo is not None and lo > 0 else hi if hi is not None and hi < 0 else Fraction(0)


def _boxes(atoms: Sequence[R.Atom], m: int) -> Iterator[tuple[tuple[Fraction, Fraction], ...]]:
    """Boxes inside the open region, ever nearer the closed region's point nearest 0."""
    q = R.interior(atoms, m)
    p = _nearest(atoms, m)
    if q is None or p is None:
        return
    for s in range(1, SHRINK + 1):
        d = Fraction(1, 2 ** s)
        c = tuple(a + d * (b - a) for a, b in zip(p, q, strict=True))
        w = R.half_width(atoms, c)
        yield tuple((t - w, t + w) for t in c)


def _events(st: R.SymState) -> Iterator[R.Event]:
    """The events a path of x can run into: its fixed outputs pinned, each noisy one on a
    half-line."""
    noisy = [i for i, o in enumerate(st.out) if not isinstance(o, str) and not R.lin_is_const(o)]
    halves = [Half(ge, u) for u in THRESHOLDS for ge in (True, False)]
    base = R.pinned_event(st.out)
    for n, choice in enumerate(itertools.product(halves, repeat=len(noisy))):
        if n >= MAX_EVENTS:
            return
        ev: list[S.OVal | Half | None] = list(base)
        for i, h in zip(noisy, choice, strict=True):
            ev[i] = h
        yield tuple(ev)


def _eps(box: Sequence[tuple[Fraction, Fraction]], wts: Sequence[Fraction], n: int = 1) -> Fraction:
    """The least power of 2 (at least 1) at which the box's polynomial P(ε) is at least n (the
    products of tails of the neighbour's bound)."""
    k = Fraction(1)
    for (lo, hi), wt in zip(box, wts, strict=True):
        k *= (hi - lo) * wt / 2
    eps = Fraction(1)
    while k * eps ** len(box) < n:
        eps *= 2
    return eps


def exponent(tl: Sequence[Tail], wts: Sequence[Fraction]) -> Fraction:
    return sum((abs(t[1]) * wt for t, wt in zip(tl, wts, strict=True) if t is not None), Fraction(0))


def search(spec: AlignSpec) -> R.RealWitness | None:
    """The first ratio witness in the order of the stream length, then the inputs."""
    try:
        for k in R.lengths(spec):
            found = _search_k(spec, k)
            if found is not None:
                return found
    except R.Unsupported:
        return None
    return None


Fit = tuple[tuple[tuple[Fraction, Fraction], ...], tuple[Fraction, ...], Fraction]   # box, far ends, A


class _Search:
    """The search at one stream length: the runs and the neighbours' tails computed once."""

    def __init__(self, spec: AlignSpec, k: int) -> None:
        self.spec, self.k, self.ex = spec, k, R.SymExec(spec, k)
        self.m, self.wts, self.c = self.ex.m, _weights(spec, k), Fraction(spec.factor)
        self.runs_of: dict[tuple[int, ...], list[R.SymState]] = {}
        self.tails_of: dict[tuple[tuple[int, ...], R.Event], tuple[Tail, ...] | None] = {}
        self.regions_of: dict[tuple[tuple[int, ...], R.Event], list[list[R.Atom]]] = {}
        self.reach_of: dict[tuple[tuple[int, ...], R.Event], Fraction] = {}

    def runs(self, x: tuple[int, ...]) -> list[R.SymState]:
        if x not in self.runs_of:
            self.runs_of[x] = self.ex.paths(x)
        return self.runs_of[x]

    def tails(self, x2: tuple[int, ...], event: R.Event) -> tuple[Tail, ...] | None:
        key = (x2, event)
        if key not in self.tails_of:
            self.tails_of[key] = tails(self.runs(x2), event, self.m, self.wts, self.c)
        return self.tails_of[key]

    def first(self) -> R.RealWitness | None:
        if self.m == 0:
            return None
        for x in R.input_vectors(self.spec, self.k):
            for st in self.runs(x):
                for event in _events(st):
                    found = self._event(x, st, event)
                    if found is not None:
                        return found
        return None

    def _event(self, x: tuple[int, ...], st: R.SymState, event: R.Event) -> R.RealWitness | None:
        """A neighbour of x and a box of the path's region in the event that compare."""
        extra = _event_atoms(st, event, self.m)
        assert extra is not None
        atoms = st.conds + extra
        p = _nearest(atoms, self.m)
        if p is None:
            return None
        a0 = _value(p, self.wts)
        fits: list[Fit] | None = None
        npub = self.spec.npub
        for s2 in neighbours(self.spec.relation.kind, self.spec.relation.delta, x[npub:]):
            x2 = x[:npub] + s2
            tl = self.tails(x2, event)
            # the boxes' exponents approach a0 (the point nearest 0) from above at best
            if tl is not None and exponent(tl, self.wts) - a0 > self.c:
                fits = list(_fits(atoms, self.m, self.wts)) if fits is None else fits
                b = exponent(tl, self.wts)
                for box, far, a in fits:
                    if b - a > self.c:
                        ratio = Ratio(far, tl, _eps(box, self.wts), a, b)
                        return R.RealWitness(self.k, x, x2, event, box, len(self.runs(x2)), ratio)
            # the cover only for events that pin every output they read (the sparse-vector family's;
            # on half-lines of noisy outputs the neighbours' bound costs the search more than it found)
            if self.m > 1 and not any(isinstance(e, Half) for e in event) and self.reach(x2, event) > a0 + self.c:
                fits = list(_fits(atoms, self.m, self.wts)) if fits is None else fits
                found = self._cover(x, x2, event, fits)
                if found is not None:
                    return found
        return None

    def reach(self, x2: tuple[int, ...], event: R.Event) -> Fraction:
        """An upper bound of the least exponent of a tape running x2 into the event (the least,
        over the paths that can, of the exponent at the path's point nearest 0; −1 when none
        can): a cover's products cannot beat it."""
        key = (x2, event)
        if key not in self.reach_of:
            regs = regions(self.runs(x2), event, self.m)
            pts = [p for p in (_nearest(r, self.m) for r in regs) if p is not None]
            self.regions_of[key] = regs
            self.reach_of[key] = min((_value(p, self.wts) for p in pts), default=Fraction(-1))
        return self.reach_of[key]

    def _cover(self, x: tuple[int, ...], x2: tuple[int, ...], event: R.Event, fits: Sequence[Fit]
               ) -> R.RealWitness | None:
        """The neighbour's tapes into the event in a union of products of tails (cover.py)."""
        regs = self.regions_of[(x2, event)]
        for box, far, a in fits:       # the cover's products must beat this box's exponent A by c
            got = C.cover(regs, self.m, self.wts, a + self.c)
            if got is not None:
                pivot, cuts, prods = got
                b = min(exponent(p, self.wts) for p in prods)
                ratio = Ratio(far, prods[0], _eps(box, self.wts, len(prods)), a, b, pivot, cuts, prods)
                return R.RealWitness(self.k, x, x2, event, box, len(self.runs(x2)), ratio)
        return None


def _value(p: Sequence[Fraction], wts: Sequence[Fraction]) -> Fraction:
    return sum((abs(t) * w for t, w in zip(p, wts, strict=True)), Fraction(0))


def _search_k(spec: AlignSpec, k: int) -> R.RealWitness | None:
    return _Search(spec, k).first()


def _fits(atoms: Sequence[R.Atom], m: int, wts: Sequence[Fraction]) -> Iterator[Fit]:
    """The boxes of the region nearer and nearer its point nearest 0, with their far ends and
    exponent A."""
    for box in _boxes(atoms, m):
        far = tuple(max(abs(lo), abs(hi)) for lo, hi in box)
        yield box, far, sum((f * wt for f, wt in zip(far, wts, strict=True)), Fraction(0))
