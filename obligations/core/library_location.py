"""Where the Coq library is compiled: in the package itself when this user may write there
(a checkout, an editable or user install), else in a copy in the per-user cache
(`$XDG_CACHE_HOME/obligations/`, default `~/.cache/obligations/`), so that a wheel in a
read-only site-packages compiles its library once per user and library version."""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from obligations.core.resources import THEORIES


def library_dir(package: Path = THEORIES, environ: Mapping[str, str] | None = None,
                writable: Callable[[Path], bool] | None = None) -> Path:
    """The library folder coqc compiles in: `package` if writable, else its copy in the cache."""
    if (writable or can_write)(package):
        return package
    home = cache_home(os.environ if environ is None else environ)
    target = home / "obligations" / f"theories-{source_digest(package)[:16]}"
    if not (target / "_CoqProject").is_file():
        _copy(package, target)
    return target


def can_write(package: Path) -> bool:
    """Whether coqc can put its .vo files next to every source (every folder writable)."""
    folders = {package, *(p.parent for p in package.rglob("*.v"))}
    return all(os.access(d, os.W_OK) for d in folders)


def cache_home(environ: Mapping[str, str]) -> Path:
    """The XDG base directory for caches: $XDG_CACHE_HOME if absolute, else ~/.cache."""
    given = environ.get("XDG_CACHE_HOME", "")
    if given and Path(given).is_absolute():
        return Path(given)
    return Path(environ.get("HOME") or Path.home()) / ".cache"


def source_digest(package: Path) -> str:
    """A hash of the library's sources: a changed library gets a new folder, never stale .vo."""
    h = hashlib.sha256()
    for f in sorted(package.rglob("*")):
        if f.is_file() and (f.suffix == ".v" or f.name == "_CoqProject"):
            h.update(f.relative_to(package).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _copy(package: Path, target: Path) -> None:
    """The sources (and any compiled files the package ships, with their times, so that they
    stay current), made writable, put in place at once: a run beside this one sees the whole
    copy or none."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".theories-", dir=target.parent))
    try:
        for f in package.rglob("*"):
            if f.is_file() and f.suffix in (".v", ".vo", ".vok", ".vos", ".glob") or f.name == "_CoqProject":
                dest = staging / f.relative_to(package)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, dest)
                dest.chmod(0o644)
        for d in [staging, *(p for p in staging.rglob("*") if p.is_dir())]:
            d.chmod(0o755)
        try:
            staging.rename(target)
        except OSError:            # another run put its copy there first
            if not (target / "_CoqProject").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
