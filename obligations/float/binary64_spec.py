"""Binary snapping claims: the YAML form and its checks.

    snapping:
      format: binary64
      epsilon: "0.9999999999998666"   # the noise's epsilon: lambda = 1.0/epsilon in binary64
      bound: 100                      # B: inputs and outputs clamped to [-B, B]
      grid: auto                      # Lambda: a rational, or the power of two at or above lambda
      ties: up                        # the rounding to the grid: ties toward +inf (up) or -inf (down)
      log: {correctly_rounded: true}  # or {ulps: k}: the logarithm within k ulps
    claim: {epsilon: "1.000000000001"}

With `calibration: diffprivlib` the epsilon is the one the user passes to diffprivlib's Snapping (B its
scaled bound) and the noise's is diffprivlib's effective_epsilon (epsilon - 2 eta)/(1 + 12 B eta), computed
in binary64 as diffprivlib does (`analysis/diffprivlib_snapping.py`): a claim `epsilon:` equal to the
user's is diffprivlib's promise.  The user's epsilon is read as Python reads the literal given to
diffprivlib: `0.1` is the binary64 number nearest 1/10.

claims that for all binary64 inputs x, x' with |x|, |x'| <= B and |x - x'| <= 1 every output
has Pr[out | x] <= e^epsilon * Pr[out | x'] (the library's `float_snap_dp_tight`, instantiated).
Every number is exact (a rational or a decimal, never evaluated); every problem is a SpecError
naming the file and the field, with the proved range in the message."""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from obligations.analysis.diffprivlib_snapping import effective_epsilon, power_of_two_at_or_above
from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import Dp, Loss
from obligations.core.model import parse
from obligations.core.vocabulary import Number, Strict
from obligations.errors import SpecError

PRECISION = 53
EMIN = -1074
ETA = Fraction(1, 2 ** PRECISION)
NORMAL_MIN = Fraction(1, 2 ** 1022)      # 2^(emin + prec - 1)
# pipeline_ok follows from lambda >= 2^(emin + 2 prec) (SnapPipeline.v): fl(lambda)·LN(u) stays normal
LAM_MIN_EXP = -968
LAM_MIN = Fraction(1, 2 ** -LAM_MIN_EXP)
MIRONOV_SPAN = 46                        # Mironov's range: B < 2^46 * lambda
RANGE_SPAN = Fraction(709)               # below 1022 ln 2 = 708.4..: Hrange needs Lambda below it * lambda
MAX_ULPS = 2 ** 20
TIES = ("up", "down")


class CorrectlyRounded(Strict):
    correctly_rounded: Literal[True] = Field(description="the logarithm is correctly rounded (mu = eta)")


class WithinUlps(Strict):
    ulps: StrictInt = Field(description="k >= 1: the logarithm is within k ulps (mu = 2k*eta/(1 - 2k*eta))")


class SnappingBody(Strict):
    """The floating-point snapping mechanism (Mironov; seed 004 Definition 3) in a binary format."""

    format: StrictStr = Field(description="the float format: binary64")
    epsilon: Number = Field(description="the noise's epsilon > 0 (exact); lambda = 1.0/epsilon in the format")
    bound: Number = Field(description="B > 0: inputs and outputs clamped to [-B, B] (exact)")
    rounding: Literal["exact", "diffprivlib"] = Field(
        "exact", description="the rounding to the grid: exact (Mironov's), or diffprivlib 0.6.6's, with "
        "Python's float % (refuted: it leaves the grid)")
    grid: Number = Field(description="Lambda > 0 (exact), or \"auto\": the power of two at or above lambda")
    calibration: Literal["none", "diffprivlib"] = Field(
        "none", description="none: lambda = 1.0/epsilon; diffprivlib: epsilon is the user's, lambda = "
        "1.0/((epsilon - 2 eta)/(1 + 12 B eta)) in binary64, as diffprivlib 0.6.6 computes it")
    ties: StrictStr = Field(description="the rounding to the grid's ties: up (toward +inf) or down")
    log: CorrectlyRounded | WithinUlps = Field(description="what the logarithm guarantees")


class ClaimForm(Strict):
    epsilon: Number = Field(description="the claimed epsilon >= 0 (exact), for inputs at distance <= 1")


class BinarySnappingFile(Strict):
    """Floating-point snapping in binary64 for all inputs: a claim proved from `float_snap_dp_tight`."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the claim, e.g. diffprivlib_snapping")
    description: str = ""
    snapping: SnappingBody
    claim: ClaimForm


@dataclass(frozen=True)
class BinarySnappingSpec:
    path: str
    sha256: str
    name: str
    description: str
    epsilon: Fraction          # the noise's epsilon as written
    scale: Fraction            # lambda = fl(1/fl(epsilon)), a binary64 number
    bound: Fraction            # B
    grid: Fraction             # Lambda
    grid_auto: bool
    ties: str                  # "up" | "down"
    ulps: int | None        # None: correctly rounded
    loss: Fraction             # the claimed epsilon
    claim_text: str
    rounding: str = "exact"     # "exact" | "diffprivlib"
    user_epsilon: Fraction | None = None   # calibration diffprivlib: the epsilon the user passed
    kind: str = "binary_snapping"
    derived: Mapping[str, Any] | None = None
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()

    @property
    def mu(self) -> Fraction:
        """The logarithm's relative error: eta when correctly rounded; k ulps of a normal
        result are within a relative 2k*eta, and mu = 2k*eta/(1 - 2k*eta) meets 1/(1 + mu)."""
        if self.ulps is None:
            return ETA
        return 2 * self.ulps * ETA / (1 - 2 * self.ulps * ETA)

    @property
    def log_text(self) -> str:
        return "correctly rounded (mu = eta)" if self.ulps is None else f"within {self.ulps} ulp(s)"

    @property
    def epsilon_text(self) -> str:
        """Where lambda comes from: the noise's epsilon, or diffprivlib's calibration of the user's."""
        if self.user_epsilon is None:
            return str(self.epsilon)
        return (f"{float(self.epsilon)!r}, diffprivlib's effective epsilon (eps - 2 eta)/(1 + 12 B eta) in "
                f"binary64 of the user's eps = {_user_text(self.user_epsilon)}")

    @property
    def claim(self) -> Loss:
        return Loss(Dp(self.claim_text, "0", "binary64 inputs |x|, |x'| <= B, |x - x'| <= 1"), "binary_snapping",
                    f"binary64, noise epsilon {self.epsilon_text}, B = {self.bound}, Lambda = {self.grid}, "
                    f"ties {self.ties}, log {self.log_text}", said=self.claim_text)


# diffprivlib's rounding is refuted in Coq (Float/DiffprivlibRound.v) at diffprivlib's own parameters for
# epsilon 1.5, sensitivity 1, bounds [0, nextafter(1.5, 2)]: lambda, B (Lambda = 1).
DIFFPRIVLIB_WITNESS_SCALE = Fraction(6004799503160668, 2 ** 53)
DIFFPRIVLIB_WITNESS_BOUND = Fraction(6755399441055745, 2 ** 53)


def is_binary_snapping(data: Mapping[str, Any]) -> bool:
    return "snapping" in data


TINY = Fraction(1, 2 ** 1074)            # 2^emin, the smallest subnormal


def tight_mu(mu: Fraction) -> Fraction:
    """The noise's own relative error for a float lambda: the product's and the log's."""
    return (1 + ETA) * (1 + mu) - 1


def tight_distance(bound: Fraction, grid: Fraction) -> Fraction:
    """SnapTight.v's tight_D: how far a bucket's threshold can be from an input in [-B, B]."""
    return 2 * bound + grid / 2 + 2 * ETA * (bound + grid / 2) + TINY


def tight_width(bound: Fraction, grid: Fraction) -> Fraction:
    """SnapTight.v's tight_W: the narrowest a bucket's thresholds can be."""
    return grid - 2 * ETA * (2 * bound + grid) - 2 * TINY


def displacement(bound: Fraction, grid: Fraction, mu: Fraction) -> Fraction:
    """The premise Hdisp's left side: tight_mu * tight_D."""
    return tight_mu(mu) * tight_distance(bound, grid)


def choose_delta(bound: Fraction, grid: Fraction, mu: Fraction) -> Fraction:
    """A delta just above the displacement (a hint: Coq checks Hdisp), three significant digits."""
    d = displacement(bound, grid, mu) * Fraction(1001, 1000)
    unit = Fraction(10) ** (3 - math.floor(math.log10(d)))   # exact, whatever the sign of the power
    return Fraction(math.ceil(d * unit)) / unit


def range_limit(scale: Fraction, grid: Fraction, delta: Fraction) -> float:
    """The largest B the premise Hrange allows: tight_D + delta <= 1022 ln 2 * lambda
    (tight_D = 2B + Lambda/2 + 2 eta (B + Lambda/2) + 2^-1074)."""
    return (1022 * math.log(2) * float(scale) - float(grid) / 2 - float(delta)) / (2 + 2 * float(ETA))


def check(data: Any, file: str, sha256: str = "") -> BinarySnappingSpec:
    spec = parse(BinarySnappingFile, data, file)
    Checker(file).name(spec.name)
    body = spec.snapping
    if body.format != "binary64":
        raise SpecError(file, "snapping.format", f"{body.format!r} is not supported: the certificate "
                        "instantiates float_snap_dp_tight at binary64 (precision 53, emin -1074) only")
    if body.ties not in TIES:
        raise SpecError(file, "snapping.ties", f"{body.ties!r} is not a supported tie rule: up (toward +inf, "
                        "diffprivlib's) or down (toward -inf)")
    eps, user, scale = _scale(file, body)
    if scale < LAM_MIN:
        raise SpecError(file, "snapping.epsilon", f"lambda = 1/epsilon = {float(scale)!r} is below 2^-968 = "
                        f"{float(LAM_MIN)!r}: the proved range is lambda >= 2^-968 (so that fl(lambda)·ln(u) "
                        "stays above the smallest normal 2^-1022 at every sample)")
    auto = body.grid == "auto"
    grid = Fraction(power_of_two_at_or_above(float(scale))) if auto else _positive(file, "snapping.grid", body.grid)
    bound = _positive(file, "snapping.bound", body.bound)
    if not math.isfinite(_float(bound)) or not math.isfinite(_float(grid)):
        raise SpecError(file, "snapping.bound" if not math.isfinite(_float(bound)) else "snapping.grid",
                        "outside binary64's range")
    if grid >= RANGE_SPAN * scale:   # checked before any bound is computed from it
        raise SpecError(file, "snapping.grid", f"Lambda = {body.grid} is beyond the proved range: the theorem's "
                        f"premise e^(-(2B + Lambda + delta)/lambda) >= 2^-1022 needs Lambda < 709 * lambda "
                        f"= {float(RANGE_SPAN * scale):.6g} (lambda = {float(scale)!r}; 1022 ln 2 = 708.4)")
    if bound >= 2 ** MIRONOV_SPAN * scale:
        raise SpecError(file, "snapping.bound", f"B = {body.bound} is not below 2^46 * lambda = "
                        f"{float(2 ** MIRONOV_SPAN * scale)!r}: outside Mironov's range lambda < B < 2^46 * lambda")
    ulps = None
    if isinstance(body.log, WithinUlps):
        ulps = body.log.ulps
        if not 1 <= ulps <= MAX_ULPS:
            raise SpecError(file, "snapping.log.ulps", f"ulps = {ulps} must be in [1, {MAX_ULPS}]")
    mu = ETA if ulps is None else 2 * ulps * ETA / (1 - 2 * ulps * ETA)
    delta = choose_delta(bound, grid, mu)
    limit = range_limit(scale, grid, delta)
    if float(bound) > limit * (1 - 1e-9):
        raise SpecError(file, "snapping.bound", f"B = {body.bound} is beyond the proved range: the theorem's "
                        f"premise e^(-(2B + Lambda/2 + delta)/lambda) >= 2^-1022 (every interval of ln u above the "
                        f"smallest normal) allows B up to about {limit:.6g} = {limit / float(scale):.6g} * lambda "
                        f"here (lambda = {float(scale)!r}, Lambda = {float(grid)!r})")
    if not _grid_wide_enough(scale, tight_width(bound, grid), delta):
        raise SpecError(file, "snapping.grid", f"Lambda = {float(grid)!r} is too fine for lambda = "
                        f"{float(scale)!r}: the premise E^2 < e^(W/lambda), W = Lambda - 2 eta (2B + Lambda), "
                        f"E = e^(delta/lambda)/(1 - 2 eta), "
                        f"delta = {float(delta):.3g}, is checked with a factor 2 of margin: Lambda/lambda must "
                        f"exceed {2 * _min_grid_ratio(scale, delta):.3g}")
    claim = _nonnegative(file, "claim.epsilon", spec.claim.epsilon)
    _check_rounding(file, body.rounding, scale, bound, grid, body.ties, ulps)
    return BinarySnappingSpec(path=file, sha256=sha256, name=spec.name, description=spec.description,
                              epsilon=eps, scale=scale, bound=bound, grid=grid, grid_auto=auto, ties=body.ties,
                              ulps=ulps, loss=claim, claim_text=str(spec.claim.epsilon),
                              rounding=body.rounding, user_epsilon=user)


def _scale(file: str, body: SnappingBody) -> tuple[Fraction, Fraction | None, Fraction]:
    """The noise's epsilon, the user's (calibration diffprivlib) and lambda = 1.0/epsilon in binary64."""
    eps = _positive(file, "snapping.epsilon", body.epsilon)
    user = None
    if body.calibration == "diffprivlib":
        user = _as_python_reads(file, eps)
        eps = _diffprivlib_epsilon(file, user, _positive(file, "snapping.bound", body.bound))
    e64 = _float(eps)
    if not math.isfinite(e64) or e64 == 0 or not math.isfinite(1.0 / e64):
        raise SpecError(file, "snapping.epsilon", f"epsilon = {body.epsilon} is outside binary64's range")
    return eps, user, Fraction(1.0 / e64)


def _user_text(u: Fraction) -> str:
    """The user's epsilon as written (1, 1/2), or as Python prints it and exactly (0.1's double)."""
    shown = repr(float(u))
    return str(u) if Fraction(shown) == u else f"{shown} (exactly {u})"


def _as_python_reads(file: str, eps: Fraction) -> Fraction:
    """The user's epsilon as Python reads the literal passed to diffprivlib (`epsilon=0.1`, `1/10`):
    the nearest binary64 number (int/int and decimal literals are correctly rounded there)."""
    f = _float(eps)
    if not math.isfinite(f) or f == 0:
        raise SpecError(file, "snapping.epsilon", f"{eps} is outside binary64's range: with calibration "
                        "diffprivlib it is the Python float diffprivlib is given")
    return Fraction(f)


def _diffprivlib_epsilon(file: str, eps: Fraction, bound: Fraction) -> Fraction:
    """diffprivlib's effective epsilon of the user's (a binary64 number already): B is computed from
    the user's floats there, so it must be a binary64 number here; diffprivlib refuses eps <= 2 eta."""
    f = _float(bound)
    if not math.isfinite(f) or Fraction(f) != bound:
        raise SpecError(file, "snapping.bound", f"{bound} is not a binary64 number (or outside binary64's range): "
                        "with calibration diffprivlib it is the Python float diffprivlib computes")
    if not eps > 2 * ETA:
        raise SpecError(file, "snapping.epsilon", f"{eps} is not above 2 eta = 2^-52: diffprivlib refuses it")
    return Fraction(effective_epsilon(float(eps), float(bound)))


def _check_rounding(file: str, rounding: str, scale: Fraction, bound: Fraction, grid: Fraction, ties: str,
                    ulps: int | None) -> None:
    """diffprivlib's rounding is refuted only at the parameters of the library's witness."""
    at_witness = (scale == DIFFPRIVLIB_WITNESS_SCALE and bound == DIFFPRIVLIB_WITNESS_BOUND and grid == 1
                  and ties == "up" and ulps is None)
    if rounding != "diffprivlib" or at_witness:
        return
    raise SpecError(file, "snapping.rounding", "diffprivlib's rounding (Python's float %) is modelled in Coq "
                    "(Float/DiffprivlibRound.v) and refuted at diffprivlib's parameters for epsilon 1.5, "
                    "sensitivity 1, bounds [0, nextafter(1.5, 2)] only: epsilon 1.4999999999999982 (lambda = "
                    f"{float(DIFFPRIVLIB_WITNESS_SCALE)!r}), bound {float(DIFFPRIVLIB_WITNESS_BOUND)!r}, "
                    "grid auto (Lambda = 1), ties up, a correctly rounded log")


def _float(q: Fraction) -> float:
    try:
        return float(q)
    except OverflowError:
        return math.inf


def _min_grid_ratio(scale: Fraction, delta: Fraction) -> float:
    return 2 * float(delta / scale) - 2 * math.log1p(-2 * float(ETA))


def _grid_wide_enough(scale: Fraction, width: Fraction, delta: Fraction) -> bool:
    # A factor 2 of margin: the interval proof then never runs close to the edge.
    return float(width / scale) > 2 * _min_grid_ratio(scale, delta)


def _number(file: str, field: str, text: Any) -> Fraction:
    try:
        e = E.parse(text)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    v = _exact(e)
    if v is None:
        raise SpecError(file, field, f"{text!r} is not an exact number (a decimal, p/q, or with powers "
                        f"p**k, |k| <= {MAX_POWER})")
    return v


MAX_POWER = 2000   # 2**1023 and 2**-1074 are reachable; nothing huge is built
MAX_BITS = 4096    # numerator and denominator of a power, so no huge literal reaches Coq


def _exact(e: E.Expr) -> Fraction | None:
    """Numbers combined by * / ** (whole exponents): exact, nothing evaluated beyond that."""
    if isinstance(e, E.Num):
        return e.value
    if not isinstance(e, E.BinOp) or e.op not in ("*", "/", "**"):
        return None
    a, b = _exact(e.left), _exact(e.right)
    if a is None or b is None:
        return None
    if e.op == "*":
        return a * b
    if e.op == "/":
        return a / b if b != 0 else None
    if b.denominator != 1 or abs(b) > MAX_POWER or (a == 0 and b < 0) or abs(a.numerator) > 2 ** 64:
        return None
    v = a ** int(b)
    return v if max(v.numerator.bit_length(), v.denominator.bit_length()) <= MAX_BITS else None


def _positive(file: str, field: str, text: Any) -> Fraction:
    v = _number(file, field, text)
    if v <= 0:
        raise SpecError(file, field, f"{text} must be > 0")
    return v


def _nonnegative(file: str, field: str, text: Any) -> Fraction:
    v = _number(file, field, text)
    if v < 0:
        raise SpecError(file, field, f"{text} must be >= 0")
    return v
