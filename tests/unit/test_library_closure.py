"""`verify` coqchks the library files a certificate loads, not all of them (and none once this
machine's coqchk accepted the compiled library): the set is read from the `Require`s, and
anything the reader is not sure of means the whole library."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from obligations.certify.outcome import LibraryCheck, Settings
from obligations.certify.run import balanced_parts, library_to_check
from obligations.core.resources import THEORIES
from obligations.prover.coq import Coq, _checker_env, _required


def library(tmp_path: Path, files: dict[str, str]) -> Coq:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "_CoqProject").write_text("-Q . Obligations\n" + "\n".join(files) + "\n")
    return Coq(tmp_path)


def names(coq: Coq, files: list[Path]) -> set[str]:
    return {coq.library_module(v) for v in files}


SMALL = {
    "Core/A.v": "From Coq Require Import Reals.\nDefinition a := 1.\n",
    "Core/B.v": "From Obligations.Core Require Import A.\nDefinition b := a.\n",
    "Top.v": "From Obligations.Core Require Export B.\nRequire Import Obligations.Core.A.\n",
    "Other.v": "From Obligations.Core Require Import A.\n",
}


def test_the_closure_follows_requires_transitively_and_leaves_the_rest(tmp_path: Path) -> None:
    coq = library(tmp_path, SMALL)
    gen = tmp_path / "gen.v"
    gen.write_text("From Coq Require Import List.\nFrom Obligations Require Import Top.\n"
                   "Lemma x : True. exact I. Qed.\n")
    assert names(coq, coq.library_closure([gen])) == {"Obligations.Top", "Obligations.Core.B", "Obligations.Core.A"}


def test_a_require_the_reader_is_unsure_of_means_the_whole_library(tmp_path: Path) -> None:
    coq = library(tmp_path, SMALL)
    gen = tmp_path / "gen.v"
    for text in ("From (* hidden *) Obligations Require Import Top.\n",       # a comment between tokens
                 "From Obligations Require Import Missing.\n"):               # not a library file
        gen.write_text(text)
        assert len(coq.library_closure([gen])) == len(SMALL), text


def test_several_names_and_lines_in_one_require() -> None:
    text = "From Obligations.Finite Require Export Mechanism\n  DP Checker.\nRequire Coq.Reals.Reals.\n"
    assert _required(text) == ["Obligations.Finite.Mechanism", "Obligations.Finite.DP",
                               "Obligations.Finite.Checker", "Coq.Reals.Reals"]


def test_the_finite_prelude_does_not_load_the_floating_point_library() -> None:
    coq = Coq(Path(THEORIES))
    closure = names(coq, coq.library_closure([Path(THEORIES) / "Prelude.v"]))
    assert "Obligations.Finite.DP" in closure and "Obligations.Core.Privacy" in closure
    assert not any(m.startswith("Obligations.Float.") for m in closure)
    assert len(closure) < len(coq.library_files())


def test_mathcomp_requires_are_read_and_only_continuous_noise_loads_them() -> None:
    text = "From HB Require Import structures.\nFrom mathcomp.analysis Require Import measure.\n"
    assert _required(text) == ["HB.structures", "mathcomp.analysis.measure"]
    coq = Coq(Path(THEORIES))
    closure = names(coq, coq.library_closure([Path(THEORIES) / "Laplace" / "TapeAlign.v"]))
    assert "Obligations.Laplace.TapeMeasure" in closure and "Obligations.Laplace.PieceAlign" in closure
    for prelude in ("Prelude.v", "PreludeCoupling.v", "PreludeAlign.v"):
        assert not any(m.startswith("Obligations.Laplace.")
                       for m in names(coq, coq.library_closure([Path(THEORIES) / prelude]))), prelude


def test_verify_trusts_the_record_of_this_compiled_library_else_checks_what_the_file_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify` coqchks no library file once this machine's coqchk accepted this compiled library
    (the record is named by the hash of every .vo), the files a certificate loads when it did not
    or with --recheck-library; `prove` checks the whole library once, with its first files."""
    coq = library(tmp_path, SMALL)
    coq._version = "8.16.1"           # no coqc asked: the record is stubbed below
    gen = tmp_path / "gen.v"
    gen.write_text("From Obligations Require Import Top.\n")
    monkeypatch.setattr(coq, "library_compiled", lambda: True)
    verify, prove = Settings(theories=tmp_path, library=LibraryCheck.CLOSURE), Settings(theories=tmp_path)
    loaded = {"Obligations.Top", "Obligations.Core.B", "Obligations.Core.A"}
    for checked, settings, expected in ((False, verify, loaded), (True, verify, set()),
                                        (True, replace(verify, library=LibraryCheck.RECHECK), loaded),
                                        (False, prove, loaded | {"Obligations.Other"}), (True, prove, set())):
        monkeypatch.setattr(coq, "library_checked", lambda trust_stamp=True, c=checked: c and trust_stamp)
        assert names(coq, library_to_check(coq, [gen], settings)) == expected, (checked, settings)


def test_check_library_parts_cover_the_library_once_and_share_the_work(tmp_path: Path) -> None:
    sizes = {"A": 90, "B": 10, "C": 50, "D": 40, "E": 0}
    files = []
    for name, size in sizes.items():
        (tmp_path / f"{name}.vo").write_bytes(b"x" * size)
        files.append(tmp_path / f"{name}.v")
    parts = balanced_parts(files, 2)
    assert sorted(v for p in parts for v in p) == sorted(files)          # each file once
    assert all(p == sorted(p, key=files.index) for p in parts)          # in the library's order
    weights = sorted(sum(sizes[v.stem] for v in p) for p in parts)
    assert weights == [90, 100]        # every other file would give 50 and 140
    assert balanced_parts(files[:1], 2) == [files[:1]]                  # no empty coqchk run


def test_coqchk_gets_a_larger_heap_unless_the_user_set_the_collector(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OCAMLRUNPARAM", raising=False)
    monkeypatch.delenv("CAMLRUNPARAM", raising=False)
    env = _checker_env()
    assert env is not None and env["OCAMLRUNPARAM"] == "s=32M,o=200"
    monkeypatch.setenv("OCAMLRUNPARAM", "b")
    assert _checker_env() is None       # the user's own settings stand
