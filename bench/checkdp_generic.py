"""The generic alignment route on CheckDP's and ShadowDP's private programs, end to end.

    python bench/checkdp_generic.py [--programs sparsevector noisymax ...] [--workdir build/bench_checkdp]

For each program (mechanisms/checkdp/NAME.yaml; the two outside the peers' benchmarks,
mechanisms/NAME.yaml) the spec is proved cold (a fresh build
directory, no certificate cache: the search of the shifts, the invariant's mining, coqc and
coqchk of the generated file, the audit), then `verify` re-checks the certificate
(re-render, coqc, coqchk).  Wall seconds and the CPU seconds of the child processes
(user + sys: the machine is shared, so wall time varies with its load) are printed per
program, with the route's stages as the certificate records them, and the alignment found.
The raw figures go to WORKDIR/checkdp_generic.json.  The Coq library is built beforehand
(`make theories`) and its one-off coqchk marker is warm.  It asserts nothing.

The peers' figures are not re-measured; each row prints the published figure that covers
the program (`PUBLISHED`).  CheckDP (Wang, Ding, Kifer, Zhang, CCS 2020, arXiv:2008.07485,
abstract) decides every program of its benchmark (its repository's examples/*.c,
cmla-psu/checkdp) "within 70 seconds", uncertified (its proofs are checked by its own
verifier, not re-checkable by a proof assistant).  ShadowDP (Wang, Ding, Wang, Kifer,
Zhang, PLDI 2019, arXiv:1903.12254, abstract): "type checking and verification in total
takes at most 3 seconds" for each algorithm it evaluated, the case studies its repository
lists (cmla-psu/shadowdp, README: noisymax, sparsevector, numsparsevector, gapsparsevector,
partialsum, prefixsum, smartsum), checked by CPAchecker, uncertified.  The papers'
per-program tables were not retrievable here (searched: the two abstracts and their
mirrors, the two repositories' READMEs and benchmark scripts, which print no figures), so
the bound is the figure per program.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PROGRAMS = ("sparsevector", "noisymax", "svt_increasing", "svt_decreasing", "gapsparsevector",
            "numsparsevector", "adaptivesparsevector", "partialsum", "smartsum", "prefixsum", "svt_monotone")
# not the peers' programs: proved by the same route with no Coq written for them (mechanisms/NAME.yaml)
OUTSIDE = ("block_sums_all_k", "svt_first_gap_all_k")


# the published figure that covers each program (module docstring: where each comes from)
CHECKDP = "CheckDP ≤ 70 s (CCS 2020, abstract; uncertified)"
SHADOWDP = "ShadowDP ≤ 3 s (PLDI 2019, abstract; uncertified)"
PUBLISHED = {
    **{p: (CHECKDP,) for p in PROGRAMS if p not in ("prefixsum", "svt_monotone")},
    **{p: (CHECKDP, SHADOWDP) for p in ("sparsevector", "noisymax", "gapsparsevector", "numsparsevector",
                                         "partialsum", "smartsum")},
    "prefixsum": (SHADOWDP,),
}


def spec_path(name: str) -> str:
    return f"mechanisms/{name}.yaml" if name in OUTSIDE else f"mechanisms/checkdp/{name}.yaml"


def cli(*args: str) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds, the children's CPU seconds, the finished process."""
    c0 = os.times()
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "obligations", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=3600)
    c1 = os.times()
    cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
    return time.perf_counter() - t0, cpu, done


def one(name: str, work: Path) -> dict[str, Any]:
    out = work / name
    shutil.rmtree(out, ignore_errors=True)
    prove_s, prove_cpu, p = cli("prove", spec_path(name), "--out", str(out),
                                "--build", str(out / "build"), "--no-cache", "--json")
    result = json.loads(p.stdout)["results"][0] if p.stdout.strip() else {}
    verify_s, verify_cpu, v = cli("verify", str(out), "--build", str(out / "verify"))
    record = json.loads((out / f"{name}.json").read_text()) if (out / f"{name}.json").is_file() else {}
    return {"program": name, "verdict": result.get("verdict"), "prove_exit": p.returncode,
            "prove_s": round(prove_s, 1), "prove_cpu_s": round(prove_cpu, 1),
            "verify_s": round(verify_s, 1), "verify_cpu_s": round(verify_cpu, 1), "verify_ok": v.returncode == 0,
            "stages": record.get("timings_s", {}), "notes": result.get("notes", result.get("message", "")),
            "published": list(PUBLISHED.get(name, ()))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", nargs="+", default=[*PROGRAMS, *OUTSIDE], choices=[*PROGRAMS, *OUTSIDE])
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench_checkdp")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.programs:
        r = one(name, args.workdir)
        rows.append(r)
        print(f"{name:22s} {r['verdict']}: prove {r['prove_s']} s wall / {r['prove_cpu_s']} s CPU, verify "
              f"{r['verify_s']} s wall / {r['verify_cpu_s']} s CPU (re-check {'OK' if r['verify_ok'] else 'FAILED'}); "
              f"stages {r['stages']}; published: {'; '.join(r['published']) or 'none (not a peer program)'}",
              flush=True)
        (args.workdir / "checkdp_generic.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
