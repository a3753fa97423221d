"""Shared test setup: run from the repository root so spec paths are relative; the longest
files first; each shipped spec proved once for the whole run (`shipped_proof`)."""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from shipped import Proved, ShippedProofs, shared_root

REPO = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """Byte-code caches on for the run and the processes it starts: with PYTHONDONTWRITEBYTECODE
    set (CI's environment) and the venv installed by `pip --no-compile`, every process compiled
    sympy, numpy, pydantic and the package from source again (about 4 s of CPU each; 1.5 s
    with the caches), in each of the hundreds of CLI processes the tests start."""
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen-golden", action="store_true",
                     help="rewrite tests/golden/expected/ from the current renderer")


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


# The files that take longest, started first: with two workers and whole files per worker
# (`--dist loadfile`) a long file started last is the suite's tail.  (`make test` runs the
# files that need no Coq apart, while the library compiles and coqchk checks it, so no two
# Coq tests check the whole library at once.)
LONGEST_FIRST = ("test_tamper.py", "test_golden.py", "test_clamped_tight_epsilon.py", "test_check.py",
                 "test_hostile_limits.py", "test_certify.py", "test_wheel.py", "test_jobs.py",
                 "test_certify_programs.py", "test_cw_compose.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)   # stable: the order within a file is kept


@pytest.fixture(scope="session")
def shipped_proof(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Proved]:
    """`shipped_proof("snapping_clamped")`: mechanisms/snapping_clamped.yaml proved once for the
    whole run, whichever Coq test asks first (tests/shipped.py)."""
    return ShippedProofs(shared_root(tmp_path_factory) / "shipped").get
