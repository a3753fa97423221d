"""Tables whose entries are built from rationals, exp and ln: what Python proposes (the
family, the brackets, the witness), and bad entries refused before Coq (exit 2, file and field)."""
from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from inprocess import cli

from obligations.core.obligation import Verdict
from obligations.models import check, load, unfold

REPO = Path(__file__).resolve().parent.parent.parent
KRR = REPO / "mechanisms" / "krr_eps1.yaml"
EXPM = REPO / "mechanisms" / "exponential_mechanism.yaml"
FALSE = REPO / "tests" / "specs" / "calibrated"


def _krr(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(KRR.read_text())
    data.update(changes)
    return data


def test_krr_at_eps_1_is_recognised_as_the_family() -> None:
    u = unfold(load(KRR))
    assert u.spec.kind == "calibrated"
    assert u.plan.expected == Verdict.PROVED
    assert u.mechanism.family is not None and u.mechanism.family.k == 4
    assert "krr_exp (1) 4" in u.rendered.text and "interval with" not in u.rendered.text


def test_a_larger_claim_goes_by_the_brackets() -> None:
    u = unfold(check(_krr(claim={"epsilon": "11/10"}), "krr.yaml"))
    assert u.plan.expected == Verdict.PROVED
    assert u.mechanism.family is None and u.mechanism.lower is not None
    assert "rdp_of_brackets" in u.rendered.text


def test_the_exponential_mechanism_is_proved_by_brackets_and_its_tight_epsilon() -> None:
    u = unfold(load(EXPM))
    assert u.plan.expected == Verdict.PROVED
    assert u.mechanism.lower is not None
    assert abs(u.plan.tight_epsilon_float - 0.6608152966) < 1e-9   # below the claimed 1: not tight


@pytest.mark.parametrize("name, pair", [("krr_eps1_claim_0_9", (0, 1, 0)),
                                        ("exponential_mechanism_claim_half", (0, 1, 0))])
def test_false_variants_are_refuted_by_the_brackets(name: str, pair: tuple[int, int, int]) -> None:
    u = unfold(load(FALSE / f"{name}.yaml"))
    assert u.plan.expected == Verdict.REFUTED
    w = u.mechanism.witness
    assert (w.x, w.x2, w.y) == pair
    b = u.mechanism.brackets
    assert b.lo[w.x][w.y] > w.upper * b.hi[w.x2][w.y]
    assert "not_rdp_of_brackets" in u.rendered.text


def test_a_claim_the_brackets_cannot_decide_is_undecided() -> None:
    # e^(1 - 10^-15) is within the brackets' 2^-40 of the ratio e: neither proof nor witness.
    u = unfold(check(_krr(claim={"epsilon": "1 - 1/1000000000000000"}), "krr.yaml"))
    assert u.plan.expected == Verdict.UNDECIDED
    assert any("cannot decide" in n for n in u.plan.notes)
    assert u.rendered.theorems == ("krr_eps1_rdistr",)


def _run_check(tmp_path: Path, data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    spec = tmp_path / "bad.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    return cli("check", str(spec))


@pytest.mark.parametrize("entry, field, message", [
    ("abs(exp(1))/(exp(1) + 3)", "table.a[0]", "abs(...) is not supported"),
    ("1 - exp(1)", "table.a[0]", "is negative"),
    ("exp(1)/2", "table.a[0]", "more than 1"),
    ("exp(1)/(exp(1) + 4)", "table.a", "the row sums to"),
    ("exp(1) if 1 < 2 else 0", "table.a[0]", "not supported"),
])
def test_bad_entries_are_refused_naming_the_field(tmp_path: Path, entry: str, field: str, message: str) -> None:
    data = _krr()
    data["table"]["a"][0] = entry
    done = _run_check(tmp_path, data)
    assert done.returncode == 2, done
    assert f"bad.yaml: {field}:" in done.stderr and message in done.stderr, done.stderr


def test_a_delta_outside_0_1_is_refused(tmp_path: Path) -> None:
    done = _run_check(tmp_path, _krr(claim={"epsilon": 1, "delta": "3/2"}))
    assert done.returncode == 2 and "claim.delta" in done.stderr, done.stderr


def test_a_delta_claim_is_proved_by_the_hockey_stick_sum_on_the_brackets() -> None:
    u = unfold(load(FALSE / "krr_eps1_delta.yaml"))
    assert u.plan.expected == Verdict.PROVED
    assert abs(u.plan.delta_at_claim_float - 0.0452371402918) < 1e-9   # (e - e^(9/10)) / (e + 3)
    assert "rdp_of_brackets_delta" in u.rendered.text
    assert u.mechanism.family is None   # krr_exp is for delta = 0


def test_a_delta_claim_below_the_hockey_stick_sum_is_refuted_on_a_set() -> None:
    u = unfold(load(FALSE / "krr_eps1_claim_0_9_delta_1_50.yaml"))
    assert u.plan.expected == Verdict.REFUTED
    w = u.mechanism.set_witness
    assert (w.x, w.x2, w.ys) == (0, 1, (0,)) and w.excess > 1 / 50
    b = u.mechanism.brackets
    assert sum(b.lo[w.x][y] for y in w.ys) > w.upper * sum(b.hi[w.x2][y] for y in w.ys) + Fraction(1, 50)
    assert "not_rdp_of_bracket_set" in u.rendered.text


def test_a_delta_claim_within_the_brackets_is_undecided() -> None:
    # delta at 9/10 is 0.04523714029180754...: 1e-15 either side, the 2^-40 brackets cannot tell.
    for d in ("0.045237140291806", "0.045237140291808"):
        u = unfold(check(_krr(claim={"epsilon": "9/10", "delta": d}), "krr.yaml"))
        assert u.plan.expected == Verdict.UNDECIDED, d
        assert u.rendered.theorems == ("krr_eps1_rdistr",)   # nothing about the claim goes to Coq


def test_a_tie_in_a_table_of_reals_is_undecided_with_the_reason_and_the_form_that_proves_it() -> None:
    """The truncated geometric with alpha = e^-1 as a table, claimed at its exact epsilon:
    brackets never prove a tie; the note says so and names the `geometric:` form."""
    run = cli("prove", str(REPO / "tests" / "specs" / "calibrated" / "geometric_table_tie.yaml"), "--out",
              "build/never", "--build", "build/never")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "UNDECIDED" in run.stdout
    assert "the claim is exactly the table's epsilon (M(0)(0) = e^eps * M(1)(0))" in run.stdout
    assert '`geometric: {epsilon: "1", n: 3}` it is proved exactly' in run.stdout
