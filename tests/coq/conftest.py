"""Every test of tests/coq runs real Coq: each is marked `coq` here, whatever its file says
(`pytest -m "not coq"` runs the rest).  One serial `prove` of a proof and a refutation is shared
by the tests that need honest certificates made now (`honest`), and one coqc run prints the
assumptions of the PLD and KOV library theorems (`pld_assumptions`)."""
from __future__ import annotations

import fcntl
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import inprocess
import pytest
from coqrun import assumption_blocks, coqc, tuple_audit
from shipped import shared_root

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# A proof and a refutation, without their profiles (plain specs: two claims, the cheapest pair).
HONEST_SPECS = (REPO / "mechanisms" / "randomized_response.yaml", REPO / "tests" / "specs" / "rr_tightened.yaml")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.coq)


def _once(root: Path, make: Callable[[Path], subprocess.CompletedProcess[str]]) -> subprocess.CompletedProcess[str]:
    """`make(root)`, run by the first xdist worker that asks; the other waits on the lock, then
    reads what it printed."""
    root.mkdir(parents=True, exist_ok=True)
    record = root / "run.json"
    with open(root.parent / f"{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            done = make(root)
            record.write_text(json.dumps({"returncode": done.returncode, "stdout": done.stdout,
                                          "stderr": done.stderr}))
    run = json.loads(record.read_text())
    return subprocess.CompletedProcess(["obligations"], run["returncode"], run["stdout"], run["stderr"])


def _honest_run(root: Path) -> subprocess.CompletedProcess[str]:
    """`prove root/specs --out root/serial`, the specs written first."""
    specs = root / "specs"
    specs.mkdir(exist_ok=True)
    for src in HONEST_SPECS:
        text = src.read_text()
        (specs / src.name).write_text(text[:text.index("profile:")] if "profile:" in text else text)
    out = root / "serial"
    return inprocess.cli("prove", str(specs), "--out", str(out), "--build", str(out / "build"))


@pytest.fixture(scope="session")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Honest certificates of a proved and a refuted claim, made once for the whole run by one
    serial `prove` of `ROOT/specs` into `ROOT/serial` (returned, with what it printed): the
    certificates test_tamper.py copies to tamper with, and the run test_jobs.py compares
    `--jobs 2` and `--cluster` with (their output folders beside it, `ROOT/NAME`, so the spec
    paths the certificates record agree).  Read it, never write in `ROOT/serial`."""
    root = shared_root(tmp_path_factory) / "honest"
    run = _once(root, _honest_run)
    assert run.returncode == 1, run.stdout + run.stderr   # one refuted
    return root / "serial", run


# The library theorems whose assumptions test_pld_certify.py and test_kov_certify.py audit: the
# exact statements (real numbers' axioms only) and their interval evaluations (floats), each
# group printed as one tuple (the union of its theorems' assumptions: one traversal of what they
# share, 5 s of CPU where one print per theorem took 12).
PLD_THEOREMS = {"exact": ("hs_power_pld", "dp_power_kov"), "floats": ("dp_power_pld2", "dp_power_kov_check")}


def _pld_audit(root: Path) -> subprocess.CompletedProcess[str]:
    return coqc(root, "audit", "From Obligations Require Import PreludePLD.\nSet Printing Width 100000.\n"
                + "".join(tuple_audit(group) for group in PLD_THEOREMS.values()), logical="T")


@pytest.fixture(scope="session")
def pld_assumptions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """What `Print Assumptions` printed of each group of PLD_THEOREMS ("exact", "floats"; from its
    `Axioms:` on), in one coqc run for the whole test run."""
    done = _once(shared_root(tmp_path_factory) / "pld_audit", _pld_audit)
    assert done.returncode == 0, done.stderr
    blocks = assumption_blocks(done.stdout)
    assert len(blocks) == len(PLD_THEOREMS), done.stdout[-2000:]
    return dict(zip(PLD_THEOREMS, blocks, strict=True))


@pytest.fixture()
def no_goal_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed compile's verdict and message without the goal replayed at the failure: after
    coqc refuses a file, `prove` replays it in an IDE session up to the failing sentence to
    print the goal left open (certify/run.py's `_goal_at_failure`, which gives up with None).
    For a test that asserts only what coqc refused, on a file whose failure comes after a long
    compile, the replay doubled its CPU (8 s of CPU for test_laplace_all_k's false claim).  The
    replay is tested by tests/coq/test_session.py (`goal_at_failure`), the goal in a failed
    prove's outcome by tests/coq/test_audit.py (`test_failed_proof_reports_the_lemma`), and it
    still runs in every other failed prove of the suite."""
    from obligations.certify import run
    monkeypatch.setattr(run, "_goal_at_failure", lambda *_: None)
