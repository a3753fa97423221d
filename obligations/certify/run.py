"""One spec through the prover (`prove`, `prove_many`): discharge the document's
obligations, compile (the file prints its audit), re-check with coqchk, judge the
assumptions, write the certificate; and the specs a command names (`load_specs`)."""
from __future__ import annotations

import functools
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from obligations import models
from obligations.certify import allowlist, checked, shared
from obligations.certify.outcome import LibraryCheck, Outcome, Settings, witness_json
from obligations.certify.record import disagreements, recorded_choices, remove_stale, reusable, write_certificate
from obligations.core.document import Slot
from obligations.core.model import witness_text
from obligations.core.obligation import Verdict
from obligations.errors import InfrastructureError, SpecError, UsageError
from obligations.models import Unfolded, load, unfold
from obligations.prover.coq import GENERATED, Audit, Coq, StageResult, read_audit
from obligations.prover.ide.portfolio import ProofTask, prove_in_order, prove_obligation
from obligations.prover.ide.session import CoqSession, goal_at_failure
from obligations.prover.pool import run_all

__all__ = ["Compiled", "check_batch", "compile_one", "load_specs", "prove", "prove_many", "run_coq", "serial_chunks",
           "unfold"]


def prove(u: Unfolded, settings: Settings) -> Outcome:
    """Certify or refute one unfolded spec (or reuse its still-valid certificate)."""
    return prove_many([u], settings)[0]


def prove_many(units: Sequence[Unfolded], settings: Settings,
               batches: Sequence[int] | None = None) -> list[Outcome]:
    """Certify or refute each spec (or reuse its still-valid certificate): each file is
    discharged and compiled on its own, then coqchk re-checks the files of a batch in one run
    (it loads the libraries once: about a second per file saved). `batches[i]` names the
    batch of unit i (default: one batch). With `settings.jobs` > 1 the files are compiled,
    and the batches checked, that many at a time; the outcomes are the same as one by one.

    A certificate in the output folder that agrees with its spec is reused only if this
    machine's Coq accepted it (`checked`); else its file is re-checked as `verify` does
    (coqc with the recorded proofs, coqchk, the audit, no proof search), and if Coq does not
    give what it records, the claim is proved anew."""
    keys = list(batches) if batches is not None else [0] * len(units)
    if settings.jobs > 1:   # the workers share the library: build it first, once
        settings.coq().build_theories(settings.progress)
    steps = run_all(lambda u: _compile_or_skip(u, settings), list(units), settings.jobs)
    outcomes: list[Outcome | None] = [None] * len(units)
    groups: dict[int, list[tuple[int, Compiled]]] = {}
    for i, (u, (final, step)) in enumerate(zip(units, steps, strict=False)):
        if isinstance(step, Compiled):
            groups.setdefault(keys[i], []).append((i, step))
        else:   # Coq refused the file: no certificate (a stale one is removed)
            outcomes[i] = _told(step if final else _finish(u, step, None, settings), settings)
    ordered = _merged(list(groups.values()), settings.jobs)
    coq = settings.coq()
    if ordered and settings.jobs > 1 and not coq.library_checked(settings.library != LibraryCheck.RECHECK) \
            and coq.library_compiled():
        verdicts = _checked_beside_library(ordered, settings)
    else:
        verdicts = run_all(lambda g: _checked(g, settings), ordered, settings.jobs)
    anew: list[int] = []
    for group, results in zip(ordered, verdicts, strict=False):
        for (i, c), (o, audit) in zip(group, results, strict=False):
            if c.recheck is None:
                outcomes[i] = _told(_finish(c.u, o, audit, settings), settings)
            elif audit is not None and not disagreements(c.recheck, o, audit):
                outcomes[i] = _told(_rechecked(c, o, settings), settings)
            else:   # the certificate is not what Coq gives: prove the claim again
                anew.append(i)
    if anew:
        again = prove_many([units[i] for i in anew], replace(settings, use_cache=False), [keys[i] for i in anew])
        for i, o in zip(anew, again, strict=False):
            outcomes[i] = o
    return [o for o in outcomes if o is not None]


T = TypeVar("T")

# One coqchk run loads the libraries a file needs (about 3 s) before it checks anything: a
# serial `prove` checks the files of this many specs in one run, so its results still come
# every few specs.
SERIAL_BATCH = 8


def serial_chunks(groups: Sequence[Sequence[T]]) -> list[list[Sequence[T]]]:
    """Consecutive groups (the points of a sweep stay together) gathered until a chunk holds
    `SERIAL_BATCH` specs: each chunk is proved with one coqchk run."""
    chunks: list[list[Sequence[T]]] = []
    size = SERIAL_BATCH
    for g in groups:
        if size >= SERIAL_BATCH:
            chunks.append([])
            size = 0
        chunks[-1].append(g)
        size += len(g)
    return chunks


def _told(o: Outcome, settings: Settings) -> Outcome:
    """Say that one spec is done (its line in a log), as soon as it is."""
    how = " (certificate re-checked)" if o.rechecked else " (cached)" if o.cached else ""
    settings.done(f"{o.name}: {str(o.verdict).upper()}{how}")
    return o


def _compile_or_skip(u: Unfolded, settings: Settings) -> tuple[bool, Outcome | Compiled]:
    """(True, outcome) for an undecided claim or a still-valid certificate; else (False, the
    file compiled, or the outcome Coq gave instead)."""
    if u.plan.expected == Verdict.UNDECIDED:
        return True, Outcome.of(u, Verdict.UNDECIDED, timings=dict(u.timings), message="; ".join(u.plan.notes))
    if settings.use_cache:
        settings.say(f"{u.spec.name}: is its certificate still valid?")
        json_path = settings.out / f"{u.spec.name}.json"
        hit = checked.reused(u.spec, settings)
        if hit is not None:
            hit.timings = {**u.timings, "total": sum(u.timings.values())}
            return True, hit
        record = reusable(json_path, u, settings)
        if record is not None:
            settings.say(f"{u.spec.name}: re-checking its certificate with Coq")
            step = compile_one(u, settings, recorded_choices(record))
            if isinstance(step, Compiled):
                step.recheck = record
                return False, step
            # Coq refused the certificate's file: prove the claim anew
    return False, compile_one(u, settings)


def _rechecked(c: Compiled, o: Outcome, settings: Settings) -> Outcome:
    """The outcome of a certificate Coq re-checked now: its files stay as they are."""
    json_path = settings.out / f"{c.u.spec.name}.json"
    checked.remember(json_path, c.u.spec.sha256, settings)
    o.certificate, o.rechecked = str(json_path), True
    o.proofs = list(c.recheck["proofs"]) if c.recheck is not None else o.proofs
    o.timings = {**c.u.timings, **o.timings}
    o.timings["total"] = sum(o.timings.values())
    return o


def _checked(group: list[tuple[int, Compiled]], settings: Settings,
             library: bool = True) -> list[tuple[Outcome, Audit | None]]:
    return check_batch([c for _, c in group], settings, library)


def _merged(groups: list[list[tuple[int, Compiled]]], jobs: int) -> list[list[tuple[int, Compiled]]]:
    """With `jobs` > 1, the batches dealt into `jobs` larger ones: all files are compiled
    before any is checked, and each coqchk run loads the libraries once (about 1.7 s)."""
    if jobs <= 1 or len(groups) <= jobs:
        return groups
    merged: list[list[tuple[int, Compiled]]] = [[] for _ in range(jobs)]
    for n, g in enumerate(groups):
        merged[n % jobs] += g
    return merged


def _checked_beside_library(ordered: list[list[tuple[int, Compiled]]], settings: Settings
                            ) -> list[list[tuple[Outcome, Audit | None]]]:
    """The batches checked side by side with one coqchk run on the whole library (once per
    compiled library); if coqchk refuses the library, no file of the batches is accepted."""
    coq = settings.coq()
    library = coq.library_files()

    def library_check() -> StageResult:
        settings.say(f"coqchk: the {len(library)} files of the library")
        return coq.check([], library)

    tasks: list[Any] = [library_check] + [functools.partial(_checked, g, settings, False) for g in ordered]
    results = run_all(lambda task: task(), tasks, settings.jobs)
    problem = _library_accepted(results[0], coq, library)
    if problem is None:
        return list(results[1:])
    refused: list[list[tuple[Outcome, Audit | None]]] = []
    for batch in results[1:]:
        for o, _ in batch:
            o.verdict, o.message = Verdict.UNPROVED, problem + "; no certificate"
        refused.append([(o, None) for o, _ in batch])
    return refused


def _library_accepted(lib: StageResult, coq: Coq, library: list[Path]) -> str | None:
    """None, once a coqchk run on the whole library passed with only allow-listed axioms
    and nothing unsafe (recorded: later runs trust the stamp); else why not."""
    own = allowlist.own_axioms(lib.axioms)
    if lib.status == "ok" and not own and not lib.unsafe:
        coq.mark_checked(library)
        return None
    if lib.status == "ok" and own:
        return f"the library declares axioms (never allowed in it): {', '.join(own)}"
    return f"coqchk did not accept the library ({lib.status}): {lib.message or ', '.join(lib.unsafe)}"


def balanced_parts(library: list[Path], n: int) -> list[list[Path]]:
    """`library` in `n` parts of about equal coqchk work, each in the library's order: the
    largest .vo first into the lightest part.  The size of a .vo is the measure at hand for
    the time coqchk takes on it (every `n`-th file made halves of 41 s and 62 s of checking
    on the library of session 23, by .vo size 47 s and 57 s)."""
    parts: list[list[Path]] = [[] for _ in range(n)]
    weights = [0] * n
    for v in sorted(library, key=lambda v: -_vo_size(v)):
        lightest = weights.index(min(weights))
        parts[lightest].append(v)
        weights[lightest] += _vo_size(v)
    rank = {v: i for i, v in enumerate(library)}
    return [sorted(p, key=rank.__getitem__) for p in parts if p]


def _vo_size(v: Path) -> int:
    try:
        return v.with_suffix(".vo").stat().st_size
    except OSError:   # not compiled: check_library refused that before
        return 0


def check_library(settings: Settings) -> str | None:
    """The whole compiled library checked by coqchk and recorded, unless a record of this
    compiled library already holds: what the first `prove` would do, done ahead (the test
    suite does it while its Python-only tests run). None, or why it was not accepted."""
    coq = settings.coq()
    if coq.library_checked(settings.library != LibraryCheck.RECHECK):
        return None
    if not coq.library_compiled():
        return "the library is not compiled (make theories)"
    library = coq.library_files()
    # One coqchk run per job, each on a part of the files (`-norec`: the others it loads are
    # checked by the other runs): one run on the whole library would leave the other cores idle.
    parts = balanced_parts(library, max(1, min(settings.jobs, len(library))))
    results = run_all(lambda part: coq.check([], part), parts, settings.jobs)
    bad = next((r for r in results if r.status != "ok"), None)
    joined = bad or StageResult("ok", max(r.seconds for r in results), max(r.peak_kib for r in results),
                                axioms=tuple(sorted({a for r in results for a in r.axioms})),
                                unsafe=tuple(sorted({u for r in results for u in r.unsafe})))
    return _library_accepted(joined, coq, library)


def _finish(u: Unfolded, o: Outcome, audit: Audit | None, settings: Settings) -> Outcome:
    """Write the certificate of a verdict Coq accepted (else remove a stale one)."""
    json_path = settings.out / f"{u.spec.name}.json"
    o.timings = {**u.timings, **o.timings}
    if audit is not None:
        o.certificate = str(json_path)
        write_certificate(json_path, u, o, audit, settings)
        checked.remember(json_path, u.spec.sha256, settings)
    else:
        checked.forget(u.spec.name, settings)
        remove_stale(json_path)
    o.timings["total"] = sum(o.timings.values())
    return o


@dataclass
class Compiled:
    """A claim Coq compiled (its file printed its audit), waiting for coqchk."""

    u: Unfolded
    out: Outcome
    vfile: Path
    chosen: dict[str, str]
    audit: Audit
    recheck: dict[str, Any] | None = None   # the certificate this compile re-checks, if any


def run_coq(u: Unfolded, settings: Settings, choices: dict[str, str] | None = None
             ) -> tuple[Outcome, Audit | None]:
    """Discharge the document's obligations (unless `choices` fixes every proof, as for
    verify), compile (the file prints its audit), coqchk; the audit is returned only for a
    verdict Coq accepted."""
    step = compile_one(u, settings, choices)
    if not isinstance(step, Compiled):
        return step, None
    return check_batch([step], settings)[0]


def compile_one(u: Unfolded, settings: Settings, choices: dict[str, str] | None = None
             ) -> Outcome | Compiled:
    """Discharge and compile one file: the compiled claim, or the outcome Coq gave instead."""
    spec, doc = u.spec, u.rendered.document
    coq = settings.coq()
    out = Outcome.of(u, Verdict.UNPROVED, theorem=u.rendered.theorems[-1])
    # only the library files this file and its shared modules load (a fresh install compiles
    # what the first spec needs, not the whole library)
    needed = coq.closure_of_texts([u.rendered.text, *(m.text for m in u.rendered.shared)],
                                  {m.logical: m.text for m in u.rendered.shared})
    out.timings["theories"] = coq.build_theories(settings.progress, needed)
    # compiled here, checked by the coqchk run of this file (check_batch)
    spent, problem = shared.ensure(u.rendered.shared, settings, check=False)
    out.timings.update(spent)
    if problem:   # Coq refused a module the file requires: the claim is not proved
        out.message = problem
        return out
    workdir = settings.build / spec.name
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    vfile = (workdir / f"{spec.name}.v").resolve()
    replay = choices is not None
    chosen: dict[str, str] = dict(choices) if choices is not None else doc.defaults()
    proofs: dict[str, dict[str, Any]] = {}
    if doc.session_first and not replay and doc.slots:
        settings.say(f"{spec.name}: proving {len(doc.slots)} obligations in a Coq session")
        found, report = _discharge(coq, vfile, u, settings)
        out.timings["session"] = report["seconds"]
        proofs = {p["obligation"]: p for p in report["proofs"]}
        if found is None:
            out.message = report["message"]
            out.goal = report.get("goal")
            out.proofs = list(proofs.values())
            return out
        chosen = found
        out.message = report["message"]
    vfile.write_text(doc.fill(chosen))
    settings.say(f"{spec.name}: coqc")
    compiled = coq.compile(vfile)
    failed_slot = (doc.slot_at_line(compiled.line, chosen)
                   if compiled.status == "failed" and compiled.line and not replay else None)
    if failed_slot is not None and len(failed_slot.candidates) > 1:
        settings.say(f"{spec.name}: trying the other proofs of {failed_slot.name}")
        repaired = _repair(coq, vfile, u, failed_slot, chosen, settings)
        if repaired is not None:  # the portfolio found a proof the renderer did not put first
            chosen[failed_slot.name] = repaired["tactic"]
            proofs[failed_slot.name] = repaired
            out.message = f"the obligation {failed_slot.name} was proved by the tactic portfolio"
            vfile.write_text(doc.fill(chosen))
            compiled = coq.compile(vfile)
    out.choices = chosen
    out.proofs = [proofs.get(s.name, {"obligation": s.name, "tactic": chosen[s.name]}) for s in doc.slots]
    out.timings["coqc"], out.peak_kib["coqc"] = compiled.seconds, compiled.peak_kib
    if compiled.status != "ok":
        out.verdict = Verdict.TIMEOUT if compiled.status == "timeout" else Verdict.UNPROVED
        out.message = f"Coq did not accept {vfile}: {compiled.message}"
        if compiled.status == "failed":
            out.goal = _goal_at_failure(coq, vfile, settings)
            if out.goal:
                out.message += "\n" + out.goal
        return out
    return Compiled(u, out, vfile, chosen, read_audit(compiled.output, u.rendered.theorems))


def check_batch(batch: Sequence[Compiled], settings: Settings,
                library_too: bool = True) -> list[tuple[Outcome, Audit | None]]:
    """coqchk on every compiled file at once (and, once per compiled library, on the library,
    unless `library_too` is False: another coqchk run checks it), then each file's audit; if
    coqchk refuses the batch, each file is checked alone so that only the files at fault are
    refused."""
    if not batch:
        return []
    coq = settings.coq()
    vfiles = [c.vfile for c in batch]
    library = library_to_check(coq, vfiles, settings) if library_too else []
    modules = shared.pending(coq, [m for c in batch for m in c.u.rendered.shared])
    settings.say(f"coqchk: {', '.join(c.u.spec.name for c in batch)}"
                 + "".join(f", the shared module {m.name}" for m in modules)
                 + (f" and {len(library)} files of the library" if library else ""))
    checked = coq.check(vfiles, library, shared=[shared.paths(coq, m)[0] for m in modules])
    if modules and checked.status != "timeout" and (checked.status != "ok" or shared.accept(coq, modules, checked)):
        return _shared_refused(batch, shared.check_alone(coq, modules), settings, library_too)
    if checked.status != "ok" and len(batch) > 1:
        return [r for c in batch for r in check_batch([c], settings, library_too)]
    if checked.status == "ok":
        coq.mark_checked(library)
    return [_after_check(c, checked, len(batch)) for c in batch]


def _shared_refused(batch: Sequence[Compiled], problems: dict[str, str], settings: Settings,
                    library_too: bool) -> list[tuple[Outcome, Audit | None]]:
    """A batch whose coqchk run with its shared modules failed, or found axioms in them, after
    each module was checked alone (`problems`: the refused ones): a file requiring a refused
    module is not proved, as if the module had been refused before it was compiled; the others
    are checked again (their modules now recorded as checked)."""
    rest = [c for c in batch if not any(m.name in problems for m in c.u.rendered.shared)]
    again = iter(check_batch(rest, settings, library_too))
    results: list[tuple[Outcome, Audit | None]] = []
    for c in batch:
        problem = next((problems[m.name] for m in c.u.rendered.shared if m.name in problems), None)
        if problem is None:
            results.append(next(again))
            continue
        c.out.message = problem
        for stage in ("coqc", "session"):   # as when the module was refused before the compile
            c.out.timings.pop(stage, None)
        c.out.peak_kib.pop("coqc", None)
        c.out.choices, c.out.proofs = {}, []
        results.append((c.out, None))
    return results


def library_to_check(coq: Coq, vfiles: Sequence[Path], settings: Settings) -> list[Path]:
    """The library files coqchk checks beside `vfiles`: none once this machine's coqchk accepted
    this compiled library (a record beside its .vo files, named by their hash), unless the run
    ignores it (`verify --recheck-library`: then the files these load, once per run); else all
    of them with the first files (`prove`: the record is made), or only the files these load
    (`verify`, or a library compiled in part)."""
    if settings.library == LibraryCheck.RECHECK:
        return coq.unchecked(coq.library_closure(vfiles))
    if coq.library_checked():
        return []
    if settings.library == LibraryCheck.CLOSURE or not coq.library_compiled():
        return coq.unchecked(coq.library_closure(vfiles))
    return coq.library_files()


def _after_check(c: Compiled, checked: StageResult, together: int) -> tuple[Outcome, Audit | None]:
    """The verdict on one compiled file, given coqchk's answer on the batch it was in."""
    out, u = c.out, c.u
    out.timings["coqchk"] = checked.seconds / together   # its share of one coqchk run
    out.peak_kib["coqchk"] = checked.peak_kib
    if checked.status != "ok":
        out.verdict = Verdict.TIMEOUT if checked.status == "timeout" else Verdict.UNPROVED
        out.message = f"coqchk did not accept {c.vfile}: {checked.message}"
        return out, None
    full, problem = _audited(checked.only(c.vfile.stem), c.audit, u.rendered.uses_interval(c.chosen),
                             u.rendered.uses_analysis(c.chosen))
    if problem:
        out.message = problem + "; no certificate"
        return out, None
    audit = replace(c.audit, assumptions=full)
    out.statement = audit.statements[u.rendered.theorems[-1]]
    out.verdict = u.plan.expected
    out.witness = witness_json(u)
    out.message = "; ".join(m for m in (out.message, witness_text(out.witness) if out.witness else "") if m)
    return out, audit


def _audited(checked: StageResult, audit: Audit, uses_interval: bool, uses_analysis: bool = False
             ) -> tuple[list[str], str]:
    """The theorems' assumptions by full name, and why the file is refused ("" if not):
    an assumption outside the allow-list, an axiom declared in the file or our library,
    or anything coqchk reports as relying on an unsafe feature."""
    if checked.unsafe:
        return [], "coqchk reports unsafe features: " + ", ".join(checked.unsafe)
    own = allowlist.own_axioms(checked.axioms)
    if own:
        return [], ("the file or the library declares axioms (an Axiom, Parameter or Admitted lemma): "
                    + ", ".join(own))
    names, unresolved = allowlist.full_names(audit.assumptions, checked.axioms)
    if unresolved:
        return [], ("assumptions of the theorems that are not exactly one axiom of the checked "
                    "environment: " + ", ".join(unresolved))
    bad = allowlist.refused(names, uses_interval, uses_analysis)
    if bad:
        return [], ("the proof rests on assumptions outside the allow-list: " + ", ".join(sorted(bad))
                    + " (an Admitted lemma or an Axiom)")
    return names, ""


def _discharge(coq: Coq, vfile: Path, u: Unfolded, settings: Settings
               ) -> tuple[dict[str, str] | None, dict[str, Any]]:
    """Prove a document's obligations one by one in a Coq session, trying the candidate
    tactics of each in order; the chosen proofs, or None and the goal."""
    start = time.perf_counter()
    doc = u.rendered.document
    prelude = doc.before(doc.slots[0].name)
    tasks = [ProofTask(s.name, s.statement, s.scripts()) for s in doc.slots]
    attempts = prove_in_order(tasks, prelude, load_path=coq.load_path(), timeout=min(settings.timeout, 60.0),
                              cwd=vfile.parent, transcript=settings.transcript)
    proofs = [{"obligation": a.name, "tactic": a.tactic, "seconds": round(a.seconds, 3),
               "tried": [r.tactic for r in a.runs]} for a in attempts]
    report: dict[str, Any] = {"seconds": time.perf_counter() - start, "proofs": proofs}
    failed = next((a for a in attempts if not a.proved or a.tactic is None), None)
    if failed is not None:
        report["message"] = f"the obligation {failed.name} was not proved"
        report["goal"] = failed.report()
        return None, report
    won: dict[str, int] = {}
    for a in attempts:
        won[a.tactic or "?"] = won.get(a.tactic or "?", 0) + 1
    report["message"] = (f"{len(attempts)} obligations proved in the session ("
                         + ", ".join(f"{n} by `{t}`" for t, n in won.items()) + ")")
    return {a.name: a.tactic for a in attempts if a.tactic is not None}, report


def _repair(coq: Coq, vfile: Path, u: Unfolded, slot: Slot, chosen: dict[str, str],
            settings: Settings) -> dict[str, Any] | None:
    """Try the other candidates of the obligation Coq stopped in, in an IDE session;
    the winning proof (as a `proofs` entry), or None.  The batch check still decides."""
    doc = u.rendered.document
    prelude = doc.before(slot.name, chosen, prelude=doc.strongest_prelude(slot))
    others = tuple(t for t in slot.scripts() if t != chosen[slot.name])
    try:
        with CoqSession(coq.load_path(), prelude, cwd=vfile.parent, timeout=min(settings.timeout, 60.0),
                        transcript=settings.transcript) as session:
            attempt = prove_obligation(session, slot.name, slot.statement, others,
                                       timeout=min(settings.timeout, 30.0))
    except InfrastructureError:
        return None
    if not attempt.proved or attempt.tactic is None:
        return None
    return {"obligation": slot.name, "tactic": attempt.tactic, "seconds": round(attempt.seconds, 3),
            "tried": [chosen[slot.name], *(r.tactic for r in attempt.runs)]}


def _goal_at_failure(coq: Coq, vfile: Path, settings: Settings) -> str | None:
    """Replay the file in an IDE session to show the goal Coq could not close."""
    try:
        failed = goal_at_failure(vfile, coq.load_path() + ["-Q", str(vfile.parent), GENERATED],
                                 timeout=min(settings.timeout, 120.0))
    except InfrastructureError:
        return None  # the batch error message still says what failed
    if failed is None:
        return None
    goal = "\n".join("    " + ln for ln in failed.goal.splitlines()) or "    (no goal: outside a proof)"
    return (f"  obligation {failed.lemma or '?'} (line {failed.line}), at `{failed.sentence.strip()}`:\n"
            f"  {failed.error.strip()}\n  remaining goal:\n{goal}")


def load_specs(paths: list[Path]) -> list[Any]:
    """Every spec named (directories: their *.yaml), all checked before anything runs."""
    files: list[Path] = []
    for p in paths:
        if not p.exists():  # a typo must not pass as "nothing to prove", exit 0
            raise UsageError(f"{p}: no such file or directory")
        if not p.is_dir():
            files.append(p)
            continue
        # is_file: a subdirectory named x.yaml is not a spec
        found = [f for f in sorted(p.glob("*.yaml")) + sorted(p.glob("*.yml")) if f.is_file()]
        if not found:
            raise UsageError(f"no *.yaml spec files in {p}")
        files += found
    specs = [d for f in files for d in models.expand(load(f))]  # a sweep: one spec per point
    seen: dict[str, Any] = {}
    unique = []
    for s in specs:
        if s.name in seen:
            first = seen[s.name]
            if Path(first.path).resolve() != Path(s.path).resolve():
                raise SpecError(s.path, "name", f"{s.name!r} is also the name in {first.path}")
            if getattr(first, "derived", None) == getattr(s, "derived", None):
                continue   # the same file reached twice (a fallback spec also named directly)
            # two claims of one file under one name: one of them would never be checked
            raise SpecError(s.path, "sweep", f"two points are named {s.name!r}: each point is one claim")
        seen[s.name] = s
        unique.append(s)
    return unique
