"""Real Coq: `prove --jobs 2`, and `prove --cluster` on a local Dask cluster of two worker
processes, give what `prove` gives one file at a time: the same verdicts, the same printed
report (timings aside), the same certificates and Coq files (timings aside), for a proof and a
refutation.  The serial run is the one test_tamper.py's honest certificates come from (`honest`,
tests/coq/conftest.py: randomized response proved, rr_tightened refuted), made once for the
suite.  The cluster's test is skipped when Dask's `distributed` (the optional extra `cluster`) is
not installed."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import inprocess
import pytest

REPO = Path(__file__).resolve().parent.parent.parent
VARYING = {"timings_s", "peak_memory_kib", "certificate_sha256", "seconds"}   # differ between any two runs


def prove(specs: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`prove` with the Coq files in `out/build`, as the serial run has them."""
    return inprocess.cli("prove", str(specs), "--out", str(out), "--build", str(out / "build"), *extra)


def strip(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in VARYING}
    return [strip(v) for v in x] if isinstance(x, list) else x


def certificate(path: Path) -> Any:
    return strip(json.loads(path.read_text()))


def report(run: subprocess.CompletedProcess[str], where: Path) -> list[str]:
    """The printed report without the seconds column and the run's own directory."""
    return [re.sub(r"\s+[0-9.]+$", "", line.replace(str(where), "DIR")) for line in run.stdout.splitlines()]


@pytest.fixture(scope="module")
def serial(honest: tuple[Path, subprocess.CompletedProcess[str]]
           ) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """The specs, and the serial run the others are compared with (shared with test_tamper.py)."""
    first, run = honest
    assert "1 proved" in run.stdout and "1 refuted" in run.stdout, run.stdout
    by_verdict = sorted(json.loads(f.read_text())["verdict"] for f in first.glob("*.json"))
    assert by_verdict == ["proved", "refuted"]
    return first.parent / "specs", first, run


def same_as_serial(serial: tuple[Path, Path, subprocess.CompletedProcess[str]], where: Path,
                   run: subprocess.CompletedProcess[str]) -> None:
    _, first, done = serial
    assert run.returncode == done.returncode, run.stdout + run.stderr
    assert report(done, first) == report(run, where)
    made = sorted(p.name for p in first.iterdir() if p.name != "build")
    assert made == sorted(p.name for p in where.iterdir() if p.name != "build")
    assert len([n for n in made if n.endswith(".json")]) == 2   # a proof and a refutation
    for name in made:
        a, b = first / name, where / name
        if name.endswith(".json"):
            assert certificate(a) == certificate(b), name
        else:
            assert a.read_text() == b.read_text(), name


def test_parallel_run_reports_and_certifies_exactly_what_a_serial_run_does(
        serial: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    where = serial[1].parent / "parallel"      # beside the serial run: the certificates' spec paths agree
    same_as_serial(serial, where, prove(serial[0], where, "--jobs", "2"))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cluster_of_two_workers_reports_and_certifies_what_prove_does(
        serial: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="the Dask route is the optional extra 'cluster' (pip install 'obligations[cluster]')")
    import dask
    # The workers forked from this process, not spawned: a spawned worker imports the package
    # and Dask again (~10 s CPU for two); the jobs still go to two other processes through the
    # scheduler, pickled, as on a real cluster.
    with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        run = prove(serial[0], serial[1].parent / "cluster", "--cluster", cluster.scheduler_address)
    same_as_serial(serial, serial[1].parent / "cluster", run)
