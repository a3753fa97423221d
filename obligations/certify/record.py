"""What a certificate must say, and the files it is.

A certificate's JSON is never believed: `verify` and the prove cache recompute every
meaningful field from the spec (`planned`) and compare (`compare`); the .v must be the
render with each proof one of the candidates the renderer proposes, and each shared
module it requires (`shared/NAME.v` beside it) the module the spec renders, whose hash
is its name.  The JSON's own hash only detects accidental damage.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from obligations import __version__
from obligations.certify import certificate as cert
from obligations.certify.allowlist import refused
from obligations.certify.outcome import Outcome, Settings, vacuity, witness_json
from obligations.core.document import DocumentError
from obligations.core.templates import SharedModule, name_matches_text
from obligations.errors import InfrastructureError
from obligations.models import Unfolded
from obligations.prover.coq import Audit

# Fields that record how a run went, not what was proved: not compared.
_INFORMATIONAL = ("timings_s", "peak_memory_kib", "certificate_sha256", "theorems", "assumptions", "proofs", "spec",
                  "packages")


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
        "claim": u.claim.record(),
        "derived": dict(spec.derived) if spec.derived else None,
        "coq_file": {"path": f"{spec.name}.v", "sha256": cert.sha256_text(text)},
        "rendered_sha256": cert.sha256_text(u.rendered.text),
        "library_sha256": _library_sha256(u, text, settings),
        "tool_version": __version__,
        "coq_version": settings.coq().version(),
        "uses_interval": u.rendered.uses_interval(choices),
        "analysis": {"tight_epsilon": u.plan.tight_epsilon,
                     "tight_epsilon_float": _finite(u.plan.tight_epsilon_float),
                     "delta_at_claim": u.plan.delta_at_claim,
                     "delta_at_claim_float": _finite(u.plan.delta_at_claim_float)},
        "vacuous": vacuity(u),
        "witness": witness_json(u),
        # only for files about continuous noise (mathcomp-analysis's axioms allowed): the others keep their fields
        **({"uses_analysis": True} if u.rendered.uses_analysis(choices) else {}),
        # only for routes whose file takes a search's result as a hint (Coq checks it): verify adopts it
        **({"hint": h} if (h := u.hint()) is not None else {}),
        # only for files that require shared modules: the other certificates keep their fields
        **({"shared_files": [{"path": _shared_path(m), "module": m.logical, "sha256": m.sha256}
                             for m in u.rendered.shared]} if u.rendered.shared else {}),
    }


def _library_sha256(u: Unfolded, text: str, settings: Settings) -> str:
    """The hash of the library files the certificate's .v and its shared modules load."""
    coq = settings.coq()
    shared = {m.logical: m.text for m in u.rendered.shared}
    loaded = coq.closure_of_texts([text, *shared.values()], shared)
    order = {v: i for i, v in enumerate(coq.library_files())}
    return cert.library_sha256(coq.theories, sorted(loaded, key=order.__getitem__))


def _shared_path(m: SharedModule) -> str:
    """Where a certificate carries a shared module, relative to its directory."""
    return f"shared/{m.name}.v"


def record_of(u: Unfolded, o: Outcome, settings: Settings, json_path: Path, audit: Audit) -> dict[str, Any]:
    spec = u.spec
    record = planned(u, o.choices, settings)
    record["spec"] = {"path": cert.spec_reference(spec.path, json_path), "sha256": spec.sha256}
    record["theorems"] = [{"name": t, "statement": audit.statements[t]} for t in u.rendered.theorems]
    record["assumptions"] = audit.assumptions      # of all the theorems: one `Print Assumptions`
    record["proofs"] = o.proofs
    record["packages"] = _package_versions()
    record["timings_s"] = {k: round(v, 3) for k, v in o.timings.items()}
    record["peak_memory_kib"] = o.peak_kib
    return record


def _package_versions() -> dict[str, str]:
    """The Python packages the render depends on (sympy prints terms, jinja2 lays out the file)."""
    from importlib import metadata
    return {name: metadata.version(name) for name in ("sympy", "jinja2", "pydantic")}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def write_certificate(json_path: Path, u: Unfolded, o: Outcome, audit: Audit,
                       settings: Settings) -> None:
    """Write the certificate's files: each to a temporary name first, then all moved into
    place, the JSON last; if the disk is full or the folder read-only, nothing is left
    behind (no .v without its JSON, no .tmp) and the error is one line (exit 3)."""
    files: list[tuple[Path, str]] = []
    for m in u.rendered.shared:   # one copy per content, however many certificates require it
        spath = json_path.parent / _shared_path(m)
        if not spath.exists() or spath.read_bytes() != m.text.encode("utf-8"):
            files.append((spath, m.text))
    vpath = json_path.with_suffix(".v")
    files.append((vpath, u.rendered.document.fill(o.choices)))
    files.append((json_path, cert.text(record_of(u, o, settings, json_path, audit))))
    staged: list[tuple[Path, Path]] = []
    try:
        for path, text in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            staged.append((tmp, path))
            tmp.write_text(text)
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as exc:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        remove_stale(json_path)   # the .v may have moved into place: not without its JSON
        raise InfrastructureError(f"cannot write the certificate {json_path}: "
                                  f"{exc.strerror or exc} (free some space, or choose another --out)") from None


def remove_stale(json_path: Path) -> None:
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
    if u.rendered.shared and "shared_files" not in record:
        problems.append("shared_files: the certificate has none, the spec's file requires "
                        + ", ".join(m.name for m in u.rendered.shared)
                        + " (made before its table was a shared module: prove it again)")
    doc = u.rendered.document
    try:
        choices = recorded_choices(record)
        if set(choices) != {s.name for s in doc.slots}:
            raise DocumentError("the proofs recorded are not those of the document's obligations")
        text = doc.fill(choices)
    except (ValueError, DocumentError) as exc:
        return problems + [f"the recorded proofs are not the renderer's: {exc}"]
    want = planned(u, choices, settings)
    if "hint" not in record:   # made before hints were recorded: verify searched as prove did
        want.pop("hint", None)
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
    return problems + [p for m in u.rendered.shared for p in _shared_problems(m, vpath.parent)]


def _shared_problems(m: SharedModule, folder: Path) -> list[str]:
    """What is wrong with the certificate's copy of a shared module (empty: nothing)."""
    path = folder / _shared_path(m)
    try:
        data = path.read_bytes()
    except OSError:
        return [f"{path} (the shared module {m.name} the file requires) is missing"]
    problems = []
    if not name_matches_text(m.name, data.decode("utf-8", errors="replace")):
        problems.append(f"{path}: its SHA-256 does not match its name (the shared module was edited)")
    if data != m.text.encode("utf-8"):
        problems.append(f"{path} is not the shared module the spec renders")
    return problems


def _short(v: Any) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 200 else text[:200] + "..."


def _audit_shaped(record: dict[str, Any]) -> bool:
    """What Coq printed, as a certificate records it: each theorem its name and statement,
    and one list of allow-listed assumptions (only `verify` runs Coq to compare them)."""
    theorems, assumptions = record.get("theorems"), record.get("assumptions")
    return (isinstance(theorems, list)
            and all(isinstance(t, dict) and set(t) == {"name", "statement"} and isinstance(t["statement"], str)
                    for t in theorems)
            and isinstance(assumptions, list) and all(isinstance(a, str) for a in assumptions)
            and not refused(assumptions, record.get("uses_interval") is True, record.get("uses_analysis") is True))


def reusable(json_path: Path, u: Unfolded, settings: Settings) -> dict[str, Any] | None:
    """The certificate at `json_path` if every field the spec re-derives agrees and its .v
    is the render with proofs from the candidates, else None (then it is proved anew).
    Whether Coq accepted it is another question (`checked.checked_here`, or a re-check)."""
    try:
        record = cert.read(json_path)
        if not cert.is_sealed(record) or compare(record, u, settings, json_path.with_suffix(".v")) \
                or not _audit_shaped(record):
            return None
        if record["spec"]["path"] != cert.spec_reference(u.spec.path, json_path):
            return None     # the spec moved: a new record names where it is now
        recorded_choices(record)
        if not isinstance(record["theorems"][-1]["statement"], str):
            return None
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    return record


def disagreements(record: dict[str, Any], o: Outcome, audit: Audit | None) -> list[str]:
    """What Coq said of a certificate's file that the certificate does not say (empty: nothing)."""
    if o.verdict != record.get("verdict"):
        return [f"Coq: {o.verdict}: {o.message}"]
    problems: list[str] = []
    if audit is not None:
        for t in record["theorems"]:
            if t.get("statement") != audit.statements.get(t["name"]):
                problems.append(f"the statement of {t['name']} differs from what Coq prints")
            if set(t) != {"name", "statement"}:
                problems.append(f"the theorem {t['name']} records more than its name and statement")
        if record.get("assumptions") != audit.assumptions:
            problems.append("the assumptions of the theorems differ from what Coq prints")
    return problems
