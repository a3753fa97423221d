"""Additive discrete Laplace noise over Z, run K times (obligations/table/additive.py, gauss.py): the
analysis against the exact curve of the two-valued loss, what is rendered, and the form's
checks (exit 2 naming the field)."""
from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import pytest
import yaml

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import AccountantCheck, Verdict
from obligations.models import load
from obligations.table import gauss
from obligations.table.additive import build, mass, window

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "tests" / "specs" / "additive"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_the_window_leaves_out_less_than_2_to_the_minus_110() -> None:
    m0 = window(F(1, 2))
    tail = 1 - sum(mass(F(1, 2), z) for z in range(-m0, m0 + 1))
    assert 0 < tail < F(1, 2 ** 110) and m0 == 110


def test_the_bracket_holds_the_exact_delta() -> None:
    """Sensitivity 1: the loss is ±ln(1/α), P-mass 1/(1+α) on +: δ(ε) is a binomial sum."""
    spec = load((SPECS / "dlap_half_1000_runs_low.yaml").relative_to(REPO))
    a, _, _ = build(spec)
    k, p = 1000, 2 / 3
    for eps in (250.0, 300.0, 350.0):
        def term(j: int, eps: float = eps) -> float:
            arg = eps - (2 * j - k) * math.log(2)
            if arg >= 0:
                return 0.0
            log_w = math.lgamma(k + 1) - math.lgamma(j + 1) - math.lgamma(k - j + 1)
            return math.exp(log_w + j * math.log(p) + (k - j) * math.log(1 - p)) * -math.expm1(arg)
        exact = math.fsum(term(j) for j in range(k + 1))
        lower, _ = a.lower(eps)
        assert lower <= exact * (1 + 1e-9) + 1e-15 and exact <= a.upper(eps) * (1 + 1e-9) + 1e-15


@pytest.mark.parametrize("stem,verdict,theorems", [
    ("dlap_half_1000_runs_low", Verdict.REFUTED, ("dlap_half_1000_runs_low_refuted",)),
    ("dlap_half_1000_runs_at_delta", Verdict.PROVED,
     ("dlap_half_1000_runs_at_delta_below", "dlap_half_1000_runs_at_delta_dp"))])
def test_the_specs_predict_their_verdicts(stem: str, verdict: Verdict, theorems: tuple[str, ...]) -> None:
    u = unfold(load((SPECS / f"{stem}.yaml").relative_to(REPO)))
    assert u.plan.expected == verdict and u.rendered.theorems == theorems
    c = next(o for o in u.plan.obligations if isinstance(o, AccountantCheck))
    assert (c.base, c.runs, c.plds) == (2, 1000, 1)
    assert "zdp_noise_acc" in u.rendered.text or "not_zdp_noise_acc" in u.rendered.text


def test_the_gaussian_window_leaves_out_less_than_2_to_the_minus_110() -> None:
    """The proved tail bound at m0 (DGauss.v's dg_norm_le, normaliser >= 1) is below 2^-110,
    and at m0 - 1 it is not: the window is the smallest."""
    def log2_tail(m: int, v: float) -> float:
        n = m + 1
        return (math.log(2) - n * n / (2 * v) - math.log(-math.expm1(-n / (2 * v)))) / math.log(2)
    m0 = gauss.window(F(25))
    assert m0 == 62 and log2_tail(m0, 25.0) <= -110 < log2_tail(m0 - 1, 25.0)


def test_the_gaussian_masses_are_below_the_exact_ones_and_nearly_sum_to_1() -> None:
    m0 = gauss.window(F(25))
    ms = gauss.masses(F(25), m0)
    with mpmath.workdps(40):
        norm = mpmath.fsum(mpmath.exp(-mpmath.mpf(z * z) / 50) for z in range(-200, 201))
        exact = [mpmath.exp(-mpmath.mpf(z * z) / 50) / norm for z in range(-m0, m0 + 1)]
        assert all(mpmath.mpf(m.numerator) / m.denominator < e for m, e in zip(ms, exact, strict=True))
    assert 0 < 1 - float(sum(ms)) < 1e-14     # a few ulps per mass (70-bit intervals, GaussMass.v)


def test_the_gaussian_bracket_holds_the_exact_delta() -> None:
    """100 runs of sigma = 5, inputs 0 and -1: the loss of an output vector is (2S + K)/2v for
    S the sum of its noises, whose law is the K-fold convolution of the noise's."""
    k, v = 100, 25
    g, m0 = gauss.build(F(v), 1, k)
    pmf = np.array([math.exp(-z * z / (2 * v)) for z in range(-m0, m0 + 1)])
    pmf /= pmf.sum()
    law = np.array([1.0])
    for _ in range(k):
        law = np.convolve(law, pmf)
    s = np.arange(len(law)) - k * m0
    loss = (2 * s + k) / (2 * v)
    for eps in (2.0, 5.0, 8.0):
        exact = float(np.sum(np.where(loss > eps, law * -np.expm1(np.minimum(eps - loss, 0)), 0.0)))
        lower, pair = g.lower(eps)
        upper = g.upper(eps)
        assert pair == (0, -1) and lower <= exact * (1 + 1e-9) and exact <= upper
        # the masses' few ulps K times, the tree's rounding, the window's total in intervals
        assert upper - lower < 2e-12


@pytest.mark.parametrize("stem,verdict,theorems", [
    ("dgauss_5_1000_runs_low", Verdict.REFUTED, ("dgauss_5_1000_runs_low_refuted",)),
    ("dgauss_5_1000_runs_at_delta", Verdict.PROVED,
     ("dgauss_5_1000_runs_at_delta_below", "dgauss_5_1000_runs_at_delta_dp"))])
def test_the_gaussian_specs_predict_their_verdicts(stem: str, verdict: Verdict, theorems: tuple[str, ...]) -> None:
    u = unfold(load((SPECS / f"{stem}.yaml").relative_to(REPO)))
    assert u.plan.expected == verdict and u.rendered.theorems == theorems
    assert ("not_zdp_gauss_acc" if verdict == Verdict.REFUTED else "zdp_gauss_acc") in u.rendered.text
    assert u.spec.claim.record()["additive"] == "discrete Gaussian, sigma = 5, 1000 runs"


def test_the_shipped_gaussian_spec_is_the_tested_one_under_its_own_name() -> None:
    shipped = REPO / "mechanisms" / "discrete_gaussian_sigma5_1000_runs.yaml"
    u = unfold(load(shipped.relative_to(REPO)))
    assert u.plan.expected == Verdict.PROVED and u.spec.name == shipped.stem
    assert u.rendered.theorems == ("discrete_gaussian_sigma5_1000_runs_below", "discrete_gaussian_sigma5_1000_runs_dp")
    assert "Theorem discrete_gaussian_sigma5_1000_runs_dp : zdp discrete_gaussian_sigma5_1000_runs 1 1000 (" \
        "(2310563 / 50000)) (1 / 100000)." in u.rendered.text


Edit = Callable[[dict[str, Any]], None]
REFUSED: dict[str, tuple[Edit, str, str]] = {
    "alpha-one": (lambda d: d["additive"]["discrete_laplace"].update(alpha="1"), "additive.discrete_laplace.alpha",
                  "(0, 1)"),
    "alpha-near-one": (lambda d: d["additive"]["discrete_laplace"].update(alpha="9999/10000"),
                       "additive.discrete_laplace.alpha", "window"),
    "no-runs": (lambda d: d["additive"].update(runs=0), "additive.runs", "greater than or equal to 1"),
    "no-sensitivity": (lambda d: d["additive"].update(sensitivity=0), "additive.sensitivity", "greater than or equal"),
    "irrational-epsilon": (lambda d: d.update(claim={"epsilon": "ln(3)", "delta": "1/100"}), "claim.epsilon",
                           "rational"),
    "both": (lambda d: d["claim"].update(epsilon="3"), "claim.tolerance", "exactly one"),
    "two-noises": (lambda d: d["additive"].update(discrete_gaussian={"sigma": 5}), "additive", "exactly one"),
    "no-noise": (lambda d: d["additive"].pop("discrete_laplace"), "additive", "exactly one"),
    "sigma-zero": (lambda d: d["additive"].update(discrete_laplace=None, discrete_gaussian={"sigma": 0}),
                   "additive.discrete_gaussian.sigma", "> 0"),
    "sigma-negative": (lambda d: d["additive"].update(discrete_laplace=None, discrete_gaussian={"sigma": "-1/2"}),
                       "additive.discrete_gaussian.sigma", "> 0"),
    "sigma-huge": (lambda d: d["additive"].update(discrete_laplace=None, discrete_gaussian={"sigma": 1000}),
                   "additive.discrete_gaussian.sigma", "window"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_an_additive_spec_cannot_be_is_refused(tmp_path: Path, case: str) -> None:
    edit, field, words = REFUSED[case]
    data = yaml.safe_load((SPECS / "dlap_half_1000_runs_at_delta.yaml").read_text())
    edit(data)
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("show", str(spec))
    assert code == 2, err
    assert f"{spec}: {field}:" in err and words in err, err


def test_runs_whose_convolutions_exceed_the_budget_are_refused_naming_the_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The windows of a K-fold power grow like √K: past `MAX_PRODUCTS` float products the spec is
    refused before the convolution that would exceed it (bounded time whatever K), and for the
    discrete Gaussian the message gives the ε from which the Rényi route proves the claim's δ.
    A small budget stands for the real one (a million runs of σ = 5 reach it in about 20 s)."""
    from obligations.analysis import accountant as acc
    monkeypatch.setattr(acc, "MAX_PRODUCTS", 10 ** 6)
    data = yaml.safe_load((SPECS / "dgauss_5_1000_runs_low.yaml").read_text())
    data["additive"]["runs"] = 100_000
    data["claim"] = {"epsilon": 2300, "delta": "1/100000"}     # below the Renyi route's 2303.49
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("check", str(spec))
    assert code == 2, err
    assert f"{spec}: additive.runs: the 100000-fold privacy-loss distribution needs more than 1e+06" in err
    rho_k = 100_000 / 50     # K·Δ²/2σ²: the least ε over real orders a > 1 of K·a·ρ + ln(1/δ)/(a − 1)
    best = min(rho_k * a + math.log(100_000) / (a - 1) for a in (1 + i / 10 ** 5 for i in range(1, 20000)))
    assert "every epsilon above 2303.49" in err and 2303.48 < best < 2303.49    # 2303.4854, shown rounded up
    assert "(read as an additive discrete Laplace" in err
