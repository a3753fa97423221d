"""The discrete Gaussian as additive noise (`additive: {discrete_gaussian: {sigma: 5}, ...}`).

Pr[z] = e^(−z²/2σ²) / Σ_y e^(−y²/2σ²) over all of Z (Canonne–Kamath–Steinke), σ rational.
Coq (`theories/Accountant/DGauss.v`, `GaussCheck.v`) proves (ε, δ)-DP of K runs for every pair
of integer inputs at distance at most Δ (`zdp_gauss_acc`) or refutes it with inputs 0 and −t
(`not_zdp_gauss_acc`).  A shift of size t has exact loss keys 2tz + t² (base e^(1/2σ²), stride
2t); the masses are irrational, so Coq takes float lower bounds of them from 70-bit intervals
(GaussMass.v) and raises them to the power K with a tree-summed convolution (TreeConv.v); Python
only approximates those masses (to a few ulps, below them) to choose the claims, with the
accountant's margin.  Template `gauss.v.j2`."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath

from obligations.analysis import accountant as acc

TEMPLATE = Path(__file__).parent / "templates" / "gauss.v.j2"
TAIL_BITS = 110          # the window [−m0, m0] leaves out noise mass below 2^-TAIL_BITS
# Coq's `tau52`: masses below it dropped at the ends of a power's window.  The re-check without a
# VM (coqchk) spends its time in the squarings, whose cost is the square of the window: 2^-52
# makes it 31% shorter than the tables' 2^-100 at 1000 runs of sigma = 5, for about 10^-12 of
# mass dropped.
TAU = 2.0 ** -52


@dataclass(frozen=True)
class GaussKeying(acc.Keying):
    """Keys of the irrational base e^(1/2v): only its logarithm is a number Python uses."""

    log: float = 0.0

    @property
    def log_base(self) -> float:
        return self.log


def window(v: Fraction) -> int:
    """m0 with the tail bound 2·e^(−(m0+1)²/2v)/(1 − e^(−(m0+1)/2v)) below 2^-TAIL_BITS (the
    normaliser is at least 1, so the noise mass outside [−m0, m0] is below it too)."""
    vf = float(v)
    m = 1
    while True:
        n = m + 1
        log_tail = math.log(2) - n * n / (2 * vf) - math.log(-math.expm1(-n / (2 * vf)))
        if log_tail <= -TAIL_BITS * math.log(2):
            return m
        m += 1


# Coq's masses (GaussMass.v's `hmasses`) are 70-bit interval quotients whose lower ends are rounded
# down to binary64 through `iq`: measured 3 to 5 ulps below the nearest float of the exact mass for
# sigma = 5.  Python takes each mass MASS_ULPS ulps below the exact value, below Coq's, so that its
# bracket contains Coq's: a claim it proposes then passes in Coq.
MASS_ULPS = 8


def masses(v: Fraction, m0: int) -> list[Fraction]:
    """Lower estimates of Coq's float lower bounds of the masses over −m0 .. m0 (increasing z):
    the exact masses (40 digits) less MASS_ULPS ulps, as exact fractions of floats."""
    with mpmath.workdps(40):
        two_v = mpmath.mpf(2 * v.numerator) / v.denominator
        kern = {z: mpmath.exp(-mpmath.mpf(z * z) / two_v) for z in range(-m0 - 60, m0 + 61)}
        norm = mpmath.fsum(kern.values())
        out: list[Fraction] = []
        for z in range(-m0, m0 + 1):
            x = float(kern[z] / norm * (1 - MASS_ULPS * mpmath.mpf(2) ** -53))
            out.append(Fraction(max(0.0, math.nextafter(x, -math.inf))))
        return out


def offset(m0: int, t: int) -> int:
    """Coq's `goff m0 t`: the key of z = −m0 for a shift of size t."""
    return t * t - 2 * t * m0


@dataclass
class GaussAccountant:
    """One accountant per shift size t = 1 .. Δ (stride 2t); brackets are the worst over them."""

    parts: dict[int, acc.Accountant]

    @property
    def keying(self) -> acc.Keying:
        return self.parts[1].keying

    def upper(self, eps: float) -> float:
        return max(a.upper(eps) for a in self.parts.values())

    def lower(self, eps: float) -> tuple[float, tuple[int, int]]:
        """The largest lower end and its pair of inputs (0, −t)."""
        best: tuple[float, tuple[int, int]] | None = None
        for t, a in self.parts.items():
            lo, _ = a.lower(eps)
            if best is None or lo > best[0]:
                best = (lo, (0, -t))
        assert best is not None
        return best


def build(v: Fraction, sensitivity: int, runs: int) -> tuple[GaussAccountant, int]:
    m0 = window(v)
    ms = tuple(masses(v, m0))
    log = 1 / (2 * float(v))
    parts: dict[int, acc.Accountant] = {}
    for t in range(1, sensitivity + 1):
        keying = GaussKeying(Fraction(0), 2 * t, True, log)
        pld = acc.PairPld(offset(m0, t), ms)
        parts[t] = acc.Accountant(keying, (runs,), [(pld,)], {(0, -t): (pld,)}, TAU, tree=True).prepare()
    return GaussAccountant(parts), m0


def context(v: Fraction, m0: int) -> dict[str, Any]:
    """What the template needs beyond the claims."""
    return {"v": v, "m0": m0}
