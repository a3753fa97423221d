"""The coefficient DP for K releases on the same database (obligations/analysis/cw_coef.py)
against the classes of output sequences (the certified route, table/by_stream.py): the
5-ary example of docs/profiles.md (Pr[y = x] = 17/25, else 2/25; priors 1/2, 1/2 on
{0, 1} against {2, 3}) at ε = K·ln(19/4).

    .venv/bin/python bench/cw_stream_coef.py [--runs 12,20,50,100,200] [--tau 1e-14] [--coq 50]
        [--certified 50 [--delta 0.0326] [--tau-coq -47]]

For each K: the classes (C(K + 4, 4) types), then the DP's bracket on δ(ε) and its states
(the most alive after one step, and summed over the K steps), exactly (nothing dropped;
K <= --exact-max) and with coefficients below tau dropped into the bracket.  --coq K also compiles
bench/cw_stream_coef/CoefDP.v (the same DP, exact decisions, nothing dropped, in
primitive floats rounded to nearest and proving nothing) for that K and times coqc and
coqchk under /usr/bin/time: what the computation of a certified route would cost the
re-check.  --certified K compiles the certified check instead
(theories/Accountant/CWCoefCheck.v: `coef_le` for the rows (D, alt), rounded up, weights below
2^TAU_COQ times S+ finished, at t = (19/4)^K and the given delta) and times coqc and
`coqchk -norec` of that file alone (the library's re-check not counted).  It asserts nothing; the
figures go to WORKDIR/cw_stream_coef.json.
"""
from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from obligations.analysis import cw_coef, cw_stream  # noqa: E402

ROWS = [[Fraction(17, 25) if x == y else Fraction(2, 25) for y in range(5)] for x in range(5)]
PRIOR = [Fraction(1, 2), Fraction(1, 2), Fraction(0), Fraction(0), Fraction(0)]
ALT = [Fraction(0), Fraction(0), Fraction(1, 2), Fraction(1, 2), Fraction(0)]

CHECK = """From Coq Require Import PrimFloat Uint63 List.
Require Import Bench.CoefDP.
Import ListNotations.
Local Open Scope uint63_scope.
Definition T : float := fpow_aux 12 4.75 {k} 1%float.
Definition key0 : int := OFF + B * OFF + B * B * OFF.
Definition res := run 400 {k} 0 [(key0, (Build_cs 0.5 0.5 (0.5 * T) (0.5 * T))%float)] 0%float 0.
Lemma res_pos : PrimFloat.ltb 0 (fst res) = true.
Proof. vm_compute. reflexivity. Qed.
"""


CERTIFIED = """From Coq Require Import List QArith.
From Coq Require Floats.PrimFloat.
From Obligations.Finite Require Import Mechanism.
From Obligations.Accountant Require Import CWCoefCheck.
Import ListNotations.
Definition rr5 : fmech := FMech 5 5
  [[17#25; 2#25; 2#25; 2#25; 2#25]; [2#25; 17#25; 2#25; 2#25; 2#25]; [2#25; 2#25; 17#25; 2#25; 2#25];
   [2#25; 2#25; 2#25; 17#25; 2#25]; [2#25; 2#25; 2#25; 2#25; 17#25]]%Q.
Definition f : list Q := [1#2; 1#2; 0; 0; 0]%Q.
Definition f' : list Q := [0; 0; 1#2; 1#2; 0]%Q.
Definition sw : list (nat * nat) := [(0, 1); (2, 3)]%nat.
Module Tau. Import Coq.Floats.PrimFloat. Definition tau : float := 0x1p{tau}%float. End Tau.
Definition t : Q := Qpower (19#4) {k}.
Lemma up_ok : coef_le rr5 (2#25) (17#2) sw Tau.tau {k} f f' t ({num}#{den}) = true.
Proof. vm_cast_no_check (eq_refl true). Qed.
"""


def certified_measure(k: int, delta: Fraction, tau: int, workdir: Path) -> dict[str, Any]:
    """coqc and coqchk -norec of the certified check at K = k."""
    workdir.mkdir(parents=True, exist_ok=True)
    name = f"CoefCheckK{k}"
    (workdir / f"{name}.v").write_text(CERTIFIED.format(k=k, tau=tau, num=delta.numerator, den=delta.denominator))
    lib = ["-Q", str(REPO / "obligations" / "theories"), "Obligations", "-Q", ".", "Bench"]
    return {"K": k, "delta": str(delta), "tau_exp": tau,
            "coqc": timed(["coqc", *lib, f"{name}.v"], workdir),
            "coqchk": timed(["coqchk", "-silent", "-o", *lib, "-norec", f"Bench.{name}"], workdir)}


def timed(cmd: list[str], cwd: Path) -> dict[str, Any]:
    """Run cmd under /usr/bin/time: user CPU s, wall s, peak KB."""
    out = subprocess.run(["/usr/bin/time", "-f", "%U %e %M", *cmd], cwd=cwd, capture_output=True, text=True,
                         check=True)
    user, wall, peak = out.stderr.strip().splitlines()[-1].split()
    return {"cpu_s": float(user), "wall_s": float(wall), "peak_mb": int(peak) // 1024}


def coq_measure(k: int, workdir: Path) -> dict[str, Any]:
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "bench" / "cw_stream_coef" / "CoefDP.v", workdir / "CoefDP.v")
    (workdir / f"CoefK{k}.v").write_text(CHECK.format(k=k))
    timed(["coqc", "-Q", ".", "Bench", "CoefDP.v"], workdir)
    return {"K": k, "coqc": timed(["coqc", "-Q", ".", "Bench", f"CoefK{k}.v"], workdir),
            "coqchk": timed(["coqchk", "-silent", "-Q", ".", "Bench", f"Bench.CoefK{k}"], workdir)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="12,20,50,100,200")
    ap.add_argument("--tau", type=float, default=1e-14)
    ap.add_argument("--exact-max", type=int, default=50, help="the exact DP (nothing dropped) up to this K")
    ap.add_argument("--coq", type=int, default=0, help="also time coqc/coqchk of the float DP at this K")
    ap.add_argument("--certified", type=int, default=0, help="also time the certified check at this K")
    ap.add_argument("--delta", default="0.0326", help="the delta of --certified (a decimal)")
    ap.add_argument("--tau-coq", type=int, default=-47, help="--certified finishes weights below 2^this times S+")
    ap.add_argument("--workdir", default="build/bench_cw_coef")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    print(f"{'K':>4} {'classes':>10} | {'tau':>6} {'delta lower':>17} {'delta upper':>17} {'max':>6} "
          f"{'steps':>8} {'s':>6}")
    for k in map(int, args.runs.split(",")):
        eps = k * math.log(19 / 4)
        for tau in ((0.0, args.tau) if k <= args.exact_max else (args.tau,)):
            t0 = time.perf_counter()
            r = cw_coef.coef_hs(ROWS, PRIOR, ALT, k, eps, tau=tau)
            s = time.perf_counter() - t0
            rows.append({"K": k, "tau": tau, "lower": r.lower, "upper": r.upper, "max_states": r.max_states,
                         "state_steps": r.state_steps, "python_s": round(s, 2),
                         "classes": cw_stream.class_bound(5, k)})
            print(f"{k:>4} {cw_stream.class_bound(5, k):>10} | {tau:>6.0e} {r.lower:>17.12g} {r.upper:>17.12g} "
                  f"{r.max_states:>6} {r.state_steps:>8} {s:>6.1f}", flush=True)
    out: dict[str, Any] = {"dp": rows}
    workdir = REPO / args.workdir
    if args.coq:
        out["coq"] = coq_measure(args.coq, workdir)
        print(json.dumps(out["coq"]))
    if args.certified:
        out["certified"] = certified_measure(args.certified, Fraction(args.delta), args.tau_coq, workdir)
        print(json.dumps(out["certified"]))
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "cw_stream_coef.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
