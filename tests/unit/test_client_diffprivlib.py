"""diffprivlib's Snapping described in binary64 (`obligations/analysis/diffprivlib_snapping.py`).

The first tests check the description on its own; the rest run diffprivlib's own code (the
optional extra `clients`) and skip with a reason when it cannot be imported.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from clients import diffprivlib_snapping

from obligations.analysis import diffprivlib_snapping as D

PARAMETERS = [  # epsilon, sensitivity, lower, upper
    (1.0, 1.0, 0.0, 100.0),
    (0.5, 2.0, -10.0, 10.0),
    (1.5, 1.0, 0.0, math.nextafter(1.5, 2.0)),
    (0.1, 3.0, -1e6, 1e6),
    (10.0, 0.25, 0.0, 1.0),
    (1e-3, 1.0, 0.0, 1.0),
    (math.log(2), 1.0, -5.5, 7.25),
    (2.0, 1.0, 0.0, 2.0 ** -40),           # B far below λ: outside Mironov's range
    (1.0, 1.0, -1e17, 1e17),               # B far above 2^46·λ
    (0.25, 1.0, -3.0, 5.0),                # 1/ε' just above the power of two 4
]


def test_calibration_known_values() -> None:
    # the figures measured with diffprivlib 0.6.6 (notes/clients.md)
    c = D.calibrate(1.0, 1.0, 0.0, 100.0)
    assert c.bound == 50.0
    assert c.effective_epsilon == 0.9999999999999332
    assert c.grid == 2.0 and c.in_mironov_range()  # λ just above 1: outputs 40, 42, 44


def test_calibration_refuses_tiny_epsilon() -> None:
    with pytest.raises(ValueError, match="twice the machine epsilon"):
        D.calibrate(2 * D.ETA, 1.0, 0.0, 1.0)


def test_mironov_range() -> None:
    assert not D.calibrate(2.0, 1.0, 0.0, 2.0 ** -40).in_mironov_range()
    assert not D.calibrate(1.0, 1.0, -1e17, 1e17).in_mironov_range()
    assert D.calibrate(1.5, 1.0, 0.0, math.nextafter(1.5, 2.0)).in_mironov_range()


def test_power_of_two_at_or_above() -> None:
    assert D.power_of_two_at_or_above(4.0) == 4.0
    assert D.power_of_two_at_or_above(math.nextafter(4.0, 5.0)) == 8.0
    assert D.power_of_two_at_or_above(math.nextafter(4.0, 0.0)) == 4.0
    assert D.power_of_two_at_or_above(0.6666666666666674) == 1.0


def test_float_mod_is_python_mod() -> None:
    rnd = random.Random(7)
    for _ in range(2000):
        x, y = rnd.uniform(-1e3, 1e3), 2.0 ** rnd.randint(-8, 8)
        assert D.float_mod(x, y) == x % y


def test_rounding_leaves_the_grid_at_one_value_per_grid() -> None:
    for grid in (2.0 ** -20, 0.5, 1.0, 8.0):
        v = D.off_grid_input(grid)
        assert D.round_to_grid(v, grid) == grid * 2.0 ** -54
        assert D.exact_round_to_grid(v, grid) == 0
        # its neighbours are rounded exactly, as are values around every other half-multiple
        for k in range(-40, 40):
            w = (k + 0.5) * grid
            for _ in range(4):
                w = math.nextafter(w, -math.inf)
            for _ in range(9):
                if w != v:
                    assert Fraction(D.round_to_grid(w, grid)) == D.exact_round_to_grid(w, grid), (grid, w)
                w = math.nextafter(w, math.inf)


def _log_rn() -> Any:
    diffprivlib_snapping()
    from diffprivlib.mechanisms import snapping
    return snapping.log_rn


@pytest.mark.parametrize("eps,sens,lower,upper", PARAMETERS)
def test_calibration_equals_diffprivlib(eps: float, sens: float, lower: float, upper: float) -> None:
    m = diffprivlib_snapping()(epsilon=eps, sensitivity=sens, lower=lower, upper=upper)
    c = D.calibrate(eps, sens, lower, upper)
    assert m._bound == c.bound
    assert m.effective_epsilon() == c.effective_epsilon
    scale = 1.0 / m.effective_epsilon()
    assert scale == c.scale and m._get_nearest_power_of_2(scale) == c.grid
    for x in (lower, upper, (lower + upper) / 2, math.nextafter(lower, upper), math.nextafter(upper, lower)):
        assert m._truncate(m._scale_and_offset_value(x)) == D.truncate(c, D.scaled_input(c, x))


def test_power_of_two_equals_diffprivlib_on_edges() -> None:
    snap = diffprivlib_snapping()
    for x in (1.0, 0.5, math.nextafter(1.0, 2.0), math.nextafter(1.0, 0.0), 2.0 ** -1022, 1e300,
              3.0, 0.6666666666666674, 2.0 ** 60 + 2.0 ** 8):
        assert snap._get_nearest_power_of_2(x) == D.power_of_two_at_or_above(x), x


@pytest.mark.parametrize("eps,sens,lower,upper", PARAMETERS[:7])
def test_randomise_replays_diffprivlib(eps: float, sens: float, lower: float, upper: float) -> None:
    """diffprivlib's own `randomise`, with its sampler's draws fixed, gives bit for bit the
    description's output; its outputs lie on the Λ grid in [-B, B] (scaled units)."""
    m = diffprivlib_snapping()(epsilon=eps, sensitivity=sens, lower=lower, upper=upper, random_state=11)
    c = D.calibrate(eps, sens, lower, upper)
    log_rn = _log_rn()
    rnd = random.Random(3)
    for _ in range(300):
        x = rnd.uniform(lower - (upper - lower) / 4, upper + (upper - lower) / 4)
        u, bit = m._uniform_sampler(), rnd.getrandbits(1)
        m._uniform_sampler, m._getrandbits = (lambda u=u: u), (lambda bits, bit=bit: bit)
        got = m.randomise(x)
        m._reverse_scale_and_offset_value = lambda v: v
        scaled = m.randomise(x)
        del m._uniform_sampler, m._getrandbits, m._reverse_scale_and_offset_value
        assert got == D.randomise(c, x, bit, float(log_rn(u)))
        assert scaled == D.randomise_scaled(c, x, bit, float(log_rn(u)))
        assert -c.bound <= scaled <= c.bound
        assert scaled in (c.bound, -c.bound) or (Fraction(scaled) / Fraction(c.grid)).denominator == 1


def test_diffprivlib_leaves_the_grid() -> None:
    """Finding (1) replayed with diffprivlib's code: ε = 1.5, Δ = 1, [0, nextafter(1.5, 2)]
    (inside Mironov's range), input 0.7500000000000001, sign bit 0 and u = 0.47236655274101513
    give the scaled output Λ·2^-54, shown as 0.7500000000000002."""
    m = diffprivlib_snapping()(epsilon=1.5, sensitivity=1.0, lower=0.0, upper=math.nextafter(1.5, 2.0))
    c = D.calibrate(1.5, 1.0, 0.0, math.nextafter(1.5, 2.0))
    assert c.in_mironov_range() and c.grid == 1.0
    u = 0.47236655274101513
    m._uniform_sampler, m._getrandbits = (lambda: u), (lambda bits: 0)
    x = m._truncate(m._scale_and_offset_value(0.7500000000000001))
    w = x + (1.0 / m.effective_epsilon()) * m._laplace_sampler(0, u)
    assert w == D.off_grid_input(1.0)
    assert m.randomise(0.7500000000000001) == 0.7500000000000002
