"""Real Coq: certificates cannot be forged.  Each attack an adversary tried must make
`verify` fail and must make `prove` re-check instead of reusing the certificate; and the
cache reuses only what this machine's Coq checked (a planner-made certificate, a re-hashed
shared-module marker, a .vo compiled from another text are all checked again)."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import committed
import inprocess
import pytest

from obligations.certify import certificate as cert
from obligations.core.resources import THEORIES
from obligations.core.templates import SharedModule

REPO = Path(__file__).resolve().parent.parent.parent
RR = "randomized_response"
REFUTED = "rr_tightened"


def cli(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return inprocess.cli(*args, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def made(honest: tuple[Path, subprocess.CompletedProcess[str]]) -> Path:
    """Honest certificates of a proved and a refuted claim (no profiles: plain specs), made once
    for the run (`honest`, tests/coq/conftest.py: test_jobs.py compares its runs with them)."""
    out, _ = honest
    assert (out / f"{RR}.json").exists() and (out / f"{REFUTED}.json").exists()
    return out


@pytest.fixture()
def certs(made: Path, tmp_path: Path) -> Path:
    """A fresh copy of the honest certificates (and their specs) to tamper with."""
    out = tmp_path / "certs"
    shutil.copytree(made, out, ignore=shutil.ignore_patterns("build"))
    spec_dir = Path(os.path.normpath(made / json.loads((made / f"{RR}.json").read_text())["spec"]["path"])).parent
    shutil.copytree(spec_dir, tmp_path / spec_dir.name)
    for f in out.glob("*.json"):  # the spec path is relative to the certificate: keep it valid
        record = json.loads(f.read_text())
        assert record["spec"]["path"] == f"../{spec_dir.name}/{Path(record['spec']['path']).name}"
    return out


def edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Edit a certificate and recompute its (unkeyed) hash, as an adversary can."""
    record = json.loads(path.read_text())
    change(record)
    cert.write(path, {k: v for k, v in record.items() if k != "certificate_sha256"})


def verify(certs: Path, name: str) -> subprocess.CompletedProcess[str]:
    return cli("verify", str(certs / f"{name}.json"), "--build", str(certs / "build"))


def reproved(certs: Path, name: str) -> dict[str, Any]:
    """`prove` on the spec again, with the tampered certificate in --out."""
    record = json.loads((certs / f"{name}.json").read_text())
    spec = certs / record["spec"]["path"]
    run = cli("prove", str(spec), "--out", str(certs), "--build", str(certs / "build"), "--json")
    assert run.returncode in (0, 1), run.stderr
    result: dict[str, Any] = json.loads(run.stdout)["results"][0]
    return result


def reused(certs: Path, name: str) -> bool:
    """Whether `prove` on the spec would take the certificate in `certs` as its own (its
    cache's re-derivation, in this process): refused, the claim is proved anew, as
    `test_false_claim_marked_proved` shows end to end; taken, Coq re-checks it unless this
    machine's Coq checked it already."""
    from obligations.certify.outcome import Settings
    from obligations.certify.record import reusable
    from obligations.models import load, unfold
    record = json.loads((certs / f"{name}.json").read_text())
    u = unfold(load(certs / record["spec"]["path"]))
    return reusable(certs / f"{name}.json", u, Settings(out=certs, build=certs / "build")) is not None


def reused_from(certs: Path, name: str, spec: Path) -> bool:
    """`reused`, with the spec read from `spec` (a copy elsewhere: the spec moved)."""
    from obligations.certify.outcome import Settings
    from obligations.certify.record import reusable
    from obligations.models import load, unfold
    return reusable(certs / f"{name}.json", unfold(load(spec)), Settings(out=certs, build=certs / "build")) is not None


def test_honest_certificates_verify_and_are_reused(certs: Path) -> None:
    """(`prove` on a fresh build folder re-checks them with Coq, then reuses them:
    `test_a_certificate_no_coq_here_checked_is_rechecked_then_reused`.)"""
    run = cli("verify", str(certs), "--build", str(certs / "build"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count(": OK") == 2
    assert reused(certs, RR)


def test_edited_claim_with_recomputed_hash(certs: Path) -> None:
    edit_json(certs / f"{RR}.json", lambda r: r["claim"].update(epsilon="ln(2)"))
    run = verify(certs, RR)
    assert run.returncode == 1 and "FAILED" in run.stdout
    assert "claim: the certificate says" in run.stdout
    assert not reused(certs, RR)


def test_false_claim_marked_proved(certs: Path) -> None:
    """The refutation of (ln 2, 0) relabelled as a proof, with the cache asked to reuse it."""
    edit_json(certs / f"{REFUTED}.json", lambda r: r.update(verdict="proved", witness=None))
    run = verify(certs, REFUTED)
    assert run.returncode == 1 and "verdict: the certificate says" in run.stdout
    again = reproved(certs, REFUTED)
    assert again["cached"] is False and again["verdict"] == "refuted"


def test_edited_analysis_and_witness(certs: Path) -> None:
    def change(r: dict[str, Any]) -> None:
        r["analysis"]["tight_epsilon"] = "ln(2)"
        r["witness"]["pr_x"] = "1"
    edit_json(certs / f"{REFUTED}.json", change)
    run = verify(certs, REFUTED)
    assert run.returncode == 1
    assert "analysis:" in run.stdout and "witness:" in run.stdout


def test_assumptions_are_recorded_once_for_all_the_theorems(certs: Path) -> None:
    """One `Print Assumptions` of the tuple of the theorems: the union of theirs."""
    record = json.loads((certs / f"{RR}.json").read_text())
    assert [set(t) for t in record["theorems"]] == [{"name", "statement"}] * 2
    assert set(record["assumptions"]) == {
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
        "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"}


@pytest.mark.parametrize("edit", ["added", "per_theorem"])
def test_edited_assumptions_are_refused(certs: Path, edit: str) -> None:
    """What Coq prints of the file is the honest record (`verify` accepts it, above): verify's
    comparison with it refuses the edit, and so does the cache, without Coq."""
    from obligations.certify.outcome import Outcome
    from obligations.certify.verify import _judged
    from obligations.core.obligation import Verdict
    from obligations.prover.coq import Audit
    honest = json.loads((certs / f"{RR}.json").read_text())
    printed = Audit({t["name"]: t["statement"] for t in honest["theorems"]}, honest["assumptions"])

    def change(r: dict[str, Any]) -> None:
        if edit == "added":        # an axiom outside the allow-list
            r["assumptions"].append("Certs.randomized_response.cheat")
        else:                      # a per-theorem list beside the file's
            r["theorems"][0]["assumptions"] = []
    edit_json(certs / f"{RR}.json", change)
    record = json.loads((certs / f"{RR}.json").read_text())
    judged = _judged(certs / f"{RR}.json", RR, record, Outcome(RR, "", Verdict.PROVED, ""), printed)
    assert not judged.ok
    assert any(("the assumptions of the theorems differ" if edit == "added" else "more than its name")
               in p for p in judged.problems), judged.problems
    assert not reused(certs, RR)


def _hide(certs: Path, name: str, script: str) -> None:
    """Put `script` in the proof slot of the e^eps bound, in the .v and in the JSON."""
    vpath = certs / f"{name}.v"
    text = vpath.read_text()
    assert "Proof. exp_exact. Qed." in text
    vpath.write_text(text.replace("Proof. exp_exact. Qed.", f"Proof. {script} Qed.", 1))

    def change(r: dict[str, Any]) -> None:
        r["proofs"][0]["tactic"] = script
        r["coq_file"]["sha256"] = cert.sha256_file(vpath)
    edit_json(certs / f"{name}.json", change)


@pytest.mark.parametrize("script", [
    "exp_exact. Qed. Axiom cheat : False. Lemma x : True. Proof. exact I.",
    "exp_exact. Qed. Definition nb_all := fun (_ _ : nat) => False. Lemma x : True. Proof. exact I.",
])
def test_commands_hidden_in_a_proof_slot(certs: Path, script: str) -> None:
    _hide(certs, RR, script)
    run = verify(certs, RR)
    assert run.returncode == 1
    assert "not one the renderer proposes" in run.stdout
    assert not reused(certs, RR)


def test_module_shadowed_mechanism(certs: Path) -> None:
    vpath = certs / f"{RR}.v"
    text = vpath.read_text()
    shadow = ("Module randomized_response.\nDefinition randomized_response : fmech := "
              "FMech 2 2 ([[1; 0]; [1; 0]])%Q.\nEnd randomized_response.\n")
    vpath.write_text(text.replace("(** ** The claim", shadow + "(** ** The claim", 1))
    edit_json(certs / f"{RR}.json", lambda r: r["coq_file"].update(sha256=cert.sha256_file(vpath)))
    run = verify(certs, RR)
    assert run.returncode == 1
    assert "is not the file the spec renders to" in run.stdout
    assert not reused(certs, RR)


def test_swapped_coq_file_is_reported_and_a_hidden_assumption_found_by_coq(certs: Path) -> None:
    """Two tampers in one verify run: a swapped .v (refused before Coq runs) does not stop the
    check of the other certificate, where an axiom the refutation rests on was dropped from the
    record: only Coq's audit shows it (verify accepts the honest pair: above)."""
    shutil.copy(certs / f"{REFUTED}.v", certs / f"{RR}.v")
    edit_json(certs / f"{REFUTED}.json", lambda r: r["assumptions"].remove("Coq.Logic.Classical_Prop.classic"))
    run = cli("verify", str(certs), "--build", str(certs / "build"), "--json")
    assert run.returncode == 1, run.stderr          # a verdict on the certificates, not a crash
    problems = {Path(r["certificate"]).stem: (r["ok"], " ".join(r["problems"])) for r in json.loads(run.stdout)}
    assert set(problems) == {RR, REFUTED} and not problems[RR][0] and not problems[REFUTED][0]
    assert "is not the file the spec renders to" in problems[RR][1]
    assert "the assumptions of the theorems differ from what Coq prints" in problems[REFUTED][1]
    assert not reused(certs, RR)


def test_certificate_of_an_unknown_spec(certs: Path) -> None:
    edit_json(certs / f"{RR}.json", lambda r: r["spec"].update(path="nowhere.yaml"))
    run = verify(certs, RR)
    assert run.returncode == 1 and "cannot re-derive the claim" in run.stdout


# -- shared modules: the certified ln table a floating-point file requires

TINY = "snapping_p4_tiny"   # the cheapest floating-point certificate (p = 4, u on 2^5 points)


@pytest.fixture()
def fcerts(tmp_path: Path) -> Path:
    """A fresh copy of an honest certificate that requires a shared module (made by Coq with
    `make test-certificates`), its shared module and its spec; no build folder yet."""
    return committed.copy(TINY, tmp_path / "certs")


def _shared_copy(certs: Path) -> Path:
    (path,) = (certs / "shared").glob("LnTable_*.v")
    return path


def test_a_certificate_with_a_shared_module_verifies(fcerts: Path) -> None:
    record = json.loads((fcerts / f"{TINY}.json").read_text())
    path = _shared_copy(fcerts)
    assert record["shared_files"] == [{"path": f"shared/{path.name}", "module": f"Obligations.Shared.{path.stem}",
                                       "sha256": cert.sha256_file(path)}]
    assert path.stem == "LnTable_" + cert.sha256_file(path)[:16]
    assert f"From Obligations.Shared Require {path.stem}." in (fcerts / f"{TINY}.v").read_text()
    run = cli("verify", str(fcerts / f"{TINY}.json"), "--build", str(fcerts / "vbuild"))
    assert run.returncode == 0 and ": OK" in run.stdout, run.stdout + run.stderr
    # verify compiled and checked its own copy, trusting no cache
    assert (fcerts / "vbuild" / "verify" / ".shared" / path.name).read_text() == path.read_text()


def test_an_edited_shared_module_in_the_certificate_is_refused(fcerts: Path) -> None:
    path = _shared_copy(fcerts)
    path.write_text(path.read_text().replace("Theorem table_ok", "Axiom cheat : False.\nTheorem table_ok"))
    run = cli("verify", str(fcerts / f"{TINY}.json"), "--build", str(fcerts / "vbuild"))
    assert run.returncode == 1 and "FAILED" in run.stdout
    assert "its SHA-256 does not match its name (the shared module was edited)" in run.stdout
    assert not (fcerts / "vbuild" / "verify" / ".shared").exists()     # Coq never ran on it


def test_a_shared_module_renamed_to_its_new_hash_is_refused(fcerts: Path) -> None:
    """The edit carried through: the table renamed by its new hash, the file and JSON to match."""
    path = _shared_copy(fcerts)
    text = path.read_text().replace("Theorem table_ok", "Axiom cheat : False.\nTheorem table_ok")
    new = f"LnTable_{cert.sha256_text(text)[:16]}"
    (path.parent / f"{new}.v").write_text(text)
    vpath = fcerts / f"{TINY}.v"
    vpath.write_text(vpath.read_text().replace(path.stem, new))

    def change(r: dict[str, Any]) -> None:
        r["shared_files"] = [{"path": f"shared/{new}.v", "module": f"Obligations.Shared.{new}",
                              "sha256": cert.sha256_text(text)}]
        r["coq_file"]["sha256"] = cert.sha256_file(vpath)
    edit_json(fcerts / f"{TINY}.json", change)
    run = cli("verify", str(fcerts / f"{TINY}.json"), "--build", str(fcerts / "vbuild"))
    assert run.returncode == 1
    assert "shared_files: the certificate says" in run.stdout
    assert "is not the file the spec renders to" in run.stdout


# A small module of the same form as the ln table (a `table` and its `table_ok`): the cache's
# logic does not depend on the table, and it compiles and checks in a fraction of the time.
SMALL = SharedModule("LnTable", "(** * A small shared module *)\nDefinition table := 3%nat.\n"
                                "Theorem table_ok : table = 3%nat.\nProof. reflexivity. Qed.\n")


def test_the_compiled_table_is_reused_and_an_edited_cache_is_not(tmp_path: Path) -> None:
    from obligations.certify import shared
    from obligations.certify.outcome import Settings
    module = SMALL
    settings = Settings(build=tmp_path / "build")
    cached = settings.shared / f"{module.name}.v"
    spent, problem = shared.ensure([module], settings)             # compiled and checked once
    assert "shared_coqc" in spent and problem == ""
    assert shared.ensure([module], settings) == ({}, "")                   # then reused
    cached.write_text(module.text.replace("Theorem table_ok", "Axiom cheat : False.\nTheorem table_ok"))
    spent, problem = shared.ensure([module], settings)             # the edited .v: compiled again
    assert "shared_coqc" in spent and problem == ""               # (what prove and verify call first)
    assert cached.read_text() == module.text
    cached.with_suffix(".vo").write_bytes(b"not a compiled module")
    spent, problem = shared.ensure([module], settings)             # an edited .vo: compiled again
    assert "shared_coqc" in spent and problem == ""
    assert shared.ensure([module], settings) == ({}, "")


def _forged_markers(coq: Any, module: Any, vo: Path) -> list[str]:
    """Markers an adversary can write for an edited .vo: the old unkeyed hash, and this
    format's record under a key that is not this machine's."""
    import hashlib
    import hmac

    from obligations.certify.shared import marker_parts
    old = json.dumps({"module": module.logical, "v_sha256": module.sha256, "vo_sha256": cert.sha256_file(vo),
                      "library": coq.library_digest()}, sort_keys=True)
    other_key = hmac.new(b"\0" * 32, "\0".join(marker_parts(coq, module, vo)).encode(), hashlib.sha256).hexdigest()
    return [old, other_key]


def test_an_edited_vo_with_a_rehashed_marker_is_compiled_again(tmp_path: Path) -> None:
    """The compiled module replaced by a .vo compiled from another, axiom-free text (its
    table_ok says True: ill-typed for the files that require the table) and its marker
    written to match, in either forged form: not reusable, so the step prove and verify take
    first (`shared.ensure`) compiles and checks the module again (the certificate's proof with
    the real ln table, end to end: `test_a_certificate_with_a_shared_module_verifies`)."""
    from obligations.certify import shared
    from obligations.certify.outcome import Settings
    module = SMALL
    settings = Settings(build=tmp_path / "build")
    coq = settings.coq()
    vfile, vo, marker = shared.paths(coq, module)
    fake = tmp_path / "fake" / vfile.name
    fake.parent.mkdir()
    vo.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text("Definition table := 0.\nTheorem table_ok : True.\nProof. exact I. Qed.\n")
    assert subprocess.run(["coqc", "-Q", str(fake.parent), "Obligations.Shared", str(fake)],
                          capture_output=True).returncode == 0
    shutil.copy(fake.with_suffix(".vo"), vo)
    for forged in _forged_markers(coq, module, vo):
        marker.write_text(forged)
        assert not shared.reusable(coq, module, trust_marker=True)
    spent, problem = shared.ensure([module], settings)
    assert "shared_coqc" in spent and problem == ""
    assert shared.reusable(coq, module, trust_marker=True)
    assert vo.read_bytes() != fake.with_suffix(".vo").read_bytes()


def test_an_axiom_in_a_shared_module_is_refused(tmp_path: Path) -> None:
    from obligations.certify import shared
    from obligations.certify.outcome import Settings
    m = SharedModule("LnTable", "Axiom cheat : False.\n")
    _, problem = shared.ensure([m], Settings(build=tmp_path))
    assert f"Obligations.Shared.{m.name}.cheat" in problem
    assert not (tmp_path / ".shared" / f"{m.name}.ok").exists()


def test_a_module_left_to_the_files_check_is_refused_as_if_checked_alone(tmp_path: Path) -> None:
    """`prove` and `verify` compile a shared module and check it in the coqchk run of the files
    that require it: a module with an axiom is not recorded as checked, and is refused with
    the message its own check gives; an honest one is recorded by that run."""
    from obligations.certify import shared
    from obligations.certify.outcome import Settings
    bad, good = SharedModule("LnTable", "Axiom cheat : False.\n"), SMALL
    alone = shared.ensure([bad], Settings(build=tmp_path / "alone"))[1]
    settings = Settings(build=tmp_path / "joint")
    coq = settings.coq()
    for m in (bad, good):
        spent, problem = shared.ensure([m], settings, check=False)
        assert "shared_coqc" in spent and problem == "" and shared.pending(coq, [m, m]) == [m]
        assert not shared.reusable(coq, m, trust_marker=True)            # no marker before a check
        checked = coq.check([], library=False, shared=[shared.paths(coq, m)[0]])
        if m is bad:
            assert shared.accept(coq, [m], checked) == [m]
            problems = shared.check_alone(coq, [m])
            assert problems == {m.name: alone.replace(str(tmp_path / "alone"), str(tmp_path / "joint"))}
            assert shared.pending(coq, [m]) == [m] and not shared.reusable(coq, m, trust_marker=True)
        else:
            assert shared.accept(coq, [m], checked) == [] and shared.pending(coq, [m]) == []
            assert shared.reusable(coq, m, trust_marker=True)
            assert shared.ensure([m], settings, check=False) == ({}, "")   # reused, not compiled again


def test_a_file_whose_shared_module_has_an_axiom_is_not_proved(tmp_path: Path) -> None:
    """The batch check (`check_batch`) of a compiled file that requires a module with an axiom,
    compiled and not yet checked: the file is not proved, with the message of the module
    checked alone, and the module is not recorded as checked."""
    from types import SimpleNamespace

    from obligations.certify import shared
    from obligations.certify.outcome import Outcome, Settings
    from obligations.certify.run import Compiled, check_batch
    from obligations.core.obligation import Verdict
    from obligations.prover.coq import Audit
    bad = SharedModule("LnTable", "Axiom cheat : False.\n")
    alone = shared.ensure([bad], Settings(build=tmp_path / "alone"))[1]
    settings = Settings(build=tmp_path / "b")
    assert shared.ensure([bad], settings, check=False)[1] == ""       # compiled, its check left to the file's
    vfile = tmp_path / "b" / "uses_table" / "uses_table.v"
    vfile.parent.mkdir(parents=True)
    vfile.write_text(f"From Obligations.Shared Require {bad.name}.\nTheorem t : False.\n"
                     f"Proof. exact {bad.name}.cheat. Qed.\n")
    coq = settings.coq()
    assert coq.compile(vfile).status == "ok"
    u = SimpleNamespace(spec=SimpleNamespace(name="uses_table"), rendered=SimpleNamespace(shared=(bad,)))
    out = Outcome("uses_table", "uses_table.yaml", Verdict.UNPROVED, "claim", timings={"coqc": 1.0},
                  choices={"s": "x"})
    step = Compiled(u, out, vfile, {"s": "x"}, Audit({"t": "False"}, []))  # type: ignore[arg-type]
    ((o, audit),) = check_batch([step], settings, library_too=False)
    assert audit is None and o.verdict == Verdict.UNPROVED and o.message == alone
    assert "coqc" not in o.timings and o.choices == {}
    assert not shared.reusable(coq, bad, trust_marker=True)


# -- the cache: only what this machine's Coq checked is reused

def test_a_certificate_no_coq_here_checked_is_rechecked_then_reused(certs: Path) -> None:
    """The honest certificates with a fresh build folder (a fresh clone): re-checked by Coq,
    then reused from the record that check left."""
    first = reproved(certs, RR)
    assert first["verdict"] == "proved" and first["rechecked"] is True and first["cached"] is False
    assert {"coqc", "coqchk"} <= set(first["timings"]) and "session" not in first["timings"]
    again = reproved(certs, RR)
    assert again["cached"] is True and again["rechecked"] is False
    # The spec moved: the certificate, checked here, names the old place, so neither the
    # record of Coq's check nor the re-check path takes it (prove makes a new record).
    from obligations.certify import checked
    from obligations.certify.outcome import Settings
    from obligations.models import load
    record = json.loads((certs / f"{RR}.json").read_text())
    moved = certs.parent / "moved" / f"{RR}.yaml"
    moved.parent.mkdir()
    shutil.copy(certs / record["spec"]["path"], moved)
    settings = Settings(out=certs, build=certs / "build")
    assert checked.reused(load(certs / record["spec"]["path"]), settings) is not None
    assert checked.reused(load(moved), settings) is None
    assert not reused_from(certs, RR, moved)


def test_a_planner_made_certificate_for_a_false_claim_is_never_proved(tmp_path: Path) -> None:
    """The tool's own planner writes every field of a certificate, and the .v, for a false
    family claim (randomized response for all k, the formula changed at k = 9: the ratio is
    128 > 8 there); prove re-checks it, Coq refuses it, and the certificate is removed."""
    from obligations.certify.outcome import Settings
    from obligations.certify.record import planned
    from obligations.models import load, unfold
    spec = tmp_path / "specs" / "randomized_response_family.yaml"
    spec.parent.mkdir()
    spec.write_text((REPO / "mechanisms" / "randomized_response_family.yaml").read_text().replace(
        'formula: "p if x == y else (1 - p) / (k - 1)"',
        'formula: "p if x == y else ((1 - p) / (k - 1) if k != 9 or y != 0 else (1 - p) / (k - 1) / 16)"'))
    out = tmp_path / "out"
    out.mkdir()
    u = unfold(load(spec))
    assert u.plan.expected == "proved"      # Python's plan does not see k = 9
    doc = u.rendered.document
    choices = doc.defaults()
    record = planned(u, choices, Settings(out=out))
    record["spec"] = {"path": os.path.relpath(spec, out), "sha256": u.spec.sha256}
    record["theorems"] = [{"name": t, "statement": "True", "assumptions": []} for t in u.rendered.theorems]
    record["proofs"] = [{"obligation": s.name, "tactic": choices[s.name]} for s in doc.slots]
    (out / f"{u.spec.name}.v").write_text(doc.fill(choices))
    cert.write(out / f"{u.spec.name}.json", record)
    run = cli("verify", str(out / f"{u.spec.name}.json"), "--build", str(tmp_path / "vb"))
    assert run.returncode == 1 and "FAILED" in run.stdout, run.stdout + run.stderr
    run = cli("prove", str(spec), "--out", str(out), "--build", str(tmp_path / "b"), "--json")
    assert run.returncode == 1, run.stdout + run.stderr
    result = json.loads(run.stdout)["results"][0]
    assert result["verdict"] != "proved" and not result["cached"] and not result["rechecked"]
    assert not (out / f"{u.spec.name}.json").exists()


# -- the audit itself, on files no renderer would write

def _audit(tmp_path: Path, module: str, body: str, theorems: tuple[str, ...]) -> str:
    """Compile a hand-written file, coqchk and audit it as `prove` does; the refusal."""
    from obligations.certify.run import _audited
    from obligations.core.audit import audit_tail
    from obligations.prover.coq import Coq, read_audit
    coq = Coq(THEORIES.resolve(), timeout=300)
    coq.build_theories()
    vfile = tmp_path / f"{module}.v"
    vfile.write_text("From Obligations Require Import Prelude.\n" + body + audit_tail(theorems))
    compiled = coq.compile(vfile)
    assert compiled.status == "ok"
    checked = coq.check([vfile], library=False)
    assert checked.status == "ok"
    _, problem = _audited(checked, read_audit(compiled.output, theorems), uses_interval=True)
    return problem


def test_admitted_lemma_under_a_library_like_name(tmp_path: Path) -> None:
    problem = _audit(tmp_path, "PrimInt63", (
        "Lemma PrimInt63_exp_lower : (Q2R (4 # 1) <= exp (ln 3))%R.\nAdmitted.\n"
        "Theorem t : (Q2R (4 # 1) <= exp (ln 3))%R.\nProof. exact PrimInt63_exp_lower. Qed.\n"), ("t",))
    assert "Certs.PrimInt63.PrimInt63_exp_lower" in problem


# -- reproducibility: nothing depends on the current directory or how the path was typed

def _stable(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("timings_s", "peak_memory_kib", "certificate_sha256")}


def test_certificate_independent_of_path_and_directory(made: Path, tmp_path: Path) -> None:
    record = json.loads((made / f"{RR}.json").read_text())
    spec = Path(os.path.normpath(made / record["spec"]["path"]))
    out = tmp_path / "abs"
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    run = cli("prove", str(spec.resolve()), "--out", str(out), "--build", str(tmp_path / "b"), cwd=elsewhere)
    assert run.returncode == 0, run.stderr
    shutil.copytree(spec.parent, tmp_path / spec.parent.name)
    again = json.loads((out / f"{RR}.json").read_text())
    assert (out / f"{RR}.v").read_text() == (made / f"{RR}.v").read_text()
    assert _stable(again) == {**_stable(record), "spec": {**record["spec"],
                                                           "path": os.path.relpath(spec, out)}}
    # typed differently, from another directory: the certificate is reused
    rel = os.path.relpath(spec, elsewhere)
    run = cli("prove", rel, "--out", str(out), "--build", str(tmp_path / "b"), "--json", cwd=elsewhere)
    assert json.loads(run.stdout)["results"][0]["cached"] is True


# -- exit codes: a killed or foreign prover is infrastructure (3), a timeout a verdict (1)

def _shim(tmp_path: Path, tool: str, script: str) -> dict[str, str]:
    """PATH with a wrapper for `tool` in front of the real one."""
    real = shutil.which(tool)
    assert real is not None
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    shim = bindir / tool
    shim.write_text("#!/bin/sh\n" + script.replace("REAL", real) + "\n")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    return {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}"}


def _spec_copy(tmp_path: Path) -> Path:
    text = (REPO / "mechanisms" / f"{RR}.yaml").read_text()
    spec = tmp_path / f"{RR}.yaml"
    spec.write_text(text[:text.index("profile:")])
    return spec


def test_killed_coqchk_is_an_infrastructure_failure(tmp_path: Path) -> None:
    env = _shim(tmp_path, "coqchk", 'case "$1" in --version) exec REAL "$@";; esac; kill -9 $$')
    run = cli("prove", str(_spec_copy(tmp_path)), "--out", str(tmp_path / "o"), "--build",
              str(tmp_path / "b"), env=env)
    assert run.returncode == 3, run.stdout + run.stderr
    assert "coqchk was killed" in run.stderr
    assert not (tmp_path / "o" / f"{RR}.json").exists()


def test_unsupported_coq_version_is_refused(tmp_path: Path) -> None:
    fake = 'case "$1" in --version) echo "The Coq Proof Assistant, version 9.9.9"; exit 0;; esac; exec REAL "$@"'
    env = _shim(tmp_path, "coqc", fake)
    run = cli("prove", str(_spec_copy(tmp_path)), "--out", str(tmp_path / "o"), "--build",
              str(tmp_path / "b"), env=env)
    assert run.returncode == 3 and "coqc is version 9.9.9 but coqchk is 8.16" in run.stderr
    env = _shim(tmp_path, "coqchk", fake)
    run = cli("prove", str(_spec_copy(tmp_path)), "--out", str(tmp_path / "o"), "--build",
              str(tmp_path / "b"), env=env)
    assert run.returncode == 3 and "Coq 9.9.9 is not supported" in run.stderr
    assert not (tmp_path / "o" / f"{RR}.json").exists()


def test_timeout_is_a_verdict(tmp_path: Path) -> None:
    env = _shim(tmp_path, "coqc", 'case "$1" in --version) exec REAL "$@";; esac; sleep 30; exec REAL "$@"')
    run = cli("prove", str(_spec_copy(tmp_path)), "--out", str(tmp_path / "o"), "--build",
              str(tmp_path / "b"), "--timeout", "2", "--json", env=env)
    assert run.returncode == 1, run.stderr
    assert json.loads(run.stdout)["results"][0]["verdict"] == "timeout"
