"""Real Coq on the generic alignment route: CheckDP's partialsum (and noisymax, from the
certificate Coq made of it) certified for every stream length and every ε by `prove` (the
program as written, the soundness theorem proved once), a wrong shift or a wrong invariant
left unproved, and the soundness theorem's axioms the allow-listed ones."""
from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest
from coqrun import coqc

from obligations.certify import allowlist
from obligations.certify.outcome import Settings
from obligations.certify.run import load_specs, run_coq, unfold
from obligations.program.align import synth
from obligations.program.align.render import render
from obligations.program.align.route import Found
from obligations.prover.coq import assumption_names

pytestmark = pytest.mark.coq

REPO = Path(__file__).resolve().parent.parent.parent
# partialsum is proved here; noisymax is read from the certificate Coq made of it (tests/committed.py)
SPECS = ["mechanisms/checkdp/partialsum.yaml"]
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


def test_wrong_invariant_is_not_proved(tmp_path: Path) -> None:
    """partialsum with an invariant that forgets the sums' distance: the step is not proved."""
    u, f = _found("mechanisms/checkdp/partialsum.yaml")
    phases = [synth.Phase(p.guard, tuple(a for a in p.atoms if "D" not in str(a))) for p in f.invariant.phases]
    outcome, audit = run_coq(replace(u, rendered=render(u.spec, f.alignment, replace(f.invariant, phases=phases))),
                             Settings(build=tmp_path, out=tmp_path, use_cache=False))
    assert audit is None and outcome.verdict == "unproved"


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
