"""The certified ln table proved once: `prove` of the p = 8 snapping specs cold (empty
build: the shared table module is compiled and checked) and warm (the table reused).

    python bench/float_ln_cache.py [--specs mechanisms/snapping_p8_ties_up.yaml ...]

Runs, in an empty build directory under build/bench/ln_cache/ (git-ignored):
  1. cold: the first spec, `prove --no-cache` (the table module compiled and checked);
  2. warm: the same spec again, `prove --no-cache` (the certificate is proved again, the
     table module reused: its .v, .vo and marker are checked, not compiled);
  3. each further spec, warm (specs of the same format and sampler share one table).
Prints, per run, wall-clock and CPU seconds (children included) and the stages' seconds
the certificate records (shared_coqc only when the table was compiled; the table's coqchk is
in the file's coqchk run, in `coqchk`, since the two are checked together; shared_coqchk
only if it was checked alone).
The issue's targets, printed not asserted: p = 8, 2^12 points, <= 2 min cold, <= 30 s warm."""
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
WORK = REPO / "build" / "bench" / "ln_cache"
SPECS = ["mechanisms/snapping_p8_ties_up.yaml", "mechanisms/snapping_p8_ties_even.yaml"]
STAGES = ("unfold", "shared_coqc", "shared_coqchk", "coqc", "coqchk")


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def prove(spec: str) -> tuple[float, float, dict[str, float], str]:
    cpu0, t0 = children_cpu(), time.monotonic()
    done = subprocess.run([sys.executable, "-m", "obligations", "prove", spec, "--out", str(WORK / "out"),
                           "--build", str(WORK / "build"), "--json", "--no-cache"],
                          cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    if done.returncode not in (0, 1):
        sys.exit(f"prove {spec} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout)["results"][0]
    return wall, cpu, result["timings"], result["verdict"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--specs", nargs="+", default=SPECS)
    args = ap.parse_args()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    runs = [("cold", args.specs[0]), ("warm", args.specs[0])] + [("warm", s) for s in args.specs[1:]]
    print(f"{'run':5} {'spec':28} {'verdict':8} {'wall s':>7} {'cpu s':>7}  " + " ".join(f"{s:>13}" for s in STAGES))
    for label, spec in runs:
        wall, cpu, timings, verdict = prove(spec)
        stages = " ".join(f"{timings[s]:13.1f}" if s in timings else f"{'-':>13}" for s in STAGES)
        print(f"{label:5} {Path(spec).stem:28} {verdict:8} {wall:7.1f} {cpu:7.1f}  {stages}", flush=True)
    print("targets (issue 13, not asserted): cold <= 120 s, warm <= 30 s; load now:",
          " ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
