"""Real Coq on all-k programs: AboveThreshold, Lyu-Su-Li and report-noisy-max certified for every stream
length and every ε by alignment, a buggy variant refused (no alignment; the fallback
enumeration refutes it with a witness), and a wrong alignment hint left unproved."""
from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

from obligations.certify import allowlist
from obligations.certify.outcome import Settings
from obligations.certify.run import load_specs, run_coq, unfold
from obligations.core.resources import THEORIES
from obligations.program import coupling_analysis as A
from obligations.program.coupling_document import render
from obligations.prover.coq import assumption_names

REPO = Path(__file__).resolve().parent.parent.parent
# AboveThreshold and the buggy variant are proved here; the other two shipped programs are read
# from their committed certificates (Coq checked them when `make prove` made them).
SPECS = ["mechanisms/above_threshold_all_k.yaml", "tests/specs/coupling/at_all_k_noisy_value.yaml"]
READ = ["mechanisms/sparse_vector_lsl_all_k.yaml", "mechanisms/report_noisy_max_all_k.yaml"]
AXIOMS = {"Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
          "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}


@pytest.fixture(scope="module")
def proved(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = tmp_path_factory.mktemp("couplings")
    run = inprocess.cli("prove", *SPECS, "--out", str(out), "--build", str(out / "build"), "--json")
    return run, committed.beside(run.stdout, out, *READ)


@pytest.mark.parametrize("name,statement", [
    ("above_threshold_all_k", "dp_stream 1 above_threshold_all_k_prog above_threshold_all_k_ws 4"),
    ("sparse_vector_lsl_all_k", "dp_stream 1 sparse_vector_lsl_all_k_prog sparse_vector_lsl_all_k_ws 5"),
    ("report_noisy_max_all_k", "dp_stream 1 report_noisy_max_all_k_prog report_noisy_max_all_k_ws 5")])
def test_all_k_certified(proved: tuple[subprocess.CompletedProcess[str], dict[str, Any]], name: str,
                         statement: str) -> None:
    o, out = proved[1][name]
    assert o["verdict"] == "proved" and o["theorem"] == f"{name}_dp_all_k" and o["statement"] == statement
    record = json.loads((out / f"{name}.json").read_text())
    main = record["theorems"][-1]
    assert main["name"] == f"{name}_dp_all_k" and set(record["assumptions"]) <= AXIOMS


def test_buggy_variant_refused_with_witness(proved: tuple[subprocess.CompletedProcess[str], dict[str, Any]]
                                            ) -> None:
    run, results = proved
    assert run.returncode == 1     # not everything proved
    o, out = results["at_all_k_noisy_value"]
    assert o["verdict"] == "undecided" and "no alignment found" in o["message"]
    assert not (out / "at_all_k_noisy_value.json").exists()
    fb, _ = results["at_noisy_value_small_k_k1"]
    assert fb["verdict"] == "refuted" and fb["witness"]["x"] and fb["witness"]["outputs"]


def test_wrong_alignment_hint_is_not_proved(tmp_path: Path) -> None:
    """Coq checks the hint: threshold shift 0 breaks the ⊥ side condition."""
    spec, = load_specs([REPO / "mechanisms/above_threshold_all_k.yaml"])
    u = unfold(spec)
    shape = A.shape(spec)
    assert isinstance(shape, A.Shape) and isinstance(u.mechanism, A.Alignment)
    wrong = replace(u.mechanism, dt=0, cost=u.mechanism.cost / 2)
    outcome, audit = run_coq(replace(u, rendered=render(spec, shape, wrong)),
                             Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"
    assert "side_bot" in outcome.message


def test_library_theorems_use_only_allowed_axioms(tmp_path: Path) -> None:
    """One `Print Assumptions` of the tuple of the coupling theorems (the union of their
    assumptions, in one traversal of the library)."""
    theorems = ["alignment_event", "svt_dp_stream", "rnm_dp_stream", "dlaplace_mass"]
    v = tmp_path / "Audit.v"
    v.write_text("From Obligations Require Import PreludeCoupling.\nSet Printing Width 100000.\n"
                 f"Definition audit_all := ({', '.join('@' + t for t in theorems)}).\nPrint Assumptions audit_all.\n")
    done = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", str(v)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    full, unresolved = allowlist.full_names(assumption_names(done.stdout.splitlines(), "audit_all"), allowlist.REALS)
    assert full and not unresolved and allowlist.refused(full, uses_interval=False) == []
