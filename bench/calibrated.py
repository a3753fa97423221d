"""Tables calibrated with e^eps and neighbours at distance d: the seconds of each route.

    python bench/calibrated.py [--timeout 600] [--workdir build/bench/calibrated]

Each spec is one `obligations prove --no-cache` process; its verdict, wall seconds and the
certificate's coqc and coqchk seconds and peak memory are printed.  Figures are printed,
never asserted (docs/calibrated.md).

- k-ary randomized response at eps = 1 (the library family krr_exp, no interval);
- the same table claimed (9/10, 0)-DP (refuted by rational brackets);
- the exponential mechanism over a 4 x 4 score table (proved by brackets), and claimed
  (1/2, 0)-DP (refuted);
- the truncated 1/2-geometric at distance 2: over {0..5} by its table, over {0..10000} by
  the library's tgeom_dp_distance_le;
- the geometric with alpha = e^(-1) by its parameters (GeomExp.v: rgeom) at n = 100 and
  n = 10 000 (the same seconds), and claimed (0.99, 0)-DP (refuted at output 0);
- the exponential mechanism by its scores (ExpMech.v: expmech, the claim 2*c*Delta), and
  claimed (1/2, 0)-DP (refuted by interval on two entries);
- delta > 0: k-ary RR claimed (9/10, 1/20) (the hockey-stick sum on the brackets) and
  (9/10, 1/50) (refuted on a set of outputs);
- formulas with exp values, tabulated: k-ary RR over 0..2 (the family krr_exp) and claimed
  (9/10, 0)-DP (refuted by brackets), the geometric with alpha = e^(-1) over 0..4 (brackets).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SPECS = [REPO / "mechanisms" / "krr_eps1.yaml",
         REPO / "tests" / "specs" / "calibrated" / "krr_eps1_claim_0_9.yaml",
         REPO / "mechanisms" / "exponential_mechanism.yaml",
         REPO / "tests" / "specs" / "calibrated" / "exponential_mechanism_claim_half.yaml",
         REPO / "tests" / "specs" / "distance" / "tgeom_distance2.yaml",
         REPO / "tests" / "specs" / "distance" / "tgeom_distance2_n10000.yaml",
         REPO / "mechanisms" / "geometric_eps1.yaml",
         REPO / "tests" / "specs" / "calibrated" / "geometric_eps1_n10000.yaml",
         REPO / "tests" / "specs" / "calibrated" / "geometric_eps1_claim_0_99.yaml",
         REPO / "mechanisms" / "exponential_mechanism_scores.yaml",
         REPO / "tests" / "specs" / "calibrated" / "exponential_mechanism_scores_claim_half.yaml",
         REPO / "tests" / "specs" / "calibrated" / "krr_eps1_delta.yaml",
         REPO / "tests" / "specs" / "calibrated" / "krr_eps1_claim_0_9_delta_1_50.yaml",
         REPO / "tests" / "specs" / "calibrated" / "krr_formula_k3.yaml",
         REPO / "tests" / "specs" / "calibrated" / "krr_formula_k3_claim_0_9.yaml",
         REPO / "tests" / "specs" / "calibrated" / "geometric_formula_eps1.yaml"]


def run(spec: Path, out: Path, timeout: float) -> str:
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "obligations", "prove", str(spec), "--no-cache", "--json",
                               "--out", str(out), "--build", str(out / "build")],
                              cwd=REPO, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"{spec.stem:36} timeout after {timeout:.0f} s"
    wall = time.perf_counter() - t0
    verdict = json.loads(done.stdout)["results"][0]["verdict"] if done.stdout.strip() else f"exit {done.returncode}"
    cert_path = out / f"{spec.stem}.json"
    cert = json.loads(cert_path.read_text()) if cert_path.exists() else {}
    t = cert.get("timings_s", {})
    mem = cert.get("peak_memory_kib") or {}
    peak = max(mem.values()) / 1024 if isinstance(mem, dict) and mem else float("nan")
    return (f"{spec.stem:36} {verdict:9} wall {wall:6.1f} s  coqc {t.get('coqc', float('nan')):5.1f} s  "
            f"coqchk {t.get('coqchk', float('nan')):5.1f} s  peak {peak:6.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench" / "calibrated")
    args = ap.parse_args()
    for spec in SPECS:
        print(run(spec, args.workdir / spec.stem, args.timeout), flush=True)


if __name__ == "__main__":
    main()
