"""The certificates this machine's Coq checked, so that `prove` reuses only those.

After coqc, coqchk and the audit accepted a certificate's file (made now, or re-checked
from a certificate found in the output folder), a record goes to `BUILD/.checked/NAME.ok`:
this machine's HMAC (`prover.trust`) of everything the verdict rests on, by content: the
spec file, the tool's own code and the packages it renders with, the library's sources,
the certificate's JSON and .v, each shared module's .v and compiled .vo, the compiled
library files the file loads and the Coq version.  When the record matches, the
certificate is reused without re-deriving it (the derivation is a function of those);
else it is compared with its spec and re-checked by Coq before anything is reported proved
(a fresh clone, a file edited or written by hand, another library, another tool).
"""
from __future__ import annotations

import functools
import hashlib
import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

from obligations.certify import certificate as cert
from obligations.certify.certificate import sha256_file, sha256_text
from obligations.certify.outcome import Outcome, Settings
from obligations.core.model import witness_text
from obligations.core.obligation import Verdict
from obligations.core.templates import SHARED_LIBRARY
from obligations.prover import trust

PACKAGE = Path(__file__).resolve().parent.parent


def _record(settings: Settings, name: str) -> Path:
    return settings.build / ".checked" / f"{name}.ok"


@functools.cache
def tool_digest(theories: Path) -> str:
    """The tool's code and templates, the packages that render with it, Python, and the
    library's sources: what re-deriving a certificate from its spec depends on."""
    h = hashlib.sha256(platform.python_version().encode())
    for name in ("sympy", "jinja2", "pydantic", "mpmath", "pyyaml"):
        try:
            h.update(f"{name} {metadata.version(name)}\0".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name} -\0".encode())
    for f in sorted(PACKAGE.rglob("*")):
        if f.is_file() and f.suffix in (".py", ".j2", ".json") and "theories" not in f.relative_to(PACKAGE).parts:
            h.update(f.relative_to(PACKAGE).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(cert.theories_sha256(theories).encode())
    return h.hexdigest()


def _parts(json_path: Path, spec_sha256: str, settings: Settings) -> list[str]:
    """What was checked, by content (OSError or ValueError when a file is missing or damaged)."""
    coq = settings.coq()
    data = json_path.read_bytes()
    record = json.loads(data)
    vtext = json_path.with_suffix(".v").read_text()
    shared: dict[str, str] = {}
    for f in record.get("shared_files") or []:
        stem = Path(str(f["path"])).stem
        shared[f"{SHARED_LIBRARY}.{stem}"] = (json_path.parent / str(f["path"])).read_text()
    library = coq.closure_digest([vtext, *shared.values()], shared)
    parts = ["certificate checked by coqc, coqchk and the audit", json_path.stem, spec_sha256,
             tool_digest(settings.theories.resolve()), hashlib.sha256(data).hexdigest(), sha256_text(vtext),
             library, coq.version()]
    for logical, text in shared.items():
        assert coq.shared is not None
        parts += [logical, sha256_text(text), sha256_file(coq.shared / f"{logical.rsplit('.', 1)[1]}.vo")]
    return parts


def remember(json_path: Path, spec_sha256: str, settings: Settings) -> None:
    """Record that Coq accepted the certificate at `json_path` (call only after the checks)."""
    trust.remember(_record(settings, json_path.stem), _parts(json_path, spec_sha256, settings))


def forget(name: str, settings: Settings) -> None:
    trust.forget(_record(settings, name))


def checked_here(json_path: Path, spec_sha256: str, settings: Settings) -> bool:
    """Whether this machine's Coq accepted exactly this certificate, from exactly this spec,
    with this tool, library, shared modules and Coq."""
    try:
        parts = _parts(json_path, spec_sha256, settings)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, AssertionError):
        return False
    return trust.holds(_record(settings, json_path.stem), parts)


def reused(spec: Any, settings: Settings) -> Outcome | None:
    """The outcome of the spec's certificate in the output folder if this machine's Coq
    checked it (nothing derived again: the record covers what the derivation depends on)."""
    json_path = settings.out / f"{spec.name}.json"
    if not checked_here(json_path, spec.sha256, settings):
        return None
    try:
        record = cert.read(json_path)
        if record["spec"]["path"] != cert.spec_reference(spec.path, json_path):
            return None     # the spec moved: the record must name where it is now
        return outcome_of(spec, json_path, record)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def outcome_of(spec: Any, json_path: Path, record: dict[str, Any]) -> Outcome:
    """The outcome a certificate records (what `prove` printed when it was made)."""
    analysis = record["analysis"]
    delta = analysis.get("delta_at_claim") or (f"{analysis['delta_at_claim_float']:.12g}"
                                               if analysis.get("delta_at_claim_float") is not None else None)
    theorem = record["theorems"][-1]
    witness = record.get("witness")
    proofs = list(record["proofs"])
    return Outcome(spec.name, spec.path, Verdict(record["verdict"]), spec.claim.text(),
                   tight_epsilon=analysis.get("tight_epsilon"), delta_at_claim=delta, theorem=theorem["name"],
                   statement=theorem["statement"], witness=witness, certificate=str(json_path),
                   message=witness_text(witness) if witness else "", cached=True,
                   choices={p["obligation"]: p["tactic"] for p in proofs}, proofs=proofs,
                   vacuous=list(record.get("vacuous") or []), timings={"total": 0.0})
