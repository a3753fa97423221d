"""The assumption audit: a rendered file with an Admitted lemma or an Axiom gets no certificate."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from obligations.certify.outcome import Settings
from obligations.certify.run import Unfolded, run_coq, unfold
from obligations.core.document import Document
from obligations.models import load


def _with_text(text: str) -> Unfolded:
    """The spec's claim with a hand-edited file (no proof slots) in place of the render."""
    u = unfold(load("mechanisms/randomized_response.yaml"))
    return replace(u, rendered=replace(u.rendered, document=Document.verbatim(u.rendered.module, text)))


def test_smuggled_assumption_is_refused(tmp_path: Path) -> None:
    """An Admitted claim (an Axiom the proof uses, or one it does not use, is refused the same
    way, by the axioms coqchk finds declared: in a batch, below)."""
    u = unfold(load("mechanisms/randomized_response.yaml"))
    text = u.rendered.text
    proof_start = text.index("Theorem randomized_response_dp")
    head, tail = text[:proof_start], text[proof_start:]
    statement = tail[:tail.index("Proof.")]
    audit = tail[tail.index("(** ** The audit"):]   # the file still prints its audit
    forged = head + statement + "Proof. Admitted.\n" + audit
    outcome, audit = run_coq(_with_text(forged), Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None
    assert outcome.verdict == "unproved"
    assert "declares axioms" in outcome.message
    assert "Certs.randomized_response.randomized_response_dp" in outcome.message


def test_failed_proof_reports_the_lemma(tmp_path: Path) -> None:
    u = unfold(load("mechanisms/randomized_response.yaml"))
    forged = u.rendered.text.replace("(3 # 1)).", "(2 # 1)).")  # a bound too small for the check
    outcome, audit = run_coq(_with_text(forged), Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"
    assert "randomized_response_dp" in outcome.message
    # the IDE session shows the goal that the proof left open
    assert outcome.goal is not None and "randomized_response_dp" in outcome.goal
    assert "exp (ln 3)" in outcome.goal


def test_an_axiom_in_one_file_of_a_batch_refuses_that_file_only(tmp_path: Path) -> None:
    """prove_many re-checks its files with one coqchk: the axiom summary is split by module."""
    from obligations.certify.run import prove_many
    u = unfold(load("mechanisms/randomized_response.yaml"))
    text = u.rendered.text
    start = text.index("Theorem randomized_response_dp")
    head, tail = text[:start], text[start:]
    forged = _with_text(head + "Axiom cheat : False.\n" + tail)   # unused: still refused
    assert "Axiom" not in tail   # (the theorem's own proof stands: only the declaration is at fault)
    honest = unfold(load("mechanisms/truncated_geometric.yaml"))
    settings = Settings(build=tmp_path / "b", out=tmp_path / "c", use_cache=False)
    good, bad = prove_many([honest, forged], settings)
    assert good.verdict == "proved" and good.certificate is not None, good.message
    assert "cheat" not in good.message
    assert bad.verdict == "unproved" and "declares axioms" in bad.message
    assert "Certs.randomized_response.cheat" in bad.message
    assert not (tmp_path / "c" / "randomized_response.json").exists()
