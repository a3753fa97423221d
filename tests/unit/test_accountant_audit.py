"""Audits of other accountants (obligations/table/audit.py, `obligations audit`): the shipped audits'
predicted verdicts, the form's checks (exit 2 naming the field), and asking a peer (skipped,
with the reason, when its package is absent)."""
from __future__ import annotations

import contextlib
import importlib.util
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from obligations.certify.run import unfold
from obligations.cli import main
from obligations.core.obligation import Verdict
from obligations.models import load

REPO = Path(__file__).resolve().parents[2]
PRV = REPO / "mechanisms" / "refuted" / "prv_accountant_pure_dp_ln_3_50_runs_eps_1.yaml"
DPA = REPO / "mechanisms" / "dp_accounting_pure_dp_ln_3_50_runs_eps_1.yaml"
DPA_TABLE = REPO / "mechanisms" / "dp_accounting_randomized_response_1000_runs_eps_650.yaml"


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path,verdict", [(PRV, Verdict.REFUTED), (DPA, Verdict.PROVED), (DPA_TABLE, Verdict.PROVED)])
def test_shipped_audits_predict_their_verdicts(path: Path, verdict: Verdict) -> None:
    spec = load(path.relative_to(REPO))
    assert spec.kind == "audit" and spec.name == path.stem
    u = unfold(spec)
    assert u.plan.expected == verdict
    assert any(n.startswith("audit of ") for n in u.plan.notes)


def test_a_wrong_pure_dp_bound_is_refuted_by_randomized_response() -> None:
    u = unfold(load(PRV.relative_to(REPO)))
    assert u.spec.kind == "audit" and u.mechanism.spec.kind == "kov" and u.rendered.theorems[-1].endswith("_refuted")


Edit = Callable[[dict[str, Any]], None]
REFUSED: dict[str, tuple[Edit, str, str]] = {
    "no-runs": (lambda d: d["audit"].update(runs=0), "audit.runs", "greater than or equal to 1"),
    "negative-delta": (lambda d: d["audit"]["reported"].update(delta="-1/2"), "audit.reported.delta", "rational"),
    "zero-eps0": (lambda d: d["audit"]["mechanism"].update(pure_dp="0"), "audit.mechanism.pure_dp", "> 0"),
    "missing-table": (lambda d: d["audit"].update(mechanism={"spec": "nowhere.yaml"}), "audit.mechanism.spec",
                      "no such spec"),
    "both-mechanisms": (lambda d: d["audit"]["mechanism"].update(spec="x.yaml"), "audit.mechanism", ""),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_an_audit_cannot_be_is_refused_naming_the_field(tmp_path: Path, case: str) -> None:
    edit, field, words = REFUSED[case]
    data = yaml.safe_load(PRV.read_text())
    edit(data)
    spec = tmp_path / "audit.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("show", str(spec))
    assert code == 2, err
    assert f"{spec}: {field}" in err and words in err, err


def test_audit_refuses_other_specs_and_bare_options(tmp_path: Path) -> None:
    code, _, err = run("audit", str(REPO / "mechanisms" / "randomized_response.yaml"), "--build", str(tmp_path))
    assert code == 2 and "is not an audit spec" in err, err
    code, _, err = run("audit", "--epsilon", "1")
    assert code == 2 and "go with --peer" in err, err
    code, _, err = run("audit", "--peer", "dp_accounting", "--runs", "3", "--epsilon", "1")
    assert code == 2 and "exactly one of --pure-dp" in err, err


@pytest.mark.parametrize("peer,package", [("prv_accountant", "prv_accountant"), ("dp_accounting", "dp_accounting")])
def test_asking_a_peer_writes_an_audit_spec(tmp_path: Path, peer: str, package: str) -> None:
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed (an optional extra: pip install {package.replace('_', '-')})")
    from obligations.certify.audit import ask
    (path,) = ask(peer, "ln(3)", None, 50, ["1"], tmp_path)
    spec = load(path)
    assert spec.kind == "audit" and spec.runs == 50 and spec.accountant.startswith(peer)
    expected = Verdict.REFUTED if peer == "prv_accountant" else Verdict.PROVED   # prv 0.2.0 is below the exact delta
    assert unfold(spec).plan.expected == expected
