"""The accountant's tree convolution (obligations/analysis/accountant.py's `tconv`, `hconv`, as
TreeConv.v computes them): every entry at most the exact one, and at 1000 runs of the discrete
Gaussian (sigma = 5) far less mass lost to rounding than the sequential `fconv`."""
from __future__ import annotations

import math
import random
from fractions import Fraction as F

import numpy as np

from obligations.analysis import accountant as acc
from obligations.table import gauss


def _exact_conv(b: list[float], d: list[float]) -> list[F]:
    out = [F(0)] * (len(b) + len(d) - 1)
    for i, x in enumerate(b):
        for j, y in enumerate(d):
            out[i + j] += F(x) * F(y)
    return out


def test_the_tree_convolution_is_below_the_exact_one_and_closer_than_the_sequential() -> None:
    rng = random.Random(31)
    b = [rng.random() for _ in range(37)]
    d = [rng.random() for _ in range(23)]
    exact = _exact_conv(b, d)
    tree = acc.tconv(np.array(b), np.array(d))
    seq = acc.fconv(np.array(b), np.array(d))
    assert len(tree) == len(seq) == len(exact)
    assert all(F(float(t)) <= e for t, e in zip(tree, exact, strict=True))
    assert sum(e - F(float(t)) for t, e in zip(tree, exact, strict=True)) < \
        sum(e - F(float(s)) for s, e in zip(seq, exact, strict=True)) / 2
    assert np.array_equal(acc.hconv(np.array(b), np.array(d)), tree)   # 37 <= TREE_CUT


def test_the_gaussian_power_misses_a_few_1e_12() -> None:
    m0 = gauss.window(F(25))
    pld = acc.PairPld(gauss.offset(m0, 1), tuple(gauss.masses(F(25), m0)))
    tree = acc.fpow(pld, 2, 1000, gauss.TAU, tree=True)
    seq = acc.fpow(pld, 2, 1000, gauss.TAU)
    missed_tree = 1 - math.fsum(tree.masses.tolist())
    missed_seq = 1 - math.fsum(seq.masses.tolist())
    assert 0 < missed_tree < 4e-12 and missed_seq > 1e-11
