"""One spec through the prover to a certificate (`prove`), what a certificate must say
(`planned`, `compare`), the cache, and `verify`.

Verdicts are values (`Outcome`); faults are the exceptions of `errors`.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Sequence

from obligations import __version__, kinds
from obligations.certify import allowlist
from obligations.certify import certificate as cert
from obligations.core.document import DocumentError, Slot
from obligations.core.obligation import Verdict
from obligations.core.resources import THEORIES
from obligations.errors import InfrastructureError, ObligationsError, SpecError, UsageError
from obligations.kinds import Unfolded, load, unfold
from obligations.kinds.base import witness_text
from obligations.prover.coq import GENERATED, Audit, Coq, StageResult, read_audit
from obligations.prover.ide.portfolio import ProofTask, prove_in_order, prove_obligation
from obligations.prover.ide.session import CoqSession, goal_at_failure


@dataclass(frozen=True)
class Settings:
    theories: Path = THEORIES
    build: Path = Path("build")
    out: Path = Path("certificates")
    timeout: float = 600.0
    use_cache: bool = True
    transcript: Optional[Path] = None
    recheck_library: bool = False   # ignore the stamp: coqchk the library once in this process

    def coq(self) -> Coq:
        return Coq(self.theories.resolve(), self.timeout, self.transcript)


@dataclass
class Outcome:
    """The verdict on one spec: proved, refuted, unproved, timeout or undecided."""

    name: str
    spec: str
    verdict: Verdict
    claim: str
    tight_epsilon: Optional[str] = None
    theorem: Optional[str] = None
    statement: Optional[str] = None
    witness: Optional[dict[str, Any]] = None
    certificate: Optional[str] = None
    message: str = ""
    goal: Optional[str] = None       # for an unproved claim: where Coq stopped, and its goal
    cached: bool = False
    choices: dict[str, str] = field(default_factory=dict)       # the proof of each obligation
    proofs: list[dict[str, Any]] = field(default_factory=list)  # which tactic closed which obligation
    vacuous: list[str] = field(default_factory=list)   # why the claim holds for any mechanism, if so
    timings: dict[str, float] = field(default_factory=dict)
    peak_kib: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def claim_text(spec: Any) -> str:
    return f"({spec.epsilon_text}, {spec.delta_text})-DP"


def prove(u: Unfolded, settings: Settings) -> Outcome:
    """Certify or refute one unfolded spec (or reuse its still-valid certificate)."""
    return prove_many([u], settings)[0]


def prove_many(units: Sequence[Unfolded], settings: Settings) -> list[Outcome]:
    """Certify or refute each spec (or reuse its still-valid certificate): each file is
    discharged and compiled on its own, then coqchk re-checks all of them in one run
    (it loads the libraries once: about a second per file saved)."""
    outcomes: list[Optional[Outcome]] = [None] * len(units)
    pending: list[tuple[int, Compiled]] = []
    for i, u in enumerate(units):
        spec = u.spec
        if u.plan.expected == Verdict.UNDECIDED:
            outcomes[i] = Outcome(spec.name, spec.path, Verdict.UNDECIDED, claim_text(spec),
                                  tight_epsilon=u.plan.tight_epsilon, timings=dict(u.timings),
                                  vacuous=vacuity(u), message="; ".join(u.plan.notes))
            continue
        if settings.use_cache:
            outcomes[i] = _cached(settings.out / f"{spec.name}.json", u, settings)
            if outcomes[i] is not None:
                continue
        step = _compile(u, settings)
        if isinstance(step, Compiled):
            pending.append((i, step))
        else:
            outcomes[i] = _finish(u, step, None, settings)
    for (i, c), (o, audit) in zip(pending, _check([c for _, c in pending], settings)):
        outcomes[i] = _finish(c.u, o, audit, settings)
    return [o for o in outcomes if o is not None]


def _finish(u: Unfolded, o: Outcome, audit: Optional[Audit], settings: Settings) -> Outcome:
    """Write the certificate of a verdict Coq accepted (else remove a stale one)."""
    json_path = settings.out / f"{u.spec.name}.json"
    o.timings = {**u.timings, **o.timings}
    if audit is not None:
        o.certificate = str(json_path)
        _write_certificate(json_path, u, o, audit, settings)
    else:
        _remove_stale(json_path)
    o.timings["total"] = sum(o.timings.values())
    return o


def vacuity(u: Unfolded) -> list[str]:
    """Why the claim holds whatever the mechanism does (no two distinct neighbours, ...)."""
    return list(u.plan.vacuous)


@dataclass
class Compiled:
    """A claim Coq compiled (its file printed its audit), waiting for coqchk."""

    u: Unfolded
    out: Outcome
    vfile: Path
    chosen: dict[str, str]
    audit: Audit


def _run_coq(u: Unfolded, settings: Settings, choices: Optional[dict[str, str]] = None
             ) -> tuple[Outcome, Optional[Audit]]:
    """Discharge the document's obligations (unless `choices` fixes every proof, as for
    verify), compile (the file prints its audit), coqchk; the audit is returned only for a
    verdict Coq accepted."""
    step = _compile(u, settings, choices)
    if not isinstance(step, Compiled):
        return step, None
    return _check([step], settings)[0]


def _compile(u: Unfolded, settings: Settings, choices: Optional[dict[str, str]] = None
             ) -> "Outcome | Compiled":
    """Discharge and compile one file: the compiled claim, or the outcome Coq gave instead."""
    spec, doc = u.spec, u.rendered.document
    coq = settings.coq()
    out = Outcome(spec.name, spec.path, Verdict.UNPROVED, claim_text(spec),
                  tight_epsilon=u.plan.tight_epsilon, theorem=u.rendered.theorems[-1], vacuous=vacuity(u))
    out.timings["theories"] = coq.build_theories()
    workdir = settings.build / spec.name
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    vfile = (workdir / f"{spec.name}.v").resolve()
    replay = choices is not None
    chosen: dict[str, str] = dict(choices) if choices is not None else doc.defaults()
    proofs: dict[str, dict[str, Any]] = {}
    if doc.session_first and not replay and doc.slots:
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
    compiled = coq.compile(vfile)
    failed_slot = (doc.slot_at_line(compiled.line, chosen)
                   if compiled.status == "failed" and compiled.line and not replay else None)
    if failed_slot is not None and len(failed_slot.candidates) > 1:
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


def _check(batch: Sequence[Compiled], settings: Settings) -> list[tuple[Outcome, Optional[Audit]]]:
    """coqchk on every compiled file at once (and, once per compiled library, on the library),
    then each file's audit; if coqchk refuses the batch, each file is checked alone so that
    only the files at fault are refused."""
    if not batch:
        return []
    coq = settings.coq()
    # coqchk re-checks the library with the first files of each compiled library (a stamp
    # beside its .vo files); `verify` ignores the stamp and re-checks it once per run.
    with_library = not coq.library_checked(trust_stamp=not settings.recheck_library)
    checked = coq.check([c.vfile for c in batch], with_library)
    if checked.status != "ok" and len(batch) > 1:
        return [r for c in batch for r in _check([c], settings)]
    if checked.status == "ok" and with_library:
        coq.mark_library_checked()
    return [_after_check(c, checked, len(batch)) for c in batch]


def _after_check(c: Compiled, checked: StageResult, together: int) -> tuple[Outcome, Optional[Audit]]:
    """The verdict on one compiled file, given coqchk's answer on the batch it was in."""
    out, u = c.out, c.u
    out.timings["coqchk"] = checked.seconds / together   # its share of one coqchk run
    out.peak_kib["coqchk"] = checked.peak_kib
    if checked.status != "ok":
        out.verdict = Verdict.TIMEOUT if checked.status == "timeout" else Verdict.UNPROVED
        out.message = f"coqchk did not accept {c.vfile}: {checked.message}"
        return out, None
    full, problem = _audited(checked.only(c.vfile.stem), c.audit, u.rendered.uses_interval(c.chosen))
    if problem:
        out.message = problem + "; no certificate"
        return out, None
    audit = replace(c.audit, assumptions=full)
    out.statement = audit.statements[u.rendered.theorems[-1]]
    out.verdict = u.plan.expected
    out.witness = witness_json(u)
    out.message = "; ".join(m for m in (out.message, witness_text(out.witness) if out.witness else "") if m)
    return out, audit


def _audited(checked: StageResult, audit: Audit, uses_interval: bool) -> tuple[dict[str, list[str]], str]:
    """Every theorem's assumptions by full name, and why the file is refused ("" if not):
    an assumption outside the allow-list, an axiom declared in the file or our library,
    or anything coqchk reports as relying on an unsafe feature."""
    if checked.unsafe:
        return {}, "coqchk reports unsafe features: " + ", ".join(checked.unsafe)
    own = allowlist.own_axioms(checked.axioms)
    if own:
        return {}, ("the file or the library declares axioms (an Axiom, Parameter or Admitted lemma): "
                    + ", ".join(own))
    full: dict[str, list[str]] = {}
    bad: set[str] = set()
    for theorem, printed in audit.assumptions.items():
        names, unresolved = allowlist.full_names(printed, checked.axioms)
        if unresolved:
            return {}, ("assumptions of " + theorem + " that are not exactly one axiom of the checked "
                        "environment: " + ", ".join(unresolved))
        full[theorem] = names
        bad |= set(allowlist.refused(names, uses_interval))
    if bad:
        return {}, ("the proof rests on assumptions outside the allow-list: " + ", ".join(sorted(bad))
                    + " (an Admitted lemma or an Axiom)")
    return full, ""


def _discharge(coq: Coq, vfile: Path, u: Unfolded, settings: Settings
               ) -> tuple[Optional[dict[str, str]], dict[str, Any]]:
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
            settings: Settings) -> Optional[dict[str, Any]]:
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


def _goal_at_failure(coq: Coq, vfile: Path, settings: Settings) -> Optional[str]:
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


def witness_json(u: Unfolded) -> Optional[dict[str, Any]]:
    """The witness a refutation's certificate records (None for any other verdict)."""
    return kinds.witness(u) if u.plan.expected == Verdict.REFUTED else None


# ---------------------------------------------------------------- certificates
#
# A certificate's JSON is never believed: `verify` and the prove cache recompute
# every meaningful field from the spec (`planned`) and compare; the .v must be the
# render with each proof one of the candidates the renderer proposes.  The JSON's
# own hash only detects accidental damage.

# Fields that record how a run went, not what was proved: not compared.
_INFORMATIONAL = ("timings_s", "peak_memory_kib", "certificate_sha256", "theorems", "proofs", "spec", "packages")


def planned(u: Unfolded, choices: dict[str, str], settings: Settings) -> dict[str, Any]:
    """Every field of a certificate that follows from the spec, the chosen proofs, the
    library and the tools, recomputed; the theorems' statements and assumptions come
    from Coq, the spec's path from where the certificate lies."""
    spec = u.spec
    text = u.rendered.document.fill(choices)
    return {
        "format": cert.FORMAT,
        "name": spec.name,
        "verdict": u.plan.expected,
        "claim": {"epsilon": spec.epsilon_text, "delta": spec.delta_text,
                  "neighbours": spec.neighbours if isinstance(spec.neighbours, str) else "pairs"},
        "derived": dict(spec.derived) if spec.derived else None,
        "coq_file": {"path": f"{spec.name}.v", "sha256": cert.sha256_text(text)},
        "rendered_sha256": cert.sha256_text(u.rendered.text),
        "theories_sha256": cert.theories_sha256(settings.theories),
        "tool_version": __version__,
        "coq_version": settings.coq().version(),
        "uses_interval": u.rendered.uses_interval(choices),
        "analysis": {"tight_epsilon": u.plan.tight_epsilon,
                     "tight_epsilon_float": _finite(u.plan.tight_epsilon_float),
                     "delta_at_claim": u.plan.delta_at_claim,
                     "delta_at_claim_float": _finite(u.plan.delta_at_claim_float)},
        "vacuous": vacuity(u),
        "witness": witness_json(u),
    }


def _spec_path(spec_path: str, json_path: Path) -> str:
    """The spec's path relative to the certificate's directory: the same however the
    path was typed and wherever the tool ran."""
    return Path(os.path.relpath(Path(spec_path).resolve(), json_path.parent.resolve())).as_posix()


def _record(u: Unfolded, o: Outcome, settings: Settings, json_path: Path, audit: Audit) -> dict[str, Any]:
    spec = u.spec
    record = planned(u, o.choices, settings)
    record["spec"] = {"path": _spec_path(spec.path, json_path), "sha256": spec.sha256}
    record["theorems"] = [{"name": t, "statement": audit.statements[t], "assumptions": audit.assumptions[t]}
                          for t in u.rendered.theorems]
    record["proofs"] = o.proofs
    record["packages"] = _package_versions()
    record["timings_s"] = {k: round(v, 3) for k, v in o.timings.items()}
    record["peak_memory_kib"] = o.peak_kib
    return record


def _package_versions() -> dict[str, str]:
    """The Python packages the render depends on (sympy prints terms, jinja2 lays out the file)."""
    from importlib import metadata
    return {name: metadata.version(name) for name in ("sympy", "jinja2", "pydantic")}


def _finite(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


def _write_certificate(json_path: Path, u: Unfolded, o: Outcome, audit: Audit,
                       settings: Settings) -> None:
    vpath = json_path.with_suffix(".v")
    vpath.parent.mkdir(parents=True, exist_ok=True)
    vpath.write_text(u.rendered.document.fill(o.choices))
    cert.write(json_path, _record(u, o, settings, json_path, audit))


def _remove_stale(json_path: Path) -> None:
    for p in (json_path, json_path.with_suffix(".v")):
        if p.exists():
            p.unlink()


def recorded_choices(record: dict[str, Any]) -> dict[str, str]:
    """The proof chosen for each obligation, as the certificate records it."""
    proofs = record.get("proofs")
    if not isinstance(proofs, list):
        raise ValueError("the certificate records no proofs")
    choices: dict[str, str] = {}
    for p in proofs:
        if not isinstance(p, dict) or not isinstance(p.get("obligation"), str) or not isinstance(p.get("tactic"), str):
            raise ValueError(f"a malformed proofs entry: {p!r}")
        if p["obligation"] in choices:
            raise ValueError(f"the obligation {p['obligation']} has two proofs")
        choices[p["obligation"]] = p["tactic"]
    return choices


def compare(record: dict[str, Any], u: Unfolded, settings: Settings, vpath: Path) -> list[str]:
    """What in a certificate disagrees with what the spec gives (empty: nothing)."""
    problems: list[str] = []
    doc = u.rendered.document
    try:
        choices = recorded_choices(record)
        if set(choices) != {s.name for s in doc.slots}:
            raise DocumentError("the proofs recorded are not those of the document's obligations")
        text = doc.fill(choices)
    except (ValueError, DocumentError) as exc:
        return [f"the recorded proofs are not the renderer's: {exc}"]
    want = planned(u, choices, settings)
    for key, value in want.items():
        if record.get(key) != value:
            problems.append(f"{key}: the certificate says {_short(record.get(key))}, "
                            f"the spec gives {_short(value)}")
    for key in sorted(set(record) - set(want) - set(_INFORMATIONAL)):
        problems.append(f"{key}: a field no certificate has")
    spec_field = record.get("spec")
    if not isinstance(spec_field, dict) or spec_field.get("sha256") != u.spec.sha256:
        problems.append("spec: the spec changed since the certificate was made (its SHA-256 differs)")
    theorems = record.get("theorems")
    names = [t.get("name") for t in theorems if isinstance(t, dict)] if isinstance(theorems, list) else None
    if names != list(u.rendered.theorems):
        problems.append(f"theorems: the certificate names {names}, the spec gives {list(u.rendered.theorems)}")
    if not vpath.exists():
        problems.append(f"{vpath} is missing")
    elif vpath.read_bytes() != text.encode("utf-8"):
        problems.append(f"{vpath} is not the file the spec renders to with the recorded proofs")
    return problems


def _short(v: Any) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 200 else text[:200] + "..."


def _cached(json_path: Path, u: Unfolded, settings: Settings) -> Optional[Outcome]:
    """The outcome of a certificate whose every field the spec re-derives and whose .v
    is the render with proofs from the candidates, else None (then Coq runs again)."""
    try:
        record = cert.read(json_path)
        if not cert.is_sealed(record) or compare(record, u, settings, json_path.with_suffix(".v")):
            return None
        statement = record["theorems"][-1]["statement"]
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    o = Outcome(u.spec.name, u.spec.path, u.plan.expected, claim_text(u.spec),
                tight_epsilon=u.plan.tight_epsilon, theorem=u.rendered.theorems[-1],
                statement=statement, witness=witness_json(u),
                certificate=str(json_path), cached=True, timings=dict(u.timings),
                choices=recorded_choices(record), proofs=record["proofs"], vacuous=vacuity(u))
    o.message = witness_text(o.witness) if o.witness else ""
    return o


@dataclass
class Verification:
    certificate: str
    name: str
    ok: bool
    problems: list[str]
    timings: dict[str, float]
    error: Optional[str] = None     # an infrastructure failure kept the check from finishing

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def verify(json_path: Path, settings: Settings, spec_path: Optional[Path] = None) -> Verification:
    """Re-derive the certificate from its spec, compare every field and the .v, then
    re-run coqc, coqchk (library included) and the audit on the file."""
    try:
        record = cert.read(json_path)
    except (OSError, ValueError) as exc:
        return Verification(str(json_path), "?", False, [f"cannot read the certificate: {exc}"], {})
    name = str(record.get("name", "?"))
    problems: list[str] = []
    if not cert.is_sealed(record):
        problems.append("the certificate's JSON was damaged or edited (certificate_sha256 does not match)")
    try:
        u = unfold(_derived_spec(record, json_path, spec_path))
    except (ObligationsError, ValueError, KeyError, TypeError) as exc:
        return Verification(str(json_path), name, False, problems + [f"cannot re-derive the claim: {exc}"], {})
    if u.spec.name != name:
        problems.append(f"name: the certificate says {name!r}, the spec gives {u.spec.name!r}")
    vpath = json_path.with_suffix(".v")
    problems += compare(record, u, settings, vpath)
    if problems:  # Coq would check a file that is not the certificate's claim: stop here
        return Verification(str(json_path), name, False, problems, {})
    try:
        o, audit = _run_coq(u, _verify_settings(settings), recorded_choices(record))
    except InfrastructureError as exc:
        return Verification(str(json_path), name, False, [f"Coq could not check it: {exc}"], {}, error=str(exc))
    if o.verdict != record["verdict"]:
        problems.append(f"Coq: {o.verdict}: {o.message}")
    elif audit is not None:
        for t in record["theorems"]:
            if t.get("statement") != audit.statements[t["name"]]:
                problems.append(f"the statement of {t['name']} differs from what Coq prints")
            elif t.get("assumptions") != audit.assumptions[t["name"]]:
                problems.append(f"the assumptions of {t['name']} differ from what Coq prints")
    return Verification(str(json_path), name, not problems, problems, o.timings)


def _derived_spec(record: dict[str, Any], json_path: Path, spec_path: Optional[Path]) -> Any:
    """The spec the certificate was made from, and the claim derived from it if any."""
    spec = load(spec_path or json_path.parent / str(record["spec"]["path"]))
    d = record.get("derived")
    if d is None:
        return spec
    if not isinstance(d, dict):
        raise ValueError("derived: not a mapping")
    return kinds.derive(spec, d)


def _verify_settings(settings: Settings) -> Settings:
    return Settings(settings.theories, settings.build / "verify", settings.out, settings.timeout,
                    False, settings.transcript, recheck_library=True)


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
    specs = [d for f in files for d in kinds.expand(load(f))]  # a sweep: one spec per point
    seen: dict[str, str] = {}
    for s in specs:
        if s.name in seen:
            raise SpecError(s.path, "name", f"{s.name!r} is also the name in {seen[s.name]}")
        seen[s.name] = s.path
    return specs
