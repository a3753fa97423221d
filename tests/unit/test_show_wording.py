"""What `show` and a refutation's witness say, as a reader sees them: parameter values instead of
their names, what g and g' are, witnesses with the output's value and tidy exact probabilities,
and the same input labels in `show` as in `prove`. No Coq here."""
from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any

import pytest
import sympy

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.models import load
from obligations.noise.analysis import case_table, math_text, tidy

REPO = Path(__file__).resolve().parents[2]
INSTANCE = REPO / "mechanisms" / "snapping_clamped_instance.yaml"            # eps = 1, lam = 1/8, B = 10
HALF_EPS = REPO / "tests" / "specs" / "pipelines" / "snapping_half_epsilon.yaml"
TAIL = REPO / "tests" / "specs" / "pipelines_clamp" / "snapping_clamp_wide_tightened.yaml"
CW = REPO / "tests" / "specs" / "rr_cw_tightened.yaml"


def show(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["show", str(path)]) == 0
    return capsys.readouterr().out


@functools.cache
def unfolded(path: Path) -> Any:
    """Each spec analysed once for the whole file (the pipelines' sympy tables take seconds)."""
    return unfold(load(path))


def test_show_gives_parameter_values_and_explains_g() -> None:
    out = case_table(unfolded(INSTANCE).mechanism) + "\n"     # what `show` prints for a pipeline
    assert "B = B" not in out and "clamped to [-B, B] with B = 10;" in out
    assert "grid Λ = lam = 1/8" in out and "parameters: eps = 1, lam = 1/8, B = 10\n" in out
    # g = (⌈80⌉ − 1/2)/8: the same threshold the preimage of the output B starts at
    assert "where g = (⌈B/Λ⌉ - 1/2)·Λ = 159/16: the output is B iff c + noise >= g" in out
    assert "g' = (⌊-B/Λ⌋ + 1/2)·Λ = -159/16: the output is -B iff c + noise < g'" in out
    assert "output B     S = +1: u ∈ [e^(159/16 - c), ∞)" in out
    assert "exp(" not in out and "E" not in out.replace("EXP", "")


def test_show_of_a_symbolic_pipeline_says_every_value_is_covered(capsys: pytest.CaptureFixture[str]) -> None:
    out = show(REPO / "mechanisms" / "snapping_clamped.yaml", capsys)
    assert "parameters: eps > 0, lam > 0, B > 0, sens >= 0 (symbolic: every value is covered)" in out
    assert "with B a parameter" in out and "where g = (⌈B/Λ⌉ - 1/2)·Λ: the output" in out


def test_pipeline_witness_names_the_output_value_and_tidy_probabilities() -> None:
    u = unfolded(HALF_EPS)
    line = next(x for x in case_table(u.mechanism).splitlines() if x.startswith("witness:"))
    assert line.startswith("witness: at eps = 1, lam = 1, sens = 1: f(a) = 0, f(a') = 1, output -1 (= Λ·(-1)): ")
    assert "Pr_a = (-1 + e)*e^(-3/2)/2 ≈ 0.1917," in line and "ratio Pr_a/Pr_a' = e ≈ 2.71828 > e^(1/2)" in line
    w = u.witness()
    assert w is not None and w["outputs"] == ["-1"] and w["ratio"] == "e"
    assert (w["pr_x"], w["pr_x_prime"]) == ("(-1 + e)*e^(-3/2)/2", "(-1 + e)*e^(-5/2)/2")
    assert float(w["pr_x_float"]) == pytest.approx((math.e - 1) * math.exp(-1.5) / 2, rel=1e-12)


def test_tail_witness_names_the_clamped_output_by_its_value() -> None:
    u = unfolded(TAIL)
    w = u.witness()
    assert w is not None and w["parameters"]["B"] == "1/4" and w["outputs"] == ["1/4"]
    assert (w["pr_x"], w["pr_x_prime"], w["ratio"], w["exp_epsilon"]) == \
        ("e^(-1/4)/2", "e^(-3/4)/2", "e^(1/2)", "e^(49/100)")


def test_tidy_keeps_every_case_probability_exactly() -> None:
    u = unfolded(INSTANCE).mechanism
    for c in u.cases:
        assert sympy.simplify(tidy(c.prob) - c.prob) == 0, c.key
    assert math_text(sympy.exp(sympy.Symbol("c")) / 2) == "e^c/2"


def test_cw_witness_has_the_same_labels_in_show_and_prove(capsys: pytest.CaptureFixture[str]) -> None:
    out = show(CW, capsys)
    u = unfold(load(CW))
    w = u.witness()
    assert w is not None and (w["x"], w["x_prime"], w["outputs"]) == ("D", "alt", ["Y"])
    assert "witness: x = D, x' = alt, S = {Y}: 7/12 > 6/5 * 5/12 + 0" in out
