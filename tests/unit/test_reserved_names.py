"""A spec's name prefixes the definitions of its generated file: a name whose definitions
would shadow what the file refers to (`tape` makes `tape_run`, the library's program runner
the all-k template calls) is refused at `check`, with the reason, instead of failing in Coq
on a true claim."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from inprocess import cli

from obligations.core.names import SUFFIXES, _without_coq_comments, declared_names, generated_clashes
from obligations.core.resources import THEORIES

REPO = Path(__file__).resolve().parent.parent.parent


def _renamed(tmp_path: Path, mechanism: str, name: str) -> Path:
    data = yaml.safe_load((REPO / "mechanisms" / f"{mechanism}.yaml").read_text())
    data["name"] = name
    data.pop("profile", None)
    spec = tmp_path / f"{name}.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    return spec


@pytest.mark.parametrize("name, clash", [
    ("range", "range_value"), ("two", "two_pld"), ("snap", "snap_accuracy"),
    ("ratio", "ratio_E"), ("tight", "tight_mu"), ("krr", "krr_dp_le"),
])
@pytest.mark.parametrize("mechanism", ["randomized_response", "above_threshold_all_k"])
def test_a_name_whose_definitions_would_shadow_the_library_is_refused(tmp_path: Path, mechanism: str, name: str,
                                                                      clash: str) -> None:
    run = cli("check", str(_renamed(tmp_path, mechanism, name)))
    assert run.returncode == 2, run.stdout + run.stderr
    assert f": name: '{name}' would make the generated file define " in run.stderr
    assert clash in run.stderr and "choose another name" in run.stderr


def test_the_suffixes_are_read_from_the_renderers() -> None:
    assert {"dp", "run", "no_fault", "is_family", "ws"} <= SUFFIXES
    assert generated_clashes("randomized_response") == [] and generated_clashes("online_model_k1") == []
    # prog_run is the library's, but no generated file writes it: a spec may be named prog
    assert generated_clashes("prog") == []


def test_a_program_sweep_point_name_is_checked_too(tmp_path: Path) -> None:
    """The point's name (NAME_k1) prefixes the point's definitions."""
    data = yaml.safe_load((REPO / "mechanisms" / "online_model.yaml").read_text())
    data["name"] = "range"
    spec = tmp_path / "range.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))
    run = cli("check", str(spec))
    assert run.returncode == 2 and "'range' would make the generated file define range_value" in run.stderr


def test_a_library_name_is_refused(tmp_path: Path) -> None:
    """`tape` is the tape semantics' own definition (Coupling/TapeSem.v), not only a prefix of tape_run."""
    run = cli("check", str(_renamed(tmp_path, "randomized_response", "tape")))
    assert run.returncode == 2 and "'tape' is already used by the Coq library" in run.stderr


@pytest.mark.parametrize("name", ["spec", "the", "verify"])
def test_the_header_comment_reserves_no_name(tmp_path: Path, name: str) -> None:
    """The generated header's words are inside one Coq comment, whichever form it takes."""
    from obligations.core.names import RESERVED
    assert name not in RESERVED
    run = cli("check", str(_renamed(tmp_path, "randomized_response", name)))
    assert run.returncode == 0, run.stdout + run.stderr


# The declarations as the library was scanned before `declared_names` (one regex with its
# look-behind first): the faster scan must find exactly the same names.
_LOOK_BEHIND_SCAN = re.compile(
    r"(?<![A-Za-z0-9_'])(?:Definition|Fixpoint|CoFixpoint|Lemma|Theorem|Corollary|Proposition|Fact|"
    r"Remark|Example|Inductive|CoInductive|Variant|Record|Structure|Class|Instance|Notation|Ltac|"
    r"Let|Axiom|Parameter)\s+([A-Za-z_][A-Za-z0-9_']*)")


@pytest.mark.parametrize("code", [
    "Lemma a : True.\nxLemma b.\nLet Definition c.\nDefinition 3d.\nLemma'e f.\n_Theorem g.\nFact\n\th_'1.",
    "Definition", "  Fixpoint fix_me (n : nat)", "Let Let Let x", "ALemma x Lemma y",
])
def test_declared_names_are_those_of_the_look_behind_scan(code: str) -> None:
    assert declared_names(code) == _LOOK_BEHIND_SCAN.findall(code)


def test_the_library_declares_the_same_names_by_either_scan() -> None:
    for f in sorted(THEORIES.rglob("*.v")):
        code = _without_coq_comments(f.read_text(encoding="utf-8"))
        assert declared_names(code) == _LOOK_BEHIND_SCAN.findall(code), f
