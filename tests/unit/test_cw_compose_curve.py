"""CW-privacy composed K times: one database, drawn once, seen by all K runs.

The composed object is Σ_x f(x)·M(x)^⊗K (Coq: `fmech_cw (fmech_power M K) f f'`),
not (Σ_x f(x)·M(x))^⊗K, which draws a fresh database for every release.  For 5-ary
randomized response (Pr[y = x] = 17/25, else 2/25) with priors ½/½ on {0, 1} against
{2, 3} and K = 2 the tight ε is ln(293/8) ≈ 3.60, not ln(361/16) ≈ 3.12.  No Coq here.
"""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from obligations.analysis.compose import composed_curve, cw_composed_curve
from obligations.analysis.finite import cw_rows, max_ratio, plan, power_rows, tabulate
from obligations.analysis.region import curve
from obligations.certify.profiles import mechanism_curve, profile
from obligations.core.spec import MechanismSpec, derive
from obligations.errors import UsageError
from obligations.models import load
from obligations.table.document import _chain

SPEC = Path("tests/specs/cw_compose/rr5_cw_k2.yaml")
KEEP, OTHER = F(17, 25), F(2, 25)
PRIOR = (F(1, 2), F(1, 2), F(0), F(0), F(0))
ALT = (F(0), F(0), F(1, 2), F(1, 2), F(0))


def composed(k: int, epsilon: str = "ln(293/8)") -> MechanismSpec:
    return derive(load(SPEC), name="rr5_cw_composed", epsilon=epsilon, delta=F(0), compose=k)


def same_database(k: int) -> tuple[tuple[F, ...], tuple[F, ...]]:
    """Σ_x f(x)·Π_i M(x)(y_i), straight from the definition, outputs in fmech_power's order."""
    def row(f: tuple[F, ...]) -> tuple[F, ...]:
        out = []
        for y in range(5 ** k):
            digits = [(y // 5 ** (k - 1 - i)) % 5 for i in range(k)]
            out.append(sum((f[x] * math.prod((KEEP if d == x else OTHER for d in digits), start=F(1))
                            for x in range(5)), F(0)))
        return tuple(out)
    return row(PRIOR), row(ALT)


def test_the_numbers_exactly() -> None:
    # one release: 19/50 against 2/25
    assert PRIOR[0] * KEEP + PRIOR[1] * OTHER == F(19, 50)
    assert F(19, 50) / F(2, 25) == F(19, 4)
    # two releases of the same database, outputs (0, 0): 293/1250 against 8/1250
    assert F(1, 2) * KEEP ** 2 + F(1, 2) * OTHER ** 2 == F(293, 1250)
    assert F(1, 2) * OTHER ** 2 + F(1, 2) * OTHER ** 2 == F(8, 1250)
    assert (F(19, 4)) ** 2 == F(361, 16) and F(293, 8) > F(361, 16)
    assert math.log(293 / 8) == pytest.approx(3.6007, abs=1e-4)
    assert math.log(361 / 16) == pytest.approx(3.1163, abs=1e-4)


def test_tabulate_draws_the_database_once() -> None:
    m = tabulate(composed(2))
    assert m.rows == same_database(2)
    assert (m.rows[0][0], m.rows[1][0]) == (F(293, 1250), F(8, 1250))
    assert m.inputs == ("D", "alt") and m.pairs == ((0, 1), (1, 0))
    assert max_ratio(m) == F(293, 8)
    assert tabulate(composed(3)).rows == same_database(3)


def test_tight_epsilon_is_ln_293_over_8() -> None:
    p = plan(tabulate(composed(2)))
    assert p.expected == "proved" and p.tight_epsilon == "ln(293/8)"
    assert p.tight_epsilon_float == pytest.approx(math.log(293 / 8))
    wrong = plan(tabulate(composed(2, "ln(361/16)")))
    assert wrong.expected == "refuted" and wrong.tight_epsilon == "ln(293/8)"
    # the witness: both "same answer twice" outputs of the prior's inputs
    w = next(o for o in wrong.obligations if type(o).__name__ == "Witness")
    assert (w.x, w.x2, w.outputs) == (0, 1, (0, 6)) and (w.pr_x, w.pr_x2) == (F(293, 625), F(8, 625))


def test_a_fresh_database_per_release_would_give_ln_361_over_16() -> None:
    """What the tool used to certify: the one-release mixture composed with itself."""
    base = tabulate(load(SPEC))
    fresh = power_rows(cw_rows(base.base_rows, PRIOR, ALT), 2)
    assert max(p / q for p, q in zip(*fresh, strict=False)) == F(361, 16)
    assert composed_curve(base.rows, base.pairs, 2).t_zero == F(361, 16)


@pytest.mark.parametrize("k", [2, 3])
def test_profile_curve_is_the_same_database_curve(k: int) -> None:
    c = mechanism_curve(load(SPEC), k)
    exact = curve(tabulate(composed(k)))
    for t in (F(1), F(2), F(19, 4), F(17, 2), F(361, 16), F(293, 8), F(400)):
        assert c.delta(t) == exact.delta(t)
    assert c.t_zero == max_ratio(tabulate(composed(k)))
    assert mechanism_curve(load(SPEC), 2).t_zero == F(293, 8)


def test_profile_at_the_fresh_database_epsilon_has_positive_delta() -> None:
    prof = profile(load(SPEC), ["ln(361/16)", "ln(293/8)"], 2)
    assert [p.delta for p in prof.points] == [F(9, 50), F(0)]
    assert F(293, 625) - F(361, 16) * F(8, 625) == F(9, 50)
    assert prof.kov == []   # KOV bounds compositions of one mechanism: not this one


def test_coq_chain_is_power_then_prior_mixture() -> None:
    chain = _chain(composed(2))
    assert [name for name, _, _ in chain] == ["rr5_cw_composed_table", "rr5_cw_composed_power",
                                             "rr5_cw_composed"]
    assert chain[1][1] == "fmech_power rr5_cw_composed_table 2"
    assert chain[2][1].startswith("fmech_cw rr5_cw_composed_power [")
    # without composition: the table, then the mixture, as before
    assert [b.split(" ")[0] for _, b, _ in _chain(load(SPEC))[1:]] == ["fmech_cw"]


def test_cw_composition_counts_types_not_sequences() -> None:
    rows = tabulate(load(SPEC)).base_rows
    # 5^6 = 15625 sequences, 210 types; the worst output is (0, …, 0)
    assert cw_composed_curve(rows, PRIOR, ALT, 6).t_zero == (F(1, 2) * KEEP ** 6 + F(1, 2) * OTHER ** 6) / OTHER ** 6
    with pytest.raises(UsageError, match="output types"):
        cw_composed_curve(rows, PRIOR, ALT, 1000)
