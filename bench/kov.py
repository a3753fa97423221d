"""The Kairouz–Oh–Viswanath bound certified for concrete (ε0, k) (theories/Finite/KOV.v): the
k-fold composition of EVERY (ε0, 0)-DP finite mechanism, proved from above and refuted from below.

    python bench/kov.py [--workdir build/bench_kov]

For ε0 = ln 3 (e^ε0 = 3, rational) and ε0 = 1 (e^ε0 = e, bracketed by intervals), k = 10 and
k = 100, renders one Coq file each (obligations/kinds/finite/kov.py) stating at three values of
ε the claim (ε, upper) about every mechanism and the refutation of (ε, lower) by randomized
response (its loss event the witness), [lower, upper] the KOV value to 6 significant digits;
compiles each with coqc and re-checks them with coqchk, under /usr/bin/time -v, and prints
wall/CPU seconds and peak memory.  It asserts nothing; the raw figures go to WORKDIR/kov.json.
"""
from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from composition_pld import timed  # noqa: E402

from obligations.core.resources import THEORIES  # noqa: E402
from obligations.table.kov import Exponent, claims_for, render_kov  # noqa: E402

LN3, ONE = Exponent(Fraction(3), log=True), Exponent(Fraction(1))
CASES = {   # name: (ε0, k, the values of ε)
    "kov_ln3_k10": (LN3, 10, [Exponent(Fraction(9), log=True), ONE, Exponent(Fraction(3))]),
    "kov_ln3_k100": (LN3, 100, [Exponent(Fraction(3) ** 50, log=True), Exponent(Fraction(60)),
                                Exponent(Fraction(80))]),
    "kov_e1_k10": (ONE, 10, [Exponent(Fraction(1, 2)), Exponent(Fraction(2)), Exponent(Fraction(5))]),
    "kov_e1_k100": (ONE, 100, [Exponent(Fraction(50)), Exponent(Fraction(60)), Exponent(Fraction(70))]),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, default=REPO / "build" / "bench_kov")
    a = ap.parse_args()
    a.workdir.mkdir(parents=True, exist_ok=True)
    lib = ["-Q", str(THEORIES), "Obligations", "-Q", str(a.workdir), "Bench"]
    report = {}
    for name, (eps0, k, epsilons) in CASES.items():
        claims = claims_for(eps0, k, epsilons)
        (a.workdir / f"{name}.v").write_text(render_kov(name, eps0, k, claims))
        print(f"{name}: every ({eps0.text()}, 0)-DP mechanism, {k} runs")
        for c in claims:
            print(f"  eps = {c.eps.text():>16}: proved delta <= {float(c.upper):.7g}, "
                  f"refuted delta = {float(c.lower):.7g}")
        coqc = timed(["coqc", *lib, f"{name}.v"], a.workdir)
        print(f"  coqc    ok={coqc['ok']}  wall {coqc['wall_s']:6.1f} s  cpu {coqc['cpu_s']:6.1f} s  "
              f"peak {coqc['peak_mb']:5d} MB" + (f"\n{coqc['tail']}" if coqc["tail"] else ""))
        report[name] = {"eps0": eps0.text(), "runs": k, "coqc": coqc,
                        "claims": [[c.eps.text(), str(c.upper), str(c.lower)] for c in claims]}
    names = [f"Bench.{n}" for n in CASES if report[n]["coqc"]["ok"]]
    chk = timed(["coqchk", "-silent", "-o", *lib, *[x for n in names for x in ("-norec", n)]], a.workdir)
    print(f"coqchk of the {len(names)} files: ok={chk['ok']}  wall {chk['wall_s']:.1f} s  "
          f"cpu {chk['cpu_s']:.1f} s  peak {chk['peak_mb']} MB" + (f"\n{chk['tail']}" if chk["tail"] else ""))
    report["coqchk"] = chk
    (a.workdir / "kov.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
