"""Unfold a noise pipeline (seed 000's snapping mechanism) symbolically with sympy.

For each output class, sympy finds the preimage of the output as an interval of
u for each sign S (by inverting the monotone noise map), clips it to (0, 1]
under the case's hypotheses, and gives the output's probability (half the
clipped length per sign).  These are hints: the generated Coq file states the
same intervals and probabilities, and Coq proves every one of them for all
parameter values.  Python only checks that its own case table agrees with the
canonical forms the renderer writes, and picks a numeric witness when the
claim is below the truth.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import sympy
from sympy.printing.str import StrPrinter

from obligations.core import expr as E
from obligations.core.obligation import Verdict
from obligations.errors import InternalError, SpecError
from obligations.noise.spec import PipelineSpec

HALF = sympy.Rational(1, 2)


# The same pipelines are unfolded again and again (prove, check, show, render, verify and
# the tests): the sympy work below is a pure function of hashable sympy expressions, so
# each distinct expression is simplified, solved or tidied once per process.  The results
# are immutable sympy objects; nothing mutable is cached.


@cache
def _simplify(e: sympy.Expr) -> sympy.Expr:
    """sympy.simplify(e), computed once per distinct expression."""
    return sympy.simplify(e)


@dataclass(frozen=True)
class Interval:
    """An interval of u; `hi` may be sympy.oo and `lo` 0 for the tails."""

    lo: sympy.Expr
    hi: sympy.Expr
    lo_closed: bool
    hi_closed: bool

    def text(self, pretty: bool = False) -> str:
        """The interval as sympy prints it (Coq comments), or `pretty` (e for E, e^(x) for exp(x))."""
        if self.lo == 1 and self.hi == 1 and not (self.lo_closed and self.hi_closed):
            return "∅"
        show = math_text if pretty else _show
        return (("[" if self.lo_closed else "(") + show(self.lo) + ", " + show(self.hi)
                + ("]" if self.hi_closed else ")"))


@dataclass(frozen=True)
class Preimage:
    """{u ∈ (0,1] : the mechanism outputs `output` with sign `sign`} = interval ∩ (0, 1]."""

    key: str          # plus, minus, top_plus, ...
    output: str
    sign: int
    interval: Interval


@dataclass(frozen=True)
class Case:
    """One row of the case table: under `condition`, Pr[output] = prob."""

    key: str
    output: str
    condition: str
    clipped: tuple[Interval, Interval]   # S = +1, S = -1, each already ∩ (0, 1]
    prob: sympy.Expr


@dataclass(frozen=True)
class PairCase:
    """Seed 004's case list for neighbours f(a) <= f(a'): one output class, both probabilities."""

    label: str
    p_a: sympy.Expr
    p_a2: sympy.Expr


@dataclass(frozen=True)
class SnapWitness:
    instance: dict[str, str]
    fa: Fraction
    fa2: Fraction
    k: int
    output: str
    p: sympy.Expr
    p2: sympy.Expr
    claim: sympy.Expr
    ratio: sympy.Expr
    case: str = "below"     # below: output lam*k below both buckets; top: the clamped output B
    ceil: int = 0           # top: ceil(B / lam) at the instance (the tail's threshold g)


@dataclass
class SnapUnfold:
    spec: PipelineSpec
    symbols: dict[str, sympy.Expr]
    kappa: sympy.Expr                  # noise = S · kappa · ln u
    rate: sympy.Expr                   # 1 / kappa: the Laplace rate
    rate_named: sympy.Expr             # the same over the parameters' names (numbers kept symbolic)
    truth: sympy.Expr                  # rate · Δ, or rate · min(Δ, 2B) when clamped: the ε the library proves
    preimages: list[Preimage]
    cases: list[Case]
    pair_cases: list[PairCase]
    expected: Verdict                  # proved, refuted or undecided
    witness: SnapWitness | None = None
    notes: list[str] = field(default_factory=list)
    distance: str = "delta"            # the distance the proof uses: "delta" (Δ) or "2B" (clamped, 2B < Δ)


# ---------------------------------------------------------------- symbols


def symbols(spec: PipelineSpec) -> dict[str, sympy.Expr]:
    out: dict[str, sympy.Expr] = {}
    for p in spec.params:
        if p.kind == "positive":
            out[p.name] = sympy.Symbol(p.name, positive=True)
        elif p.kind == "nonnegative":
            out[p.name] = sympy.Symbol(p.name, nonnegative=True)
        else:
            assert p.value is not None
            out[p.name] = sympy.Rational(p.value.numerator, p.value.denominator)
    return out


def to_sym(e: E.Expr, env: dict[str, sympy.Expr]) -> sympy.Expr:
    """The sympy expression of a checked pipeline expression (no eval, no sympify)."""
    if isinstance(e, E.Num):
        return sympy.Rational(e.value.numerator, e.value.denominator)
    if isinstance(e, E.Var):
        return env[e.name]
    if isinstance(e, E.Neg):
        return -to_sym(e.operand, env)
    if isinstance(e, E.BinOp):
        a, b = to_sym(e.left, env), to_sym(e.right, env)
        ops: dict[str, Callable[[sympy.Expr, sympy.Expr], sympy.Expr]] = {
            "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
            "/": lambda x, y: x / y}
        if e.op in ops:
            return ops[e.op](a, b)
        if not b.is_Integer or abs(int(b)) > E.MAX_EXPONENT:
            raise E.ExprError(f"exponent of {E.to_text(e)} must be an integer of at most {E.MAX_EXPONENT}")
        return a ** b
    if isinstance(e, E.Call) and e.fn in ("ln", "exp"):
        a = to_sym(e.args[0], env)
        return sympy.log(a) if e.fn == "ln" else sympy.exp(a)
    raise E.ExprError(f"unexpected expression {E.to_text(e)}")


# ---------------------------------------------------------------- the noise


U = sympy.Symbol("u", positive=True)
FA = sympy.Symbol("fa", real=True)
FA2 = sympy.Symbol("fa'", real=True)
K = sympy.Symbol("k", integer=True)


def noise_map(spec: PipelineSpec, env: dict[str, sympy.Expr], sign: int) -> sympy.Expr:
    y: sympy.Expr = U
    for st in spec.noise:
        if st.op == "ln":
            y = sympy.log(y)
        elif st.op == "exp":
            y = sympy.exp(y)
        elif st.op == "sign":
            y = sign * y
        elif st.op == "scale":
            assert st.arg is not None
            y = to_sym(st.arg, env) * y
        else:
            assert st.arg is not None
            y = y + to_sym(st.arg, env)
    return sympy.expand_log(y, force=True)


def laplace_kappa(spec: PipelineSpec, env: dict[str, sympy.Expr]) -> sympy.Expr:
    """kappa > 0 with noise = S · kappa · ln u, or a SpecError: the Coq library covers
    exactly this (Laplace) noise."""
    plus, minus = noise_map(spec, env, 1), noise_map(spec, env, -1)
    kappa = _simplify(plus / sympy.log(U))
    shape_ok = (U not in kappa.free_symbols and _simplify(plus + minus) == 0
                and kappa.is_positive is True)
    if not shape_ok:
        raise SpecError(spec.path, "pipeline.steps",
                        "the Coq library proves DP for noise S·c·ln(u) with c > 0 (Laplace noise, "
                        f"as in snapping); these steps give {plus} for S = +1 and {minus} for S = -1"
                        + ("" if kappa.is_positive is True or U in kappa.free_symbols
                           else f" (cannot show that {kappa} > 0)"))
    return kappa


@cache
def _inverse(g: sympy.Expr, v: sympy.Expr) -> sympy.Expr:
    """The u with g(u) = v. The noise is a·ln u + b (`laplace_kappa` admits no other), so
    u = exp((v − b)/a), simplified inside and out: the forms `sympy.solve` gave (every
    shipped and test pipeline's preimages compare equal as sympy trees) in a quarter of
    its time; `_check_canonical` compares the result with the library's closed forms."""
    log_u = sympy.log(U)
    a = sympy.expand(g).coeff(log_u)
    b = sympy.expand(g - a * log_u)
    if a == 0 or U in a.free_symbols or U in b.free_symbols:
        sols = sympy.solve(sympy.Eq(g, v), U)
        if len(sols) != 1:
            raise ValueError(f"cannot invert {g}")
        return _simplify(sols[0])
    return _simplify(sympy.exp(_simplify(sympy.expand((v - b) / a))))


# ---------------------------------------------------------------- the case table


def unfold(spec: PipelineSpec) -> SnapUnfold:
    env = symbols(spec)
    kappa = laplace_kappa(spec, env)
    rate = _simplify(1 / kappa)
    lam = to_sym(spec.grid, env)
    delta = to_sym(spec.sensitivity, env)
    if lam.is_positive is not True:
        raise SpecError(spec.path, "pipeline.steps", f"the grid step {lam} must be positive")
    if delta.is_nonnegative is not True:
        raise SpecError(spec.path, "pipeline.sensitivity", f"{delta} must be nonnegative")
    bound = to_sym(spec.out_clamp, env) if spec.out_clamp is not None else None
    if bound is not None and bound.is_positive is not True:
        raise SpecError(spec.path, "pipeline.steps", f"the clamp bound {bound} must be positive")
    up = spec.ties == "up"
    g_plus, g_minus = noise_map(spec, env, 1), noise_map(spec, env, -1)
    c = FA if bound is None else sympy.Symbol("c", real=True)   # c = clamp_B(f(a))
    lo_x, hi_x = (K - HALF) * lam - c, (K + HALF) * lam - c     # x - c ranges over [lo_x, hi_x)
    pre = [
        Preimage("plus", "lam*k", 1, Interval(_inverse(g_plus, lo_x), _inverse(g_plus, hi_x), up, not up)),
        Preimage("minus", "lam*k", -1, Interval(_inverse(g_minus, hi_x), _inverse(g_minus, lo_x), not up, up)),
    ]
    if bound is not None:
        g_top = (sympy.ceiling(bound / lam) - HALF) * lam - c    # round >= ceil(B/lam)
        g_bot = (sympy.floor(-bound / lam) + HALF) * lam - c     # round <= floor(-B/lam)
        pre += [
            Preimage("top_plus", "B", 1, Interval(_inverse(g_plus, g_top), sympy.oo, up, False)),
            Preimage("top_minus", "B", -1, Interval(sympy.Integer(0), _inverse(g_minus, g_top), False, up)),
            Preimage("bot_plus", "-B", 1, Interval(sympy.Integer(0), _inverse(g_plus, g_bot), False, not up)),
            Preimage("bot_minus", "-B", -1, Interval(_inverse(g_minus, g_bot), sympy.oo, not up, False)),
        ]
    cases = _cases(pre, c, lam, bound)
    named = {p.name: sympy.Symbol(p.name, positive=True) if p.kind != "nonnegative" else env[p.name]
             for p in spec.params}
    rate_named = _simplify(1 / laplace_kappa(spec, named))
    # After clamping, c = clamp_B(f(a)) and c' differ by at most min(Δ, 2B) (Clamp.v,
    # clamp_dist_le_2b): with Δ > 2B the sensitivity overstates the distance.
    distance = delta if bound is None else sympy.Min(delta, 2 * bound)
    u = SnapUnfold(spec, env, kappa, rate, rate_named, _simplify(rate * distance), pre, cases,
                   _pair_cases(cases), Verdict.UNDECIDED)
    _check_canonical(u)
    _decide(u, env, lam, delta, bound)
    return u


def _check_canonical(u: SnapUnfold) -> None:
    """The case table must be the closed forms the library's case and preimage lemmas state
    (Noise/SnapCases.v, SnapPreimage.v), which the document writes: else the spec steps
    outside what the library proves, a fault of the tool, not of the spec."""
    env = u.symbols
    lam = to_sym(u.spec.grid, env)
    c = FA if u.spec.out_clamp is None else sympy.Symbol("c", real=True)
    r = u.rate
    lo, hi = (K - HALF) * lam, (K + HALF) * lam
    canonical = {
        "below": HALF * (sympy.exp(r * (hi - c)) - sympy.exp(r * (lo - c))),
        "bucket": HALF * (2 - sympy.exp(r * (lo - c)) - sympy.exp(r * (c - hi))),
        "above": HALF * (sympy.exp(r * (c - lo)) - sympy.exp(r * (c - hi))),
    }
    bound = to_sym(u.spec.out_clamp, env) if u.spec.out_clamp is not None else None
    if bound is not None:
        g = (sympy.ceiling(bound / lam) - HALF) * lam
        gb = (sympy.floor(-bound / lam) + HALF) * lam
        canonical.update({
            "top_far": HALF * sympy.exp(r * (c - g)), "top_near": HALF * (2 - sympy.exp(r * (g - c))),
            "bottom_near": HALF * (2 - sympy.exp(r * (c - gb))), "bottom_far": HALF * sympy.exp(r * (gb - c))})
    pre = {p.key: p.interval for p in u.preimages}
    want = {"plus": (sympy.exp(r * (lo - c)), sympy.exp(r * (hi - c))),
            "minus": (sympy.exp(r * (c - hi)), sympy.exp(r * (c - lo)))}
    for key, expr in canonical.items():
        got = next(x.prob for x in u.cases if x.key == key)
        if _simplify(sympy.expand(got - expr)) != 0:
            raise InternalError(f"case {key}: sympy gives {got}, the template {expr}")
    for key, (a, b) in want.items():
        if _simplify(pre[key].lo - a) != 0 or _simplify(pre[key].hi - b) != 0:
            raise InternalError(f"preimage {key}: sympy gives {pre[key].text()}")


def _cases(pre: list[Preimage], c: sympy.Symbol, lam: sympy.Expr,
           bound: sympy.Expr | None) -> list[Case]:
    """Clip each preimage to (0, 1] under each case's hypothesis.  The hypothesis is encoded
    by substituting c with a point of the case (d, d1, d2 > 0), so that sympy's sign
    reasoning decides which endpoints are <= 1."""
    d, d1, d2 = sympy.symbols("d d1 d2", positive=True)
    by = {p.key: p for p in pre}
    interior = [
        ("below", "(k + 1/2)·Λ <= c", {c: (K + HALF) * lam + d}),
        ("bucket", "(k - 1/2)·Λ < c < (k + 1/2)·Λ", {c: (K - HALF) * lam + lam * d1 / (d1 + d2)}),
        ("above", "c <= (k - 1/2)·Λ", {c: (K - HALF) * lam - d}),
    ]
    out = [_case(key, "lam*k", cond, by["plus"], by["minus"], sub) for key, cond, sub in interior]
    if bound is not None:
        g = (sympy.ceiling(bound / lam) - HALF) * lam
        gb = (sympy.floor(-bound / lam) + HALF) * lam
        out += [
            _case("top_far", "B", "c <= g", by["top_plus"], by["top_minus"], {c: g - d}),
            _case("top_near", "B", "g <= c", by["top_plus"], by["top_minus"], {c: g + d}),
            _case("bottom_near", "-B", "c <= g'", by["bot_plus"], by["bot_minus"], {c: gb - d}),
            _case("bottom_far", "-B", "g' <= c", by["bot_plus"], by["bot_minus"], {c: gb + d}),
        ]
    return out


def _case(key: str, output: str, cond: str, plus: Preimage, minus: Preimage,
          sub: dict[sympy.Symbol, sympy.Expr]) -> Case:
    clipped = (_clip(plus.interval, sub), _clip(minus.interval, sub))
    prob = _simplify(HALF * sum((_length(i) for i in clipped), sympy.Integer(0)))
    return Case(key, output, cond, clipped, prob)


def _below_one(x: sympy.Expr, sub: dict[sympy.Symbol, sympy.Expr]) -> bool | None:
    """Whether the endpoint x is <= 1 (True), >= 1 (False) under the case, or unknown."""
    return _below_one_at(x, tuple(sub.items()))


@cache
def _below_one_at(x: sympy.Expr, sub: tuple[tuple[sympy.Symbol, sympy.Expr], ...]) -> bool | None:
    """_below_one with the case's substitution as a tuple (hashable, so computed once)."""
    if x in (0, sympy.oo):
        return bool(x == 0)
    s = x.subs(dict(sub))
    e = _simplify(sympy.log(s)) if s.is_positive else None
    if e is None:
        return None
    if e.is_nonpositive:
        return True
    if e.is_nonnegative:
        return False
    return None   # sympy cannot tell


def _clip(i: Interval, sub: dict[sympy.Symbol, sympy.Expr]) -> Interval:
    lo_le, hi_le = _below_one(i.lo, sub), _below_one(i.hi, sub)
    if lo_le is None or hi_le is None:
        raise ValueError(f"cannot decide the case for {i.text()}")
    if lo_le is False:                       # starts at or above 1: empty in (0, 1]
        return Interval(sympy.Integer(1), sympy.Integer(1), False, False)
    hi = i.hi if hi_le else sympy.Integer(1)
    return Interval(i.lo, hi, i.lo_closed, i.hi_closed if hi_le else True)


def _length(i: Interval) -> sympy.Expr:
    return i.hi - i.lo


def _pair_cases(cases: list[Case]) -> list[PairCase]:
    """Seed 004's list for f(a) <= f(a'): output classes and both probabilities."""
    by = {c.key: c.prob for c in cases}
    a2 = {FA: FA2, sympy.Symbol("c", real=True): sympy.Symbol("c'", real=True)}

    def at2(e: sympy.Expr) -> sympy.Expr:
        return e.subs(a2)
    rows = []
    if "top_far" in by:
        rows.append(PairCase("x = -B", by["bottom_far"], at2(by["bottom_far"])))
    rows += [
        PairCase("x below ⌊f(a)⌉", by["below"], at2(by["below"])),
        PairCase("x = ⌊f(a)⌉ = ⌊f(a')⌉", by["bucket"], at2(by["bucket"])),
        PairCase("x = ⌊f(a)⌉", by["bucket"], at2(by["below"])),
        PairCase("between", by["above"], at2(by["below"])),
        PairCase("x = ⌊f(a')⌉", by["above"], at2(by["bucket"])),
        PairCase("above", by["above"], at2(by["above"])),
    ]
    if "top_far" in by:
        rows.append(PairCase("x = B", by["top_far"], at2(by["top_far"])))
    return rows


# ---------------------------------------------------------------- the verdict


def _decide(u: SnapUnfold, env: dict[str, sympy.Expr], lam: sympy.Expr, delta: sympy.Expr,
            bound: sympy.Expr | None) -> None:
    claim = to_sym(u.spec.epsilon, env)
    # The library proves rate·Δ (snap_dp_*) and, clamped, rate·2B for any two query
    # values (snap_dp_clamped_2b): a claim at least one of them is proved with it.
    if _simplify(claim - u.rate * delta).is_nonnegative:
        u.expected = Verdict.PROVED
        return
    if bound is not None and _simplify(claim - u.rate * 2 * bound).is_nonnegative:
        u.expected, u.distance = Verdict.PROVED, "2B"
        return
    gap = _simplify(claim - u.truth)
    if gap.is_nonnegative:
        u.notes.append(f"the claim {claim} is at least {u.truth}, but neither at least {u.rate * delta} "
                       f"nor at least {u.rate * 2 * bound} for all parameters (the two cases the "
                       "library proves)")
        return
    ones = {s: sympy.Integer(1) for s in env.values() if isinstance(s, sympy.Symbol)}
    instances = [ones]
    if bound is not None and isinstance(bound, sympy.Symbol):
        # a wide clamp (Δ <= B: the truth is rΔ), else a narrow one (2B < Δ, B = Λ/4 <= g)
        instances = [{**ones, bound: 4 * lam.subs(ones) + 2 * delta.subs(ones)},
                     {**ones, bound: lam.subs(ones) / 4}]
    for instance in instances:
        gap_at = _simplify(gap.subs(instance))
        d_at = _simplify(delta.subs(instance))
        if gap_at.is_negative and d_at.is_positive:
            break
    else:
        u.notes.append(f"cannot show the claim {claim} is at least {u.truth} (what the library proves), "
                       "nor find an instance where it is smaller")
        return
    vals = {k: sympy.nsimplify(v.subs(instance)) for k, v in env.items()}
    lam_at = _simplify(lam.subs(instance))
    b_at = None if bound is None else _simplify(bound.subs(instance))
    if b_at is not None and not (b_at > lam_at and b_at >= d_at):
        _tail_witness(u, instance, vals, claim, lam_at, d_at, b_at)
        return
    # Output k = -1 lies below both buckets for f(a) = 0 and f(a') = Δ: there the ratio is e^{rΔ}.
    below = next(c for c in u.cases if c.key == "below")
    cvar = FA if bound is None else sympy.Symbol("c", real=True)
    p = _simplify(below.prob.subs(instance).subs({K: -1, cvar: 0}))
    p2 = _simplify(below.prob.subs(instance).subs({K: -1, cvar: d_at}))
    claim_at = _simplify(claim.subs(instance))
    u.expected = Verdict.REFUTED
    u.witness = SnapWitness(
        instance={k: str(v) for k, v in vals.items()}, fa=Fraction(0), fa2=Fraction(str(d_at)),
        k=-1, output=str(-lam_at), p=p, p2=p2, claim=claim_at, ratio=_simplify(p / p2))


def _tail_witness(u: SnapUnfold, instance: dict[sympy.Symbol, sympy.Expr], vals: dict[str, sympy.Expr],
                  claim: sympy.Expr, lam_at: sympy.Expr, d_at: sympy.Expr, b_at: sympy.Expr) -> None:
    """The clamped output B for f(a) = B and f(a') = B − D, D = min(Δ, 2B): both clamped
    values lie at or below the tail's threshold g = (⌈B/Λ⌉ − 1/2)·Λ, where
    Pr[B] = e^{r(c − g)}/2, so the ratio is e^{rD}, the truth (used when B < Δ or B <= Λ,
    where the grid output below both buckets does not exist or does not reach it)."""
    m = int(sympy.ceiling(b_at / lam_at))
    g = (m - HALF) * lam_at
    if not b_at <= g:
        u.notes.append(f"no witness: at the instance the clamp bound B = {b_at} lies above the top tail's "
                       f"threshold {g}, and the grid output below both buckets needs B > Λ and B >= Δ")
        return
    dist = sympy.Min(d_at, 2 * b_at)
    top = next(c for c in u.cases if c.key == "top_far")
    cvar = sympy.Symbol("c", real=True)
    p = _simplify(top.prob.subs(instance).subs({cvar: b_at}))
    p2 = _simplify(top.prob.subs(instance).subs({cvar: b_at - dist}))
    u.expected = Verdict.REFUTED
    u.witness = SnapWitness(
        instance={k: str(v) for k, v in vals.items()}, fa=Fraction(str(b_at)), fa2=Fraction(str(b_at - dist)),
        k=0, output=str(b_at), p=p, p2=p2, claim=_simplify(claim.subs(instance)),
        ratio=_simplify(p / p2), case="top", ceil=m)


def _show(e: sympy.Expr) -> str:
    if e == sympy.oo:
        return "∞"
    return str(e)


class _LnPrinter(StrPrinter):  # type: ignore[misc]  # sympy is untyped
    """sympy's text with ln for its log: the one spelling specs, claims and Coq use."""

    def _print_log(self, e: sympy.Expr) -> str:
        return f"ln({self._print(e.args[0])})"


def ln_text(e: sympy.Expr) -> str:
    return str(_LnPrinter().doprint(e))


class _MathPrinter(_LnPrinter):
    """sympy's text with e for E and e^(x) for exp(x), as a reader writes them."""

    def _print_Exp1(self, e: sympy.Expr) -> str:
        return "e"

    def _print_exp(self, e: sympy.Expr) -> str:
        a = e.args[0]
        return "e^" + (self._print(a) if a.is_Symbol or (a.is_Integer and a >= 0) else f"({self._print(a)})")

    def _print_Infinity(self, e: sympy.Expr) -> str:
        return "∞"


def math_text(e: sympy.Expr) -> str:
    return str(_MathPrinter().doprint(e))


@cache
def tidy(e: sympy.Expr) -> sympy.Expr:
    """The shortest to read of e, its simplified, factored and expanded forms (the same value);
    a form that starts with `-(` reads worse than one as long that does not."""
    forms = [e, _simplify(e), sympy.factor(e), sympy.powsimp(sympy.expand(e, power_exp=False))]
    return min(forms, key=lambda f: len(math_text(f)) + (3 if math_text(f).startswith("-(") else 0))


def with_value(e: sympy.Expr) -> str:
    """An exact value, and its decimal when it is a number that is not a plain fraction."""
    text = math_text(tidy(e))
    if e.is_number and not e.is_Rational:
        text += f" ≈ {float(e):.6g}"
    return text


def case_table(u: SnapUnfold) -> str:
    """The case table, in readable math (for `obligations show`)."""
    s, env = u.spec, u.symbols
    lam = to_sym(s.grid, env)
    lines = [f"{s.name}: noise S·({math_text(u.kappa)})·ln u, i.e. Laplace with rate r = {math_text(u.rate)}; "
             f"grid {_named('Λ', s.grid, env)} (ties {s.ties}); "
             + (f"f(a) and the output clamped to [-B, B] with {_named('B', s.out_clamp, env)}; c = clamp_B(f(a))"
                if s.out_clamp is not None else "no clamp; c = f(a)"),
             "parameters: " + _parameters_text(s)]
    lines.append("preimages (u in (0, 1]):")
    for p in u.preimages:
        lines.append(f"  output {p.output:5} S = {p.sign:+d}: u ∈ {p.interval.text(pretty=True)}")
    lines.append("cases (probability = half the clipped length for each sign):")
    if s.out_clamp is not None:
        bound = to_sym(s.out_clamp, env)
        g = (sympy.ceiling(bound / lam) - HALF) * lam
        gb = (sympy.floor(-bound / lam) + HALF) * lam
        up, down = (">=", "<") if s.ties == "up" else (">", "<=")   # where the midpoint g itself rounds
        lines.append(f"  where g = (⌈B/Λ⌉ - 1/2)·Λ{_value(g)}: the output is B iff c + noise {up} g "
                     "(it rounds to ⌈B/Λ⌉·Λ >= B);")
        lines.append(f"        g' = (⌊-B/Λ⌋ + 1/2)·Λ{_value(gb)}: the output is -B iff c + noise {down} g' "
                     "(it rounds to ⌊-B/Λ⌋·Λ <= -B)")
    for c in u.cases:
        lines.append(f"  {c.key:11} {c.condition:32} S=+1: {c.clipped[0].text(pretty=True):40} "
                     f"S=-1: {c.clipped[1].text(pretty=True):40} Pr = {math_text(tidy(c.prob))}")
    dist = "rΔ" if u.spec.out_clamp is None else "r·min(Δ, 2B)"
    lines.append(f"obligations for neighbours c <= c' <= c + Δ (seed 004's cases), each: "
                 f"Pr_a <= e^({dist})·Pr_a' and Pr_a' <= e^({dist})·Pr_a, {dist} = {math_text(u.truth)}:")
    for pc in u.pair_cases:
        lines.append(f"  {pc.label:20} Pr_a = {math_text(tidy(pc.p_a))};  Pr_a' = {math_text(tidy(pc.p_a2))}")
    verdict = {Verdict.PROVED: f"the claim {s.epsilon_text} >= {math_text(u.truth)}: prove",
               Verdict.REFUTED: "the claim is below the truth: refute",
               Verdict.UNDECIDED: "undecided"}[u.expected]
    lines.append("verdict: " + verdict)
    if u.witness:
        lines.append(witness_text(u.witness))
    lines += [f"note: {n}" for n in u.notes]
    return "\n".join(lines)


def witness_text(w: SnapWitness) -> str:
    at = ", ".join(f"{k} = {v}" for k, v in w.instance.items())
    where = "B" if w.case == "top" else f"Λ·({w.k})"
    return (f"witness: at {at}: f(a) = {w.fa}, f(a') = {w.fa2}, output {w.output} (= {where}): "
            f"Pr_a = {with_value(w.p)}, Pr_a' = {with_value(w.p2)}, ratio Pr_a/Pr_a' = {with_value(w.ratio)} "
            f"> e^({math_text(w.claim)}){_approx(sympy.exp(w.claim))}")


def _approx(e: sympy.Expr) -> str:
    return f" ≈ {float(e):.6g}" if e.is_number and not e.is_Rational else ""


def _value(e: sympy.Expr) -> str:
    """ ' = v' when the parameters fix e's value, else nothing."""
    return f" = {math_text(e)}" if e.is_number else ""


def _named(label: str, e: E.Expr, env: dict[str, sympy.Expr]) -> str:
    """`label = expression = value`, without repeats: `Λ = lam = 1/8`, `B = 10` (the spec's B is 10),
    `B a parameter` (B symbolic)."""
    parts = [E.to_text(e), math_text(to_sym(e, env))]
    parts = [p for i, p in enumerate(parts) if p != label and p not in parts[:i]]
    return f"{label} = {' = '.join(parts)}" if parts else f"{label} a parameter"


def _parameters_text(s: PipelineSpec) -> str:
    """Each parameter with its value, or its range when it is symbolic (the claim is for all of them)."""
    parts = []
    for p in s.params:
        if p.value is not None:
            parts.append(f"{p.name} = {p.value}")
        else:
            parts.append(f"{p.name} {'> 0' if p.kind == 'positive' else '>= 0'}")
    return (", ".join(parts) if parts else "none") + (
        "" if all(p.value is not None for p in s.params) else " (symbolic: every value is covered)")
