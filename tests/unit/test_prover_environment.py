"""The environment Coq's processes run in: OCaml's minor heap enlarged, unless the user
chose their own OCAMLRUNPARAM (theirs is passed on untouched)."""
from __future__ import annotations

import pytest

from obligations.prover.process import MINOR_HEAP, environment


def test_the_minor_heap_is_set_when_the_user_set_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OCAMLRUNPARAM", raising=False)
    monkeypatch.setenv("OBLIGATIONS_PROBE", "kept")
    env = environment()
    assert env["OCAMLRUNPARAM"] == MINOR_HEAP == "s=4M"
    assert env["OBLIGATIONS_PROBE"] == "kept"          # the rest of the environment goes along


def test_the_users_own_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OCAMLRUNPARAM", "b")
    assert environment()["OCAMLRUNPARAM"] == "b"
