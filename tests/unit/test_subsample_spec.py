"""Poisson subsampling of a table (`subsample: {rate, without}`, `neighbours: add_remove`): the
subsampled rows Python tabulates (Coq's `fmech_subsample`), the accountant's route and claims,
its bracket against the exact δ(ε) of the composition, and what is refused (exit 2 naming the
field) before Coq runs."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.analysis.finite import tabulate
from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import AccountantCheck, Verdict
from obligations.errors import SpecError
from obligations.models import check as check_spec

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "tests" / "specs" / "subsample"


def data(name: str = "rr_sub_10_runs.yaml") -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((SPECS / name).read_text())
    return loaded


def test_the_subsampled_rows_mix_the_batch_with_and_without_the_record() -> None:
    spec = check_spec(data(), "rr.yaml")
    assert spec.subsample == (Fraction(1, 10), 0) and spec.neighbours == "remove:0"
    m = tabulate(spec)
    assert m.base_rows == ((Fraction(3, 4), Fraction(1, 4)), (Fraction(7, 10), Fraction(3, 10)))
    assert m.pairs == ((0, 1), (1, 0))


def test_three_inputs_give_the_add_remove_pairs_only() -> None:
    d = data()
    d["inputs"] = ["with_a", "without", "with_b"]
    d["table"] = {"with_a": ["1/4", "3/4"], "without": ["3/4", "1/4"], "with_b": ["1/2", "1/2"]}
    spec = check_spec(d, "rr.yaml")
    m = tabulate(spec)
    assert m.pairs == ((0, 1), (1, 0), (1, 2), (2, 1))
    assert m.base_rows[2] == (Fraction(29, 40), Fraction(11, 40))


def _exact_delta(p: float, q: float, runs: int, eps: float) -> float:
    """δ(ε) of `runs` runs of the pair (p, 1 − p) against (q, 1 − q), both orders, by counting
    the outputs with k ones (the 2^runs outputs grouped by k)."""
    def hs(a: float, b: float) -> float:
        return sum(math.comb(runs, k) * max(0.0, a ** (runs - k) * (1 - a) ** k
                                            - math.exp(eps) * b ** (runs - k) * (1 - b) ** k)
                   for k in range(runs + 1))
    return max(hs(p, q), hs(q, p))


def test_the_accountant_predicts_both_sides_around_the_exact_delta() -> None:
    exact = _exact_delta(0.7, 0.75, 10, 1.0)
    assert 1 / 2000 < exact < 1 / 500
    proved = unfold(check_spec(data(), "rr_sub_10_runs.yaml"))
    assert proved.plan.expected == Verdict.PROVED
    assert exact <= proved.plan.delta_at_claim_float          # the certified upper end
    c = next(o for o in proved.plan.obligations if isinstance(o, AccountantCheck))
    assert c.runs == 10 and not c.exact                      # ratios 14/15 and 6/5: rounded keys
    text = proved.rendered.text
    assert "Definition rr_sub_10_runs_table : fmech := fmech_subsample (1 # 10) 0 rr_sub_10_runs_spec." in text
    assert "[(1 # 4); (3 # 4)]" in text                      # the spec's row, not the mixed one
    assert "Theorem rr_sub_10_runs_dp : dp (nb_remove 0) rr_sub_10_runs (1) (1 / 500)." in text
    low = unfold(check_spec(data("rr_sub_10_runs_low.yaml"), "rr_sub_10_runs_low.yaml"))
    assert low.plan.expected == Verdict.REFUTED
    assert low.rendered.theorems == ("rr_sub_10_runs_low_refuted",)


@pytest.mark.parametrize(("change", "field"), [
    ({"subsample": {"rate": "0", "without": "without"}}, "subsample.rate"),
    ({"subsample": {"rate": "3/2", "without": "without"}}, "subsample.rate"),
    ({"subsample": {"rate": "1/10", "without": "nobody"}}, "subsample.without"),
    ({"neighbours": "all"}, "neighbours"),
    ({"subsample": None}, "neighbours"),
])
def test_bad_subsampling_is_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    d = data()
    d.update(change)
    if d.get("subsample") is None:
        del d["subsample"]
    with pytest.raises(SpecError) as err:
        check_spec(d, "rr.yaml")
    assert err.value.field == field


def test_the_command_line_exits_2_on_a_bad_rate(tmp_path: Path) -> None:
    d = data()
    d["subsample"]["rate"] = "-1/10"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(d))
    assert main(["prove", str(path), "--out", str(tmp_path), "--build", str(tmp_path / "b"), "-q"]) == 2
