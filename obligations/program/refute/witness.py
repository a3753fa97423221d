"""The witness of a violation and the helpers both passes of the search share: the size of
a ball, the neighbours of a stream under the spec's relation, the least L making every
weight an integer."""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from obligations.program.align.spec import AlignSpec
from obligations.program.refute.tape import Bracket, Eps, Out


@dataclass(frozen=True)
class Witness:
    """A violation of the claim at stream length k, checked as Coq will check it."""

    k: int
    x: tuple[int, ...]
    x2: tuple[int, ...]
    event: tuple[Out, ...]
    eps: Eps
    M: int                  # e^(c·ε) = (q/p)^M
    R: int                  # the ball for the lower bound on x
    R2: int                 # the ball for the upper bound on x'
    bracket: Bracket
    runs: int               # program runs in Coq: the two balls' sizes


def ball_size(ns: Sequence[int], R: int, cap: int) -> int:
    """The number of vectors in the ball, or cap + 1 when it exceeds cap."""
    counts = {R: 1}           # remaining radius -> number of prefixes
    for n in ns:
        nxt: dict[int, int] = {}
        for rem, c in counts.items():
            for z in range(-(rem // n), rem // n + 1):
                r2 = rem - n * abs(z)
                nxt[r2] = nxt.get(r2, 0) + c
        counts = nxt
        if sum(counts.values()) > cap:
            return cap + 1
    return sum(counts.values())


def neighbours(kind: str, delta: int, stream: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The streams related to `stream` by the spec's relation (not itself)."""
    k = len(stream)
    if kind == "one":
        for i in range(k):
            for d in range(-delta, delta + 1):
                if d:
                    yield tuple(v + d if j == i else v for j, v in enumerate(stream))
        return
    if kind == "l1":
        for ds in itertools.product(range(-delta, delta + 1), repeat=k):
            if 0 < sum(map(abs, ds)) <= delta:
                yield tuple(v + d for v, d in zip(stream, ds, strict=True))
        return
    ranges = {"each": range(-delta, delta + 1), "increasing": range(0, delta + 1),
              "decreasing": range(-delta, 1)}
    kinds = ("increasing", "decreasing") if kind == "monotone" else (kind,)
    seen: set[tuple[int, ...]] = set()
    for kd in kinds:
        for ds in itertools.product(ranges[kd], repeat=k):
            if any(ds):
                y = tuple(v + d for v, d in zip(stream, ds, strict=True))
                if y not in seen:
                    seen.add(y)
                    yield y


def _lcm(a: int, b: int) -> int:
    return a * b // math.gcd(a, b)


def base_L(spec: AlignSpec, scales: Sequence[tuple[int, int]]) -> int:
    """The least L making every weight L·den/num and M = c·L integers."""
    L = spec.factor.denominator
    for num, den in scales:
        L = _lcm(L, num // math.gcd(num, den))
    return L




class Budget:
    """The search's work, counted in program runs (whole or partial), not in seconds: the
    same spec gets the same witness on any machine and at any load, so `verify` renders
    the file `prove` certified."""

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, 0

    def spend(self, n: int) -> None:
        self.used += n

    def exhausted(self) -> bool:
        return self.used > self.limit
