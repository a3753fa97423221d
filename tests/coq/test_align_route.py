"""Real Coq on the generic alignment route: CheckDP's partialsum (and noisymax, from the
certificate Coq made of it) certified for every stream length and every ε by `prove` (the
program as written, the soundness theorem proved once), a wrong shift or a wrong invariant
left unproved, and the soundness theorem's axioms the allow-listed ones."""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import committed
import inprocess
import pytest
from coqrun import coqc

from obligations import models
from obligations.certify import allowlist
from obligations.certify import certificate as cert
from obligations.certify.outcome import Settings
from obligations.certify.record import planned, recorded_choices
from obligations.certify.run import load_specs, run_coq, unfold
from obligations.program.align import synth
from obligations.program.align.render import render
from obligations.program.align.route import Found
from obligations.prover.coq import assumption_names

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parent.parent.parent
# partialsum is proved here; noisymax is read from the certificate Coq made of it (tests/committed.py)
PARTIALSUM = "mechanisms/checkdp/partialsum.yaml"
SPECS = [PARTIALSUM]
READ = ["mechanisms/checkdp/noisymax.yaml"]
AXIOMS = {"Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
          "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}


@pytest.fixture(scope="module")
def proved(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = tmp_path_factory.mktemp("align")
    run = inprocess.cli("prove", *SPECS, "--out", str(out), "--build", str(out / "build"), "--json")
    return run, committed.beside(run.stdout, out, *READ)


@pytest.mark.parametrize("name,statement", [
    ("partialsum", "dp_all_k partialsum_nb partialsum_prog 4 1"),
    ("noisymax", "dp_all_k noisymax_nb noisymax_prog 5 1")])
def test_generic_route_certifies(proved: tuple[subprocess.CompletedProcess[str], dict[str, Any]], name: str,
                                 statement: str) -> None:
    run, results = proved
    assert run.returncode == 0, run.stderr
    o, out = results[name]
    assert o["verdict"] == "proved" and o["theorem"] == f"{name}_dp_all_k" and o["statement"] == statement
    record = json.loads((out / f"{name}.json").read_text())
    main = record["theorems"][-1]
    assert main["name"] == f"{name}_dp_all_k" and set(record["assumptions"]) <= AXIOMS


def _found(path: str) -> tuple[Any, Found]:
    spec, = load_specs([REPO / path])
    u = unfold(spec)
    assert isinstance(u.mechanism, Found)
    return u, u.mechanism


def test_wrong_shift_is_not_proved(tmp_path: Path) -> None:
    """partialsum with its noise not moved: the released values differ, Coq refuses."""
    u, f = _found("mechanisms/checkdp/partialsum.yaml")
    wrong = replace(f.alignment, rules=(synth.Rule("none", synth.Term(0, 0)),))
    outcome, audit = run_coq(replace(u, rendered=render(u.spec, wrong, f.invariant)),
                             Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"


def _copy(proved: tuple[subprocess.CompletedProcess[str], dict[str, Any]], folder: Path) -> dict[str, Any]:
    """partialsum's certificate as `prove` made it, copied to `folder`: its record."""
    run, results = proved
    assert run.returncode == 0, run.stderr
    _, out = results["partialsum"]
    folder.mkdir()
    for suffix in (".json", ".v"):
        shutil.copy(out / f"partialsum{suffix}", folder / f"partialsum{suffix}")
    record: dict[str, Any] = json.loads((folder / "partialsum.json").read_text())
    return record


def _verify(folder: Path) -> subprocess.CompletedProcess[str]:
    return inprocess.cli("verify", str(folder / "partialsum.json"), "--spec", str(REPO / PARTIALSUM),
                         "--build", str(folder / "build"))


def test_verify_renders_the_recorded_hint_and_coq_refuses_a_wrong_one(
        proved: tuple[subprocess.CompletedProcess[str], dict[str, Any]], tmp_path: Path) -> None:
    """The certificate records the alignment and the invariant the search found, and `verify`
    renders the file from them instead of searching again: an invariant edited to forget the
    sums' distance, with the certificate made consistent with it (its .v rendered from the
    edited record, its fields and seal recomputed, as a forger would), passes every comparison
    and is refused by Coq (exit 1); the search is not run."""
    folder = tmp_path / "forged"
    record = _copy(proved, folder)
    assert record["hint"]["what"].startswith("the alignment") and "Coq checks them" in record["hint"]["what"]
    for part in record["hint"]["parts"]:
        for phase in part["invariant"]:
            phase["atoms"] = [a for a in phase["atoms"] if "D" not in json.dumps(a)]
    spec, = load_specs([REPO / PARTIALSUM])
    settings = Settings(build=tmp_path / "b", out=folder, use_cache=False)
    with models.adopted(spec, record["hint"]):
        u = unfold(spec)
    choices = recorded_choices(record)
    (folder / "partialsum.v").write_text(u.rendered.document.fill(choices))
    record.update(planned(u, choices, settings))
    (folder / "partialsum.json").write_text(cert.text(record))
    with mock.patch.object(synth, "search", side_effect=AssertionError("verify searched")):
        done = _verify(folder)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAILED" in done.stdout and "Coq did not accept" in done.stdout, done.stdout


def test_verify_refuses_a_malformed_hint(proved: tuple[subprocess.CompletedProcess[str], dict[str, Any]],
                                         tmp_path: Path) -> None:
    """A recorded shift outside the templates the renderer reads: refused before Coq runs."""
    folder = tmp_path / "malformed"
    record = _copy(proved, folder)
    record["hint"]["parts"][0]["shifts"][0]["t"] = [0, 7]
    (folder / "partialsum.json").write_text(cert.text(record))
    done = _verify(folder)
    assert done.returncode == 1 and "the recorded hint is malformed" in done.stdout, done.stdout


def test_wrong_substituted_equation_is_not_proved(tmp_path: Path) -> None:
    """sparsevector with the counters' equation every phase states (and the step substitutes
    into the aligned run) made false, r1 = l1 + 1: Coq refuses the file."""
    u, f = _found("mechanisms/checkdp/sparsevector.yaml")
    assert f.invariant is not None
    bad = synth.Atom("=", synth.lin(("r1", 1)), synth.lin(("l1", 1), const=1))
    good = synth.Atom("=", synth.lin(("r1", 1)), synth.lin(("l1", 1)))
    phases = [synth.Phase(p.guard, tuple(bad if a == good else a for a in p.atoms)) for p in f.invariant.phases]
    assert all(bad in p.atoms for p in phases)
    rendered = render(u.spec, f.alignment, replace(f.invariant, phases=phases))
    assert "(r1 = l1 + 1) /\\ (" in rendered.text and "subst r0 r1." in rendered.text
    outcome, audit = run_coq(replace(u, rendered=rendered), Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"


def test_soundness_uses_only_allowed_axioms(tmp_path: Path) -> None:
    """One `Print Assumptions` of the tuple of the soundness theorems (the union of theirs)."""
    done = coqc(tmp_path, "Audit", "From Obligations Require Import PreludeAlign.\nSet Printing Width 100000.\n"
                "Definition audit_all := (@dp_of_aligned, @pexec_cost, @pexec_agree).\n"
                "Print Assumptions audit_all.\n")
    assert done.returncode == 0, done.stderr
    names = assumption_names(done.stdout.splitlines(), "audit_all")
    full, unresolved = allowlist.full_names(names, allowlist.REALS)
    assert names and not unresolved and allowlist.refused(full, uses_interval=False) == []
