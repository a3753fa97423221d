"""`obligations audit`: audit specs written from a peer's answer, and what an audit says.

A report is SOUND when Coq proved it ((ε, δ)-DP of the mechanism run K times), WRONG when Coq
refuted it (the exact δ(ε) is above the reported δ: a pair of neighbours and an event show it),
UNDECIDED when δ lies inside the certified bracket of δ(ε)."""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from obligations.analysis.finite import tabulate
from obligations.certify import peers
from obligations.certify.outcome import Outcome
from obligations.core import expr as E
from obligations.errors import UsageError
from obligations.models import load


def _eps0(text: str) -> float:
    try:
        value = E.to_sympy(E.parse(text), {})
    except E.ExprError as exc:
        raise UsageError(f"--pure-dp {text}: {exc}") from None
    return float(value.evalf(30))


def _slug(text: str) -> str:
    return re.sub("_+", "_", re.sub(r"[^A-Za-z0-9]", "_", text)).strip("_").lower()


def ask(peer: str, pure_dp: str | None, mechanism: Path | None, runs: int, epsilons: Sequence[str],
        write: Path) -> list[Path]:
    """Ask the peer at each ε; write one audit spec per answer into `write`; their paths."""
    if (pure_dp is None) == (mechanism is None):
        raise UsageError("--peer needs exactly one of --pure-dp E0 and --mechanism SPEC")
    if runs < 1:
        raise UsageError("--runs must be at least 1")
    if not epsilons:
        raise UsageError("--peer needs --epsilon (repeatable)")
    write.mkdir(parents=True, exist_ok=True)
    out = []
    for text in epsilons:
        try:
            eps = float(text)
        except ValueError:
            raise UsageError(f"--epsilon {text}: a decimal number") from None
        if pure_dp is not None:
            report = peers.ask_pure_dp(peer, _eps0(pure_dp), runs, eps)
            what: dict[str, Any] = {"pure_dp": pure_dp}
            label = f"pure_dp_{_slug(pure_dp)}"
        else:
            assert mechanism is not None
            spec = load(mechanism)
            m = tabulate(_one_run(spec))
            report = peers.ask_table(peer, m.base_rows, m.pairs, runs, eps)
            what = {"spec": os.path.relpath(mechanism.resolve(), write.resolve())}
            label = _slug(spec.name)
        name = _slug(f"{peer}_{label}_{runs}_runs_eps_{text}")
        path = write / f"{name}.yaml"
        data = {"schema_version": 1, "name": name,
                "description": f"{report.accountant}: delta({text}) for {runs} runs, as it reported it",
                "audit": {"accountant": report.accountant, "call": report.call, "mechanism": what, "runs": runs,
                          "reported": {"epsilon": text, "delta": repr(report.delta)}}}
        path.write_text(yaml.safe_dump(data, sort_keys=False, width=200))
        out.append(path)
    return out


def _one_run(spec: Any) -> Any:
    from dataclasses import replace
    return replace(spec, compose=1)


def verdict(o: Outcome) -> str:
    return {"proved": "SOUND", "refuted": "WRONG"}.get(str(o.verdict), str(o.verdict).upper())


def summary(spec: Any, o: Outcome) -> dict[str, Any]:
    t = spec.target
    return {"audit": spec.name, "accountant": spec.accountant, "runs": spec.runs, "epsilon": t.epsilon_text,
            "reported_delta": t.delta_text, "verdict": verdict(o), "certificate": o.certificate}


def lines(spec: Any, o: Outcome) -> list[str]:
    t = spec.target
    head = (f"{spec.name}: {spec.accountant} reported delta = {t.delta_text} at eps = {t.epsilon_text} "
            f"for {spec.runs} runs: {verdict(o)}")
    out = [head]
    if o.verdict == "proved":
        out.append(f"  Coq proved it: {o.statement}")
    elif o.verdict == "refuted":
        out.append(f"  Coq refuted it: {o.statement}")
        if o.delta_at_claim:
            out.append(f"  the exact delta(eps) is at least the certified lower end; the accountant's bracket puts it "
                       f"near {o.delta_at_claim}")
    elif o.message:
        out.append(f"  {o.message}")
    if o.certificate:
        out.append(f"  certificate: {o.certificate}")
    return out
