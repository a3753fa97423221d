"""Real coqc on a small library: `build_theories` compiles only what a file loads (a fresh
install compiles what its first spec needs), and rebuilds a file whose dependency was rebuilt
(make's rule), so a partly compiled library never mixes stale and fresh .vo files; coqchk of
the whole library in parts (`check_library`) accepts it only when every part passes."""
from __future__ import annotations

import os
import time
from pathlib import Path

from obligations.certify.outcome import Settings
from obligations.certify.run import check_library
from obligations.prover.coq import Coq

FILES = {
    "Core/A.v": "Definition a := 1.\n",
    "Core/B.v": "From Obligations.Core Require Import A.\nDefinition b := a.\n",
    "Top.v": "From Obligations.Core Require Import B.\nDefinition top := b.\n",
    "Other.v": "From Obligations.Core Require Import A.\nDefinition other := a.\n",
}


def library(tmp_path: Path) -> Coq:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "_CoqProject").write_text("-Q . Obligations\n" + "\n".join(FILES) + "\n")
    return Coq(tmp_path)


def compiled(tmp_path: Path) -> set[str]:
    return {str(p.relative_to(tmp_path).with_suffix(".v")) for p in tmp_path.rglob("*.vo")}


def test_only_the_closure_is_compiled_then_the_rest_when_asked(tmp_path: Path) -> None:
    coq = library(tmp_path)
    needed = coq.closure_of_texts(["From Obligations Require Import Top.\n"])
    coq.build_theories(needed=needed)
    assert compiled(tmp_path) == {"Core/A.v", "Core/B.v", "Top.v"}
    assert not coq.library_compiled()
    coq.build_theories()
    assert compiled(tmp_path) == set(FILES) and coq.library_compiled()


def test_a_rebuilt_dependency_makes_its_dependents_stale(tmp_path: Path) -> None:
    coq = library(tmp_path)
    coq.build_theories()
    past = time.time_ns() - 60 * 10**9
    for f in FILES:      # every file compiled a minute ago, A.v edited since
        os.utime((tmp_path / f).with_suffix(".vo"), ns=(past, past))
        os.utime(tmp_path / f, ns=(past - 10**9, past - 10**9))
    os.utime(tmp_path / "Core/A.v", ns=(past + 10**9, past + 10**9))
    before = {f: (tmp_path / f).with_suffix(".vo").stat().st_mtime_ns for f in FILES}
    coq.build_theories(needed=coq.closure_of_texts(["From Obligations.Core Require Import B.\n"]))
    after = {f: (tmp_path / f).with_suffix(".vo").stat().st_mtime_ns for f in FILES}
    assert {f for f in FILES if after[f] != before[f]} == {"Core/A.v", "Core/B.v"}
    # Top and Other load a file rebuilt since: stale, rebuilt when next needed
    coq.build_theories()
    final = {f: (tmp_path / f).with_suffix(".vo").stat().st_mtime_ns for f in FILES}
    assert {f for f in FILES if final[f] != after[f]} == {"Top.v", "Other.v"}


def test_check_library_checks_every_file_in_parts_and_records_it(tmp_path: Path) -> None:
    coq = library(tmp_path)
    coq.build_theories()
    settings = Settings(theories=tmp_path, build=tmp_path / "build", jobs=2)
    assert not coq.library_checked()
    assert check_library(settings) is None
    assert Coq(tmp_path).library_checked()          # recorded: a later process trusts it


def test_check_library_refuses_an_axiom_in_any_part(tmp_path: Path) -> None:
    coq = library(tmp_path)
    (tmp_path / "Other.v").write_text("From Obligations.Core Require Import A.\nAxiom other : a = 2.\n")
    coq.build_theories()
    problem = check_library(Settings(theories=tmp_path, build=tmp_path / "build", jobs=2))
    assert problem is not None and "other" in problem
    assert not Coq(tmp_path).library_checked()
