"""Which library theorem refutes an all-parameters claim for a log within k ulps, and its witness.

Two witnesses, both with binary64 inputs and ties up:
- theories/Float/SnapUlpsRefuted.v (a log within 1 ulp, so within every k >= 1): Lambda = 1.05 lambda,
  every range with rho0 <= 1.05, beta0 <= 257 (its data in `wide_grid`);
- theories/Float/SnapUlpsKRefuted.v (a log within 2 ulps, so within every k >= 2): Lambda = 2 lambda,
  every range with rho0 <= 2, beta0 <= 257: also where Mironov's (16, 0) is proved for k = 1
  (SnapSeedUlps.v: 1.99 lambda <= Lambda, B >= 95 lambda).  The dependence on k is sharp there.
The one-ulp witness comes first where it reaches, so the certificates made with it keep it."""
from __future__ import annotations

from fractions import Fraction

from obligations.float.wide_grid import SEED_WITNESSES, SeedWitness, refuted_text, refuting_range, refuting_ulps_theorem

_LAM = Fraction(9007199253692415, 2 ** 53)
_BOUND = Fraction(1031, 4)
# SnapUlpsKRefuted.v's theorems: every k >= 2 ulps, rho0 <= 2, 0 <= beta0 <= 257
TWO_ULPS_RANGE = (Fraction(2), Fraction(257))
TWO_ULPS_LOG = ("the log lnadv_k within 2 ulps (below u2: ln u rounded down, then one float further down; from u2 on: "
                "the median of that, F = -4505158664059928*2^-43 and ln u rounded up, then one float further up)")


def _two_ulps_witness(seed_excess: Fraction, claim_text: str) -> SeedWitness:
    """The witness of SnapUlpsKRefuted.v (bench/snap_ulps_witness.py): the probabilities exact for lnadv_k."""
    return SeedWitness(
        _LAM, 2 * _LAM, "2 lambda (so every rho0 <= 2)", _BOUND, 128,
        Fraction(-4521569176915002, 2 ** 44), Fraction(-4527050595619153, 2 ** 44),
        Fraction(38598786972638467, 2 ** 795), Fraction(28265395172392591, 2 ** 795), 5503, seed_excess,
        floats=True, file="SnapUlpsKRefuted.v", claim_text=claim_text, format_lemma="k2_inputs_format",
        log_text=TWO_ULPS_LOG)


TWO_ULPS_WITNESSES = {
    "snap_binary64_mironov_constant_2ulp_false": _two_ulps_witness(16 * _BOUND / _LAM, "Mironov's 16*eta*B/lambda"),
    "snap_binary64_seed_constant_2ulp_false": _two_ulps_witness(12 * _BOUND / _LAM + 2,
                                                                "the seed's 12*eta*B/lambda + 2*eta"),
}


def refuting_theorem_ulps(ulps: int, rho0: Fraction, beta0: Fraction | None, a: Fraction, b: Fraction) -> str | None:
    """The library theorem refuting the claim (a, b) for a log within `ulps` ulps (ties up or every tie
    rule) over rho0*lambda <= Lambda <= 2 lambda, beta0*lambda <= B: Mironov's form for b = 0, a <= 16,
    the seed's for a <= 12, b <= 2."""
    one = refuting_ulps_theorem(rho0, beta0, a, b)
    if one is not None or ulps < 2:
        return one
    if rho0 > TWO_ULPS_RANGE[0] or (beta0 is not None and beta0 > TWO_ULPS_RANGE[1]):
        return None
    if b == 0 and a <= 16:
        return "snap_binary64_mironov_constant_2ulp_false"
    return "snap_binary64_seed_constant_2ulp_false" if a <= 12 and b <= 2 else None


def witness_of(name: str) -> SeedWitness:
    return TWO_ULPS_WITNESSES.get(name) or SEED_WITNESSES[name]


def range_of(name: str) -> tuple[Fraction, Fraction]:
    """The theorem's own bounds: it refutes every range with rho0 <= r and 0 <= beta0 <= top."""
    return TWO_ULPS_RANGE if name in TWO_ULPS_WITNESSES else refuting_range(name)


def least_ulps(name: str) -> int:
    """The fewest ulps the theorem's log needs: it refutes every k from there up to 2^20."""
    return 2 if name in TWO_ULPS_WITNESSES else 1


def text_of(name: str) -> str:
    if name in TWO_ULPS_WITNESSES:
        return (f"it is false: {name} (theories/Float/SnapUlpsKRefuted.v) refutes it for a log within 2 ulps "
                "(so within k >= 2 ulps) at Lambda = 2 lambda with binary64 inputs and ties up")
    return refuted_text(name)
