"""Real Coq: a snapping pipeline run in a small binary format certified at its exact ε, a
claim below it refuted, and the textbook Laplace sampler refuted with an output only one
input reaches (Mironov's attack); every certificate rests on the format's semantics in
Flocq and a logarithm table proved correctly rounded.  Read from the certificates Coq made
(tests/certificates/ and, for Mironov's U* sampler, the shipped certificates/), which
test_committed_certificates keeps current; the floating model's pipeline runs in Coq in
test_seed004_refuted."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import committed
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = ["tests/specs/floating/snapping_p6_small.yaml", "tests/specs/floating/snapping_p6_tightened.yaml",
         "tests/specs/floating/laplace_textbook_p6.yaml", "tests/specs/floating/snapping_p6_b7.yaml"]


@pytest.fixture(scope="module")
def run() -> tuple[Path, dict[str, Any]]:
    """The four specs' outcomes, read from the certificates Coq made of them (tests/committed.py):
    one proved, three refuted."""
    return committed.results(*SPECS)


def test_snapping_in_precision_6_is_ln3_dp(run: tuple[Path, dict[str, Any]]) -> None:
    out, results = run
    o = results["snapping_p6_small"]
    assert o["verdict"] == "proved"
    assert "ln_correct snapping_p6_small_prec snapping_p6_small_emax snapping_p6_small_ln u" in o["statement"]
    assert o["statement"].endswith("dp_runs snapping_p6_small_deltas snapping_p6_small_inputs "
                                   "snapping_p6_small_run (ln 3) 0")
    record = json.loads((out / "snapping_p6_small.json").read_text())
    assert record["verdict"] == "proved"


def test_below_the_exact_epsilon_is_refuted(run: tuple[Path, dict[str, Any]]) -> None:
    _, results = run
    o = results["snapping_p6_tightened"]
    assert o["verdict"] == "refuted"
    assert "~ dp_runs" in o["statement"]


def test_textbook_laplace_is_refuted_with_a_one_sided_output(run: tuple[Path, dict[str, Any]]) -> None:
    _, results = run
    o = results["laplace_textbook_p6"]
    assert o["verdict"] == "refuted"
    w = o["witness"]
    assert w["pr_x_prime"] == "0" and w["pr_x"] != "0"     # reachable from x only: epsilon = oo


def test_a_clamp_bound_beyond_the_noise_is_refuted_for_every_epsilon(run: tuple[Path, dict[str, Any]]) -> None:
    out, results = run
    o = results["snapping_p6_b7"]
    assert o["verdict"] == "refuted" and o["tight_epsilon"] == "oo"
    # -2 + noise reaches -7 (u = 1/256, ln u rounds to -5.5); -1 + noise stops at -6.5, rounded up to -6
    assert o["witness"]["x"] == "-2" and o["witness"]["x_prime"] == "-1"
    assert o["witness"]["outputs"] == ["-7"] and o["witness"]["pr_x_prime"] == "0"
    assert o["witness"]["pr_x"] == "1/256"
    text = (out / "snapping_p6_b7.v").read_text()
    assert "Theorem snapping_p6_b7_no_finite_epsilon :\n  forall eps, ~ dp_runs" in text


def test_mironovs_ustar_sampler_is_certified_at_its_exact_epsilon() -> None:
    record = json.loads((REPO / "certificates" / "snapping_p6_ustar.json").read_text())
    assert record["verdict"] == "proved" and record["analysis"]["tight_epsilon"] == "ln(73/26)"
    assert record["theorems"][-1]["statement"].endswith(
        "dp_runs snapping_p6_ustar_deltas snapping_p6_ustar_inputs snapping_p6_ustar_run (ln (73 / 26)) 0")
    text = (REPO / "certificates" / "snapping_p6_ustar.v").read_text()
    assert "Definition snapping_p6_ustar_sampler := ustar_sampler snapping_p6_ustar_prec snapping_p6_ustar_emax." \
        in text
