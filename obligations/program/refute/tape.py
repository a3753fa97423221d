"""The computation `bracket_check` (theories/Coupling/Refute.v) does, in Python, exactly.

A program for stream length k is run on a noise tape (`align.sem`, the same layout as
`Coupling/TapeSem.v`: a statement owns its sampling positions, both branches of a
conditional and every loop iteration included).  At ε = L·ln(q/p) the position of scale
num/den has rate n·ln(q/p) with n = L·den/num, and a noise vector v has density
C·(p/q)^e with e = Σ n_i·|v_i| and C = Π (q^n_i − p^n_i)/(q^n_i + p^n_i).  A box's sum of
densities over the vectors whose run is (or is not) in the event is C/q^E times the
integer Σ p^e·q^(E − e), E the box's largest exponent.  Nothing here is trusted: Coq
computes the same integers.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from obligations.program import spec as P
from obligations.program.align import sem as S
from obligations.program.align.spec import AlignSpec, DGeom
from obligations.program.refute import fast as F

Out = tuple[S.OVal, ...]
Box = tuple[tuple[int, int], ...]


def layout(c: S.Ctx, stmts: Sequence[P.Stmt]) -> list[tuple[int, int]]:
    """The scale (num, den) of every tape position, in order (TapeSem.v's `layout`)."""
    out: list[tuple[int, int]] = []
    for s in stmts:
        if isinstance(s, P.SSample):
            d = s.d
            assert isinstance(d, DGeom)
            out.append((d.num, d.den))
        elif isinstance(s, P.SIf):
            out += layout(c, s.then) + layout(c, s.orelse)
        elif isinstance(s, P.SFor):
            out += layout(c, s.body) * c.length(s.n)
    return out


@dataclass(frozen=True)
class Program:
    """The spec's program for one stream length k."""

    spec: AlignSpec
    k: int

    @property
    def ctx(self) -> S.Ctx:
        return S.Ctx(self.spec.nvars, self.spec.npub, self.k)

    @property
    def scales(self) -> list[tuple[int, int]]:
        return layout(self.ctx, self.spec.body)

    @cached_property
    def _compiled(self) -> F.SFn:
        return F.Compiler(self.spec.nvars, self.spec.npub, self.k).block(self.spec.body)

    def run(self, x: Sequence[int], v: Sequence[int]) -> Out:
        """The outputs of the run on input x (public values, then the stream) and tape v."""
        st = F.State([0] * self.spec.nvars + list(x))
        self._compiled(st, v, 0)
        return tuple(st.out)

    def run_slow(self, x: Sequence[int], v: Sequence[int]) -> Out:
        """The same run by `align.sem` (the reference the compiled closures are tested against)."""
        st = S.TState([0] * self.spec.nvars + list(x))
        S.texec(self.ctx, lambda a: v[a] if 0 <= a < len(v) else 0, self.spec.body, 0, st)
        return tuple(st.out)


@dataclass(frozen=True)
class Eps:
    """ε = L·ln(q/p) with 0 < p < q."""

    L: int
    p: int
    q: int

    def exps(self, scales: Sequence[tuple[int, int]]) -> list[int] | None:
        """n_i = L·den/num for each position, or None when one is not an integer."""
        out = []
        for num, den in scales:
            if (self.L * den) % num:
                return None
            out.append(self.L * den // num)
        return out

    @property
    def value(self) -> float:
        return self.L * math.log(self.q / self.p)

    def text(self) -> str:
        return f"{self.L}*ln({self.q}/{self.p})" if self.L != 1 else f"ln({self.q}/{self.p})"


def ball(ns: Sequence[int], R: int) -> Iterator[tuple[int, ...]]:
    """The vectors v with Σ n_i·|v_i| <= R (Bracket.v's `ball`, in its order)."""
    if not ns:
        if R >= 0:
            yield ()
        return
    n, rest = ns[0], ns[1:]
    h = R // n
    for z in range(-h, h + 1):
        for tail in ball(rest, R - n * abs(z)):
            yield (z, *tail)


def expo(ns: Sequence[int], v: Sequence[int]) -> int:
    return sum(n * abs(z) for n, z in zip(ns, v, strict=False))


def cnum_cden(eps: Eps, ns: Sequence[int]) -> tuple[int, int]:
    cn = cd = 1
    for n in ns:
        cn *= eps.q ** n - eps.p ** n
        cd *= eps.q ** n + eps.p ** n
    return cn, cd


def zsum(eps: Eps, ns: Sequence[int], R: int, keep: Callable[[tuple[int, ...]], bool]) -> int:
    """Σ p^e·q^(R − e) over the vectors of the ball of radius R that `keep` selects."""
    total = 0
    for v in ball(ns, R):
        if keep(v):
            e = expo(ns, v)
            total += eps.p ** e * eps.q ** (R - e)
    return total


@dataclass(frozen=True)
class Bracket:
    """The certified bounds: Pr[p(x) ∈ S] >= lower, Pr[p(x') ∈ S] <= upper, and whether
    lower > (q/p)^M · upper, computed as `bracket_check` does."""

    lower: Fraction
    upper: Fraction
    holds: bool


def bracket(prog: Program, x: Sequence[int], x2: Sequence[int], event: frozenset[Out], eps: Eps, M: int,
            R: int, R2: int) -> Bracket:
    ns = eps.exps(prog.scales)
    assert ns is not None and R >= 0 and R2 >= 0
    p, q = eps.p, eps.q
    zS = zsum(eps, ns, R, lambda v: prog.run(x, v) in event)
    zN = zsum(eps, ns, R2, lambda v: prog.run(x2, v) not in event)
    cn, cd = cnum_cden(eps, ns)
    holds = q ** M * q ** R * (cd * q ** R2 - cn * zN) < p ** M * cn * zS * q ** R2
    lower = Fraction(cn * zS, cd * q ** R)
    upper = 1 - Fraction(cn * zN, cd * q ** R2)
    return Bracket(lower, upper, holds)
