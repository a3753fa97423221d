"""A family spec analysed: which library family its formula is, whether its constraints
keep the parameters where the library's theorem holds, and whether the claimed ε is the
family's (a proof for all parameters) or below it somewhere (a refutation at a numeric
instance, with its witness from the finite analysis)."""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import sympy

from obligations.analysis import families as F
from obligations.analysis.finite import FiniteMechanism, plan, tabulate
from obligations.core import expr as E
from obligations.core.obligation import Plan, Verdict
from obligations.core.spec import Domain, MechanismSpec
from obligations.errors import SpecError
from obligations.table.family_spec import FamilySpec

MAX_SAMPLES = 12
MAX_INSTANCE_ENTRIES = 40_000   # the table of an instance where a refutation is shown


@dataclass(frozen=True)
class FamilyAnalysis:
    spec: FamilySpec
    match: F.Match
    tight: sympy.Expr                         # the family's ε, over the spec's symbols
    claim: sympy.Expr
    instance: dict[str, Fraction] | None   # where a refutation is shown
    table: FiniteMechanism | None          # the instance's table (refutations)


def samples(spec: FamilySpec) -> list[dict[str, Fraction]]:
    """Parameter values within the spec's constraints, small enough to tabulate."""
    envs: list[dict[str, Fraction]] = [dict(spec.constants)]
    for p in spec.params:
        if not p.symbolic:
            continue
        grown = []
        for env in envs:
            for v in _candidates(p.constraint, env):
                grown.append(dict(env, **{p.name: v}))
        envs = grown[:MAX_SAMPLES * 4]
    return envs[:MAX_SAMPLES]


def _candidates(c: F.Constraint | None, env: Mapping[str, Fraction]) -> list[Fraction]:
    assert c is not None
    lo = Fraction(E.compile_exact(c.lo)(env)) if c.lo is not None else None
    hi = Fraction(E.compile_exact(c.hi)(env)) if c.hi is not None else None
    if c.kind == "integer":
        start = math.ceil(lo) if lo is not None else 1
        return [Fraction(start + d) for d in (0, 1, 2, 4)]
    if lo is None:
        lo = Fraction(0) if hi is None else hi - 2
    if hi is None:
        hi = lo + 2
    if hi < lo or (hi == lo and (c.lo_open or c.hi_open)):
        return []
    inside = [lo + (hi - lo) * t for t in (Fraction(1, 2), Fraction(1, 3), Fraction(3, 4))]
    ends = ([] if c.lo_open else [lo]) + ([] if c.hi_open else [hi])
    return inside[:2] + ends[:1] + inside[2:]


def spec_pmf(spec: FamilySpec) -> F.Pmf:
    pieces = [(None if p.when is None else E.compile_exact(p.when), E.compile_exact(p.value))
              for p in spec.formula]

    def pmf(env: F.Values, x: int, y: int) -> Fraction:
        full = dict(env, x=Fraction(x), y=Fraction(y))
        for when, value in pieces:
            if when is None or when(full):
                return Fraction(value(full))
        raise AssertionError("the last piece is 'otherwise'")
    return pmf


def spec_domain(spec: FamilySpec) -> Callable[[F.Values], tuple[int, int, int, int]]:
    exprs = [E.compile_exact(e) for e in (*spec.inputs, *spec.outputs)]

    def domain(env: F.Values) -> tuple[int, int, int, int]:
        x0, x1, y0, y1 = (int(f(env)) for f in exprs)
        return x0, x1, y0, y1
    return domain


def analyse(spec: FamilySpec) -> tuple[FamilyAnalysis, Plan]:
    envs = samples(spec)
    if not envs:
        raise SpecError(spec.path, "parameters", "the constraints allow no parameter value")
    match = F.find(spec.types, spec_pmf(spec), spec_domain(spec), envs, spec.neighbours)
    if match is None:
        raise SpecError(spec.path, "formula", "no library family is this formula (with these inputs, "
                        f"outputs and neighbours), compared exactly at {_show(envs[0])} and "
                        f"{len(envs) - 1} other parameter values; the families are: {F.catalogue()}. "
                        "Give the parameters numbers to check one instance as a table")
    _check_conditions(spec, match)
    syms = F.symbols(spec.types)
    env = {**syms, **{k: sympy.Rational(v.numerator, v.denominator) for k, v in spec.constants.items()}}
    tight = match.family.tight({f: env[s] for f, s in match.binding})
    claim = F.to_sympy(spec.epsilon, env)
    tight_text = str(tight)
    if F.same(claim, tight):
        return (FamilyAnalysis(spec, match, tight, claim, None, None),
                Plan(Verdict.PROVED, (), tight_text, math.nan, "0", 0.0))
    for s in envs:
        x0, x1, y0, y1 = spec_domain(spec)(s)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_INSTANCE_ENTRIES:   # a witness needs the instance's table
            continue
        sub = {syms[k]: sympy.Rational(v.numerator, v.denominator) for k, v in s.items() if k in syms}
        if (claim.subs(sub) - tight.subs(sub)).evalf(40) < 0:
            inst = instance_spec(spec, s)
            table = tabulate(inst)
            p = plan(table)
            if p.expected == Verdict.REFUTED:
                notes = (f"the claim is below the family's epsilon {tight} at {_show(s)}",)
                return (FamilyAnalysis(spec, match, tight, claim, s, table),
                        Plan(Verdict.REFUTED, p.obligations, tight_text, math.nan, p.delta_at_claim,
                             p.delta_at_claim_float, notes))
    return (FamilyAnalysis(spec, match, tight, claim, None, None),
            Plan(Verdict.UNDECIDED, (), tight_text, math.nan, "0", 0.0,
                 notes=(f"the claimed epsilon {claim} is not the family's {tight} and not below it at the "
                        "sampled parameters (with tables of at most 40 000 entries): state the family's epsilon, "
                        "which the library proves",)))


def _show(env: Mapping[str, Fraction]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in env.items())


def _check_conditions(spec: FamilySpec, match: F.Match) -> None:
    """The spec's constraints keep every family parameter where the library's theorems hold."""
    by_name = {p.name: p for p in spec.params}
    syms = F.symbols(spec.types)
    env: dict[str, sympy.Expr] = {**syms, **{k: sympy.Rational(v.numerator, v.denominator)
                                             for k, v in spec.constants.items()}}
    fam_env = {f: env[s] for f, s in match.binding}
    for fparam, need in match.family.conditions:
        s = match.spec_param(fparam)
        given = by_name[s].constraint
        if given is None or given.kind != need.kind or not _within(given, need, env, fam_env):
            allows = given.text(s) if given else "a constant"
            raise SpecError(spec.path, f"parameters.{s}", f"the library's {match.family.name} theorem "
                            f"needs {_fam_text(need, s, fam_env)}; the spec allows {allows}")


def _fam_text(c: F.Constraint, name: str, fam_env: Mapping[str, sympy.Expr]) -> str:
    """A family's condition in the spec's names: "p in [1/k, 1)"."""
    if c.kind == "integer":
        return f"{name} integer >= {F.to_sympy(c.lo, fam_env)}" if c.lo is not None else f"{name} integer"
    lo = F.to_sympy(c.lo, fam_env) if c.lo is not None else "-oo"
    hi = F.to_sympy(c.hi, fam_env) if c.hi is not None else "oo"
    return f"{name} in {'(' if c.lo_open else '['}{lo}, {hi}{')' if c.hi_open else ']'}"


def _within(given: F.Constraint, need: F.Constraint, env: Mapping[str, sympy.Expr],
            fam_env: Mapping[str, sympy.Expr]) -> bool:
    if need.lo is not None:
        if given.lo is None or not _le(F.to_sympy(need.lo, fam_env), F.to_sympy(given.lo, env),
                                       strict=need.lo_open and not given.lo_open):
            return False
    if need.hi is not None:
        if given.hi is None or not _le(F.to_sympy(given.hi, env), F.to_sympy(need.hi, fam_env),
                                       strict=need.hi_open and not given.hi_open):
            return False
    return True


def _le(a: sympy.Expr, b: sympy.Expr, strict: bool) -> bool:
    d = sympy.simplify(b - a)
    return bool(d.is_positive) if strict else bool(d == 0 or d.is_nonnegative)


def instance_spec(spec: FamilySpec, values: Mapping[str, Fraction]) -> MechanismSpec:
    """The finite mechanism the family spec gives at numeric parameter values."""
    ev = dict(values)
    x0, x1, y0, y1 = spec_domain(spec)(ev)
    xs, ys = tuple(range(x0, x1 + 1)), tuple(range(y0, y1 + 1))
    return MechanismSpec(
        path=spec.path, sha256=spec.sha256, name=spec.name, description=spec.description,
        parameters=ev, parameter_types=spec.types,
        inputs=Domain(tuple(str(v) for v in xs), xs), outputs=Domain(tuple(str(v) for v in ys), ys),
        table=None, formula=spec.formula, distribution="full", neighbours=spec.neighbours,
        epsilon=spec.epsilon, epsilon_text=spec.epsilon_text, delta=spec.delta, delta_text=spec.delta_text)
