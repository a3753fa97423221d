"""The K-fold composition of the truncated 1/2-geometric over {0..n}, certified from both sides
by its privacy-loss distribution (theories/Finite/PLD.v, PLDCheck.v, PLDTwo.v), no product table.

    python bench/composition_pld.py [--runs 1000] [--n 100] [--eps 200 250 277 300 350]
                                    [--b 2] [--digits 3] [--workdir build/bench_pld]

Renders one Coq file (obligations/kinds/finite/pld.py) stating, at each ε, (ε, upper)-DP of
`fmech_power M K` and the refutation of (ε, lower) with its witness pair and event, where
[lower, upper] brackets the exact δ(ε) to --digits significant digits; compiles it with coqc
and re-checks it with coqchk, each under /usr/bin/time -v, and prints wall/CPU seconds and
peak memory beside the issue's target (1000-fold at 5 values of ε in ≤ 60 s) and the
measured figures of the lost branch (coqc 18–25 s, coqchk 4.5–6 min and 10 GB).  It asserts
nothing; the raw figures go to WORKDIR/composition_pld.json.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from obligations.core.resources import THEORIES  # noqa: E402
from obligations.table.pld import claims_for, render_tgeom_power  # noqa: E402


def timed(cmd: list[str], cwd: Path) -> dict[str, object]:
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    def field(label: str) -> float:
        m = re.search(rf"{label}: ([0-9.]+)", done.stderr)
        return float(m.group(1)) if m else float("nan")
    return {"ok": done.returncode == 0, "wall_s": round(wall, 2),
            "cpu_s": round(field("User time \\(seconds\\)") + field("System time \\(seconds\\)"), 2),
            "peak_mb": round(field("Maximum resident set size \\(kbytes\\)") / 1024),
            "tail": (done.stdout + done.stderr)[-600:] if done.returncode else ""}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--b", type=int, default=2, help="alpha = 1/b (b = 3, n = 1: randomized response 3/4)")
    ap.add_argument("--eps", type=int, nargs="+", default=[200, 250, 277, 300, 350])
    ap.add_argument("--digits", type=int, default=3)
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench_pld")
    a = ap.parse_args()
    a.workdir.mkdir(parents=True, exist_ok=True)
    name = f"tgeom_b{a.b}_n{a.n}_power_{a.runs}"
    claims = claims_for(Fraction(1, a.b), a.runs, a.eps, a.digits)
    (a.workdir / f"{name}.v").write_text(render_tgeom_power(name, Fraction(1, a.b), a.n, a.runs, claims))
    for c in claims:
        print(f"eps = {c.eps:>4}: proved delta <= {float(c.upper):.6g}, refuted delta = {float(c.lower):.6g}")
    lib = ["-Q", str(THEORIES), "Obligations", "-Q", str(a.workdir), "Bench"]
    coqc = timed(["coqc", *lib, f"{name}.v"], a.workdir)
    chk = timed(["coqchk", "-silent", "-o", *lib, "-norec", f"Bench.{name}"], a.workdir) if coqc["ok"] else {}
    print(f"\n{a.runs}-fold truncated 1/{a.b}-geometric over {{0..{a.n}}}, {len(claims)} values of eps, "
          f"both sides ({2 * len(claims)} theorems):")
    for label, r in (("coqc", coqc), ("coqchk", chk)):
        if r:
            print(f"  {label:7s} ok={r['ok']}  wall {r['wall_s']:7.1f} s  cpu {r['cpu_s']:7.1f} s  "
                  f"peak {r['peak_mb']:6d} MB" + (f"\n{r['tail']}" if r["tail"] else ""))
    if chk:
        total = float(coqc["wall_s"]) + float(chk["wall_s"])
        print(f"  coqc + coqchk wall {total:.1f} s   (target: 1000-fold, 5 eps, <= 60 s; "
              f"lost branch: coqc 18-25 s + coqchk 4.5-6 min, 10 GB, one eps)")
    (a.workdir / "composition_pld.json").write_text(json.dumps(
        {"runs": a.runs, "n": a.n, "claims": [[c.eps, str(c.upper), str(c.lower)] for c in claims],
         "coqc": coqc, "coqchk": chk}, indent=2))


if __name__ == "__main__":
    main()
