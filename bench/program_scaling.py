"""Scaling benchmark for program specs (issue 4): how far the stream length k goes.

    python bench/program_scaling.py [--families online_model above_threshold ...]
                                    [--ks 1 2 3 4 5 6] [--budget 60] [--timeout 600]
                                    [--workdir build/bench_programs]

For each family (a program spec in mechanisms/ or tests/specs/programs/) and each
k in --ks, the spec with `k` set (no sweep; the claim is the tight eps the tool
finds, so the run is a proof, or a refutation when the supports differ) is
unfolded (the exact interpreter, then plan) and run through the pipeline with
Coq: coqc, then coqchk and the audit side by side, as `obligations prove` does.
Printed per row: k, the input domain, #inputs, #output sequences, the peak number
of interpreter states, the tight eps, and wall seconds of unfold (Python), coqc,
coqchk, audit and the whole run.  A family stops at the first k whose whole run
exceeds --budget seconds (default 60: "how far within a minute").  Figures go to
WORKDIR/program_scaling.json.  It asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from obligations.certify.outcome import Settings  # noqa: E402
from obligations.certify.run import prove, unfold  # noqa: E402
from obligations.errors import SpecError  # noqa: E402
from obligations.models import check  # noqa: E402
from obligations.program.analysis import program_table  # noqa: E402

FAMILIES = {
    "online_model": "mechanisms/online_model.yaml",
    "above_threshold": "mechanisms/above_threshold.yaml",
    "sparse_vector_lsl": "mechanisms/sparse_vector_lsl.yaml",
    "report_noisy_max": "mechanisms/report_noisy_max.yaml",
    "at_no_cutoff": "tests/specs/programs/above_threshold_no_cutoff.yaml",
}


def spec_at(path: str, k: int, epsilon: str) -> Any:
    data = yaml.safe_load((REPO / path).read_text())
    data.pop("sweep", None)
    data["parameters"]["k"] = k
    data["name"] = f"{data['name']}_k{k}"
    data["claim"] = {"epsilon": epsilon, "delta": "0"}
    return check(data, path, "bench")


def run(family: str, path: str, k: int, settings: Settings) -> dict[str, Any]:
    t0 = time.perf_counter()
    probe = spec_at(path, k, "0")
    u0 = unfold(probe)
    tight = u0.plan.tight_epsilon or "0"
    claim = tight if tight != "oo" else "1"
    spec = spec_at(path, k, claim)
    u = unfold(spec)
    unfold_s = time.perf_counter() - t0
    table = program_table(spec)
    o = prove(u, settings)
    comps = spec.program.components
    domain = " x ".join(f"{{{c.lo}..{c.hi}}}" + (f"^{c.length}" if c.length else "") for c in comps)
    return {"family": family, "k": k, "domain": domain, "inputs": len(u.mechanism.rows),
            "outputs": len(u.mechanism.outputs), "peak_states": table.peak_states,
            "tight_epsilon": tight, "verdict": o.verdict, "unfold_s": round(unfold_s, 2),
            "coqc_s": round(o.timings.get("coqc", 0), 2), "coqchk_s": round(o.timings.get("coqchk", 0), 2),
            "audit_s": round(o.timings.get("audit", 0), 2),
            "total_s": round(time.perf_counter() - t0, 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--families", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    ap.add_argument("--ks", nargs="+", type=int, default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--workdir", type=Path, default=Path("build/bench_programs"))
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    settings = Settings(build=args.workdir / "build", out=args.workdir / "certs", timeout=args.timeout,
                        use_cache=False)
    rows = []
    cols = ["family", "k", "domain", "inputs", "outputs", "peak_states", "tight_epsilon", "verdict",
            "unfold_s", "coqc_s", "coqchk_s", "audit_s", "total_s"]
    print("  ".join(cols), flush=True)
    for family in args.families:
        for k in args.ks:
            try:
                r = run(family, FAMILIES[family], k, settings)
            except SpecError as exc:
                print(f"{family} k={k}: refused: {exc}", flush=True)
                break
            rows.append(r)
            print("  ".join(str(r[c]) for c in cols), flush=True)
            if r["total_s"] > args.budget or r["verdict"] == "timeout":
                break
    (args.workdir / "program_scaling.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
