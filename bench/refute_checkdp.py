"""CheckDP's eight buggy programs refuted for every stream length: this route's times.

    python bench/refute_checkdp.py [--programs badsparsevector1 ...] [--workdir build/bench_refute]

For each program (mechanisms/checkdp/NAME.yaml, discrete Laplace in place of Laplace):
`prove` cold (a fresh build directory, no certificate cache: the alignment search that
fails, the counterexample search, coqc of the generated file with its vm_compute of the
bracket, coqchk and the audit), then `verify` re-checks the certificate (re-render,
coqc, coqchk); the two added are "this route, end to end".  Printed per program: the
verdict, the witness (k, x, x', S, eps), the stages' seconds (the process's own clock,
so the load of the machine is in them) and the CPU seconds of the two commands with
their children.  CheckDP (Wang, Ding, Kifer, Zhang, CCS 2020) reports each of its 17
examples, these eight included, decided within about 70 s, with no certificate; its
per-program figures are not re-measured here.  The raw figures go to
WORKDIR/refute_checkdp.json.  It asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PROGRAMS = ("badsparsevector1", "badsparsevector2", "badsparsevector3", "badgapsparsevector", "badnoisymax",
            "badadaptivesparsevector", "badpartialsum", "badsmartsum")


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cli(*args: str) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds (the command and every process it waited for) and the result."""
    c0, t0 = cpu_children(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "obligations", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=1800)
    return time.perf_counter() - t0, cpu_children() - c0, done


def one(name: str, work: Path) -> dict[str, Any]:
    out = work / name
    shutil.rmtree(out, ignore_errors=True)
    prove_s, prove_cpu, p = cli("prove", f"mechanisms/checkdp/{name}.yaml", "--out", str(out), "--build",
                                str(out / "build"), "--no-cache", "--json")
    result = json.loads(p.stdout)["results"][0] if p.stdout.strip() else {}
    verify_s, verify_cpu, v = cli("verify", str(out), "--build", str(out / "verify"))
    w = result.get("witness") or {}
    return {"program": name, "verdict": result.get("verdict"), "witness": w.get("text"),
            "k": w.get("k"), "x": w.get("x"), "x_prime": w.get("x_prime"), "outputs": w.get("outputs"),
            "epsilon": w.get("epsilon"), "prove_s": round(prove_s, 2), "verify_s": round(verify_s, 2),
            "verify_ok": v.returncode == 0, "total_s": round(prove_s + verify_s, 2),
            "cpu_s": round(prove_cpu + verify_cpu, 2), "stages": result.get("timings", {})}


def warm() -> None:
    """The library compiled and checked by coqchk before the first program, as `make prove`
    leaves it: otherwise the first cold prove after a library change also coqchk's the
    whole library (about 150 files) and its figure is not the program's."""
    from obligations.core.resources import THEORIES
    from obligations.prover.coq import Coq
    coq = Coq(THEORIES)
    coq.build_theories()
    if not coq.library_checked():
        checked = coq.check([], True)
        if checked.status != "ok":
            raise SystemExit(f"coqchk refused the library: {checked.message}")
        coq.mark_checked(coq.library_files())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", nargs="+", default=list(PROGRAMS), choices=list(PROGRAMS))
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench_refute")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    warm()
    rows = []
    for name in args.programs:
        r = one(name, args.workdir)
        rows.append(r)
        st = r["stages"]
        print(f"{name:24s} {r['verdict']}: k = {r['k']}, x = {r['x']}, x' = {r['x_prime']}, S = {r['outputs']}, "
              f"eps = {r['epsilon']}; prove {r['prove_s']} s (searches {st.get('unfold', '?')} s, coqc "
              f"{st.get('coqc', '?')} s, coqchk {st.get('coqchk', '?')} s) + verify {r['verify_s']} s "
              f"({'OK' if r['verify_ok'] else 'FAILED'}) = {r['total_s']} s wall, {r['cpu_s']} s CPU", flush=True)
    (args.workdir / "refute_checkdp.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
