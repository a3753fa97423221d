"""The floating-point pipeline kind without Coq: its arithmetic, its exact analysis, and
the bad inputs it refuses (exit 2, naming the field) before any work."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from obligations.errors import SpecError
from obligations.kinds import check, unfold
from obligations.kinds.floating import arith as A

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
])
def test_bad_input_names_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(SpecError) as exc:
        check(_spec(**change), "bad.yaml")
    assert exc.value.field == field, str(exc.value)
