"""Real Coq: `prove --jobs 2`, and `prove --cluster` on a local Dask cluster of two worker
processes, give what `prove` gives one file at a time: the same verdicts, the same printed
report (timings aside), the same certificates and Coq files (timings aside), for a proof and a
profile's point (proved at its delta, refuted below it: a refutation).  The cluster's test is skipped when Dask's
`distributed` (the optional extra `cluster`) is not installed."""
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

RR_PROFILE = """\
schema_version: 1
name: rr_jobs
inputs: ["+", "-"]
outputs: ["Y", "N"]
table:
  "+": ["3/4", "1/4"]
  "-": ["1/4", "3/4"]
neighbours: all
claim: {epsilon: "ln(3)"}
profile: {epsilons: ["ln(2)"]}
"""


def prove(specs: Path, where: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return inprocess.cli("prove", str(specs), "--out", str(where / "out"), "--build", str(where / "build"), *extra)


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
def serial(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """The spec, and the serial run the others are compared with (once for both tests)."""
    where = tmp_path_factory.mktemp("jobs")
    specs = where / "specs"
    specs.mkdir()
    (specs / "rr_jobs.yaml").write_text(RR_PROFILE)
    run = prove(specs, where / "serial")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 proved" in run.stdout
    assert "profiles: 1 of 1 certified tight at every requested point" in run.stdout
    by_verdict = sorted(json.loads((where / "serial" / "out" / f).read_text())["verdict"]
                        for f in ("rr_jobs_eps_ln_2_ub.json", "rr_jobs_eps_ln_2_lb.json"))
    assert by_verdict == ["proved", "refuted"]
    return specs, where / "serial", run


def same_as_serial(serial: tuple[Path, Path, subprocess.CompletedProcess[str]], where: Path,
                   run: subprocess.CompletedProcess[str]) -> None:
    _, first, done = serial
    assert run.returncode == done.returncode, run.stdout + run.stderr
    assert report(done, first) == report(run, where)
    made = sorted(p.name for p in (first / "out").iterdir())
    assert made == sorted(p.name for p in (where / "out").iterdir())
    assert len([n for n in made if n.endswith(".json")]) == 1 + 2   # rr_jobs at ln 2: ub and lb
    for name in made:
        a, b = first / "out" / name, where / "out" / name
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
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        run = prove(serial[0], serial[1].parent / "cluster", "--cluster", cluster.scheduler_address)
    same_as_serial(serial, serial[1].parent / "cluster", run)
