"""K runs of randomized response on the same database summed by block counts
(table/by_stream_group.py): the exact route for priors on two pairs of inputs, tried before the
coefficient recursion when the composition theorem's bound cannot decide.  Which claims it takes,
the dyadic t it bounds e^ε by, what it predicts and renders.  No Coq (the library's theorems are
exercised by tests/coq/test_cw_group_library.py, the rendered K = 50 file by
tests/coq/test_cw_stream_coef_coqc.py)."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from obligations.errors import SpecError
from obligations.models import load, unfold
from obligations.table import by_stream_coef, by_stream_group
from obligations.table.by_stream_group import T_BITS, exp_bound, pairs_of, predict

SHIPPED = Path("mechanisms/rr5_cw_stream_200_runs.yaml")
BELOW = Path("mechanisms/refuted/rr5_cw_stream_200_runs_below.yaml")
EXACT_50 = 0.0325344960163        # δ(50·ln(19/4)), docs/profiles.md
EXACT_200 = 3.85577425009e-4      # δ(200·ln(19/4)), the bracket Coq's check computes
HALF, ZERO = F(1, 2), F(0)


def test_the_two_pairs_are_found_as_group_shape_reads_them() -> None:
    assert pairs_of((HALF, HALF, ZERO, ZERO, ZERO), (ZERO, ZERO, HALF, HALF, ZERO)) == (0, 1, 2, 3)
    # a support of one input is padded with an input neither prior uses
    assert pairs_of((F(1), ZERO, ZERO, ZERO, ZERO), (ZERO, ZERO, ZERO, HALF, HALF)) == (0, 1, 3, 4)
    third = F(1, 3)
    assert pairs_of((third, third, third, ZERO, ZERO), (ZERO, ZERO, ZERO, HALF, HALF)) is None   # 3 inputs
    assert pairs_of((HALF, HALF, ZERO, ZERO), (ZERO, HALF, HALF, ZERO)) is None                 # overlap
    assert pairs_of((HALF, HALF, ZERO), (ZERO, ZERO, F(1))) is None                              # < 4 inputs


@pytest.mark.parametrize("refute", [False, True])
def test_t_is_a_short_dyadic_on_the_safe_side_of_e_to_the_eps(refute: bool) -> None:
    eps = 200 * sympy.log(sympy.Rational(19, 4))
    t, bound = exp_bound(eps, refute)
    exact = F(19, 4) ** 200
    assert (t >= exact) if refute else (1 <= t <= exact)
    assert abs(t - exact) <= exact / 2 ** (T_BITS - 1)
    n, e = t.numerator, 0
    while n % 2 == 0:
        n, e = n // 2, e + 1
    assert t.denominator == 1 and n.bit_length() <= T_BITS      # a 60-bit integer times 2^e
    assert bound.bound == t and bound.method == "exact"          # exp_exact compares it with (19/4)^200


def test_the_floats_predict_the_exact_deltas() -> None:
    for k, exact in ((50, EXACT_50), (200, EXACT_200)):
        value = predict(2 / 25, 17 / 2, 5, k, (0.5, 0.5), (0.5, 0.5), math.exp(k * math.log(19 / 4)))
        assert abs(value - exact) < 1e-12 * max(1.0, 1e3 * exact)


def test_the_shipped_two_hundred_runs_are_proved_by_block_counts() -> None:
    """The theorem's bound (1.19e-3) cannot prove 3.8558e-4; the grouped sum does, one order."""
    u = unfold(load(SHIPPED))
    assert u.route is not None and u.route.name == "by block counts"
    assert str(u.plan.expected) == "proved"
    assert abs(u.plan.delta_at_claim_float - EXACT_200) < 1e-14
    assert not u.mechanism.check.refute and u.mechanism.check.pairs == (0, 1, 2, 3)
    text = u.rendered.text
    assert ("Theorem rr5_cw_stream_200_runs_dp : dp nb_all rr5_cw_stream_200_runs (200 * (ln (19 / 4))) "
            "(19279 / 50000000).") in text
    assert ("fmech_cw (fmech_power rr5_cw_stream_200_runs_table 200) rr5_cw_stream_200_runs_prior "
            "rr5_cw_stream_200_runs_alt_prior.") in text
    assert "Definition rr5_cw_stream_200_runs_sym : list nat := [2; 3; 0; 1; 4]%nat." in text
    assert "check_group_dp_sym rr5_cw_stream_200_runs_table (2 # 25) (17 # 2) 200" in text
    assert "cw_group_dp_sym_of_check" in text and "exp_exact." in text and u.route.witness(u) is None


def test_a_claim_below_the_exact_delta_is_refuted_with_its_witness() -> None:
    u = unfold(load(BELOW))
    assert u.route is not None and u.route.name == "by block counts"
    assert str(u.plan.expected) == "refuted"
    w = u.route.witness(u)
    assert w is not None and w["runs"] == 200 and w["delta"] == "38557/100000000"
    text = u.rendered.text
    assert "Theorem rr5_cw_stream_200_runs_below_refuted : ~ dp nb_all rr5_cw_stream_200_runs_below" in text
    assert "check_group_refute" in text and "cw_group_not_dp_of_check" in text and "exp_exact_upper." in text


def test_the_fifty_runs_now_go_by_block_counts() -> None:
    u = unfold(load(Path("mechanisms/rr5_cw_stream_50_runs.yaml")))
    assert u.route is not None and u.route.name == "by block counts"
    assert abs(u.plan.delta_at_claim_float - EXACT_50) < 1e-12


def write(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "spec.yaml"
    text = SHIPPED.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return path


def test_priors_off_two_pairs_are_left_to_the_coefficient_route(tmp_path: Path) -> None:
    path = write(tmp_path, 'prior: {"0": "1/2", "1": "1/2"}', 'prior: {"0": "1/3", "1": "1/3", "4": "1/3"}')
    path.write_text(path.read_text().replace("runs: 200,", "runs: 40,"))
    spec = load(path)
    assert not by_stream_group.applies_to(spec) and by_stream_coef.applies_to(spec)
    assert by_stream_group.applies_to(load(write(tmp_path, "runs: 200,", "runs: 40,")))
    assert not by_stream_group.applies_to(load(write(tmp_path, "runs: 200,", "runs: 201,")))


def test_a_claim_too_close_to_the_exact_delta_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'delta: "19279/50000000"', 'delta: "385577425009/1000000000000000"')
    with pytest.raises(SpecError) as exc:
        unfold(load(path))
    assert exc.value.field == "claim.delta"
