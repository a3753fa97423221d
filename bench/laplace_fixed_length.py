"""Continuous Laplace noise at a fixed stream length: what a generated proof costs.

    python bench/laplace_fixed_length.py [--timeout 900]

Compiles bench/laplace/above_threshold_spec_dp.v (AboveThreshold on one answer as a spec
lowers it, `rdp_prog` proved by the generic tactics alone: RealSym.v for the aligned run,
FiberSym.v for the measurable pieces) against the library (built first if needed), then
coqchk, and audits `Print Assumptions` against the allow-list.  Prints coqc and coqchk
CPU seconds and the verdict.  It asserts nothing; the template of `prove` (program/align/laplace.v.j2) generates
the same proof for a claim at one stream length.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from obligations.certify import allowlist  # noqa: E402
from obligations.prover.coq import Coq, assumption_names  # noqa: E402

THEORIES = REPO / "obligations" / "theories"
SOURCE = REPO / "bench" / "laplace" / "above_threshold_spec_dp.v"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args()
    coq = Coq(THEORIES)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        vfile = tmp / SOURCE.name
        shutil.copy(SOURCE, vfile)
        library = coq.closure_of_texts([vfile.read_text()])
        coq.build_theories(needed=library)
        c0, t0 = _cpu(), time.monotonic()
        done = subprocess.run(["coqc", *coq.load_path(), "-Q", str(tmp), "Certs", str(vfile)], cwd=tmp,
                              capture_output=True, text=True, timeout=args.timeout)
        c1, t1 = _cpu(), time.monotonic()
        print(f"coqc: exit {done.returncode}, {c1 - c0:.1f} s CPU, {t1 - t0:.1f} s wall")
        if done.returncode != 0:
            print(done.stderr[-2000:])
            return 1
        names = assumption_names(done.stdout[done.stdout.index("Axioms:"):].splitlines(), "at1s_dp")
        checked = coq.check([vfile], library)
        c2 = _cpu()
        why = "" if checked.status == "ok" else f": {checked.message}"
        print(f"coqchk: {checked.status}, {c2 - c1:.1f} s CPU{why}")
        full, unresolved = allowlist.full_names(names, checked.axioms)
        refused = allowlist.refused(full, uses_interval=False, uses_analysis=True)
        print(f"assumptions: {len(full)} ({', '.join(sorted(full))}); unresolved {unresolved}; refused {refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
