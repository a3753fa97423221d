"""The ratio case's bound from the neighbour on a union of products of tails
(`Laplace/RatioCover.v`'s `not_rdp_of_rcover`), split on one tape position, the pivot.

In the sparse-vector family the neighbour x' reaches the event on tapes where each answer's
noise is above (or below) the threshold's by a margin: η_i − η_0 ≥ t.  No position is far from
0 on that region, so `ratio.tails` finds no product of tails that holds it.  Cut the pivot's
line (η_0) at breakpoints b_1 < … < b_{N−1}: on the piece b_j < η_0 ≤ b_{j+1} the same
Fourier–Motzkin projection, with the piece's bounds added, gives each position a tail (the
pivot's own from the piece: ≥ b_j when b_j > 0, ≤ b_{j+1} when b_{j+1} < 0), so the region lies
in the union of N products of tails, and Pr[p(x') ∈ S] ≤ Σ_j e^(−ε·B_j).  With each B_j above
A + c and P(ε) ≥ N the ratio exceeds e^(c·ε).

The pieces: a grid of step 1/2, 1/4, 1/8 or 1/16 over [−r, r], r such that the outer pieces'
pivot tail alone is far enough (r·w > A + c), then neighbouring pieces merged left to right
while the merged piece's product still is; the first step whose pieces all are is the cover.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import ceil

from obligations.program.refute import real as R
from obligations.program.refute.real import Tail

STEPS = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16))
MAX_PIECES = 12            # products in the cover (Coq splits each leaf of the run on x' once per cut)

Piece = tuple[Fraction | None, Fraction | None]   # the pivot in ]lo, hi] (None: unbounded that way)


def _bound_atom(m: int, j: int, b: Fraction, ge: bool) -> R.Atom:
    """The closed constraint η_j ≥ b (`ge`) or η_j ≤ b."""
    lin = [0] * (m + 1)
    lin[j] = b.denominator if ge else -b.denominator
    lin[-1] = -b.numerator if ge else b.numerator
    return R.Atom(tuple(lin), False)


def _piece_atoms(m: int, j: int, piece: Piece) -> list[R.Atom]:
    lo, hi = piece
    low = [] if lo is None else [_bound_atom(m, j, lo, True)]
    return low + ([] if hi is None else [_bound_atom(m, j, hi, False)])


def _weaker(t: Tail, lo: Fraction | None, hi: Fraction | None) -> Tail:
    """The weaker of the tail t and the one [lo, hi] gives."""
    if t is None:
        return None
    if t[0]:
        return (True, min(t[1], lo)) if lo is not None and lo > 0 else None
    return (False, max(t[1], hi)) if hi is not None and hi < 0 else None


def piece_tails(regions: Sequence[list[R.Atom]], m: int, j: int, piece: Piece) -> tuple[Tail, ...] | None:
    """The weakest tails holding every region's tapes whose pivot lies in the piece (None: no
    region meets the piece, so any product covers it)."""
    extra = _piece_atoms(m, j, piece)
    cur: list[Tail] | None = None
    for atoms in regions:
        rows = atoms + extra
        if not R.feasible(rows, m):
            continue
        per = [R.position_bounds(rows, i, m) for i in range(m)]
        if cur is None:
            cur = [None if b is None else R.tail_of(*b) for b in per]
        else:
            cur = [None if b is None else _weaker(t, *b) for t, b in zip(cur, per, strict=True)]
    return None if cur is None else tuple(cur)


def _exp(tl: Sequence[Tail], wts: Sequence[Fraction]) -> Fraction:
    return sum((abs(t[1]) * wt for t, wt in zip(tl, wts, strict=True) if t is not None), Fraction(0))


def _grid(step: Fraction, w: Fraction, need: Fraction) -> list[Piece]:
    """The pieces of step `step` over [−r, r], r a multiple of it with r·w > need."""
    n = ceil(need / w / step) + 1
    cuts = [step * i for i in range(-n, n + 1)]
    return [(None, cuts[0])] + list(zip(cuts, cuts[1:], strict=False)) + [(cuts[-1], None)]


Cover = tuple[int, tuple[Fraction, ...], tuple[tuple[Tail, ...], ...]]   # pivot, cuts, the products


def _merged(regions: Sequence[list[R.Atom]], m: int, j: int, grid: Sequence[Piece], wts: Sequence[Fraction],
            need: Fraction) -> list[tuple[Piece, tuple[Tail, ...] | None]] | None:
    """The grid's pieces merged left to right while the merged product's exponent exceeds
    `need`; None when a piece of the grid alone does not."""
    out: list[tuple[Piece, tuple[Tail, ...] | None]] = []
    for piece in grid:
        tl = piece_tails(regions, m, j, piece)
        if tl is not None and _exp(tl, wts) <= need:
            return None
        if out:
            (lo, _), _ = out[-1]
            both = piece_tails(regions, m, j, (lo, piece[1]))
            if both is None or _exp(both, wts) > need:
                out[-1] = ((lo, piece[1]), both)
                continue
        out.append((piece, tl))
    return out


def cover(regions: Sequence[list[R.Atom]], m: int, wts: Sequence[Fraction], need: Fraction) -> Cover | None:
    """A pivot and its pieces whose products all have an exponent above `need`."""
    for j in range(m):
        if wts[j] <= 0:
            continue
        for step in STEPS:
            got = _merged(regions, m, j, _grid(step, wts[j], need), wts, need)
            if got is None or len(got) > MAX_PIECES:
                continue
            fill = next(tl for _, tl in got if tl is not None)
            prods = tuple(fill if tl is None else tl for _, tl in got)
            cuts = tuple(p[1] for p, _ in got[:-1])
            assert all(c is not None for c in cuts)
            return j, tuple(c for c in cuts if c is not None), prods
    return None
