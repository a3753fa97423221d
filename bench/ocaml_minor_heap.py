"""OCaml's minor heap for coqc: CPU seconds and the garbage collector's promoted words of
library files compiled with OCaml's default minor heap and with a larger one
(OCAMLRUNPARAM=s=4M: measured, not adopted, docs/benchmarks.md), cold, one at a time, each in
a fresh directory.  Prints figures; asserts nothing.

    python bench/ocaml_minor_heap.py [--rounds 2] [FILE.v ...]   (files relative to theories/)

Needs the library compiled (make theories): each file is compiled against it.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import tempfile
from pathlib import Path

THEORIES = Path(__file__).resolve().parents[1] / "obligations" / "theories"
FILES = ["Laplace/LaplaceMass.v", "Laplace/TapeMeasure.v", "Float/SnapRatio.v", "Coupling/Relational.v",
         "Core/Sums.v"]
SETTINGS = {"OCaml's default": "v=0x400", "s=4M": "s=4M,v=0x400"}


def compile_once(file: str, param: str) -> tuple[float, int]:
    """CPU seconds (user + sys) of one cold coqc of `file`, and the words it promoted."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / Path(file).with_suffix(".vo").name
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(["coqc", "-q", "-Q", str(THEORIES), "Obligations", str(THEORIES / file),
                               "-o", str(out)], env={**os.environ, "OCAMLRUNPARAM": param},
                              capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    promoted = re.search(r"promoted_words: (\d+)", done.stderr)
    return cpu, int(promoted.group(1)) if promoted else -1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("files", nargs="*", default=FILES)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    totals = dict.fromkeys(SETTINGS, 0.0)
    for file in args.files:
        row = []
        for name, param in SETTINGS.items():
            runs = [compile_once(file, param) for _ in range(args.rounds)]
            cpu = min(c for c, _ in runs)
            totals[name] += cpu
            row.append(f"{name}: {cpu:6.2f} s, {runs[0][1] / 1e6:6.1f} M words promoted")
        print(f"{file:28} " + " | ".join(row))
    print("total (best of rounds): " + ", ".join(f"{n} {t:.1f} s" for n, t in totals.items()))


if __name__ == "__main__":
    main()
