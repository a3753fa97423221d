"""Shared modules (the floating kind's certified logarithm table): compiled and checked by
coqchk once per content into the build's `.shared/` directory, then required by every
generated file that uses them.

Nothing here trusts the cache: a compiled module is reused only when the `.v` on disk is
byte for byte the text the spec renders (whose SHA-256 its name carries) and a marker,
written only after coqc, coqchk and the axiom audit accepted it, holds this machine's record
(`prover.trust`: an HMAC under a key that never leaves the machine) of exactly that `.v`,
the `.vo` on disk, the compiled library it was built against and the Coq version.  An
edited `.vo` with its marker re-hashed lacks the key: compiled and checked again.
`verify` ignores the markers: it compiles and checks each module once per run."""
from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from obligations.certify import allowlist
from obligations.certify.certificate import sha256_file
from obligations.certify.outcome import Settings
from obligations.core.templates import SharedModule, name_matches_text
from obligations.prover import trust
from obligations.prover.coq import Coq

# Shared modules compiled and checked by this process: (file, SHA-256 of its text).
_FRESH: set[tuple[str, str]] = set()


def ensure(modules: Sequence[SharedModule], settings: Settings) -> tuple[dict[str, float], str]:
    """Make every module usable by the files that require it: seconds spent by stage, and
    what Coq refused ("" when nothing was)."""
    coq = settings.coq()
    spent: dict[str, float] = {}
    for m in modules:
        with _locked(coq, m):
            if reusable(coq, m, trust_marker=settings.reuse_shared):
                continue
            settings.say(f"compiling and checking the shared module {m.name} (once)")
            problem = _make(coq, m, spent)
            if problem:
                return spent, problem
    return spent, ""


def paths(coq: Coq, m: SharedModule) -> tuple[Path, Path, Path]:
    """The module's .v, .vo and marker in the shared directory."""
    assert coq.shared is not None
    vfile = coq.shared / f"{m.name}.v"
    return vfile, vfile.with_suffix(".vo"), coq.shared / f"{m.name}.ok"


def marker_parts(coq: Coq, m: SharedModule, vo: Path) -> list[str]:
    """What a module's marker records: the module, its .v and .vo, the library, Coq."""
    return ["shared module checked by coqchk", m.logical, m.sha256, sha256_file(vo),
            coq.library_digest(), coq.version()]


def reusable(coq: Coq, m: SharedModule, trust_marker: bool) -> bool:
    """Whether the compiled module on disk may be required as it is: its .v is the render and
    its marker holds this machine's record of that .v and .vo (`trust_marker`: a marker an
    earlier run wrote counts, else only this process's)."""
    vfile, vo, marker = paths(coq, m)
    if not trust_marker and (str(vfile), m.sha256) not in _FRESH:
        return False
    try:
        text = vfile.read_bytes().decode("utf-8")
        return (text == m.text and name_matches_text(m.name, text)
                and trust.holds(marker, marker_parts(coq, m, vo)))
    except (OSError, UnicodeDecodeError):
        return False


def _make(coq: Coq, m: SharedModule, spent: dict[str, float]) -> str:
    vfile, vo, marker = paths(coq, m)
    for stale in (marker, vo):
        stale.unlink(missing_ok=True)
    tmp = vfile.with_suffix(".v.tmp")
    tmp.write_text(m.text)
    os.replace(tmp, vfile)
    compiled = coq.compile_shared(vfile)
    spent["shared_coqc"] = spent.get("shared_coqc", 0.0) + compiled.seconds
    if compiled.status != "ok":
        return f"Coq did not accept the shared module {m.name} ({vfile}): {compiled.message}"
    checked = coq.check([], library=False, shared=[vfile])
    spent["shared_coqchk"] = spent.get("shared_coqchk", 0.0) + checked.seconds
    if checked.status != "ok":
        return f"coqchk did not accept the shared module {m.name} ({vfile}): {checked.message}"
    own = allowlist.own_axioms(checked.axioms)
    if own or checked.unsafe:
        return (f"the shared module {m.name} declares axioms or relies on unsafe features: "
                + ", ".join([*own, *checked.unsafe]))
    trust.remember(marker, marker_parts(coq, m, vo))
    _FRESH.add((str(vfile), m.sha256))
    return ""


@contextmanager
def _locked(coq: Coq, m: SharedModule) -> Iterator[None]:
    """One writer per module across threads and processes (`--jobs`, a cluster on a shared
    file system): a lock file beside it."""
    assert coq.shared is not None
    coq.shared.mkdir(parents=True, exist_ok=True)
    with open(coq.shared / f"{m.name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
