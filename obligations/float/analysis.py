"""The exact output distributions of a floating-point pipeline, computed as Coq computes
them (`theories/Float/FloatPipeline.v`): the same sampler, the same operations rounded
to nearest even, the same exact rounding to the grid."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from obligations.analysis.finite import FiniteMechanism
from obligations.core.obligation import Plan, Verdict, Witness
from obligations.core.spec import MechanismSpec
from obligations.float import arith as A


@dataclass(frozen=True)
class FStep:
    op: str                          # ln, scale, sign, add_query, round, clamp
    value: A.Float | None = None  # scale: the constant; add_query: the clamp bound; clamp: B
    j: int = 0                       # round: the grid is 2^j
    ties: str = "up"                 # round: "up" (toward +inf) or "even"


@dataclass(frozen=True)
class FloatPipeline:
    """The checked pipeline (MechanismSpec.program of a floating spec)."""

    fmt: A.Format
    grid_bits: int
    steps: tuple[FStep, ...]
    step_texts: tuple[str, ...]
    inputs: tuple[int, ...]
    sensitivity: int
    sampler: Literal["grid", "ustar"] = "grid"     # grid: grid_bits is m; ustar: grid_bits is 0

    @property
    def claim_domain(self) -> str:
        """The inputs the theorem speaks of: the listed integer query values, nothing else."""
        xs = self.inputs
        span = f"{xs[0]}..{xs[-1]}" if list(xs) == list(range(xs[0], xs[0] + len(xs))) else \
            "{" + ", ".join(map(str, xs)) + "}"
        return f"the integer query values {span} only, neighbours |q - q'| <= {self.sensitivity}"


def grid_sampler(fmt: A.Format, m: int) -> list[tuple[A.Float, Fraction]]:
    """u = k/2^m (k = 1..2^m) rounded to the format, equal floats merged, in increasing order."""
    out: list[tuple[A.Float, Fraction]] = []
    w = Fraction(1, 2 ** m)
    for k in range(1, 2 ** m + 1):
        u = A.round_fraction(fmt, Fraction(k, 2 ** m))
        if out and out[-1][0] == u:
            out[-1] = (u, out[-1][1] + w)
        else:
            out.append((u, w))
    return out


def ustar_size(fmt: A.Format) -> int:
    """The number of floats in (0, 1): the subnormals, then 2^(p-1) per binade up to 1."""
    return int(2 ** (fmt.precision - 1) - 1 + (-(fmt.emin + fmt.precision - 1)) * 2 ** (fmt.precision - 1))


def ustar_sampler(fmt: A.Format) -> list[tuple[A.Float, Fraction]]:
    """Mironov's U* as UStar.v walks it: every float u in (0, 1) in increasing order, with
    the length of [u, next float); the smallest also takes (0, itself)."""
    out: list[tuple[A.Float, Fraction]] = []
    half = 2 ** (fmt.precision - 1)
    lo = Fraction(0)
    for m, e in [(m, fmt.emin) for m in range(1, half)] + \
            [(m, e) for e in range(fmt.emin, 0) for m in range(half, 2 * half) if m * Fraction(2) ** e < 1]:
        hi = (m + 1) * Fraction(2) ** e
        out.append((A.Float("finite", False, m, e), hi - lo))
        lo = hi
    return out


def sampler_of(pipe: FloatPipeline) -> list[tuple[A.Float, Fraction]]:
    return grid_sampler(pipe.fmt, pipe.grid_bits) if pipe.sampler == "grid" else ustar_sampler(pipe.fmt)


def ln_table(fmt: A.Format, sampler: Sequence[tuple[A.Float, Fraction]]) -> dict[A.Float, A.Float]:
    return {u: A.correctly_rounded_ln(fmt, u) for u, _ in sampler}


def run(fmt: A.Format, steps: Sequence[FStep], lnf: Mapping[A.Float, A.Float], q: A.Float,
        s: bool, u: A.Float) -> A.Float:
    return trace(fmt, steps, lnf, q, s, u)[-1]


def trace(fmt: A.Format, steps: Sequence[FStep], lnf: Mapping[A.Float, A.Float], q: A.Float,
          s: bool, u: A.Float) -> list[A.Float]:
    """The value after each step of one run (the last is the output)."""
    v = u
    values: list[A.Float] = []
    for st in steps:
        if st.op == "ln":
            v = lnf.get(v, A.NAN)
        elif st.op == "scale":
            assert st.value is not None
            v = A.mul(fmt, v, st.value)
        elif st.op == "sign":
            v = v if s else A.neg(v)
        elif st.op == "add_query":
            qq = A.clamp(st.value, q) if st.value is not None else q
            v = A.add(fmt, qq, v)
        elif st.op == "round":
            v = A.round_grid(st.j, st.ties, v, fmt)
        elif st.op == "clamp":
            assert st.value is not None
            v = A.clamp(st.value, v)
        values.append(v)
    return values


def distribution(fmt: A.Format, steps: Sequence[FStep], sampler: Sequence[tuple[A.Float, Fraction]],
                 lnf: dict[A.Float, A.Float], x: int) -> dict[A.Float, Fraction]:
    q = A.float_of_int(fmt, x)
    signs = [(True, Fraction(1, 2)), (False, Fraction(1, 2))] if any(s.op == "sign" for s in steps) \
        else [(True, Fraction(1))]
    d: dict[A.Float, Fraction] = defaultdict(Fraction)
    for u, w in sampler:
        for s, ws in signs:
            d[run(fmt, steps, lnf, q, s, u)] += w * ws
    return dict(d)


@dataclass(frozen=True)
class FloatMechanism(FiniteMechanism):
    """The exact table of a floating-point pipeline over the query values and the output
    bit patterns it produces (in increasing order of value), with the sampler and the
    logarithm table Coq is given."""

    fmt: A.Format = A.Format(2, 3)
    sampler: tuple[tuple[A.Float, Fraction], ...] = ()
    ln: Mapping[A.Float, A.Float] = field(default_factory=dict)
    output_floats: tuple[A.Float, ...] = ()


def tabulate_floating(spec: MechanismSpec) -> FloatMechanism:
    pipe = spec.program
    sampler = tuple(sampler_of(pipe))
    ln = ln_table(pipe.fmt, sampler)
    dists = [distribution(pipe.fmt, pipe.steps, sampler, ln, x) for x in pipe.inputs]
    outs = tuple(sorted(set().union(*dists), key=A.sort_key))
    rows = tuple(tuple(d.get(o, Fraction(0)) for o in outs) for d in dists)
    pairs = tuple((i, j) for i, x in enumerate(pipe.inputs) for j, y in enumerate(pipe.inputs)
                  if i != j and abs(x - y) <= pipe.sensitivity)
    return FloatMechanism(spec, rows, pairs, rows, tuple(str(x) for x in pipe.inputs),
                          tuple(o.label() for o in outs), fmt=pipe.fmt, sampler=sampler, ln=ln,
                          output_floats=outs)


def one_sided(m: FloatMechanism, p: Plan) -> Plan:
    """When some output is reached from one input and never from a neighbour (ε = ∞), the
    witness of a refutation is that output alone: Coq then proves that no finite ε holds
    (FloatDP.v: `float_not_dp_of_one_sided`), not only the claimed one."""
    if p.expected != Verdict.REFUTED or p.tight_epsilon != "oo":
        return p
    old = next(o for o in p.obligations if isinstance(o, Witness))
    a, b, y = max(((a, b, y) for a, b in m.pairs for y, (pa, pb) in enumerate(zip(m.rows[a], m.rows[b], strict=False))
                   if pb == 0 < pa), key=lambda t: (m.rows[t[0]][t[2]], -t[0], -t[1], -t[2]))
    w = Witness(a, b, (y,), m.rows[a][y], Fraction(0), old.bound)
    return replace(p, obligations=tuple(w if o is old else o for o in p.obligations))
