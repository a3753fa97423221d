"""The class route with letters (table/by_stream.py, theories/Finite/TypeClass.v) against K:
m-ary randomized response (keep 3/5), the database's prior on input 0, the scrubbed one's on
input 1, released K times on the same database.  The outputs 2..m-1 agree on the supports'
rows: 3 letters, C(K + 2, 2) classes whatever m is (the m outputs' types: C(K + m - 1, m - 1)).

    .venv/bin/python bench/cw_stream_letters.py [--runs 12,50] [--outputs 8] [--workdir build/bench_cw_letters]

For each K: the exact δ at ε = K·ln 8 (Python, the same classes), the claim (K·ln 8, δ rounded up to 4
digits), then `obligations prove` and `obligations verify` (coqc, and coqchk of the one file)
under /usr/bin/time.  It asserts nothing; the raw figures go to WORKDIR/cw_stream_letters.json.
(The 5-ary example of docs/profiles.md, priors on {0, 1} against {2, 3}, keeps 5 letters:
C(K + 4, 4) classes, 316 251 at K = 50; letters do not shrink it.)
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cw_stream_theorem import timed  # noqa: E402  (bench/ is the script's folder)

from obligations.analysis import cw_stream  # noqa: E402


def rows(m: int) -> list[list[Fraction]]:
    keep, other = Fraction(3, 5) + Fraction(2, 5 * m), Fraction(2, 5 * m)
    return [[keep if x == y else other for y in range(m)] for x in range(m)]


def spec(m: int, k: int, delta: Fraction) -> dict[str, Any]:
    labels = [str(i) for i in range(m)]
    return {"schema_version": 1, "name": f"rr{m}_cw_letters_k{k}", "description": f"rr{m}, {k} runs, same database",
            "inputs": labels, "outputs": labels,
            "table": {str(x): [str(q) for q in row] for x, row in enumerate(rows(m))},
            "cw": {"prior": {"0": "1"}, "alt_prior": {"1": "1"}},
            "neighbours": "all", "claim": {"epsilon": f"{k}*ln(8)", "delta": str(delta)},
            "composition": {"runs": k, "same_database": True}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", default="12,50")
    ap.add_argument("--outputs", type=int, default=8)
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench_cw_letters")
    args = ap.parse_args()
    m, work = args.outputs, args.workdir
    work.mkdir(parents=True, exist_ok=True)
    prior = [Fraction(1)] + [Fraction(0)] * (m - 1)
    alt = [Fraction(0), Fraction(1)] + [Fraction(0)] * (m - 2)
    form = cw_stream.integer_form(rows(m), prior, alt)
    report = []
    for k in (int(r) for r in args.runs.split(",")):
        start = time.perf_counter()
        cls = cw_stream.classes(form, k)
        with mpmath.workdps(40):
            exact = max(cw_stream.hs_pair(cls, form, k, a, b, mpmath.mpf(8) ** k) for a, b in
                        ((form.u, form.u2), (form.u2, form.u)))
        python_s = time.perf_counter() - start
        delta = Fraction(math.ceil(float(exact) * 10 ** 4 * (1 + 1e-9)), 10 ** 4)
        path = work / f"rr{m}_cw_letters_k{k}.yaml"
        path.write_text(yaml.safe_dump(spec(m, k, delta), sort_keys=False))
        out = work / f"k{k}"
        proved, prove_s, prove_mb = timed([sys.executable, "-m", "obligations", "prove", str(path), "--out", str(out),
                                           "--build", str(out / "build")])
        cert = out / f"{path.stem}.json"
        verified, verify_s, verify_mb = timed([sys.executable, "-m", "obligations", "verify", str(cert),
                                               "--build", str(out / "vbuild")]) if cert.exists() else (None, 0.0, 0.0)
        row = {"K": k, "letters": len(form.letters), "classes": len(cls), "types": cw_stream.class_bound(m, k),
               "delta_exact": float(exact), "claim_delta": str(delta), "python_s": round(python_s, 2),
               "prove_rc": proved.returncode, "prove_s": round(prove_s, 1), "prove_mb": round(prove_mb),
               "verify_rc": None if verified is None else verified.returncode, "verify_s": round(verify_s, 1),
               "verify_mb": round(verify_mb)}
        print(json.dumps(row), flush=True)
        report.append(row)
    (work / "cw_stream_letters.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
