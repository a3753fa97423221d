"""What diffprivlib 0.6.6's `Snapping` mechanism computes, step by step, in binary64.

Python floats are IEEE binary64 with round to nearest even, so each function below performs
exactly the operations diffprivlib performs, in its order (its source:
`diffprivlib/mechanisms/snapping.py`); nothing here imports diffprivlib.  The exact
(`Fraction`) counterparts say what Mironov's mechanism asks for, so the two can be compared.

diffprivlib works in units of the sensitivity, centred on (lower + upper)/2:
B = (upper - lower)/2/Δ, ε' = (ε - 2η)/(1 + 12·B·η) with η = 2^-53 (numpy's `epsneg`),
λ = 1/ε', Λ the power of two at or above λ, ties toward +∞ in the rounding to Λ.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction

ETA = 2.0 ** -53      # numpy.finfo(float).epsneg: the unit roundoff of binary64
MANTISSA_BITS = 52    # numpy.finfo(float).nmant
MIRONOV_SPAN = 46     # Mironov's range: λ < B < 2^46·λ


@dataclass(frozen=True)
class Calibration:
    """The numbers diffprivlib derives from the user's parameters (all binary64)."""

    epsilon: float
    sensitivity: float
    lower: float
    upper: float
    bound: float              # B, in units of the sensitivity
    effective_epsilon: float  # ε'
    scale: float              # λ = 1/ε'
    grid: float               # Λ

    def in_mironov_range(self) -> bool:
        """λ < B < 2^46·λ, the range of Mironov's theorem (diffprivlib does not check it)."""
        return self.scale < self.bound < 2.0 ** MIRONOV_SPAN * self.scale


def scale_bound(lower: float, upper: float, sensitivity: float) -> float:
    """B: half the range, divided by the sensitivity (two roundings; one for Δ = 0)."""
    if sensitivity == 0:
        return (upper - lower) / 2.0
    return (upper - lower) / 2.0 / sensitivity


def effective_epsilon(epsilon: float, bound: float) -> float:
    """ε' = (ε - 2η)/(1 + 12·B·η), each operation rounded, left to right as written."""
    return (epsilon - 2 * ETA) / (1 + 12 * bound * ETA)


def power_of_two_at_or_above(x: float) -> float:
    """Λ: x itself when its significand bits are zero, else the next power of two
    (diffprivlib adds one to the exponent field of the bit pattern)."""
    bits = struct.unpack(">q", struct.pack(">d", x))[0]
    if bits % (1 << MANTISSA_BITS) == 0:
        return x
    return float(struct.unpack(">d", struct.pack(">q", ((bits >> MANTISSA_BITS) + 1) << MANTISSA_BITS))[0])


def calibrate(epsilon: float, sensitivity: float, lower: float, upper: float) -> Calibration:
    """diffprivlib refuses ε ≤ 2η; the sensitivity-0 case adds no noise and has no λ."""
    if not epsilon > 2 * ETA:
        raise ValueError("epsilon must exceed twice the machine epsilon (diffprivlib refuses it)")
    b = scale_bound(lower, upper, sensitivity)
    eps = effective_epsilon(epsilon, b)
    scale = 1.0 / eps
    return Calibration(epsilon, sensitivity, lower, upper, b, eps, scale, power_of_two_at_or_above(scale))


def scaled_input(c: Calibration, value: float) -> float:
    """value/Δ - B - lower/Δ (three roundings), before the clamp to [-B, B]."""
    return value / c.sensitivity - c.bound - c.lower / c.sensitivity


def truncate(c: Calibration, value: float) -> float:
    if value > c.bound:
        return c.bound
    if value < -c.bound:
        return -c.bound
    return value


def float_mod(x: float, y: float) -> float:
    """Python's and numpy's `x % y` for y > 0: `fmod` (exact), then + y when the signs
    differ: that addition is rounded, which is where diffprivlib leaves the grid."""
    r = math.fmod(x, y)
    if r and (r < 0) != (y < 0):
        r += y
    elif not r:
        r = math.copysign(0.0, y)
    return r


def round_to_grid(value: float, grid: float) -> float:
    """diffprivlib's rounding to a multiple of Λ, ties toward +∞, in binary64."""
    remainder = float_mod(value, grid)
    if remainder > grid / 2:
        return value - remainder + grid
    if remainder == grid / 2:
        return value + remainder
    return value - remainder


def exact_round_to_grid(value: float, grid: float) -> Fraction:
    """Mironov's rounding: the multiple of Λ nearest to the real value, ties toward +∞."""
    g = Fraction(grid)
    return math.floor(Fraction(value) / g + Fraction(1, 2)) * g


def noise(c: Calibration, sign_bit: int, log_u: float) -> float:
    """λ ⊗ ((-1)^bit · log u): `log_u` is whatever the logarithm returned (crlibm's
    correctly rounded `log_rn`, or `numpy.log` when crlibm is absent); multiplying by
    (-1)^bit is an exact negation."""
    return c.scale * (-log_u if sign_bit else log_u)


def randomise_scaled(c: Calibration, value: float, sign_bit: int, log_u: float) -> float:
    """The output in scaled units, before diffprivlib maps it back: clamp(round(clamp(x) ⊕ noise))."""
    w = truncate(c, scaled_input(c, value)) + noise(c, sign_bit, log_u)
    return truncate(c, round_to_grid(w, c.grid))


def unscale(c: Calibration, value: float) -> float:
    """(value + B)·Δ + lower: the output the user sees."""
    return (value + c.bound) * c.sensitivity + c.lower


def randomise(c: Calibration, value: float, sign_bit: int, log_u: float) -> float:
    if c.sensitivity == 0:
        return truncate(c, value)
    return unscale(c, randomise_scaled(c, value, sign_bit, log_u))


def off_grid_input(grid: float) -> float:
    """The float just above -Λ/2: `% Λ` rounds its remainder up to exactly Λ/2 (a tie of the
    addition, to even), so the tie branch returns Λ·2^-54 instead of 0 or -Λ."""
    return math.nextafter(-grid / 2, math.inf)
