"""Binary64 snapping (seed 004, Definition 3, U* over every float of (0, 1)) inside the range
λ < B < 2^46·λ quoted for Mironov's theorem, yet not ε′-DP for any ε′: the noise λ·|ln u| is at
most λ·1074·ln 2 (u = 2^−1074), so an output just beyond that distance from x is reachable from
x + 1 (through a subnormal u) and never from x. docs/binary64.md, "What is refuted"."""
from __future__ import annotations

import math
from fractions import Fraction

LAM = 0.25  # λ = Λ = 1/ε for ε = 4
GRID = Fraction(1, 4)
B = 100.0  # 400·λ: λ < B < 2^46·λ


def snap(x: float, u: float, sign: float) -> Fraction:
    """clamp_B(⌊x ⊕ s·(λ ⊗ LN u)⌉_Λ) in binary64, the rounding to the grid exact, ties up."""
    w = x + sign * (LAM * math.log(u))
    k = math.floor(Fraction(w) / GRID + Fraction(1, 2))
    return max(Fraction(-B), min(Fraction(B), k * GRID))


def test_an_interior_output_is_reached_from_one_neighbour_only() -> None:
    x, x_prime, target = -100.0, -99.0, Fraction(345, 4)  # 86.25, inside (−B, B)
    smallest = math.ldexp(1.0, -1074)
    # s = −1 makes the noise −λ·ln u ≥ 0; the largest is at the smallest float
    largest_sum = x + LAM * -math.log(smallest)
    assert largest_sum < float(target - GRID / 2)  # x never reaches the bucket of 86.25
    assert snap(x, smallest, -1.0) == target - GRID
    # x + 1 reaches it through subnormal samples u in (e^-741.5, e^-740.5], here 2^-1069
    witness = math.ldexp(1.0, -1069)
    assert snap(x_prime, witness, -1.0) == target
    assert math.exp(-741.5) < witness <= math.exp(-740.5)
    assert LAM < B < 2.0**46 * LAM


def test_diffprivlib_computation_has_the_same_gap() -> None:
    """The bit-exact model of diffprivlib's Snapping (analysis/diffprivlib_snapping.py): ε = 4,
    bounds [0, 200] (B = 100 ≈ 400·λ, inside Mironov's range). Value 1 reaches the scaled
    output 87 through u = 2^−1074; value 0 never gets above 86, whatever u and the sign."""
    from obligations.analysis import diffprivlib_snapping as dp

    c = dp.calibrate(4.0, 1.0, 0.0, 200.0)
    assert c.in_mironov_range()
    smallest = math.log(math.ldexp(1.0, -1074))
    assert dp.randomise_scaled(c, 1.0, 1, smallest) == 87.0
    # the largest noise is at the smallest float; sign bit 0 makes it negative
    assert dp.randomise_scaled(c, 0.0, 1, smallest) == 86.0
    assert dp.randomise_scaled(c, 0.0, 0, smallest) < 0
