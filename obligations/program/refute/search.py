"""The search for a certified counterexample to an every-k claim.

At ε = L·ln(r) (r = q/p) the tape position of scale num/den carries the weight
n = L·den/num, and a noise vector v has density C·r^(−e(v)), e(v) = Σ n_i·|v_i|.  The
ball of radius R (the vectors with e(v) <= R) holds all the mass but the tail
τ(R) = 1 − Σ_ball density.  For inputs x, x' and a set S of outputs,

    Pr[p(x) ∈ S]  >= Σ_{v ∈ ball, p(x, v) ∈ S} C·r^(−e(v))       (lower)
    Pr[p(x') ∈ S] <= Σ_{v ∈ ball, p(x', v) ∈ S} C·r^(−e(v)) + τ(R) (upper)

and the claim (c·ε)-DP fails when lower > r^(c·L)·upper.  Scaling L only raises r to a
power, so L is the least value that makes every n_i and M = c·L integers, and the search
ranges over r, the radius (the number of program runs Coq will make is the size of the
balls), the stream length k and the inputs.  For one ball and one pair of inputs the
best event is every output whose mass on x exceeds r^M times its mass on x': the
search keeps the few largest of them that suffice.  Enumeration, in order of the cost of
the certificate: k first (every run is longer), then the ball's size.  `tape.bracket`
then checks the witness with the integers Coq will compute.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence

from obligations.program.align.spec import AlignSpec
from obligations.program.refute.tape import Eps, Out, Program, ball, bracket, expo
from obligations.program.refute.witness import Budget, Witness, ball_size, base_L, neighbours
from obligations.program.refute.zero import search_zero

RATIOS = ((1, 2), (1, 3), (1, 4), (1, 8), (1, 16), (1, 64), (1, 256))
KMAX = 4
MAX_BALL = 4000            # vectors per ball: Coq runs the program on each (twice at most)
MAX_EVENT = 64             # output sequences in the event
STREAM_VALUES = (-1, 0, 1)
PUBLIC_VALUES = (0, 1, -1, 2)
MARGIN = 1e-9
BUDGET = 1_000_000         # program runs (whole or partial: a minute or less here) before giving up


class _Masses:
    """Per input, how many vectors of each weight e of the largest ball output each sequence
    (the program run once per vector): the mass of an output in any smaller ball at any ε
    is then a sum over e."""

    def __init__(self, prog: Program, ns: Sequence[int], R: int, work: Budget) -> None:
        self.prog, self.ns, self.R, self.work = prog, list(ns), R, work
        self.vectors = [(expo(ns, v), v) for v in ball(ns, R)]
        self.cache: dict[tuple[int, ...], dict[Out, list[int]]] = {}

    def runs(self, x: tuple[int, ...]) -> dict[Out, list[int]]:
        got = self.cache.get(x)
        if got is None:
            got = {}
            self.work.spend(len(self.vectors))
            for e, v in self.vectors:
                o = self.prog.run(x, v)
                h = got.get(o)
                if h is None:
                    h = got[o] = [0] * (self.R + 1)
                h[e] += 1
            self.cache[x] = got
        return got


def _mass(runs: dict[Out, list[int]], R: int, w: Sequence[float]) -> dict[Out, float]:
    return {o: sum(h[e] * w[e] for e in range(R + 1) if h[e]) for o, h in runs.items()}


def _inputs(spec: AlignSpec, k: int) -> list[tuple[int, ...]]:
    pubs = list(itertools.product(PUBLIC_VALUES, repeat=spec.npub))
    streams = list(itertools.product(STREAM_VALUES, repeat=k))
    return [p + s for p in pubs for s in streams]


def search(spec: AlignSpec, kmax: int = KMAX, max_ball: int = MAX_BALL, budget: int = BUDGET) -> Witness | None:
    """The cheapest witness found (fewest runs for Coq), or None.  The zero-vector pass first
    (half the budget), then two ball passes: small balls for every k (most violations show
    at the zero vector's neighbourhood, at a large q/p), then the larger balls."""
    work = Budget(budget // 2)
    found = search_zero(spec, work)
    if found is not None:
        return found
    work = Budget(budget - work.used)
    small = max(1, max_ball // 20)
    for lo, hi in ((0, small), (small, max_ball)):
        for k in range(1, kmax + 1):
            found = _search_k(spec, k, lo, hi, work)
            if found is not None or work.exhausted():
                return found
    return None


def _search_k(spec: AlignSpec, k: int, lo: int, hi: int, work: Budget) -> Witness | None:
    """The radii whose ball has more than lo and at most hi vectors, at stream length k."""
    prog = Program(spec, k)
    scales = prog.scales
    L = base_L(spec, scales)
    M = int(spec.factor * L)
    ns = Eps(L, 1, 2).exps(scales)
    assert ns is not None
    top = M + 2 * max(ns, default=1) + 2     # past it the ball's tail is far below e^(-c·ε)
    radii = [R for R in range(0, top + 1) if lo < ball_size(ns, R, hi) <= hi]
    if not radii:
        return None
    masses = _Masses(prog, ns, radii[-1], work)
    inputs = _inputs(spec, k)
    for R in radii:
        for p, q in RATIOS:
            if work.exhausted():
                return None
            eps = Eps(L, p, q)
            w = _weights(ns, p, q, R)
            tail = 1.0 - sum(w[e] for e, _ in masses.vectors if e <= R)
            work.spend(len(inputs))
            found = _scan(spec, masses, inputs, eps, M, R, w, tail)
            if found is not None:
                return found
    return None


def _weights(ns: Sequence[int], p: int, q: int, R: int) -> list[float]:
    """C·r^(−e) for e = 0..R."""
    C = 1.0
    for n in ns:
        a = (p / q) ** n
        C *= (1 - a) / (1 + a)
    return [C * (p / q) ** e for e in range(R + 1)]


def _scan(spec: AlignSpec, masses: _Masses, inputs: list[tuple[int, ...]], eps: Eps, M: int, R: int,
          w: list[float], tail: float) -> Witness | None:
    factor = (eps.q / eps.p) ** M
    npub = spec.npub
    best: tuple[float, tuple[int, ...], tuple[int, ...], list[Out]] | None = None
    for x in inputs:
        mx = _mass(masses.runs(x), R, w)
        for s2 in neighbours(spec.relation.kind, spec.relation.delta, x[npub:]):
            x2 = x[:npub] + s2
            mx2 = _mass(masses.runs(x2), R, w)
            gains = sorted(((m - factor * mx2.get(o, 0.0), o) for o, m in mx.items()), reverse=True)
            total = sum(g for g, _ in gains if g > 0) - factor * tail
            if total > MARGIN and (best is None or total > best[0]):
                chosen: list[Out] = []
                acc = -factor * tail
                for g, o in gains:
                    if acc > MARGIN or g <= 0 or len(chosen) >= MAX_EVENT:
                        break
                    chosen.append(o)
                    acc += g
                if acc > MARGIN:
                    best = (total, x, x2, chosen)
    if best is None:
        return None
    _, x, x2, chosen = best
    return _certify(masses, x, x2, tuple(sorted(chosen, key=repr)), eps, M, R)


def _certify(masses: _Masses, x: tuple[int, ...], x2: tuple[int, ...], event: tuple[Out, ...], eps: Eps, M: int,
             R: int) -> Witness | None:
    """The exact check, with each ball shrunk to the least radius that still passes."""
    prog, ns, S = masses.prog, masses.ns, frozenset(event)
    if not bracket(prog, x, x2, S, eps, M, R, R).holds:
        return None
    R1 = next(r for r in range(R + 1) if bracket(prog, x, x2, S, eps, M, r, R).holds)
    R2 = next(r for r in range(R + 1) if bracket(prog, x, x2, S, eps, M, R1, r).holds)
    b = bracket(prog, x, x2, S, eps, M, R1, R2)
    runs = ball_size(ns, R1, 10 ** 9) + ball_size(ns, R2, 10 ** 9)
    return Witness(prog.k, x, x2, event, eps, M, R1, R2, b, runs)
