"""The certificates this machine's Coq checked, so that `prove` reuses only those.

After coqc, coqchk and the audit accepted a certificate's file (made now, or re-checked
from a certificate found in the output folder), a record goes to `BUILD/.checked/NAME.ok`:
this machine's HMAC (`prover.trust`) of the certificate's JSON and .v, each shared module's
.v and compiled .vo, the compiled library files the file loads and the Coq version.  A
certificate whose record does not match (a fresh clone, a file edited or written by hand,
another library) is re-checked by Coq before anything is reported proved.
"""
from __future__ import annotations

from pathlib import Path

from obligations.certify import shared
from obligations.certify.certificate import sha256_file
from obligations.certify.outcome import Settings
from obligations.kinds import Unfolded
from obligations.prover import trust


def _record(settings: Settings, name: str) -> Path:
    return settings.build / ".checked" / f"{name}.ok"


def _parts(json_path: Path, u: Unfolded, settings: Settings) -> list[str]:
    """What was checked, by content (OSError when a file is missing)."""
    coq = settings.coq()
    library = coq.closure_digest([u.rendered.text, *(m.text for m in u.rendered.shared)],
                                 {m.logical: m.text for m in u.rendered.shared})
    parts = ["certificate checked by coqc, coqchk and the audit", u.spec.name,
             sha256_file(json_path), sha256_file(json_path.with_suffix(".v")), library, coq.version()]
    for m in u.rendered.shared:
        _, vo, _ = shared.paths(coq, m)
        parts += [m.logical, m.sha256, sha256_file(vo)]
    return parts


def remember(json_path: Path, u: Unfolded, settings: Settings) -> None:
    """Record that Coq accepted the certificate at `json_path` (call only after the checks)."""
    trust.remember(_record(settings, u.spec.name), _parts(json_path, u, settings))


def forget(u: Unfolded, settings: Settings) -> None:
    trust.forget(_record(settings, u.spec.name))


def checked_here(json_path: Path, u: Unfolded, settings: Settings) -> bool:
    """Whether this machine's Coq accepted exactly this certificate, with these compiled files."""
    try:
        parts = _parts(json_path, u, settings)
    except OSError:
        return False
    return trust.holds(_record(settings, u.spec.name), parts)
