"""`check` refuses exactly what `prove` refuses before Coq runs, with the same message:
a spec `check` accepts does not fail at `prove` for a reason Python could have seen."""
from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def shipped(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((REPO / "mechanisms" / f"{name}.yaml").read_text())
    return data


def row_short(d: dict[str, Any]) -> None:
    d["table"]["-"] = ["1/4", "74/100"]          # sums to 0.99


def formula_short(d: dict[str, Any]) -> None:
    d["formula"]["cases"][0]["value"] = "alpha**x / (2 + alpha)"   # row sums are not 1


def steps(*new: Any) -> Callable[[dict[str, Any]], None]:
    def edit(d: dict[str, Any]) -> None:
        d["pipeline"]["steps"] = list(new)
    return edit


ROUND = {"round": {"grid": "lam", "ties": "up"}}
CASES = {
    "row-sums-to-0.99": ("randomized_response", row_short),
    "formula-rows-not-1": ("truncated_geometric_formula", formula_short),
    "pipeline-exp": ("snapping_unclamped", steps("ln", "exp", {"scale": "1/eps"}, "sign", {"add_query": {}}, ROUND)),
    "pipeline-without-sign": ("snapping_unclamped", steps("ln", {"scale": "1/eps"}, {"add_query": {}}, ROUND)),
    "pipeline-scale-before-ln": ("snapping_unclamped", steps({"scale": "1/eps"}, "ln", "sign", {"add_query": {}},
                                                              ROUND)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_refuses_what_prove_refuses_before_coq(tmp_path: Path, case: str) -> None:
    name, edit = CASES[case]
    data = shipped(name)
    data.pop("profile", None)
    edit(data)
    spec = tmp_path / f"{name}.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    checked = run("check", str(spec))
    proved = run("prove", str(spec), "--out", str(tmp_path / "out"), "--build", str(tmp_path / "b"))
    assert checked[0] == 2 and proved[0] == 2, (checked, proved)
    assert checked[2] == proved[2] and str(spec) in checked[2]
    assert "ok" not in checked[1]
    assert not (tmp_path / "b").exists()     # prove stopped before Coq


def test_check_accepts_shipped_specs_and_says_what_python_expects() -> None:
    """`check` of a spec file and of a folder: one `ok` line per claim, with the verdict Python
    expects.  That every shipped spec gets through what `check` runs (unfold: spec, analysis,
    render) is asserted by tests/coq/test_committed_certificates.py, which unfolds each one
    and compares it with its certificate (`check mechanisms` here repeated those ~15 s of CPU)."""
    code, out, err = run("check", "mechanisms/randomized_response.yaml", "mechanisms/refuted")
    assert code == 0, err
    assert out.count(": ok (") == 1 + len(list((REPO / "mechanisms" / "refuted").glob("*.yaml")))
    assert "randomized_response: 2 inputs, 2 outputs, claim (ln(3), 0)-DP; Python expects proved" in out
    assert "rr5_cw_stream_50_runs_below: 5 inputs, 5 outputs, claim (50*ln(19/4), 13/400)-DP; " \
           "Python expects refuted" in out
