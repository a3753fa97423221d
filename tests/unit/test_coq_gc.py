"""coqc runs with the garbage-collector setting that costs less CPU (obligations/prover/coq.py,
COQC_GC), unless the user set OCAMLRUNPARAM; coqchk keeps its own defaults.  A stand-in for
each tool on PATH prints the OCAMLRUNPARAM it was given."""
from __future__ import annotations

from pathlib import Path

import pytest

from obligations.prover.coq import COQC_GC, Coq


def _stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Coq:
    for tool in ("coqc", "coqchk"):
        script = tmp_path / tool
        script.write_text('#!/bin/sh\necho "${OCAMLRUNPARAM-unset}"\n')
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{Path('/usr/bin')}:{Path('/bin')}")
    return Coq(tmp_path)


def test_coqc_gets_the_setting_and_coqchk_does_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OCAMLRUNPARAM", raising=False)
    coq = _stand_ins(tmp_path, monkeypatch)
    assert coq._run(["coqc", "x.v"]).stdout.strip() == COQC_GC == "s=32M,o=200"
    assert coq._run(["coqchk", "X"]).stdout.strip() == "unset"


def test_a_users_own_setting_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OCAMLRUNPARAM", "v=0x400")
    coq = _stand_ins(tmp_path, monkeypatch)
    assert coq._run(["coqc", "x.v"]).stdout.strip() == "v=0x400"
    assert coq._run(["coqchk", "X"]).stdout.strip() == "v=0x400"
