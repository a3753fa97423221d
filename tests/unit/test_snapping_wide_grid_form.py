"""All-parameters snapping with a narrower range (grid and bound `{min_over_lambda: ...}`): the
claim goes through SnapSeed64.v's snap_binary64_dp_wide_ab with hints r0, c chosen in Python, else
(below that route's clamps) through SnapTwoSided64.v's snap_binary64_two_ab with hints r0, k1, k2.
Checked here without Coq: the form's exit-2 messages naming the field, the verdict Python expects
at and just past the edge of the proved ranges (with the message naming them), the hints against
mpmath, and the rendered theorem.  Coq: tests/coq/test_snapping_wide_grid_certify.py."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest
import yaml
from inprocess import cli

from obligations.core.obligation import Verdict
from obligations.errors import SpecError
from obligations.float.wide_grid import REFUTED_SEED, SHIFT, SLACK, hints, least_beta0, refuting_range
from obligations.models import load, unfold

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "mechanisms" / "binary64_snapping_seed_constant_wide_grid.yaml"
MIRONOV = REPO / "mechanisms" / "binary64_snapping_mironov_constant_wide_grid.yaml"


def _write(tmp_path: Path, snapping: dict[str, Any] | None = None, bound: dict[str, Any] | None = None) -> Path:
    data = yaml.safe_load(SEED.read_text())
    data["snapping"].update(snapping or {})
    data["claim"]["bound"].update(bound or {})
    path = tmp_path / "wide.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_shipped_specs_are_expected_proved() -> None:
    for spec in (SEED, MIRONOV):
        u = unfold(load(spec.relative_to(REPO)))
        assert u.spec.kind == "binary_snapping_all" and u.spec.ranged
        assert u.plan.expected == Verdict.PROVED, u.plan.notes


@pytest.mark.parametrize("rho0, beta0, a, b, expected", [
    ("19/10", 11, 12, 2, Verdict.PROVED),          # snap_binary64_seed_constant's range
    ("19/10", 10, 12, 2, Verdict.PROVED),          # below SnapSeed64.v's route: the two refinements
    ("19/10", "7/5", 12, 2, Verdict.PROVED),       # (SnapTwoSided64.v) from 1.4 lambda at this grid
    ("19/10", "13/10", 12, 2, Verdict.PROVED),     # the inside form 5.4*beta + 11.2 is above 12*beta + 2 there:
    ("19/10", "77/100", 12, 2, Verdict.PROVED),    # an input inside a bucket in eight pieces (SnapTwoSidedPieces64.v)
    ("19/10", "19/25", 12, 2, Verdict.UNDECIDED),  # the first piece's pair is above 12*beta + 2
    ("19/10", "67/100", 16, 0, Verdict.PROVED),    # Mironov's from 0.67 lambda, no B >= lambda
    ("19/10", "33/50", 16, 0, Verdict.UNDECIDED),
    ("33/20", 75, 12, 2, Verdict.PROVED),
    ("33/20", "17/10", 12, 2, Verdict.PROVED),     # snap_binary64_seed_constant_two_165's range
    ("33/20", "49/50", 12, 2, Verdict.PROVED),     # in eight pieces
    ("33/20", "97/100", 12, 2, Verdict.UNDECIDED),
    ("8/5", 353, 12, 2, Verdict.UNDECIDED),        # 8c > 12 below Lambda = 1.61 lambda, the tail form's slope too
    ("6/5", 19, 16, 0, Verdict.PROVED),            # snap_binary64_mironov_constant_12's range
    ("6/5", 2, 16, 0, Verdict.PROVED),             # snap_binary64_mironov_constant_two_12's
    ("6/5", "19/10", 16, 0, Verdict.UNDECIDED),
    (2, 3, 16, 0, Verdict.PROVED),
    (1, 353, 16, 0, Verdict.UNDECIDED),            # Lambda = lambda: 8c = 17.3 > 16
    (1, "1/1000", 18, 24, Verdict.PROVED),         # the closed form's slope from Lambda >= lambda, b >= 11c
])
def test_verdict_at_the_edge_of_the_proved_ranges(tmp_path: Path, rho0: Any, beta0: Any, a: Any, b: Any,
                                                  expected: Verdict) -> None:
    path = _write(tmp_path, snapping={"grid": {"min_over_lambda": rho0}, "bound": {"min_over_lambda": beta0}},
                  bound={"per_B_over_lambda": a, "constant": b})
    u = unfold(load(path))
    assert u.plan.expected == expected, u.plan.notes
    if expected == Verdict.UNDECIDED:
        assert "undecided" in u.plan.notes[0] and "Lambda >= 1.9 lambda and B >= 11 lambda" in u.plan.notes[0]


@pytest.mark.parametrize("rho0, beta0, a, b, ties, theorem", [
    (1, 100, 12, 2, "any", "snap_binary64_seed_constant_real_false"),
    ("21/20", 257, 12, 2, "up", "snap_binary64_seed_constant_real_false_105"),
    ("21/20", 200, "23/2", 0, "any", "snap_binary64_seed_constant_real_false_105"),
    ("21/20", 258, 12, 2, "any", None),        # the witness's B = 257.75 lambda is below the range
    ("11/10", 100, 12, 2, "any", None),        # no witness at Lambda >= 1.1 lambda
    (1, 100, 12, 3, "any", None),              # a larger constant is not refuted
    (1, 100, 12, 2, "down", None),             # the witnesses round ties up
])
def test_note_names_the_refutation_of_real_inputs(tmp_path: Path, rho0: Any, beta0: Any, a: Any, b: Any,
                                                  ties: str, theorem: str | None) -> None:
    path = _write(tmp_path, snapping={"grid": {"min_over_lambda": rho0}, "bound": {"min_over_lambda": beta0},
                                      "ties": ties}, bound={"per_B_over_lambda": a, "constant": b})
    u = unfold(load(path))
    note = u.plan.notes[0]
    if theorem is None:
        assert u.plan.expected == Verdict.UNDECIDED
        assert "undecided" in note and "not refuted either" in note and "SnapSeedRealRefuted" not in note
    else:
        assert u.plan.expected == Verdict.REFUTED
        assert f"refuted, it is false: {theorem} (theories/Float/SnapSeedRealRefuted.v)" in note
        # the claim's own range reaches the library's refutation at ties up, every a <= 12, b <= 2
        assert f"apply ({theorem}_up " in u.rendered.text and f"{beta0} * lam <= B <= 353 * lam" in u.rendered.text


@pytest.mark.parametrize("rho0", ["1", "6/5", "33/20", "19/10", "2"])
def test_hints_meet_the_theorem_premises(rho0: str) -> None:
    """r0 below e^(rho0 - 10^-4) (Coq's Taylor bound needs room), c the least at six decimals."""
    h = hints(Fraction(rho0))
    with mpmath.workprec(200):
        x = Fraction(rho0) - SHIFT
        assert mpmath.mpf(h.r0.numerator) / h.r0.denominator < mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)
    assert SLACK < h.r0 and SLACK * (h.r0 + 1) <= h.c * (h.r0 - SLACK)
    assert SLACK * (h.r0 + 1) > (h.c - Fraction(1, 10 ** 6)) * (h.r0 - SLACK)
    assert h.exponent == Fraction(rho0) - SHIFT


def test_least_beta0_is_the_edge() -> None:
    h = hints(Fraction(19, 10))
    edge = least_beta0(h, Fraction(12), Fraction(2))
    assert edge is not None and 10 < edge < 11
    assert h.fits(Fraction(12), Fraction(2), edge) and not h.fits(Fraction(12), Fraction(2), edge * Fraction(999, 1000))
    assert least_beta0(hints(Fraction(8, 5)), Fraction(12), Fraction(2)) is None


def test_theorem_states_the_range_and_the_constants() -> None:
    u = unfold(load(SEED.relative_to(REPO)))
    text = u.rendered.text
    assert "Theorem binary64_snapping_seed_constant_wide_grid_dp : forall (t : tie) (choice : Z -> bool)" in text
    assert ("uprob pr -> powerRZ 2 (-968) <= lam -> generic_format radix2 (FLT_exp (-1074) 53) lam ->\n"
            "  (19 / 10) * lam <= grid <= 2 * lam -> 11 * lam <= B <= 353 * lam ->") in text
    assert "exp (Rabs (x - x') / lam + 12 * eta 53 * (B / lam) + 2 * eta 53)" in text
    assert "snap_binary64_dp_wide_ab" in text and "exp_taylor_lower (18999 # 10000)%Q" in text
    for banned in ("Admitted", "admit", "Axiom", "Parameter", "interval"):
        assert banned not in text


def test_show_lists_the_lemmas_the_file_has() -> None:
    """The typed list beside the template is the rendered file's (lemma names in order, each
    proof's tactics in order of first use)."""
    from rendered_proofs import lemmas_and_tactics

    from obligations.float.all_parameters_cases import obligations
    u = unfold(load(MIRONOV.relative_to(REPO)))
    assert obligations(u.mechanism) == lemmas_and_tactics(u.rendered.text)


@pytest.mark.parametrize("snapping, field", [
    ({"grid": {"min_over_lambda": "21/10"}}, "snapping.grid.min_over_lambda"),
    ({"grid": {"min_over_lambda": "0.9"}}, "snapping.grid.min_over_lambda"),
    ({"bound": {"min_over_lambda": 0}}, "snapping.bound.min_over_lambda"),
    ({"bound": {"min_over_lambda": 354}}, "snapping.bound.min_over_lambda"),
    ({"bound": "any"}, "snapping.bound"),
    ({"grid": {"min_over_lambda": "exp(1)"}}, "snapping.grid.min_over_lambda"),
    ({"grid": {"at_least": 2}}, "snapping.grid"),
])
def test_bad_range_names_the_field(tmp_path: Path, snapping: Any, field: str) -> None:
    path = _write(tmp_path, snapping=snapping)
    with pytest.raises(SpecError) as err:
        load(path)
    assert field in str(err.value) and str(path) in str(err.value)


def test_bad_range_exits_2(tmp_path: Path) -> None:
    path = _write(tmp_path, snapping={"bound": {"min_over_lambda": 400}})
    run = cli("check", str(path))
    assert run.returncode == 2, run.stdout + run.stderr
    assert "snapping.bound.min_over_lambda" in run.stderr and "(0, 353]" in run.stderr, run.stderr


def test_show_json_gives_the_routes_constants() -> None:
    run = cli("show", "--json", str(SEED.relative_to(REPO)))
    assert run.returncode == 0, run.stderr
    [item] = json.loads(run.stdout)
    c = Fraction(item["library_constants"]["c"])
    assert Fraction(item["library_constants"]["per_B_over_lambda"]) == 8 * c < 12
    assert item["obligations"][-1]["name"] == "binary64_snapping_seed_constant_wide_grid_dp"


def test_refuted_ranges_are_the_library_theorems() -> None:
    """wide_grid.REFUTED_SEED names SnapSeedRealRefuted.v's theorems with their own bounds on rho0, beta0."""
    text = (REPO / "obligations" / "theories" / "Float" / "SnapSeedRealRefuted.v").read_text(encoding="utf-8")
    for rho0, beta0, name in REFUTED_SEED:
        rho = str(rho0.numerator) if rho0.denominator == 1 else f"{rho0.numerator} / {rho0.denominator}"
        assert (f"Theorem {name} : forall rho0 beta0, rho0 <= {rho} -> beta0 <= {beta0} ->\n"
                "  ~ snap64_constant rho0 beta0 12 2.") in text
        assert (f"Theorem {name}_up : forall rho0 beta0 a b, rho0 <= {rho} -> 0 <= beta0 <= {beta0} -> a <= 12 "
                "-> b <= 2 ->\n  ~ snap64_constant_ties TiesUp rho0 beta0 a b.") in text
        assert refuting_range(name) == (rho0, beta0)
