"""The Coq library's cold build (a fresh checkout, as on CI) against its warm rebuild.

    python bench/theories_cold.py [--rev HEAD] [--gap 1.0]

micromega (lra, nra, lia, nia) keeps its oracle's answers in the compiling directory
(.lra.cache, .nra.cache, ...; git-ignored): a rebuild where they exist skips the simplex
search, a fresh checkout runs every one. This clones --rev into an empty directory under
build/bench/theories_cold/ (git-ignored), builds the library there (cold: no caches), deletes
the .vo files and builds it again (warm: the caches the cold build left). Prints the user CPU
seconds of each file (from coq_makefile's TIMED=1) both ways, the totals, and the files whose
cold build exceeds the warm one by more than --gap seconds: the proofs to make explicit.
Figures, not assertions (2 shared cores: a second of noise per file is usual)."""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "build" / "bench" / "theories_cold"
TIMED = re.compile(r"^(\S+)\.vo \(real: [\d.]+, user: ([\d.]+),")


def build(clone: Path) -> dict[str, float]:
    out = subprocess.run(["nice", "make", "theories", "NPROC=1", "TIMED=1"], cwd=clone,
                         capture_output=True, text=True, check=True).stdout
    return {m.group(1): float(m.group(2)) for m in map(TIMED.match, out.splitlines()) if m}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--gap", type=float, default=1.0)
    args = parser.parse_args()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.parent.mkdir(parents=True, exist_ok=True)
    sha = subprocess.run(["git", "rev-parse", args.rev], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(REPO), str(WORK)], check=True)
    subprocess.run(["git", "checkout", "-q", sha], cwd=WORK, check=True)
    cold = build(WORK)
    for vo in (WORK / "obligations" / "theories").rglob("*.vo"):
        vo.unlink()
    warm = build(WORK)
    print(f"{'file':40s} {'cold':>7s} {'warm':>7s}")
    for name in sorted(cold, key=lambda n: -cold[n]):
        print(f"{name:40s} {cold[name]:7.2f} {warm.get(name, 0.0):7.2f}")
    print(f"{'total (user s)':40s} {sum(cold.values()):7.1f} {sum(warm.values()):7.1f}")
    slow = [n for n in cold if cold[n] - warm.get(n, 0.0) > args.gap]
    print("cold exceeds warm by more than", args.gap, "s:", ", ".join(slow) or "none")


if __name__ == "__main__":
    main()
