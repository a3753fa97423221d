"""bench/snap_faithful_witness.py finds the witness of Float/SnapUlpsRefuted.v: the same binary64 inputs
and the same four threshold samples (each inequality the Coq file checks is asserted strict by the
script, ln by mpmath), and an exact excess above Mironov's 16*eta*B/lambda."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_script_finds_the_coq_witness() -> None:
    run = subprocess.run([sys.executable, str(REPO / "bench" / "snap_faithful_witness.py"), "300"],
                         capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 0, run.stderr
    coq = (REPO / "obligations" / "theories" / "Float" / "SnapUlpsRefuted.v").read_text(encoding="utf-8")
    pairs = re.findall(r"u\d: k = \d+, mode \w+, u = \((\d+), (-\d+)\)", run.stdout)
    assert len(pairs) == 4
    for m, e in pairs:
        assert f"IZR {m} * bpow radix2 ({e})" in coq
    for m in re.findall(r"= \((-\d+), -44\)", run.stdout.splitlines()[0]):
        assert f"IZR ({m}) * bpow radix2 (-44)" in coq
    exact = re.search(r"exact excess ([\d.]+) eta", run.stdout)
    mironov = re.search(r"Mironov 16 beta = ([\d.]+)", run.stdout)
    assert exact is not None and mironov is not None
    assert float(exact.group(1)) > 1.14 * float(mironov.group(1))
