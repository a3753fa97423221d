"""Streaming CW-privacy by the composition theorem with the accountant, against K: 5-ary
randomized response (keep 3/5), priors 1/2, 1/2 on {0, 1} against {2, 3}, released K times on
the same database (table/by_stream_theorem.py, theories/Accountant/CWStreamAcc.v).

    .venv/bin/python bench/cw_stream_theorem.py [--runs 20,200,1000] [--workdir build/bench_cw_theorem]

For each K: the ε whose theorem bound is near 10^-2.5 (the accountant's upper bound over the 8
ordered support pairs, rounded up to 4 digits as the claim's δ), then `obligations prove` and
`obligations verify` (coqc, and coqchk of the one file) under /usr/bin/time; beside them the
class route's size (C(K + 4, 4) classes, the 5^K-row table) and, where the classes are few
enough for Python, the same database's exact δ(ε).  Target (issue 34): the theorem's bound
certified for K = 1000.  It asserts nothing; the raw figures go to WORKDIR/cw_stream_theorem.json.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from obligations.analysis import accountant as acc  # noqa: E402
from obligations.analysis import cw_stream  # noqa: E402
from obligations.table.by_stream_theorem import support_pairs  # noqa: E402

ROWS = [[Fraction(17, 25) if x == y else Fraction(2, 25) for y in range(5)] for x in range(5)]
PRIOR = (Fraction(1, 2), Fraction(1, 2), Fraction(0), Fraction(0), Fraction(0))
ALT = (Fraction(0), Fraction(0), Fraction(1, 2), Fraction(1, 2), Fraction(0))
TARGET = 10 ** -2.5
EXACT_CLASSES = 20_000           # Python's exact delta by classes up to this many


def spec(k: int, eps: int, delta: Fraction) -> dict[str, Any]:
    labels = [str(i) for i in range(5)]
    return {"schema_version": 1, "name": f"rr5_cw_theorem_k{k}", "description": f"rr5, {k} runs, same database",
            "inputs": labels, "outputs": labels,
            "table": {str(x): [str(q) for q in row] for x, row in enumerate(ROWS)},
            "cw": {"prior": {"0": "1/2", "1": "1/2"}, "alt_prior": {"2": "1/2", "3": "1/2"}},
            "neighbours": "all", "claim": {"epsilon": str(eps), "delta": str(delta)},
            "composition": {"runs": k, "same_database": True}}


def timed(cmd: list[str]) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """The command's result, wall seconds and peak RSS in MB."""
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - start
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    return done, wall, int(rss.group(1)) / 1024 if rss else math.nan


def one(k: int, work: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    a = acc.accountant(ROWS, support_pairs(PRIOR, ALT), k)
    eps = next(e for e in range(1, 20 * k) if a.upper(e) <= TARGET)
    up = a.upper(eps)
    delta = Fraction(math.ceil(up * 1.0001 * 10 ** 4 * 10 ** -math.floor(math.log10(up))),
                     10 ** (4 - math.floor(math.log10(up))))
    analysis_s = time.perf_counter() - t0
    classes = cw_stream.class_bound(5, k)
    exact = None
    if classes <= EXACT_CLASSES:
        exact = float(max(cw_stream.stream_delta(ROWS, list(PRIOR), list(ALT), k, mpmath.mpf(eps))))
    path = work / f"rr5_cw_theorem_k{k}.yaml"
    path.write_text(yaml.safe_dump(spec(k, eps, delta), sort_keys=False))
    out = work / f"out_k{k}"
    proved, prove_s, prove_mb = timed([sys.executable, "-m", "obligations", "prove", str(path), "--out", str(out),
                                       "--build", str(work / f"build_k{k}"), "--json"])
    verdict = json.loads(proved.stdout)["results"][0]["verdict"] if proved.stdout.strip() else "error"
    verified, verify_s, verify_mb = timed([sys.executable, "-m", "obligations", "verify",
                                           str(out / f"rr5_cw_theorem_k{k}.json"), "--build",
                                           str(work / f"vbuild_k{k}")])
    return {"runs": k, "epsilon": eps, "delta_claim": str(delta), "theorem_upper": up, "exact_same_database": exact,
            "classes": classes, "analysis_s": round(analysis_s, 2), "verdict": verdict,
            "prove_exit": proved.returncode, "prove_s": round(prove_s, 1), "prove_mb": round(prove_mb),
            "verify_exit": verified.returncode, "verify_s": round(verify_s, 1), "verify_mb": round(verify_mb)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="20,200,1000")
    ap.add_argument("--workdir", default="build/bench_cw_theorem")
    args = ap.parse_args()
    work = REPO / args.workdir
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    print(f"{'K':>5} {'eps':>5} {'delta claimed':>14} {'theorem up':>11} {'exact':>9} {'classes':>12} "
          f"{'verdict':>8} {'prove s':>8} {'MB':>5} {'verify s':>9} {'MB':>5}")
    for k in (int(r) for r in args.runs.split(",")):
        r = one(k, work)
        rows.append(r)
        exact = "-" if r["exact_same_database"] is None else f"{r['exact_same_database']:.6f}"
        print(f"{k:>5} {r['epsilon']:>5} {r['delta_claim']:>14} {r['theorem_upper']:>11.6g} {exact:>9} "
              f"{r['classes']:>12} {r['verdict']:>8} {r['prove_s']:>8} {r['prove_mb']:>5} "
              f"{r['verify_s']:>9} {r['verify_mb']:>5}", flush=True)
    (work / "cw_stream_theorem.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
