"""`verify`: re-derive a certificate from its spec, compare every field and the .v, then
re-run Coq on the file (coqc with its audit, coqchk with the library)."""
from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from obligations import models
from obligations.certify import certificate as cert
from obligations.certify.outcome import LibraryCheck, Outcome, Settings
from obligations.certify.record import compare, disagreements, recorded_choices
from obligations.certify.run import Compiled, check_batch, compile_one
from obligations.core.model import HintError
from obligations.errors import InfrastructureError, ObligationsError
from obligations.models import Unfolded, load, unfold
from obligations.prover.coq import Audit


@dataclass
class Verification:
    certificate: str
    name: str
    ok: bool
    problems: list[str]
    timings: dict[str, float]
    error: str | None = None     # an infrastructure failure kept the check from finishing

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def verify(json_path: Path, settings: Settings, spec_path: Path | None = None) -> Verification:
    """Re-derive the certificate from its spec, compare every field and the .v, then
    re-run coqc (which prints the file's audit) and coqchk (library included) on the file."""
    return verify_many([json_path], settings, spec_path)[0]


def verify_many(paths: Sequence[Path], settings: Settings, spec_path: Path | None = None
                ) -> list[Verification]:
    """`verify` for each certificate: each is compared with what its spec gives and, if it
    agrees, compiled on its own; then coqchk re-checks all the compiled files in one run
    (with the library, once).  One certificate's trouble never stops the others."""
    results: list[Verification | None] = [None] * len(paths)
    vsettings = _verify_settings(settings)
    compiled: list[tuple[int, str, dict[str, Any], Compiled]] = []
    for i, path in enumerate(paths):
        step = _compared(path, settings, spec_path)
        if isinstance(step, Verification):
            results[i] = _told(step, settings)
            continue
        u, record, name = step
        settings.say(f"{name}: re-checking with Coq")
        try:
            done = compile_one(u, vsettings, recorded_choices(record))
        except InfrastructureError as exc:
            results[i] = _told(_not_checked(path, name, exc), settings)
            continue
        if isinstance(done, Compiled):
            compiled.append((i, name, record, done))
        else:
            results[i] = _told(_judged(path, name, record, done, None), settings)
    try:
        checked = check_batch([c for *_, c in compiled], vsettings)
    except InfrastructureError as exc:
        for i, name, _, _ in compiled:
            results[i] = _told(_not_checked(paths[i], name, exc), settings)
    else:
        for (i, name, record, _), (o, audit) in zip(compiled, checked, strict=False):
            results[i] = _told(_judged(paths[i], name, record, o, audit), settings)
    return [r for r in results if r is not None]


def _told(v: Verification, settings: Settings) -> Verification:
    """Say that one certificate is done (its line in a log), as soon as it is."""
    settings.done(f"{v.certificate}: {'OK' if v.ok else 'NOT CHECKED' if v.error else 'FAILED'}")
    return v


def _compared(json_path: Path, settings: Settings, spec_path: Path | None
              ) -> Verification | tuple[Unfolded, dict[str, Any], str]:
    """The certificate re-derived from its spec and compared field by field: what Coq must
    check next, or the verification that failed already (Coq would check a file that is not
    the certificate's claim)."""
    try:
        record = cert.read(json_path)
    except (OSError, ValueError) as exc:
        return Verification(str(json_path), "?", False, [f"cannot read the certificate: {exc}"], {})
    name = str(record.get("name", "?"))
    problems: list[str] = []
    if not cert.is_sealed(record):
        problems.append("the certificate's JSON was damaged or edited (certificate_sha256 does not match)")
    try:
        spec = _derived_spec(record, json_path, spec_path)
    except (ObligationsError, ValueError, KeyError, TypeError) as exc:
        return Verification(str(json_path), name, False, problems + [f"cannot re-derive the claim: {exc}"], {})
    # the search's result the certificate records: the file is rendered from it, and Coq checks it
    adopting = models.adopted(spec, record["hint"]) if "hint" in record else nullcontext()
    try:
        with adopting:
            u = unfold(spec)
    except HintError as exc:
        return Verification(str(json_path), name, False, problems + [f"the recorded hint is malformed: {exc}"], {})
    except (ObligationsError, ValueError, KeyError, TypeError) as exc:
        return Verification(str(json_path), name, False, problems + [f"cannot re-derive the claim: {exc}"], {})
    if u.spec.name != name:
        problems.append(f"name: the certificate says {name!r}, the spec gives {u.spec.name!r}")
    problems += compare(record, u, settings, json_path.with_suffix(".v"))
    if problems:
        return Verification(str(json_path), name, False, problems, {})
    return u, record, name


def _judged(json_path: Path, name: str, record: dict[str, Any], o: Outcome, audit: Audit | None) -> Verification:
    """What Coq said of the file, against what the certificate says."""
    problems = disagreements(record, o, audit)
    return Verification(str(json_path), name, not problems, problems, o.timings)


def _not_checked(json_path: Path, name: str, exc: InfrastructureError) -> Verification:
    return Verification(str(json_path), name, False, [f"Coq could not check it: {exc}"], {}, error=str(exc))


def _derived_spec(record: dict[str, Any], json_path: Path, spec_path: Path | None) -> Any:
    """The spec the certificate was made from, and the claim derived from it if any."""
    spec = load(spec_path or json_path.parent / str(record["spec"]["path"]))
    d = record.get("derived")
    if d is None:
        return spec
    if not isinstance(d, dict):
        raise ValueError("derived: not a mapping")
    return models.derive(spec, d)


def _verify_settings(settings: Settings) -> Settings:
    # The library: as coqchk accepted it on this machine (the record beside theories/ names the
    # hash of every compiled file), else the files the certificates load, checked now.
    library = LibraryCheck.RECHECK if settings.library == LibraryCheck.RECHECK else LibraryCheck.CLOSURE
    return replace(settings, build=settings.build / "verify", use_cache=False, library=library,
                   reuse_shared=False)
