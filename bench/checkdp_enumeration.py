"""The peers' private programs: the generic alignment route (every k, every eps) against the
enumeration route at k = 1..4, next to the peers' published bounds.

    python bench/checkdp_enumeration.py [--programs sparsevector noisymax ...] [--ks 1 2 3 4]
                                        [--budget 300] [--all-k FILE.json] [--workdir build/bench_checkdp_enum]

For each program, the all-k spec (mechanisms/checkdp/NAME.yaml) is proved cold and its
certificate re-checked, as bench/checkdp_generic.py does (or its figures are read from that
bench's JSON, `--all-k`).  Then its finite version (bench/checkdp_finite/NAME.yaml: the same
program with the noise truncated to a small range, every site the truncated 1/2-geometric
mechanism, answers in {0..2}, public values fixed, and the finite form's neighbours, every
answer within 1, which contains the peer's relation) is proved at each k in --ks at the
tight eps the tool finds for it (computed first, in this process, not timed), cold, and
its certificate re-checked: `prove` + `verify`, the CPU seconds (user + sys) of the two
commands and every process they waited for, as for the all-k route.  One all-k certificate
covers every k and every eps; each enumeration covers one k and one eps (the finite
program's tight one).  A program stops at the first k whose prove + verify exceeds
--budget CPU seconds.  svt_increasing and svt_decreasing have no finite version: the finite
form states only componentwise neighbours, and with the scales collapsed to one alpha their
programs are sparsevector's.  The peers' figures are not re-measured (bench/checkdp_generic.py
says where they come from).  The raw figures go to WORKDIR/checkdp_enumeration.json.  It
asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from checkdp_generic import PUBLISHED, cli  # noqa: E402
from checkdp_generic import one as all_k  # noqa: E402

from obligations.models import check, unfold  # noqa: E402

FINITE = REPO / "bench" / "checkdp_finite"
PROGRAMS = ("sparsevector", "noisymax", "gapsparsevector", "numsparsevector", "adaptivesparsevector", "partialsum",
            "smartsum", "prefixsum")


def finite_at(name: str, k: int, epsilon: str, folder: Path) -> Path:
    """The finite version at stream length k claiming `epsilon`, written to `folder`."""
    data = yaml.safe_load((FINITE / f"{name}.yaml").read_text())
    data["parameters"]["k"] = k
    data["name"] = f"{name}_finite_k{k}"
    data["claim"] = {"epsilon": epsilon, "delta": "0"}
    path = folder / f"{data['name']}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def tight(name: str, k: int, folder: Path) -> str:
    """The tight eps of the finite version at k (the exact interpreter; "oo": supports differ)."""
    path = finite_at(name, k, "0", folder)
    u = unfold(check(yaml.safe_load(path.read_text()), str(path), "bench"))
    eps = u.plan.tight_epsilon or "0"
    return eps if eps != "oo" else "1"


def enumeration(name: str, k: int, work: Path) -> dict[str, Any]:
    folder = work / f"{name}_k{k}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    eps = tight(name, k, folder)
    spec = finite_at(name, k, eps, folder)
    out = folder / "out"
    prove_s, prove_cpu, p = cli("prove", str(spec), "--out", str(out), "--build", str(out / "build"), "--no-cache",
                                "--json")
    result = json.loads(p.stdout)["results"][0] if p.stdout.strip() else {}
    verify_s, verify_cpu, v = cli("verify", str(out), "--build", str(out / "verify"))
    return {"program": name, "route": "enumeration", "k": k, "epsilon": eps, "verdict": result.get("verdict"),
            "prove_s": round(prove_s, 1), "prove_cpu_s": round(prove_cpu, 1), "verify_s": round(verify_s, 1),
            "verify_cpu_s": round(verify_cpu, 1), "verify_ok": v.returncode == 0,
            "cpu_s": round(prove_cpu + verify_cpu, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", nargs="+", default=list(PROGRAMS), choices=list(PROGRAMS))
    ap.add_argument("--ks", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--budget", type=float, default=300.0, help="CPU seconds of prove + verify at one k")
    ap.add_argument("--all-k", type=Path, help="bench/checkdp_generic.py's JSON: its figures, not measured again")
    ap.add_argument("--enumeration-only", action="store_true", help="the enumeration route only")
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench_checkdp_enum")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    known = {r["program"]: r for r in json.loads(args.all_k.read_text())} if args.all_k else {}
    rows: list[dict[str, Any]] = []
    for name in args.programs:
        line = [f"{name:22s}"]
        if not args.enumeration_only:
            a = known.get(name) or all_k(name, args.workdir)
            rows.append({**a, "route": "alignment, every k and eps"})
            line[0] += f" all k: {a['verdict']}, {a['prove_cpu_s']} + {a['verify_cpu_s']} s CPU"
        for k in args.ks:
            e = enumeration(name, k, args.workdir)
            rows.append(e)
            line.append(f"k={k}: {e['verdict']} at eps {e['epsilon']}, {e['prove_cpu_s']} + {e['verify_cpu_s']} s CPU"
                        f"{'' if e['verify_ok'] else ' (re-check FAILED)'}")
            (args.workdir / "checkdp_enumeration.json").write_text(json.dumps(rows, indent=1))
            if e["cpu_s"] > args.budget:
                line.append(f"(stopped: over {args.budget:.0f} s CPU)")
                break
        print("; ".join(line) + f"; published: {'; '.join(PUBLISHED.get(name, ()))}", flush=True)
    (args.workdir / "checkdp_enumeration.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
