"""Binary snapping specs (kind `binary_snapping`): the checks, their exit-2 messages with the
proved range, the verdict Python expects (a claim below the theorem's value is undecided), the
rendered statement, and the shipped diffprivlib spec against `analysis/diffprivlib_snapping.py`
(and against diffprivlib itself when it can be imported).  No Coq here: tests/coq/test_binary_snapping_certify.py."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from clients import diffprivlib_snapping
from inprocess import cli

from obligations.analysis import diffprivlib_snapping as D
from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.float.binary64 import analyse, theorem_value
from obligations.float.binary64_spec import ETA, choose_delta, displacement
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "mechanisms" / "diffprivlib_snapping.yaml"
NUMPY_LOG = REPO / "tests" / "specs" / "binary64" / "diffprivlib_snapping_numpy_log.yaml"
USER_EPS = REPO / "tests" / "specs" / "binary64" / "diffprivlib_snapping_user_eps.yaml"
# diffprivlib's parameters the shipped spec describes
EPS, SENS, LOWER, UPPER = 1.0, 1.0, 0.0, 200.0


def _write(tmp_path: Path, **changes: Any) -> Path:
    """The shipped spec with the noise's epsilon written out (no calibration), changed."""
    data = yaml.safe_load(SHIPPED.read_text())
    del data["snapping"]["calibration"]
    data["snapping"]["epsilon"] = repr(D.calibrate(EPS, SENS, LOWER, UPPER).effective_epsilon)
    for key, value in changes.items():
        data["snapping"][key] = value
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_shipped_spec_is_diffprivlibs_calibration() -> None:
    s = load(SHIPPED.relative_to(REPO))
    c = D.calibrate(EPS, SENS, LOWER, UPPER)
    assert float(s.epsilon) == c.effective_epsilon     # the spec's decimal is diffprivlib's epsilon'
    assert s.scale == Fraction(c.scale)                # lambda = 1.0/epsilon' in binary64
    assert s.grid == Fraction(c.grid) and s.grid_auto
    assert s.bound == Fraction(c.bound)
    assert s.ties == "up" and s.ulps is None           # diffprivlib: ties toward +inf; crlibm's log_rn
    assert c.in_mironov_range()


def test_calibrated_spec_claims_the_users_epsilon(tmp_path: Path) -> None:
    """calibration: diffprivlib takes the user's epsilon; the noise's is diffprivlib's, and the
    theorem is the one of the spec with that epsilon written out."""
    s = load(SHIPPED.relative_to(REPO))
    assert s.user_epsilon == 1 and s.loss == 1 and float(s.epsilon) == 0.9999999999998666
    written = load(_write(tmp_path))
    assert written.user_epsilon is None and (written.scale, written.grid, written.bound) == (s.scale, s.grid, s.bound)
    seed = 1 / s.scale + 12 * ETA * s.bound / s.scale + 2 * ETA
    assert 0 < seed - 1 < ETA * Fraction(1, 10 ** 12)      # the seed's constant alone misses 1 by 3e-29
    assert "above the claim by 2.67e-13 eta" in unfold(s).plan.notes[0]


@pytest.mark.parametrize("field, value, words", [
    ("epsilon", "10**400", ["snapping.epsilon", "outside binary64's range"]),
    ("epsilon", "1/4503599627370496", ["snapping.epsilon", "diffprivlib refuses"]),   # 2 eta
    ("bound", "100/3", ["snapping.bound", "not a binary64 number"]),
    ("calibration", "opendp", ["snapping.calibration"]),
])
def test_bad_calibrated_input_names_the_field(tmp_path: Path, field: str, value: Any, words: list[str]) -> None:
    data = yaml.safe_load(SHIPPED.read_text())
    data["snapping"][field] = value
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(SpecError) as err:
        load(path)
    for w in words:
        assert w in str(err.value), str(err.value)


@pytest.mark.parametrize("value", ["0.1", "1/10"])
def test_the_users_epsilon_is_read_as_python_reads_it(tmp_path: Path, value: str) -> None:
    """`Snapping(epsilon=0.1, ...)` is given the double nearest 1/10: so is the spec's epsilon."""
    data = yaml.safe_load(SHIPPED.read_text())
    data["snapping"]["epsilon"] = value
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    s = load(path)
    assert s.user_epsilon == Fraction(0.1) != Fraction(1, 10)
    assert s.epsilon == Fraction(D.effective_epsilon(0.1, 100.0))
    assert "user's eps = 0.1 (exactly 3602879701896397/36028797018963968)" in s.epsilon_text


def test_shipped_spec_equals_diffprivlib_itself() -> None:
    m = diffprivlib_snapping()(epsilon=EPS, sensitivity=SENS, lower=LOWER, upper=UPPER)
    s = load(SHIPPED.relative_to(REPO))
    assert float(s.epsilon) == m.effective_epsilon()
    assert s.scale == Fraction(1.0 / m.effective_epsilon())
    assert s.grid == Fraction(m._get_nearest_power_of_2(1.0 / m.effective_epsilon()))
    assert s.bound == Fraction(m._bound)


def test_the_users_epsilon_is_proved_with_crlibm_and_undecided_with_numpy_log() -> None:
    for path in (SHIPPED, NUMPY_LOG):
        u = unfold(load(path.relative_to(REPO)))
        assert u.plan.expected == Verdict.PROVED, u.plan.notes
        assert u.mechanism.value < float(u.spec.loss)
    shipped = unfold(load(SHIPPED.relative_to(REPO)))
    assert shipped.spec.loss == 1 and "0.99999999999998446" in shipped.plan.notes[0]
    # diffprivlib's accounting leaves 12*B*eta + 2*eta between epsilon' and epsilon: ln K fits in it
    assert shipped.mechanism.value - 1 / float(shipped.spec.scale) < (12 * 100 + 2) * float(ETA)
    u = unfold(load(USER_EPS.relative_to(REPO)))
    assert u.plan.expected == Verdict.UNDECIDED and u.spec.ulps == 1
    assert "undecided" in u.plan.notes[0] and "1.0000000000000431" in u.plan.notes[0]
    assert (12 * 100 + 2) * float(ETA) < u.mechanism.value - 1 / float(u.spec.scale)


def test_numpy_log_costs_more_than_a_correctly_rounded_log() -> None:
    cr = unfold(load(SHIPPED.relative_to(REPO))).mechanism
    one_ulp = unfold(load(NUMPY_LOG.relative_to(REPO))).mechanism
    assert cr.value < one_ulp.value
    assert one_ulp.spec.mu == 2 * ETA / (1 - 2 * ETA) and cr.spec.mu == ETA


def test_delta_exceeds_the_displacement_and_the_value_is_about_the_docs_constant() -> None:
    s = load(SHIPPED.relative_to(REPO))
    d = choose_delta(s.bound, s.grid, s.mu)
    assert displacement(s.bound, s.grid, s.mu) < d < displacement(s.bound, s.grid, s.mu) * Fraction(1002, 1000)
    # ln K ~ 10.5 B eps eta for Lambda = 2 lambda (docs/snap_tight.md), plus the constant term
    ln_k = float(theorem_value(s, d)) - 1 / float(s.scale)
    assert 10.5 * 100 * float(ETA) < ln_k < 10.7 * 100 * float(ETA)


def _statement(text: str) -> str:
    return text[text.index("Theorem "):text.index("Proof.", text.index("Theorem "))]


def test_render_states_the_claim_with_only_the_sampler_as_hypothesis() -> None:
    text = unfold(load(SHIPPED.relative_to(REPO))).rendered.text
    assert "From Obligations Require Import PreludeBinary." in text
    theorem = _statement(text)
    # a correctly rounded log: lnf is the format's rounded ln, nothing is assumed about it
    assert "forall (choice : Z -> bool) (pr : (R -> Prop) -> R),\n  uprob pr ->\n  forall x x' out," in theorem
    assert "choice (fun v => rnd 53 (-1074) choice (ln v)) pr diffprivlib_snapping_lam x" in theorem
    assert "pipeline_ok" not in theorem and "lnf" not in theorem
    assert "bpow radix2 (-1074 + 2 * 53) <= diffprivlib_snapping_lam" in text
    assert "generic_format radix2 (FLT_exp (-1074) 53) diffprivlib_snapping_lam" in text
    assert "Rabs (x - x') <= 1 ->" in text and "float_snap TiesUp" in text
    assert "float_snap_dp_tight_correct 53 (-1074)" in text
    for word in ("Admitted", "admit.", "Axiom", "Parameter"):
        assert word not in text


def test_render_of_a_log_within_ulps_assumes_only_the_logs_error() -> None:
    text = unfold(load(NUMPY_LOG.relative_to(REPO))).rendered.text
    theorem = _statement(text)
    assert "pipeline_ok" not in theorem
    assert ("uprob pr ->\n  (forall v, generic_format radix2 (FLT_exp (-1074) 53) v -> 0 < v < 1 -> "
            "rel_within diffprivlib_snapping_numpy_log_mu (ln v) (lnf v)) ->\n  forall x x' out,") in theorem
    assert "float_snap_dp_tight_log 53 (-1074)" in text


def test_claim_precision_follows_the_gap(tmp_path: Path) -> None:
    path = _write(tmp_path)
    data = yaml.safe_load(path.read_text())
    data["claim"]["epsilon"] = 2
    path.write_text(yaml.safe_dump(data))
    loose = analyse(load(path))
    tight = analyse(load(SHIPPED.relative_to(REPO)))
    assert loose.provable and tight.provable and loose.bits < tight.bits


@pytest.mark.parametrize("field, value, words", [
    ("format", "binary32", ["snapping.format", "binary64"]),
    ("ties", "even", ["snapping.ties", "up", "down"]),
    ("bound", 400, ["snapping.bound", "beyond the proved range", "about 353.698"]),
    ("bound", "2**47", ["snapping.bound", "2^46 * lambda", "Mironov"]),
    ("bound", "2**", ["snapping.bound"]),
    ("bound", "x + 1", ["snapping.bound", "not an exact number"]),
    ("epsilon", "2**1023", ["snapping.epsilon", "below 2^-968", "lambda >= 2^-968"]),
    ("epsilon", "2**969", ["snapping.epsilon", "below 2^-968", "lambda >= 2^-968"]),
    ("grid", "1/1000000000000000", ["snapping.grid", "too fine"]),
    ("epsilon", 0, ["snapping.epsilon", "> 0"]),
    ("epsilon", "2**1100", ["snapping.epsilon", "binary64's range"]),
    ("epsilon", "(1/7)**2000", ["snapping.epsilon", "not an exact number"]),
    ("bound", "2**1100", ["snapping.bound"]),
    ("log", {"ulps": 0}, ["snapping.log.ulps", "[1, "]),
    ("log", {"correctly_rounded": False}, ["log"]),
])
def test_bad_input_names_the_field_and_the_range(tmp_path: Path, field: str, value: Any,
                                                 words: list[str]) -> None:
    path = _write(tmp_path, **{field: value})
    with pytest.raises(SpecError) as err:
        load(path)
    for w in words:
        assert w in str(err.value), str(err.value)


def test_bad_input_exits_2_and_runs_nothing(tmp_path: Path) -> None:
    run = cli("prove", str(_write(tmp_path, bound=400)), "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert "snapping.bound" in run.stderr and "about 353.698" in run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_range_limit_is_about_354_lambda() -> None:
    s = load(SHIPPED.relative_to(REPO))
    limit = (1022 * math.log(2) * float(s.scale) - float(s.grid) / 2) / 2
    assert 353.5 < limit < 354.5


AS_SHIPPED = REPO / "mechanisms" / "refuted" / "diffprivlib_snapping_as_shipped.yaml"


def test_diffprivlibs_rounding_is_refuted_at_its_witness_parameters() -> None:
    u = unfold(load(AS_SHIPPED.relative_to(REPO)))
    assert u.spec.rounding == "diffprivlib" and u.plan.expected == Verdict.REFUTED
    assert "not epsilon-DP for any epsilon" in u.plan.notes[0]
    assert u.rendered.theorems == ("diffprivlib_snapping_as_shipped_not_dp",)
    assert "diffprivlib_not_dp pr Hpr" in u.rendered.text
    # the spec's parameters are diffprivlib's own for epsilon 1.5, bounds [0, nextafter(1.5, 2)]
    c = D.calibrate(1.5, 1.0, 0.0, math.nextafter(1.5, 2.0))
    assert u.spec.scale == Fraction(c.scale) and u.spec.bound == Fraction(c.bound) and u.spec.grid == c.grid == 1
    assert float(u.spec.epsilon) == c.effective_epsilon and c.in_mironov_range()


def test_the_witness_sample_leaves_the_grid_in_the_description() -> None:
    """The sample of Float/DiffprivlibRound.v, run through analysis/diffprivlib_snapping.py with a correctly
    rounded log (mpmath): the input 0.7500000000000001 outputs 0.7500000000000002 (2^-54 scaled)."""
    import mpmath
    c = D.calibrate(1.5, 1.0, 0.0, math.nextafter(1.5, 2.0))
    u0 = 8509399323626886 * 2.0 ** -54
    with mpmath.workprec(200):
        log_u0 = float(mpmath.log(mpmath.mpf(u0)))
    assert log_u0 == -6755399441055736 * 2.0 ** -53
    assert D.randomise_scaled(c, 0.7500000000000001, 0, log_u0) == 2.0 ** -54
    assert D.randomise(c, 0.7500000000000001, 0, log_u0) == 0.7500000000000002
    for u in (math.nextafter(u0, 0), math.nextafter(u0, 1)):   # its neighbours stay on the grid
        with mpmath.workprec(200):
            lg = float(mpmath.log(mpmath.mpf(u)))
        assert D.randomise_scaled(c, 0.7500000000000001, 0, lg) == 0.0


@pytest.mark.parametrize("field, value", [("epsilon", 1), ("bound", 100), ("ties", "down"),
                                          ("log", {"ulps": 1})])
def test_diffprivlibs_rounding_outside_its_witness_is_bad_input(tmp_path: Path, field: str, value: Any) -> None:
    data = yaml.safe_load(AS_SHIPPED.read_text())
    data["snapping"][field] = value
    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(SpecError) as err:
        load(path)
    assert "snapping.rounding" in str(err.value) and "epsilon 1.5" in str(err.value)
