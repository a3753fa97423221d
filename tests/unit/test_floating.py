"""The floating-point pipeline kind without Coq: its arithmetic, its exact analysis, and
the bad inputs it refuses (exit 2, naming the field) before any work."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from inprocess import cli

from obligations.errors import SpecError
from obligations.float import arith as A
from obligations.models import check, unfold

SPECS = Path(__file__).resolve().parents[1] / "specs" / "floating"


def test_rounding_is_to_nearest_even() -> None:
    fmt = A.Format(3, 8)                                  # 3 significant bits
    assert A.round_fraction(fmt, Fraction(9, 8)).value == 1          # tie 1.125 -> even 1
    assert A.round_fraction(fmt, Fraction(11, 8)).value == Fraction(3, 2)   # tie -> 1.5 (even mantissa 6)
    assert A.round_fraction(fmt, Fraction(1000)).kind == "inf"       # beyond 2^8


def test_correctly_rounded_ln_matches_its_neighbours() -> None:
    fmt = A.Format(8, 16)
    u = A.round_fraction(fmt, Fraction(3, 7))
    lnu = A.correctly_rounded_ln(fmt, u)
    lo, hi = A.neighbours(fmt, lnu)
    import math
    x = math.log(float(u.value))
    assert (lo + lnu.value) / 2 < Fraction(x) < (lnu.value + hi) / 2


def test_textbook_laplace_leaks_the_input() -> None:
    u = unfold(check(yaml.safe_load((SPECS / "laplace_textbook_p6.yaml").read_text()), "t.yaml"))
    assert u.plan.expected.value == "refuted"
    assert u.plan.tight_epsilon == "oo"     # an output reachable from one input only


def test_snapping_exact_epsilon() -> None:
    u = unfold(check(yaml.safe_load((SPECS / "snapping_p6_small.yaml").read_text()), "t.yaml"))
    assert u.plan.tight_epsilon == "ln(3)"


def _spec(**floating: object) -> dict[str, object]:
    base: dict[str, object] = {
        "format": {"precision": 8, "emax": 16}, "uniform": {"grid": 8},
        "steps": ["ln", {"scale": "1"}, "sign", {"add_query": {"clamp": "4"}},
                  {"round": {"grid": "1"}}, {"clamp": "4"}],
        "inputs": {"from": -4, "to": 4}, "sensitivity": 1}
    base.update(floating)
    return {"schema_version": 1, "name": "f", "floating": base, "claim": {"epsilon": "1"}}


@pytest.mark.parametrize("change, field", [
    ({"format": {"precision": 8, "emax": 4}}, "floating.format.emax"),
    ({"format": {"precision": 40, "emax": 100}}, "floating.format.precision"),
    ({"uniform": {"grid": 30}}, "floating.uniform.grid"),
    ({"steps": ["ln", "sign", {"add_query": {}}, {"round": {"grid": "3"}}]}, "floating.steps[3].round.grid"),
    ({"steps": ["ln", "sign", {"add_query": {"clamp": "1/3"}}]}, "floating.steps[2].add_query.clamp"),
    ({"steps": ["sign", "ln", {"add_query": {}}]}, "floating.steps[0]"),
    ({"steps": ["ln", "sign"]}, "floating.steps"),
    ({"inputs": [1000001, 0]}, "floating.inputs[0]"),
    # 2^-15 is half the smallest subnormal of (8, 9): it rounds to 0, whose logarithm is -inf
    ({"format": {"precision": 8, "emax": 9}, "uniform": {"grid": 15}}, "floating.uniform.grid"),
    # ln(2^-8) rounds to -5.53125; times 92 it is 508, and 508 + 4 = 2^9 overflows
    ({"format": {"precision": 8, "emax": 9}, "steps": ["ln", {"scale": "92"}, "sign", {"add_query": {"clamp": "4"}}]},
     "floating.format.emax"),
    ({"format": {"precision": 8, "emax": 9}, "steps": ["ln", {"scale": "93"}, "sign", {"add_query": {}}]},
     "floating.format.emax"),
    ({"format": "binary32", "uniform": {"ustar": "down"}}, "floating.uniform.ustar"),   # 2^30 floats in (0, 1)
    ({"uniform": {"ustar": "up"}}, "floating.uniform.ustar"),
    ({"uniform": {"ustar": "down", "grid": 8}}, "floating.uniform"),
    ({"uniform": {}}, "floating.uniform"),
])
def test_bad_input_names_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(SpecError) as exc:
        check(_spec(**change), "bad.yaml")
    assert exc.value.field == field, str(exc.value)


def test_the_overflow_check_is_exact() -> None:
    # ln(2^-8)·91 rounds to 504 and 504 + 4 = 508 < 2^9: accepted, though 8·ln 2·91 + 4 ≈ 508.8
    # is within 1% of 2^9 (the estimate this check replaces refused it)
    steps = ["ln", {"scale": "91"}, "sign", {"add_query": {"clamp": "4"}}]
    spec = check(_spec(format={"precision": 8, "emax": 9}, steps=steps), "ok.yaml")
    u = unfold(spec)
    assert all(f.kind in ("finite", "zero") for f in u.mechanism.output_floats)
    assert max(abs(f.value) for f in u.mechanism.output_floats) == 508
    # the smallest grid the format holds: 2^-14 is its smallest subnormal
    check(_spec(format={"precision": 8, "emax": 9}, uniform={"grid": 14}), "ok.yaml")


def test_a_clamp_bound_beyond_the_noise_leaves_outputs_one_input_cannot_reach() -> None:
    u = unfold(check(yaml.safe_load((SPECS / "snapping_p6_b7.yaml").read_text()), "t.yaml"))
    assert u.plan.expected.value == "refuted" and u.plan.tight_epsilon == "oo"
    w = next(o for o in u.plan.obligations if type(o).__name__ == "Witness")
    assert w.pr_x2 == 0 < w.pr_x and len(w.outputs) == 1      # one output, never reached from x'
    assert "check_one_sided" in u.rendered.text and "_no_finite_epsilon" in u.rendered.text


def test_ustar_weighs_every_float_in_0_1_by_its_interval() -> None:
    from obligations.float.analysis import ustar_sampler, ustar_size
    fmt = A.Format(6, 12)                                  # emin = -15
    s = ustar_sampler(fmt)
    assert len(s) == ustar_size(fmt) == 351 and sum(w for _, w in s) == 1
    assert s[0] == (A.Float("finite", False, 1, -15), Fraction(2, 2 ** 15))   # [0, 2^-14)
    assert s[-1] == (A.Float("finite", False, 63, -6), Fraction(1, 64))       # [63/64, 1)
    values = [u.value for u, _ in s]
    assert values == sorted(values) and all(A.round_fraction(fmt, v) == u for (u, _), v in zip(s, values, strict=False))


@pytest.mark.parametrize("spec, eps", [("tests/specs/floating/snapping_p5_ustar", "ln(26/9)"),
                                       ("mechanisms/snapping_p6_ustar", "ln(73/26)")])
def test_snapping_with_ustar_exact_epsilon(spec: str, eps: str) -> None:
    u = unfold(check(yaml.safe_load((SPECS.parents[2] / f"{spec}.yaml").read_text()), "t.yaml"))
    assert u.plan.expected.value == "proved" and u.plan.tight_epsilon == eps


def test_an_overflowing_format_exits_2_naming_the_field(tmp_path: Path) -> None:
    spec = _spec(format={"precision": 8, "emax": 9}, steps=["ln", {"scale": "92"}, "sign", {"add_query": {}}])
    path = tmp_path / "overflow.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    done = cli("prove", str(path), "--out", str(tmp_path / "out"), "--build", str(tmp_path / "b"),
               cwd=SPECS.parents[2])
    assert done.returncode == 2
    assert f"{path}: floating.format.emax: floating.steps[3] overflows to an infinity" in done.stderr
    assert not (tmp_path / "b").exists()          # refused before any work
