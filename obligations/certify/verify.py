"""`verify`: re-derive a certificate from its spec, compare every field and the .v, then
re-run Coq on the file (coqc with its audit, coqchk with the library)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Optional

from obligations import kinds
from obligations.certify import certificate as cert
from obligations.certify.outcome import Settings
from obligations.certify.record import compare, recorded_choices
from obligations.certify.run import run_coq
from obligations.errors import InfrastructureError, ObligationsError
from obligations.kinds import load, unfold


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
        settings.say(f"{name}: re-checking with Coq")
        o, audit = run_coq(u, _verify_settings(settings), recorded_choices(record))
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
    return replace(settings, build=settings.build / "verify", use_cache=False, recheck_library=True)
