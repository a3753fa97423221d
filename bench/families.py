"""Families against tables: the truncated alpha-geometric mechanism proved once for all
alpha and n, its instances by instantiation, and the same instances by their tables.

    python bench/families.py [--family-sizes 200 500 10000] [--table-sizes 50 200]
                             [--timeout 900] [--workdir build/bench/families]

1. `mechanisms/truncated_geometric_family.yaml` (symbolic alpha and n) with a fresh build
   directory (cold: nothing reused).
2. For each n in --family-sizes: mechanisms/truncated_geometric_formula.yaml with `n`
   changed and `route: family` (an instance of the library theorem, no table).
3. For each n in --table-sizes: the same spec with `route: table` (Coq computes the
   table from the formula and checks it by reflection).  n = 500 by its table passes coqc
   in about 22 s, but coqchk runs past 900 s and 7 GB: add it only on a quiet machine.
4. The 3-fold randomized response at (ln 27, 0): basic composition, no product table.

Each is one `obligations prove --no-cache --json` (or `region --certify`) process; its wall
seconds and the certificate's coqc and coqchk seconds are printed next to the issue's
targets.  Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FORMULA = REPO / "mechanisms" / "truncated_geometric_formula.yaml"
FAMILY = REPO / "mechanisms" / "truncated_geometric_family.yaml"

TARGET_FAMILY_COLD = 30.0    # s, the family for all alpha, n, cold
TARGET_INSTANCE = 5.0        # s, an instance n = 200, 500, 10 000, warm


def instance(n: int, route: str, workdir: Path) -> Path:
    text = FORMULA.read_text()
    text = re.sub(r"(?m)^  n: 50$", f"  n: {n}", text)
    text = text.replace("name: truncated_geometric_formula", f"name: tgeom_{route}_n{n}")
    path = workdir / "specs" / f"tgeom_{route}_n{n}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + f"route: {route}\n")
    return path


def prove(argv: list[str], out: Path, timeout: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "obligations", *argv, "--out", str(out),
                               "--build", str(out / "build")], cwd=REPO, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"verdict": "timeout", "wall": time.perf_counter() - t0}
    wall = time.perf_counter() - t0
    certs = sorted(out.glob("*.json"), key=lambda p: p.stat().st_mtime)
    timings: dict[str, Any] = json.loads(certs[-1].read_text()).get("timings_s", {}) if certs else {}
    verdict = "proved" if done.returncode == 0 else f"exit {done.returncode}"
    return {"verdict": verdict, "wall": wall, "coqc": timings.get("coqc"), "coqchk": timings.get("coqchk"),
            "stderr": done.stderr[-400:] if done.returncode else ""}


def row(label: str, r: dict[str, Any], target: float | None) -> str:
    def s(v: Any) -> str:
        return f"{v:7.1f}" if isinstance(v, (int, float)) else f"{'-':>7}"
    goal = f"<= {target:.0f} s" if target else ""
    return f"{label:<44} {r['verdict']:<9} {s(r['wall'])} {s(r.get('coqc'))} {s(r.get('coqchk'))}  {goal}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family-sizes", type=int, nargs="*", default=[200, 500, 10000])
    ap.add_argument("--table-sizes", type=int, nargs="*", default=[50, 200])
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench" / "families")
    args = ap.parse_args()
    work: Path = args.workdir
    results: list[tuple[str, dict[str, Any], float | None]] = []
    r = prove(["prove", str(FAMILY), "--no-cache", "--json"], work / "family", args.timeout)
    results.append(("family, all alpha in (0,1), n >= 1 (cold)", r, TARGET_FAMILY_COLD))
    for n in args.family_sizes:
        r = prove(["prove", str(instance(n, "family", work)), "--no-cache", "--json"], work / f"family_{n}",
                  args.timeout)
        results.append((f"instance n = {n}, alpha = 1/2, by the family", r, TARGET_INSTANCE))
    for n in args.table_sizes:
        r = prove(["prove", str(instance(n, "table", work)), "--no-cache", "--json"], work / f"table_{n}",
                  args.timeout)
        results.append((f"instance n = {n}, alpha = 1/2, by its table", r, None))
    r = prove(["region", str(REPO / "mechanisms" / "randomized_response.yaml"), "--compose", "3",
               "--epsilon", "ln(27)", "--certify"], work / "basic", args.timeout)
    results.append(("RR 3-fold at (ln 27, 0), basic composition", r, None))
    print(f"{'':<44} {'verdict':<9} {'wall s':>7} {'coqc s':>7} {'coqchk':>7}  target")
    for label, r, target in results:
        print(row(label, r, target))
        if r.get("stderr"):
            print("   ", r["stderr"].strip().splitlines()[-1])
    (work / "families.json").write_text(json.dumps([{"label": lab, **r} for lab, r, _ in results], indent=1))


if __name__ == "__main__":
    main()
