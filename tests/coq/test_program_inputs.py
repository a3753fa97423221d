"""Real Coq: a program certificate's input vectors are the declared ranges.

The DP theorem of a program, `dp_prog NAME_deltas NAME_inputs ...`, quantifies
over `NAME_inputs := range_vecs NAME_ranges` (ProgramMech.v): every vector whose
slots lie in the ranges the spec declares.  The checks run on the list Python
enumerated (`NAME_input_list`), and `NAME_input_list_ok` (vm_compute) ties the
two; the theorem is proved through it.  A list missing a vector is rejected."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

from obligations.certify.run import load_specs
from obligations.core.resources import THEORIES

REPO = Path(__file__).resolve().parents[2]
NAME = "online_model_k1"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args)


def coqc(directory: Path, vfile: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", "-Q", str(directory), "Certs",
                           vfile], cwd=directory, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def proved() -> tuple[Path, dict[str, Any]]:
    """mechanisms/online_model.yaml's smallest sweep point (k = 1), as `make prove` certified it
    (tests/committed.py: the .v is the render with the recorded proofs, checked by
    tests/coq/test_committed_certificates.py; its proof is compiled again below)."""
    out, results = committed.results(REPO / "mechanisms" / "online_model.yaml")
    return out, results[NAME]


def test_smallest_sweep_point_is_proved(proved: tuple[Path, dict[str, Any]]) -> None:
    _, result = proved
    assert result["name"] == NAME and result["verdict"] == "proved", result
    # The statement is the one the shipped certificates have: NAME_inputs, now the declared ranges.
    assert result["statement"] == (f"dp_prog {NAME}_deltas {NAME}_inputs {NAME}_prog {NAME}_nslots "
                                   "(ln 2) 0")


def test_inputs_are_defined_from_the_declared_ranges(proved: tuple[Path, dict[str, Any]]) -> None:
    text = (proved[0] / f"{NAME}.v").read_text()
    # d and t are both declared with range [0, 5]
    assert f"Definition {NAME}_ranges : list (Z * Z) := [(0, 5); (0, 5)]%Z." in text
    assert f"Definition {NAME}_inputs : list (list Z) := range_vecs {NAME}_ranges." in text
    assert f"Lemma {NAME}_input_list_ok : {NAME}_input_list = {NAME}_inputs." in text


def test_theorem_is_proved_through_the_input_check(proved: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """`NAME_input_list_ok` is not a side lemma: the DP theorem's proof term uses it."""
    (tmp_path / f"{NAME}.v").write_text((proved[0] / f"{NAME}.v").read_text())
    done = coqc(tmp_path, f"{NAME}.v")
    assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "Uses.v").write_text(f"From Certs Require Import {NAME}.\nPrint {NAME}_dp.\n")
    done = coqc(tmp_path, "Uses.v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{NAME}_input_list_ok" in done.stdout and f"{NAME}_checked" in done.stdout


def test_a_missing_input_vector_is_rejected(proved: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    text = (proved[0] / f"{NAME}.v").read_text()
    listing = re.search(rf"Definition {NAME}_input_list : list \(list Z\) :=\n(.*?)\.\n", text, re.S)
    assert listing is not None
    assert listing.group(1).count("[2; 3]; ") == 1
    forged = text.replace(listing.group(1), listing.group(1).replace("[2; 3]; ", "", 1))
    (tmp_path / f"{NAME}.v").write_text(forged)
    done = coqc(tmp_path, f"{NAME}.v")
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert f"{NAME}_input_list = {NAME}_inputs" in out, out


def test_an_extra_input_vector_is_rejected(proved: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """A vector outside the declared ranges (d = 6) is not smuggled in either."""
    text = (proved[0] / f"{NAME}.v").read_text()
    assert text.count("[5; 5]])%Z.") == 1
    (tmp_path / f"{NAME}.v").write_text(text.replace("[5; 5]])%Z.", "[5; 5]; [6; 5]])%Z."))
    done = coqc(tmp_path, f"{NAME}.v")
    assert done.returncode != 0
    assert f"{NAME}_input_list = {NAME}_inputs" in done.stdout + done.stderr


def test_every_program_enumerates_range_vecs() -> None:
    """Python's enumeration is `range_vecs` of the ranges, in order, for every shipped and
    buggy program (streams included): every program point has a certificate Coq made
    (certificates/, tests/certificates/), whose file proves `NAME_input_list_ok` by computation
    and is today's render with the recorded proofs (tests/coq/test_committed_certificates.py).
    Compiling every file up to its input check again, in one coqc run, cost ~11 s of CPU (the
    render of each program and coqc); the check rejecting a list it does not equal is above."""
    files = [f for d in (REPO / "mechanisms", REPO / "tests" / "specs" / "programs") for f in sorted(d.glob("*.yaml"))
             if "\nprogram:" in f.read_text()]   # (loading every shipped spec cost 2.5 s)
    specs = [s for s in load_specs(files) if s.kind == "program"]
    assert len(specs) >= 16
    for spec in specs:
        shipped = REPO / "certificates" / f"{spec.name}.json"
        folder = shipped.parent if shipped.exists() else committed.TEST_CERTS
        assert committed.record(spec.name, folder)["verdict"] in ("proved", "refuted"), spec.name
        text = (folder / f"{spec.name}.v").read_text()
        n = spec.name
        assert f"Definition {n}_inputs : list (list Z) := range_vecs {n}_ranges." in text
        assert (f"Lemma {n}_input_list_ok : {n}_input_list = {n}_inputs.\n"
                f"Proof. vm_cast_no_check (eq_refl {n}_input_list). Qed.") in text
