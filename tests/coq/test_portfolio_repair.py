"""When the first proof the renderer proposes for the e^ε bound fails, the tactic
portfolio tries the other candidates in an IDE session; the batch check and `verify`
still decide, and `verify` accepts only proofs from the candidate list."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from obligations.certify import certificate as cert
from obligations.certify.outcome import Settings
from obligations.certify.record import write_certificate
from obligations.certify.run import run_coq, unfold
from obligations.certify.verify import verify
from obligations.core.document import Tactic
from obligations.models import load

WEAK = "unfold Q2R; simpl. interval with (i_prec 2)."


def test_weak_interval_precision_is_repaired_by_the_portfolio(tmp_path: Path) -> None:
    u = unfold(load("mechanisms/randomized_response_eps1.yaml"))
    doc = u.rendered.document
    (slot,) = doc.slots
    assert slot.candidates[0].script == "exp_taylor_lower (1 # 1) 1%nat 9%nat."
    weak = replace(slot, candidates=(Tactic(WEAK, "PreludeInterval"), *slot.candidates))
    forged = replace(u, rendered=replace(u.rendered, document=replace(doc, slots=(weak,))))
    settings = Settings(build=tmp_path / "b", out=tmp_path / "c", use_cache=False)
    outcome, audit = run_coq(forged, settings)
    assert outcome.verdict == "proved", outcome.message
    assert audit is not None and "portfolio" in outcome.message
    assert outcome.choices[slot.name] != WEAK and outcome.choices[slot.name] in slot.scripts()
    assert outcome.proofs[0]["tried"][0] == WEAK


def test_verify_accepts_another_candidate_but_nothing_else(tmp_path: Path) -> None:
    u = unfold(load("mechanisms/randomized_response_eps1.yaml"))
    (slot,) = u.rendered.document.slots
    other = "unfold Q2R; simpl; interval with (i_prec 100)."
    assert other in slot.scripts()
    settings = Settings(build=tmp_path / "b", out=tmp_path / "c", use_cache=False)
    outcome, audit = run_coq(u, settings, {slot.name: other})
    assert audit is not None and outcome.verdict == "proved", outcome.message
    path = tmp_path / "c" / "randomized_response_eps1.json"
    write_certificate(path, u, outcome, audit, settings)
    checked = verify(path, settings)
    assert checked.ok, checked.problems
    record = json.loads(path.read_text())
    assert record["coq_file"]["sha256"] != record["rendered_sha256"]
    assert record["uses_interval"] is True     # interval computes with primitive integers and floats
    assert "Coq.Numbers.Cyclic.Int63.PrimInt63.add" in record["assumptions"]
    # a proof the renderer never proposed is refused, even though Coq would accept it
    mine = "unfold Q2R; simpl. interval with (i_prec 60)."
    vpath = path.with_suffix(".v")
    vpath.write_text(vpath.read_text().replace(f"Proof. {other} Qed.", f"Proof. {mine} Qed."))
    record["proofs"][0]["tactic"] = mine
    record["coq_file"]["sha256"] = cert.sha256_file(vpath)
    cert.write(path, {k: v for k, v in record.items() if k != "certificate_sha256"})
    refused = verify(path, settings)
    assert not refused.ok and any("not one the renderer proposes" in p for p in refused.problems)
