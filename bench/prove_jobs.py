"""`prove mechanisms/` from nothing, one file at a time against `--jobs N`.

    python bench/prove_jobs.py [--jobs 2] [--specs mechanisms]

Each run starts with empty certificate and build directories (the Coq library already
built), so every claim and every profile point is discharged, compiled and re-checked;
the library's own coqchk is done once before both runs so that neither pays for it.
Prints wall-clock and CPU seconds (children included) for both runs, the speed-up, and
whether the two runs reached the same verdicts and wrote the same certificates (timings
aside). Files go to build/bench/jobs/ (git-ignored). The issue's target: `make prove` from
nothing <= 3 min on 2 cores."""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "build" / "bench" / "jobs"
VARYING = {"timings_s", "peak_memory_kib", "certificate_sha256", "seconds"}   # "seconds": per obligation


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(specs: Path, where: Path, jobs: int) -> tuple[float, float, int]:
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    cpu0, t0 = children_cpu(), time.monotonic()
    done = subprocess.run([sys.executable, "-m", "obligations", "prove", str(specs), "--out", str(where / "out"),
                           "--build", str(where / "build"), "--jobs", str(jobs), "--json"],
                          cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    if done.returncode not in (0, 1):
        sys.exit(f"prove --jobs {jobs} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    (where / "result.json").write_text(done.stdout)
    return wall, cpu, done.returncode


def strip(x: object) -> object:
    """A certificate without what differs between any two runs (timings, memory, the hash of both)."""
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in VARYING}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def certificates(where: Path) -> dict[str, object]:
    files = {p.name: strip(json.loads(p.read_text())) for p in sorted((where / "out").glob("*.json"))}
    files.update({p.name: p.read_text() for p in sorted((where / "out").glob("*.v"))})
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--specs", type=Path, default=REPO / "mechanisms")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from obligations.certify.outcome import Settings
    coq = Settings().coq()
    coq.build_theories()
    if not coq.library_checked():
        print("coqchk of the library (once, before both runs) ...", flush=True)
        coq.check([], True)
        coq.mark_library_checked()
    print(f"cores available: {len(os.sched_getaffinity(0))}; load average now: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    figures = {}
    for jobs in (1, args.jobs):
        wall, cpu, code = run(args.specs, WORK / f"jobs{jobs}", jobs)
        n = len(list((WORK / f"jobs{jobs}" / "out").glob("*.json")))
        figures[jobs] = wall
        print(f"--jobs {jobs}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, {n} certificates, exit {code}", flush=True)
    print(f"speed-up with --jobs {args.jobs}: {figures[1] / figures[args.jobs]:.2f}x "
          f"(target: make prove from nothing <= 180 s)")
    same = certificates(WORK / "jobs1") == certificates(WORK / f"jobs{args.jobs}")
    print("same certificates (timings aside):", "yes" if same else "NO")


if __name__ == "__main__":
    main()
