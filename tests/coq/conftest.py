"""Every test of tests/coq runs real Coq: each is marked `coq` here, whatever its file says
(`pytest -m "not coq"` runs the rest).  One serial `prove` of a proof and a refutation is shared
by the tests that need honest certificates made now (`honest`)."""
from __future__ import annotations

import fcntl
import json
import subprocess
from pathlib import Path

import inprocess
import pytest
from shipped import shared_root

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# A proof and a refutation, without their profiles (plain specs: two claims, the cheapest pair).
HONEST_SPECS = (REPO / "mechanisms" / "randomized_response.yaml", REPO / "tests" / "specs" / "rr_tightened.yaml")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.coq)


def _honest_run(root: Path) -> subprocess.CompletedProcess[str]:
    """`prove root/specs --out root/serial` (the specs written first), run by the first xdist
    worker that asks; the other waits on the lock, then reads what it printed."""
    root.mkdir(parents=True, exist_ok=True)
    record = root / "run.json"
    with open(root.parent / f"{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            specs = root / "specs"
            specs.mkdir(exist_ok=True)
            for src in HONEST_SPECS:
                text = src.read_text()
                (specs / src.name).write_text(text[:text.index("profile:")] if "profile:" in text else text)
            out = root / "serial"
            done = inprocess.cli("prove", str(specs), "--out", str(out), "--build", str(out / "build"))
            record.write_text(json.dumps({"returncode": done.returncode, "stdout": done.stdout,
                                          "stderr": done.stderr}))
    run = json.loads(record.read_text())
    return subprocess.CompletedProcess(["obligations", "prove"], run["returncode"], run["stdout"], run["stderr"])


@pytest.fixture(scope="session")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Honest certificates of a proved and a refuted claim, made once for the whole run by one
    serial `prove` of `ROOT/specs` into `ROOT/serial` (returned, with what it printed): the
    certificates test_tamper.py copies to tamper with, and the run test_jobs.py compares
    `--jobs 2` and `--cluster` with (their output folders beside it, `ROOT/NAME`, so the spec
    paths the certificates record agree).  Read it, never write in `ROOT/serial`."""
    root = shared_root(tmp_path_factory) / "honest"
    run = _honest_run(root)
    assert run.returncode == 1, run.stdout + run.stderr   # one refuted
    return root / "serial", run
