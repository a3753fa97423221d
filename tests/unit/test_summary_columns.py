"""The `prove` summary: one table per type of claim, each with the columns that apply to it
(no "eps for delta = 0" column of `?` for an all-k, accuracy or binary64 claim); the
logarithm spelt ln everywhere a run reports."""
from __future__ import annotations

import sympy

from obligations import cli
from obligations.certify.outcome import Outcome
from obligations.core.claims import Accuracy, Dp, ForAllK
from obligations.core.obligation import Verdict
from obligations.noise.analysis import ln_text


def outcome(name: str, claim: Dp | ForAllK | Accuracy, **fields: object) -> Outcome:
    return Outcome(name, f"{name}.yaml", Verdict.PROVED, claim.text(), group=claim.group,
                   measured=claim.measured, timings={"total": 1.0}, **fields)  # type: ignore[arg-type]


def summary(outcomes: list[Outcome], capsys: object) -> list[str]:
    cli._print_summary(outcomes)
    out: str = capsys.readouterr().out  # type: ignore[attr-defined]
    return [line for line in out.splitlines() if line]


def test_one_table_per_claim_type_with_its_own_columns(capsys: object) -> None:
    dp = Dp("ln(3)", "0", "all")
    all_k = ForAllK(Dp("eps", "0", "adjacent streams"))
    acc = Accuracy("2", "1/4")
    lines = summary([outcome("rr", dp, tight_epsilon="ln(3)", delta_at_claim="0"),
                     outcome("rnm_all_k", all_k), outcome("tgeom_acc", acc),
                     outcome("rr_eps1", Dp("1", "0", "all"))], capsys)
    assert lines[0] == "DP claims:"
    assert lines[1].split() == ["mechanism", "verdict", "claim", "eps", "for", "delta", "=", "0",
                                "delta", "at", "claimed", "eps", "seconds"]
    assert lines[2].split() == ["rr", "proved", "(ln(3),", "0)-DP", "ln(3)", "0", "1.0"]
    assert lines[3].split() == ["rr_eps1", "proved", "(1,", "0)-DP", "?", "-", "1.0"]   # same type, same table
    assert lines[4] == "DP for every stream length:"
    assert lines[5].split() == ["mechanism", "verdict", "claim", "seconds"]
    assert "?" not in lines[6] and lines[6].split()[:2] == ["rnm_all_k", "proved"]
    assert lines[7] == "accuracy:" and lines[8].split() == ["mechanism", "verdict", "claim", "seconds"]
    assert "?" not in lines[9]


def test_a_run_of_one_claim_type_has_no_heading(capsys: object) -> None:
    lines = summary([outcome("rr", Dp("ln(3)", "0", "all"), tight_epsilon="ln(3)")], capsys)
    assert lines[0].startswith("mechanism") and len(lines) == 2


def test_log_is_said_ln_but_recorded_as_written() -> None:
    claim = Dp("log(3)", "0", "all")
    assert claim.text() == "(ln(3), 0)-DP"
    assert claim.record()["epsilon"] == "log(3)"    # certificates keep the spec's words
    assert Dp("2*log(2) + catalog(1)", "0", "all").text() == "(2*ln(2) + catalog(1), 0)-DP"
    assert ln_text(sympy.log(3) * sympy.Symbol("k")) == "k*ln(3)"


def test_the_json_report_is_unchanged() -> None:
    o = outcome("rr", Dp("ln(3)", "0", "all"))
    assert "group" not in o.to_json() and "measured" not in o.to_json()
