"""Shared modules (the floating kind's certified logarithm table): compiled and checked by
coqchk once per content into the build's `.shared/` directory, then required by every
generated file that uses them.

Nothing here trusts the cache: a compiled module is reused only when the `.v` on disk is
byte for byte the text the spec renders (whose SHA-256 its name carries) and a marker,
written only after coqc, coqchk and the axiom audit accepted it, holds this machine's record
(`prover.trust`: an HMAC under a key that never leaves the machine) of exactly that `.v`,
the `.vo` on disk, the compiled library it was built against and the Coq version.  An
edited `.vo` with its marker re-hashed lacks the key: compiled and checked again.
`verify` ignores the markers: it compiles and checks each module once per run.

`prove` and `verify` compile a module here and leave its check to the coqchk run of the files
that require it (`pending`, `accept`): one run loads the floating-point libraries once, where a
run of its own loaded them again (about 6 s of CPU per module).  If that run fails, or the
module's own names carry axioms, the module is checked alone (`check_alone`) so that what is
refused, and the message, are those of a module checked on its own."""
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
from obligations.prover.coq import Coq, StageResult

# Shared modules compiled and checked by this process: (file, SHA-256 of its text).
_FRESH: set[tuple[str, str]] = set()
# Compiled by this process, their check left to the coqchk run of the files requiring them:
# (file, SHA-256 of its text) -> SHA-256 of the .vo compiled (another thread may require it
# meanwhile: it is used as it is, not compiled again under the files compiled against it).
_PENDING: dict[tuple[str, str], str] = {}


def ensure(modules: Sequence[SharedModule], settings: Settings, check: bool = True
           ) -> tuple[dict[str, float], str]:
    """Make every module usable by the files that require it: seconds spent by stage, and
    what Coq refused ("" when nothing was).  `check` False: a module compiled now is left for
    the coqchk run of the files that require it (`pending`)."""
    coq = settings.coq()
    spent: dict[str, float] = {}
    for m in modules:
        with _locked(coq, m):
            if reusable(coq, m, trust_marker=settings.reuse_shared) or (not check and _compiled_here(coq, m)):
                continue
            settings.say(f"compiling {'and checking ' if check else ''}the shared module {m.name} (once)")
            problem = _make(coq, m, spent, check)
            if problem:
                return spent, problem
    return spent, ""


def pending(coq: Coq, modules: Sequence[SharedModule]) -> list[SharedModule]:
    """The modules (once each) this process compiled and no coqchk run has accepted yet."""
    out: dict[str, SharedModule] = {}
    for m in modules:
        if m.name not in out and _compiled_here(coq, m) and not reusable(coq, m, trust_marker=False):
            out[m.name] = m
    return list(out.values())


def accept(coq: Coq, modules: Sequence[SharedModule], checked: StageResult) -> list[SharedModule]:
    """After a coqchk run that included `modules` passed: each module none of whose own names
    is an axiom or unsafe is recorded as checked; the others are returned (`check_alone` says
    why)."""
    refused = []
    for m in modules:
        mine = f"{m.logical}."
        if any(a.startswith(mine) for a in (*allowlist.own_axioms(checked.axioms), *checked.unsafe)):
            refused.append(m)
        else:
            _record(coq, m)
    return refused


def check_alone(coq: Coq, modules: Sequence[SharedModule]) -> dict[str, str]:
    """Each module checked by a coqchk run of its own: what is refused (module name ->
    problem, as `ensure` says it); the accepted ones are recorded as checked."""
    spent: dict[str, float] = {}
    problems = {}
    for m in modules:
        problem = _check(coq, m, spent)
        if problem:
            problems[m.name] = problem
    return problems


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


def _compiled_here(coq: Coq, m: SharedModule) -> bool:
    """Whether the module on disk is the one this process compiled and left for a later check."""
    vfile, vo, _ = paths(coq, m)
    recorded = _PENDING.get((str(vfile), m.sha256))
    try:
        return recorded is not None and vfile.read_text() == m.text and sha256_file(vo) == recorded
    except (OSError, UnicodeDecodeError):
        return False


def _make(coq: Coq, m: SharedModule, spent: dict[str, float], check: bool = True) -> str:
    vfile, vo, marker = paths(coq, m)
    for stale in (marker, vo):
        stale.unlink(missing_ok=True)
    _PENDING.pop((str(vfile), m.sha256), None)
    tmp = vfile.with_suffix(".v.tmp")
    tmp.write_text(m.text)
    os.replace(tmp, vfile)
    compiled = coq.compile_shared(vfile)
    spent["shared_coqc"] = spent.get("shared_coqc", 0.0) + compiled.seconds
    if compiled.status != "ok":
        return f"Coq did not accept the shared module {m.name} ({vfile}): {compiled.message}"
    if not check:
        _PENDING[(str(vfile), m.sha256)] = sha256_file(vo)
        return ""
    return _check(coq, m, spent)


def _check(coq: Coq, m: SharedModule, spent: dict[str, float]) -> str:
    """coqchk on the module alone and its axiom audit; recorded as checked if accepted."""
    vfile, _, _ = paths(coq, m)
    checked = coq.check([], library=False, shared=[vfile])
    spent["shared_coqchk"] = spent.get("shared_coqchk", 0.0) + checked.seconds
    if checked.status != "ok":
        return f"coqchk did not accept the shared module {m.name} ({vfile}): {checked.message}"
    own = allowlist.own_axioms(checked.axioms)
    if own or checked.unsafe:
        return (f"the shared module {m.name} declares axioms or relies on unsafe features: "
                + ", ".join([*own, *checked.unsafe]))
    _record(coq, m)
    return ""


def _record(coq: Coq, m: SharedModule) -> None:
    """The module on disk is checked: this machine's marker, and this process's record."""
    vfile, vo, marker = paths(coq, m)
    trust.remember(marker, marker_parts(coq, m, vo))
    _FRESH.add((str(vfile), m.sha256))
    _PENDING.pop((str(vfile), m.sha256), None)


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
