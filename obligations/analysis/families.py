"""Library families of finite mechanisms (`theories/Finite/TGeom.v`, `RR.v`): which formula
a spec's formula is, for which parameters, and with what privacy loss.

Python only proposes: a spec's formula is matched to a family by exact evaluation
at sample parameter values (every input and output), and Coq then proves the spec's
formula equal to the family's for all parameter values, case by case
(`NAME_is_family` in the generated file).  Nothing here is a statement.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import sympy

from obligations.core import expr as E
from obligations.core.spec import neighbour_distance

Values = Mapping[str, Fraction]


@dataclass(frozen=True)
class Constraint:
    """Where a parameter may range: a real interval or integers from a bound on.  Bounds
    are expressions of earlier parameters (None: unbounded)."""

    kind: str                       # "range" (rational) or "integer"
    lo: E.Expr | None
    hi: E.Expr | None = None
    lo_open: bool = False
    hi_open: bool = False

    def holds(self, v: Fraction, env: Values) -> bool:
        if self.kind == "integer" and v.denominator != 1:
            return False
        if self.lo is not None:
            lo = Fraction(E.compile_exact(self.lo)(env))
            if v < lo or (self.lo_open and v == lo):
                return False
        if self.hi is not None:
            hi = Fraction(E.compile_exact(self.hi)(env))
            if v > hi or (self.hi_open and v == hi):
                return False
        return True

    def text(self, name: str) -> str:
        if self.kind == "integer":
            return f"{name} integer >= {E.to_text(self.lo)}" if self.lo is not None else f"{name} integer"
        lo = "(" if self.lo_open else "["
        hi = ")" if self.hi_open else "]"
        return (f"{name} in {lo}{E.to_text(self.lo) if self.lo is not None else '-oo'}, "
                f"{E.to_text(self.hi) if self.hi is not None else 'oo'}{hi}")


@dataclass(frozen=True)
class Family:
    """A family the library proves DP for all parameters (and, if `distr_lemma`, that its
    rows are distributions)."""

    name: str                                   # the Coq names' prefix: tgeom, krr (tgeom_pmf, tgeom_fmech)
    title: str
    params: tuple[tuple[str, str], ...]         # (name, E.INT or E.RAT), in the Coq order
    pmf: Callable[[Values, int, int], Fraction]
    domain: Callable[[Values], tuple[int, int, int, int]]   # x0, x1, y0, y1
    neighbours: str                             # "adjacent" or "all"
    conditions: tuple[tuple[str, Constraint], ...]   # where its theorems hold
    conditions_coq: str                         # the same, in Coq, over {param} names
    bound: Callable[[Values], Fraction]         # L = e^(tight ε) at given values
    bound_coq: str                              # L in Coq, over {param} names
    tight: Callable[[Mapping[str, sympy.Expr]], sympy.Expr]  # the tight ε, symbolically
    dp_lemma: str
    distr_lemma: str | None
    eps_tactics: tuple[str, ...]                # proofs of Q2R L <= exp ε from the conditions (Hc)
    infer: Callable[[Sequence[Sequence[Fraction]]], dict[str, Fraction] | None]  # a table's parameters
    distance_lemma: str | None = None        # its DP theorem for neighbours at distance d (bound^d)
    distance_eps_tactic: str = ""               # proof of Q2R (bound^d) <= exp ε at distance {d}


def _tgeom_infer(rows: Sequence[Sequence[Fraction]]) -> dict[str, Fraction] | None:
    if len(rows) < 2 or len(rows) > E.MAX_EXPONENT or any(len(r) != len(rows) for r in rows) or rows[0][0] <= 0:
        return None
    return {"a": 1 / rows[0][0] - 1, "n": Fraction(len(rows) - 1)}


def _rr_infer(rows: Sequence[Sequence[Fraction]]) -> dict[str, Fraction] | None:
    if len(rows) < 2 or any(len(r) != len(rows) for r in rows):
        return None
    return {"p": rows[0][0], "k": Fraction(len(rows))}


def _power(a: Fraction, e: int) -> Fraction:
    """a^e, refused beyond the spec language's exponents (a parameter 10^9 must not be
    raised here: such points are left to Coq, like the spec's own)."""
    if abs(e) > E.MAX_EXPONENT:
        raise E.ExprError(f"exponent {e} above {E.MAX_EXPONENT}")
    return a ** e


def _tgeom_pmf(v: Values, x: int, y: int) -> Fraction:
    a, n = v["a"], int(v["n"])
    if y == 0:
        return _power(a, x) / (1 + a)
    if y == n:
        return _power(a, n - x) / (1 + a)
    return (1 - a) / (1 + a) * _power(a, abs(y - x))


def _rr_pmf(v: Values, x: int, y: int) -> Fraction:
    p, k = v["p"], v["k"]
    return p if x == y else (1 - p) / (k - 1)


def _const(q: Fraction) -> E.Expr:
    return E.Num(q)


TGEOM = Family(
    name="tgeom", title="the truncated alpha-geometric mechanism over {0..n} (seed 002)",
    params=(("a", E.RAT), ("n", E.INT)), pmf=_tgeom_pmf,
    domain=lambda v: (0, int(v["n"]), 0, int(v["n"])), neighbours="adjacent",
    conditions=(("a", Constraint("range", _const(Fraction(0)), _const(Fraction(1)), True, True)),
                ("n", Constraint("integer", _const(Fraction(1))))),
    conditions_coq="(0 < {a} < 1) /\\ (1 <= {n})%Z",
    bound=lambda v: 1 / v["a"], bound_coq="(/ {a})",
    tight=lambda s: -sympy.log(s["a"]),
    dp_lemma="tgeom_dp_le", distr_lemma="tgeom_distr", distance_lemma="tgeom_dp_distance_le",
    distance_eps_tactic="apply (bound_exp_pow _ {d}); [tauto|rewrite INR_IZR_INZ; simpl; ring].",
    eps_tactics=("apply bound_exp_neg_ln; [tauto|reflexivity].",
                 "apply bound_exp_ln_inv; [tauto|reflexivity]."),
    infer=_tgeom_infer,
)

KRR = Family(
    name="krr", title="k-ary randomized response (keep probability p)",
    params=(("p", E.RAT), ("k", E.INT)), pmf=_rr_pmf,
    domain=lambda v: (0, int(v["k"]) - 1, 0, int(v["k"]) - 1), neighbours="all",
    conditions=(("k", Constraint("integer", _const(Fraction(2)))),
                ("p", Constraint("range", E.BinOp("/", E.Num(Fraction(1)), E.Var("k")),
                                 _const(Fraction(1)), False, True))),
    conditions_coq="(2 <= {k})%Z /\\ (1 / inject_Z {k} <= {p} < 1)",
    bound=lambda v: v["p"] * (v["k"] - 1) / (1 - v["p"]),
    bound_coq="({p} / ((1 - {p}) / inject_Z ({k} - 1)))",
    tight=lambda s: sympy.log(s["p"] * (s["k"] - 1) / (1 - s["p"])),
    dp_lemma="krr_dp_le", distr_lemma="krr_distr",
    eps_tactics=("apply bound_exp_ln; [apply krr_bound_pos; tauto|apply krr_bound_eq; tauto].",),
    infer=_rr_infer,
)

FAMILIES: tuple[Family, ...] = (TGEOM, KRR)


# ---------------------------------------------------------------- matching

Pmf = Callable[[Values, int, int], Fraction]


@dataclass(frozen=True)
class Match:
    """The spec's parameter (or constant) each family parameter is."""

    family: Family
    binding: tuple[tuple[str, str], ...]        # (family param, spec param)

    def spec_param(self, fam_param: str) -> str:
        return dict(self.binding)[fam_param]

    def family_values(self, spec_values: Values) -> dict[str, Fraction]:
        return {f: spec_values[s] for f, s in self.binding}


def bindings(family: Family, spec_types: Mapping[str, str]) -> list[tuple[tuple[str, str], ...]]:
    """Every way to name the family's parameters by spec parameters of the same type."""
    names = list(spec_types)
    out = []
    for chosen in itertools.permutations(names, len(family.params)):
        if all(spec_types[s] == t for (_, t), s in zip(family.params, chosen, strict=False)):
            out.append(tuple((f, s) for (f, _), s in zip(family.params, chosen, strict=False)))
    return out


def agrees(family: Family, binding: Sequence[tuple[str, str]], spec_pmf: Pmf,
           spec_domain: Callable[[Values], tuple[int, int, int, int]],
           samples: Sequence[Values], max_points: int = 4000) -> bool:
    """Whether the spec's formula and domain equal the family's at every sample (every input
    and output when the table is small, its corners and diagonal bands otherwise)."""
    compared = 0
    for env in samples:
        fv = {f: env[s] for f, s in binding}
        try:
            if spec_domain(env) != family.domain(fv):
                return False
            x0, x1, y0, y1 = family.domain(fv)
        except (E.ExprError, ZeroDivisionError, ValueError, OverflowError):
            return False
        for x, y in _points(x0, x1, y0, y1, max_points):
            try:
                value, expected = spec_pmf(env, x, y), family.pmf(fv, x, y)
            except E.ExprError:   # beyond what Python evaluates (an exponent over 4096): Coq decides
                continue
            except (ZeroDivisionError, ValueError, OverflowError):
                return False
            if value != expected:
                return False
            compared += 1
    return compared > 0


def _points(x0: int, x1: int, y0: int, y1: int, limit: int) -> list[tuple[int, int]]:
    if (x1 - x0 + 1) * (y1 - y0 + 1) <= limit:
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
    xs = sorted(x for x in {x0, x0 + 1, x0 + 2, (x0 + x1) // 2, x1 - 2, x1 - 1, x1} if x0 <= x <= x1)
    ys = sorted(y for y in {y0, y0 + 1, y0 + 2, (y0 + y1) // 2, y1 - 2, y1 - 1, y1} if y0 <= y <= y1)
    band = [(x, x + d) for x in xs for d in (-2, -1, 0, 1, 2) if y0 <= x + d <= y1]
    return sorted(set([(x, y) for x in xs for y in ys] + band))


def find(spec_types: Mapping[str, str], spec_pmf: Pmf,
         spec_domain: Callable[[Values], tuple[int, int, int, int]],
         samples: Sequence[Values], neighbours: str) -> Match | None:
    """The library family the spec's formula is (on the samples), with the binding."""
    for family in (f for f in map(lambda f: for_neighbours(f, neighbours), FAMILIES) if f is not None):
        for binding in bindings(family, spec_types):
            if agrees(family, binding, spec_pmf, spec_domain, samples):
                return Match(family, binding)
    return None


def table_member(rows: Sequence[Sequence[Fraction]], neighbours: str) -> tuple[Family, dict[str, Fraction]] | None:
    """The family and parameters of which an explicit table is the member (inputs and outputs
    are the family's values 0, 1, ... in order), where its theorems hold."""
    for family in (f for f in map(lambda f: for_neighbours(f, neighbours), FAMILIES) if f is not None):
        values = family.infer(rows)
        if values is None or not all(c.holds(values[f], values) for f, c in family.conditions):
            continue
        x0, x1, y0, y1 = family.domain(values)
        if (x1 - x0 + 1, y1 - y0 + 1) != (len(rows), len(rows[0])):
            continue
        if all(rows[i][j] == family.pmf(values, x0 + i, y0 + j)
               for i in range(len(rows)) for j in range(len(rows[0]))):
            return family, values
    return None


def for_neighbours(family: Family, neighbours: str) -> Family | None:
    """The family for these neighbours: itself, or its form at distance d (its one-step
    bound L becomes L^d: `tgeom_dp_distance_le`), or None."""
    if family.neighbours == neighbours:
        return family
    d = neighbour_distance(neighbours)
    if d is None or not family.distance_lemma:
        return None
    if d == 1 and family.neighbours == "adjacent":
        return family
    one, tight = family.bound, family.tight
    return replace(family, neighbours=neighbours, dp_lemma=family.distance_lemma,
                   bound=lambda v: one(v) ** d, bound_coq=f"({family.bound_coq} ^ {d})",
                   tight=lambda s: d * tight(s),
                   eps_tactics=(family.distance_eps_tactic.format(d=d),))


def catalogue() -> str:
    """The families, for messages."""
    return "; ".join(f"{f.name}: {f.title}, parameters "
                     + ", ".join(n for n, _ in f.params) + f", neighbours {f.neighbours}"
                     for f in FAMILIES)


# ---------------------------------------------------------------- symbolic ε

def to_sympy(e: E.Expr, env: Mapping[str, sympy.Expr]) -> sympy.Expr:
    """An expression of the spec language as sympy, variables from `env` (symbols or numbers).
    Walks the checked AST: no user string reaches sympy's parser."""
    if isinstance(e, E.Num):
        return sympy.Rational(e.value.numerator, e.value.denominator)
    if isinstance(e, E.Var):
        return env[e.name]
    if isinstance(e, E.Neg):
        return -to_sympy(e.operand, env)
    if isinstance(e, E.BinOp):
        a, b = to_sympy(e.left, env), to_sympy(e.right, env)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "/": lambda: a / b, "**": lambda: a ** b}[e.op]()
    if isinstance(e, E.Call):
        args = [to_sympy(a, env) for a in e.args]
        fn = {"ln": sympy.log, "exp": sympy.exp, "abs": sympy.Abs, "min": sympy.Min, "max": sympy.Max}[e.fn]
        return fn(*args)
    raise E.ExprError(f"{E.to_text(e)} is not a number")


def symbols(types: Mapping[str, str]) -> dict[str, sympy.Symbol]:
    return {n: sympy.Symbol(n, integer=True, positive=True) if t == E.INT else sympy.Symbol(n, positive=True)
            for n, t in types.items()}


def same(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Whether sympy shows a = b for positive symbols (False: not shown)."""
    d = sympy.simplify(sympy.expand_log(a - b, force=True))
    return bool(d == 0)
