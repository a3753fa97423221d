"""Chains of different mechanisms (`compose: [{spec, runs}, ...]`, obligations/table/chain.py): the
form's checks (exit 2 naming the field), the analysis against the exact product table of a small
chain, and what is rendered."""
from __future__ import annotations

import contextlib
import io
import itertools
import math
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import AccountantCheck, Verdict
from obligations.models import load, witness
from obligations.table.chain import build

REPO = Path(__file__).resolve().parents[2]
CHAIN = REPO / "tests" / "specs" / "chain"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_chain_is_refuted_below_its_delta_with_a_witness() -> None:
    u = unfold(load((CHAIN / "rr3_chain_low.yaml").relative_to(REPO)))
    assert u.plan.expected == Verdict.REFUTED
    c = next(o for o in u.plan.obligations if isinstance(o, AccountantCheck))
    assert (c.base, c.stride, c.exact, c.runs) == (2, 1, True, 30)
    w = witness(u)
    assert w is not None and w["runs"] == 30
    text = u.rendered.text
    assert "Definition rr3_chain_low : fmech := fmech_chain (chain_of rr3_chain_low_groups) 3." in text
    assert "[(rr3_chain_low_m0, 10%nat); (rr3_chain_low_m1, 20%nat)]" in text
    assert u.rendered.theorems == ("rr3_chain_low_refuted",) and u.rendered.uses_interval()


def test_the_smallest_epsilon_of_a_chain() -> None:
    u = unfold(load((CHAIN / "rr3_chain_at_delta.yaml").relative_to(REPO)))
    c = next(o for o in u.plan.obligations if isinstance(o, AccountantCheck))
    ((eps, _),), ((below, _),) = c.proved, c.refuted
    assert eps - below == F(1, 10)
    assert u.rendered.theorems == ("rr3_chain_at_delta_below", "rr3_chain_at_delta_dp")


def _rows(path: Path) -> list[list[F]]:
    data = yaml.safe_load(path.read_text())
    return [[F(str(v)) for v in data["table"][x]] for x in data["inputs"]]


def test_the_bracket_holds_the_exact_delta_of_a_small_chain(tmp_path: Path) -> None:
    """2 runs keeping 2/3 and 3 keeping 1/2: the product table (9 · 64 outputs) gives the exact δ."""
    spec = tmp_path / "small.yaml"
    for part in ("rr3_keep_2_3.yaml", "rr3_keep_1_2.yaml"):
        (tmp_path / part).write_text((CHAIN / part).read_text())
    spec.write_text(yaml.safe_dump({"schema_version": 1, "name": "small", "claim": {"epsilon": "2", "delta": "1/2"},
                                    "compose": [{"spec": "rr3_keep_2_3.yaml", "runs": 2},
                                                {"spec": "rr3_keep_1_2.yaml", "runs": 3}]}))
    a, _ = build(load(spec))
    r1, r2 = _rows(CHAIN / "rr3_keep_2_3.yaml"), _rows(CHAIN / "rr3_keep_1_2.yaml")

    def product(x: int) -> list[F]:
        runs = [r1[x]] * 2 + [r2[x]] * 3
        return [math.prod(ps, start=F(1)) for ps in itertools.product(*runs)]
    for eps in (0.0, 1.0, 2.0, 3.5):
        t = F(math.exp(eps))
        exact = max(float(sum(max(F(0), p - t * q) for p, q in zip(product(x), product(x2), strict=False)))
                    for x in range(3) for x2 in range(3) if x != x2)
        lower, _ = a.lower(eps)
        assert lower <= exact * (1 + 1e-12) + 1e-15 and exact <= a.upper(eps) * (1 + 1e-12) + 1e-15
        assert a.upper(eps) - lower < 1e-11


Edit = Callable[[dict[str, Any], Path], None]


def _part(path: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    data = yaml.safe_load(path.read_text())
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


REFUSED: dict[str, tuple[Edit, str, str]] = {
    "other-neighbours": (lambda d, p: _part(p / "rr3_keep_1_2.yaml", lambda m: m.update(neighbours="adjacent")),
                         "compose[1].spec", "neighbours"),
    "other-inputs": (lambda d, p: _part(p / "rr3_keep_1_2.yaml", lambda m: (
        m.update(inputs=["a", "b", "d"]), m["table"].update(d=m["table"].pop("c")))), "compose[1].spec", "inputs"),
    "missing-file": (lambda d, p: d["compose"][0].update(spec="nowhere.yaml"), "compose[0].spec", "no such spec"),
    "composed-part": (lambda d, p: _part(p / "rr3_keep_2_3.yaml", lambda m: m.update(composition={"runs": 2})),
                      "compose[0].spec", "composition"),
    "no-runs": (lambda d, p: d["compose"][0].update(runs=0), "compose[0].runs", "greater than or equal to 1"),
    "both": (lambda d, p: d["claim"].update(tolerance="1/10"), "claim.tolerance", "exactly one"),
    "neither": (lambda d, p: d["claim"].pop("epsilon"), "claim.epsilon", "exactly one"),
    "infinite-loss": (lambda d, p: _part(p / "rr3_keep_1_2.yaml", lambda m: m["table"].update(
        a=["1/2", "1/4", "0", "1/4"])), "compose", "infinite"),
    "sub-distribution": (lambda d, p: _part(p / "rr3_keep_1_2.yaml", lambda m: (
        m.update(distribution="sub"), m["table"].update(a=["1/2", "1/4", "1/8", "0"]))), "compose[1].spec",
        "sub-distributions"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_a_chain_cannot_be_is_refused_naming_the_field(tmp_path: Path, case: str) -> None:
    edit, field, words = REFUSED[case]
    for part in ("rr3_keep_2_3.yaml", "rr3_keep_1_2.yaml"):
        (tmp_path / part).write_text((CHAIN / part).read_text())
    data = yaml.safe_load((CHAIN / "rr3_chain_low.yaml").read_text())
    edit(data, tmp_path)
    spec = tmp_path / "chain.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("show", str(spec))
    assert code == 2, err
    assert f"{spec}: {field}:" in err and words in err, err
