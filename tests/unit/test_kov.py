"""The KOV sum in Python (obligations/kinds/finite/kov.py): the hints Coq checks, against the
external values of tests/data/reference/kov_ln3.json and the curve `region --compose` prints."""
from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from obligations.analysis.compose import kov_curve
from obligations.table.kov import Exponent, KovClaim, claims_for, kov_delta, render_kov, rr_ratio

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference" / "kov_ln3.json"
LN3 = Exponent(Fraction(3), log=True)


def test_kov_sum_matches_the_reference_points() -> None:
    data = json.loads(REFERENCE.read_text())
    seen = 0
    for case in data["cases"]:
        k = case["k"]
        for point in case["kov_points"]:
            m = k - 2 * point["i"]                      # ε_i = (k − 2i) ln 3, e^ε_i = 3^m
            exact = Fraction(point["delta"])
            got = kov_delta(LN3, k, Exponent(Fraction(3) ** m, log=True))
            with mpmath.workdps(50):
                assert abs(got - mpmath.mpf(exact.numerator) / exact.denominator) < mpmath.mpf(10) ** -30
            seen += 1
    assert seen > 30


@pytest.mark.parametrize("eps0, k, eps", [(1.0, 100, 10.0), (0.5, 10, 0.25), (float(mpmath.log(3)), 10, 2.0)])
def test_kov_sum_is_the_curve_region_prints(eps0: float, k: int, eps: float) -> None:
    e0 = Exponent(Fraction(eps0)) if eps0 != float(mpmath.log(3)) else LN3
    assert float(kov_delta(e0, k, Exponent(Fraction(eps)))) == pytest.approx(kov_curve(eps0, 0.0, k).delta(eps),
                                                                             rel=1e-9)


def test_claims_bracket_the_sum_and_randomized_response_reaches_the_lower_end() -> None:
    e0 = Exponent(Fraction(1))
    (c,) = claims_for(e0, 100, [Exponent(Fraction(10))])
    exact = kov_delta(e0, 100, Exponent(Fraction(10)))
    assert float(c.lower) < exact < float(c.upper) and c.upper - c.lower <= Fraction(1, 10 ** 5)
    r = rr_ratio(e0)
    assert 0 < math.e - float(r) < 1e-11      # the rational randomized response, just below e
    assert kov_delta(Exponent(r, log=True), 100, Exponent(Fraction(10))) > float(c.lower)
    assert rr_ratio(LN3) == 3


def test_render_refuses_what_the_intervals_cannot_evaluate() -> None:
    claim = KovClaim(Exponent(Fraction(1)), Fraction(1, 2), Fraction(1, 4))
    with pytest.raises(ValueError, match="Coq identifier"):
        render_kov("bad name", LN3, 10, [claim])
    with pytest.raises(ValueError, match="eps0 > 0"):
        render_kov("k", Exponent(Fraction(0)), 10, [claim])
    with pytest.raises(ValueError, match="below 700"):
        render_kov("k", Exponent(Fraction(1)), 1000, [claim])
    with pytest.raises(ValueError, match="positive"):
        Exponent(Fraction(0), log=True)


def test_render_states_the_claim_for_every_mechanism() -> None:
    text = render_kov("k10", LN3, 10, claims_for(LN3, 10, [Exponent(Fraction(9), log=True)]))
    assert "forall (nb : nat -> nat -> bool) (M : fmech)" in text or "(nb : nat -> nat -> bool) (M : fmech) :" in text
    assert "dp nb (fmech_power M 10) (ln (Q2R (9 # 1)))" in text
    assert "krr_fmech (3 # 4) 2" in text and "Admitted" not in text


# ---- the spec form `kov: {epsilon0, runs}` (obligations/kinds/kov) ----

def _spec(tmp_path: Path, kov: str, claim: str) -> Path:
    p = tmp_path / "k.yaml"
    p.write_text(f"schema_version: 1\nname: kov_claim\nkov: {kov}\nclaim: {claim}\n")
    return p


@pytest.mark.parametrize("kov, claim, field", [
    ('{epsilon0: 0, runs: 10}', '{epsilon: 1, delta: 0.5}', "kov.epsilon0"),
    ('{epsilon0: "ln(1/2)", runs: 10}', '{epsilon: 1, delta: 0.5}', "kov.epsilon0"),
    ('{epsilon0: "exp(1)", runs: 10}', '{epsilon: 1, delta: 0.5}', "kov.epsilon0"),
    ('{epsilon0: "__import__(1)", runs: 10}', '{epsilon: 1, delta: 0.5}', "kov.epsilon0"),
    ('{epsilon0: 1, runs: 0}', '{epsilon: 1, delta: 0.5}', "kov.runs"),
    ('{epsilon0: 1, runs: 1000}', '{epsilon: 1, delta: 0.5}', "kov.runs"),     # e^1000: beyond binary64
    ('{epsilon0: 1, runs: 10}', '{epsilon: -1, delta: 0.5}', "claim.epsilon"),
    ('{epsilon0: 1, runs: 10}', '{epsilon: 1, delta: 2}', "claim.delta"),
    ('{epsilon0: 1, runs: 10}', '{epsilon: 1, delta: "ln(2)"}', "claim.delta"),
    ('{epsilon0: 1, runs: 10, delta0: 0}', '{epsilon: 1, delta: 0.5}', "kov.delta0"),
])
def test_bad_kov_spec_exits_2_naming_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               kov: str, claim: str, field: str) -> None:
    from obligations import cli
    assert cli.main(["check", str(_spec(tmp_path, kov, claim))]) == 2
    err = capsys.readouterr().err
    assert "k.yaml" in err and field in err


def test_kov_spec_predicts_the_verdict_and_renders_one_theorem(tmp_path: Path) -> None:
    from obligations.core.obligation import Verdict
    from obligations.models import load, unfold
    above = unfold(load(_spec(tmp_path, '{epsilon0: "ln(3)", runs: 10}', '{epsilon: "2*ln(3)", delta: 0.7444}')))
    assert above.plan.expected == Verdict.PROVED and above.rendered.theorems == ("kov_claim_dp",)
    assert "dp nb (fmech_power M 10) (ln (Q2R (9 # 1)))" in above.rendered.text
    below = unfold(load(_spec(tmp_path, '{epsilon0: 1, runs: 100}', '{epsilon: 70, delta: 0.001427}')))
    assert below.plan.expected == Verdict.REFUTED and below.rendered.theorems == ("kov_claim_refuted",)
    assert abs(below.plan.delta_at_claim_float - 0.00142731942726085) < 1e-15
    # the exact KOV value 780480/4^10 at 2 ln 3: no interval can decide it, nothing is sent to Coq
    tie = unfold(load(_spec(tmp_path, '{epsilon0: "ln(3)", runs: 10}', '{epsilon: "2*ln(3)", delta: 780480/1048576}')))
    assert tie.plan.expected == Verdict.UNDECIDED


@pytest.mark.parametrize("name, expected", [("kov_ln3_10_runs", "proved"), ("kov_eps1_100_runs", "proved")])
def test_shipped_kov_specs_load_and_python_expects_them_proved(name: str, expected: str) -> None:
    from obligations.models import load, unfold
    repo = Path(__file__).resolve().parents[2]
    spec = load(repo / "mechanisms" / f"{name}.yaml")
    assert spec.name == name and spec.kind == "kov"
    assert unfold(spec).plan.expected == expected


def test_region_compose_names_the_spec_that_certifies_its_kov_points(capsys: pytest.CaptureFixture[str]) -> None:
    from obligations import cli
    assert cli.main(["region", "mechanisms/randomized_response.yaml", "--compose", "3"]) == 0
    out = capsys.readouterr().out
    assert "KOV bound at eps = ln(3): 0.375" in out
    assert 'kov: {epsilon0: "ln(3)", runs: 3}' in out
