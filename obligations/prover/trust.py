"""What this machine's Coq accepted: records that only this machine can write.

A record (a certificate Coq checked, a compiled shared module coqchk accepted, the compiled
library coqchk accepted) is a file in the build directory holding an HMAC of the content
of everything that was checked, under a secret key that never leaves this machine.  It is
written only after the checks passed; an edited file changes the content, and a record
re-made by hand (a re-hashed marker, a certificate written by the planner) lacks the key,
so either way the record does not match and the check runs again.

The key lives outside the repository and the build directory (`$OBLIGATIONS_STATE`,
else `$XDG_STATE_HOME/obligations`, else `~/.local/state/obligations`).  When it cannot be
read or made, a key of this process is used: nothing an earlier run recorded is trusted.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

KEY_BYTES = 32


def state_dir() -> Path:
    """Where this machine's key is kept."""
    explicit = os.environ.get("OBLIGATIONS_STATE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_STATE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "state") / "obligations"


@functools.cache
def _key(where: Path) -> bytes:
    path = where / "checked.key"
    try:
        if not path.exists():
            where.mkdir(parents=True, exist_ok=True)
            # made beside, then linked into place: two runs starting at once agree on one key
            tmp = where / f".checked.key.{os.getpid()}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(KEY_BYTES))
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
        key = path.read_bytes()
    except (OSError, RuntimeError):   # RuntimeError: no home directory
        return secrets.token_bytes(KEY_BYTES)
    return key if len(key) == KEY_BYTES else secrets.token_bytes(KEY_BYTES)


def tag(parts: Sequence[str]) -> str:
    """The record of exactly these parts (each a hash or a name), under this machine's key."""
    try:
        where = state_dir()
    except RuntimeError:
        where = Path("/nonexistent")
    message = "\0".join(parts).encode("utf-8")
    return hmac.new(_key(where), message, hashlib.sha256).hexdigest()


def remember(record: Path, parts: Sequence[str]) -> None:
    """Write the record (after the checks passed): atomically, so a reader sees all or nothing."""
    record.parent.mkdir(parents=True, exist_ok=True)
    tmp = record.with_name(record.name + ".tmp")
    tmp.write_text(tag(parts))
    os.replace(tmp, record)


def holds(record: Path, parts: Sequence[str]) -> bool:
    """Whether the record says these exact parts were checked on this machine."""
    try:
        text = record.read_text()
    except (OSError, UnicodeDecodeError):
        return False
    return hmac.compare_digest(text.strip(), tag(parts))


def forget(record: Path) -> None:
    record.unlink(missing_ok=True)
