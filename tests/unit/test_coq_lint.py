"""The Coq lint (scripts/coq-lint.py): the library passes, and each rule catches its violation."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent.parent


def _lint() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coq_lint", REPO / "scripts" / "coq-lint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LINT = _lint()
HEAD = "(** * A concept *)\nFrom Coq Require Import Reals Lra.\n"


def test_the_library_and_the_templates_pass() -> None:
    assert LINT.main([]) == 0


@pytest.mark.parametrize("body, rule", [
    ("Lemma a : True.\nAdmitted.\n", "`Admitted`"),
    ("Lemma a : True.\nProof. admit. Qed.\n", "`admit`"),
    ("Axiom cheat : False.\n", "`Axiom`"),
    ("Parameter p : nat.\n", "`Parameter`"),
    ("Conjecture c : False.\n", "`Conjecture`"),
    ("Hypothesis h : False.\n", "outside a section"),
    ("Section s.\nEnd s.\nVariable v : nat.\n", "outside a section"),
    ("Lemma Big_name : True.\nProof. exact I. Qed.\n", "does not start lowercase"),
    ("Definition d := 0.\nFrom Coq Require Import List.\n", "every Require at the top"),
    ("Lemma a : (0 + 0 = 0)%R.\nProof. simpl. lra. Qed.\n", "bare `simpl`"),
    ("Lemma a (x : R) (H : x = 0) : x = 0.\nProof. simpl in H. exact H. Qed.\n", "bare `simpl`"),
])
def test_a_violation_is_reported(tmp_path: Path, body: str, rule: str) -> None:
    v = tmp_path / "Bad.v"
    v.write_text(HEAD + body)
    problems = LINT.check_library_file(v)
    assert any(rule in p for p in problems), problems


def test_no_header_is_reported(tmp_path: Path) -> None:
    v = tmp_path / "Bad.v"
    v.write_text("(* a plain comment *)\nDefinition d := 0.\n")
    assert any("header" in p for p in LINT.check_library_file(v))


@pytest.mark.parametrize("body", [
    "Section s.\nVariable v : nat.\nHypothesis h : v = v.\nEnd s.\n",   # discharged at the section's end
    "(* Admitted, Axiom and simpl in a comment *)\nDefinition d := \"Axiom\".\n",
    "Lemma a : (2 ^ 1 = 2)%R.\nProof. simpl pow. lra. Qed.\n",           # simpl restricted to a constant
    "Lemma a : True.\nProof. cbn [id]. exact I. Qed.\n",
])
def test_what_is_allowed_passes(tmp_path: Path, body: str) -> None:
    v = tmp_path / "Good.v"
    v.write_text(HEAD + body)
    assert LINT.check_library_file(v) == []


def test_a_template_with_an_axiom_is_reported(tmp_path: Path) -> None:
    code = LINT.blank_comments(LINT.jinja_as_coq(
        "Section {{ name }}.\nVariable {{ p }} : R.\nEnd {{ name }}.\nAxiom {{ name }}_cheat : False.\n"))
    problems = LINT.check_assumed(tmp_path / "t.v.j2", code)
    assert len(problems) == 1 and "`Axiom`" in problems[0]
