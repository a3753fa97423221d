"""K runs of a CW mechanism on the same database beyond the classes of output sequences
(table/by_stream_theorem.py): the composition theorem with the accountant over the support
pairs.  Its bound is at least the exact same-database delta, the route takes the claims the
class route refuses, and what it cannot decide or mean is said, naming the field.  No Coq."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest

from obligations.analysis import accountant as acc
from obligations.analysis import cw_stream
from obligations.errors import SpecError
from obligations.models import load, unfold
from obligations.table.by_stream_theorem import support_pairs

SPECS = Path("tests/specs/cw_compose")
ROWS = [[F(17, 25) if x == y else F(2, 25) for y in range(5)] for x in range(5)]
PRIOR = (F(1, 2), F(1, 2), F(0), F(0), F(0))
ALT = (F(0), F(0), F(1, 2), F(1, 2), F(0))


def test_support_pairs_are_supp_nb() -> None:
    """x in supp f, x' in supp f', both orders, x != x' (Coq's supp_nb without the diagonal)."""
    assert support_pairs(PRIOR, ALT) == ((0, 2), (0, 3), (1, 2), (1, 3), (2, 0), (2, 1), (3, 0), (3, 1))
    overlap = (F(1, 2), F(1, 2), F(0))
    assert support_pairs(overlap, (F(0), F(1), F(0))) == ((0, 1), (1, 0))
    assert support_pairs((F(1), F(0)), (F(1), F(0))) == ()


@pytest.mark.parametrize("k, eps", [(6, 8), (14, 20)])
def test_the_bound_is_above_the_exact_same_database_delta(k: int, eps: int) -> None:
    """The accountant's upper bound over the support pairs bounds δ(ε) of the classes (exact)."""
    a = acc.accountant(ROWS, support_pairs(PRIOR, ALT), k)
    exact = max(cw_stream.stream_delta(ROWS, list(PRIOR), list(ALT), k, mpmath.mpf(eps)))
    theorem = cw_stream.theorem_delta(ROWS, list(PRIOR), list(ALT), k, mpmath.mpf(eps))
    assert exact < theorem <= a.upper(eps) * (1 + 1e-9)
    assert a.upper(eps) < theorem * (1 + 1e-9)          # the accountant's bracket is tight here


def test_the_class_route_gives_way_beyond_its_limits() -> None:
    u = unfold(load(SPECS / "rr5_cw_stream_k20_theorem.yaml"))
    assert u.route is not None and u.route.name == "by the streaming composition theorem"
    assert str(u.plan.expected) == "proved"
    assert 0.18 < u.plan.delta_at_claim_float < 0.19
    text = u.rendered.text
    assert "cw_stream_acc" in text and "supp_nb rr5_cw_stream_k20_theorem_prior" in text
    assert ("fmech_cw (fmech_power rr5_cw_stream_k20_theorem_table 20) rr5_cw_stream_k20_theorem_prior "
            "rr5_cw_stream_k20_theorem_alt_prior.") in text
    small = unfold(load(SPECS / "rr5_cw_stream_k12.yaml"))
    assert small.route is not None and small.route.name == "by classes of output sequences"


def test_the_shipped_thousand_runs() -> None:
    """At the fresh database's ε = 1000·ln(19/4), checked at a rational ε₀ ≤ ε by `interval`."""
    u = unfold(load(Path("mechanisms/rr5_cw_stream_1000_runs.yaml")))
    assert u.route is not None and u.route.name == "by the streaming composition theorem"
    assert str(u.plan.expected) == "proved"
    assert 7e-12 < u.plan.delta_at_claim_float <= 1e-11
    eps0 = u.mechanism.eps
    assert not u.mechanism.exact and 0 < 1000 * math.log(19 / 4) - float(eps0) <= 2e-9
    text = u.rendered.text
    assert "<= 1000 * (ln (19 / 4)))%R" in text and "interval" in text and "cw_stream_acc_le" in text


def write(tmp_path: Path, claim: str) -> Path:
    text = (SPECS / "rr5_cw_stream_k20_theorem.yaml").read_text()
    path = tmp_path / "spec.yaml"
    path.write_text(text.replace('claim: {epsilon: "30", delta: "19/100"}', claim))
    return path


NOT_RR = ('"4": ["2/25", "2/25", "2/25", "2/25", "17/25"]', '"4": ["2/25", "2/25", "2/25", "3/25", "16/25"]')


def test_below_the_bound_is_undecided_not_refuted(tmp_path: Path) -> None:
    """δ between the exact value and the theorem's bound: the theorem cannot refute.  For
    randomized response an exact route decides such a claim (here the grouped one, the priors
    lying on two pairs: tests/unit/test_cw_stream_group_route.py); for another table the claim
    stays undecided."""
    u = unfold(load(write(tmp_path, 'claim: {epsilon: "30", delta: "15/100"}')))
    assert u.route is not None and u.route.name == "by block counts"
    assert str(u.plan.expected) == "proved"                   # exact 0.1205 <= 0.15
    path = write(tmp_path, 'claim: {epsilon: "30", delta: "15/100"}')
    path.write_text(path.read_text().replace(*NOT_RR))
    u = unfold(load(path))
    assert u.route is not None and u.route.name == "by the streaming composition theorem"
    assert str(u.plan.expected) == "undecided"


def test_a_rational_epsilon_is_checked_as_it_is(tmp_path: Path) -> None:
    u = unfold(load(SPECS / "rr5_cw_stream_k20_theorem.yaml"))
    assert u.mechanism.exact and u.mechanism.eps == 30
    assert "(Q2R (30 # 1) <= 30)%R" in u.rendered.text and "Require Import Tactic" not in u.rendered.text


def test_beyond_the_classes_an_unprovable_claim_is_undecided_not_refused(tmp_path: Path) -> None:
    """40 runs at 12·ln(19/4), a table that is not randomized response: the theorem's bound is far
    above 3/25; nothing to refute with."""
    text = (SPECS / "rr5_cw_stream_k12.yaml").read_text().replace("runs: 12,", "runs: 40,").replace(*NOT_RR)
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    u = unfold(load(path))
    assert u.route is not None and u.route.name == "by the streaming composition theorem"
    assert str(u.plan.expected) == "undecided"


def test_a_negative_epsilon_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as exc:
        unfold(load(write(tmp_path, 'claim: {epsilon: "-1", delta: "19/100"}')))
    assert exc.value.field.startswith("claim.epsilon")
