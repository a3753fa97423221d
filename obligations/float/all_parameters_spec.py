"""Binary snapping for ALL parameters: the YAML form and its checks.

    snapping:
      format: binary64
      epsilon: any                    # every lambda = 1/epsilon >= 2^-968
      bound: any                      # every B with 0 < B <= 353 lambda
      grid: any                       # every Lambda with lambda <= Lambda <= 2 lambda (auto: the same range,
                                      #   which holds diffprivlib's power of two at or above lambda)
      ties: any                       # every tie rule (or up / down)
      log: {correctly_rounded: true}  # or {ulps: k}
    claim:
      bound: {per_B_over_lambda: 18, constant: 23}

claims the library's closed form (`snap_binary64_dp_tight`, theories/Float/SnapTight64.v): for all
binary64 lambda >= 2^-968, such Lambda, B, real inputs |x|, |x'| <= B and every output,
Pr[out | x] <= e^(|x - x'|/lambda + 18*eta*B/lambda + 23*eta) * Pr[out | x'].  The constants are
exact numbers (never evaluated); every problem is a SpecError naming the file and the field.

With a narrower range, `grid: {min_over_lambda: 19/10}` (rho0*lambda <= Lambda <= 2 lambda) and
`bound: {min_over_lambda: 11}` (beta0*lambda <= B <= 353 lambda), a correctly rounded log, the claim
goes through `snap_binary64_dp_wide_ab` (theories/Float/SnapSeed64.v): the seed's (12, 2) and
Mironov's (16, 0) are proved where the grid is wide.  A range with a log within k ulps goes through
SnapSeedUlps.v's `snap_binary64_dp_wide_ulps_ab` (obligations/float/ulps_range.py), proved where its slope
(4 + 8k)*c reaches, else refuted where the library refutes it (obligations/float/ulps_refuted.py)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

from obligations.core import expr as E
from obligations.core.checker import Checker
from obligations.core.claims import Dp, Loss
from obligations.core.model import parse
from obligations.core.vocabulary import Number, Strict
from obligations.errors import SpecError
from obligations.float.ulps_refuted import refuting_theorem_ulps, witness_of
from obligations.float.wide_grid import binary64_inputs_text, refuting_theorem

ETA = Fraction(1, 2 ** 53)
MAX_ULPS = 2 ** 20            # keeps m = 2k/(1 - 2k eta) below the library's 2^22
B_OVER_LAMBDA = 353           # the library's range 0 < B <= 353 lambda (Hrange)
TIES = ("any", "up", "down")
# The library theorem's constants for a log within m*eta (snap_binary64_dp_tight, SnapTight64.v):
# (9 + 9m) per eta*B/lambda, 18 + 5m per eta.
LIB_A = (9, 9)
LIB_B = (18, 5)
ANY = "any"


class CorrectlyRounded(Strict):
    correctly_rounded: Literal[True] = Field(description="the logarithm is correctly rounded (mu = eta, m = 1)")


class WithinUlps(Strict):
    ulps: StrictInt = Field(description="1 <= k <= 2^20: the logarithm is within k ulps "
                            "(mu = 2k*eta/(1 - 2k*eta))")


class Range(Strict):
    min_over_lambda: Number = Field(description="the range's lower end as a multiple of lambda (exact): "
                                    "grid 1 <= rho0 <= 2, bound 0 < beta0 <= 353")


class AllSnappingBody(Strict):
    """The floating-point snapping mechanism in binary64, every parameter in the proved ranges."""

    format: StrictStr = Field(description="the float format: binary64")
    epsilon: Literal["any"] = Field(description="any: every noise scale lambda = 1/epsilon >= 2^-968")
    bound: Literal["any"] | Range = Field(description="any: every clamp B with 0 < B <= 353 lambda; "
                                          "{min_over_lambda: beta0}: every B with beta0*lambda <= B <= 353 lambda")
    grid: Literal["any", "auto"] | Range = Field(
        description="any (or auto): every Lambda with lambda <= Lambda <= 2 lambda; {min_over_lambda: rho0}: "
        "every Lambda with rho0*lambda <= Lambda <= 2 lambda")
    ties: StrictStr = Field(description="the rounding to the grid's ties: any, up or down")
    log: CorrectlyRounded | WithinUlps = Field(description="what the logarithm guarantees")


class BoundConstants(Strict):
    per_B_over_lambda: Number = Field(description="a: the loss's term a*eta*B/lambda (exact)")
    constant: Number = Field(description="b: the loss's term b*eta (exact)")


class AllClaimForm(Strict):
    bound: BoundConstants = Field(description="the loss |x - x'|/lambda + a*eta*B/lambda + b*eta")


class BinarySnappingAllFile(Strict):
    """Floating-point snapping in binary64 for all parameters: the closed form's constants."""

    schema_version: Literal[1]
    name: str = Field(description="Coq identifier for the claim")
    description: str = ""
    snapping: AllSnappingBody
    claim: AllClaimForm


@dataclass(frozen=True)
class BinarySnappingAllSpec:
    path: str
    sha256: str
    name: str
    description: str
    ties: str                  # "any" | "up" | "down"
    ulps: int | None        # None: correctly rounded
    a: Fraction                # the claim's constant per eta*B/lambda
    b: Fraction                # the claim's constant per eta
    a_text: str
    b_text: str
    grid_text: str
    rho0: Fraction = Fraction(1)      # Lambda >= rho0 * lambda
    beta0: Fraction | None = None     # B >= beta0 * lambda (None: 0 < B)
    kind: str = "binary_snapping_all"
    derived: Mapping[str, Any] | None = None
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()

    @property
    def m(self) -> Fraction:
        """The log's relative error mu as a multiple of eta: 1 when correctly rounded; k ulps
        of a normal result are within 2k*eta/(1 - 2k*eta)."""
        if self.ulps is None:
            return Fraction(1)
        return 2 * self.ulps / (1 - 2 * self.ulps * ETA)

    @property
    def lib_a(self) -> Fraction:
        return LIB_A[0] + LIB_A[1] * self.m

    @property
    def lib_b(self) -> Fraction:
        return LIB_B[0] + LIB_B[1] * self.m

    @property
    def ranged(self) -> bool:
        """A narrower range than the closed form's: the claim goes through SnapSeed64.v."""
        return self.beta0 is not None

    @property
    def range_text(self) -> str:
        grid = "lambda" if self.rho0 == 1 else f"{self.rho0} lambda"
        low = "(0" if self.beta0 is None else f"[{self.beta0} lambda"
        bound = f"{low}, {B_OVER_LAMBDA} lambda]"
        return f"Lambda in [{grid}, 2 lambda], B in {bound}"

    @property
    def log_text(self) -> str:
        return "correctly rounded (mu = eta)" if self.ulps is None else f"within {self.ulps} ulp(s)"

    @property
    def refuted_by(self) -> str | None:
        """The library theorem refuting the claim (the seed's constant with real inputs near
        Lambda = lambda, the seed's or Mironov's at a small clamp: a correctly rounded log, ties up or
        every tie rule; or a log within k ulps), or None."""
        if self.ties not in ("any", "up"):
            return None
        if self.ulps is not None:
            return refuting_theorem_ulps(self.ulps, self.rho0, self.beta0, self.a, self.b)
        return refuting_theorem(self.rho0, self.beta0, self.a, self.b)

    @property
    def claim(self) -> Loss:
        """What the theorem states, in words: the loss with its constant terms, and the ranges."""
        # no format premise on x, x': a proof covers binary64 inputs, a refutation's witness is real
        name = self.refuted_by
        if name is None:
            inputs = "real inputs |x|, |x'| <= B (binary64 inputs among them)"
        elif witness_of(name).floats:
            # the theorem is the negation over real inputs; that the witness's are floats is
            # the library's lemma, not this theorem's statement
            w = witness_of(name)
            inputs = ("real inputs |x|, |x'| <= B (refuted with real inputs; the library's witness has "
                      f"binary64 inputs: {w.file}, {w.format_lemma})")
        else:
            inputs = ("real inputs |x|, |x'| <= B (refuted with real inputs, not binary64 floats: "
                      f"{binary64_inputs_text(self.rho0, self.beta0, self.a, self.b)})")
        return Loss(Dp(self.loss_text, "0", inputs), "binary_snapping_all",
                    f"binary64, every lambda >= 2^-968, {self.range_text}, ties {self.ties}, "
                    f"log {self.log_text}: Pr[out | x] <= "
                    f"e^({self.loss_text}) * Pr[out | x'] for every output, eta = 2^-53", said=f"loss {self.loss_text}")

    @property
    def loss_text(self) -> str:
        """The theorem's bound on the privacy loss between inputs x and x'."""
        return f"|x - x'|/lambda + {self.a_text}*eta*B/lambda + {self.b_text}*eta"


def is_binary_snapping_all(data: Mapping[str, Any]) -> bool:
    """The all-parameters form: a snapping mapping with a parameter `any`, or a claim `bound:`."""
    body = data.get("snapping")
    if not isinstance(body, dict):
        return False
    claim = data.get("claim")
    return any(body.get(k) == ANY or isinstance(body.get(k), dict) for k in ("epsilon", "bound", "grid")) or (
        isinstance(claim, dict) and "bound" in claim)


def check(data: Any, file: str, sha256: str = "") -> BinarySnappingAllSpec:
    _symbolic_parameters(data, file)
    spec = parse(BinarySnappingAllFile, data, file)
    Checker(file).name(spec.name)
    body = spec.snapping
    if body.format != "binary64":
        raise SpecError(file, "snapping.format", f"{body.format!r} is not supported: the closed form "
                        "(snap_binary64_dp_tight) is proved for binary64 (precision 53, emin -1074) only")
    if body.ties not in TIES:
        raise SpecError(file, "snapping.ties", f"{body.ties!r} is not a supported tie rule: any, up (toward "
                        "+inf, diffprivlib's) or down (toward -inf)")
    ulps = None
    if isinstance(body.log, WithinUlps):
        ulps = body.log.ulps
        if not 1 <= ulps <= MAX_ULPS:
            raise SpecError(file, "snapping.log.ulps", f"ulps = {ulps} must be in [1, {MAX_ULPS}] (the closed "
                            "form is proved for a log within m*eta, m <= 2^22)")
    a = _constant(file, "claim.bound.per_B_over_lambda", spec.claim.bound.per_B_over_lambda)
    b = _constant(file, "claim.bound.constant", spec.claim.bound.constant)
    rho0, beta0 = _ranges(file, body)
    grid_text = body.grid if isinstance(body.grid, str) else f"{rho0}*lambda <= Lambda <= 2 lambda"
    return BinarySnappingAllSpec(path=file, sha256=sha256, name=spec.name, description=spec.description,
                                 ties=body.ties, ulps=ulps, a=a, b=b, a_text=str(spec.claim.bound.per_B_over_lambda),
                                 b_text=str(spec.claim.bound.constant), grid_text=grid_text, rho0=rho0, beta0=beta0)


def _ranges(file: str, body: AllSnappingBody) -> tuple[Fraction, Fraction | None]:
    """rho0 and beta0 of a narrower range (SnapSeed64.v's snap64_constant), checked."""
    rho0, beta0 = Fraction(1), None
    if isinstance(body.grid, Range):
        rho0 = _constant(file, "snapping.grid.min_over_lambda", body.grid.min_over_lambda)
        if not 1 <= rho0 <= 2:
            raise SpecError(file, "snapping.grid.min_over_lambda", f"{body.grid.min_over_lambda} must be in [1, 2]: "
                            "the proved grids are rho0*lambda <= Lambda <= 2 lambda with rho0 >= 1")
    if isinstance(body.bound, Range):
        beta0 = _constant(file, "snapping.bound.min_over_lambda", body.bound.min_over_lambda)
        if not 0 < beta0 <= B_OVER_LAMBDA:
            raise SpecError(file, "snapping.bound.min_over_lambda", f"{body.bound.min_over_lambda} must be in "
                            f"(0, {B_OVER_LAMBDA}]: the proved clamps are beta0*lambda <= B <= {B_OVER_LAMBDA} lambda")
    elif isinstance(body.grid, Range):
        raise SpecError(file, "snapping.bound", "with a grid range give the clamp's too, {min_over_lambda: beta0} "
                        f"with 0 < beta0 <= {B_OVER_LAMBDA}: the wide-grid theorems (SnapSeed64.v) hold for "
                        f"beta0*lambda <= B <= {B_OVER_LAMBDA} lambda")
    return rho0, beta0


def _symbolic_parameters(data: Any, file: str) -> None:
    """A concrete number among the parameters: say which form it belongs to."""
    body = data.get("snapping") if isinstance(data, dict) else None
    if not isinstance(body, dict):
        return
    for key, allowed in (("epsilon", ("any",)), ("bound", ("any",)), ("grid", ("any", "auto"))):
        if key in body and body[key] not in allowed and not (key != "epsilon" and isinstance(body[key], dict)):
            raise SpecError(file, f"snapping.{key}", f"{body[key]!r}: in the all-parameters form (a parameter "
                            "`any` or a claim `bound:`) epsilon, bound and grid are `any` (grid also `auto`; "
                            "bound and grid also a range {min_over_lambda: ...}), "
                            "the theorem covers every lambda, Lambda in [lambda, 2 lambda] and B in "
                            f"(0, {B_OVER_LAMBDA} lambda]; concrete numbers take a claim `epsilon:`")


MAX_DIGITS = 40   # a constant's numerator and denominator: no huge literal reaches Coq


def _constant(file: str, field: str, text: Any) -> Fraction:
    """An exact number >= 0: an integer, a decimal or p/q (nothing evaluated)."""
    if isinstance(text, bool):
        raise SpecError(file, field, f"{text!r} is not a number")
    try:
        e = E.parse(text)
    except E.ExprError as exc:
        raise SpecError(file, field, str(exc)) from None
    v: Fraction | None = None
    if isinstance(e, E.Num):
        v = e.value
    elif isinstance(e, E.BinOp) and e.op == "/" and isinstance(e.left, E.Num) and isinstance(e.right, E.Num) \
            and e.right.value != 0:
        v = e.left.value / e.right.value
    if v is None:
        raise SpecError(file, field, f"{text!r} is not an exact number (an integer, a decimal or p/q)")
    if max(len(str(v.numerator)), len(str(v.denominator))) > MAX_DIGITS:
        raise SpecError(file, field, f"{text!r} has more than {MAX_DIGITS} digits")
    if v < 0:
        raise SpecError(file, field, f"{text} must be >= 0")
    return v
