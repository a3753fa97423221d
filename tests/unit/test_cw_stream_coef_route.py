"""K runs of randomized response on the same database by coefficient vectors
(table/by_stream_coef.py): the exact route beyond the classes of output sequences, tried when
the composition theorem's bound cannot decide.  Which claims it takes, what it predicts and
renders, and what it leaves to the other routes.  No Coq (tests/coq/test_cw_stream_coef_route.py
proves and refutes with Coq).  The shipped specs' priors lie on two pairs of inputs, which the
grouped route (table/by_stream_group.py) takes first: it is given no runs here, so that the
coefficient route's choices are tested on the same specs."""
from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from obligations.analysis import cw_coef
from obligations.errors import SpecError
from obligations.models import load, unfold
from obligations.table import by_stream_group
from obligations.table.by_stream_coef import TAU_EXP, _tau_exp, rr_form, swaps, symmetry

SPECS = Path("tests/specs/cw_compose")
SHIPPED = Path("mechanisms/rr5_cw_stream_50_runs.yaml")
ROWS = tuple(tuple(F(17, 25) if x == y else F(2, 25) for y in range(5)) for x in range(5))
EXACT_50 = 0.0325344960163        # δ(50·ln(19/4)), docs/profiles.md


@pytest.fixture(autouse=True)
def _no_grouped_route(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(by_stream_group, "MAX_RUNS", 1)


def test_randomized_response_is_recognised_as_check_rr_reads_it() -> None:
    assert rr_form(ROWS) == (F(2, 25), F(17, 2))
    other = ROWS[:4] + ((F(2, 25), F(2, 25), F(2, 25), F(3, 25), F(16, 25)),)
    assert rr_form(other) is None
    assert rr_form(((F(1), F(0)), (F(0), F(1)))) is None          # lo = 0: no ratio r


def test_swaps_pair_the_inputs_of_equal_prior_weights() -> None:
    half, zero = F(1, 2), F(0)
    assert swaps((half, half, zero, zero, zero), (zero, zero, half, half, zero)) == ((0, 1), (2, 3))
    third = F(1, 3)
    assert swaps((third, third, third), (zero, zero, zero)) == ((0, 1), (1, 2), (0, 1), (1, 2))


def test_a_symmetry_swaps_the_priors_or_there_is_none() -> None:
    half, zero = F(1, 2), F(0)
    assert symmetry((half, half, zero, zero, zero), (zero, zero, half, half, zero)) == (2, 3, 0, 1, 4)
    assert symmetry((F(1), zero, zero), (zero, half, half)) is None
    assert symmetry((half, half), (half, half)) == (0, 1)


def test_the_shipped_fifty_runs_are_proved_exactly() -> None:
    """The theorem's bound (0.0592) cannot prove 0.0326; the coefficient route proves it, both orders."""
    u = unfold(load(SHIPPED))
    assert u.route is not None and u.route.name == "by coefficient vectors"
    assert str(u.plan.expected) == "proved"
    assert abs(u.plan.delta_at_claim_float - EXACT_50) < 1e-11
    check = u.mechanism.check
    # 0.0326 leaves room above 0.03253: coefficients below 2^-27 dropped (fewer states to re-check)
    assert check.t == F(19, 4) ** 50 and not check.refute and check.tau_exp == -27
    text = u.rendered.text
    assert "Definition tau : float := 0x1p-27%float." in text
    assert ("Theorem rr5_cw_stream_50_runs_dp : dp nb_all rr5_cw_stream_50_runs (50 * (ln (19 / 4))) "
            "(163 / 5000).") in text
    assert ("fmech_cw (fmech_power rr5_cw_stream_50_runs_table 50) rr5_cw_stream_50_runs_prior "
            "rr5_cw_stream_50_runs_alt_prior.") in text
    # the priors swap under 0 <-> 2, 1 <-> 3: one order of the rows proves both
    assert "Definition rr5_cw_stream_50_runs_sym : list nat := [2; 3; 0; 1; 4]%nat." in text
    assert "check_coef_dp_sym rr5_cw_stream_50_runs_table (2 # 25) (17 # 2)" in text
    assert "cw_coef_dp_sym_of_check" in text and u.route.witness(u) is None


def test_the_drop_threshold_is_coarse_only_when_the_claim_leaves_room() -> None:
    """20 runs, δ(20·ln(19/4)) = 0.0929150568959: a claim 10^-2 away drops below 2^-27, one
    2·10^-12 away keeps the fine 2^-47, from either side."""
    half, zero = F(1, 2), F(0)
    prior, alt = (half, half, zero, zero, zero), (zero, zero, half, half, zero)
    eps = 20 * math.log(19 / 4)
    est = cw_coef.coef_hs(ROWS, prior, alt, 20, eps, tau=2.0 ** TAU_EXP).estimate
    order = ((prior, alt, est),)
    assert _tau_exp(ROWS, order, 20, eps, est + 1e-2, refute=False) == -27
    assert _tau_exp(ROWS, order, 20, eps, est - 1e-2, refute=True) == -27
    assert _tau_exp(ROWS, order, 20, eps, est + 2e-12, refute=False) == TAU_EXP
    assert _tau_exp(ROWS, order, 20, eps, est - 2e-12, refute=True) == TAU_EXP


def test_a_claim_below_the_exact_delta_is_refuted_with_its_witness() -> None:
    u = unfold(load(Path("mechanisms/refuted/rr5_cw_stream_50_runs_below.yaml")))
    assert u.route is not None and u.route.name == "by coefficient vectors"
    assert str(u.plan.expected) == "refuted"
    w = u.route.witness(u)
    assert w is not None and w["runs"] == 50 and {w["x"], w["x_prime"]} == {"D", "alt"}
    assert w["delta"] == "13/400" and abs(float(w["delta_exact"]) - EXACT_50) < 1e-11
    text = u.rendered.text
    assert "Theorem rr5_cw_stream_50_runs_below_refuted : ~ dp nb_all rr5_cw_stream_50_runs_below" in text
    assert "check_coef_refute" in text and "cw_coef_not_dp_of_check" in text


def test_what_the_theorem_proves_stays_with_the_theorem() -> None:
    for path in (SPECS / "rr5_cw_stream_k20_theorem.yaml", Path("mechanisms/rr5_cw_stream_1000_runs.yaml")):
        u = unfold(load(path))
        assert u.route is not None and u.route.name == "by the streaming composition theorem"
        assert str(u.plan.expected) == "proved"


def write(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SHIPPED.read_text().replace(old, new))
    return path


def test_beyond_its_runs_the_claim_goes_to_the_theorem(tmp_path: Path) -> None:
    """Past 50 runs (the re-check's cost) an undecidable claim is the theorem's: undecided."""
    u = unfold(load(write(tmp_path, "runs: 50,", "runs: 60,")))
    assert u.route is not None and u.route.name == "by the streaming composition theorem"
    assert str(u.plan.expected) == "undecided"


def test_a_claim_too_close_to_the_exact_delta_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'delta: "163/5000"', 'delta: "325344960163/10000000000000"')
    with pytest.raises(SpecError) as exc:
        unfold(load(path))
    assert exc.value.field == "claim.delta"


def test_bad_priors_are_refused_naming_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, 'prior: {"0": "1/2", "1": "1/2"}', 'prior: {"0": "1/2", "1": "1/3"}')
    with pytest.raises(SpecError) as exc:
        unfold(load(path))
    assert exc.value.field.startswith("cw.prior")
    path = write(tmp_path, 'alt_prior: {"2": "1/2", "3": "1/2"}', 'alt_prior: {"2": "1/2", "7": "1/2"}')
    with pytest.raises(SpecError) as exc:
        unfold(load(path))
    assert exc.value.field.startswith("cw.alt_prior")
