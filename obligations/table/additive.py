"""Additive noise over Z, infinite support (`additive:` specs): the input plus discrete Laplace
noise with a rational ratio α, or discrete Gaussian noise with a rational σ (gauss.py), run K
times, inputs at distance at most Δ neighbours.

    additive: {discrete_laplace: {alpha: 1/2}, sensitivity: 1, runs: 1000}
    additive: {discrete_gaussian: {sigma: 5}, sensitivity: 1, runs: 1000}
    claim: {epsilon: 300, delta: 1/100}          # or {delta: 1/100000, tolerance: 1/100}

Coq (`theories/Accountant/NoiseBox.v`, `NoiseDP.v`, `NoiseCheck.v`, `DLaplace.v`) proves
(ε, δ)-DP of the untruncated mechanism for every pair of inputs (`zdp_noise_acc`): for each
shift s = x − x' the pair's loss keys (base 1/α) and PLD over a window [−m0, m0] are checked
exactly, the noise outside the window is counted in the missed mass, and the K-fold window in
floats rounded down gives the bound; or refutes it with inputs 0 and −s and the loss event
inside the box [−m0, m0]^K (`not_zdp_noise_acc`).  Template `additive.v.j2`."""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import Field, StrictInt, ValidationError

from obligations import __version__
from obligations.analysis import accountant as acc
from obligations.core import expr as E
from obligations.core.claims import Claim as ClaimOf
from obligations.core.claims import Dp, DpOf
from obligations.core.model import Analysed, Description, Route, Unfolded, Witness
from obligations.core.names import spec_name_problem, text_problem
from obligations.core.obligation import AccountantCheck, Plan, Verdict
from obligations.core.spec import validation_error
from obligations.core.templates import Rendered
from obligations.core.templates import render as render_template
from obligations.core.terms import comment, q_list, q_lit, r_lit
from obligations.core.vocabulary import Number, Strict
from obligations.errors import SpecError
from obligations.table import gauss
from obligations.table.by_accountant import (
    PRELUDE,
    Claim,
    claim_fields,
    claim_item,
    equation_slots,
    profile_claims,
    profile_record,
    profile_theorem,
    refuting_check,
    tolerance_claims,
)
from obligations.table.chosen import Chosen, chosen, describe_plan
from obligations.table.form import Claim as ClaimForm
from obligations.table.tolerance_claim import rational, read_claim

TEMPLATE = Path(__file__).parent / "templates" / "additive.v.j2"
TAIL_BITS = 110          # the window [−m0, m0] leaves out noise mass below 2^-110
MAX_WINDOW = 5000
MAX_RUNS = 1_000_000


class DLaplaceForm(Strict):
    alpha: Number = Field(description="the ratio alpha in (0, 1): Pr[z] = (1 - alpha)/(1 + alpha) * alpha^|z|")


class DGaussForm(Strict):
    sigma: Number = Field(description="sigma > 0, rational: Pr[z] proportional to e^(-z^2 / (2 sigma^2))")


class AdditiveBody(Strict):
    discrete_laplace: DLaplaceForm | None = Field(default=None, description="the noise (one of the two)")
    discrete_gaussian: DGaussForm | None = Field(default=None, description="the noise (one of the two)")
    sensitivity: StrictInt = Field(default=1, ge=1, description="inputs at distance at most this are neighbours")
    runs: StrictInt = Field(default=1, ge=1, description="K >= 1: the claim is about K runs on the same input")


class AdditiveFile(Strict):
    """The input plus discrete Laplace or discrete Gaussian noise over all of Z, run K times."""

    schema_version: Literal[1]
    name: str
    description: str = ""
    additive: AdditiveBody
    claim: ClaimForm


@dataclass(frozen=True)
class AdditiveSpec:
    path: str
    sha256: str
    name: str
    description: str
    alpha: Fraction | None        # the discrete Laplace's ratio, or
    sensitivity: int
    runs: int
    epsilon: E.Expr
    epsilon_text: str
    delta: Fraction
    delta_text: str
    tolerance: Fraction | None = None
    sigma: Fraction | None = None  # the discrete Gaussian's sigma
    kind: str = "additive"
    derived: Mapping[str, Any] | None = None
    profile_epsilons: tuple[str, ...] = ()
    profile_compose: tuple[int, ...] = ()

    @property
    def claim(self) -> ClaimOf:
        return DpOf(Dp(self.epsilon_text, self.delta_text, f"|x - x'| <= {self.sensitivity}"), "additive",
                    f"{self.noise_text}, {self.runs} runs")

    @property
    def noise_text(self) -> str:
        return f"discrete Laplace, alpha = {self.alpha}" if self.sigma is None else \
            f"discrete Gaussian, sigma = {self.sigma}"


def check(data: Mapping[str, Any], file: str, sha256: str) -> AdditiveSpec:
    try:
        form = AdditiveFile.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc, AdditiveFile) from None
    for field, problem in (("name", spec_name_problem(form.name)),
                           ("description", text_problem(form.description, multiline=True))):
        if problem:
            raise SpecError(file, field, problem)
    a = form.additive
    alpha, sigma = _noise(file, a)
    if a.runs > MAX_RUNS:
        raise SpecError(file, "additive.runs", f"{a.runs} runs: at most {MAX_RUNS}")
    c = form.claim
    r = read_claim(file, c, a.runs)
    return AdditiveSpec(file, sha256, form.name, form.description, alpha, a.sensitivity, a.runs, r.eps, r.eps_text,
                        r.delta, str(c.delta), r.tolerance, sigma)


def _noise(file: str, a: AdditiveBody) -> tuple[Fraction | None, Fraction | None]:
    """(alpha, None) for the discrete Laplace, (None, sigma) for the discrete Gaussian."""
    if (a.discrete_laplace is None) == (a.discrete_gaussian is None):
        raise SpecError(file, "additive", "give the noise: discrete_laplace or discrete_gaussian, exactly one")
    if a.discrete_gaussian is not None:
        sigma = rational(file, "additive.discrete_gaussian.sigma", a.discrete_gaussian.sigma)
        if sigma <= 0:
            raise SpecError(file, "additive.discrete_gaussian.sigma", f"sigma = {sigma}: a rational > 0")
        if 2 * gauss.window(sigma * sigma) + 1 > MAX_WINDOW:
            raise SpecError(file, "additive.discrete_gaussian.sigma", f"sigma = {sigma} is so large that the window "
                            f"holding all but 2^-{TAIL_BITS} of the noise has more than {MAX_WINDOW} values")
        return None, sigma
    assert a.discrete_laplace is not None
    alpha = rational(file, "additive.discrete_laplace.alpha", a.discrete_laplace.alpha)
    if not 0 < alpha < 1:
        raise SpecError(file, "additive.discrete_laplace.alpha", f"alpha = {alpha}: a rational in (0, 1)")
    if window(alpha) > MAX_WINDOW:
        raise SpecError(file, "additive.discrete_laplace.alpha", f"alpha = {alpha} is so close to 1 that the window "
                        f"holding all but 2^-{TAIL_BITS} of the noise has more than {MAX_WINDOW} values")
    return alpha, None


def window(alpha: Fraction) -> int:
    """m0 with noise mass 2·α^(m0+1)/(1+α) outside [−m0, m0] below 2^-TAIL_BITS."""
    ln_a = math.log(alpha.numerator) - math.log(alpha.denominator)
    return max(1, math.ceil(TAIL_BITS * math.log(2) / -ln_a))


def win(m: int) -> list[int]:
    """Coq's `win m`: m, −m, m − 1, −(m − 1), ..., 0."""
    out: list[int] = []
    for k in range(m, 0, -1):
        out += [k, -k]
    return out + [0]


def mass(alpha: Fraction, z: int) -> Fraction:
    return (1 - alpha) / (1 + alpha) * alpha ** abs(z)


def shifts(delta: int) -> list[int]:
    return [s for s in win(delta) if s != 0]


def build(spec: AdditiveSpec) -> tuple[acc.Accountant, int, dict[int, acc.PairPld]]:
    """The accountant of the spec: one PLD per shift (exact keys of base 1/α, stride 1)."""
    alpha = spec.alpha
    assert alpha is not None, "the discrete Laplace's"
    m0 = window(alpha)
    keying = acc.Keying(1 / alpha, 1, True)
    zs = win(m0)
    plds = {s: acc.pair_pld(keying, [mass(alpha, z) for z in zs], [mass(alpha, z + s) for z in zs], True)
            for s in shifts(spec.sensitivity)}
    ups: list[acc.Combo] = []
    for pld in plds.values():
        if (pld,) not in ups:
            ups.append((pld,))
    lows: dict[tuple[int, int], acc.Combo] = {(0, -s): (pld,) for s, pld in plds.items()}
    return acc.Accountant(keying, (spec.runs,), ups, lows).prepare(), m0, plds


class ByAdditiveAccountant(Route[AdditiveSpec, Chosen[Any]]):
    name = "by the accountant over Z"

    def analyse(self, spec: AdditiveSpec) -> Analysed[Chosen[Any]]:
        return analyse(spec)

    def render(self, spec: AdditiveSpec, a: Analysed[Chosen[Any]]) -> Rendered:
        return a.mechanism.rendered

    def witness(self, u: Unfolded[AdditiveSpec, Chosen[Any]]) -> Witness | None:
        check = refuting_check(u.plan)
        if check is None:
            return None
        eps, delta = check.refuted[0]
        return {"x": "0", "x_prime": str(check.x2), "runs": check.runs, "delta": str(delta),
                "event": "loss_box: the output vectors in the box where Pr[x] > e^eps * Pr[x']",
                "text": (f"witness: x = 0, x' = {check.x2}, S = the loss event inside the box of the window: "
                         f"Pr[M(x) in S] - e^eps * Pr[M(x') in S] > delta = {delta}")}

    def describe(self, u: Unfolded[AdditiveSpec, Chosen[Any]]) -> Description:
        return describe_plan(u, summary(u.spec))


def summary(spec: AdditiveSpec) -> str:
    return (f"{spec.noise_text}, sensitivity {spec.sensitivity}, {spec.runs} runs, "
            f"claim ({spec.epsilon_text}, {spec.delta_text})-DP")


def is_additive(data: Mapping[str, Any]) -> bool:
    return "additive" in data


BY_ADDITIVE_ACCOUNTANT = ByAdditiveAccountant()


@dataclass(frozen=True)
class Accounting:
    """The spec's noise run K times as the accountant sees it: δ(ε)'s bracket, the accountants
    behind it (one per shift size for the discrete Gaussian), the window and what the keys are."""

    bracketing: acc.Bracketing
    parts: tuple[acc.Accountant, ...]
    m0: int
    plds: dict[int, acc.PairPld]          # the discrete Laplace's PLD per shift (none for the Gaussian)
    gauss: gauss.GaussAccountant | None
    base: Fraction                        # 1/α; the Gaussian's base is irrational: its logarithm 1/2v
    plds_count: int
    keys: str                             # the window and the keys, said


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def accounting(spec: AdditiveSpec, field: str = "additive.runs") -> Accounting:
    """The accountant of the spec, its windows computed (a refusal past the budget names `field`)."""
    if spec.sigma is not None:
        v = spec.sigma * spec.sigma
        g, m0 = _prepared(spec, lambda: gauss.build(v, spec.sensitivity, spec.runs), field)
        keys = (f"window [-{m0}, {m0}] (noise mass outside below 2^-{gauss.TAIL_BITS}, counted as missed mass); "
                f"{_counted(len(g.parts), 'shift size')}, exact loss keys of base e^(1/2v), v = sigma^2 = {v}")
        return Accounting(g, tuple(g.parts.values()), m0, {}, g, 1 / (2 * v), len(g.parts), keys)
    assert spec.alpha is not None
    a, m0, plds = _prepared(spec, lambda: build(spec), field)
    keys = (f"window [-{m0}, {m0}] (noise mass outside below 2^-{TAIL_BITS}, counted as missed mass); "
            f"{_counted(len(plds), 'shift')}, loss keys of base {1 / spec.alpha}")
    return Accounting(a, (a,), m0, plds, None, a.keying.base, len(a.ups), keys)


def analyse(spec: AdditiveSpec) -> Analysed[Chosen[Any]]:
    """The claims (their side of the bracket, the smallest epsilon at delta, or a profile's
    points), the plan, and the document stating them."""
    got = accounting(spec)
    bracketing = got.bracketing
    claims, expected, more = _claims(spec, bracketing)
    notes = [got.keys, *more]
    refuting = [c for c in claims if c.refute]
    x, x2 = bracketing.lower(float(refuting[0].eps))[1] if refuting else (0, -shifts(spec.sensitivity)[0])
    if got.gauss is None and any(bracketing.lower(float(c.eps))[1] != (x, x2) for c in refuting):
        # the discrete Laplace's document refutes with one pair (the largest shift, whose lower end is
        # the largest in every case measured): say so rather than ask Coq for a check that would fail
        raise SpecError(spec.path, "derived claim", "the refuted points need different pairs of inputs")
    check = AccountantCheck(got.base, 1, True, spec.runs, got.plds_count,
                            tuple((c.eps, c.delta) for c in claims if not c.refute),
                            tuple((c.eps, c.delta) for c in refuting), x, x2)
    plan = Plan(expected, (check,), tight_epsilon=None, tight_epsilon_float=math.nan, delta_at_claim=None,
                delta_at_claim_float=bracketing.upper(float(claims[0].eps)), notes=tuple(notes))
    if got.gauss is not None:
        return chosen(got.gauss, plan, _render_gauss(spec, got.gauss, got.m0, claims))
    assert isinstance(bracketing, acc.Accountant)
    return chosen(bracketing, plan, _render(spec, bracketing, got.m0, got.plds, claims, -x2))


def derive_points(spec: AdditiveSpec, name: str, runs: int, points: Any) -> AdditiveSpec:
    """The claim of a profile's certificate (`region --certify`): at each point (ε, up, lo),
    (ε, up)-DP and not (ε, lo)-DP of `runs` runs of the spec's noise (either may be None)."""
    clean, record = profile_record(spec.path, name, runs, points, MAX_RUNS)
    return replace(spec, name=name, runs=runs, epsilon=E.parse(str(clean[0][0])),
                   epsilon_text=f"profile of {len(clean)} points", delta=Fraction(str(clean[0][1] or clean[0][2])),
                   delta_text="per point", tolerance=None, derived=record)


def derive_recorded(spec: AdditiveSpec, derived: Mapping[str, Any]) -> AdditiveSpec:
    """The claim a certificate's `derived` field records: a profile of points."""
    if set(derived) != {"name", "compose", "points"}:
        raise ValueError(f"derived: {sorted(map(str, derived))} is not a profile of this spec "
                         "(which records name, compose, points)")
    return derive_points(spec, str(derived["name"]), int(derived["compose"]), derived["points"])


def points_of(spec: AdditiveSpec) -> Any:
    """A profile's points, or None for a spec's own claim."""
    return spec.derived.get("points") if spec.derived is not None else None


def rational_epsilon(spec: AdditiveSpec) -> Fraction | None:
    """The claim's ε when it is a rational number ≥ 0 (both routes need e^ε from a rational)."""
    value = E.to_sympy(spec.epsilon, {})
    if not value.is_Rational or value < 0:
        return None
    return Fraction(int(value.p), int(value.q))


T = TypeVar("T")


def _prepared(spec: AdditiveSpec, make: Callable[[], T], field: str) -> T:
    """The accountant with its windows computed, or exit 2 naming the runs when they are too many."""
    try:
        return make()
    except acc.AccountantError as exc:
        raise SpecError(spec.path, field, f"{exc}{_renyi_hint(spec)}") from None


def renyi_rho_k(spec: AdditiveSpec) -> Fraction | None:
    """K·ρ = K·Δ²/2σ² of a discrete Gaussian spec (None for the discrete Laplace)."""
    if spec.sigma is None:
        return None
    return spec.runs * Fraction(spec.sensitivity ** 2) / (2 * spec.sigma * spec.sigma)


def renyi_epsilon(rho_k: Fraction, delta: Fraction) -> tuple[float, float]:
    """The least ε at which the Rényi bound e^((a−1)(K·a·ρ − ε)) at a real order a > 1 reaches
    δ < 1, and that order (ρ-zCDP in full; the route proves every ε above it at a rational order
    near it): K·a·ρ + ln(1/δ)/(a − 1) is least at a = 1 + √(ln(1/δ)/Kρ), where it is
    Kρ + 2√(Kρ·ln(1/δ))."""
    log_inv = math.log(delta.denominator) - math.log(delta.numerator)   # exact for any δ
    return float(rho_k) + 2 * math.sqrt(float(rho_k) * log_inv), 1 + math.sqrt(log_inv / float(rho_k))


def _renyi_hint(spec: AdditiveSpec) -> str:
    """For the discrete Gaussian: the least ε the Rényi route proves at the claim's δ, whatever K
    (shown rounded up to six digits)."""
    rho_k = renyi_rho_k(spec)
    if rho_k is None or not 0 < spec.delta < 1 or points_of(spec) is not None:
        return ""
    eps, _ = renyi_epsilon(rho_k, spec.delta)
    scale = 10.0 ** (5 - math.floor(math.log10(eps)))     # six significant digits
    return f"; the Renyi bound proves delta = {spec.delta} for every epsilon above {math.ceil(eps * scale) / scale:.6g}"


def _claims(spec: AdditiveSpec, a: acc.Bracketing) -> tuple[list[Claim], Verdict, list[str]]:
    """The claims Coq is asked to check, the verdict Python expects, and notes."""
    notes: list[str] = []
    points = points_of(spec)
    if points is not None:
        claims = profile_claims(spec.name, points)
        notes.append(f"a profile of {len(points)} points (region --certify): one theorem states them all")
        return claims, Verdict.PROVED, notes
    if spec.tolerance is not None:
        claims, note = tolerance_claims(spec.path, spec.name, spec.delta, spec.tolerance, a, a)
        notes.append(note)
        return claims, Verdict.PROVED, notes
    eps = rational_epsilon(spec)
    if eps is None:
        raise SpecError(spec.path, "claim.epsilon", f"a rational epsilon >= 0 (e^eps is an interval from it), "
                        f"not {E.to_sympy(spec.epsilon, {})}")
    up = a.upper(float(eps)) * (1 + acc.MARGIN) + acc.TINY
    lo, _ = a.lower(float(eps))
    refute = float(spec.delta) < lo * (1 - acc.MARGIN)
    expected = Verdict.REFUTED if refute else (Verdict.PROVED if float(spec.delta) >= up else Verdict.UNDECIDED)
    if spec.delta == 0:
        notes.append(_pure_note(spec, refute))
        expected = Verdict.REFUTED if refute else Verdict.UNDECIDED
    claims = [Claim(eps, spec.delta, refute, r_lit(eps), f"{spec.name}_refuted" if refute else f"{spec.name}_dp",
                    spec.epsilon_text)]
    notes.append(f"delta({eps}) lies in [{lo:.12g}, {up:.12g}] (the accountant's bracket)")
    return claims, expected, notes


def _pure_note(spec: AdditiveSpec, refuted: bool) -> str:
    """What δ = 0 means for the spec's noise, when this route (not the pure-DP one) has it."""
    if spec.sigma is not None:
        return ("delta = 0: the discrete Gaussian is (eps, 0)-DP for no eps (its privacy loss is unbounded: "
                "an output y far from both inputs has ratio e^(Delta*|y|/sigma^2) roughly); "
                + ("refuted by the accountant's lower end of delta(eps), above 0" if refuted else
                   "not refuted here: the accountant's lower end of delta(eps) is 0 in floats at this eps"))
    assert spec.alpha is not None
    pure = spec.runs * spec.sensitivity
    return (f"delta = 0 (pure DP): the exact epsilon is {pure}*ln({1 / spec.alpha}) (K*Delta*ln(1/alpha)), too close "
            "to the claim's for the pure-DP route's Taylor bounds of e^eps; "
            + ("refuted by the accountant's lower end of delta(eps), above 0" if refuted else
               "this route's bound counts the noise outside the window, so it never proves delta = 0"))


def _render_gauss(spec: AdditiveSpec, g: gauss.GaussAccountant, m0: int, claims: list[Claim]) -> Rendered:
    assert spec.sigma is not None
    name = spec.name
    slots, slot = equation_slots(name)
    up_items: list[str] = []
    low_items: list[str] = []
    proved: list[dict[str, Any]] = []
    refuted: list[dict[str, Any]] = []
    for c in claims:
        z0 = acc.pivot_key(g.keying, c.eps)
        if c.refute:
            claim = claim_fields(c, z0, len(low_items), slot)
            claim["t"] = -g.lower(float(c.eps))[1][1]
            low_items.append(f"({claim['t']}%Z, {claim_item(c, z0)[1:]}")
            refuted.append(claim)
        else:
            claim = claim_fields(c, z0, len(up_items), slot)
            up_items.append(claim_item(c, z0))
            proved.append(claim)
    v = spec.sigma * spec.sigma
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), sigma_text=str(spec.sigma), v_text=str(v), v=q_lit(v),
        k=spec.runs, delta_in=spec.sensitivity, m0=m0, up_claims="; ".join(up_items),
        low_claims="; ".join(low_items), refuted=refuted, proved=proved, slots=list(slots.values()),
        profile=_profile(spec, claims))
    return render_template(gauss.TEMPLATE, name, ctx, PRELUDE, _theorems(ctx["profile"], claims))


def _profile(spec: AdditiveSpec, claims: list[Claim]) -> dict[str, str] | None:
    """A profile's one theorem, the conjunction of its points (None for a spec's own claim)."""
    if points_of(spec) is None:
        return None
    return profile_theorem(spec.name, claims,
                           lambda c: f"zdp {spec.name} {spec.sensitivity} {spec.runs} ({c.eps_r}) {r_lit(c.delta)}")


def _theorems(profile: dict[str, str] | None, claims: list[Claim]) -> tuple[str, ...]:
    """What the certificate rests on: the profile's theorem, or every claim's (the main one last)."""
    return (profile["theorem"],) if profile is not None else tuple(c.theorem for c in reversed(claims))


def _render(spec: AdditiveSpec, a: acc.Accountant, m0: int, plds: dict[int, acc.PairPld], claims: list[Claim],
            s: int) -> Rendered:
    assert spec.alpha is not None
    name = spec.name
    slots, slot = equation_slots(name)
    up_items: list[str] = []
    proved: list[dict[str, Any]] = []
    refuted: list[dict[str, Any]] = []
    for c in claims:
        z0 = acc.pivot_key(a.keying, c.eps)
        claim = claim_fields(c, z0, len(up_items), slot)
        if c.refute:
            refuted.append(claim)
        else:
            up_items.append(claim_item(c, z0))
            proved.append(claim)
    lo = plds[s]
    ctx: dict[str, Any] = dict(
        name=name, version=__version__, spec_path=comment(Path(spec.path).name), spec_sha=spec.sha256,
        description=comment(spec.description or name), alpha=q_lit(spec.alpha), alpha_text=str(spec.alpha),
        b=q_lit(1 / spec.alpha), k=spec.runs, delta_in=spec.sensitivity, m0=m0,
        plds="; ".join(f"(({t})%Z, (({p.offset})%Z, {q_list(list(p.masses))}))" for t, p in plds.items()),
        up_claims="; ".join(up_items), refuted=refuted, proved=proved, s=s, s_paren=f"({s})", x2=-s,
        lo=f"(({lo.offset})%Z, {q_list(list(lo.masses))})", slots=list(slots.values()),
        profile=_profile(spec, claims))
    return render_template(TEMPLATE, name, ctx, PRELUDE, _theorems(ctx["profile"], claims))




__all__ = ["BY_ADDITIVE_ACCOUNTANT", "Accounting", "AdditiveSpec", "accounting", "check", "derive_points",
           "derive_recorded", "is_additive", "rational_epsilon", "renyi_epsilon", "renyi_rho_k", "summary"]
