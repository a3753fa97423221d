"""Binary64 snapping (seed 004, Definition 3, U* over every float of (0, 1)) inside the range
λ < B < 2^46·λ quoted for Mironov's theorem, yet not ε′-DP for any ε′: the noise λ·|ln u| is at
most λ·1074·ln 2 (u = 2^−1074), so an output just beyond that distance from x is reachable from
x + 1 (through a subnormal u) and never from x. docs/binary64.md, "What is refuted".  Shown with a
Python model, with the project's bit-exact model of diffprivlib, and with diffprivlib 0.6.6's own
`Snapping.randomise` driven by a scripted random source (skipped when diffprivlib is absent)."""
from __future__ import annotations

import math
from fractions import Fraction

from clients import diffprivlib_snapping

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


class ScriptedBits:
    """diffprivlib's random source (`Snapping._rng`), replaced by a script of (bits, value) draws.

    Every random number `Snapping.randomise` uses comes from `self._rng.getrandbits`: the sign bit,
    then, in `_uniform_sampler`, 52 significand bits and 32-bit chunks until one is nonzero (the
    geometric exponent). Scripting those draws leaves all of diffprivlib's arithmetic in place: its
    assembly of u by `np.ldexp`, its log (`crlibm.log_rn`, else `numpy.log`), the scale, `%` rounding
    to Λ, the clamp and the unscaling. The script must be consumed exactly, in diffprivlib's order."""

    def __init__(self, draws: list[tuple[int, int]]) -> None:
        self.draws = list(draws)

    def getrandbits(self, bits: int) -> int:
        want, value = self.draws.pop(0)
        assert want == bits, f"diffprivlib asked for {bits} bits where the script has {want}"
        return value


def _exponent_draws(sign: int, significand: int, t: int) -> list[tuple[int, int]]:
    """The draws that make diffprivlib's sampler return ldexp(2^52 | significand, -53 - t)."""
    zeros, r = divmod(t, 32)
    return [(1, sign), (52, significand)] + [(32, 0)] * zeros + [(32, 1 << (31 - r))]


def test_diffprivlib_own_code_reaches_an_output_from_one_neighbour_only() -> None:
    """diffprivlib 0.6.6's own `randomise`, ε = 4, bounds [0, 200] (B = 100 ≈ 400λ, Λ = 1/2, inside
    Mironov's range), values 0 and 1 (neighbours at sensitivity 1). With the sign bit 1 and
    u = k·2^−1074, k = 1..4 (the sampler's four smallest positive floats), value 1 outputs 187.0;
    value 0 never does: its largest sum is −100 + λ·1074·ln 2 ≈ 86.11, below 87's bucket [86.75, 87.25)."""
    m = diffprivlib_snapping()(epsilon=4.0, sensitivity=1.0, lower=0.0, upper=200.0)
    scale = 1.0 / m.effective_epsilon()
    grid = m._get_nearest_power_of_2(scale)
    assert m._bound == 100.0 and grid == 0.5 and scale < m._bound < 2.0 ** 46 * scale

    def run(value: float, draws: list[tuple[int, int]]) -> float:
        m._rng = ScriptedBits(draws)
        out = m.randomise(value)
        assert not m._rng.draws
        return out

    for k in (1, 2, 3, 4, 5):
        j = k.bit_length() - 1   # u = k·2^-1074 = (k·2^(52-j))·2^(-1074-52+j), exact
        draws = _exponent_draws(1, (k << (52 - j)) - (1 << 52), 1073 - j)
        m._rng = ScriptedBits(draws[1:])
        assert m._uniform_sampler() == k * math.ldexp(1.0, -1074)
        assert run(1.0, draws) == (187.0 if k <= 4 else 186.5)
        assert run(0.0, draws) == (186.0 if k <= 4 else 185.5)
    # value 0: every positive u of the sampler is >= 2^-1074; the noise is largest there (the log
    # within an ulp, the product rounded: a relative 2^-50 covers both), 0.64 short of the bucket
    largest = -100.0 + scale * 1074 * math.log(2.0) * (1 + 2.0 ** -50)
    assert largest < 86.75 - 0.6
    # the other sign makes the noise negative
    assert run(0.0, _exponent_draws(0, 0, 1073)) == 0.0


def test_diffprivlib_sampler_can_return_zero_and_the_output_is_nan() -> None:
    """Past the subnormals diffprivlib's geometric exponent has no floor: ldexp(2^52, -1127) = 2^-1075
    rounds (to even) to 0, numpy.log(0) = -inf and the output is NaN, from every input alike (so no
    ratio between neighbours, but an output outside [lower, upper]); probability about 2^-1076."""
    m = diffprivlib_snapping()(epsilon=4.0, sensitivity=1.0, lower=0.0, upper=200.0)
    import numpy as np  # diffprivlib's dependency
    m._rng = ScriptedBits(_exponent_draws(1, 0, 1074)[1:])
    assert m._uniform_sampler() == 0.0
    for value in (0.0, 1.0, 200.0):
        m._rng = ScriptedBits(_exponent_draws(1, 0, 1074))
        with np.errstate(divide="ignore", invalid="ignore"):
            assert math.isnan(m.randomise(value))
