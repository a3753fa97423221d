"""When Python's proof of the e^ε bound fails, the tactic portfolio repairs it in an
IDE session; the batch check and `verify` still decide."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from obligations.pipeline import Settings, _write_certificate, _run_coq, unfold, verify
from obligations.spec.load import load


def test_weak_interval_precision_is_repaired_by_the_portfolio(tmp_path: Path) -> None:
    u = unfold(load("mechanisms/randomized_response_eps1.yaml"))
    assert "interval with (i_prec 53)" in u.rendered.text
    weak = u.rendered.text.replace("interval with (i_prec 53)", "interval with (i_prec 2)")
    forged = replace(u, rendered=replace(u.rendered, text=weak))
    settings = Settings(build=tmp_path / "b", out=tmp_path / "c", use_cache=False)
    outcome, audit = _run_coq(forged, settings)
    assert outcome.verdict == "proved", outcome.message
    assert audit is not None and "portfolio" in outcome.message
    assert outcome.rendered_text is not None and "i_prec 2)" not in outcome.rendered_text


def test_verify_accepts_a_repaired_bound_but_nothing_else(tmp_path: Path) -> None:
    u = unfold(load("mechanisms/randomized_response.yaml"))
    settings = Settings(build=tmp_path / "b", out=tmp_path / "c", use_cache=False)
    outcome, audit = _run_coq(u, settings)
    assert audit is not None
    repaired = u.rendered.text.replace("Proof. exp_exact. Qed.",
                                       "Proof. unfold Q2R; simpl. rewrite exp_ln by lra; lra. Qed.")
    outcome.rendered_text = repaired
    cert = tmp_path / "c" / "randomized_response.json"
    _write_certificate(cert, u, outcome, audit, settings)
    assert verify(cert, settings).ok, verify(cert, settings).problems
    record = json.loads(cert.read_text())
    assert record["coq_file"]["sha256"] != record["rendered_sha256"]
