"""bench/snap_ulps_witness.py finds the witness of Float/SnapUlpsKRefuted.v: the same binary64 inputs, the
same four threshold samples, the logs' floats and the median's F (each inequality the Coq file checks is
asserted strict by the script, ln by mpmath at 400 bits), the pipeline run forwards with the log lnadv_k
on both sides of each threshold, the exact probabilities the route's witness states, and an excess
above Mironov's 16*eta*B/lambda with 2 ulps but not with 1 ulp at the same parameters (Lambda = 2 lambda,
where k = 1 is proved)."""
from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from obligations.float.ulps_refuted import TWO_ULPS_WITNESSES

REPO = Path(__file__).resolve().parents[2]


def _run(ulps: int) -> str:
    run = subprocess.run([sys.executable, str(REPO / "bench" / "snap_ulps_witness.py"), "300", str(ulps)],
                         capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _excess(out: str) -> tuple[float, float]:
    exact = re.search(r"exact excess ([\d.]+) eta", out)
    mironov = re.search(r"Mironov 16 beta = ([\d.]+)", out)
    assert exact is not None and mironov is not None
    return float(exact.group(1)), float(mironov.group(1))


def test_the_script_finds_the_coq_witness_and_runs_it_forwards() -> None:
    out = _run(2)
    coq = (REPO / "obligations" / "theories" / "Float" / "SnapUlpsKRefuted.v").read_text(encoding="utf-8")
    rows = re.findall(r"u\d: edge \d+, mode \w+, u = \((\d+), (-\d+)\), L = \((-\d+), (-\d+)\)", out)
    assert len(rows) == 4
    for m, e, lm, le in rows:
        assert f"IZR {m} * bpow radix2 ({e})" in coq and f"IZR ({lm}) * bpow radix2 ({le})" in coq
    [(fm, fe)] = re.findall(r"F = \((-\d+), (-\d+)\)", out)
    assert f"Definition k2_F : R := IZR ({fm}) * bpow radix2 ({fe})." in coq
    assert "s1 = " in out and "(= u2)" in out and "lnadv_k 1 k2_u2 k2_F" in coq
    assert "forwards: index(x, u1) >= out > index(x, succ u1)" in out
    w = TWO_ULPS_WITNESSES["snap_binary64_mironov_constant_2ulp_false"]
    for v, name in ((w.x, "k2_x"), (w.x_prime, "k2_x'")):
        m, e = v * 2 ** 44, -44
        assert m.denominator == 1 and f"Definition {name} : R := IZR ({m}) * bpow radix2 ({e})." in coq
    probs = re.search(r"Pr\[out \| x\] = (\d+/\d+), Pr\[out \| x'\] = (\d+/\d+)", out)
    assert probs is not None and (Fraction(probs.group(1)), Fraction(probs.group(2))) == (w.pr_x, w.pr_x_prime)
    exact, mironov = _excess(out)
    bracket = re.search(r"bracketed excess ([\d.]+) eta", out)
    assert bracket is not None and w.coq_excess <= float(bracket.group(1)) < exact
    assert exact > 1.33 * mironov and abs(float(w.seed_excess) - mironov) < 0.01


def test_one_ulp_at_the_same_parameters_stays_below_mironovs_constant() -> None:
    exact, mironov = _excess(_run(1))
    assert exact < 0.7 * mironov
