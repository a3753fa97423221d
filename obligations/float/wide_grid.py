"""The hints for `snap_binary64_dp_wide_ab` (theories/Float/SnapSeed64.v): for a grid
rho0*lambda <= Lambda <= 2 lambda and a clamp beta0*lambda <= B <= 353 lambda the loss is at most
|x - x'|/lambda + a*eta*B/lambda + b*eta when some r0, c meet

    1.0002 < r0 <= e^(rho0 - 10^-4),   1.0002*(r0 + 1) <= c*(r0 - 1.0002),
    8c <= a,   11c - b <= (a - 8c)*beta0.

Python picks r0 just below e^(rho0 - 10^-4) (Coq checks it with a Taylor bound) and the least c
at six decimals; whether the constants follow is then exact arithmetic, which Coq redoes (lra)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

SLACK = Fraction(10002, 10000)    # the theorem's 1.0002 (the roundings of the threshold's width)
SHIFT = Fraction(1, 10000)        # rho0 - 10^-4: the narrowest bucket's width over lambda
DIGITS = 10 ** 6


@dataclass(frozen=True)
class WideHints:
    """r0 <= e^(rho0 - 10^-4) and the factor c >= SLACK*(r0 + 1)/(r0 - SLACK) it gives."""
    r0: Fraction
    c: Fraction
    exponent: Fraction            # rho0 - 10^-4, the rational Coq's Taylor bound is taken at

    def fits(self, a: Fraction, b: Fraction, beta0: Fraction) -> bool:
        """The constants (a, b) follow for B >= beta0*lambda."""
        return 8 * self.c <= a and 11 * self.c - b <= (a - 8 * self.c) * beta0


def hints(rho0: Fraction) -> WideHints:
    """r0 a thousandth below e^(rho0 - 10^-4) rounded down (the Taylor bound of degree 16 is far
    closer); c the least multiple of 10^-6 at or above SLACK*(r0 + 1)/(r0 - SLACK)."""
    exponent = rho0 - SHIFT
    r0 = Fraction(math.floor(math.exp(exponent) * 1000) - 1, 1000)
    c = Fraction(math.ceil(SLACK * (r0 + 1) / (r0 - SLACK) * DIGITS), DIGITS)
    return WideHints(r0, c, exponent)


def least_beta0(h: WideHints, a: Fraction, b: Fraction) -> Fraction | None:
    """The smallest beta0 at which (a, b) follows (None: the slope 8c is above a)."""
    if 8 * h.c > a or (8 * h.c == a and 11 * h.c > b):
        return None
    if 11 * h.c <= b:
        return Fraction(0)
    return (11 * h.c - b) / (a - 8 * h.c)


# The two refinements (theories/Float/SnapTwoSided64.v, `snap_binary64_two_ab`): hints r0 <= e^(rho0 - 10^-4)
# with r0 > 1.001 and factors k1 >= r0/(r0 - 1 - 10^-12), k2 >= 1/(r0 - 1 - 10^-12); the claim a*beta + b must
# be at or above three forms linear in beta = B/lambda and rho = Lambda/lambda, so at the four corners
# beta in {beta0, 353}, rho in {rho0, 2} (Coq checks the whole range with lra).
TWO_R0_MIN = Fraction(1001, 1000)
TWO_GAP = Fraction(1, 10 ** 12)
TWO_MARGIN = 1 + Fraction(1, 10 ** 6)


@dataclass(frozen=True)
class TwoHints:
    """r0 and the factors k1, k2 of `snap_binary64_two_ab`."""
    r0: Fraction
    k1: Fraction
    k2: Fraction
    exponent: Fraction            # rho0 - 10^-4

    def forms(self, beta: Fraction, rho: Fraction) -> tuple[Fraction, Fraction, Fraction]:
        """two64_tail_lin, two64_inside_lin, two64_clamp_lin at (beta, rho)."""
        tail = (self.k1 * (8 * beta - 2 * rho + 2) + self.k2 * (8 * beta + 2 * rho + 4)) * TWO_MARGIN
        inside = (self.k1 * (4 * beta + 3 * rho + 2) + self.k2 * (4 * beta + 3 * rho + 4)) * TWO_MARGIN
        return tail, inside, (8 * beta + 2 * rho + 2) * TWO_MARGIN

    def fits(self, a: Fraction, b: Fraction, rho0: Fraction, beta0: Fraction) -> bool:
        """a*beta + b above the three forms over beta0 <= beta <= 353, rho0 <= rho <= 2 (beta0 >= 1: the
        theorem's premise); the forms and a*beta + b are linear, so the corners decide."""
        if beta0 < 1 or rho0 < 1:
            return False
        return all(max(self.forms(beta, rho)) <= a * beta + b
                   for beta in (beta0, Fraction(B_TOP)) for rho in (rho0, Fraction(2)))


B_TOP = 353


def two_hints(rho0: Fraction) -> TwoHints | None:
    """r0 a thousandth below e^(rho0 - 10^-4) rounded down (as `hints`), k1, k2 the least multiples of
    10^-6 at or above their bounds; None when r0 is not above 1.001 (the theorem's premise)."""
    exponent = rho0 - SHIFT
    r0 = Fraction(math.floor(math.exp(exponent) * 1000) - 1, 1000)
    if r0 <= TWO_R0_MIN:
        return None
    gap = r0 - 1 - TWO_GAP
    k1 = Fraction(math.ceil(r0 / gap * DIGITS), DIGITS)
    k2 = Fraction(math.ceil(1 / gap * DIGITS), DIGITS)
    return TwoHints(r0, k1, k2, exponent)


# The input inside a bucket piece by piece (theories/Float/SnapTwoSidedPieces64.v,
# `snap_binary64_two_split_ab`): TwoHints' r0, k1, k2, PIECES pieces and L1 > 1.001 with L1^PIECES <= r0;
# a*beta + b must be above the forms of an input outside a bucket (its near end at 2*beta - rho/2 or at beta),
# of the first piece's pair, of the clamp (within one step when beta <= rho, else the far one) and, for each
# piece j < PIECES, of a centre condition (the factors 1/L1^j, 1/L1^(PIECES - j)); all linear in beta and rho
# on each side of beta = rho, so their vertices decide (Coq checks the whole range with lra).  No B >= lambda.
PIECES = 8
PW_CENTRE_C = 4 * (1 + Fraction(1, 10 ** 8))     # U*'s 1/q <= 1 + 4*eta*(1 + 10^-9), over eta, rounded up
PW_ROOM_GAP = 1 + Fraction(1, 10 ** 12)


@dataclass(frozen=True)
class PieceHints:
    """r0, k1, k2 of `TwoHints` and L1 (L1^PIECES <= r0) of `snap_binary64_two_split_ab`."""
    two: TwoHints
    l1: Fraction

    def forms(self, beta: Fraction, rho: Fraction) -> list[tuple[Fraction, Fraction]]:
        """(form, factor) pairs: the claim a*beta + b times the factor must be at least the form."""
        k1, k2, n = self.two.k1, self.two.k2, PIECES
        tail = [(k1 * (4 * nd + 2) + k2 * (8 * beta + 2 * rho + 4)) * TWO_MARGIN for nd in (2 * beta - rho / 2, beta)]
        pair = (k1 * (4 * beta + rho + 2 * rho / n + 2) + k2 * (4 * beta + 3 * rho + 4)) * TWO_MARGIN
        out = [(f, Fraction(1)) for f in [*tail, pair]]
        if beta <= rho:
            out.append(((4 * beta + 2 * rho + 2) * TWO_MARGIN, Fraction(1)))
        if rho <= beta:
            out.append(((8 * beta + 2 * rho + 2) * TWO_MARGIN, Fraction(1)))
        for j in range(1, n):
            fa, fb = 1 / self.l1 ** j, 1 / self.l1 ** (n - j)
            lhs = (fa * (4 * beta + rho + 2 * Fraction(j, n) * rho)
                   + fb * (4 * beta + rho + 2 * Fraction(n - j + 1, n) * rho)) * TWO_MARGIN + PW_CENTRE_C * (fa + fb)
            out.append((lhs, 2 - PW_ROOM_GAP * (fa + fb)))
        return out

    def fits(self, a: Fraction, b: Fraction, rho0: Fraction, beta0: Fraction) -> bool:
        """a*beta + b above every form over beta0 <= beta <= 353, rho0 <= rho <= 2 (beta0 > 0); the vertices of
        both sides of beta = rho are among beta in {beta0, rho0, 2, 353}, rho in {rho0, 2}."""
        if beta0 <= 0 or rho0 < 1:
            return False
        betas = {x for x in (beta0, rho0, Fraction(2), Fraction(B_TOP)) if beta0 <= x <= B_TOP}
        return all(form <= (a * beta + b) * factor
                   for beta in betas for rho in (rho0, Fraction(2)) for form, factor in self.forms(beta, rho))


def piece_hints(rho0: Fraction) -> PieceHints | None:
    """`two_hints` and L1 the largest multiple of 10^-3 with L1^PIECES <= r0 (None: not above 1.001)."""
    two = two_hints(rho0)
    if two is None:
        return None
    l1 = Fraction(math.floor(float(two.r0) ** (1 / PIECES) * 1000), 1000)
    while l1 ** PIECES > two.r0:
        l1 -= Fraction(1, 1000)
    return PieceHints(two, l1) if l1 >= TWO_R0_MIN else None


# SnapSeed64.v's corollaries: (rho0, beta0) of each range the constant is proved in (Lambda <= 2 lambda,
# B <= 353 lambda); the range form reaches any (rho0, beta0) that `least_beta0` allows.
Ranges = tuple[tuple[Fraction, Fraction], ...]
SEED_RANGES: Ranges = ((Fraction(19, 10), Fraction(11)), (Fraction(7, 4), Fraction(22)),
                       (Fraction(33, 20), Fraction(75)))
MIRONOV_RANGES: Ranges = ((Fraction(19, 10), Fraction(3)), (Fraction(3, 2), Fraction(6)),
                          (Fraction(6, 5), Fraction(19)),
                          (Fraction(28, 25), Fraction(91)), (Fraction(111, 100), Fraction(175)))
# SnapTwoSided64.v's corollaries (the two refinements, `snap_binary64_two_ab`): the same constants from
# smaller clamps; the generator reaches them (and any cell `TwoHints.fits` allows) through that theorem.
SEED_RANGES += ((Fraction(19, 10), Fraction(3, 2)), (Fraction(7, 4), Fraction(8, 5)),
                (Fraction(33, 20), Fraction(17, 10)), (Fraction(81, 50), Fraction(9, 5)))
MIRONOV_RANGES += ((Fraction(19, 10), Fraction(11, 10)), (Fraction(7, 4), Fraction(6, 5)),
                   (Fraction(3, 2), Fraction(7, 5)), (Fraction(6, 5), Fraction(2)),
                   (Fraction(23, 20), Fraction(43, 10)), (Fraction(28, 25), Fraction(56, 5)),
                   (Fraction(111, 100), Fraction(43, 2)))
# SnapTwoSidedPieces64.v's corollaries (the input inside a bucket in eight pieces, `snap_binary64_two_split_ab`).
SEED_RANGES += ((Fraction(19, 10), Fraction(4, 5)),)
MIRONOV_RANGES += ((Fraction(19, 10), Fraction(7, 10)),)


# theories/Float/SnapSeedRealRefuted.v: with real inputs, ties up and a correctly rounded log the seed's
# (12, 2) is false near Lambda = lambda; each (rho0, beta0, theorem) refutes snap64_constant r b' 12 2
# for every r <= rho0 and b' <= beta0, and so every smaller constant over a range that holds them.
REFUTED_SEED = ((Fraction(1), Fraction(129), "snap_binary64_seed_constant_real_false"),
                (Fraction(21, 20), Fraction(257), "snap_binary64_seed_constant_real_false_105"))


@dataclass(frozen=True)
class SeedWitness:
    """One witness of SnapSeedRealRefuted.v (a correctly rounded log, real inputs) or SnapUlpsRefuted.v
    (a log within 1 ulp, binary64 inputs): binary64, ties up; the output out*Lambda from two inputs near
    -B.  The probabilities are the exact ones of obligations/analysis/snap_thresholds.py
    (bench/snap_real_inputs.py --check, bench/snap_faithful_witness.py); Coq checks a bracket around
    each (the pipeline run at the four samples that bound the two intervals of u), whose ratio gives an
    excess of at least `coq_excess`*eta against the claim's `seed_excess`*eta (the seed's, or Mironov's
    for the log within 1 ulp)."""
    lam: Fraction
    grid: Fraction
    grid_text: str
    bound: Fraction
    out: int
    x: Fraction
    x_prime: Fraction
    pr_x: Fraction
    pr_x_prime: Fraction
    coq_excess: int
    seed_excess: Fraction
    floats: bool = False          # the inputs are binary64 floats (the log within 1 ulp, the small clamps)
    file: str = "SnapSeedRealRefuted.v"
    log_text: str = "a correctly rounded log"
    claim_text: str = "the seed's 12*eta*B/lambda + 2*eta"
    lam_text: str = "1 - 1048577*2^-53 (a float)"
    out_text: str = ""            # the output in words ("" : out*Lambda)
    format_lemma: str = ""        # the library lemma that the witness's inputs are binary64 floats
    coq_excess_text: str = ""     # what Coq checks, when not a bracket's excess in whole eta

    @property
    def output(self) -> str:
        return self.out_text or f"{self.out}*Lambda"

    @property
    def inputs(self) -> str:
        return "binary64 floats" if self.floats else "real, not binary64 floats"

    def text(self, name: str) -> str:
        kind = "binary64 inputs" if self.floats else "real inputs"
        return (f"witness (Float/{self.file}, {name}): lambda = {self.lam_text}, "
                f"Lambda = {self.grid_text}, B = {self.bound}, ties up, {self.log_text}, the output "
                f"{self.output}, the {kind} x = {self.x} (~ {float(self.x):.6f}) and "
                f"x' = {self.x_prime} (~ {float(self.x_prime):.6f}){'' if self.floats else ', not binary64 floats'}: "
                f"Pr[out | x] = {_pow2(self.pr_x)}, Pr[out | x'] = {_pow2(self.pr_x_prime)} exactly "
                f"(snap_thresholds.py); {self.coq_text} against {self.claim_text} = "
                f"{_eta_text(self.seed_excess)}*eta")

    @property
    def coq_text(self) -> str:
        """What Coq checks of the two probabilities."""
        return self.coq_excess_text or ("Coq brackets both and checks an excess over |x - x'|/lambda of at least "
                                        f"{self.coq_excess}*eta")


def _eta_text(q: Fraction) -> str:
    """An allowance in eta: one decimal (the near-Lambda witnesses' thousands), four digits below 100."""
    return f"{float(q):.1f}" if q >= 100 else f"{float(q):.4g}"


def _pow2(q: Fraction) -> str:
    """p/2^e for a dyadic probability (the denominators have hundreds of digits)."""
    e = q.denominator.bit_length() - 1
    return f"{q.numerator}/2^{e}" if q.denominator == 2 ** e else str(q)


_LAM = Fraction(9007199253692415, 2 ** 53)
SEED_WITNESSES = {
    "snap_binary64_seed_constant_real_false": SeedWitness(
        _LAM, Fraction(1), "1 (the power of two at or above lambda)", Fraction(519, 4), 128,
        Fraction(-667600578954239577719425932922893223, 2 ** 112),
        Fraction(-10725785627697329202128951141300252345, 2 ** 116),
        Fraction(8403188498607257, 2 ** 424), Fraction(4937492309347111, 2 ** 424), 1596,
        12 * Fraction(519, 4) / _LAM + 2),
    "snap_binary64_seed_constant_real_false_105": SeedWitness(
        _LAM, Fraction(21, 20) * _LAM, "1.05 lambda", Fraction(1031, 4), 244,
        Fraction(-2662003362040506043538708153400258853, 2 ** 113),
        Fraction(-10658317048078384677967526071559295433, 2 ** 115),
        Fraction(227812621186773, 2 ** 788), Fraction(11377083504962561, 2 ** 794), 3140,
        12 * Fraction(1031, 4) / _LAM + 2),
}


def _ulps_witness(seed_excess: Fraction, claim_text: str) -> SeedWitness:
    """The witness of theories/Float/SnapUlpsRefuted.v: a log within 1 ulp (lnadv), binary64 inputs."""
    return SeedWitness(
        _LAM, Fraction(21, 20) * _LAM, "1.05 lambda", Fraction(1031, 4), 244,
        Fraction(-4517374001546552, 2 ** 44), Fraction(-4524865066047753, 2 ** 44),
        Fraction(9377076946855139, 2 ** 794), Fraction(12250877311265707, 2 ** 795), 4718, seed_excess,
        floats=True, file="SnapUlpsRefuted.v", claim_text=claim_text, format_lemma="v_x_format",
        log_text="the log lnadv within 1 ulp (ln u rounded down below u2 and from e^(-1025/2) on, up in between)")


SEED_WITNESSES["snap_binary64_mironov_constant_ulp_false"] = _ulps_witness(
    16 * Fraction(1031, 4) / _LAM, "Mironov's 16*eta*B/lambda")
SEED_WITNESSES["snap_binary64_seed_constant_ulp_false"] = _ulps_witness(
    12 * Fraction(1031, 4) / _LAM + 2, "the seed's 12*eta*B/lambda + 2*eta")
ULPS_RANGE = (Fraction(21, 20), Fraction(257))   # SnapUlpsRefuted.v: every rho0 <= 1.05, 0 <= beta0 <= 257


def _small_clamp_witness(bound: Fraction, x: Fraction, x_prime: Fraction, pr_x: Fraction, pr_x_prime: Fraction,
                         seed_excess: Fraction, claim_text: str, prefix: str, excess: str,
                         lam: Fraction | None = None) -> SeedWitness:
    """A witness of theories/Float/SnapSmallClampRefuted.v: lambda ~ 1.921 (or `lam`), Lambda = 2 lambda, the clamped
    output B, binary64 inputs one ulp apart on either side of a step of the sample threshold
    (bench/snap_small_clamp.py)."""
    lam = _SMALL_LAM if lam is None else lam
    return SeedWitness(
        lam, 2 * lam, "2 lambda (so every rho0 <= 2)", bound, 1, x, x_prime, pr_x, pr_x_prime, 0,
        seed_excess, floats=True, file="SnapSmallClampRefuted.v", claim_text=claim_text,
        lam_text=f"{lam.numerator}*2^-{lam.denominator.bit_length() - 1} (~ {float(lam):.4g}, a float)",
        out_text="B (the clamp; B < Lambda/2)",
        format_lemma=f"{prefix}_inputs_format",
        coq_excess_text=(f"Coq checks both exactly (U*'s mass below a float) and so an excess over "
                         f"|x - x'|/lambda of {excess}*eta"))


# theories/Float/SnapSmallClampRefuted.v: small clamps, every grid rho0 <= 2 (the witnesses' Lambda = 2 lambda),
# binary64 inputs: (rho0, top beta0, theorem); the seed's refutes a <= 12, b <= 2, Mironov's a <= 16, b = 0.
# Tried after the near-Lambda refutations (REFUTED_SEED), which the shipped refuted certificates use.
# The first witnesses (B = 3/16, 1/4 lambda) stay first: the shipped refuted certificates use them; the
# wider ones (the seed's to beta0 = 0.245, Mironov's to 1/3) take the ranges between.
REFUTED_SMALL = ((Fraction(2), Fraction(3, 16), "snap_binary64_seed_constant_small_false"),
                 (Fraction(2), Fraction(1, 4), "snap_binary64_mironov_constant_small_false"),
                 (Fraction(2), Fraction(49, 200), "snap_binary64_seed_constant_small_false_245"),
                 (Fraction(2), Fraction(1, 3), "snap_binary64_mironov_constant_small_false_1_3"))
_SMALL_LAM = Fraction(8651856398750854, 2 ** 52)
_SEED_SMALL_B = Fraction(6488892299063141, 2 ** 54)
SEED_WITNESSES["snap_binary64_seed_constant_small_false"] = _small_clamp_witness(
    _SEED_SMALL_B, Fraction(-4510821348273242, 2 ** 54), Fraction(-4510821348273243, 2 ** 54),
    Fraction(5817256560700990, 2 ** 55), Fraction(5817256560700987, 2 ** 55), 12 * _SEED_SMALL_B / _SMALL_LAM + 2,
    "the seed's 12*eta*B/lambda + 2*eta", "sc", "4.38")
SEED_WITNESSES["snap_binary64_mironov_constant_small_false"] = _small_clamp_witness(
    _SMALL_LAM / 4, Fraction(-8057256445428266, 2 ** 54), Fraction(-8057256445428267, 2 ** 54),
    Fraction(5250653986782126, 2 ** 55), Fraction(5250653986782123, 2 ** 55), Fraction(4),
    "Mironov's 16*eta*B/lambda", "mc", "4.89")
_SEED_WIDE_B = Fraction(8478819270775837, 2 ** 54)
SEED_WITNESSES["snap_binary64_seed_constant_small_false_245"] = _small_clamp_witness(
    _SEED_WIDE_B, Fraction(-8433329091849474, 2 ** 54), Fraction(-8433329091849475, 2 ** 54),
    Fraction(5193904976853240, 2 ** 55), Fraction(5193904976853237, 2 ** 55), 12 * _SEED_WIDE_B / _SMALL_LAM + 2,
    "the seed's 12*eta*B/lambda + 2*eta", "sw", "4.94")
_MIRONOV_WIDE_LAM, _MIRONOV_WIDE_B = Fraction(6804446347951172, 2 ** 52), Fraction(4536297565300782, 2 ** 53)
SEED_WITNESSES["snap_binary64_mironov_constant_small_false_1_3"] = _small_clamp_witness(
    _MIRONOV_WIDE_B, Fraction(-8996229157737794, 2 ** 54), Fraction(-8996229157737795, 2 ** 54),
    Fraction(4761885769842980, 2 ** 55), Fraction(4761885769842977, 2 ** 55), 16 * _MIRONOV_WIDE_B / _MIRONOV_WIDE_LAM,
    "Mironov's 16*eta*B/lambda", "mt", "5.34", lam=_MIRONOV_WIDE_LAM)


def refuting_ulps_theorem(rho0: Fraction, beta0: Fraction | None, a: Fraction, b: Fraction) -> str | None:
    """The library theorem refuting the claim (a, b) for a log within k >= 1 ulps (ties up or every
    tie rule): Mironov's form for b = 0 and a <= 16, the seed's for a <= 12, b <= 2."""
    if rho0 > ULPS_RANGE[0] or (beta0 is not None and beta0 > ULPS_RANGE[1]):
        return None
    if b == 0 and a <= 16:
        return "snap_binary64_mironov_constant_ulp_false"
    return "snap_binary64_seed_constant_ulp_false" if a <= 12 and b <= 2 else None


def refuting_range(name: str) -> tuple[Fraction, Fraction]:
    """The theorem's own bounds: it refutes every range with rho0 <= r and 0 <= beta0 <= top."""
    if "_ulp_" in name:
        return ULPS_RANGE
    return next((r, top) for r, top, n in REFUTED_SEED + REFUTED_SMALL if n == name)


def refuting_theorem(rho0: Fraction, beta0: Fraction | None, a: Fraction, b: Fraction) -> str | None:
    """The library theorem refuting the claim (a, b) over rho0*lambda <= Lambda <= 2 lambda and
    beta0*lambda <= B <= 353 lambda (None: 0 < B), for ties up and a correctly rounded log: near
    Lambda = lambda with real inputs (the seed's), else at a small clamp with binary64 inputs (the
    seed's, or Mironov's form with b = 0)."""
    low = Fraction(0) if beta0 is None else beta0
    near = next((name for r, top, name in REFUTED_SEED if a <= 12 and b <= 2 and rho0 <= r and low <= top), None)
    return near if near is not None else small_clamp_theorem(rho0, beta0, a, b)


def small_clamp_theorem(rho0: Fraction, beta0: Fraction | None, a: Fraction, b: Fraction) -> str | None:
    """The theorem of SnapSmallClampRefuted.v refuting the claim with binary64 inputs, if one does."""
    low = Fraction(0) if beta0 is None else beta0
    seed, mironov = a <= 12 and b <= 2, a <= 16 and b == 0
    fits = {name: mironov if name.startswith("snap_binary64_mironov") else seed for _, _, name in REFUTED_SMALL}
    return next((name for r, top, name in REFUTED_SMALL if fits[name] and rho0 <= r and low <= top), None)


def binary64_inputs_text(rho0: Fraction, beta0: Fraction | None, a: Fraction, b: Fraction) -> str:
    """What holds for binary64 inputs when the certificate's witness has real ones."""
    small = small_clamp_theorem(rho0, beta0, a, b)
    if small is None:
        return "for binary64 inputs only the claim is not refuted"
    return (f"for binary64 inputs the claim is false too, at a small clamp: {small} "
            "(theories/Float/SnapSmallClampRefuted.v)")


def refuted_text(name: str) -> str:
    if "_ulp_" in name:
        return (f"it is false: {name} (theories/Float/SnapUlpsRefuted.v) refutes it for a log within 1 ulp "
                "(so within k ulps) with binary64 inputs and ties up")
    if "_small_" in name:
        top = refuting_range(name)[1]
        return (f"it is false: {name} (theories/Float/SnapSmallClampRefuted.v) refutes it at the clamp "
                f"B = {top} lambda (Lambda = 2 lambda) with binary64 inputs one ulp apart and ties up")
    return (f"it is false: {name} (theories/Float/SnapSeedRealRefuted.v) refutes it for real inputs "
            "with ties up")


def _ranges_text(ranges: tuple[tuple[Fraction, Fraction], ...]) -> str:
    return ", ".join(f"Lambda >= {float(r):g} lambda and B >= {b} lambda" for r, b in ranges)


PROVED_RANGES = (f"the seed's (12, 2): {_ranges_text(SEED_RANGES)}; Mironov's (16, 0): "
                 f"{_ranges_text(MIRONOV_RANGES)} (all with Lambda <= 2 lambda, B <= 353 lambda; "
                 "theories/Float/SnapSeed64.v, with the two refinements theories/Float/SnapTwoSided64.v and "
                 "SnapTwoSidedPieces64.v)")


def in_ranges(ranges: tuple[tuple[Fraction, Fraction], ...], rho: Fraction, beta: Fraction) -> bool:
    """Lambda = rho*lambda, B = beta*lambda inside one of the ranges."""
    return rho <= 2 and beta <= 353 and any(rho >= r and beta >= b for r, b in ranges)
