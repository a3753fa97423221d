"""The same database released K times, summed by the counts of outputs in blocks of inputs: a
measurement of the design that would bring K = 200 within the re-check's minute (not a route;
nothing here is checked by Coq).

For the 5-ary example of docs/profiles.md (randomized response, Pr[y = x] = lo·r, lo = 2/25,
r = 17/2; priors ½, ½ on {0, 1} against {2, 3}) a sequence of K outputs with a outputs in {0, 1},
b in {2, 3} and n0, n2 of them equal to 0 and to 2 has P = ½·lo^K·(r^n0 + r^(a−n0)) and
Q = ½·lo^K·(r^n2 + r^(b−n2)), so at t = e^ε

    hs(t) = ½·lo^K · Σ_{a+b≤K} K!/(a!·b!·(K−a−b)!) · Σ_{n0≤a, n2≤b} C(a,n0)·C(b,n2)·max(0, p − t·q)

with p = r^n0 + r^(a−n0), q = r^n2 + r^(b−n2).  A group (a, b) whose least p is at least t times
its largest q is summed whole (Σ C(a,n0)·p = 2(1+r)^a), one whose largest p is at most t times its
least q is 0; only the groups between need the inner sum (a merge of two sorted lists, a + b + 2
elements).  Prints K, the groups, the undecided groups, their elements and δ(ε) at ε = K·ln(19/4),
in exact rationals' 50-digit floats (mpmath), e.g.

    .venv/bin/python bench/cw_stream_grouped.py 50 200
"""
from __future__ import annotations

import argparse

import mpmath

mpmath.mp.dps = 50
R = mpmath.mpf(17) / 2
LO = mpmath.mpf(2) / 25


def pair_sum(a: int, r: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The least and the largest r^n + r^(a−n) over 0 ≤ n ≤ a."""
    return r ** (a // 2) + r ** (a - a // 2), 1 + r ** a


def inner(a: int, b: int, t: mpmath.mpf) -> mpmath.mpf:
    """Σ_{n0, n2} C(a,n0)·C(b,n2)·max(0, p − t·q), directly (the measurement counts the merge's elements)."""
    qs = [(t * (R ** n2 + R ** (b - n2)), mpmath.binomial(b, n2)) for n2 in range(b + 1)]
    total = mpmath.mpf(0)
    for n0 in range(a + 1):
        p, w = R ** n0 + R ** (a - n0), mpmath.binomial(a, n0)
        total += w * mpmath.fsum(v * (p - tq) for tq, v in qs if p > tq)
    return total


def grouped(k: int) -> tuple[int, int, int, mpmath.mpf]:
    """(groups, undecided groups, their elements, δ(K·ln(19/4))) of K runs on the same database."""
    t = (mpmath.mpf(19) / 4) ** k
    lf = [mpmath.log(mpmath.factorial(i)) for i in range(k + 1)]
    groups = band = elements = 0
    total = mpmath.mpf(0)
    for a in range(k + 1):
        pmin, pmax = pair_sum(a, R)
        for b in range(k + 1 - a):
            groups += 1
            qmin, qmax = pair_sum(b, R)
            if pmax <= t * qmin:
                continue
            weight = mpmath.e ** (lf[k] - lf[a] - lf[b] - lf[k - a - b]) * LO ** k / 2
            if pmin >= t * qmax:
                total += weight * (2 ** (b + 1) * (1 + R) ** a - t * 2 ** (a + 1) * (1 + R) ** b)
                continue
            band += 1
            elements += a + b + 2
            total += weight * inner(a, b, t)
    return groups, band, elements, total


def rows(k: int) -> tuple[int, int, int]:
    """(decisions by n0 in the undecided groups, undecided n0, their elements over n2) of K runs."""
    t = (mpmath.mpf(19) / 4) ** k
    qs = [sorted(t * (R ** n + R ** (b - n)) for n in range(b + 1)) for b in range(k + 1)]
    decided = undecided = elements = 0
    for a in range(k + 1):
        ps = [R ** n + R ** (a - n) for n in range(a + 1)]
        for b in range(k + 1 - a):
            qmin, qmax = qs[b][0], qs[b][-1]
            if max(ps) <= qmin or min(ps) >= qmax:
                continue
            decided += a + 1
            for p in ps:
                if qmin < p < qmax:
                    undecided += 1
                    elements += b + 1
    return decided, undecided, elements


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=int, nargs="+")
    for k in ap.parse_args().runs:
        groups, band, elements, delta = grouped(k)
        print(f"K = {k}: {groups} groups, {band} undecided, {elements} elements, delta = {mpmath.nstr(delta, 12)}")
        decided, undecided, inner_elements = rows(k)
        print(f"  by n0: {decided} decisions, {undecided} undecided, {inner_elements} elements over n2")


if __name__ == "__main__":
    main()
