"""Hand-written proofs under continuous Laplace noise: what each costs to compile.

    python bench/laplace_hand_proofs.py

Compiles bench/laplace/*.v (AboveThreshold on one answer proved by hand: the aligned run void or
good by RealAlignSteps.v's step lemmas, the measurable pieces by TapeFibers.v, then
`rdp_of_aligned`; and the Laplace mechanism on a count through `rdp_of_aligned` with the shift
"left input minus right input"; CheckDP's sparsevector for every stream length from its aligned
run being good alone, the measurable pieces by RunFibers.v) against the built library in a
scratch folder, in dependency order, and prints each file's coqc CPU and the assumptions its
`Print Assumptions` shows.  The same claims are proved with no hand-written step through `prove`
(mechanisms/above_threshold_laplace_k1.yaml, bench/laplace_fixed_length.py;
mechanisms/checkdp/sparsevector_laplace.yaml, bench/laplace_all_k.py).  It asserts nothing.
"""
from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
THEORIES = REPO / "obligations" / "theories"
FILES = ["above_threshold_one_query_steps.v", "above_threshold_one_query_dp.v",   # dependency order
         "laplace_mechanism_aligned.v", "sparsevector_all_k_pieces.v"]


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        for name in FILES:
            shutil.copy(REPO / "bench" / "laplace" / name, work / name)
        for name in FILES:
            before = _cpu()
            done = subprocess.run(["coqc", "-Q", str(THEORIES), "Obligations", "-Q", str(work), "Certs", name],
                                  cwd=work, capture_output=True, text=True)
            spent = _cpu() - before
            if done.returncode != 0:
                print(f"{name}: coqc failed after {spent:.1f} s CPU\n{done.stderr[-2000:]}")
                return 1
            printed = done.stdout[done.stdout.find("Axioms:"):] if "Axioms:" in done.stdout else "(none printed)"
            print(f"{name}: coqc {spent:.1f} s CPU; {' '.join(printed.split())[:400]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
