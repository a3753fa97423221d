"""The shipped specs proved once for a whole test run, shared by the Coq tests that need
their certificates (fixture `shipped_proof` in tests/conftest.py)."""
from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import inprocess
import pytest

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Proved:
    """What `obligations prove mechanisms/NAME.yaml --json` gave.  Read it, never write in
    `out`: other tests share it (copy it to tamper with it)."""

    out: Path                              # the certificates (build/ inside: the Coq files)
    returncode: int
    results: dict[str, dict[str, Any]]     # each claim's outcome, by name
    stderr: str


def shared_root(factory: pytest.TempPathFactory) -> Path:
    """A directory every xdist worker of this run sees (the parent of the workers' own)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


class ShippedProofs:
    """Each spec proved by the first worker that asks; the other waits on a lock, then reads
    the recorded run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.seen: dict[str, Proved] = {}

    def get(self, name: str) -> Proved:
        if name not in self.seen:
            self.seen[name] = self._proved(name)
        return self.seen[name]

    def _proved(self, name: str) -> Proved:
        self.root.mkdir(parents=True, exist_ok=True)
        folder = self.root / name
        record = folder / "run.json"
        with open(self.root / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not record.exists():
                done = inprocess.cli("prove", str(REPO / "mechanisms" / f"{name}.yaml"),
                                       "--out", str(folder), "--build", str(folder / "build"), "--json")
                folder.mkdir(exist_ok=True)
                record.write_text(json.dumps({"returncode": done.returncode, "stdout": done.stdout,
                                              "stderr": done.stderr}))
        run = json.loads(record.read_text())
        try:
            results = {o["name"]: o for o in json.loads(run["stdout"])["results"]}
        except (ValueError, KeyError, TypeError):
            results = {}
        return Proved(folder, run["returncode"], results, run["stderr"] or run["stdout"][-3000:])
