"""spec -> unfold -> obligations -> render -> prover -> certificate, for one spec.

Verdicts are values (`Outcome`); faults are the exceptions of `errors`.
"""
from __future__ import annotations

import math
import re
import shutil
import time
from fractions import Fraction
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

import sympy

from obligations import __version__
from obligations.certificate import allowlist
from obligations.certificate import certificate as cert
from obligations.obligation import Plan, Witness
from obligations.errors import SpecError
from obligations.errors import InfrastructureError
from obligations.prover.coq import GENERATED, Audit, Coq
from obligations.prover.ide.portfolio import prove_obligation
from obligations.prover.ide.session import CoqSession, goal_at_failure
from obligations.render.finite import Rendered, render
from obligations.spec.load import MechanismSpec, derive, load
from obligations.spec.pipeline import PipelineSpec
from obligations.unfold import snapping as snap
from obligations.render import snapping as snap_render
from obligations.prover.ide.portfolio import ProofTask, prove_in_order
from obligations.unfold.finite import epsilon_value, output_label, plan, tabulate

REPO = Path(__file__).resolve().parent.parent
# theories/ hashes whose compiled library coqchk accepted in this process: one
# `make prove` re-checks the library once, not with every certificate.
_LIBRARY_CHECKED: set[str] = set()


@dataclass(frozen=True)
class Settings:
    theories: Path = REPO / "theories"
    build: Path = Path("build")
    out: Path = Path("certificates")
    timeout: float = 600.0
    use_cache: bool = True
    transcript: Optional[Path] = None
    replay: bool = False        # check a given file as it is (verify): no tactic search

    def coq(self) -> Coq:
        return Coq(self.theories.resolve(), self.timeout, self.transcript)


@dataclass
class Outcome:
    """The verdict on one spec: proved, refuted, unproved, timeout or undecided."""

    name: str
    spec: str
    verdict: str
    claim: str
    tight_epsilon: Optional[str] = None
    theorem: Optional[str] = None
    statement: Optional[str] = None
    witness: Optional[dict[str, Any]] = None
    certificate: Optional[str] = None
    message: str = ""
    goal: Optional[str] = None       # for an unproved claim: where Coq stopped, and its goal
    rendered_text: Optional[str] = None  # the file Coq accepted (the render, or its repair)
    cached: bool = False
    proofs: list[dict[str, Any]] = field(default_factory=list)  # which tactic closed which obligation
    timings: dict[str, float] = field(default_factory=dict)
    peak_kib: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Unfolded:
    spec: Any                       # MechanismSpec, or PipelineSpec for noise pipelines
    mechanism: Any                  # FiniteMechanism, or snap.SnapUnfold
    plan: Plan
    rendered: Rendered
    timings: dict[str, float]
    lemmas: tuple[Any, ...] = ()    # a pipeline file's case-table obligations, for the session


def unfold(spec: Any) -> Unfolded:
    if isinstance(spec, PipelineSpec):
        return _unfold_pipeline(spec)
    if getattr(spec, "program", None) is not None:
        return _unfold_program(spec)
    t0 = time.perf_counter()
    mech = tabulate(spec)
    p = plan(mech)
    t1 = time.perf_counter()
    rendered = render(mech, p)
    t2 = time.perf_counter()
    return Unfolded(spec, mech, p, rendered, {"unfold": t1 - t0, "render": t2 - t1})


def _unfold_program(spec: MechanismSpec) -> Unfolded:
    """A program spec (issue 4): its exact output distributions, then the same plan."""
    from obligations.render.program import render_program
    from obligations.unfold.program import tabulate_program
    t0 = time.perf_counter()
    mech = tabulate_program(spec)  # the spec's outputs become the output sequences
    p = plan(mech)
    t1 = time.perf_counter()
    rendered = render_program(mech, p)
    t2 = time.perf_counter()
    return Unfolded(mech.spec, mech, p, rendered, {"unfold": t1 - t0, "render": t2 - t1})


def _unfold_pipeline(spec: PipelineSpec) -> Unfolded:
    t0 = time.perf_counter()
    su = snap.unfold(spec)
    truth = str(su.truth)
    try:
        truth_float = float(su.truth)
    except TypeError:
        truth_float = math.nan    # symbolic
    p = Plan(expected=su.expected, obligations=(), tight_epsilon=truth, tight_epsilon_float=truth_float,
             delta_at_claim=None, delta_at_claim_float=math.nan, notes=tuple(su.notes))
    t1 = time.perf_counter()
    rendered, lemmas = snap_render.render(su)
    t2 = time.perf_counter()
    return Unfolded(spec, su, p, rendered, {"unfold": t1 - t0, "render": t2 - t1}, tuple(lemmas))


def claim_text(spec: MechanismSpec) -> str:
    return f"({spec.epsilon_text}, {spec.delta_text})-DP"


def prove(u: Unfolded, settings: Settings) -> Outcome:
    """Certify or refute one unfolded spec (or reuse its still-valid certificate)."""
    spec = u.spec
    outcome = Outcome(spec.name, spec.path, "undecided", claim_text(spec),
                      tight_epsilon=u.plan.tight_epsilon, timings=dict(u.timings))
    if u.plan.expected == "undecided":
        outcome.message = "; ".join(u.plan.notes)
        return outcome
    json_path = settings.out / f"{spec.name}.json"
    if settings.use_cache:
        cached = _cached(json_path, u, settings)
        if cached is not None:
            return cached
    start = time.perf_counter()
    result, audit = _run_coq(u, settings)
    coq_wall = time.perf_counter() - start  # coqchk and the audit overlap
    result.timings = {**u.timings, **result.timings}
    if audit is not None:
        result.certificate = str(json_path)
        _write_certificate(json_path, u, result, audit, settings)
    else:
        _remove_stale(json_path)
    result.timings["total"] = u.timings["unfold"] + u.timings["render"] + coq_wall
    return result


def _run_coq(u: Unfolded, settings: Settings) -> tuple[Outcome, Optional[Audit]]:
    """Compile, coqchk and audit; the audit is returned only for a verdict Coq accepted."""
    spec, rendered = u.spec, u.rendered
    coq = settings.coq()
    out = Outcome(spec.name, spec.path, "unproved", claim_text(spec),
                  tight_epsilon=u.plan.tight_epsilon, theorem=rendered.theorems[-1])
    out.timings["theories"] = coq.build_theories()
    workdir = settings.build / spec.name
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    vfile = (workdir / f"{spec.name}.v").resolve()
    if isinstance(u.mechanism, snap.SnapUnfold) and not settings.replay:
        discharged, report = _discharge(coq, vfile, u, settings)
        out.timings["session"] = report["seconds"]
        out.proofs = report["proofs"]
        if discharged is None:
            out.message = report["message"]
            out.goal = report.get("goal")
            return out, None
        rendered = replace(rendered, text=discharged)
        out.message = report["message"]
    vfile.write_text(rendered.text)
    compiled = coq.compile(vfile)
    if compiled.status == "failed" and _bound_lemma(spec.name) in compiled.message:
        repaired = _repair_bound(coq, vfile, rendered, settings)
        if repaired is not None:  # the portfolio found a proof Python did not propose
            rendered = replace(rendered, text=repaired)
            out.message = "the bound on e^eps was proved by the tactic portfolio"
            vfile.write_text(repaired)
            compiled = coq.compile(vfile)
    out.timings["coqc"], out.peak_kib["coqc"] = compiled.seconds, compiled.peak_kib
    if compiled.status != "ok":
        out.verdict = "timeout" if compiled.status == "timeout" else "unproved"
        out.message = f"Coq did not accept {vfile}: {compiled.message}"
        if compiled.status == "failed":
            out.goal = _goal_at_failure(coq, vfile, settings)
            if out.goal:
                out.message += "\n" + out.goal
        return out, None
    library_sha = cert.theories_sha256(settings.theories)
    with ThreadPoolExecutor(max_workers=2) as pool:  # coqchk and the audit are independent
        checking = pool.submit(coq.check, vfile, library_sha not in _LIBRARY_CHECKED)
        auditing = pool.submit(coq.audit, vfile, rendered.theorems)
        checked, audit = checking.result(), auditing.result()
    out.timings["coqchk"], out.peak_kib["coqchk"] = checked.seconds, checked.peak_kib
    out.timings["audit"] = audit.seconds
    if checked.status != "ok":
        out.verdict = "timeout" if checked.status == "timeout" else "unproved"
        out.message = f"coqchk did not accept {vfile}: {checked.message}"
        return out, None
    _LIBRARY_CHECKED.add(library_sha)
    refused = {t: allowlist.refused(a, rendered.uses_interval) for t, a in audit.assumptions.items()}
    bad = sorted({a for names in refused.values() for a in names})
    if bad:
        out.message = ("the proof rests on assumptions outside the allow-list: " + ", ".join(bad)
                       + " (an Admitted lemma or an Axiom); no certificate")
        return out, None
    out.statement = audit.statements[rendered.theorems[-1]]
    out.verdict = "proved" if u.plan.expected == "prove" else "refuted"
    out.witness = witness_json(u) if out.verdict == "refuted" else None
    out.message = "; ".join(m for m in (out.message, witness_text(out.witness) if out.witness else "") if m)
    out.rendered_text = rendered.text
    return out, audit


def _discharge(coq: Coq, vfile: Path, u: Unfolded, settings: Settings) -> tuple[Optional[str], dict[str, Any]]:
    """Prove the case-table lemmas of a pipeline file one by one in a Coq session, trying the
    tactics the renderer proposes; the file with the winning proofs, or None and the goal."""
    start = time.perf_counter()
    text = u.rendered.text
    todo = u.lemmas
    first = text.index(f"Lemma {todo[0].name} :")
    prelude = text[:first]
    tasks = [ProofTask(x.name, x.statement, x.tactics) for x in todo]
    attempts = prove_in_order(tasks, prelude, load_path=coq.load_path(), timeout=min(settings.timeout, 60.0),
                              cwd=vfile.parent, transcript=settings.transcript)
    proofs = [{"obligation": a.name, "tactic": a.tactic, "seconds": round(a.seconds, 3),
               "tried": [r.tactic for r in a.runs]} for a in attempts]
    report: dict[str, Any] = {"seconds": time.perf_counter() - start, "proofs": proofs}
    failed = next((a for a in attempts if not a.proved), None)
    if failed is not None:
        report["message"] = f"the obligation {failed.name} was not proved"
        report["goal"] = failed.report()
        return None, report
    for lemma, a in zip(todo, attempts):
        old = f"Lemma {lemma.name} : {lemma.statement}.\nProof. {lemma.tactics[0]} Qed."
        text = text.replace(old, f"Lemma {lemma.name} : {lemma.statement}.\nProof. {a.tactic} Qed.", 1)
    won: dict[str, int] = {}
    for a in attempts:
        won[a.tactic or "?"] = won.get(a.tactic or "?", 0) + 1
    report["message"] = (f"{len(attempts)} case-table obligations proved in the session ("
                         + ", ".join(f"{n} by `{t}`" for t, n in won.items()) + ")")
    return text, report


BOUND_TACTICS = ("exp_exact.", "exp_exact_upper.", "unfold Q2R; simpl; interval.",
                 "unfold Q2R; simpl; interval with (i_prec 100).",
                 "unfold Q2R; simpl; interval with (i_prec 300).")


_BOUND_PROOF = re.compile(r"^(Lemma \w+_exp_(?:lower|upper) : .*?\.\n)Proof\..*?Qed\.$", re.M | re.S)


_CASE_PROOF = re.compile(r"^(Lemma \w+ : .*?\.\n)Proof\. [^\n]*? Qed\.$", re.M | re.S)


def _without_bound_proof(text: str) -> str:
    """The file with the proofs the prover may choose blanked: the e^ε bound's, and the
    one-line proofs of a pipeline file's case-table lemmas."""
    text = text.replace("Require Import PreludeInterval.", "Require Import Prelude.", 1)
    text = _BOUND_PROOF.sub(r"\1Proof. (* ... *) Qed.", text)
    if "Require Import PreludeSnap" in text:
        text = _CASE_PROOF.sub(r"\1Proof. (* ... *) Qed.", text)
    return text


def _bound_lemma(name: str) -> str:
    return f"in {name}_exp_"


def _repair_bound(coq: Coq, vfile: Path, rendered: Rendered, settings: Settings) -> Optional[str]:
    """Try the tactic portfolio on the e^ε bound lemma in an IDE session; the file with
    the winning tactic, or None.  The batch coqc/coqchk check still decides."""
    text = rendered.text
    m = re.search(r"^Lemma (\w+_exp_(?:lower|upper)) : (.*?)\.\n(Proof\..*?Qed\.)$", text, re.M | re.S)
    if m is None:
        return None
    prelude = "From Obligations Require Import PreludeInterval."
    try:
        with CoqSession(coq.load_path(), prelude, cwd=vfile.parent, timeout=min(settings.timeout, 60.0),
                        transcript=settings.transcript) as session:
            attempt = prove_obligation(session, m.group(1), m.group(2), BOUND_TACTICS,
                                       timeout=min(settings.timeout, 30.0))
    except InfrastructureError:
        return None
    if not attempt.proved or attempt.tactic is None:
        return None
    uses = "PreludeInterval" if "interval" in attempt.tactic else None
    fixed = text[:m.start(3)] + f"Proof. {attempt.tactic} Qed." + text[m.end(3):]
    if uses:
        fixed = fixed.replace("From Obligations Require Import Prelude.\n",
                              "From Obligations Require Import PreludeInterval.\n", 1)
    return fixed


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
    if isinstance(u.mechanism, snap.SnapUnfold):
        return _snap_witness_json(u.mechanism)
    w = next((o for o in u.plan.obligations if isinstance(o, Witness)), None)
    if w is None:
        return None
    spec = u.spec
    e = sympy.exp(epsilon_value(spec))
    e_float = float(e.evalf(30))
    rhs = e_float * float(w.pr_x2) + float(spec.delta)
    return {
        "x": u.mechanism.input_label(w.x), "x_prime": u.mechanism.input_label(w.x2),
        "outputs": [output_label(spec, y) for y in w.outputs],
        "pr_x": str(w.pr_x), "pr_x_prime": str(w.pr_x2),
        "exp_epsilon": str(e) if e.is_Rational else f"{e_float:.12g}",
        "exp_epsilon_upper_bound": str(w.bound), "delta": str(spec.delta),
        "bound": f"{rhs:.12g}", "violation": f"{float(w.pr_x) - rhs:.12g}",
    }


def _snap_witness_json(su: snap.SnapUnfold) -> Optional[dict[str, Any]]:
    w = su.witness
    if w is None:
        return None
    e = sympy.exp(w.claim)
    rhs = float(e) * float(w.p2)
    return {
        "parameters": w.instance, "x": f"f(a) = {w.fa}", "x_prime": f"f(a') = {w.fa2}",
        "outputs": [w.output], "pr_x": str(w.p), "pr_x_prime": str(w.p2),
        "pr_x_float": f"{float(w.p):.12g}", "pr_x_prime_float": f"{float(w.p2):.12g}",
        "ratio": str(w.ratio), "exp_epsilon": f"exp({w.claim})", "exp_epsilon_upper_bound": None,
        "delta": "0", "bound": f"{rhs:.12g}", "violation": f"{float(w.p) - rhs:.12g}",
    }


def witness_text(w: dict[str, Any]) -> str:
    outs = ", ".join(w["outputs"])
    at = ("at " + ", ".join(f"{k} = {v}" for k, v in w["parameters"].items()) + ": "
          if w.get("parameters") else "")
    return (f"witness: {at}x = {w['x']}, x' = {w['x_prime']}, S = {{{outs}}}: "
            f"Pr[M(x) in S] = {w['pr_x']} > e^eps * Pr[M(x') in S] + delta = "
            f"{w['exp_epsilon']} * {w['pr_x_prime']} + {w['delta']} = {w['bound']} "
            f"(violation {w['violation']})")


# ---------------------------------------------------------------- certificates

def _record(u: Unfolded, o: Outcome, settings: Settings, coq_version: str, vpath: Path,
            assumptions: dict[str, list[str]], statements: dict[str, str]) -> dict[str, Any]:
    spec = u.spec
    return {
        "format": cert.FORMAT,
        "name": spec.name,
        "verdict": o.verdict,
        "claim": {"epsilon": spec.epsilon_text, "delta": spec.delta_text,
                  "neighbours": spec.neighbours if isinstance(spec.neighbours, str) else "pairs"},
        "spec": {"path": spec.path, "sha256": spec.sha256},
        "derived": dict(spec.derived) if spec.derived else None,
        "coq_file": {"path": str(vpath), "sha256": cert.sha256_text(o.rendered_text or u.rendered.text)},
        "rendered_sha256": cert.sha256_text(u.rendered.text),
        "theories_sha256": cert.theories_sha256(settings.theories),
        "tool_version": __version__,
        "coq_version": coq_version,
        "uses_interval": u.rendered.uses_interval,
        "theorems": [{"name": t, "statement": statements[t], "assumptions": assumptions[t]}
                     for t in u.rendered.theorems],
        "analysis": {"tight_epsilon": u.plan.tight_epsilon,
                     "tight_epsilon_float": _finite(u.plan.tight_epsilon_float),
                     "delta_at_claim": u.plan.delta_at_claim,
                     "delta_at_claim_float": _finite(u.plan.delta_at_claim_float)},
        "proofs": o.proofs or None,
        "witness": o.witness,
        "timings_s": {k: round(v, 3) for k, v in o.timings.items()},
        "peak_memory_kib": o.peak_kib,
    }


def _finite(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


def _write_certificate(json_path: Path, u: Unfolded, o: Outcome, audit: Audit,
                       settings: Settings) -> None:
    vpath = json_path.with_suffix(".v")
    vpath.parent.mkdir(parents=True, exist_ok=True)
    vpath.write_text(o.rendered_text or u.rendered.text)
    record = _record(u, o, settings, settings.coq().version(), vpath, audit.assumptions, audit.statements)
    cert.write(json_path, record)


def _remove_stale(json_path: Path) -> None:
    for p in (json_path, json_path.with_suffix(".v")):
        if p.exists():
            p.unlink()


def _cached(json_path: Path, u: Unfolded, settings: Settings) -> Optional[Outcome]:
    """The outcome recorded in a certificate that still matches everything, else None."""
    try:
        record = cert.read(json_path)
        vpath = Path(record["coq_file"]["path"])
        fresh = (cert.is_sealed(record)
                 and record["spec"]["sha256"] == u.spec.sha256
                 and record["rendered_sha256"] == cert.sha256_text(u.rendered.text)
                 and vpath.exists() and cert.sha256_file(vpath) == record["coq_file"]["sha256"]
                 and record["theories_sha256"] == cert.theories_sha256(settings.theories)
                 and record["tool_version"] == __version__
                 and record["coq_version"] == settings.coq().version())
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not fresh:
        return None
    o = Outcome(u.spec.name, u.spec.path, record["verdict"], claim_text(u.spec),
                tight_epsilon=u.plan.tight_epsilon, theorem=record["theorems"][-1]["name"],
                statement=record["theorems"][-1]["statement"], witness=record["witness"],
                certificate=str(json_path), cached=True, timings=dict(u.timings))
    o.message = witness_text(o.witness) if o.witness else ""
    return o


@dataclass
class Verification:
    certificate: str
    name: str
    ok: bool
    problems: list[str]
    timings: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def verify(json_path: Path, settings: Settings, spec_path: Optional[Path] = None) -> Verification:
    """Re-render from the spec, compare hashes, re-run coqc, coqchk (library included)
    and the audit."""
    _LIBRARY_CHECKED.clear()
    problems: list[str] = []
    try:
        record = cert.read(json_path)
    except (OSError, ValueError) as exc:
        return Verification(str(json_path), "?", False, [f"cannot read the certificate: {exc}"], {})
    name = str(record.get("name", "?"))
    if not cert.is_sealed(record):
        problems.append("the certificate's JSON was edited (certificate_sha256 does not match)")
    spec_file = spec_path or Path(record["spec"]["path"])
    spec = load(spec_file)
    if record.get("derived") and "sweep" in record["derived"]:
        from obligations.spec.program import derive_point
        spec = derive_point(spec, record["derived"]["sweep"])
    elif record.get("derived"):
        d = record["derived"]
        spec = derive(spec, name=d["name"], epsilon=d["epsilon"], delta=Fraction(d["delta"]),
                      compose=int(d["compose"]))
    if spec.sha256 != record["spec"]["sha256"]:
        problems.append(f"the spec {spec_file} changed since the certificate was made")
    u = unfold(spec)
    vpath = json_path.with_suffix(".v")
    text_sha = cert.sha256_text(u.rendered.text)
    if not vpath.exists():
        return Verification(str(json_path), name, False, problems + [f"{vpath} is missing"], {})
    if cert.sha256_file(vpath) != record["coq_file"]["sha256"]:
        problems.append(f"{vpath} was edited (its SHA-256 differs from the certificate's)")
    if text_sha != record.get("rendered_sha256"):
        problems.append("rendering the spec again gives a different Coq file")
    elif _without_bound_proof(vpath.read_text()) != _without_bound_proof(u.rendered.text):
        problems.append(f"{vpath} differs from the render in more than the proof of the e^eps bound")
    if record.get("theories_sha256") != cert.theories_sha256(settings.theories):
        problems.append("theories/ changed since the certificate was made")
    o, audit = _run_coq_file(vpath, u, settings)
    expected = {"prove": "proved", "refute": "refuted"}.get(u.plan.expected, "undecided")
    if o.verdict != expected:
        problems.append(f"Coq: {o.verdict}: {o.message}")
    elif o.verdict != record["verdict"]:
        problems.append(f"the certificate says {record['verdict']}, the check gives {o.verdict}")
    elif audit is not None:
        recorded = {t["name"]: t for t in record.get("theorems", [])}
        for t in u.rendered.theorems:
            if t not in recorded:
                problems.append(f"theorem {t} is not in the certificate")
            elif recorded[t]["statement"] != audit.statements[t]:
                problems.append(f"the statement of {t} differs from the certificate's")
            elif recorded[t]["assumptions"] != audit.assumptions[t]:
                problems.append(f"the assumptions of {t} differ from the certificate's")
    return Verification(str(json_path), name, not problems, problems, o.timings)


def _run_coq_file(vpath: Path, u: Unfolded, settings: Settings) -> tuple[Outcome, Optional[Audit]]:
    """Check the certificate's own .v file (not a fresh render) in a clean build dir."""
    text = vpath.read_text()
    u2 = replace(u, rendered=Rendered(u.rendered.module, text, u.rendered.theorems, u.rendered.uses_interval))
    return _run_coq(u2, Settings(settings.theories, settings.build / "verify", settings.out,
                                 settings.timeout, False, settings.transcript, replay=True))


def load_specs(paths: list[Path]) -> list[MechanismSpec]:
    """Every spec named (directories: their *.yaml), all checked before anything runs."""
    files: list[Path] = []
    for p in paths:
        files += sorted(p.glob("*.yaml")) + sorted(p.glob("*.yml")) if p.is_dir() else [p]
    from obligations.spec.program import expand
    specs = [d for f in files for d in expand(load(f))]  # a program spec's sweep: one per point
    seen: dict[str, str] = {}
    for s in specs:
        if s.name in seen:
            raise SpecError(s.path, "name", f"{s.name!r} is also the name in {seen[s.name]}")
        seen[s.name] = s.path
    return specs
