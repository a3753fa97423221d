"""Clamped noise pipelines with a sensitivity above 2B: clamping f(a) to [-B, B] puts two
query values at most min(Δ, 2B) apart, so the tight ε reported is r·min(Δ, 2B), not r·Δ.
Example: B = 1/4, Λ = 1, Δ = 3, ε = 1: 1/2, not 3.  No Coq here."""
from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
import sympy

from obligations.certify.run import unfold as unfold_spec
from obligations.models import check, load
from obligations.noise.analysis import unfold
from obligations.noise.document import render

SPECS = Path("tests/specs/pipelines_clamp")
WIDE: dict[str, Any] = {
    "schema_version": 1,
    "name": "snap_wide",
    "parameters": {"eps": "1", "lam": "1", "B": "1/4"},
    "pipeline": {"steps": ["ln", {"scale": "1/eps"}, "sign", {"add_query": {"clamp": "B"}},
                           {"round": {"grid": "lam"}}, {"clamp": "B"}],
                 "sensitivity": 3},
    "claim": {"epsilon": "1/2"},
}


def spec(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(WIDE)
    for key, value in changes.items():
        if key in ("parameters", "claim"):
            d[key] = value
        else:
            d["pipeline"][key] = value
    return d


def laplace_tail(t: float) -> float:
    """Pr[N >= t] for the noise N = S·ln(u), u ~ U(0, 1], S ~ ±1 (Laplace, rate 1)."""
    return 0.5 * math.exp(-t) if t >= 0 else 1 - 0.5 * math.exp(t)


def outputs(fa: float) -> list[float]:
    """Pr[-B], Pr[0], Pr[B] for B = 1/4, Λ = 1, ties up, by hand (not from the case table):
    round(c + N) >= 1 iff c + N >= 1/2, <= -1 iff c + N < -1/2."""
    c = max(-0.25, min(0.25, fa))
    top, bottom = laplace_tail(0.5 - c), 1 - laplace_tail(-0.5 - c)
    return [bottom, 1 - top - bottom, top]


def test_wide_sensitivity_reports_eps_times_2b() -> None:
    u = unfold(load(SPECS / "snapping_clamp_wide.yaml"))
    assert u.truth == sympy.Rational(1, 2)              # 1 · min(3, 2 · 1/4), not 3
    assert (u.expected, u.distance) == ("proved", "2B")
    plan = unfold_spec(load(SPECS / "snapping_clamp_wide.yaml")).plan
    assert (plan.tight_epsilon, plan.tight_epsilon_float) == ("1/2", 0.5)


def test_the_truth_by_hand_is_one_half() -> None:
    """The largest ratio of output probabilities over query values 3 apart is e^(1/2)."""
    grid = [-3 + i / 40 for i in range(241)]            # f(a) in [-3, 3]
    worst = max(max(p / q for p, q in zip(outputs(a), outputs(b), strict=False))
                for a in grid for b in grid if abs(a - b) <= 3)
    assert worst == pytest.approx(math.exp(0.5), rel=1e-12)
    assert outputs(0.25)[2] / outputs(-0.25)[2] == pytest.approx(math.exp(0.5), rel=1e-12)


def test_claim_below_is_refuted_at_the_top_tail() -> None:
    u = unfold(load(SPECS / "snapping_clamp_wide_tightened.yaml"))
    assert u.expected == "refuted" and u.truth == sympy.Rational(1, 2)
    w = u.witness
    assert w is not None and (w.case, w.output, w.ceil) == ("top", "1/4", 1)   # the output B = 1/4
    assert (w.fa, w.fa2) == (sympy.Rational(1, 4), -sympy.Rational(1, 4))
    assert sympy.simplify(w.ratio - sympy.exp(sympy.Rational(1, 2))) == 0
    assert sympy.simplify(w.p - sympy.exp(-sympy.Rational(1, 4)) / 2) == 0
    assert float(w.p) > math.exp(float(w.claim)) * float(w.p2)
    assert render(u).theorems == ("snapping_clamp_wide_tightened_not_dp",)


def test_render_proves_the_2b_bound() -> None:
    rendered = render(unfold(load(SPECS / "snapping_clamp_wide.yaml")))
    lemmas = rendered.lemmas
    claim_ge = next(x for x in lemmas if x.name == "snapping_clamp_wide_claim_ge")
    assert claim_ge.statement == "eps * (2 * B) <= (1 / 2)"
    assert "eapply snap_dp_clamped_2b;" in rendered.text
    assert "p <= exp (eps * (2 * B)) * p'." in rendered.text
    # the certificate's theorem is still about neighbours |fa - fa'| <= 3
    assert "Theorem snapping_clamp_wide_dp : forall fa fa', Rabs (fa - fa') <= 3 ->" in rendered.text


def test_sensitivity_within_2b_is_unchanged() -> None:
    u = unfold(load("mechanisms/snapping_clamped_instance.yaml"))   # B = 10, Δ = 2
    assert (u.truth, u.expected, u.distance) == (2, "proved", "delta")
    assert "snap_dp_clamped_2b" not in render(u).text


def test_symbolic_truth_is_a_min() -> None:
    u = unfold(load("mechanisms/snapping_clamped.yaml"))
    eps, b, sens = (u.symbols[n] for n in ("eps", "B", "sens"))
    assert sympy.simplify(u.truth - eps * sympy.Min(sens, 2 * b)) == 0
    assert (u.expected, u.distance) == ("proved", "delta")            # claim eps*sens >= the truth
    two_b = unfold(check(spec(parameters={"eps": "positive", "lam": "positive", "B": "positive"},
                              claim={"epsilon": "2*eps*B"}), "snap.yaml"))
    assert (two_b.expected, two_b.distance) == ("proved", "2B")


@pytest.mark.parametrize("sensitivity, claim, truth", [
    ("2/5", "2/5", "2/5"),      # B < Δ <= 2B: the distance is Δ
    ("1/2", "1/2", "1/2"),      # Δ = 2B
    ("100", "1/2", "1/2"),
])
def test_truth_is_min_of_delta_and_2b(sensitivity: str, claim: str, truth: str) -> None:
    u = unfold(check(spec(sensitivity=sensitivity, claim={"epsilon": claim}), "snap.yaml"))
    assert u.truth == sympy.Rational(truth) and u.expected == "proved"


def test_between_b_and_2b_the_top_tail_witness_uses_delta() -> None:
    u = unfold(check(spec(sensitivity="2/5", claim={"epsilon": "39/100"}), "snap.yaml"))
    w = u.witness
    assert u.expected == "refuted" and w is not None and w.case == "top"
    assert (w.fa, w.fa2) == (sympy.Rational(1, 4), sympy.Rational(1, 4) - sympy.Rational(2, 5))
    assert sympy.simplify(w.ratio - sympy.exp(sympy.Rational(2, 5))) == 0


def test_symbolic_clamp_bound_is_refuted_at_a_narrow_instance() -> None:
    u = unfold(check(spec(parameters={"eps": "positive", "lam": "positive", "B": "positive"},
                          claim={"epsilon": "eps*B"}), "snap.yaml"))
    w = u.witness
    assert u.expected == "refuted" and w is not None
    assert w.instance == {"eps": "1", "lam": "1", "B": "1/4"} and w.case == "top"
