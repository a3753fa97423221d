"""Noise-pipeline specs (seed 000's snapping mechanism): loading, the sympy case table,
the verdict Python expects and the witness it proposes.  No Coq here."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import sympy

from obligations.cli import main
from obligations.errors import EXIT_USAGE, SpecError
from obligations.models import check, load
from obligations.noise.analysis import FA, K, case_table, unfold
from obligations.noise.document import render
from obligations.noise.spec import PipelineSpec

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ["snapping_unclamped", "snapping_clamped", "snapping_unclamped_instance",
           "snapping_clamped_instance", "rounded_laplace"]

SNAP: dict[str, Any] = {
    "schema_version": 1,
    "name": "snapper",   # not "snap": snap_event and others are the library's
    "parameters": {"eps": "positive", "lam": "positive", "sens": "nonnegative"},
    "pipeline": {"steps": ["ln", {"scale": "1/eps"}, "sign", {"add_query": {}}, {"round": {"grid": "lam"}}],
                 "sensitivity": "sens"},
    "claim": {"epsilon": "eps*sens"},
}


def spec_with(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(SNAP)
    for path, value in changes.items():
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return d


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_pipeline_specs_are_expected_to_prove(name: str) -> None:
    s = load(REPO / "mechanisms" / f"{name}.yaml")
    assert isinstance(s, PipelineSpec)
    u = unfold(s)
    assert u.expected == "proved"
    events = () if s.out_clamp is not None else (f"{name}_events_limit",)
    assert render(u).theorems == (
        f"{name}_dp_events", f"{name}_lifting", f"{name}_total", f"{name}_noise_lifting",
        f"{name}_dp_every_event", f"{name}_branch_lifting", f"{name}_distribution") + events + (f"{name}_dp",)


def test_case_table_of_unclamped_snapping() -> None:
    u = unfold(check(SNAP, "snap.yaml"))
    eps, lam = u.symbols["eps"], u.symbols["lam"]
    assert u.rate == eps and sympy.simplify(u.truth - eps * u.symbols["sens"]) == 0
    plus = next(p for p in u.preimages if p.key == "plus").interval
    assert sympy.simplify(plus.lo - sympy.exp(eps * ((K - sympy.Rational(1, 2)) * lam - FA))) == 0
    assert (plus.lo_closed, plus.hi_closed) == (True, False)          # ties toward +oo
    minus = next(p for p in u.preimages if p.key == "minus").interval
    assert (minus.lo_closed, minus.hi_closed) == (False, True)
    probs = {c.key: c.prob for c in u.cases}
    # output far below f(a): only S = +1 reaches it, with the full interval
    below = probs["below"].subs({eps: 1, lam: 1, K: -3, FA: 0})
    assert sympy.simplify(below - (sympy.exp(-sympy.Rational(5, 2)) - sympy.exp(-sympy.Rational(7, 2))) / 2) == 0
    # the bucket of f(a) gets mass from both signs (what seed 000 leaves out)
    bucket = probs["bucket"].subs({eps: 1, lam: 1, K: 0, FA: 0})
    assert sympy.simplify(bucket - (1 - sympy.exp(-sympy.Rational(1, 2)))) == 0
    text = case_table(u)
    for word in ("below", "bucket", "above", "x = ⌊f(a')⌉", "between"):
        assert word in text


def test_clamped_table_has_the_endpoint_cases() -> None:
    u = unfold(load(REPO / "mechanisms" / "snapping_clamped.yaml"))
    assert {c.key for c in u.cases} == {"below", "bucket", "above", "top_far", "top_near", "bottom_near", "bottom_far"}
    names = [x.name for x in render(u).lemmas]
    assert "snapping_clamped_pre_top_plus" in names and "snapping_clamped_case_bottom_far" in names


def test_case_probabilities_sum_to_one_numerically() -> None:
    """Σ_k Pr[output = kΛ] = 1 at an instance: the case table is a distribution."""
    u = unfold(check(SNAP, "snap.yaml"))
    eps, lam = u.symbols["eps"], u.symbols["lam"]
    probs = {c.key: c.prob.subs({eps: 1, lam: sympy.Rational(1, 2)}) for c in u.cases}
    fa = sympy.Rational(3, 10)
    total = 0.0
    for k in range(-80, 81):
        key = "below" if (k + 0.5) * 0.5 <= fa else "above" if fa <= (k - 0.5) * 0.5 else "bucket"
        total += float(probs[key].subs({K: k, FA: fa}))
    assert total == pytest.approx(1.0, abs=1e-12)


def test_half_epsilon_claim_is_refuted_with_a_witness() -> None:
    u = unfold(load(REPO / "tests" / "specs" / "pipelines" / "snapping_half_epsilon.yaml"))
    assert u.expected == "refuted"
    w = u.witness
    assert w is not None and w.instance == {"eps": "1", "lam": "1", "sens": "1"}
    assert (w.fa, w.fa2, w.k) == (0, 1, -1)
    assert sympy.simplify(w.ratio - sympy.E) == 0        # e^{εΔ} at ε = Δ = 1
    assert float(w.p) > float(sympy.exp(w.claim)) * float(w.p2)
    assert render(u).theorems == ("snapping_half_epsilon_not_dp",)


def test_noise_scale_sens_over_eps_gives_rate_eps_over_sens() -> None:
    d = spec_with(pipeline__steps=["ln", "sign", {"scale": "sens/eps"}, {"add_query": {}},
                                   {"round": {"grid": 1, "ties": "down"}}],
                  parameters={"eps": "positive", "sens": "positive"}, claim={"epsilon": "eps"})
    u = unfold(check(d, "laplace.yaml"))
    eps, sens = u.symbols["eps"], u.symbols["sens"]
    assert sympy.simplify(u.rate - eps / sens) == 0 and sympy.simplify(u.truth - eps) == 0


@pytest.mark.parametrize("changes, field, words", [
    ({"pipeline__steps": ["exp", {"add_query": {}}, {"round": {"grid": "lam"}}]}, "pipeline.steps", "S·c·ln(u)"),
    ({"pipeline__steps": ["ln", {"scale": "1/eps"}, {"add_query": {}}, {"round": {"grid": "lam"}}]},
     "pipeline.steps", "S·c·ln(u)"),
    ({"pipeline__steps": ["ln", "sign", {"round": {"grid": "lam"}}, {"add_query": {}}]},
     "pipeline.steps[2]", "after add_query"),
    ({"pipeline__steps": ["ln", "sign", {"add_query": {}}]}, "pipeline.steps", "round"),
    ({"pipeline__steps": ["ln", "sign", {"add_query": {"clamp": "lam"}}, {"round": {"grid": "lam"}}]},
     "pipeline.steps", "same B"),
    ({"pipeline__steps": ["ln", {"frobnicate": 1}, {"add_query": {}}, {"round": {"grid": "lam"}}]},
     "pipeline.steps[1]", ""),
    ({"claim": {"epsilon": "eps*sens", "delta": "1/10"}}, "claim.delta", "pure"),
    ({"claim": {"epsilon": "__import__('os').system('true')"}}, "claim.epsilon", "may be called"),
    ({"claim": {"epsilon": "eps*gamma"}}, "claim.epsilon", "unknown name"),
    ({"parameters": {"fa": "positive", "lam": "positive", "sens": "nonnegative", "eps": "positive"}},
     "parameters.fa", "uses itself"),
    ({"parameters": {"eps": "big", "lam": "positive", "sens": "nonnegative"}}, "parameters.eps", "positive"),
    ({"parameters": {"eps": "-1", "lam": "positive", "sens": "nonnegative"}}, "parameters.eps", "negative"),
    ({"name": "Definition"}, "name", "reserved"),
    # delta is the claim's: the sensitivity is named after what it is
    ({"parameters": {"eps": "positive", "lam": "positive", "delta": "nonnegative"},
      "pipeline__sensitivity": "delta", "claim": {"epsilon": "eps*delta"}}, "parameters.delta", "e.g. 'sens"),
])
def test_bad_pipeline_specs_name_the_field(changes: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(SpecError) as err:
        unfold(check(spec_with(**changes), "bad.yaml"))
    assert err.value.file == "bad.yaml"
    assert err.value.field.startswith(field), err.value.field
    assert words in err.value.message


def test_cli_exits_2_on_a_bad_pipeline_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\nname: b\nparameters: {eps: positive}\n"
                   "pipeline: {steps: [exp, {add_query: {}}, {round: {grid: 1}}], sensitivity: 1}\n"
                   "claim: {epsilon: eps}\n")
    assert main(["prove", str(bad), "--build", str(tmp_path / "build"), "--out", str(tmp_path / "c")]) == EXIT_USAGE
    assert "bad.yaml: pipeline.steps" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()


def test_show_prints_the_case_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(REPO / "mechanisms" / "snapping_clamped.yaml")]) == 0
    out = capsys.readouterr().out
    assert "top_near" in out and "x = B" in out and "preimages" in out


def test_region_refuses_a_pipeline_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["region", str(REPO / "mechanisms" / "snapping_clamped.yaml")]) == EXIT_USAGE
    assert "finite mechanism" in capsys.readouterr().err
