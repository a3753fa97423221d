"""Where the Coq library is compiled: the package's folder when writable, else a copy in the
per-user cache ($XDG_CACHE_HOME/obligations/, default ~/.cache), one per library version."""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from obligations.certify.outcome import Settings
from obligations.core import library_location as L
from obligations.core.resources import THEORIES


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A small library laid out as the package's: _CoqProject, a file in a subfolder, a .vo."""
    p = tmp_path / "site-packages" / "obligations" / "theories"
    (p / "Core").mkdir(parents=True)
    (p / "_CoqProject").write_text("-Q . Obligations\nCore/A.v\n")
    (p / "Core" / "A.v").write_text("(** * A *)\nDefinition a := 1.\n")
    (p / "Core" / "A.vo").write_bytes(b"compiled")
    return p


def read_only(p: Path) -> None:
    for f in [p, *p.rglob("*")]:
        f.chmod(f.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def test_a_writable_package_compiles_in_place(package: Path, tmp_path: Path) -> None:
    assert L.library_dir(package, {"XDG_CACHE_HOME": str(tmp_path / "cache")}) == package
    assert not (tmp_path / "cache").exists()


def test_a_read_only_package_is_copied_to_the_xdg_cache(package: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    lib = L.library_dir(package, {"XDG_CACHE_HOME": str(cache)}, writable=lambda p: False)
    assert lib.parent == cache / "obligations" and lib.name.startswith("theories-")
    assert (lib / "_CoqProject").read_text() == (package / "_CoqProject").read_text()
    assert (lib / "Core" / "A.v").read_text() == (package / "Core" / "A.v").read_text()
    # a shipped .vo keeps its time: not older than its source, so not compiled again
    assert (lib / "Core" / "A.vo").stat().st_mtime == (package / "Core" / "A.vo").stat().st_mtime
    assert L.can_write(lib)
    # the next run finds the copy; a changed library gets a folder of its own
    assert L.library_dir(package, {"XDG_CACHE_HOME": str(cache)}, writable=lambda p: False) == lib
    (package / "Core" / "A.v").write_text("(** * A *)\nDefinition a := 2.\n")
    other = L.library_dir(package, {"XDG_CACHE_HOME": str(cache)}, writable=lambda p: False)
    assert other != lib and "a := 2" in (other / "Core" / "A.v").read_text()
    assert [p.name for p in (cache / "obligations").iterdir() if p.name.startswith(".")] == []   # no staging left


def test_without_xdg_cache_home_the_cache_is_under_home(tmp_path: Path) -> None:
    assert L.cache_home({"HOME": str(tmp_path)}) == tmp_path / ".cache"
    assert L.cache_home({"HOME": str(tmp_path), "XDG_CACHE_HOME": "relative/ignored"}) == tmp_path / ".cache"
    assert L.cache_home({"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "c")}) == tmp_path / "c"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write to a folder without w bits")
def test_a_chmod_read_only_copy_of_the_package_is_not_writable(package: Path, tmp_path: Path) -> None:
    read_only(package)
    try:
        assert not L.can_write(package)
        lib = L.library_dir(package, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
        assert lib.is_relative_to(tmp_path / "cache") and L.can_write(lib)
    finally:
        for f in [package, *package.rglob("*")]:
            f.chmod(f.stat().st_mode | stat.S_IWUSR)


def test_a_subfolder_without_write_access_makes_the_package_read_only(package: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.access
    monkeypatch.setattr(L.os, "access", lambda p, mode: real(p, mode) and Path(p).name != "Core")
    assert not L.can_write(package)


def test_settings_use_the_package_library_in_a_checkout() -> None:
    assert Settings().theories == THEORIES      # this checkout is writable: nothing is copied


def test_the_real_library_copies_whole(tmp_path: Path) -> None:
    lib = L.library_dir(THEORIES, {"XDG_CACHE_HOME": str(tmp_path)}, writable=lambda p: False)
    wanted = [ln.strip() for ln in (THEORIES / "_CoqProject").read_text().splitlines() if ln.strip().endswith(".v")]
    assert wanted and all((lib / v).read_bytes() == (THEORIES / v).read_bytes() for v in wanted)
    shutil.rmtree(lib)
