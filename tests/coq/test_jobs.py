"""Real Coq: `prove --jobs 2` gives what `prove` gives one file at a time: the same verdicts,
the same printed report (timings aside), the same certificates and Coq files (timings aside),
for a proof, refutations and a profile's points."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    return subprocess.run([sys.executable, "-m", "obligations", "prove", str(specs), "--out", str(where / "out"),
                           "--build", str(where / "build"), *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=1200)


def strip(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in VARYING}
    return [strip(v) for v in x] if isinstance(x, list) else x


def certificate(path: Path) -> Any:
    return strip(json.loads(path.read_text()))


def report(run: subprocess.CompletedProcess[str], where: Path) -> list[str]:
    """The printed report without the seconds column and the run's own directory."""
    return [re.sub(r"\s+[0-9.]+$", "", line.replace(str(where), "DIR")) for line in run.stdout.splitlines()]


def test_parallel_run_reports_and_certifies_exactly_what_a_serial_run_does(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name in ("geometric_buggy_table.yaml", "rr_eps1_delta0.yaml"):
        shutil.copy(REPO / "tests" / "specs" / name, specs / name)
    (specs / "rr_jobs.yaml").write_text(RR_PROFILE)
    serial = prove(specs, tmp_path / "serial")
    parallel = prove(specs, tmp_path / "parallel", "--jobs", "2")
    assert serial.returncode == parallel.returncode == 1, serial.stdout + serial.stderr   # refutations
    assert report(serial, tmp_path / "serial") == report(parallel, tmp_path / "parallel")
    assert "1 proved, 2 refuted" in serial.stdout
    assert "profiles: 1 of 1 certified tight at every requested point" in serial.stdout
    made = sorted(p.name for p in (tmp_path / "serial" / "out").iterdir())
    assert made == sorted(p.name for p in (tmp_path / "parallel" / "out").iterdir())
    assert len([n for n in made if n.endswith(".json")]) == 3 + 2   # rr_jobs at ln 2: ub and lb
    for name in made:
        a, b = tmp_path / "serial" / "out" / name, tmp_path / "parallel" / "out" / name
        if name.endswith(".json"):
            assert certificate(a) == certificate(b), name
        else:
            assert a.read_text() == b.read_text(), name
