"""When the first proof the renderer proposes for the e^ε bound fails, the tactic
portfolio tries the other candidates in an IDE session; the batch check and `verify`
still decide, and `verify` accepts only proofs from the candidate list."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import committed

from obligations.certify import certificate as cert
from obligations.certify.outcome import Settings
from obligations.certify.record import write_certificate
from obligations.certify.run import run_coq, unfold
from obligations.certify.verify import verify
from obligations.core.document import Tactic
from obligations.models import load

WEAK = "unfold Q2R; simpl. interval with (i_prec 2)."


OTHER = "unfold Q2R; simpl; interval with (i_prec 100)."


def test_a_weak_first_proof_is_repaired_and_verify_takes_only_candidates(tmp_path: Path) -> None:
    """The renderer's candidates with a weak one first and an interval proof second: the batch
    compile fails, the portfolio takes the second; the certificate of the spec as it is, with that
    candidate, is what verify re-derives (its Coq re-check repeats the one here:
    committed.rederived), and a proof the renderer never proposed is refused."""
    u = unfold(load("mechanisms/randomized_response_eps1.yaml"))
    doc = u.rendered.document
    (slot,) = doc.slots
    assert slot.candidates[0].script == "exp_taylor_lower (1 # 1) 1%nat 9%nat."
    (other,) = (c for c in slot.candidates if c.script == OTHER)
    weak = replace(slot, candidates=(Tactic(WEAK, "PreludeInterval"), other,
                                     *(c for c in slot.candidates if c is not other)))
    forged = replace(u, rendered=replace(u.rendered, document=replace(doc, slots=(weak,))))
    settings = Settings(build=tmp_path / "b", out=tmp_path / "c", use_cache=False)
    outcome, audit = run_coq(forged, settings)
    assert outcome.verdict == "proved", outcome.message
    assert audit is not None and "portfolio" in outcome.message
    assert outcome.choices[slot.name] == OTHER and outcome.proofs[0]["tried"][0] == WEAK
    path = tmp_path / "c" / "randomized_response_eps1.json"
    write_certificate(path, u, outcome, audit, settings)
    assert committed.rederived(path) == []
    record = json.loads(path.read_text())
    assert record["coq_file"]["sha256"] != record["rendered_sha256"]
    assert record["uses_interval"] is True     # interval computes with primitive integers and floats
    assert "Coq.Numbers.Cyclic.Int63.PrimInt63.add" in record["assumptions"]
    # a proof the renderer never proposed is refused, even though Coq would accept it
    mine = "unfold Q2R; simpl. interval with (i_prec 60)."
    vpath = path.with_suffix(".v")
    vpath.write_text(vpath.read_text().replace(f"Proof. {OTHER} Qed.", f"Proof. {mine} Qed."))
    record["proofs"][0]["tactic"] = mine
    record["coq_file"]["sha256"] = cert.sha256_file(vpath)
    cert.write(path, {k: v for k, v in record.items() if k != "certificate_sha256"})
    refused = verify(path, settings)
    assert not refused.ok and any("not one the renderer proposes" in p for p in refused.problems)
