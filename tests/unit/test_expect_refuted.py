"""scripts/expect-refuted.py, the last step of `make prove`: it passes only when every claim of
mechanisms/refuted/ came back refuted and prove itself exited 1, and keeps prove's status when
prove failed for another reason (a bad spec 2, the prover 3)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "expect-refuted.py"


def _run(status: int, verdicts: list[str]) -> int:
    results = {"results": [{"name": f"m{i}", "verdict": v} for i, v in enumerate(verdicts)]}
    text = json.dumps(results) if verdicts else ""
    return subprocess.run([sys.executable, str(SCRIPT), str(status)], input=text, text=True,
                          capture_output=True, check=False).returncode


@pytest.mark.parametrize(("status", "verdicts", "expected"), [
    (1, ["refuted", "refuted"], 0),
    (1, ["refuted", "unproved"], 1),
    (0, ["proved"], 1),
    (1, [], 1),
    (2, [], 2),
    (3, ["refuted"], 3),
])
def test_expect_refuted_status(status: int, verdicts: list[str], expected: int) -> None:
    assert _run(status, verdicts) == expected
