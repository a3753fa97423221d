"""The seed's constant (12, 2) in the form the Coq statements take (real inputs in [-B, B]) is false
near Lambda = lambda in binary64: bench/snap_real_inputs.py's witness, recomputed exactly (every
threshold walked backwards by analysis/snap_thresholds.py and checked by running the pipeline
forwards at V and succ V), and the same witness within Mironov's (16, 0)."""
from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import mpmath
import pytest

from obligations.analysis import snap_thresholds as T
from obligations.analysis.ustar_snapping import Format, succ

FMT = Format(53, -1074)


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "snap_real_inputs.py"
    spec = importlib.util.spec_from_file_location("snap_real_inputs", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_forward_index_agrees_with_the_thresholds_in_a_small_format() -> None:
    fmt = Format(9, -24)
    mech = T.Mechanism(fmt, Fraction(3, 4), Fraction(1), Fraction(3), "up")
    x = fmt.units(Fraction(-5, 2))
    for k in (1, 2, 3):
        v = mech.chain(x, k, -1).sample
        assert v is not None
        assert T.forward_index(mech, x, v, -1) >= k > T.forward_index(mech, x, succ(v, fmt.prec), -1)


@pytest.mark.parametrize("index, close, far, den, low", [
    (0, 8403188498607257, 4937492309347111, 2 ** 424, 40),     # 1604.03 eta against 1559.0
    (1, 227812621186773 * 2 ** 6, 11377083504962561, 2 ** 794, 50),   # 3148.17 against 3095.0
], ids=["grid_one", "grid_1.05_lambda"])
def test_real_inputs_exceed_the_seed_constant_in_binary64(index: int, close: int, far: int, den: int,
                                                          low: int) -> None:
    b = _bench()
    grid, bound, out, x_close, x_far = b.WITNESSES[index]
    mech = T.Mechanism(FMT, b.LAM, grid, bound, "up")
    assert FMT.round(b.LAM) == b.LAM * FMT.one and b.LAM < grid < 2 * b.LAM
    assert -bound <= x_far < x_close <= bound and abs(out * grid) < bound
    pc = b.forward_prob(mech, int(x_close * FMT.one), out)
    pf = b.forward_prob(mech, int(x_far * FMT.one), out)
    assert (pc * den, pf * den) == (close, far)
    with mpmath.workprec(300):
        excess = (mpmath.log(b.to_mpf(pc / pf)) - b.to_mpf((x_close - x_far) / b.LAM)) * mpmath.mpf(2) ** 53
        beta = b.to_mpf(bound / b.LAM)
        assert 12 * beta + 2 + low < excess < 16 * beta


def test_faithful_tails_bracket_the_correctly_rounded_one() -> None:
    """bench's log within 1 ulp: rounding ln u to nearest gives the thresholds' own tail, rounding down
    (a larger noise) a larger one, rounding up a smaller one; and against the claim at the first
    witness the excess exceeds Mironov's 16*beta as well (2711.9 eta against 2076)."""
    b = _bench()
    grid, bound, out, x_close, x_far = b.WITNESSES[0]
    mech = T.Mechanism(FMT, b.LAM, grid, bound, "up")
    for x in (int(x_close * FMT.one), int(x_far * FMT.one)):
        for k in (out, out + 1):
            rn = b.faithful_tail(mech, x, k, "rn")
            assert rn == Fraction(succ(mech.chain(x, k, -1).sample, 53), FMT.one)
            assert b.faithful_tail(mech, x, k, "up") <= rn <= b.faithful_tail(mech, x, k, "dn")
    xc, xf = int(x_close * FMT.one), int(x_far * FMT.one)
    pc = b.faithful_tail(mech, xc, out, "dn") - b.faithful_tail(mech, xc, out + 1, "up")
    pf = b.faithful_tail(mech, xf, out, "up") - b.faithful_tail(mech, xf, out + 1, "dn")
    with mpmath.workprec(300):
        excess = (mpmath.log(b.to_mpf(pc / pf)) - b.to_mpf((x_close - x_far) / b.LAM)) * mpmath.mpf(2) ** 53
        assert 16 * b.to_mpf(bound / b.LAM) < excess
