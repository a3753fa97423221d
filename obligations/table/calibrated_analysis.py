"""What Python proposes for a table of real entries: the family it is an instance of
(k-ary randomized response calibrated with e^eps, `theories/Finite/ExpFamilies.v`), or
rational brackets of its entries and the pointwise check on them, or a witness.
Coq disposes: it proves each bracket with `interval`, the family's entries by `field`."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy

from obligations.analysis.finite import neighbour_pairs
from obligations.core import expr as E
from obligations.core.obligation import Plan, Verdict
from obligations.table import calibrated_tie as tie
from obligations.table.calibrated_spec import DIGITS, CalibratedSpec

BITS = 40          # brackets are multiples of 2^-BITS, one unit outside the value
PRECISION = 80     # interval's precision for them (bits)


@dataclass(frozen=True)
class KrrMatch:
    """The table is krr_exp eps k (ExpFamilies.v) with eps the claim's."""

    k: int


@dataclass(frozen=True)
class Brackets:
    lo: tuple[tuple[Fraction, ...], ...]
    hi: tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class BracketWitness:
    x: int
    x2: int
    y: int
    upper: Fraction     # U >= e^eps
    ratio: float        # M(x)(y) / M(x')(y)


@dataclass(frozen=True)
class SetWitness:
    """A violation of (eps, delta) with delta > 0, on a set of outputs S: the brackets show
    sum_S lo(x, y) > U * sum_S hi(x', y) + delta with U >= e^eps."""

    x: int
    x2: int
    ys: tuple[int, ...]
    upper: Fraction
    excess: float       # sum_S M(x)(y) - e^eps * sum_S M(x')(y), about


@dataclass(frozen=True)
class Calibrated:
    spec: CalibratedSpec
    brackets: Brackets
    family: KrrMatch | None
    lower: Fraction | None           # L <= e^eps, for the bracket check (proved claims)
    witness: BracketWitness | None   # refuted claims
    tight: float                        # max over neighbours and outputs of M(x)(y) / M(x')(y)
    set_witness: SetWitness | None = None   # refuted claims with delta > 0

    def input_label(self, x: int) -> str:
        return self.spec.inputs.labels[x]

    def output_label(self, y: int) -> str:
        return self.spec.outputs.labels[y]


def pairs(spec: CalibratedSpec) -> tuple[tuple[int, int], ...]:
    """Ordered pairs of distinct neighbours, as Coq's relation gives them (as for finite tables)."""
    return neighbour_pairs(spec)


def _fraction(v: sympy.Expr) -> Fraction:
    return Fraction(str(sympy.N(v, DIGITS)))


def _down(v: Fraction) -> Fraction:
    return Fraction(math.floor(v * 2 ** BITS) - 1, 2 ** BITS)


def _up(v: Fraction) -> Fraction:
    return Fraction(math.ceil(v * 2 ** BITS) + 1, 2 ** BITS)


def brackets(spec: CalibratedSpec) -> Brackets:
    lo, hi = [], []
    for row in spec.values:
        vs = [_fraction(v) for v in row]
        zero = [v == 0 for v in row]   # sympy's exact zero: bracket [0, 0]
        lo.append(tuple(Fraction(0) if z else max(Fraction(0), _down(v)) for v, z in zip(vs, zero, strict=False)))
        hi.append(tuple(Fraction(0) if z else _up(v) for v, z in zip(vs, zero, strict=False)))
    return Brackets(tuple(lo), tuple(hi))


def epsilon_value(spec: CalibratedSpec) -> sympy.Expr:
    return E.to_sympy(spec.epsilon, spec.parameters)


def krr_match(spec: CalibratedSpec, eps: sympy.Expr) -> KrrMatch | None:
    """Whether the table is k-ary RR with keep probability e^eps/(e^eps + k - 1), eps the claim's."""
    k = spec.inputs.size
    if k < 2 or spec.outputs.size != k or sympy.N(eps, DIGITS) < 0:
        return None
    d = sympy.exp(eps) + k - 1
    for x, row in enumerate(spec.values):
        for y, v in enumerate(row):
            want = sympy.exp(eps) / d if x == y else 1 / d
            if abs(sympy.N(v - want, DIGITS)) > sympy.Float(10) ** (-DIGITS // 2):
                return None
            if sympy.simplify(v - want) != 0:
                return None
    return KrrMatch(k)


def analyse(spec: CalibratedSpec) -> tuple[Calibrated, Plan]:
    eps = epsilon_value(spec)
    e_eps = _fraction(sympy.exp(eps))
    b = brackets(spec)
    ps = pairs(spec)
    values = [[_fraction(v) for v in row] for row in spec.values]
    tight = 0.0
    for x, x2 in ps:
        for y in range(spec.outputs.size):
            p, q = values[x][y], values[x2][y]
            if p > 0:
                tight = max(tight, math.inf if q == 0 else float(p / q))
    tight_text = "oo" if tight == math.inf else (f"{math.log(tight):.12g}" if tight > 0 else "0")
    if spec.delta != 0:
        return _with_delta(spec, e_eps, b, values, tight, tight_text)
    family = krr_match(spec, eps)
    lower = _down(e_eps)
    proved_by_brackets = all(
        b.lo[x2][y] >= 0 and b.hi[x][y] <= lower * b.lo[x2][y]
        for x, x2 in ps for y in range(spec.outputs.size))
    notes: list[str] = []
    if family is not None:
        notes.append(f"the table is the library's krr_exp with eps = {spec.epsilon_text}, k = {family.k} "
                     "(ExpFamilies.v): Coq proves the entries equal to the family's")
        return Calibrated(spec, b, family, None, None, tight), _plan(Verdict.PROVED, tight, tight_text, notes)
    if proved_by_brackets:
        notes.append(f"every entry bracketed within 2^-{BITS} (interval); "
                     f"hi(x, y) <= {float(lower):.12g} * lo(x', y) <= e^eps * lo(x', y) for all neighbours")
        return Calibrated(spec, b, None, lower, None, tight), _plan(Verdict.PROVED, tight, tight_text, notes)
    upper = _up(e_eps)
    for x, x2 in ps:
        for y in range(spec.outputs.size):
            if b.lo[x2][y] >= 0 and b.lo[x][y] > upper * b.hi[x2][y]:
                w = BracketWitness(x, x2, y, upper, float(values[x][y] / values[x2][y]) if values[x2][y] else math.inf)
                notes.append(f"the brackets show a violation at x = {spec.inputs.labels[x]}, "
                             f"x' = {spec.inputs.labels[x2]}, S = {{{spec.outputs.labels[y]}}}")
                return Calibrated(spec, b, None, None, w, tight), _plan(Verdict.REFUTED, tight, tight_text, notes)
    notes.append(f"the brackets (2^-{BITS}) cannot decide: the largest ratio M(x)(y) / M(x')(y) ~ {tight:.12g} "
                 f"is within them of e^eps ~ {float(e_eps):.12g}, and the table is no library family; "
                 "nothing is sent to Coq")
    why = tie.explain(spec, eps, ps)
    if why:
        notes.append(why)
    return Calibrated(spec, b, None, None, None, tight), _plan(Verdict.UNDECIDED, tight, tight_text, notes)


def _plan(verdict: Verdict, tight: float, tight_text: str, notes: list[str],
          delta_at_claim: float = math.nan) -> Plan:
    return Plan(expected=verdict, obligations=(), tight_epsilon=tight_text,
                tight_epsilon_float=math.log(tight) if 0 < tight < math.inf else (math.inf if tight else 0.0),
                delta_at_claim=None, delta_at_claim_float=delta_at_claim, notes=tuple(notes))


def _with_delta(spec: CalibratedSpec, e_eps: Fraction, b: Brackets, values: list[list[Fraction]],
                tight: float, tight_text: str) -> tuple[Calibrated, Plan]:
    """(eps, delta)-DP with delta > 0: the hockey-stick sum over the outputs, on the brackets.
    Coq's check runs over every pair its relation gives, x = x' included: so does this one."""
    m = spec.outputs.size
    delta = spec.delta
    ps = pairs(spec) + tuple((x, x) for x in range(spec.inputs.size))
    exact = max((sum(max(Fraction(0), values[x][y] - e_eps * values[x2][y]) for y in range(m)) for x, x2 in ps),
                default=Fraction(0))
    notes: list[str] = []
    lower = _down(e_eps)
    if all(b.lo[x2][y] >= 0 for _, x2 in ps for y in range(m)) and all(
            sum(max(Fraction(0), b.hi[x][y] - lower * b.lo[x2][y]) for y in range(m)) <= delta for x, x2 in ps):
        notes.append(f"every entry bracketed within 2^-{BITS} (interval); for all neighbours "
                     f"sum_y max(0, hi(x, y) - {float(lower):.12g} * lo(x', y)) <= delta")
        return (Calibrated(spec, b, None, lower, None, tight),
                _plan(Verdict.PROVED, tight, tight_text, notes, float(exact)))
    upper = _up(e_eps)
    best: SetWitness | None = None
    for x, x2 in pairs(spec):
        ys = tuple(y for y in range(m) if b.lo[x][y] > upper * b.hi[x2][y])
        margin = sum((b.lo[x][y] for y in ys), Fraction(0)) - upper * sum((b.hi[x2][y] for y in ys), Fraction(0))
        if ys and margin > delta and (best is None or margin > best.excess):
            best = SetWitness(x, x2, ys, upper, float(margin))
    if best is not None:
        notes.append(f"the brackets show a violation at x = {spec.inputs.labels[best.x]}, "
                     f"x' = {spec.inputs.labels[best.x2]}, "
                     f"S = {{{', '.join(spec.outputs.labels[y] for y in best.ys)}}}")
        return (Calibrated(spec, b, None, None, None, tight, best),
                _plan(Verdict.REFUTED, tight, tight_text, notes, float(exact)))
    notes.append(f"the brackets (2^-{BITS}) cannot decide: delta at the claimed eps ~ {float(exact):.12g} is within "
                 f"them of the claimed delta; nothing is sent to Coq")
    return Calibrated(spec, b, None, None, None, tight), _plan(Verdict.UNDECIDED, tight, tight_text, notes,
                                                                float(exact))
