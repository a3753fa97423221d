"""Small clamps: bench/snap_small_clamp.py's four witnesses (theories/Float/SnapSmallClampRefuted.v)
recomputed exactly: binary64 float inputs one ulp apart, the clamped output B at lambda ~ 1.921, Lambda = 2 lambda;
every probability from the thresholds walked backwards and the pipeline run forwards at V and succ V.
The probabilities are the ones Coq bounds (Pr[B | x] = succ u1 / 2, Pr[B | x'] = u3 / 2), and the
excess is above the seed's 2*eta + 12*eta*B/lambda at B ~ 3 lambda/16 (and 0.245 lambda) and Mironov's
16*eta*B/lambda at B = lambda/4 (and lambda/3, at lambda ~ 1.511)."""
from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from obligations.analysis import snap_thresholds as T
from obligations.analysis.ustar_snapping import Format, pred

FMT = Format(53, -1074)


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "snap_small_clamp.py"
    spec = importlib.util.spec_from_file_location("snap_small_clamp", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("index, close, far, margin", [
    (0, 5817256560700990, 5817256560700987, Fraction(1, 10)),    # Coq's sc_u1 + 2^-54 and sc_u3, in 2^-54
    (1, 5250653986782126, 5250653986782123, Fraction(1, 10)),    # mc_u1 + 2^-54 and mc_u3
    (2, 5193904976853240, 5193904976853237, Fraction(1, 1000)),  # sw_*: 4.9423 eta against 4.9400
    (3, 4761885769842980, 4761885769842977, Fraction(1, 200)),   # mt_* (lambda ~ 1.511): 5.3436 eta against 5.3333
], ids=["seed_B_3_16", "mironov_B_1_4", "seed_B_0_245", "mironov_B_1_3"])
def test_a_step_of_the_clamped_output_exceeds_the_constant(index: int, close: int, far: int,
                                                           margin: Fraction) -> None:
    b = _bench()
    lam, (bound, x, x_far, a, c) = (b.LAM, b.WITNESSES[index]) if index < 3 else (b.LAM_MT, b.WITNESS_MT)
    mech = T.Mechanism(FMT, lam, 2 * lam, bound, "up")
    assert FMT.round(lam) == lam * FMT.one and FMT.round(bound) == bound * FMT.one
    xi, fi = int(x * FMT.one), int(x_far * FMT.one)
    assert FMT.round(x) == xi and FMT.round(x_far) == fi and pred(xi, FMT.prec) == fi
    assert -bound <= x_far < x <= bound
    assert (b.checked_top_prob(mech, xi), b.checked_top_prob(mech, fi)) == \
        (Fraction(close, 2 ** 55), Fraction(far, 2 ** 55))
    allowed = a * bound / lam + c
    assert allowed + margin < b.excess_eta(mech, xi, fi) < allowed + 1


@pytest.mark.parametrize("index, margin", [(0, Fraction(1, 100)), (1, Fraction(1, 100)), (2, Fraction(1, 100)),
                                           (3, Fraction(1, 200))],
                         ids=["mironov_floats_0_38", "seed_floats_0_34", "mironov_reals_0_415", "seed_reals_0_3875"])
def test_a_pair_several_steps_apart_exceeds_the_constant_further(index: int, margin: Fraction) -> None:
    """`small_clamp_false_g`'s witnesses: the pair pays its distance over lambda (several floats of the noise
    threshold) and collects the log's and U*'s roundings over as many steps; B a float at or above beta0*lambda
    and |x'|, below Lambda/2; the floats' pair is binary64, the reals' 2^-110 off the steps."""
    b = _bench()
    _, lam, bound, x, x_far, a, c, beta0, floats, close, far = b.WITNESSES_PAIRS[index]
    mech = T.Mechanism(FMT, lam, 2 * lam, bound, "up")
    assert FMT.round(lam) == lam * FMT.one and FMT.round(bound) == bound * FMT.one
    assert -bound <= x_far < x < 0 and beta0 * lam <= bound < lam
    xi, fi = int(x * FMT.one), int(x_far * FMT.one)
    assert (FMT.round(x) == xi and FMT.round(x_far) == fi) == floats
    assert (b.checked_top_prob(mech, xi), b.checked_top_prob(mech, fi)) == \
        (Fraction(close, 2 ** 55), Fraction(far, 2 ** 55))
    allowed = a * bound / lam + c
    assert allowed + margin < b.excess_eta(mech, xi, fi) < allowed + 1
    # more than one step apart (x''s noise threshold beyond x's by more than one float), and above what any single
    # step at x's distance gives to first order (bench's cap_eta: three floats of U* at most, 1.5 eta/u)
    assert mech.chain(fi, 1, -1).noise < pred(mech.chain(xi, 1, -1).noise, FMT.prec)
    assert b.excess_eta(mech, xi, fi) > b.cap_eta(float(-x / lam))
