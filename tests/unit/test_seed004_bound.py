"""Seed 004's bound ε + 12Bεη + 2η (η = 2^-p) against the exact loss of snapping run in a small
binary format (the enumeration Coq runs, obligations/kinds/floating/analysis.py): it holds with
room inside the small-format analogue of Mironov's range λ < B < 2^(p-7)·λ, and fails beyond
it (B = 2^p·λ), where the loss is infinite although the same pipeline in precision 16 is finite."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import yaml

from obligations.core import expr as E
from obligations.float import arith as A
from obligations.float.analysis import FStep, distribution, grid_sampler, ln_table, tabulate_floating
from obligations.float.spec import check

REPO = Path(__file__).resolve().parent.parent.parent


def seed_bound(eps: float, bound: float, p: int) -> float:
    eta = 2.0 ** -p
    return eps + 12 * bound * eps * eta + 2 * eta


def exact_loss(p: int, lam: Fraction, bound: int, m: int, inputs: list[int]) -> float:
    """max over neighbours and outputs of ln(Pr[x -> o]/Pr[x' -> o]) (inf when Pr[x' -> o] = 0)."""
    fmt = A.Format(p, 16)
    sampler = grid_sampler(fmt, m)
    ln = ln_table(fmt, sampler)
    b, scale = A.float_of_int(fmt, bound), A.round_fraction(fmt, lam)
    assert scale.value == lam
    steps = [FStep("ln"), FStep("scale", scale), FStep("sign"), FStep("add_query", b),
             FStep("round", j=int(math.log2(lam)), ties="up"), FStep("clamp", b)]
    rows = {x: distribution(fmt, steps, sampler, ln, x) for x in inputs}
    worst = 0.0
    for x, d in rows.items():
        for x2 in (x - 1, x + 1):
            for o, pr in d.items() if x2 in rows else ():
                other = rows[x2].get(o, Fraction(0))
                worst = max(worst, math.inf if other == 0 else math.log(pr / other))
    return worst


def test_seed_bound_holds_inside_mironovs_range() -> None:
    # p = 9: 2^(p-7)·λ = 4 > B = 2 > λ = 1; u on 2^12 points
    loss = exact_loss(9, Fraction(1), 2, 12, [-2, -1, 0, 1, 2])
    assert loss == math.log(Fraction(579, 211))          # ≈ 1.0094, the grid of u's tail
    assert loss < seed_bound(1.0, 2, 9)                   # ≈ 1.0508


def test_seed_bound_fails_beyond_mironovs_range() -> None:
    for name, lam, bound, inputs in (("seed004_beyond_range_p2", Fraction(1, 4), 1, [0, 1]),
                                     ("seed004_beyond_range_p2_b2", Fraction(1, 2), 2, [-2, -1])):
        path = REPO / "tests" / "specs" / "floating" / f"{name}.yaml"
        spec = check(yaml.safe_load(path.read_text()), str(path), "0")
        eps = float(1 / lam)
        assert spec.program.fmt.precision == 2 and Fraction(bound) == 2 ** 2 * lam   # B = 2^p·λ
        assert float(E.to_sympy(spec.epsilon, {})) == seed_bound(eps, bound, 2)   # the spec claims the seed's bound
        m = tabulate_floating(spec)
        assert any(a > 0 and b == 0 for r1, r2 in ((m.rows[0], m.rows[1]), (m.rows[1], m.rows[0]))
                   for a, b in zip(r1, r2, strict=False))                     # loss = inf
        assert exact_loss(2, lam, bound, 11, inputs) == math.inf
        assert exact_loss(16, lam, bound, 11, inputs) < eps + 0.2   # the format, not the sampler
