"""Shared modules without Coq: the floating kind's certified logarithm table is a module
named by the hash of its text, required by the generated file, recorded by the certificate."""
from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from obligations.core.templates import SHARED_LIBRARY, SharedModule, name_matches_text
from obligations.float.document import ln_module
from obligations.models import load, unfold

SPECS = Path(__file__).resolve().parents[1] / "specs" / "floating"


def _module(spec: Path) -> SharedModule:
    shared = unfold(load(spec)).rendered.shared
    assert len(shared) == 1
    return shared[0]


def test_the_name_is_the_hash_of_the_text() -> None:
    m = _module(SPECS / "snapping_p4_tiny.yaml")
    digest = hashlib.sha256(m.text.encode("utf-8")).hexdigest()
    assert m.name == f"LnTable_{digest[:16]}" and m.sha256 == digest
    assert m.logical == f"{SHARED_LIBRARY}.{m.name}"
    assert name_matches_text(m.name, m.text)
    assert m.name not in m.text       # the text does not name itself: its hash can


def test_an_edited_entry_changes_the_name() -> None:
    m = _module(SPECS / "snapping_p4_tiny.yaml")
    first = next(line for line in m.text.splitlines() if line.strip().startswith("(") and ", (-" in line)
    edited = m.text.replace(first, first.replace(", (-", ", (-1", 1), 1)
    assert edited != m.text
    assert SharedModule("LnTable", edited).name != m.name
    assert not name_matches_text(m.name, edited)


def test_a_table_with_one_entry_less_is_another_module() -> None:
    u = unfold(load(SPECS / "snapping_p4_tiny.yaml"))
    mech = u.mechanism
    fewer = replace(mech, sampler=mech.sampler[1:])
    assert ln_module(fewer).name != ln_module(mech).name
    assert ln_module(replace(mech)).name == ln_module(mech).name     # deterministic


def test_specs_with_the_same_format_and_sampler_share_one_table() -> None:
    snapping, laplace = (_module(SPECS / f"{s}.yaml") for s in ("snapping_p6_small", "laplace_textbook_p6"))
    assert snapping == laplace        # other steps, the same format and sampled u
    assert _module(SPECS / "snapping_p4_tiny.yaml").name != snapping.name


def test_the_generated_file_requires_the_table_instead_of_containing_it() -> None:
    u = unfold(load(SPECS / "snapping_p4_tiny.yaml"))
    m = u.rendered.shared[0]
    text = u.rendered.text
    assert f"From Obligations.Shared Require {m.name}.\n" in text
    assert f"Proof. exact {m.name}.table_ok. Qed." in text
    assert "interval with" not in text and "mant_ok" not in text    # no bracket is proved here
    for forbidden in ("Admitted", "Axiom", "Parameter", "admit"):
        assert forbidden not in m.text and forbidden not in text


def test_a_certificate_from_before_the_shared_table_is_refused_plainly(tmp_path: Path) -> None:
    """An old floating certificate (the table's brackets were proof slots of the file)."""
    from obligations.certify.outcome import Settings
    from obligations.certify.record import compare
    u = unfold(load(SPECS / "snapping_p4_tiny.yaml"))
    old = {"proofs": [{"obligation": "snapping_p4_tiny_mants_ok_0", "tactic": "interval."},
                      {"obligation": "snapping_p4_tiny_exp_lower", "tactic": "exp_exact."}]}
    problems = compare(old, u, Settings(build=tmp_path), tmp_path / "snapping_p4_tiny.v")
    assert problems[0].startswith(f"shared_files: the certificate has none, the spec's file requires "
                                  f"{u.rendered.shared[0].name}")
    assert "the recorded proofs are not the renderer's" in problems[1]
