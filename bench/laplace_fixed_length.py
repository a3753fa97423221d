"""Continuous Laplace noise at a fixed stream length: what a generated proof costs.

    python bench/laplace_fixed_length.py [SPEC]

Proves SPEC (default mechanisms/above_threshold_laplace_k1.yaml: AboveThreshold on one answer,
`rdp_prog` by the generic tactics alone, RealSym.v for the aligned run, FiberSym.v for the
measurable pieces) with `obligations prove` into a scratch folder, so nothing is reused, and
prints the verdict, coqc's and coqchk's seconds as the certificate records them, the CPU of
the whole run and the audited assumptions.  It asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO / "mechanisms" / "above_threshold_laplace_k1.yaml"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", type=Path, default=SPEC)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)
        done = subprocess.run([sys.executable, "-m", "obligations", "prove", str(args.spec), "--out", str(out),
                               "--build", str(out / "build"), "--json"], cwd=REPO, capture_output=True, text=True)
        cpu = _cpu()
        try:
            (result,) = json.loads(done.stdout)["results"]
        except (ValueError, KeyError):
            print(f"prove: exit {done.returncode}\n{done.stderr[-2000:]}")
            return 1
        timings = result.get("timings") or {}
        print(f"{result['name']}: {result['verdict']}, exit {done.returncode}; coqc {timings.get('coqc', 0):.1f} s, "
              f"coqchk {timings.get('coqchk', 0):.1f} s; the whole prove {cpu:.1f} s CPU")
        record = out / f"{result['name']}.json"
        if record.exists():
            assumptions = json.loads(record.read_text())["assumptions"]
            print(f"assumptions: {len(assumptions)} ({', '.join(sorted(assumptions))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
